//! Searches for the boards: a small pool of in-process engines, one per concurrent
//! search (at most [`MAX_SEARCHES`]), each run on a thread of its own that feeds the
//! session's [`SearchFeed`] and, when asked to, plays the answer on the session's board.

use crate::api;
use crate::sessions::{lock, Board, SearchFeed};
use jiang::engine::{Engine, Event, EventSink};
use jiang::request::SearchRequest;
use jiang::time::Clock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most searches at once, over all sessions: the machine's cores are not the page's.
pub const MAX_SEARCHES: usize = 2;
/// Longest time per move a page may ask for.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(60);
/// Hash table of each pooled engine, MiB: a web board needs no more.
const HASH_MB: &str = "16";
/// Most lines of a MultiPV analysis.
pub const MAX_LINES: usize = 5;

/// What a page asks a search for.
#[derive(Clone, Debug)]
pub struct SearchAsk {
    pub move_time: Duration,
    pub nodes: Option<u64>,
    pub depth: Option<i32>,
    pub lines: usize,
    /// The engine's `Skill Level`, 0 (weakest) to [`jiang::search::skill::MAX_LEVEL`] (full strength;
    /// lower levels play weaker moves on purpose, in the games whose search supports it).
    pub skill: u8,
    /// Play the answer on the board (a game) or only report (analysis).
    pub play: bool,
}

/// The engines and the count of searches running.
pub struct Searches {
    idle: Mutex<Vec<Engine>>,
    running: Mutex<usize>,
}

impl Searches {
    pub fn new() -> Searches {
        Searches {
            idle: Mutex::new(Vec::new()),
            running: Mutex::new(0),
        }
    }

    /// Starts a search of the session's position. Refuses (`Err`) when every slot is
    /// taken or the session already searches; the session's feed is replaced.
    pub fn start(
        self: &Arc<Self>,
        session: &Arc<Mutex<Board>>,
        ask: SearchAsk,
    ) -> Result<(), (u16, String)> {
        let mut s = lock(session);
        if s.searching {
            return Err((409, "this board is already searching".into()));
        }
        if s.is_over() {
            return Err((400, "the game is over".into()));
        }
        {
            let mut running = lock(&self.running);
            if *running >= MAX_SEARCHES {
                return Err((
                    429,
                    format!("the server runs {MAX_SEARCHES} searches already; try again soon"),
                ));
            }
            *running += 1;
        }
        let feed = Arc::new(SearchFeed::default());
        let stop = Arc::new(AtomicBool::new(false));
        s.feed = Some(Arc::clone(&feed));
        s.stop = Some(Arc::clone(&stop));
        s.searching = true;
        let job = Job {
            game: s.game.name(),
            start_fen: s.start_fen.clone(),
            moves: s.moves.clone(),
            version: s.version,
            ask,
        };
        drop(s);
        let me = Arc::clone(self);
        let session = Arc::clone(session);
        let spawned = std::thread::Builder::new()
            .name("web-search".into())
            .spawn(move || me.run(job, &session, &feed, &stop));
        if let Err(e) = spawned {
            log::error!("cannot start a search thread: {e}");
            *lock(&self.running) -= 1;
            return Err((503, "cannot start a search now".into()));
        }
        Ok(())
    }

    fn engine(&self) -> Engine {
        if let Some(e) = lock(&self.idle).pop() {
            return e;
        }
        let mut e = Engine::new();
        if let Err(err) = e.set_option("Hash", HASH_MB) {
            log::warn!("hash not set: {err}");
        }
        e
    }

    /// The search thread: sets the engine up, searches, reports, plays the answer.
    fn run(
        &self,
        job: Job,
        session: &Arc<Mutex<Board>>,
        feed: &Arc<SearchFeed>,
        stop: &AtomicBool,
    ) {
        let mut engine = self.engine();
        let result = search(&mut engine, &job, feed, stop);
        lock(&self.idle).push(engine);
        *lock(&self.running) -= 1;
        let mut s = lock(session);
        s.searching = false;
        s.stop = None;
        let mut played = None;
        match result {
            Ok(Some(best)) if job.ask.play && s.version == job.version => match s.play(&best) {
                Ok(m) => played = Some(m),
                Err(e) => log::warn!("the engine's move {best} was not played: {}", e.0),
            },
            Ok(_) => {}
            Err(e) => {
                let data = serde_json::json!({ "error": e }).to_string();
                drop(s);
                feed.push("failed", data, true);
                return;
            }
        }
        let data = serde_json::json!({
            "played": played,
            "state": api::state_json(&s),
        })
        .to_string();
        drop(s);
        feed.push("done", data, true);
    }
}

/// What a search thread needs of the session, copied at the start.
struct Job {
    game: &'static str,
    start_fen: Option<String>,
    moves: Vec<String>,
    version: u64,
    ask: SearchAsk,
}

/// Runs one search on `engine`; returns its best move.
fn search(
    engine: &mut Engine,
    job: &Job,
    feed: &Arc<SearchFeed>,
    stop: &AtomicBool,
) -> Result<Option<String>, String> {
    if engine.variant() != job.game {
        engine.set_variant(job.game).map_err(|e| e.to_string())?;
    } else {
        engine.new_game();
    }
    engine
        .set_option("MultiPV", &job.ask.lines.to_string())
        .map_err(|e| e.to_string())?;
    engine
        .set_option("Skill Level", &job.ask.skill.to_string())
        .map_err(|e| e.to_string())?;
    let moves: Vec<&str> = job.moves.iter().map(String::as_str).collect();
    engine
        .set_position(job.start_fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    engine.wait_ready();
    let sink_feed = Arc::clone(feed);
    let sink: EventSink = Arc::new(move |event: Event<'_>| match event {
        Event::Info(info) => sink_feed.push("info", api::info_json(info).to_string(), false),
        Event::Note(note) => sink_feed.push(
            "note",
            serde_json::json!({ "note": note }).to_string(),
            false,
        ),
        Event::CurrMove { .. } => {}
        Event::Answer(answer) => {
            sink_feed.push("answer", api::answer_json(answer).to_string(), false)
        }
    });
    let go = SearchRequest {
        clock: Clock {
            move_time: Some(job.ask.move_time),
            ..Clock::default()
        },
        nodes: job.ask.nodes,
        depth: job.ask.depth,
        ..SearchRequest::default()
    };
    engine.go(&go, sink);
    while engine.is_searching() {
        if stop.load(Ordering::Relaxed) {
            engine.stop();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    engine.wait();
    Ok(engine.take_outcome().and_then(|o| o.answer.best))
}
