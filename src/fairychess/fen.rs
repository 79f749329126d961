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
use crate::common::fen::{self, FenError, FenFields};

/// The start position jiang uses when none is given. The course has no fixed start (its
/// cases are arbitrary armies); jiang's is a full army of every piece in chess's order,
/// the squire in the queen's place and a rank of combatants as pawns, so that a game from
/// `startpos` (and XBoard, which takes the start from `setup`) has something to play.
pub const START_FEN: &str = "rnbskbnr/cccccccc/8/8/8/8/CCCCCCCC/RNBSKBNR w - - 0 1";

/// Largest move number accepted (far past the 100-ply limit).
pub const MAX_FULLMOVE: u32 = 100_000;

impl Position {
    /// Parses and validates a FEN. Never panics; the error names the first problem found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = FenFields::new(fen);
        let ranks = fen::split_ranks(fields.board()?, 8)?;
        let mut pos = Position::empty();
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i;
            fen::read_rank(text, 8, rank + 1, |file, c| {
                let p = Piece::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                if let Some(sq) = Square::from_coords(file as u8, rank as u8) {
                    pos.put(p, sq);
                }
                Ok(())
            })?;
        }
        for color in Color::ALL {
            match pos.pieces(color, PieceKind::King).count_ones() {
                0 => return Err(FenError::MissingKing(color.name())),
                1 => {}
                _ => return Err(FenError::ExtraKing(color.name())),
            }
        }
        let side = Color::from_index(fields.side([&["w"], &["b"]], "w or b")?);
        fields.placeholders()?;
        let halfmove = fields.halfmove(2 * MAX_FULLMOVE)?;
        let fullmove = fields.fullmove(1..=MAX_FULLMOVE)?;
        fields.finish()?;
        let ply = 2 * (fullmove - 1) + u32::from(side == Color::Black);
        pos.set_state(side, halfmove, ply);
        pos.finish_setup();
        Ok(pos)
    }

    /// The position as FEN (board, side, `- -`, halfmove clock, move number).
    pub fn to_fen(&self) -> String {
        let board = fen::write_board(8, 8, |file, rank| {
            Square::from_coords(file as u8, rank as u8)
                .and_then(|sq| self.piece_at(sq))
                .map(|p| p.letter())
        });
        let side = match self.side_to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        };
        format!(
            "{board} {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove()
        )
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
                FenError::MissingKing("White"),
            ),
            (
                "4K3/8/8/8/8/8/8/8 w - - 0 1",
                FenError::MissingKing("Black"),
            ),
            ("8/8/8/8/8/8/8/8 w - - 0 1", FenError::MissingKing("White")),
            (
                "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
                FenError::ExtraKing("White"),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                FenError::RankCount {
                    found: 10,
                    expected: 8,
                },
            ),
            (
                "4k3/8/8/8/8/8/8 w - - 0 1",
                FenError::RankCount {
                    found: 7,
                    expected: 8,
                },
            ),
            (
                "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
                FenError::RankLength {
                    rank: 8,
                    len: 9,
                    expected: 8,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
                FenError::RankLength {
                    rank: 1,
                    len: 7,
                    expected: 8,
                },
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
                FenError::BadSide {
                    found: "x".into(),
                    expected: "w or b",
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                FenError::BadField("KQkq".into()),
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                FenError::BadHalfmove {
                    text: "x".into(),
                    max: 2 * MAX_FULLMOVE,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
                FenError::BadFullmove {
                    text: "0".into(),
                    max: MAX_FULLMOVE,
                },
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
