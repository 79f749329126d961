//! Iterative deepening and the root move loop, common to every algorithm: root moves
//! (with their fallible-opponent bonus), one iteration after another until a limit, a
//! progress report after each, and the answer.

use super::opponents::observed_greed;
use super::{
    Algorithm, RootMove, Searcher, ThreeInfo, ThreeResult, INF, MAX_PLY, QS_MAX, WIN_BOUND,
};
use crate::threechess::eval;
use crate::threechess::types::Move;
use crate::tt::Bound;
use std::time::Duration;

impl Searcher<'_> {
    pub(super) fn run(&mut self, on_info: &dyn Fn(&ThreeInfo)) -> ThreeResult {
        let mut root_moves: Vec<RootMove> = self
            .b
            .legal_moves_list()
            .iter()
            .filter(|m| {
                self.request.search_moves.is_empty() || self.request.search_moves.contains(m)
            })
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                bonus: 0,
            })
            .collect();
        let mut result = ThreeResult {
            best_move: root_moves.first().map(|r| r.mv),
            ponder_move: None,
            score: 0,
            scores: eval::views_with(&self.b, &self.settings.params),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            self.wait_if_infinite();
            return result;
        }
        if self.settings.fallibility != 0 && self.algo != Algorithm::MaxN {
            let greed = observed_greed(&self.b);
            log::debug!("threechess observed greed {greed:.2?}");
            for root_move in &mut root_moves {
                root_move.bonus = self.fallible_bonus(root_move.mv, &greed);
            }
        }
        // Order the first iteration by captures first.
        let first_order = |m: &RootMove| -self.order_score(m.mv, None, 0);
        root_moves.sort_by_key(first_order);
        let max_depth = self
            .request
            .depth
            .unwrap_or(MAX_PLY as i32 - QS_MAX as i32 - 4);
        let max_depth = max_depth.clamp(1, MAX_PLY as i32 - QS_MAX as i32 - 4);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let searched = self.search_root(depth, &mut root_moves);
            if searched == 0 {
                break;
            }
            // A stopped iteration still counts for the moves it finished: its best of
            // them beat the last iteration's best (which was searched first).
            let completed = searched == root_moves.len();
            let best = root_moves[0];
            // Report the search's score: the bonus only chose among the moves.
            let score = if best.score.abs() < WIN_BOUND {
                best.score - best.bonus
            } else {
                best.score
            };
            let full_pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if log::log_enabled!(log::Level::Debug) {
                let line: Vec<String> = full_pv.iter().map(|m| m.to_string()).collect();
                log::debug!(
                    "threechess depth {depth} line with passes: {}",
                    line.join(" ")
                );
            }
            let (pv, scores) = self.report_line(&full_pv);
            result = ThreeResult {
                best_move: Some(best.mv),
                ponder_move: pv.get(1).copied(),
                score,
                scores,
                depth: if completed { depth } else { depth - 1 },
                nodes: self.nodes,
                pv: pv.clone(),
            };
            if !completed {
                break;
            }
            let time_ms = self.control.elapsed_ms();
            on_info(&ThreeInfo {
                depth,
                seldepth: self.seldepth,
                nodes: self.nodes,
                time_ms,
                nps: self.nodes * 1000 / time_ms.max(1),
                score,
                scores,
                pv,
            });
            if self.stopped {
                break;
            }
            let decided = best.score.abs() >= WIN_BOUND;
            if !self.request.infinite && !self.control.pondering() {
                if decided && depth >= 2 {
                    break;
                }
                if let Some(soft) = self.request.budget.and_then(|b| b.soft) {
                    // The next iteration takes a few times as long as this one.
                    if self.used_ms() > soft.as_millis() as u64 / 2 {
                        break;
                    }
                }
                if root_moves.len() == 1
                    && self.request.budget.and_then(|b| b.soft).is_some()
                    && depth >= 2
                {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        // The root's best move for `probe` and the next search (no bound: an interrupted
        // iteration's score proves nothing).
        if let (Some(m), true) = (result.best_move, result.depth > 0) {
            let key = self.tt_key();
            self.tt
                .store(key, 0, m.code(), result.score, 0, result.depth, Bound::None);
        }
        self.wait_if_infinite();
        result
    }

    /// Infinite and ponder searches answer only when stopped.
    fn wait_if_infinite(&mut self) {
        while (self.request.infinite || self.control.pondering()) && !self.control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Searches every root move at `depth`, the best so far brought to the front.
    /// Returns how many moves were searched completely (all of them unless stopped).
    fn search_root(&mut self, depth: i32, root_moves: &mut [RootMove]) -> usize {
        let mut alpha = -INF;
        let beta = INF;
        let mut searched = 0;
        let mut best_pv: Vec<Move> = Vec::new();
        for i in 0..root_moves.len() {
            let m = root_moves[i].mv;
            let value = match self.algo {
                Algorithm::MaxN => {
                    self.b.make_move(m);
                    let v = self.maxn(depth - 1, 1);
                    self.b.unmake_move();
                    v[self.root.index()]
                }
                _ => {
                    let bonus = root_moves[i].bonus;
                    let a = alpha.saturating_sub(bonus).max(-INF);
                    self.b.make_move(m);
                    let v = if i == 0 {
                        self.ab(depth - 1, 1, a, beta, true)
                    } else {
                        let v = self.ab(depth - 1, 1, a, a + 1, false);
                        if v > a && !self.stopped {
                            self.ab(depth - 1, 1, a, beta, true)
                        } else {
                            v
                        }
                    };
                    self.b.unmake_move();
                    if v.abs() < WIN_BOUND {
                        (v + bonus).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
                    } else {
                        v
                    }
                }
            };
            if self.stopped {
                break;
            }
            searched += 1;
            let improved = i == 0 || value > alpha;
            root_moves[i].score = if improved { value } else { -INF };
            if improved {
                alpha = value;
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
                // Bring the new best to the front, keeping the order of the others.
                root_moves[..=i].rotate_right(1);
            }
        }
        self.pv_len[0] = best_pv.len().min(MAX_PLY);
        self.pv[0][..self.pv_len[0]].copy_from_slice(&best_pv[..self.pv_len[0]]);
        searched
    }
}
