//! Models of Microchess opponents, and jiang's best response to each.
//!
//! The course's players come in a few kinds, and each kind is a rule jiang can compute:
//!
//! * **uniform**: every legal move alike (a random mover);
//! * **capturer**: takes the enemy king if it can, else the enemy rook, else moves at
//!   random;
//! * **rational**: backward induction under a utility of the four outcomes (win, loss,
//!   tie, draw) for itself and the one it *believes* its opponent has, ties broken at
//!   random. The course's handout names seven such beliefs ([`RATIONAL_BELIEFS`]): the
//!   realist (both sides want their own payoff), the pessimist (its opponent wants to
//!   hurt it), the scrapper (it wants to hurt its opponent and believes the same of it),
//!   and so on. Each acts on its belief, so jiang can predict it exactly, up to its random
//!   tie-breaks (modelled as the average over the tied moves).
//!
//! For each model, one backward induction ([`ModelTable::compute`]) gives, in every
//! state, the moves the model plays when it is to move and jiang's expected payoff when
//! jiang plays its best response to that model above a [`Floor`]: keeping its guaranteed
//! payoff ([`super::solve::Value::guaranteed`]), or (`RiskTies`) at least never risking a
//! loss the position does not force. [`Beliefs::observe`] weighs the models by the
//! opponent's moves (each model plays any legal move with probability [`SLIP`] / n
//! besides its own, so that no model is ruled out by a single move it did not predict);
//! the chooser then prefers, among the moves above the floor, the best expectation over
//! the weighted models ([`pick_against`]).

use super::position::{Ending, Position};
use super::solve::{pick, solution, Value};
use super::table::StateTable;
use super::types::{Kind, Move, Piece, Side};
use crate::common::clock::Instant;
use once_cell::sync::{Lazy, OnceCell};

/// The share of a modelled opponent's moves that are uniformly random slips.
pub const SLIP: f64 = 0.05;

/// Utilities closer than this count as equal (they are averages of small integers).
pub const UTILITY_TOLERANCE: f32 = 1e-4;

/// A bound on how far one model's log-likelihood may fall behind the best one's, so that
/// a long run of evidence can still be overturned within a few dozen moves.
const MAX_LOG_LIKELIHOOD_GAP: f64 = 20.0;

/// What jiang's best response to a model may give up of its guaranteed payoff.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Floor {
    /// Nothing: only moves that keep the guarantee.
    Guarantee,
    /// A guaranteed tie (2) may be traded for a line whose worst case is a draw (1) when
    /// the model expects more of it; a forced win is kept, and a loss the position does
    /// not force is never risked.
    NoLoss,
}

impl Floor {
    /// The least guarantee a move may keep when the best move keeps `best`.
    pub fn least(self, best: u8) -> u8 {
        match self {
            Floor::Guarantee => best,
            Floor::NoLoss if best >= 3 => best,
            Floor::NoLoss => best.min(1),
        }
    }

    fn index(self) -> usize {
        match self {
            Floor::Guarantee => 0,
            Floor::NoLoss => 1,
        }
    }
}

/// A rational player's utilities of the four outcomes, seen from that player: its win,
/// its loss, a tie (both kings captured) and a draw (30 plies).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Utility {
    /// Its win: it alone captured a king.
    pub win: i8,
    /// Its loss: only its king was captured.
    pub loss: i8,
    /// Both kings captured.
    pub tie: i8,
    /// 30 plies, both kings alive.
    pub draw: i8,
}

impl Utility {
    const fn new(win: i8, loss: i8, tie: i8, draw: i8) -> Utility {
        Utility {
            win,
            loss,
            tie,
            draw,
        }
    }

    /// The utility of `ending` for the player on `side`.
    pub fn of(&self, ending: Ending, side: Side) -> f32 {
        f32::from(match ending {
            Ending::Win(winner) if winner == side => self.win,
            Ending::Win(_) => self.loss,
            Ending::Tie => self.tie,
            Ending::Draw => self.draw,
        })
    }
}

