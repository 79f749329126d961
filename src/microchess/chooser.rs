//! Microchess's move chooser: the game is solved ([`super::solve`]), so `go` answers at
//! once from the table instead of searching. The solution is computed on a thread of its
//! own when the chooser is made (the game selected), so selecting it returns at once;
//! `isready` (and CECP's `ping`) wait for it, so a `go` after `readyok` never does.
//!
//! **Opponent model** (option `OpponentModel`): the solution's choosing rule breaks ties
//! among the moves that keep jiang's guarantee by the expected payoff against a uniformly
//! random opponent (`random`, the default). `maximin` uses instead the expectation against
//! an opponent that keeps its own guarantee and breaks its ties at random
//! ([`super::solve::expected_against_maximin`]); `observed` weighs the two expectations by
//! the probability that the opponent is the maximin one, learnt from its moves: each
//! `setoption name Observe value FEN_BEFORE FEN_AFTER` (two Microchess FENs, the
//! opponent's move between them) multiplies the odds by the likelihood ratio of that move
//! (a maximin player keeps its guarantee, but for [`SLIP`] of its moves that are uniform;
//! a random one plays each move with probability 1/n), and `Observe value reset` (a new
//! opponent) starts again from even odds. The guarantee is kept whatever the model.

use super::{Move, Position, Value};
use crate::chooser::{self, ChoiceJob, MoveChooser, SearchTask};
use crate::game::Rules;
use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue, Shown};
use crate::report::{Event, EventSink, InfoReport, Score, ScoreBound};
use crate::time::SearchControl;
use crate::tt::{TranspositionTable, MATE};
use std::sync::Arc;

/// `OpponentModel`: what the tie-break among guarantee-keeping moves expects of the
/// opponent (module documentation).
const MODEL_OPTION: OptionSpec = OptionSpec::new(
    "OpponentModel",
    OptionKind::Combo {
        default: "random",
        choices: &["random", "maximin", "observed"],
    },
)
.shown(Shown::UCI);

/// `Observe`: one move of the opponent (`FEN_BEFORE FEN_AFTER`), or `reset`.
const OBSERVE_OPTION: OptionSpec =
    OptionSpec::new("Observe", OptionKind::Text { default: "" }).shown(Shown::UCI);

/// The share of a maximin opponent's moves modelled as uniformly random slips.
pub const SLIP: f64 = 0.05;

/// The bound on the log-odds, so that a long run of one kind of evidence can still be
/// overturned within a few dozen moves.
const MAX_LOG_ODDS: f64 = 20.0;

/// What the tie-break expects of the opponent.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Model {
    Random,
    Maximin,
    Observed,
}

/// Plays Microchess by its solution.
pub struct SolvedTable {
    model: Model,
    /// ln(P(maximin) / P(random)) given the moves observed.
    log_odds: f64,
    /// Moves observed since the last reset.
    observed: u32,
}

impl SolvedTable {
    /// The weight of the maximin model's expectation in the tie-break.
    fn maximin_weight(&self) -> f64 {
        match self.model {
            Model::Random => 0.0,
            Model::Maximin => 1.0,
            Model::Observed => 1.0 / (1.0 + (-self.log_odds).exp()),
        }
    }

    /// Takes one observed opponent move (`FEN_BEFORE FEN_AFTER`) into the odds.
    fn observe(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() == 1 && words[0].eq_ignore_ascii_case("reset") {
            self.log_odds = 0.0;
            self.observed = 0;
            return Ok(());
        }
        if words.len() != 12 {
            return Err(format!(
                "Observe wants 'reset' or two FENs of six fields, got {} words",
                words.len()
            ));
        }
        let before = Position::from_fen(&words[..6].join(" "))?;
        let after = Position::from_fen(&words[6..].join(" "))?;
        let solution = super::solution();
        let children = solution.move_values(&before);
        let mover = before.player_to_move();
        let Some(played) = children.iter().position(|(m, _)| {
            let next = before.after(*m);
            next.placement() == after.placement() && next.plies() == after.plies()
        }) else {
            return Err("Observe: no legal move leads from the first FEN to the second".into());
        };
        let n = children.len() as f64;
        let best = children
            .iter()
            .map(|(_, v)| v.guaranteed[mover])
            .max()
            .unwrap_or(0);
        let keeping = children
            .iter()
            .filter(|(_, v)| v.guaranteed[mover] == best)
            .count() as f64;
        let kept = children[played].1.guaranteed[mover] == best;
        let maximin = (1.0 - SLIP) * if kept { 1.0 / keeping } else { 0.0 } + SLIP / n;
        let random = 1.0 / n;
        self.log_odds =
            (self.log_odds + (maximin / random).ln()).clamp(-MAX_LOG_ODDS, MAX_LOG_ODDS);
        self.observed += 1;
        Ok(())
    }
}

