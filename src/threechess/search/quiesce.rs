//! Quiescence search of Paranoid, BRS and BRS+: captures only, every player may stand
//! pat; in BRS/BRS+ the opponents' layer holds both opponents' captures.

use super::{Algorithm, Searcher, MAX_PLY, QS_MAX};
use crate::movelist::{MoveList, MAX_MOVES};
use crate::threechess::board::Status;
use crate::threechess::movegen::Gen;
use crate::threechess::types::Player;

impl Searcher<'_> {
    /// Quiescence: captures only, every player may stand pat (take the static score).
    /// In BRS/BRS+ the opponents' layer holds both opponents' captures.
    pub(super) fn quiesce(
        &mut self,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        qply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal(ply) {
            return v;
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stand = self.static_eval();
        if qply >= QS_MAX || ply >= MAX_PLY - 1 {
            return stand;
        }
        let side = self.b.side_to_move();
        let maximizing = side == self.root;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        let movers: &[Player] = if maximizing || self.algo == Algorithm::Paranoid {
            &[side][..]
        } else {
            &[self.root.next(), self.root.prev()][..]
        };
        let movers: [Option<Player>; 2] = [movers.first().copied(), movers.get(1).copied()];
        for who in movers.into_iter().flatten() {
            let passing = who != side;
            if passing {
                self.b.set_side_to_move(who);
                self.stand_ins += 1;
            }
            let mut list = MoveList::new();
            self.b.generate(Gen::Captures, &mut list);
            let mut scores = [0i32; MAX_MOVES];
            self.score_moves(&list, &mut scores, None, ply);
            for i in 0..list.len() {
                let m = Self::pick(&mut list, &mut scores, i);
                self.b.make_move(m);
                if self.takes_standing_kings_king() {
                    self.b.unmake_move();
                    continue;
                }
                // In the opponents' layer of BRS the other opponent passes.
                let skip = !maximizing
                    && self.algo != Algorithm::Paranoid
                    && self.b.side_to_move() != self.root
                    && self.b.status() == Status::Ongoing;
                if skip {
                    self.b.set_side_to_move(self.root);
                    self.stand_ins += 1;
                }
                let v = self.quiesce(ply + 1, alpha, beta, qply + 1);
                if skip {
                    self.stand_ins -= 1;
                }
                self.b.unmake_move();
                if self.stopped {
                    break;
                }
                if self.improves(v, best, maximizing) {
                    best = v;
                    self.update_pv(ply, m);
                    if maximizing {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
            if passing {
                self.b.set_side_to_move(side);
                self.stand_ins -= 1;
            }
            if self.stopped || alpha >= beta {
                break;
            }
        }
        best
    }
}
