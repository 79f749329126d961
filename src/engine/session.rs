//! One game inside the engine: its position and the chooser of its moves, behind an
//! object-safe trait ([`GameSession`]) so that the facade and the protocols need not know
//! which game is being played.
//!
//! [`PlayedGame`] is the only implementation, generic over the game's rules and its
//! [`MoveChooser`]: setting up positions, playing and checking moves, banned moves, the
//! game's options, turning a choice into an answer and falling back when a search fails
//! are written here once for every game.

use super::error::SetupError;
use crate::chooser::{Choice, MoveChooser};
use crate::common::MoveError;
use crate::game::{GameEnd, Rules, TableVerdict, XboardVariant};
use crate::options::{OptionError, OptionSpec, OptionValue};
use crate::perft::{self, PerftReport};
use crate::report::{Answer, Event, EventSink, ProbeReport};
use crate::request::SearchRequest;
use crate::time::{Budget, Clock, SearchControl, TimeSettings};
use crate::tt::TranspositionTable;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The work of one search, run on the search thread; returns the answer to print.
pub type SearchJob = Box<dyn FnOnce() -> Answer + Send>;

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
    /// The game's own options: those of its rules, then those of its chooser.
    fn options(&self) -> Vec<OptionSpec>;
    /// Applies one of [`GameSession::options`] (value checked against it), now and to
    /// every position set up later.
    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError>;
    /// Index of the player to move.
    fn player_to_move(&self) -> usize;
    /// Sets up a position: the start position (`fen` = `None`) or a FEN, then plays
    /// `moves`. All or nothing: on error the previous position stays.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), SetupError>;
    /// Plays one legal move given as text; returns it in canonical notation.
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// Checks that a move is legal here; returns it in canonical notation.
    fn check_move(&self, text: &str) -> Result<String, MoveError>;
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
    /// A loaded endgame table's verdict on the position.
    fn table_verdict(&self) -> Option<TableVerdict>;
    /// The static evaluation of the position from the side to move's view, where the
    /// game has one (UCCI `go depth 0`).
    fn static_eval(&self) -> Option<i32>;
    /// perft with divide from the current position or from `fen`.
    fn perft(&self, depth: u32, fen: Option<&str>) -> Result<PerftReport, SetupError>;
    /// The hash-table entry of the current position (or of `fen` + `moves`).
    fn probe(
        &self,
        tt: &TranspositionTable,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, SetupError>;
    /// Soft and hard time budgets of a timed move; `None` when the clock sets no limit.
    fn budget(&self, clock: &Clock, settings: &TimeSettings) -> Option<Budget>;
    /// Forgets what earlier searches of this game learnt (a new game).
    fn new_game(&mut self);
    /// Prepares a search of the current position as `request` asks (within its
    /// [`SearchRequest::budget`]); the returned job runs on the search thread and reports
    /// through `sink`. A `searchmoves` entry that is not a legal move is reported through
    /// `sink` as a note. `draw_offered` is the opponent's draw offer, which may come while
    /// the search runs: the answer accepts it or not.
    fn search_job(
        &mut self,
        request: SearchRequest,
        draw_offered: Arc<AtomicBool>,
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
    fn xboard_moves(&self, base: Option<&str>, seen: &[String]) -> Vec<(String, String)>;
    /// Blocks until a `go` can be answered without first preparing anything (a table
    /// some games build in the background when they are selected). `isready` and CECP's
    /// `ping` wait for it: the GUI's clock must not pay for the preparation.
    fn wait_ready(&self);
}

/// Reads a position: the start or a FEN, with the game's options applied, then the
/// moves. Builds a fresh value.
pub fn build_position<R: Rules>(
    fen: Option<&str>,
    moves: &[&str],
    options: &[(OptionSpec, OptionValue)],
) -> Result<R, SetupError> {
    let mut pos = match fen {
        None => R::start_position(),
        Some(f) => R::from_fen(f).map_err(SetupError::Fen)?,
    };
    for (spec, value) in options {
        // Values were accepted by a position of this game when they were set.
        if let Err(e) = pos.set_option(spec, value) {
            log::warn!("option {} not applied to a new position: {e}", spec.name);
        }
    }
    pos.reserve(moves.len() + 256);
    for (n, text) in moves.iter().enumerate() {
        let m = pos
            .parse_legal_move(text)
            .map_err(|error| SetupError::Move {
                index: n + 1,
                error,
            })?;
        pos.play(m);
    }
    Ok(pos)
}

/// The options of a game played by `C`: its rules' own, then its chooser's.
pub fn game_options<R: Rules, C: MoveChooser<R>>() -> Vec<OptionSpec> {
    R::OPTIONS.iter().chain(C::OPTIONS).copied().collect()
}

/// The game end to claim when the side to move has no legal move (a finished game).
pub fn end_without_moves<R: Rules>(pos: &R) -> Option<GameEnd> {
    if pos.legal_moves().is_empty() {
        pos.game_end()
    } else {
        None
    }
}

/// Whether to accept (or offer) a draw with this score: only when clearly worse.
fn accepts_draw(score: i32) -> bool {
    score <= -150
}

/// The answer for a choice: the move, the expected reply (only if legal after the move),
/// and the game's end when the move finishes it (or now, without a move).
fn answer_for<R: Rules>(pos: &R, choice: &Choice<R::Move>, draw_offered: bool) -> Answer {
    // The position after the move: for the game's end and to check the expected reply.
    let after = choice.best.map(|m| {
        let mut after = pos.clone();
        after.play(m);
        after
    });
    let end_after = after.as_ref().and_then(end_without_moves);
    // Never send an expected reply that is not legal after the move.
    let ponder = choice.ponder.filter(|reply| {
        let legal = after
            .as_ref()
            .is_some_and(|a| a.legal_moves().contains(reply));
        if !legal {
            log::warn!("dropped the ponder move {reply}: not legal after the best move");
        }
        legal
    });
    Answer {
        best: choice.best.map(|m| m.to_string()),
        ponder: ponder.map(|m| m.to_string()),
        score: choice.score,
        depth: choice.depth,
        nodes: choice.nodes,
        offer_draw: draw_offered && choice.best.is_some() && accepts_draw(choice.score),
        end_after,
        end_now: if choice.best.is_none() {
            end_without_moves(pos)
        } else {
            None
        },
    }
}

/// The first legal move that is not banned, unsearched.
fn fallback_choice<R: Rules>(pos: &R, banned: &[R::Move]) -> Choice<R::Move> {
    Choice::unsearched(pos.legal_moves().into_iter().find(|m| !banned.contains(m)))
}

/// A game of rules `R` played by the chooser `C`: the one [`GameSession`].
pub struct PlayedGame<R: Rules, C: MoveChooser<R>> {
    pos: R,
    /// The game's options set so far, applied to every position set up.
    options: Vec<(OptionSpec, OptionValue)>,
    banned: Vec<R::Move>,
    chooser: C,
    _rules: PhantomData<fn() -> R>,
}

impl<R: Rules, C: MoveChooser<R>> PlayedGame<R, C> {
    /// The game at its start position, default options.
    pub fn new() -> Self {
        PlayedGame {
            pos: R::start_position(),
            options: Vec::new(),
            banned: Vec::new(),
            chooser: C::new(),
            _rules: PhantomData,
        }
    }

    /// The position.
    pub fn position(&self) -> &R {
        &self.pos
    }

    /// The position of `setup`, or the current one.
    fn position_of(&self, setup: Option<(Option<&str>, &[&str])>) -> Result<R, SetupError> {
        match setup {
            None => Ok(self.pos.clone()),
            Some((fen, moves)) => build_position(fen, moves, &self.options),
        }
    }
}

impl<R: Rules, C: MoveChooser<R>> Default for PlayedGame<R, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules, C: MoveChooser<R>> GameSession for PlayedGame<R, C> {
    fn name(&self) -> &'static str {
        R::NAME
    }
    fn players(&self) -> &'static [&'static str] {
        R::PLAYERS
    }
    fn clock_keys(&self) -> &'static [(&'static str, &'static str)] {
        R::CLOCK_KEYS
    }
    fn xboard(&self) -> Option<XboardVariant> {
        R::XBOARD
    }
    fn xboard_moves(&self, base: Option<&str>, seen: &[String]) -> Vec<(String, String)> {
        self.pos
            .xboard_moves(base, seen)
            .into_iter()
            .map(|(m, text)| (m.to_string(), text))
            .collect()
    }
    fn start_fen(&self) -> String {
        R::start_position().to_fen()
    }
    fn options(&self) -> Vec<OptionSpec> {
        game_options::<R, C>()
    }
    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if R::OPTIONS.contains(spec) {
            self.pos.set_option(spec, value)?;
            self.options.retain(|(s, _)| s != spec);
            self.options.push((*spec, value.clone()));
            Ok(())
        } else if C::OPTIONS.contains(spec) {
            self.chooser.set_option(spec, value)
        } else {
            Err(OptionError::Unknown {
                name: spec.name.to_string(),
            })
        }
    }
    fn player_to_move(&self) -> usize {
        self.pos.player_to_move()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), SetupError> {
        self.pos = build_position(fen, moves, &self.options)?;
        self.banned.clear();
        Ok(())
    }
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        let m = self.pos.parse_legal_move(text)?;
        self.pos.play(m);
        self.banned.clear();
        Ok(m.to_string())
    }
    fn check_move(&self, text: &str) -> Result<String, MoveError> {
        self.pos.parse_legal_move(text).map(|m| m.to_string())
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
    fn table_verdict(&self) -> Option<TableVerdict> {
        self.pos.table_verdict()
    }
    fn static_eval(&self) -> Option<i32> {
        self.chooser.static_eval(&self.pos)
    }
    fn perft(&self, depth: u32, fen: Option<&str>) -> Result<PerftReport, SetupError> {
        let mut pos = match fen {
            None => self.pos.clone(),
            Some(f) => R::from_fen(f).map_err(SetupError::Fen)?,
        };
        Ok(perft::divide(&mut pos, depth))
    }
    fn probe(
        &self,
        tt: &TranspositionTable,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, SetupError> {
        let pos = self.position_of(setup)?;
        Ok(self.chooser.probe(&pos, tt))
    }
    fn budget(&self, clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
        self.chooser.budget(&self.pos, clock, settings)
    }
    fn new_game(&mut self) {
        self.chooser.new_game();
    }
    fn search_job(
        &mut self,
        request: SearchRequest,
        draw_offered: Arc<AtomicBool>,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
        sink: EventSink,
    ) -> SearchJob {
        let mut moves = Vec::new();
        for text in &request.search_moves {
            match self.pos.parse_legal_move(text) {
                Ok(m) => moves.push(m),
                Err(e) => sink(Event::Note(&format!("searchmoves: {e}"))),
            }
        }
        let request = request.with_moves(moves, self.banned.clone());
        let job = self
            .chooser
            .search_job(&self.pos, request, tt, control, sink);
        let pos = self.pos.clone();
        let banned = self.banned.clone();
        Box::new(move || {
            let choice = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)) {
                Ok(c) if c.best.is_some() || pos.legal_moves().is_empty() => c,
                // A chooser that found no move while there is one (every root move
                // banned but one, a stop before the first iteration): still a move.
                Ok(_) => fallback_choice(&pos, &banned),
                Err(_) => {
                    log::error!("the search panicked; answering with the first legal move");
                    fallback_choice(&pos, &banned)
                }
            };
            answer_for(&pos, &choice, draw_offered.load(Ordering::Relaxed))
        })
    }
    fn fallback_answer(&self) -> Answer {
        answer_for(&self.pos, &fallback_choice(&self.pos, &self.banned), false)
    }
    fn wait_ready(&self) {
        self.chooser.wait_ready();
    }
}
