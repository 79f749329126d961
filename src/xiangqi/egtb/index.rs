//! The index of a table: a position of an ending as a number `0..entries`, and back.
//!
//! The board is turned so that the strong side (the one with the attacker) is Red: a
//! position with Black as the strong side is read with ranks flipped and colours
//! swapped, which the rules cannot tell apart. The left-right mirror is used as well:
//! the strong king stands on file d or e (6 of its 9 palace points), and when it stands
//! on file e the weak king stands on file d or e; the other positions are the mirror
//! images of these (with both kings on file e, a position and its mirror image keep a
//! number each, of the same value: the index looks no further). Kings count their
//! palace points (6 and 9), advisors their 5 points, elephants their 7, a soldier the 55 points a soldier can reach, a chariot, cannon or
//! horse all 90. Two or one advisors (or elephants) of a side are one combination of its
//! points, counted with the combinatorial number system (identical pieces are not
//! ordered). From most to least significant the index is: side to move (strong first),
//! strong king, weak king, attacker, strong advisors, strong elephants, weak advisors,
//! weak elephants.
//!
//! Numbers whose squares collide, that are not canonical under the mirror, or whose
//! side not to move is in check (facing kings included) are no position; the
//! generator marks them as such.

use super::ending::{Defenders, Ending};
use crate::xiangqi::bitboard::{
    Bitboard, ADVISOR_SQUARES, ELEPHANT_SQUARES, PALACE, SOLDIER_SQUARES,
};
use crate::xiangqi::types::{Color, Piece, PieceKind, Square};
use once_cell::sync::Lazy;

/// Most pieces a position of the family has (kings, attacker, four defenders each side).
pub const MAX_PIECES: usize = 11;

/// The pieces of a position and the side to move, without anything else: what the
/// generator, the probe and the tests pass around. No allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The pieces; only the first `len` entries count.
    pub pieces: [(Piece, Square); MAX_PIECES],
    /// How many pieces.
    pub len: usize,
    /// The side to move.
    pub side: Color,
}

impl Placement {
    /// An empty board with `side` to move.
    pub fn new(side: Color) -> Placement {
        Placement {
            pieces: [(Piece::RedKing, Square::from_index_unchecked(0)); MAX_PIECES],
            len: 0,
            side,
        }
    }

