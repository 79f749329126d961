//! CECP, the XBoard/WinBoard protocol (version 2), selected by the command `xboard`.
//!
//! Unlike UCCI and UCI, a CECP engine keeps the game itself: `new` / `setboard` set it up,
//! `usermove` plays the opponent's moves, and the engine plays its own answers on its
//! board. The session keeps the position the game started from and the moves since, so
//! that `undo` and `remove` can take moves back.
//!
//! Xiangqi squares are ICCS with ranks 0-9 (on boards with exactly ten ranks XBoard counts
//! them from 0), so `h2e2` is the central cannon. `setboard` takes XBoard's Xiangqi FEN
//! (`rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1`: `H`/`E` for
//! horse and elephant, no castling or en-passant fields) as well as the usual one.
//!
//! The other games XBoard can show are announced in `variants=` and described to XBoard
//! after `variant NAME` with `setup (PIECES) WxH+0_fairy FEN` and `piece` commands (see
//! [`crate::game::XboardVariant`]); their squares are the usual `a1`-style ones.
//!
//! The search thread prints the engine's answer (`move M`, thinking lines); the session
//! plays that move on its board before it handles the next command (see
//! `ProtocolSession::cecp_absorb`). Searches that are abandoned (`force`, `new`, `result`,
//! `undo`, a move during analysis, `quit`) are cancelled without answering.

use super::output::{cecp_answer, cecp_thinking, send};
use super::{truncate, ProtocolSession, ENGINE_NAME};
use crate::common::MoveError;
use crate::engine::games;
use crate::engine::{Answer, Event, EventSink, MAX_HASH_MB, MAX_THREADS};
use crate::options::{OptionKind, OptionSpec};
use crate::request::SearchRequest;
use crate::xiangqi::fen::MAX_RULE60;
use std::sync::Arc;
use std::time::Duration;

/// The clock rules set by `level` or `st`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeControl {
    /// Nothing set: `time` alone, or the default thinking time.
    Unset,
    /// `level MPS BASE INC`: MPS moves (0 = the whole game) in BASE, INC added per move.
    Level {
        moves: u32,
        base: Duration,
        inc: Duration,
    },
    /// `st SECONDS`: a fixed time per move.
    PerMove(Duration),
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchKind {
    /// The engine's move in the game: it prints `move M`.
    Play,
    /// `analyze`: thinking lines only, until stopped.
    Analyze,
}

/// The CECP game and settings.
pub struct CecpState {
    /// The FEN of the last `setboard` (`None`: the game's start position after `new` or
    /// `variant`).
    base: Option<String>,
    /// The moves played since `base` (the engine's position is `base` plus these).
    moves: Vec<String>,
    /// The same moves as XBoard was told them (games that tell XBoard their moves in
    /// another form: see [`crate::game::Rules::xboard_moves`]).
    seen: Vec<String>,
    /// For the running game move: each legal move and how XBoard is told it (empty: as
    /// it is written).
    told: Arc<Vec<(String, String)>>,
    /// Force mode: play neither side.
    force: bool,
    /// The player the engine plays when not in force mode (0 = White/Red).
    engine_side: usize,
    /// Analyze mode.
    analyzing: bool,
    /// The running search, if any.
    search: Option<SearchKind>,
    /// `post`: print thinking lines while playing.
    post: bool,
    /// `hard`: pondering wanted (accepted; jiang does not ponder).
    ponder: bool,
    tc: TimeControl,
    /// `sd`: depth limit.
    depth: Option<i32>,
    /// `time`: the engine's clock.
    time: Option<Duration>,
    /// `otim`: the opponent's clock (informative).
    otim: Option<Duration>,
    /// The opponent offered a draw (`draw`) since our last move.
    draw_offered: bool,
}

impl Default for CecpState {
    fn default() -> Self {
        CecpState {
            base: None,
            moves: Vec::new(),
            seen: Vec::new(),
            told: Arc::new(Vec::new()),
            force: false,
            engine_side: 1,
            analyzing: false,
            search: None,
            post: false,
            ponder: false,
            tc: TimeControl::Unset,
            depth: None,
            time: None,
            otim: None,
            draw_offered: false,
        }
    }
}

