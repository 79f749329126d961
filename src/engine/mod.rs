//! The engine facade behind the protocols: the game being played (any of
//! [`games::VARIANTS`]), the options ([`options`] declares the engine's own; the games
//! declare theirs), the transposition table and the search thread.
//!
//! It is protocol-free: searches report through an [`EventSink`] the protocol supplies
//! ([`Event::Info`] progress, [`Event::Note`] messages, [`Event::Answer`] the final move),
//! and commands return data or one-line errors. How any of it is printed is the
//! protocol's business (`crate::protocol`).

pub mod error;
pub mod games;
pub mod options;
pub mod session;

use crate::book::Book;
use crate::common::MoveError;
use crate::options::OptionSpec;
use crate::perft::PerftReport;
pub use crate::report::{Answer, Event, EventSink, InfoReport, ProbeReport};
use crate::request::{BookRequest, SearchRequest};
use crate::time::{self, Budget, SearchControl, TimeSettings};
use crate::tt::TranspositionTable;
pub use error::{EngineError, SetupError};
pub use options::{
    OptionNote, Settings, DEFAULT_CONTEMPT, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS,
};
pub use session::GameSession;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Tables up to this size are emptied in place; larger ones are replaced by fresh memory
/// (emptying 4 GiB in place would hold the input thread for a second or more).
const CLEAR_IN_PLACE_MB: usize = 64;
/// Part of the available memory a hash table may take, in percent: the rest is left to
/// the process (search stacks, histories) and to the machine.
const HASH_SHARE_OF_AVAILABLE: usize = 80;
/// How long a plain `go` (no limit given) thinks.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// How a finished search ended, kept until the protocol collects it (CECP keeps the game
/// itself and must play the engine's own move on its board).
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// What the search answered.
    pub answer: Answer,
    /// Whether the answer was delivered to the sink; false when the search was cancelled
    /// before it answered.
    pub answered: bool,
}

/// The search thread delivers its answer only while the gate is open;
/// [`Engine::cancel`] closes it. Whether the answer went out is decided under the lock,
/// so the protocol always knows whether the GUI saw a move.
#[derive(Default)]
struct AnswerGate {
    closed: bool,
    answered: bool,
}

struct RunningSearch {
    control: Arc<SearchControl>,
    infinite: bool,
    draw_offered: Arc<AtomicBool>,
    gate: Arc<Mutex<AnswerGate>>,
    handle: JoinHandle<SearchOutcome>,
}

