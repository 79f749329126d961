//! Zobrist keys, generated at compile time from a fixed seed (the same keys in every
//! build).
//!
//! The key covers the pieces, the side to move and, in the last [`LATE_PLIES`] plies
//! before the 100-ply limit, the ply count: there a position a few plies nearer the
//! limit is a different position (the draw is closer), and the transposition table must
//! not lend it the score of the same board with more time left. Earlier, no search gets
//! near the limit, and leaving the count out keeps transpositions of different lengths.

use super::position::PLY_LIMIT;

/// How many plies before the limit the ply count enters the key.
pub const LATE_PLIES: u32 = 32;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    piece_square: [[u64; 64]; 12],
    black: u64,
    late: [u64; LATE_PLIES as usize + 1],
}

const fn build() -> Keys {
    let mut k = Keys {
        piece_square: [[0; 64]; 12],
        black: 0,
        late: [0; LATE_PLIES as usize + 1],
    };
    let mut state = 0x6a69_616e_675f_6663; // "jiang_fc"
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = splitmix64(state);
            state = s;
            k.piece_square[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let (s, v) = splitmix64(state);
    state = s;
    k.black = v;
    let mut i = 0;
    while i <= LATE_PLIES as usize {
        let (s, v) = splitmix64(state);
        state = s;
        k.late[i] = v;
        i += 1;
    }
    k
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