    /// Adds a piece; `false` (and nothing added) when the board holds too many.
    pub fn push(&mut self, piece: Piece, sq: Square) -> bool {
        match self.pieces.get_mut(self.len) {
            Some(slot) => {
                *slot = (piece, sq);
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// The pieces.
    pub fn pieces(&self) -> &[(Piece, Square)] {
        &self.pieces[..self.len.min(MAX_PIECES)]
    }
}

/// The points each kind of piece is counted over, and each point's number in its list.
struct Lists {
    strong_king: Vec<Square>,
    weak_king: Vec<Square>,
    advisor: [Vec<Square>; 2],
    elephant: [Vec<Square>; 2],
    soldier: Vec<Square>,
    /// Number of a square in each list above (`u8::MAX`: not in it), same order:
    /// strong king, weak king, red and black advisor, red and black elephant, soldier.
    number: [[u8; 90]; 7],
}

fn squares(bb: Bitboard) -> Vec<Square> {
    bb.collect()
}

static LISTS: Lazy<Lists> = Lazy::new(|| {
    let strong_king: Vec<Square> = squares(PALACE[0])
        .into_iter()
        .filter(|s| s.file() <= 4)
        .collect();
    let weak_king = squares(PALACE[1]);
    let advisor = [squares(ADVISOR_SQUARES[0]), squares(ADVISOR_SQUARES[1])];
    let elephant = [squares(ELEPHANT_SQUARES[0]), squares(ELEPHANT_SQUARES[1])];
    let soldier = squares(SOLDIER_SQUARES[0]);
    let mut number = [[u8::MAX; 90]; 7];
    let lists: [&Vec<Square>; 7] = [
        &strong_king,
        &weak_king,
        &advisor[0],
        &advisor[1],
        &elephant[0],
        &elephant[1],
        &soldier,
    ];
    for (k, list) in lists.iter().enumerate() {
        for (i, sq) in list.iter().enumerate() {
            number[k][sq.index()] = i as u8;
        }
    }
    Lists {
        strong_king,
        weak_king,
        advisor,
        elephant,
        soldier,
        number,
    }
});

const SK: usize = 0;
const WK: usize = 1;
const ADV: usize = 2;
const ELE: usize = 4;
const SOL: usize = 6;

/// C(n, k) for k <= 2.
const fn choose(n: usize, k: u8) -> usize {
    match k {
        0 => 1,
        1 => n,
        _ => n * (n - 1) / 2,
    }
}

fn attacker_points(kind: PieceKind) -> usize {
    if kind == PieceKind::Soldier {
        55
    } else {
        90
    }
}

/// The radices of an ending's index, most significant first.
fn radices(e: Ending) -> [usize; 8] {
    [
        2,
        6,
        9,
        attacker_points(e.attacker),
        choose(5, e.strong.advisors),
        choose(7, e.strong.elephants),
        choose(5, e.weak.advisors),
        choose(7, e.weak.elephants),
    ]
}

/// Number of index values of an ending (positions and non-positions).
pub fn entries(e: Ending) -> usize {
    radices(e).iter().product()
}

/// Number of the combination of up to two sorted list numbers.
fn combination(nums: &[u8]) -> usize {
    match *nums {
        [] => 0,
        [a] => a as usize,
        [a, b] => {
            let (a, b) = (a.min(b) as usize, a.max(b) as usize);
            b * (b - 1) / 2 + a
        }
        _ => 0,
    }
}

/// The list numbers of combination `r` of `k` elements (inverse of [`combination`]).
fn uncombination(r: usize, k: u8) -> [usize; 2] {
    match k {
        0 => [0, 0],
        1 => [r, 0],
        _ => {
            let mut b = 1;
            while (b + 1) * b / 2 <= r {
                b += 1;
            }
            [r - b * (b - 1) / 2, b]
        }
    }
}

#[inline(always)]
fn mirror(sq: Square) -> Square {
    Square::from_index_unchecked(sq.rank() as usize * 9 + 8 - sq.file() as usize)
}

/// The ending of `p` and its index, or `None` when `p` is not in the family (no or more
/// than one attacker, a piece where the lists have no point for it) or its squares
/// collide. Allocates nothing.
pub fn locate(p: &Placement) -> Option<(Ending, usize)> {
    let pieces = p.pieces();
    // The strong side: the colour of the one attacker.
    let mut attacker = None;
    for &(piece, _) in pieces {
        match piece.kind() {
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => {}
            _ if attacker.is_some() => return None,
            _ => attacker = Some(piece),
        }
    }
    let attacker = attacker?;
    let strong = attacker.color();
    let turn = |sq: Square| {
        if strong == Color::Black {
            sq.flip_rank()
        } else {
            sq
        }
    };
    // Oriented squares: kings, attacker, then each side's advisors and elephants.
    let mut sk = None;
    let mut wk = None;
    let mut x = Square::from_index_unchecked(0);
    let mut adv = [[0u8; 2]; 2];
    let mut ele = [[0u8; 2]; 2];
    let mut n_adv = [0u8; 2];
    let mut n_ele = [0u8; 2];
    let mut advs = [[Square::from_index_unchecked(0); 2]; 2];
    let mut eles = [[Square::from_index_unchecked(0); 2]; 2];
    let mut occupied = 0u128;
    for &(piece, sq) in pieces {
        let sq = turn(sq);
        let bit = 1u128 << sq.index();
        if occupied & bit != 0 {
            return None;
        }
        occupied |= bit;
        // Side 0: strong (Red once turned), 1: weak.
        let side = usize::from(piece.color() != strong);
        match piece.kind() {
            PieceKind::King if side == 0 => sk = Some(sq),
            PieceKind::King => wk = Some(sq),
            PieceKind::Advisor => {
                let n = n_adv[side] as usize;
                *advs[side].get_mut(n)? = sq;
                n_adv[side] += 1;
            }
            PieceKind::Elephant => {
                let n = n_ele[side] as usize;
                *eles[side].get_mut(n)? = sq;
                n_ele[side] += 1;
            }
            _ => x = sq,
        }
    }
    let (mut sk, mut wk) = (sk?, wk?);
    let flip = sk.file() > 4 || (sk.file() == 4 && wk.file() > 4);
    let m = |sq: Square| if flip { mirror(sq) } else { sq };
    sk = m(sk);
    wk = m(wk);
    x = m(x);
    let lists = &*LISTS;
    let num = |list: usize, sq: Square| -> Option<u8> {
        let v = lists.number[list][sq.index()];
        (v != u8::MAX).then_some(v)
    };
    for side in 0..2 {
        for i in 0..n_adv[side] as usize {
            adv[side][i] = num(ADV + side, m(advs[side][i]))?;
        }
        for i in 0..n_ele[side] as usize {
            ele[side][i] = num(ELE + side, m(eles[side][i]))?;
        }
    }
    let ending = Ending {
        attacker: attacker.kind(),
        strong: Defenders {
            advisors: n_adv[0],
            elephants: n_ele[0],
        },
        weak: Defenders {
            advisors: n_adv[1],
            elephants: n_ele[1],
        },
    };
    let x_num = if ending.attacker == PieceKind::Soldier {
        num(SOL, x)? as usize
    } else {
        x.index()
    };
    let digits = [
        usize::from(p.side != strong),
        num(SK, sk)? as usize,
        num(WK, wk)? as usize,
        x_num,
        combination(&adv[0][..n_adv[0] as usize]),
        combination(&ele[0][..n_ele[0] as usize]),
        combination(&adv[1][..n_adv[1] as usize]),
        combination(&ele[1][..n_ele[1] as usize]),
    ];
    let mut index = 0;
    for (d, r) in digits.iter().zip(radices(ending)) {
        index = index * r + d;
    }
    Some((ending, index))
}

/// The position of index `index` of `e`, strong side Red, or `None` for a number that is
/// no canonical placement (colliding squares, the mirror image of another number).
/// Whether the side not to move is in check is for the caller to test.
pub fn placement(e: Ending, index: usize) -> Option<Placement> {
    if index >= entries(e) {
        return None;
    }
    let r = radices(e);
    let mut digits = [0usize; 8];
    let mut rest = index;
    for i in (0..8).rev() {
        digits[i] = rest % r[i];
        rest /= r[i];
    }
    let lists = &*LISTS;
    let side = if digits[0] == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut p = Placement::new(side);
    let sk = *lists.strong_king.get(digits[1])?;
    let wk = *lists.weak_king.get(digits[2])?;
    if sk.file() == 4 && wk.file() > 4 {
        return None;
    }
    let x = if e.attacker == PieceKind::Soldier {
        *lists.soldier.get(digits[3])?
    } else {
        Square::new(digits[3] as u8)?
    };
    p.push(Piece::RedKing, sk);
    p.push(Piece::BlackKing, wk);
    p.push(Piece::new(Color::Red, e.attacker), x);
    let groups = [
        (
            Color::Red,
            PieceKind::Advisor,
            e.strong.advisors,
            &lists.advisor[0],
        ),
        (
            Color::Red,
            PieceKind::Elephant,
            e.strong.elephants,
            &lists.elephant[0],
        ),
        (
            Color::Black,
            PieceKind::Advisor,
            e.weak.advisors,
            &lists.advisor[1],
        ),
        (
            Color::Black,
            PieceKind::Elephant,
            e.weak.elephants,
            &lists.elephant[1],
        ),
    ];
    for (g, (color, kind, count, list)) in groups.iter().enumerate() {
        let nums = uncombination(digits[4 + g], *count);
        for &n in nums.iter().take(*count as usize) {
            p.push(Piece::new(*color, *kind), *list.get(n)?);
        }
    }
    // Colliding squares: no position.
    let mut occupied = 0u128;
    for &(_, sq) in p.pieces() {
        let bit = 1u128 << sq.index();
        if occupied & bit != 0 {
            return None;
        }
        occupied |= bit;
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_on_every_number_of_small_endings() {
        for name in ["KRK", "KPKA", "KHKEE", "KCAKAE", "KPAEKA"] {
            let e = Ending::parse(name).unwrap();
            let mut positions = 0;
            for i in 0..entries(e) {
                if let Some(p) = placement(e, i) {
                    positions += 1;
                    assert_eq!(locate(&p), Some((e, i)), "{name} {i}");
                }
            }
            assert!(positions > entries(e) / 2, "{name}");
        }
    }

    #[test]
    fn turned_and_mirrored_positions_share_the_index() {
        let e = Ending::parse("KHKA").unwrap();
        let mut both_on_e = 0;
        for i in (0..entries(e)).step_by(7) {
            let Some(p) = placement(e, i) else { continue };
            for mirrored in [false, true] {
                let mut q = Placement::new(p.side.flip());
                for &(piece, sq) in p.pieces() {
                    let sq = sq.flip_rank();
                    q.push(
                        Piece::new(piece.color().flip(), piece.kind()),
                        if mirrored { mirror(sq) } else { sq },
                    );
                }
                let (qe, qi) = locate(&q).unwrap();
                assert_eq!(qe, e);
                // With both kings on file e the mirror images keep numbers of their own
                // (the index does not look further); otherwise they share one.
                let (sk, wk) = (p.pieces[0].1, p.pieces[1].1);
                if mirrored && sk.file() == 4 && wk.file() == 4 {
                    both_on_e += 1;
                    assert_eq!(locate(&placement(e, qi).unwrap()), Some((e, qi)));
                } else {
                    assert_eq!(qi, i);
                }
            }
        }
        assert!(both_on_e > 0);
    }
}