/// The engine state.
pub struct Engine {
    game: Box<dyn GameSession>,
    /// The values of the engine's own options.
    pub settings: Settings,
    /// Game options set so far, as (option name, value text): applied to every game that
    /// declares an option of that name, now and when switching games.
    game_options: Vec<(&'static str, String)>,
    tt: Arc<TranspositionTable>,
    /// Whether a search has used the table since it was last emptied.
    tt_used: bool,
    search: Option<RunningSearch>,
    /// The outcome of the last search joined, until [`Engine::take_outcome`].
    outcome: Option<SearchOutcome>,
    /// The book `BookFile` named, if any (else the game's embedded one is used).
    book_file: Option<Arc<Book>>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine playing Xiangqi from the start position, default options.
    pub fn new() -> Engine {
        let engine = Engine {
            game: games::new_session(games::DEFAULT_VARIANT)
                .expect("the default variant is in the game list"),
            settings: Settings::default(),
            game_options: Vec::new(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            tt_used: false,
            search: None,
            outcome: None,
            book_file: None,
        };
        engine.fault_in();
        engine
    }

    /// The game being played.
    pub fn variant(&self) -> &'static str {
        self.game.name()
    }

    /// The game being played.
    pub fn game(&self) -> &dyn GameSession {
        self.game.as_ref()
    }

    /// Waits until the game can answer a `go` at once (see [`GameSession::wait_ready`]).
    pub fn wait_ready(&self) {
        self.game.wait_ready();
    }

    /// Switches to another game (or restarts this one) at its start position, with a
    /// cleared hash table, the game options set so far applied. An unknown name changes
    /// nothing.
    pub fn set_variant(&mut self, name: &str) -> Result<(), EngineError> {
        let Some(game) = self.new_session(name) else {
            return Err(EngineError::UnknownVariant {
                name: name.to_string(),
                known: games::VARIANTS,
            });
        };
        self.install(game);
        Ok(())
    }

    /// Makes `game` the one played: the search stopped first, the hash table emptied
    /// (another game's entries mean nothing here).
    fn install(&mut self, game: Box<dyn GameSession>) {
        self.stop_and_wait();
        self.game = game;
        self.empty_tt();
    }

    /// A fresh session of the game called `name` with the game options set so far.
    fn new_session(&self, name: &str) -> Option<Box<dyn GameSession>> {
        let mut game = games::new_session(name)?;
        for (option, text) in &self.game_options {
            let Some(spec) = crate::options::find(&game.options(), option).copied() else {
                continue;
            };
            // A value another game accepted may not fit this one (a rule set it lacks).
            if let Ok(parsed) = spec.parse(text) {
                if let Err(e) = game.set_option(&spec, &parsed.value) {
                    log::debug!("option {option} not applied to {name}: {e}");
                }
            }
        }
        Some(game)
    }

    /// Every option a protocol lists for `shown`'s dialect: the engine's own, then each
    /// game's (an option several games declare is listed once, as the first declares it).
    /// UCCI, a Xiangqi protocol, lists Xiangqi's game options only.
    pub fn option_specs(&self, ucci: bool) -> Vec<OptionSpec> {
        let mut specs: Vec<OptionSpec> = options::ENGINE_OPTIONS
            .iter()
            .map(|o| o.spec)
            .filter(|s| if ucci { s.shown.ucci } else { s.shown.uci })
            .collect();
        #[cfg(feature = "tune")]
        specs.extend(tuned_param_specs());
        for game in games::GAMES {
            if ucci && game.name != "xiangqi" {
                continue;
            }
            for spec in (game.options)() {
                let shown = if ucci {
                    spec.shown.ucci
                } else {
                    spec.shown.uci
                };
                if shown && !specs.iter().any(|s| s.name == spec.name) {
                    specs.push(spec);
                }
            }
        }
        specs
    }

    /// The value last set for a game option (its canonical text), if any was set.
    pub fn game_option(&self, name: &str) -> Option<&str> {
        self.game_options
            .iter()
            .find(|(n, _)| crate::options::normalize(n) == crate::options::normalize(name))
            .map(|(_, text)| text.as_str())
    }

    /// Sets an option by name (any dialect's spelling) from its value as text: an engine
    /// option, or a game option (applied to the current game if it has it, and kept for
    /// the games switched to later). Returns what the user should be told, if anything.
    pub fn set_option(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<Option<OptionNote>, EngineError> {
        if let Some(option) = options::find(name) {
            let parsed = option.spec.parse(text)?;
            let note = (option.on_change)(self, &parsed.value)?;
            return Ok(match (note, parsed.clamped_from) {
                // The hash a machine cannot give: said once, with the number asked for.
                (Some(OptionNote::HashCapped { used, .. }), Some(asked)) => {
                    Some(OptionNote::HashCapped {
                        asked: usize::try_from(asked.max(1)).unwrap_or(usize::MAX),
                        used,
                    })
                }
                (Some(note), _) => Some(note),
                (None, Some(asked)) => Some(OptionNote::Clamped {
                    asked,
                    used: parsed.value.as_int(),
                }),
                (None, None) => None,
            });
        }
        #[cfg(feature = "tune")]
        if let Some(spec) = tuned_param_specs().find(|s| s.matches(name)) {
            let parsed = spec.parse(text)?;
            crate::search::params::tuned::set(spec.name, parsed.value.as_int() as i32);
            return Ok(parsed.clamped_from.map(|asked| OptionNote::Clamped {
                asked,
                used: parsed.value.as_int(),
            }));
        }
        // The current game's declaration first, else another game's: the first whose
        // declaration takes the value (ThreeChess's rule set `tournament` while playing
        // fairychess), or the first that has the option at all (for its complaint).
        let current = crate::options::find(&self.game.options(), name).copied();
        let spec = match current {
            Some(spec) => spec,
            None => {
                let declared: Vec<OptionSpec> = games::GAMES
                    .iter()
                    .flat_map(|g| (g.options)())
                    .filter(|s| s.matches(name))
                    .collect();
                *declared
                    .iter()
                    .find(|s| s.parse(text).is_ok())
                    .or(declared.first())
                    .ok_or_else(|| crate::options::OptionError::Unknown {
                        name: name.to_string(),
                    })?
            }
        };
        let parsed = spec.parse(text)?;
        if current.is_some() {
            self.stop_and_wait();
            self.game.set_option(&spec, &parsed.value)?;
            // Scores depend on the rules and the evaluation.
            self.empty_tt();
        }
        self.game_options.retain(|(n, _)| *n != spec.name);
        self.game_options
            .push((spec.name, parsed.value.to_string()));
        if current.is_none() {
            // Said once, when set: it does nothing until such a game is played.
            let games = games::GAMES
                .iter()
                .filter(|g| (g.options)().iter().any(|s| s.name == spec.name))
                .map(|g| g.name)
                .collect();
            return Ok(Some(OptionNote::OtherGames {
                name: spec.name,
                games,
            }));
        }
        Ok(parsed.clamped_from.map(|asked| OptionNote::Clamped {
            asked,
            used: parsed.value.as_int(),
        }))
    }

    /// Empties the hash table (no search may be running): nothing to do if no search has
    /// used it; small tables are emptied in place, large ones by swapping in fresh memory
    /// and freeing the old on a thread of its own, so the input thread never waits for
    /// gigabytes to be written or unmapped.
    fn empty_tt(&mut self) {
        if !self.tt_used {
            return;
        }
        self.tt_used = false;
        // The browser build has no thread to free the old table on: in place there.
        if self.tt.size_mb() <= CLEAR_IN_PLACE_MB || cfg!(target_arch = "wasm32") {
            self.tt.clear();
            return;
        }
        match self.tt.fresh() {
            Some(fresh) => {
                let old = std::mem::replace(&mut self.tt, Arc::new(fresh));
                let freed = std::thread::Builder::new()
                    .name("tt-free".into())
                    .spawn(move || drop(old));
                if let Err(e) = freed {
                    // The closure (and with it the old table) was dropped here instead.
                    log::warn!("cannot start a thread to free the old table: {e}");
                }
            }
            None => self.tt.clear(),
        }
    }

    /// Writes a new small table once, so that its memory is in place before the first
    /// search: a new table costs nothing to make (the kernel zeroes its pages when they
    /// are first touched), but then the first search pays for it, 2 MiB per huge page,
    /// between two of its clock checks. Measured on the loaded 2-core machine, the first
    /// `go movetime 50` of a process took 150-200 ms; written here (about 30 ms for the
    /// default 64 MiB), 25-35 ms. Large tables stay lazy: writing gigabytes would hold
    /// the input thread, or make a clamped absurd size resident at once.
    fn fault_in(&self) {
        if self.tt.size_mb() <= CLEAR_IN_PLACE_MB {
            self.tt.clear();
        }
    }

    /// Sets up a position of the current game (start position when `fen` is `None`)
    /// and plays `moves`. All or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), SetupError> {
        self.game.set_position(fen, moves)
    }

    /// As [`Engine::set_position`], but a FEN the current game refuses is tried in the
    /// game [`games::fallback_for_fen`] names (a Jieqi FEN, with face-down pieces, sent
    /// while Xiangqi is played, as JieqiBox does): if that game reads it, the engine
    /// switches to it (a fresh hash table) and returns its name. On error nothing
    /// changes, and the error is the current game's.
    pub fn set_position_or_switch(
        &mut self,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<Option<&'static str>, SetupError> {
        let error = match self.game.set_position(fen, moves) {
            Ok(()) => return Ok(None),
            Err(e) => e,
        };
        // Only a FEN refused as such; a move the current game refuses stays refused.
        let other = match (&error, fen) {
            (SetupError::Fen(_), Some(fen)) => games::fallback_for_fen(self.game.name(), fen),
            _ => None,
        };
        let Some(other) = other else {
            return Err(error);
        };
        let Some(mut game) = self.new_session(other) else {
            return Err(error);
        };
        if game.set_position(fen, moves).is_err() {
            return Err(error);
        }
        self.install(game);
        Ok(Some(other))
    }

    /// Plays a legal move on the game's board; returns it in canonical notation.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.game.play(text)
    }

