//! The protocol front end: reads commands from stdin, speaks UCCI, UCI or CECP (chosen by
//! the first handshake: `ucci`, `uci` or `xboard`), and offers terminal commands (`d`,
//! `help`, `moves`, `eval`, `result`, `perft`, `bench`, `variant`) in every mode.
//!
//! The main thread reads input; searches run on their own thread (see [`Engine`]), so
//! `isready`, `stop` and `ponderhit` are answered while thinking. The engine reports
//! through events; this layer turns them into each dialect's lines.

pub mod cecp;
pub mod input;
pub mod output;
pub mod parse;

use crate::bench;
use crate::engine::{games, Engine, EngineError, Event, EventSink, OptionNote};
use crate::options::{normalize, OptionError, OptionKind, OptionSpec, OptionValue, Shown};
use crate::perft::PerftReport;
use output::{format_bestmove, format_info, info_string, send, Dialect};
use parse::{parse_go, parse_position, parse_setoption};
use std::io::BufRead;
use std::sync::Arc;

/// The `help` text.
pub const HELP: &str = "\
jiang - a Xiangqi (Chinese chess) engine that also plays fairychess, microchess, baroque and
threechess (whichever of them this build lists under 'variant').
Xiangqi coordinates: files a-i, ranks 0-9 from Red's side, moves like h2e2.

Protocols (chosen by the first command):
  ucci                 UCCI 3.0 (ElephantEye-style GUIs; Xiangqi only)
  uci                  UCI as Pikafish speaks it (ranks 0-9); other games with
                       setoption name UCI_Variant value NAME
  xboard               CECP, the XBoard/WinBoard protocol version 2 (ranks 0-9)

Commands:
  variant [NAME]       show or switch the game (start position, hash cleared)
  position startpos|fen FEN [moves M...]   set the position (FEN after the last capture + moves)
  go [depth D|nodes N|movetime MS|infinite|wtime T ...]   search and answer 'bestmove' (plain go: 5 s)
  stop                 answer at once            isready    -> readyok
  banmoves M...        (UCCI) forbid root moves  setoption  set an option (see 'uci'/'ucci')
  d                    draw the board            moves      list the legal moves
  eval                 evaluation breakdown      perft D    count leaf nodes (divide)
  result               is the game over, and why (mate, king capture, repetition, move limits)
  bench [D [hce|nnue]] Xiangqi search benchmark  help       this text
  quit                 exit";

/// Engine name, version and build as announced (`id name`): `jiang 0.1.0
/// dev-YYYYMMDD-commit`, the form players quote in bug reports (the build script stamps
/// it; see build.rs).
pub const ENGINE_NAME: &str = concat!("jiang ", env!("JIANG_VERSION"));

/// What `jiang --version` prints: [`ENGINE_NAME`] and the network the binary carries
/// (`jiang 0.1.0 dev-20261201-abc1234, network nn-6332b2e6a7ea`).
pub fn version_line() -> String {
    format!(
        "{ENGINE_NAME}, network {}",
        crate::xiangqi::nnue::EMBEDDED_ID
    )
}

/// Author line.
pub const AUTHOR: &str = "the jiang developers";

/// The options that only change how this layer speaks (their owner declares them here).
const PROTOCOL_OPTIONS: &[OptionSpec] = &[
    OptionSpec::new("usemillisec", OptionKind::Check { default: true }).shown(Shown::UCCI),
    OptionSpec::new("batch", OptionKind::Check { default: false }).shown(Shown::UCCI),
    OptionSpec::new("debug", OptionKind::Check { default: false }).shown(Shown::UCCI),
    OptionSpec::new("Ponder", OptionKind::Check { default: false }),
    OptionSpec::new(
        "idle",
        OptionKind::Combo {
            default: "none",
            // UCCI's effort names, as `knowledge`/`pruning` (accepted for GUIs: jiang
            // never searches while idle).
            choices: crate::search::skill::EFFORTS,
        },
    )
    .shown(Shown::UCCI),
    OptionSpec::new("newgame", OptionKind::Button).shown(Shown::UCCI),
];

/// Other UCCI options GUIs send, accepted without effect (normalised names).
const ACCEPTED_WITHOUT_EFFECT: &[&str] = &[
    "style",
    "promotion",
    "useegtb",
    "evalapi",
    "loadbook",
    "usehash",
];

