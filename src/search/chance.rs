//! The arithmetic of a chance node (a move whose outcome the mover cannot foresee, such
//! as Jieqi's reveal of a face-down piece): its score is the weighted mean of its
//! outcomes' scores, found by Star1 (Ballard 1983, "The *-minimax search procedure for
//! trees containing chance nodes"). Each outcome is searched with the window that still
//! lets the mean leave `(alpha, beta)`, given the outcomes searched before and bounds on
//! those to come; once the mean must fall outside the window, a bound on it is the
//! answer and the remaining outcomes are not searched.
//!
//! Each outcome's score counts within plus or minus a win value (`chance_win`): a mate in
//! one outcome is not a mate of the move, and one lucky outcome in eight must not
//! outweigh a sure gain.

/// One chance node's bookkeeping (integers widened to `i64`: weights times scores).
pub struct ChanceWindow {
    alpha: i64,
    beta: i64,
    /// An outcome's score counts within `±win`.
    win: i64,
    total: i64,
    /// The weighted sum of the outcomes searched.
    known: i64,
    /// The weight of the outcomes not searched yet.
    rest: i64,
    /// The current outcome's weight and its deciding scores (see [`ChanceWindow::next`]).
    weight: i64,
    low: i64,
    high: i64,
}

/// What to do with the next outcome.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChanceStep {
    /// Search it with this window (`alpha < beta`, both within `±limit`).
    Search(i32, i32),
    /// The node's score is decided without it: this bound, outside the window.
    Done(i32),
}

impl ChanceWindow {
    /// A node searched with the window `(alpha, beta)` whose outcomes weigh `total` in
    /// all, each outcome's score counted within `±win` (what a won outcome, a mate, is
    /// worth in the mean), child windows kept within `±limit` (the search's infinity).
    pub fn new(alpha: i32, beta: i32, win: i32, total: u64, limit: i32) -> Self {
        debug_assert!(alpha < beta && total > 0);
        let win = i64::from(win).min(i64::from(limit));
        ChanceWindow {
            alpha: i64::from(alpha),
            beta: i64::from(beta),
            win,
            total: total.max(1) as i64,
            known: 0,
            rest: total.max(1) as i64,
            weight: 0,
            low: 0,
            high: 0,
        }
    }

    fn mean(&self, sum: i64) -> i32 {
        sum.div_euclid(self.total) as i32
    }

    /// The window for the next outcome, of weight `weight` (at least 1), or the node's
    /// score if that outcome cannot change it.
    pub fn next(&mut self, weight: u32) -> ChanceStep {
        let w = i64::from(weight.max(1)).min(self.rest.max(1));
        self.rest -= w;
        self.weight = w;
        // This outcome's score at or below `low` keeps the mean at or below alpha
        // whatever the rest; at or above `high` keeps it at or above beta.
        self.low = (self.alpha * self.total - self.known - self.win * self.rest).div_euclid(w);
        self.high =
            -(-(self.beta * self.total - self.known - (-self.win) * self.rest)).div_euclid(w);
        if self.low >= self.win {
            return ChanceStep::Done(
                self.mean(self.known + (w + self.rest) * self.win)
                    .min(self.alpha as i32),
            );
        }
        if self.high <= (-self.win) {
            return ChanceStep::Done(
                self.mean(self.known + (w + self.rest) * (-self.win))
                    .max(self.beta as i32),
            );
        }
        ChanceStep::Search(
            self.low.max(-self.win - 1) as i32,
            self.high.min(self.win + 1) as i32,
        )
    }

    /// Takes the score the last outcome's search returned (fail-soft within the window
    /// [`ChanceWindow::next`] gave); `Some(bound)` when that decides the node.
    pub fn record(&mut self, score: i32) -> Option<i32> {
        let v = i64::from(score).clamp(-self.win, self.win);
        if v <= self.low {
            return Some(
                self.mean(self.known + self.weight * v + self.rest * self.win)
                    .min(self.alpha as i32),
            );
        }
        if v >= self.high {
            return Some(
                self.mean(self.known + self.weight * v + self.rest * (-self.win))
                    .max(self.beta as i32),
            );
        }
        self.known += self.weight * v;
        None
    }