/// What a rational player wants and what it believes its opponent wants.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RationalBelief {
    /// The course's name for it, lower case.
    pub name: &'static str,
    /// Its own utility.
    pub own: Utility,
    /// The utility it assumes its opponent plays by, seen from the opponent.
    pub other: Utility,
}

impl RationalBelief {
    /// The utilities of a finished game for the model on each side (White first): its
    /// own, and its opponent's as it believes them.
    pub fn at_end(&self, ending: Ending) -> [[f32; 2]; 2] {
        [Side::White, Side::Black].map(|side| {
            [
                self.own.of(ending, side),
                self.other.of(ending, side.flip()),
            ]
        })
    }
}

/// The payoffs of the game as utilities: win 3, loss 0, tie 2, draw 1.
const PAYOFF: Utility = Utility::new(3, 0, 2, 1);
/// Minus the opponent's payoff: win 0, loss -3, tie -2, draw -1.
const SPITE: Utility = Utility::new(0, -3, -2, -1);

/// The seven beliefs of the course's rational players (its handout's payoff tables).
pub const RATIONAL_BELIEFS: [RationalBelief; 7] = [
    RationalBelief {
        name: "realist",
        own: PAYOFF,
        other: PAYOFF,
    },
    RationalBelief {
        name: "pessimist",
        own: PAYOFF,
        // The opponent wants to lower this player's payoff.
        other: SPITE,
    },
    RationalBelief {
        name: "optimist",
        own: PAYOFF,
        // The opponent wants this player's payoff as high as it can be.
        other: PAYOFF.with_roles_swapped(),
    },
    RationalBelief {
        name: "scrapper",
        own: SPITE,
        other: SPITE,
    },
    RationalBelief {
        name: "queller",
        own: SPITE,
        other: PAYOFF,
    },
    RationalBelief {
        name: "truster",
        own: Utility::new(9, 6, 10, 5),
        other: Utility::new(9, 6, 10, 5),
    },
    RationalBelief {
        name: "utilitarian",
        // The sum of both payoffs.
        own: Utility::new(3, 3, 4, 2),
        other: Utility::new(3, 3, 4, 2),
    },
];

impl Utility {
    /// The same preferences over outcomes seen from the other player (its win is this
    /// one's loss).
    const fn with_roles_swapped(self) -> Utility {
        Utility::new(self.loss, self.win, self.tie, self.draw)
    }
}

/// A kind of opponent (module documentation).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Model {
    /// Every legal move alike.
    Uniform,
    /// The enemy king if it can, else the enemy rook, else any move.
    Capturer,
    /// Backward induction under a belief.
    Rational(RationalBelief),
}

impl Model {
    /// The model's name (`uniform`, `capturer`, or the rational player's).
    pub fn name(&self) -> &'static str {
        match self {
            Model::Uniform => "uniform",
            Model::Capturer => "capturer",
            Model::Rational(b) => b.name,
        }
    }
}

/// Every model the chooser weighs.
pub fn models() -> Vec<Model> {
    let mut all = vec![Model::Uniform, Model::Capturer];
    all.extend(RATIONAL_BELIEFS.iter().map(|b| Model::Rational(*b)));
    all
}

/// What one model's table keeps of a state.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// jiang's expected payoff, for jiang on each side (White first), playing its best
    /// response to the model on the other side; in units of 1/[`RESPONSE_SCALE`].
    response: [u16; 2],
    /// The moves the model plays when it is to move here (bit i: the i-th legal move in
    /// generation order).
    plays: u16,
}

const RESPONSE_SCALE: f32 = 20_000.0;

/// What the induction carries per state (the beliefs are needed only one ply up).
#[derive(Clone, Copy, Default)]
struct Node {
    /// For the model on each side (White first): its utility and its opponent's as it
    /// believes them, when both play by its belief from here.
    belief: [[f32; 2]; 2],
    response: [f32; 2],
    plays: u16,
}

