// fray at the table: one game on many phones (issue 43 item 1). When the
// page came from `fray serve`, the server keeps games (api/v1/games;
// docs/serve.md, "Games on the server"): the game screen lists them, opens
// one, and every phone that opens it acts on the same game. A change
// (an action, undo, the end of a turn) goes to the kept game with the
// version this phone saw; one made against an older version is refused
// (409) and this phone is shown the game as it is now, the action left in
// its form to be rolled again. Each phone waits on the game's events
// (long polling): another phone's action shows here within a second or
// two, without a reload.
//
// The static page (no server) keeps its one game in this browser, and a
// file brought in that is an older copy of it, or a fork of it, is named
// as such and replaces it only when the player says so.
//
// game.js calls in through window.sharedGame at five places (askGame,
// store, importGame, init, and nothing else decides): this file decides no
// rule, it only carries the game's text to and from the server.
'use strict';

(function () {
  const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

  const shared = {
    name: null,       // the kept game open here, or null: this browser's own game
    version: 0,       // the version of the kept game this phone shows
    listening: false, // the events loop runs
    paused: false,    // events not listened to (a phone whose network dropped; the tests)
    stop: null,       // the AbortController of the events request waiting
    served: false,    // the page came from fray serve and it keeps games
  };

  const api = (name) => 'api/v1/games' + (name ? '/' + name : '');

  async function json(r) {
    const text = await r.text();
    let a = null;
    try { a = JSON.parse(text); } catch (e) { /* said below */ }
    if (!r.ok || !a) {
      const err = new Error(a && a.error ? a.error : text || 'HTTP ' + r.status);
      err.answer = a;
      err.status = r.status;
      throw err;
    }
    return a;
  }

  function sayShared() {
    const line = $('shared-line');
    if (!line) return;
    line.hidden = !shared.name;
    $('leave-shared').hidden = !shared.name;
    if (shared.name) {
      $('shared-name').textContent = shared.name;
      $('shared-version').textContent = String(shared.version);
    }
    for (const b of document.querySelectorAll('#server-games-list button')) {
      const here = b.dataset.game === shared.name;
      b.setAttribute('aria-current', String(here));
      // the list is as it was when read; the game open here is said as it is now
      if (here && b.nextSibling) b.nextSibling.textContent = ` open here · version ${shared.version}`;
    }
  }

  // The server shares its computing fairly by address: a client has at
  // most 5 requests waiting or worked on, and past them is answered 503
  // "busy". Phones behind one address (a laptop's browsers, the tests'),
  // each refreshing at every change, pass that now and then: a request so
  // refused is asked again, a few times, a little later each time.
  async function patient(ask) {
    for (let i = 0; ; i++) {
      const r = await ask();
      if (r.status !== 503 || i >= 5) return r;
      await sleep(150 * (i + 1) + Math.random() * 150);
    }
  }

  // ---- the server's list ----

  async function list() {
    if (!shared.served) return;
    let games = [];
    try {
      games = (await json(await fetch(api(), {cache: 'no-store'}))).games || [];
    } catch (e) { return; }
    const box = $('server-games-list');
    box.replaceChildren();
    for (const g of games) {
      const b = el('button', {type: 'button', class: 'secondary', 'data-game': g.name,
        text: `Open ${g.name}`});
      b.addEventListener('click', () => open(g.name));
      box.append(el('li', {}, b, el('span', {class: 'hint',
        text: ` ${g.rules} · turn ${g.turn} · version ${g.version}`})));
    }
    if (!games.length) box.append(el('li', {class: 'hint', text: 'None yet: start one below, with a name to keep it here.'}));
    $('server-games').hidden = false;
    sayShared();
  }

  // ---- one kept game ----

  // The kept game as it is now, this phone's copy.
  async function fetchGame() {
    const name = shared.name;
    const a = await json(await patient(() => fetch(api(name), {cache: 'no-store'})));
    if (name !== shared.name) return;
    shared.version = a.version;
    game = {text: a.game};
    sayShared();
  }

  // ... and shown.
  async function reload() {
    await fetchGame();
    await refresh();
  }

  async function open(name) {
    if (!NAME_RE.test(name)) return;
    shared.name = name;
    history.replaceState(null, '', '#shared=' + name);
    try {
      await fetchGame();
      showError('');
      await showGame();
      listen();
    } catch (e) {
      leave();
      showError(`${name}: ${e.message}`);
    }
  }

  function leave() {
    shared.name = null;
    history.replaceState(null, '', location.pathname + location.search);
    try { game = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { game = null; }
    if (game && typeof game.text !== 'string') game = null;
    sayShared();
  }

  // The events: each answer says the game's version; a new one is shown.
  // One request held at a time (the server holds it up to 20 s); after a
  // failure the next waits a second. Ends when another game is opened.
  async function listen() {
    if (shared.listening) return;
    shared.listening = true;
    try {
      while (shared.name && !shared.paused) {
        const name = shared.name;
        shared.stop = new AbortController();
        try {
          const r = await fetch(`${api(name)}/events?after=${shared.version}`, {cache: 'no-store',
            signal: shared.stop.signal});
          const a = await json(r);
          if (name === shared.name && !shared.paused && a.version !== shared.version) await reload();
        } catch (e) {
          if (shared.paused) break;
          if (e.status === 404 && name === shared.name) {
            showError(`${name}: the server no longer keeps this game`);
            break;
          }
          await sleep(1000);
        }
      }
    } finally {
      shared.listening = false;
    }
  }

  // What the server said happened since this phone's version, in words.
  function since(a) {
    const what = ((a && a.since) || []).map((c) => c.what);
    return what.length ? what.join('; ') : 'another phone acted';
  }

  // ---- game.js's hooks ----

  window.sharedGame = {
    // Whether a request to the game is this file's: any while a kept game
    // is open (a change goes to it; a reading op is asked patiently), or a
    // new game given a name to keep it under.
    takes(req) {
      if (req.op === 'new') {
        const keep = $('keep-name') && !$('keep-name').closest('[hidden]') ? $('keep-name').value.trim() : '';
        if (!keep) leave();
        return !!keep;
      }
      return !!shared.name;
    },
    async ask(req, signal) {
      const body = Object.assign({}, req);
      delete body.game;
      if (req.op !== 'new' && req.op !== 'apply' && req.op !== 'undo' && req.op !== 'play') {
        // a reading op: on this phone's copy, as this browser's own game's
        const r = await patient(() => postAPI('api/v1/game', req, signal));
        let a = null;
        try { a = JSON.parse(r.text); } catch (e) { /* said below */ }
        if (!r.ok || !a) {
          const err = new Error(a && a.error ? a.error : r.text || 'HTTP ' + r.status);
          err.answer = a;
          throw err;
        }
        return a;
      }
      if (req.op === 'new') {
        const name = $('keep-name').value.trim();
        if (!NAME_RE.test(name)) throw new Error('A name to keep it under: a short word of a-z, 0-9, - and _');
        const a = await json(await fetch(api(name), {method: 'POST', headers: {'Content-Type': 'application/json'},
          body: JSON.stringify(body), signal}));
        shared.name = name;
        shared.version = a.version;
        history.replaceState(null, '', '#shared=' + name);
        $('keep-name').value = '';
        sayShared();
        list();
        listen();
        return a;
      }
      const r = await patient(() => fetch(`${api(shared.name)}?version=${shared.version}`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body), signal}));
      if (r.status === 409) {
        const a = await r.json().catch(() => null);
        await reload();
        throw new Error(`The game changed before this reached it (${since(a)}): look at it again, ` +
          'then roll again if it still stands');
      }
      const a = await json(r);
      shared.version = a.version;
      sayShared();
      return a;
    },
    // store(text): a kept game is the server's, not this browser's
    keeps() {
      return !!shared.name;
    },
    // init: a #shared=NAME address opens that game (true: it takes over)
    start() {
      transportKind().then(async (kind) => {
        if (kind !== 'server') return;
        try {
          const r = await fetch(api(), {cache: 'no-store'});
          shared.served = r.ok;
        } catch (e) { shared.served = false; }
        $('keep-box').hidden = !shared.served;
        list();
      });
      $('leave-shared').addEventListener('click', () => {
        leave();
        if (game) showGame(); else showNew();
      });
      const m = /^#shared=([a-z0-9_-]+)$/.exec(location.hash);
      if (!m) return false;
      open(m[1]);
      return true;
    },
    // importGame: whether text may replace this browser's game. The same
    // game (the same rules, seed and forces' names) with fewer actions is
    // an older copy; one whose actions part from this one's is a fork:
    // each is said, and replaces it only when the player agrees.
    replacing(text) {
      if (shared.name) leave();
      const mine = game && game.text;
      if (!mine) return true;
      const a = describe(mine), b = describe(text);
      if (a.id !== b.id) return true;
      let same = 0;
      while (same < a.log.length && same < b.log.length && a.log[same] === b.log[same]) same++;
      if (same === b.log.length && b.log.length < a.log.length)
        return confirm(`This file is an older copy of the game in this browser: it has ${b.log.length} of its ` +
          `${a.log.length} log entries. Replace the game here with the older copy?`);
      if (same < a.log.length && same < b.log.length)
        return confirm(`This file is a fork of the game in this browser: the two agree on the first ${same} log ` +
          `entries, then each went its own way (${b.log.length} entries in the file, ${a.log.length} here). ` +
          'Replace the game here with the fork?');
      return true;
    },
    // for the tests: a phone that stops hearing the others (its network dropped)
    pause(on) {
      shared.paused = !!on;
      if (on && shared.stop) shared.stop.abort();
      if (!on && shared.name) listen();
    },
    state: () => ({name: shared.name, version: shared.version, served: shared.served}),
    refreshList: list,
  };

  // A game file's identity (its rules, seed and the forces' names, which
  // play never changes) and its log's entries, each as its text.
  function describe(text) {
    const head = (key) => ((new RegExp('^' + key + ': (.*)$', 'm')).exec(text) || [])[1] || '';
    const at = text.indexOf('\nlog:\n');
    const units = (at < 0 ? text : text.slice(0, at)).match(/^ {2}- name: .*$/gm) || [];
    const log = at < 0 ? [] : text.slice(at + 6).split(/^(?= {2}- )/m).filter((e) => e.trim());
    return {id: [head('rules'), head('seed'), ...units].join('\n'), log};
  }
})();
