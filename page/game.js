// fray at the table: the game screen. The game is its file's text, kept
// in this browser (localStorage); every question goes to POST api/v1/game
// (docs/json/game-request.md) with the text, and a change comes back as
// the new text. The page decides no rule: the actions a unit may take,
// their options (typed, from the actions' descriptors: docs/json/
// game-request.md), the inputs from its state, the odds and the
// follow-ups are the game's. A shot is one request: apply answers the new
// game, what happened and the units as they now stand.
'use strict';

const STORE = 'fray.game';
let game = null;       // {text}: the game file, as fray table reads it
let units = null;      // the last "units" answer
let picked = null;     // {unit: index, action: the action's description}

// The game's one door: a request to api/v1/game, through transport.js
// (fray serve, or the WebAssembly build on a static host). An error
// carries the answer (a question). signal (optional): Stop.
async function askGame(request, signal) {
  // a game kept by fray serve: its changes go to it (page/shared_game.js)
  if (window.sharedGame && sharedGame.takes(request)) return sharedGame.ask(request, signal);
  const r = await postAPI('api/v1/game', request, signal);
  const text = r.text;
  let json = null;
  try { json = JSON.parse(text); } catch (e) { /* not JSON: said below */ }
  if (!r.ok || !json) {
    const err = new Error(json && json.error ? json.error : text || ('HTTP ' + r.status));
    err.answer = json;
    throw err;
  }
  return json;
}

const words = (key) => String(key).replace(/[_-]/g, ' ');
const cap = (s) => s ? s[0].toUpperCase() + s.slice(1) : s;
const pct = (p) => (100 * p).toFixed(1) + '%';
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// ---- exact chances: the rows' own fractions summed (page/dom.js) ----

// A chance as a player reads it (chanceEl: the fraction inline when short).
const chance = (p, rows) => chanceEl('strong', pct(p), rows ? exactSum(rows) : null, {class: 'chance'});

// The catalogue (api/v1/procedures): the words of every outcome field and
// each procedure's headline, for the odds before a roll.
let catalogue = null;
async function procedure(name) {
  if (!catalogue) {
    try { catalogue = (await getJSON('api/v1/procedures')).procedures || []; } catch (e) { catalogue = []; }
  }
  return catalogue.find((p) => p.name === name) || null;
}

// The error where it is seen: the new-game screen has its own line; no
// message clears both.
function showError(msg) {
  for (const e of msg ? [$('game').hidden ? $('new-error') : $('error')] : [$('new-error'), $('error')]) {
    e.textContent = msg || '';
    e.hidden = !msg;
    if (msg) e.scrollIntoView({block: 'nearest'});
  }
}

function store(text) {
  game = {text};
  if (window.sharedGame && sharedGame.keeps()) return;  // the server's game, not this browser's
  localStorage.setItem(STORE, JSON.stringify(game));
}

// ---- a new game ----

async function showNew() {
  $('game').hidden = true;
  $('new-game').hidden = false;
  $('cancel-new').hidden = !game;
  showError('');
  const pick = $('forces-pick');
  if (!pick.options.length) {
    let list = [];
    try { list = (await getJSON('api/v1/examples')).forces || []; } catch (e) { showError(e.message); }
    for (const p of list) pick.append(el('option', {value: p, text: p.split('/')[1] + ': ' + p}));
    pick.append(el('option', {value: '', text: 'Paste a forces file…'}));
  }
  $('paste-box').hidden = pick.value !== '';
  if (!$('seed').value) $('seed').value = String(Math.floor(Math.random() * 1e9));
}

async function startGame(ev) {
  ev.preventDefault();
  const path = $('forces-pick').value, seed = Number($('seed').value);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    showError('Seed: a whole number, 0 or more');
    return;
  }
  const req = path ? {op: 'new', rules: path.split('/')[1], forces_name: path, seed}
    : {op: 'new', rules: $('rules').value, forces: $('forces-text').value, seed};
  try {
    const a = await askGame(req);
    store(a.game);
    showError('');
    $('happened').hidden = true;
    if (window.gameAdvice) gameAdvice.newGame();
    await showGame();
  } catch (e) { showError(e.message); }
}

