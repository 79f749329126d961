//! FEN reading (validated, never panicking) and writing.
//!
//! Accepted: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`, with
//! `H`/`E` for horse/elephant, `r` for Red to move, and any trailing fields missing.
//! Written: canonical letters `KABNRCP`, `w`/`b`, `- -`, the no-capture plies, the move
//! number.

use super::bitboard::{ADVISOR_SQUARES, ELEPHANT_SQUARES, PALACE, SOLDIER_SQUARES};
use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Largest no-capture ply count a FEN may carry: at 120 the game is already drawn.
pub const MAX_RULE60: u16 = 119;

/// Why a FEN was refused. Each variant names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// The board field does not have 10 ranks.
    RankCount(usize),
    /// A rank (numbered 9 = first in the FEN down to 0) does not describe 9 points.
    RankLength {
        /// Rank number (0..9, Red's back rank is 0).
        rank: usize,
        /// How many points it described.
        len: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    UnknownPiece(char),
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color),
    /// More pieces of a kind than the game has.
    TooMany(Piece, u32),
    /// A king, advisor, elephant or soldier on a point it can never reach.
    ImpossibleSquare(Piece, Square),
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// The side that is not to move is in check (or the kings face each other).
    OpponentInCheck,
    /// The no-capture counter is not a number in 0..=119.
    BadHalfmove(String),
    /// The move number is not a positive number.
    BadFullmove(String),
    /// Fields 3 and 4 must be `-` when present (no castling or en passant in Xiangqi).
    BadField(String),
    /// Text after the six fields.
    TrailingText(String),
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 10"),
            FenError::RankLength { rank, len } => {
                write!(f, "rank {rank} describes {len} points, expected 9")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::MissingKing(c) => write!(f, "{} has no king", color_name(*c)),
            FenError::ExtraKing(c) => write!(f, "{} has more than one king", color_name(*c)),
            FenError::TooMany(p, n) => write!(
                f,
                "{} has {n} pieces '{}', at most {} allowed",
                color_name(p.color()),
                p.letter(),
                p.kind().max_count()
            ),
            FenError::ImpossibleSquare(p, sq) => {
                write!(f, "'{}' can never stand on {sq}", p.letter())
            }
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::OpponentInCheck => {
                write!(
                    f,
                    "the side not to move is in check (or the kings face each other)"
                )
            }
            FenError::BadHalfmove(s) => {
                write!(
                    f,
                    "no-capture counter '{s}' is not a number in 0..={MAX_RULE60}"
                )
            }
            FenError::BadFullmove(s) => write!(f, "move number '{s}' is not a positive number"),
            FenError::BadField(s) => write!(f, "unexpected field '{s}', expected '-'"),
            FenError::TrailingText(s) => write!(f, "unexpected text after the FEN: '{s}'"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses and validates a FEN. Never panics; the error names the first problem found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        let mut counts = [0u32; 14];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownPiece(c));
                    }
                    file += d as usize;
                    continue;
                }
                let kind = PieceKind::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                if file >= 9 {
                    return Err(FenError::RankLength {
                        rank,
                        len: file + 1,
                    });
                }
                let piece = Piece::new(color, kind);
                let sq = Square::from_coords(file as i32, rank as i32)
                    .ok_or(FenError::RankLength { rank, len: file })?;
                pos.put(piece, sq);
                counts[piece.index()] += 1;
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, len: file });
            }
        }
        for color in Color::ALL {
            match counts[Piece::new(color, PieceKind::King).index()] {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                _ => return Err(FenError::ExtraKing(color)),
            }
        }
        for piece in Piece::ALL {
            if counts[piece.index()] > piece.kind().max_count() {
                return Err(FenError::TooMany(piece, counts[piece.index()]));
            }
            let allowed = match piece.kind() {
                PieceKind::King => PALACE[piece.color().index()],
                PieceKind::Advisor => ADVISOR_SQUARES[piece.color().index()],
                PieceKind::Elephant => ELEPHANT_SQUARES[piece.color().index()],
                PieceKind::Soldier => SOLDIER_SQUARES[piece.color().index()],
                _ => continue,
            };
            if let Some(sq) = pos.pieces(piece).andnot(allowed).first() {
                return Err(FenError::ImpossibleSquare(piece, sq));
            }
        }

        let side = match fields.next() {
            None | Some("w") | Some("W") | Some("r") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        pos.set_side(side);
        for _ in 0..2 {
            match fields.next() {
                None | Some("-") => {}
                Some(s) => return Err(FenError::BadField(s.to_string())),
            }
        }
        let rule60 = match fields.next() {
            None => 0,
            Some(s) => match s.parse::<u16>() {
                Ok(n) if n <= MAX_RULE60 => n,
                _ => return Err(FenError::BadHalfmove(s.to_string())),
            },
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n <= 100_000 => n.max(1),
                _ => return Err(FenError::BadFullmove(s.to_string())),
            },
        };
        if let Some(s) = fields.next() {
            return Err(FenError::TrailingText(s.to_string()));
        }
        pos.set_counters(rule60, fullmove);
        pos.finish_setup();
        let them = side.flip();
        if pos.attackers_to(pos.king_square(them), side).any() {
            return Err(FenError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Writes the canonical FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let sq = Square::from_coords(file, rank).expect("on board");
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
        s.push_str(match self.side_to_move() {
            Color::Red => " w - - ",
            Color::Black => " b - - ",
        });
        // The 60-move rule's count (checks beyond a side's tenth not counted): it is what the
        // rule is judged on, and stays within the range the reader accepts.
        s.push_str(&format!("{} {}", self.rule60_count(), self.fullmove()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
        assert!(pos.is_consistent());
    }

    #[test]
    fn aliases_and_missing_fields() {
        let a = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
            .unwrap();
        assert_eq!(a.to_fen(), START_FEN);
        let b = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
            .unwrap();
        assert_eq!(b.to_fen(), START_FEN);
    }
}
