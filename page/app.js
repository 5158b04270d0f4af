// fray at the table: the page. Every form is built from the catalogue
// (api/v1/procedures) and every answer comes from the library through one
// function, ask(), so the page holds no rule of its own.
'use strict';

let catalogue = [], examples = [], current = null, logLines = [];
let pinned = null, last = null, running = null;

// ---- the form ----

// Which shipped examples suit a file input, by its name.
function examplesFor(input) {
  const pick = {
    scenario: (p) => p.startsWith('examples/adbg/'),
    crt: (p) => p.startsWith('data/adbg/'),
    mix: (p) => p.endsWith('mix.yaml'),
    combat: (p) => /examples\/chits\/example-/.test(p),
    units: (p) => p.startsWith('examples/presidio/')
  }[input.name] || (() => true);
  return examples.filter(pick);
}

function field(input) {
  const id = 'in-' + input.name;
  const label = el('label', {for: id, text: input.name.replace(/_/g, ' ') + (input.unit ? ' (' + input.unit + ')' : '')});
  const help = el('small', {text: input.help + (input.rule ? ' [' + input.rule + ']' : '')});
  const box = el('div', {class: 'field ' + input.type, 'data-input': input.name});
  let control;
  if (input.type === 'bool') {
    control = el('input', {id, name: input.name, type: 'checkbox'});
    label.prepend(control);
    box.append(label, help);
    return box;
  }
  if (input.type === 'choice') {
    control = el('select', {id, name: input.name});
    const def = 'default' in input ? '(default: ' + input.default + ')' : '(none)';
    control.append(el('option', {value: '', text: def}));
    for (const c of input.choices) control.append(el('option', {value: c, text: c}));
  } else if (input.type === 'int' || input.type === 'number') {
    control = el('input', {id, name: input.name, type: 'number', min: input.min, max: input.max,
      step: input.type === 'int' ? '1' : 'any', inputmode: input.type === 'int' ? 'numeric' : 'decimal'});
    if ('default' in input) control.placeholder = String(input.default);
  } else if (input.type === 'file') {
    control = el('select', {id, name: input.name});
    control.append(el('option', {value: '', text: '(none)'}));
    for (const p of examplesFor(input)) control.append(el('option', {value: p, text: p}));
    control.append(el('option', {value: '__paste', text: 'paste or upload a file…'}));
    const area = el('textarea', {name: input.name + '__text', 'aria-label': input.name + ' text', hidden: ''});
    const upload = el('input', {type: 'file', accept: '.yaml,.yml,.txt,text/yaml,text/plain',
      'aria-label': 'upload a ' + input.name + ' file', name: input.name + '__upload'});
    // a file from this device goes into the text box: the server reads
    // no files, it is sent as text like a pasted one
    upload.addEventListener('change', async () => {
      const f = upload.files[0];
      if (!f) return;
      if (f.size > 60 * 1024) { showError(f.name + ': larger than a request may carry (60 KiB)'); return; }
      area.value = await f.text();
      area.dataset.name = f.name;
      control.value = '__paste';
      area.hidden = false;
    });
    control.addEventListener('change', () => { area.hidden = control.value !== '__paste'; });
    box.classList.add('wide');
    box.append(label, control, area, upload, help);
    return box;
  } else {
    control = el('input', {id, name: input.name, type: 'text'});
  }
  box.append(label, control, help);
  return box;
}

function buildForm(proc) {
  current = proc;
  const form = $('form');
  form.replaceChildren(...proc.inputs.map(field));
  $('summary').textContent = proc.summary + ' — ' + proc.rules;
  const buttons = $('buttons');
  buttons.replaceChildren();
  const words = {odds: 'Odds', roll: 'Roll', simulate: 'Simulate'};
  for (const mode of proc.modes) {
    const b = el('button', {type: 'button', 'data-action': mode, text: words[mode]});
    b.addEventListener('click', () => go(mode));
    buttons.append(b);
  }
  // attacker and defender side by side: a swap where the inputs pair up
  const names = proc.inputs.map((i) => i.name);
  const pairs = names.filter((n) => n.startsWith('attacker_') && names.includes('defender_' + n.slice(9)));
  if (pairs.length) {
    const b = el('button', {type: 'button', class: 'secondary', 'data-action': 'swap', text: 'Swap sides'});
    b.addEventListener('click', () => {
      for (const a of pairs) {
        const x = form.elements[a], y = form.elements['defender_' + a.slice(9)];
        [x.value, y.value] = [y.value, x.value];
      }
    });
    buttons.append(b);
  }
  const fresh = el('button', {type: 'button', class: 'secondary', 'data-action': 'new-seed', text: 'New seed'});
  fresh.addEventListener('click', newSeed);
  buttons.append(fresh);
  $('seed').parentElement.hidden = !proc.modes.some((m) => m !== 'odds');
  $('trials').parentElement.hidden = !(proc.modes.includes('simulate') || proc.odds_may_simulate);
}

