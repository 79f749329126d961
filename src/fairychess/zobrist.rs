//! Zobrist keys, drawn at compile time from a fixed seed (see [`crate::common::zobrist`]).
//!
//! The key covers the pieces, the side to move and, in the last [`LATE_PLIES`] plies
//! before the 100-ply limit, the ply count: there a position a few plies nearer the
//! limit is a different position (the draw is closer), and the transposition table must
//! not lend it the score of the same board with more time left. Earlier, no search gets
//! near the limit, and leaving the count out keeps transpositions of different lengths.

use super::position::PLY_LIMIT;
use crate::common::KeyStream;

/// How many plies before the limit the ply count enters the key.
pub const LATE_PLIES: u32 = 32;

struct Keys {
    piece_square: [[u64; 64]; 12],
    black: u64,
    late: [u64; LATE_PLIES as usize + 1],
}

const fn build() -> Keys {
    let mut keys = KeyStream::new(0x6a69_616e_675f_6663); // "jiang_fc"
    let piece_square = keys.piece_square::<12, 64>();
    let black = keys.next_key();
    let late = keys.keys::<{ LATE_PLIES as usize + 1 }>();
    Keys {
        piece_square,
        black,
        late,
    }
}

const KEYS: Keys = build();

/// Key of a piece (index 0..12) on a square.
pub static PIECE_SQUARE: [[u64; 64]; 12] = KEYS.piece_square;

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = KEYS.black;

static LATE: [u64; LATE_PLIES as usize + 1] = KEYS.late;

/// The ply count's part of the key: 0 until the last [`LATE_PLIES`] plies.
#[inline(always)]
pub fn ply_key(ply: u32) -> u64 {
    let start = PLY_LIMIT - LATE_PLIES;
    if ply < start {
        0
    } else {
        LATE[((ply - start) as usize).min(LATE_PLIES as usize)]
    }
}
