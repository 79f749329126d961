//! Rule sets: the Asian rules jiang plays by default, and the house rules of the
//! "AlphaChess" tournament harness (SJTU CS3317), whose `get_legal_actions` is the law in
//! that course.
//!
//! AlphaChess differs from the Asian rules in three ways (measured against standard rules
//! on 14,317 positions, see docs/games.md, "AlphaChess house rules"):
//! * a draw after 120 consecutive plies without a capture, counted from the start of the
//!   game and declared right after the 120th ply, before mate is looked at, with no check
//!   clamp;
//! * no repetition, perpetual-check, perpetual-chase or dead-material rules at all;
//! * a history rule (`check_history`) that refuses a move by which a piece would give
//!   check a fourth time running. Let side S move piece P from `a` to `b`, with `n` plies
//!   played; `H[k]` is the k-th move. The move is refused exactly when all of:
//!   1. `n ≥ 7`;
//!   2. P itself gives check from `b` (a check uncovered by P's move does not count; a
//!      double check including P does);
//!   3. S's last two moves were P's: `H[n-2]` ended on `a`, `H[n-4]` ended on `H[n-2]`'s
//!      start;
//!   4. P gave check after each of S's last three moves: from `a` after `H[n-2]`, from
//!      `H[n-2]`'s start after `H[n-4]`, and from `H[n-4]`'s start after `H[n-6]`.
//!
//! The plies counted are those since the position's FEN: an adapter passes the harness's
//! start position and every move, so that they are the harness's whole history.

use super::bitboard::Bitboard;
use super::movegen::MoveSink;
use super::position::Position;
use super::rules::RULE60_PLIES;
use super::types::{Move, Square};

/// The rules a Xiangqi game is played by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RuleSet {
    /// Asian (AXF) rules as computer Xiangqi plays them: perpetual check and chase lose,
    /// the 60-move rule with check counting, dead material draws (`rules.rs`).
    #[default]
    Asian,
    /// The AlphaChess harness's rules (this module).
    AlphaChess,
}

impl RuleSet {
    /// Protocol names, default first.
    pub const NAMES: &'static [&'static str] = &["asian", "alphachess"];

    /// The rule set called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<RuleSet> {
        match name.to_ascii_lowercase().as_str() {
            "asian" => Some(RuleSet::Asian),
            "alphachess" => Some(RuleSet::AlphaChess),
            _ => None,
        }
    }

    /// The protocol name.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::AlphaChess => "alphachess",
        }
    }
}

impl Position {
    /// Under AlphaChess, the square of the piece that may not give check with its next
    /// move (conditions 1, 3 and 4 of the history rule hold for it); `None` otherwise.
    pub fn check_history_square(&self) -> Option<Square> {
        if self.rule_set() != RuleSet::AlphaChess {
            return None;
        }
        let h = self.history();
        let n = h.len();
        if n < 7 {
            return None;
        }
        // S_k, the position after k plies: history[k] for k < n, the current state for n.
        let s = |k: usize| if k == n { self.state() } else { &h[k] };
        // A null move (search only) has no `last_move` and breaks the chain.
        let h2 = s(n - 1).last_move?;
        let h4 = s(n - 3).last_move?;
        let a = h2.to();
        let chained = h4.to() == h2.from();
        let checked = s(n - 1).checkers.has(a)
            && s(n - 3).checkers.has(h2.from())
            && s(n - 5).checkers.has(h4.from());
        (chained && checked).then_some(a)
    }

    /// Whether the history rule refuses `m` (a move the generator would otherwise allow).
    pub fn refused_by_house_rules(&self, m: Move) -> bool {
        self.check_history_square() == Some(m.from()) && self.gives_direct_check(m)
    }

    /// Whether the AlphaChess 120-ply rule has drawn the game.
    pub(crate) fn alphachess_move_limit(&self) -> bool {
        self.state().rule60 >= RULE60_PLIES
    }
}

/// A move sink that drops the moves of the piece on `from` that would give check by
/// themselves (the history rule's refusals), passing everything else on.
pub(crate) struct Refusing<'a, S> {
    pub pos: &'a Position,
    pub from: Square,
    pub inner: &'a mut S,
}

impl<S: MoveSink> MoveSink for Refusing<'_, S> {
    #[inline]
    fn add(&mut self, m: Move) {
        if m.from() != self.from || !self.pos.gives_direct_check(m) {
            self.inner.add(m);
        }
    }
    #[inline]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        if from != self.from {
            self.inner.add_all(from, targets);
            return;
        }
        for to in targets {
            self.add(Move::new(from, to));
        }
    }
}