// A game file from the device (one fray table wrote, or this page's
// download): the game reads it first (op units), so a file that is not a
// game is refused with the game's message and the current game is kept.
async function importGame() {
  const input = $('game-file'), file = input.files && input.files[0];
  if (!file) return;
  try {
    const text = await file.text();
    await askGame({op: 'units', game: text});
    // an older copy of this browser's game, or a fork of it, only if the player says so
    if (window.sharedGame && !sharedGame.replacing(text)) {
      showError(`${file.name}: not taken; the game here is kept`);
      return;
    }
    store(text);
    showError('');
    $('happened').hidden = true;
    await showGame();
  } catch (e) {
    showError(`${file.name}: ${e.message}`);
  } finally {
    input.value = '';
  }
}

// ---- the game ----

async function showGame() {
  $('new-game').hidden = true;
  $('game').hidden = false;
  closeAction();
  await refresh();
}

async function refresh() {
  try {
    const [u, log, entries] = await Promise.all([askGame({op: 'units', game: game.text}),
      askGame({op: 'log', game: game.text, format: 'text'}), askGame({op: 'log', game: game.text, format: 'json'})]);
    logEntries = logOf(log.log, entries.log);
    showView(u);
  } catch (e) { showError(e.message); }
}

// The game as an answer gives it (units, apply, undo): the forces, the
// log kept here (logEntries), the line above them.
function showView(a) {
  units = {rules: a.rules, turn: a.turn, units: a.units, status: a.status};
  renderForces();
  renderLog();
  const n = logEntries.length;
  // Presidio: whose action sequence it is, when the game keeps the
  // initiative (the side that won it may pass the sequence on); BBB: the
  // moving side and the phase, when the game keeps one (Next phase)
  const st = a.status || {};
  const order = st.acting ? ` · ${st.acting} acts (${st.initiative} won the initiative)` : '';
  // a phase with a moving side (BBB) or without one (Presidio's rally phase)
  const phase = !st.phase ? '' : st.moving ? ` · ${st.moving}'s turn, ${words(st.phase)}` : ` · ${words(st.phase)} phase`;
  $('game-line').textContent = `${units.rules} · turn ${units.turn}${order}${phase} · ${plural(n, 'action', 'actions')} so far`;
  $('pass').hidden = !(st.acting && st.acting === st.initiative);
  $('pass').textContent = st.acting ? `${st.acting} passes` : 'Pass';
  $('next-phase').hidden = !st.phase;
  // Presidio's one phase is the rally, which the initiative's roll ends
  $('next-phase').textContent = units.rules === 'presidio' ? 'Roll the initiative' : 'Next phase';
  $('undo').disabled = n === 0;
  if (window.gameAdvice) gameAdvice.renderSolo();
}

// The fields a card shows first: counts that play changes (generic: any
// unit field of these names the rule set has).
const COUNTS = [['figures', 'start_figures', 'figures'], ['bases', 'start_bases', 'bases'],
  ['battalions', null, 'battalions'], ['casualties', null, 'casualties'], ['reload', null, 'reloading'],
  ['hits', null, 'hits'], ['fatigue', null, 'fatigue'], ['lead', null, 'lead battalion']];

function unitCard(u, i) {
  const s = units.status.units[i];
  const card = el('button', {type: 'button', class: 'unit' + (picked && picked.unit === i ? ' picked' : ''),
    'data-unit': String(i), 'aria-pressed': String(!!(picked && picked.unit === i))});
  const status = String(s.status || 'good');
  card.append(el('span', {class: 'name', text: u.name}),
    el('span', {class: 'status st-' + status.replace(/[^a-z]/g, '-'), text: status}));
  const facts = el('span', {class: 'facts'});
  for (const [k, of, label] of COUNTS) {
    if (!(k in s)) continue;
    const v = Array.isArray(s[k]) ? s[k].join(' ') : s[k];
    if (k !== 'figures' && k !== 'bases' && k !== 'battalions' && (v === 0 || v === '0' || /^[0 ]*$/.test(v))) continue;
    facts.append(el('span', {text: `${label} ${v}${of && s[of] !== undefined ? '/' + s[of] : ''}`}));
  }
  // Presidio: the actions the unit has left this turn (ruling R47), and
  // what it spent the others on
  if ('actions_left' in s) {
    facts.append(el('span', {class: 'actions-left', text: `actions left: ${s.actions_left}`,
      title: s.actions_spent ? 'this turn: ' + s.actions_spent : 'nothing spent this turn'}));
  }
  for (const [k, v] of Object.entries(s)) if (v === true) facts.append(el('span', {class: 'flag', text: words(k)}));
  card.append(facts);
  const what = s.weapon || s.weapons || s.arm || '';
  if (what) card.append(el('span', {class: 'what', text: String(what)}));
  card.addEventListener('click', () => openUnit(i));
  return card;
}

