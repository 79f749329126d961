//! The generic search as a move chooser: how every two-player [`Game`] is played.

use super::book_move::{book_move, mix};
use super::{search_reporting, skill, SearchInfo, SearchState};
use crate::chooser::{Choice, ChoiceJob, MoveChooser};
use crate::game::Game;
use crate::report::{Event, EventSink, InfoReport, ProbeReport, Wdl};
use crate::request::SearchRequest;
use crate::time::SearchControl;
use crate::tt::{Bound, TranspositionTable};
use std::sync::{Arc, Mutex, MutexGuard};

/// Plays a two-player game with the PVS search, keeping its move-ordering memory from
/// one search of the game to the next.
pub struct AlphaBeta<G: Game> {
    state: Arc<Mutex<SearchState<G>>>,
}

/// Locks the search state. Only one search runs at a time; a lock poisoned by a panicked
/// search is recovered with fresh memory.
fn lock_state<G: Game>(state: &Mutex<SearchState<G>>) -> MutexGuard<'_, SearchState<G>> {
    match state.lock() {
        Ok(g) => g,
        Err(poisoned) => {
            let mut g = poisoned.into_inner();
            g.clear();
            g
        }
    }
}

/// A seed for a weaker level's choice that differs from one move to the next.
fn clock_seed() -> u64 {
    crate::common::clock::seed()
}

/// Converts a search report to the engine's game-independent form; `wdl` is the game's
/// reading of the score ([`Game::wdl`]).
pub fn info_report<M: std::fmt::Display>(info: &SearchInfo<M>, wdl: Option<Wdl>) -> InfoReport {
    InfoReport {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score,
        raw_score: info.raw_score,
        bound: info.bound,
        wdl,
        nodes: info.nodes,
        time_ms: info.time_ms,
        nps: info.nps,
        hashfull: info.hashfull,
        multipv: info.multipv,
        pv: info.pv.iter().map(|m| m.to_string()).collect(),
        player_scores: Vec::new(),
    }
}

/// Stores the answer as the root's hash move (the search itself does not store the
/// root), so that `probe` shows it and the next search of this position tries it first.
/// No bound: the score of an interrupted iteration is not a proven bound.
fn remember_root<G: Game>(tt: &TranspositionTable, pos: &G, choice: &Choice<G::Move>) {
    if let (Some(m), true) = (choice.best, choice.depth > 0) {
        let eval = if pos.in_check() { 0 } else { pos.evaluate() };
        tt.store(
            pos.key(),
            0,
            G::move_to_u16(m),
            choice.score,
            eval,
            choice.depth,
            Bound::None,
        );
    }
}

impl<G: Game> MoveChooser<G> for AlphaBeta<G> {
    fn new() -> Self {
        AlphaBeta {
            state: Arc::new(Mutex::new(SearchState::new())),
        }
    }

    fn new_game(&mut self) {
        lock_state(&self.state).clear();
    }

    fn static_eval(&self, pos: &G) -> Option<i32> {
        Some(pos.evaluate())
    }

    fn probe(&self, pos: &G, tt: &TranspositionTable) -> Option<ProbeReport> {
        tt.probe(pos.key(), 0).map(|e| ProbeReport {
            best: G::move_from_u16(e.mv)
                .filter(|&m| pos.is_legal(m))
                .map(|m| m.to_string()),
            score: e.score,
            depth: e.depth,
            bound: e.bound,
        })
    }

    fn search_job(
        &mut self,
        pos: &G,
        mut request: SearchRequest<G::Move>,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> ChoiceJob<G::Move> {
        let level = request.skill_level.unwrap_or(skill::MAX_LEVEL);
        let randomness = request.randomness;
        let weaker = level < skill::MAX_LEVEL;
        let varied = weaker || randomness > 0;
        if varied {
            request.multipv = request.multipv.max(skill::LINES);
        }
        if weaker {
            request.depth = match (request.depth, skill::depth_cap(level)) {
                (Some(d), Some(cap)) => Some(d.min(cap)),
                (d, cap) => d.or(cap),
            };
        }
        let pos = pos.clone();
        let state = Arc::clone(&self.state);
        let book = request.book.take();
        Box::new(move || {
            if let Some(book) = &book {
                if let Some((m, entry)) = book_move(&pos, book, &request, mix(clock_seed())) {
                    let note = if entry.depth > 0 {
                        format!(
                            "book move {m} (weight {}, score {})",
                            entry.weight, entry.score
                        )
                    } else {
                        // A book of another format: weights only.
                        format!("book move {m} (weight {})", entry.weight)
                    };
                    sink(Event::Note(&note));
                    return Choice {
                        score: i32::from(entry.score),
                        ..Choice::unsearched(Some(m))
                    };
                }
            }
            let on_info = |info: &SearchInfo<G::Move>| {
                sink(Event::Info(&info_report(info, pos.wdl(info.raw_score))))
            };
            let on_currmove = |depth: i32, m: G::Move, number: usize| {
                let mv = m.to_string();
                sink(Event::CurrMove {
                    depth,
                    mv: &mv,
                    number,
                })
            };
            let result = search_reporting(
                &pos,
                &request,
                &tt,
                &control,
                &on_info,
                Some(&on_currmove),
                &mut lock_state(&state),
            );
            let mut choice = Choice {
                best: result.best_move,
                ponder: result.ponder_move,
                score: result.score,
                depth: result.depth,
                nodes: result.nodes,
            };
            if varied {
                let seed = pos.key() ^ clock_seed();
                if let Some(m) = skill::pick(&result.lines, level, randomness, seed) {
                    if Some(m) != choice.best {
                        choice.best = Some(m);
                        choice.ponder = None;
                        if let Some(&(_, score)) = result.lines.iter().find(|l| l.0 == m) {
                            choice.score = score;
                        }
                    }
                }
            }
            remember_root(&tt, &pos, &choice);
            choice
        })
    }
}
