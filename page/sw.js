// fray at the table: the service worker that keeps the page and the
// WebAssembly build on the device, so after one visit the page opens and
// computes with the network off (page/transport.js then uses the worker).
//
// Only fray's own files (FILES, below this worker's folder), in a cache
// named by the build (`make site` writes its build id into VERSION:
// scripts/site-assemble.sh); activating deletes fray's older caches, never
// another app's. Any other request (another app served later on the same
// port, the API) is not touched: the browser does it as if there were no
// service worker.
//
// Network first, bypassing the HTTP cache (cache: 'no-cache': a plain
// static host gives no Cache-Control, and a browser would keep an old
// app.js for hours by its own guess), so a new build is seen when there is
// a network; the kept copy when there is none. The page's assets carry the
// build in their URLs (?v=, the same id), so a new page never gets an old
// script from any cache.
'use strict';
const VERSION = 'dev'; // `make site` writes the build id here (fray serve: 'dev')
const PREFIX = 'fray-page-';
const CACHE = PREFIX + VERSION;
// the page's files; fray.js and fray.wasm exist only on the static site
// (fray serve computes on the server): each is cached if it is there.
// A new page file goes here.
const PAGES = ['./', 'index.html', 'game.html'];
const FILES = [...PAGES, 'app.css', 'dom.js', 'transport.js', 'app.js', 'worker.js', 'fray.js', 'fray.wasm',
  'manifest.webmanifest', 'icons/icon.svg', 'icons/icon-192.png', 'icons/icon-512.png', 'game.css', 'game.js',
  'share_qr.js', 'shared_game.js', 'game_advice.js'];
// an asset of this build: the ?v= the build's pages give it (none on fray serve)
const STAMP = VERSION === 'dev' ? null : VERSION;
const MARK = '<meta name="fray-build" content="' + VERSION + '">';

// The name in FILES a URL is, or null: not fray's.
function ours(url) {
  const base = new URL(self.registration.scope);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const rel = url.pathname.slice(base.pathname.length) || './';
  return FILES.includes(rel) ? rel : null;
}

// Whether a response is this build's file: a page that says the build, an
// asset asked for with the build's ?v=. Another app's index.html, or a
// later build's, is not kept here.
async function thisBuild(rel, url, r) {
  if (!r.ok) return false;
  if (PAGES.includes(rel)) return (await r.clone().text()).includes(MARK);
  return url.searchParams.get('v') === STAMP;
}

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(FILES.map(async (f) => {
    try {
      const url = new URL(f + (STAMP && !PAGES.includes(f) ? '?v=' + STAMP : ''), self.registration.scope);
      const r = await fetch(url, {cache: 'no-cache'});
      if (await thisBuild(f, url, r)) await c.put(url, r);
    } catch (err) { /* not on this host */ }
  }))));
  self.skipWaiting();
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  const rel = e.request.method === 'GET' ? ours(url) : null;
  if (!rel) return;
  e.respondWith((async () => {
    const c = await caches.open(CACHE);
    try {
      const r = await fetch(url, {cache: 'no-cache', credentials: 'same-origin'});
      if (await thisBuild(rel, url, r)) await c.put(url, r.clone());
      return r;
    } catch (err) {
      // a share link's #view is not part of the request; a page's query
      // and an asset's ?v= are ignored: this cache holds one build
      const kept = await c.match(url, {ignoreSearch: true});
      if (kept) return kept;
      throw err;
    }
  })());
});