function renderForces() {
  const box = $('forces');
  box.replaceChildren();
  const sides = new Map();
  units.units.forEach((u, i) => {
    const side = units.status.units[i].side;
    if (!sides.has(side)) sides.set(side, []);
    sides.get(side).push(unitCard(u, i));
  });
  for (const [side, cards] of sides) {
    box.append(el('section', {class: 'side', 'aria-label': side}, el('h4', {text: side}),
      el('div', {class: 'cards'}, ...cards)));
  }
}

// ---- a unit's actions ----

function closeAction() {
  picked = null;
  $('act').hidden = true;
  $('question').hidden = true;
}

function openUnit(i) {
  picked = {unit: i, action: null};
  const u = units.units[i];
  $('act').hidden = false;
  $('act-form').hidden = true;
  $('question').hidden = true;
  $('act-title').textContent = u.name + ': ' + (u.actions.length ? 'what it may do now' : 'nothing it may do now');
  const box = $('act-buttons');
  box.replaceChildren();
  for (const a of u.actions) {
    const b = el('button', {type: 'button', class: 'secondary', 'data-action': a.name, text: a.name});
    b.addEventListener('click', () => chooseAction(a));
    box.append(b);
  }
  renderForces();
  $('act').scrollIntoView({block: 'nearest'});
  if (window.gameAdvice) gameAdvice.unitOpened(i);  // the game's advice, best marked (page/game_advice.js)
}

function field(label, control, id) {
  control.id = id;
  return el('div', {class: 'field', 'data-option': control.name}, el('label', {for: id, text: label}), control);
}

// An option's control from its typed description (the units answer: the
// catalogue's input, or the game's own): a picker for choices (the rules'
// suggestion for this unit picked, else "(default: X)"), a number with
// its range, a checkbox for a yes/no, a box for a name.
function optionControl(o) {
  if (Array.isArray(o.choices) && o.choices.length) {
    const c = el('select', {name: o.name});
    const none = 'default' in o ? `(default: ${o.default})` : o.required ? '(choose)' : '(none)';
    if (!o.suggested) c.append(el('option', {value: '', text: none}));
    for (const v of o.choices) c.append(el('option', {value: String(v), text: String(v)}));
    if (o.suggested) c.value = o.suggested;
    return c;
  }
  const numeric = o.type === 'int' || o.type === 'number';
  const c = el('input', {type: numeric ? 'number' : 'text', name: o.name, inputmode: o.type === 'int' ? 'numeric' : numeric ? 'decimal' : 'text'});
  if (numeric) { c.min = o.min; c.max = o.max; c.step = o.type === 'number' ? 'any' : '1'; }
  if ('default' in o) c.placeholder = String(o.default);
  return c;
}

// One option's field: its control, its label in words (with its unit),
// the catalogue's help under it.
function optionField(o) {
  const id = 'opt-' + o.name;
  if (o.type === 'bool') {
    const c = el('input', {type: 'checkbox', name: o.name, id});
    const f = el('div', {class: 'field bool', 'data-option': o.name}, el('label', {for: id}, c, document.createTextNode(' ' + cap(words(o.name)))));
    if (o.help) f.append(el('small', {class: 'hint', id: id + '-help', text: o.help}));
    return f;
  }
  const c = optionControl(o);
  if (o.help) c.setAttribute('aria-describedby', id + '-help');
  if (o.required) { c.required = true; c.setAttribute('aria-required', 'true'); }
  const f = field(cap(words(o.name)) + (o.unit && o.unit !== words(o.name) ? ` (${o.unit})` : ''), c, id);
  if (o.required) f.querySelector('label').append(el('span', {class: 'req', 'aria-hidden': 'true', text: ' *'}));
  if (o.help) f.append(el('small', {class: 'hint', id: id + '-help', text: o.help}));
  return f;
}

