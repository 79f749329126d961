// The page's languages: every string the page shows, one table per language, and the
// choice of language (the `lang` query parameter, else the one chosen on the page before,
// else the browser's: Chinese for any zh-*, English otherwise).
(() => {
"use strict";

const STRINGS = {
  en: {
    title: "jiang — web board",
    game: "Game",
    mode: "Mode",
    mode_play: "Play against jiang",
    mode_watch: "Watch jiang play itself",
    mode_analysis: "Analysis",
    you_play: "You play",
    movetime: "Time per move",
    strength: "Strength",
    skill_full: "full",
    skill_level: "level {n}",
    hash: "Engine memory",
    language: "Language",
    new_game: "New game",
    take_back: "Take back",
    stop: "Stop",
    go_on: "Go on",
    eval_title: "evaluation, first player's view",
    loading: "Loading…",
    loading_engine: "Loading the engine…",
    loading_network: "Downloading the network ({kb} KB, once)…",
    moves: "Moves",
    engine: "Engine",
    position: "Position",
    set_fen: "Set FEN",
    set_moves: "Set as move list",
    set_moves_title: "moves from the start, separated by spaces (ThreeChess: its move list)",
    backend_server: "engine: jiang-web server",
    backend_local: "engine: in this browser",
    backend_local_hce: "engine: in this browser (no network: hand-written evaluation)",
    game_over: "Game over",
    to_move: "{player} to move",
    to_move_you: "{player} to move (you)",
    thinking: "{player} to move — jiang is thinking…",
    stopped: "{player} to move — stopped",
    no_legal_move: "no legal move",
    tb_win: "Tablebase {table}: {player} to move wins, mate in {plies} {unit}",
    tb_loss: "Tablebase {table}: {player} to move loses, mated in {plies} {unit}",
    ply: "ply",
    plies: "plies",
    tb_draw: "Tablebase {table}: a draw with best play",
    which_move: "Which move?",
    busy: "the engine is busy; waiting…",
    search_failed: "search failed: {why}",
    connection_lost: "connection lost",
    bad_answer: "bad answer from the server",
    no_engine: "no engine: {why}",
    wins: "{player} wins",
    draw: "draw",
    mode_record: "Game record",
    notation: "Notation",
    record: "Game record",
    open_file: "Open file…",
    open_title: "a game record: PGN (ICCS, WXF or Chinese moves), XQF, CBR, CBL, CBF, DhtmlXQ/UBB or FEN; or drop a file on the page",
    drop_here: "Drop a game record here",
    record_bad: "cannot open {name}: {why}",
    record_loaded: "{name} ({format}): {moves} moves",
    record_warnings: "{n} problem(s) in the file:",
    record_game: "Game",
    record_needs_xiangqi: "game records and reviews are for Xiangqi",
    review: "Review",
    review_stop: "Stop review",
    review_time: "per position",
    reviewing: "Reviewing: position {i} of {n}…",
    review_done: "Reviewed: {n} moves at {ms} ms a position",
    review_stopped: "Review stopped: {n} moves reviewed",
    review_none: "no moves to review",
    summary_side: "{player}: accuracy {acc}% · {i} ?! · {m} ? · {b} ??",
    marks_help: "?! inaccuracy (10 % of the winning chances lost), ? mistake (20 %), ?? blunder (30 %)",
    node_score: "jiang {score} (Red's view)",
    node_best: "best {move} ({score})",
    node_loss: "{p} % of the winning chances lost",
    graph_title: "Red's winning chances (jiang's WDL model); click to go to a move",
    deciding: "deciding",
    copy_what: "Copy or save",
    copy: "Copy",
    download: "Download",
    copied: "copied",
    copy_failed: "the browser refused the clipboard; use Download",
    fmt_fen: "Position (FEN)",
    fmt_pgn: "PGN, ICCS moves",
    fmt_pgn_wxf: "PGN, WXF moves",
    fmt_pgn_chinese: "PGN, Chinese moves",
    fmt_dhtmlxq: "DhtmlXQ (UBB)",
    players: {},
    games: {},
    reasons: [],
  },
  zh: {
    title: "jiang 将 — 网页棋盘",
    game: "棋种",
    mode: "模式",
    mode_play: "与 jiang 对弈",
    mode_watch: "观看 jiang 自弈",
    mode_analysis: "分析",
    you_play: "我执",
    movetime: "每步用时",
    strength: "棋力",
    skill_full: "全力",
    skill_level: "{n} 级",
    hash: "引擎内存",
    language: "语言",
    new_game: "新局",
    take_back: "悔棋",
    stop: "停止",
    go_on: "继续",
    eval_title: "局面评分（先手方视角）",
    loading: "加载中…",
    loading_engine: "正在加载引擎…",
    loading_network: "正在下载神经网络（{kb} KB，仅此一次）…",
    moves: "着法",
    engine: "引擎",
    position: "局面",
    set_fen: "设置 FEN",
    set_moves: "按着法列表设置",
    set_moves_title: "从开局起的着法，以空格分隔（三人国际象棋：其着法列表）",
    backend_server: "引擎：jiang-web 服务器",
    backend_local: "引擎：在本浏览器中运行",
    backend_local_hce: "引擎：在本浏览器中运行（无神经网络：手写评估）",
    game_over: "对局结束",
    to_move: "轮到{player}走棋",
    to_move_you: "轮到{player}走棋（您）",
    thinking: "轮到{player}走棋 — jiang 正在思考…",
    stopped: "轮到{player}走棋 — 已停止",
    no_legal_move: "无合法着法",
    tb_win: "残局库 {table}：{player}先行胜，{plies}步（半回合）杀",
    tb_loss: "残局库 {table}：{player}先行负，{plies}步（半回合）被杀",
    tb_draw: "残局库 {table}：双方正确应对为和棋",
    ply: "步",
    plies: "步",
    which_move: "走哪一步？",
    busy: "引擎忙，请稍候…",
    search_failed: "搜索失败：{why}",
    connection_lost: "连接中断",
    bad_answer: "服务器应答有误",
    no_engine: "没有引擎：{why}",
    wins: "{player}胜",
    draw: "和棋",
    mode_record: "棋谱",
    notation: "记谱",
    record: "棋谱",
    open_file: "打开棋谱…",
    open_title: "棋谱文件：PGN（ICCS、WXF 或中文记谱）、XQF、CBR、CBL、CBF、DhtmlXQ/UBB 或 FEN；也可将文件拖放到页面上",
    drop_here: "将棋谱文件拖放到此处",
    record_bad: "无法打开 {name}：{why}",
    record_loaded: "{name}（{format}）：{moves} 步",
    record_warnings: "文件中有 {n} 处问题：",
    record_game: "对局",
    record_needs_xiangqi: "棋谱和复盘仅适用于中国象棋",
    review: "复盘分析",
    review_stop: "停止复盘",
    review_time: "每个局面",
    reviewing: "复盘中：第 {i} / {n} 个局面…",
    review_done: "复盘完成：{n} 步，每个局面 {ms} 毫秒",
    review_stopped: "复盘已停止：已分析 {n} 步",
    review_none: "没有可复盘的着法",
    summary_side: "{player}：准确率 {acc}% · 疑问手 {i} · 错着 {m} · 败着 {b}",
    marks_help: "?! 疑问手（胜率损失 10%），? 错着（20%），?? 败着（30%）",
    node_score: "jiang 评分 {score}（红方视角）",
    node_best: "最佳着法 {move}（{score}）",
    node_loss: "胜率损失 {p}%",
    graph_title: "红方胜率（jiang 的胜和负模型）；点击跳到该步",
    deciding: "关键",
    copy_what: "复制或保存",
    copy: "复制",
    download: "下载",
    copied: "已复制",
    copy_failed: "浏览器拒绝访问剪贴板，请用“下载”",
    fmt_fen: "局面（FEN）",
    fmt_pgn: "PGN（ICCS 着法）",
    fmt_pgn_wxf: "PGN（WXF 着法）",
    fmt_pgn_chinese: "PGN（中文记谱）",
    fmt_dhtmlxq: "DhtmlXQ（UBB）",
    players: { red: "红方", black: "黑方", white: "白方", blue: "蓝方", green: "绿方" },
    games: {
      xiangqi: "中国象棋",
      jieqi: "揭棋",
      microchess: "微型国际象棋",
      fairychess: "仙棋（fairychess）",
      baroque: "巴洛克棋（Baroque）",
      threechess: "三人国际象棋",
    },
    // The engine's reasons for the end of a game, in Chinese where the page knows them
    // (Xiangqi's); others are shown as the engine words them.
    reasons: [
      [/^(\w+) mates$/, "{1}将死对方"],
      [/^(\w+) has no legal move$/, "{1}困毙（无子可动）"],
      [/^(\w+) checks perpetually$/, "{1}长将判负"],
      [/^(\w+) chases perpetually$/, "{1}长捉判负"],
      [/^draw by repetition$/, "循环重复，和棋"],
      [/^draw by the 60-move rule/, "六十回合自然限着，和棋"],
      [/^draw: neither side can mate$/, "双方均无杀棋子力，和棋"],
    ],
  },
};

const LANGS = { en: "English", zh: "简体中文" };
const STORE_KEY = "jiang-lang";

function fromBrowser() {
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const p of prefs) {
    const base = String(p).toLowerCase().split("-")[0];
    if (base in STRINGS) return base;
  }
  return "en";
}

function initial() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && q in STRINGS) return q;
  try {
    const kept = localStorage.getItem(STORE_KEY);
    if (kept && kept in STRINGS) return kept;
  } catch (e) { /* storage may be off */ }
  return fromBrowser();
}

