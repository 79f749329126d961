//! Move ordering, shared by every algorithm: TT move, captures by most valuable victim,
//! promotions, killers, history; and the quiet-move rewards that feed the last two.

use super::{Searcher, MAX_PLY};
use crate::movelist::{MoveList, MAX_MOVES};
use crate::threechess::eval::ORDER_VALUES;
use crate::threechess::types::{Kind, Move};

impl Searcher<'_> {
    /// Ordering score: TT move, captures (most valuable victim, then least valuable
    /// attacker), promotions, killers, then history.
    #[inline]
    pub(super) fn order_score(&self, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        let Some(piece) = self.b.piece_at(m.from()) else {
            return i32::MIN;
        };
        if let Some(victim) = self.b.piece_at(m.to()) {
            return (1 << 24) + ORDER_VALUES[victim.kind().index()] * 64
                - ORDER_VALUES[piece.kind().index()] / 16;
        }
        if piece.kind() == Kind::Pawn && m.to().rank() == 0 && m.to().section() != piece.player() {
            return 1 << 23;
        }
        if ply < MAX_PLY {
            if self.killers[ply][0] == m {
                return 1 << 22;
            }
            if self.killers[ply][1] == m {
                return (1 << 22) - 1;
            }
        }
        self.history[piece.index()][m.to().index()]
    }

    pub(super) fn score_moves(
        &self,
        list: &MoveList<Move>,
        scores: &mut [i32; MAX_MOVES],
        tt: Option<Move>,
        ply: usize,
    ) {
        for (i, &m) in list.iter().enumerate() {
            scores[i] = self.order_score(m, tt, ply);
        }
    }

    /// Moves the best-scored remaining move to index `i` and returns it.
    #[inline]
    pub(super) fn pick(list: &mut MoveList<Move>, scores: &mut [i32; MAX_MOVES], i: usize) -> Move {
        let moves = list.as_mut_slice();
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
        moves[i]
    }

    pub(super) fn reward_quiet(&mut self, m: Move, depth: i32, ply: usize) {
        let Some(piece) = self.b.piece_at(m.from()) else {
            return;
        };
        if self.b.piece_at(m.to()).is_some() {
            return;
        }
        if ply < MAX_PLY && self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let h = &mut self.history[piece.index()][m.to().index()];
        let bonus = (depth * depth).min(400);
        *h += bonus - *h * bonus / 16384;
    }

    /// The move the ordering puts first for the player to move (BRS+'s non-searching
    /// opponent): its best capture, else its best quiet move by history.
    pub(super) fn ordered_move(&self, ply: usize) -> Option<Move> {
        let list = self.b.legal_moves_list();
        list.iter()
            .copied()
            .max_by_key(|&m| self.order_score(m, None, ply))
    }
}
