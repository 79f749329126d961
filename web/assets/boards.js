// Board drawings for every game, as SVG. Each board returns {svg, center(sq)} where the
// SVG's clickable places carry data-sq (the square's name in jiang's notation) and
// center gives a square's middle, for marks and arrows.
(() => {
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

function esc(t) {
  return String(t).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

// Splits a move into [from, to, rest] for a game.
function splitMove(game, mv) {
  const re = game === "threechess"
    ? /^([BGR][A-H][1-4])([BGR][A-H][1-4])(.*)$/
    : /^([a-z]\d+)([a-z]\d+)(.*)$/;
  const m = re.exec(mv);
  return m ? [m[1], m[2], m[3]] : null;
}

// ---- FEN reading -------------------------------------------------------------------

// A rectangular board's pieces from the FEN's first field: {sq: letter}.
function readGridFen(fen, files, rankOf) {
  const rows = fen.split(" ")[0].split("/");
  const pieces = {};
  rows.forEach((row, i) => {
    let f = 0;
    const re = /(\d+)|([A-Za-z])/g;
    let m;
    while ((m = re.exec(row))) {
      if (m[1]) f += parseInt(m[1], 10);
      else {
        pieces[String.fromCharCode(97 + f) + rankOf(i)] = m[2];
        f += 1;
      }
    }
  });
  return pieces;
}

// ThreeChess: sections blue|green|red, each rank 4 first, pieces two letters (bP).
function readThreeFen(fen) {
  const sections = fen.split(" ")[0].split("|");
  const pieces = {};
  const names = ["B", "G", "R"];
  sections.forEach((sec, s) => {
    sec.split("/").forEach((row, i) => {
      const rank = 4 - i;
      let f = 0;
      const re = /(\d+)|([bgr][A-Z])/g;
      let m;
      while ((m = re.exec(row))) {
        if (m[1]) f += parseInt(m[1], 10);
        else {
          pieces[names[s] + "ABCDEFGH"[f] + rank] = m[2];
          f += 1;
        }
      }
    });
  });
  return pieces;
}

// ---- Xiangqi ------------------------------------------------------------------------

const XQ_CHARS = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
  // Jieqi's face-down pieces.
  X: "暗", x: "暗",
};

function xiangqiBoard(fen, flip) {
  const c = 60, m = 44, W = m * 2 + c * 8, H = m * 2 + c * 9;
  const pos = (f, r) => {
    const ff = flip ? 8 - f : f, rr = flip ? 9 - r : r;
    return [m + ff * c, m + (9 - rr) * c];
  };
  const center = (sq) => pos(sq.charCodeAt(0) - 97, parseInt(sq.slice(1), 10));
  let s = `<svg xmlns="${SVGNS}" viewBox="0 0 ${W} ${H}" class="board xiangqi">`;
  s += `<rect x="0" y="0" width="${W}" height="${H}" rx="8" fill="#e8c07a"/>`;
  s += `<rect x="${m - 6}" y="${m - 6}" width="${c * 8 + 12}" height="${c * 9 + 12}" fill="none" stroke="#5a3a12" stroke-width="3"/>`;
  const line = (a, b) => `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}"/>`;
  s += `<g stroke="#5a3a12" stroke-width="1.6">`;
  for (let r = 0; r <= 9; r++) s += line(pos(0, r), pos(8, r));
  for (let f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) s += line(pos(f, 0), pos(f, 9));
    else { s += line(pos(f, 0), pos(f, 4)); s += line(pos(f, 5), pos(f, 9)); }
  }
  // Palaces.
  s += line(pos(3, 0), pos(5, 2)) + line(pos(5, 0), pos(3, 2));
  s += line(pos(3, 7), pos(5, 9)) + line(pos(5, 7), pos(3, 9));
  s += `</g>`;
  const river = (pos(0, 4)[1] + pos(0, 5)[1]) / 2;
  s += `<text x="${m + c * 2}" y="${river}" class="river">楚 河</text>`;
  s += `<text x="${m + c * 6}" y="${river}" class="river">漢 界</text>`;
  // Click targets: every point.
  for (let f = 0; f <= 8; f++) {
    for (let r = 0; r <= 9; r++) {
      const [x, y] = pos(f, r);
      const sq = String.fromCharCode(97 + f) + r;
      s += `<circle cx="${x}" cy="${y}" r="${c / 2 - 1}" class="spot" data-sq="${sq}" fill="transparent"/>`;
    }
  }
  // Coordinates.
  for (let f = 0; f <= 8; f++) {
    const [x] = pos(f, 0);
    s += `<text x="${x}" y="${H - 8}" class="coord">${String.fromCharCode(97 + f)}</text>`;
  }
  for (let r = 0; r <= 9; r++) {
    const [, y] = pos(0, r);
    s += `<text x="12" y="${y + 5}" class="coord">${r}</text>`;
  }
  const pieces = readGridFen(fen, 9, (i) => 9 - i);
  let p = "";
  for (const sq in pieces) {
    const letter = pieces[sq];
    const [x, y] = center(sq);
    const red = letter === letter.toUpperCase();
    const hidden = letter === "x" || letter === "X";
    p += `<g class="piece${hidden ? " hidden" : ""}" data-sq="${sq}"><circle cx="${x}" cy="${y}" r="26" fill="${hidden ? "#8a6a3a" : "#f7e7c4"}" stroke="${red ? "#b01818" : "#222"}" stroke-width="3"/>`;
    p += `<circle cx="${x}" cy="${y}" r="21" fill="none" stroke="${red ? "#b01818" : "#222"}" stroke-width="1"/>`;
    p += `<text x="${x}" y="${y + 10}" class="xq-char" fill="${red ? "#b01818" : "#222"}">${XQ_CHARS[letter] || esc(letter)}</text></g>`;
  }
  return { svg: s, pieces: p, center, cell: c };
}

// ---- Chess-like boards (fairychess, baroque, microchess) ------------------------------

const GLYPHS = { K: "♚", Q: "♛", R: "♜", B: "♝", N: "♞", P: "♟" };
const PIECE_NAMES = {
  fairychess: { K: "King", R: "Rook", B: "Bishop", N: "Knight", S: "Squire", C: "Combatant" },
  baroque: { K: "King", P: "Pincer pawn", W: "Withdrawer", L: "Long leaper", C: "Coordinator", I: "Imitator", F: "Immobilizer" },
  microchess: { K: "King", R: "Rook" },
};

function chessBoard(game, fen, flip) {
  const rows = fen.split(" ")[0].split("/");
  const ranks = rows.length;
  let files = 0;
  rows[0].replace(/(\d+)|([A-Za-z])/g, (all, d) => { files += d ? parseInt(d, 10) : 1; });
  const c = Math.floor(560 / Math.max(files, ranks)), m = 28;
  const W = m * 2 + c * files, H = m * 2 + c * ranks;
  const pos = (f, r) => {
    const ff = flip ? files - 1 - f : f, rr = flip ? ranks - 1 - r : r;
    return [m + ff * c + c / 2, m + (ranks - 1 - rr) * c + c / 2];
  };
  const center = (sq) => pos(sq.charCodeAt(0) - 97, parseInt(sq.slice(1), 10) - 1);
  let s = `<svg xmlns="${SVGNS}" viewBox="0 0 ${W} ${H}" class="board chess">`;
  s += `<rect width="${W}" height="${H}" fill="#3b3024" rx="6"/>`;
  for (let f = 0; f < files; f++) {
    for (let r = 0; r < ranks; r++) {
      const [x, y] = pos(f, r);
      const sq = String.fromCharCode(97 + f) + (r + 1);
      const dark = (f + r) % 2 === 0;
      s += `<rect x="${x - c / 2}" y="${y - c / 2}" width="${c}" height="${c}" fill="${dark ? "#b58863" : "#f0d9b5"}" class="spot" data-sq="${sq}"/>`;
    }
  }
  for (let f = 0; f < files; f++) {
    const [x] = pos(f, 0);
    s += `<text x="${x}" y="${H - 8}" class="coord light">${String.fromCharCode(97 + f)}</text>`;
  }
  for (let r = 0; r < ranks; r++) {
    const [, y] = pos(0, r);
    s += `<text x="13" y="${y + 5}" class="coord light">${r + 1}</text>`;
  }
  const pieces = readGridFen(fen, files, (i) => ranks - i);
  const names = PIECE_NAMES[game] || {};
  let p = "";
  for (const sq in pieces) {
    const letter = pieces[sq];
    const up = letter.toUpperCase();
    const white = letter === up;
    const [x, y] = center(sq);
    const title = `<title>${esc((white ? "White " : "Black ") + (names[up] || up))}</title>`;
    const glyph = game === "baroque" && up !== "K" && up !== "P" ? null : GLYPHS[up];
    if (glyph) {
      p += `<g class="piece" data-sq="${sq}">${title}<text x="${x}" y="${y + c * 0.3}" class="glyph" style="font-size:${c * 0.85}px" fill="${white ? "#fff" : "#111"}" stroke="${white ? "#111" : "#eee"}" stroke-width="${white ? 1.2 : 0.6}">${glyph}</text></g>`;
    } else {
      p += `<g class="piece" data-sq="${sq}">${title}<circle cx="${x}" cy="${y}" r="${c * 0.38}" fill="${white ? "#fff" : "#111"}" stroke="${white ? "#111" : "#ddd"}" stroke-width="2"/>`;
      p += `<text x="${x}" y="${y + c * 0.14}" class="letter" style="font-size:${c * 0.4}px" fill="${white ? "#111" : "#fff"}">${esc(up)}</text></g>`;
    }
  }
  return { svg: s, pieces: p, center, cell: c };
}

// ---- ThreeChess ---------------------------------------------------------------------

const THREE_COLOURS = { b: "#2f6fdf", g: "#2a9d4b", r: "#d33a2c" };
const THREE_TINTS = [["#cfe0ff", "#7d9fd9"], ["#d3f0d8", "#78b487"], ["#ffd8d2", "#d9897d"]];

// Three sections of 4x8 squares on a hexagon, as the reference draws it: each section's
// back rank is one edge, its files A-D and E-H two quadrilaterals meeting in the centre.
function threeBoard(fen, seat) {
  const R = 315, cx = 370, cy = 350, W = 740, H = 700;
  const rot = (seat || 0) * 120;
  const V = (deg) => {
    const a = ((deg + rot) * Math.PI) / 180;
    return [cx + R * Math.cos(a), cy - R * Math.sin(a)];
  };
  const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const O = [cx, cy];
  const bil = (q, u, v) => {
    const [c00, c10, c11, c01] = q;
    return [0, 1].map((k) =>
      (1 - u) * (1 - v) * c00[k] + u * (1 - v) * c10[k] + u * v * c11[k] + (1 - u) * v * c01[k]);
  };
  const quads = (s) => {
    const a = 240 - 120 * s;
    const VA = V(a), VH = V(a + 60);
    const M = mid(VA, VH), MA = mid(V(a - 60), VA), MH = mid(VH, V(a + 120));
    return [[VA, M, O, MA], [M, VH, MH, O]];
  };
  const cell = (sq) => {
    const s = "BGR".indexOf(sq[0]), f = sq.charCodeAt(1) - 65, r = parseInt(sq[2], 10);
    const q = quads(s)[f < 4 ? 0 : 1];
    const u0 = (f % 4) / 4, u1 = (f % 4 + 1) / 4, v0 = (r - 1) / 4, v1 = r / 4;
    return [bil(q, u0, v0), bil(q, u1, v0), bil(q, u1, v1), bil(q, u0, v1)];
  };
  const center = (sq) => {
    const pts = cell(sq);
    return [0, 1].map((k) => pts.reduce((t, p) => t + p[k], 0) / 4);
  };
  let s = `<svg xmlns="${SVGNS}" viewBox="0 0 ${W} ${H}" class="board three">`;
  s += `<rect width="${W}" height="${H}" fill="#2e2a26" rx="8"/>`;
  ["B", "G", "R"].forEach((sec, si) => {
    for (let f = 0; f < 8; f++) {
      for (let r = 1; r <= 4; r++) {
        const sq = sec + "ABCDEFGH"[f] + r;
        const pts = cell(sq).map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ");
        const tint = THREE_TINTS[si][(f + r) % 2];
        s += `<polygon points="${pts}" fill="${tint}" stroke="#333" stroke-width="0.6" class="spot" data-sq="${sq}"><title>${sq}</title></polygon>`;
      }
    }
    // The section's name beyond its back rank, and its file letters along it.
    const a = 240 - 120 * si;
    const back = mid(V(a), V(a + 60));
    const away = (p, d) => {
      const dx = p[0] - cx, dy = p[1] - cy, n = Math.hypot(dx, dy) || 1;
      return [p[0] + (dx / n) * d, p[1] + (dy / n) * d];
    };
    const name = away(back, 34);
    s += `<text x="${name[0]}" y="${name[1] + 5}" class="coord light" fill="${Object.values(THREE_COLOURS)[si]}">${["Blue", "Green", "Red"][si]}</text>`;
    for (let f = 0; f < 8; f++) {
      const q = cell(sec + "ABCDEFGH"[f] + 1);
      const edge = away(mid(q[0], q[1]), 10);
      s += `<text x="${edge[0]}" y="${edge[1] + 4}" class="coord small light">${"ABCDEFGH"[f]}</text>`;
    }
  });
  const pieces = readThreeFen(fen);
  let p = "";
  for (const sq in pieces) {
    const code = pieces[sq];
    const [x, y] = center(sq);
    p += `<g class="piece" data-sq="${sq}"><title>${sq}</title><text x="${x}" y="${y + 10}" class="glyph" style="font-size:34px" fill="${THREE_COLOURS[code[0]]}" stroke="#111" stroke-width="0.8">${GLYPHS[code[1]] || esc(code[1])}</text></g>`;
  }
  return { svg: s, pieces: p, center, cell: 38 };
}

// The board of `game` at `fen`, seen from player `seat` (0: the first player).
function drawBoard(game, fen, seat) {
  // Jieqi is Xiangqi's board with face-down pieces (x, X).
  if (game === "xiangqi" || game === "jieqi") return xiangqiBoard(fen, seat === 1);
  if (game === "threechess") return threeBoard(fen, seat);
  return chessBoard(game, fen, seat === 1);
}

window.Boards = { drawBoard, splitMove, esc };
})();
