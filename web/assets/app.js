// The page: one board on one server session; the engine moves for the seats that are
// not the user's, analyses in analysis mode, and reports over server-sent events.
"use strict";

const $ = (id) => document.getElementById(id);
const { drawBoard, splitMove, esc } = window.Boards;

const app = {
  games: [],
  id: null,
  st: null, // the server's state of the board
  lines: [], // latest report of each MultiPV line (index 0 = line 1)
  picked: null,
  events: null,
  searchDone: null, // resolves when the running search has ended
  generation: 0, // bumped on new game: stale callbacks do nothing
};

async function api(method, path, body) {
  const r = await fetch("/api/" + path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await r.json().catch(() => ({ error: "bad answer from the server" }));
  if (!r.ok) {
    const e = new Error(data.error || r.statusText);
    e.status = r.status;
    throw e;
  }
  return data;
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

function renderSide() {
  const st = app.st;
  const players = st.players;
  const name = (i) => players[i].charAt(0).toUpperCase() + players[i].slice(1);
  let status;
  if (st.over) status = "Game over";
  else if (st.searching) status = `${name(st.to_move)} to move — jiang is thinking…`;
  else status = `${name(st.to_move)} to move${humanToMove() ? " (you)" : ""}`;
  $("status").textContent = status;
  $("result").textContent = st.result
    ? `${st.result.result} — ${st.result.reason}`
    : st.over ? "no legal move" : "";
  // Moves, one row per round.
  const n = players.length;
  const startIndex = 0;
  let html = "";
  for (let i = 0; i < st.moves.length; i += n) {
    const round = st.moves.slice(i, i + n).map((m) => `<span>${esc(m)}</span>`).join("");
    html += `<li value="${(i - startIndex) / n + 1}">${round}</li>`;
  }
  $("moves").innerHTML = html;
  $("moves").scrollTop = 1e6;
  if (document.activeElement !== $("fen")) $("fen").value = st.fen;
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
      text += "   " + l.player_scores.map(([p, v]) => `${p} ${v}`).join("  ") + "\n";
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
  box.innerHTML = "Which move? " + moves.map((m) => `<button data-mv="${esc(m)}">${esc(m)}</button>`).join(" ");
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
  // the page: wait for it a little, then ask the server until the search has ended.
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
      $("status").textContent = "the server is busy; waiting…";
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
  const es = new EventSource(`/api/sessions/${app.id}/events`);
  app.events = es;
  const side = app.st.to_move;
  let finish;
  app.searchDone = new Promise((resolve) => { finish = resolve; });
  es.addEventListener("info", (e) => {
    if (gen !== app.generation) return;
    const info = JSON.parse(e.data);
    info.side = side;
    if (info.multipv === 1 && app.lines[0] && info.depth > app.lines[0].depth) {
      app.lines.length = 1; // a new iteration: other lines refresh below
    }
    app.lines[info.multipv - 1] = info;
    render();
  });
  const end = (e, failed) => {
    es.close();
    if (app.events === es) app.events = null;
    finish();
    if (gen !== app.generation) return;
    if (failed) {
      showError("search failed: " + (e.data ? JSON.parse(e.data).error : "connection lost"));
      api("GET", `sessions/${app.id}`).then((st) => { app.st = st; render(); }).catch(() => {});
      return;
    }
    const data = JSON.parse(e.data);
    app.st = data.state;
    if (data.played) app.lines = [];
    afterState();
  };
  es.addEventListener("done", (e) => end(e, false));
  es.addEventListener("failed", (e) => end(e, true));
  es.onerror = () => { if (es.readyState === EventSource.CLOSED) end({}, true); };
}

async function newGame() {
  app.generation += 1;
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
  $("seat").innerHTML = g.players.map((p, i) => `<option value="${i}">${esc(p)}</option>`).join("");
  if (prev && prev < g.players.length) $("seat").value = prev;
  $("seat-label").style.display = mode() === "play" ? "" : "none";
}

async function setPosition(body) {
  showError("");
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

async function init() {
  try {
    app.games = (await api("GET", "games")).games;
  } catch (e) {
    showError(e.message);
    return;
  }
  $("game").innerHTML = app.games.map((g) => `<option>${esc(g.name)}</option>`).join("");
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
  $("board").addEventListener("click", onClick);
  $("game").addEventListener("change", () => { fillSeats(); newGame(); });
  $("mode").addEventListener("change", () => { fillSeats(); app.generation += 1; stopSearch().then(() => { app.lines = []; afterState(); }); });
  $("seat").addEventListener("change", () => { app.generation += 1; stopSearch().then(afterState); });
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", takeBack);
  $("stop").addEventListener("click", () => api("POST", `sessions/${app.id}/stop`).catch(() => {}));
  $("setfen").addEventListener("click", () => setPosition({ fen: $("fen").value }));
  $("setmoves").addEventListener("click", () => setPosition({ moves: $("fen").value }));
  await newGame();
}

window.jiangApp = app;
init();