/// The games XBoard can show: Xiangqi (which it knows) and the two-player games that
/// describe themselves with a `setup` (engine-defined variants, XBoard 4.8 and later).
pub fn xboard_variants() -> Vec<&'static str> {
    games::GAMES
        .iter()
        .filter(|g| g.xboard_native || g.xboard.is_some())
        .map(|g| g.name)
        .collect()
}

/// The features announced in answer to `protover 2`: one `feature option` line for each
/// option of `specs` (XBoard shows them in its engine settings dialog), then the others
/// on one line that ends with `done=1`.
pub fn features(specs: &[OptionSpec]) -> String {
    let mut lines: Vec<String> = specs
        .iter()
        .filter(|s| cecp_shows(s))
        .map(|s| format!("feature option=\"{}\"", cecp_option(s)))
        .collect();
    lines.push(format!(
        "feature myname=\"{ENGINE_NAME}\" variants=\"{}\" setboard=1 usermove=1 ping=1 \
         playother=1 sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 debug=1 done=1",
        xboard_variants().join(",")
    ));
    lines.join("\n")
}

/// Whether XBoard's option dialog shows an option: those XBoard sets with its own
/// commands (`memory`, `cores`, `variant`, `hard`/`easy`) are left out, and so is
/// `UCI_ShowWDL` (CECP's thinking lines have no place for it).
fn cecp_shows(spec: &OptionSpec) -> bool {
    const NOT_IN_CECP: [&str; 5] = ["Hash", "Threads", "UCI_Variant", "Ponder", "UCI_ShowWDL"];
    spec.shown.uci && !NOT_IN_CECP.contains(&spec.name)
}