/// One model's moves and jiang's best response to it, for every state.
pub struct ModelTable {
    model: Model,
    table: StateTable<Entry>,
}

/// The moves a capturer plays among `children` (the legal moves of `pos`, in generation
/// order, each with anything), as a mask: a capture of the enemy king, else of the enemy
/// rook, else any.
pub fn capturer_moves<T>(pos: &Position, children: &[(Move, T)]) -> u16 {
    let them = pos.side_to_move().flip();
    for kind in [Kind::King, Kind::Rook] {
        if let Some(target) = pos.square_of(Piece::new(them, kind)) {
            let mask = children
                .iter()
                .enumerate()
                .filter(|(_, (m, _))| m.to() == target)
                .fold(0u16, |mask, (i, _)| mask | (1 << i));
            if mask != 0 {
                return mask;
            }
        }
    }
    all_moves(children.len())
}

/// The mask of all of `n` moves.
pub fn all_moves(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

/// The children maximising `key`, as a mask, and the mean of their beliefs.
fn best_by(
    children: &[(Move, Node)],
    side: usize,
    key: impl Fn(&[f32; 2]) -> f32,
) -> (u16, [f32; 2]) {
    let top = children
        .iter()
        .map(|(_, c)| key(&c.belief[side]))
        .fold(f32::MIN, f32::max);
    let mut mask = 0u16;
    let mut sum = [0.0f32; 2];
    let mut count = 0.0f32;
    for (i, (_, c)) in children.iter().enumerate() {
        if key(&c.belief[side]) >= top - UTILITY_TOLERANCE {
            mask |= 1 << i;
            sum[0] += c.belief[side][0];
            sum[1] += c.belief[side][1];
            count += 1.0;
        }
    }
    (mask, [sum[0] / count, sum[1] / count])
}

impl ModelTable {
    /// One backward induction: the model's moves and jiang's best response to it.
    pub fn compute(model: Model, floor: Floor) -> ModelTable {
        let start = Instant::now();
        let solution = solution();
        let nodes = StateTable::backward_induction(Node::default(), |pos, children| {
            if children.is_empty() {
                let ending = pos.ending().unwrap_or(Ending::Draw);
                let payoffs = ending.payoffs().map(f32::from);
                let mut node = Node {
                    response: payoffs,
                    ..Node::default()
                };
                if let Model::Rational(b) = model {
                    node.belief = b.at_end(ending);
                }
                return node;
            }
            let m = pos.side_to_move().index();
            let o = 1 - m;
            let mut node = Node::default();
            // The model moves here: its moves, and its beliefs from here on.
            node.plays = match model {
                Model::Uniform => all_moves(children.len()),
                Model::Capturer => capturer_moves(pos, children),
                Model::Rational(_) => {
                    // The model on the side to move maximises its own utility; the model
                    // on the other side believes the mover maximises what it thinks the
                    // mover wants.
                    let (mask, mine) = best_by(children, m, |b| b[0]);
                    let (_, theirs) = best_by(children, o, |b| b[1]);
                    node.belief[m] = mine;
                    node.belief[o] = theirs;
                    mask
                }
            };
            // jiang on the other side: the mean over the model's moves. The response
            // leaves out the slips the likelihood allows for: a best response that bets
            // on the opponent's blunders does worse against the players that make none
            // (measured with `jiang-lab microchess-models`).
            let chosen = node.plays.count_ones() as f32;
            node.response[o] = children
                .iter()
                .enumerate()
                .filter(|(i, _)| node.plays & (1 << i) != 0)
                .map(|(_, (_, c))| c.response[o] / chosen)
                .sum();
            // jiang to move: its best expectation among the moves above its floor.
            let mut guarantees = [0u8; 16];
            for (g, (mv, _)) in guarantees.iter_mut().zip(children) {
                *g = solution.value(&pos.after(*mv)).guaranteed[m];
            }
            let guarantees = &guarantees[..children.len().min(16)];
            let least = floor.least(guarantees.iter().copied().max().unwrap_or(0));
            node.response[m] = children
                .iter()
                .zip(guarantees)
                .filter(|(_, &g)| g >= least)
                .map(|((_, c), _)| c.response[m])
                .fold(f32::MIN, f32::max);
            node
        });
        let table = nodes.map(|node| Entry {
            response: node
                .response
                .map(|r| (r * RESPONSE_SCALE).round().clamp(0.0, f32::from(u16::MAX)) as u16),
            plays: node.plays,
        });
        log::info!(
            "microchess: model {} in {:.1} ms",
            model.name(),
            start.elapsed().as_secs_f64() * 1e3
        );
        ModelTable { model, table }
    }

    /// The model this table is of.
    pub fn model(&self) -> Model {
        self.model
    }

    /// jiang's expected payoff from `pos` when jiang plays `side` and keeps choosing its
    /// best response to this model, which plays the other side.
    pub fn response(&self, pos: &Position, side: Side) -> f64 {
        f64::from(self.table.get(pos).response[side.index()]) / f64::from(RESPONSE_SCALE)
    }

    /// The moves this model plays when it is to move in `pos` (bit i: the i-th legal
    /// move in generation order), besides its slips.
    pub fn plays(&self, pos: &Position) -> u16 {
        self.table.get(pos).plays
    }

    /// The probability that this model, to move in `pos`, plays the `index`-th of its
    /// `n` legal moves (generation order).
    pub fn likelihood(&self, pos: &Position, index: usize, n: usize) -> f64 {
        let plays = self.table.get(pos).plays;
        let chosen = f64::from(plays.count_ones().max(1));
        let own = if plays & (1 << index) != 0 {
            (1.0 - SLIP) / chosen
        } else {
            0.0
        };
        own + SLIP / n as f64
    }
}

/// The table of the `index`-th of [`models`] with jiang's responses above `floor`,
/// computed at its first use (one backward induction, about as long as solving the game;
/// 6 bytes a state, 11 MB).
pub fn model_table(index: usize, floor: Floor) -> &'static ModelTable {
    TABLES[index][floor.index()].get_or_init(|| ModelTable::compute(models()[index], floor))
}

