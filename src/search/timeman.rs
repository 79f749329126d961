//! Between two iterations of a search on a clock: whether to start another one.
//!
//! The budget ([`crate::time::budget`]) gives a target for the move; this scales it by
//! what the iterations so far say, in the manner of Stockfish's time manager: more time
//! while the best move keeps changing or the score falls (against the previous move's
//! search and over the last iterations), less once the best move has settled for many
//! depths. A new iteration is not started when it could not finish within the target.

use super::params;

/// What the main thread has seen of its iterations, for the time decisions.
pub(crate) struct IterationClock {
    /// Changes of the best move, each fading by half an iteration.
    best_move_changes: f64,
    /// The depth of the last iteration that changed the best move.
    changed_at_depth: i32,
    /// The score of the previous move's search (same side to move), if there is one.
    previous_move_score: Option<i32>,
    /// The scores of the last completed iterations, the newest last.
    recent_scores: [i32; 3],
    completed: usize,
}

/// Score changes beyond this many centipawns count as this many (a mate found or lost
/// must not blow the target up beyond the falling factor's bounds anyway).
const SCORE_SWING_CAP: i32 = 500;

impl IterationClock {
    pub(crate) fn new(previous_move_score: Option<i32>) -> Self {
        IterationClock {
            best_move_changes: 0.0,
            changed_at_depth: 0,
            previous_move_score,
            recent_scores: [0; 3],
            completed: 0,
        }
    }

    /// Records a completed iteration: its depth, whether it changed the best move, and
    /// its score.
    pub(crate) fn record(&mut self, depth: i32, best_move_changed: bool, score: i32) {
        self.best_move_changes *= 0.5;
        if best_move_changed {
            self.best_move_changes += 1.0;
            self.changed_at_depth = depth;
        }
        if self.completed == 0 {
            self.recent_scores = [score; 3];
        } else {
            self.recent_scores.rotate_left(1);
            self.recent_scores[2] = score;
        }
        self.completed += 1;
    }

    /// The scale of the move's target after the iteration of `depth` (recorded).
    pub(crate) fn target_scale(&self, depth: i32) -> f64 {
        let score = self.recent_scores[2];
        let fall = |from: i32| (from - score).clamp(-SCORE_SWING_CAP, SCORE_SWING_CAP) as f64;
        let move_fall = self.previous_move_score.map_or(0.0, fall);
        let iteration_fall = fall(self.recent_scores[0]);
        let falling = (1.0
            + (params::tm_falling_move() as f64 * move_fall
                + params::tm_falling_iteration() as f64 * iteration_fall)
                / 10_000.0)
            .clamp(0.6, 1.7);
        let instability = 1.0 + params::tm_instability() as f64 / 100.0 * self.best_move_changes;
        let settled = if depth >= self.changed_at_depth + params::tm_settled_depths() {
            params::tm_settled_factor() as f64 / 100.0
        } else {
            1.0
        };
        falling * instability * settled
    }

    /// Whether to stop after the iteration of `depth` (recorded), `elapsed_ms` into a
    /// search whose target is `soft_ms` and limit `hard_ms`.
    pub(crate) fn should_stop(
        &self,
        depth: i32,
        elapsed_ms: u64,
        soft_ms: u64,
        hard_ms: u64,
    ) -> bool {
        let target = soft_ms as f64 * self.target_scale(depth);
        let next_iteration = params::tm_next_iteration() as f64 / 100.0;
        let elapsed = elapsed_ms as f64;
        // The next iteration takes about as long as all before it: past these points it
        // would not finish, within the target or within the limit.
        elapsed >= target * next_iteration || elapsed >= hard_ms as f64 * 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled_clock(previous: Option<i32>, scores: &[i32]) -> IterationClock {
        let mut c = IterationClock::new(previous);
        for (i, &s) in scores.iter().enumerate() {
            c.record(i as i32 + 1, i == 0, s);
        }
        c
    }

    #[test]
    fn a_settled_best_move_spends_less_than_a_changing_one() {
        let settled = settled_clock(Some(20), &[20; 14]);
        let mut changing = settled_clock(Some(20), &[20; 13]);
        changing.record(14, true, 20);
        assert!(settled.target_scale(14) < 1.0);
        assert!(changing.target_scale(14) > 2.0);
        assert!(!changing.should_stop(14, 1000, 1000, 5000));
        assert!(settled.should_stop(14, 1000, 1000, 5000));
    }

    #[test]
    fn a_falling_score_spends_more_and_a_rising_one_less() {
        let steady = settled_clock(Some(20), &[20; 6]);
        let falling = settled_clock(Some(20), &[20, 20, 20, 20, 0, -40]);
        let rising = settled_clock(Some(20), &[20, 20, 20, 20, 40, 80]);
        assert!(falling.target_scale(6) > steady.target_scale(6) * 1.3);
        assert!(rising.target_scale(6) < steady.target_scale(6) * 0.8);
        // Bounded: a lost mate does not multiply the target by more than 1.7.
        let lost = settled_clock(Some(30_000), &[30_000, 30_000, 30_000, -30_000]);
        let kept = settled_clock(Some(30_000), &[30_000; 4]);
        assert!(lost.target_scale(4) > kept.target_scale(4) * 1.6);
        assert!(lost.target_scale(4) <= kept.target_scale(4) * 1.7 + 1e-9);
    }

    #[test]
    fn the_limit_is_never_outrun() {
        let c = settled_clock(None, &[0, 0, 0]);
        // Past half the hard limit no iteration starts, whatever the target.
        assert!(c.should_stop(3, 500, 100_000, 1000));
        assert!(!c.should_stop(3, 10, 100_000, 1000));
    }
}
