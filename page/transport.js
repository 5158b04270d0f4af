// fray at the table: the page's one way to the library. Shared by every
// screen of the page. Two transports, the same answers: fray serve when the
// page came from it (it answers api/v1/procedures), otherwise libfray in
// WebAssembly in a Web Worker (worker.js; the static site of `make site`,
// or a page whose server is gone: offline, the service worker's copy).
'use strict';

// The build (`make site` stamps it: scripts/site-assemble.sh), 'dev' where
// none is (fray serve). The worker's script carries it as ?v=, so a new
// build's page never runs an old worker.js, fray.js or fray.wasm that a
// cache kept.
const BUILD = (document.querySelector('meta[name="fray-build"]') || {}).content || 'dev';
const asset = (file) => BUILD === 'dev' ? file : file + '?v=' + encodeURIComponent(BUILD);

const transport = {
  build: BUILD,
  kind: null,        // 'server' or 'wasm', once known
  probe: null,       // the promise that finds out
  catalogue: null,   // the server's api/v1/procedures answer, kept from the probe
  worker: null,
  next: 1,
  waiting: new Map(), // id -> {ok, fail, progress}
};

// Which transport: the server when it answers its catalogue with JSON.
function transportKind() {
  if (!transport.probe) {
    transport.probe = (async () => {
      try {
        const r = await fetch('api/v1/procedures', {cache: 'no-store'});
        const type = r.headers.get('Content-Type') || '';
        if (r.ok && type.startsWith('application/json')) {
          transport.catalogue = await r.json();
          return (transport.kind = 'server');
        }
      } catch (e) { /* no server (offline, or a static host) */ }
      transport.kind = 'wasm';
      sayWasmLimits();
      return transport.kind;
    })();
  }
  return transport.probe;
}

function workerOf() {
  if (transport.worker) return transport.worker;
  const w = new Worker(asset('worker.js'));
  w.onmessage = (e) => {
    const m = e.data, job = transport.waiting.get(m.id);
    if (!job) return;
    if (m.progress) {
      if (job.progress) job.progress(m.progress[0], m.progress[1]);
      return;
    }
    transport.waiting.delete(m.id);
    if (m.dead) dropWorker(w, null);
    job.ok(m);
  };
  w.onerror = (e) => dropWorker(w, new Error('the WebAssembly worker failed: ' + (e.message || 'did not load')));
  transport.worker = w;
  return w;
}

// A worker stopped (Stop) or broken: its work fails, the next call starts
// a fresh one.
function dropWorker(w, err) {
  if (transport.worker !== w) return;
  w.terminate();
  transport.worker = null;
  for (const job of transport.waiting.values()) job.fail(err || new Error('stopped'));
  transport.waiting.clear();
}

// One call to the worker: {status, text} as fray serve would answer.
function callWorker(path, body, watch) {
  const w = workerOf(), id = transport.next++;
  return new Promise((ok, fail) => {
    transport.waiting.set(id, {ok, fail, progress: watch && watch.progress});
    if (watch && watch.signal) {
      if (watch.signal.aborted) return dropWorker(w, new Error('stopped'));
      watch.signal.addEventListener('abort', () => dropWorker(w, new Error('stopped')), {once: true});
    }
    w.postMessage({id, path, body});
  });
}

// A failure as the library says it: its message, and in .input the name
// of the input (or the request's member) it is about, when it is about
// one (the JSON error answer's "input"), so the page shows it at its field.
function failure(json, text) {
  const e = new Error(json && json.error ? json.error : text);
  if (json && typeof json.input === 'string') e.input = json.input;
  return e;
}

// The worker's answer as fetch's would be read: JSON when it is JSON.
function workerAnswer(m) {
  let json = null;
  try { json = JSON.parse(m.text); } catch (e) { /* text for people */ }
  if (m.status !== 200) throw failure(json, m.text);
  return json === null ? m.text : json;
}

// The page says, when it computes itself, how far exact odds go here.
async function sayWasmLimits() {
  let note = document.getElementById('transport-note');
  if (!note) {
    const foot = document.querySelector('footer');
    if (!foot) return;
    note = document.createElement('p');
    note.id = 'transport-note';
    foot.append(note);
  }
  let mib = 256, build = '';
  try {
    const limits = workerAnswer(await callWorker('limits'));
    mib = Math.round(limits.odds_bytes / 1048576);
    build = limits.build || '';  // the worker's build, said: the one that computes
  } catch (e) { /* the default */ }
  note.textContent = 'Computed in this browser (WebAssembly, no server): exact odds may use at most ' + mib +
    ' MiB of memory here, as on fray serve; a battle whose exact odds need more falls back to a simulation ' +
    'and its answer says why.' + (build ? ' Build ' + build + '.' : '');
  if (build) note.dataset.build = build;
}