// The target picker: the units the rules let this one take as its target
// (the library's list), the other sides' first, the own side's marked (no
// shipped rule set lets a unit attack a friend: the list has none of them).
function targetField(a) {
  const sel = el('select', {name: 'target', required: 'required'});
  const sideOf = (name) => {
    const i = units.units.findIndex((u) => u.name === name);
    return i >= 0 ? units.status.units[i].side : null;
  };
  const mine = units.status.units[picked.unit].side;
  const targets = a.targets || [];
  const enemies = targets.filter((n) => sideOf(n) !== mine), own = targets.filter((n) => sideOf(n) === mine);
  if (!targets.length) sel.append(el('option', {value: '', text: 'No unit the rules allow'}));
  for (const name of enemies) sel.append(el('option', {value: name, text: name}));
  for (const name of own) sel.append(el('option', {value: name, text: name + ' (own side)'}));
  return field('Target', sel, 'act-target');
}

function chooseAction(a) {
  picked.action = a;
  for (const b of $('act-buttons').children) b.setAttribute('aria-pressed', String(b.dataset.action === a.name));
  const box = $('act-fields');
  box.replaceChildren();
  if (a.target) box.append(targetField(a));
  // every option of the action, the rare ones folded under More
  const more = el('div', {class: 'more-fields'});
  for (const o of a.options || []) (o.more ? more : box).append(optionField(o));
  if (more.children.length) {
    box.append(el('details', {class: 'more', id: 'act-more'}, el('summary', {text: `More (${more.children.length})`}), more));
  }
  $('act-form').hidden = false;
  $('act-error').hidden = true;
  $('question').hidden = true;
  $('odds').replaceChildren();
  delete $('odds').dataset.target;
  oddsSoon();
}

