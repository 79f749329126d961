//! How a Baroque game ends (section 9): king capture wins, no legal move draws, and the
//! 5000-ply limit draws. No repetition or fifty-move rule exists.

use super::movegen::has_legal_move;
use super::position::Position;
use super::types::{Color, PieceKind};
use crate::game::{GameEnd, Outcome};

/// How the game stands by the rules: `None` while it goes on.
pub fn game_end(pos: &Position) -> Option<GameEnd> {
    let b = pos.board();
    let white_king = b.of(Color::White, PieceKind::King) != 0;
    let black_king = b.of(Color::Black, PieceKind::King) != 0;
    let end = |result: &str, reason: String, winner: Option<usize>| GameEnd {
        result: result.to_string(),
        reason,
        winner,
    };
    match (white_king, black_king) {
        (false, false) => return Some(end("1/2-1/2", "no kings on the board".into(), None)),
        (true, false) => return Some(end("1-0", "White captures the king".into(), Some(0))),
        (false, true) => return Some(end("0-1", "Black captures the king".into(), Some(1))),
        (true, true) => {}
    }
    if pos.move_limit_reached() {
        return Some(end("1/2-1/2", "5000-ply limit".into(), None));
    }
    if !has_legal_move(pos) {
        let side = pos.side_to_move().name();
        return Some(end(
            "1/2-1/2",
            format!("{side} has no legal move: draw"),
            None,
        ));
    }
    None
}

/// The rules' verdict for the search at a node: the side to move's king is gone (a
/// loss), the enemy king is gone (a win, only from a set-up position), or the move limit
/// (a draw). No legal move (a draw, D13) is not looked for here: the search finds it
/// when no move is left to try and asks [`crate::game::Game::no_moves_outcome`].
#[inline]
pub fn rule_outcome(pos: &Position) -> Option<Outcome> {
    let b = pos.board();
    let us = pos.side_to_move();
    if b.of(us, PieceKind::King) == 0 {
        return Some(if b.of(us.flip(), PieceKind::King) == 0 {
            Outcome::Draw
        } else {
            Outcome::Loss
        });
    }
    if b.of(us.flip(), PieceKind::King) == 0 {
        return Some(Outcome::Win);
    }
    if pos.move_limit_reached() {
        return Some(Outcome::Draw);
    }
    None
}
