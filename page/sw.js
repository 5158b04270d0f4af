// fray at the table: the service worker that keeps the page and the
// WebAssembly build on the device, so after one visit the page opens and
// computes with the network off (page/transport.js then uses the worker).
// Network first, so a new version is seen when there is a network; the
// cached copy when there is none. The API (fray serve's) is never cached:
// without a server the page computes itself.
'use strict';
const CACHE = 'fray-page-v1';
// the page's files; fray.js and fray.wasm exist only on the static site
// (fray serve computes on the server): each is cached if it is there
// (and the game screen's, g31b's, where it is there). A new page file goes here.
const FILES = ['./', 'index.html', 'app.css', 'dom.js', 'transport.js', 'app.js', 'worker.js',
  'fray.js', 'fray.wasm', 'manifest.webmanifest', 'icons/icon.svg', 'icons/icon-192.png', 'icons/icon-512.png',
  'game.html', 'game.css', 'game.js', 'share_qr.js'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) =>
    Promise.all(FILES.map((f) => c.add(f).catch(() => { /* not on this host */ })))));
  self.skipWaiting();
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin || url.pathname.includes('/api/')) return;
  e.respondWith((async () => {
    const c = await caches.open(CACHE);
    try {
      const r = await fetch(e.request);
      if (r.ok) c.put(e.request, r.clone());
      return r;
    } catch (err) {
      // a share link's #view is not part of the request; a page's query is ignored
      const kept = await c.match(e.request, {ignoreSearch: true});
      if (kept) return kept;
      throw err;
    }
  })());
});
