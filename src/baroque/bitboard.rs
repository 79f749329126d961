//! 64-bit square sets and the line geometry of the 8x8 board: directions, rays, steps,
//! slider attacks (classical ray lookup: the nearest blocker on each ray by a bit scan).
//!
//! Bit `i` is square `i` = `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56).

use super::types::Square;

/// A set of squares.
pub type Bitboard = u64;

/// File a.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// File h.
pub const FILE_H: Bitboard = FILE_A << 7;
/// Rank 1.
pub const RANK_1: Bitboard = 0xFF;

/// Squares of file `f` (0 = a).
#[inline(always)]
pub const fn file_mask(f: i32) -> Bitboard {
    FILE_A << f
}

/// Squares of rank `r` (0 = rank 1).
#[inline(always)]
pub const fn rank_mask(r: i32) -> Bitboard {
    RANK_1 << (8 * r)
}

/// The set holding only `sq`.
#[inline(always)]
pub const fn bit(sq: Square) -> Bitboard {
    1u64 << sq.index()
}

/// Number of directions.
pub const NUM_DIRS: usize = 8;

/// The 8 directions as (file step, rank step). The first four are orthogonal
/// (N, E, S, W), the last four diagonal (NE, SE, SW, NW); `d ^ 2` is the opposite of `d`.
pub const DIRS: [(i32, i32); NUM_DIRS] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// Index of the direction opposite to `d`.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    d ^ 2
}

/// Whether direction `d` is orthogonal.
#[inline(always)]
pub const fn is_orthogonal(d: usize) -> bool {
    d < 4
}

/// Whether squares along direction `d` have increasing indices (the nearest blocker is
/// then the lowest set bit).
#[inline(always)]
const fn increasing(d: usize) -> bool {
    let (df, dr) = DIRS[d];
    dr > 0 || (dr == 0 && df > 0)
}

/// Marker for "no square" in the step tables.
pub const NO_SQUARE: u8 = 64;

struct Tables {
    rays: [[Bitboard; 64]; NUM_DIRS],
    step: [[u8; 64]; NUM_DIRS],
    neighbours: [Bitboard; 64],
    orth_neighbours: [Bitboard; 64],
    /// Direction from the first square to the second when they share a line, else 8.
    dir_between: [[u8; 64]; 64],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        rays: [[0; 64]; NUM_DIRS],
        step: [[NO_SQUARE; 64]; NUM_DIRS],
        neighbours: [0; 64],
        orth_neighbours: [0; 64],
        dir_between: [[8; 64]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut d = 0;
        while d < NUM_DIRS {
            let (df, dr) = DIRS[d];
            let (mut f, mut r) = (f0 + df, r0 + dr);
            let mut first = true;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let to = (r * 8 + f) as usize;
                t.rays[d][sq] |= 1u64 << to;
                t.dir_between[sq][to] = d as u8;
                if first {
                    t.step[d][sq] = to as u8;
                    t.neighbours[sq] |= 1u64 << to;
                    if d < 4 {
                        t.orth_neighbours[sq] |= 1u64 << to;
                    }
                    first = false;
                }
                f += df;
                r += dr;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// Squares from `sq` (excluded) to the edge in direction `d`.
#[inline(always)]
pub fn ray(d: usize, sq: Square) -> Bitboard {
    TABLES.rays[d][sq.index()]
}

/// The square one step from `sq` in direction `d`, if on the board.
#[inline(always)]
pub fn step(d: usize, sq: Square) -> Option<Square> {
    Square::new(TABLES.step[d][sq.index()])
}

/// The up to 8 squares adjacent to `sq`.
#[inline(always)]
pub fn neighbours(sq: Square) -> Bitboard {
    TABLES.neighbours[sq.index()]
}

/// The up to 4 squares orthogonally adjacent to `sq`.
#[inline(always)]
pub fn orth_neighbours(sq: Square) -> Bitboard {
    TABLES.orth_neighbours[sq.index()]
}

/// The direction from `a` to `b` if they share a line (rank, file or diagonal).
#[inline(always)]
pub fn direction(a: Square, b: Square) -> Option<usize> {
    let d = TABLES.dir_between[a.index()][b.index()];
    (d < 8).then_some(d as usize)
}

/// The nearest occupied square from `sq` in direction `d`.
#[inline(always)]
pub fn first_blocker(d: usize, sq: Square, occ: Bitboard) -> Option<Square> {
    let hits = ray(d, sq) & occ;
    if hits == 0 {
        None
    } else if increasing(d) {
        Some(Square::from_index(hits.trailing_zeros() as usize))
    } else {
        Some(Square::from_index(63 - hits.leading_zeros() as usize))
    }
}

/// Squares reached from `sq` in direction `d` up to and including the first blocker.
#[inline(always)]
pub fn ray_attacks(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let r = ray(d, sq);
    match first_blocker(d, sq, occ) {
        Some(b) => r ^ ray(d, b),
        None => r,
    }
}

/// Rook-line attacks (blockers included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_attacks(0, sq, occ)
        | ray_attacks(1, sq, occ)
        | ray_attacks(2, sq, occ)
        | ray_attacks(3, sq, occ)
}

/// Queen-line attacks (blockers included).
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut a = rook_attacks(sq, occ);
    let mut d = 4;
    while d < NUM_DIRS {
        a |= ray_attacks(d, sq, occ);
        d += 1;
    }
    a
}

/// Every square in direction `d` of a square of `bb` (one step), off-board steps dropped.
#[inline(always)]
pub const fn shift(bb: Bitboard, d: usize) -> Bitboard {
    match d {
        0 => bb << 8,
        1 => (bb << 1) & !FILE_A,
        2 => bb >> 8,
        3 => (bb >> 1) & !FILE_H,
        4 => (bb << 9) & !FILE_A,
        5 => (bb >> 7) & !FILE_A,
        6 => (bb >> 9) & !FILE_H,
        _ => (bb << 7) & !FILE_H,
    }
}

/// Squares orthogonally adjacent to some square of `bb`.
#[inline(always)]
pub const fn orth_spread(bb: Bitboard) -> Bitboard {
    shift(bb, 0) | shift(bb, 1) | shift(bb, 2) | shift(bb, 3)
}

/// Squares adjacent (8 ways) to some square of `bb`.
#[inline(always)]
pub const fn spread(bb: Bitboard) -> Bitboard {
    let sideways = shift(bb, 1) | shift(bb, 3);
    let row = bb | sideways;
    (row << 8) | (row >> 8) | sideways
}

/// Iterates over the squares of a set, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(Square::from_index(sq))
        }
    }
}

/// The squares of `bb`.
#[inline(always)]
pub fn squares(bb: Bitboard) -> Squares {
    Squares(bb)
}

/// The set mirrored top to bottom (rank r ↔ rank 7 − r).
#[inline(always)]
pub fn flip_ranks(bb: Bitboard) -> Bitboard {
    bb.swap_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_matches_neighbour_table() {
        for i in 0..64 {
            let sq = Square::from_index(i);
            assert_eq!(spread(bit(sq)), neighbours(sq), "{sq}");
            assert_eq!(orth_spread(bit(sq)), orth_neighbours(sq), "{sq}");
            for d in 0..NUM_DIRS {
                assert_eq!(shift(bit(sq), d), step(d, sq).map_or(0, bit), "{sq} {d}");
            }
        }
        // Overlapping neighbourhoods: a set's spread excludes nothing adjacent to it.
        let bb = 0x0000_1818_0000_0000u64 | 1;
        let expected = squares(bb).fold(0, |a, s| a | neighbours(s));
        assert_eq!(spread(bb), expected);
    }
}
