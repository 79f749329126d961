#!/usr/bin/env node
// The WebAssembly module of the static bundle under node (the same V8 as Chromium):
//  * its simd128 kernels give what the portable loops give (jiang_selftest);
//  * a fuzz of its command interface: malformed JSON, bad UTF-8, huge bodies, unknown
//    paths and methods, garbage jobs and finishes, and commands while a search runs,
//    with no trap and no lost state (each refused request leaves the board as it was;
//    the board's moves always replay to its FEN);
//  * a search streams its events and answers a legal move;
//  * game records: a game written by the module's own writer (record/write) in each
//    written format comes back through jiang_record with its variation, comment and
//    Chinese/WXF text; a damaged XQF is refused naming the byte; random bytes never trap;
//  * its bench gives the native engine's signature at the same depth.
// Usage: node wasm/tests/node_check.js BUNDLE_DIR JIANG_BINARY [FUZZ_ROUNDS]
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const JiangWasm = require(path.join(__dirname, "../../web/assets/jiang-wasm.js"));

const [bundle, jiang, roundsArg] = process.argv.slice(2);
const ROUNDS = parseInt(roundsArg || "3000", 10);
const files = JSON.parse(fs.readFileSync(path.join(bundle, "bundle.json"), "utf8"));
const wasmBytes = fs.readFileSync(path.join(bundle, files.wasm));
const network = fs.readFileSync(path.join(bundle, files.network));

let failures = 0;
function check(cond, what) {
  if (!cond) {
    failures += 1;
    console.log("FAILED: " + what);
  }
}

// xorshift64*, seeded: every run fuzzes the same.
let seed = 0x2545f4914f6cdd1dn;
function rand(n) {
  seed ^= seed << 13n; seed &= (1n << 64n) - 1n;
  seed ^= seed >> 7n;
  seed ^= seed << 17n; seed &= (1n << 64n) - 1n;
  return Number(seed % BigInt(n));
}
const pick = (a) => a[rand(a.length)];

// A call that must not trap: returns {status, data}.
function safe(what, work) {
  try {
    return work();
  } catch (e) {
    failures += 1;
    console.log(`FAILED: ${what} trapped or threw: ${e && e.message}`);
    return { status: 599, data: {} };
  }
}

