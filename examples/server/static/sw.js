// The page's service worker: after one visit, the page, its engine and its local games work with
// no network (the server stopped, the device offline), and the page can be installed.
//
// - The page's own files are kept in a cache at install and answered network first: while the
//   server answers, the page is always its latest version (and the cache is refreshed); when it
//   does not, the cached copy is served. A navigation to any page of the site (a room's
//   /join/… link included) falls back to the cached page.
// - Expert's weights (5 MB) are not fetched here: the game's Web Worker fetches them when Expert,
//   hints or a review first need them and keeps them in a cache of its own ("reversi-weights-v3"; older ones are deleted).
// - Nothing else is touched: the WebSocket of online play does not go through a service worker.
"use strict";

const SHELL = "reversi-shell-v1";
const FILES = [
  "/", "/app.js", "/style.css", "/worker.js", "/engine.js", "/reversi.wasm", "/favicon.svg",
  "/manifest.webmanifest", "/icon-192.png", "/icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("reversi-shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const navigate = req.mode === "navigate";
  const path = url.pathname === "/index.html" ? "/" : url.pathname;
  if (!navigate && !FILES.includes(path)) return;
  event.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const res = await fetch(req);
      if (res.ok && !navigate) await cache.put(path, res.clone());
      if (res.ok && navigate && path === "/") await cache.put("/", res.clone());
      return res;
    } catch (e) {
      const hit = await cache.match(navigate ? "/" : path);
      if (hit) return hit;
      throw e;
    }
  })());
});
