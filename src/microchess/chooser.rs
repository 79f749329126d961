//! Microchess's move chooser: the game is solved ([`super::solve`]), so `go` answers at
//! once from the table instead of searching. The solution is computed on a thread of its
//! own when the chooser is made (the game selected), so selecting it returns at once;
//! `isready` (and CECP's `ping`) wait for it, so a `go` after `readyok` never does.
//!
//! **Opponent model** (option `OpponentModel`): the solution's choosing rule breaks ties
//! among the moves that keep jiang's guarantee by the expected payoff against a uniformly
//! random opponent (`random`, the default). `maximin` uses instead the best response to a
//! player that keeps its own guarantee and breaks its ties at random (the course's
//! "pessimist"); `observed` weighs the best responses to every model of
//! [`super::opponents`] (random and capturing movers, the course's seven rational
//! players) by their likelihood given the opponent's moves: each `setoption name Observe
//! value FEN_BEFORE FEN_AFTER` (two Microchess FENs, the opponent's move between them)
//! multiplies each model's weight by the probability it gives that move, and `Observe
//! value reset` (a new opponent) starts again from equal weights.
//!
//! **Risking ties** (option `RiskTies`, off by default): the guarantee is kept whatever the
//! model, unless `RiskTies` is on; then a guaranteed tie (2) may be traded for a line whose
//! worst case is a draw (1) when the model expects more of it (a win, 3, against a
//! player that lets it happen). A forced win is never given up and a loss the position
//! does not force is never risked.

use super::opponents::{self, Beliefs, Floor};
use super::{MicrochessFenError, Move, Position, Value};
use crate::chooser::{self, ChoiceJob, MoveChooser};
use crate::game::Rules;
use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue, Shown};
use crate::report::{Event, EventSink, InfoReport, Score, ScoreBound};
use crate::request::SearchRequest;
use crate::time::SearchControl;
use crate::tt::{TranspositionTable, MATE};
use std::fmt;
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

/// `RiskTies`: whether jiang may trade a guaranteed tie for a line the model expects more
/// of (module documentation).
const RISK_TIES_OPTION: OptionSpec =
    OptionSpec::new("RiskTies", OptionKind::Check { default: false }).shown(Shown::UCI);

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
    /// What jiang may give up of its guarantee (`RiskTies`).
    floor: Floor,
    /// The models' weights given the moves observed since the last reset.
    beliefs: Beliefs,
}

impl SolvedTable {
    /// Whether the choice needs the models' tables (the default, a random opponent with
    /// the guarantee kept, is the solution's own rule).
    fn uses_models(&self) -> bool {
        self.model != Model::Random || self.floor != Floor::Guarantee
    }

    /// The weights of [`opponents::models`] the tie-break uses, given `beliefs` (a copy of
    /// the chooser's, so that this can run on the search thread: weighing the moves
    /// observed may wait for the tables).
    fn weights(model: Model, beliefs: &mut Beliefs, floor: Floor) -> Vec<f64> {
        match model {
            Model::Random => opponents::only("uniform"),
            Model::Maximin => opponents::only("pessimist"),
            Model::Observed => beliefs.weights(floor),
        }
    }

    /// Takes one observed opponent move (`FEN_BEFORE FEN_AFTER`) into the weights.
    fn observe(&mut self, text: &str) -> Result<(), ObserveError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() == 1 && words[0].eq_ignore_ascii_case("reset") {
            self.beliefs = Beliefs::default();
            return Ok(());
        }
        if words.len() != 12 {
            return Err(ObserveError::WordCount(words.len()));
        }
        let before = Position::from_fen(&words[..6].join(" ")).map_err(ObserveError::Fen)?;
        let after = Position::from_fen(&words[6..].join(" ")).map_err(ObserveError::Fen)?;
        let Some(played) = before.legal_moves().iter().position(|m| {
            let next = before.after(*m);
            next.placement() == after.placement() && next.plies() == after.plies()
        }) else {
            return Err(ObserveError::NoMoveBetween);
        };
        self.beliefs.observe(&before, played);
        // Weighed now if the tables are at hand, else at the next search.
        if opponents::tables_ready(self.floor) {
            self.beliefs.settle(self.floor);
        }
        Ok(())
    }
}

