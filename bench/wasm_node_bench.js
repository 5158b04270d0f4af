// Issue 45 item 3: every catalogue example, in node (the WebAssembly build of
// `make site`) against native (bench/wasm_node_bench.c), both through
// fray_api_call on the same request (api/v1/run, the procedure's example
// inputs, its odds when it has them, else its only mode; every file they
// name is a shipped one, compiled in; an example refused fails). Each
// request is answered once to warm up, then again until ~0.2 s of CPU time
// (process CPU, so other work on the machine counts less), start-up excluded.
// The best of ROUNDS (environment, default 3) such measurements of each side.
// Prints a Markdown table with every ratio (wasm / native CPU a call) and
// exits 1 when any catalogue example's ratio is over 3 (or the two builds'
// answers differ); 30d12 and 50d20, the issue's, are shown beside them.
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
const seconds = Number(secondsArg || 0.2), LIMIT = 3, ROUNDS = Number(process.env.ROUNDS || 3);

function fnv1a(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

require(path.resolve(js))({wasmBinary: fs.readFileSync(path.join(path.dirname(path.resolve(js)), 'fray.wasm'))})
  .then((m) => {
    // as page/worker.js calls it: the body's bytes into the heap, the
    // answer's bytes out by its length (fray_wasm_length)
    const callAt = m.cwrap('fray_wasm_call', 'number', ['string', 'number', 'number']);
    const status = m.cwrap('fray_wasm_status', 'number', []);
    const encoder = new TextEncoder(), decoder = new TextDecoder();
    const call = (p, text) => {
      const bytes = encoder.encode(text), n = bytes.length, at = m._malloc(n + 1);
      m.HEAPU8.set(bytes, at);
      m.HEAPU8[at + n] = 0;
      let ptr;
      try { ptr = callAt(p, at, n); } finally { m._free(at); }
      // (a build before fray_wasm_length: as its worker did, UTF8ToString)
      const answer = m._fray_wasm_length ? decoder.decode(m.HEAPU8.subarray(ptr, ptr + m._fray_wasm_length()))
        : m.UTF8ToString(ptr);
      m._fray_wasm_free(ptr);
      return {status: status(), answer};
    };
    const catalogue = JSON.parse(call('api/v1/procedures', '').answer).procedures;
    const cases = catalogue.filter((p) => !only.length || only.includes(p.name)).map((p) => {
      const mode = p.modes.includes('odds') ? 'odds' : p.modes[0];
      return {name: p.name, mode, body: JSON.stringify({procedure: p.name, mode, inputs: p.example || {}})};
    });
    // and the two the issue measured beyond the catalogue (`fray odds 30d12`, 50d20: many exact numbers)
    for (const x of ['30d12', '50d20'])
      if (!only.length || only.includes(x))
        cases.push({name: 'dice.roll ' + x, mode: 'odds', extra: true, body: JSON.stringify({procedure: 'dice.roll', mode: 'odds', inputs: {expression: x}})});
    // in batches that double, the clock read once a batch (as natively)
    const timed = (body, budget) => {
      let calls = 0, cpu, batch = 1;
      const c0 = cpuNow();
      do {
        for (let j = 0; j < batch; j++) call('api/v1/run', body);
        calls += batch;
        batch = Math.min(2 * batch, 64);
        cpu = cpuNow() - c0;
      } while (cpu < budget);
      return [calls, cpu];
    };
    // Each case native then node, one after the other, so both see the same
    // load; ROUNDS such passes, the best time of each side kept (the
    // machine is shared: another worker's burst only ever slows a side).
    // V8 compiles the module in background threads, whose CPU the process's
    // counts: every case once, then calls for a second, before any is timed
    cases.forEach((c) => call('api/v1/run', c.body));
    for (const c0 = cpuNow(); cpuNow() - c0 < 1;) cases.slice(0, 5).forEach((c) => call('api/v1/run', c.body));
    const best = cases.map(() => ({n: Infinity, w: Infinity, nCalls: 0, calls: 0}));
    let differ = 0;
    for (let round = 0; round < ROUNDS; round++) {
      cases.forEach((c, i) => {
        const line = execFileSync(driver, [String(seconds)], {cwd: root, encoding: 'utf8', maxBuffer: 1 << 26,
          input: 'api/v1/run\t' + c.body + '\n'}).trim();
        const [nStatus, nCalls, nCpu, , nBytes, nHash] = line.split('\t');
        const first = call('api/v1/run', c.body);
        const same = first.status === Number(nStatus) && fnv1a(first.answer) === nHash &&
          Buffer.byteLength(first.answer) === Number(nBytes);
        if (!same && !c.differ) { c.differ = true; differ++; }
        if (Number(nStatus) !== 200 && !c.refused) { c.refused = true; differ++; }
        c.bytes = Number(nBytes);
        timed(c.body, seconds / 4);
        const [calls, cpu] = timed(c.body, seconds), b = best[i];
        if (Number(nCpu) < b.n) { b.n = Number(nCpu); b.nCalls = Number(nCalls); }
        if (cpu / calls < b.w) { b.w = cpu / calls; b.calls = calls; }
        process.stderr.write('.');
      });
    }
    let worst = 0, over = 0, sumN = 0, sumW = 0, extraWorst = 0;
    const rows = cases.map((c, i) => {
      const {n, w, nCalls, calls} = best[i], ratio = w / n;
      if (c.extra) {
        extraWorst = Math.max(extraWorst, ratio);
      } else {
        worst = Math.max(worst, ratio); sumN += n; sumW += w;
        if (ratio > LIMIT) over++;
      }
      return `| ${c.name} ${c.mode}${c.extra ? ' (not in the catalogue)' : ''} | ${c.bytes} | ${(n * 1e3).toFixed(3)} (${nCalls}) | ${(w * 1e3).toFixed(3)} (${calls}) | ` +
        `${ratio.toFixed(2)}x${ratio > LIMIT ? ' **over**' : ''}${c.differ ? ' **answers differ**' : ''}${c.refused ? ' **refused**' : ''} |`;
    });
    process.stderr.write('\n');
    const cpuModel = os.cpus()[0] ? os.cpus()[0].model : '?';
    console.log(`Machine: ${cpuModel}, ${os.cpus().length} cores; node ${process.version}; ` +
      `CPU time a call (process), each repeated to ${seconds} s after a warm-up, ` +
      `the best of ${ROUNDS} rounds (native and node one after the other in each).\n`);
    console.log('| example (mode) | answer bytes | native ms (calls) | node ms (calls) | node / native |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    const n = cases.filter((c) => !c.extra).length;
    console.log(`\n${n} catalogue examples; worst ratio ${worst.toFixed(2)}x; ${over} over ${LIMIT}x; ` +
      `summed ${(sumW * 1e3).toFixed(1)} / ${(sumN * 1e3).toFixed(1)} ms = ${(sumW / sumN).toFixed(2)}x` +
      (differ ? `; ${differ} answers differ or refused` : '; every answer 200 and byte-identical') +
      (extraWorst ? `; beyond the catalogue (not in the exit status) the worst ${extraWorst.toFixed(2)}x` : ''));
    process.exit(over || differ ? 1 : 0);
  }, (e) => { console.error(e); process.exit(2); });
