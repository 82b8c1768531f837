// The app shell's service worker, served at /sw.js (scope /). The build
// (web/shell-cache.ts) puts `SHELL` above this file: the version (a hash of
// the built file names, which carry their content's hash) and the files of
// the app. It keeps those files so that a reload without the server still
// shows the app, with its offline status, not the browser's error page.
// It never stores an API answer (/api, /graphql, uploads): those can be
// private and go straight to the network (docs/security.md).
/* global SHELL */
const CACHE = `trackway-shell-${SHELL.version}`;
const PREFIX = 'trackway-shell-';
const ASSETS = new Set(SHELL.assets);

self.addEventListener('install', (event) => {
  // index.html as '/', plus every script, style and font of the app (not GraphiQL's).
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/', ...SHELL.assets]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  // A new build's worker drops the shells of the builds before it.
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

/** Pages of the server that are not the app: GraphiQL, the API docs, downloads, OAuth. */
const notTheApp = (path) => /^\/(api|graphql|oauth|mcp|healthz|\.well-known)(\/|\?|$)/.test(path);

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && !notTheApp(url.pathname)) {
    // The network first, so an online reload always gets the newest build; the kept shell if it fails.
    event.respondWith(fetch(request).catch(() => caches.match('/', { cacheName: CACHE })));
    return;
  }
  if (ASSETS.has(url.pathname)) {
    // Hashed file names never change: the kept copy is the file.
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit ?? fetch(request)));
  }
  // Everything else (the API above all) is not touched: straight to the network, never kept.
});
