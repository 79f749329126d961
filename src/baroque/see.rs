//! Exchange tests for Baroque: what "capture" and SEE mean here.
//!
//! A **capture** is any move that removes at least one enemy piece, by any method:
//! displacement (king, imitator on a king), custodial (pincer, imitator on pincers),
//! withdrawal, leap, coordination. Quiescence searches exactly these moves, and move
//! ordering ranks them by the total value removed.
//!
//! Classical SEE (a sequence of recaptures on one square) does not fit: a recapture need
//! not land on the square (withdrawal, leap, coordination capture from a distance), and one
//! move may remove several pieces. jiang's SEE is one reply deep:
//!
//! > `see(m) = gain(m)` if the moved piece cannot be captured on its destination by the
//! > opponent's next move, else `gain(m) − value(mover)`,
//!
//! where `gain(m)` is the total value `m` removes and "can be captured" is the exact
//! test of [`can_capture`] (every method, only unfrozen attackers, the imitator's
//! restrictions) on the board after `m` (its captures removed, the mover moved, freezing
//! recomputed). It ignores other pieces `m` leaves en prise and further exchanges; it is
//! cheap (no make/unmake) and never calls a safe capture bad. A king's value is
//! [`KING_VALUE`]: taking the king is always good, and a king stepping where it can be
//! taken is always bad.

use super::bitboard::squares;
use super::captures::can_capture;
use super::eval::{piece_value, KING_VALUE};
use super::position::Position;
use super::types::{Move, PieceKind};

/// Total value of the enemy pieces `m` removes.
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    let caught = pos.captures_of(m);
    if caught == 0 {
        return 0;
    }
    squares(caught)
        .filter_map(|sq| pos.piece_at(sq))
        .map(|p| piece_value(p.kind()))
        .sum()
}

/// Whether `see(m) ≥ threshold` (module docs).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let Some(mover) = pos.piece_at(m.from()) else {
        return false;
    };
    let gain = captured_value(pos, m);
    if gain < threshold {
        return false;
    }
    if gain >= KING_VALUE {
        return true;
    }
    let risk = piece_value(mover.kind());
    if gain - risk >= threshold {
        return true;
    }
    let (after, _) = pos.board_after(m);
    !can_capture(&after, m.to(), mover.kind(), pos.side_to_move().flip())
}

/// Whether `m` leaves the enemy king capturable by the mover's side (a king capture
/// itself does not count: the game is over).
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let them = pos.side_to_move().flip();
    let (after, caught) = pos.board_after(m);
    if caught & pos.board().of(them, PieceKind::King) != 0 {
        return false;
    }
    match after.king(them) {
        Some(k) => can_capture(&after, k, PieceKind::King, pos.side_to_move()),
        None => false,
    }
}

/// Whether `m` leaves the mover's king safe from capture on the opponent's next move, or
/// takes the enemy king (an *evasion* when the mover's king is attacked).
pub fn is_evasion(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (after, caught) = pos.board_after(m);
    if caught & pos.board().of(us.flip(), PieceKind::King) != 0 {
        return true;
    }
    match after.king(us) {
        Some(k) => !can_capture(&after, k, PieceKind::King, us.flip()),
        None => false,
    }
}