// The action as a request's members, from the form: the options typed
// ({"range": 10, "mode": "volley", "taking-cover": true}), each checked by
// the game against its description.
function actionRequest() {
  const a = picked.action, req = {action: a.name, actor: units.units[picked.unit].name};
  const t = $('act-target');
  if (t) req.target = t.value;
  const options = {};
  for (const o of a.options || []) {
    const c = $('opt-' + o.name);
    if (!c) continue;
    if (o.type === 'bool') { if (c.checked) options[o.name] = true; continue; }
    const v = c.value.trim();
    if (v === '') continue;
    options[o.name] = (o.type === 'int' || o.type === 'number') && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  req.options = options;
  return req;
}

// An error at its field: the answer's "input" names the option (or the
// target); without it, at the form's top.
function showActError(e) {
  for (const f of $('act-fields').querySelectorAll('.field.invalid')) f.classList.remove('invalid');
  for (const m of $('act-fields').querySelectorAll('.field-error')) m.remove();
  const input = e.answer && e.answer.input;
  const name = input ? String(input).replace(/^options\./, '').replace(/_/g, '-') : null;
  const f = name ? $('act-fields').querySelector(`[data-option="${CSS.escape(name === 'at' ? 'target' : name)}"]`) : null;
  if (f) {
    if (f.closest('details')) f.closest('details').open = true;
    f.classList.add('invalid');
    f.append(el('p', {class: 'field-error error', role: 'alert', text: e.message}));
    f.scrollIntoView({block: 'nearest'});
    $('act-error').hidden = true;
  } else {
    $('act-error').textContent = e.message;
    $('act-error').hidden = false;
    $('act-error').scrollIntoView({block: 'nearest'});
  }
}

// A required option is not needed once an option it excludes is given
// (the descriptors' "excludes": a range or its band): the form's required
// marks follow what is filled in.
function syncRequired() {
  if (!picked || !picked.action) return;
  const given = (name) => {
    const c = $('opt-' + name);
    return !!c && (c.type === 'checkbox' ? c.checked : c.value.trim() !== '');
  };
  for (const o of picked.action.options || []) {
    const c = $('opt-' + o.name);
    if (!c || !o.required || c.type === 'checkbox') continue;
    const needed = !(o.excludes || []).some(given);
    c.required = needed;
    c.setAttribute('aria-required', String(needed));
    const mark = c.closest('.field') && c.closest('.field').querySelector('.req');
    if (mark) mark.hidden = !needed;
  }
}

let oddsTimer = null;
function oddsSoon() {
  clearTimeout(oddsTimer);
  oddsTimer = setTimeout(showOdds, 250);
}

// The odds before a roll, as a player reads them: the catalogue's
// headline first (its chance, exact where short), then each count's chance
// of at least one (its mean only beside a chance worth reading), each
// yes/no's chance in the catalogue's words; a field that cannot happen
// here is left out.
function oddsLines(proc, odds) {
  const rows = odds.outcomes || [];
  if (!rows.length) return [];
  const lines = [];
  const said = (k) => {
    const o = proc && (proc.outcome || []).find((x) => x.name === k);
    return o ? o.help : words(k);
  };
  const h = proc && proc.headline;
  if (h && h.test !== 'each' && h.field in rows[0].outcome) {
    const m = /^(>=|==)\s*(.+)$/.exec(h.test);
    const want = m ? JSON.parse(m[2]) : null;
    const yes = rows.filter((r) => m && (m[1] === '>=' ? r.outcome[h.field] >= want : r.outcome[h.field] === want));
    lines.push({what: cap(h.says), p: yes.reduce((s, r) => s + r.p, 0), rows: yes, head: true});
  }
  for (const k of Object.keys(rows[0].outcome)) {
    if (h && k === h.field && h.test !== 'each') continue;
    const vals = rows.map((r) => r.outcome[k]);
    if (vals.every((v) => typeof v === 'boolean')) {
      const yes = rows.filter((r) => r.outcome[k]);
      const p = yes.reduce((s, r) => s + r.p, 0);
      if (p > 0) lines.push({what: cap(said(k).split(/[:;]/)[0]), p, rows: yes});
    } else if (vals.every((v) => typeof v === 'number')) {
      const some = rows.filter((r) => r.outcome[k] >= 1);
      const p = some.reduce((s, r) => s + r.p, 0);
      const mean = rows.reduce((s, r) => s + r.outcome[k] * r.p, 0);
      if (p > 0) lines.push({what: cap(said(k)), pre: 'at least one ', p, rows: some, mean: p >= 0.1 ? mean : null});
    } else {
      const by = new Map();
      for (const r of rows) {
        const v = String(r.outcome[k]);
        if (!by.has(v)) by.set(v, []);
        by.get(v).push(r);
      }
      const o = proc && (proc.outcome || []).find((x) => x.name === k);
      for (const [v, rs] of [...by].sort((x, y) => y[1].reduce((s, r) => s + r.p, 0) - x[1].reduce((s, r) => s + r.p, 0)).slice(0, 4))
        lines.push({what: cap(o && o.words && Object.prototype.hasOwnProperty.call(o.words, v) ? o.words[v]
          : `${h && h.field === k ? h.says : words(k)}: ${v}`), p: rs.reduce((s, r) => s + r.p, 0), rows: rs});
    }
  }
  return lines;
}

// Each showOdds is numbered: an answer that comes back after a newer
// question was asked (another target, another range) is not shown.
let oddsAsked = 0;
async function showOdds() {
  const box = $('odds');
  const mine = ++oddsAsked;
  if (!picked || !picked.action) return;
  const t = $('act-target');
  syncRequired();
  for (const o of picked.action.options || []) {
    const c = $('opt-' + o.name);
    if (c && c.required && !c.value) {
      box.replaceChildren(el('p', {class: 'hint', text: `Give the ${words(o.name)} for the odds.`}));
      return;
    }
  }
  if (picked.action.target && t && !t.value) return;
  // odds that take a while (a melee of hundreds of figures) can be stopped:
  // in the browser Stop ends the worker, a fresh one takes the next
  // question; else the time budget ends them (10 s, as on fray serve)
  const stop = new AbortController();
  const working = setTimeout(() => {
    if (mine !== oddsAsked) return;
    const b = el('button', {type: 'button', class: 'secondary', id: 'odds-stop', 'data-action': 'stop-odds', text: 'Stop'});
    b.addEventListener('click', () => stop.abort());
    box.replaceChildren(el('p', {class: 'hint working', text: 'Working out the odds… '}, b));
  }, 500);
  try {
    const req = actionRequest();
    const a = await askGame({op: 'odds', game: game.text, ...req}, stop.signal);
    const odds = a.odds;
    const proc = await procedure(odds.procedure);
    if (mine !== oddsAsked) return;
    box.dataset.target = req.target || '';
    const list = el('ul', {class: 'headline'});
    for (const l of oddsLines(proc, odds)) {
      const li = el('li', {class: l.head ? 'head' : '', 'data-p': String(l.p)}, el('span', {text: l.what + ': ' + (l.pre || '')}), chance(l.p, l.rows));
      if (l.mean !== null && l.mean !== undefined) li.append(el('span', {class: 'mean', text: ` (mean ${l.mean.toFixed(2)})`}));
      list.append(li);
    }
    const inputs = el('ul', {class: 'inputs'});
    for (const [k, v] of Object.entries(odds.inputs || {})) {
      const text = typeof v === 'boolean' ? (v ? 'yes' : 'no') : Array.isArray(v) ? v.join(', ') : String(v);
      inputs.append(el('li', {text: `${words(k)}: ${text}`}));
    }
    // every outcome from the one computation (the JSON rows), likeliest first
    const every = el('ul', {class: 'outcomes'});
    for (const r of [...(odds.outcomes || [])].sort((x, y) => y.p - x.p)) {
      const said = Object.entries(r.outcome).map(([k, v]) => `${words(k)} ${typeof v === 'boolean' ? (v ? 'yes' : 'no') : v}`).join(', ');
      every.append(el('li', {}, el('span', {text: said + ': '}), chance(r.p, [r])));
    }
    const steps = await stepsOf(picked.action);
    if (mine !== oddsAsked) return;
    const what = proc ? proc.summary : words(odds.procedure || '');
    const title = steps ? `The odds before the roll: ${steps[0]} (${what}; exact)` : `The odds before the roll: ${what} (exact)`;
    const head = [el('h4', {id: 'odds-title', text: title})];
    if (steps) {
      if (steps.length > 1) {
        head.push(el('p', {class: 'then', id: 'odds-then', text: `Then ${steps.slice(1).join(', ')}: ` +
          'each rolled after this one, as it falls out (the log tells each)'}));
      }
    }
    box.replaceChildren(...head,
      list,
      el('details', {}, el('summary', {text: 'What the game takes from the units'}), inputs),
      el('details', {}, el('summary', {text: 'Every outcome'}), every));
  } catch (e) {
    if (mine !== oddsAsked) return;
    box.replaceChildren(el('p', {class: 'hint', text: 'No odds: ' + e.message}));
  } finally {
    clearTimeout(working);
  }
}

// The steps an action rolls, in the game's words (the action's summary,
// the last part of its usage: "fear of charge, reaction, impact, morale"),
// when it rolls more than one procedure (the rule set's actions op): the
// odds are the first step's (docs/json/game-request.md), titled by it. Null
// for an action of one step, whose odds are the whole of it.
const actionSteps = new Map();
async function stepsOf(a) {
  const rules = units && units.rules;
  if (!rules) return null;
  if (!actionSteps.has(rules)) {
    let list = [];
    try { list = (await askGame({op: 'actions', rules})).actions || []; } catch (e) { list = []; }
    actionSteps.set(rules, new Map(list.map((x) => [x.name, (x.procedures || []).length])));
  }
  const tail = /\]?: ([^:]+)$/.exec(a.usage || '');
  if ((actionSteps.get(rules).get(a.name) || 0) < 2 || !tail || !tail[1].includes(', ')) return null;
  return tail[1].split(', ').map((w) => w.replace(/^then /, ''));
}

