//! The alpha-beta frame of Paranoid (every ply the real next player, the two opponents
//! minimising the root player's score) and of the root player's plies in BRS/BRS+, with
//! principal variation search, late-move reductions and the transposition table; and
//! the scores of finished games. The engine plays BRS; Paranoid is kept for the tests
//! and the match runner of `tools/threechess`.

use super::{Algorithm, Searcher, INF, MAX_PLY, QS_MAX, WIN};
use crate::movelist::{MoveList, MAX_MOVES};
use crate::threechess::board::Status;
use crate::threechess::eval;
use crate::threechess::movegen::Gen;
use crate::threechess::types::{Move, Player};
use crate::tt::Bound;

impl Searcher<'_> {
    /// The score of a finished game from the root player's view, or `None`.
    #[inline]
    pub(super) fn terminal(&self, ply: usize) -> Option<i32> {
        match self.b.status() {
            Status::KingCaptured { capturer, victim } => Some(if capturer == self.root {
                WIN - ply as i32
            } else if victim == self.root {
                -(WIN - ply as i32)
            } else {
                eval::OTHER_CAPTURE
            }),
            Status::Ongoing if self.b.finished() => Some(0),
            Status::Ongoing => None,
        }
    }

    /// Value of a player having no legal move (it scores −2, the others +1).
    pub(super) fn no_moves_value(&self, mover: Player, ply: usize) -> i32 {
        if mover == self.root {
            -(WIN - ply as i32)
        } else {
            (WIN - ply as i32) / 2
        }
    }

    #[inline]
    pub(super) fn static_eval(&self) -> i32 {
        eval::view_with(&self.b, self.root, &self.settings.params)
    }

    /// Alpha-beta in max/min form, scores from the root player's view. Paranoid: every
    /// ply is the real next player. BRS/BRS+: a ply of the root player, then a layer in
    /// which one opponent moves (see the module documentation).
    pub(super) fn ab(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal(ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY - QS_MAX - 1 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = self.tt_key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = Move::from_code(e.mv);
            if !pv_node && e.depth >= depth && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let side = self.b.side_to_move();
        let maximizing = side == self.root;
        let (alpha0, beta0) = (alpha, beta);
        let (best, best_move) = if maximizing || self.algo == Algorithm::Paranoid {
            self.ply_of(side, depth, ply, &mut alpha, &mut beta, pv_node, tt_move)
        } else {
            self.opponents_layer(depth, ply, &mut alpha, &mut beta, pv_node, tt_move)
        };
        if self.stopped {
            return best;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let code = best_move.map_or(0, |m| m.code());
        self.tt.store(key, ply, code, best, 0, depth, bound);
        best
    }

    /// One ply of the player to move (the root player, or in paranoid any player).
    #[allow(clippy::too_many_arguments)]
    fn ply_of(
        &mut self,
        side: Player,
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
        pv_node: bool,
        tt_move: Option<Move>,
    ) -> (i32, Option<Move>) {
        let maximizing = side == self.root;
        let mut list = MoveList::new();
        self.b.generate(Gen::All, &mut list);
        if list.is_empty() {
            return (self.no_moves_value(side, ply), None);
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, tt_move, ply);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = None;
        let (mut searched, mut skipped) = (0, 0);
        // Opponents do not hang their own king (unless every move does): a coalition
        // member giving its king away would be the paranoid assumption gone absurd.
        for pass in 0..2 {
            for i in 0..list.len() {
                let m = Self::pick(&mut list, &mut scores, i);
                let quiet = self.b.piece_at(m.to()).is_none();
                let reduce = i32::from(
                    depth >= 3 && searched >= 4 && quiet && !pv_node && scores[i] < (1 << 22) - 1,
                );
                self.b.make_move(m);
                if pass == 0 && !maximizing && self.hangs_own_king(side) {
                    self.b.unmake_move();
                    skipped += 1;
                    continue;
                }
                let v = self.child(
                    depth - 1,
                    ply,
                    *alpha,
                    *beta,
                    maximizing,
                    searched == 0,
                    reduce,
                    pv_node,
                );
                self.b.unmake_move();
                searched += 1;
                if self.stopped {
                    return (best, best_move);
                }
                if self.improves(v, best, maximizing) {
                    best = v;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if maximizing {
                        *alpha = (*alpha).max(v);
                    } else {
                        *beta = (*beta).min(v);
                    }
                    if alpha >= beta {
                        self.reward_quiet(m, depth, ply);
                        return (best, best_move);
                    }
                }
            }
            if searched > 0 || skipped == 0 {
                break;
            }
        }
        (best, best_move)
    }

    /// Whether the move just made by `mover` left its own king attacked (and the game
    /// goes on).
    #[inline]
    pub(super) fn hangs_own_king(&self, mover: Player) -> bool {
        self.b.status() == Status::Ongoing && self.b.king_attacked(mover)
    }

    #[inline]
    pub(super) fn improves(&self, v: i32, best: i32, maximizing: bool) -> bool {
        if maximizing {
            v > best
        } else {
            v < best
        }
    }

    /// Searches the current position as a child of a node at `ply`, with principal
    /// variation search (null window for all but the first move) and an optional
    /// reduction re-searched when it fails the right way.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn child(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        parent_maximizing: bool,
        first: bool,
        reduce: i32,
        pv_node: bool,
    ) -> i32 {
        if first {
            return self.ab(depth, ply + 1, alpha, beta, pv_node);
        }
        // Null window on the side of the parent's bound.
        let (na, nb) = if parent_maximizing {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let fails_right = |v: i32| {
            if parent_maximizing {
                v > alpha
            } else {
                v < beta
            }
        };
        let mut v = self.ab(depth - reduce, ply + 1, na, nb, false);
        if reduce > 0 && fails_right(v) && !self.stopped {
            v = self.ab(depth, ply + 1, na, nb, false);
        }
        if pv_node && fails_right(v) && v > alpha && v < beta && !self.stopped {
            v = self.ab(depth, ply + 1, alpha, beta, true);
        }
        v
    }
}
