//! The solution of Microchess and jiang's move chooser.
//!
//! Microchess is not zero-sum (a tie pays both sides 2, a draw 1 each), so it has no
//! single value; the table holds, for every state and for each side separately:
//!
//! * **guaranteed**: the side's maximin payoff, what it can secure whatever the
//!   opponent does (backward induction with the opponent minimising this side's payoff);
//! * **expected**: the side's expected payoff when it plays by [`choose`] and the
//!   opponent picks each legal move with equal probability;
//! * **plies**: the length of the game in the side's maximin line: the side keeps its
//!   guarantee and the opponent holds it to it; the side hurries when that line ends with
//!   it capturing the enemy king (guarantee 3 or 2) and delays otherwise (a draw ends
//!   on ply 30 anyway, a loss as late as possible), the opponent the reverse.
//!
//! **The choosing rule** ([`choose`]): among the legal moves, keep those after which the
//! side to move still has its highest guaranteed payoff; among them those with the best
//! expected payoff against a random opponent (within [`EXPECTATION_TOLERANCE`]); among
//! those the fastest end if the guarantee is 2 or 3 (a win or a tie: capture soon),
//! the slowest otherwise; the first in generation order (king moves first) if still
//! equal. The expected payoff is defined by the same rule: at the side's own turns it
//! is the expected payoff after the move the rule picks, at the opponent's turns the
//! mean over the opponent's legal moves.
//!
//! **Tie against draw**: the rule maximises jiang's own guaranteed payoff, so a
//! guaranteed tie (2) beats a guaranteed draw (1), although the tie gives the opponent 2
//! as well and the draw only 1. That is right because each player is scored by its own
//! payoffs (the course adds them up over mirror matches), not by the difference: the
//! point the opponent also gains costs jiang nothing, and a rule on the difference would
//! see tie and draw as equal (0) and could give away a sure point. The incentives agree
//! too: once jiang is guaranteed 2, the only outcomes left are the tie (2, 2) and jiang's
//! win (3, 0), so the opponent's own best is to go along with the tie; an opponent that
//! tries anything else can only do worse for itself, never push jiang below 2, and a
//! random one may blunder into jiang's win, which the expected-payoff tiebreak goes after.

use super::position::Position;
use super::table::StateTable;
use super::types::{Move, Side};
use crate::common::clock::Instant;
use crate::movelist::ListMove;
use once_cell::sync::Lazy;
use std::time::Duration;

/// Expected payoffs closer than this count as equal when choosing: they are stored as
/// `f32` (each rounding at most 2e-7 at values up to 3, over at most 30 plies: < 1e-5),
/// so equal expectations always compare equal.
pub const EXPECTATION_TOLERANCE: f32 = 1e-5;

/// The solved value of a position, for each side (index 0 White, 1 Black).
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Value {
    /// Each side's guaranteed (maximin) payoff: 0, 1, 2 or 3.
    pub guaranteed: [u8; 2],
    /// Each side's expected payoff when it plays by [`choose`] and its opponent moves
    /// uniformly at random.
    pub expected: [f32; 2],
    /// For each side, plies to the end of the game in its maximin line (see the module
    /// documentation); 0 when the game is over.
    pub plies: [u8; 2],
}

impl Value {
    /// The value of a finished game: its payoffs.
    fn over(payoffs: [u8; 2]) -> Value {
        Value {
            guaranteed: payoffs,
            expected: payoffs.map(f32::from),
            plies: [0, 0],
        }
    }
}

/// Whether a side whose guarantee is `guaranteed` wants the game to end soon: it ends
/// with its capture of the enemy king (a win, 3, or a tie, 2).
#[inline(always)]
fn hurries(guaranteed: u8) -> bool {
    guaranteed >= 2
}

/// One side's view of a node's children: the best (or worst) guarantee among them, and
/// over the children that have it, the best expectation (or the mean over all
/// children) and the shortest and longest maximin lines.
#[derive(Clone, Copy)]
struct Summary {
    guaranteed: u8,
    expected: f32,
    shortest: u8,
    longest: u8,
}