let lang = initial();

// The string `key` in the page's language (English if the table lacks it), with {name}
// replaced by params.name.
function t(key, params) {
  let s = STRINGS[lang][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) s = key;
  return String(s).replace(/\{(\w+)\}/g, (all, k) => (params && k in params ? params[k] : all));
}

// A player's name ("red") as the page shows it.
function player(name) {
  const own = STRINGS[lang].players[name];
  return own || name.charAt(0).toUpperCase() + name.slice(1);
}

// A game's name ("xiangqi") as the page shows it.
function gameName(name) {
  return STRINGS[lang].games[name] || name;
}

// The engine's reason for a game's end, in the page's language where known.
function reason(text) {
  for (const [re, out] of STRINGS[lang].reasons) {
    const m = re.exec(text);
    if (m) return out.replace(/\{(\d)\}/g, (a, i) => player(String(m[i]).toLowerCase()));
  }
  return text;
}

// Fills every element marked data-i18n (text), data-i18n-title (tooltip).
function apply() {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  document.title = t("title");
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.getAttribute("data-i18n"), { n: el.getAttribute("data-n") });
  }
  for (const el of document.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.getAttribute("data-i18n-title"));
  }
}

function setLang(l) {
  if (!(l in STRINGS)) return;
  lang = l;
  try { localStorage.setItem(STORE_KEY, l); } catch (e) { /* storage may be off */ }
  apply();
}

window.I18n = { t, player, gameName, reason, apply, setLang, lang: () => lang, LANGS, STRINGS };
})();