(async () => {
  const module = await WebAssembly.compile(wasmBytes);

  // ---- kernels ----
  const events = [];
  const worker = await JiangWasm.instantiate(module, (name, data) => events.push([name, data]));
  const init = worker.workerInit(32, network).data;
  check(init.network === true && init.simd128 === true && init.hash_mb === 32, "worker init " + JSON.stringify(init));
  const self = worker.selftest().data;
  check(self.kernels_agree === true && self.simd128 === true, "simd128 kernels " + JSON.stringify(self));
  console.log(`kernels: simd128 ${self.simd128}, equal to the portable loops: ${self.kernels_agree}`);

  // ---- the boards' command interface ----
  const board = await JiangWasm.instantiate(module);
  const games = board.request("GET", "games", "").data.games.map((g) => g.name);
  check(games.length === 6 && games.includes("jieqi"), "six games, Jieqi among them");
  const ids = {};
  for (const g of games) ids[g] = board.request("POST", "sessions", JSON.stringify({ game: g })).data.id;
  const state = (id) => board.request("GET", `sessions/${id}`, "").data;

  const junkBodies = [
    "", "{", "}", "[]", "null", "1", "\"x\"", "{\"move\":", "{\"move\": 7}", "{\"move\": null}",
    "{\"fen\": 3}", "{\"moves\": {}}", "{\"moves\": [1, 2]}", "{\"plies\": -1}", "{\"plies\": 1e99}",
    "{\"movetime_ms\": \"soon\"}", "{\"lines\": 99}", "{\"skill\": -3}", "{\"play\": \"yes\"}",
    "{\"game\": \"chess\"}", "{\"depth\": 65}", "{\"nodes\": 1e12}",
    "\u0000\u0001", "{\"move\": \"\u5e05\u5e05\"}", "{\"fen\": \"" + "9/".repeat(2000) + "\"}",
  ];
  const paths = (id) => [
    "games", "sessions", `sessions/${id}`, `sessions/${id}/move`, `sessions/${id}/position`,
    `sessions/${id}/undo`, `sessions/${id}/go`, `sessions/${id}/stop`, `sessions/${id}/events`,
    `sessions/${id}/nope`, "sessions/nope/move", "../etc/passwd", "", "/api/games", "sessions//move",
    `sessions/${id}/move?x=1`, "x".repeat(5000),
  ];
  const methods = ["GET", "POST", "DELETE", "PUT", "", "post", "\u0000"];
  const huge = "{\"move\": \"" + "a".repeat(200 * 1024) + "\"}";
  let refused = 0;
  let searchedDuring = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const game = pick(games);
    const id = ids[game];
    const before = state(id);
    // Sometimes a search is running (asked for, not finished) while the fuzz goes on.
    let job = null;
    if (!before.over && rand(4) === 0) {
      const r = board.request("POST", `sessions/${id}/go`, JSON.stringify({ movetime_ms: 50 }));
      check(r.status === 202, `go: ${r.status} ${JSON.stringify(r.data)}`);
      job = board.takeJob();
      check(job && job.session === id, "a job for the board");
      searchedDuring += 1;
    }
    const during = state(id);
    const kind = rand(10);
    let r;
    if (kind === 0) {
      r = safe("huge body", () => board.request("POST", `sessions/${id}/move`, huge));
      check(r.status === 413, `huge body: ${r.status}`);
    } else if (kind === 1) {
      // Bad UTF-8 straight into memory.
      r = safe("bad UTF-8", () => board._call("jiang_request", ["POST", `sessions/${id}/move`, new Uint8Array([0xff, 0xfe, 0x80])]));
      check(r.status === 400, `bad UTF-8: ${r.status}`);
    } else if (kind === 2) {
      r = safe("garbage finish", () => board.finish(pick([{}, { session: id }, { session: id, version: -1 }, { session: 5, version: 0 }, { session: id, version: during.version + 1, best: "x" }])));
      check(r.status >= 400 && r.status < 500, `garbage finish: ${r.status}`);
    } else {
      const p = pick(paths(id));
      const m = pick(methods);
      const b = pick(junkBodies);
      r = safe(`${m} ${p.slice(0, 40)} ${b.slice(0, 40)}`, () => board.request(m, p, b));
      check(r.status < 500, `${m} ${p.slice(0, 40)}: ${r.status}`);
    }
    if (r.status >= 400) refused += 1;
    if (r.status === 202) {
      // The fuzz itself asked for a search: end it without a move.
      const extra = board.takeJob();
      check(extra && board.finish({ session: extra.session, version: extra.version, best: null }).status === 200, "finish of the fuzz's own search");
    }
    // A refused request changes nothing; a DELETE makes a new board.
    const after = board.request("GET", `sessions/${id}`, "");
    if (after.status === 404) {
      if (job) check(board.finish({ session: id, version: job.version, best: null }).status === 404, "finish after close");
      ids[game] = board.request("POST", "sessions", JSON.stringify({ game })).data.id;
      continue;
    }
    if (r.status >= 400) check(after.data.fen === during.fen && after.data.moves.length === during.moves.length, `refused request changed the board of ${game}`);
    if (job) {
      check(after.data.searching === true, "the board still searches");
      const legal = after.data.legal;
      const best = legal.length ? pick(legal) : null;
      const f = safe("finish", () => board.finish({ session: id, version: job.version, best }));
      check(f.status === 200 && f.data.event === "done", `finish: ${f.status} ${JSON.stringify(f.data)}`);
      const st = state(id);
      check(!st.searching, "searching after finish");
      check(st.moves.length === after.data.moves.length + (best ? 1 : 0), "the answer was played once");
    } else if (rand(3) === 0 && !after.data.over && !after.data.searching) {
      // Keep the games moving so that the fuzz reaches later positions.
      const mv = pick(after.data.legal);
      check(board.request("POST", `sessions/${id}/move`, JSON.stringify({ move: mv })).status === 200, "a legal move");
    }
    if (state(id).over) {
      board.request("DELETE", `sessions/${id}`, "");
      ids[game] = board.request("POST", "sessions", JSON.stringify({ game })).data.id;
    }
  }
  console.log(`fuzz: ${ROUNDS} rounds, ${refused} refused, ${searchedDuring} with a search running; no trap`);

  // ---- game records through jiang_record ----
  {
    const nodes = [{ comment: "开局" }, { parent: 0, move: "h2e2" }, { parent: 1, move: "h9g7" },
      { parent: 2, move: "h0g2" }, { parent: 2, move: "c3c4", comment: "仙人指路" }];
    for (const [format, name] of [["pgn", "g.pgn"], ["pgn-wxf", "g.pgn"], ["pgn-chinese", "g.pgn"], ["dhtmlxq", "g.ubb"]]) {
      const w = board.request("POST", "record/write", JSON.stringify({ format, nodes }));
      check(w.status === 200, `record/write ${format}: ${JSON.stringify(w.data)}`);
      const r = safe("jiang_record", () => board.record(name, new TextEncoder().encode(w.data.text), 0));
      const g = r.data;
      const v = r.status === 200 ? g.nodes.find((n) => n.move === "c3c4") : null;
      check(r.status === 200 && g.nodes.length === 5 && v && v.comment === "仙人指路" && v.chinese === "兵七进一"
        && g.nodes[1].chinese === "炮二平五" && g.nodes[1].wxf === "C2.5" && g.nodes[0].comment === "开局",
        `jiang_record ${format}: ${r.status} ${JSON.stringify(g).slice(0, 300)}`);
    }
    const bad = safe("jiang_record", () => board.record("g.xqf", new TextEncoder().encode("XQ\n\0garbage"), 0));
    check(bad.status === 422 && /byte 11/.test(bad.data.error), `damaged xqf: ${JSON.stringify(bad)}`);
    let read = 0;
    for (let i = 0; i < 300; i++) {
      const bytes = new Uint8Array(rand(3000));
      for (let k = 0; k < bytes.length; k++) bytes[k] = rand(256);
      if (i % 2 && bytes.length > 2) { bytes[0] = 88; bytes[1] = 81; bytes[2] = pick([10, 11, 12, 16, 18]); }
      const r = safe("jiang_record random", () => board.record(pick(["a.xqf", "a.cbr", "a.cbf", "a.pgn", "a"]), bytes, 0));
      check([200, 400, 413, 422].includes(r.status), `random record: ${r.status}`);
      if (r.status === 200) read += 1;
    }
    console.log(`records: 4 written formats read back whole through jiang_record; a damaged XQF refused (${bad.data.error}); 300 random files (${read} read), no trap`);
  }

  // ---- a search in the worker ----
  const id = board.request("POST", "sessions", JSON.stringify({ game: "xiangqi" })).data.id;
  board.request("POST", `sessions/${id}/go`, JSON.stringify({ movetime_ms: 300, lines: 3, play: true }));
  const job = board.takeJob();
  events.length = 0;
  const answer = worker.search(job);
  check(answer.status === 200 && typeof answer.data.best === "string", "search answer " + JSON.stringify(answer));
  const infos = events.filter(([n]) => n === "info").map(([, d]) => JSON.parse(d));
  check(infos.some((i) => i.multipv === 3), "three lines reported");
  const done = board.finish({ session: id, version: job.version, best: answer.data.best });
  check(done.status === 200 && done.data.data.played === answer.data.best, "the answer played");
  for (const bad of ["", "{}", "nonsense", JSON.stringify(Object.assign({}, job, { game: "chess" })), JSON.stringify(Object.assign({}, job, { moves: ["z9z9"] })), JSON.stringify(Object.assign({}, job, { ask: { lines: 50 } }))]) {
    const r = safe("bad job", () => worker.search(bad));
    check(r.status === 400 || r.status === 422, `bad job: ${r.status}`);
  }
  check(worker.search(job).status === 200, "the worker searches after bad jobs");
  console.log(`search: ${infos.length} info events, best ${answer.data.best}; bad jobs refused, the worker still searches`);

  // ---- bench signature ----
  const depth = 8;
  const w = worker.bench(depth).data;
  const native = execFileSync(jiang, ["bench", String(depth)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const m = /Bench: (\d+) nodes/.exec(native);
  check(m && Number(m[1]) === w.nodes, `bench ${depth}: wasm ${w.nodes} nodes, native ${m && m[1]}`);
  console.log(`bench ${depth}: wasm ${w.nodes} nodes (${w.nps} nps), native ${m && m[1]} nodes`);

  console.log(failures ? `node checks: ${failures} FAILED` : "node checks: all passed");
  process.exit(failures ? 1 : 0);
})().catch((e) => {
  console.log("node checks FAILED: " + (e && e.stack || e));
  process.exit(1);
});
