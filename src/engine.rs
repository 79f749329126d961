//! The engine behind the protocols: the game position, options, the transposition table
//! and the search thread. Protocol-free apart from the output dialect it formats with.

use crate::protocol::output::{self, format_bestmove, format_info, Dialect};
use crate::protocol::parse::GoCommand;
use crate::search::{self, Limits, SearchControl, SearchResult, SearchState};
use crate::time::{self, Clock, TimeSettings};
use crate::tt::TranspositionTable;
use crate::xiangqi::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Default hash size in MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash size accepted, in MiB (as ElephantEye). The table is allocated and
/// zeroed at once on the input thread, so a larger one would block the protocol for many
/// seconds (16 GiB: ~50 s) or exhaust memory when a GUI sends a huge value.
pub const MAX_HASH_MB: usize = 1024;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines accepted.
pub const MAX_MULTIPV: usize = 64;
/// Default contempt (see [`Options::contempt`]).
pub const DEFAULT_CONTEMPT: i32 = 10;
/// How long a plain `go` (no limit given) thinks.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// User-settable options (both dialects map onto these).
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
    /// horse is about 400): a little above 0 makes it play on instead of repeating.
    pub contempt: i32,
    /// Lines to search and report (UCI MultiPV).
    pub multipv: usize,
    /// Whether the search applies the repetition judge (perpetual check and chase lose);
    /// off, every repetition is a draw. On by default; off only to measure the judge.
    pub repetition_judge: bool,
    /// Print progress reports of searches that are not infinite (CECP `post`/`nopost`;
    /// always on for UCCI and UCI).
    pub show_thinking: bool,
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
            show_thinking: true,
        }
    }
}

/// How a finished search ended, kept until the protocol collects it (CECP keeps the game
/// itself and must play the engine's own move on its board).
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// What the search found.
    pub result: SearchResult<Move>,
    /// Whether its answer (`bestmove …`, `move …`) was printed; false when the search was
    /// cancelled before it answered, or for a CECP analysis.
    pub answered: bool,
}

/// The search thread prints its answer only while the gate is open; [`Engine::cancel`]
/// closes it. Whether the answer went out is decided under the lock, so the protocol
/// always knows whether the GUI saw a move.
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
    /// The current game position (with its history since the last FEN).
    pub position: Position,
    /// Root moves banned for the next search (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// Options.
    pub options: Options,
    tt: Arc<TranspositionTable>,
    /// Move-ordering memory carried from one search of the game to the next.
    state: Arc<Mutex<SearchState<Position>>>,
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
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        Engine {
            position: Position::startpos(),
            banned: Vec::new(),
            options: Options::default(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            state: Arc::new(Mutex::new(SearchState::new())),
            search: None,
            outcome: None,
        }
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

    /// Joins the search thread if it has finished or has printed its answer (its outcome
    /// is kept). A GUI may react to the answer before the thread has ended; after `reap`
    /// every answer printed so far has an outcome to collect.
    pub fn reap(&mut self) {
        let answered = |s: &RunningSearch| {
            // The thread prints and marks the answer under the lock: taking it waits for
            // an answer being printed.
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

    /// Stops a running search (its thread prints the best move) and waits for it.
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

    /// Replaces the position (already validated) and clears the banned moves.
    pub fn set_position(&mut self, pos: Position) {
        self.position = pos;
        self.banned.clear();
    }

    /// A new game: clears the transposition table and the move-ordering memory.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.tt.clear();
        lock_state(&self.state).clear();
    }

    /// Resizes the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.stop_and_wait();
        self.options.hash_mb = mb;
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    /// Clears the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        self.tt.clear();
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

    /// Starts a search in the background; its thread prints `info` lines and the final
    /// `bestmove` in `dialect` (CECP: thinking lines, `move …` or a result claim, and
    /// nothing at the end of an infinite search, which is an analysis).
    pub fn go(&mut self, go: &GoCommand, dialect: Dialect) {
        self.stop_and_wait();
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
        } else if let Some(b) = time::budget(&clock, &settings) {
            (b.soft, Some(b.hard))
        } else {
            // Depth or node limits: still never longer than the cap.
            (None, Some(time::hard_cap(&settings)))
        };
        let control = Arc::new(SearchControl::new(soft, hard, go.ponder));
        let mut search_moves = Vec::new();
        for text in &go.search_moves {
            match self.position.parse_legal_move(text) {
                Ok(m) => search_moves.push(m),
                Err(e) => output::info_string(&format!("searchmoves: {e}")),
            }
        }
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            infinite: go.infinite,
            search_moves,
            banned_moves: self.banned.clone(),
            threads: self.options.threads,
            contempt: self.options.contempt,
            multipv: self.options.multipv,
            judge_repetitions: self.options.repetition_judge,
        };
        let draw_offered = Arc::new(AtomicBool::new(go.draw_offered));
        let pos = self.position.clone();
        let tt = Arc::clone(&self.tt);
        let state = Arc::clone(&self.state);
        let thread_control = Arc::clone(&control);
        let thread_draw = Arc::clone(&draw_offered);
        let gate = Arc::new(Mutex::new(AnswerGate::default()));
        let thread_gate = Arc::clone(&gate);
        let show_info = self.options.show_thinking || go.infinite;
        let infinite = go.infinite;
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let result = run_search(
                    &pos,
                    &limits,
                    &tt,
                    &thread_control,
                    dialect,
                    show_info,
                    &state,
                );
                remember_root(&tt, &pos, &result);
                let draw = thread_draw.load(Ordering::Relaxed) && accepts_draw(&result);
                let lines = match dialect {
                    Dialect::Cecp if infinite => Vec::new(),
                    Dialect::Cecp => output::cecp_answer(&pos, &result, draw),
                    d => vec![format_bestmove(d, &result, draw)],
                };
                let mut gate = thread_gate.lock().unwrap_or_else(|e| e.into_inner());
                if !gate.closed && !lines.is_empty() {
                    for line in &lines {
                        output::send(line);
                    }
                    gate.answered = true;
                }
                SearchOutcome {
                    result,
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
                let result = fallback_result(&self.position, &self.banned);
                let lines = match dialect {
                    Dialect::Cecp if go.infinite => Vec::new(),
                    Dialect::Cecp => output::cecp_answer(&self.position, &result, false),
                    d => vec![format_bestmove(d, &result, false)],
                };
                for line in &lines {
                    output::send(line);
                }
                self.outcome = Some(SearchOutcome {
                    result,
                    answered: !lines.is_empty(),
                });
            }
        }
    }
}