/// Whether every model's table for `floor` is computed (so that using them does not wait).
pub fn tables_ready(floor: Floor) -> bool {
    TABLES.iter().all(|t| t[floor.index()].get().is_some())
}

/// The models' tables, for each floor, each computed at its first use.
static TABLES: Lazy<Vec<[OnceCell<ModelTable>; 2]>> = Lazy::new(|| {
    models()
        .iter()
        .map(|_| [OnceCell::new(), OnceCell::new()])
        .collect()
});

/// The index in [`models`] of the model called `name`.
pub fn model_index(name: &str) -> Option<usize> {
    models().iter().position(|m| m.name() == name)
}

/// Weights that put everything on the model called `name`.
pub fn only(name: &str) -> Vec<f64> {
    let at = model_index(name);
    (0..models().len())
        .map(|i| if Some(i) == at { 1.0 } else { 0.0 })
        .collect()
}

/// The weights of the models given an opponent's moves: each model's likelihood of them,
/// from equal priors.
#[derive(Clone, Debug, PartialEq)]
pub struct Beliefs {
    log_likelihood: Vec<f64>,
    observed: u32,
    /// Moves observed but not yet weighed (the tables were not at hand): each position
    /// before the move and the index of the move played.
    pending: Vec<(Position, u8)>,
}

impl Default for Beliefs {
    fn default() -> Self {
        Beliefs {
            log_likelihood: vec![0.0; models().len()],
            observed: 0,
            pending: Vec::new(),
        }
    }
}