/// One conversation with a GUI or a person over standard input and output: the engine,
/// the dialect spoken (terminal, UCCI, UCI, CECP) and its modes.
pub struct ProtocolSession {
    engine: Engine,
    dialect: Dialect,
    /// A `go` was issued since the last `position` (for UCCI's idle `stop`).
    go_since_position: bool,
    /// UCCI batch mode: finish each search before reading on.
    batch: bool,
    /// `quit` was received.
    quit: bool,
    /// UCCI `usemillisec`: times in milliseconds (true) or seconds.
    use_millisec: bool,
    /// The game CECP keeps (XBoard mode).
    cecp: cecp::CecpState,
}

impl Default for ProtocolSession {
    fn default() -> Self {
        Self::new()
    }
}

impl ProtocolSession {
    /// A fresh session in terminal mode.
    pub fn new() -> ProtocolSession {
        ProtocolSession {
            engine: Engine::new(),
            dialect: Dialect::Terminal,
            go_since_position: false,
            batch: false,
            quit: false,
            use_millisec: true,
            cecp: cecp::CecpState::default(),
        }
    }

    /// Whether `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Reports a problem with the input: `info string` in protocol mode, plain text for a
    /// person at a terminal.
    fn complain(&self, msg: &str) {
        match self.dialect {
            Dialect::Terminal => send(&format!("error: {msg}")),
            // A CECP debug comment: XBoard logs it and otherwise ignores it.
            Dialect::Cecp => send(&format!("# {msg}")),
            _ => info_string(msg),
        }
    }

    /// Tells the user about an option: `info string` (a comment in CECP).
    fn tell(&self, msg: &str) {
        match self.dialect {
            Dialect::Cecp => send(&format!("# {msg}")),
            _ => info_string(msg),
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return;
        };
        if self.dialect == Dialect::Cecp && self.cecp_command(cmd, args, line) {
            return;
        }
        match cmd {
            "xboard" => self.start_cecp(),
            "uci" => self.handshake_uci(),
            "ucci" => self.handshake_ucci(),
            "isready" => {
                // Ready means a `go` now is answered without first building anything.
                self.engine.wait_ready();
                send("readyok");
            }
            // The raw text after the word: values keep their spacing (paths).
            "setoption" => self.set_option(text_after(line, cmd)),
            "ucinewgame" | "uccinewgame" => {
                self.engine.new_game();
            }
            "position" => self.position(args),
            // Cyclone dialect of UCI: position lines without the word `position`.
            "fen" | "startpos" => self.position(&words),
            "banmoves" => self.banmoves(args),
            "go" => self.go(args),
            "stop" => {
                if self.engine.stop() {
                    self.engine.stop_and_wait();
                } else if self.dialect == Dialect::Ucci && !self.go_since_position {
                    send("nobestmove");
                }
            }
            "ponderhit" => self.engine.ponderhit(args.first() == Some(&"draw")),
            "quit" | "exit" => {
                self.engine.stop_and_wait();
                if self.dialect == Dialect::Ucci {
                    send("bye");
                }
                self.quit = true;
            }
            "probe" => self.probe(args),
            "d" | "display" => send(&self.engine.game().diagram()),
            "moves" => {
                let moves = self.engine.game().legal_moves();
                send(&format!("{} legal moves: {}", moves.len(), moves.join(" ")));
            }
            "eval" => send(&self.engine.game().eval_report()),
            "result" => send(&match self.engine.game().game_end() {
                Some(end) => end.to_string(),
                None => "* {game not over}".to_string(),
            }),
            "variant" => self.variant_command(args),
            "perft" => self.perft(args.first().copied(), &args[args.len().min(1)..]),
            "bench" => self.bench(args),
            "help" | "?" => send(HELP),
            _ => self.complain(&format!(
                "unknown command '{}', type 'help' for the list",
                truncate(cmd, 40)
            )),
        }
    }

    /// A handshake of another dialect starts a new conversation: a search still running
    /// from the old one is cancelled without its answer, since its lines would come in the
    /// old dialect's format (found by the protocol fuzzer: seed 0x6c6f6e672014, sessions
    /// 99 and 1149).
    pub(super) fn enter_dialect(&mut self, dialect: Dialect) {
        if self.dialect != dialect {
            self.engine.cancel();
        }
        self.dialect = dialect;
    }

    fn handshake_uci(&mut self) {
        self.enter_dialect(Dialect::Uci);
        send(&format!("id name {ENGINE_NAME}"));
        send(&format!("id author {AUTHOR}"));
        for spec in self.option_table(false) {
            send(&spec.uci_line());
        }
        send("uciok");
    }

