//! The capture rules (rule book sections 7 and 8): what a move removes, which destinations
//! make a capture (for staged generation), and whether a piece could be captured by the
//! other side's next move (for `in_check`, `gives_check` and SEE).
//!
//! Capture conditions are evaluated on the board **before** the move. That is exact: the
//! moving piece's start square is never a pincer partner (a pincer that started beyond
//! its partner would have had to pass through the victim), never a coordinator corner
//! with an enemy on it, and never the square behind a withdrawer or before a leap.

use super::bitboard::{
    bit, direction, file_mask, first_blocker, is_orthogonal, neighbours, opposite, queen_attacks,
    rank_mask, rook_attacks, shift, squares, step, Bitboard, NUM_DIRS,
};
use super::board::Board;
use super::types::{Color, Method, Move, PieceKind, Square};

/// Victims of a pincer-style move by `us` ending on `to`: each orthogonal neighbour in
/// `victims` with a piece of `us` just beyond it (7.1).
#[inline(always)]
pub fn pinched(board: &Board, us: Color, to: Square, victims: Bitboard) -> Bitboard {
    let friends = board.color(us);
    let mut caught = 0;
    for d in 0..4 {
        if let Some(v) = step(d, to) {
            if victims & bit(v) != 0 {
                if let Some(p) = step(d, v) {
                    if friends & bit(p) != 0 {
                        caught |= bit(v);
                    }
                }
            }
        }
    }
    caught
}

/// Victims of a coordinator-style move by `us` ending on `to`: the corners formed with
/// the own king that hold a piece of `victims` (7.4). Nothing without a king.
#[inline(always)]
pub fn coordinated(board: &Board, us: Color, to: Square, victims: Bitboard) -> Bitboard {
    match board.king(us) {
        Some(k) => {
            let corners = (file_mask(k.file()) & rank_mask(to.rank()))
                | (file_mask(to.file()) & rank_mask(k.rank()));
            corners & victims
        }
        None => 0,
    }
}

/// Victim of a withdrawal from `from` towards `to`: the square behind `from`, if it holds
/// a piece of `victims` (7.2).
#[inline(always)]
pub fn withdrawn(from: Square, to: Square, victims: Bitboard) -> Bitboard {
    match direction(from, to).and_then(|d| step(opposite(d), from)) {
        Some(behind) => bit(behind) & victims,
        None => 0,
    }
}

/// Victim of a leap from `from` landing on `to`: the square just before `to`, when it is
/// occupied and is not `from` (a plain slide has it empty) (7.3).
#[inline(always)]
pub fn leapt(board: &Board, from: Square, to: Square) -> Bitboard {
    match direction(from, to).and_then(|d| step(opposite(d), to)) {
        Some(v) if v != from => bit(v) & board.occ,
        _ => 0,
    }
}

/// Every enemy piece the move removes. `m` must be a move of `us`'s `kind` on `from`
/// (a generated move or one checked by `is_legal`).
#[inline(always)]
pub fn captured_by(board: &Board, us: Color, kind: PieceKind, m: Move) -> Bitboard {
    let them = us.flip();
    let enemy = board.color(them);
    let (from, to) = (m.from(), m.to());
    match kind {
        PieceKind::King => bit(to) & enemy,
        PieceKind::Pincer => pinched(board, us, to, enemy),
        PieceKind::Withdrawer => withdrawn(from, to, enemy),
        PieceKind::Coordinator => coordinated(board, us, to, enemy),
        PieceKind::Leaper => leapt(board, from, to) & enemy,
        PieceKind::Freezer => 0,
        PieceKind::Imitator => match m.method() {
            Method::Pincer => pinched(board, us, to, board.of(them, PieceKind::Pincer)),
            Method::Coordinator => {
                coordinated(board, us, to, board.of(them, PieceKind::Coordinator))
            }
            Method::Withdrawer => withdrawn(from, to, board.of(them, PieceKind::Withdrawer)),
            Method::Own => {
                (bit(to) & board.of(them, PieceKind::King))
                    | (leapt(board, from, to) & board.of(them, PieceKind::Leaper))
            }
        },
    }
}