    /// Bans root moves for the next searches until the position changes (UCCI
    /// `banmoves`). Returns the problems with the moves that are not legal here.
    pub fn ban_moves(&mut self, texts: &[&str]) -> Vec<MoveError> {
        let mut ok = Vec::new();
        let mut errors = Vec::new();
        for t in texts {
            match self.game.check_move(t) {
                Ok(m) => ok.push(m),
                Err(e) => errors.push(e),
            }
        }
        self.game.set_banned(&ok);
        errors
    }

    /// perft with divide of the current position or of `fen`.
    pub fn perft(&mut self, depth: u32, fen: Option<&str>) -> Result<PerftReport, SetupError> {
        self.stop_and_wait();
        self.game.perft(depth, fen)
    }

    /// The hash entry of the current position, or of `fen` + `moves`.
    pub fn probe(
        &self,
        setup: Option<(Option<&str>, &[&str])>,
    ) -> Result<Option<ProbeReport>, SetupError> {
        self.game.probe(&self.tt, setup)
    }

    /// Joins a search thread and keeps its outcome.
    fn join(&mut self, s: RunningSearch) {
        match s.handle.join() {
            Ok(outcome) => self.outcome = Some(outcome),
            Err(_) => log::error!("search thread panicked"),
        }
    }

    /// The outcome of the last finished (joined) search, once.
    pub fn take_outcome(&mut self) -> Option<SearchOutcome> {
        self.outcome.take()
    }

