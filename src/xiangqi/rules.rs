//! Game-ending rules other than "no legal move": repetition with its perpetual-check
//! judgement, the 60-move (120-ply) no-capture limit, and dead material.
//!
//! Implemented:
//! * A position that repeats (same key, same side to move, no capture in between) is judged
//!   over the cycle between the two occurrences: a side that gave check with every one of
//!   its moves in the cycle while the other did not loses (perpetual check); otherwise the
//!   repetition is a draw. Inside the search a single repetition after the root is enough;
//!   a cycle reaching back before the root needs the position to have occurred twice.
//! * 120 plies without a capture: a draw, unless the side to move has no legal move.
//! * Neither side has a chariot, horse, cannon or soldier: a draw.
//!
//! Not yet implemented: perpetual chase (treated as a draw) and the rule that checks beyond
//! a side's tenth do not advance the no-capture count.

use super::position::{Position, StateInfo};
use super::types::PieceKind;
use crate::game::Outcome;

/// Plies without a capture after which the game is drawn.
pub const RULE60_PLIES: u16 = 120;

impl Position {
    /// The state of the position `back` plies ago (0 = now).
    #[inline(always)]
    fn state_back(&self, back: usize) -> &StateInfo {
        let h = self.history();
        if back == 0 {
            self.state()
        } else {
            &h[h.len() - back]
        }
    }

    /// Whether neither side has a piece that could ever attack a king.
    pub fn is_dead_material(&self) -> bool {
        let attackers = self.pieces_kind(PieceKind::Chariot)
            | self.pieces_kind(PieceKind::Horse)
            | self.pieces_kind(PieceKind::Cannon)
            | self.pieces_kind(PieceKind::Soldier);
        attackers.is_empty()
    }

    /// Judges a repetition cycle of `len` plies ending in the current position.
    fn judge_cycle(&self, len: usize) -> Outcome {
        // Positions 0, 2, 4, … plies back were reached by the opponent's moves; 1, 3, … by
        // ours. A position's `checkers` tells whether the move into it gave check.
        let mut them_always_checked = true;
        let mut us_always_checked = true;
        for back in 0..len {
            let checked = self.state_back(back).checkers.any();
            if back % 2 == 0 {
                them_always_checked &= checked;
            } else {
                us_always_checked &= checked;
            }
        }
        match (them_always_checked, us_always_checked) {
            (true, false) => Outcome::Win,
            (false, true) => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// The rule outcome at a search node `ply` plies below the root, if any.
    pub fn rule_outcome(&self, ply: usize) -> Option<Outcome> {
        let st = self.state();
        if st.rule60 >= RULE60_PLIES {
            return Some(if self.has_legal_move() {
                Outcome::Draw
            } else {
                Outcome::Loss
            });
        }
        // Only positions since the last capture (and not across a null move) can repeat.
        let reach = (st.rule60 as usize).min(st.plies_from_null as usize);
        let mut first_before_root = None;
        let mut back = 4;
        while back <= reach {
            if self.state_back(back).key == st.key {
                if back <= ply {
                    return Some(self.judge_cycle(back));
                }
                match first_before_root {
                    Some(first) => return Some(self.judge_cycle(first)),
                    None => first_before_root = Some(back),
                }
            }
            back += 2;
        }
        if self.is_dead_material() {
            return Some(Outcome::Draw);
        }
        None
    }
}