/// Stores the answer as the root's hash move (the search itself does not store the
/// root), so that `probe` shows it and the next search of this position tries it first.
/// No bound: the score of an interrupted iteration is not a proven bound.
fn remember_root(tt: &TranspositionTable, pos: &Position, result: &SearchResult<Move>) {
    if let (Some(m), true) = (result.best_move, result.depth > 0) {
        let eval = if pos.in_check() {
            0
        } else {
            crate::game::Game::evaluate(pos)
        };
        tt.store(
            pos.key(),
            0,
            m.to_u16(),
            result.score,
            eval,
            result.depth,
            crate::tt::Bound::None,
        );
    }
}

/// Whether to accept (or offer) a draw with this result: only when clearly worse.
fn accepts_draw(result: &SearchResult<Move>) -> bool {
    result.best_move.is_some() && result.score <= -150
}

/// Locks the search state. Only one search runs at a time; a lock poisoned by a panicked
/// search is recovered with fresh memory.
fn lock_state(
    state: &Mutex<SearchState<Position>>,
) -> std::sync::MutexGuard<'_, SearchState<Position>> {
    match state.lock() {
        Ok(g) => g,
        Err(poisoned) => {
            let mut g = poisoned.into_inner();
            g.clear();
            g
        }
    }
}

/// An answer without searching: the first legal move that is not banned (used only when
/// the search could not run, so that no `go` is left unanswered).
fn fallback_result(pos: &Position, banned: &[Move]) -> SearchResult<Move> {
    let first = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !banned.contains(m));
    SearchResult {
        best_move: first,
        ponder_move: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: first.into_iter().collect(),
    }
}

/// Runs the search, turning a panic inside it into a legal fallback answer.
fn run_search(
    pos: &Position,
    limits: &Limits<Move>,
    tt: &TranspositionTable,
    control: &SearchControl,
    dialect: Dialect,
    show_info: bool,
    state: &Mutex<SearchState<Position>>,
) -> SearchResult<Move> {
    let on_info = move |info: &search::SearchInfo<Move>| {
        if show_info {
            for line in format_info(dialect, info) {
                output::send(&line);
            }
        }
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        search::search_with_state(pos, limits, tt, control, &on_info, &mut lock_state(state))
    }));
    match outcome {
        Ok(r) => r,
        Err(_) => {
            log::error!("the search panicked; answering with the first legal move");
            fallback_result(pos, &limits.banned_moves)
        }
    }
}
