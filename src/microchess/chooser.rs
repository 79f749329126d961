//! Microchess's move chooser: the game is solved ([`super::solve`]), so `go` answers at
//! once from the table instead of searching. The solution is computed on a thread of its
//! own when the chooser is made (the game selected), so selecting it returns at once;
//! `isready` (and CECP's `ping`) wait for it, so a `go` after `readyok` never does.

use super::{Move, Position, Value};
use crate::chooser::{self, ChoiceJob, MoveChooser, SearchTask};
use crate::game::Rules;
use crate::report::{Event, EventSink, InfoReport, Score, ScoreBound};
use crate::time::SearchControl;
use crate::tt::{TranspositionTable, MATE};
use std::sync::Arc;

/// Plays Microchess by its solution.
pub struct SolvedTable;

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
        SolvedTable
    }

    fn wait_ready(&self) {
        super::solution();
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
            let best = (!children.is_empty()).then(|| {
                let side = pos.side_to_move();
                children[super::solve::pick(&children, side)]
            });
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
                    "payoff guaranteed {} {} expected {:.3} plies {}",
                    value.guaranteed[0],
                    value.guaranteed[1],
                    after.expected[mover],
                    after.plies[mover] + 1
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
