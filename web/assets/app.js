// The page: one board on one session of the backend (backend.js: a jiang-web server, or
// the engine in this browser); the engine moves for the seats that are not the user's,
// analyses in analysis mode, and reports through the backend's event stream.
"use strict";

const $ = (id) => document.getElementById(id);
const { drawBoard, splitMove, esc } = window.Boards;
const { t } = window.I18n;

const app = {
  backend: null,
  games: [],
  id: null,
  st: null, // the backend's state of the board
  lines: [], // latest report of each MultiPV line (index 0 = line 1)
  picked: null,
  events: null,
  searchDone: null, // resolves when the running search has ended
  generation: 0, // bumped on new game: stale callbacks do nothing
  paused: false, // the user stopped the engine (watch, analysis): it waits for "go on"
  stopTimes: null, // {asked, done}: performance.now() of the last Stop click and its end
};

async function api(method, path, body) {
  return app.backend.request(method, path, body);
}

function showError(msg) {
  $("error").textContent = msg || "";
}

const mode = () => $("mode").value;
const seat = () => parseInt($("seat").value || "0", 10);

function humanToMove() {
  const st = app.st;
  if (!st || st.over) return false;
  if (mode() === "analysis") return true;
  if (mode() === "watch") return false;
  return st.to_move === seat();
}

// ---- the move list --------------------------------------------------------------------

// HOOK: the text of every move of the move list, in the page's language. `st` is the
// board's state (game, start_fen, moves); returns one string per move. For now every
// page shows Xiangqi in ICCS (H2-E2) and the other games in their own notation; the
// Chinese page is to show Chinese notation (炮二平五) from the library's notation
// writer when it is connected here.
function moveListText(st, lang) {
  void lang;
  if (st.game === "xiangqi") {
    return st.moves.map((m) => {
      const p = /^([a-i])(\d)([a-i])(\d)$/.exec(m);
      return p ? `${p[1].toUpperCase()}${p[2]}-${p[3].toUpperCase()}${p[4]}` : m;
    });
  }
  return st.moves.slice();
}

// ---- drawing --------------------------------------------------------------------------

function viewSeat() {
  if (mode() === "play") return seat();
  return 0;
}

function render() {
  const st = app.st;
  if (!st) return;
  const b = drawBoard(st.game, st.fen, viewSeat());
  let marks = "";
  let hints = "";
  const dot = (sq, cls, scale) => {
    const [x, y] = b.center(sq);
    return `<circle cx="${x}" cy="${y}" r="${b.cell * scale}" class="${cls}"/>`;
  };
  if (st.last_move) {
    const mv = splitMove(st.game, st.last_move);
    if (mv) {
      // From: a shade under the pieces; to: a ring over the piece that moved there.
      marks += dot(mv[0], "last", 0.45);
      hints += dot(mv[1], "last-to", 0.47);
    }
  }
  if (app.picked) {
    marks += dot(app.picked, "picked", 0.48);
  }
  if (app.picked) {
    for (const mv of st.legal) {
      const p = splitMove(st.game, mv);
      if (p && p[0] === app.picked) hints += dot(p[1], "hint", 0.16);
    }
  }
  let arrows = "";
  if (mode() !== "play" || st.searching) {
    const colours = ["#1f78ff", "#16a34a", "#e08a00", "#9b4dca", "#888"];
    app.lines.forEach((line, i) => {
      if (!line || !line.pv || !line.pv.length) return;
      const p = splitMove(st.game, line.pv[0]);
      if (!p) return;
      const [x1, y1] = b.center(p[0]);
      const [x2, y2] = b.center(p[1]);
      const w = Math.max(3, b.cell * (i === 0 ? 0.16 : 0.1));
      arrows += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colours[i] || "#888"}" stroke-width="${w}" opacity="${i === 0 ? 0.8 : 0.55}" class="arrow" marker-end="url(#head${i})"/>`;
    });
    let defs = "<defs>";
    colours.forEach((c, i) => {
      defs += `<marker id="head${i}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${c}"/></marker>`;
    });
    arrows = defs + "</defs>" + arrows;
  }
  $("board").innerHTML = b.svg + marks + b.pieces + hints + arrows + "</svg>";
  renderSide();
}

// Redraws once per frame at most (a search reports many lines a second).
let renderQueued = false;
function renderSoon() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function resultText(st) {
  if (!st.result) return st.over ? t("no_legal_move") : "";
  const r = st.result;
  const who = r.winner !== null && r.winner !== undefined && st.players[r.winner]
    ? t("wins", { player: window.I18n.player(st.players[r.winner]) })
    : "";
  const lang = window.I18n.lang();
  const head = lang === "en" || !who ? r.result : `${r.result} ${who}`;
  return `${head} — ${window.I18n.reason(r.reason)}`;
}

