//! Zobrist keys, generated at compile time from a fixed seed (the same in every build).

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn build() -> ([[u64; 96]; 18], [u64; 3], [u64; 3]) {
    let mut keys = [[0u64; 96]; 18];
    let mut state = 0x6a69_616e_675f_3363; // "jiang_3c"
    let mut p = 0;
    while p < 18 {
        let mut sq = 0;
        while sq < 96 {
            let (s, k) = splitmix64(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let mut side = [0u64; 3];
    let mut root = [0u64; 3];
    let mut i = 0;
    while i < 3 {
        let (s, k) = splitmix64(state);
        state = s;
        side[i] = k;
        let (s, k) = splitmix64(state);
        state = s;
        root[i] = k;
        i += 1;
    }
    (keys, side, root)
}

const TABLES: ([[u64; 96]; 18], [u64; 3], [u64; 3]) = build();

/// Key of a piece (index `player * 6 + kind`) on a square.
pub static PIECE_SQUARE: [[u64; 96]; 18] = TABLES.0;
/// Key of the player to move.
pub static SIDE: [u64; 3] = TABLES.1;
/// Key of the player a search is for (its scores depend on it), mixed in by the search.
pub static ROOT: [u64; 3] = TABLES.2;
