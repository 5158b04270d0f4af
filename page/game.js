// fray at the table: the game screen. The game is its file's text, kept
// in this browser (localStorage); every question goes to POST api/v1/game
// (docs/json/game-request.md) with the text, and a change comes back as
// the new text. The page decides no rule: the actions a unit may take,
// the inputs from its state, the odds and the follow-ups are the game's.
'use strict';

const STORE = 'fray.game';
let game = null;       // {text}: the game file, as fray table reads it
let units = null;      // the last "units" answer
let picked = null;     // {unit: index, action: the action's description}

// The game's one door: a request to api/v1/game, through transport.js
// (fray serve, or the WebAssembly build on a static host). An error
// carries the answer (a question).
async function askGame(request) {
  const r = await postAPI('api/v1/game', request);
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

const words = (key) => String(key).replace(/_/g, ' ');
const pct = (p) => (100 * p).toFixed(1) + '%';

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
    units = await askGame({op: 'units', game: game.text});
    const log = await askGame({op: 'log', game: game.text, format: 'text'});
    renderForces();
    renderLog(log.log);
    const n = (log.log.match(/^#\d+ /gm) || []).length;
    $('game-line').textContent = `${units.rules} · turn ${units.turn} · ${n} action${n === 1 ? '' : 's'} so far`;
    $('undo').disabled = n === 0;
  } catch (e) { showError(e.message); }
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
}

function field(label, control, id) {
  control.id = id;
  return el('div', {class: 'field'}, el('label', {for: id, text: label}), control);
}

function chooseAction(a) {
  picked.action = a;
  for (const b of $('act-buttons').children) b.setAttribute('aria-pressed', String(b.dataset.action === a.name));
  const me = units.status.units[picked.unit];
  const box = $('act-fields');
  box.replaceChildren();
  $('act-usage').textContent = a.usage.replace(/^UNIT\s*/, '');
  if (a.target) {
    const sel = el('select', {name: 'target', required: 'required'});
    // the other side's units first: a suggestion of order, not a rule
    const others = units.units.map((u, i) => i).filter((i) => i !== picked.unit);
    others.sort((x, y) => (units.status.units[x].side === me.side) - (units.status.units[y].side === me.side));
    for (const i of others) sel.append(el('option', {value: units.units[i].name, text: units.units[i].name}));
    box.append(field('Target', sel, 'act-target'));
  }
  for (const o of a.options) {
    let c;
    if (o.value === null) {
      c = el('input', {type: 'checkbox', name: o.name});
      const f = el('div', {class: 'field bool'}, el('label', {for: 'opt-' + o.name}, c, document.createTextNode(' ' + words(o.name))));
      c.id = 'opt-' + o.name;
      box.append(f);
      continue;
    }
    const numeric = /^\d+$/.test(o.value) || ['IN', 'N', 'K', 'B'].includes(o.value);
    c = el('input', {type: numeric ? 'number' : 'text', name: o.name, placeholder: o.value,
      inputmode: numeric ? 'numeric' : 'text'});
    if (o.required) c.required = true;
    box.append(field(words(o.name) + (o.value === 'IN' ? ' (inches)' : '') + (o.required ? ' (needed)' : ''), c, 'opt-' + o.name));
  }
  const more = el('input', {type: 'text', name: 'more', placeholder: '--cover light'});
  box.append(field('More options (as on fray table\'s command line)', more, 'act-more'));
  $('act-form').hidden = false;
  $('question').hidden = true;
  $('odds').replaceChildren();
  oddsSoon();
}

// The action as a request's members, from the form.
function actionRequest() {
  const a = picked.action, req = {action: a.name, actor: units.units[picked.unit].name};
  const t = $('act-target');
  if (t) req.target = t.value;
  const words = [];
  for (const o of a.options) {
    const c = $('opt-' + o.name);
    if (o.value === null) { if (c.checked) words.push('--' + o.name); } else if (c.value.trim() !== '') words.push('--' + o.name, c.value.trim());
  }
  const more = $('act-more').value.trim();
  if (more) words.push(...more.split(/\s+/));
  req.options = words;
  return req;
}

let oddsTimer = null;
function oddsSoon() {
  clearTimeout(oddsTimer);
  oddsTimer = setTimeout(showOdds, 250);
}

// The odds headline: each outcome field's chance in words (at least one,
// or how often true), from the exact rows the game gives.
function headline(odds) {
  const rows = odds.outcomes || [];
  if (!rows.length) return [];
  const lines = [];
  for (const k of Object.keys(rows[0].outcome)) {
    const vals = rows.map((r) => r.outcome[k]);
    if (vals.every((v) => typeof v === 'boolean')) {
      lines.push(`${words(k)}: ${pct(rows.reduce((s, r) => s + (r.outcome[k] ? r.p : 0), 0))}`);
    } else if (vals.every((v) => typeof v === 'number')) {
      const some = rows.reduce((s, r) => s + (r.outcome[k] >= 1 ? r.p : 0), 0);
      const mean = rows.reduce((s, r) => s + r.outcome[k] * r.p, 0);
      lines.push(`${words(k)}: at least one ${pct(some)} · mean ${mean.toFixed(2)}`);
    } else {
      const by = new Map();
      for (const r of rows) by.set(String(r.outcome[k]), (by.get(String(r.outcome[k])) || 0) + r.p);
      const top = [...by].sort((x, y) => y[1] - x[1]).slice(0, 4);
      lines.push(`${words(k)}: ` + top.map(([v, p]) => `${v} ${pct(p)}`).join(' · '));
    }
  }
  return lines;
}

async function showOdds() {
  const box = $('odds');
  if (!picked || !picked.action) return;
  const t = $('act-target');
  for (const o of picked.action.options) {
    const c = $('opt-' + o.name);
    if (c.required && !c.value) {
      box.replaceChildren(el('p', {class: 'hint', text: `Give the ${words(o.name)} for the odds.`}));
      return;
    }
  }
  if (picked.action.target && t && !t.value) return;
  try {
    const a = await askGame({op: 'odds', game: game.text, ...actionRequest()});
    const odds = a.odds;
    const list = el('ul', {class: 'headline'});
    for (const line of headline(odds)) list.append(el('li', {text: line}));
    const inputs = el('ul', {class: 'inputs'});
    for (const [k, v] of Object.entries(odds.inputs || {})) inputs.append(el('li', {text: `${words(k)}: ${v}`}));
    box.replaceChildren(el('h4', {text: `Odds before the roll (${words(String(odds.procedure || '').split('.').pop())}, exact)`}),
      list,
      el('details', {}, el('summary', {text: 'What the game takes from the units'}), inputs),
      el('details', {}, el('summary', {text: 'Every outcome'}), el('pre', {text: a.text})));
  } catch (e) {
    box.replaceChildren(el('p', {class: 'hint', text: 'No odds: ' + e.message}));
  }
}

async function roll(ev, choices) {
  if (ev) ev.preventDefault();
  if (!picked || !picked.action) return;
  const req = {op: 'apply', game: game.text, ...actionRequest()};
  if (choices) req.choices = choices;
  await applyRequest(req);
}

async function applyRequest(req) {
  try {
    const a = await askGame(req);
    store(a.game);
    showError('');
    $('question').hidden = true;
    await afterChange(a.events);
  } catch (e) {
    if (e.answer && e.answer.question) {
      askQuestion(e.answer.question, req);
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

async function afterChange(events) {
  closeAction();
  await refresh();
  const list = $('changes');
  list.replaceChildren();
  for (const c of (events && events.changes) || []) list.append(el('li', {text: c}));
  if (!list.children.length) list.append(el('li', {text: 'no change to the forces'}));
  const entries = parseLog(lastLog);
  $('story').textContent = entries.length ? entries[entries.length - 1].story : '';
  $('happened').hidden = false;
  $('happened').scrollIntoView({block: 'nearest'});
}

// ---- the log, grouped by turn ----

let lastLog = '';
function parseLog(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    const m = /^#(\d+) turn (\d+): (.*)$/.exec(line);
    if (m) entries.push({n: Number(m[1]), turn: Number(m[2]), command: m[3], story: ''});
    else if (entries.length && line) entries[entries.length - 1].story += line.replace(/^ {2}/, '') + '\n';
  }
  return entries;
}

function renderLog(text) {
  lastLog = text;
  const box = $('log');
  box.replaceChildren();
  const entries = parseLog(text);
  if (!entries.length) {
    box.append(el('p', {class: 'hint', text: 'Nothing rolled yet.'}));
    return;
  }
  const turns = new Map();
  for (const e of entries) {
    if (!turns.has(e.turn)) turns.set(e.turn, []);
    turns.get(e.turn).push(e);
  }
  const last = Math.max(...turns.keys());
  for (const [turn, list] of turns) {
    const d = el('details', {class: 'turn'}, el('summary', {text: `Turn ${turn} · ${list.length} action${list.length === 1 ? '' : 's'}`}));
    if (turn === last) d.open = true;
    for (const e of list) {
      d.append(el('details', {class: 'entry'}, el('summary', {}, el('span', {class: 'n', text: `#${e.n}`}), el('code', {text: e.command})),
        el('pre', {text: e.story})));
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
      await afterChange({changes: ['the last action undone']});
    } catch (e) { showError(e.message); }
  });
  $('end-turn').addEventListener('click', () => applyRequest({op: 'apply', game: game.text, action: 'turn'}));
  $('act-form').addEventListener('submit', roll);
  $('act-form').addEventListener('input', oddsSoon);
  $('close-act').addEventListener('click', () => { closeAction(); renderForces(); });
  $('dl-game').addEventListener('click', () => download('game.yaml', 'application/yaml', game.text));
  $('dl-md').addEventListener('click', () => downloadFrom('log', 'markdown', 'game-log.md', 'text/markdown', 'log'));
  $('dl-html').addEventListener('click', () => downloadFrom('report', null, 'game-report.html', 'text/html', 'html'));
  if (game) showGame(); else showNew();
}

document.addEventListener('DOMContentLoaded', init);
