//! Colours, piece kinds, pieces, squares and moves of Baroque chess.
//!
//! Squares are numbered `rank * 8 + file` with rank 0 = rank `1` (White's back rank) and
//! file 0 = file `a`, so bit `i` of a [`Bitboard`](super::bitboard::Bitboard) is square `i`.

use std::fmt;
use std::num::NonZeroU16;

crate::common::two_player_color! {
    /// A side.
    pub enum Color {
        /// Moves first; upper-case letters.
        White = "White",
        /// Lower-case letters.
        Black = "Black",
    }
}

/// The seven kinds of piece (rule book section 2).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Rook mover; captures custodially (sandwich) after its move.
    Pincer = 0,
    /// Queen mover; captures on the corners of the rectangle it forms with its king.
    Coordinator = 1,
    /// Queen mover; captures by jumping one enemy piece.
    Leaper = 2,
    /// Queen mover; captures each piece by that piece's own method.
    Imitator = 3,
    /// Queen mover; captures the piece it moves directly away from.
    Withdrawer = 4,
    /// One step; captures by displacement.
    King = 5,
    /// Queen mover; never captures, freezes adjacent enemies.
    Freezer = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Pincer,
        PieceKind::Coordinator,
        PieceKind::Leaper,
        PieceKind::Imitator,
        PieceKind::Withdrawer,
        PieceKind::King,
        PieceKind::Freezer,
    ];

    /// 0..7.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index (0..7).
    #[inline(always)]
    pub fn from_index(i: usize) -> PieceKind {
        Self::ALL[i % 7]
    }

    /// Upper-case FEN letter.
    pub fn letter(self) -> char {
        ['P', 'C', 'L', 'I', 'W', 'K', 'F'][self.index()]
    }

    /// The kind of an upper- or lower-case FEN letter.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceKind::Pincer,
            'C' => PieceKind::Coordinator,
            'L' => PieceKind::Leaper,
            'I' => PieceKind::Imitator,
            'W' => PieceKind::Withdrawer,
            'K' => PieceKind::King,
            'F' => PieceKind::Freezer,
            _ => return None,
        })
    }

    /// English name.
    pub fn name(self) -> &'static str {
        [
            "pincer",
            "coordinator",
            "leaper",
            "imitator",
            "withdrawer",
            "king",
            "freezer",
        ][self.index()]
    }
}

/// A coloured piece; index `color * 7 + kind` (0..14).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    /// The piece of that colour and kind.
    #[inline(always)]
    pub fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// 0..14.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece with this index (0..14).
    #[inline(always)]
    pub fn from_index(i: usize) -> Piece {
        Piece((i % 14) as u8)
    }

    /// Its colour.
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 < 7 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub fn kind(self) -> PieceKind {
        PieceKind::from_index(self.0 as usize % 7)
    }

    /// FEN letter (upper case White).
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

/// A square, `rank * 8 + file` (0..64).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index; `None` outside 0..64.
    #[inline(always)]
    pub fn new(i: u8) -> Option<Square> {
        (i < 64).then_some(Square(i))
    }

    /// The square with this index, which the caller knows to be below 64.
    #[inline(always)]
    pub fn from_index(i: usize) -> Square {
        debug_assert!(i < 64);
        Square((i & 63) as u8)
    }

    /// The square on file `file` (0 = a) and rank `rank` (0 = rank 1), if on the board.
    #[inline(always)]
    pub fn from_coords(file: i32, rank: i32) -> Option<Square> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square((rank * 8 + file) as u8))
    }

    /// 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = a.
    #[inline(always)]
    pub fn file(self) -> i32 {
        (self.0 & 7) as i32
    }

    /// Rank, 0 = rank 1.
    #[inline(always)]
    pub fn rank(self) -> i32 {
        (self.0 >> 3) as i32
    }

    /// The square seen from the other side: same file, rank mirrored (a1 ↔ a8).
    #[inline(always)]
    pub fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square one step in direction (`df`, `dr`), if on the board.
    #[inline(always)]
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// Reads `e2`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a') as i32;
        let rank = b[1].wrapping_sub(b'1') as i32;
        Square::from_coords(file, rank)
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