function renderSide() {
  const st = app.st;
  const players = st.players;
  const name = (i) => window.I18n.player(players[i]);
  let status;
  if (st.over) status = t("game_over");
  else if (st.searching) status = t("thinking", { player: name(st.to_move) });
  else if (app.paused && mode() !== "play") status = t("stopped", { player: name(st.to_move) });
  else status = t(humanToMove() ? "to_move_you" : "to_move", { player: name(st.to_move) });
  $("status").textContent = status;
  $("result").textContent = resultText(st);
  // Moves, one row per round.
  const n = players.length;
  const texts = moveListText(st, window.I18n.lang());
  let html = "";
  for (let i = 0; i < texts.length; i += n) {
    const round = texts.slice(i, i + n).map((m) => `<span>${esc(m)}</span>`).join("");
    html += `<li value="${i / n + 1}">${round}</li>`;
  }
  $("moves").innerHTML = html;
  $("moves").scrollTop = 1e6;
  if (document.activeElement !== $("fen")) $("fen").value = st.fen;
  $("stop").textContent = app.paused && mode() !== "play" && !st.searching ? t("go_on") : t("stop");
  renderLines();
}

function scoreText(score) {
  if (!score) return "";
  if (score.mate !== undefined) return (score.mate > 0 ? "#" : "#-") + Math.abs(score.mate);
  return (score.cp >= 0 ? "+" : "") + (score.cp / 100).toFixed(2);
}

function renderLines() {
  const st = app.st;
  let text = "";
  app.lines.forEach((l, i) => {
    if (!l) return;
    text += `${i + 1}. ${scoreText(l.score)}  d${l.depth}  ${l.pv.slice(0, 10).join(" ")}\n`;
    if (l.player_scores && l.player_scores.length) {
      text += "   " + l.player_scores.map(([p, v]) => `${window.I18n.player(p)} ${v}`).join("  ") + "\n";
    }
  });
  $("lines").textContent = text;
  // The bar: line 1's score from the first player's side.
  const best = app.lines[0];
  const bar = $("evalbar");
  if (st.players.length !== 2 || !best) {
    bar.style.visibility = "hidden";
    return;
  }
  bar.style.visibility = "visible";
  let share = 0.5;
  let label = "";
  if (best && best.score) {
    const sign = best.side === 0 ? 1 : -1;
    if (best.score.mate !== undefined) {
      share = sign * best.score.mate > 0 ? 1 : 0;
      label = scoreText({ mate: sign * best.score.mate });
    } else {
      const cp = sign * best.score.cp;
      share = 0.5 + 0.5 * Math.tanh(cp / 500);
      label = scoreText({ cp });
    }
  }
  $("evalfill").style.height = (share * 100).toFixed(1) + "%";
  $("evaltext").textContent = label;
}

// ---- playing ----------------------------------------------------------------------------

function onClick(ev) {
  const el = ev.target.closest("[data-sq]");
  if (!el || !app.st || !humanToMove()) return;
  const sq = el.getAttribute("data-sq");
  const st = app.st;
  const from = (mv) => { const p = splitMove(st.game, mv); return p && p[0]; };
  if (app.picked) {
    const candidates = st.legal.filter((mv) => {
      const p = splitMove(st.game, mv);
      return p && p[0] === app.picked && p[1] === sq;
    });
    if (candidates.length === 1) return playMove(candidates[0]);
    if (candidates.length > 1) return chooseAmong(candidates);
  }
  app.picked = st.legal.some((mv) => from(mv) === sq) && app.picked !== sq ? sq : null;
  render();
}

// Several moves between the same squares (a Baroque imitator's capture methods): ask.
function chooseAmong(moves) {
  const box = $("promo");
  box.innerHTML = esc(t("which_move")) + " " + moves.map((m) => `<button data-mv="${esc(m)}">${esc(m)}</button>`).join(" ");
  box.style.display = "block";
  box.onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    box.style.display = "none";
    playMove(b.getAttribute("data-mv"));
  };
}

async function playMove(mv) {
  app.picked = null;
  app.paused = false;
  showError("");
  try {
    await stopSearch();
    app.st = await api("POST", `sessions/${app.id}/move`, { move: mv });
    app.lines = [];
    afterState();
  } catch (e) {
    showError(e.message);
    render();
  }
}