function inputsOf() {
  const form = $('form'), inputs = {};
  for (const input of current.inputs) {
    const c = form.elements[input.name];
    if (!c) continue;
    if (input.type === 'bool') {
      if (c.checked) inputs[input.name] = true;
    } else if (input.type === 'file') {
      if (c.value === '__paste') {
        const area = form.elements[input.name + '__text'];
        inputs[input.name] = {name: area.dataset.name || input.name + '.yaml', text: area.value};
      } else if (c.value) {
        inputs[input.name] = c.value;
      }
    } else if (c.value !== '') {
      inputs[input.name] = input.type === 'int' || input.type === 'number' ? Number(c.value) : c.value;
    }
  }
  return inputs;
}

function setInputs(inputs) {
  const form = $('form');
  for (const [k, v] of Object.entries(inputs || {})) {
    const c = form.elements[k];
    if (!c) continue;
    if (c.type === 'checkbox') c.checked = !!v;
    else if (typeof v === 'object' && v) {
      c.value = '__paste';
      const area = form.elements[k + '__text'];
      area.value = v.text || '';
      if (v.name) area.dataset.name = v.name;
      area.hidden = false;
    } else c.value = String(v);
  }
}

// ---- the whole state in the URL fragment: a copied link is the view ----

function saveState() {
  const state = {p: current.name, i: inputsOf(), s: $('seed').value, t: $('trials').value};
  if (last && last.request.procedure === current.name) state.m = last.request.mode;
  if (pinned) state.a = pinned.request;
  history.replaceState(null, '', '#' + encodeURIComponent(JSON.stringify(state)));
}

function loadState() {
  try {
    return JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch (e) {
    return null;
  }
}

function newSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  $('seed').value = String(a[0]);
}

// ---- answers ----

function showError(msg) {
  const e = $('error');
  e.textContent = msg;
  e.hidden = !msg;
}

function label(outcome) {
  return Object.entries(outcome).map(([k, v]) => k + ': ' + (v === null ? 'none' : Array.isArray(v) ? v.join('/') : v)).join(', ');
}

