// fray at the table: advice and solo play on the game screen (issue 44).
// Both are the game's (api/v1/game's "advise" and "play" ops,
// docs/json/game-request.md): the page ranks nothing and picks nothing.
//
// - Advice: when a unit is tapped, the game's ranking of what it may do
//   now ({"goal", "actions": [{"action", "target", "options", "value",
//   "exact", "headline", "why"}...]}, best first); the best action's button
//   is marked "best" and the ranking is shown on request ("Advice"), each
//   with "Take it", which fills the action's form with it.
// - Solo play: when a game starts, "fray plays SIDE" for each side; once
//   chosen, after each of the player's actions the page asks the game for
//   that side's action (op play), and the log shows it with its reason.
//
// Where the game has no advise op (an older fray serve), none of this is
// shown. game.js calls in through window.gameAdvice at four places
// (openUnit, showView, applyRequest, renderLog).
'use strict';

(function () {
  const SOLO = 'fray.solo';
  const GOALS = [['win', 'win'], ['not-lose', 'not lose'], ['casualties', 'casualties'], ['hold', 'hold']];
  let supported = null;   // null: not known yet; the game's answer to the first advise
  let asked = 0;          // advice asked so far: an answer to an older question is not shown
  let advice = null;      // {unit: index, answer}
  let playing = false;    // a play request on its way

  // The solo side and goal this browser keeps for its game (null: none).
  function solo() {
    try {
      const s = JSON.parse(localStorage.getItem(SOLO) || 'null');
      return s && typeof s.side === 'string' ? s : null;
    } catch (e) { return null; }
  }
  function setSolo(s) {
    if (s) localStorage.setItem(SOLO, JSON.stringify(s)); else localStorage.removeItem(SOLO);
    renderSolo();
  }
  const goal = () => ($('goal') && $('goal').value) || 'win';

  // An advised action in words: "shoot at Apaches (range 10, mode volley)".
  function saidAction(x) {
    const opts = Object.entries(x.options || {}).map(([k, v]) => `${words(k)} ${v === true ? '' : v}`.trim());
    return `${x.action}${x.target ? ' at ' + x.target : ''}${opts.length ? ' (' + opts.join(', ') + ')' : ''}`;
  }

  // A reason as a player reads it: exact fractions too long to read left
  // to the value's own line (a percentage is beside each).
  const readable = (why) => String(why || '').replace(/ \(exactly \d{7,}\/\d+\)/g, '');

  // The action's value, with its fraction when short (page/dom.js).
  const valueEl = (x) => chanceEl('span', pct(x.value), x.exact, {class: 'value'});

  // ---- advice ----

  async function unitOpened(i) {
    const box = $('advice');
    const mine = ++asked;
    advice = null;
    box.hidden = true;
    $('advice-list').replaceChildren();
    $('advice-toggle').setAttribute('aria-expanded', 'false');
    $('advice-ranking').hidden = true;
    const u = units.units[i];
    if (supported === false || !u.actions.length) return;
    let a;
    try {
      a = await askGame({op: 'advise', game: game.text, actor: u.name, goal: goal()});
    } catch (e) {
      if (mine !== asked) return;
      if (e.answer && e.answer.input === 'op') supported = false;  // a fray without advice
      if (supported !== false) {
        box.hidden = false;
        $('advice-best').textContent = 'No advice: ' + e.message.replace(/^advice: /, '');
      }
      renderSolo();
      return;
    }
    if (mine !== asked || !picked || picked.unit !== i) return;
    supported = true;
    renderSolo();
    advice = {unit: i, answer: a};
    showAdvice(a);
  }

  function showAdvice(a) {
    const box = $('advice'), list = $('advice-list');
    box.hidden = false;
    const acts = a.actions || [];
    for (const b of $('act-buttons').querySelectorAll('.best-mark')) b.remove();
    if (!acts.length) {
      $('advice-best').textContent = 'No advice: nothing this unit may do now has odds to weigh.';
      $('advice-toggle').hidden = true;
      return;
    }
    $('advice-toggle').hidden = false;
    const best = acts[0];
    const b = $('act-buttons').querySelector(`button[data-action="${CSS.escape(best.action)}"]`);
    if (b) b.append(el('span', {class: 'best-mark', text: ' · best'}));
    $('advice-best').replaceChildren(el('strong', {text: `Best now (goal: ${words(a.goal)}): `}),
      document.createTextNode(saidAction(best) + ': ' + best.headline));
    list.replaceChildren();
    acts.forEach((x, n) => {
      const take = el('button', {type: 'button', class: 'secondary', text: 'Take it'});
      take.addEventListener('click', () => takeAdvice(x));
      list.append(el('li', {class: 'advice-item', 'data-rank': String(n + 1)},
        el('p', {class: 'what'}, el('strong', {text: saidAction(x)}), document.createTextNode(' · worth '), valueEl(x)),
        el('p', {class: 'head', text: x.headline}),
        el('p', {class: 'hint', text: readable(x.why)}),
        take));
    });
  }

  // The advised action's form, filled as advised (the player still rolls it).
  function takeAdvice(x) {
    if (!picked) return;
    const a = units.units[picked.unit].actions.find((y) => y.name === x.action);
    if (!a) return;
    chooseAction(a);
    const t = $('act-target');
    if (t && x.target) t.value = x.target;
    for (const [k, v] of Object.entries(x.options || {})) {
      const c = $('opt-' + k.replace(/_/g, '-'));
      if (!c) continue;
      if (c.type === 'checkbox') c.checked = v === true;
      else c.value = String(v);
      const more = c.closest('details');
      if (more) more.open = true;
    }
    $('advice-ranking').hidden = true;
    $('advice-toggle').setAttribute('aria-expanded', 'false');
    oddsSoon();
    $('act-form').scrollIntoView({block: 'nearest'});
  }

  // ---- solo play ----

  // The sides of the game, in the game's order.
  const sides = () => [...new Set((units ? units.status.units : []).map((s) => s.side))];

  // Whether the game advises (asked once, of the first unit that may act).
  async function probe() {
    if (supported !== null || !units) return;
    const u = units.units.find((x) => x.actions.length);
    if (!u) return;
    try {
      await askGame({op: 'advise', game: game.text, actor: u.name, goal: 'win'});
      supported = true;
    } catch (e) {
      if (e.answer && e.answer.input === 'op') supported = false;
    }
    renderSolo();
  }

  function renderSolo() {
    const box = $('solo');
    if (!box) return;
    if (supported === null) probe();
    box.hidden = !units || supported !== true;
    if (box.hidden) return;
    const s = solo(), offer = $('solo-offer'), on = $('solo-on');
    $('solo-sides').replaceChildren();
    if (s && sides().includes(s.side)) {
      offer.hidden = true;
      on.hidden = false;
      $('solo-side').textContent = s.side;
      $('goal').value = s.goal || 'win';
      return;
    }
    on.hidden = true;
    offer.hidden = false;
    for (const side of sides()) {
      const b = el('button', {type: 'button', class: 'secondary', 'data-side': side, text: `fray plays ${side}`});
      b.addEventListener('click', async () => {
        setSolo({side, goal: goal()});
        $('solo-said').textContent = `fray plays ${side}: after each of your actions it takes ${side}'s.`;
        // a game where the solo side is to act: "fray's move now"
      });
      $('solo-sides').append(b);
    }
  }

  // fray's action for the solo side (op play), shown in the log with its
  // reason; the game's answer when the side waits or the game is over.
  async function play() {
    const s = solo();
    if (!s || playing) return;
    playing = true;
    $('solo-move').disabled = true;
    $('solo-said').textContent = `fray is choosing ${s.side}'s action…`;
    try {
      const a = await askGame({op: 'play', game: game.text, side: s.side, goal: s.goal || 'win'});
      if (a.game) store(a.game);
      if (a.played) {
        await refresh();
        const last = logEntries[logEntries.length - 1];
        const said = `fray plays ${s.side}: ${last ? cap(last.says) : saidAction(a.played)}: ${a.played.headline}`;
        $('solo-said').textContent = said;
        // beside what the player's action did, what fray's did
        if (!$('happened').hidden && last) {
          $('changes').append(el('li', {class: 'fray-move', text: 'Then ' + said}),
            ...last.changes.filter((c) => !reasonOf(c)).map((c) => el('li', {text: c})));
        }
      } else {
        $('solo-said').textContent = readable(a.says) || `fray plays ${s.side}: nothing to do now`;
        if (a.units) showView(a);
      }
    } catch (e) {
      $('solo-said').textContent = `fray could not play ${s.side}: ${e.message}`;
    } finally {
      playing = false;
      $('solo-move').disabled = false;
    }
  }

  // After a player's change: the solo side answers it (not after an undo,
  // nor after fray's own).
  function afterPlayer(req) {
    const s = solo();
    if (!s || req.op !== 'apply') return;
    const actor = req.actor && units ? units.units.findIndex((u) => u.name === req.actor) : -1;
    if (actor >= 0 && units.status.units[actor].side === s.side) return;  // the player moved fray's side by hand
    play();
  }

  // A log entry's change that is fray's reason ("fray plays Apache: CMD
  // because ..."), in words: its command is the entry's own line already.
  function reasonOf(change) {
    const m = /^fray plays ([^:]+): .*? because (.*)$/.exec(change);
    return m ? {side: m[1], text: `fray plays ${m[1]}, because ${readable(m[2])}`} : null;
  }

  function init() {
    if (!$('advice')) return;
    const g = $('goal');
    for (const [v, t] of GOALS) g.append(el('option', {value: v, text: t}));
    g.addEventListener('change', () => {
      const s = solo();
      if (s) setSolo({side: s.side, goal: g.value});
      if (picked) unitOpened(picked.unit);
    });
    $('advice-toggle').addEventListener('click', () => {
      const open = $('advice-ranking').hidden;
      $('advice-ranking').hidden = !open;
      $('advice-toggle').setAttribute('aria-expanded', String(open));
    });
    $('solo-move').addEventListener('click', play);
    $('solo-stop').addEventListener('click', () => {
      setSolo(null);
      $('solo-said').textContent = 'Both sides are played at the table.';
    });
  }

  window.gameAdvice = {
    unitOpened, afterPlayer, reasonOf, renderSolo,
    // a new game: no side played by fray until the players say so
    newGame: () => setSolo(null),
    state: () => ({supported, solo: solo(), advice: advice && advice.answer}),
  };
  document.addEventListener('DOMContentLoaded', init);
})();
