// A search worker: one instance of the WebAssembly engine (jiang-wasm.js) that runs the
// jobs the page sends, one at a time, to their end, posting each event as it comes. It
// cannot hear a message while it searches; the page stops a search by ending this worker
// (see local.js).
//
// Messages in:  {type: "init", module, network (ArrayBuffer or null), hashMb}
//               {type: "search", token, job} | {type: "bench", token, depth}
//               {type: "selftest", token}
// Messages out: {type: "ready", report} | {type: "event", token, name, data}
//               {type: "result", token, status, data} | {type: "error", message}
"use strict";
importScripts("jiang-wasm.js");

let engine = null;
let token = 0;

// The size of this worker's WebAssembly memory (it grows, never shrinks).
function memoryBytes() {
  return engine ? engine.x.memory.buffer.byteLength : 0;
}

function run(m, work) {
  try {
    const r = work();
    postMessage({ type: "result", token: m.token, status: r.status, data: r.data, memory: memoryBytes() });
  } catch (e) {
    postMessage({ type: "result", token: m.token, status: 500, data: { error: String(e && e.message || e) } });
  }
}

onmessage = async (e) => {
  const m = e.data || {};
  if (m.type === "init") {
    try {
      engine = await self.JiangWasm.instantiate(m.module, (name, data) => {
        postMessage({ type: "event", token, name, data });
      });
      const r = engine.workerInit(m.hashMb || 32, m.network ? new Uint8Array(m.network) : null);
      postMessage({ type: "ready", report: Object.assign({ memory_bytes: memoryBytes() }, r.data) });
    } catch (err) {
      postMessage({ type: "error", message: String(err && err.message || err) });
    }
    return;
  }
  if (!engine) {
    postMessage({ type: "result", token: m.token, status: 409, data: { error: "the engine is not loaded" } });
    return;
  }
  token = m.token;
  if (m.type === "search") run(m, () => engine.search(m.job));
  else if (m.type === "bench") run(m, () => engine.bench(m.depth));
  else if (m.type === "selftest") run(m, () => engine.selftest());
  else postMessage({ type: "result", token: m.token, status: 400, data: { error: "unknown message" } });
};