// The one way to the library: a request as `fray request` takes it, the
// response as it prints it. With a watch ({progress(done, total), signal})
// the work runs as a job (the server's, or the worker's) and stops on the
// signal; a watch {quick: true, signal} is a quick request that stops on
// the signal (in the browser the worker is ended; from a server the
// request is dropped, its time budget ends the work).
async function ask(request, watch) {
  const asJob = watch && !watch.quick;
  if ((await transportKind()) === 'wasm') {
    const out = workerAnswer(await callWorker(asJob ? 'api/v1/jobs' : 'api/v1/run', JSON.stringify(request), watch));
    return request.format === 'text' && typeof out !== 'string' ? JSON.stringify(out) : out;
  }
  const post = (path, signal) => fetch(path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(request), signal
  }).catch((e) => { throw signal && signal.aborted ? new Error('stopped') : e; });
  const answer = async (r) => {
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch (e) { /* text for people */ }
    if (!r.ok) throw failure(json, text);
    return json === null ? text : json;
  };
  if (!asJob) {
    const out = await answer(await post('api/v1/run', watch && watch.signal));
    return request.format === 'text' && typeof out !== 'string' ? JSON.stringify(out) : out;
  }
  const job = await answer(await post('api/v1/jobs'));
  const path = 'api/v1/jobs/' + job.id;
  for (;;) {
    if (watch.signal && watch.signal.aborted) {
      await fetch(path, {method: 'DELETE'});
      throw new Error('stopped');
    }
    const state = await answer(await fetch(path));
    if (watch.progress) watch.progress(state.done, state.total);
    if (state.state === 'done') return 'result' in state ? state.result : state.text;
    if (state.state !== 'running') throw failure(state, state.state);
    await new Promise((ok) => setTimeout(ok, 150));
  }
}

// A POST of JSON to one of the API's paths (api/v1/game, say) from either
// side: {ok, status, text}, as a fetch would be read. On signal (an
// AbortSignal; optional) it fails with "stopped": in the browser the worker
// is terminated (a fresh one answers the next call), from a server the
// request is dropped (the server's own time budget ends its work).
async function postAPI(path, request, signal) {
  if ((await transportKind()) === 'wasm') {
    const m = await callWorker(path, JSON.stringify(request), signal ? {signal} : undefined);
    return {ok: m.status === 200, status: m.status, text: m.text};
  }
  const r = await fetch(path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(request), signal
  });
  return {ok: r.ok, status: r.status, text: await r.text()};
}

// The page's GETs (api/v1/procedures, api/v1/examples), from either side.
async function getJSON(path) {
  if ((await transportKind()) === 'wasm') return workerAnswer(await callWorker(path, ''));
  if (path === 'api/v1/procedures' && transport.catalogue) return transport.catalogue;
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + ': ' + r.status);
  return r.json();
}

// The probe starts as this script runs, not at the page's first question:
// on a static host the worker and its WebAssembly load while the page sets
// up (sayWasmLimits starts the worker). Not in a report (file://).
if (/^https?:$/.test(location.protocol) && !document.getElementById('fray-report')) transportKind();

// Offline and installable: the service worker (sw.js) keeps the page and
// the WebAssembly build. Registered here, not inline in index.html: fray
// serve's Content-Security-Policy allows no inline script. Not from a
// report (`fray report --html` inlines this file) nor from file://.
// sw.js is always fetched past the HTTP cache (updateViaCache: 'none'): a
// new build's sw.js (its VERSION) is a new service worker.
if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol) && !document.getElementById('fray-report')) {
  navigator.serviceWorker.register('sw.js', {updateViaCache: 'none'})
    .catch(() => { /* the page works without it, online */ });
  watchForUpdates();
}

// A new build while the page is open: the browser looks for a new sw.js at
// each visit, this page also each time it is shown again; when a new one
// takes over, the page says so (its scripts are the old build's until a
// reload).
function watchForUpdates() {
  const sw = navigator.serviceWorker;
  let had = !!sw.controller;
  sw.addEventListener('controllerchange', () => {
    if (had) sayNewVersion();
    had = true;
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible')
      sw.getRegistration().then((r) => r && r.update()).catch(() => { /* offline: later */ });
  });
}

function sayNewVersion() {
  if (document.getElementById('new-version')) return;
  const box = document.createElement('p'), reload = document.createElement('button');
  box.id = 'new-version';
  box.className = 'update';
  box.setAttribute('role', 'status');
  box.textContent = 'A new version of fray is here: reload the page to use it. ';
  reload.type = 'button';
  reload.dataset.action = 'reload';
  reload.textContent = 'Reload';
  reload.addEventListener('click', () => location.reload());
  box.append(reload);
  (document.querySelector('main') || document.body).prepend(box);
}
