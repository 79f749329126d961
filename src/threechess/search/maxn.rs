//! MaxN (Luckhardt & Irani 1986): each player maximises its own component of a score
//! vector, with no alpha-beta pruning across players. The engine does not play it (see
//! [`super::DEFAULT_ALGORITHM`]); it is kept for the tests and for the match runner of
//! `tools/threechess`, which compares the algorithms.

use super::{Searcher, MAX_PLY, QS_MAX, WIN, WIN_BOUND};
use crate::movelist::{MoveList, MAX_MOVES};
use crate::threechess::board::Status;
use crate::threechess::eval;
use crate::threechess::movegen::Gen;
use crate::threechess::types::Move;
use crate::tt::Bound;

/// MaxN's quiescence: plies and captures per node.
const MAXN_QS_PLIES: usize = 3;
const MAXN_QS_WIDTH: usize = 4;

impl Searcher<'_> {
    /// The score vector of a finished game, or `None`.
    fn terminal_vector(&self, ply: usize) -> Option<[i32; 3]> {
        match self.b.status() {
            Status::KingCaptured { capturer, victim } => {
                let mut v = [eval::OTHER_CAPTURE; 3];
                v[capturer.index()] = WIN - ply as i32;
                v[victim.index()] = -(WIN - ply as i32);
                Some(v)
            }
            Status::Ongoing if self.b.finished() => Some([0; 3]),
            Status::Ongoing => None,
        }
    }

    /// MaxN: the player to move picks the child best for itself (ties: the one worst
    /// for the root player).
    pub(super) fn maxn(&mut self, depth: i32, ply: usize) -> [i32; 3] {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal_vector(ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY - QS_MAX - 1 {
            return self.maxn_quiesce(ply, 0);
        }
        self.nodes += 1;
        if self.should_stop() {
            return [0; 3];
        }
        self.seldepth = self.seldepth.max(ply);
        let key = self.tt_key();
        let tt_move = self.tt.probe(key, ply).and_then(|e| Move::from_code(e.mv));
        let side = self.b.side_to_move();
        let mut list = MoveList::new();
        self.b.generate(Gen::All, &mut list);
        if list.is_empty() {
            let mut v = [(WIN - ply as i32) / 2; 3];
            v[side.index()] = -(WIN - ply as i32);
            return v;
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, tt_move, ply);
        let mut best: Option<[i32; 3]> = None;
        let mut best_move = None;
        let (me, root) = (side.index(), self.root.index());
        for i in 0..list.len() {
            let m = Self::pick(&mut list, &mut scores, i);
            self.b.make_move(m);
            let v = self.maxn(depth - 1, ply + 1);
            self.b.unmake_move();
            if self.stopped {
                break;
            }
            let better = match best {
                None => true,
                Some(b) => v[me] > b[me] || (v[me] == b[me] && v[root] < b[root]),
            };
            if better {
                best = Some(v);
                best_move = Some(m);
                self.update_pv(ply, m);
                // Shallow pruning: nothing beats winning outright.
                if v[me] >= WIN_BOUND {
                    self.reward_quiet(m, depth, ply);
                    break;
                }
            }
        }
        let best = best.unwrap_or([0; 3]);
        if !self.stopped {
            let code = best_move.map_or(0, |m| m.code());
            self.tt.store(key, ply, code, 0, 0, depth, Bound::None);
            if let Some(m) = best_move {
                self.reward_quiet(m, depth, ply);
            }
        }
        best
    }

    fn maxn_quiesce(&mut self, ply: usize, qply: usize) -> [i32; 3] {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal_vector(ply) {
            return v;
        }
        self.nodes += 1;
        if self.should_stop() {
            return [0; 3];
        }
        self.seldepth = self.seldepth.max(ply);
        let mut best = eval::views_with(&self.b, &self.settings.params);
        // Without pruning between players the capture tree explodes: a short, narrow
        // quiescence (the most valuable captures only).
        if qply >= MAXN_QS_PLIES || ply >= MAX_PLY - 1 {
            return best;
        }
        let me = self.b.side_to_move().index();
        let mut list = MoveList::new();
        self.b.generate(Gen::Captures, &mut list);
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, None, ply);
        for i in 0..list.len().min(MAXN_QS_WIDTH) {
            let m = Self::pick(&mut list, &mut scores, i);
            self.b.make_move(m);
            let v = self.maxn_quiesce(ply + 1, qply + 1);
            self.b.unmake_move();
            if self.stopped {
                break;
            }
            if v[me] > best[me] {
                best = v;
                self.update_pv(ply, m);
                if v[me] >= WIN_BOUND {
                    break;
                }
            }
        }
        best
    }
}
