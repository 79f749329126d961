//! The engine facade behind the protocols: the game being played (any of
//! [`crate::games::VARIANTS`]), the options, the transposition table and the search thread.
//!
//! It is protocol-free: searches report through an [`EventSink`] the protocol supplies
//! ([`Event::Info`] progress, [`Event::Note`] messages, [`Event::Answer`] the final move),
//! and commands return data or one-line errors. How any of it is printed is the
//! protocol's business (`crate::protocol`).

pub mod microchess;
pub mod session;

use crate::game::GameEnd;
use crate::games;
use crate::perft::PerftReport;
use crate::search::{Score, ScoreBound, SearchControl};
use crate::time::{self, Clock, TimeSettings};
use crate::tt::TranspositionTable;
pub use session::{GameSession, ProbeReport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Default hash size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash size a protocol may ask for, in MiB (1 TiB). What is actually used is
/// also capped by the memory the machine has available (see [`Engine::set_hash`]).
/// Making a table costs no time whatever its size (see `crate::tt`).
pub const MAX_HASH_MB: usize = 1 << 20;
/// Tables up to this size are emptied in place; larger ones are replaced by fresh memory
/// (emptying 4 GiB in place would hold the input thread for a second or more).
const CLEAR_IN_PLACE_MB: usize = 64;
/// Part of the available memory a hash table may take, in percent: the rest is left to
/// the process (search stacks, histories) and to the machine.
const HASH_SHARE_OF_AVAILABLE: usize = 80;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines accepted.
pub const MAX_MULTIPV: usize = 64;
/// Default contempt (see [`Options::contempt`]).
pub const DEFAULT_CONTEMPT: i32 = 10;
/// How long a plain `go` (no limit given) thinks.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// User-settable options (every dialect maps onto these).
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// The GUI may send `go ponder` (only affects nothing else yet).
    pub ponder: bool,
    /// UCCI: times in milliseconds (true) or seconds.
    pub use_millisec: bool,
    /// Per-move overhead allowance.
    pub move_overhead: Duration,
    /// Longest any timed move may take.
    pub max_move_time: Duration,
    /// How much worse than 0 a draw by rule counts for the engine (evaluation units; a
    /// Xiangqi horse is about 400): a little above 0 makes it play on instead of repeating.
    pub contempt: i32,
    /// Lines to search and report (UCI MultiPV).
    pub multipv: usize,
    /// Whether the search applies the repetition judge (perpetual check and chase lose);
    /// off, every repetition is a draw. On by default; off only to measure the judge.
    pub repetition_judge: bool,
    /// The rule set asked for (`Rules` option; Xiangqi: `asian` or `alphachess`), applied
    /// to every game that has it; `None`: each game's default.
    pub rules: Option<String>,
    /// ThreeChess: how much the root prefers moves that weak opponents are likely to
    /// answer by leaving a king en prise (see `threechess::search::ThreeLimits::fallibility`).
    pub three_fallibility: i32,
}

impl Default for Options {
    fn default() -> Self {
        let t = TimeSettings::default();
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            ponder: false,
            use_millisec: true,
            move_overhead: t.move_overhead,
            max_move_time: t.max_move_time,
            contempt: DEFAULT_CONTEMPT,
            multipv: 1,
            repetition_judge: true,
            rules: None,
            three_fallibility: crate::threechess::search::DEFAULT_FALLIBILITY,
        }
    }
}

/// The limits of a `go` command, as every protocol parses them (times already as
/// durations, the clock of the side to move picked out).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// `ponder`: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// `draw` (UCCI): the opponent offers a draw.
    pub draw_offered: bool,
    /// `depth D`.
    pub depth: Option<i32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// Our remaining time (`time`, or `wtime`/`btime` for the side to move).
    pub time_left: Option<Duration>,
    /// Our increment.
    pub increment: Option<Duration>,
    /// `movestogo`.
    pub moves_to_go: Option<u32>,
    /// `movetime`.
    pub move_time: Option<Duration>,
    /// `searchmoves …` (UCI), as text.
    pub search_moves: Vec<String>,
    /// `perft D`: run perft instead of a search.
    pub perft: Option<u32>,
    /// Keywords or numbers that could not be understood (reported, not fatal).
    pub warnings: Vec<String>,
}

