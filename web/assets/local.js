// The engine in this browser: the backend of a page served as plain static files (no
// jiang-web server). Same requests, same JSON, same events as the server (backend.js).
//
// The boards live in an instance of the WebAssembly module on the page's thread (requests
// are answered at once and never wait for a search); searches run in a Web Worker
// (engine-worker.js) with a second one started and waiting beside it. A search in a
// worker hears no message while it computes, so `stop` ends that worker: the page already
// has the search's best line (each finished iteration's line 1 is reported to it), plays
// or shows that move, and the waiting worker takes over, a fresh one being started behind
// it. A stop that comes before the first iteration has ended (it ends within a
// millisecond of the search's start) waits for it. A job carries its board's start FEN
// and moves, so a worker holds no state to restore. Stop takes a few milliseconds; the
// answer is always a move the engine's search found.
//
// Files (bundle.json names them): the module (jiang-HASH.wasm) and the network
// (jiang-HASH.nnue). The network is fetched once and kept in IndexedDB under its
// content-hashed name, so a later visit starts without downloading it.
(() => {
"use strict";

const { ApiError } = window.Backends;
const t = (k, p) => window.I18n.t(k, p);

// ---- the network file, kept in IndexedDB ---------------------------------------------

const DB_NAME = "jiang";
const DB_STORE = "files";

function openDb() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined") return reject(new Error("no IndexedDB"));
    const rq = indexedDB.open(DB_NAME, 1);
    rq.onupgradeneeded = () => rq.result.createObjectStore(DB_STORE);
    rq.onsuccess = () => resolve(rq.result);
    rq.onerror = () => reject(rq.error || new Error("IndexedDB refused"));
  });
}