impl Beliefs {
    /// Records the opponent's move from `before` to the `index`-th of its legal moves; it
    /// is weighed by [`Beliefs::settle`], so that observing never waits for the tables.
    pub fn observe(&mut self, before: &Position, index: usize) {
        self.pending.push((*before, index as u8));
        self.observed += 1;
    }

    /// Weighs the moves recorded since the last call, with the tables for `floor` (the
    /// models' moves are the same in either floor's tables); computes them if needed.
    pub fn settle(&mut self, floor: Floor) {
        for (before, index) in std::mem::take(&mut self.pending) {
            let n = before.legal_moves().len();
            for (i, ll) in self.log_likelihood.iter_mut().enumerate() {
                *ll += model_table(i, floor)
                    .likelihood(&before, usize::from(index), n)
                    .ln();
            }
            let top = self.log_likelihood.iter().copied().fold(f64::MIN, f64::max);
            for ll in &mut self.log_likelihood {
                *ll = ll.max(top - MAX_LOG_LIKELIHOOD_GAP);
            }
        }
    }

    /// Moves observed since the last reset.
    pub fn observed(&self) -> u32 {
        self.observed
    }

    /// Each model's weight (they sum to 1), in [`models`] order, once every move observed
    /// is weighed (with the tables for `floor`).
    pub fn weights(&mut self, floor: Floor) -> Vec<f64> {
        self.settle(floor);
        let top = self.log_likelihood.iter().copied().fold(f64::MIN, f64::max);
        let raw: Vec<f64> = self
            .log_likelihood
            .iter()
            .map(|ll| (ll - top).exp())
            .collect();
        let total: f64 = raw.iter().sum();
        raw.iter().map(|w| w / total).collect()
    }

    /// The most likely of the models weighted by `weights`, and its weight.
    pub fn likeliest(weights: &[f64]) -> (Model, f64) {
        let (i, w) = weights
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::MIN),
                |best, (i, w)| if w > best.1 { (i, w) } else { best },
            );
        (models()[i], w)
    }
}

/// The index in `children` (each legal move of `pos` with the solved value after it; not
/// empty) of jiang's move against an opponent weighted as `weights` says ([`models`]
/// order): among the moves above `floor`, those whose expectation over the models is
/// within tolerance of the best, chosen among by the solution's rule (the best guarantee
/// first).
pub fn pick_against(
    pos: &Position,
    children: &[(Move, Value)],
    weights: &[f64],
    floor: Floor,
) -> usize {
    let side = pos.side_to_move();
    let s = side.index();
    let least = floor.least(
        children
            .iter()
            .map(|(_, v)| v.guaranteed[s])
            .max()
            .unwrap_or(0),
    );
    let expectations: Vec<Option<f64>> = children
        .iter()
        .map(|(m, v)| {
            (v.guaranteed[s] >= least).then(|| {
                let after = pos.after(*m);
                expected(&after, side, weights, floor)
            })
        })
        .collect();
    let top = expectations
        .iter()
        .flatten()
        .copied()
        .fold(f64::MIN, f64::max);
    // Responses are stored to 1/20,000 of a point.
    let tolerance = 1.5 / f64::from(RESPONSE_SCALE);
    let candidates: Vec<usize> = (0..children.len())
        .filter(|&i| expectations[i].is_some_and(|e| e >= top - tolerance))
        .collect();
    let subset: Vec<(Move, Value)> = candidates.iter().map(|&i| children[i]).collect();
    candidates[pick(&subset, side)]
}

/// jiang's expected payoff from `pos` (jiang on `side`, keeping to its best response
/// above `floor`) over the models weighted by `weights`.
pub fn expected(pos: &Position, side: Side, weights: &[f64], floor: Floor) -> f64 {
    weights
        .iter()
        .enumerate()
        .filter(|(_, w)| **w > 0.0)
        .map(|(i, w)| w * model_table(i, floor).response(pos, side))
        .sum()
}