    /// The node's score once every outcome was recorded without deciding it: the
    /// weighted mean, inside the window.
    pub fn mean_score(&self) -> i32 {
        self.mean(self.known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// What the node must be worth: the weighted mean of the outcomes' true scores,
    /// each clamped as the node counts it.
    fn true_mean(values: &[(i32, u32)], lowest: i64, highest: i64) -> f64 {
        let total: f64 = values.iter().map(|&(_, w)| f64::from(w)).sum();
        values
            .iter()
            .map(|&(v, w)| (i64::from(v).clamp(lowest, highest) as f64) * f64::from(w))
            .sum::<f64>()
            / total
    }

    /// Runs a node over outcomes of known true scores; the "search" of an outcome is
    /// fail-soft like the real one: exact inside its window, else some bound beyond it
    /// that the true score respects.
    fn run(
        values: &[(i32, u32)],
        alpha: i32,
        beta: i32,
        win: i32,
        rng: &mut Xoshiro256PlusPlus,
    ) -> (i32, usize) {
        let total: u64 = values.iter().map(|&(_, w)| u64::from(w)).sum();
        let mut node = ChanceWindow::new(alpha, beta, win, total, 30_001);
        let mut searched = 0;
        for &(v, w) in values {
            match node.next(w) {
                ChanceStep::Done(bound) => return (bound, searched),
                ChanceStep::Search(a, b) => {
                    assert!(a < b, "window {a} {b}");
                    searched += 1;
                    let slack = (rng.next_u32() % 50) as i32;
                    let returned = if v <= a {
                        v.max(a - slack).min(a)
                    } else if v >= b {
                        v.min(b + slack).max(b)
                    } else {
                        v
                    };
                    if let Some(bound) = node.record(returned) {
                        return (bound, searched);
                    }
                }
            }
        }
        (node.mean_score(), searched)
    }

    #[test]
    fn star1_gives_the_mean_inside_the_window_and_true_bounds_outside() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(57);
        let mut cut_short = 0;
        for trial in 0..20_000 {
            let n = 2 + (rng.next_u32() % 6) as usize;
            let values: Vec<(i32, u32)> = (0..n)
                .map(|_| {
                    let v = (rng.next_u32() % 2001) as i32 - 1000;
                    (v, 1 + rng.next_u32() % 5)
                })
                .collect();
            let alpha = (rng.next_u32() % 1601) as i32 - 800;
            let width = if trial % 2 == 0 {
                1
            } else {
                1 + (rng.next_u32() % 400) as i32
            };
            let beta = alpha + width;
            let win = 300 + (rng.next_u32() % 1200) as i32;
            let (score, searched) = run(&values, alpha, beta, win, &mut rng);
            let (lowest, highest) = (-i64::from(win), i64::from(win));
            let truth = true_mean(&values, lowest, highest);
            if searched < n {
                cut_short += 1;
            }
            if truth <= f64::from(alpha) {
                assert!(
                    score <= alpha,
                    "{values:?} ({alpha}, {beta}) {win}: {score} vs {truth}"
                );
                assert!(
                    f64::from(score) >= truth.floor(),
                    "not an upper bound: {score} < {truth}"
                );
            } else if truth >= f64::from(beta) {
                assert!(
                    score >= beta,
                    "{values:?} ({alpha}, {beta}) {win}: {score} vs {truth}"
                );
                assert!(
                    f64::from(score) <= truth,
                    "not a lower bound: {score} > {truth}"
                );
            } else {
                assert_eq!(
                    score,
                    truth.floor() as i32,
                    "{values:?} ({alpha}, {beta}) {win}"
                );
            }
        }
        // The point of Star1: some nodes are decided before every outcome is searched.
        assert!(cut_short > 1000, "only {cut_short} nodes cut short");
    }

    #[test]
    fn a_mate_in_one_outcome_counts_as_the_win_value() {
        // With the whole range as the window, a mate in one outcome of eight counts as
        // the win value: (1000 + 7 × 100) / 8.
        let mut node = ChanceWindow::new(-30_001, 30_001, 1000, 8, 30_001);
        assert_eq!(node.next(1), ChanceStep::Search(-1001, 1001));
        assert_eq!(node.record(29_000), None);
        for _ in 0..7 {
            assert!(matches!(node.next(1), ChanceStep::Search(..)));
            assert_eq!(node.record(100), None);
        }
        assert_eq!(node.mean_score(), (1000 + 7 * 100) / 8);
        // A window above the win value fails low at once: no outcome can reach it.
        let mut node = ChanceWindow::new(2000, 2001, 1000, 8, 30_001);
        assert!(matches!(node.next(1), ChanceStep::Done(s) if s <= 2000));
        // Once the outcomes searched put the mean above beta whatever the rest, the
        // rest are not searched: 3 × 1000 with 1 × (-1000) to come is a mean of 500.
        let mut node = ChanceWindow::new(0, 400, 1000, 4, 30_001);
        assert!(matches!(node.next(3), ChanceStep::Search(..)));
        assert_eq!(node.record(1000), Some(500));
    }
}
