//! Static exchange evaluation.
//!
//! Attackers are recomputed from the occupancy after every capture, because in Xiangqi a
//! capture does more than reveal a slider behind the captured piece: it can remove a
//! cannon's screen (that cannon stops attacking), create one (a cannon behind two pieces
//! starts attacking) or free a horse's leg.

use super::attacks::BETWEEN;
use super::position::Position;
use super::types::{Move, PieceKind};

/// Exchange values of the kinds, indexed by `PieceKind::index()`.
pub const SEE_VALUE: [i32; 7] = [20000, 200, 200, 400, 900, 450, 100];

/// Exchange value of a piece kind.
#[inline(always)]
pub fn see_value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// Capture order, cheapest attacker first.
const ORDER: [PieceKind; 7] = [
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Chariot,
    PieceKind::King,
];

impl Position {
    /// Whether the exchange started by `m` on its destination wins at least `threshold`
    /// for the side to move, both sides recapturing with their cheapest attacker and
    /// free to stop. Pins are ignored, as usual.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.piece_at(from) else {
            return false;
        };
        let mut swap = self.piece_at(to).map_or(0, |p| see_value(p.kind())) - threshold;
        if swap < 0 {
            return false;
        }
        swap = see_value(mover.kind()) - swap;
        if swap <= 0 {
            return true;
        }
        let us = mover.color();
        let mut occ = self.occupied().without(from).with(to);
        let mut stm = us;
        // `res` is 1 while the side that moved first is winning the exchange so far.
        let mut res = 1;
        loop {
            stm = stm.flip();
            let attackers = self.all_attackers_to(to, stm, occ).without(to);
            if attackers.is_empty() {
                break;
            }
            res ^= 1;
            let mut chosen = None;
            for kind in ORDER {
                if let Some(sq) = (attackers & self.pieces_ck(stm, kind)).first() {
                    chosen = Some((kind, sq));
                    break;
                }
            }
            let Some((kind, sq)) = chosen else { break };
            if kind == PieceKind::King {
                // The king may only take last: if the other side still attacks, or the
                // enemy king would face it on an open file, it cannot.
                let occ = occ.without(sq);
                let others = self.all_attackers_to(to, stm.flip(), occ).without(to);
                let enemy_king = self.king_square(stm.flip());
                let facing = enemy_king.file() == to.file()
                    && (BETWEEN[to.index()][enemy_king.index()] & occ).is_empty();
                return if others.any() || facing {
                    res ^ 1 != 0
                } else {
                    res != 0
                };
            }
            swap = see_value(kind) - swap;
            if swap < res {
                break;
            }
            occ = occ.without(sq);
        }
        res != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).expect("test FEN");
        let m = pos.parse_legal_move(mv).expect("test move");
        pos.see_ge(m, threshold)
    }

    #[test]
    fn king_cannot_recapture_into_the_enemy_kings_file() {
        // Chariot takes the advisor beside the king: taking back would put the red king
        // on the open d-file facing the black king, so the advisor is won for nothing.
        let open = "3k5/9/9/9/9/3r5/9/9/9/3AK4 b - - 0 1";
        assert!(see(open, "d4d0", 200));
        assert!(!see(open, "d4d0", 201));
        // With a piece between the kings the king takes back: the chariot is lost.
        let closed = "3k5/9/9/3P5/9/3r5/9/9/9/3AK4 b - - 0 1";
        assert!(!see(closed, "d4d0", 0));
        assert!(see(closed, "d4d0", 200 - 900));
    }
}
