//! What chooses a game's moves: the one small trait a game plugs its move chooser in
//! through ([`MoveChooser`]), which reads what a search is asked
//! ([`crate::request::SearchRequest`]) and answers with a [`Choice`].
//!
//! Two-player games are played by the generic search (`crate::search::AlphaBeta`); a
//! game the generic search is the wrong tool for brings its own chooser in its own folder
//! (Microchess: its solved table; ThreeChess: its three-player search). Everything else a
//! game session does — positions, moves, legality, results, banned moves, turning a
//! choice into an answer, falling back when a search fails — is written once, in the
//! engine's session, over [`crate::game::Rules`].

use crate::game::Rules;
use crate::options::{OptionError, OptionSpec, OptionValue};
use crate::report::{EventSink, ProbeReport};
use crate::request::SearchRequest;
use crate::time::{self, Budget, Clock, SearchControl, TimeSettings};
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// What a chooser chose.
#[derive(Clone, Debug)]
pub struct Choice<M> {
    /// The move to play; `None` only when there is no legal (unbanned) move.
    pub best: Option<M>,
    /// The expected reply, if any (the session drops one that is not legal).
    pub ponder: Option<M>,
    /// Score of the best move (internal units, side to move's view).
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

impl<M> Choice<M> {
    /// A choice made without searching (depth 0, score 0).
    pub fn unsearched(best: Option<M>) -> Self {
        Choice {
            best,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        }
    }
}

/// The work of one search, run on the search thread.
pub type ChoiceJob<M> = Box<dyn FnOnce() -> Choice<M> + Send>;

/// Chooses the moves of a game whose rules are `R`.
///
/// The chooser keeps what it learns from one search to the next (move-ordering memory,
/// a model of the opponents) and its own options. Progress goes to the sink as
/// [`crate::report::Event::Info`] and [`crate::report::Event::Note`]; the answer is the
/// job's return value, which the session turns into the protocol's answer.
pub trait MoveChooser<R: Rules>: Send + 'static {
    /// The chooser's options (e.g. ThreeChess's `ThreeFallibility`).
    const OPTIONS: &'static [OptionSpec] = &[];

    /// A chooser with default options and no memory.
    fn new() -> Self
    where
        Self: Sized;

    /// Applies one of [`MoveChooser::OPTIONS`] (the value already checked against it).
    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        let _ = value;
        Err(OptionError::Unknown {
            name: spec.name.to_string(),
        })
    }

    /// Forgets what earlier searches learnt (a new game).
    fn new_game(&mut self) {}

    /// Blocks until a search can start without first building anything (a table some
    /// choosers build in the background).
    fn wait_ready(&self) {}

    /// Soft and hard time budgets of a timed move; `None` when the clock sets no limit.
    fn budget(&self, pos: &R, clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
        time::budget(clock, pos.plies_played(), settings)
    }

    /// The static evaluation from the side to move's view, where there is one (UCCI
    /// `go depth 0`).
    fn static_eval(&self, pos: &R) -> Option<i32>;

    /// The hash-table entry of `pos`, for choosers that use the table.
    fn probe(&self, pos: &R, tt: &TranspositionTable) -> Option<ProbeReport> {
        let _ = (pos, tt);
        None
    }

    /// Prepares a search of `pos` as `request` asks (its root moves checked, its
    /// deadlines those [`MoveChooser::budget`] gave); the returned job runs on the search
    /// thread.
    fn search_job(
        &mut self,
        pos: &R,
        request: SearchRequest<R::Move>,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> ChoiceJob<R::Move>;
}