impl GoCommand {
    /// Whether the command sets no limit at all (plain `go`).
    pub fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && !self.infinite
            && self.time_left.is_none()
            && self.move_time.is_none()
            && self.perft.is_none()
    }
}

/// One progress report of a search, game-independent (moves as text).
#[derive(Clone, Debug)]
pub struct InfoReport {
    /// Completed (or current, for bound updates) iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score of the line, from the side to move's view.
    pub score: Score,
    /// Internal score value.
    pub raw_score: i32,
    /// Whether the score is a bound.
    pub bound: ScoreBound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// TT fill, per mille.
    pub hashfull: u32,
    /// Which line this is (1 = best), for MultiPV.
    pub multipv: usize,
    /// Principal variation, in the game's notation.
    pub pv: Vec<String>,
    /// Games with more than two players: each player's evaluation (name, score).
    pub player_scores: Vec<(&'static str, i32)>,
}

/// The final answer of a search, game-independent.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// The move to play; `None` only when there is none.
    pub best: Option<String>,
    /// The expected reply.
    pub ponder: Option<String>,
    /// Score of the best move (internal units, side to move's view).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Offer (or accept the opponent's offer of) a draw with this move.
    pub offer_draw: bool,
    /// The end of the game if `best` is played and leaves the opponent without a move.
    pub end_after: Option<GameEnd>,
    /// Without a move: why the game is over.
    pub end_now: Option<GameEnd>,
}

