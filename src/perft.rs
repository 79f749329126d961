//! perft for every game: the number of legal move sequences of exactly `depth` plies from
//! a position, the standard proof of a move generator, with the count under each root
//! move (divide) and its speed.
//!
//! One definition for all games: depth 0 of any position is 1, and a position whose game
//! is over has no moves (its [`Rules::perft_moves`] is empty), so a game that ends above
//! the last ply contributes nothing to the deeper counts. The walk is make/unmake through
//! the game's [`Rules::perft_make`]/[`Rules::perft_unmake`]; the last ply is counted by
//! [`Rules::perft_count`], in bulk where the game can (Xiangqi counts target sets without
//! listing the moves).

use crate::common::clock::Instant;
use crate::game::Rules;
use crate::movelist::MoveList;
use std::time::Duration;

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

/// Number of legal move sequences `depth` plies long from `pos` (leaves of the legal move
/// tree). `pos` is left as it was. Allocates nothing once [`Rules::reserve`] made room for
/// `depth` plies.
pub fn perft<R: Rules>(pos: &mut R, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.perft_count(),
        _ => {
            let mut list = MoveList::new();
            pos.perft_moves(&mut list);
            let mut nodes = 0;
            for &m in list.iter() {
                let undo = pos.perft_make(m);
                nodes += perft(pos, depth - 1);
                pos.perft_unmake(m, undo);
            }
            nodes
        }
    }
}

/// perft of `pos` to `depth`, with the count for each root move, timed.
pub fn divide<R: Rules>(pos: &mut R, depth: u32) -> PerftReport {
    let start = Instant::now();
    pos.reserve(depth as usize + 1);
    let mut divide = Vec::new();
    let mut nodes = 1;
    if depth > 0 {
        let mut list = MoveList::new();
        pos.perft_moves(&mut list);
        nodes = 0;
        for &m in list.iter() {
            let undo = pos.perft_make(m);
            let n = perft(pos, depth - 1);
            pos.perft_unmake(m, undo);
            divide.push((m.to_string(), n));
            nodes += n;
        }
    }
    PerftReport {
        divide,
        nodes,
        elapsed: start.elapsed(),
    }
}
