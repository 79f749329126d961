//! Xiangqi's left-right mirror: the rules are the same with files a..i read as i..a, so
//! a position and its mirror image are one opening (the book stores one of the two, see
//! `crate::book`).

use super::position::Position;
use super::types::{Color, Move, Square};
use super::zobrist;

/// The square on the other side of the middle file (`a3` ⇄ `i3`).
pub const fn mirror_square(sq: Square) -> Square {
    // rank * 9 + file → rank * 9 + (8 - file); always on the board.
    Square::from_index_unchecked(sq.index() - sq.file() as usize + (8 - sq.file() as usize))
}

/// The move mirrored left to right (`h2e2` ⇄ `b2e2`).
pub const fn mirror_move(m: Move) -> Move {
    Move::new(mirror_square(m.from()), mirror_square(m.to()))
}

impl Position {
    /// The Zobrist key the mirror image of this position would have (computed from the
    /// board: for the book's probe at the root, never in the search).
    pub fn mirrored_key(&self) -> u64 {
        let mut key = 0;
        for i in 0..Square::COUNT {
            let sq = Square::from_index_unchecked(i);
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::PIECE_SQUARE[p.index()][mirror_square(sq).index()];
            }
        }
        if self.side_to_move() == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn mirror_of_the_start_is_the_start() {
        let pos = Position::startpos();
        assert_eq!(pos.mirrored_key(), pos.key());
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(mirror_move(m).to_string(), "b2e2");
        assert_eq!(mirror_move(mirror_move(m)), m);
    }

    #[test]
    fn mirrored_positions_share_their_keys() {
        let mut a = Position::startpos();
        let mut b = Position::startpos();
        for (x, y) in [("h2e2", "b2e2"), ("h9g7", "b9c7"), ("h0g2", "b0c2")] {
            a.play(a.parse_legal_move(x).unwrap());
            b.play(b.parse_legal_move(y).unwrap());
        }
        assert_ne!(a.key(), b.key());
        assert_eq!(a.mirrored_key(), b.key());
        assert_eq!(b.mirrored_key(), a.key());
    }
}
