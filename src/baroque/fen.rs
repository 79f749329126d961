//! FEN (rule book section 10): `board side - - halfmove fullmove`.
//!
//! Accepted: exactly 8 ranks of 8 squares, letters `PCLIWKF` (upper case White), at most
//! one king per colour, side `w`/`b`, `-` in fields 3 and 4; the two counters may be left
//! out (then 0 and 1), and so may fields 3 and 4 together with them. A missing king is
//! allowed: that position is a finished game. Anything else is refused with a one-line
//! reason, and nothing is built.

use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use crate::common::fen::{self, FenError, FenFields};

/// The start position (section 3).
pub const START_FEN: &str = "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1";

/// The field counts a Baroque FEN may have, in words for [`FenError::FieldCount`].
const FIELDS: &str = "6 (board side - - halfmove fullmove; the last two or four may be left out)";

impl Position {
    /// Reads a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let count = fen.split_whitespace().count();
        if count != 0 && ![2, 4, 6].contains(&count) && count != 1 {
            return Err(FenError::FieldCount {
                found: count,
                expected: FIELDS,
            });
        }
        let mut fields = FenFields::new(fen);
        let ranks = fen::split_ranks(fields.board()?, 8)?;
        let mut pos = Position::empty();
        let mut kings = [0; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 7 - i as i32;
            fen::read_rank(text, 8, rank as usize + 1, |file, c| {
                let piece = Piece::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
                if piece.kind() == PieceKind::King {
                    kings[piece.color().index()] += 1;
                    if kings[piece.color().index()] > 1 {
                        return Err(FenError::ExtraKing(piece.color().name()));
                    }
                }
                if let Some(sq) = Square::from_coords(file as i32, rank) {
                    pos.put(piece, sq);
                }
                Ok(())
            })?;
        }
        if count == 1 {
            return Err(FenError::FieldCount {
                found: 1,
                expected: FIELDS,
            });
        }
        pos.set_side(Color::from_index(fields.side([&["w"], &["b"]], "w or b")?));
        fields.placeholders()?;
        let halfmove = fields.halfmove(u32::MAX)?;
        let fullmove = fields.fullmove(1..=1_000_000)?;
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
