// fray serve --lan: "Pass it on". The QR code of this server's address
// with its token (api/v1/qr.svg, drawn by the server: the code the
// terminal shows) in a dialog, so the player who has the page open can let
// the next one scan it. On a server for this machine alone (no --lan) or a
// static host the address answers 404 and no button appears.
'use strict';
(() => {
  const make = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };

  const dialogFor = (code, url) => {
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
    const close = make('button', {type: 'button', id: 'share-qr-close'}, 'Close');
    close.addEventListener('click', () => dialog.close());
    dialog.append(make('h2', {id: 'share-qr-title'}, 'Pass it on'),
      make('p', {}, 'A phone on the same network opens this page with its camera:'),
      code, make('p', {}, ''), where, make('p', {}, ''), close);
    return dialog;
  };

  const offer = (text) => {
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    if (!svg || svg.nodeName !== 'svg') return;
    const title = svg.querySelector('title');
    const code = document.importNode(svg, true);
    const dialog = dialogFor(code, title ? title.textContent : '');
    const open = make('button', {type: 'button', id: 'share-qr-open', 'aria-haspopup': 'dialog'}, 'Pass it on');
    open.title = 'The QR code of this page\'s address, for the next player';
    open.addEventListener('click', () => dialog.showModal());
    const header = document.querySelector('header') || document.body;
    header.append(open);
    document.body.append(dialog);
  };

  fetch('api/v1/qr.svg', {cache: 'no-store'})
    .then((r) => (r.ok ? r.text() : null))
    .then((text) => { if (text) offer(text); })
    .catch(() => {});
})();