impl Summary {
    /// Before any child: every update replaces it.
    const EMPTY_MOVER: Summary = Summary {
        guaranteed: 0,
        expected: f32::MIN,
        shortest: u8::MAX,
        longest: 0,
    };
    const EMPTY_OPPONENT: Summary = Summary {
        guaranteed: u8::MAX,
        expected: 0.0,
        shortest: u8::MAX,
        longest: 0,
    };

    /// Takes a child into account for the side to move (`s`): its best guarantee.
    #[inline(always)]
    fn add_for_mover(&mut self, c: &Value, s: usize) {
        let g = c.guaranteed[s];
        if g > self.guaranteed {
            *self = Summary {
                guaranteed: g,
                ..Summary::EMPTY_MOVER
            };
        }
        if g == self.guaranteed {
            if c.expected[s] > self.expected {
                self.expected = c.expected[s];
            }
            self.shortest = self.shortest.min(c.plies[s]);
            self.longest = self.longest.max(c.plies[s]);
        }
    }

    /// Takes a child into account for the side not to move (`s`): its worst guarantee
    /// (the opponent minimises it); the expectation is summed by the caller.
    #[inline(always)]
    fn add_for_opponent(&mut self, c: &Value, s: usize) {
        let g = c.guaranteed[s];
        if g < self.guaranteed {
            *self = Summary {
                guaranteed: g,
                ..Summary::EMPTY_OPPONENT
            };
        }
        if g == self.guaranteed {
            self.shortest = self.shortest.min(c.plies[s]);
            self.longest = self.longest.max(c.plies[s]);
        }
    }
}

/// [`Summary`] of the children for the side to move (`s`).
#[inline(always)]
fn summarize_mover(children: &[(Move, Value)], s: usize) -> Summary {
    let mut sum = Summary::EMPTY_MOVER;
    for (_, c) in children {
        sum.add_for_mover(c, s);
    }
    sum
}

