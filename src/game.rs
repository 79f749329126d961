//! The interface between a game's rules and the search.
//!
//! The search (`crate::search`) is generic over [`Game`] and monomorphised, so Xiangqi pays
//! nothing for the generality; another two-player chess-like game is a new module that
//! implements this trait. (A three-player game needs a different search, not this trait
//! bent out of shape.)

use crate::movelist::{ListMove, MoveList};
use std::fmt::Display;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
    /// Everything.
    All,
}

/// How the rules end (or score) the game at a node, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Drawn by rule (repetition without a culprit, move limit, dead material).
    Draw,
    /// The side to move has won by rule (the opponent perpetually checked or chased).
    Win,
    /// The side to move has lost by rule.
    Loss,
}

/// Rules, move generation and evaluation of a two-player game, as the search needs them.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: small and copyable.
    type Move: ListMove + Display + Send + Sync + std::hash::Hash + 'static;

    /// Size of the table indexed by [`Game::history_index`].
    const HISTORY_SIZE: usize;

    /// Zobrist key of the position (side to move included).
    fn key(&self) -> u64;
    /// 0 or 1: the side to move.
    fn side_index(&self) -> usize;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Appends the legal moves of that type (evasions when in check).
    fn generate(&self, gen: GenType, list: &mut MoveList<Self::Move>);
    /// Whether a move from outside the generator (TT, killers) is legal here.
    fn is_legal(&self, m: Self::Move) -> bool;
    /// Whether the move captures.
    fn is_capture(&self, m: Self::Move) -> bool;
    /// Whether the move gives check.
    fn gives_check(&self, m: Self::Move) -> bool;
    /// Plays a legal move.
    fn make_move(&mut self, m: Self::Move);
    /// Takes back the last move.
    fn unmake_move(&mut self, m: Self::Move);
    /// Passes the turn.
    fn make_null_move(&mut self);
    /// Takes back a null move.
    fn unmake_null_move(&mut self);
    /// Whether passing is a reasonable approximation here (guards null-move pruning
    /// against zugzwang).
    fn null_move_allowed(&self) -> bool;
    /// Static evaluation from the side to move's view.
    fn evaluate(&self) -> i32;
    /// Static exchange evaluation: whether `m` wins at least `threshold`.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// Ordering value of a capture (most valuable victim, least valuable attacker).
    fn capture_order(&self, m: Self::Move) -> i32;
    /// Value of the piece the move captures, for delta pruning (0 for quiet moves).
    fn captured_value(&self, m: Self::Move) -> i32;
    /// Index of the move for history tables: `< HISTORY_SIZE`.
    fn history_index(&self, m: Self::Move) -> usize;
    /// Packs a move in 16 bits for the transposition table.
    fn move_to_u16(m: Self::Move) -> u16;
    /// Unpacks [`Game::move_to_u16`].
    fn move_from_u16(v: u16) -> Option<Self::Move>;
    /// Game-ending rules at a node `ply` plies below the search root, other than "no legal
    /// move" (repetition with its check/chase judgement, move limits, dead material).
    /// With `judge_repetitions` false every repetition is a plain draw (the game's
    /// repetition judge switched off, for comparison).
    fn rule_outcome(&self, ply: usize, judge_repetitions: bool) -> Option<Outcome>;
    /// Makes room so that `plies` more moves allocate nothing.
    fn reserve(&mut self, plies: usize);
}
