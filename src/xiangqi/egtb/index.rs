//! The index of a table: a position of an ending as a number `0..entries`, and back.
//!
//! The board is turned so that the strong side (the one with the attacker) is Red: a
//! position with Black as the strong side is read with ranks flipped and colours
//! swapped, which the rules cannot tell apart. The left-right mirror is used as well:
//! the strong king stands on file d or e (6 of its 9 palace points), and when it stands
//! on file e the weak king stands on file d or e; the other positions are the mirror
//! images of these (with both kings on file e, a position and its mirror image keep a
//! number each, of the same value: the index looks no further). Kings count their
//! palace points (6 and 9), advisors their 5 points, elephants their 7, a soldier the 55
//! points a soldier can reach, a chariot, cannon or horse all 90. Two or one advisors
//! (or elephants) of a side are one combination of its points, counted with the
//! combinatorial number system (identical pieces are not ordered). From most to least
//! significant the index is: side to move (strong first), strong king, weak king,
//! attacker, the weak side's attacker (a digit of radix 1 when it has none), strong
//! advisors, strong elephants, weak advisors, weak elephants. When both sides are the
//! same (`KHKH`) the side to move is turned to be the strong side: the numbers with the
//! weak side to move are no position.
//!
//! Numbers whose squares collide, that are not canonical under the mirror, or whose
//! side not to move is in check (facing kings included) are no position; the
//! generator marks them as such.

use super::ending::{compare_sides, Defenders, Ending};
use crate::xiangqi::bitboard::{
    Bitboard, ADVISOR_SQUARES, ELEPHANT_SQUARES, PALACE, SOLDIER_SQUARES,
};
use crate::xiangqi::types::{Color, Piece, PieceKind, Square};
use once_cell::sync::Lazy;

/// Most pieces a position of the family has (kings, an attacker and four defenders each
/// side).
pub const MAX_PIECES: usize = 12;

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
    soldier: [Vec<Square>; 2],
    /// Number of a square in each list above (`u8::MAX`: not in it), same order:
    /// strong king, weak king, red and black advisor, red and black elephant, red and
    /// black soldier.
    number: [[u8; 90]; 8],
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
    let soldier = [squares(SOLDIER_SQUARES[0]), squares(SOLDIER_SQUARES[1])];
    let mut number = [[u8::MAX; 90]; 8];
    let lists: [&Vec<Square>; 8] = [
        &strong_king,
        &weak_king,
        &advisor[0],
        &advisor[1],
        &elephant[0],
        &elephant[1],
        &soldier[0],
        &soldier[1],
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

/// Digits of an index.
const DIGITS: usize = 9;

/// The radices of an ending's index, most significant first.
fn radices(e: Ending) -> [usize; DIGITS] {
    [
        2,
        6,
        9,
        attacker_points(e.attacker),
        e.weak_attacker.map_or(1, attacker_points),
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
pub(super) fn mirror(sq: Square) -> Square {
    Square::from_index_unchecked(sq.rank() as usize * 9 + 8 - sq.file() as usize)
}

/// The ending of `p` and its index, or `None` when `p` is not in the family (no
/// attacker, two of one side or more than two, a piece where the lists have no point for
/// it) or its squares collide. Allocates nothing.
pub fn locate(p: &Placement) -> Option<(Ending, usize)> {
    locate_oriented(p).map(|(e, i, _)| (e, i))
}

/// [`locate`], and whether `p` is the index's own orientation of its number (neither
/// turned nor mirrored: the placement [`placement`] gives back, up to the order of the
/// pieces). The un-move generator keeps only those.
pub fn locate_oriented(p: &Placement) -> Option<(Ending, usize, bool)> {
    let pieces = p.pieces();
    // Each side's attacker and defenders.
    let mut attackers: [Option<PieceKind>; 2] = [None; 2];
    let mut defenders = [Defenders::default(); 2];
    for &(piece, _) in pieces {
        let c = piece.color().index();
        match piece.kind() {
            PieceKind::King => {}
            PieceKind::Advisor => defenders[c].advisors += 1,
            PieceKind::Elephant => defenders[c].elephants += 1,
            _ if attackers[c].is_some() => return None,
            k => attackers[c] = Some(k),
        }
    }
    // The strong side: the colour of the one attacker, or of the stronger side of two
    // (of the side to move when both are the same).
    let strong = match attackers {
        [None, None] => return None,
        [Some(_), None] => Color::Red,
        [None, Some(_)] => Color::Black,
        [Some(r), Some(b)] => match compare_sides((r, defenders[0]), (b, defenders[1])) {
            std::cmp::Ordering::Greater => Color::Red,
            std::cmp::Ordering::Less => Color::Black,
            std::cmp::Ordering::Equal => p.side,
        },
    };
    let attacker = attackers[strong.index()]?;
    let weak_attacker = attackers[strong.flip().index()];
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
    let mut y = Square::from_index_unchecked(0);
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
            _ if side == 0 => x = sq,
            _ => y = sq,
        }
    }
    let (mut sk, mut wk) = (sk?, wk?);
    let flip = sk.file() > 4 || (sk.file() == 4 && wk.file() > 4);
    let m = |sq: Square| if flip { mirror(sq) } else { sq };
    sk = m(sk);
    wk = m(wk);
    x = m(x);
    y = m(y);
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
        attacker,
        strong: defenders[strong.index()],
        weak: defenders[strong.flip().index()],
        weak_attacker,
    };
    let x_num = if ending.attacker == PieceKind::Soldier {
        num(SOL, x)? as usize
    } else {
        x.index()
    };
    let y_num = match weak_attacker {
        None => 0,
        Some(PieceKind::Soldier) => num(SOL + 1, y)? as usize,
        Some(_) => y.index(),
    };
    let digits = [
        usize::from(p.side != strong),
        num(SK, sk)? as usize,
        num(WK, wk)? as usize,
        x_num,
        y_num,
        combination(&adv[0][..n_adv[0] as usize]),
        combination(&ele[0][..n_ele[0] as usize]),
        combination(&adv[1][..n_adv[1] as usize]),
        combination(&ele[1][..n_ele[1] as usize]),
    ];
    let mut index = 0;
    for (d, r) in digits.iter().zip(radices(ending)) {
        index = index * r + d;
    }
    Some((ending, index, strong == Color::Red && !flip))
}

