//! Zobrist keys, drawn at compile time from a fixed seed (see [`crate::common::zobrist`]).

use crate::common::KeyStream;

const fn build() -> ([[u64; 96]; 18], [u64; 3], [u64; 3]) {
    let mut keys = KeyStream::new(0x6a69_616e_675f_3363); // "jiang_3c"
    let piece_square = keys.piece_square::<18, 96>();
    // Side and root keys are drawn in turn, player by player.
    let mut side = [0u64; 3];
    let mut root = [0u64; 3];
    let mut i = 0;
    while i < 3 {
        side[i] = keys.next_key();
        root[i] = keys.next_key();
        i += 1;
    }
    (piece_square, side, root)
}

const TABLES: ([[u64; 96]; 18], [u64; 3], [u64; 3]) = build();

/// Key of a piece (index `player * 6 + kind`) on a square.
pub static PIECE_SQUARE: [[u64; 96]; 18] = TABLES.0;
/// Key of the player to move.
pub static SIDE: [u64; 3] = TABLES.1;
/// Key of the player a search is for (its scores depend on it), mixed in by the search.
pub static ROOT: [u64; 3] = TABLES.2;
