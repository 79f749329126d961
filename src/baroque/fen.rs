//! FEN (rule book section 10): `board side - - halfmove fullmove`.
//!
//! Accepted: exactly 8 ranks of 8 squares, letters `PCLIWKF` (upper case White), at most
//! one king per colour, side `w`/`b`, `-` in fields 3 and 4; the two counters may be left
//! out (then 0 and 1), and so may fields 3 and 4 together with them. A missing king is
//! allowed: that position is a finished game. Anything else is refused with a one-line
//! reason, and nothing is built.

use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// The start position (section 3).
pub const START_FEN: &str = "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1";

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but blanks.
    Empty,
    /// Not 8 ranks (the number found).
    RankCount(usize),
    /// A rank (1..8, as printed) does not describe 8 squares (the number described).
    RankLength {
        /// The rank, 8 = Black's back rank.
        rank: usize,
        /// Squares it describes.
        squares: usize,
    },
    /// A character that is no piece letter or digit 1–8.
    UnknownPiece(char),
    /// More than one king of that colour.
    ExtraKing(Color),
    /// The side field is not `w` or `b`.
    BadSide(String),
    /// Field 3 or 4 is not `-`.
    BadField(String),
    /// The halfmove counter is not a number.
    BadHalfmove(String),
    /// The fullmove counter is not a number from 1 on.
    BadFullmove(String),
    /// Not 2, 4 or 6 fields (the number found).
    FieldCount(usize),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => {
                write!(f, "a Baroque board has 8 ranks, this FEN has {n}")
            }
            FenError::RankLength { rank, squares } => write!(
                f,
                "rank {rank} describes {squares} squares, a Baroque rank has 8"
            ),
            FenError::UnknownPiece(c) => write!(
                f,
                "unknown piece letter '{c}' (Baroque pieces: P C L I W K F, lower case for Black)"
            ),
            FenError::ExtraKing(c) => write!(f, "{} has more than one king", c.name()),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w or b"),
            FenError::BadField(s) => {
                write!(f, "castling and en-passant fields must be '-', found '{s}'")
            }
            FenError::BadHalfmove(s) => write!(f, "halfmove counter '{s}' is not a number"),
            FenError::BadFullmove(s) => {
                write!(f, "fullmove number '{s}' is not a number from 1 on")
            }
            FenError::FieldCount(n) => write!(
                f,
                "a Baroque FEN has 6 fields (board side - - halfmove fullmove), this one has {n}"
            ),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Reads a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if ![2, 4, 6].contains(&fields.len()) && fields.len() != 1 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut kings = [0; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as i32;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    file += n as usize;
                    continue;
                }
                let piece = Piece::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                if file < 8 {
                    if piece.kind() == PieceKind::King {
                        kings[piece.color().index()] += 1;
                        if kings[piece.color().index()] > 1 {
                            return Err(FenError::ExtraKing(piece.color()));
                        }
                    }
                    let sq =
                        Square::from_coords(file as i32, rank).ok_or(FenError::RankLength {
                            rank: rank as usize + 1,
                            squares: file + 1,
                        })?;
                    pos.put(piece, sq);
                }
                file += 1;
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank: rank as usize + 1,
                    squares: file,
                });
            }
        }
        if fields.len() == 1 {
            return Err(FenError::FieldCount(1));
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        pos.set_side(side);
        for f in fields.iter().skip(2).take(2) {
            if *f != "-" {
                return Err(FenError::BadField(f.to_string()));
            }
        }
        let (mut halfmove, mut fullmove) = (0, 1);
        if fields.len() == 6 {
            halfmove = fields[4]
                .parse::<u32>()
                .map_err(|_| FenError::BadHalfmove(fields[4].to_string()))?;
            fullmove = fields[5]
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=1_000_000).contains(&n))
                .ok_or_else(|| FenError::BadFullmove(fields[5].to_string()))?;
        }
        pos.set_counters(halfmove, fullmove);
        pos.finish_setup();
        Ok(pos)
    }

    /// The position as FEN, in exactly the book's form.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).unwrap_or(Square::from_index(0));
                match self.piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!("{s} {side} - - {} {}", self.halfmove(), self.fullmove())
    }
}