/// The score for the side to move of a position whose solved value is `value`, the game
/// ending `plies` plies from here: a forced win (payoff 3) as a mate (`mate N`, N moves of
/// ours), a forced loss as being mated (`mate -N`), otherwise 100 per point of the
/// guaranteed payoff.
fn solved_score(value: &Value, mover: usize, plies: i32) -> i32 {
    let (mine, theirs) = (value.guaranteed[mover], value.guaranteed[1 - mover]);
    if mine == 3 {
        MATE - plies
    } else if theirs == 3 {
        // Mated after N of our moves: an even ply count from our side's view.
        -(MATE - 2 * ((plies + 1) / 2))
    } else {
        100 * i32::from(mine)
    }
}

impl MoveChooser<Position> for SolvedTable {
    const OPTIONS: &'static [OptionSpec] = &[MODEL_OPTION, OBSERVE_OPTION];

    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if spec.name == MODEL_OPTION.name {
            self.model = match value.as_choice() {
                "maximin" => Model::Maximin,
                "observed" => Model::Observed,
                _ => Model::Random,
            };
            if self.model != Model::Random {
                // Computed in the background, as the solution is; `isready` waits for it.
                let warm = std::thread::Builder::new()
                    .name("microchess-maximin".into())
                    .spawn(|| {
                        super::solve::expected_against_maximin(&Position::handout());
                    });
                if let Err(e) = warm {
                    log::warn!("cannot compute the maximin expectations in the background: {e}");
                }
            }
            return Ok(());
        }
        if spec.name == OBSERVE_OPTION.name {
            return self
                .observe(value.as_text())
                .map_err(|reason| OptionError::Refused {
                    name: OBSERVE_OPTION.name,
                    reason,
                });
        }
        Err(OptionError::Unknown {
            name: spec.name.to_string(),
        })
    }

    fn new() -> Self {
        // Solving takes about 0.2 s of CPU; a later `go` that comes first waits for it.
        let warm = std::thread::Builder::new()
            .name("microchess-solve".into())
            .spawn(|| {
                super::solution();
            });
        if let Err(e) = warm {
            log::warn!("cannot solve Microchess in the background: {e}");
        }
        SolvedTable {
            model: Model::Random,
            log_odds: 0.0,
            observed: 0,
        }
    }

    fn wait_ready(&self) {
        super::solution();
        if self.model != Model::Random {
            super::solve::expected_against_maximin(&Position::handout());
        }
    }

    fn static_eval(&self, pos: &Position) -> Option<i32> {
        let mover = pos.player_to_move();
        let value = super::value(pos);
        Some(solved_score(&value, mover, i32::from(value.plies[mover])))
    }

    fn search_job(
        &mut self,
        pos: &Position,
        task: SearchTask<Move>,
        _tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> ChoiceJob<Move> {
        let pos = *pos;
        let allowed = task.search_moves;
        let banned = task.banned;
        let infinite = task.request.infinite;
        let weight = self.maximin_weight();
        let observed = self.observed;
        Box::new(move || {
            let solution = super::solution();
            let mover = pos.player_to_move();
            // The choosing rule over the allowed moves (all of them without searchmoves),
            // banned moves (UCCI `banmoves`) left out.
            let children: Vec<(Move, Value)> = solution
                .move_values(&pos)
                .into_iter()
                .filter(|(m, _)| allowed.is_empty() || allowed.contains(m))
                .filter(|(m, _)| !banned.contains(m))
                .collect();
            let best = (!children.is_empty())
                .then(|| children[super::solve::pick_weighted(&pos, &children, weight)]);
            let value = solution.value(&pos);
            let mut choice = chooser::Choice::unsearched(None);
            if let Some((m, after)) = best {
                let plies = i32::from(after.plies[mover]) + 1;
                let score = solved_score(&after, mover, plies);
                sink(Event::Info(&InfoReport {
                    depth: plies,
                    seldepth: usize::from(after.plies[mover]) + 1,
                    score: Score::from_internal(score),
                    raw_score: score,
                    bound: ScoreBound::Exact,
                    wdl: None,
                    nodes: children.len() as u64,
                    time_ms: control.elapsed_ms(),
                    nps: 0,
                    hashfull: 0,
                    multipv: 1,
                    pv: vec![m.to_string()],
                    player_scores: Vec::new(),
                }));
                sink(Event::Note(&format!(
                    "payoff guaranteed {} {} expected {:.3} plies {} opponent maximin {:.3} after {} moves",
                    value.guaranteed[0],
                    value.guaranteed[1],
                    after.expected[mover],
                    after.plies[mover] + 1,
                    weight,
                    observed
                )));
                choice = chooser::Choice {
                    best: Some(m),
                    ponder: None,
                    score,
                    depth: plies,
                    nodes: 0,
                };
            }
            // An infinite or ponder search answers only when stopped (or ponder-hit).
            while !control.stopped() && (infinite || control.pondering()) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            choice
        })
    }
}
