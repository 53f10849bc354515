// pkcalc's engine in a Web Worker: the Go HTTP handler of core/api, compiled
// to WebAssembly (wasm/engine) and run with github.com/syumai/workers, answers
// POST /v1/analyze here, off the page's main thread. Nothing leaves the
// browser: the "request" never touches the network.
//
// With the option workers above 1 it starts that many helpers, Web Workers
// of this same script named "pkcalc-chunks", each a Go instance of the same
// engine.wasm that reads the chunks of JSON Lines or of a JSON array the
// engine hands it (core/ingest's ChunkReader, through
// globalThis.pkcalcReadChunk) while the engine counts the documents of the
// chunks before.
//
// Messages in:  {id, input: Blob|File|string, type, params: {name: value|[values]}}
//               {id, path: "diagnose", parts: [[name, Blob|File|string, fileName]], params} (POST /v1/diagnose)
// Messages out: {id, type: "progress", bytes, documents, elapsedSeconds}
//               {id, type: "report", json, chunksElsewhere} (the report's JSON text, and how many
//               chunks helpers have read since this worker started) | {id, type: "diagnosis", json}
//               | {id, type: "error", error: {status, message}}
import "./engine/wasm_exec.js";
const compileEngine = () => WebAssembly.compileStreaming(fetch(new URL("engine/engine.wasm", import.meta.url)));
// A helper takes the engine's compiled module, which shares its code,
// rather than compiling its own.
const helper = self.name === "pkcalc-chunks";
let moduleArrived;
const engineModule = helper ? new Promise((resolve) => { moduleArrived = resolve; }) : compileEngine();

// One Go instance serves every analysis of this worker, so the tab holds one
// Go heap, reused: an instance per analysis (what syumai/workers' own
// worker.mjs does) leaves each finished instance's memory, which never
// shrinks, for the garbage collector to free some time later. The Go
// side (wasm/engine) serves through syumai/workers' hono package, which
// reads each request from context.ctx.req.raw and sets context.ctx.res.
let ended = ""; // why the Go program ended, once it has
const engine = helper ? null : (async () => {
  const go = new Go();
  const context = { binding: {} };
  let started;
  const ready = new Promise((resolve) => { started = resolve; });
  const instance = await WebAssembly.instantiate(await engineModule, { ...go.importObject, workers: { ready: () => started() } });
  // The program never returns by itself: it ended with a panic or out of
  // memory, and every analysis in progress with it. Throwing here makes
  // the page (pkcalc.js) fail them and start a new worker for the next.
  const exit = go.exit;
  go.exit = (code) => {
    ended = "the engine's Go program ended with exit code " + code + " (the console says why)";
    exit(code);
  };
  const running = go.run(instance, context);
  running.then(() => setTimeout(() => { throw new Error(ended); }));
  await Promise.race([ready, running]);
  if (ended) throw new Error(ended);
  return context;
})();

// context.ctx is read by the Go side when a call starts, so calls are
// handed over one at a time; each resolves once its response has started,
// and the responses then stream side by side.
let handover = Promise.resolve();
function serve(request) {
  const turn = handover.then(async () => {
    const context = await engine;
    const ctx = { req: { raw: request } };
    context.ctx = ctx;
    try {
      await context.binding.runHonoMiddleware(() => Promise.resolve());
    } finally {
      context.ctx = undefined; // holds the input until the next analysis otherwise
    }
    if (!ctx.res) throw new Error("the engine gave no answer");
    return ctx.res;
  });
  handover = turn.catch(() => {});
  return turn;
}

self.onmessage = helper ? readChunk : async (event) => {
  if (event.data.helperSource) { // the single-file build's script (pkcalc.js)
    helpers.script = URL.createObjectURL(event.data.helperSource);
    return;
  }
  const { id, input, type, params, path, parts } = event.data;
  try {
    helpers.wanted = Number(params && params.workers) || 0; // checked by the engine: a bad one gets no job
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params || {})) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(name, String(v));
    }
    let request;
    if (path === "diagnose") {
      // The exports as the parts of a multipart body, the documents last.
      const form = new FormData();
      for (const [name, value, fileName] of parts) {
        form.append(name, typeof value === "string" ? new Blob([value]) : value, fileName || name);
      }
      request = new Request("http://engine/v1/diagnose?" + query, { method: "POST", body: form, headers: { "Accept": "application/x-ndjson" } });
    } else {
      const blob = typeof input === "string" ? new Blob([input]) : input;
      request = new Request("http://engine/v1/analyze?" + query, {
        method: "POST",
        body: blob.stream(),
        duplex: "half",
        headers: { "Content-Type": type || "application/json", "Accept": "application/x-ndjson" },
      });
    }
    const response = await serve(request);
    if (!response.body) throw new Error("the engine gave no answer");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffered += value;
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() !== "") post(id, JSON.parse(line));
      }
      if (done) break;
    }
    if (buffered.trim() !== "") post(id, JSON.parse(buffered));
  } catch (e) {
    self.postMessage({ id, type: "error", error: { status: 0, message: ended || String(e && e.message || e) } });
  }
};

