//! Xiangqi perft: counts the leaf nodes of the legal move tree, the standard proof of a
//! move generator. Leaves are counted in bulk: at depth 1 the legal moves are counted
//! (popcounts of target sets), not listed.

use super::{GenType, Position};
use crate::movelist::MoveList;

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
