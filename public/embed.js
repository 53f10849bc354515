// pkcalc embedded in another page (an iframe of index.html?embed=1): it
// tells the parent its height, so the iframe can size itself, and answers
// analyses the parent asks for. The parent's documents come in a message
// and the report goes back to it alone; nothing goes anywhere else.
//
//   parent -> frame: {type: "pkcalc:analyze", id, documents: string|Blob, options}
//                    (options as for pkcalc.analyze: inputFormat "csv" reads a string as CSV)
//   frame -> parent: {type: "pkcalc:report", id, report} | {type: "pkcalc:error", id, error}
//   frame -> parent: {type: "pkcalc:height", height} whenever the page's height changes
//   frame -> parent: {type: "pkcalc:ready"} once the engine can take requests
(function () {
  "use strict";
  if (window.parent === window) return;
  var params = new URLSearchParams(location.search);
  if (params.get("embed") === "1" || document.documentElement.classList.contains("embed")) {
    document.documentElement.classList.add("embed");
  }

  // The height of the content, not scrollHeight: that is never less than
  // the frame's own height, so the frame could grow but never shrink.
  var last = 0;
  function tell() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h !== last) {
      last = h;
      window.parent.postMessage({ type: "pkcalc:height", height: h }, "*");
    }
  }
  new ResizeObserver(tell).observe(document.documentElement);
  window.addEventListener("load", tell);
  new MutationObserver(function () {
    if (document.documentElement.dataset.ready === "true") {
      window.parent.postMessage({ type: "pkcalc:ready" }, "*");
      this.disconnect();
    }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ready"] });

  window.addEventListener("message", function (e) {
    var m = e.data;
    if (e.source !== window.parent || !m || m.type !== "pkcalc:analyze") return;
    var reply = function (msg) { e.source.postMessage(msg, e.origin === "null" ? "*" : e.origin); };
    window.pkcalc.analyze(m.documents, m.options).then(
      function (report) { reply({ type: "pkcalc:report", id: m.id, report: report }); },
      function (err) { reply({ type: "pkcalc:error", id: m.id, error: { status: err.status || 0, message: err.message } }); });
  });
})();