    fn handshake_ucci(&mut self) {
        self.enter_dialect(Dialect::Ucci);
        if self.engine.variant() != "xiangqi" {
            // UCCI is a Xiangqi protocol.
            let _ = self.engine.set_variant("xiangqi");
            info_string("UCCI plays Xiangqi only: switched to xiangqi");
        }
        send(&format!("id name {ENGINE_NAME}"));
        send("id copyright 2026 the jiang developers");
        send(&format!("id author {AUTHOR}"));
        send("id user jiang users");
        for spec in self.option_table(true) {
            send(&spec.ucci_line());
        }
        send("ucciok");
    }

    /// Every option a handshake lists: this layer's own (UCI's or UCCI's), then the
    /// engine's and the games'.
    fn option_table(&self, ucci: bool) -> Vec<OptionSpec> {
        let mine =
            PROTOCOL_OPTIONS
                .iter()
                .copied()
                .filter(|s| if ucci { s.shown.ucci } else { s.shown.uci });
        mine.chain(self.engine.option_specs(ucci)).collect()
    }

    /// Whether `name` (any dialect's spelling) is an option this session knows.
    fn knows_option(&self, name: &str) -> bool {
        let key = normalize(name);
        matches!(key.as_str(), "ucivariant" | "variant")
            || ACCEPTED_WITHOUT_EFFECT.contains(&key.as_str())
            || [false, true]
                .iter()
                .any(|&ucci| self.option_table(ucci).iter().any(|s| s.matches(name)))
    }

    fn set_option(&mut self, text: &str) {
        let Some((name, value)) = parse_setoption(text, |n| self.knows_option(n)) else {
            self.complain("setoption needs an option name");
            return;
        };
        let value = value.trim();
        // `setoption name variant value NAME` as well as UCI_Variant; UCCI refuses a game
        // other than Xiangqi.
        if matches!(normalize(&name).as_str(), "ucivariant" | "variant") {
            self.select_variant(value);
            return;
        }
        if let Some(spec) = crate::options::find(PROTOCOL_OPTIONS, &name) {
            match spec.parse(value) {
                Ok(parsed) => self.set_protocol_option(spec, &parsed.value),
                Err(e) => info_string(&e.to_string()),
            }
            return;
        }
        if ACCEPTED_WITHOUT_EFFECT.contains(&normalize(&name).as_str()) {
            info_string(&format!(
                "option {name} accepted; it has no effect in this version"
            ));
            return;
        }
        self.set_engine_option(&name, value);
    }

    /// Sets an engine or game option and tells the user what they should know.
    pub(super) fn set_engine_option(&mut self, name: &str, value: &str) {
        match self.engine.set_option(name, value) {
            Ok(None) => {}
            Ok(Some(OptionNote::Clamped { asked, used })) => {
                self.tell(&format!("{name} {asked} is out of range, using {used}"))
            }
            Ok(Some(OptionNote::OtherGames { name, games })) => self.tell(&format!(
                "{name} applies to {}, not {}; kept for when it is played",
                games.join(", "),
                self.engine.variant()
            )),
            Ok(Some(OptionNote::PlaysAs { level, elo })) => self.tell(&match elo {
                Some(elo) => format!("playing at Skill Level {level} (Elo {elo} on jiang's ladder)"),
                None => "playing at full strength".to_string(),
            }),
            Ok(Some(OptionNote::HashCapped { asked, used })) => self.complain(&format!(
                "hash {asked} MiB is out of range (more than this machine can give); using {used} MiB"
            )),
            Ok(Some(OptionNote::Tablebases { loaded, refused })) => {
                for (path, reason) in &refused {
                    self.complain(&truncate(
                        &format!("tablebase {path} refused: {reason}"),
                        200,
                    ));
                }
                self.tell(&truncate(
                    &match loaded.len() {
                        0 => "tablebases: none loaded".to_string(),
                        n => format!("tablebases: {n} loaded ({})", loaded.join(" ")),
                    },
                    200,
                ));
            }
            Err(EngineError::Option(OptionError::Unknown { .. })) => {
                self.tell(&format!("unknown option '{}' ignored", truncate(name, 40)))
            }
            Err(e) => self.tell(&truncate(&e.to_string(), 200)),
        }
    }

    /// Applies one of [`PROTOCOL_OPTIONS`].
    fn set_protocol_option(&mut self, spec: &OptionSpec, value: &OptionValue) {
        match spec.name {
            "usemillisec" => self.use_millisec = value.as_bool(),
            "batch" => self.batch = value.as_bool(),
            "newgame" => self.engine.new_game(),
            // Ponder: the GUI may send `go ponder`, which needs no setting.
            "Ponder" => {}
            other => info_string(&format!(
                "option {other} accepted; it has no effect in this version"
            )),
        }
    }

