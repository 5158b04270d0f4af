// fray at the table: libfray in WebAssembly (fray.js + fray.wasm, built by
// `make site` from src/wasm/), run in a Web Worker so long work never
// freezes the page; the page stops it by terminating the worker.
// Messages in: {id, path, body}; out: {id, status, text}, and while a job
// runs {id, progress: [done, total]}. Paths and answers are fray serve's.
'use strict';
// the build's ?v= (transport.js gives it to worker.js) carried on to fray.js
// and fray.wasm: a new build's worker never runs a cached old library
const BUILD = new URL(location.href).searchParams.get('v');
const asset = (file) => BUILD ? file + '?v=' + encodeURIComponent(BUILD) : file;
importScripts(asset('fray.js'));

let current = 0;

// The body goes through the module's heap (malloc), never as a string
// argument: Emscripten copies those onto its 5 MiB stack, and a game of
// 1.3 million characters overflowed it ("memory access out of bounds")
// before the budget was checked. The budget first, from the length alone:
// a body past it is answered 413 by the library with nothing copied.
// The body's bytes by TextEncoder and the answer's by TextDecoder, each one
// native copy (no JavaScript loop a character: issue 45).
function heapCall(m) {
  const call = m.cwrap('fray_wasm_call', 'number', ['string', 'number', 'number']);
  const maxBody = m.cwrap('fray_wasm_max_body', 'number', ['string']);
  const encoder = new TextEncoder();
  return (path, body) => {
    // a string's UTF-8 bytes are at least its UTF-16 units: a body longer
    // than the budget in units is refused before it is encoded at all
    const max = maxBody(path);
    if (body.length > max) return call(path, 0, body.length);
    const bytes = encoder.encode(body), n = bytes.length;
    if (n > max) return call(path, 0, n);
    const p = m._malloc(n + 1);
    if (!p) return 0; // out of memory: 503
    try {
      const heap = m.HEAPU8; // after malloc: a grown memory is a new buffer
      heap.set(bytes, p);
      heap[p + n] = 0;
      return call(path, p, n);
    } finally {
      m._free(p);
    }
  };
}

const decoder = new TextDecoder();

const ready = createFray({
  locateFile: (file) => asset(file),
  onProgress: (done, total) => postMessage({id: current, progress: [done, total]}),
}).then((m) => ({
  call: heapCall(m),
  status: m.cwrap('fray_wasm_status', 'number', []),
  free: m.cwrap('fray_wasm_free', null, ['number']),
  oddsBytes: m.cwrap('fray_wasm_odds_bytes', 'number', []),
  text: (p) => decoder.decode(m.HEAPU8.subarray(p, p + m._fray_wasm_length())),
}));

onmessage = async (e) => {
  const {id, path, body} = e.data;
  let fray;
  try {
    fray = await ready;
  } catch (err) {
    postMessage({id, status: 503, text: 'the WebAssembly build did not load: ' + err});
    return;
  }
  if (path === 'limits') {
    postMessage({id, status: 200, text: JSON.stringify({odds_bytes: fray.oddsBytes(), build: BUILD || 'dev'})});
    return;
  }
  current = id;
  try {
    const p = fray.call(path, body || '');
    const status = fray.status();
    const text = p ? fray.text(p) : 'out of memory';
    if (p) fray.free(p);
    postMessage({id, status: p ? status : 503, text});
  } catch (err) { // the module aborted (out of memory past its maximum): this worker is done
    postMessage({id, status: 503, text: 'the WebAssembly build stopped: ' + err, dead: true});
  }
};
