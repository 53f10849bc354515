// The browser runtime of github.com/syumai/workers' glue (worker.mjs beside
// this file), with the engine's WebAssembly found beside this module rather
// than under the page, so the site works from any path.
const modPromise = WebAssembly.compileStreaming(fetch(new URL("engine.wasm", import.meta.url)));

export async function loadModule() {
  return await modPromise;
}

export function createRuntimeContext({ binding }) {
  return { binding };
}