    /// `variant NAME` at the terminal (and in CECP, see `cecp.rs`): lists the games
    /// without a name.
    fn variant_command(&mut self, args: &[&str]) {
        match args {
            [] => send(&format!(
                "variant {} (jiang plays {})",
                self.engine.variant(),
                games::VARIANTS.join(", ")
            )),
            [name] => self.select_variant(name),
            _ => self.complain("variant takes one name"),
        }
    }

    /// Switches the game (start position, cleared hash). UCCI is Xiangqi-only.
    fn select_variant(&mut self, name: &str) {
        if self.dialect == Dialect::Ucci && !name.eq_ignore_ascii_case("xiangqi") {
            self.complain(&format!(
                "UCCI plays Xiangqi only; use UCI (uci, then setoption name UCI_Variant value {})",
                truncate(name, 20)
            ));
            return;
        }
        match self.engine.set_variant(name) {
            Ok(()) => {
                self.go_since_position = false;
                if self.dialect == Dialect::Terminal {
                    send(&format!("variant {}", self.engine.variant()));
                }
            }
            Err(e) => self.complain(&format!(
                "{} (game unchanged)",
                truncate(&e.to_string(), 200)
            )),
        }
    }

    fn position(&mut self, args: &[&str]) {
        // UCCI plays Xiangqi only; in UCI (and at the terminal) a FEN of Jieqi sent while
        // Xiangqi is played switches the game, since JieqiBox never sends UCI_Variant.
        let may_switch = matches!(self.dialect, Dialect::Uci | Dialect::Terminal);
        let result = parse_position(args)
            .map_err(|e| e.to_string())
            .and_then(|p| {
                let (fen, moves) = (p.fen.as_deref(), p.move_texts());
                if may_switch {
                    self.engine.set_position_or_switch(fen, &moves)
                } else {
                    self.engine.set_position(fen, &moves).map(|()| None)
                }
                .map_err(|e| format!("{e} ({})", self.engine.variant()))
            });
        match result {
            Ok(None) => self.go_since_position = false,
            Ok(Some(game)) => {
                self.go_since_position = false;
                self.tell(&format!(
                    "the FEN is one of {game}: playing {game} (as with setoption name UCI_Variant value {game})"
                ));
            }
            Err(e) => self.complain(&format!(
                "position refused, previous one kept: {}",
                truncate(&e, 300)
            )),
        }
    }

    fn banmoves(&mut self, args: &[&str]) {
        for e in self.engine.ban_moves(args) {
            self.complain(&format!("banmoves: {}", truncate(&e.to_string(), 100)));
        }
    }

