// The WebAssembly build against the native library, in node: every
// procedure of the catalogue in each of its modes (its example inputs; roll
// and simulate with a seed), and the shipped battles' exact odds, must give
// byte for byte what `fray request` prints. The browser build's GMP is
// mini-gmp + mini-mpq with src/wasm/gmp_compat.c: this runs every exact
// path (fractions printed by mpq_get_str, binomials, big battle tallies)
// through it. The native answers are themselves checked against rule texts
// and independent counts by the library's own tests.
// Usage: node wasm_node_test.js BUILD-WASM/fray.js NATIVE-FRAY SOURCE-DIR
'use strict';
const fs = require('fs'), path = require('path'), {execFileSync} = require('child_process');
const [js, native, root] = process.argv.slice(2);
if (!js || !native || !root) {
  console.error('usage: node wasm_node_test.js fray.js NATIVE-FRAY SOURCE-DIR');
  process.exit(2);
}

function nativeAnswer(request) {
  try {
    return {status: 200, text: execFileSync(native, ['request'], {input: JSON.stringify(request), cwd: root,
      encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe']})};
  } catch (e) {
    return {status: e.status, text: String(e.stderr)};
  }
}

// A file input the library has no copy of goes as the document itself (as
// the page sends a file it reads).
function asDocuments(inputs, shipped) {
  const out = {};
  for (const [k, v] of Object.entries(inputs)) {
    const file = typeof v === 'string' && /\.ya?ml$/.test(v) && fs.existsSync(path.join(root, v));
    out[k] = file && !shipped.includes(v) ? {name: path.basename(v), text: fs.readFileSync(path.join(root, v), 'utf8')} : v;
  }
  return out;
}

require(path.resolve(js))({wasmBinary: fs.readFileSync(path.join(path.dirname(path.resolve(js)), 'fray.wasm'))})
  .then((m) => {
    // as page/worker.js passes a body: through the heap (malloc), its
    // length first, never as a string argument (Emscripten copies those
    // onto its 5 MiB stack: a body of 1.3 million characters overflowed it)
    const callAt = m.cwrap('fray_wasm_call', 'number', ['string', 'number', 'number']);
    const maxBody = m.cwrap('fray_wasm_max_body', 'number', ['string']);
    const call = (p, text) => {
      const n = m.lengthBytesUTF8(text);
      if (n > maxBody(p)) return callAt(p, 0, n);
      const at = m._malloc(n + 1);
      m.stringToUTF8(text, at, n + 1);
      try { return callAt(p, at, n); } finally { m._free(at); }
    };
    const wasm = (p, body) => {
      const ptr = call(p, body ? JSON.stringify(body) : '');
      const text = m.UTF8ToString(ptr);
      m.ccall('fray_wasm_free', null, ['number'], [ptr]);
      return {status: m.ccall('fray_wasm_status', 'number', [], []), text};
    };
    const catalogue = JSON.parse(wasm('api/v1/procedures').text).procedures;
    const shipped = JSON.parse(wasm('api/v1/examples').text).examples;
    const nativeCatalogue = JSON.parse(execFileSync(native, ['procedures', '--json'], {encoding: 'utf8'})).procedures;
    let failed = 0, checked = 0;
    const check = (what, a, b) => {
      checked++;
      if (a.status !== 200 || b.status !== 200 || a.text !== b.text) {
        failed++;
        console.log('FAIL ' + what + '\n  wasm   ' + a.status + ' ' + a.text.slice(0, 300) +
          '\n  native ' + b.status + ' ' + b.text.slice(0, 300));
      }
    };
    check('the catalogue', {status: 200, text: JSON.stringify(catalogue)},
      {status: 200, text: JSON.stringify(nativeCatalogue)});
    for (const p of catalogue) {
      const inputs = asDocuments(p.example || {}, shipped);
      for (const mode of p.modes) {
        const r = {procedure: p.name, mode, inputs};
        if (mode !== 'odds') r.seed = 7;
        if (mode === 'simulate' || (mode === 'odds' && p.odds_may_simulate)) r.trials = 500;
        check(p.name + ' ' + mode, wasm('api/v1/jobs', r), nativeAnswer(r));
      }
    }
    // the whole battles, exact within the default budget of paths where they fit
    for (const f of shipped.filter((s) => s.startsWith('examples/adbg/'))) {
      const r = {procedure: 'adbg.battle', mode: 'odds', trials: 2000, inputs: {scenario: f}};
      check('adbg.battle odds ' + f, wasm('api/v1/jobs', r), nativeAnswer(r));
    }
    // Lochry exact: more paths than the default budget, and the exact-odds
    // memory budget counted from GMP's true block sizes (mini-gmp passes 0;
    // src/wasm/gmp_compat.c): the native library is exact here, so must this be
    const lochry = {procedure: 'adbg.battle', mode: 'odds', trials: 2000,
      inputs: {scenario: 'examples/adbg/lochry-1781.yaml', budget: 10000000}};
    const wl = wasm('api/v1/jobs', lochry);
    check('adbg.battle odds Lochry, budget 10,000,000', wl, nativeAnswer(lochry));
    if (!wl.text.includes('"method": "exact"')) {
      failed++;
      console.log('FAIL Lochry is not exact in WebAssembly');
    }
    // a refusal is a refusal on both sides, with the same message; the
    // door's is JSON that names the input (issue 42)
    const bad = {procedure: 'presidio.morale', mode: 'odds', inputs: {level: 'heroic'}};
    const wb = wasm('api/v1/run', bad), nb = nativeAnswer(bad);
    checked++;
    const said = (t) => t.replace(/^.*?:\d+:\d+: /, '').trim(); // less the request's name
    let wj = {};
    try { wj = JSON.parse(wb.text); } catch (e) { /* not JSON: fails below */ }
    if (wb.status !== 400 || nb.status !== 2 || said(String(wj.error)) !== said(nb.text) || wj.input !== 'level') {
      failed++;
      console.log('FAIL refusal\n  wasm   ' + wb.status + ' ' + wb.text + '\n  native ' + nb.text);
    }
    // no path: refused (400), never followed (it crashed the worker); a body
    // past the API's budget: 413, as fray serve answers it (it had no cap here)
    const raw = (p, text) => {
      const ptr = call(p, text);
      const out = {status: m.ccall('fray_wasm_status', 'number', [], []), text: m.UTF8ToString(ptr)};
      m.ccall('fray_wasm_free', null, ['number'], [ptr]);
      return out;
    };
    for (const [what, got, status, says] of [
      ['a NULL path', raw(null, '{}'), 400, 'no path'],
      ['a body of 64 KiB + 1', raw('api/v1/run', ' '.repeat(65537)), 413, 'at most 64 KiB'],
      ['a game body past its budget', raw('api/v1/game', ' '.repeat(maxBody('api/v1/game') + 1)), 413,
        'at most 4096 KiB'],
      // a body of 40 MB: refused from its length, nothing copied into the module
      ['a game body of 40 MB', raw('api/v1/game', ' '.repeat(40000000)), 413, 'at most 4096 KiB']]) {
      checked++;
      if (got.status !== status || !got.text.includes(says)) {
        failed++;
        console.log('FAIL ' + what + ': ' + got.status + ' ' + got.text.slice(0, 200));
      }
    }
    // the time budgets, fray serve's (a request's 10 s, a job's 120 s; 1 s
    // here): a game's odds of a melee of 1000 figures a side (the game
    // file's most: minutes of work, no answer at its end) and a job of a
    // million battles are stopped and say so; a small melee still answers
    m.ccall('fray_wasm_set_time_budgets', null, ['number', 'number'], [1, 1]);
    // the Presidials in base contact with the Apaches: melee is only for
    // units in contact (Presidio Section 5; a pair is when either names it)
    const started = JSON.parse(wasm('api/v1/game', {op: 'new', rules: 'presidio', seed: 7,
      forces_name: 'examples/presidio/forces.yaml'}).text).game
      .replace('  - name: "Presidials"\n', '  - name: "Presidials"\n    contact: "Apaches"\n');
    let huge = started;
    for (const n of [12, 10]) // the Presidials' and the Apaches' figures
      huge = huge.replace(`figures: ${n}\n    start_figures: ${n}`, 'figures: 1000\n    start_figures: 1000');
    const melee = (game) => wasm('api/v1/game', {op: 'odds', game, action: 'melee', actor: 'Presidials', target: 'Apaches'});
    const million = {procedure: 'adbg.battle', mode: 'simulate', trials: 1000000, seed: 1,
      inputs: {scenario: 'examples/adbg/blue-licks-1782.yaml'}};
    for (const [what, got, status, says] of [
      ['a melee of 12 figures a side', melee(started), 200, '"procedure": "presidio.melee"'],
      ['a melee of 1000 figures a side', melee(huge), 422, '{"error": "stopped after 1 s, this page\'s time budget'],
      ['a job of 1,000,000 battles', wasm('api/v1/jobs', million), 422, 'stopped after 1 s, this page\'s time budget']]) {
      checked++;
      if (huge === started || !started.includes('contact: "Apaches"') || got.status !== status || !got.text.includes(says)) {
        failed++;
        console.log('FAIL the time budget: ' + what + ': ' + got.status + ' ' + got.text.slice(0, 200));
      }
    }
    m.ccall('fray_wasm_set_time_budgets', null, ['number', 'number'], [0, 0]);
    // A game file of 1.5 MB that fray table plays (issue 41 case 8: it
    // overflowed the stack, "memory access out of bounds"): a real game
    // (a shot) whose log entry is repeated to 1.5 MB, as the page imports
    // it (op units) and plays it (a turn), the answers fray table's
    const tmp = fs.mkdtempSync(path.join(require('os').tmpdir(), 'fray-wasm-'));
    const file = path.join(tmp, 'long.yaml');
    const table = (...args) => execFileSync(native, ['table', ...args], {cwd: root, encoding: 'utf8'});
    table('new', file, '--rules', 'presidio', '--forces', 'examples/presidio/forces.yaml', '--seed', '3');
    table(file, 'shoot', 'Presidials', '--at', 'Apaches', '--range', '10');
    const shot = fs.readFileSync(file, 'utf8'), at = shot.indexOf('\nlog:\n') + 6;
    const entry = shot.slice(at), long = shot.slice(0, at) + entry.repeat(Math.floor((1500000 - at) / entry.length));
    fs.writeFileSync(file, long);
    table(file, 'turn');
    const units = wasm('api/v1/game', {op: 'units', game: long});
    const turned = wasm('api/v1/game', {op: 'apply', game: long, action: 'turn'});
    checked++;
    if (long.length < 1400000 || units.status !== 200 || turned.status !== 200 ||
        JSON.parse(turned.text).game !== fs.readFileSync(file, 'utf8')) {
      failed++;
      console.log('FAIL a game of ' + long.length + ' bytes: ' + units.status + ' ' + units.text.slice(0, 200) +
        ' / ' + turned.status + ' ' + turned.text.slice(0, 200));
    }
    fs.rmSync(tmp, {recursive: true});
    // the build's own vsnprintf (src/wasm/fast_printf.c) against musl's
    const printfWrong = m._fray_wasm_printf_check();
    checked++;
    if (printfWrong) {
      failed++;
      console.log('FAIL src/wasm/fast_printf.c: ' + printfWrong + ' texts differ from musl vfprintf\'s');
    }
    return workerChecks(wasm).then(([c, f]) => {
      checked += c;
      failed += f;
      console.log(checked + ' checked, ' + failed + ' failed');
      process.exit(failed ? 1 : 0);
    });
  });

// page/worker.js itself, as the page runs it (the calls above go through
// Emscripten's string helpers instead): its body by TextEncoder into the
// module's HEAPU8 (exported by name: Emscripten 4.0.7 and later export it
// only so), its answer by TextDecoder, and its size check before it
// encodes. Run in a context of its own with a worker's globals; its
// importScripts gives it this build's createFray.
function workerChecks(direct) {
  const vm = require('vm');
  const site = path.dirname(path.resolve(js));
  const file = fs.existsSync(path.join(site, 'worker.js')) ? path.join(site, 'worker.js') : path.join(root, 'page/worker.js');
  const sent = [];
  let encoded = 0; // characters the worker encoded: a body refused by its length is not
  const ctx = {
    location: {href: 'https://fray.invalid/worker.js'}, URL, TextDecoder, console,
    TextEncoder: class extends TextEncoder {
      encode(text) { encoded += text.length; return super.encode(text); }
    },
    onmessage: null, postMessage: (msg) => sent.push(msg),
    importScripts: () => {
      ctx.createFray = (opts) => require(path.resolve(js))(Object.assign({}, opts,
        {wasmBinary: fs.readFileSync(path.join(site, 'fray.wasm'))}));
    },
  };
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, {filename: file});
  const ask = async (id, p, body) => {
    await ctx.onmessage({data: {id, path: p, body}});
    return sent.filter((msg) => msg.id === id && !msg.progress).pop() || {status: 0, text: 'no answer'};
  };
  const roll = {procedure: 'presidio.morale', mode: 'roll', seed: 42,
    inputs: {level: 'veteran', size: 'platoon', casualties: 2}};
  // a level no table has, in letters of two, three and four UTF-8 bytes: the
  // refusal names it, so it must come back as it went
  const odd = {procedure: 'presidio.morale', mode: 'odds', inputs: {level: 'héroïque – 勇 🐎'}};
  const cases = [
    ['a roll', 'api/v1/jobs', JSON.stringify(roll), 200, null, direct('api/v1/jobs', roll).text],
    ['a refusal naming letters past ASCII', 'api/v1/run', JSON.stringify(odd), 400, 'héroïque – 勇 🐎',
      direct('api/v1/run', odd).text],
    // 40,000 characters, 80,000 bytes: within the budget in characters, past it in bytes
    ['a body past its budget only in bytes', 'api/v1/run', 'é'.repeat(40000), 413, 'at most 64 KiB', null],
    ['a body past its budget in characters', 'api/v1/run', ' '.repeat(70000), 413, 'at most 64 KiB', null]];
  let checked = 0, failed = 0;
  return (async () => {
    const limits = await ask(1, 'limits', '');
    checked++;
    if (limits.status !== 200 || !(JSON.parse(limits.text).odds_bytes > 0)) {
      failed++;
      console.log('FAIL worker.js limits: ' + limits.status + ' ' + limits.text);
    }
    let id = 2;
    for (const [what, p, body, status, says, same] of cases) {
      const before = encoded;
      const got = await ask(id++, p, body);
      const copied = encoded - before;
      checked++;
      if (got.status !== status || (says && !got.text.includes(says)) || (same !== null && got.text !== same) ||
          (body.length > 65536 && copied)) {
        failed++;
        console.log('FAIL worker.js, ' + what + ': ' + got.status + ' ' + String(got.text).slice(0, 300) +
          (same !== null ? '\n  direct ' + same.slice(0, 300) : '') + (copied ? ', ' + copied + ' characters encoded' : ''));
      }
    }
    return [checked, failed];
  })();
}
