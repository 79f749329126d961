//! Squares, sides, pieces and moves of Microchess: small `Copy` values.

use crate::movelist::ListMove;
use std::fmt;

/// Files a–d and ranks 1–4.
pub const SIZE: u8 = 4;
/// Squares on the board.
pub const SQUARES: usize = 16;

/// A square, `rank * 4 + file` (a1 = 0, d1 = 3, a4 = 12, d4 = 15).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < SIZE as i8 && rank >= 0 && rank < SIZE as i8 {
            Some(Square(rank as u8 * SIZE + file as u8))
        } else {
            None
        }
    }

    /// The square with index `index` (0..16).
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// 0..16.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (a) ..= 3 (d).
    #[inline(always)]
    pub const fn file(self) -> i8 {
        (self.0 % SIZE) as i8
    }

    /// 0 (rank 1) ..= 3 (rank 4).
    #[inline(always)]
    pub const fn rank(self) -> i8 {
        (self.0 / SIZE) as i8
    }

    /// The square `(df, dr)` away, if on the board.
    #[inline(always)]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// Reads `a1` … `d4`.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'd').contains(&b[0]) || !(b'1'..=b'4').contains(&b[1]) {
            return None;
        }
        Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'1' + self.rank() as u8) as char
        )
    }
}

crate::common::two_player_color! {
    /// White (moves first, upper case) or Black; the index is the one into payoff pairs
    /// and [`crate::game::Rules::PLAYERS`].
    pub enum Side {
        /// The first player.
        White = "White",
        /// The second player.
        Black = "Black",
    }
}

/// A king or a rook.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// One step in any of 8 directions.
    King,
    /// Orthogonal slider.
    Rook,
}

/// One of the four pieces; the discriminant indexes [`super::Position`]'s square table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// `K`
    WhiteKing = 0,
    /// `R`
    WhiteRook = 1,
    /// `k`
    BlackKing = 2,
    /// `r`
    BlackRook = 3,
}

impl Piece {
    /// The four pieces in index order.
    pub const ALL: [Piece; 4] = [
        Piece::WhiteKing,
        Piece::WhiteRook,
        Piece::BlackKing,
        Piece::BlackRook,
    ];

    /// The piece of `side` and `kind`.
    #[inline(always)]
    pub const fn new(side: Side, kind: Kind) -> Piece {
        match (side, kind) {
            (Side::White, Kind::King) => Piece::WhiteKing,
            (Side::White, Kind::Rook) => Piece::WhiteRook,
            (Side::Black, Kind::King) => Piece::BlackKing,
            (Side::Black, Kind::Rook) => Piece::BlackRook,
        }
    }

    /// 0..4.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whose piece.
    #[inline(always)]
    pub const fn side(self) -> Side {
        match self {
            Piece::WhiteKing | Piece::WhiteRook => Side::White,
            Piece::BlackKing | Piece::BlackRook => Side::Black,
        }
    }

    /// King or rook.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        match self {
            Piece::WhiteKing | Piece::BlackKing => Kind::King,
            Piece::WhiteRook | Piece::BlackRook => Kind::Rook,
        }
    }

    /// FEN letter: `K R k r`.
    pub const fn letter(self) -> char {
        match self {
            Piece::WhiteKing => 'K',
            Piece::WhiteRook => 'R',
            Piece::BlackKing => 'k',
            Piece::BlackRook => 'r',
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match c {
            'K' => Some(Piece::WhiteKing),
            'R' => Some(Piece::WhiteRook),
            'k' => Some(Piece::BlackKing),
            'r' => Some(Piece::BlackRook),
            _ => None,
        }
    }
}

/// A move: from-square in the high nibble, to-square in the low one. Written `a2b2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u8);

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move((from.0 << 4) | to.0)
    }

    /// Where the piece stands.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square(self.0 >> 4)
    }

    /// Where it goes.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(self.0 & 15)
    }

    /// Reads `a2b2` (no legality check), or `None` when it is not four characters naming
    /// two squares of the 4x4 board.
    pub fn parse(text: &str) -> Option<Move> {
        if text.len() != 4 || !text.is_ascii() {
            return None;
        }
        let from = Square::parse(&text[..2])?;
        let to = Square::parse(&text[2..])?;
        Some(Move::new(from, to))
    }
}

impl ListMove for Move {
    /// a1a1: never a move.
    const FILLER: Move = Move(0);
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            for to in Square::all() {
                let m = Move::new(sq, to);
                assert_eq!((m.from(), m.to()), (sq, to));
                assert_eq!(Move::parse(&m.to_string()), Some(m));
            }
        }
        for bad in [
            "", "a2", "a2b", "a2b5", "e2e4", "a0a1", "a2b2q", "A2B2", "a2é",
        ] {
            assert_eq!(Move::parse(bad), None, "{bad}");
        }
    }
}