async function roll(ev, choices) {
  if (ev) ev.preventDefault();
  if (!picked || !picked.action) return;
  // the odds are shown already: a field's change on the way to the button
  // (a blur) asks none again
  clearTimeout(oddsTimer);
  const req = {op: 'apply', game: game.text, ...actionRequest()};
  if (choices) req.choices = choices;
  await applyRequest(req);
}

// One request a shot: the answer carries the new game, what happened (its
// words, story and changes) and the units as they now stand.
async function applyRequest(req) {
  const turn = units ? units.turn : 1;
  try {
    const a = await askGame(req);
    store(a.game);
    showError('');
    $('question').hidden = true;
    logEntries.push({n: logEntries.length + 1, turn, says: a.says, changes: (a.events && a.events.changes) || [],
      story: storyOf(a.story)});
    afterChange(a, (a.events && a.events.changes) || [], a.story);
    // solo play: fray answers with its side's action
    if (window.gameAdvice) gameAdvice.afterPlayer(req);
  } catch (e) {
    if (e.answer && e.answer.question) {
      askQuestion(e.answer.question, req);
    } else if (req.action !== 'turn' && picked && picked.action) {
      showActError(e);
    } else {
      showError(e.message);
    }
  }
}

// A choice the rules leave to a player: asked here, the action sent again
// with the answer (the game was not changed meanwhile).
function askQuestion(q, req) {
  $('question').hidden = false;
  $('question-text').textContent = q.prompt;
  const box = $('question-buttons');
  box.replaceChildren();
  q.options.forEach((label, i) => {
    const b = el('button', {type: 'button', class: i === q.suggested ? '' : 'secondary', text: label});
    b.addEventListener('click', () => applyRequest({...req, choices: [...(req.choices || []), label]}));
    box.append(b);
  });
  box.firstChild.focus();
}

