//! Counting: the start positions, what the solution says about them, and the handout's
//! "board positions".
//!
//! A **board position** (the handout's counting question) is a placement of the pieces
//! still on the board with an indicator: White to move, Black to move, or the game
//! ended by a king capture. A last-move state counts as its victim to move; the ply
//! count is not part of a board position (a board drawn on ply 30, or captured on ply 30
//! without a last move, counts as the same board with plies left).
//!
//! The handout counts by **kind**: which pieces are on the board and which indicator,
//! every placement of those pieces counting once. The kinds are those reachable from
//! the 43,680 starts (say, "White's king and rook and Black's rook, game over" is, "no
//! piece at all" is not: the last king falls to a rook), so the count is computed here,
//! not enumerated by hand: [`Census::board_positions`], 116,464. Exact reachability is
//! slightly finer: [`Census::boards`] holds the (placement, indicator) pairs
//! that play reaches, 16 fewer: a game that ends with the victim's rook, which has just
//! made the last move, in a corner between the capturer's king and rook cannot happen
//! (the rook could not have got there), 4 corners × 2 × 2 colours.

use jiang::microchess::position::{starts, Position, Status, PLACEMENT_CODES};
use jiang::microchess::solve::Solution;
use jiang::microchess::table::{layer, StateTable};
use jiang::microchess::types::{Kind, Piece, Side, Square};
use std::collections::HashSet;

/// What the solution says about the starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFigures {
    /// How many starts.
    pub starts: usize,
    /// `guaranteed[side][payoff]`: starts where `side` (0 White, 1 Black) is guaranteed
    /// exactly `payoff` (0..=3).
    pub guaranteed: [[usize; 4]; 2],
}

/// Counts the starts by each side's guaranteed payoff.
pub fn start_figures(solution: &Solution) -> StartFigures {
    let mut figures = StartFigures {
        starts: 0,
        guaranteed: [[0; 4]; 2],
    };
    for pos in starts() {
        let value = solution.value(&pos);
        figures.starts += 1;
        for side in 0..2 {
            figures.guaranteed[side][usize::from(value.guaranteed[side])] += 1;
        }
    }
    figures
}

/// The states reachable from the starts by legal play.
pub fn reachable() -> StateTable<bool> {
    let mut seen = StateTable::new(false);
    for pos in starts() {
        seen.set(&pos, true);
    }
    for plies in 0..=jiang::microchess::position::MAX_PLIES {
        for pos in layer(plies) {
            if seen.get(&pos) {
                for &m in pos.legal_moves().iter() {
                    seen.set(&pos.after(m), true);
                }
            }
        }
    }
    seen
}

/// The indicator of a board position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Indicator {
    /// The game goes on (perhaps with the last rook move) and this side is to move.
    ToMove(Side),
    /// The game ended by a king capture.
    Ended,
}

/// A board position: where the pieces stand (White king, White rook, Black king, Black
/// rook; `None` when captured) and the indicator.
pub type Board = ([Option<Square>; 4], Indicator);

/// The board position of a state, decided by the board alone (not the ply count).
pub fn board(pos: &Position) -> Board {
    let to_move = pos.side_to_move();
    let king = |s: Side| pos.has(Piece::new(s, Kind::King));
    let last_move =
        !king(to_move) && king(to_move.flip()) && pos.has(Piece::new(to_move, Kind::Rook));
    let indicator = if (king(Side::White) && king(Side::Black)) || last_move {
        Indicator::ToMove(to_move)
    } else {
        Indicator::Ended
    };
    (pos.placement(), indicator)
}

/// Counts of the reachable part of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// Reachable states (placement and ply count).
    pub states: usize,
    /// Reachable states in which the game goes on (moves to make).
    pub live_states: usize,
    /// The board positions that play reaches.
    pub boards: HashSet<Board>,
    /// Board positions as the handout counts them: every placement of each reachable
    /// kind (pieces on the board, indicator); module documentation.
    pub board_positions: usize,
}

/// Which pieces are on the board, one bit each in [`Piece::index`] order.
fn material(placement: &[Option<Square>; 4]) -> u8 {
    placement
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_some())
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Placements of `n` distinct pieces on 16 squares: 16 · 15 · … (n factors).
fn placements_of(n: u32) -> usize {
    (0..n as usize).map(|i| 16 - i).product()
}

/// Counts the reachable states and board positions.
pub fn census() -> Census {
    let seen = reachable();
    let mut census = Census {
        states: 0,
        live_states: 0,
        boards: HashSet::new(),
        board_positions: 0,
    };
    // Dedupe through a flat table (placement code × 3 indicators) before hashing.
    let mut met = vec![false; PLACEMENT_CODES * 3];
    for plies in 0..=jiang::microchess::position::MAX_PLIES {
        for pos in layer(plies).filter(|p| seen.get(p)) {
            census.states += 1;
            if !matches!(pos.status(), Status::Over(_)) {
                census.live_states += 1;
            }
            let b = board(&pos);
            let slot = pos.placement_code() * 3
                + match b.1 {
                    Indicator::ToMove(side) => side.index(),
                    Indicator::Ended => 2,
                };
            if !met[slot] {
                met[slot] = true;
                census.boards.insert(b);
            }
        }
    }
    let kinds: HashSet<(u8, Indicator)> = census
        .boards
        .iter()
        .map(|(placement, indicator)| (material(placement), *indicator))
        .collect();
    census.board_positions = kinds
        .iter()
        .map(|&(material, _)| placements_of(material.count_ones()))
        .sum();
    census
}
