// pkcalc's service worker: it keeps the site's own files, so that after one
// visit pkcalc opens and analyses with the network cut. It caches nothing
// else: documents never travel, so there is nothing of theirs to cache.
// build.sh fills in the version (a digest of the files) and the file list.
const VERSION = "pkcalc-@VERSION@";
const FILES = [@FILES@];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("pkcalc-") && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  // The site's files from the cache first (the settings ride in the
  // address's query and hash, which do not change the file).
  event.respondWith(caches.open(VERSION).then((c) => c.match(req, { ignoreSearch: true })).then((hit) => hit || fetch(req)));
});