// The outcome fields that differ from row to row: what a chart's bar is
// named by.
function varyingFields(rows) {
  if (!rows.length) return [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return Object.keys(rows[0].outcome).filter((k) => rows.some((r) => !same(r.outcome[k], rows[0].outcome[k])));
}

// The one outcome field that varies, when it is a count: its cumulative
// views ("at least k", "at most k") mean something.
function countField(rows) {
  const varying = varyingFields(rows);
  if (varying.length !== 1) return null;
  const k = varying[0];
  return rows.every((r) => Number.isInteger(r.outcome[k])) ? k : null;
}

// One bar a row. The words go above their bar, as wide as the chart, so a
// phone shows as much of them as a laptop's side-by-side would.
function chart(rows, what, across) {
  const keys = varyingFields(rows);
  const name = (o) => label(Object.fromEntries(keys.map((k) => [k, o[k]])));
  // drawn at the size it is shown, so its words keep their size
  const w = Math.max(300, Math.min(900, across || $('result').clientWidth || 600));
  const shown = rows.slice(0, 40), h = 30, room = Math.floor(w / 6.2);
  const s = svg('svg', {class: 'chart', viewBox: `0 0 ${w} ${shown.length * h + 4}`, role: 'img',
    'aria-label': what || 'chart of the outcomes'});
  const top = Math.max(...shown.map((r) => r.show), 1e-12);
  shown.forEach((r, i) => {
    const t = svg('text', {x: 0, y: i * h + 11});
    const words = name(r.outcome);
    t.textContent = words.length > room ? words.slice(0, room - 1) + '…' : words;
    const bar = svg('rect', {x: 0, y: i * h + 15, height: 10, width: Math.max(1, (w - 60) * r.show / top)});
    const pct = svg('text', {x: w - 52, y: i * h + 25});
    pct.textContent = (100 * r.show).toFixed(1) + '%';
    s.append(t, bar, pct);
  });
  if (rows.length > shown.length) {
    const more = svg('text', {x: 0, y: shown.length * h + 2});
    more.textContent = '… ' + (rows.length - shown.length) + ' more in the table';
    s.setAttribute('viewBox', `0 0 ${w} ${shown.length * h + 16}`);
    s.append(more);
  }
  return s;
}

function renderTable(box, resp, how) {
  const rows = resp.outcomes.map((o) => ({outcome: o.outcome, p: o.p, exact: o.exact, show: o.p}));
  const key = countField(rows);
  if (key) rows.sort((a, b) => a.outcome[key] - b.outcome[key]);
  const view = {mode: 'exactly'};
  const head = el('h2', {text: how});
  const views = el('div', {class: 'views', role: 'group', 'aria-label': 'view'});
  const wrap = el('div', {class: 'table-wrap'});
  const means = el('p', {class: 'mean'});
  const numeric = Object.keys(rows[0] ? rows[0].outcome : {}).filter((k) => rows.every((r) => typeof r.outcome[k] === 'number' || typeof r.outcome[k] === 'boolean'));
  // a yes/no field's mean is how often it is yes
  const meanOf = (k) => rows.reduce((s, r) => s + Number(r.outcome[k]) * r.p, 0);
  const isBool = (k) => rows.every((r) => typeof r.outcome[k] === 'boolean');
  means.textContent = numeric.length ? 'mean: ' + numeric.map((k) => isBool(k)
    ? k + ' ' + (100 * meanOf(k)).toFixed(1) + '% of the time' : k + ' ' + meanOf(k).toFixed(3)).join(', ') : '';
  function draw() {
    let acc = 0;
    const order = view.mode === 'at least' ? [...rows].reverse() : rows;
    for (const r of order) { acc += r.p; r.show = view.mode === 'exactly' ? r.p : acc; }
    const table = el('table', {}, el('thead', {}, el('tr', {},
      el('th', {text: 'outcome'}), el('th', {text: view.mode === 'exactly' ? 'chance' : view.mode}),
      rows.some((r) => r.exact) ? el('th', {class: 'exact', text: 'exact'}) : null)));
    const body = el('tbody');
    for (const r of rows) {
      const tr = el('tr', {'data-outcome': JSON.stringify(r.outcome), 'data-p': String(r.p)},
        el('td', {text: (view.mode === 'at least' ? '≥ ' : view.mode === 'at most' ? '≤ ' : '') + label(r.outcome)}),
        el('td', {class: 'num', text: (100 * r.show).toFixed(3) + '%'}),
        r.exact !== undefined ? el('td', {class: 'exact', text: view.mode === 'exactly' ? r.exact : ''}) : null);
      body.append(tr);
    }
    table.append(body);
    wrap.replaceChildren(chart(rows), table);
    for (const b of views.children) b.setAttribute('aria-pressed', String(b.dataset.view === view.mode));
  }
  if (key) {
    for (const m of ['exactly', 'at least', 'at most']) {
      const b = el('button', {type: 'button', 'data-view': m, text: m[0].toUpperCase() + m.slice(1)});
      b.addEventListener('click', () => { view.mode = m; draw(); });
      views.append(b);
    }
  }
  const extra = [];
  if (resp.unresolved) extra.push(el('p', {class: 'mean', text: 'unresolved: ' + (100 * resp.unresolved).toFixed(4) + '%'}));
  box.replaceChildren(head, views, means, wrap, ...extra, ...lossCharts(resp));
  draw();
}

// A battle's losses, side by side: each side's chance of losing k units,
// from a battle's odds (outcomes with "losses") or its simulation.
function lossChart(name, p, mean) {
  const rows = p.map((x, k) => ({outcome: {'units lost': k}, show: x})).filter((r) => r.show > 0);
  const across = $('result').clientWidth > 700 ? $('result').clientWidth / 2 - 16 : 0;
  return el('div', {class: 'losses'}, el('h3', {text: name + ': units lost' +
    (mean === undefined ? '' : ' (mean ' + mean.toFixed(2) + ')')}), chart(rows, name + ' losses', across));
}

function lossCharts(resp) {
  if (!Array.isArray(resp.sides) || !resp.outcomes || !resp.outcomes.every((o) => Array.isArray(o.outcome.losses)))
    return [];
  return resp.sides.map((name, i) => {
    const p = [];
    for (const o of resp.outcomes) {
      const k = o.outcome.losses[i];
      p[k] = (p[k] || 0) + o.p;
    }
    const mean = p.reduce((s, x, k) => s + (x || 0) * k, 0);
    return lossChart(name, Array.from(p, (x) => x || 0), mean);
  });
}

// A whole battle simulated: who wins (with its 95% interval) and each
// side's losses.
function renderBattleSim(box, resp, how) {
  const pct = (x) => (100 * x).toFixed(2) + '%';
  const body = el('tbody');
  const row = (winner, name, w) => el('tr', {'data-outcome': JSON.stringify({winner}), 'data-p': String(w.p)},
    el('td', {text: name}), el('td', {class: 'num', text: pct(w.p)}),
    el('td', {class: 'num', text: pct(w.lo) + ' – ' + pct(w.hi)}));
  for (const s of resp.sides) body.append(row(s.name, s.name + ' wins', s.win));
  body.append(row(null, 'neither (a draw)', resp.draw));
  const table = el('table', {}, el('thead', {}, el('tr', {}, el('th', {text: 'outcome'}), el('th', {text: 'chance'}),
    el('th', {text: '95% interval'}))), body);
  box.replaceChildren(el('h2', {text: how}),
    el('p', {class: 'mean', text: resp.scenario + '; policy ' + resp.policy + '; ' + resp.counted + ' battles, seed ' +
      resp.seed + '; mean rounds ' + resp.rounds.mean}),
    el('div', {class: 'table-wrap'}, table),
    el('div', {class: 'side-by-side'}, ...resp.sides.map((s) => lossChart(s.name, s.losses.p, s.losses.mean))));
}

function renderText(box, text, how) {
  box.replaceChildren(el('h2', {text: how}), el('pre', {class: 'story', text}));
}

// What the number is made of: the modifiers, totals and rule notes a roll
// tells before its first die (they follow from the inputs alone). Each
// TOTAL the library tells (the sum of the modifiers told since the one
// before) closes its terms; a story with modifiers and no total gets
// their sum. The list, or null when the story tells none.
function modifierList(events) {
  const before = [];
  for (const ev of events || []) {
    if (ev.event === 'roll') break;
    if (ev.event === 'modifier' || ev.event === 'total' || (ev.event === 'note' && ev.rule)) before.push(ev);
  }
  if (!before.length) return null;
  const signed = (v) => (v >= 0 ? '+' : '') + v;
  const list = el('ul', {class: 'modifiers'});
  let sum = 0, count = 0, totals = 0;
  for (const ev of before) {
    const rule = ev.rule ? el('small', {text: ' [' + ev.rule + ']'}) : null;
    if (ev.event === 'modifier') {
      sum += ev.value;
      count++;
      list.append(el('li', {'data-modifier': String(ev.value)}, el('span', {text: ev.what + ': ' + signed(ev.value)}), rule));
    } else if (ev.event === 'total') {
      totals++;
      list.append(el('li', {class: 'total', 'data-total': String(ev.value)},
        el('span', {text: ev.what + ': ' + ev.value}), rule));
    } else {
      list.append(el('li', {}, el('span', {text: ev.text}), rule));
    }
  }
  if (count && !totals)
    list.append(el('li', {class: 'sum', 'data-total': String(sum), text: 'modifiers in all: ' + signed(sum)}));
  return list;
}

async function renderModifiers(box, request) {
  let resp;
  try {
    resp = await ask({procedure: request.procedure, mode: 'roll', inputs: request.inputs, seed: 0});
  } catch (e) {
    return; /* the odds are shown; the story is a help, not a need */
  }
  const list = modifierList(resp.events);
  if (list) box.append(el('h3', {text: 'Modifiers and rules'}), list);
}

function logRoll(text) {
  logLines.push(text);
  $('log').append(el('li', {}, el('pre', {text})));
  $('log-box').hidden = false;
  const md = '# fray: rolls this session\n\n' + logLines.map((t) => '```\n' + t + '```\n').join('\n');
  const a = $('download');
  if (a.dataset.url) URL.revokeObjectURL(a.dataset.url);
  a.dataset.url = URL.createObjectURL(new Blob([md], {type: 'text/markdown'}));
  a.href = a.dataset.url;
}

function watchJob() {
  const stop = new AbortController();
  const box = $('progress'), bar = $('progress-bar'), words = $('progress-text');
  bar.value = 0;
  words.textContent = 'starting…';
  box.hidden = false;
  $('stop').onclick = () => stop.abort();
  running = stop;
  return {signal: stop.signal, progress(done, total) {
    bar.max = total || 1;
    bar.value = done;
    words.textContent = total ? done.toLocaleString() + ' of ' + total.toLocaleString() : 'working…';
  }};
}

function jobEnded() {
  $('progress').hidden = true;
  running = null;
}

// An answer in its box, and in the log for a roll.
async function render(box, answer) {
  const {request, how, resp} = answer;
  if (typeof resp === 'string') renderText(box, resp, how);
  else if (Array.isArray(resp.outcomes) && resp.outcomes.length) renderTable(box, resp, how);
  else if (resp.sides && resp.draw) renderBattleSim(box, resp, how);
  else renderText(box, await ask({...request, format: 'text'}), how);
  const proc = procOf(request);
  if (request.mode === 'odds' && proc && !isLongFor(request) && proc.modes.includes('roll'))
    await renderModifiers(box, request);
}

const procOf = (request) => catalogue.find((p) => p.name === request.procedure);
// Long work runs as a job, with a progress bar and Stop: simulations,
// and odds that may fall back to one (a whole battle).
const isLongFor = (request) => request.mode === 'simulate' ||
  (request.mode === 'odds' && procOf(request).odds_may_simulate);

function titleOf(request, resp) {
  if (request.mode === 'roll') return 'Roll (seed ' + request.seed + ')';
  if (request.mode === 'odds') return resp && resp.method === 'simulation' ? 'Odds (by simulation)' : 'Exact odds';
  return 'Simulated: ' + Number(request.trials).toLocaleString() + ' trials';
}

async function answer(request) {
  let resp;
  if (request.mode === 'roll') {
    resp = await ask({...request, format: 'text'});
  } else if (isLongFor(request)) {
    try { resp = await ask(request, watchJob()); } finally { jobEnded(); }
  } else {
    resp = await ask(request);
  }
  return {request, how: titleOf(request, resp), resp};
}

// Compare: the answer pinned as A stays beside each new one (B).
function showPinned() {
  const box = $('pinned');
  $('results').classList.toggle('compare', !!pinned);
  box.hidden = !pinned;
  if (!pinned) return Promise.resolve();
  const unpin = el('button', {type: 'button', class: 'secondary', 'data-action': 'unpin', text: 'Unpin A'});
  unpin.addEventListener('click', () => { pinned = null; showPinned(); saveState(); });
  const inner = el('div');
  box.replaceChildren(el('p', {class: 'ab', text: 'A: ' + describe(pinned.request)}), inner);
  return render(inner, pinned).then(() => box.append(unpin));
}

function describe(request) {
  const ins = Object.entries(request.inputs).map(([k, v]) => k + ' ' + (typeof v === 'object' ? v.name : v));
  return procOf(request).command + (ins.length ? ': ' + ins.join(', ') : '');
}

let asked = 0;  // the latest go(): an earlier one stopped by it stays quiet

// The request the form asks for in this mode.
function requestOf(mode) {
  const request = {procedure: current.name, mode, inputs: inputsOf()};
  if (mode !== 'odds' && $('seed').value !== '') request.seed = Number($('seed').value);
  if (mode === 'simulate' || (mode === 'odds' && current.odds_may_simulate))
    request.trials = Number($('trials').value) || 10000;
  return request;
}

async function go(mode) {
  showError('');
  const mine = ++asked;
  if (running) running.abort();
  const request = requestOf(mode);
  const box = $('result');
  box.setAttribute('aria-busy', 'true');
  try {
    last = await answer(request);
    const inner = el('div');
    box.replaceChildren(inner);
    if (pinned) inner.append(el('p', {class: 'ab', text: 'B: ' + describe(request)}));
    const body = el('div');
    inner.append(body);
    await render(body, last);
    if (mode === 'roll') logRoll(last.resp);
    const pin = el('button', {type: 'button', class: 'secondary', 'data-action': 'pin', text: 'Pin as A to compare'});
    pin.addEventListener('click', () => { pinned = last; showPinned(); saveState(); });
    inner.append(pin);
    saveState();
  } catch (e) {
    if (mine === asked) showError(e.message);
  } finally {
    box.removeAttribute('aria-busy');
    // the answer, not the form, in view (on a phone the form is long)
    ($('error').hidden ? box : $('error')).scrollIntoView({block: 'start'});
  }
}

// ---- start ----

// What a request costs, in words, for the question before a link runs it.
function costOf(request) {
  const trials = Number(request.trials || 10000).toLocaleString();
  const what = procOf(request).command;
  return request.mode === 'simulate' ? 'a simulation of ' + trials + ' trials (' + what + ')'
    : 'the odds of ' + what + ' (exact, or up to ' + trials + ' trials)';
}

// Asks before running what a link asks for; run() on yes.
function askFirst(what, run) {
  const box = $('confirm');
  $('confirm-text').textContent = 'This link asks for ' + what + '. Run it?';
  box.hidden = false;
  $('confirm-run').onclick = () => { box.hidden = true; run(); };
  $('confirm-no').onclick = () => { box.hidden = true; };
  $('confirm-run').focus();
}

// fray report --html: the answer is in the file; no server to ask.
function showReport(data) {
  const {request, response, text} = data;
  const mode = request.mode || (response.events ? 'roll' : 'odds');
  const how = titleOf({...request, mode, trials: response.trials || request.trials}, response);
  const box = $('result');
  $('report-what').textContent = request.procedure;
  $('report-request').textContent = JSON.stringify(request, null, 1);
  if (mode !== 'roll' && Array.isArray(response.outcomes) && response.outcomes.length) renderTable(box, response, how);
  else if (response.sides && response.draw) renderBattleSim(box, response, how);
  else return renderText(box, text, how);
  box.append(el('h3', {text: 'As the command line tells it'}), el('pre', {class: 'story', text}));
}

async function start() {
  const report = document.getElementById('fray-report');
  if (report) return showReport(JSON.parse(report.textContent));
  try {
    const [c, ex] = await Promise.all([getJSON('api/v1/procedures'), getJSON('api/v1/examples')]);
    catalogue = c.procedures;
    examples = ex.examples;
  } catch (e) {
    showError('the catalogue could not be read: ' + e.message);
    return;
  }
  const sel = $('procedure');
  const groups = {};
  for (const p of catalogue) {
    const set = p.name.split('.')[0];
    if (!groups[set]) sel.append(groups[set] = el('optgroup', {label: set}));
    groups[set].append(el('option', {value: p.name, text: p.command + ' — ' + p.summary}));
  }
  const state = loadState();
  const first = catalogue.find((p) => state && p.name === state.p) || catalogue[0];
  sel.value = first.name;
  buildForm(first);
  if (state) setInputs(state.i);
  if (state && state.s) $('seed').value = state.s; else newSeed();
  if (state && state.t) $('trials').value = state.t;
  // a copied link shows what it showed: A pinned, and the last answer;
  // what costs (a job: a simulation, a battle's odds) waits for a press,
  // so a link cannot start a million trials by being opened
  const wantA = state && state.a && procOf(state.a) ? state.a : null;
  const wantM = state && state.m && current.modes.includes(state.m) ? state.m : null;
  const restore = async () => {
    if (wantA) {
      try { pinned = await answer(wantA); await showPinned(); } catch (e) { showError('A: ' + e.message); }
    }
    if (wantM) go(wantM);
  };
  const costly = [wantA, wantM && requestOf(wantM)].filter((r) => r && isLongFor(r));
  if (costly.length) askFirst(costly.map(costOf).join(' and '), restore);
  else await restore();
  sel.addEventListener('change', () => {
    buildForm(catalogue.find((p) => p.name === sel.value));
    $('result').replaceChildren();
    last = null;
    saveState();
  });
}

document.addEventListener('DOMContentLoaded', start);