function afterChange(a, changes, story, heading) {
  closeAction();
  showView(a);
  $('happened-title').textContent = heading || 'What happened';
  const list = $('changes');
  list.replaceChildren();
  for (const c of changes) list.append(el('li', {text: c}));
  if (!list.children.length) list.append(el('li', {text: 'no change to the forces'}));
  $('story').textContent = story ? storyOf(story) : '';
  $('story').closest('details').hidden = !story;  // an undo rolls nothing
  $('happened').hidden = false;
  $('happened').scrollIntoView({block: 'nearest'});
}

// ---- the log, grouped by turn ----

// The log as this page keeps it: each action with its number, turn, words
// (the library's: "Presidials: shoot at Apaches (range 10)"), changes
// and story; read whole when the game is opened, then one entry added a
// shot (apply's answer) and taken off an undo.
let logEntries = [];

// An action's story without its "=> change" lines (shown from the changes).
const storyOf = (text) => String(text || '').split('\n').filter((l) => !/^\s*=> /.test(l)).join('\n').trim() + '\n';

function logOf(text, json) {
  const entries = [];
  for (const line of text.split('\n')) {
    const m = /^#(\d+) turn (\d+): (.*)$/.exec(line);
    if (m) entries.push({n: Number(m[1]), turn: Number(m[2]), says: m[3], changes: [], story: ''});
    // the story's lines; the changes (=>) are shown from the JSON log
    else if (entries.length && line && !/^ {2}=> /.test(line)) entries[entries.length - 1].story += line.replace(/^ {2}/, '') + '\n';
  }
  const said = new Map();
  for (const j of Array.isArray(json) ? json : []) {
    const e = said.get(j.action) || {says: j.says, changes: []};
    e.changes.push(...(j.changes || []));
    said.set(j.action, e);
  }
  for (const e of entries) {
    const w = said.get(e.n);
    if (w) { e.says = w.says; e.changes = w.changes; }
  }
  return entries;
}

