// pkcalc's service worker: it keeps the site's own files, so that after one
// visit pkcalc opens and analyses with the network cut. It caches nothing
// else: documents never travel, so there is nothing of theirs to cache.
// build.sh fills in the version (a digest of the files) and the file list.
const VERSION = "pkcalc-@VERSION@";
const FILES = [@FILES@];

// A copy of a response that is not marked as redirected, with the headers
// (the Content-Security-Policy among them) of the file as served. Hosts
// redirect some addresses of the page (Cloudflare's static assets send
// /index.html to / and /embed.html to /embed), and a browser refuses to
// open a page answered with a response that followed a redirect.
async function keep(res) {
  const body = await res.blob();
  const headers = new Headers(res.headers);
  // The body is already decoded; say what it is now.
  headers.delete("Content-Encoding");
  headers.set("Content-Length", String(body.size));
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    await Promise.all(FILES.map(async (file) => {
      const url = new URL(file, self.location.href);
      const res = await fetch(url, { cache: "no-cache" });
      if (!res.ok) throw new Error("pkcalc's service worker could not keep " + url + ": HTTP " + res.status);
      const copy = await keep(res);
      // Under the address asked for, and under the one it was redirected to.
      if (res.redirected && res.url && new URL(res.url).origin === url.origin) await cache.put(res.url, copy.clone());
      await cache.put(url, copy);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("pkcalc-") && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The other address of the same page: / and /index.html, /embed and
// /embed.html (as hosts map them to each other).
function alias(url) {
  const u = new URL(url);
  const p = u.pathname;
  if (p.endsWith("/")) u.pathname = p + "index.html";
  else if (p.endsWith("/index.html")) u.pathname = p.slice(0, -"index.html".length);
  else if (p.endsWith(".html")) u.pathname = p.slice(0, -".html".length);
  else if (!p.slice(p.lastIndexOf("/") + 1).includes(".")) u.pathname = p + ".html";
  else return null;
  return u.href;
}

async function answer(req) {
  const cache = await caches.open(VERSION);
  // The site's files from the cache first (the settings ride in the
  // address's query and hash, which do not change the file).
  let hit = await cache.match(req, { ignoreSearch: true });
  if (!hit && req.mode === "navigate") {
    const other = alias(req.url);
    if (other) hit = await cache.match(other, { ignoreSearch: true });
  }
  if (hit) return hit.redirected ? keep(hit) : hit;
  return fetch(req);
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(answer(req));
});
