//! FEN reading (validated, never panicking) and writing.
//!
//! Accepted: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`, with
//! `H`/`E` for horse/elephant, `r` for Red to move, and any trailing fields missing.
//! Written: canonical letters `KABNRCP`, `w`/`b`, `- -`, the no-capture plies, the move
//! number.

use super::bitboard::{ADVISOR_SQUARES, ELEPHANT_SQUARES, PALACE, SOLDIER_SQUARES};
use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use crate::common::fen::{self, FenError, FenFields};
use crate::game::Rules;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Largest no-capture ply count a FEN may carry: at 120 the game is already drawn.
pub const MAX_RULE60: u16 = 119;

impl Position {
    /// Parses and validates a FEN. Never panics; the error names the first problem found.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = FenFields::new(fen);
        let ranks = fen::split_ranks(fields.board()?, 10)?;
        let mut pos = Position::empty();
        let mut counts = [0u32; 14];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i;
            fen::read_rank(text, 9, rank, |file, c| {
                let kind = PieceKind::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                let color = if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let piece = Piece::new(color, kind);
                if let Some(sq) = Square::from_coords(file as i32, rank as i32) {
                    pos.put(piece, sq);
                    counts[piece.index()] += 1;
                }
                Ok(())
            })?;
        }
        pos.validate_pieces(&counts)?;
        let side =
            Color::from_index(fields.side([&["w", "W", "r", "R"], &["b", "B"]], "w, r or b")?);
        fields.placeholders()?;
        let rule60 = fields.halfmove(u32::from(MAX_RULE60))?;
        // A move number of 0 is read as 1.
        let fullmove = fields.fullmove(0..=100_000)?.max(1);
        fields.finish()?;
        pos.finish_validated(side, rule60 as u16, fullmove)
    }

    /// A position from a list of pieces and the side to move (no-capture count 0, move
    /// 1), validated as [`Position::from_fen`] validates: the tablebase generator and
    /// its tests set positions up this way, without writing FEN text.
    pub fn from_pieces(pieces: &[(Piece, Square)], side: Color) -> Result<Position, FenError> {
        let mut pos = Position::empty();
        let mut counts = [0u32; 14];
        for &(piece, sq) in pieces {
            if pos.piece_at(sq).is_some() {
                return Err(FenError::ImpossibleSquare {
                    letter: piece.letter(),
                    square: sq.to_string(),
                });
            }
            pos.put(piece, sq);
            counts[piece.index()] += 1;
        }
        pos.validate_pieces(&counts)?;
        pos.finish_validated(side, 0, 1)
    }

    /// The checks of the pieces every set-up passes: one king each, piece counts, and
    /// the squares kings, advisors, elephants and soldiers can stand on.
    fn validate_pieces(&self, counts: &[u32; 14]) -> Result<(), FenError> {
        let pos = self;
        let name = |c: Color| Position::PLAYERS[c.index()];
        for color in Color::ALL {
            match counts[Piece::new(color, PieceKind::King).index()] {
                0 => return Err(FenError::MissingKing(name(color))),
                1 => {}
                _ => return Err(FenError::ExtraKing(name(color))),
            }
        }
        for piece in Piece::ALL {
            let count = counts[piece.index()];
            if count > piece.kind().max_count() {
                return Err(FenError::TooMany {
                    side: name(piece.color()),
                    letter: piece.letter(),
                    count,
                    max: piece.kind().max_count(),
                });
            }
            let allowed = match piece.kind() {
                PieceKind::King => PALACE[piece.color().index()],
                PieceKind::Advisor => ADVISOR_SQUARES[piece.color().index()],
                PieceKind::Elephant => ELEPHANT_SQUARES[piece.color().index()],
                PieceKind::Soldier => SOLDIER_SQUARES[piece.color().index()],
                _ => continue,
            };
            if let Some(sq) = pos.pieces(piece).andnot(allowed).first() {
                return Err(FenError::ImpossibleSquare {
                    letter: piece.letter(),
                    square: sq.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Sets the side and counters, computes the key, and refuses a position whose side
    /// not to move is in check.
    fn finish_validated(
        mut self,
        side: Color,
        rule60: u16,
        fullmove: u32,
    ) -> Result<Position, FenError> {
        let pos = &mut self;
        pos.set_side(side);
        pos.set_counters(rule60, fullmove);
        pos.finish_setup();
        let them = side.flip();
        if pos.attackers_to(pos.king_square(them), side).any() {
            return Err(FenError::OpponentInCheck);
        }
        Ok(self)
    }

    /// Writes the canonical FEN.
    pub fn to_fen(&self) -> String {
        let board = fen::write_board(9, 10, |file, rank| {
            Square::from_coords(file as i32, rank as i32)
                .and_then(|sq| self.piece_at(sq))
                .map(|p| p.letter())
        });
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        // The 60-move rule's count (checks beyond a side's tenth not counted): it is what the
        // rule is judged on, and stays within the range the reader accepts.
        format!(
            "{board} {side} - - {} {}",
            self.rule60_count(),
            self.fullmove()
        )
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
