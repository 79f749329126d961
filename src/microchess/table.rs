//! A value for every Microchess state, and backward induction to fill it.
//!
//! A state is a placement (each piece on its square or captured) and the plies played,
//! 0..=30; the ply count also says whose turn it is and whether a king-less position is
//! a last-move state. Every state with distinct squares is in the table, 58,625
//! placements × 31 ply counts = 1,817,375 states: every state play can reach, and the
//! few it cannot (a study position with no rooks on ply 0), so that any position the
//! FEN reader accepts has a value. A move always adds one ply, so the states of ply
//! `p` depend only on those of ply `p + 1`: backward induction is one sweep from ply 30
//! down to 0, no iteration to a fixed point. The moves are generated once per placement
//! and side to move (`MoveGraph`), not once per state.

use super::position::{Position, MAX_PLIES, PLACEMENT_CODES};
use super::types::Move;
use crate::movelist::{ListMove, MoveList};
use once_cell::sync::Lazy;

/// Ply counts 0..=30.
const LAYERS: usize = MAX_PLIES as usize + 1;

/// The most legal moves a position has (8 king steps + 6 rook moves).
const MAX_CHILDREN: usize = 14;

/// The placements with distinct squares, numbered densely.
struct PlacementIndex {
    /// Dense number → placement code.
    codes: Vec<u32>,
    /// Placement code → dense number (`u32::MAX`: two pieces on one square).
    dense: Vec<u32>,
}

static INDEX: Lazy<PlacementIndex> = Lazy::new(|| {
    let mut codes = Vec::new();
    let mut dense = vec![u32::MAX; PLACEMENT_CODES];
    for (code, dense) in dense.iter_mut().enumerate() {
        if Position::from_placement_code(code, 0).is_some() {
            *dense = codes.len() as u32;
            codes.push(code as u32);
        }
    }
    PlacementIndex { codes, dense }
});

/// Number of placements with distinct squares (each piece on a square or captured).
pub fn placements() -> usize {
    INDEX.codes.len()
}

/// Number of states: placements × ply counts 0..=30.
pub fn states() -> usize {
    placements() * LAYERS
}

/// One value per state, indexed by position (its placement and plies; the no-capture
/// counter is not part of a state).
pub struct StateTable<T> {
    values: Vec<T>,
}

impl<T: Copy> StateTable<T> {
    /// A table with every state set to `fill`.
    pub fn new(fill: T) -> StateTable<T> {
        StateTable {
            values: vec![fill; states()],
        }
    }

    /// Where `pos` is stored.
    #[inline(always)]
    fn slot(pos: &Position) -> usize {
        let dense = INDEX.dense[pos.placement_code()] as usize;
        usize::from(pos.plies()) * placements() + dense
    }

    /// The value of `pos`'s state.
    #[inline(always)]
    pub fn get(&self, pos: &Position) -> T {
        self.values[Self::slot(pos)]
    }

    /// Sets the value of `pos`'s state.
    #[inline(always)]
    pub fn set(&mut self, pos: &Position, value: T) {
        let slot = Self::slot(pos);
        self.values[slot] = value;
    }

    /// A table of `f` of every value.
    pub fn map<U: Copy>(&self, f: impl Fn(T) -> U) -> StateTable<U> {
        StateTable {
            values: self.values.iter().map(|&v| f(v)).collect(),
        }
    }

    /// The value of every state by backward induction: `node(pos, children)` gets each
    /// legal move with the value of the position after it (already computed: it is one
    /// ply later); an empty `children` means the game is over at `pos`.
    pub fn backward_induction(
        fill: T,
        mut node: impl FnMut(&Position, &[(Move, T)]) -> T,
    ) -> StateTable<T> {
        let index = &*INDEX;
        let graph = MoveGraph::build(index);
        let n = index.codes.len();
        let mut table = StateTable::new(fill);
        let mut children = [(Move::FILLER, fill); MAX_CHILDREN];
        for plies in (0..LAYERS).rev() {
            let (here, later) = table.values.split_at_mut((plies + 1) * n);
            let here = &mut here[plies * n..];
            let side = plies % 2;
            for (i, (value, &code)) in here.iter_mut().zip(&index.codes).enumerate() {
                let pos = Position::from_valid_placement_code(code as usize, plies as u8);
                if plies == MAX_PLIES as usize {
                    // The clock has run out: every state is over.
                    *value = node(&pos, &[]);
                    continue;
                }
                let edges = graph.edges(side, i);
                for (slot, (&m, &child)) in children.iter_mut().zip(edges.0.iter().zip(edges.1)) {
                    *slot = (m, later[child as usize]);
                }
                *value = node(&pos, &children[..edges.0.len()]);
            }
        }
        table
    }
}

/// The legal moves of every placement, for each side to move, with the placement each
/// leads to. Below ply 30 the moves do not depend on the ply count (only whose turn it
/// is), so the graph is generated once and every layer of the induction walks it.
struct MoveGraph {
    /// Edges of node `side * placements + i` are `offsets[that]..offsets[that + 1]`.
    offsets: Vec<u32>,
    /// The move of each edge.
    moves: Vec<Move>,
    /// The dense placement number each edge leads to.
    children: Vec<u32>,
}

impl MoveGraph {
    fn build(index: &PlacementIndex) -> MoveGraph {
        let n = index.codes.len();
        let mut graph = MoveGraph {
            offsets: Vec::with_capacity(2 * n + 1),
            moves: Vec::new(),
            children: Vec::new(),
        };
        graph.offsets.push(0);
        let mut list = MoveList::new();
        for side in 0..2u8 {
            for &code in &index.codes {
                let code = code as usize;
                if let Some(pos) = Position::from_placement_code(code, side) {
                    list.clear();
                    pos.generate(&mut list);
                    debug_assert!(list.len() <= MAX_CHILDREN);
                    for &m in list.iter() {
                        graph.moves.push(m);
                        graph
                            .children
                            .push(index.dense[pos.placement_code_after(code, m)]);
                    }
                }
                graph.offsets.push(graph.moves.len() as u32);
            }
        }
        graph
    }

    /// The moves and child placements of placement `i` with `side` to move.
    #[inline(always)]
    fn edges(&self, side: usize, i: usize) -> (&[Move], &[u32]) {
        let node = side * (self.offsets.len() - 1) / 2 + i;
        let range = self.offsets[node] as usize..self.offsets[node + 1] as usize;
        (&self.moves[range.clone()], &self.children[range])
    }
}

/// Every state with `plies` played, in table order.
pub fn layer(plies: u8) -> impl Iterator<Item = Position> {
    INDEX
        .codes
        .iter()
        .map(move |&code| Position::from_valid_placement_code(code as usize, plies))
}
