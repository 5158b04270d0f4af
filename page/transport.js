// fray at the table: the page's one way to the library (server or, later,
// WebAssembly). Shared by every screen of the page.
'use strict';

// The one way to the library: a request as `fray request` takes it, the
// response as it prints it. With a watch ({progress(done, total), signal})
// the work runs as a job the server reports on and stops on the signal.
// A WebAssembly build may answer here instead.
async function ask(request, watch) {
  const post = (path) => fetch(path, {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(request)
  });
  const answer = async (r) => {
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch (e) { /* text for people */ }
    if (!r.ok) throw new Error(json && json.error ? json.error : text);
    return json === null ? text : json;
  };
  if (!watch) {
    const out = await answer(await post('api/v1/run'));
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
    if (state.state !== 'running') throw new Error(state.error || state.state);
    await new Promise((ok) => setTimeout(ok, 150));
  }
}

async function getJSON(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + ': ' + r.status);
  return r.json();
}
