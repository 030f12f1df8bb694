// The service worker: the app's shell (the page, its styles and modules, its icons and
// the games' catalogue) kept in the browser, so that the site opens with the network
// down and a game on one screen goes on (offline.js plays tic-tac-toe then). The server
// serves it at /sw.js (its scope the whole site) with SHELL and VERSION written first
// (noughts.server.routes.pages): a new release is a new VERSION, whose cache replaces
// the old one. Everything else (the API, the sockets) goes to the network as before.

/* global SHELL, VERSION */
const worker = /** @type {any} */ (self);
// @ts-ignore: written by the server before this file
const CACHE = `noughts-${VERSION}`;
// @ts-ignore: written by the server before this file
const KEPT = new Set(SHELL);

worker.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...KEPT])).then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (/** @type {any} */ event) => {
  const old = (key) => key.startsWith("noughts-") && key !== CACHE;
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter(old).map((key) => caches.delete(key)))).then(() => worker.clients.claim()));
});

// The network first, so that a page online is always the newest; the copy kept when
// it cannot be reached. The texts of a language the page asked for are kept as well,
// so that it speaks that language offline too.
worker.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = event.request;
  const url = new URL(request.url);
  const kept = KEPT.has(url.pathname) || /^\/i18n\/[A-Za-z-]+\.json$/.test(url.pathname);
  if (request.method !== "GET" || url.origin !== location.origin || !kept) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url.pathname, copy)));
        }
        return response;
      })
      .catch(async () => (await caches.match(url.pathname)) || Response.error()),
  );
});