/// Destinations where a pincer-style move of `us` pinches a piece of `victims`: squares
/// `t` with a victim at `t + d` and a piece of `us` at `t + 2d`, for an orthogonal `d`.
#[inline(always)]
pub fn pincer_targets(board: &Board, us: Color, victims: Bitboard) -> Bitboard {
    let friends = board.color(us);
    let mut t = 0;
    for d in 0..4 {
        let back = opposite(d);
        t |= shift(victims & shift(friends, back), back);
    }
    t
}

/// Destinations where a coordinator-style move of `us` captures a piece of `victims`: the
/// ranks of victims on the king's file and the files of victims on the king's rank.
#[inline(always)]
pub fn coordinator_targets(board: &Board, us: Color, victims: Bitboard) -> Bitboard {
    let Some(k) = board.king(us) else {
        return 0;
    };
    let mut t = 0;
    for v in squares(victims & file_mask(k.file())) {
        t |= rank_mask(v.rank());
    }
    for v in squares(victims & rank_mask(k.rank())) {
        t |= file_mask(v.file());
    }
    t
}

/// Whether `attacker` could capture the piece (of kind `kind`, of the other colour) on
/// `target` with its next move, by any method, on this board: only unfrozen attackers
/// move, and the imitator only takes the kinds it imitates (sections 7 and 8).
pub fn can_capture(board: &Board, target: Square, kind: PieceKind, attacker: Color) -> bool {
    let movable = board.color(attacker) & !board.frozen(attacker);
    let mine = |k: PieceKind| board.of(attacker, k) & movable;
    let imitators = mine(PieceKind::Imitator);
    let imitates = |k: PieceKind| if k == kind { imitators } else { 0 };
    let empty = !board.occ;
    let near = neighbours(target);

    // Displacement: the king, and an imitator onto a king.
    if near & (mine(PieceKind::King) | imitates(PieceKind::King)) != 0 {
        return true;
    }
    // Withdrawal: an adjacent withdrawer with room to step away.
    let withdrawers = mine(PieceKind::Withdrawer) | imitates(PieceKind::Withdrawer);
    if near & withdrawers != 0 {
        for w in squares(near & withdrawers) {
            let away = direction(target, w).and_then(|d| step(d, w));
            if away.is_some_and(|a| empty & bit(a) != 0) {
                return true;
            }
        }
    }
    // Leap: a leaper with a clear line to the target and an empty square beyond it.
    let leapers = mine(PieceKind::Leaper) | imitates(PieceKind::Leaper);
    if leapers != 0 {
        for d in 0..NUM_DIRS {
            let beyond = step(d, target);
            if beyond.is_some_and(|b| empty & bit(b) != 0) {
                if let Some(l) = first_blocker(opposite(d), target, board.occ) {
                    if leapers & bit(l) != 0 {
                        return true;
                    }
                }
            }
        }
    }
    // Custodial: a partner on one side, and a pincer able to slide to the other side.
    let pincers = mine(PieceKind::Pincer) | imitates(PieceKind::Pincer);
    if pincers != 0 {
        let partners = board.color(attacker);
        for d in 0..4 {
            let (Some(partner), Some(gap)) = (step(d, target), step(opposite(d), target)) else {
                continue;
            };
            if partners & bit(partner) != 0
                && empty & bit(gap) != 0
                && rook_attacks(gap, board.occ) & pincers != 0
            {
                return true;
            }
        }
    }
    // Coordination: the attacker's king shares a line with the target, and a coordinator
    // can slide to an empty square on the other line through the target.
    let coordinators = mine(PieceKind::Coordinator) | imitates(PieceKind::Coordinator);
    if coordinators != 0 {
        if let Some(k) = board.king(attacker) {
            let line = if k.file() == target.file() {
                rank_mask(target.rank())
            } else if k.rank() == target.rank() {
                file_mask(target.file())
            } else {
                0
            };
            if line != 0 {
                for c in squares(coordinators) {
                    if queen_attacks(c, board.occ) & line & empty != 0 {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether `m`'s destination (orthogonal or not) allows pincer imitation.
#[inline(always)]
pub fn orthogonal_move(m: Move) -> bool {
    direction(m.from(), m.to()).is_some_and(is_orthogonal)
}
