//! What a search tells the world, in a game-independent form: progress reports, the
//! final answer and hash-table probes, with moves as text in the game's notation.
//!
//! Every move chooser (the two-player search, the Microchess table, the ThreeChess
//! search) reports in these types; the engine facade passes them on and the protocols
//! format them. They sit at the bottom of the house so that a game's own chooser can
//! use them without depending on the engine.

use crate::game::GameEnd;
pub use crate::game::Wdl;
use crate::tt::{Bound, MATE, MATE_BOUND};
use std::sync::Arc;

/// Kind of score reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact.
    Exact,
    /// The true score is at least this (fail-high).
    Lower,
    /// The true score is at most this (fail-low).
    Upper,
}

impl ScoreBound {
    /// What a score returned by a search with window (`alpha`, `beta`) tells.
    pub fn in_window(score: i32, alpha: i32, beta: i32) -> Self {
        if score <= alpha {
            ScoreBound::Upper
        } else if score >= beta {
            ScoreBound::Lower
        } else {
            ScoreBound::Exact
        }
    }
}

/// A search score as protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Evaluation units (100 ≈ a soldier's worth early, see the evaluation).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
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
    /// Win/draw/loss chances of the score, for games with a model of them (Xiangqi).
    pub wdl: Option<Wdl>,
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
    /// A long search starts on a root move: the iteration's depth, the move, and its
    /// number in the root move list (from 1). UCI shows it (`currmove`).
    CurrMove {
        /// The iteration.
        depth: i32,
        /// The move, in the game's notation.
        mv: &'a str,
        /// Its number among the root moves, from 1.
        number: usize,
    },
    /// The final answer. Sent once, unless the search was cancelled first.
    Answer(&'a Answer),
}

/// Receives a search's events, on the search thread.
pub type EventSink = Arc<dyn Fn(Event<'_>) + Send + Sync>;

/// A hash-table entry for the current position, as UCCI's `probe` shows it.
#[derive(Clone, Debug)]
pub struct ProbeReport {
    /// The stored move, if legal here.
    pub best: Option<String>,
    /// The stored score (internal units).
    pub score: i32,
    /// Its depth.
    pub depth: i32,
    /// Its bound.
    pub bound: Bound,
}
