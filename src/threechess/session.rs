//! ThreeChess inside the engine: a [`GameSession`] that plays with the three-player
//! search ([`super::search`]) instead of the two-player one.
//!
//! The clock: `go btime B gtime G rtime R` gives each player's remaining time of the
//! reference's whole-game budget; the player to move's is spent by
//! [`super::search::time_budget`]. `movetime`, `depth`, `nodes` and `infinite` work as
//! for the other games. The facade asks [`GameSession::budget`] for the deadlines just
//! before [`GameSession::search_job`]; the session hands them to the search (which reads
//! them from its limits: `SearchControl` keeps its own deadlines private).

use super::board::Board;
use super::eval;
use super::search::{self, Algorithm, ThreeInfo, ThreeLimits, ThreeResult, DEFAULT_ALGORITHM};
use super::types::Move;
use crate::engine::session::{build_position, perft_of, GameSession, ProbeReport, SearchJob};
use crate::engine::{Answer, Event, EventSink, InfoReport, SearchRequest};
use crate::game::{GameEnd, Rules, XboardVariant};
use crate::perft::PerftReport;
use crate::search::{Score, ScoreBound, SearchControl};
use crate::time::{self, Budget, Clock, TimeSettings};
use crate::tt::TranspositionTable;
use std::sync::{Arc, Mutex};

/// The ThreeChess game being played.
pub struct ThreeChessSession {
    pos: Board,
    /// The rule set chosen (`None`: the reference's, no ply limit).
    rule_set: Option<&'static str>,
    banned: Vec<Move>,
    algorithm: Algorithm,
    /// The deadlines [`GameSession::budget`] gave for the coming search (taken by
    /// [`GameSession::search_job`], so never reused).
    next_budget: Mutex<Option<Budget>>,
}

impl ThreeChessSession {
    /// The game at its start position, played by the default search.
    pub fn new() -> Self {
        ThreeChessSession {
            pos: Board::startpos(),
            rule_set: None,
            banned: Vec::new(),
            algorithm: DEFAULT_ALGORITHM,
            next_budget: Mutex::new(None),
        }
    }

    /// The position.
    pub fn position(&self) -> &Board {
        &self.pos
    }

