// fray at the table: the page. Every form is built from the catalogue
// (api/v1/procedures) and every answer comes from the library through one
// function, ask(), so the page holds no rule of its own: the headline, the
// sides, the outcome words and the example are the catalogue's.
'use strict';

let catalogue = [], examples = [], current = null, logLines = [];
let pinned = null, last = null, running = null;

// ---- words ----

const words = (name) => String(name).replace(/_/g, ' ');
// a chance in percent; a small one keeps two figures, not "0.0%"
const pct = (p, digits = 1) => p > 0 && 100 * p < Math.pow(10, -digits)
  ? (100 * p).toPrecision(2) + '%' : (100 * p).toFixed(digits) + '%';
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
// "1 leader", "2 leaders"
const several = (n, one, many) => n + ' ' + (n === 1 ? one : many);

// An outcome value in words: the catalogue's words for it, else yes/no
// for a boolean, "none" for a null.
function valueWords(proc, field, v) {
  const o = proc && proc.outcome ? proc.outcome.find((x) => x.name === field) : null;
  // own keys only: a value named "constructor" is no word of the catalogue's
  if (o && o.words && Object.prototype.hasOwnProperty.call(o.words, String(v))) return o.words[String(v)];
  if (v === true) return 'yes';
  if (v === false) return 'no';
  if (v === null || v === undefined) return 'none';
  if (Array.isArray(v)) return v.join('/');
  return String(v);
}

function label(outcome, proc) {
  return Object.entries(outcome).map(([k, v]) => words(k) + ': ' + valueWords(proc, k, v)).join(', ');
}

// ---- the headline: the catalogue's question answered first ----

// Does a value pass the headline's test ("== true", ">= 1", "!= 0")?
function passes(test, v) {
  const m = /^(==|!=|>=|<=|>|<|in)\s*(.+)$/.exec(test || '');
  if (!m) return false;
  const want = JSON.parse(m[2]);
  switch (m[1]) {
  case 'in': return Array.isArray(want) && want.includes(v);
  case '==': return v === want;
  case '!=': return v !== want;
  case '>=': return v >= want;
  case '<=': return v <= want;
  case '>': return v > want;
  default: return v < want;
  }
}

// The headline lines of an odds answer: [{name, p, exact}], each a chance
// the catalogue's headline names (its test, or each value of its field).
// later: the exact sums are left for fillExact (a long answer's).
function headlineOf(proc, resp, later) {
  const exactSumOf = (rs) => later ? undefined : exactSum(rs);
  if (resp.summary && Array.isArray(resp.sides) && resp.summary.wins)
    return battleLines(resp.sides, resp.summary.wins, resp.summary.draw);
  if (resp.draw && Array.isArray(resp.sides) && resp.sides[0] && resp.sides[0].win)
    return battleLines(resp.sides.map((s) => s.name), resp.sides.map((s) => s.win), resp.draw);
  if (!proc || !proc.headline || !Array.isArray(resp.outcomes)) return [];
  // the catalogue's questions: a yes or no first (the attacker carries the
  // position), then each value of a field (the assault's result)
  const all = [proc.headline, ...(proc.more_headlines || [])];
  const order = [...all.filter((h) => h.test !== 'each'), ...all.filter((h) => h.test === 'each')];
  return order.flatMap((h) => oneHeadline(proc, h, resp, exactSumOf));
}

function oneHeadline(proc, h, resp, exactSumOf) {
  const rows = resp.outcomes.filter((o) => h.field in o.outcome);
  if (!rows.length) return [];
  if (h.test === 'each') {
    const groups = new Map();
    for (const r of rows) {
      const k = JSON.stringify(r.outcome[h.field]);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(r);
    }
    // name: the value in words; key: the value itself (data-headline, for programs)
    const lines = [...groups].map(([k, rs]) => ({name: valueWords(proc, h.field, JSON.parse(k)), key: String(JSON.parse(k)),
      p: rs.reduce((s, r) => s + r.p, 0), exact: exactSumOf(rs), rows: rs, title: h.says}));
    return lines.filter((l) => l.p > 0);
  }
  const yes = rows.filter((r) => passes(h.test, r.outcome[h.field]));
  return [{name: h.says, p: yes.reduce((s, r) => s + r.p, 0), exact: exactSumOf(yes), rows: yes}];
}

// The exact fractions of a headline shown without them, a line at a time,
// the page answering between (45,000 rows of fractions 200 digits long
// summed at once held it for seconds). The box says data-exact="done".
async function fillExact(box, lines) {
  const items = box.querySelectorAll('li[data-hp]');
  for (let i = 0; i < lines.length && i < items.length; i++) {
    await breathe();
    if (!box.isConnected) return;
    const strong = items[i].querySelector('strong');
    if (strong && lines[i].rows) strong.replaceWith(chanceEl('strong', strong.textContent, exactSum(lines[i].rows)));
  }
  box.dataset.exact = 'done';
}

// A whole battle's summary: each side's win and the draw, each {p} and,
// where the odds are exact, its fraction {exact}.
function battleLines(names, wins, draw) {
  const lines = names.map((n, i) => ({name: n + ' wins', p: wins[i].p, exact: wins[i].exact}));
  lines.splice(1, 0, {name: 'a draw', p: draw.p, exact: draw.exact});
  return lines;
}

// The headline as the first thing of a result: words and exact numbers.
function headlineBox(proc, lines, title) {
  if (!lines.length) return null;
  const box = el('div', {class: 'headline', role: 'group', 'aria-label': 'the answer'});
  let list = null, said = null;
  for (const l of lines) {
    // each value of a field under its question ("the assault's result"), said once
    const head = l.title !== undefined ? l.title : title;
    if (!list || head !== said) {
      if (head) box.append(el('p', {class: 'says', text: cap(head)}));
      box.append(list = el('ul'));
      said = head;
    }
    // the fraction beside the share when short, else on hover (dom.js)
    list.append(el('li', {'data-headline': l.key === undefined ? l.name : l.key, 'data-hp': String(l.p)},
      el('span', {class: 'what', text: cap(l.name) + ': '}), chanceEl('strong', pct(l.p), l.exact)));
  }
  return box;
}

const headlineTitle = () => '';

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

// A field's words: the catalogue's label ("combat die roll"), else its
// name without the side it sits under.
function fieldWords(input, side) {
  if (input.label) return input.label;
  const n = side ? input.name.replace(/^(attacker|defender|target)_/, '').replace(/_(1|2)$/, '') : input.name;
  return words(n);
}

// An input named in a sentence (a link's question, "A: ..."): its label
// with the side it belongs to ("attacker combat die roll").
function inputWords(proc, name) {
  const input = proc && proc.inputs.find((i) => i.name === name);
  if (!input || !input.label) return words(name);
  const side = /^(attacker|defender|target)_/.exec(name);
  return (side && !input.label.includes(side[1]) ? side[1] + ' ' : '') + input.label;
}

// Steppers on a whole number: - and + a tap each, within the input's
// range, from its value (else its default, else its least).
function stepper(control, input) {
  const step = (d) => {
    const from = control.value !== '' ? Number(control.value) : 'default' in input ? input.default : input.min - (d > 0 ? 1 : 0);
    const v = Math.min(input.max, Math.max(input.min, Math.round(from) + d));
    control.value = String(v);
    control.dispatchEvent(new Event('input', {bubbles: true}));
    control.dispatchEvent(new Event('change', {bubbles: true}));
  };
  const name = fieldWords(input, true);
  const less = el('button', {type: 'button', class: 'step secondary', 'data-step': '-1', 'aria-label': 'one less: ' + name, text: '−'});
  const more = el('button', {type: 'button', class: 'step secondary', 'data-step': '1', 'aria-label': 'one more: ' + name, text: '+'});
  less.addEventListener('click', () => step(-1));
  more.addEventListener('click', () => step(1));
  return el('div', {class: 'stepper'}, less, control, more);
}

