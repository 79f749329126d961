//! One game inside the engine: its position and whatever chooses its moves, behind an
//! object-safe trait ([`GameSession`]) so that the facade and the protocols need not know
//! which game is being played.
//!
//! [`SearchSession`] is the session of every two-player [`Game`]: the generic PVS search,
//! monomorphised per game. Games the search does not fit bring their own session (see the
//! sibling modules).

use super::{Answer, Event, EventSink, InfoReport, SearchRequest};
use crate::game::{Game, GameEnd, Rules, XboardVariant};
use crate::perft::{self, PerftReport};
use crate::search::{self, Limits, SearchControl, SearchInfo, SearchResult, SearchState};
use crate::time::{self, Budget, Clock, TimeSettings};
use crate::tt::{Bound, TranspositionTable};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};

/// The work of one search, run on the search thread; returns the answer to print.
pub type SearchJob = Box<dyn FnOnce() -> Answer + Send>;

/// A hash-table entry for the current position, as UCCI's `probe` shows it.
#[derive(Clone, Debug)]
pub struct ProbeReport {
    /// The stored move, if legal here.
    pub best: Option<String>,
    /// The stored score (internal units).
    pub score: i32,
    /// Its depth.
    pub depth: i32,
    /// Its bound.
    pub bound: Bound,
}

