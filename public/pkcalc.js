// window.pkcalc: the public JavaScript API of pkcalc, on any page that
// includes this script. It runs the engine in a Web Worker (engine.js,
// beside this file), so the page never freezes and no data leaves the
// browser.
//
//   const report = await pkcalc.analyze(input, options)
//
// input:   a string of JSON documents, a File or a Blob (JSON, JSON Lines,
//          or CSV when its type or name says so, or inputFormat does)
// options: the command line's flags in camelCase: keys (an array of key
//          specs, or one key spec as a string), hashVersion, partitions,
//          ru, autoscale, targetGb, targetDocs, growthGbPerDay with
//          retentionDays, noSuggest, readsPerSecond,
//          writesPerSecond, queriesPerSecond, readRu, writeRu, queryRu, traffic, timeField,
//          weightField, newValues (paths separated by commas), maxDistinct, workers (how many Web Workers read
//          JSON Lines and arrays beside the engine, 1 for none; default
//          pkcalc.defaultWorkers, 2 where there are two cores; the report
//          is the same for any), queries (the text of a workload file,
//          where the command line takes the file); aggregates: true when
//          input is per-key aggregates (pkcalc aggregate-query's result)
//          for the one key in keys, with docBytes sizing rows without
//          bytes; inputFormat: "csv" or "json", how to read the input
//          whatever its type or name (the command line's --input-format);
//          and onProgress({bytes, documents, elapsedSeconds}), signal (an
//          AbortSignal that cancels) and as: "text" for the report's JSON
//          text, byte for byte what pkcalc analyze --format json prints.
// Resolves with the JSON report (docs/REPORT.md); rejects with an Error
// whose status and message say what was wrong, or, when signal aborts,
// with a DOMException named "AbortError" (status 0), as fetch does.
//
//   const diagnosis = await pkcalc.diagnose(exports, options)
//
// exports: a live container's exports, each a string, a File or a Blob:
//          {ranges, ruLog, storageLog, metrics, documents} (docs/DIAGNOSE.md;
//          at least one of the first four; documents for the what-if)
// options: currentKey, keys, hashVersion, ru, autoscale, as pkcalc
//          diagnose's flags; signal and as: "text", as for analyze.
// Resolves with the diagnosis (docs/DIAGNOSE.md, The JSON), byte for byte
// what pkcalc diagnose --format json prints for files of the same names.
(function () {
  "use strict";
  var base = new URL(".", (document.currentScript && document.currentScript.src) || location.href);
  var worker = null, next = 1, pending = new Map();

  function start() {
    if (worker) return worker;
    // The single-file build (pkcalc.html) brings its worker as one script.
    if (window.PKCALC_BUNDLE) {
      var source = new Blob([window.PKCALC_BUNDLE.worker], { type: "text/javascript" });
      worker = new Worker(URL.createObjectURL(source));
      // Its helpers are workers of the same script; from file:// a worker
      // may start one only from an address of its own making.
      worker.postMessage({ helperSource: source });
    } else {
      worker = new Worker(new URL("engine.js", base), { type: "module" });
    }
    worker.onmessage = function (e) {
      var m = e.data, job = pending.get(m.id);
      if (!job) return;
      if (m.type === "progress") {
        if (job.onProgress) job.onProgress({ bytes: m.bytes || 0, documents: m.documents || 0, elapsedSeconds: m.elapsedSeconds || 0 });
        return;
      }
      pending.delete(m.id);
      if (m.type === "report" || m.type === "diagnosis") job.resolve(job.asText ? m.json : JSON.parse(m.json));
      else job.reject(failure(m.error));
    };
    worker.onerror = function (e) {
      var jobs = Array.from(pending.values());
      pending.clear();
      stop();
      jobs.forEach(function (job) { job.reject(failure({ status: 0, message: "the engine stopped: " + (e.message || "unknown error") })); });
    };
    return worker;
  }

  function stop() {
    if (worker) worker.terminate();
    worker = null;
  }

  function aborted() {
    var e = new DOMException("cancelled", "AbortError");
    e.status = 0;
    return e;
  }

  function failure(err) {
    var e = new Error((err && err.message) || "the analysis failed");
    e.status = (err && err.status) || 0;
    return e;
  }

  function contentType(input, format) {
    if (format === "csv") return "text/csv";
    if (format === "json") return "application/json";
    var name = (input && input.name) || "", type = (input && input.type) || "";
    if (/csv|tab-separated/.test(type) || /\.(csv|tsv)$/i.test(name)) return "text/csv";
    return "application/json";
  }

  var names = ["keys", "noSuggest", "hashVersion", "partitions", "ru", "autoscale", "targetGb", "targetDocs", "growthGbPerDay", "retentionDays",
    "readsPerSecond", "writesPerSecond", "queriesPerSecond", "readRu", "writeRu", "queryRu", "traffic", "timeField",
    "weightField", "newValues", "maxDistinct", "queries", "aggregates", "docBytes", "workers", "inputFormat"];

  // Web Workers that read JSON Lines and arrays beside the engine (engine.js's
  // helpers): two where there are two cores. The engine's own thread bounds
  // the speed once they read for it (docs/PERFORMANCE.md), and each takes
  // some 50 MB of the tab.
  var defaultWorkers = Math.min(navigator.hardwareConcurrency || 1, 2);

  var diagnoseNames = ["keys", "currentKey", "hashVersion", "ru", "autoscale"];
  var exportNames = ["ranges", "ruLog", "storageLog", "metrics", "documents"];

  function diagnose(exports, options) {
    if (options === undefined || options === null) options = {};
    return new Promise(function (resolve, reject) {
      if (typeof exports !== "object" || exports === null || Array.isArray(exports) || typeof options !== "object" || Array.isArray(options)) {
        reject(failure({ status: 400, message: "diagnose takes the exports as an object, like {ranges: file, ruLog: file}, and options as an object" }));
        return;
      }
      var parts = [];
      for (var e in exports) {
        if (exports[e] === undefined || exports[e] === null) continue;
        if (exportNames.indexOf(e) < 0) { reject(failure({ status: 400, message: "unknown export " + e + "; the exports are " + exportNames.join(", ") })); return; }
        if (typeof exports[e] !== "string" && !(exports[e] instanceof Blob)) { reject(failure({ status: 400, message: e + " must be a string, a File or a Blob" })); return; }
      }
      // The documents go last: the engine reads the exports first.
      exportNames.forEach(function (e) {
        var v = exports[e];
        if (v !== undefined && v !== null) parts.push([e, v, (v && v.name) || e]);
      });
      var params = {};
      for (var k in options) {
        if (k === "signal" || k === "as" || options[k] === undefined || options[k] === null) continue;
        if (diagnoseNames.indexOf(k) < 0) { reject(failure({ status: 400, message: "unknown option " + k + "; the options are " + diagnoseNames.join(", ") })); return; }
        params[k] = options[k];
      }
      run({ path: "diagnose", parts: parts, params: params }, options, resolve, reject);
    });
  }

  // run hands a job to the engine, with its cancelling.
  function run(message, options, resolve, reject) {
    var id = next++;
    var job = { resolve: resolve, reject: reject, onProgress: options.onProgress, asText: options.as === "text" };
    pending.set(id, job);
    if (options.signal) {
      if (options.signal.aborted) { pending.delete(id); reject(aborted()); return; }
      options.signal.addEventListener("abort", function () {
        if (!pending.has(id)) return;
        // The engine cannot be interrupted mid-analysis: stop its worker; the
        // next analysis starts a fresh one.
        var others = Array.from(pending.entries()).filter(function (p) { return p[0] !== id; });
        pending.clear();
        stop();
        reject(aborted());
        others.forEach(function (p) { p[1].reject(failure({ status: 0, message: "cancelled with another analysis" })); });
      });
    }
    var engine;
    try {
      engine = start();
    } catch (e) {
      // A Web Worker must come from the page's own origin: a page that
      // includes pkcalc.js from elsewhere gets a SecurityError here.
      pending.delete(id);
      reject(failure({ status: 0, message: "the engine could not start: " + (e && e.message || e) +
        " (pkcalc.js and its engine.js must be served from this page's own origin)" }));
      return;
    }
    message.id = id;
    engine.postMessage(message);
  }

  function analyze(input, options) {
    if (options === undefined || options === null) options = {};
    return new Promise(function (resolve, reject) {
      if (typeof options !== "object" || Array.isArray(options)) {
        reject(failure({ status: 400, message: "options must be an object, like {keys: [\"/tenantId\"], ru: 20000}" }));
        return;
      }
      if (typeof input !== "string" && !(input instanceof Blob)) {
        reject(failure({ status: 400, message: "input must be a string, a File or a Blob" }));
        return;
      }
      var params = {};
      for (var k in options) {
        if (k === "onProgress" || k === "signal" || k === "as" || options[k] === undefined || options[k] === null) continue;
        if (names.indexOf(k) < 0) { reject(failure({ status: 400, message: "unknown option " + k + "; the options are " + names.join(", ") })); return; }
        if (k !== "inputFormat") params[k] = options[k];
      }
      if (params.workers === undefined) params.workers = defaultWorkers;
      var format = options.inputFormat;
      if (format !== undefined && format !== null && format !== "json" && format !== "csv") {
        reject(failure({ status: 400, message: "inputFormat must be \"json\" or \"csv\", not " + JSON.stringify(format) }));
        return;
      }
      // keys: an array of key specs, or one spec as a string ("/a,/b" is one
      // hierarchical key, as in the address).
      if (params.keys !== undefined && typeof params.keys !== "string" &&
          !(Array.isArray(params.keys) && params.keys.every(function (s) { return typeof s === "string"; }))) {
        reject(failure({ status: 400, message: "keys must be an array of key specs, like [\"/tenantId\", \"/tenantId,/id\"], or one key spec as a string" }));
        return;
      }
      run({ input: input, type: contentType(input, format), params: params }, options, resolve, reject);
    });
  }

  window.pkcalc = Object.freeze({ analyze: analyze, diagnose: diagnose, options: names.slice(), diagnoseOptions: diagnoseNames.slice(), defaultWorkers: defaultWorkers });
})();