// The log grouped by turn, each action by its words with its changes,
// the story folded.
function renderLog() {
  const box = $('log');
  box.replaceChildren();
  if (!logEntries.length) {
    box.append(el('p', {class: 'hint', text: 'Nothing rolled yet.'}));
    return;
  }
  const turns = new Map();
  for (const e of logEntries) {
    if (!turns.has(e.turn)) turns.set(e.turn, []);
    turns.get(e.turn).push(e);
  }
  const last = Math.max(...turns.keys());
  for (const [turn, list] of turns) {
    const d = el('details', {class: 'turn'}, el('summary', {text: `Turn ${turn} · ${plural(list.length, 'action', 'actions')}`}));
    if (turn === last) d.open = true;
    for (const e of list) {
      const entry = el('div', {class: 'entry', 'data-action': String(e.n)},
        el('p', {class: 'says'}, el('span', {class: 'n', text: `#${e.n}`}), document.createTextNode(cap(e.says))));
      // fray's reason for its own move (solo play) under the move, the changes after it
      const reasons = window.gameAdvice ? e.changes.map((c) => gameAdvice.reasonOf(c)) : [];
      for (const r of reasons) if (r) entry.append(el('p', {class: 'reason', text: r.text}));
      const changes = e.changes.filter((c, k) => !reasons[k]);
      if (changes.length) entry.append(el('ul', {class: 'changes'}, ...changes.map((c) => el('li', {text: c}))));
      if (e.story.trim()) entry.append(el('details', {}, el('summary', {text: 'Every roll'}), el('pre', {text: e.story})));
      d.append(entry);
    }
    box.append(d);
  }
}

// ---- downloads ----

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], {type}));
  const a = el('a', {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function downloadFrom(op, fmt, name, type, key) {
  try {
    const a = await askGame({op, game: game.text, ...(fmt ? {format: fmt} : {})});
    download(name, type, a[key]);
  } catch (e) { showError(e.message); }
}

// ---- start ----

function init() {
  try { game = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { game = null; }
  if (game && typeof game.text !== 'string') game = null;
  $('new-form').addEventListener('submit', startGame);
  $('forces-pick').addEventListener('change', () => { $('paste-box').hidden = $('forces-pick').value !== ''; });
  $('cancel-new').addEventListener('click', showGame);
  $('game-file').addEventListener('change', importGame);
  $('new').addEventListener('click', showNew);
  $('undo').addEventListener('click', async () => {
    try {
      const a = await askGame({op: 'undo', game: game.text});
      store(a.game);
      showError('');
      const gone = logEntries.pop();
      // what was taken back, in the game's words ("Presidials: shoot at
      // Apaches (range 10)"), and what it had changed
      const said = a.undone || (gone && gone.says) || 'the last action';
      const undid = [`Took back ${gone ? '#' + gone.n + ' ' : ''}${said}`];
      if (gone && gone.changes.length) undid.push('Undone with it: ' + gone.changes.join('; '));
      afterChange(a, undid, '', 'Taken back');
    } catch (e) { showError(e.message); }
  });
  $('end-turn').addEventListener('click', () => applyRequest({op: 'apply', game: game.text, action: 'turn'}));
  $('pass').addEventListener('click', () => {
    const st = (units && units.status) || {};
    if (st.acting) applyRequest({op: 'apply', game: game.text, action: 'pass', actor: st.acting});
  });
  $('next-phase').addEventListener('click', () => applyRequest({op: 'apply', game: game.text, action: 'next'}));
  $('act-form').addEventListener('submit', roll);
  $('act-form').addEventListener('input', oddsSoon);
  // a select's choice made by a script or a driver may say only 'change'
  // (chromedriver's does): the odds follow it too (oddsSoon waits for the last)
  $('act-form').addEventListener('change', oddsSoon);
  $('close-act').addEventListener('click', () => { closeAction(); renderForces(); });
  $('dl-game').addEventListener('click', () => download('game.yaml', 'application/yaml', game.text));
  $('dl-md').addEventListener('click', () => downloadFrom('log', 'markdown', 'game-log.md', 'text/markdown', 'log'));
  $('dl-html').addEventListener('click', () => downloadFrom('report', null, 'game-report.html', 'text/html', 'html'));
  // a game kept by fray serve, opened by its address (page/shared_game.js)
  if (!(window.sharedGame && sharedGame.start())) {
    if (game) showGame(); else showNew();
  }
  procedure('');  // the catalogue fetched once, before the first action needs it
}

document.addEventListener('DOMContentLoaded', init);