/// The position of index `index` of `e`, strong side Red, or `None` for a number that is
/// no canonical placement (colliding squares, the mirror image of another number).
/// Whether the side not to move is in check is for the caller to test.
pub fn placement(e: Ending, index: usize) -> Option<Placement> {
    if index >= entries(e) {
        return None;
    }
    let r = radices(e);
    let mut digits = [0usize; DIGITS];
    let mut rest = index;
    for i in (0..DIGITS).rev() {
        digits[i] = rest % r[i];
        rest /= r[i];
    }
    let lists = &*LISTS;
    let side = if digits[0] == 0 {
        Color::Red
    } else if e.is_symmetric() {
        return None; // read with the side to move as the strong side
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
        *lists.soldier[0].get(digits[3])?
    } else {
        Square::new(digits[3] as u8)?
    };
    p.push(Piece::RedKing, sk);
    p.push(Piece::BlackKing, wk);
    p.push(Piece::new(Color::Red, e.attacker), x);
    match e.weak_attacker {
        None => {}
        Some(PieceKind::Soldier) => {
            p.push(Piece::BlackSoldier, *lists.soldier[1].get(digits[4])?);
        }
        Some(k) => {
            p.push(Piece::new(Color::Black, k), Square::new(digits[4] as u8)?);
        }
    }
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
        let nums = uncombination(digits[5 + g], *count);
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
        for name in [
            "KRK", "KPKA", "KHKEE", "KCAKAE", "KPAEKA", "KPKP", "KHKP", "KHKH",
        ] {
            let e = Ending::parse(name).unwrap();
            let mut positions = 0;
            for i in 0..entries(e) {
                if let Some(p) = placement(e, i) {
                    positions += 1;
                    assert_eq!(locate(&p), Some((e, i)), "{name} {i}");
                }
            }
            // A symmetric ending has the side to move as its strong side: half the numbers.
            let share = if e.is_symmetric() { 4 } else { 2 };
            assert!(positions > entries(e) / share, "{name}");
        }
    }

    #[test]
    fn turned_and_mirrored_positions_share_the_index() {
        for name in ["KHKA", "KRKH", "KHKH", "KCAKP"] {
            turned_and_mirrored(Ending::parse(name).unwrap());
        }
    }

    fn turned_and_mirrored(e: Ending) {
        let mut both_on_e = 0;
        for i in (0..entries(e)).step_by(37) {
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
