// The WebAssembly engine's interface (wasm/src/abi.rs) as a JavaScript class, for the
// page, its search workers and node (the tests): strings into the module's memory,
// answers out of its reply buffer, events from the `jiang_event` import.
(function (root) {
"use strict";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class JiangWasm {
  // An instance of `module` (a WebAssembly.Module, or the bytes of one); `onEvent(name,
  // dataText)` receives the events of searches run by this instance.
  static async instantiate(module, onEvent) {
    let me = null;
    const imports = {
      env: {
        jiang_now_ms: () => performance.now(),
        jiang_event: (np, nl, dp, dl) => me && me._event(np, nl, dp, dl),
      },
    };
    const made = await WebAssembly.instantiate(module, imports);
    me = new JiangWasm(made.instance || made, onEvent);
    return me;
  }

  constructor(instance, onEvent) {
    this.x = instance.exports;
    this.onEvent = onEvent || null;
  }

  _text(ptr, len) {
    // A fresh view each time: the memory may have grown (and its old buffer detached).
    return decoder.decode(new Uint8Array(this.x.memory.buffer, ptr, len));
  }

  _event(np, nl, dp, dl) {
    if (this.onEvent) this.onEvent(this._text(np, nl), this._text(dp, dl));
  }

  // Copies bytes (or a string's UTF-8) into the module's memory: [ptr, len].
  _put(value) {
    const bytes = typeof value === "string" ? encoder.encode(value) : new Uint8Array(value);
    const ptr = this.x.jiang_alloc(bytes.length);
    if (!ptr && bytes.length) throw new Error("the engine has no memory left");
    new Uint8Array(this.x.memory.buffer, ptr, bytes.length).set(bytes);
    return [ptr, bytes.length];
  }

  _free(pairs) {
    for (const [ptr, len] of pairs) this.x.jiang_free(ptr, len);
  }

  // {status, data}: the status an export returned and its JSON reply.
  _reply(status) {
    const text = this._text(this.x.jiang_reply_ptr(), this.x.jiang_reply_len());
    let data;
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = { error: "unreadable answer from the engine" };
    }
    return { status, data };
  }

  // Calls `fn` with each of `texts` as a (ptr, len) pair, then `extra` arguments.
  _call(fn, texts, extra) {
    const pairs = texts.map((t) => this._put(t));
    try {
      const args = pairs.flat().concat(extra || []);
      return this._reply(this.x[fn](...args));
    } finally {
      this._free(pairs);
    }
  }

  // One API request, as the server's `/api/PATH`: {status, data}.
  request(method, path, bodyText) {
    return this._call("jiang_request", [method, path, bodyText || ""]);
  }

  // The next search asked for (a job object), or null.
  takeJob() {
    const r = this._reply(this.x.jiang_take_job());
    return r.status === 200 ? r.data : null;
  }

  // The end of a search: {session, version, best} or {session, version, failed}.
  finish(result) {
    return this._call("jiang_finish", [JSON.stringify(result)]);
  }

  // Makes this instance a search worker: `hashMb` MiB of hash, the network file's bytes
  // (or null: the hand-written evaluation).
  workerInit(hashMb, network) {
    const pairs = network ? [this._put(network)] : [];
    try {
      const [ptr, len] = pairs[0] || [0, 0];
      return this._reply(this.x.jiang_worker_init(hashMb >>> 0, ptr, len));
    } finally {
      this._free(pairs);
    }
  }

  // Runs a job (object or JSON text) to its end; events go to onEvent: {status, data}.
  search(job) {
    return this._call("jiang_search", [typeof job === "string" ? job : JSON.stringify(job)]);
  }

  // Reads a game record file (`name` tells its format, else its bytes do; `bytes` an
  // ArrayBuffer or Uint8Array), its game number `index` (from 0): {status, data}.
  record(name, bytes, index) {
    return this._call("jiang_record", [String(name || ""), bytes], [(index || 0) >>> 0]);
  }

  bench(depth) {
    return this._reply(this.x.jiang_bench(depth | 0));
  }

  selftest() {
    return this._reply(this.x.jiang_selftest());
  }
}

root.JiangWasm = JiangWasm;
if (typeof module !== "undefined" && module.exports) module.exports = JiangWasm;
})(typeof self !== "undefined" ? self : globalThis);
