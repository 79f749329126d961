//! The Microchess session: the game is solved (`crate::microchess::solve`), so `go`
//! answers at once from the table instead of searching. The solution is computed on a
//! thread of its own when the game is selected, so selecting it returns at once; `isready`
//! (and CECP's `ping`) wait for it, so a `go` after `readyok` never does.

use super::session::{build_position, end_without_moves, perft_of, GameSession, SearchJob};
use super::{Answer, Event, EventSink, InfoReport, ProbeReport, SearchRequest};
use crate::game::{GameEnd, Rules, XboardVariant};
use crate::microchess::{self, Move, Position, Value};
use crate::perft::PerftReport;
use crate::search::{Score, ScoreBound, SearchControl};
use crate::tt::{TranspositionTable, MATE};
use std::sync::Arc;

/// Microchess played by its solution.
pub struct MicrochessSession {
    pos: Position,
}

impl MicrochessSession {
    /// The handout position; starts solving the game in the background.
    pub fn new() -> Self {
        // Solving takes about 0.2 s of CPU; a later `go` that comes first waits for it.
        let warm = std::thread::Builder::new()
            .name("microchess-solve".into())
            .spawn(|| {
                microchess::solution();
            });
        if let Err(e) = warm {
            log::warn!("cannot solve Microchess in the background: {e}");
        }
        MicrochessSession {
            pos: Position::start_position(),
        }
    }
}

impl Default for MicrochessSession {
    fn default() -> Self {
        Self::new()
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

impl GameSession for MicrochessSession {
    fn wait_ready(&self) {
        microchess::solution();
    }
    fn name(&self) -> &'static str {
        Position::NAME
    }
    fn players(&self) -> &'static [&'static str] {
        Position::PLAYERS
    }
    fn clock_keys(&self) -> &'static [(&'static str, &'static str)] {
        Position::CLOCK_KEYS
    }
    fn xboard(&self) -> Option<XboardVariant> {
        Position::XBOARD
    }
    fn start_fen(&self) -> String {
        Position::start_position().to_fen()
    }
    fn rule_sets(&self) -> &'static [&'static str] {
        &[]
    }
    fn set_rule_set(&mut self, _name: &str) -> Result<(), String> {
        Err("microchess has one set of rules only".to_string())
    }
    fn player_to_move(&self) -> usize {
        self.pos.player_to_move()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.pos = build_position(fen, moves, None)?;
        Ok(())
    }
    fn play(&mut self, text: &str) -> Result<String, String> {
        let m = Rules::parse_legal_move(&self.pos, text).map_err(|e| e.to_string())?;
        Rules::play(&mut self.pos, m);
        Ok(m.to_string())
    }
    fn check_move(&self, text: &str) -> Result<String, String> {
        Rules::parse_legal_move(&self.pos, text)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }
    fn set_banned(&mut self, _moves: &[String]) {}
    fn fen(&self) -> String {
        Rules::to_fen(&self.pos)
    }
    fn legal_moves(&self) -> Vec<String> {
        Rules::legal_moves(&self.pos)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }
    fn game_end(&self) -> Option<GameEnd> {
        Rules::game_end(&self.pos)
    }
    fn diagram(&self) -> String {
        Rules::diagram(&self.pos)
    }
    fn eval_report(&self) -> String {
        Rules::eval_report(&self.pos)
    }
    fn static_eval(&self) -> Option<i32> {
        let mover = self.pos.player_to_move();
        let value = microchess::value(&self.pos);
        Some(solved_score(&value, mover, i32::from(value.plies[mover])))
    }
    fn perft(&self, depth: u32, fen: Option<&str>) -> Result<PerftReport, String> {
        perft_of(&self.pos, depth, fen)
    }
    fn probe(
        &self,
        _tt: &TranspositionTable,
        _setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, String> {
        Ok(None)
    }
    fn new_game(&mut self) {}
    fn search_job(
        &mut self,
        request: SearchRequest,
        _tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> SearchJob {
        let pos = self.pos;
        let mut allowed: Vec<Move> = Vec::new();
        for text in &request.search_moves {
            match Rules::parse_legal_move(&pos, text) {
                Ok(m) => allowed.push(m),
                Err(e) => sink(Event::Note(&format!("searchmoves: {e}"))),
            }
        }
        let infinite = request.infinite;
        Box::new(move || {
            let solution = microchess::solution();
            let mover = pos.player_to_move();
            // The choosing rule over the allowed moves (all of them without searchmoves).
            let children: Vec<(Move, Value)> = solution
                .move_values(&pos)
                .into_iter()
                .filter(|(m, _)| allowed.is_empty() || allowed.contains(m))
                .collect();
            let best = (!children.is_empty()).then(|| {
                let side = pos.side_to_move();
                children[microchess::solve::pick(&children, side)]
            });
            let value = solution.value(&pos);
            let mut answer = Answer {
                end_now: best.is_none().then(|| end_without_moves(&pos)).flatten(),
                ..Answer::default()
            };
            if let Some((m, after)) = best {
                let score = solved_score(&after, mover, i32::from(after.plies[mover]) + 1);
                sink(Event::Info(&InfoReport {
                    depth: i32::from(after.plies[mover]) + 1,
                    seldepth: usize::from(after.plies[mover]) + 1,
                    score: Score::from_internal(score),
                    raw_score: score,
                    bound: ScoreBound::Exact,
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
                let mut next = pos;
                Rules::play(&mut next, m);
                answer.best = Some(m.to_string());
                answer.score = score;
                answer.depth = i32::from(after.plies[mover]) + 1;
                answer.end_after = end_without_moves(&next);
            }
            // An infinite or ponder search answers only when stopped (or ponder-hit).
            while !control.stopped() && (infinite || control.pondering()) {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            answer
        })
    }
    fn fallback_answer(&self) -> Answer {
        let first = Rules::legal_moves(&self.pos).first().map(|m| m.to_string());
        Answer {
            end_now: first
                .is_none()
                .then(|| end_without_moves(&self.pos))
                .flatten(),
            best: first,
            ..Answer::default()
        }
    }
}
