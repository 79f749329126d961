//! The transposition-table key: the position's Zobrist key mixed with the player
//! searched for and the algorithm, because a stored score means something different for
//! each (one table serves every search of a game).

use super::{Algorithm, Searcher};
use crate::threechess::board::Board;
use crate::threechess::types::Player;
use crate::threechess::zobrist;

/// The transposition-table key of a position searched for player `root` by `algorithm`
/// (scores depend on both).
pub fn tt_key(b: &Board, root: Player, algorithm: Algorithm) -> u64 {
    b.key() ^ zobrist::ROOT[root.index()] ^ algorithm.key()
}

impl Algorithm {
    fn key(self) -> u64 {
        // Distinct per algorithm: their scores mean different things.
        (self as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl Searcher<'_> {
    /// The key of the current node ([`tt_key`] of the searched position, moved along
    /// with the board's incremental key).
    pub(super) fn tt_key(&self) -> u64 {
        self.b.key() ^ self.key_mix
    }
}
