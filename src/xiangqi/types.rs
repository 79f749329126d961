//! Small `Copy` value types of Xiangqi: colours, piece kinds, pieces, squares and moves.
//!
//! Board coordinates follow ICCS/UCCI: files `a`..`i` from Red's left, ranks `0`..`9` from
//! Red's back rank. A square's index is `rank * 9 + file`.

use crate::common::MoveError;
use std::fmt;
use std::num::NonZeroU16;

crate::common::two_player_color! {
    /// The two sides. Red moves first.
    pub enum Color {
        /// Red (upper case in FEN), starts on ranks 0..=4.
        Red = "Red",
        /// Black (lower case in FEN), starts on ranks 5..=9.
        Black = "Black",
    }
}

/// The seven kinds of Xiangqi pieces.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// General (帅/将).
    King = 0,
    /// Advisor (仕/士).
    Advisor = 1,
    /// Elephant (相/象).
    Elephant = 2,
    /// Horse (马).
    Horse = 3,
    /// Chariot (车).
    Chariot = 4,
    /// Cannon (炮).
    Cannon = 5,
    /// Soldier (兵/卒).
    Soldier = 6,
}

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// 0..7, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind each side has at the start (and at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// FEN letter in upper case (Red); we write `N`/`B`, and read `H`/`E` too.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// The letter of WXF notation and of tablebase names: `H` for the horse, `E` for
    /// the elephant (FEN writes `N` and `B`).
    pub const fn wxf_letter(self) -> char {
        match self {
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            other => other.letter(),
        }
    }

    /// Parses a FEN letter of either case, with the `H`/`E` aliases.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }
}

/// A coloured piece. The discriminant is `color * 7 + kind`, so it indexes 14-entry tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Piece {
    RedKing = 0,
    RedAdvisor,
    RedElephant,
    RedHorse,
    RedChariot,
    RedCannon,
    RedSoldier,
    BlackKing,
    BlackAdvisor,
    BlackElephant,
    BlackHorse,
    BlackChariot,
    BlackCannon,
    BlackSoldier,
}

const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 1);

impl Piece {
    /// All 14 pieces in index order.
    pub const ALL: [Piece; 14] = [
        Piece::RedKing,
        Piece::RedAdvisor,
        Piece::RedElephant,
        Piece::RedHorse,
        Piece::RedChariot,
        Piece::RedCannon,
        Piece::RedSoldier,
        Piece::BlackKing,
        Piece::BlackAdvisor,
        Piece::BlackElephant,
        Piece::BlackHorse,
        Piece::BlackChariot,
        Piece::BlackCannon,
        Piece::BlackSoldier,
    ];

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece::ALL[color as usize * 7 + kind as usize]
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self as usize) % 7]
    }

    /// 0..14, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The Chinese character traditionally used for the piece.
    pub const fn chinese(self) -> char {
        match self {
            Piece::RedKing => '帅',
            Piece::RedAdvisor => '仕',
            Piece::RedElephant => '相',
            Piece::RedHorse => '马',
            Piece::RedChariot => '车',
            Piece::RedCannon => '炮',
            Piece::RedSoldier => '兵',
            Piece::BlackKing => '将',
            Piece::BlackAdvisor => '士',
            Piece::BlackElephant => '象',
            Piece::BlackHorse => '馬',
            Piece::BlackChariot => '車',
            Piece::BlackCannon => '砲',
            Piece::BlackSoldier => '卒',
        }
    }
}

/// One of the 90 points of the board, `rank * 9 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// The square with this index, if it is on the board.
    #[inline(always)]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 90`.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < 90);
        Square(index as u8)
    }

    /// The square at `file` (0..9) and `rank` (0..10), if both are on the board.
    #[inline(always)]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// 0..90.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (`a`..`i`).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10, 0 being Red's back rank.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline(always)]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// Whether the square is on `color`'s own side of the river.
    #[inline(always)]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// The square mirrored top to bottom (Red's view ⇄ Black's view).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square((9 - self.rank()) * 9 + self.file())
    }

    /// Parses `a0`..`i9`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move packed in 16 bits: `from | to << 7`. Never zero, so `Option<Move>` is 16 bits too.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

impl Move {
    /// The move from `from` to `to`; they must differ (a move is never a0a0).
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        debug_assert!(from.0 != to.0);
        match NonZeroU16::new(from.0 as u16 | (to.0 as u16) << 7) {
            Some(v) => Move(v),
            // from == to == a0 is never constructed; map it to a harmless code instead of
            // panicking in release builds.
            None => Move(NonZeroU16::MIN),
        }
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0.get() & 0x7f) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0.get() >> 7) as u8)
    }

    /// The packed 16-bit code (for the transposition table).
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// Unpacks a code written by [`Move::to_u16`]; `None` for 0 or off-board squares.
    #[inline(always)]
    pub const fn from_u16(v: u16) -> Option<Move> {
        let from = v & 0x7f;
        let to = v >> 7;
        if from < 90 && to < 90 && from != to {
            match NonZeroU16::new(v) {
                Some(nz) => Some(Move(nz)),
                None => None,
            }
        } else {
            None
        }
    }

    /// Parses the coordinate form `h2e2` (syntax only: legality is the position's business).
    pub fn parse(s: &str) -> Result<Move, MoveError> {
        let malformed = || MoveError::Malformed {
            text: s.to_string(),
            game: "xiangqi",
            expected: "four characters like h2e2, files a-i, ranks 0-9",
        };
        if s.len() != 4 || !s.is_ascii() {
            return Err(malformed());
        }
        let from = Square::parse(&s[0..2]).ok_or_else(malformed)?;
        let to = Square::parse(&s[2..4]).ok_or_else(malformed)?;
        if from == to {
            return Err(malformed());
        }
        Ok(Move::new(from, to))
    }
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
    fn square_coordinates_round_trip() {
        for i in 0..90u8 {
            let sq = Square::new(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(
                Square::from_coords(sq.file() as i32, sq.rank() as i32),
                Some(sq)
            );
        }
        assert_eq!(Square::parse("a0").unwrap().index(), 0);
        assert_eq!(Square::parse("i9").unwrap().index(), 89);
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }

    #[test]
    fn move_packing_round_trips() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        assert!(Move::parse("h2h2").is_err());
        assert!(Move::parse("h2e").is_err());
        assert!(Move::parse("z2e2").is_err());
        assert!(Move::parse("é2e2").is_err());
        assert_eq!(Move::from_u16(0), None);
    }

    #[test]
    fn piece_index_layout() {
        for (i, p) in Piece::ALL.iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Piece::new(p.color(), p.kind()), *p);
        }
    }
}
