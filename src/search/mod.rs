//! Search: iterative deepening with aspiration windows over a principal variation search,
//! quiescence, a shared transposition table and Lazy SMP helper threads.
//!
//! Generic over [`Game`]; it reads what it is asked in a [`SearchRequest`] (the one
//! request type from the protocols to every search), is steered by a [`SearchControl`]
//! (stop flag, ponder state, deadlines), reports through the info callback and answers
//! with a [`SearchResult`].

mod alphabeta;
pub mod book_move;
pub mod chance;
pub mod chooser;
pub mod history;
pub mod params;
pub mod picker;
pub mod skill;
pub mod stats;
mod timeman;

use crate::game::Game;
pub use crate::report::{Score, ScoreBound};
use crate::request::SearchRequest;
pub use crate::time::SearchControl;
use crate::tt::{TranspositionTable, MATE};
use alphabeta::Searcher;
pub use chooser::AlphaBeta;
use history::History;
pub use history::MAX_PLY;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Score bounds.
pub const INFINITY: i32 = MATE + 1;

/// One progress report (an `info` line).
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Completed (or current, for bound updates) iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Score of the best move.
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
    /// Principal variation.
    pub pv: Vec<M>,
}

/// Receiver of the main thread's progress reports.
pub type InfoCallback<'a, M> = &'a (dyn Fn(&SearchInfo<M>) + Sync);

/// Receiver of the root move the main thread starts searching (UCI `currmove`): the
/// iteration's depth, the move and its number in the root move list (from 1). Called
/// only once the search has run [`CURRMOVE_AFTER_MS`], so short searches print nothing.
pub type CurrMoveCallback<'a, M> = &'a (dyn Fn(i32, M, usize) + Sync);

/// How long a search runs before it reports the root move it is on: the lines are for a
/// person watching a long analysis, and a GUI reading them for every fast move would
/// only be slowed down.
pub const CURRMOVE_AFTER_MS: u64 = 1000;

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when there is no legal (unbanned) move.
    pub best_move: Option<M>,
    /// The expected reply.
    pub ponder_move: Option<M>,
    /// Score of the best move (internal units).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<M>,
    /// The best lines' first moves and scores, best first (as many as MultiPV asked
    /// for, of the last iteration that scored them).
    pub lines: Vec<(M, i32)>,
}

/// Everything the threads of one search share.
pub(crate) struct Shared<'a, M> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a SearchRequest<M>,
    /// Nodes per thread, published every few hundred nodes.
    pub nodes: Vec<AtomicU64>,
    /// Where the main thread reports the root move it is on, if anyone listens.
    pub on_currmove: Option<CurrMoveCallback<'a, M>>,
    /// The score of the previous search of this game with the same side to move (the
    /// time manager spends more when the score falls).
    pub previous_score: Option<i32>,
}

impl<M> Shared<'_, M> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// Move-ordering memory kept from one search to the next within a game (one history
/// per thread). A fresh state gives reproducible searches (bench, tests).
pub struct SearchState<G: Game> {
    histories: Vec<Box<History<G>>>,
    /// The side to move and the score of the last search that completed an iteration.
    last_score: Option<(usize, i32)>,
}

impl<G: Game> Default for SearchState<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game> SearchState<G> {
    /// No memory yet.
    pub fn new() -> Self {
        SearchState {
            histories: Vec::new(),
            last_score: None,
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.last_score = None;
    }

    /// One history per thread; older ones fade (the position moved on), killers go (their
    /// plies no longer match).
    fn prepare(&mut self, threads: usize) {
        for h in &mut self.histories {
            h.age();
        }
        while self.histories.len() < threads {
            self.histories.push(Box::new(History::new()));
        }
    }
}

/// Runs a search on `pos` with no memory of earlier searches. See [`search_with_state`].
pub fn search<G: Game>(
    pos: &G,
    limits: &SearchRequest<G::Move>,
    tt: &TranspositionTable,
    control: &SearchControl,
    on_info: InfoCallback<'_, G::Move>,
) -> SearchResult<G::Move> {
    search_with_state(pos, limits, tt, control, on_info, &mut SearchState::new())
}

/// Runs a search on `pos` and returns the best move. `on_info` receives the main thread's
/// progress reports; `state` carries move-ordering memory between the searches of a game.
/// Blocks until the search ends (limits reached or `control.stop()`), and, for infinite
/// or ponder searches, until stopped or ponder-hit.
pub fn search_with_state<G: Game>(
    pos: &G,
    limits: &SearchRequest<G::Move>,
    tt: &TranspositionTable,
    control: &SearchControl,
    on_info: InfoCallback<'_, G::Move>,
    state: &mut SearchState<G>,
) -> SearchResult<G::Move> {
    search_reporting(pos, limits, tt, control, on_info, None, state)
}

/// [`search_with_state`], also reporting the root move the main thread is on to
/// `on_currmove` once the search has run [`CURRMOVE_AFTER_MS`].
pub fn search_reporting<G: Game>(
    pos: &G,
    limits: &SearchRequest<G::Move>,
    tt: &TranspositionTable,
    control: &SearchControl,
    on_info: InfoCallback<'_, G::Move>,
    on_currmove: Option<CurrMoveCallback<'_, G::Move>>,
    state: &mut SearchState<G>,
) -> SearchResult<G::Move> {
    tt.new_search();
    // The browser build has no threads: one searcher, whatever `Threads` says.
    let threads = if cfg!(target_arch = "wasm32") {
        1
    } else {
        limits.threads.max(1)
    };
    state.prepare(threads);
    let side = pos.side_index();
    let previous_score = state
        .last_score
        .and_then(|(s, score)| (s == side).then_some(score));
    let shared = Shared {
        tt,
        control,
        limits,
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        on_currmove,
        previous_score,
    };
    let (main_hist, helper_hists) = state.histories.split_at_mut(1);
    let result = std::thread::scope(|scope| {
        for (i, hist) in helper_hists.iter_mut().take(threads - 1).enumerate() {
            let id = i + 1;
            let shared = &shared;
            let mut p = pos.clone();
            // Helpers get their own stack; Lazy SMP only shares the TT.
            let spawned = std::thread::Builder::new()
                .stack_size(16 * 1024 * 1024)
                .spawn_scoped(scope, move || {
                    let mut s = Searcher::new(shared, id, hist);
                    s.iterative_deepening(&mut p, None);
                });
            if let Err(e) = spawned {
                log::warn!("could not start search thread {id}: {e}");
            }
        }
        let mut p = pos.clone();
        let mut main = Searcher::new(&shared, 0, &mut main_hist[0]);
        let result = main.iterative_deepening(&mut p, Some(on_info));
        // Infinite and ponder searches must not answer before `stop` / `ponderhit`.
        while !control.stopped() && (limits.infinite || control.pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
        control.stop();
        result
    });
    if result.depth > 0 {
        state.last_score = Some((side, result.score));
    }
    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}
