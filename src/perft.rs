//! perft: counts the leaf nodes of the legal move tree, the standard proof of a move
//! generator. Leaves are counted in bulk: at depth 1 the legal moves are counted (popcounts
//! of target sets), not listed.

use crate::movelist::MoveList;
use crate::xiangqi::{GenType, Move, Position};
use std::time::{Duration, Instant};

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move(m);
    }
    nodes
}

/// The result of a perft with divide.
pub struct PerftReport {
    /// Leaf count below each root move, in generation order.
    pub divide: Vec<(Move, u64)>,
    /// Total leaf count.
    pub nodes: u64,
    /// Wall time spent.
    pub elapsed: Duration,
}

impl PerftReport {
    /// Leaf nodes per second.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// perft with the count for each root move.
pub fn divide(pos: &mut Position, depth: u32) -> PerftReport {
    let start = Instant::now();
    pos.reserve_history(depth as usize + 1);
    let mut divide = Vec::new();
    let mut nodes = 0;
    if depth == 0 {
        nodes = 1;
    } else {
        for &m in pos.legal_moves().iter() {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move(m);
            divide.push((m, n));
            nodes += n;
        }
    }
    PerftReport {
        divide,
        nodes,
        elapsed: start.elapsed(),
    }
}
