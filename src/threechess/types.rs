//! Small `Copy` value types of ThreeChess: players, piece kinds, pieces, squares, moves.
//!
//! The board has three sections of 4 ranks × 8 files, one per player. A square's index is
//! `section * 32 + rank * 8 + file`, with rank 0 the section owner's back rank (`1` in
//! the name) and file 0 the owner's left (`A`). Names are `<B|G|R><A–H><1–4>`: `BE2`.

use crate::movelist::ListMove;
use std::fmt;
use std::num::NonZeroU8;

/// The three players, in turn order (Blue moves first). Also the three board sections.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// Blue: first to move, section `B`.
    Blue = 0,
    /// Green: second, section `G`.
    Green = 1,
    /// Red: third, section `R`.
    Red = 2,
}

impl Player {
    /// All players in turn order.
    pub const ALL: [Player; 3] = [Player::Blue, Player::Green, Player::Red];

    /// The player from an index 0..3 (taken modulo 3).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Player {
        match i % 3 {
            0 => Player::Blue,
            1 => Player::Green,
            _ => Player::Red,
        }
    }

    /// 0, 1 or 2, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player who moves after this one.
    #[inline(always)]
    pub const fn next(self) -> Player {
        Player::from_index(self as usize + 1)
    }

    /// The player who moves before this one (two turns later).
    #[inline(always)]
    pub const fn prev(self) -> Player {
        Player::from_index(self as usize + 2)
    }

    /// Lower-case name: `blue`, `green`, `red`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Blue => "blue",
            Player::Green => "green",
            Player::Red => "red",
        }
    }

    /// The section letter in square names and in the FEN: `B`, `G`, `R`.
    pub const fn letter(self) -> char {
        match self {
            Player::Blue => 'B',
            Player::Green => 'G',
            Player::Red => 'R',
        }
    }

    /// Reads a section letter or player name (case-insensitive).
    pub fn parse(text: &str) -> Option<Player> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "blue" => Some(Player::Blue),
            "g" | "green" => Some(Player::Green),
            "r" | "red" => Some(Player::Red),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The six kinds of pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// Every kind in index order.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];

    /// 0..6, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind from an index 0..6.
    pub const fn from_index(i: usize) -> Option<Kind> {
        match i {
            0 => Some(Kind::Pawn),
            1 => Some(Kind::Knight),
            2 => Some(Kind::Bishop),
            3 => Some(Kind::Rook),
            4 => Some(Kind::Queen),
            5 => Some(Kind::King),
            _ => None,
        }
    }

    /// The letter in FEN and diagrams: `P N B R Q K`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    /// Reads a piece letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'P' => Some(Kind::Pawn),
            'N' => Some(Kind::Knight),
            'B' => Some(Kind::Bishop),
            'R' => Some(Kind::Rook),
            'Q' => Some(Kind::Queen),
            'K' => Some(Kind::King),
            _ => None,
        }
    }

    /// The reference's value of the piece (its `PieceType` values: P 1, N 3, B 3, R 5,
    /// Q 9, K 40), used for the material score of a time-out and by the greedy agent.
    pub const fn reference_value(self) -> i32 {
        match self {
            Kind::Pawn => 1,
            Kind::Knight | Kind::Bishop => 3,
            Kind::Rook => 5,
            Kind::Queen => 9,
            Kind::King => 40,
        }
    }
}

/// A piece: a player's piece of some kind. Code `1 + player * 6 + kind` (never 0, so
/// `Option<Piece>` is one byte).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// The piece of `player` and `kind`.
    #[inline(always)]
    pub const fn new(player: Player, kind: Kind) -> Piece {
        match NonZeroU8::new(1 + player as u8 * 6 + kind as u8) {
            Some(code) => Piece(code),
            None => unreachable!(),
        }
    }

    /// Its owner.
    #[inline(always)]
    pub const fn player(self) -> Player {
        Player::from_index(((self.0.get() - 1) / 6) as usize)
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        match Kind::from_index(((self.0.get() - 1) % 6) as usize) {
            Some(k) => k,
            None => unreachable!(),
        }
    }

    /// 0..18 (`player * 6 + kind`), for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