function post(id, ev) {
  if (ev.type === "report") ev.chunksElsewhere = helpers.answered;
  self.postMessage(Object.assign({ id }, ev));
}

// The helpers, as the engine's Go side sees them: pkcalcReadChunk(job)
// resolves with the answer of a helper, or rejects, and then the engine
// reads that chunk itself (core/ingest/elsewhere.go). Jobs wait for a free
// helper. A helper that fails (an error, no answer within JOB_SECONDS, a
// message that cannot be read) is let go; helpers idle for IDLE_SECONDS
// are let go too, and the pool grows again at the next analysis's job.
const HELPER_TYPE = "module"; // the single-file build's worker is a classic script
// Each helper takes some 50 MB of the tab; eight took its peak on a 100 MB
// file to about 0.9 GB, within the 1 GiB an analysis may take
// (docs/PERFORMANCE.md, Memory). A larger workers queues its jobs for them.
const MAX_HELPERS = 8;
const JOB_SECONDS = 60; // a chunk takes milliseconds
const IDLE_SECONDS = 30;
const helpers = {
  pool: [], // {worker, job, timer}
  queue: [], // {job, resolve, reject}, waiting for a helper
  script: self.location.href, // of the helpers: this one's
  answered: 0, // jobs answered since this worker started
  wanted: 0, // the helpers the last analysis asked for
  idle: 0, // the timer that lets idle helpers go
  grow(n) {
    while (this.pool.length < Math.min(n, MAX_HELPERS)) {
      let w;
      try {
        w = new Worker(this.script, { type: HELPER_TYPE, name: "pkcalc-chunks" });
      } catch (e) {
        console.warn("pkcalc: a helper could not start; the engine reads on alone:", e);
        return;
      }
      const h = { worker: w, job: null, timer: 0 };
      this.pool.push(h);
      engineModule.then((module) => w.postMessage({ module }))
        .catch((e) => this.drop(h, "a helper could not have the engine: " + (e && e.message || e)));
      w.onmessage = (e) => {
        if (e.data.error) {
          this.drop(h, e.data.error); // its Go instance is not to be trusted again
          return;
        }
        const job = h.job;
        if (!job) return;
        clearTimeout(h.timer);
        h.job = null;
        this.answered++;
        job.resolve(new Uint8Array(e.data.answer));
        this.pump();
      };
      w.onmessageerror = () => this.drop(h, "a helper's answer could not be read");
      w.onerror = (e) => {
        e.preventDefault();
        this.drop(h, "a helper stopped: " + (e.message || "unknown error"));
      };
    }
  },
  // drop lets a helper go, its job failed: the engine reads that chunk.
  drop(h, why) {
    const job = h.job;
    this.release(h);
    if (job) job.reject(new Error(why));
    this.pump();
  },
  release(h) {
    clearTimeout(h.timer);
    h.worker.terminate();
    h.job = null;
    this.pool = this.pool.filter((x) => x !== h);
  },
  pump() {
    clearTimeout(this.idle);
    for (const h of this.pool) {
      if (h.job || this.queue.length === 0) continue;
      h.job = this.queue.shift();
      h.timer = setTimeout(() => this.drop(h, "a helper did not answer in " + JOB_SECONDS + " s"), JOB_SECONDS * 1000);
      h.worker.postMessage({ job: h.job.job.buffer }, [h.job.job.buffer]);
    }
    if (this.pool.length === 0) this.queue.splice(0).forEach((job) => job.reject(new Error("no helper runs")));
    if (this.pool.length > 0 && this.pool.every((h) => !h.job)) {
      // Every helper is idle here, and stays so until the next job.
      this.idle = setTimeout(() => this.pool.slice().forEach((h) => this.release(h)), IDLE_SECONDS * 1000);
    }
  },
};
globalThis.pkcalcReadChunk = (job) => new Promise((resolve, reject) => {
  // Started at the first job, not at the analysis: a small input or one
  // that is not JSON Lines or an array of documents never needs one.
  helpers.grow(helpers.wanted);
  helpers.queue.push({ job, resolve, reject });
  helpers.pump();
});

// readChunk is a helper's: it reads a chunk's job with a Go instance of its
// own, started on the first job, and answers with the documents.
let reader = null;
self.onmessageerror = helper ? () => self.postMessage({ error: "a job could not be read" }) : null;
async function readChunk(event) {
  if (event.data.module) {
    moduleArrived(event.data.module);
    return;
  }
  try {
    if (!reader) {
      reader = (async () => {
        const go = new Go();
        self.pkcalcRole = "chunks";
        const instance = await WebAssembly.instantiate(await engineModule, { ...go.importObject, workers: { ready: () => {} } });
        go.run(instance, { binding: {} }); // its main sets pkcalcChunk and waits
        if (typeof self.pkcalcChunk !== "function") throw new Error("the helper's Go program did not start");
        return self.pkcalcChunk;
      })();
    }
    const read = await reader;
    const answer = read(new Uint8Array(event.data.job));
    if (typeof answer === "string") throw new Error(answer);
    self.postMessage({ answer: answer.buffer }, [answer.buffer]);
  } catch (e) {
    self.postMessage({ error: String(e && e.message || e) });
  }
}
