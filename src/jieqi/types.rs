//! Jieqi's pieces, squares, board cells and moves.

use std::fmt;

crate::common::two_player_color! {
    /// A side: Red moves first.
    pub enum Color {
        /// The first player, on ranks 0-4.
        Red = "Red",
        /// The second player, on ranks 5-9.
        Black = "Black",
    }
}

/// A piece kind, in the order of JieqiBox's pool field (`RNBAKCP`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Kind {
    /// Chariot (`R`).
    Rook = 0,
    /// Horse (`N`).
    Knight = 1,
    /// Elephant (`B`).
    Bishop = 2,
    /// Advisor (`A`).
    Advisor = 3,
    /// General (`K`): never face down.
    King = 4,
    /// Cannon (`C`).
    Cannon = 5,
    /// Soldier (`P`).
    Pawn = 6,
}

/// "No kind": a move that reveals or captures nothing hidden, a face-down piece whose
/// kind nobody knows.
pub const NONE: u8 = 7;

impl Kind {
    /// Every kind, in pool order.
    pub const ALL: [Kind; 7] = [
        Kind::Rook,
        Kind::Knight,
        Kind::Bishop,
        Kind::Advisor,
        Kind::King,
        Kind::Cannon,
        Kind::Pawn,
    ];
    /// How many of each kind a side has ([`Kind::ALL`] order).
    pub const COUNTS: [u8; 7] = [2, 2, 2, 2, 1, 2, 5];

    /// The kind of index `i` (`i < 7`).
    #[inline(always)]
    pub const fn from_index(i: u8) -> Kind {
        Kind::ALL[(i & 7) as usize % 7]
    }
    /// The upper-case (Red) FEN letter.
    pub const fn letter(self) -> char {
        [b'R', b'N', b'B', b'A', b'K', b'C', b'P'][self as usize] as char
    }
    /// The kind of a FEN letter, either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.letter() == c.to_ascii_uppercase())
    }
    /// The letter in a side's case.
    pub fn letter_of(self, color: Color) -> char {
        match color {
            Color::Red => self.letter(),
            Color::Black => self.letter().to_ascii_lowercase(),
        }
    }
}

/// Board squares: `rank * 9 + file`, rank 0 Red's back rank, file 0 the `a` file.
pub const SQUARES: usize = 90;

/// The file (0..9) of a square.
#[inline(always)]
pub const fn file_of(sq: usize) -> i32 {
    (sq % 9) as i32
}
/// The rank (0..10) of a square.
#[inline(always)]
pub const fn rank_of(sq: usize) -> i32 {
    (sq / 9) as i32
}
/// The square at (`file`, `rank`), if on the board.
#[inline(always)]
pub const fn square(file: i32, rank: i32) -> Option<usize> {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        Some((rank * 9 + file) as usize)
    } else {
        None
    }
}
/// ICCS name of a square (`a0`..`i9`).
pub fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 9) as u8) as char, sq / 9)
}