/// An option as CECP's `feature option` writes it: `Contempt -spin 10 0 200`.
fn cecp_option(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Check { default } => format!("{} -check {}", spec.name, u8::from(default)),
        OptionKind::Spin { default, min, max } => {
            format!("{} -spin {default} {min} {max}", spec.name)
        }
        OptionKind::Combo { default, choices } => {
            let marked: Vec<String> = choices
                .iter()
                .map(|c| {
                    if *c == default {
                        format!("*{c}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!("{} -combo {}", spec.name, marked.join(" /// "))
        }
        OptionKind::Button => format!("{} -button", spec.name),
        OptionKind::Text { default } => format!("{} -string {default}", spec.name),
    }
}

/// Whether a word looks like a coordinate move (`h2e2`, `a10b9`, `d4d2c`), for telling
/// an illegal move from an unknown command.
fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 4
        && b.len() <= 7
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && w.chars().all(|c| c.is_ascii_alphanumeric())
}

/// The fullmove number of a FEN (1 when it has none).
fn fullmove_of(fen: &str) -> u32 {
    fen.split_whitespace()
        .nth(5)
        .and_then(|f| f.parse().ok())
        .unwrap_or(1)
}

/// Rewrites XBoard's Xiangqi FEN into one [`crate::xiangqi::Position::from_fen`] reads: XBoard leaves out
/// the castling and en-passant fields (`… b 0 1`) and may count the no-capture plies past
/// what the 60-move rule field allows. Piece letters are read as they are (`H`/`E` and
/// `N`/`B` both work).
pub fn normalize_fen(words: &[&str]) -> String {
    let mut out: Vec<String> = words.iter().take(2).map(|w| w.to_string()).collect();
    let mut rest = words.iter().skip(2).copied().peekable();
    // Drop the castling / en-passant placeholders XBoard may or may not write.
    let mut dashes = 0;
    while dashes < 2 && rest.peek() == Some(&"-") {
        rest.next();
        dashes += 1;
    }
    let counters: Vec<&str> = rest.collect();
    if out.len() == 2 && !counters.is_empty() {
        out.push("-".into());
        out.push("-".into());
        for (i, c) in counters.iter().enumerate() {
            match (i, c.parse::<u64>()) {
                (0, Ok(n)) => out.push(n.min(MAX_RULE60 as u64).to_string()),
                _ => out.push(c.to_string()),
            }
        }
    }
    out.join(" ")
}

/// Reads `level`'s BASE: minutes, or `minutes:seconds`, ignoring anything after that
/// (the protocol allows extensions like `25+5`).
fn parse_base(text: &str) -> Option<Duration> {
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.'))
        .unwrap_or(text.len());
    let text = &text[..end];
    if text.is_empty() {
        return None;
    }
    let (min, sec) = match text.split_once(':') {
        Some((m, s)) => (m, s),
        None => (text, "0"),
    };
    let min: f64 = if min.is_empty() {
        0.0
    } else {
        min.parse().ok()?
    };
    let sec: f64 = sec.parse().ok()?;
    seconds(min * 60.0 + sec)
}

/// A non-negative, finite number of seconds as a duration.
fn seconds(s: f64) -> Option<Duration> {
    (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s.min(1e9)))
}

/// Reads a clock in centiseconds; a negative one (a flag has fallen) counts as zero.
fn centiseconds(text: &str) -> Option<Duration> {
    let v: f64 = text.parse().ok()?;
    v.is_finite()
        .then(|| Duration::from_millis((v.max(0.0) * 10.0).min(1e12) as u64))
}

impl ProtocolSession {
    /// Enters CECP mode (`xboard`). Any search of another dialect is stopped first.
    pub(super) fn start_cecp(&mut self) {
        self.enter_dialect(super::output::Dialect::Cecp);
        self.engine.stop_and_wait();
        let _ = self.engine.take_outcome();
        self.cecp = CecpState::default();
        // Keep the position, but as a fresh start: `undo` cannot go behind it.
        let fen = self.engine.game().fen();
        if self.engine.set_position(Some(&fen), &[]).is_ok() {
            self.cecp.base = Some(fen);
        }
    }

    /// Handles one command in CECP mode. Returns false for the commands left to the
    /// common handler (the terminal commands and the other handshakes).
    pub(super) fn cecp_command(&mut self, cmd: &str, args: &[&str], line: &str) -> bool {
        self.cecp_absorb();
        let handled = self.cecp_dispatch(cmd, args, line);
        self.cecp_absorb();
        handled
    }

    fn cecp_dispatch(&mut self, cmd: &str, args: &[&str], line: &str) -> bool {
        let arg = args.first().copied();
        match cmd {
            "xboard" => {}
            "protover" => send(&features(&self.engine.option_specs(false))),
            // Replies to features and informational commands: nothing to do. (`random`
            // is GNU Chess's random-mode toggle, which XBoard sends at every game start
            // in its default init string: acting on it would make every game random.
            // Strength and variety come through the `feature option=` options instead.)
            "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "."
            | "hint" | "bk" => {}
            "post" => self.cecp.post = true,
            "nopost" => self.cecp.post = false,
            "hard" => self.cecp.ponder = true,
            "easy" => self.cecp.ponder = false,
            "new" => self.cecp_new(),
            "variant" => match arg {
                Some(v) => self.cecp_variant(v),
                None => send("Error (missing argument): variant"),
            },
            "setboard" => self.cecp_setboard(args),
            "usermove" => match arg {
                Some(m) => self.cecp_usermove(m),
                None => send("Error (missing argument): usermove"),
            },
            "go" => {
                self.cecp_cancel();
                self.cecp.analyzing = false;
                self.cecp.force = false;
                self.cecp.engine_side = self.engine.game().player_to_move();
                self.cecp_think();
            }
            "playother" => {
                self.cecp_cancel();
                self.cecp.force = false;
                self.cecp.engine_side = 1 - self.engine.game().player_to_move().min(1);
            }
            "force" => {
                if self.cecp.search == Some(SearchKind::Play) {
                    self.cecp_cancel();
                }
                self.cecp.force = true;
            }
            "level" => self.cecp_level(args, line),
            "st" => match arg.and_then(|s| s.parse::<f64>().ok()).and_then(seconds) {
                Some(d) => self.cecp.tc = TimeControl::PerMove(d),
                None => self.cecp_bad_argument(line),
            },
            "sd" => match arg.and_then(|s| s.parse::<i32>().ok()) {
                Some(d) => self.cecp.depth = Some(d.clamp(1, 1000)),
                None => self.cecp_bad_argument(line),
            },
            "time" | "otim" => match arg.and_then(centiseconds) {
                Some(d) if cmd == "time" => self.cecp.time = Some(d),
                Some(d) => self.cecp.otim = Some(d),
                None => self.cecp_bad_argument(line),
            },
            "ping" => {
                // A pending move goes out before the pong; an analysis goes on.
                if self.cecp.search == Some(SearchKind::Play) {
                    self.engine.wait();
                    self.cecp_absorb();
                }
                self.engine.wait_ready();
                send(&format!("pong {}", args.join(" ")));
            }
            "undo" => self.cecp_take_back(1, cmd),
            "remove" => self.cecp_take_back(2, cmd),
            "analyze" => {
                self.cecp.analyzing = true;
                self.cecp_analyze();
            }
            "exit" => {
                if self.cecp.analyzing {
                    self.cecp_cancel();
                    self.cecp.analyzing = false;
                }
            }
            "?" => {
                if self.cecp.search == Some(SearchKind::Play) {
                    self.engine.stop();
                }
            }
            "draw" => {
                self.cecp.draw_offered = true;
                if self.cecp.search == Some(SearchKind::Play) {
                    self.engine.offer_draw();
                }
            }
            "result" => {
                self.cecp_cancel();
                self.cecp.analyzing = false;
                self.cecp.force = true;
            }
            "quit" => {
                self.cecp_cancel();
                self.quit = true;
            }
            "memory" => match arg.and_then(|s| s.parse::<u64>().ok()) {
                Some(asked) => {
                    let mb = asked.clamp(1, MAX_HASH_MB as u64) as usize;
                    if mb != self.engine.settings.hash_mb {
                        self.set_engine_option("Hash", &asked.max(1).to_string());
                    }
                }
                None => self.cecp_bad_argument(line),
            },
            "cores" => match arg.and_then(|s| s.parse::<u64>().ok()) {
                Some(n) => {
                    let n = n.clamp(1, MAX_THREADS as u64);
                    self.set_engine_option("Threads", &n.to_string());
                }
                None => self.cecp_bad_argument(line),
            },
            // `egtpath TYPE PATH`: XBoard's way to hand over tablebase paths; jiang reads
            // its own tables, whatever TYPE says.
            "egtpath" => {
                let text = line.trim_start()["egtpath".len()..].trim();
                match text.split_once(char::is_whitespace) {
                    Some((_, path)) => self.set_engine_option("EgtbPath", path.trim()),
                    None => self.cecp_bad_argument(line),
                }
            }
            // `option NAME=VALUE` (a button: `option NAME`), for the options announced.
            "option" => {
                let text = line.trim_start()["option".len()..].trim();
                let (name, value) = text.split_once('=').unwrap_or((text, ""));
                self.set_engine_option(name.trim(), value.trim());
            }
            // Left to the common handler: the terminal commands and the other handshakes.
            "d" | "display" | "moves" | "eval" | "perft" | "bench" | "help" => return false,
            "uci" | "ucci" => {
                self.cecp_cancel();
                self.cecp.analyzing = false;
                return false;
            }
            _ if self.engine.game().check_move(cmd).is_ok() || looks_like_move(cmd) => {
                self.cecp_usermove(cmd)
            }
            _ => send(&format!(
                "Error (unknown command): {}",
                truncate(line.trim(), 60)
            )),
        }
        true
    }

    /// Collects a finished search: the engine's move, if it was printed, is played on the
    /// board.
    pub(super) fn cecp_absorb(&mut self) {
        self.engine.reap();
        if let Some(outcome) = self.engine.take_outcome() {
            let kind = self.cecp.search.take();
            if let (Some(SearchKind::Play), true, Some(m)) =
                (kind, outcome.answered, outcome.answer.best)
            {
                let shown = self
                    .cecp
                    .told
                    .iter()
                    .find(|(canonical, _)| *canonical == m)
                    .map_or(m.as_str(), |(_, text)| text.as_str())
                    .to_string();
                if let Err(e) = self.cecp_play(&shown) {
                    log::error!("the engine's move {m} is not legal on the CECP board: {e}");
                }
            }
        }
    }

    /// Stops any search without an answer (one already printed is played).
    fn cecp_cancel(&mut self) {
        self.engine.cancel();
        self.cecp_absorb();
    }

    fn cecp_bad_argument(&self, line: &str) {
        send(&format!(
            "Error (bad argument): {}",
            truncate(line.trim(), 60)
        ));
    }

    /// Plays a move on the game board if it is legal (`text` as XBoard has it).
    fn cecp_play(&mut self, text: &str) -> Result<(), MoveError> {
        let m = self.engine.play(text)?;
        self.cecp.moves.push(m);
        self.cecp.seen.push(text.to_string());
        Ok(())
    }

    /// Starts a new game record from `fen` (`None`: the start position); the FEN was
    /// checked, or the start position is used.
    fn cecp_set_game(&mut self, fen: Option<String>) {
        let fen = match self.engine.set_position(fen.as_deref(), &[]) {
            Ok(()) => fen,
            Err(e) => {
                log::error!("cannot set up the CECP game: {e}");
                let _ = self.engine.set_position(None, &[]);
                None
            }
        };
        self.cecp.base = fen;
        self.cecp.moves.clear();
        self.cecp.seen.clear();
    }

    /// `variant NAME`: switches the game and, for games XBoard does not know, describes
    /// it (`setup` and `piece` commands).
    fn cecp_variant(&mut self, name: &str) {
        if !xboard_variants().contains(&name) {
            send(&format!(
                "Error (unsupported variant): {}",
                truncate(name, 40)
            ));
            return;
        }
        self.cecp_cancel();
        if self.engine.variant() != name {
            if let Err(e) = self.engine.set_variant(name) {
                send(&format!(
                    "Error (unsupported variant): {}",
                    truncate(&e.to_string(), 60)
                ));
                return;
            }
        }
        if let Some(x) = self.engine.game().xboard() {
            send(&format!(
                "setup ({}) {} {}",
                x.pieces,
                x.board,
                self.engine.game().start_fen()
            ));
            for (id, betza) in x.betza {
                send(&format!("piece {id} {betza}"));
            }
        }
        self.cecp_set_game(None);
        self.cecp.draw_offered = false;
        if self.cecp.analyzing {
            self.cecp_analyze();
        }
    }

    fn cecp_new(&mut self) {
        self.cecp_cancel();
        self.cecp_set_game(None);
        self.cecp.force = false;
        self.cecp.engine_side = 1;
        self.cecp.depth = None;
        self.cecp.time = None;
        self.cecp.otim = None;
        self.cecp.draw_offered = false;
        self.engine.new_game();
        if self.cecp.analyzing {
            self.cecp_analyze();
        }
    }

    fn cecp_setboard(&mut self, args: &[&str]) {
        let fen = if self.engine.variant() == "xiangqi" {
            normalize_fen(args)
        } else {
            args.join(" ")
        };
        self.cecp_cancel();
        match self.engine.set_position(Some(&fen), &[]) {
            Ok(()) => {
                self.cecp_set_game(Some(fen));
                self.cecp.draw_offered = false;
                if self.cecp.analyzing {
                    self.cecp_analyze();
                }
            }
            Err(e) => send(&format!(
                "tellusererror Illegal position: {e} (previous position kept)"
            )),
        }
    }

    fn cecp_usermove(&mut self, text: &str) {
        if self.engine.game().check_move(text).is_err() {
            send(&format!("Illegal move: {}", truncate(text, 20)));
            return;
        }
        // A move during analysis restarts it; one while the engine thinks (the GUI should
        // not send it) cancels the thought.
        self.cecp_cancel();
        if self.cecp_play(text).is_err() {
            send(&format!("Illegal move: {}", truncate(text, 20)));
            return;
        }
        if self.cecp.analyzing {
            self.cecp_analyze();
        } else if !self.cecp.force && self.engine.game().player_to_move() == self.cecp.engine_side {
            self.cecp_think();
        }
    }

    fn cecp_take_back(&mut self, n: usize, cmd: &str) {
        if self.cecp.moves.len() < n {
            send(&format!("Error (command not legal now): {cmd}"));
            return;
        }
        self.cecp_cancel();
        let keep = self.cecp.moves.len() - n;
        let moves: Vec<&str> = self.cecp.moves[..keep].iter().map(String::as_str).collect();
        if let Err(e) = self.engine.set_position(self.cecp.base.as_deref(), &moves) {
            log::error!("cannot replay the CECP game: {e}");
        }
        self.cecp.moves.truncate(keep);
        self.cecp.seen.truncate(keep);
        if self.cecp.analyzing {
            self.cecp_analyze();
        }
    }

    fn cecp_level(&mut self, args: &[&str], line: &str) {
        let moves = args.first().and_then(|s| s.parse::<u32>().ok());
        let base = args.get(1).and_then(|s| parse_base(s));
        let inc = args
            .get(2)
            .and_then(|s| s.parse::<f64>().ok())
            .and_then(seconds);
        match (moves, base, inc) {
            (Some(moves), Some(base), Some(inc)) => {
                self.cecp.tc = TimeControl::Level { moves, base, inc };
            }
            _ => self.cecp_bad_argument(line),
        }
    }

    /// The limits of the engine's next move from the clock settings.
    fn cecp_go_command(&self) -> SearchRequest {
        let mut go = SearchRequest {
            depth: self.cecp.depth,
            draw_offered: self.cecp.draw_offered,
            ..SearchRequest::default()
        };
        match self.cecp.tc {
            TimeControl::Unset => go.clock.time_left = self.cecp.time,
            // XBoard runs a clock of `st` seconds for every move and flags it when it
            // runs out: unlike UCI's `movetime`, the overhead is kept back.
            TimeControl::PerMove(d) => {
                let kept = d.saturating_sub(self.engine.settings.move_overhead);
                go.clock.move_time = Some(kept.max(Duration::from_millis(1)));
            }
            TimeControl::Level { moves, base, inc } => {
                go.clock.time_left = self.cecp.time.or((base > Duration::ZERO).then_some(base));
                go.clock.increment = inc;
                if moves > 0 {
                    // Moves the side to move has made so far in this time control.
                    let fullmove = fullmove_of(&self.engine.game().fen());
                    let made = fullmove.saturating_sub(1) % moves;
                    go.clock.moves_to_go = Some(moves - made);
                }
            }
        }
        go
    }

    /// The sink of a CECP search: thinking lines (while playing only with `post`), notes
    /// as comments, and for a game move its `move` line and result claim.
    fn cecp_sink(&self, kind: SearchKind) -> EventSink {
        let show_thinking = kind == SearchKind::Analyze || self.cecp.post;
        let told = Arc::clone(&self.cecp.told);
        Arc::new(move |event: Event<'_>| match event {
            Event::Info(info) => {
                if show_thinking && info.multipv == 1 {
                    send(&cecp_thinking(info));
                }
            }
            Event::Note(msg) => send(&format!("# {msg}")),
            // CECP has no line for it.
            Event::CurrMove { .. } => {}
            Event::Answer(answer) => {
                if kind == SearchKind::Play {
                    let text = answer.best.as_ref().and_then(|best| {
                        told.iter()
                            .find(|(canonical, _)| canonical == best)
                            .map(|(_, text)| text.clone())
                    });
                    let shown = Answer {
                        best: text.or_else(|| answer.best.clone()),
                        ..answer.clone()
                    };
                    for line in cecp_answer(&shown) {
                        send(&line);
                    }
                }
            }
        })
    }

    /// Starts the engine's move, or claims the result when it has none.
    fn cecp_think(&mut self) {
        if self.engine.game().legal_moves().is_empty() {
            let claim = self
                .engine
                .game()
                .game_end()
                .map_or_else(|| "# no move to play".to_string(), |end| end.to_string());
            send(&claim);
            return;
        }
        let go = self.cecp_go_command();
        log::debug!("cecp go: {go:?} (opponent's clock {:?})", self.cecp.otim);
        self.cecp.told = Arc::new(
            self.engine
                .game()
                .xboard_moves(self.cecp.base.as_deref(), &self.cecp.seen),
        );
        let sink = self.cecp_sink(SearchKind::Play);
        self.engine.go(&go, sink);
        self.cecp.search = Some(SearchKind::Play);
        self.cecp.draw_offered = false;
    }

    /// (Re)starts the analysis of the current position.
    fn cecp_analyze(&mut self) {
        self.cecp_cancel();
        let go = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        let sink = self.cecp_sink(SearchKind::Analyze);
        self.engine.go(&go, sink);
        self.cecp.search = Some(SearchKind::Analyze);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn xboard_fens_are_read() {
        use crate::xiangqi::{Color, Position};
        let fen = normalize_fen(&w(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b 0 1",
        ));
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(
            pos.to_fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
        );
        let fen = normalize_fen(&w(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 200 7",
        ));
        assert!(fen.ends_with("w - - 119 7"), "{fen}");
        assert!(Position::from_fen(&fen).is_ok());
        assert_eq!(normalize_fen(&w("9/9 w")), "9/9 w");
    }

    #[test]
    fn level_and_clock_arguments() {
        assert_eq!(parse_base("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_base("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_base("25+5"), Some(Duration::from_secs(1500)));
        assert_eq!(parse_base("x"), None);
        assert_eq!(centiseconds("500"), Some(Duration::from_secs(5)));
        assert_eq!(centiseconds("-40"), Some(Duration::ZERO));
        assert_eq!(centiseconds("soon"), None);
    }

    #[test]
    fn st_keeps_the_move_overhead_back() {
        // XBoard flags a move that overruns `st`; UCI's `movetime` is spent in full.
        let mut session = ProtocolSession::new();
        session.cecp.tc = TimeControl::PerMove(Duration::from_secs(1));
        let overhead = session.engine.settings.move_overhead;
        assert!(overhead > Duration::ZERO);
        let go = session.cecp_go_command();
        assert_eq!(go.clock.move_time, Some(Duration::from_secs(1) - overhead));
        session.cecp.tc = TimeControl::PerMove(Duration::from_millis(1));
        assert_eq!(
            session.cecp_go_command().clock.move_time,
            Some(Duration::from_millis(1))
        );
    }

    #[test]
    fn features_end_with_done() {
        let spec = OptionSpec::new(
            "Contempt",
            OptionKind::Spin {
                default: 10,
                min: 0,
                max: 200,
            },
        );
        let f = features(&[spec]);
        assert!(f.starts_with("feature option=\"Contempt -spin 10 0 200\"\nfeature myname="));
        assert!(f.ends_with(" done=1"));
        assert!(f.contains("variants=\"xiangqi"));
        assert!(looks_like_move("h2e2") && looks_like_move("a10b9") && looks_like_move("d4d2c"));
        assert!(!looks_like_move("help") && !looks_like_move("e2") && !looks_like_move("h2-e2"));
        assert_eq!(fullmove_of("4k3/8/8/8/8/8/8/4K3 b - - 3 17"), 17);
    }
}
