// pkcalc's engine in a Web Worker: the Go HTTP handler of core/api, compiled
// to WebAssembly (wasm/engine) and run with github.com/syumai/workers, answers
// POST /v1/analyze here, off the page's main thread. Nothing leaves the
// browser: the "request" never touches the network.
//
// Messages in:  {id, input: Blob|File|string, type, params: {name: value|[values]}}
//               {id, path: "diagnose", parts: [[name, Blob|File|string, fileName]], params} (POST /v1/diagnose)
// Messages out: {id, type: "progress", bytes, documents, elapsedSeconds}
//               {id, type: "report", json} (the report's JSON text) | {id, type: "diagnosis", json}
//               | {id, type: "error", error: {status, message}}
import "./engine/wasm_exec.js";
const engineModule = WebAssembly.compileStreaming(fetch(new URL("engine/engine.wasm", import.meta.url)));

// One Go instance serves every analysis of this worker, so the tab holds one
// Go heap, reused: an instance per analysis (what syumai/workers' own
// worker.mjs does) leaves each finished instance's memory, which never
// shrinks, for the garbage collector to free some time later. The Go
// side (wasm/engine) serves through syumai/workers' hono package, which
// reads each request from context.ctx.req.raw and sets context.ctx.res.
let ended = ""; // why the Go program ended, once it has
const engine = (async () => {
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

self.onmessage = async (event) => {
  const { id, input, type, params, path, parts } = event.data;
  try {
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
  self.postMessage(Object.assign({ id }, ev));
}
