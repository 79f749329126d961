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
  record: null, // the game record shown (see "game records" below), or null
  recordFile: null, // {name, bytes} of the file it came from
  review: null, // the review of the record's main line, running or done
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
  if (mode() === "record") return false;
  if (mode() === "analysis") return true;
  if (mode() === "watch") return false;
  return st.to_move === seat();
}

// ---- the move list --------------------------------------------------------------------

// The text of every move of the move list, in the page's language. `st` is the board's
// state (game, start_fen, moves, and for Xiangqi `notation`: the moves in WXF and
// Chinese from the library's notation writer); returns one string per move. Xiangqi:
// Chinese notation (炮二平五) on the Chinese page, ICCS (H2-E2) or WXF (C2.5) on the
// English one (the switch beside the list); the other games in their own notation.
function moveListText(st, lang) {
  if (st.game === "xiangqi") {
    const texts = st.notation || {};
    const own = lang === "zh" ? texts.chinese : notationChoice() === "wxf" ? texts.wxf : null;
    if (own && own.length === st.moves.length) return own.slice();
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

// A loaded endgame table's verdict (jiang-web --egtb; the in-browser engine has none).
function tablebaseText(st) {
  const tb = st.tablebase;
  if (!tb || st.over) return "";
  const player = window.I18n.player(st.players[st.to_move]);
  const unit = t(tb.plies === 1 ? "ply" : "plies");
  return t(`tb_${tb.result}`, { table: tb.table, plies: tb.plies, unit, player });
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
  $("tablebase").textContent = tablebaseText(st);
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
  $("notation-label").style.display = st.game === "xiangqi" && window.I18n.lang() !== "zh" ? "" : "none";
  if (app.record) app.record.current = nodeOfBoard(app.record, st);
  renderTree();
  renderGraph();
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

// ---- game records: open, step through, review, copy -------------------------------------

// The record being shown: the game JSON of web/src/records.rs (tags, start_fen, nodes
// with their moves in ICCS, WXF and Chinese), `current` the node on the board (-1 when
// the board has left the record), and the file it came from (to choose another game).
// app.review: the review of its main line (running, or its judgement).

const NOTATION_KEY = "jiang-notation";
// What the move tree and the graph show now (redrawn only when it changes).
const drawn = { tree: null, graph: "" };

function notationChoice() {
  try {
    const v = localStorage.getItem(NOTATION_KEY);
    if (v === "wxf" || v === "iccs") return v;
  } catch (e) { /* storage may be off */ }
  return "iccs";
}

// A record node's move as the move list writes it in the page's language.
function nodeText(node) {
  if (window.I18n.lang() === "zh") return node.chinese || node.move;
  return notationChoice() === "wxf" ? node.wxf || node.move : node.iccs || node.move;
}

// The nodes of the main line, root excluded.
function mainLine(rec) {
  const line = [];
  let at = rec.nodes[0];
  while (at && at.children && at.children.length) {
    line.push(at.children[0]);
    at = rec.nodes[at.children[0]];
  }
  return line;
}

// The ICCS moves from the root to `id`.
function movesTo(rec, id) {
  const moves = [];
  let at = id;
  while (at > 0 && rec.nodes[at]) {
    moves.push(rec.nodes[at].move);
    at = rec.nodes[at].parent;
  }
  return moves.reverse();
}

// The node the board's moves lead to in the record, or -1.
function nodeOfBoard(rec, st) {
  if (!rec || !st || st.start_fen !== rec.start_fen) return -1;
  let at = 0;
  for (const mv of st.moves) {
    const next = (rec.nodes[at].children || []).find((c) => rec.nodes[c].move === mv);
    if (next === undefined) return -1;
    at = next;
  }
  return at;
}

// The review's judgement of a main-line node, if it has one.
function reviewOf(id) {
  const r = app.review;
  if (!r || !r.result) return null;
  const i = r.line.indexOf(id);
  return i >= 0 && i < r.result.moves.length ? r.result.moves[i] : null;
}

const NAG_CLASS = { "?!": "dubious", "?": "mistake", "??": "blunder" };

function moveHtml(rec, id, withNumber) {
  const n = rec.nodes[id];
  let html = "";
  if (withNumber || n.side === "red") {
    html += `<span class="num">${n.fullmove}${n.side === "red" ? "." : "…"}</span>`;
  }
  const judged = reviewOf(id);
  const nag = (judged && judged.nag) || n.nag;
  const cls = id === rec.current ? "mv cur" : "mv";
  html += `<span class="${cls}" data-node="${id}">${esc(nodeText(n))}`;
  if (nag) html += `<span class="nag nag-${NAG_CLASS[nag] || "other"}">${esc(nag)}</span>`;
  html += "</span>";
  if (judged) html += `<span class="sc">${esc(judged.score)}</span> `;
  if (n.comment) html += `<span class="comment">${esc(n.comment)}</span>`;
  return html;
}

// A line from node `id` (its move included) on, each variation after the move it
// replaces, indented. Iterative over the line; variations nest by recursion (the
// readers bound the nesting).
function lineHtml(rec, id, depth) {
  let html = "";
  let at = id;
  let number = true;
  while (at !== undefined) {
    html += moveHtml(rec, at, number);
    number = false;
    const parent = rec.nodes[rec.nodes[at].parent];
    if (parent && parent.children[0] === at && parent.children.length > 1 && depth < 40) {
      for (const v of parent.children.slice(1)) {
        html += `<span class="var">${lineHtml(rec, v, depth + 1)}</span>`;
      }
      number = true;
    }
    const node = rec.nodes[at];
    at = node.children && node.children.length ? node.children[0] : undefined;
  }
  return html;
}

function renderTree() {
  const rec = app.record;
  const tree = $("tree");
  if (!rec) {
    if (drawn.tree !== null) tree.innerHTML = "";
    drawn.tree = null;
    tree.style.display = "none";
    $("moves").style.display = "";
    $("node-info").textContent = "";
    return;
  }
  tree.style.display = "block";
  $("moves").style.display = "none";
  const root = rec.nodes[0];
  let html = root.comment ? `<span class="comment">${esc(root.comment)}</span> ` : "";
  // The first move's variations come after it, as every move's do.
  if (root.children.length) html += lineHtml(rec, root.children[0], 0);
  // Redrawn only when it changed: the page renders with every engine report, and a
  // list redrawn under the pointer loses its clicks (and its scroll position).
  if (drawn.tree !== html) {
    tree.innerHTML = html;
    drawn.tree = html;
    const cur = tree.querySelector(".mv.cur");
    if (cur) {
      const top = cur.offsetTop - tree.offsetTop;
      if (top < tree.scrollTop || top > tree.scrollTop + tree.clientHeight - 24) tree.scrollTop = top - 40;
    }
  }
  // The current move: its review.
  let info = "";
  const judged = rec.current > 0 ? reviewOf(rec.current) : null;
  if (judged) {
    info = t("node_score", { score: judged.score });
    if (judged.best && judged.best !== rec.nodes[rec.current].move && judged.loss > 0) {
      const best = window.I18n.lang() === "zh" ? judged.best_chinese
        : notationChoice() === "wxf" ? judged.best_wxf : judged.best_iccs;
      info += " · " + t("node_best", { move: best, score: judged.best_score });
      info += " · " + t("node_loss", { p: Math.round(judged.loss * 100) });
    }
  }
  $("node-info").textContent = info;
}

function renderRecordPanel() {
  const rec = app.record;
  const sel = $("record-game");
  if (rec && rec.games > 1) {
    sel.innerHTML = rec.list.map((title, i) => `<option value="${i}">${i + 1}. ${esc(title)}</option>`).join("");
    sel.value = String(rec.index);
    sel.style.display = "inline-block";
  } else {
    sel.style.display = "none";
  }
  $("record-info").textContent = rec
    ? [rec.title, rec.result, t("record_loaded", { name: rec.name, format: rec.format, moves: mainLine(rec).length })]
      .filter(Boolean).join(" · ")
    : "";
  const w = rec ? rec.warnings : [];
  $("record-warnings").textContent = w && w.length
    ? t("record_warnings", { n: w.length }) + "\n" + w.slice(0, 5).map((x) => "• " + x.text).join("\n") + (w.length > 5 ? "\n…" : "")
    : "";
  const r = app.review;
  $("review").textContent = r && r.running ? t("review_stop") : t("review");
  $("review-progress").style.display = r && (r.running || r.note) ? "block" : "none";
  if (r) {
    $("review-bar").max = Math.max(1, r.total);
    $("review-bar").value = r.done;
    $("review-text").textContent = r.note || "";
  }
  let sum = "";
  if (r && r.result && r.result.moves.length) {
    const s = r.result.summary;
    for (const [side, who] of [["red", "red"], ["black", "black"]]) {
      const x = s[side];
      sum += `<div>${esc(t("summary_side", {
        player: window.I18n.player(who), acc: x.accuracy.toFixed(1), i: x.inaccuracies, m: x.mistakes, b: x.blunders,
      }))}</div>`;
    }
    sum += `<div class="help">${esc(t("marks_help"))}</div>`;
  }
  $("review-summary").innerHTML = sum;
  renderGraph();
}

// The score graph under the board: Red's winning chances after each reviewed move, the
// marks on the curve, the deciding moments labelled, the current move's line; a column
// per ply to click.
function renderGraph() {
  const g = $("graph");
  const r = app.review;
  const shown = Boolean(app.record && r && r.result && r.result.moves.length);
  document.body.classList.toggle("has-graph", shown);
  if (!shown) {
    if (drawn.graph) g.innerHTML = "";
    drawn.graph = "";
    return;
  }
  const rec = app.record;
  const moves = r.result.moves;
  const n = Math.max(r.line.length, 1);
  const W = 720, H = 180, L = 44, R = 8, T = 8, B = 24;
  const pw = W - L - R, ph = H - T - B;
  const x = (ply) => L + (pw * ply) / n;
  const y = (p) => T + ph * (1 - p);
  const pts = [[x(0), y(r.result.red_start)]].concat(moves.map((m, i) => [x(i + 1), y(m.red_after)]));
  const path = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  const lastX = pts[pts.length - 1][0];
  let s = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" class="graph">`;
  s += `<rect x="${L}" y="${T}" width="${pw}" height="${ph}" fill="#2a2725" stroke="#555"/>`;
  s += `<polygon points="${x(0).toFixed(1)},${y(0)} ${path} ${lastX.toFixed(1)},${y(0)}" fill="#c8102e" opacity="0.85"/>`;
  for (const [p, label] of [[0, "0%"], [0.5, "50%"], [1, "100%"]]) {
    s += `<line x1="${L}" x2="${W - R}" y1="${y(p)}" y2="${y(p)}" stroke="#fff" stroke-opacity="${p === 0.5 ? 0.5 : 0.2}"/>`;
    s += `<text x="${L - 4}" y="${y(p) + 4}" text-anchor="end" font-size="13" fill="#aaa">${label}</text>`;
  }
  const step = Math.max(1, Math.ceil(n / 2 / 10));
  for (let mv = 1; 2 * (mv - 1) <= n; mv += step) {
    s += `<text x="${x(2 * (mv - 1)).toFixed(1)}" y="${H - 6}" text-anchor="middle" font-size="13" fill="#aaa">${mv}</text>`;
  }
  s += `<polyline points="${path}" fill="none" stroke="#f4c542" stroke-width="1.5"/>`;
  // The current move.
  const ply = rec.current >= 0 ? (rec.current === 0 ? 0 : r.line.indexOf(rec.current) + 1) : -1;
  if (ply >= 0) {
    s += `<line class="cursor" x1="${x(ply).toFixed(1)}" x2="${x(ply).toFixed(1)}" y1="${T}" y2="${T + ph}" stroke="#7fd3ff" stroke-width="2"/>`;
  }
  const colour = { "?!": "#ffe14d", "?": "#ff9a1f", "??": "#ff2d2d" };
  moves.forEach((m, i) => {
    if (!m.nag) return;
    const [cx, cy] = [x(i + 1), y(m.red_after)];
    const node = rec.nodes[r.line[i]];
    s += `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="4.5" fill="${colour[m.nag]}" stroke="#000" stroke-width="0.8" class="mark mark-${NAG_CLASS[m.nag]}"><title>${esc(`${node.fullmove}. ${nodeText(node)}${m.nag}`)}</title></circle>`;
  });
  let k = 0;
  for (const i of r.result.deciding) {
    const m = moves[i];
    const node = rec.nodes[r.line[i]];
    const [cx, cy] = [x(i + 1), y(m.red_after)];
    const end = cx > L + pw * 0.75;
    s += `<line x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${T}" y2="${T + ph}" stroke="#fff" stroke-dasharray="2,2" class="deciding"/>`;
    s += `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="7" fill="none" stroke="#fff" stroke-width="2"/>`;
    s += `<text x="${(cx + (end ? -5 : 5)).toFixed(1)}" y="${T + 16 + 16 * k}" text-anchor="${end ? "end" : "start"}" font-size="15" font-weight="bold" fill="#fff" stroke="#000" stroke-width="2.5" paint-order="stroke">${esc(`${node.fullmove}${node.side === "red" ? "." : "…"} ${nodeText(node)}${m.nag || ""} −${Math.round(m.loss * 100)}%`)}</text>`;
    k += 1;
  }
  // The click targets: ply 0 (the start) to the last reviewed.
  for (let i = 0; i <= moves.length; i++) {
    const x0 = Math.max(L, x(i - 0.5)), x1 = Math.min(W - R, x(i + 0.5));
    s += `<rect class="gcol" data-ply="${i}" x="${x0.toFixed(1)}" y="${T}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${ph}"/>`;
  }
  s += "</svg>";
  if (drawn.graph !== s) {
    g.innerHTML = s;
    drawn.graph = s;
  }
}

// Shows the record's node `id` on the board (the board's position becomes its path).
async function gotoNode(id) {
  const rec = app.record;
  if (!rec || !rec.nodes[id] || (app.review && app.review.running)) return;
  app.generation += 1;
  app.picked = null;
  showError("");
  try {
    await stopSearch();
    app.st = await setBoardPosition({ fen: rec.start_fen, moves: movesTo(rec, id) });
    rec.current = id;
    app.lines = [];
    afterState();
  } catch (e) {
    showError(e.message);
  }
}

function stepRecord(key) {
  const rec = app.record;
  if (!rec) return false;
  const at = rec.current >= 0 ? rec.current : nodeOfBoard(rec, app.st);
  const node = rec.nodes[Math.max(0, at)];
  const parent = rec.nodes[node.parent];
  let to = null;
  if (key === "ArrowLeft") to = at > 0 ? node.parent : null;
  else if (key === "ArrowRight") to = node.children.length ? node.children[0] : null;
  else if (key === "ArrowUp" || key === "ArrowDown") {
    // Another move in the same place (a variation's first move, or back to the line).
    if (at > 0) {
      const sibs = parent.children;
      const i = sibs.indexOf(at) + (key === "ArrowDown" ? 1 : -1);
      if (i >= 0 && i < sibs.length) to = sibs[i];
    }
  } else if (key === "Home") to = 0;
  else if (key === "End") {
    let end = Math.max(0, at);
    while (rec.nodes[end].children.length) end = rec.nodes[end].children[0];
    to = end;
  }
  if (to === null) return false;
  gotoNode(to);
  return true;
}

async function showRecord(rec, file) {
  app.generation += 1;
  await stopSearch().catch(() => {});
  if (!app.st || app.st.game !== "xiangqi") {
    $("game").value = "xiangqi";
    fillSeats();
    await newGame();
  }
  rec.current = 0;
  app.record = rec;
  app.recordFile = file || null;
  app.review = null;
  $("mode").value = "record";
  app.paused = false;
  fillSeats();
  renderRecordPanel();
  await gotoNode(0);
}

async function openRecord(name, bytes, index) {
  showError("");
  let rec;
  try {
    rec = await app.backend.readRecord(name, bytes, index || 0);
  } catch (e) {
    showError(t("record_bad", { name, why: e.message }));
    return;
  }
  await showRecord(rec, { name, bytes });
}

async function openFile(file) {
  if (!file) return;
  if (app.review && app.review.running) stopReview();
  let bytes;
  try {
    bytes = await file.arrayBuffer();
  } catch (e) {
    showError(t("record_bad", { name: file.name, why: e.message }));
    return;
  }
  await openRecord(file.name, bytes, 0);
}

// The game on the board as a record: the record shown, else the board's own moves
// (made a record through the writer and reader, so it has every notation).
async function boardRecord() {
  if (app.record) return app.record;
  const st = app.st;
  if (!st || st.game !== "xiangqi") throw new Error(t("record_needs_xiangqi"));
  const w = await api("POST", "record/write", { format: "pgn", start_fen: st.start_fen, moves: st.moves });
  const rec = await app.backend.readRecord("board.pgn", new TextEncoder().encode(w.text), 0);
  rec.name = "board";
  return rec;
}

// The record as the writer takes it back: its nodes, with the review's marks and scores
// on the main line when it has been reviewed.
function recordForWriting(rec) {
  const nodes = rec.nodes.map((n) => ({ parent: n.parent, move: n.move, comment: n.comment || "", nag: n.nag || null }));
  const tags = rec.tags.slice();
  const r = app.review;
  if (r && r.result && r.result.moves.length) {
    r.result.moves.forEach((m, i) => {
      const node = nodes[r.line[i]];
      let c = `jiang ${m.score}`;
      if (m.best && m.best !== rec.nodes[r.line[i]].move && m.loss > 0) c += `; best ${m.best_iccs} ${m.best_score}`;
      node.comment = node.comment ? `${node.comment}\n${c}` : c;
      if (m.nag) node.nag = m.nag;
    });
    const s = r.result.summary;
    const line = (side, x) => `${side}: accuracy ${x.accuracy.toFixed(1)}%, ${x.inaccuracies} inaccuracies (?!), ${x.mistakes} mistakes (?), ${x.blunders} blunders (??)`;
    const head = `jiang review (${r.ms} ms a position): ${line("Red", s.red)}; ${line("Black", s.black)}`;
    nodes[0].comment = nodes[0].comment ? `${nodes[0].comment}\n${head}` : head;
    if (!tags.some(([k]) => k.toLowerCase() === "annotator")) tags.push(["Annotator", "jiang"]);
  }
  return { start_fen: rec.start_fen, tags, nodes };
}

// The text of the chosen copy format: {text, filename}.
async function copyText() {
  const fmt = $("copy-format").value;
  if (fmt === "fen") return { text: app.st.fen, filename: "position.fen" };
  const rec = await boardRecord();
  const w = await api("POST", "record/write", Object.assign({ format: fmt }, recordForWriting(rec)));
  const base = String(rec.name || "game").replace(/\.[^.]*$/, "").replace(/[^\w\u4e00-\u9fff-]+/g, "_") || "game";
  return { text: w.text, filename: `${base}${fmt === "pgn" ? "" : "-" + fmt.replace("pgn-", "")}.${w.extension}` };
}

async function copyOut(download) {
  showError("");
  $("copy-note").textContent = "";
  let out;
  try {
    out = await copyText();
  } catch (e) {
    showError(e.message);
    return;
  }
  app.lastCopy = out;
  if (download) {
    const url = URL.createObjectURL(new Blob([out.text], { type: "text/plain;charset=utf-8" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = out.filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    $("copy-note").textContent = out.filename;
    return;
  }
  let ok = false;
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      await navigator.clipboard.writeText(out.text);
      ok = true;
    }
  } catch (e) { /* the older way below */ }
  if (!ok) {
    const ta = document.createElement("textarea");
    ta.value = out.text;
    document.body.appendChild(ta);
    ta.select();
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    ta.remove();
  }
  $("copy-note").textContent = ok ? t("copied") : t("copy_failed");
}

// One search of the board's position for the review: its last line-1 report (as
// `jiang-lab review` takes it), else its answer. {score, best} or null.
function searchForReview(ms, gen) {
  return new Promise((resolve, reject) => {
    let last = null;
    let answer = null;
    const ask = async () => {
      try {
        await api("POST", `sessions/${app.id}/go`, { play: false, lines: 1, movetime_ms: ms });
      } catch (e) {
        if (e.status === 429 && gen === app.generation) return setTimeout(ask, 500);
        return reject(e);
      }
      app.st.searching = true;
      app.review.stream = app.backend.listen(app.id, {
        info: (e) => {
          const info = JSON.parse(e.data);
          if (info.multipv <= 1 && info.pv && info.pv.length) {
            last = info;
            info.side = app.st.to_move;
            app.lines = [info];
            renderSoon();
          }
        },
        answer: (e) => { answer = JSON.parse(e.data); },
        done: (e) => {
          app.st = JSON.parse(e.data).state;
          if (last) resolve({ score: last.score, best: last.pv[0] });
          else if (answer && answer.best) resolve({ score: answer.score, best: answer.best });
          else resolve(null);
        },
        failed: (e) => {
          let why = t("connection_lost");
          try { if (e.data) why = JSON.parse(e.data).error; } catch (err) { /* keep */ }
          reject(new Error(why));
        },
      });
    };
    ask();
  });
}

async function startReview() {
  showError("");
  let rec;
  try {
    rec = await boardRecord();
  } catch (e) {
    showError(e.message);
    return;
  }
  if (rec !== app.record) await showRecord(rec, null);
  const line = mainLine(rec);
  if (!line.length) {
    showError(t("review_none"));
    return;
  }
  app.generation += 1;
  const gen = app.generation;
  await stopSearch().catch(() => {});
  $("mode").value = "record";
  fillSeats();
  const ms = parseInt($("review-time").value, 10) || 500;
  const moves = line.map((id) => rec.nodes[id].move);
  const r = { running: true, stopping: false, line, ms, total: line.length + 1, done: 0, verdicts: [], result: null, note: "" };
  app.review = r;
  const judge = async () => {
    r.result = await api("POST", "review", { start_fen: rec.start_fen, moves, verdicts: r.verdicts });
  };
  try {
    for (let i = 0; i <= line.length && !r.stopping; i++) {
      r.done = i;
      r.note = t("reviewing", { i: i + 1, n: r.total });
      renderRecordPanel();
      app.st = await setBoardPosition({ fen: rec.start_fen, moves: moves.slice(0, i) });
      rec.current = i === 0 ? 0 : line[i - 1];
      app.lines = [];
      render();
      if (!app.st.legal.length) {
        r.verdicts.push(null);
      } else {
        const v = await searchForReview(ms, gen);
        if (r.stopping) break; // a search cut short is not a verdict
        if (!v) throw new Error("the engine gave no move");
        r.verdicts.push(v);
      }
      if (r.verdicts.length >= 2) await judge();
    }
    r.done = r.verdicts.length;
    const n = r.result ? r.result.moves.length : 0;
    r.note = r.stopping ? t("review_stopped", { n }) : t("review_done", { n, ms });
  } catch (e) {
    r.note = "";
    showError(t("search_failed", { why: e.message }));
  }
  r.running = false;
  if (r.stream) r.stream.close();
  app.lines = [];
  if (app.record === rec) {
    // Back to where the review ended.
    app.st = await api("GET", `sessions/${app.id}`).catch(() => app.st);
    rec.current = nodeOfBoard(rec, app.st);
  }
  renderRecordPanel();
  render();
}

function stopReview() {
  const r = app.review;
  if (!r || !r.running) return;
  r.stopping = true;
  api("POST", `sessions/${app.id}/stop`).catch(() => {});
}

function initRecords() {
  $("notation").value = notationChoice();
  $("notation").addEventListener("change", () => {
    try { localStorage.setItem(NOTATION_KEY, $("notation").value); } catch (e) { /* not kept */ }
    render();
  });
  $("open").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => {
    const f = $("file").files[0];
    $("file").value = "";
    openFile(f);
  });
  $("record-game").addEventListener("change", () => {
    const f = app.recordFile;
    if (f) openRecord(f.name, f.bytes, parseInt($("record-game").value, 10) || 0);
  });
  $("tree").addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-node]");
    if (el) gotoNode(parseInt(el.getAttribute("data-node"), 10));
  });
  $("graph").addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-ply]");
    const r = app.review;
    if (!el || !r) return;
    const ply = parseInt(el.getAttribute("data-ply"), 10);
    gotoNode(ply === 0 ? 0 : r.line[ply - 1]);
  });
  $("review").addEventListener("click", () => {
    if (app.review && app.review.running) stopReview();
    else startReview();
  });
  $("copy").addEventListener("click", () => copyOut(false));
  $("download").addEventListener("click", () => copyOut(true));
  document.addEventListener("keydown", (ev) => {
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (stepRecord(ev.key)) ev.preventDefault();
  });
  // Drag and drop a file anywhere on the page.
  let depth = 0;
  const hasFiles = (ev) => ev.dataTransfer && Array.from(ev.dataTransfer.types || []).includes("Files");
  document.addEventListener("dragenter", (ev) => {
    if (!hasFiles(ev)) return;
    depth += 1;
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove("dropping");
  });
  document.addEventListener("dragover", (ev) => {
    if (hasFiles(ev)) ev.preventDefault();
  });
  document.addEventListener("drop", (ev) => {
    depth = 0;
    document.body.classList.remove("dropping");
    if (!ev.dataTransfer || !ev.dataTransfer.files.length) return;
    ev.preventDefault();
    openFile(ev.dataTransfer.files[0]);
  });
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
  if (mode() === "record") return; // the engine waits (a review runs its own searches)
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
  if (app.review && app.review.running) stopReview();
  app.record = null;
  app.review = null;
  renderRecordPanel();
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

// Sets the board's position; a search the page did not know of yet (a retried `go`
// that the backend started meanwhile) is stopped first.
async function setBoardPosition(body) {
  try {
    return await api("POST", `sessions/${app.id}/position`, body);
  } catch (e) {
    if (e.status !== 409) throw e;
    app.st = await api("GET", `sessions/${app.id}`);
    await stopSearch();
    return api("POST", `sessions/${app.id}/position`, body);
  }
}

async function setPosition(body) {
  showError("");
  app.paused = false;
  app.generation += 1; // a `go` waiting to be retried is not sent
  try {
    await stopSearch();
    app.st = await setBoardPosition(body);
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
  if (app.review && app.review.running) return stopReview();
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
  renderRecordPanel();
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
    if (app.review && app.review.running) stopReview();
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
  initRecords();
  await newGame();
  renderRecordPanel();
}

window.jiangApp = app;
init();
