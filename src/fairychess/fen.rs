//! FEN reading (validated, never panicking) and writing.
//!
//! `kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1`: eight ranks from rank 8
//! down, letters `KRBNSC` (upper case White), the side to move `w`/`b`, two `-` (no
//! castling, no en passant), the plies since the last capture and the move number.
//! Missing trailing fields default to `w - - 0 1`.
//!
//! **Decision**: a FEN must have exactly one king of each side. A position without a
//! king only arises by playing (the king was captured and the game is over); it is never
//! set up, so a king-less FEN is refused.
//!
//! The move number fixes the 100-ply count: `plies = 2 * (fullmove - 1) + (1 if Black is
//! to move)`. A FEN at or past the limit is accepted (the game is then drawn).

use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// The start position jiang uses when none is given. The course has no fixed start (its
/// cases are arbitrary armies); jiang's is a full army of every piece in chess's order,
/// the squire in the queen's place and a rank of combatants as pawns, so that a game from
/// `startpos` (and XBoard, which takes the start from `setup`) has something to play.
pub const START_FEN: &str = "rnbskbnr/cccccccc/8/8/8/8/CCCCCCCC/RNBSKBNR w - - 0 1";

/// Largest move number accepted (far past the 100-ply limit).
pub const MAX_FULLMOVE: u32 = 100_000;

/// Why a FEN was refused; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// The board field does not have 8 ranks.
    RankCount(usize),
    /// A rank (8 = the first in the FEN) does not describe 8 squares.
    RankLength {
        /// Rank number 1..=8.
        rank: usize,
        /// How many squares it described.
        len: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    UnknownPiece(char),
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    ExtraKing(Color, u32),
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// Field 3 or 4 is not `-`.
    BadField(String),
    /// The halfmove clock is not a number.
    BadHalfmove(String),
    /// The move number is not a positive number up to [`MAX_FULLMOVE`].
    BadFullmove(String),
    /// Text after the six fields.
    TrailingText(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(10) => write!(
                f,
                "the board has 10 ranks, expected 8 (a Xiangqi FEN? this is fairychess, 8x8)"
            ),
            FenError::RankCount(n) => {
                write!(f, "the board has {n} ranks, expected 8 (fairychess is 8x8)")
            }
            FenError::RankLength { rank, len } => write!(
                f,
                "rank {rank} describes {len} squares, expected 8 (fairychess is 8x8)"
            ),
            FenError::UnknownPiece(c) => write!(
                f,
                "unknown piece letter '{c}' (fairychess pieces are K R B N S C, lower case for Black)"
            ),
            FenError::MissingKing(c) => write!(
                f,
                "{} has no king (a fairychess FEN needs one king of each side)",
                c.name()
            ),
            FenError::ExtraKing(c, n) => write!(f, "{} has {n} kings, expected one", c.name()),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w or b"),
            FenError::BadField(s) => write!(
                f,
                "unexpected field '{s}', expected '-' (fairychess has no castling or en passant)"
            ),
            FenError::BadHalfmove(s) => write!(f, "halfmove clock '{s}' is not a number"),
            FenError::BadFullmove(s) => write!(
                f,
                "move number '{s}' is not a number from 1 to {MAX_FULLMOVE}"
            ),
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
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position::empty();
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as usize;
                } else if let Some(p) = Piece::from_letter(c) {
                    // Past the 8th file nothing is placed; the count goes on so that the
                    // error can say how long the rank was.
                    if file < 8 {
                        if let Some(sq) = Square::from_coords(file as u8, rank as u8) {
                            pos.put(p, sq);
                        }
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece(c));
                }
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    len: file,
                });
            }
        }
        for color in Color::ALL {
            match pos.pieces(color, PieceKind::King).count_ones() {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                n => return Err(FenError::ExtraKing(color, n)),
            }
        }
        let side = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        for _ in 0..2 {
            match fields.next() {
                None | Some("-") => {}
                Some(s) => return Err(FenError::BadField(s.to_string())),
            }
        }
        let halfmove = match fields.next() {
            None => 0,
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|&h| h <= 2 * MAX_FULLMOVE)
                .ok_or_else(|| FenError::BadHalfmove(s.to_string()))?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(s) => s
                .parse::<u32>()
                .ok()
                .filter(|f| (1..=MAX_FULLMOVE).contains(f))
                .ok_or_else(|| FenError::BadFullmove(s.to_string()))?,
        };
        if let Some(rest) = fields.next() {
            let mut tail = rest.to_string();
            for t in fields {
                tail.push(' ');
                tail.push_str(t);
            }
            return Err(FenError::TrailingText(tail));
        }
        let ply = 2 * (fullmove - 1) + u32::from(side == Color::Black);
        pos.set_state(side, halfmove, ply);
        pos.finish_setup();
        Ok(pos)
    }

    /// The position as FEN (board, side, `- -`, halfmove clock, move number).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
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
        s.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove()
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for fen in [
            "kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1",
            "1c2CNk1/rB6/n7/4B3/C1b3N1/cR1Cn1c1/1b6/1C3c1K b - - 7 31",
            START_FEN,
        ] {
            let p = Position::from_fen(fen).unwrap();
            assert_eq!(p.to_fen(), fen);
            assert!(p.is_consistent());
        }
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 3 50").unwrap();
        assert_eq!(p.game_ply(), 99);
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3").unwrap();
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn errors_are_one_line() {
        let cases = [
            ("", FenError::Empty),
            (
                "4k3/8/8/8/8/8/8/8 w - - 0 1",
                FenError::MissingKing(Color::White),
            ),
            (
                "4K3/8/8/8/8/8/8/8 w - - 0 1",
                FenError::MissingKing(Color::Black),
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1",
                FenError::MissingKing(Color::White),
            ),
            (
                "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
                FenError::ExtraKing(Color::White, 2),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                FenError::RankCount(10),
            ),
            ("4k3/8/8/8/8/8/8 w - - 0 1", FenError::RankCount(7)),
            (
                "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
                FenError::RankLength { rank: 8, len: 9 },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
                FenError::RankLength { rank: 1, len: 7 },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2QQ w - - 0 1",
                FenError::UnknownPiece('Q'),
            ),
            (
                "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
                FenError::UnknownPiece('p'),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
                FenError::BadSide("x".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                FenError::BadField("KQkq".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                FenError::BadHalfmove("x".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
                FenError::BadFullmove("0".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
                FenError::TrailingText("extra".into()),
            ),
        ];
        for (fen, want) in cases {
            let got = Position::from_fen(fen).unwrap_err();
            assert_eq!(got, want, "{fen}");
            assert!(!got.to_string().contains('\n'));
        }
    }
}
