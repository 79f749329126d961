//! The games being played: one [`Board`] per board a page shows (what the API calls a
//! session), kept in a bounded [`Store`] from which idle ones expire.
//!
//! A board holds the game (a [`GameSession`] from the engine's game list), how it was
//! set up (start FEN and moves, which is what a search is handed) and the log of its
//! current search, which the event stream replays to whoever connects.

use jiang::common::clock::Instant;
use jiang::engine::games;
use jiang::engine::GameSession;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Most sessions kept at once: a page cannot make the server hold thousands of games.
pub const MAX_SESSIONS: usize = 64;
/// A session nobody has touched for this long is dropped (by the server's store).
pub const IDLE_EXPIRY: Duration = Duration::from_secs(30 * 60);

/// Why a request about a game was refused (the client's fault: a 400).
#[derive(Debug)]
pub struct Refused(pub String);

/// The events of one search, as server-sent-event payloads, for every listener.
#[derive(Default)]
pub struct SearchLog {
    /// Events so far (`event` name, JSON data).
    pub events: Vec<(&'static str, String)>,
    /// Whether the search has ended (its last event is in `events`).
    pub done: bool,
}

/// The log of a session's latest search and the signal that it grew.
#[derive(Default)]
pub struct SearchFeed {
    /// The events so far.
    pub log: Mutex<SearchLog>,
    /// Signalled when an event is added.
    pub grew: Condvar,
}

impl SearchFeed {
    /// Appends an event and wakes the listeners.
    pub fn push(&self, name: &'static str, data: String, last: bool) {
        let mut log = lock(&self.log);
        log.events.push((name, data));
        log.done |= last;
        self.grew.notify_all();
    }
}

/// One game on one board.
pub struct Board {
    /// The board's id.
    pub id: String,
    /// The game, at the board's position.
    pub game: Box<dyn GameSession>,
    /// The FEN the game started from (`None`: the game's start position).
    pub start_fen: Option<String>,
    /// The moves played since, in the game's notation.
    pub moves: Vec<String>,
    /// Bumped on every change of position: a search's answer is played only on the
    /// position it was asked for.
    pub version: u64,
    /// When a request last named this board.
    pub last_used: Instant,
    /// The latest search, if any.
    pub feed: Option<Arc<SearchFeed>>,
    /// Set to stop the running search.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// Whether a search is running.
    pub searching: bool,
}

impl Board {
    fn new(id: String, game: Box<dyn GameSession>) -> Board {
        Board {
            id,
            game,
            start_fen: None,
            moves: Vec::new(),
            version: 0,
            last_used: Instant::now(),
            feed: None,
            stop: None,
            searching: false,
        }
    }

    /// Whether the game is over: no legal move, or an end by the game's rules.
    pub fn is_over(&self) -> bool {
        self.game.game_end().is_some() || self.game.legal_moves().is_empty()
    }

    /// Plays a legal move; nothing changes if it is not one.
    pub fn play(&mut self, text: &str) -> Result<String, Refused> {
        if self.searching {
            return Err(Refused("a search is running; stop it first".into()));
        }
        if self.game.game_end().is_some() {
            return Err(Refused("the game is over".into()));
        }
        let canonical = self
            .game
            .play(text)
            .map_err(|e| Refused(format!("illegal move '{text}': {e}")))?;
        self.moves.push(canonical.clone());
        self.version += 1;
        Ok(canonical)
    }

    /// Sets up a position (start or FEN, then moves); all or nothing.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), Refused> {
        if self.searching {
            return Err(Refused("a search is running; stop it first".into()));
        }
        self.game
            .set_position(fen, moves)
            .map_err(|e| Refused(e.to_string()))?;
        self.start_fen = fen.map(str::to_string);
        // Canonical spelling of the moves, as the game prints them back.
        self.moves = Vec::with_capacity(moves.len());
        let mut replay = games::new_session(self.game.name())
            .ok_or_else(|| Refused(format!("unknown game '{}'", self.game.name())))?;
        if replay.set_position(fen, &[]).is_ok() {
            for m in moves {
                match replay.play(m) {
                    Ok(c) => self.moves.push(c),
                    Err(_) => self.moves.push((*m).to_string()),
                }
            }
        }
        self.version += 1;
        Ok(())
    }