/// Whether `sq` is inside `color`'s palace.
#[inline(always)]
pub const fn in_palace(sq: usize, color: Color) -> bool {
    let f = file_of(sq);
    let r = rank_of(sq);
    f >= 3
        && f <= 5
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

/// Whether `sq` is on `color`'s own side of the river.
#[inline(always)]
pub const fn own_half(sq: usize, color: Color) -> bool {
    match color {
        Color::Red => rank_of(sq) <= 4,
        Color::Black => rank_of(sq) >= 5,
    }
}

/// The Xiangqi start kind of a square, [`NONE`] off the start squares.
pub const START_KIND: [u8; SQUARES] = {
    let mut t = [NONE; SQUARES];
    let back = [0u8, 1, 2, 3, 4, 3, 2, 1, 0];
    let mut f = 0;
    while f < 9 {
        t[f] = back[f];
        t[81 + f] = back[f];
        if f % 2 == 0 {
            t[27 + f] = Kind::Pawn as u8;
            t[54 + f] = Kind::Pawn as u8;
        }
        f += 1;
    }
    t[18 + 1] = Kind::Cannon as u8;
    t[18 + 7] = Kind::Cannon as u8;
    t[63 + 1] = Kind::Cannon as u8;
    t[63 + 7] = Kind::Cannon as u8;
    t
};

/// The side whose start square `sq` is (`None`: not a start square).
#[inline(always)]
pub const fn start_color(sq: usize) -> Option<Color> {
    if START_KIND[sq] == NONE {
        None
    } else if sq < 45 {
        Some(Color::Red)
    } else {
        Some(Color::Black)
    }
}

/// A board cell: 0 empty, else `1 | color << 1 | hidden << 2 | kind << 3 | drawn << 6`,
/// where the kind of a face-down piece is its true kind when known (full information) or
/// [`NONE`], and `drawn` marks a face-up piece whose kind the search drew from the pool
/// (valued at the pool's average, see `game_impl`).
pub type Cell = u8;

/// The `drawn` bit of a [`Cell`].
pub const DRAWN: Cell = 64;

/// The cell of a face-up piece.
#[inline(always)]
pub const fn face_up(color: Color, kind: Kind) -> Cell {
    1 | (color as u8) << 1 | (kind as u8) << 3
}
/// The cell of a face-down piece whose kind is `kind` ([`NONE`]: unknown).
#[inline(always)]
pub const fn face_down(color: Color, kind: u8) -> Cell {
    1 | (color as u8) << 1 | 4 | kind << 3
}
/// The colour of a non-empty cell.
#[inline(always)]
pub const fn cell_color(c: Cell) -> Color {
    if c & 2 == 0 {
        Color::Red
    } else {
        Color::Black
    }
}
/// Whether a non-empty cell is face down.
#[inline(always)]
pub const fn is_hidden(c: Cell) -> bool {
    c & 4 != 0
}
/// The kind field of a cell (a face-down piece: its true kind or [`NONE`]).
#[inline(always)]
pub const fn cell_kind(c: Cell) -> u8 {
    (c >> 3) & 7
}
/// How the piece in cell `c` on square `sq` moves: its kind face up, its square's start
/// kind face down.
#[inline(always)]
pub const fn move_kind(c: Cell, sq: usize) -> u8 {
    if is_hidden(c) {
        START_KIND[sq]
    } else {
        cell_kind(c)
    }
}

/// A move: from and to squares, the kind the moving face-down piece is revealed as and
/// the kind of the face-down piece it captures ([`NONE`] where there is none or it is not
/// told: the position then decides, see `Position::make_move`).
///
/// Written in ICCS (`b2e2`), then JieqiBox's extension: the revealed kind in the mover's
/// case, then the captured face-down piece's kind in the victim's case (`a0a1N`,
/// `b2b9Rn`, `b2b9n`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// From square.
    pub from: u8,
    /// To square.
    pub to: u8,
    /// Revealed kind, or [`NONE`].
    pub reveal: u8,
    /// Kind of the captured face-down piece, or [`NONE`].
    pub capt: u8,
    /// The mover (for the letters' case).
    pub red: bool,
}

impl Move {
    /// A move with nothing told about hidden pieces.
    #[inline(always)]
    pub const fn bare(from: usize, to: usize, color: Color) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            reveal: NONE,
            capt: NONE,
            red: matches!(color, Color::Red),
        }
    }
    /// The move with its reveal and capture letters dropped.
    #[inline(always)]
    pub const fn to_bare(self) -> Move {
        Move {
            reveal: NONE,
            capt: NONE,
            ..self
        }
    }
}

impl crate::movelist::ListMove for Move {
    const FILLER: Move = Move {
        from: 0,
        to: 0,
        reveal: NONE,
        capt: NONE,
        red: true,
    };
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mover = if self.red { Color::Red } else { Color::Black };
        write!(
            f,
            "{}{}",
            square_name(self.from as usize),
            square_name(self.to as usize)
        )?;
        if self.reveal != NONE {
            write!(f, "{}", Kind::from_index(self.reveal).letter_of(mover))?;
        }
        if self.capt != NONE {
            write!(f, "{}", Kind::from_index(self.capt).letter_of(mover.flip()))?;
        }
        Ok(())
    }
}
