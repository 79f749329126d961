//! Move-ordering memory: killers, counter-moves and butterfly history.

use crate::game::Game;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// History values stay within ±HISTORY_MAX (gravity keeps them there).
pub const HISTORY_MAX: i32 = 16384;

/// Per-thread ordering tables.
pub struct History<G: Game> {
    /// Butterfly history `[side][history_index]`.
    butterfly: Vec<i16>,
    /// Best reply to the previous move, by the previous move's history index.
    counter: Vec<Option<G::Move>>,
    /// Continuation history `[earlier move's index][move's index]`: how good a quiet move
    /// was after a given move one or two plies before.
    cont: Vec<i16>,
    /// Two quiet moves per ply that caused beta cut-offs.
    pub killers: [[Option<G::Move>; 2]; MAX_PLY + 2],
}

impl<G: Game> History<G> {
    /// Empty tables.
    pub fn new() -> Self {
        History {
            butterfly: vec![0; 2 * G::HISTORY_SIZE],
            counter: vec![None; G::HISTORY_SIZE],
            cont: vec![0; G::HISTORY_SIZE * G::HISTORY_SIZE],
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }

    /// Prepares the tables for the next search of the same game: history values are
    /// halved (still useful, less certain), killers are cleared (they belong to plies of
    /// the old tree).
    pub fn age(&mut self) {
        for v in self.butterfly.iter_mut().chain(self.cont.iter_mut()) {
            *v /= 2;
        }
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// History score of a quiet move.
    #[inline(always)]
    pub fn quiet_score(&self, side: usize, idx: usize) -> i32 {
        self.butterfly[side * G::HISTORY_SIZE + idx] as i32
    }

    /// Rewards (bonus > 0) or punishes a quiet move, with gravity: the closer the value to
    /// the limit, the less it moves, so old information decays.
    #[inline(always)]
    pub fn update_quiet(&mut self, side: usize, idx: usize, bonus: i32) {
        gravity(&mut self.butterfly[side * G::HISTORY_SIZE + idx], bonus);
    }

    /// Ordering score of a quiet move: butterfly plus continuation history after the
    /// moves one and two plies earlier (`prev`, when they exist).
    #[inline(always)]
    pub fn ordering_score(&self, side: usize, idx: usize, prev: &[Option<usize>; 2]) -> i32 {
        let mut s = self.quiet_score(side, idx);
        for p in prev.iter().flatten() {
            s += self.cont[p * G::HISTORY_SIZE + idx] as i32;
        }
        s
    }

    /// Updates butterfly and continuation history of a quiet move.
    #[inline(always)]
    pub fn update_quiet_stats(
        &mut self,
        side: usize,
        idx: usize,
        prev: &[Option<usize>; 2],
        bonus: i32,
    ) {
        self.update_quiet(side, idx, bonus);
        for p in prev.iter().flatten() {
            gravity(&mut self.cont[p * G::HISTORY_SIZE + idx], bonus);
        }
    }

    /// The counter-move to the move with history index `prev_idx`.
    #[inline(always)]
    pub fn counter(&self, prev_idx: usize) -> Option<G::Move> {
        self.counter[prev_idx]
    }

    /// Records a counter-move.
    #[inline(always)]
    pub fn set_counter(&mut self, prev_idx: usize, m: G::Move) {
        self.counter[prev_idx] = Some(m);
    }

    /// Records a killer at `ply`.
    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, m: G::Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }
}

impl<G: Game> Default for History<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// Moves a history value towards ±HISTORY_MAX by `bonus`, less the closer it already is:
/// old information decays and values stay bounded.
#[inline(always)]
fn gravity(slot: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *slot as i32;
    *slot = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// Bonus for a move that caused a cut-off at `depth`. Six times the old 16·d² + 32·d, so
/// that history-driven reductions and pruning work on real evidence within one search;
/// capped at a quarter of the limit so that one deep cut-off does not overwrite what many
/// shallow ones learned (uncapped, it won at fixed nodes and lost by the clock; capped:
/// +42 at fixed nodes, +16 at 200 ms; see MEASUREMENTS, issue 24).
#[inline(always)]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 96 + depth * 192).min(HISTORY_MAX / 4)
}
