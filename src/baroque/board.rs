//! The piece placement as bitboards, and the freezing rule (rule book section 6).
//!
//! [`Board`] is small and `Copy`: the capture tests, SEE and `gives_check` work on a copy
//! with a move applied, without touching the position.

use super::bitboard::{bit, spread, Bitboard};
use super::types::{Color, Piece, PieceKind, Square};

/// Where the pieces stand.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Board {
    /// `pieces[color][kind]`.
    pub pieces: [[Bitboard; 7]; 2],
    /// All pieces of each colour.
    pub colors: [Bitboard; 2],
    /// All pieces.
    pub occ: Bitboard,
}

impl Board {
    /// The pieces of one colour and kind.
    #[inline(always)]
    pub fn of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces[color.index()][kind.index()]
    }

    /// The pieces of one colour.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The king of `color`, if it is on the board.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        let k = self.of(color, PieceKind::King);
        (k != 0).then(|| Square::from_index(k.trailing_zeros() as usize))
    }

    /// Adds a piece on an empty square.
    #[inline(always)]
    pub fn add(&mut self, piece: Piece, sq: Square) {
        let b = bit(sq);
        self.pieces[piece.color().index()][piece.kind().index()] |= b;
        self.colors[piece.color().index()] |= b;
        self.occ |= b;
    }

    /// Removes a piece from its square.
    #[inline(always)]
    pub fn remove(&mut self, piece: Piece, sq: Square) {
        let b = bit(sq);
        self.pieces[piece.color().index()][piece.kind().index()] &= !b;
        self.colors[piece.color().index()] &= !b;
        self.occ &= !b;
    }

    /// Moves a piece to an empty square.
    #[inline(always)]
    pub fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let b = bit(from) | bit(to);
        self.pieces[piece.color().index()][piece.kind().index()] ^= b;
        self.colors[piece.color().index()] ^= b;
        self.occ ^= b;
    }

    /// Removes every piece of `set` (of colour `color`).
    #[inline(always)]
    pub fn remove_set(&mut self, color: Color, set: Bitboard) {
        for k in self.pieces[color.index()].iter_mut() {
            *k &= !set;
        }
        self.colors[color.index()] &= !set;
        self.occ &= !set;
    }

    /// The pieces of `color` that are frozen: next to an enemy freezer, or a freezer next
    /// to an enemy imitator (D7, D8). Frozen pieces freeze too; nothing cancels.
    #[inline(always)]
    pub fn frozen(&self, color: Color) -> Bitboard {
        let them = color.flip();
        let by_freezers = spread(self.of(them, PieceKind::Freezer)) & self.color(color);
        let by_imitators =
            spread(self.of(them, PieceKind::Imitator)) & self.of(color, PieceKind::Freezer);
        by_freezers | by_imitators
    }

    /// The kind of the piece of `color` on `sq`, if any (a scan of seven sets: for code
    /// that has no mailbox at hand).
    #[inline(always)]
    pub fn kind_at(&self, color: Color, sq: Square) -> Option<PieceKind> {
        let b = bit(sq);
        if self.color(color) & b == 0 {
            return None;
        }
        PieceKind::ALL
            .into_iter()
            .find(|&k| self.of(color, k) & b != 0)
    }
}