    /// The sink that prints a search's events in this session's dialect (the terminal
    /// gets UCI's lines).
    fn sink(&self) -> EventSink {
        let dialect = match self.dialect {
            Dialect::Terminal => Dialect::Uci,
            d => d,
        };
        let show_wdl = self.engine.settings.show_wdl;
        Arc::new(move |event: Event<'_>| match event {
            Event::Info(info) => {
                for line in format_info(dialect, info, show_wdl) {
                    send(&line);
                }
            }
            Event::Note(msg) => info_string(msg),
            Event::CurrMove { depth, mv, number } => {
                if dialect == Dialect::Uci {
                    send(&format!(
                        "info depth {depth} currmove {mv} currmovenumber {number}"
                    ));
                }
            }
            Event::Answer(answer) => send(&format_bestmove(dialect, answer)),
        })
    }

    fn go(&mut self, args: &[&str]) {
        let game = self.engine.game();
        let keys = game
            .clock_keys()
            .get(game.player_to_move())
            .copied()
            .unwrap_or(("wtime", "winc"));
        let unit = if self.dialect == Dialect::Ucci && !self.use_millisec {
            1000
        } else {
            1
        };
        let (go, warnings) = parse_go(args, keys, unit);
        for w in &warnings {
            self.complain(&format!("go: {w}"));
        }
        if let Some(d) = go.perft {
            self.perft(Some(&d.to_string()), &[]);
            return;
        }
        self.go_since_position = true;
        if go.depth == Some(0) && self.dialect == Dialect::Ucci {
            // UCCI: depth 0 asks only for the static evaluation.
            self.engine.stop_and_wait();
            let eval = self.engine.game().static_eval().unwrap_or(0);
            send(&format!("info depth 0 score {}", output::ucci_score(eval)));
            send("nobestmove");
            return;
        }
        let mut go = go;
        if go.depth == Some(0) {
            go.depth = Some(1);
        }
        let sink = self.sink();
        self.engine.go(&go, sink);
        if self.batch {
            self.engine.wait();
        }
    }

    fn probe(&mut self, args: &[&str]) {
        let command = if args.is_empty() {
            None
        } else {
            match parse_position(args) {
                Ok(p) => Some(p),
                Err(e) => {
                    self.complain(&format!("probe: {e}"));
                    return;
                }
            }
        };
        let texts = command.as_ref().map(|p| p.move_texts()).unwrap_or_default();
        let setup = command.as_ref().map(|p| (p.fen.as_deref(), &texts[..]));
        match self.engine.probe(setup) {
            Ok(entry) => {
                let mut line = "pophash".to_string();
                if let Some(e) = entry {
                    if let Some(m) = e.best {
                        line.push_str(&format!(" bestmove {m}"));
                    }
                    let v = output::ucci_score(e.score);
                    use crate::tt::Bound;
                    if matches!(e.bound, Bound::Lower | Bound::Exact) {
                        line.push_str(&format!(" lowerbound {v} depth {}", e.depth));
                    }
                    if matches!(e.bound, Bound::Upper | Bound::Exact) {
                        line.push_str(&format!(" upperbound {v} depth {}", e.depth));
                    }
                }
                send(&line);
            }
            Err(e) => self.complain(&format!("probe: {}", truncate(&e.to_string(), 200))),
        }
    }

    fn perft(&mut self, depth: Option<&str>, fen: &[&str]) {
        let Some(depth) = depth
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| *d <= 12)
        else {
            self.complain("perft needs a depth from 0 to 12");
            return;
        };
        let fen = (!fen.is_empty()).then(|| fen.join(" "));
        match self.engine.perft(depth, fen.as_deref()) {
            Ok(report) => {
                for line in perft_lines(&report) {
                    send(&line);
                }
            }
            Err(e) => self.complain(&format!("perft: {}", truncate(&e.to_string(), 200))),
        }
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first().map(|d| d.parse::<i32>()) {
            None => bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            _ => {
                self.complain("bench takes a depth from 1 to 30");
                return;
            }
        };
        // The evaluation named (`bench D hce|nnue`, as from the shell), else the one the
        // engine plays Xiangqi with now (`UseNNUE`).
        let use_network = match args.get(1) {
            None => self
                .engine
                .game_option("UseNNUE")
                .map_or(crate::xiangqi::nnue::DEFAULT_ENABLED, |v| v == "true"),
            Some(name) => match crate::xiangqi::nnue::Evaluation::named(name) {
                Some(evaluation) => evaluation.uses_network(),
                None => {
                    self.complain(&format!("bench: unknown evaluation '{name}' (hce or nnue)"));
                    return;
                }
            },
        };
        self.engine.stop_and_wait();
        for line in bench_report(depth, use_network, &mut |l| log::info!("{l}")) {
            send(&line);
        }
    }
}

/// The lines of a perft report: `move: count` per root move, then the total and speed.
pub fn perft_lines(r: &PerftReport) -> Vec<String> {
    let mut lines: Vec<String> = r.divide.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {}", r.nodes));
    lines.push(format!(
        "Time: {} ms, {} nodes per second",
        r.elapsed.as_millis(),
        r.nps()
    ));
    lines
}

/// Runs the bench and returns the summary lines; per-position lines go to `progress`.
pub fn bench_report(depth: i32, use_network: bool, progress: &mut dyn FnMut(&str)) -> Vec<String> {
    let r = bench::run(depth, use_network, progress);
    vec![
        format!(
            "Positions       : {} at depth {depth}",
            bench::POSITIONS.len()
        ),
        format!("Total time (ms) : {}", r.ms),
        format!("Nodes searched  : {}", r.nodes),
        format!("Nodes/second    : {}", r.nps()),
        format!("Bench: {} nodes {} nps", r.nodes, r.nps()),
    ]
}

/// The text of `line` after its word `word` (a slice of it), untouched.
fn text_after<'a>(line: &'a str, word: &str) -> &'a str {
    let end = (word.as_ptr() as usize).saturating_sub(line.as_ptr() as usize) + word.len();
    line.get(end..).unwrap_or("")
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

/// Reads commands from stdin until `quit` or end of input.
pub fn run() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut session = ProtocolSession::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                log::error!("reading stdin: {e}");
                break;
            }
        }
        // UTF-8, or on Windows the ANSI code page; anything else is replaced, not fatal.
        let line = input::decode_line(&buf);
        log::debug!("<< {}", line.trim_end());
        session.handle_line(&line);
        if session.quit_requested() {
            return;
        }
    }
    session.engine.finish();
}