// Asks a running search to stop and waits until it has ended.
async function stopSearch() {
  if (!app.st || !app.st.searching) return;
  // The stopped search's end must not start the next one on the old position.
  app.generation += 1;
  const done = app.searchDone;
  await api("POST", `sessions/${app.id}/stop`).catch(() => {});
  // The stream's `done` usually comes at once, but a stream that dropped must not hold
  // the page: wait for it a little, then ask the backend until the search has ended.
  if (done) await Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
  const until = Date.now() + 15000;
  for (;;) {
    app.st = await api("GET", `sessions/${app.id}`);
    if (!app.st.searching || Date.now() > until) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// What to do next on this position: the engine's turn, an analysis, or wait for the user.
function afterState() {
  render();
  const st = app.st;
  if (st.over || st.searching) return;
  if (app.paused && mode() !== "play") return;
  if (mode() === "analysis") startSearch({ play: false, lines: 3, movetime_ms: 60000 });
  else if (!humanToMove()) startSearch({
    play: true,
    lines: 1,
    movetime_ms: parseInt($("movetime").value, 10),
    skill: parseInt($("skill").value, 10),
  });
}

async function startSearch(ask) {
  const gen = app.generation;
  try {
    await api("POST", `sessions/${app.id}/go`, ask);
  } catch (e) {
    if (e.status === 429 && gen === app.generation) {
      $("status").textContent = t("busy");
      setTimeout(() => gen === app.generation && startSearch(ask), 700);
    } else if (e.status !== 409) {
      showError(e.message);
    }
    return;
  }
  if (gen !== app.generation) return;
  app.st.searching = true;
  app.lines = [];
  listen(gen);
  render();
}

function listen(gen) {
  if (app.events) app.events.close();
  const side = app.st.to_move;
  let finish;
  app.searchDone = new Promise((resolve) => { finish = resolve; });
  let stream = null;
  const end = (e, failed) => {
    if (app.events === stream) app.events = null;
    if (app.stopTimes && app.stopTimes.done === null) app.stopTimes.done = performance.now();
    finish();
    if (gen !== app.generation) return;
    if (failed) {
      let why = t("connection_lost");
      try { if (e.data) why = JSON.parse(e.data).error; } catch (err) { /* keep */ }
      showError(t("search_failed", { why }));
      api("GET", `sessions/${app.id}`).then((st) => { app.st = st; render(); }).catch(() => {});
      return;
    }
    const data = JSON.parse(e.data);
    app.st = data.state;
    if (data.played) app.lines = [];
    afterState();
  };
  stream = app.backend.listen(app.id, {
    info: (e) => {
      if (gen !== app.generation) return;
      const info = JSON.parse(e.data);
      info.side = side;
      if (info.multipv === 1 && app.lines[0] && info.depth > app.lines[0].depth) {
        app.lines.length = 1; // a new iteration: other lines refresh below
      }
      app.lines[info.multipv - 1] = info;
      renderSoon();
    },
    done: (e) => end(e, false),
    failed: (e) => end(e, true),
  });
  app.events = stream;
}

async function newGame() {
  app.generation += 1;
  app.paused = false;
  showError("");
  if (app.events) { app.events.close(); app.events = null; }
  if (app.id) {
    const old = app.id;
    api("POST", `sessions/${old}/stop`).catch(() => {}).then(() => api("DELETE", `sessions/${old}`).catch(() => {}));
  }
  app.id = null;
  app.picked = null;
  app.lines = [];
  try {
    app.st = await api("POST", "sessions", { game: $("game").value });
    app.id = app.st.id;
  } catch (e) {
    showError(e.message);
    return;
  }
  afterState();
}

function fillSeats() {
  const g = app.games.find((x) => x.name === $("game").value);
  const prev = $("seat").value;
  $("seat").innerHTML = g.players.map((p, i) => `<option value="${i}">${esc(window.I18n.player(p))}</option>`).join("");
  if (prev && prev < g.players.length) $("seat").value = prev;
  $("seat-label").style.display = mode() === "play" ? "" : "none";
}

function fillGames() {
  const chosen = $("game").value;
  $("game").innerHTML = app.games.map((g) => `<option value="${esc(g.name)}">${esc(window.I18n.gameName(g.name))}</option>`).join("");
  if (chosen) $("game").value = chosen;
}

async function setPosition(body) {
  showError("");
  app.paused = false;
  try {
    await stopSearch();
    app.st = await api("POST", `sessions/${app.id}/position`, body);
    app.lines = [];
    afterState();
  } catch (e) {
    showError(e.message);
  }
}

async function takeBack() {
  app.paused = false;
  try {
    await stopSearch();
    const n = mode() === "play" ? app.st.players.length : 1;
    let plies = n;
    if (mode() === "play" && !app.st.over) {
      // Back to the user's turn: the moves since the user's last one and that one.
      const behind = (app.st.to_move - seat() + n) % n;
      plies = behind === 0 ? n : behind;
    }
    app.st = await api("POST", `sessions/${app.id}/undo`, { plies });
    app.lines = [];
    app.generation += 1;
    afterState();
  } catch (e) {
    showError(e.message);
  }
}

// The Stop button: stops the engine (in a game, it plays its best move so far; watching
// or analysing, it then waits until "go on" is pressed or the position changes).
function stopOrGoOn() {
  if (!app.st) return;
  if (!app.st.searching) {
    if (app.paused) {
      app.paused = false;
      afterState();
    }
    return;
  }
  if (mode() !== "play") app.paused = true;
  app.stopTimes = { asked: performance.now(), done: null };
  api("POST", `sessions/${app.id}/stop`).catch(() => {});
}

// The memory of the engine in this browser (a WebAssembly memory never shrinks, so a
// new size restarts the engine's workers).
const HASH_KEY = "jiang-hash-mb";

function keptHash() {
  try {
    const v = parseInt(localStorage.getItem(HASH_KEY), 10);
    if ([16, 32, 64, 128, 256].includes(v)) return v;
  } catch (e) { /* storage may be off */ }
  return 32;
}

async function changeHash() {
  const mb = parseInt($("hash").value, 10);
  try { localStorage.setItem(HASH_KEY, String(mb)); } catch (e) { /* not kept */ }
  app.generation += 1;
  await stopSearch().catch(() => {});
  await app.backend.setHash(mb);
  app.st = await api("GET", `sessions/${app.id}`);
  afterState();
}

function showBackend() {
  const b = app.backend;
  let key = "backend_server";
  if (b.kind === "local") key = b.report && b.report.network === false ? "backend_local_hce" : "backend_local";
  $("backend").textContent = t(key);
  $("hash-label").style.display = b.kind === "local" ? "" : "none";
}

function applyLanguage() {
  window.I18n.apply();
  $("lang").value = window.I18n.lang();
  if (app.games.length) {
    fillGames();
    fillSeats();
  }
  if (app.backend) showBackend();
  if (app.st) render();
}

async function init() {
  $("lang").innerHTML = Object.entries(window.I18n.LANGS).map(([k, v]) => `<option value="${k}">${esc(v)}</option>`).join("");
  applyLanguage();
  $("lang").addEventListener("change", () => { window.I18n.setLang($("lang").value); applyLanguage(); });
  $("hash").value = String(keptHash());
  try {
    app.backend = await window.Backends.connect({
      hashMb: keptHash(),
      progress: (text) => { $("status").textContent = text; },
    });
    app.games = (await api("GET", "games")).games;
  } catch (e) {
    $("status").textContent = "";
    showError(t("no_engine", { why: e.message }));
    return;
  }
  showBackend();
  fillGames();
  const q = new URLSearchParams(location.search);
  if (q.get("game") && app.games.some((g) => g.name === q.get("game"))) $("game").value = q.get("game");
  if (q.get("mode")) $("mode").value = q.get("mode");
  if (q.get("movetime")) {
    const o = document.createElement("option");
    o.value = q.get("movetime");
    o.textContent = `${q.get("movetime")} ms`;
    $("movetime").appendChild(o);
    $("movetime").value = q.get("movetime");
  }
  fillSeats();
  if (q.get("seat")) $("seat").value = q.get("seat");
  // On press, not on click: the board is redrawn with each engine report, and a press
  // and release on two drawings make no click.
  $("board").addEventListener("pointerdown", (ev) => { if (ev.button === 0) onClick(ev); });
  $("game").addEventListener("change", () => { fillSeats(); newGame(); });
  $("mode").addEventListener("change", () => {
    fillSeats();
    app.generation += 1;
    app.paused = false;
    stopSearch().then(() => { app.lines = []; afterState(); });
  });
  $("seat").addEventListener("change", () => { app.generation += 1; stopSearch().then(afterState); });
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", takeBack);
  $("stop").addEventListener("click", stopOrGoOn);
  $("hash").addEventListener("change", () => changeHash().catch((e) => showError(e.message)));
  $("setfen").addEventListener("click", () => setPosition({ fen: $("fen").value }));
  $("setmoves").addEventListener("click", () => setPosition({ moves: $("fen").value }));
  await newGame();
}

window.jiangApp = app;
init();