/// A game being played: position, rules and move chooser. Moves cross this boundary as
/// text in the game's notation.
pub trait GameSession: Send {
    /// The game's protocol name (`xiangqi`).
    fn name(&self) -> &'static str;
    /// The players in turn order.
    fn players(&self) -> &'static [&'static str];
    /// The `go` keywords of each player's time and increment, in turn order.
    fn clock_keys(&self) -> &'static [(&'static str, &'static str)];
    /// How XBoard shows the game, if it needs telling.
    fn xboard(&self) -> Option<XboardVariant>;
    /// The FEN of the start position.
    fn start_fen(&self) -> String;
    /// The rule sets the game can be played by, the default first (empty: one only).
    fn rule_sets(&self) -> &'static [&'static str];
    /// Plays by the rule set called `name` from now on (positions set up later too).
    fn set_rule_set(&mut self, name: &str) -> Result<(), String>;
    /// Index of the player to move.
    fn player_to_move(&self) -> usize;
    /// Sets up a position: the start position (`fen` = `None`) or a FEN, then plays
    /// `moves`. All or nothing: on error the previous position stays.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Plays one legal move given as text; returns it in canonical notation.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// Checks that a move is legal here; returns it in canonical notation.
    fn check_move(&self, text: &str) -> Result<String, String>;
    /// Root moves banned for the next searches until the position changes (UCCI
    /// `banmoves`); they were checked with [`GameSession::check_move`].
    fn set_banned(&mut self, moves: &[String]);
    /// The position as FEN.
    fn fen(&self) -> String;
    /// The legal moves in canonical notation.
    fn legal_moves(&self) -> Vec<String>;
    /// How the game stands by its rules.
    fn game_end(&self) -> Option<GameEnd>;
    /// The board for a person.
    fn diagram(&self) -> String;
    /// The evaluation explained.
    fn eval_report(&self) -> String;
    /// The static evaluation of the position from the side to move's view, where the
    /// game has one (UCCI `go depth 0`).
    fn static_eval(&self) -> Option<i32>;
    /// perft with divide from the current position or from `fen`.
    fn perft(&self, depth: u32, fen: Option<&str>) -> Result<PerftReport, String>;
    /// The hash-table entry of the current position (or of `fen` + `moves`).
    fn probe(
        &self,
        tt: &TranspositionTable,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, String>;
    /// Soft and hard time budgets of a timed move; `None` when the clock sets no limit.
    fn budget(&self, clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
        time::budget(clock, settings)
    }
    /// Forgets what earlier searches of this game learnt (a new game).
    fn new_game(&mut self);
    /// Prepares a search of the current position; the returned job runs on the search
    /// thread and reports through `sink`. Problems with the request (a `searchmoves`
    /// entry that is not a legal move) are reported through `sink` as notes.
    fn search_job(
        &mut self,
        request: SearchRequest,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> SearchJob;
    /// An answer without searching (the first legal move that is not banned), for when
    /// the search thread cannot be started.
    fn fallback_answer(&self) -> Answer;
    /// The legal moves as XBoard must be told them (CECP), as pairs (canonical, XBoard
    /// text), given the moves XBoard has shown since the start position or `base`, as it
    /// was told them; empty when the canonical notation is what XBoard expects (see
    /// [`Rules::xboard_moves`]).
    fn xboard_moves(&self, _base: Option<&str>, _seen: &[String]) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Blocks until a `go` can be answered without first preparing anything (a table
    /// some games build in the background when they are selected). `isready` and CECP's
    /// `ping` wait for it: the GUI's clock must not pay for the preparation.
    fn wait_ready(&self) {}
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

/// Reads a position: the start or a FEN, under the rule set `rules` (`None`: the game's
/// default), then the moves. Builds a fresh value.
pub fn build_position<R: Rules>(
    fen: Option<&str>,
    moves: &[&str],
    rules: Option<&str>,
) -> Result<R, String> {
    let mut pos = match fen {
        None => R::start_position(),
        Some(f) => R::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    if let Some(r) = rules {
        pos.set_rule_set(r)?;
    }
    pos.reserve(moves.len() + 256);
    for (n, text) in moves.iter().enumerate() {
        let m = pos
            .parse_legal_move(text)
            .map_err(|e| format!("move {} of the list: {e}", n + 1))?;
        pos.play(m);
    }
    Ok(pos)
}

/// perft with divide of `pos` or of `fen`.
pub fn perft_of<R: Rules>(pos: &R, depth: u32, fen: Option<&str>) -> Result<PerftReport, String> {
    let mut p = match fen {
        None => pos.clone(),
        Some(f) => R::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    Ok(perft::divide(&mut p, depth))
}

/// The game end to claim when the side to move has no legal move (a finished game).
pub fn end_without_moves<R: Rules>(pos: &R) -> Option<GameEnd> {
    if pos.legal_moves().is_empty() {
        pos.game_end()
    } else {
        None
    }
}

/// The session of a two-player game played by the generic search.
pub struct SearchSession<G: Game> {
    pos: G,
    /// The rule set chosen (`None`: the game's default).
    rule_set: Option<&'static str>,
    banned: Vec<G::Move>,
    /// Move-ordering memory carried from one search of the game to the next.
    state: Arc<Mutex<SearchState<G>>>,
}

impl<G: Game> SearchSession<G> {
    /// The game at its start position.
    pub fn new() -> Self {
        SearchSession {
            pos: G::start_position(),
            rule_set: None,
            banned: Vec::new(),
            state: Arc::new(Mutex::new(SearchState::new())),
        }
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.pos
    }
}

impl<G: Game> Default for SearchSession<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// Converts a search report to the engine's game-independent form.
pub fn info_report<M: std::fmt::Display>(info: &SearchInfo<M>) -> InfoReport {
    InfoReport {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score,
        raw_score: info.raw_score,
        bound: info.bound,
        nodes: info.nodes,
        time_ms: info.time_ms,
        nps: info.nps,
        hashfull: info.hashfull,
        multipv: info.multipv,
        pv: info.pv.iter().map(|m| m.to_string()).collect(),
        player_scores: Vec::new(),
    }
}

/// Whether to accept (or offer) a draw with this score: only when clearly worse.
fn accepts_draw(score: i32) -> bool {
    score <= -150
}

/// The answer for a search result: the move, the expected reply, and the game's end
/// when the move finishes it (or now, without a move).
fn answer_for<G: Game>(pos: &G, result: &SearchResult<G::Move>, draw_offered: bool) -> Answer {
    // The position after the move: for the game's end and to check the expected reply.
    let after = result.best_move.map(|m| {
        let mut after = pos.clone();
        after.play(m);
        after
    });
    let end_after = after.as_ref().and_then(end_without_moves);
    // Never send an expected reply that is not legal after the move.
    let ponder = result.ponder_move.filter(|reply| {
        let legal = after
            .as_ref()
            .is_some_and(|a| a.legal_moves().contains(reply));
        if !legal {
            log::warn!("dropped the ponder move {reply}: not legal after the best move");
        }
        legal
    });
    Answer {
        best: result.best_move.map(|m| m.to_string()),
        ponder: ponder.map(|m| m.to_string()),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        offer_draw: draw_offered && result.best_move.is_some() && accepts_draw(result.score),
        end_after,
        end_now: if result.best_move.is_none() {
            end_without_moves(pos)
        } else {
            None
        },
    }
}

/// Stores the answer as the root's hash move (the search itself does not store the
/// root), so that `probe` shows it and the next search of this position tries it first.
/// No bound: the score of an interrupted iteration is not a proven bound.
fn remember_root<G: Game>(tt: &TranspositionTable, pos: &G, result: &SearchResult<G::Move>) {
    if let (Some(m), true) = (result.best_move, result.depth > 0) {
        let eval = if pos.in_check() { 0 } else { pos.evaluate() };
        tt.store(
            pos.key(),
            0,
            G::move_to_u16(m),
            result.score,
            eval,
            result.depth,
            Bound::None,
        );
    }
}

/// The first legal move that is not banned, as a search result.
fn fallback_result<G: Game>(pos: &G, banned: &[G::Move]) -> SearchResult<G::Move> {
    let first = pos.legal_moves().into_iter().find(|m| !banned.contains(m));
    SearchResult {
        best_move: first,
        ponder_move: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: first.into_iter().collect(),
    }
}

impl<G: Game> GameSession for SearchSession<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn players(&self) -> &'static [&'static str] {
        G::PLAYERS
    }
    fn clock_keys(&self) -> &'static [(&'static str, &'static str)] {
        G::CLOCK_KEYS
    }
    fn xboard(&self) -> Option<XboardVariant> {
        G::XBOARD
    }
    fn xboard_moves(&self, base: Option<&str>, seen: &[String]) -> Vec<(String, String)> {
        self.pos
            .xboard_moves(base, seen)
            .into_iter()
            .map(|(m, text)| (m.to_string(), text))
            .collect()
    }
    fn start_fen(&self) -> String {
        G::start_position().to_fen()
    }
    fn rule_sets(&self) -> &'static [&'static str] {
        G::RULE_SETS
    }
    fn set_rule_set(&mut self, name: &str) -> Result<(), String> {
        let Some(&known) = G::RULE_SETS.iter().find(|r| r.eq_ignore_ascii_case(name)) else {
            return Err(if G::RULE_SETS.is_empty() {
                format!("{} has one set of rules only", G::NAME)
            } else {
                format!(
                    "unknown rule set '{name}' ({}: {})",
                    G::NAME,
                    G::RULE_SETS.join(", ")
                )
            });
        };
        self.pos.set_rule_set(known)?;
        self.rule_set = Some(known);
        Ok(())
    }
    fn player_to_move(&self) -> usize {
        self.pos.player_to_move()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.pos = build_position(fen, moves, self.rule_set)?;
        self.banned.clear();
        Ok(())
    }
    fn play(&mut self, text: &str) -> Result<String, String> {
        let m = self.pos.parse_legal_move(text).map_err(|e| e.to_string())?;
        self.pos.play(m);
        self.banned.clear();
        Ok(m.to_string())
    }
    fn check_move(&self, text: &str) -> Result<String, String> {
        self.pos
            .parse_legal_move(text)
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }
    fn set_banned(&mut self, moves: &[String]) {
        self.banned = moves
            .iter()
            .filter_map(|t| self.pos.parse_legal_move(t).ok())
            .collect();
    }
    fn fen(&self) -> String {
        self.pos.to_fen()
    }
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.pos.game_end()
    }
    fn diagram(&self) -> String {
        self.pos.diagram()
    }
    fn eval_report(&self) -> String {
        self.pos.eval_report()
    }
    fn static_eval(&self) -> Option<i32> {
        Some(self.pos.evaluate())
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
                owned = build_position::<G>(fen, moves, self.rule_set)?;
                &owned
            }
        };
        Ok(tt.probe(pos.key(), 0).map(|e| ProbeReport {
            best: G::move_from_u16(e.mv)
                .filter(|&m| pos.is_legal(m))
                .map(|m| m.to_string()),
            score: e.score,
            depth: e.depth,
            bound: e.bound,
        }))
    }
    fn new_game(&mut self) {
        lock_state(&self.state).clear();
    }
    fn search_job(
        &mut self,
        request: SearchRequest,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> SearchJob {
        let mut search_moves = Vec::new();
        for text in &request.search_moves {
            match self.pos.parse_legal_move(text) {
                Ok(m) => search_moves.push(m),
                Err(e) => sink(Event::Note(&format!("searchmoves: {e}"))),
            }
        }
        let limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            infinite: request.infinite,
            search_moves,
            banned_moves: self.banned.clone(),
            threads: request.threads,
            contempt: request.contempt,
            multipv: request.multipv,
            judge_repetitions: request.judge_repetitions,
        };
        let pos = self.pos.clone();
        let state = Arc::clone(&self.state);
        let draw_offered = request.draw_offered;
        Box::new(move || {
            let on_info = |info: &SearchInfo<G::Move>| sink(Event::Info(&info_report(info)));
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search::search_with_state(
                    &pos,
                    &limits,
                    &tt,
                    &control,
                    &on_info,
                    &mut lock_state(&state),
                )
            }));
            let result = match outcome {
                Ok(r) => r,
                Err(_) => {
                    log::error!("the search panicked; answering with the first legal move");
                    fallback_result(&pos, &limits.banned_moves)
                }
            };
            remember_root(&tt, &pos, &result);
            answer_for(&pos, &result, draw_offered.load(Ordering::Relaxed))
        })
    }
    fn fallback_answer(&self) -> Answer {
        answer_for(&self.pos, &fallback_result(&self.pos, &self.banned), false)
    }
}