/// What a search reports to the protocol.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A progress report.
    Info(&'a InfoReport),
    /// A message for the user (e.g. a `searchmoves` entry that is not legal).
    Note(&'a str),
    /// The final answer. Sent once, unless the search was cancelled first.
    Answer(&'a Answer),
}

/// Receives a search's events, on the search thread.
pub type EventSink = Arc<dyn Fn(Event<'_>) + Send + Sync>;

/// What a search is asked to do (besides the clock, which the engine turns into
/// deadlines).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Maximum depth.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Until `stop`.
    pub infinite: bool,
    /// Only these root moves (text; checked by the game).
    pub search_moves: Vec<String>,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Contempt for draws.
    pub contempt: i32,
    /// Judge repetitions (perpetual check/chase).
    pub judge_repetitions: bool,
    /// The opponent offers a draw (may be set while the search runs).
    pub draw_offered: Arc<AtomicBool>,
    /// ThreeChess: [`Options::three_fallibility`].
    pub three_fallibility: i32,
}

/// How a finished search ended, kept until the protocol collects it (CECP keeps the game
/// itself and must play the engine's own move on its board).
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// What the search answered.
    pub answer: Answer,
    /// Whether the answer was delivered to the sink; false when the search was cancelled
    /// before it answered.
    pub answered: bool,
}

/// The search thread delivers its answer only while the gate is open;
/// [`Engine::cancel`] closes it. Whether the answer went out is decided under the lock,
/// so the protocol always knows whether the GUI saw a move.
#[derive(Default)]
struct AnswerGate {
    closed: bool,
    answered: bool,
}

struct RunningSearch {
    control: Arc<SearchControl>,
    infinite: bool,
    draw_offered: Arc<AtomicBool>,
    gate: Arc<Mutex<AnswerGate>>,
    handle: JoinHandle<SearchOutcome>,
}

/// The engine state.
pub struct Engine {
    game: Box<dyn GameSession>,
    /// Options.
    pub options: Options,
    tt: Arc<TranspositionTable>,
    /// Whether a search has used the table since it was last emptied.
    tt_used: bool,
    search: Option<RunningSearch>,
    /// The outcome of the last search joined, until [`Engine::take_outcome`].
    outcome: Option<SearchOutcome>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine playing Xiangqi from the start position, default options.
    pub fn new() -> Engine {
        let engine = Engine {
            game: games::new_session(games::DEFAULT_VARIANT)
                .expect("the default variant is in the game list"),
            options: Options::default(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            tt_used: false,
            search: None,
            outcome: None,
        };
        engine.fault_in();
        engine
    }

    /// The game being played.
    pub fn variant(&self) -> &'static str {
        self.game.name()
    }

    /// The game being played.
    pub fn game(&self) -> &dyn GameSession {
        self.game.as_ref()
    }

    /// Waits until the game can answer a `go` at once (see [`GameSession::wait_ready`]).
    pub fn wait_ready(&self) {
        self.game.wait_ready();
    }

    /// Switches to another game (or restarts this one) at its start position, with a
    /// cleared hash table. An unknown name changes nothing.
    pub fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let Some(game) = games::new_session(name) else {
            return Err(format!(
                "unknown variant '{name}' (jiang plays {})",
                games::VARIANTS.join(", ")
            ));
        };
        self.stop_and_wait();
        self.game = game;
        if let Some(r) = &self.options.rules {
            if self
                .game
                .rule_sets()
                .iter()
                .any(|k| k.eq_ignore_ascii_case(r))
            {
                let _ = self.game.set_rule_set(r);
            }
        }
        self.empty_tt();
        Ok(())
    }

    /// Plays by the rule set called `name` (for the games that have it, now and after
    /// switching games). The hash is cleared: scores depend on the rules.
    pub fn set_rules(&mut self, name: &str) -> Result<(), String> {
        self.stop_and_wait();
        self.game.set_rule_set(name)?;
        self.options.rules = Some(name.to_ascii_lowercase());
        self.empty_tt();
        Ok(())
    }

    /// Empties the hash table (no search may be running): nothing to do if no search has
    /// used it; small tables are emptied in place, large ones by swapping in fresh memory
    /// and freeing the old on a thread of its own, so the input thread never waits for
    /// gigabytes to be written or unmapped.
    fn empty_tt(&mut self) {
        if !self.tt_used {
            return;
        }
        self.tt_used = false;
        if self.tt.size_mb() <= CLEAR_IN_PLACE_MB {
            self.tt.clear();
            return;
        }
        match self.tt.fresh() {
            Some(fresh) => {
                let old = std::mem::replace(&mut self.tt, Arc::new(fresh));
                let freed = std::thread::Builder::new()
                    .name("tt-free".into())
                    .spawn(move || drop(old));
                if let Err(e) = freed {
                    // The closure (and with it the old table) was dropped here instead.
                    log::warn!("cannot start a thread to free the old table: {e}");
                }
            }
            None => self.tt.clear(),
        }
    }

    /// Writes a new small table once, so that its memory is in place before the first
    /// search: a new table costs nothing to make (the kernel zeroes its pages when they
    /// are first touched), but then the first search pays for it, 2 MiB per huge page,
    /// between two of its clock checks. Measured on the loaded 2-core machine, the first
    /// `go movetime 50` of a process took 150-200 ms; written here (about 30 ms for the
    /// default 64 MiB), 25-35 ms. Large tables stay lazy: writing gigabytes would hold
    /// the input thread, or make a clamped absurd size resident at once.
    fn fault_in(&self) {
        if self.tt.size_mb() <= CLEAR_IN_PLACE_MB {
            self.tt.clear();
        }
    }

    /// Sets up a position of the current game (start position when `fen` is `None`)
    /// and plays `moves`. All or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.game.set_position(fen, moves)
    }

    /// Plays a legal move on the game's board; returns it in canonical notation.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        self.game.play(text)
    }

    /// Bans root moves for the next searches until the position changes (UCCI
    /// `banmoves`). Returns the problems with the moves that are not legal here.
    pub fn ban_moves(&mut self, texts: &[&str]) -> Vec<String> {
        let mut ok = Vec::new();
        let mut errors = Vec::new();
        for t in texts {
            match self.game.check_move(t) {
                Ok(m) => ok.push(m),
                Err(e) => errors.push(e),
            }
        }
        self.game.set_banned(&ok);
        errors
    }

    /// perft with divide of the current position or of `fen`.
    pub fn perft(&mut self, depth: u32, fen: Option<&str>) -> Result<PerftReport, String> {
        self.stop_and_wait();
        self.game.perft(depth, fen)
    }

    /// The hash entry of the current position, or of `fen` + `moves`.
    pub fn probe(
        &self,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, String> {
        self.game.probe(&self.tt, setup)
    }

    /// Joins a search thread and keeps its outcome.
    fn join(&mut self, s: RunningSearch) {
        match s.handle.join() {
            Ok(outcome) => self.outcome = Some(outcome),
            Err(_) => log::error!("search thread panicked"),
        }
    }

    /// The outcome of the last finished (joined) search, once.
    pub fn take_outcome(&mut self) -> Option<SearchOutcome> {
        self.outcome.take()
    }

    /// Stops a running search without letting it answer (unless it already has) and waits
    /// for it; its outcome says whether the answer went out.
    pub fn cancel(&mut self) {
        if let Some(s) = &self.search {
            s.gate.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        }
        self.stop_and_wait();
    }

    /// Joins the search thread if it has finished or has delivered its answer (its
    /// outcome is kept). A GUI may react to the answer before the thread has ended; after
    /// `reap` every answer delivered so far has an outcome to collect.
    pub fn reap(&mut self) {
        let answered = |s: &RunningSearch| {
            // The thread delivers and marks the answer under the lock: taking it waits
            // for an answer being delivered.
            s.gate.lock().unwrap_or_else(|e| e.into_inner()).answered
        };
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.handle.is_finished() || answered(s))
        {
            self.wait();
        }
    }

    /// The opponent offers a draw during the search (it is answered with the move).
    pub fn offer_draw(&mut self) {
        if let Some(s) = &self.search {
            s.draw_offered.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.handle.is_finished())
    }

    /// Stops a running search (its thread delivers the best move) and waits for it.
    pub fn stop_and_wait(&mut self) {
        if let Some(s) = self.search.take() {
            s.control.stop();
            self.join(s);
        }
    }

    /// At the end of input: a search that ends by itself (a limit or the clock) is
    /// allowed to answer, so `echo "go depth 9" | jiang` works; an infinite or ponder
    /// search is stopped.
    pub fn finish(&mut self) {
        if let Some(s) = &self.search {
            if s.infinite || s.control.pondering() {
                s.control.stop();
            }
        }
        self.wait();
    }

    /// Waits for a running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(s) = self.search.take() {
            self.join(s);
        }
    }

    /// Asks a running search to stop, without waiting. Returns whether one was running.
    pub fn stop(&mut self) -> bool {
        match &self.search {
            Some(s) if !s.handle.is_finished() => {
                s.control.stop();
                true
            }
            _ => false,
        }
    }

    /// The opponent played the ponder move: start the clock (and note a draw offer).
    pub fn ponderhit(&mut self, draw: bool) {
        if let Some(s) = &self.search {
            if draw {
                s.draw_offered.store(true, Ordering::Relaxed);
            }
            s.control.ponderhit();
        }
    }

    /// A new game: clears the transposition table and the move-ordering memory.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.empty_tt();
        self.game.new_game();
    }

    /// Resizes the transposition table to `mb` MiB, or to the most this machine can give
    /// (a share of its available memory). Returns the size in use, or an error (the old
    /// table kept) when no memory can be had at all. Takes no time whatever the size.
    pub fn set_hash(&mut self, mb: usize) -> Result<usize, String> {
        self.stop_and_wait();
        let mut want = mb.clamp(1, MAX_HASH_MB);
        if let Some(avail) = crate::tt::available_mb() {
            let cap = (avail / 100 * HASH_SHARE_OF_AVAILABLE).max(1);
            want = want.min(cap);
        }
        // Free the old table first: it may be what stands between us and the new one.
        let old_mb = self.tt.size_mb();
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt_used = false;
        let mut size = want;
        loop {
            if let Some(tt) = TranspositionTable::try_new(size) {
                self.tt = Arc::new(tt);
                self.options.hash_mb = size;
                self.fault_in();
                return Ok(size);
            }
            if size <= 1 {
                break;
            }
            size /= 2;
        }
        self.tt = Arc::new(
            TranspositionTable::try_new(old_mb.max(1))
                .unwrap_or_else(|| TranspositionTable::new(1)),
        );
        self.fault_in();
        Err(format!(
            "no memory for a hash table of {mb} MiB; using {} MiB",
            self.tt.size_mb()
        ))
    }

    /// Clears the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        self.empty_tt();
    }

    /// The shared transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    fn time_settings(&self) -> TimeSettings {
        TimeSettings {
            max_move_time: self.options.max_move_time,
            move_overhead: self.options.move_overhead,
        }
    }

    /// Starts a search of the current position in the background. Its events go to
    /// `sink` on the search thread; the last is the [`Event::Answer`] (not sent if the
    /// search is cancelled first).
    pub fn go(&mut self, go: &GoCommand, sink: EventSink) {
        self.stop_and_wait();
        self.tt_used = true;
        let settings = self.time_settings();
        let clock = Clock {
            time_left: go.time_left,
            increment: go.increment.unwrap_or_default(),
            moves_to_go: go.moves_to_go,
            move_time: go.move_time.or(if go.has_no_limit() {
                Some(DEFAULT_MOVE_TIME)
            } else {
                None
            }),
        };
        let (soft, hard) = if go.infinite {
            (None, None)
        } else if let Some(b) = self.game.budget(&clock, &settings) {
            (b.soft, Some(b.hard))
        } else {
            // Depth or node limits: still never longer than the cap.
            (None, Some(time::hard_cap(&settings)))
        };
        let control = Arc::new(SearchControl::new(soft, hard, go.ponder));
        let draw_offered = Arc::new(AtomicBool::new(go.draw_offered));
        let request = SearchRequest {
            depth: go.depth,
            nodes: go.nodes,
            infinite: go.infinite,
            search_moves: go.search_moves.clone(),
            threads: self.options.threads,
            multipv: self.options.multipv,
            contempt: self.options.contempt,
            judge_repetitions: self.options.repetition_judge,
            draw_offered: Arc::clone(&draw_offered),
            three_fallibility: self.options.three_fallibility,
        };
        let job = self.game.search_job(
            request,
            Arc::clone(&self.tt),
            Arc::clone(&control),
            Arc::clone(&sink),
        );
        let gate = Arc::new(Mutex::new(AnswerGate::default()));
        let thread_gate = Arc::clone(&gate);
        let thread_sink = Arc::clone(&sink);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let answer = job();
                let mut gate = thread_gate.lock().unwrap_or_else(|e| e.into_inner());
                if !gate.closed {
                    thread_sink(Event::Answer(&answer));
                    gate.answered = true;
                }
                SearchOutcome {
                    answer,
                    answered: gate.answered,
                }
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch {
                    control,
                    infinite: go.infinite,
                    draw_offered,
                    gate,
                    handle,
                })
            }
            Err(e) => {
                // Never leave a `go` unanswered: fall back to a quick answer here.
                log::error!("cannot start the search thread: {e}");
                let answer = self.game.fallback_answer();
                sink(Event::Answer(&answer));
                self.outcome = Some(SearchOutcome {
                    answer,
                    answered: true,
                });
            }
        }
    }
}