/// Which capture method an imitator's slide imitates (rule book section 8). Other
/// pieces, plain imitator slides, imitator leaps and imitator king captures carry
/// [`Method::Own`]: their captures follow from the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Method {
    /// The piece's own method (or none).
    Own = 0,
    /// Imitating a pincer: pinches enemy pincers (orthogonal slides only).
    Pincer = 1,
    /// Imitating a coordinator: captures enemy coordinators on the corners.
    Coordinator = 2,
    /// Imitating a withdrawer: captures the enemy withdrawer moved away from.
    Withdrawer = 3,
}

impl Method {
    /// The notation suffix (section 11).
    pub fn suffix(self) -> Option<char> {
        match self {
            Method::Own => None,
            Method::Pincer => Some('p'),
            Method::Coordinator => Some('c'),
            Method::Withdrawer => Some('w'),
        }
    }
}

/// A move: from, to, the imitated method, and whether the notation needs the method's
/// suffix (set by the generator when one from/to pair stands for several moves).
///
/// Bits: 0..6 from, 6..12 to, 12..14 [`Method`], 14 suffix flag. Never zero (from ≠ to).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(NonZeroU16);

const SUFFIX_BIT: u16 = 1 << 14;

impl Move {
    /// A move of the piece on `from` to `to` (from ≠ to).
    #[inline(always)]
    pub fn new(from: Square, to: Square) -> Move {
        Move::with_method(from, to, Method::Own, false)
    }

    /// An imitator move imitating `method`; `suffixed` when the notation needs the suffix.
    #[inline(always)]
    pub fn with_method(from: Square, to: Square, method: Method, suffixed: bool) -> Move {
        debug_assert!(from != to);
        let v = from.0 as u16
            | (to.0 as u16) << 6
            | (method as u16) << 12
            | if suffixed { SUFFIX_BIT } else { 0 };
        // from ≠ to, so one of the two six-bit fields is non-zero; the fallback is never
        // taken for a move the generator builds.
        Move(NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN))
    }

    /// Start square.
    #[inline(always)]
    pub fn from(self) -> Square {
        Square((self.0.get() & 63) as u8)
    }

    /// Destination (for a leap: the landing square; for a king capture: the victim's).
    #[inline(always)]
    pub fn to(self) -> Square {
        Square((self.0.get() >> 6 & 63) as u8)
    }

    /// The imitated method.
    #[inline(always)]
    pub fn method(self) -> Method {
        match self.0.get() >> 12 & 3 {
            0 => Method::Own,
            1 => Method::Pincer,
            2 => Method::Coordinator,
            _ => Method::Withdrawer,
        }
    }

    /// Whether the notation shows the method's suffix.
    #[inline(always)]
    pub fn suffixed(self) -> bool {
        self.0.get() & SUFFIX_BIT != 0
    }

    /// The 16-bit code (never 0).
    #[inline(always)]
    pub fn to_u16(self) -> u16 {
        self.0.get()
    }

    /// Decodes [`Move::to_u16`]; `None` for codes no move has.
    pub fn from_u16(v: u16) -> Option<Move> {
        let from = v & 63;
        let to = v >> 6 & 63;
        let method = v >> 12 & 3;
        let suffixed = v & SUFFIX_BIT != 0;
        if v >> 15 != 0 || from == to || (suffixed && method == 0) {
            return None;
        }
        NonZeroU16::new(v).map(Move)
    }

    /// The same move seen from the other side (ranks mirrored).
    pub fn flip_rank(self) -> Move {
        Move::with_method(
            self.from().flip_rank(),
            self.to().flip_rank(),
            self.method(),
            self.suffixed(),
        )
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if self.suffixed() {
            if let Some(c) = self.method().suffix() {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl crate::movelist::ListMove for Move {
    const FILLER: Move = Move(NonZeroU16::MIN);
}

const _: () = assert!(std::mem::size_of::<Move>() == std::mem::size_of::<Option<Move>>());
