//! Static exchange evaluation: the swap algorithm over every attacker of the square,
//! cheapest first, recomputing the sliders after each capture (a rook or bishop behind
//! the piece that just captured joins in).
//!
//! The king takes part like any piece, at its real price: a king that recaptures onto a
//! square the other side still attacks is lost, and with it the game.

use super::position::Position;
use super::types::{Move, PieceKind};

/// Exchange values, indexed by `PieceKind::index()` (king, rook, bishop, knight,
/// squire, combatant). The non-king values are the fitted material values of
/// `eval` (rounded; see `weights.rs`), the king's is the game.
pub const SEE_VALUE: [i32; 6] = [20_000, 500, 300, 300, 300, 150];

/// Exchange value of a piece kind.
#[inline(always)]
pub fn see_value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

/// Attackers tried cheapest first.
const ORDER: [PieceKind; 6] = [
    PieceKind::Combatant,
    PieceKind::Knight,
    PieceKind::Squire,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::King,
];

impl Position {
    /// Whether the exchange `m` starts on its destination wins at least `threshold` for
    /// the side to move, both sides recapturing with their cheapest attacker and free to
    /// stop.
    pub fn see_ge(&self, m: crate::fairychess::Move, threshold: i32) -> bool {
        see_ge(self, m, threshold)
    }
}

fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = pos.piece_at(to).map_or(0, |p| see_value(p.kind())) - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(mover.kind()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = (pos.occupied() & !from.bb()) | to.bb();
    let mut attackers = pos.all_attackers_to(to, occ) & occ;
    let mut stm = mover.color();
    // `res` is 1 while the side that moved first is winning the exchange so far.
    let mut res = 1;
    loop {
        stm = stm.flip();
        attackers &= occ;
        let ours = attackers & pos.pieces_of(stm);
        if ours == 0 {
            break;
        }
        res ^= 1;
        let Some((kind, bb)) = ORDER
            .iter()
            .map(|&k| (k, ours & pos.pieces(stm, k)))
            .find(|&(_, bb)| bb != 0)
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king recaptures only if nothing of the other side can take it back.
            return if attackers & pos.pieces_of(stm.flip()) != 0 {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = see_value(kind) - swap;
        if swap < res {
            break;
        }
        occ &= !(bb & bb.wrapping_neg());
        // Sliders behind the piece that just captured now see the square.
        attackers |= pos.all_attackers_to(to, occ)
            & (pos.pieces_kind(PieceKind::Rook) | pos.pieces_kind(PieceKind::Bishop));
    }
    res != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let p = Position::from_fen(fen).unwrap();
        let m = p.parse_legal_move(mv).unwrap();
        p.see_ge(m, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Rook takes an undefended knight: +300.
        let fen = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 300));
        assert!(!see(fen, "d1d5", 301));
        // Defended by a combatant on c6: rook for knight, -200.
        let fen = "4k3/8/2c5/3n4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", -200));
        assert!(!see(fen, "d1d5", -199));
        // A second rook behind the first (x-ray): RxN cxR RxC = 300 - 500 + 150 = -50.
        let fen = "4k3/8/2c5/3n4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", -50));
        assert!(!see(fen, "d2d5", -49));
        // A combatant does not attack orthogonally: the knight on d5 is undefended.
        let fen = "4k3/8/3c4/3n4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 300));
    }

    #[test]
    fn the_king_recaptures_only_safely() {
        // Black king on e6 defends d5, nothing else: RxN KxR = -200.
        let fen = "8/8/4k3/3n4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", -200));
        assert!(!see(fen, "d1d5", -199));
        // With a white bishop on a2 also hitting d5, the king cannot recapture: +300.
        let fen = "8/8/4k3/3n4/8/8/B7/3RK3 w - - 0 1";
        assert!(see(fen, "d1d5", 300));
    }
}
