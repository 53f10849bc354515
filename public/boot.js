// Loads pkcalc's WebAssembly engine with a progress bar, then hands the page
// to it. Everything is fetched from this page's own origin, by relative URL.
(function () {
  "use strict";
  var status = document.getElementById("boot-status");
  var bar = document.getElementById("boot-progress");

  function say(text) { if (status) status.textContent = text; }
  function mb(n) { return (n / 1e6).toFixed(1) + " MB"; }

  async function fetchWithProgress(url) {
    var resp = await fetch(url);
    if (!resp.ok) throw new Error(url + ": HTTP " + resp.status);
    var total = Number(resp.headers.get("Content-Length")) || 0;
    if (!resp.body || !total) return resp.arrayBuffer();
    var reader = resp.body.getReader();
    var chunks = [], got = 0;
    for (;;) {
      var r = await reader.read();
      if (r.done) break;
      chunks.push(r.value);
      got += r.value.length;
      if (bar) bar.value = got / total;
      say("Loading the engine… " + mb(got) + " of " + mb(total));
    }
    var buf = new Uint8Array(got), off = 0;
    for (var i = 0; i < chunks.length; i++) { buf.set(chunks[i], off); off += chunks[i].length; }
    return buf.buffer;
  }

  // Vugu eval()s its DOM renderer; the page loads it as vugu-render.js
  // instead, so the Content-Security-Policy can forbid eval. Nothing else
  // on the page evaluates strings.
  var nativeEval = window.eval;
  window.eval = function (src) {
    if (typeof src === "string" && window.vuguRender && src.indexOf("window.vuguRender") >= 0) return undefined;
    return nativeEval(src);
  };

  // The single-file build (pkcalc.html) carries the module gzipped in base64.
  async function unbundle(b64) {
    var gz = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
    return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  }

  async function start() {
    try {
      var go = new Go();
      var bytes = window.PKCALC_BUNDLE ? await unbundle(window.PKCALC_BUNDLE.page) : await fetchWithProgress("main.wasm");
      say("Starting the engine…");
      var result = await WebAssembly.instantiate(bytes, go.importObject);
      go.run(result.instance);
    } catch (e) {
      say("The engine could not start: " + e.message + ". Reload the page to try again.");
      if (bar) bar.hidden = true;
    }
  }
  start();

  // After one visit, the service worker serves the site with the network
  // cut. It needs a secure context: https, or this machine.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(function () { /* offline use is a bonus */ });
  }
})();
