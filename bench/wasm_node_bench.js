// Issue 45 item 3: every catalogue example, in node (the WebAssembly build of
// `make site`) against native (bench/wasm_node_bench.c), both through
// fray_api_call on the same request (api/v1/run, the procedure's example
// inputs, its odds when it has them, else its only mode; a file input the
// library has no copy of goes as the document, as the page sends it). Each
// request is answered once to warm up, then again until ~0.2 s of CPU time
// (process CPU, so other work on the machine counts less), start-up excluded.
// Prints a Markdown table with every ratio (wasm / native CPU a call) and
// exits 1 when any ratio is over 3 (or the two builds' answers differ).
// A benchmark, not a test: make test does not run it.
// Steady state, as a page that has answered a few requests: V8 first
// compiles wasm with its baseline compiler (Liftoff) and optimises a hot
// function later, at a time of its own choosing, so 0.2 s of calls could
// measure either (adbg.move: 26x at 0.2 s, 2.9x at 1 s); here every function
// is optimised when the module loads (--no-liftoff), and each request is
// also warmed up for a quarter of its time before it is measured.
// Usage: node bench/wasm_node_bench.js BUILD-WASM/fray.js NATIVE-DRIVER SOURCE-DIR [SECONDS] [NAME...]
//   (NATIVE-DRIVER: build/bench/wasm_node_bench; NAMEs: only those procedures)
'use strict';
const fs = require('fs'), path = require('path'), os = require('os'), {execFileSync} = require('child_process');
const [js, driver, root, secondsArg, ...only] = process.argv.slice(2);
if (!js || !driver || !root) {
  console.error('usage: node wasm_node_bench.js fray.js NATIVE-DRIVER SOURCE-DIR [SECONDS] [NAME...]');
  process.exit(2);
}
const seconds = Number(secondsArg || 0.2), LIMIT = 3;

function fnv1a(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

function asDocuments(inputs, shipped) {
  const out = {};
  for (const [k, v] of Object.entries(inputs)) {
    const file = typeof v === 'string' && /\.ya?ml$/.test(v) && fs.existsSync(path.join(root, v));
    out[k] = file && !shipped.includes(v) ? {name: path.basename(v), text: fs.readFileSync(path.join(root, v), 'utf8')} : v;
  }
  return out;
}

require('v8').setFlagsFromString('--no-liftoff');
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

require(path.resolve(js))({wasmBinary: fs.readFileSync(path.join(path.dirname(path.resolve(js)), 'fray.wasm'))})
  .then((m) => {
    // as page/worker.js calls it: the body through the heap, its length first
    const callAt = m.cwrap('fray_wasm_call', 'number', ['string', 'number', 'number']);
    const status = m.cwrap('fray_wasm_status', 'number', []);
    const call = (p, text) => {
      const n = m.lengthBytesUTF8(text), at = m._malloc(n + 1);
      m.stringToUTF8(text, at, n + 1);
      let ptr;
      try { ptr = callAt(p, at, n); } finally { m._free(at); }
      const answer = m.UTF8ToString(ptr);
      m._fray_wasm_free(ptr);
      return {status: status(), answer};
    };
    const catalogue = JSON.parse(call('api/v1/procedures', '').answer).procedures;
    const shipped = JSON.parse(call('api/v1/examples', '').answer).examples;
    const cases = catalogue.filter((p) => !only.length || only.includes(p.name)).map((p) => {
      const mode = p.modes.includes('odds') ? 'odds' : p.modes[0];
      return {name: p.name, mode, body: JSON.stringify({procedure: p.name, mode, inputs: asDocuments(p.example || {}, shipped)})};
    });
    // native: one process, every request on its stdin
    const lines = execFileSync(driver, [String(seconds)], {cwd: root, encoding: 'utf8', maxBuffer: 1 << 26,
      input: cases.map((c) => 'api/v1/run\t' + c.body + '\n').join('')}).trim().split('\n');
    if (lines.length !== cases.length) throw new Error('the native driver answered ' + lines.length + ' of ' + cases.length);
    let worst = 0, over = 0, differ = 0, sumN = 0, sumW = 0;
    const rows = [];
    cases.forEach((c, i) => {
      const [nStatus, nCalls, nCpu, , nBytes, nHash] = lines[i].split('\t');
      const first = call('api/v1/run', c.body);
      const same = first.status === Number(nStatus) && fnv1a(first.answer) === nHash &&
        Buffer.byteLength(first.answer) === Number(nBytes);
      // in batches that double, the clock read once a batch (as natively)
      const timed = (budget) => {
        let calls = 0, cpu, batch = 1;
        const c0 = cpuNow();
        do {
          for (let j = 0; j < batch; j++) call('api/v1/run', c.body);
          calls += batch;
          batch = Math.min(2 * batch, 64);
          cpu = cpuNow() - c0;
        } while (cpu < budget);
        return [calls, cpu];
      };
      timed(seconds / 4);
      const [calls, cpu] = timed(seconds);
      const w = cpu / calls, n = Number(nCpu), ratio = w / n;
      worst = Math.max(worst, ratio); sumN += n; sumW += w;
      if (ratio > LIMIT) over++;
      if (!same) differ++;
      rows.push(`| ${c.name} ${c.mode} | ${nBytes} | ${(n * 1e3).toFixed(3)} (${nCalls}) | ${(w * 1e3).toFixed(3)} (${calls}) | ` +
        `${ratio.toFixed(2)}x${ratio > LIMIT ? ' **over**' : ''}${same ? '' : ' **answers differ**'} |`);
      process.stderr.write('.');
    });
    process.stderr.write('\n');
    const cpuModel = os.cpus()[0] ? os.cpus()[0].model : '?';
    console.log(`Machine: ${cpuModel}, ${os.cpus().length} cores; node ${process.version}; ` +
      `CPU time a call (process), each repeated to ${seconds} s after a warm-up.\n`);
    console.log('| example (mode) | answer bytes | native ms (calls) | node ms (calls) | node / native |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    console.log(`\n${cases.length} examples; worst ratio ${worst.toFixed(2)}x; ${over} over ${LIMIT}x; ` +
      `summed ${(sumW * 1e3).toFixed(1)} / ${(sumN * 1e3).toFixed(1)} ms = ${(sumW / sumN).toFixed(2)}x` +
      (differ ? `; ${differ} answers differ` : '; every answer byte-identical'));
    process.exit(over || differ ? 1 : 0);
  }, (e) => { console.error(e); process.exit(2); });