/// Why an `Observe` value was refused; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObserveError {
    /// Neither `reset` nor twelve words (how many).
    WordCount(usize),
    /// One of the two FENs is not a Microchess position.
    Fen(MicrochessFenError),
    /// No legal move leads from the first position to the second.
    NoMoveBetween,
}

impl fmt::Display for ObserveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObserveError::WordCount(n) => write!(
                f,
                "Observe wants 'reset' or two FENs of six fields, got {n} words"
            ),
            ObserveError::Fen(e) => e.fmt(f),
            ObserveError::NoMoveBetween => {
                write!(
                    f,
                    "Observe: no legal move leads from the first FEN to the second"
                )
            }
        }
    }
}

impl std::error::Error for ObserveError {}

/// Computes every model's table for `floor`.
fn compute_models(floor: Floor) {
    for i in 0..opponents::models().len() {
        opponents::model_table(i, floor);
    }
}

/// Computes every model's table for `floor` on a thread of its own (`isready` waits for
/// them).
fn warm_models(floor: Floor) {
    let warm = std::thread::Builder::new()
        .name("microchess-models".into())
        .spawn(move || compute_models(floor));
    if let Err(e) = warm {
        log::warn!("cannot compute the opponent models in the background: {e}");
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
    const OPTIONS: &'static [OptionSpec] = &[MODEL_OPTION, RISK_TIES_OPTION, OBSERVE_OPTION];

    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if spec.name == MODEL_OPTION.name {
            self.model = match value.as_choice() {
                "maximin" => Model::Maximin,
                "observed" => Model::Observed,
                _ => Model::Random,
            };
            if self.uses_models() {
                // Computed in the background, as the solution is; `isready` waits.
                warm_models(self.floor);
            }
            return Ok(());
        }
        if spec.name == RISK_TIES_OPTION.name {
            self.floor = if value.as_bool() {
                Floor::NoLoss
            } else {
                Floor::Guarantee
            };
            if self.uses_models() {
                warm_models(self.floor);
            }
            return Ok(());
        }
        if spec.name == OBSERVE_OPTION.name {
            return self
                .observe(value.as_text())
                .map_err(|e| OptionError::Refused {
                    name: OBSERVE_OPTION.name,
                    reason: e.to_string(),
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
            floor: Floor::Guarantee,
            beliefs: Beliefs::default(),
        }
    }

    fn wait_ready(&self) {
        super::solution();
        if self.uses_models() {
            compute_models(self.floor);
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
        request: SearchRequest<Move>,
        _tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> ChoiceJob<Move> {
        let pos = *pos;
        let allowed = request.search_moves;
        let banned = request.banned;
        let infinite = request.infinite;
        let model = self.model;
        let floor = self.floor;
        let uses_models = self.uses_models();
        let mut beliefs = self.beliefs.clone();
        let observed = beliefs.observed();
        Box::new(move || {
            let weights = SolvedTable::weights(model, &mut beliefs, floor);
            let (likeliest, weight) = Beliefs::likeliest(&weights);
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
            let best = (!children.is_empty()).then(|| {
                // The default's expectations are the solution's own.
                let i = if uses_models {
                    opponents::pick_against(&pos, &children, &weights, floor)
                } else {
                    super::solve::pick(&children, pos.side_to_move())
                };
                children[i]
            });
            let value = solution.value(&pos);
            let mut choice = chooser::Choice::unsearched(None);
            if let Some((m, after)) = best {
                // The mover's expected payoff after the move under the model it used.
                let expected = if uses_models {
                    opponents::expected(&pos.after(m), pos.side_to_move(), &weights, floor)
                } else {
                    f64::from(after.expected[mover])
                };
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
                    "payoff guaranteed {} {} expected {:.3} plies {} opponent {} {:.3} after {} moves",
                    value.guaranteed[0],
                    value.guaranteed[1],
                    expected,
                    after.plies[mover] + 1,
                    likeliest.name(),
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
