//! Un-moves: the positions of an ending with a move to a given one, found by moving the
//! pieces of the side that just moved backwards. The solver and the repetition pass walk
//! the move graph backwards through these instead of keeping every position's
//! predecessors in memory (four bytes a move: about 80 bytes a position, which put the
//! endings of nine pieces and more out of reach of a 24 GB machine).
//!
//! The graph is the one the forward moves define: a position is the index's own
//! placement of its number (`index::placement`), a move leads to the number of the
//! placement it makes, whatever its orientation. So the predecessors of number `i` are
//! found by un-moving every placement that has number `i` (its own, the mirror image, the
//! turned board) and keeping the un-moves that land on a placement in the index's own
//! orientation: each forward move of each position is then met exactly once (a test
//! checks it against the forward moves on whole endings). Captures leave the ending, so
//! nothing is un-captured. Whether a predecessor is a legal position (the side not to
//! move not in check) is the caller's to check, from its table of positions.

use super::ending::Ending;
use super::index::{locate, locate_oriented, mirror, Placement};
use crate::xiangqi::attacks::{
    chariot_attacks, elephant_attacks, file_occupancy, horse_attackers, ADVISOR_STEPS, KING_STEPS,
    SOLDIER_ATTACKERS,
};
use crate::xiangqi::bitboard::{Bitboard, ADVISOR_SQUARES, ELEPHANT_SQUARES};
use crate::xiangqi::types::{Piece, PieceKind};

/// The turned board: ranks flipped, colours and the side to move swapped.
fn turned(p: &Placement) -> Placement {
    let mut t = Placement::new(p.side.flip());
    for &(piece, sq) in p.pieces() {
        t.push(
            Piece::new(piece.color().flip(), piece.kind()),
            sq.flip_rank(),
        );
    }
    t
}

fn mirrored(p: &Placement) -> Placement {
    let mut m = Placement::new(p.side);
    for &(piece, sq) in p.pieces() {
        m.push(piece, mirror(sq));
    }
    m
}

/// Whether two placements hold the same pieces on the same squares, the same side to move.
fn same(a: &Placement, b: &Placement) -> bool {
    a.side == b.side
        && a.len == b.len
        && a.pieces().iter().all(|x| b.pieces().iter().any(|y| x == y))
}

/// Appends to `out` the number of every position with a move to number `i` of `ending`
/// (whose placement is `c`), once for each such move. `out` is cleared first; it keeps
/// its capacity, so the solver's loop allocates nothing once it has grown.
pub(super) fn predecessors(ending: Ending, c: &Placement, i: usize, out: &mut Vec<u32>) {
    out.clear();
    let m = mirrored(c);
    let mirror_is_other = !same(&m, c) && locate(&m) == Some((ending, i));
    // An un-move keeps the colours and hands the move back, and the index's own
    // placements have the strong side Red: so the sources are `c` and its mirror image,
    // Red strong with the weak side to move, except where both sides are the same and
    // the side to move is the strong one (`c` has Red to move): there the turned board.
    let (own, own_mirror) = if ending.is_symmetric() {
        let t = turned(c);
        let tm = mirrored(&t);
        (t, tm)
    } else {
        (*c, m)
    };
    unmove(ending, &own, out);
    if mirror_is_other {
        unmove(ending, &own_mirror, out);
    }
}

/// The un-moves of `y` (the side not to move in `y` moved last) that land on the index's
/// own placement of a number of `ending`. The squares a piece can have come from are the
/// engine's attack tables read backwards: every move but a horse's is its own reverse on
/// the same occupancy, a horse came from a square whose horse attacks this one (its leg
/// is next to where it stood), a soldier from a square whose soldier attacks this one.
fn unmove(ending: Ending, y: &Placement, out: &mut Vec<u32>) {
    let mover = y.side.flip();
    let mut occ = Bitboard::EMPTY;
    for &(_, sq) in y.pieces() {
        occ = occ.with(sq);
    }
    for (k, &(piece, to)) in y.pieces().iter().enumerate() {
        if piece.color() != mover {
            continue;
        }
        let origins = match piece.kind() {
            PieceKind::King => KING_STEPS[to.index()] & mover.palace(),
            PieceKind::Advisor => ADVISOR_STEPS[to.index()] & ADVISOR_SQUARES[mover.index()],
            PieceKind::Elephant => elephant_attacks(to, occ) & ELEPHANT_SQUARES[mover.index()],
            PieceKind::Horse => horse_attackers(to, occ),
            // A cannon's move without a capture slides as a chariot's does.
            PieceKind::Chariot | PieceKind::Cannon => {
                chariot_attacks(to, occ, file_occupancy(occ, to.file() as usize))
            }
            PieceKind::Soldier => SOLDIER_ATTACKERS[mover.index()][to.index()],
        };
        for from in origins & !occ {
            let mut p = *y;
            p.side = mover;
            p.pieces[k].1 = from;
            if let Some((e, q, true)) = locate_oriented(&p) {
                if e == ending {
                    out.push(q as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GenType;
    use crate::movelist::MoveList;
    use crate::xiangqi::egtb::index::{entries, placement};
    use crate::xiangqi::egtb::solve::{child, position, Child};
    use std::collections::HashMap;

    /// The multiset of same-ending moves into each number, from the forward moves of
    /// every position and from the un-moves, must agree.
    fn agree(name: &str) {
        let e = Ending::parse(name).unwrap();
        let n = entries(e);
        let mut forward: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut list = MoveList::new();
        let mut legal = vec![false; n];
        let no_tables = HashMap::new();
        for (q, is_legal) in legal.iter_mut().enumerate() {
            let Some((p, pos)) = position(e, q) else {
                continue;
            };
            *is_legal = true;
            list.clear();
            pos.generate(GenType::All, &mut list);
            for &m in list.iter() {
                if pos.piece_at(m.to()).is_some() {
                    continue; // a capture leaves the ending
                }
                match child(e, &p, m, &no_tables) {
                    Ok(Child::Same(ci)) => forward[ci].push(q as u32),
                    _ => panic!("{name}: a move without a capture left the ending"),
                }
            }
        }
        let mut out = Vec::new();
        let mut edges = 0;
        for i in 0..n {
            if !legal[i] {
                continue;
            }
            let c = placement(e, i).unwrap();
            predecessors(e, &c, i, &mut out);
            out.retain(|&q| legal[q as usize]);
            out.sort_unstable();
            forward[i].sort_unstable();
            assert_eq!(out, forward[i], "{name}: the moves into {i} ({c:?})");
            edges += out.len();
        }
        let positions = legal.iter().filter(|&&l| l).count();
        assert!(
            edges > positions,
            "{name}: {edges} moves, {positions} positions"
        );
    }

    #[test]
    fn unmoves_are_the_forward_moves_backwards() {
        for name in [
            "KRK", "KHK", "KPK", "KCKA", "KHKE", "KPKP", "KHKP", "KHKH", "KRKH", "KPAKE",
        ] {
            agree(name);
        }
    }
}
