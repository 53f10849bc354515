// pkcalc's engine in a Web Worker: the Go HTTP handler of core/api, compiled
// to WebAssembly and run by github.com/syumai/workers, answers
// POST /v1/analyze here, off the page's main thread. Nothing leaves the
// browser: the "request" never touches the network.
//
// Messages in:  {id, input: Blob|File|string, type, params: {name: value|[values]}}
// Messages out: {id, type: "progress", bytes, documents, elapsedSeconds}
//               {id, type: "report", json} (the report's JSON text) | {id, type: "error", error: {status, message}}
import engine from "./engine/worker.mjs";

// github.com/syumai/workers starts a Go instance per request; a callback
// of an earlier, finished instance can still fire and throw "Go program has
// already exited". It concerns no running analysis: keep it from stopping
// this worker.
function finishedInstance(e) {
  const msg = String((e && (e.message || (e.reason && e.reason.message) || e.reason)) || "");
  if (msg.includes("Go program has already exited")) e.preventDefault();
}
self.addEventListener("error", finishedInstance);
self.addEventListener("unhandledrejection", finishedInstance);

self.onmessage = async (event) => {
  const { id, input, type, params } = event.data;
  try {
    const blob = typeof input === "string" ? new Blob([input]) : input;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params || {})) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(name, String(v));
    }
    const request = new Request("http://engine/v1/analyze?" + query, {
      method: "POST",
      body: blob.stream(),
      duplex: "half",
      headers: { "Content-Type": type || "application/json", "Accept": "application/x-ndjson" },
    });
    const response = await engine.fetch(request, {}, {});
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
    self.postMessage({ id, type: "error", error: { status: 0, message: String(e && e.message || e) } });
  }
};

function post(id, ev) {
  self.postMessage(Object.assign({ id }, ev));
}
