//! Microchess FEN: `2R1/3r/Kk2/4 w - - 0 1`: ranks 4 down to 1, files a–d, `K R` White's
//! king and rook, `k r` Black's; side to move; two `-` placeholders; plies since the last
//! capture; the move number. Plies played = `2 * (move number - 1)` (+ 1 with Black to
//! move); the game ends after 30. Trailing fields may be left out (White to move, move 1).
//!
//! Reading refuses, with a one-line reason, anything that is not a Microchess position:
//! another board size, other piece letters, a piece twice, more than 30 plies, or a
//! position without a king that play cannot reach (see [`Position::from_placement`]).

use super::error::MicrochessFenError;
use super::position::{Position, MAX_PLIES};
use super::types::{Piece, Side, Square, SIZE};

/// The handout's example position.
pub const HANDOUT_FEN: &str = "2R1/3r/Kk2/4 w - - 0 1";

impl Position {
    /// Reads a FEN, with the reason when it is not a Microchess position.
    pub fn from_fen(fen: &str) -> Result<Position, MicrochessFenError> {
        use MicrochessFenError as E;
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(E::Empty)?;
        let pieces = read_board(board)?;
        let side = match fields.next() {
            None | Some("w") => Side::White,
            Some("b") => Side::Black,
            Some(s) => return Err(E::BadSide(s.to_string())),
        };
        for _ in 0..2 {
            match fields.next() {
                None | Some("-") => {}
                Some(s) => return Err(E::BadField(s.to_string())),
            }
        }
        let halfmove = match fields.next() {
            None => 0,
            Some(s) => match s.parse::<u8>() {
                Ok(n) if n <= MAX_PLIES => n,
                _ => {
                    return Err(E::BadHalfmove {
                        text: s.to_string(),
                        max: MAX_PLIES,
                    })
                }
            },
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(E::BadFullmove(s.to_string())),
            },
        };
        if let Some(extra) = fields.next() {
            return Err(E::TrailingText(extra.to_string()));
        }
        let plies = 2 * (u64::from(fullmove) - 1) + side.index() as u64;
        if plies > u64::from(MAX_PLIES) {
            return Err(E::PastTheEnd {
                fullmove: Some(fullmove),
                side,
                plies,
                max: MAX_PLIES,
            });
        }
        let pos = Position::from_parts(pieces, plies as u8, halfmove);
        pos.check_reachable()?;
        Ok(pos)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..SIZE as i8).rev() {
            let mut empty = 0;
            for file in 0..SIZE as i8 {
                match Square::from_coords(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Side::White => 'w',
            Side::Black => 'b',
        };
        format!(
            "{s} {side} - - {} {}",
            self.halfmove(),
            self.plies() / 2 + 1
        )
    }
}

/// The board field: the square of each piece (`None`: not on the board).
fn read_board(board: &str) -> Result<[Option<Square>; 4], MicrochessFenError> {
    use MicrochessFenError as E;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != SIZE as usize {
        return Err(E::RankCount(ranks.len()));
    }
    let mut pieces: [Option<Square>; 4] = [None; 4];
    for (i, text) in ranks.iter().enumerate() {
        let rank = SIZE as i8 - 1 - i as i8;
        let mut file: i8 = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > u32::from(SIZE) {
                    return Err(E::EmptyCount {
                        digit: c,
                        rank: rank + 1,
                    });
                }
                file += d as i8;
                if file > SIZE as i8 {
                    break;
                }
                continue;
            }
            let piece = Piece::from_letter(c).ok_or(E::UnknownPiece(c))?;
            let Some(sq) = Square::from_coords(file, rank) else {
                file += 1;
                break;
            };
            if pieces[piece.index()].is_some() {
                return Err(E::Twice(c));
            }
            pieces[piece.index()] = Some(sq);
            file += 1;
        }
        if file != SIZE as i8 {
            return Err(E::RankLength {
                rank: rank + 1,
                text: text.to_string(),
            });
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handout_fen_round_trips() {
        let pos = Position::from_fen(HANDOUT_FEN).unwrap();
        assert_eq!(pos, Position::handout());
        assert_eq!(pos.to_fen(), HANDOUT_FEN);
        let black = Position::from_fen("2R1/3r/Kk2/4 b - - 3 4").unwrap();
        assert_eq!(black.plies(), 7);
        assert_eq!(black.halfmove(), 3);
        assert_eq!(black.to_fen(), "2R1/3r/Kk2/4 b - - 3 4");
        assert_eq!(Position::from_fen("2R1/3r/Kk2/4").unwrap(), pos);
    }
}
