//! perft for any game: the leaf count under each root move, timed. Each game counts the
//! leaves itself ([`Rules::perft`]), as fast as its move generator allows.

use crate::game::Rules;
use std::time::{Duration, Instant};

/// The result of a perft with divide.
pub struct PerftReport {
    /// Leaf count below each root move (move text, count), in generation order.
    pub divide: Vec<(String, u64)>,
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

/// perft of `pos` to `depth`, with the count for each root move.
pub fn divide<R: Rules>(pos: &mut R, depth: u32) -> PerftReport {
    let start = Instant::now();
    pos.reserve(depth as usize + 1);
    let d = pos.divide(depth);
    PerftReport {
        divide: d.moves,
        nodes: d.nodes,
        elapsed: start.elapsed(),
    }
}