    /// Stops a running search without letting it answer (unless it already has) and waits
    /// for it; its outcome says whether the answer went out.
    pub fn cancel(&mut self) {
        if let Some(s) = &self.search {
            s.gate.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        }
        self.stop_and_wait();
    }

    /// Joins the search thread if it has finished or has delivered its answer (its
    /// outcome is kept). A GUI may react to the answer before the thread has ended; after
    /// `reap` every answer delivered so far has an outcome to collect.
    pub fn reap(&mut self) {
        let answered = |s: &RunningSearch| {
            // The thread delivers and marks the answer under the lock: taking it waits
            // for an answer being delivered.
            s.gate.lock().unwrap_or_else(|e| e.into_inner()).answered
        };
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.handle.is_finished() || answered(s))
        {
            self.wait();
        }
    }

    /// The opponent offers a draw during the search (it is answered with the move).
    pub fn offer_draw(&mut self) {
        if let Some(s) = &self.search {
            s.draw_offered.store(true, Ordering::Relaxed);
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.handle.is_finished())
    }

    /// Stops a running search (its thread delivers the best move) and waits for it.
    pub fn stop_and_wait(&mut self) {
        if let Some(s) = self.search.take() {
            s.control.stop();
            self.join(s);
        }
    }

    /// At the end of input: a search that ends by itself (a limit or the clock) is
    /// allowed to answer, so `echo "go depth 9" | jiang` works; an infinite or ponder
    /// search is stopped.
    pub fn finish(&mut self) {
        if let Some(s) = &self.search {
            if s.infinite || s.control.pondering() {
                s.control.stop();
            }
        }
        self.wait();
    }

    /// Waits for a running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(s) = self.search.take() {
            self.join(s);
        }
    }

    /// Asks a running search to stop, without waiting. Returns whether one was running.
    pub fn stop(&mut self) -> bool {
        match &self.search {
            Some(s) if !s.handle.is_finished() => {
                s.control.stop();
                true
            }
            _ => false,
        }
    }

    /// The opponent played the ponder move: start the clock (and note a draw offer).
    pub fn ponderhit(&mut self, draw: bool) {
        if let Some(s) = &self.search {
            if draw {
                s.draw_offered.store(true, Ordering::Relaxed);
            }
            s.control.ponderhit();
        }
    }

    /// A new game: clears the transposition table and the move-ordering memory.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.empty_tt();
        self.game.new_game();
    }

    /// Resizes the transposition table to `mb` MiB, or to the most this machine can give
    /// (a share of its available memory). Returns the size in use, or an error (the old
    /// table kept) when no memory can be had at all. Takes no time whatever the size.
    pub fn set_hash(&mut self, mb: usize) -> Result<usize, EngineError> {
        self.stop_and_wait();
        let mut want = mb.clamp(1, MAX_HASH_MB);
        if let Some(avail) = crate::memory::available_mb() {
            let cap = (avail / 100 * HASH_SHARE_OF_AVAILABLE).max(1);
            want = want.min(cap);
        }
        // Free the old table first: it may be what stands between us and the new one.
        let old_mb = self.tt.size_mb();
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt_used = false;
        let mut size = want;
        loop {
            if let Some(tt) = TranspositionTable::try_new(size) {
                self.tt = Arc::new(tt);
                self.settings.hash_mb = size;
                self.fault_in();
                return Ok(size);
            }
            if size <= 1 {
                break;
            }
            size /= 2;
        }
        self.tt = Arc::new(
            TranspositionTable::try_new(old_mb.max(1))
                .unwrap_or_else(|| TranspositionTable::new(1)),
        );
        self.fault_in();
        Err(EngineError::NoMemory {
            asked_mb: mb,
            using_mb: self.tt.size_mb(),
        })
    }

    /// Loads the opening book of `BookFile` (UCCI `bookfiles`, which may list several
    /// files separated by `;`: the first that reads is used). Empty: the game's embedded
    /// book. A file that cannot be read keeps the book in use.
    pub fn set_book_file(&mut self, names: &str) -> Result<(), EngineError> {
        let names: Vec<&str> = names
            .split(';')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            self.book_file = None;
            return Ok(());
        }
        let mut why = String::new();
        for name in names {
            match open_book(name) {
                Ok(book) => {
                    log::info!("book {name}: {} moves for {}", book.len(), book.game());
                    self.book_file = Some(Arc::new(book));
                    return Ok(());
                }
                Err(e) => why = e.to_string(),
            }
        }
        Err(EngineError::Option(crate::options::OptionError::Refused {
            name: "BookFile",
            reason: format!("{why}; the book in use is kept"),
        }))
    }

    /// The book a `go` may answer from: none when `OwnBook` is off, for analysis
    /// (`infinite`) and pondering; else `BookFile`'s or the game's embedded one.
    fn book_for(&self, request: &SearchRequest) -> Option<BookRequest> {
        if !self.settings.own_book || request.infinite || request.ponder {
            return None;
        }
        let book = self
            .book_file
            .clone()
            .or_else(|| games::default_book(self.variant()))?;
        Some(BookRequest {
            book,
            variety: self.settings.book_variety,
        })
    }

    /// Clears the transposition table.
    pub fn clear_hash(&mut self) {
        self.stop_and_wait();
        self.empty_tt();
    }

    /// The shared transposition table.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    fn time_settings(&self) -> TimeSettings {
        TimeSettings {
            max_move_time: self.settings.max_move_time,
            move_overhead: self.settings.move_overhead,
        }
    }

    /// Starts a search of the current position in the background, as `go` asks (what a
    /// protocol parsed; the engine adds its settings, the book and the deadlines). Its
    /// events go to `sink` on the search thread; the last is the [`Event::Answer`] (not
    /// sent if the search is cancelled first).
    pub fn go(&mut self, go: &SearchRequest, sink: EventSink) {
        self.stop_and_wait();
        self.tt_used = true;
        let settings = self.time_settings();
        let mut request = go.clone();
        if go.has_no_limit() {
            request.clock.move_time = Some(DEFAULT_MOVE_TIME);
        }
        request.budget = if go.infinite {
            None
        } else {
            // Depth or node limits: still never longer than the cap.
            Some(
                self.game
                    .budget(&request.clock, &settings)
                    .unwrap_or(Budget {
                        soft: None,
                        hard: time::hard_cap(&settings),
                    }),
            )
        };
        let budget = request.budget;
        let control = Arc::new(SearchControl::new(
            budget.and_then(|b| b.soft),
            budget.map(|b| b.hard),
            go.ponder,
        ));
        let draw_offered = Arc::new(AtomicBool::new(go.draw_offered));
        request.threads = self.settings.threads;
        request.multipv = self.settings.multipv;
        request.contempt = self.settings.contempt;
        request.judge_repetitions = self.settings.repetition_judge;
        request.skill_level = Some(self.settings.effective_skill_level())
            .filter(|&level| level < crate::search::skill::MAX_LEVEL);
        request.randomness = self.settings.randomness;
        request.book = self.book_for(go);
        let job = self.game.search_job(
            request,
            Arc::clone(&draw_offered),
            Arc::clone(&self.tt),
            Arc::clone(&control),
            Arc::clone(&sink),
        );
        if cfg!(target_arch = "wasm32") {
            return self.search_here(job, &sink);
        }
        let gate = Arc::new(Mutex::new(AnswerGate::default()));
        let thread_gate = Arc::clone(&gate);
        let thread_sink = Arc::clone(&sink);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let answer = job();
                let mut gate = thread_gate.lock().unwrap_or_else(|e| e.into_inner());
                if !gate.closed {
                    thread_sink(Event::Answer(&answer));
                    gate.answered = true;
                }
                SearchOutcome {
                    answer,
                    answered: gate.answered,
                }
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch {
                    control,
                    infinite: go.infinite,
                    draw_offered,
                    gate,
                    handle,
                })
            }
            Err(e) => {
                // Never leave a `go` unanswered: fall back to a quick answer here.
                log::error!("cannot start the search thread: {e}");
                let answer = self.game.fallback_answer();
                sink(Event::Answer(&answer));
                self.outcome = Some(SearchOutcome {
                    answer,
                    answered: true,
                });
            }
        }
    }

    /// `go` in the browser build (`wasm32`), which has no threads: the search runs on the
    /// calling thread to its end, its answer is delivered and kept as the outcome. The
    /// page stops a long search by ending the Web Worker it runs in (see
    /// `web/README.md`), so infinite and ponder searches are not for this build.
    fn search_here(&mut self, job: session::SearchJob, sink: &EventSink) {
        let answer = job();
        sink(Event::Answer(&answer));
        self.outcome = Some(SearchOutcome {
            answer,
            answered: true,
        });
    }
}