/// The choosing rule given the mover's summary: the first of the moves that keep the
/// best guarantee, with an expectation within tolerance of the best, whose line is the
/// shortest (hurrying) or the longest.
#[inline(always)]
fn pick_from(children: &[(Move, Value)], s: usize, sum: &Summary) -> usize {
    let hurry = hurries(sum.guaranteed);
    let target = if hurry { sum.shortest } else { sum.longest };
    let floor = sum.expected - EXPECTATION_TOLERANCE;
    let mut best: Option<(usize, u8)> = None;
    for (i, (_, c)) in children.iter().enumerate() {
        if c.guaranteed[s] != sum.guaranteed || c.expected[s] < floor {
            continue;
        }
        let plies = c.plies[s];
        if plies == target {
            return i;
        }
        let better = match best {
            None => true,
            Some((_, p)) => (hurry && plies < p) || (!hurry && plies > p),
        };
        if better {
            best = Some((i, plies));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// The index in `children` (each legal move with the value after it; not empty) of the
/// move the choosing rule picks for `side` (module documentation).
pub fn pick(children: &[(Move, Value)], side: Side) -> usize {
    let s = side.index();
    pick_from(children, s, &summarize_mover(children, s))
}

/// One step of the backward induction: the value of `pos` from its children's.
fn node_value(pos: &Position, children: &[(Move, Value)]) -> Value {
    if children.is_empty() {
        return Value::over(pos.ending().map_or([0, 0], |e| e.payoffs()));
    }
    let m = pos.side_to_move().index();
    let o = 1 - m;
    // One pass for both sides: the mover's best guarantee, the opponent's worst (it is
    // the one minimising it) and the opponent's mean expectation (it moves at random).
    let mut mover = Summary::EMPTY_MOVER;
    let mut opponent = Summary::EMPTY_OPPONENT;
    let mut total = 0.0f64;
    for (_, c) in children {
        mover.add_for_mover(c, m);
        opponent.add_for_opponent(c, o);
        total += f64::from(c.expected[o]);
    }
    let mut value = Value::default();
    value.guaranteed[m] = mover.guaranteed;
    value.expected[m] = children[pick_from(children, m, &mover)].1.expected[m];
    value.guaranteed[o] = opponent.guaranteed;
    value.expected[o] = (total / children.len() as f64) as f32;
    // The maximin lines: each side picks the fastest (or slowest) of its guarantee-
    // keeping moves, its opponent the reverse among the moves that hold it there.
    value.plies[m] = 1 + if hurries(mover.guaranteed) {
        mover.shortest
    } else {
        mover.longest
    };
    value.plies[o] = 1 + if hurries(opponent.guaranteed) {
        opponent.longest
    } else {
        opponent.shortest
    };
    value
}

/// The solved game: a [`Value`] for every state.
pub struct Solution {
    table: StateTable<Value>,
    /// How long solving took.
    pub elapsed: Duration,
}

impl Solution {
    /// Solves the game (a fresh computation; [`solution`] shares one).
    pub fn compute() -> Solution {
        let start = Instant::now();
        let table = StateTable::backward_induction(Value::default(), node_value);
        Solution {
            table,
            elapsed: start.elapsed(),
        }
    }

    /// The value of `pos`.
    pub fn value(&self, pos: &Position) -> Value {
        self.table.get(pos)
    }

    /// Each legal move with the value of the position after it, in generation order.
    pub fn move_values(&self, pos: &Position) -> Vec<(Move, Value)> {
        pos.legal_moves()
            .iter()
            .map(|&m| (m, self.value(&pos.after(m))))
            .collect()
    }

    /// The move of the choosing rule, `None` when the game is over. Allocates nothing.
    pub fn choose(&self, pos: &Position) -> Option<Choice> {
        let mut children = [(Move::FILLER, Value::default()); 16];
        let moves = pos.legal_moves();
        for (slot, &m) in children.iter_mut().zip(moves.iter()) {
            *slot = (m, self.value(&pos.after(m)));
        }
        let children = &children[..moves.len().min(16)];
        if children.is_empty() {
            return None;
        }
        let side = pos.side_to_move();
        let (mv, after) = children[pick(children, side)];
        Some(Choice {
            mv,
            guaranteed: self.value(pos).guaranteed,
            expected: after.expected[side.index()],
            plies: after.plies[side.index()] + 1,
        })
    }
}

static SOLUTION: Lazy<Solution> = Lazy::new(|| {
    let solution = Solution::compute();
    log::info!(
        "microchess: solved {} states in {:.1} ms",
        super::table::states(),
        solution.elapsed.as_secs_f64() * 1e3
    );
    solution
});

/// The solution, computed at the first call (well under a second in a release build)
/// and shared afterwards.
pub fn solution() -> &'static Solution {
    &SOLUTION
}

/// What jiang plays in a position, and why.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Choice {
    /// The move (by the choosing rule of the module documentation).
    pub mv: Move,
    /// The guaranteed (maximin) payoffs of both sides from the position, White first;
    /// the move keeps the mover's.
    pub guaranteed: [u8; 2],
    /// The mover's expected payoff after the move if the opponent moves uniformly at
    /// random and the mover keeps choosing by this rule.
    pub expected: f32,
    /// Plies to the end of the game through this move in the mover's maximin line.
    pub plies: u8,
}

/// jiang's move in `pos`: among the moves that keep the side to move's highest
/// guaranteed payoff, the best expected payoff against a random opponent, then the
/// fastest win or tie (slowest draw or loss). `None` when the game is over.
pub fn choose(pos: &Position) -> Option<Choice> {
    solution().choose(pos)
}

/// The solved value of `pos` (for `eval` and `d`).
pub fn value(pos: &Position) -> Value {
    solution().value(pos)
}
