// fray serve --lan: "Pass it on". The QR code of this server's address
// with its token (api/v1/qr.svg, drawn by the server: the code the
// terminal shows) in a dialog, so the player who has the page open can let
// the next one scan it, with the address to copy or share. On a server for
// this machine alone (no --lan) or a static host the address answers 404
// and no button appears.
//
// On the game screen (game.html) with a game kept by the server open
// (page/shared_game.js), the code is that game's own address instead
// (api/v1/games/NAME/qr.svg: game.html#shared=NAME), so the next phone
// opens the very game, not the list.
'use strict';
(() => {
  const make = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };

  // The address on the clipboard: navigator.clipboard needs a secure
  // context, which a LAN address over http is not; then the text is
  // selected and copied the old way. True when it was copied.
  async function copy(text, from) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) { /* the old way below */ }
    const range = document.createRange();
    range.selectNodeContents(from);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    let done = false;
    try { done = document.execCommand('copy'); } catch (e) { done = false; }
    return done;
  }

  // The dialog, made again for each code shown (the game open may change).
  function dialogFor(code, url, what) {
    const old = document.getElementById('share-qr');
    if (old) old.remove();
    const dialog = make('dialog', {id: 'share-qr', 'aria-labelledby': 'share-qr-title'});
    dialog.style.textAlign = 'center';
    dialog.style.maxWidth = '24rem';
    // the code keeps its own white square (and quiet zone) in dark mode too
    code.style.display = 'block';
    code.style.width = 'min(70vw, 18rem)';
    code.style.height = 'auto';
    code.style.margin = '0 auto';
    const where = make('code', {id: 'share-qr-url'}, url);
    where.style.overflowWrap = 'anywhere';
    where.style.userSelect = 'all';
    const said = make('p', {id: 'share-qr-said', role: 'status'});
    const buttons = make('p', {class: 'buttons'});
    buttons.style.justifyContent = 'center';
    const copyB = make('button', {type: 'button', id: 'share-qr-copy', class: 'secondary'}, 'Copy the address');
    copyB.addEventListener('click', async () => {
      said.textContent = (await copy(url, where)) ? 'Copied: paste it in a message to the next player'
        : 'Not copied: press on the address to select it, then copy it';
    });
    buttons.append(copyB);
    // a phone's own share sheet (a message, a chat), where the browser has one
    if (navigator.share) {
      const shareB = make('button', {type: 'button', id: 'share-qr-share', class: 'secondary'}, 'Share…');
      shareB.addEventListener('click', () => navigator.share({title: document.title, url}).catch(() => {}));
      buttons.append(shareB);
    }
    const close = make('button', {type: 'button', id: 'share-qr-close'}, 'Close');
    close.addEventListener('click', () => dialog.close());
    buttons.append(close);
    dialog.append(make('h2', {id: 'share-qr-title'}, 'Pass it on'),
      make('p', {id: 'share-qr-what'}, what),
      code, make('p', {}, ''), where, said, buttons);
    document.body.append(dialog);
    return dialog;
  }

  // The server's SVG as an element, and the address it codes (its title).
  function parse(text) {
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    if (!svg || svg.nodeName !== 'svg') return null;
    const title = svg.querySelector('title');
    return {code: document.importNode(svg, true), url: title ? title.textContent : ''};
  }

  // The kept game open on this game screen, or null.
  const keptGame = () => (window.sharedGame && sharedGame.state().name) || null;

  async function show(pageCode) {
    let shown = pageCode, what = 'A phone on the same network opens this page with its camera:';
    const name = keptGame();
    if (name) {
      try {
        const r = await fetch(`api/v1/games/${encodeURIComponent(name)}/qr.svg`, {cache: 'no-store'});
        const got = r.ok ? parse(await r.text()) : null;
        if (got) {
          shown = got;
          what = `A phone on the same network opens this game, ${name}, with its camera, and plays it with you:`;
        }
      } catch (e) { /* the page's own code, said as such */ }
    }
    dialogFor(shown.code.cloneNode(true), shown.url, what).showModal();
  }

  function offer(text) {
    const pageCode = parse(text);
    if (!pageCode) return;
    const open = make('button', {type: 'button', id: 'share-qr-open', 'aria-haspopup': 'dialog'}, 'Pass it on');
    open.title = 'The QR code of this page\'s address (on the game screen, the game\'s), for the next player';
    open.addEventListener('click', () => show(pageCode));
    const header = document.querySelector('header') || document.body;
    header.append(open);
  }

  // only fray serve draws codes: a static host is not asked (its 404)
  (typeof transportKind === 'function' ? transportKind() : Promise.resolve('server'))
    .then((kind) => (kind === 'server' ? fetch('api/v1/qr.svg', {cache: 'no-store'}) : null))
    .then((r) => (r && r.ok ? r.text() : null))
    .then((text) => { if (text) offer(text); })
    .catch(() => {});
})();
