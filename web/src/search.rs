//! Searches for the server's boards: a small pool of in-process engines, one per
//! concurrent search (at most [`MAX_SEARCHES`]), each run on a thread of its own that
//! feeds the session's [`SearchFeed`] and, when asked to, plays the answer on the
//! session's board (through [`crate::job`], which the browser build shares).

use crate::api::SearchRunner;
use crate::job::{self, Job, SearchAsk};
use crate::sessions::{lock, Board, SearchFeed};
use jiang::engine::Engine;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Most searches at once, over all sessions: the machine's cores are not the page's.
pub const MAX_SEARCHES: usize = 2;
/// Hash table of each pooled engine, MiB: a web board needs no more.
const HASH_MB: &str = "16";

/// The engines and the count of searches running.
pub struct Searches {
    idle: Mutex<Vec<Engine>>,
    running: Mutex<usize>,
}

impl Default for Searches {
    fn default() -> Self {
        Searches::new()
    }
}

impl SearchRunner for Arc<Searches> {
    fn start(&self, session: &Arc<Mutex<Board>>, ask: SearchAsk) -> Result<(), (u16, String)> {
        Searches::start(self, session, ask)
    }
}

impl Searches {
    /// No engine yet (they are made when first needed).
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
        Job::check(&s)?;
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
        let job = match Job::begin(&mut s, ask) {
            Ok(job) => job,
            Err(e) => {
                *lock(&self.running) -= 1;
                return Err(e);
            }
        };
        let feed = Arc::new(SearchFeed::default());
        let stop = Arc::new(AtomicBool::new(false));
        s.feed = Some(Arc::clone(&feed));
        s.stop = Some(Arc::clone(&stop));
        drop(s);
        let me = Arc::clone(self);
        let thread_session = Arc::clone(session);
        let spawned = std::thread::Builder::new()
            .name("web-search".into())
            .spawn(move || me.run(job, &thread_session, &feed, &stop));
        if let Err(e) = spawned {
            log::error!("cannot start a search thread: {e}");
            *lock(&self.running) -= 1;
            let mut s = lock(session);
            s.searching = false;
            s.stop = None;
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
        match result {
            Ok(best) => {
                let data = job::conclude(&mut s, &job, best.as_deref()).to_string();
                drop(s);
                feed.push("done", data, true);
            }
            Err(e) => {
                s.searching = false;
                s.stop = None;
                drop(s);
                feed.push(
                    "failed",
                    serde_json::json!({ "error": e }).to_string(),
                    true,
                );
            }
        }
    }
}

/// Runs one search on `engine`, stopping it when `stop` is set; returns its best move.
fn search(
    engine: &mut Engine,
    job: &Job,
    feed: &Arc<SearchFeed>,
    stop: &AtomicBool,
) -> Result<Option<String>, String> {
    let sink_feed = Arc::clone(feed);
    let sink = job::event_sink(move |name, data| sink_feed.push(name, data, false));
    job::start_search(engine, job, sink)?;
    while engine.is_searching() {
        if stop.load(Ordering::Relaxed) {
            engine.stop();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    engine.wait();
    Ok(engine.take_outcome().and_then(|o| o.answer.best))
}