function dbDo(db, mode, work) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(DB_STORE, mode);
    const rq = work(tx.objectStore(DB_STORE));
    tx.oncomplete = () => resolve(rq && rq.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

// The file `name` (under url): from IndexedDB if kept, else downloaded and kept (older
// networks are dropped). {bytes, from: "cache" | "download"}.
async function loadKept(url, name, progress) {
  let db = null;
  try {
    db = await openDb();
    const kept = await dbDo(db, "readonly", (s) => s.get(name));
    if (kept instanceof ArrayBuffer && kept.byteLength > 0) return { bytes: kept, from: "cache" };
  } catch (e) {
    db = null; // private browsing or storage off: download every time
  }
  if (progress) progress();
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const bytes = await r.arrayBuffer();
  if (db) {
    try {
      await dbDo(db, "readwrite", (s) => {
        s.clear();
        return s.put(bytes, name);
      });
    } catch (e) { /* full: it is fetched again next time */ }
  }
  return { bytes, from: "download" };
}

async function compileWasm(url) {
  if (WebAssembly.compileStreaming) {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (e) { /* served without application/wasm: compile the bytes */ }
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return WebAssembly.compile(await r.arrayBuffer());
}

// ---- the backend ----------------------------------------------------------------------

const MAX_RESPAWNS = 20;

class LocalBackend {
  // Loads the module and the network, starts the boards' instance and two workers.
  // options: {hashMb, progress(text)}.
  static async start(options) {
    const opts = options || {};
    const progress = opts.progress || (() => {});
    progress(t("loading_engine"));
    const r = await fetch("bundle.json", { cache: "no-cache" });
    if (!r.ok) throw new Error(`bundle.json: HTTP ${r.status}`);
    const files = await r.json();
    const module = await compileWasm(files.wasm);
    let network = null;
    let networkFrom = "none";
    try {
      const kb = Math.round((files.network_bytes || 0) / 1024);
      const got = await loadKept(files.network, files.network, () => progress(t("loading_network", { kb })));
      network = got.bytes;
      networkFrom = got.from;
    } catch (e) {
      console.warn("jiang: no network, the engine evaluates by hand:", e);
    }
    const b = new LocalBackend(module, network, opts.hashMb || 32, files);
    b.networkFrom = networkFrom;
    b.state = await window.JiangWasm.instantiate(module);
    b.searcher = b.makeWorker();
    b.spare = b.makeWorker();
    b.report = await b.searcher.ready;
    return b;
  }

  constructor(module, network, hashMb, files) {
    this.kind = "local";
    this.module = module;
    this.network = network;
    this.hashMb = hashMb;
    this.files = files;
    this.feeds = new Map(); // board id -> its latest search
    this.current = null; // the search running, if any
    this.tokens = 0;
    this.respawns = 0;
    this.lastStop = null; // {asked, done}: performance.now() of the last stop and its end
  }

  // A worker with its own engine, being initialised: {w, ready, feed}.
  makeWorker() {
    const slot = { w: new Worker("engine-worker.js"), feed: null, dead: false };
    slot.ready = new Promise((resolve, reject) => {
      slot.resolve = resolve;
      slot.reject = reject;
    });
    slot.ready.catch(() => {});
    slot.w.onmessage = (e) => this.onMessage(slot, e.data || {});
    slot.w.onerror = (e) => {
      if (e && e.preventDefault) e.preventDefault();
      this.onCrash(slot, (e && e.message) || "the engine worker failed");
    };
    slot.w.postMessage({ type: "init", module: this.module, network: this.network, hashMb: this.hashMb });
    return slot;
  }

  // Ends a worker and puts a fresh one in its place (the spare moves up).
  retire(slot) {
    if (slot.dead) return;
    slot.dead = true;
    slot.w.terminate();
    if (slot === this.searcher) {
      this.searcher = this.spare;
      this.spare = this.makeWorker();
    } else if (slot === this.spare) {
      this.spare = this.makeWorker();
    }
  }

  onCrash(slot, why) {
    slot.reject(new Error(why));
    const feed = slot.feed;
    slot.feed = null;
    if (this.respawns++ < MAX_RESPAWNS) this.retire(slot);
    if (feed && !feed.done) this.conclude(feed, null, why);
  }

  onMessage(slot, m) {
    if (slot.dead) return;
    if (m.type === "ready") {
      slot.memory = m.report && m.report.memory_bytes;
      return slot.resolve(m.report);
    }
    if (m.type === "error") return this.onCrash(slot, m.message);
    const feed = slot.feed;
    if (!feed || feed.done || feed.token !== m.token) return;
    if (m.type === "event") {
      if (m.name === "info") {
        try {
          const info = JSON.parse(m.data);
          // The best line of the last finished iteration: what `stop` plays.
          if (info.multipv === 1 && info.bound === "exact" && info.pv && info.pv.length) feed.best = info;
        } catch (e) { /* not kept */ }
      }
      this.emit(feed, m.name, m.data);
      if (feed.stopping && feed.best) this.stopNow(feed);
    } else if (m.type === "result") {
      if (m.memory) slot.memory = m.memory;
      slot.feed = null;
      feed.slot = null;
      if (m.status === 200) this.conclude(feed, m.data.best || null, null);
      else {
        // A trapped instance is not to be trusted again.
        if (m.status >= 500) this.retire(slot);
        this.conclude(feed, null, (m.data && m.data.error) || "search failed");
      }
    }
  }

  // Answers one request as the server would: the answer's JSON, or an ApiError.
  async request(method, path, body) {
    const parts = String(path).split(/[/?#]/).filter(Boolean);
    const board = parts[0] === "sessions" && parts.length >= 2 ? parts[1] : null;
    if (board && method === "DELETE") this.cancel(board, "the board was closed");
    let r;
    try {
      r = this.state.request(method, path, body === undefined || body === null ? "" : JSON.stringify(body));
    } catch (e) {
      throw new ApiError(`the engine failed: ${e.message}`, 500);
    }
    if (board && method === "POST" && parts[2] === "stop") this.stop(board);
    if (r.status === 202) {
      let job;
      while ((job = this.state.takeJob())) this.run(job);
    }
    if (r.status >= 400) throw new ApiError(r.data.error || `refused (${r.status})`, r.status);
    return r.data;
  }

  // A game record file read by the boards' instance (the module's jiang_record).
  async readRecord(name, bytes, index) {
    let r;
    try {
      r = this.state.record(name, bytes, index);
    } catch (e) {
      throw new ApiError(`the engine failed: ${e.message}`, 500);
    }
    if (r.status >= 400) throw new ApiError(r.data.error || `refused (${r.status})`, r.status);
    return r.data;
  }

  run(job) {
    if (this.current && !this.current.done) this.cancel(this.current.job.session, "another search started");
    const feed = { job, events: [], listeners: new Set(), done: false, best: null, token: 0, slot: null, stopping: false };
    this.feeds.set(job.session, feed);
    this.current = feed;
    this.dispatch(feed, this.searcher, job);
  }

  async dispatch(feed, slot, job) {
    const token = ++this.tokens;
    feed.token = token;
    try {
      await slot.ready;
    } catch (e) {
      if (feed.token === token && !feed.done) this.conclude(feed, null, e.message);
      return;
    }
    if (feed.done || feed.token !== token) return;
    if (slot.dead) return this.dispatch(feed, this.searcher, job); // replaced meanwhile
    slot.feed = feed;
    feed.slot = slot;
    slot.w.postMessage({ type: "search", token, job });
  }

  // `stop`: the search's best move so far, at once (a game's move, once the first
  // iteration has given one).
  stop(id) {
    const feed = this.current;
    if (!feed || feed.done || feed.job.session !== id) return;
    this.lastStop = { asked: performance.now(), done: null };
    if (feed.best || !feed.job.ask.play) this.stopNow(feed);
    else feed.stopping = true; // the first iteration's line (or the answer) ends it
  }

  // Ends the worker computing (it hears nothing; the spare takes its place) and the
  // search with the best move so far.
  stopNow(feed) {
    this.retire(feed.slot || this.searcher);
    feed.slot = null;
    const best = feed.best;
    if (best) {
      this.emit(feed, "answer", JSON.stringify({
        best: best.pv[0], ponder: best.pv[1] || null, score: best.score, depth: best.depth, nodes: best.nodes,
      }));
    }
    this.conclude(feed, best ? best.pv[0] : null, null);
  }

  // Ends a board's search without a move.
  cancel(id, why) {
    const feed = this.current;
    if (!feed || feed.done || feed.job.session !== id) return;
    this.retire(feed.slot || this.searcher);
    feed.slot = null;
    this.conclude(feed, null, why);
  }

  // The search is over: the boards' instance plays the move (if asked to) and gives
  // the last event.
  conclude(feed, best, failed) {
    if (feed.done) return;
    feed.done = true;
    if (this.current === feed) this.current = null;
    const { session, version } = feed.job;
    let r;
    try {
      r = this.state.finish(failed ? { session, version, failed } : { session, version, best });
    } catch (e) {
      r = { status: 500, data: { error: `the engine failed: ${e.message}` } };
    }
    if (r.status === 200) this.emit(feed, r.data.event, JSON.stringify(r.data.data));
    else this.emit(feed, "failed", JSON.stringify({ error: r.data.error }));
    if (this.lastStop && this.lastStop.done === null) this.lastStop.done = performance.now();
  }

  emit(feed, name, data) {
    feed.events.push([name, data]);
    for (const l of feed.listeners) l(name, data);
  }

  // The board's latest search, from its start, as the server's event stream gives it.
  listen(id, handlers) {
    const feed = this.feeds.get(id);
    let closed = false;
    const queue = feed ? feed.events.slice() : [["failed", JSON.stringify({ error: "this board has not searched" })]];
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      while (queue.length && !closed) {
        const [name, data] = queue.shift();
        if (name === "done" || name === "failed") close();
        const h = handlers[name];
        if (h) h({ data });
      }
    };
    const schedule = () => {
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    };
    const listener = (name, data) => {
      queue.push([name, data]);
      schedule();
    };
    const close = () => {
      closed = true;
      if (feed) feed.listeners.delete(listener);
    };
    if (feed && !feed.done) feed.listeners.add(listener);
    schedule();
    return { close };
  }

  // A new hash size: both workers are replaced (a WebAssembly memory never shrinks).
  async setHash(mb) {
    if (this.current) this.cancel(this.current.job.session, "the engine was restarted");
    this.hashMb = mb;
    for (const slot of [this.searcher, this.spare]) {
      slot.dead = true;
      slot.w.terminate();
    }
    this.searcher = this.makeWorker();
    this.spare = this.makeWorker();
    this.report = await this.searcher.ready;
    return this.report;
  }

  // One job for a worker of its own, which ends after it: {type: "bench", depth} or
  // {type: "selftest"}. Resolves to the answer's data.
  oneShot(message) {
    return new Promise((resolve, reject) => {
      const w = new Worker("engine-worker.js");
      w.onmessage = (e) => {
        const m = e.data || {};
        if (m.type === "ready") w.postMessage(Object.assign({ token: 1 }, message));
        else if (m.type === "result") {
          w.terminate();
          if (m.status === 200) resolve(m.data);
          else reject(new Error(m.data.error));
        } else if (m.type === "error") {
          w.terminate();
          reject(new Error(m.message));
        }
      };
      w.onerror = (e) => {
        w.terminate();
        reject(new Error(e.message || "worker failed"));
      };
      w.postMessage({ type: "init", module: this.module, network: this.network, hashMb: 1 });
    });
  }

  // The WebAssembly memory of the search worker, bytes, as it last said.
  memory() {
    return this.searcher.memory || (this.report && this.report.memory_bytes) || 0;
  }

  // The library's bench to `depth` in a worker of its own: {nodes, ms, nps, network}.
  bench(depth) {
    return this.oneShot({ type: "bench", depth });
  }

  selftest() {
    return this.oneShot({ type: "selftest" });
  }
}

window.LocalBackend = LocalBackend;
})();
