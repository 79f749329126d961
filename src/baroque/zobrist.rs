//! Zobrist keys, generated at compile time from a fixed seed so that keys are the same in
//! every build.

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; 64]; 14], u64) {
    let mut keys = [[0u64; 64]; 14];
    let mut state = 0x6261_726f_7175_6521; // "baroque!"
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
}

const TABLES: ([[u64; 64]; 14], u64) = build();

/// Key of a piece (index 0..14) on a square.
pub static PIECE_SQUARE: [[u64; 64]; 14] = TABLES.0;

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = TABLES.1;
