//! ThreeChess's move chooser: the three-player search ([`super::search`]) instead of the
//! two-player one.
//!
//! The clock: `go btime B gtime G rtime R` gives each player's remaining time of the
//! reference's whole-game budget; the player to move's is spent by
//! [`super::search::time_budget`] (see [`MoveChooser::budget`] below). `movetime`,
//! `depth`, `nodes` and `infinite` work as for the other games.

use super::board::Board;
use super::eval;
use super::search::{
    self, Algorithm, ThreeInfo, ThreeSettings, DEFAULT_ALGORITHM, DEFAULT_FALLIBILITY,
    MAX_FALLIBILITY,
};
use super::types::Move;
use crate::chooser::{Choice, ChoiceJob, MoveChooser};
use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue, Shown};
use crate::report::{Event, EventSink, InfoReport, ProbeReport, Score, ScoreBound};
use crate::request::SearchRequest;
use crate::time::{self, Budget, Clock, SearchControl, TimeSettings};
use crate::tt::TranspositionTable;
use std::sync::Arc;

/// `ThreeFallibility`: how much the root prefers moves that weak opponents are likely to
/// answer by leaving a king en prise (see [`ThreeSettings::fallibility`]).
const FALLIBILITY_OPTION: OptionSpec = OptionSpec::new(
    "ThreeFallibility",
    OptionKind::Spin {
        default: DEFAULT_FALLIBILITY as i64,
        min: 0,
        max: MAX_FALLIBILITY as i64,
    },
)
.shown(Shown::UCI);

/// Plays ThreeChess with the three-player search.
pub struct ThreePlayerSearch {
    algorithm: Algorithm,
    fallibility: i32,
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
        wdl: None,
        nodes: info.nodes,
        time_ms: info.time_ms,
        nps: info.nps,
        hashfull,
        multipv: 1,
        pv: info.pv.iter().map(|m| m.to_string()).collect(),
        player_scores: <Board as crate::game::Rules>::PLAYERS
            .iter()
            .copied()
            .zip(info.scores)
            .collect(),
    }
}

impl MoveChooser<Board> for ThreePlayerSearch {
    const OPTIONS: &'static [OptionSpec] = &[FALLIBILITY_OPTION];

    fn new() -> Self {
        ThreePlayerSearch {
            algorithm: DEFAULT_ALGORITHM,
            fallibility: DEFAULT_FALLIBILITY,
        }
    }

    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if spec.name != FALLIBILITY_OPTION.name {
            return Err(OptionError::Unknown {
                name: spec.name.to_string(),
            });
        }
        self.fallibility = value.as_int().clamp(0, i64::from(MAX_FALLIBILITY)) as i32;
        Ok(())
    }

    /// A whole-game clock is spent by the three-player search's own schedule; a fixed
    /// time per move as for every game.
    fn budget(&self, pos: &Board, clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
        match (clock.move_time, clock.time_left) {
            (Some(_), _) => time::budget(clock, pos.plies() as usize, settings),
            (None, Some(left)) => {
                let (soft, hard) = search::time_budget(left, pos.plies() as usize, settings);
                Some(Budget {
                    soft: Some(soft),
                    hard,
                })
            }
            (None, None) => None,
        }
    }

    fn static_eval(&self, pos: &Board) -> Option<i32> {
        Some(eval::view(pos, pos.side_to_move()))
    }

    fn probe(&self, pos: &Board, tt: &TranspositionTable) -> Option<ProbeReport> {
        let key = search::tt_key(pos, pos.side_to_move(), self.algorithm);
        tt.probe(key, 0).map(|e| ProbeReport {
            best: Move::from_code(e.mv)
                .filter(|&m| pos.is_legal(m))
                .map(|m| m.to_string()),
            score: e.score,
            depth: e.depth,
            bound: e.bound,
        })
    }

    fn search_job(
        &mut self,
        pos: &Board,
        mut request: SearchRequest<Move>,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> ChoiceJob<Move> {
        // Banned moves (UCCI) leave the root: search the others only.
        if !request.banned.is_empty() {
            if request.search_moves.is_empty() {
                request.search_moves = pos.legal_moves_list().iter().copied().collect();
            }
            let banned = std::mem::take(&mut request.banned);
            request.search_moves.retain(|m| !banned.contains(m));
        }
        // The search reads its deadlines from the request's budget, not from the control.
        let settings = ThreeSettings {
            algorithm: self.algorithm,
            params: eval::DEFAULT_PARAMS,
            fallibility: self.fallibility,
        };
        let pos = pos.clone();
        Box::new(move || {
            let on_info = |info: &ThreeInfo| sink(Event::Info(&info_report(info, tt.hashfull())));
            let result = search::search(&pos, &request, &settings, &tt, &control, &on_info);
            Choice {
                best: result.best_move,
                ponder: result.ponder_move,
                score: result.score,
                depth: result.depth,
                nodes: result.nodes,
            }
        })
    }
}
