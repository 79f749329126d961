//! A set of squares as a `u128`: bit `rank * 9 + file`. The top 38 bits are always zero.

use super::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of board squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u128);

/// The set of each single square.
static SQUARE_BB: [Bitboard; 90] = {
    let mut t = [Bitboard(0); 90];
    let mut i = 0;
    while i < 90 {
        t[i] = Bitboard(1u128 << i);
        i += 1;
    }
    t
};

/// The 90 valid bits.
pub const BOARD_MASK: u128 = (1u128 << 90) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard(BOARD_MASK);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table load is cheaper than a variable 128-bit shift on x86-64.
        SQUARE_BB[sq.index()]
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & SQUARE_BB[sq.index()].0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The squares of `self` that are not in `other`.
    #[inline(always)]
    pub const fn andnot(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BB[sq.index()].0)
    }

    /// Set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BB[sq.index()].0)
    }

    /// Union (usable in `const` tables).
    #[inline(always)]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 board squares.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_MASK)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl std::fmt::Debug for Bitboard {
    /// Draws the set as a 10×9 grid, rank 9 on top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
                write!(f, "{}", if self.has(sq) { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

const fn file_mask(file: usize) -> Bitboard {
    let mut bb = 0u128;
    let mut rank = 0;
    while rank < 10 {
        bb |= 1u128 << (rank * 9 + file);
        rank += 1;
    }
    Bitboard(bb)
}

const fn rank_mask(rank: usize) -> Bitboard {
    Bitboard(0x1ffu128 << (rank * 9))
}

const fn rect(file_lo: usize, file_hi: usize, rank_lo: usize, rank_hi: usize) -> Bitboard {
    let mut bb = 0u128;
    let mut r = rank_lo;
    while r <= rank_hi {
        let mut f = file_lo;
        while f <= file_hi {
            bb |= 1u128 << (r * 9 + f);
            f += 1;
        }
        r += 1;
    }
    Bitboard(bb)
}

/// The squares of each file `a`..`i`.
pub const FILES: [Bitboard; 9] = {
    let mut t = [Bitboard::EMPTY; 9];
    let mut f = 0;
    while f < 9 {
        t[f] = file_mask(f);
        f += 1;
    }
    t
};

/// The squares of each rank 0..9.
pub const RANKS: [Bitboard; 10] = {
    let mut t = [Bitboard::EMPTY; 10];
    let mut r = 0;
    while r < 10 {
        t[r] = rank_mask(r);
        r += 1;
    }
    t
};

/// Each side's palace (files d-f, its three back ranks).
pub const PALACE: [Bitboard; 2] = [rect(3, 5, 0, 2), rect(3, 5, 7, 9)];

/// Each side's own half of the board (its side of the river).
pub const HALF: [Bitboard; 2] = [rect(0, 8, 0, 4), rect(0, 8, 5, 9)];

/// The set of the given `(file, rank)` points (for `const` tables).
pub(crate) const fn squares(list: &[(usize, usize)]) -> Bitboard {
    let mut bb = 0u128;
    let mut i = 0;
    while i < list.len() {
        bb |= 1u128 << (list[i].1 * 9 + list[i].0);
        i += 1;
    }
    Bitboard(bb)
}

const fn mirror(bb: Bitboard) -> Bitboard {
    let mut out = 0u128;
    let mut sq = 0;
    while sq < 90 {
        if (bb.0 >> sq) & 1 != 0 {
            let (f, r) = (sq % 9, sq / 9);
            out |= 1u128 << ((9 - r) * 9 + f);
        }
        sq += 1;
    }
    Bitboard(out)
}

const RED_ADVISOR: Bitboard = squares(&[(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]);
const RED_ELEPHANT: Bitboard = squares(&[(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]);
// Soldiers never move backwards and move sideways only after the river: before it they
// stand on their starting files a, c, e, g, i of ranks 3 and 4; beyond it anywhere.
const RED_SOLDIER: Bitboard = squares(&[
    (0, 3),
    (2, 3),
    (4, 3),
    (6, 3),
    (8, 3),
    (0, 4),
    (2, 4),
    (4, 4),
    (6, 4),
    (8, 4),
])
.or(rect(0, 8, 5, 9));

/// The squares an advisor of each colour can ever stand on.
pub const ADVISOR_SQUARES: [Bitboard; 2] = [RED_ADVISOR, mirror(RED_ADVISOR)];
/// The squares an elephant of each colour can ever stand on.
pub const ELEPHANT_SQUARES: [Bitboard; 2] = [RED_ELEPHANT, mirror(RED_ELEPHANT)];
/// The squares a soldier of each colour can ever stand on.
pub const SOLDIER_SQUARES: [Bitboard; 2] = [RED_SOLDIER, mirror(RED_SOLDIER)];

impl Color {
    /// Palace of this colour.
    #[inline(always)]
    pub const fn palace(self) -> Bitboard {
        PALACE[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_expected_sizes() {
        assert_eq!(PALACE[0].count(), 9);
        assert_eq!((HALF[0] | HALF[1]), Bitboard::FULL);
        assert_eq!(ADVISOR_SQUARES[1].count(), 5);
        assert_eq!(ELEPHANT_SQUARES[1].count(), 7);
        assert_eq!(SOLDIER_SQUARES[0].count(), 55);
        assert!(ELEPHANT_SQUARES[1].has(Square::parse("c9").unwrap()));
        assert_eq!((!Bitboard::EMPTY).0, BOARD_MASK);
    }

    #[test]
    fn iteration_yields_squares_in_order() {
        let bb = Bitboard::EMPTY
            .with(Square::parse("i9").unwrap())
            .with(Square::parse("a0").unwrap());
        let v: Vec<String> = bb.map(|s| s.to_string()).collect();
        assert_eq!(v, ["a0", "i9"]);
    }
}