/// The search's parameters as spin options (a `tune` build only, see
/// [`crate::search::params`]).
#[cfg(feature = "tune")]
fn tuned_param_specs() -> impl Iterator<Item = OptionSpec> {
    crate::search::params::PARAMS.iter().map(|p| {
        OptionSpec::new(
            p.name,
            crate::options::OptionKind::Spin {
                default: i64::from(p.default),
                min: i64::from(p.min),
                max: i64::from(p.max),
            },
        )
    })
}

/// Opens a book file. A relative name that cannot be read from the current directory
/// (a GUI's own, when it starts the engine) is looked for next to the engine's
/// executable: UCCI GUIs name books relative to the engine (ElephantEye's `bookfiles`,
/// XQWizard's pikafish-proxy, whose `LocatePath` puts relative names in the engine's
/// folder).
fn open_book(name: &str) -> Result<Book, crate::book::BookError> {
    let here = Book::open(name);
    if here.is_ok() || std::path::Path::new(name).is_absolute() {
        return here;
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(name)))
        .filter(|path| path.is_file());
    match beside.as_deref().and_then(std::path::Path::to_str) {
        Some(path) => Book::open(path),
        None => here,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_option_is_read_by_the_game_that_takes_its_value() {
        let mut e = Engine::new();
        e.set_variant("fairychess").expect("a listed game");
        // Only ThreeChess has the rule set `tournament`: kept for it, said once.
        assert!(matches!(
            e.set_option("Rules", "tournament"),
            Ok(Some(OptionNote::OtherGames { .. }))
        ));
        assert_eq!(e.game_option("Rules"), Some("tournament"));
        // No game takes this one: refused, the kept value stays.
        assert!(e.set_option("Rules", "bogus").is_err());
        assert_eq!(e.game_option("Rules"), Some("tournament"));
        // Xiangqi's own value replaces it, and applies at once.
        e.set_variant("xiangqi").expect("a listed game");
        assert_eq!(e.set_option("Rules", "alphachess"), Ok(None));
        assert_eq!(e.game_option("Rules"), Some("alphachess"));
        assert!(matches!(
            e.set_option("NoSuchOption", "1"),
            Err(EngineError::Option(
                crate::options::OptionError::Unknown { .. }
            ))
        ));
    }
}