    fn take_budget(&self) -> Option<Budget> {
        self.next_budget
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

impl Default for ThreeChessSession {
    fn default() -> Self {
        Self::new()
    }
}

/// The protocol's report of one iteration.
fn info_report(info: &ThreeInfo, hashfull: u32) -> InfoReport {
    InfoReport {
        depth: info.depth,
        seldepth: info.seldepth,
        // A king capture has no "mate in N" of two-player chess: its score is shown in
        // centipawns too (beyond ±31000).
        score: Score::Cp(info.score),
        raw_score: info.score,
        bound: ScoreBound::Exact,
        nodes: info.nodes,
        time_ms: info.time_ms,
        nps: info.nps,
        hashfull,
        multipv: 1,
        pv: info.pv.iter().map(|m| m.to_string()).collect(),
        player_scores: Board::PLAYERS.iter().copied().zip(info.scores).collect(),
    }
}

/// The end of the game once `pos` has no move (a king captured, the ply limit).
fn end_without_moves(pos: &Board) -> Option<GameEnd> {
    if pos.legal_moves_list().is_empty() {
        pos.game_end()
    } else {
        None
    }
}

fn answer_for(pos: &Board, result: &ThreeResult) -> Answer {
    let end_after = result.best_move.and_then(|m| {
        let mut after = pos.clone();
        after.make_move(m);
        end_without_moves(&after)
    });
    Answer {
        best: result.best_move.map(|m| m.to_string()),
        ponder: result.ponder_move.map(|m| m.to_string()),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        offer_draw: false,
        end_after,
        end_now: if result.best_move.is_none() {
            end_without_moves(pos)
        } else {
            None
        },
    }
}

fn fallback_result(pos: &Board, banned: &[Move]) -> ThreeResult {
    let first = pos
        .legal_moves_list()
        .iter()
        .copied()
        .find(|m| !banned.contains(m));
    ThreeResult {
        best_move: first,
        ponder_move: None,
        score: 0,
        scores: [0; 3],
        depth: 0,
        nodes: 0,
        pv: first.into_iter().collect(),
    }
}

impl GameSession for ThreeChessSession {
    fn name(&self) -> &'static str {
        Board::NAME
    }
    fn players(&self) -> &'static [&'static str] {
        Board::PLAYERS
    }
    fn clock_keys(&self) -> &'static [(&'static str, &'static str)] {
        Board::CLOCK_KEYS
    }
    fn xboard(&self) -> Option<XboardVariant> {
        Board::XBOARD
    }
    fn start_fen(&self) -> String {
        Board::startpos().to_fen()
    }
    fn rule_sets(&self) -> &'static [&'static str] {
        Board::RULE_SETS
    }
    fn set_rule_set(&mut self, name: &str) -> Result<(), String> {
        let Some(&known) = Board::RULE_SETS
            .iter()
            .find(|r| r.eq_ignore_ascii_case(name))
        else {
            return Err(format!(
                "unknown rule set '{name}' (threechess: {})",
                Board::RULE_SETS.join(", ")
            ));
        };
        Rules::set_rule_set(&mut self.pos, known)?;
        self.rule_set = Some(known);
        Ok(())
    }
    fn player_to_move(&self) -> usize {
        self.pos.side_to_move().index()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.pos = build_position(fen, moves, self.rule_set)?;
        self.banned.clear();
        Ok(())
    }
    fn play(&mut self, text: &str) -> Result<String, String> {
        let m = self.pos.parse_move(text).map_err(|e| e.to_string())?;
        self.pos.make_move(m);
        self.banned.clear();
        Ok(m.to_string())
    }
    fn check_move(&self, text: &str) -> Result<String, String> {
        self.pos
            .parse_move(text)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }
    fn set_banned(&mut self, moves: &[String]) {
        self.banned = moves
            .iter()
            .filter_map(|t| self.pos.parse_move(t).ok())
            .collect();
    }
    fn fen(&self) -> String {
        self.pos.to_fen()
    }
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves_list()
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
        eval::report(&self.pos)
    }
    fn static_eval(&self) -> Option<i32> {
        Some(eval::view(&self.pos, self.pos.side_to_move()))
    }
    fn perft(&self, depth: u32, fen: Option<&str>) -> Result<PerftReport, String> {
        perft_of(&self.pos, depth, fen)
    }
    fn probe(
        &self,
        tt: &TranspositionTable,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, String> {
        let owned;
        let pos = match setup {
            None => &self.pos,
            Some((fen, moves)) => {
                owned = build_position::<Board>(fen, moves, self.rule_set)?;
                &owned
            }
        };
        let key = search::tt_key(pos, pos.side_to_move(), self.algorithm);
        Ok(tt.probe(key, 0).map(|e| ProbeReport {
            best: Move::from_code(e.mv)
                .filter(|&m| pos.is_legal(m))
                .map(|m| m.to_string()),
            score: e.score,
            depth: e.depth,
            bound: e.bound,
        }))
    }
    fn budget(&self, clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
        let budget = match (clock.move_time, clock.time_left) {
            (Some(_), _) => time::budget(clock, settings),
            (None, Some(left)) => {
                let (soft, hard) = search::time_budget(left, self.pos.plies() as usize, settings);
                Some(Budget {
                    soft: Some(soft),
                    hard,
                })
            }
            (None, None) => None,
        };
        // Without a clock the facade still caps the search at the longest move time.
        *self.next_budget.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(budget.unwrap_or(Budget {
                soft: None,
                hard: time::hard_cap(settings),
            }));
        budget
    }
    fn new_game(&mut self) {}
    fn search_job(
        &mut self,
        request: SearchRequest,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> SearchJob {
        let mut search_moves = Vec::new();
        for text in &request.search_moves {
            match self.pos.parse_move(text) {
                Ok(m) => search_moves.push(m),
                Err(e) => sink(Event::Note(&format!("searchmoves: {e}"))),
            }
        }
        // Banned moves (UCCI) leave the root: search the others only.
        if !self.banned.is_empty() {
            if search_moves.is_empty() {
                search_moves = self.pos.legal_moves_list().iter().copied().collect();
            }
            search_moves.retain(|m| !self.banned.contains(m));
        }
        let budget = self.take_budget().filter(|_| !request.infinite);
        let limits = ThreeLimits {
            depth: request.depth,
            nodes: request.nodes,
            soft: budget.and_then(|b| b.soft),
            hard: budget.map(|b| b.hard),
            infinite: request.infinite,
            search_moves,
            algorithm: self.algorithm,
            params: eval::DEFAULT_PARAMS,
            fallibility: request.three_fallibility,
        };
        let pos = self.pos.clone();
        let banned = self.banned.clone();
        Box::new(move || {
            let on_info = |info: &ThreeInfo| sink(Event::Info(&info_report(info, tt.hashfull())));
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search::search(&pos, &limits, &tt, &control, &on_info)
            }));
            let result = match outcome {
                Ok(r) if r.best_move.is_some() || pos.legal_moves_list().is_empty() => r,
                Ok(_) => fallback_result(&pos, &banned),
                Err(_) => {
                    log::error!("the search panicked; answering with the first legal move");
                    fallback_result(&pos, &banned)
                }
            };
            answer_for(&pos, &result)
        })
    }
    fn fallback_answer(&self) -> Answer {
        answer_for(&self.pos, &fallback_result(&self.pos, &self.banned))
    }
}
