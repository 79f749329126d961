//! Small `Copy` value types of fairy chess: colours, piece kinds, pieces, squares, moves.
//!
//! Squares are numbered `rank * 8 + file` with `a1` = 0 and `h8` = 63 (files `a`..`h`,
//! ranks `1`..`8`, White's side at the bottom). The course writes squares as `(row, col)`
//! with row 0 at the top: `(r, c)` is file `c`, rank `8 - r` (see [`Square::from_course`]).

use crate::common::MoveError;
use std::fmt;

crate::common::two_player_color! {
    /// The two sides. White moves first in the course's cases, but either may be to move.
    pub enum Color {
        /// White (upper case in FEN).
        White = "White",
        /// Black (lower case in FEN).
        Black = "Black",
    }
}

/// The six kinds of pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// One step in any of the 8 directions; the royal piece (capturing it wins).
    King = 0,
    /// Orthogonal slider.
    Rook = 1,
    /// Diagonal slider.
    Bishop = 2,
    /// (1,2) leaper.
    Knight = 3,
    /// Leaps to any square at Manhattan distance 2 (Betza FD).
    Squire = 4,
    /// Moves one square orthogonally to an empty square, captures one square diagonally
    /// (Betza mWcF).
    Combatant = 5,
}

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::King,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Squire,
        PieceKind::Combatant,
    ];

    /// Every kind but the king.
    pub const NON_KING: [PieceKind; 5] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Squire,
        PieceKind::Combatant,
    ];

    /// 0..6, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter (upper case).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Squire => 'S',
            PieceKind::Combatant => 'C',
        }
    }

    /// The course's name (`Squire`).
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "King",
            PieceKind::Rook => "Rook",
            PieceKind::Bishop => "Bishop",
            PieceKind::Knight => "Knight",
            PieceKind::Squire => "Squire",
            PieceKind::Combatant => "Combatant",
        }
    }

    /// The kind of an upper-case FEN letter.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c {
            'K' => Some(PieceKind::King),
            'R' => Some(PieceKind::Rook),
            'B' => Some(PieceKind::Bishop),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Squire),
            'C' => Some(PieceKind::Combatant),
            _ => None,
        }
    }
}

/// A piece: colour and kind, packed as `color * 6 + kind` (0..12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces.
    pub const COUNT: usize = 12;

    /// The piece of this colour and kind.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 6 + kind as u8)
    }

    /// 0..12, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 % 6) as usize]
    }

    /// FEN letter: upper case White, lower case Black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_letter(c.to_ascii_uppercase()) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

/// A square, `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of an index below 64.
    #[inline(always)]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of an index the caller knows is below 64 (masked to be safe).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Square {
        Square((index & 63) as u8)
    }

    /// The square of file 0..8 (a..h) and rank 0..8 (1..8).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The course's `(row, col)`: row 0 is rank 8, col 0 is file a.
    pub const fn from_course(row: u8, col: u8) -> Option<Square> {
        if row < 8 && col < 8 {
            Some(Square((7 - row) * 8 + col))
        } else {
            None
        }
    }

    /// 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (a..h).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (rank 1..8).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Its bit in a bitboard.
    #[inline(always)]
    pub const fn bb(self) -> u64 {
        1u64 << self.0
    }

    /// Reads `e2` (file a-h, rank 1-8).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::from_coords(file, rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A move: from-square and to-square, packed in 16 bits (`from | to << 6`). Captures,
/// and what is captured, are read from the board. `from != to` for every real move, so
/// the code 0 is never a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(u16);

impl Move {
    /// The move `from` → `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    /// The 16-bit code (never 0).
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The move of a code, if it is one (12 bits used, from ≠ to).
    #[inline(always)]
    pub const fn from_u16(v: u16) -> Option<Move> {
        let m = Move(v);
        if v >> 12 == 0 && m.from().0 != m.to().0 {
            Some(m)
        } else {
            None
        }
    }

    /// Reads `e2e4` (not checked for legality).
    pub fn parse(text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let malformed = || MoveError::Malformed {
            text: t.to_string(),
            game: "fairychess",
            expected: "from and to squares like e2e4, files a-h, ranks 1-8",
        };
        if t.len() != 4 || !t.is_ascii() {
            return Err(malformed());
        }
        match (Square::parse(&t[..2]), Square::parse(&t[2..])) {
            (Some(from), Some(to)) if from != to => Ok(Move::new(from, to)),
            _ => Err(malformed()),
        }
    }
}

impl crate::movelist::ListMove for Move {
    const FILLER: Move = Move(0);
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_course_coordinates() {
        assert_eq!(Square::from_course(7, 7).unwrap().to_string(), "h1");
        assert_eq!(Square::from_course(0, 0).unwrap().to_string(), "a8");
        assert_eq!(Square::from_course(6, 4).unwrap().to_string(), "e2");
        assert_eq!(Square::parse("e2"), Square::from_coords(4, 1));
        assert_eq!(Square::parse("i2"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a0"), None);
    }

    #[test]
    fn moves_round_trip() {
        for from in 0..64u8 {
            for to in 0..64u8 {
                let (f, t) = (Square::new(from).unwrap(), Square::new(to).unwrap());
                let m = Move::new(f, t);
                if from == to {
                    assert_eq!(Move::from_u16(m.to_u16()), None);
                    continue;
                }
                assert_ne!(m.to_u16(), 0);
                assert_eq!(Move::from_u16(m.to_u16()), Some(m));
                assert_eq!(Move::parse(&m.to_string()), Ok(m));
            }
        }
        assert!(Move::parse("h2e2x").is_err());
        assert!(Move::parse("i0h0").is_err());
        assert!(Move::parse("e2e2").is_err());
        assert!(Move::parse("é2e4").is_err());
    }

    #[test]
    fn pieces_and_letters() {
        for c in "KRBNSCkrbnsc".chars() {
            let p = Piece::from_letter(c).unwrap();
            assert_eq!(p.letter(), c);
            assert_eq!(Piece::new(p.color(), p.kind()), p);
        }
        assert_eq!(Piece::from_letter('p'), None);
        assert_eq!(Piece::from_letter('Q'), None);
    }
}