/// One of the 96 squares.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 96;

    /// The square with this index, if it is one.
    #[inline(always)]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square in `section` at `rank` (0..4, 0 = the section's rank 1) and `file`
    /// (0..8, 0 = file A).
    #[inline(always)]
    pub const fn at(section: Player, rank: u8, file: u8) -> Square {
        debug_assert!(rank < 4 && file < 8);
        Square(section as u8 * 32 + rank * 8 + file)
    }

    /// 0..96.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Which section (player's third of the board) it is in.
    #[inline(always)]
    pub const fn section(self) -> Player {
        Player::from_index((self.0 / 32) as usize)
    }

    /// 0..4 (0 = the section's rank 1, the back rank; 3 = rank 4, next to the centre).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        (self.0 % 32) / 8
    }

    /// 0..8 (0 = file A).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The square's bit in a [`Squares`] set.
    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Every square in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }

    /// Reads a square name such as `BE2` (case-insensitive).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        // ASCII first: a byte count says nothing about where characters start.
        if b.len() != 3 || !text.is_ascii() {
            return None;
        }
        let section = Player::parse(&text[..1])?;
        let file = b[1].to_ascii_uppercase().checked_sub(b'A')?;
        let rank = b[2].checked_sub(b'1')?;
        (file < 8 && rank < 4).then(|| Square::at(section, rank, file))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.section().letter(),
            (b'A' + self.file()) as char,
            self.rank() + 1
        )
    }
}

/// A set of squares: bit `i` is the square with index `i` (the top 32 bits stay 0).
pub type Squares = u128;

/// Iterates over the squares of a set, lowest index first.
#[inline(always)]
pub fn squares_of(mut set: Squares) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Square(i))
    })
}

/// A move: the pair (start, end). Castling is the king's move from its own E1 to C1 or
/// G1, promotion is implied by a pawn reaching another colour's rank 1. Packed as
/// `start | end << 7` (never 0 for a real move, since start ≠ end).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 7)
    }

    /// The start square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// The end square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// The packed 14-bit code (0 is no move).
    #[inline(always)]
    pub const fn code(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::code`]; `None` for 0 and for codes that are not two squares.
    pub const fn from_code(code: u16) -> Option<Move> {
        let from = (code & 0x7f) as usize;
        let to = ((code >> 7) & 0x7f) as usize;
        if code >> 14 != 0 || from >= Square::COUNT || to >= Square::COUNT || from == to {
            None
        } else {
            Some(Move(code))
        }
    }

    /// Reads `BE2BE4` (case-insensitive; a `-` between the squares is accepted). Checks
    /// the syntax only, not legality.
    pub fn parse(text: &str) -> Option<Move> {
        let t = text.trim();
        let (a, b) = match t.len() {
            6 => (t.get(..3)?, t.get(3..)?),
            7 if t.as_bytes()[3] == b'-' => (t.get(..3)?, t.get(4..)?),
            _ => return None,
        };
        let (from, to) = (Square::parse(a)?, Square::parse(b)?);
        (from != to).then(|| Move::new(from, to))
    }
}

impl ListMove for Move {
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
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(
            Square::parse("BE2").map(|s| s.to_string()),
            Some("BE2".into())
        );
        assert_eq!(Square::parse("ge4"), Some(Square::at(Player::Green, 3, 4)));
        for bad in ["", "BE", "BE5", "BI1", "XE2", "BE0", "BE22"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn moves_pack_and_parse() {
        let m = Move::parse("BE2BE4").unwrap();
        assert_eq!(m.to_string(), "BE2BE4");
        assert_eq!(Move::from_code(m.code()), Some(m));
        assert_eq!(Move::parse("be2-be4"), Some(m));
        assert_eq!(Move::parse("BE2BE2"), None);
        assert_eq!(Move::from_code(0), None);
        let p = Piece::new(Player::Red, Kind::Queen);
        assert_eq!(
            (p.player(), p.kind(), p.index()),
            (Player::Red, Kind::Queen, 16)
        );
    }
}