    /// Takes back the last `n` moves (fewer if fewer were played).
    pub fn undo(&mut self, n: usize) -> Result<(), Refused> {
        let keep = self.moves.len().saturating_sub(n);
        let moves: Vec<String> = self.moves[..keep].to_vec();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let fen = self.start_fen.clone();
        self.set_position(fen.as_deref(), &refs)
    }
}

/// Locks a mutex, going on with the data if a thread panicked while holding it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Every session, by id.
pub struct Store {
    sessions: Mutex<HashMap<String, Arc<Mutex<Board>>>>,
    counter: Mutex<u64>,
    seed: u64,
    /// Idle sessions are dropped after this long (`None`: kept until closed).
    expiry: Option<Duration>,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

impl Store {
    /// The server's store: idle sessions expire after [`IDLE_EXPIRY`].
    pub fn new() -> Store {
        Store::with_expiry(Some(IDLE_EXPIRY))
    }

    /// A store whose idle sessions expire after `expiry` (`None`: never; the browser
    /// build's, where the one page is the only user and closes what it leaves).
    pub fn with_expiry(expiry: Option<Duration>) -> Store {
        // Ids need not be secret (the server is a local tool), only not guessable by
        // accident across restarts: mix the start time in.
        let seed = match jiang::common::clock::seed() {
            0 => 0x9e37_79b9_7f4a_7c15,
            s => s,
        };
        Store {
            sessions: Mutex::new(HashMap::new()),
            counter: Mutex::new(0),
            seed,
            expiry,
        }
    }

    fn next_id(&self) -> String {
        let mut c = lock(&self.counter);
        *c += 1;
        let mut x = self.seed ^ c.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 29;
        format!("{x:016x}")
    }

    /// A new session of `game` at its start position; `Err` when the game is unknown or
    /// the store is full (`full` = true).
    pub fn create(&self, game: &str) -> Result<Arc<Mutex<Board>>, (bool, String)> {
        let Some(g) = games::new_session(game) else {
            return Err((
                false,
                format!(
                    "unknown game '{game}' (known: {})",
                    games::VARIANTS.join(", ")
                ),
            ));
        };
        self.expire();
        let mut map = lock(&self.sessions);
        if map.len() >= MAX_SESSIONS {
            return Err((
                true,
                format!("too many sessions (at most {MAX_SESSIONS}); close one or wait"),
            ));
        }
        let id = self.next_id();
        let s = Arc::new(Mutex::new(Board::new(id.clone(), g)));
        map.insert(id, Arc::clone(&s));
        Ok(s)
    }

    /// The session `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<Board>>> {
        let s = lock(&self.sessions).get(id).cloned()?;
        lock(&s).last_used = Instant::now();
        Some(s)
    }

    /// Whether the session `id` is kept (not marking it as used).
    pub fn contains(&self, id: &str) -> bool {
        lock(&self.sessions).contains_key(id)
    }

    /// Drops a session (its search is stopped). Returns whether it existed.
    pub fn remove(&self, id: &str) -> bool {
        let s = lock(&self.sessions).remove(id);
        if let Some(s) = &s {
            stop_search(&lock(s));
        }
        s.is_some()
    }

    /// Drops the sessions idle for longer than the store's expiry (not those searching).
    pub fn expire(&self) {
        let Some(expiry) = self.expiry else {
            return;
        };
        let mut map = lock(&self.sessions);
        map.retain(|_, s| match s.try_lock() {
            Ok(s) => s.searching || s.last_used.elapsed() < expiry,
            Err(_) => true,
        });
    }

    /// How many sessions are kept.
    pub fn len(&self) -> usize {
        lock(&self.sessions).len()
    }

    /// Whether no session is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Asks the session's running search, if any, to stop.
pub fn stop_search(s: &Board) {
    if let Some(flag) = &s.stop {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}
