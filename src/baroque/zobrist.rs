//! Zobrist keys, drawn at compile time from a fixed seed (see [`crate::common::zobrist`]).

use crate::common::KeyStream;

const fn build() -> ([[u64; 64]; 14], u64) {
    let mut keys = KeyStream::new(0x6261_726f_7175_6521); // "baroque!"
    let piece_square = keys.piece_square::<14, 64>();
    (piece_square, keys.next_key())
}

const TABLES: ([[u64; 64]; 14], u64) = build();

/// Key of a piece (index 0..14) on a square.
pub static PIECE_SQUARE: [[u64; 64]; 14] = TABLES.0;

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = TABLES.1;
