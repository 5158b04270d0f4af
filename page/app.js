// fray at the table: the page. Every form is built from the catalogue
// (api/v1/procedures) and every answer comes from the library through one
// function, ask(), so the page holds no rule of its own.
'use strict';

// The one way to the library: a request as `fray request` takes it, the
// response as it prints it. A WebAssembly build may answer here instead.
async function ask(request) {
  const r = await fetch('api/v1/run', {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(request)
  });
  const text = await r.text();
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (e) { /* not JSON: as it is */ }
    throw new Error(msg);
  }
  return request.format === 'text' ? text : JSON.parse(text);
}

async function getJSON(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(path + ': ' + r.status);
  return r.json();
}

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
};
const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

let catalogue = [], examples = [], current = null, logLines = [];

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
    control.append(el('option', {value: '__paste', text: 'paste a file…'}));
    const area = el('textarea', {name: input.name + '__text', 'aria-label': input.name + ' text', hidden: ''});
    control.addEventListener('change', () => { area.hidden = control.value !== '__paste'; });
    box.classList.add('wide');
    box.append(label, control, area, help);
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
        inputs[input.name] = {name: input.name + '.yaml', text: form.elements[input.name + '__text'].value};
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
      area.hidden = false;
    } else c.value = String(v);
  }
}

// ---- the whole state in the URL fragment: a copied link is the view ----

function saveState() {
  const state = {p: current.name, i: inputsOf(), s: $('seed').value};
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
function chart(rows) {
  const keys = varyingFields(rows);
  const name = (o) => label(Object.fromEntries(keys.map((k) => [k, o[k]])));
  const w = Math.max(300, Math.min(900, $('result').clientWidth || 600));
  const shown = rows.slice(0, 40), h = 30, room = Math.floor(w / 6.2);
  const s = svg('svg', {class: 'chart', viewBox: `0 0 ${w} ${shown.length * h + 4}`, role: 'img',
    'aria-label': 'chart of the outcomes'});
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

function showTable(resp, how) {
  const box = $('result');
  const rows = resp.outcomes.map((o) => ({outcome: o.outcome, p: o.p, exact: o.exact, show: o.p}));
  const key = countField(rows);
  if (key) rows.sort((a, b) => a.outcome[key] - b.outcome[key]);
  const view = {mode: 'exactly'};
  const head = el('h2', {text: how});
  const views = el('div', {class: 'views', role: 'group', 'aria-label': 'view'});
  const wrap = el('div', {class: 'table-wrap'});
  const means = el('p', {class: 'mean'});
  const numeric = Object.keys(rows[0] ? rows[0].outcome : {}).filter((k) => rows.every((r) => typeof r.outcome[k] === 'number' || typeof r.outcome[k] === 'boolean'));
  means.textContent = numeric.length ? 'mean: ' + numeric.map((k) => k + ' ' +
    rows.reduce((s, r) => s + Number(r.outcome[k]) * r.p, 0).toFixed(3)).join(', ') : '';
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
  box.replaceChildren(head, views, means, wrap, ...extra);
  draw();
}

function showText(text, how) {
  $('result').replaceChildren(el('h2', {text: how}), el('pre', {class: 'story', text}));
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

async function go(mode) {
  showError('');
  saveState();
  const request = {procedure: current.name, mode, inputs: inputsOf()};
  if (mode !== 'odds' && $('seed').value !== '') request.seed = Number($('seed').value);
  if (mode === 'simulate') request.trials = 10000;
  const busy = $('result');
  busy.setAttribute('aria-busy', 'true');
  try {
    if (mode === 'roll') {
      const text = await ask({...request, format: 'text'});
      showText(text, 'Roll (seed ' + request.seed + ')');
      logRoll(text);
    } else {
      const resp = await ask(request);
      const how = mode === 'odds' ? (resp.method === 'simulation' ? 'Odds (by simulation)' : 'Exact odds')
        : 'Simulated: ' + request.trials + ' trials';
      if (Array.isArray(resp.outcomes) && resp.outcomes.length) showTable(resp, how);
      else showText(await ask({...request, format: 'text'}), how);
    }
  } catch (e) {
    showError(e.message);
  } finally {
    busy.removeAttribute('aria-busy');
    // the answer, not the form, in view (on a phone the form is long)
    ($('error').hidden ? busy : $('error')).scrollIntoView({block: 'start'});
  }
}

// ---- start ----

async function start() {
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
  sel.addEventListener('change', () => {
    buildForm(catalogue.find((p) => p.name === sel.value));
    $('result').replaceChildren();
    saveState();
  });
}

document.addEventListener('DOMContentLoaded', start);