function field(input, side) {
  const id = 'in-' + input.name;
  const need = !!input.required;
  const name = fieldWords(input, side);
  const label = el('label', {for: id, text: cap(name) + (input.unit && input.unit !== name ? ' (' + input.unit + ')' : '')});
  if (need) label.append(el('span', {class: 'req', 'aria-hidden': 'true', text: ' *'}));
  // the library's help names no command line: shown as it is
  const help = el('small', {id: id + '-help', text: input.help + (input.rule ? ' [' + input.rule + ']' : '')});
  const err = el('span', {class: 'field-error', id: id + '-error', role: 'alert', hidden: ''});
  const box = el('div', {class: 'field ' + input.type, 'data-input': input.name});
  let control;
  if (input.type === 'bool') {
    control = el('input', {id, name: input.name, type: 'checkbox', 'aria-describedby': id + '-help'});
    label.prepend(control);
    box.append(label, help, err);
    return box;
  }
  if (input.type === 'choice') {
    control = el('select', {id, name: input.name});
    const def = 'default' in input ? '(default: ' + input.default + ')' : need ? '(choose)' : '(none)';
    control.append(el('option', {value: '', text: def}));
    for (const c of input.choices) control.append(el('option', {value: c, text: c}));
  } else if (input.type === 'int' || input.type === 'number') {
    control = el('input', {id, name: input.name, type: 'number', min: input.min, max: input.max,
      step: input.type === 'int' ? '1' : 'any', inputmode: input.type === 'int' ? 'numeric' : 'decimal'});
    if ('default' in input) control.placeholder = String(input.default);
    // a budget of paths: on the page, as many as the job allows (requestOf)
    if (input.unit === 'paths' && current && current.odds_may_simulate) control.placeholder = 'as many as this page allows';
  } else if (input.type === 'file') {
    control = el('select', {id, name: input.name});
    control.append(el('option', {value: '', text: need ? '(choose)' : '(none)'}));
    for (const p of examplesFor(input)) control.append(el('option', {value: p, text: p.replace(/^.*\//, '')}));
    control.append(el('option', {value: '__paste', text: 'paste or upload a file…'}));
    const area = el('textarea', {name: input.name + '__text', 'aria-label': words(input.name) + ' text', hidden: ''});
    const upload = el('input', {type: 'file', accept: '.yaml,.yml,.txt,text/yaml,text/plain',
      'aria-label': 'upload a ' + words(input.name) + ' file', name: input.name + '__upload'});
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
    control.setAttribute('aria-describedby', id + '-help');
    if (need) control.setAttribute('aria-required', 'true');
    box.append(label, control, area, upload, help, err);
    return box;
  } else if (Array.isArray(input.choices) && input.choices.length) {
    // a text input the data names every value of (a weapon, a policy): a
    // picker, as a choice is; the library still looks the name up
    control = el('select', {id, name: input.name});
    control.append(el('option', {value: '', text: need ? '(choose)' : '(none)'}));
    for (const c of input.choices) control.append(el('option', {value: c, text: c}));
  } else {
    control = el('input', {id, name: input.name, type: 'text'});
  }
  control.setAttribute('aria-describedby', id + '-help');
  if (need) control.setAttribute('aria-required', 'true');
  // a small count: - and + beside it, a thumb's tap each
  const small = input.type === 'int' && input.unit !== 'paths' && input.max - input.min <= 200;
  box.append(label, small ? stepper(control, input) : control, help, err);
  return box;
}

// The form's control of an input, found by its name as data. Never
// form[name] or form.elements[name]: there a name like "length" or "item"
// (a link's inputs are anyone's words) is the collection's own property.
function control(name) {
  for (const c of $('form').elements) if (c.name === name) return c;
  return null;
}

// The catalogue's sides: [{attacker, defender}] input pairs.
const sidesOf = (proc) => Array.isArray(proc.sides) ? proc.sides : [];

function buildForm(proc) {
  current = proc;
  const form = $('form');
  const paired = new Map();
  for (const s of sidesOf(proc)) { paired.set(s.attacker, 'attacker'); paired.set(s.defender, 'defender'); }
  const example = proc.example || {};
  // the inputs a player most needs first; the rest folded under "more"
  const main = [], more = [];
  for (const i of proc.inputs) {
    if (paired.has(i.name)) continue;
    (i.required || Object.prototype.hasOwnProperty.call(example, i.name) ? main : more).push(field(i));
  }
  const kids = [];
  if (main.length) kids.push(el('div', {class: 'fields'}, ...main));
  if (paired.size) {
    const group = (side) => el('fieldset', {class: 'side side-' + side},
      el('legend', {text: cap(side)}),
      ...sidesOf(proc).map((s) => field(proc.inputs.find((i) => i.name === s[side]), side)));
    kids.push(el('div', {class: 'sides'}, group('attacker'), group('defender')));
  }
  if (more.length) {
    kids.push(el('details', {class: 'more'}, el('summary', {text: 'More options (' + more.length + ')'}),
      el('div', {class: 'fields'}, ...more)));
  }
  form.replaceChildren(...kids);
  $('summary').textContent = cap(proc.summary) + ' — ' + proc.rules;
  const buttons = $('buttons');
  buttons.replaceChildren();
  const names = {odds: 'Odds', roll: 'Roll', simulate: 'Simulate'};
  for (const mode of proc.modes) {
    const b = el('button', {type: 'button', 'data-action': mode, text: names[mode]});
    b.addEventListener('click', () => go(mode));
    buttons.append(b);
  }
  const tools = $('form-tools');
  tools.replaceChildren();
  if (Object.keys(example).length) {
    const b = el('button', {type: 'button', class: 'secondary', 'data-action': 'example', text: 'Fill with the example'});
    b.addEventListener('click', () => { clearForm(); setInputs(example); saveState(); });
    tools.append(b);
  }
  tools.append(setupTools());
  if (paired.size) {
    const b = el('button', {type: 'button', class: 'secondary', 'data-action': 'swap', text: 'Swap sides'});
    b.addEventListener('click', () => swapSides(proc));
    tools.append(b);
  }
  const fresh = el('button', {type: 'button', class: 'secondary', 'data-action': 'new-seed', text: 'New seed'});
  fresh.addEventListener('click', newSeed);
  buttons.append(fresh);
  $('seed').parentElement.hidden = !proc.modes.some((m) => m !== 'odds');
  $('trials').parentElement.hidden = !(proc.modes.includes('simulate') || proc.odds_may_simulate);
  const req = proc.inputs.some((i) => i.required);
  $('req-note').hidden = !req;
}

// Swap: every pair of the catalogue's sides exchanges its values, a
// checkbox its tick.
function swapSides(proc) {
  for (const s of sidesOf(proc)) {
    const x = control(s.attacker), y = control(s.defender);
    if (!x || !y) continue;
    if (x.type === 'checkbox') [x.checked, y.checked] = [y.checked, x.checked];
    else [x.value, y.value] = [y.value, x.value];
  }
  saveState();
}

function clearForm() {
  for (const input of current.inputs) {
    const c = control(input.name);
    if (!c) continue;
    if (c.type === 'checkbox') c.checked = false; else c.value = '';
    const area = control(input.name + '__text');
    if (area) { area.value = ''; area.hidden = true; }
  }
  fieldErrors({});
}

function inputsOf() {
  const inputs = {};
  for (const input of current.inputs) {
    const c = control(input.name);
    if (!c) continue;
    if (input.type === 'bool') {
      if (c.checked) inputs[input.name] = true;
    } else if (input.type === 'file') {
      if (c.value === '__paste') {
        const area = control(input.name + '__text');
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

// A set-up travels as the request file `fray request` reads: saved with
// the mode last asked (else the procedure's first), opened back into the
// form. Nothing runs on opening: the player presses a button.
function setupRequest() {
  const mode = last && last.request.procedure === current.name ? last.request.mode : current.modes[0];
  return requestOf(mode);
}

function setupTools() {
  const save = el('a', {class: 'button secondary', 'data-action': 'save-setup', href: '#',
    download: 'fray-' + current.name + '.json', text: 'Save the set-up'});
  save.addEventListener('click', () => {
    save.href = 'data:application/json;charset=utf-8,' +
      encodeURIComponent(JSON.stringify(setupRequest(), null, 2) + '\n');
  });
  const file = el('input', {type: 'file', id: 'setup-file', accept: '.json,application/json'});
  file.addEventListener('change', async () => {
    const f = file.files[0];
    if (!f) return;
    let req = null;
    try { req = JSON.parse(await f.text()); } catch (e) { /* said below */ }
    const proc = req && typeof req === 'object' && catalogue.find((p) => p.name === req.procedure);
    if (!proc) {
      showError(f.name + ': not a set-up fray knows (a request file with a procedure from the list)');
      return;
    }
    $('procedure').value = proc.name;
    choose(proc.name);
    clearForm();
    setInputs(req.inputs);
    if (req.seed !== undefined) $('seed').value = String(req.seed);
    if (req.trials !== undefined) $('trials').value = String(req.trials);
    showError('');
    saveState();
  });
  return el('span', {class: 'setup'}, save, file,
    el('label', {class: 'button secondary', for: 'setup-file', text: 'Open a set-up'}));
}

// The inputs a link, a set-up or the example gives: only the procedure's
// own (any other name is left alone), each found by its name as data.
function setInputs(inputs) {
  if (!inputs || typeof inputs !== 'object' || Array.isArray(inputs)) return;
  const known = new Set(current.inputs.map((i) => i.name));
  for (const [k, v] of Object.entries(inputs)) {
    const c = known.has(k) ? control(k) : null;
    if (!c) continue;
    if (c.type === 'checkbox') c.checked = !!v;
    else if (typeof v === 'object' && v) {
      // a document: only into a file input's text box (none elsewhere)
      const area = control(k + '__text');
      if (!area) continue;
      c.value = '__paste';
      area.value = String(v.text || '');
      if (v.name) area.dataset.name = String(v.name);
      area.hidden = false;
    } else {
      // a picker keeps a value the data does not list (a link's "random:7")
      if (c.tagName === 'SELECT' && ![...c.options].some((o) => o.value === String(v)))
        c.append(el('option', {value: String(v), text: String(v)}));
      c.value = String(v);
    }
    // a folded field that is filled is shown
    const more = c.closest('details');
    if (more) more.open = true;
  }
}

// ---- errors at their field, in the page's words ----

// {input name: message}: each shown under its field; the rest cleared.
function fieldErrors(errs) {
  for (const e of document.querySelectorAll('#form .field-error')) { e.hidden = true; e.textContent = ''; }
  for (const c of document.querySelectorAll('#form [aria-invalid]')) c.removeAttribute('aria-invalid');
  let first = null;
  for (const [name, msg] of Object.entries(errs)) {
    const e = $('in-' + name + '-error'), c = $('in-' + name);
    if (!e) continue;
    e.textContent = msg;
    e.hidden = false;
    if (c) { c.setAttribute('aria-invalid', 'true'); first = first || c; }
    const more = e.closest('details');
    if (more) more.open = true;
  }
  return first;
}

// The required inputs left empty, before asking.
function missingOf(inputs) {
  const errs = {};
  for (const i of current.inputs)
    if (i.required && !(i.name in inputs)) errs[i.name] = 'Needed: ' + (i.type === 'choice' || i.type === 'file'
      ? 'choose one' : 'fill it in') + ' (' + i.help + ').';
  return errs;
}

// The library's failure (transport.js): its message as the library says
// it (no command line in it), at the field of the input it names (the
// answer's "input"), when the form has that field.
function errorAtField(e) {
  const name = e && e.input && current && current.inputs.some((i) => i.name === e.input) ? e.input : undefined;
  return {name, text: String(e && e.message !== undefined ? e.message : e)};
}

// ---- the whole state in the URL fragment: a copied link is the view ----

function saveState() {
  if (!current) return;
  const state = {p: current.name, i: inputsOf(), s: $('seed').value, t: $('trials').value};
  if (last && last.request.procedure === current.name) state.m = last.request.mode;
  if (pinned) state.a = pinned.request;
  history.replaceState(null, '', '#' + encodeURIComponent(JSON.stringify(state)));
  try { localStorage.setItem('fray.view', JSON.stringify(state)); } catch (e) { /* storage off: the link keeps it */ }
}

// The view kept in this browser, for a page opened without a link.
function storedState() {
  try { return JSON.parse(localStorage.getItem('fray.view')); } catch (e) { return null; }
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

// The outcome fields that differ from row to row.
function varyingFields(rows) {
  if (!rows.length) return [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  return Object.keys(rows[0].outcome).filter((k) => rows.some((r) => !same(r.outcome[k], rows[0].outcome[k])));
}

// One bar a row. The words go above their bar, as wide as the chart.
function chart(rows, what, across) {
  const keys = varyingFields(rows);
  const name = (o) => label(Object.fromEntries(keys.map((k) => [k, o[k]])));
  const w = Math.max(300, Math.min(900, across || $('result').clientWidth || 600));
  const shown = rows.slice(0, 40), h = 30, room = Math.floor(w / 6.2);
  const s = svg('svg', {class: 'chart', viewBox: `0 0 ${w} ${shown.length * h + 4}`, role: 'img',
    'aria-label': what || 'chart of the outcomes'});
  const top = Math.max(...shown.map((r) => r.show), 1e-12);
  shown.forEach((r, i) => {
    const t = svg('text', {x: 0, y: i * h + 11});
    const text = name(r.outcome);
    t.textContent = text.length > room ? text.slice(0, room - 1) + '…' : text;
    const bar = svg('rect', {x: 0, y: i * h + 15, height: 10, width: Math.max(1, (w - 60) * r.show / top)});
    const p = svg('text', {x: w - 52, y: i * h + 25});
    p.textContent = pct(r.show);
    s.append(t, bar, p);
  });
  return s;
}

// Each count field alone: Exactly, At least, At most k.
function countTables(proc, rows) {
  return countFields(rows).map((k) => countTable(proc, rows, k));
}

// The count fields: whole numbers that vary.
function countFields(rows) {
  const varying = varyingFields(rows);
  return Object.keys(rows[0] ? rows[0].outcome : {}).filter((k) =>
    varying.includes(k) && rows.every((r) => Number.isInteger(r.outcome[k])));
}

function countTable(proc, rows, k) {
  {
    const by = new Map();
    for (const r of rows) {
      const v = r.outcome[k];
      if (!by.has(v)) by.set(v, []);
      by.get(v).push(r);
    }
    const ks = [...by.keys()].sort((a, b) => a - b);
    const p = ks.map((v) => by.get(v).reduce((s, r) => s + r.p, 0));
    const total = p.reduce((s, x) => s + x, 0);
    const body = el('tbody');
    let below = 0;
    ks.forEach((v, i) => {
      const exactly = p[i], atMost = below + p[i], atLeast = total - below;
      below += p[i];
      if (exactly <= 0) return;
      body.append(el('tr', {'data-count': String(v), 'data-exactly': String(exactly), 'data-at-least': String(atLeast),
        'data-at-most': String(atMost)}, el('th', {scope: 'row', text: String(v)}),
      el('td', {class: 'num', text: pct(exactly)}), el('td', {class: 'num', text: pct(atLeast)}),
      el('td', {class: 'num', text: pct(atMost)})));
    });
    const mean = ks.reduce((s, v, i) => s + v * p[i], 0) / (total || 1);
    const o = proc && proc.outcome ? proc.outcome.find((x) => x.name === k) : null;
    return el('div', {class: 'count', 'data-field': k},
      el('h3', {text: cap(words(k)) + (o && o.help ? ' — ' + o.help : '') + ' (mean ' + mean.toFixed(2) + ')'}),
      el('table', {class: 'counts'}, el('thead', {}, el('tr', {}, el('th', {scope: 'col', text: words(k)}),
        el('th', {scope: 'col', text: 'Exactly'}), el('th', {scope: 'col', text: 'At least'}),
        el('th', {scope: 'col', text: 'At most'}))), body));
  }
}

// The counts under the side they belong to (an outcome named attacker_...
// or defender_...): Attacker | Defender on a laptop, headed groups on a
// phone; the rest side by side where there is room.
function bySide(counts) {
  const of = (side) => counts.filter((c) => c.dataset.field.startsWith(side + '_'));
  const att = of('attacker'), def = of('defender');
  const rest = counts.filter((c) => !att.includes(c) && !def.includes(c));
  const out = [];
  if (att.length && def.length) {
    const group = (side, list) => el('section', {class: 'side side-' + side, 'aria-label': side},
      el('h3', {class: 'side-head', text: cap(side)}), ...list);
    out.push(el('div', {class: 'sides'}, group('attacker', att), group('defender', def)));
  } else rest.unshift(...att, ...def);
  if (rest.length) out.push(el('div', {class: 'side-by-side'}, ...rest));
  return out;
}

// The other fields that vary (yes/no, words): how often each value comes.
function otherFields(proc, rows) {
  const fields = varyingFields(rows).filter((k) => !rows.every((r) => Number.isInteger(r.outcome[k])) &&
    !(proc && proc.headline && proc.headline.field === k));
  if (!fields.length) return null;
  const body = el('tbody');
  for (const k of fields) {
    const by = new Map();
    for (const r of rows) {
      const v = JSON.stringify(r.outcome[k]);
      by.set(v, (by.get(v) || 0) + r.p);
    }
    for (const [v, p] of by) {
      if (p <= 0) continue;
      body.append(el('tr', {}, el('td', {text: cap(words(k))}), el('td', {text: valueWords(proc, k, JSON.parse(v))}),
        el('td', {class: 'num', text: pct(p)})));
    }
  }
  return el('div', {class: 'others'}, el('h3', {text: 'The other results'}),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', {scope: 'col', text: 'what'}),
      el('th', {scope: 'col', text: 'comes out'}), el('th', {scope: 'col', text: 'chance'}))), body));
}

// Every joint outcome, folded: for whoever wants it. Rows of no chance are
// hidden (kept for the record).
// A table of 45,000 outcomes (the odds of 300 lost animals) held the page
// for seconds, built or laid out: the likeliest JOINT_FIRST rows are shown,
// and every outcome is a download (CSV), made when asked for.
const JOINT_FIRST = 2000, JOINT_SLICE = 250;
// pause (optional): awaited between slices of rows (false: stop, a newer
// answer took the box)
async function jointTable(proc, rows, pause) {
  const exact = rows.some((r) => r.exact);
  const body = el('tbody');
  const sorted = [...rows].sort((a, b) => b.p - a.p);
  if (pause && !await pause()) return null;
  let n = 0;
  for (const r of sorted.slice(0, JOINT_FIRST)) {
    if (pause && ++n % JOINT_SLICE === 0 && !await pause()) return null;
    // the chance with its fraction beside it when short, else on hover: a
    // column of 9-digit fractions is no read (dom.js)
    const tr = el('tr', {'data-outcome': JSON.stringify(r.outcome), 'data-p': String(r.p)},
      el('td', {text: label(r.outcome, proc)}), chanceEl('td', pct(r.p, 3), r.exact, {class: 'num'}));
    if (!(r.p > 0)) tr.hidden = true;
    body.append(tr);
  }
  const shown = rows.filter((r) => r.p > 0).length;
  const box = el('details', {class: 'joint'}, el('summary', {text: 'Every outcome together (' + shown + ')'}),
    el('div', {class: 'table-wrap'}, el('table', {}, el('thead', {}, el('tr', {}, el('th', {scope: 'col', text: 'outcome'}),
      el('th', {scope: 'col', text: exact ? 'chance (exact)' : 'chance'}))),
    body)));
  if (sorted.length > JOINT_FIRST) {
    const rest = sorted.slice(JOINT_FIRST), p = rest.reduce((s, r) => s + r.p, 0);
    const csv = el('a', {href: '#', class: 'button secondary', 'data-action': 'outcomes-csv', download: 'fray-outcomes.csv',
      text: 'Every outcome (CSV)'});
    csv.addEventListener('click', () => {
      if (csv.dataset.url) return;
      const keys = Object.keys(sorted[0].outcome);
      // a word quoted, and never a spreadsheet's formula (OWASP: a leading = + - @ tab or CR)
      const cell = (v) => typeof v === 'number' || typeof v === 'boolean' || v === null ? String(v)
        : '"' + (/^[=+\-@\t\r]/.test(String(v)) ? "'" : '') + String(v).replace(/"/g, '""') + '"';
      const text = [...keys, 'p', 'exact'].join(',') + '\n' + sorted.map((r) =>
        [...keys.map((k) => cell(r.outcome[k])), r.p, r.exact || ''].join(',')).join('\n') + '\n';
      csv.href = csv.dataset.url = URL.createObjectURL(new Blob([text], {type: 'text/csv'}));
    });
    box.dataset.rest = String(rest.length);
    box.append(el('p', {class: 'mean', text: 'The likeliest ' + JOINT_FIRST.toLocaleString() + ' outcomes; ' +
      rest.length.toLocaleString() + ' more, together ' + pct(p, 3) + ', are in the download: '}, csv));
  }
  return box;
}

// A pause that lets the page answer (a click, a key, a timer) between
// slices of long work on the main thread.
const breathe = () => new Promise((ok) => setTimeout(ok, 0));

// A long answer (many rows) is built in parts, the page answering between
// them; a newer answer for the same box wins over one still being built.
async function renderTable(box, resp, how, proc) {
  proc = proc || procOf(resp) || null;
  const ticket = box.dataset.ticket = String(Number(box.dataset.ticket || 0) + 1);
  const rows = resp.outcomes.map((o) => ({outcome: o.outcome, p: o.p, exact: o.exact}));
  const pause = async () => {
    if (rows.length > JOINT_FIRST) await breathe();
    return box.dataset.ticket === ticket;
  };
  const long = rows.length > JOINT_FIRST;
  if (!await pause()) return; // the answer's parse was a long step: the page answers first
  const parts = [el('h2', {text: how})];
  if (resp.method === 'simulation') parts.push(whyNotExact(resp));
  const lines = headlineOf(proc, resp, long);
  const head = headlineBox(proc, lines, headlineTitle(proc));
  if (head) parts.push(head);
  if (!await pause()) return;
  if (!resp.summary) {
    const counts = [];
    for (const k of countFields(rows)) {
      if (!await pause()) return;
      counts.push(countTable(proc, rows, k));
    }
    parts.push(...bySide(counts));
    if (!await pause()) return;
    const others = otherFields(proc, rows);
    if (others) parts.push(others);
  }
  parts.push(...lossCharts(resp));
  if (!await pause()) return;
  const joint = await jointTable(proc, rows, pause);
  if (!joint) return;
  parts.push(joint);
  if (resp.unresolved) parts.push(el('p', {class: 'mean', text: 'unresolved: ' + pct(resp.unresolved, 4)}));
  if (!await pause()) return;
  box.replaceChildren(...parts);
  if (head && long) fillExact(head, lines);
  else if (head) head.dataset.exact = 'done';
}

// Why odds are not exact: the library fell back to a simulation.
function whyNotExact(resp) {
  const p = el('p', {class: 'why', role: 'note'});
  // the library's reason (not_exact), in the page's words
  const why = {
    paths: 'the exact walk was refused: this battle has more outcome paths than exact odds may follow here',
    memory: 'the exact walk was refused: it would need more memory than exact odds may take here',
    policy: 'exact odds need a policy that decides alike each time (heuristic)',
    asked: 'a budget of 0 paths asks for a simulation'
  }[(resp.not_exact || {}).reason] || 'exact odds did not finish';
  p.textContent = 'Not exact: ' + why + ', so these odds are by simulation of ' +
    Number(resp.trials).toLocaleString() + ' battles. Simulate gives more battles.';
  // the library's own reason, with its numbers (the paths, the states waiting)
  const said = ((resp.not_exact || {}).message || '').replace(/;\s*simulate instead$/, '');
  if (said) p.append(el('small', {class: 'said', text: ' (' + said + ')'}));
  if (resp.not_exact) p.dataset.reason = resp.not_exact.reason;
  if (current && current.modes.includes('simulate')) {
    const b = el('button', {type: 'button', class: 'secondary', 'data-action': 'simulate-instead', text: 'Simulate instead'});
    b.addEventListener('click', () => go('simulate'));
    p.append(' ', b);
  }
  return p;
}

// A battle's losses, side by side: each side's chance of losing k units.
function lossChart(name, p, mean) {
  const rows = p.map((x, k) => ({outcome: {'units lost': k}, show: x})).filter((r) => r.show > 0);
  const across = $('result').clientWidth > 700 ? $('result').clientWidth / 2 - 16 : 0;
  return el('div', {class: 'losses'}, el('h3', {text: name + ': units lost' +
    (mean === undefined ? '' : ' (mean ' + mean.toFixed(2) + ')')}), chart(rows, name + ' losses', across));
}

function lossCharts(resp) {
  if (!Array.isArray(resp.sides) || !resp.outcomes || !resp.outcomes.every((o) => Array.isArray(o.outcome.losses)))
    return [];
  return [el('div', {class: 'side-by-side'}, ...resp.sides.map((name, i) => {
    const p = [];
    for (const o of resp.outcomes) {
      const k = o.outcome.losses[i];
      p[k] = (p[k] || 0) + o.p;
    }
    const mean = p.reduce((s, x, k) => s + (x || 0) * k, 0);
    return lossChart(name, Array.from(p, (x) => x || 0), mean);
  }))];
}

// A whole battle simulated: who wins first, then the 95% intervals and
// each side's losses.
function renderBattleSim(box, resp, how) {
  const body = el('tbody');
  const row = (winner, name, w) => el('tr', {'data-outcome': JSON.stringify({winner}), 'data-p': String(w.p)},
    el('td', {text: name}), el('td', {class: 'num', text: pct(w.p, 2)}),
    el('td', {class: 'num', text: pct(w.lo, 2) + ' – ' + pct(w.hi, 2)}));
  for (const s of resp.sides) body.append(row(s.name, s.name + ' wins', s.win));
  body.append(row(null, 'neither (a draw)', resp.draw));
  const table = el('table', {}, el('thead', {}, el('tr', {}, el('th', {scope: 'col', text: 'outcome'}),
    el('th', {scope: 'col', text: 'chance'}), el('th', {scope: 'col', text: '95% interval'}))), body);
  box.replaceChildren(el('h2', {text: how}), headlineBox(null, headlineOf(null, resp), 'who wins'),
    el('p', {class: 'mean', text: resp.scenario + '; policy ' + resp.policy + '; ' + resp.counted + ' battles, seed ' +
      resp.seed + '; mean rounds ' + resp.rounds.mean}),
    el('div', {class: 'table-wrap'}, table),
    el('div', {class: 'side-by-side'}, ...resp.sides.map((s) => lossChart(s.name, s.losses.p, s.losses.mean))));
}

// Advice by the number drawn (a response with "draws"): the expected
// results of each choice, the best first in words.
function renderDraws(box, resp, how) {
  const fields = Object.keys(resp.draws[0] ? resp.draws[0].expected : {});
  const body = el('tbody');
  for (const d of resp.draws) {
    body.append(el('tr', {'data-draw': String(d.chits), class: d.chits === resp.best ? 'best' : ''},
      el('th', {scope: 'row', text: String(d.chits) + (d.chits === resp.best ? ' (best)' : '')}),
      ...fields.map((f) => el('td', {class: 'num', text: Number(d.expected[f]).toFixed(2)})),
      'p_defender_more_hits' in d ? el('td', {class: 'num', text: pct(d.p_defender_more_hits)}) : null));
  }
  const more = 'p_defender_more_hits' in (resp.draws[0] || {});
  const best = resp.draws.find((d) => d.chits === resp.best);
  box.replaceChildren(el('h2', {text: how}),
    el('div', {class: 'headline'}, el('ul', {}, el('li', {'data-headline': 'best'},
      el('span', {text: 'Best to draw: '}), el('strong', {text: String(resp.best)}),
      el('span', {text: resp.criterion ? ' (by ' + words(resp.criterion) + ')' : ''})))),
    el('p', {class: 'mean', text: [resp.tactic, resp.stance].filter(Boolean).map(words).join(', ') +
      ': the expected (mean) results of each number of chits drawn'}),
    el('div', {class: 'table-wrap'}, el('table', {}, el('thead', {}, el('tr', {}, el('th', {scope: 'col', text: 'draw'}),
      ...fields.map((f) => el('th', {scope: 'col', text: words(f)})),
      more ? el('th', {scope: 'col', text: 'defender hit more'}) : null)), body)));
  if (best) box.dataset.best = String(best.chits);
}

// A story: its opening, then each section ("== ... ==" lines) folded, so
// a long battle reads round by round. The text is the command line's.
function storyBox(text) {
  const parts = [];
  let cur = {head: null, lines: []};
  for (const line of text.split(/(?<=\n)/)) {
    if (/^== .* ==/.test(line)) { parts.push(cur); cur = {head: line.trim(), lines: []}; }
    cur.lines.push(line);
  }
  parts.push(cur);
  const box = el('div', {class: 'story'});
  if (parts.length < 3) {
    box.append(el('pre', {class: 'story', text}));
    return box;
  }
  for (const part of parts) {
    const pre = el('pre', {text: part.lines.join('')});
    if (!part.head) box.append(pre);
    else box.append(el('details', {}, el('summary', {text: part.head.replace(/^== | ==.*$/g, '')}), pre));
  }
  return box;
}

function renderText(box, text, how) {
  box.replaceChildren(el('h2', {text: how}), storyBox(text));
}

// A roll: the headline's question answered for this roll, the outcome in
// words, then its story.
function rollHeadline(proc, resp, story) {
  const box = el('div', {class: 'headline', role: 'group', 'aria-label': 'the answer'});
  const out = resp.outcome || resp.result;
  if (!out) return null;
  const list = el('ul');
  if (resp.result && 'winner' in resp.result) {
    list.append(el('li', {'data-headline': 'winner'}, el('strong', {text: resp.result.winner === null
      ? 'A draw' : resp.result.winner + ' wins'}), el('span', {text: ' after ' + several(resp.result.rounds, 'round', 'rounds')})));
    for (const s of resp.result.sides || [])
      list.append(el('li', {text: s.name + ': ' + several(s.losses, 'unit', 'units') + ' lost, ' +
        several(s.leaders_lost, 'leader', 'leaders') + ' lost'}));
  } else {
    const h = proc && proc.headline;
    if (h && h.field in out) {
      const text = h.test === 'each' ? cap(h.says) + ': ' + valueWords(proc, h.field, out[h.field])
        : cap(h.says) + ': ' + (passes(h.test, out[h.field]) ? 'yes' : 'no');
      list.append(el('li', {'data-headline': h.says}, el('strong', {text})));
    }
    // the outcome as the story words it ("result: short by 2: falls back
    // ..."), not as fields ("success: no, short by: 2")
    const said = /(?:^|\n)result: ([^\n]+)\n?$/.exec(story || '');
    list.append(el('li', {class: 'outcome', text: said ? cap(said[1]) : label(out, proc)}));
  }
  box.append(list);
  return box;
}

// What the number is made of: the modifiers, totals and rule notes a roll
// tells before its first die. Each TOTAL the library tells closes its
// terms; a story with modifiers and no total gets their sum.
function modifierList(events) {
  const before = [];
  for (const ev of events || []) {
    // up to the first die, or the first section of a longer story
    if (ev.event === 'roll' || (ev.event === 'note' && /^== /.test(ev.text || ''))) break;
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

function modifierBox(events) {
  const list = modifierList(events);
  return list ? el('div', {class: 'mods'}, el('h3', {text: 'Modifiers and rules'}), list) : null;
}

// The modifiers of odds and simulations: from the story of one roll of
// the same inputs (they follow from the inputs alone).
async function renderModifiers(box, request) {
  let resp;
  try {
    resp = await ask({procedure: request.procedure, mode: 'roll', inputs: request.inputs, seed: 0});
  } catch (e) {
    return; /* the odds are shown; the story is a help, not a need */
  }
  const mods = modifierBox(resp.events);
  if (mods) box.append(mods);
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

// A time in words: "4 s", "2 min".
const duration = (s) => s < 1 ? 'under a second' : s < 90 ? Math.round(s) + ' s' : Math.round(s / 60) + ' min';

// What a job has done and how long it may still take, from its pace so
// far (its work counted since its total last changed). A simulation's
// total is its trials: its time left is an estimate. An exact walk's total
// is the most paths it may walk (the job's budget), not a forecast: its
// time left is an upper bound, said "at most".
function progressWords(request, done, total, pace) {
  const walking = request && request.mode === 'odds' && total !== Number(request.trials);
  const what = request && request.mode === 'simulate' ? 'battles' : walking ? 'paths' : 'trials';
  const simulating = request && request.mode === 'odds' && !walking;
  let left = '';
  if (pace && done > pace.done) {
    const rate = (done - pace.done) / ((performance.now() - pace.t) / 1000);
    if (rate > 0) left = walking ? '; at most ' + duration((total - done) / rate) + ' more, if it walks all of them'
      : '; about ' + duration((total - done) / rate) + ' left';
  }
  const head = walking ? 'Exact odds: ' + done.toLocaleString() + ' paths walked (at most ' + total.toLocaleString() + ')'
    : (simulating ? 'By simulation: ' : 'Simulating: ') + done.toLocaleString() + ' of ' + total.toLocaleString() + ' ' + what;
  return head + left;
}

function watchJob(request) {
  const stop = new AbortController();
  const box = $('progress'), bar = $('progress-bar'), text = $('progress-text');
  bar.value = 0;
  text.textContent = 'starting…';
  box.hidden = false;
  $('stop').onclick = () => stop.abort();
  running = stop;
  let pace = null;
  return {signal: stop.signal, progress(done, total) {
    // the pace measured afresh when the work changes (the walk refused, a simulation instead)
    if (!pace || pace.total !== total || done < pace.done) pace = {total, done, t: performance.now()};
    bar.max = total || 1;
    bar.value = done;
    text.textContent = total ? progressWords(request, done, total, pace) : 'working…';
    box.dataset.total = String(total);
  }};
}

function jobEnded() {
  $('progress').hidden = true;
  running = null;
}

// Odds asked as a quick request can take long too (exact odds of 300 lost
// animals: most of a minute in the browser): after half a second the
// progress box shows, with Stop.
function watchQuick() {
  const stop = new AbortController();
  running = stop;
  const shown = setTimeout(() => {
    if (running !== stop) return;
    $('progress-bar').removeAttribute('value');
    $('progress-text').textContent = 'working…';
    $('stop').onclick = () => stop.abort();
    $('progress').hidden = false;
  }, 500);
  return {quick: true, signal: stop.signal, end() {
    clearTimeout(shown);
    if (running === stop) jobEnded();
  }};
}

// An answer in its box, and in the log for a roll.
async function render(box, answer) {
  const {request, how, resp} = answer;
  const proc = procOf(request);
  if (request.mode === 'roll') {
    box.replaceChildren(el('h2', {text: how}));
    const head = rollHeadline(proc, resp.json, resp.text);
    if (head) box.append(head);
    const mods = modifierBox(resp.json.events);
    if (mods) box.append(mods);
    box.append(el('h3', {text: 'The story'}), storyBox(resp.text));
    return;
  }
  if (typeof resp === 'string') renderText(box, resp, how);
  else if (Array.isArray(resp.outcomes) && resp.outcomes.length) await renderTable(box, resp, how, proc);
  else if (resp.sides && resp.draw) renderBattleSim(box, resp, how);
  else if (Array.isArray(resp.draws)) renderDraws(box, resp, how);
  else renderText(box, await ask({...request, format: 'text'}), how);
  if (proc && proc.modes.includes('roll')) await renderModifiers(box, request);
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
    // the JSON for the answer and its modifiers, the words for the story
    const [json, text] = await Promise.all([ask(request), ask({...request, format: 'text'})]);
    resp = {json, text};
  } else if (isLongFor(request)) {
    try { resp = await ask(request, watchJob(request)); } finally { jobEnded(); }
  } else if (request.mode === 'odds') {
    const watch = watchQuick();
    try { resp = await ask(request, watch); } finally { watch.end(); }
  } else {
    resp = await ask(request);
  }
  return {request, how: titleOf(request, resp), resp};
}

// ---- compare: A pinned, B the latest; one table of their headlines ----

function linesOf(answer) {
  const proc = procOf(answer.request);
  if (answer.request.mode === 'roll') return [];
  return typeof answer.resp === 'object' ? headlineOf(proc, answer.resp) : [];
}

// A bar as wide as its chance (set through the style object: the page's
// policy refuses style attributes).
function bar(which, p) {
  const b = el('span', {class: 'bar ' + which});
  b.style.width = (100 * p).toFixed(1) + '%';
  return b;
}

function compareTable(a, b) {
  const la = linesOf(a), lb = linesOf(b);
  const names = [...new Set([...la, ...lb].map((l) => l.name))];
  if (!names.length) return null;
  const get = (ls, n) => { const l = ls.find((x) => x.name === n); return l ? l.p : 0; };
  const body = el('tbody');
  for (const n of names) {
    const pa = get(la, n), pb = get(lb, n), d = pb - pa;
    body.append(el('tr', {'data-line': n, 'data-a': String(pa), 'data-b': String(pb), 'data-diff': String(d)},
      el('th', {scope: 'row', text: cap(n)}), el('td', {class: 'num', text: pct(pa)}), el('td', {class: 'num', text: pct(pb)}),
      el('td', {class: 'num diff', text: (d > 0 ? '+' : d < 0 ? '−' : '±') + (100 * Math.abs(d)).toFixed(1) + ' pts'}),
      el('td', {class: 'bars', 'aria-hidden': 'true'}, bar('a', pa), bar('b', pb))));
  }
  return el('div', {class: 'compare-box'}, el('h2', {text: 'A against B'}),
    el('p', {class: 'ab', text: 'A: ' + describe(a.request)}), el('p', {class: 'ab', text: 'B: ' + describe(b.request)}),
    el('div', {class: 'table-wrap'}, el('table', {class: 'compare'}, el('thead', {}, el('tr', {},
      el('th', {scope: 'col', text: 'chance of'}), el('th', {scope: 'col', text: 'A'}), el('th', {scope: 'col', text: 'B'}),
      el('th', {scope: 'col', text: 'B − A'}), el('th', {scope: 'col', class: 'bars', text: 'A / B'}))), body)));
}

function showCompare() {
  const box = $('compare');
  const table = pinned && last ? compareTable(pinned, last) : null;
  box.hidden = !table;
  box.replaceChildren(...(table ? [table] : []));
}

// A pinned: folded under the comparison, in full.
function showPinned() {
  const box = $('pinned');
  box.hidden = !pinned;
  showCompare();
  if (!pinned) return Promise.resolve();
  const unpin = el('button', {type: 'button', class: 'secondary', 'data-action': 'unpin', text: 'Unpin A'});
  unpin.addEventListener('click', () => { pinned = null; showPinned(); saveState(); });
  const inner = el('div');
  box.replaceChildren(el('details', {}, el('summary', {text: 'A in full: ' + describe(pinned.request)}), inner), unpin);
  return render(inner, pinned);
}

function describe(request) {
  const proc = procOf(request);
  const ins = Object.entries(request.inputs).map(([k, v]) => inputWords(proc, k) + (v === true ? '' : ' ' +
    (typeof v === 'object' ? v.name : v)));
  return (proc ? proc.summary : request.procedure) + (ins.length ? ': ' + ins.join(', ') : '');
}

// ---- share: the link is the view ----

async function share() {
  saveState();
  const url = location.href, note = $('share-note');
  note.hidden = false;
  try {
    if (navigator.share) { await navigator.share({title: document.title, url}); note.textContent = 'Shared.'; return; }
  } catch (e) {
    if (e && e.name === 'AbortError') { note.hidden = true; return; }
  }
  try {
    await navigator.clipboard.writeText(url);
    note.textContent = 'Link copied.';
  } catch (e) {
    // no clipboard here: the link to copy by hand
    const box = el('input', {type: 'text', readonly: '', value: url, 'aria-label': 'the link to this view'});
    note.replaceChildren(el('span', {text: 'Copy this link: '}), box);
    box.select();
  }
}

let asked = 0;  // the latest go(): an earlier one stopped by it stays quiet

// The request the form asks for in this mode.
function requestOf(mode) {
  const request = {procedure: current.name, mode, inputs: inputsOf()};
  if (mode !== 'odds' && $('seed').value !== '') request.seed = Number($('seed').value);
  if (mode === 'simulate' || (mode === 'odds' && current.odds_may_simulate))
    request.trials = Number($('trials').value) || 10000;
  // Odds that may fall back to a simulation run as a job: exact by
  // default, as far as the job's own budget of paths and memory goes
  // (the library lowers a budget asked to the job's, include/fray/api.h);
  // a budget the player gives stands
  if (mode === 'odds' && current.odds_may_simulate)
    for (const i of current.inputs)
      if (i.unit === 'paths' && i.type === 'int' && !(i.name in request.inputs)) request.inputs[i.name] = i.max;
  return request;
}

async function go(mode) {
  showError('');
  const mine = ++asked;
  if (running) running.abort();
  const request = requestOf(mode);
  const box = $('result');
  const missing = missingOf(request.inputs);
  if (Object.keys(missing).length) {
    const c = fieldErrors(missing);
    showError('Some inputs are needed: see the marked fields.');
    if (c) c.focus();
    return;
  }
  fieldErrors({});
  box.setAttribute('aria-busy', 'true');
  try {
    last = await answer(request);
    const inner = el('div');
    box.replaceChildren(inner);
    if (pinned) inner.append(el('p', {class: 'ab', text: 'B in full: ' + describe(request)}));
    const body = el('div');
    inner.append(body);
    await render(body, last);
    if (mode === 'roll') logRoll(last.resp.text);
    const pin = el('button', {type: 'button', class: 'secondary', 'data-action': 'pin', text: 'Pin as A to compare'});
    pin.addEventListener('click', () => { pinned = last; showPinned(); saveState(); });
    inner.append(pin);
    showCompare();
    saveState();
  } catch (e) {
    if (mine === asked) {
      const {name, text} = errorAtField(e);
      showError(text);
      if (name) fieldErrors({[name]: text});
    }
  } finally {
    box.removeAttribute('aria-busy');
    // the answer, not the form, in view (on a phone the form is long)
    const where = !$('error').hidden ? $('error') : !$('compare').hidden ? $('compare') : box;
    where.scrollIntoView({block: 'start'});
  }
}

// ---- start ----

// What a request costs, in words, for the question before a link runs it.
function costOf(request) {
  const trials = Number(request.trials || 10000).toLocaleString();
  const proc = procOf(request), what = proc.summary;
  if (request.mode === 'simulate') return 'a simulation of ' + trials + ' trials (' + what + ')';
  const ins = request.inputs && typeof request.inputs === 'object' ? Object.entries(request.inputs)
    .map(([k, v]) => inputWords(proc, k) + (v === true ? '' : ' ' + (v && typeof v === 'object' ? v.name : v))).join(', ') : '';
  return 'the odds of ' + what + (ins ? ' (' + ins + ')' : '') +
    (proc.odds_may_simulate ? ', exact or up to ' + trials + ' trials' : '');
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
async function showReport(data) {
  const {request, response, text} = data;
  const mode = request.mode || (response.events ? 'roll' : 'odds');
  const how = titleOf({...request, mode, trials: response.trials || request.trials}, response);
  const box = $('result');
  $('report-what').textContent = request.procedure;
  $('report-request').textContent = JSON.stringify(request, null, 1);
  if (mode !== 'roll' && Array.isArray(response.outcomes) && response.outcomes.length) await renderTable(box, response, how, null);
  else if (response.sides && response.draw) renderBattleSim(box, response, how);
  else if (response.events) {
    // a roll: its answer and modifiers first, then the whole story
    box.replaceChildren(el('h2', {text: how}), ...[rollHeadline(null, response, text), modifierBox(response.events)]
      .filter(Boolean), el('h3', {text: 'The story'}), el('pre', {class: 'story', text}));
    return;
  } else return renderText(box, text, how);
  box.append(el('h3', {text: 'As the command line tells it'}), el('pre', {class: 'story', text}));
}

// The procedure list: grouped by rule set, each named by what it does;
// the search box keeps those whose words match.
let ruleSet = null;  // the rule set chosen (null: every one)
function fillProcedures(filter) {
  const sel = $('procedure'), keep = sel.value;
  const want = (filter || '').toLowerCase().split(/\s+/).filter(Boolean);
  const groups = {};
  sel.replaceChildren();
  // nothing chosen yet (a first visit): the picker asks
  if (!current && !want.length) sel.append(el('option', {value: '', text: '(choose what to resolve)'}));
  let best = null, strong = false, keepMine = false;
  for (const p of catalogue) {
    // its summary, command and rules, and the catalogue's words for it (its synonyms)
    const own = (p.summary + ' ' + p.command + ' ' + p.rules).toLowerCase();
    const text = own + ' ' + (p.words || '').toLowerCase();
    if (!want.every((w) => text.includes(w))) continue;
    // the first whose own words match is the one picked ("shoot": presidio
    // shoot, before the fires whose synonyms say shoot)
    const mine = want.every((w) => own.includes(w));
    if (!best || (mine && !strong)) [best, strong] = [p.name, mine];
    if (p.name === keep) keepMine = mine;
    const set = p.command.split(' ')[0];
    if (ruleSet && set !== ruleSet && !want.length) continue;
    if (!groups[set]) sel.append(groups[set] = el('optgroup', {label: ruleSetName(set)}));
    groups[set].append(el('option', {value: p.name, text: cap(p.summary) + ' (' + p.command.split(' ').slice(1).join(' ') + ')'}));
  }
  // the procedure shown stays while it matches as well as any
  if ([...sel.options].some((o) => o.value === keep) && (!want.length || keepMine || !strong)) sel.value = keep;
  else if (want.length && best) sel.value = best;
  return [...sel.options].filter((o) => o.value).length;
}

// The rule sets, each a button (the page opens on them): one chosen, the
// picker lists its procedures and the first is ready; "Every game" lists all.
function ruleSetButtons() {
  const box = $('rulesets');
  const sets = [...new Set(catalogue.map((p) => p.command.split(' ')[0]))];
  const b = (set, text) => {
    const button = el('button', {type: 'button', class: 'ruleset secondary', 'data-set': set || '', 'aria-pressed': 'false', text});
    button.addEventListener('click', () => chooseSet(set));
    return button;
  };
  box.replaceChildren(...sets.map((set) => b(set, ruleSetName(set))), b(null, 'Every game'));
}

function chooseSet(set) {
  ruleSet = set;
  $('find').value = '';
  $('find-count').textContent = '';
  const first = set ? catalogue.find((p) => p.command.split(' ')[0] === set) : catalogue[0];
  if (first && (!current || (set && current.command.split(' ')[0] !== set))) choose(first.name);
  fillProcedures('');
  $('procedure').value = current.name;
  showSet();
  $('procedure').focus();
}

// The chooser says which rule set the form is of; until one is chosen
// (a first visit) the form and its buttons wait.
function showSet() {
  const set = current ? current.command.split(' ')[0] : null;
  for (const b of document.querySelectorAll('#rulesets button'))
    b.setAttribute('aria-pressed', String(!!current && b.dataset.set === (ruleSet === null ? '' : set)));
  for (const id of ['actions', 'form-tools', 'summary']) $(id).hidden = !current;
  $('share').parentElement.hidden = !current;
  $('choose-note').hidden = !!current;
}

// A rule set named by the rule reference its procedures give (the
// catalogue's "rules"), e.g. "Presidio", "ADBG", "BBB".
function ruleSetName(set) {
  const p = catalogue.find((x) => x.command.split(' ')[0] === set);
  if (p && p.rule_set) return cap(p.rule_set);  // the catalogue's title of its rule set
  const first = p ? p.rules.split(/[\s,;]/)[0] : set;
  if (!/^[A-Za-z]+$/.test(first)) return cap(set);  // a file, not a game's name
  return first.toLowerCase() === set.toLowerCase() ? first : set + ' (' + first + ')';
}

function choose(name) {
  const proc = catalogue.find((p) => p.name === name);
  if (!proc || (current && current.name === name)) return;
  buildForm(proc);
  showSet();
  $('result').replaceChildren();
  last = null;
  showCompare();
  saveState();
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
  ruleSetButtons();
  // the page's own controls first: whatever a link holds, Find, Share and
  // the picker work
  $('share').addEventListener('click', share);
  sel.addEventListener('change', () => choose(sel.value));
  $('find').addEventListener('input', () => {
    const n = fillProcedures($('find').value);
    $('find-count').textContent = n ? n + (n === 1 ? ' match' : ' matches') : 'nothing matches';
    if (n && (!current || sel.value !== current.name)) choose(sel.value);
  });
  const state = loadState() || storedState();
  const first = catalogue.find((p) => state && p.name === state.p);
  // a first visit opens on the rule sets: the player says which game first
  if (!first) {
    fillProcedures('');
    showSet();
    newSeed();
    return;
  }
  buildForm(first);
  fillProcedures('');
  sel.value = first.name;
  showSet();
  try {
    if (state) setInputs(state.i);
    if (state && state.s) $('seed').value = String(state.s); else newSeed();
    if (state && state.t) $('trials').value = String(state.t);
  } catch (e) {
    showError('this link\'s inputs could not all be read: ' + e.message);
  }
  // a copied link shows what it showed: A pinned, and the last answer.
  // Anything but a roll waits for a press: odds (exact odds of 300 lost
  // animals are 45,000 rows of long fractions), simulations, a battle's
  // odds; so a link cannot start heavy work by being opened
  const wantA = state && state.a && procOf(state.a) ? state.a : null;
  const wantM = state && state.m && current.modes.includes(state.m) ? state.m : null;
  const restore = async () => {
    if (wantA) {
      try { pinned = await answer(wantA); await showPinned(); } catch (e) { showError('A: ' + e.message); }
    }
    if (wantM) go(wantM);
  };
  const costly = [wantA, wantM && requestOf(wantM)].filter((r) => r && r.mode !== 'roll');
  if (costly.length) askFirst(costly.map(costOf).join(' and '), restore);
  else await restore();
}

document.addEventListener('DOMContentLoaded', start);
