//! The page's boards in the browser: the web board's JSON API ([`jiang_web::api`]) over a
//! session store, exactly as the server answers it, with searches handed out as jobs
//! instead of run here.
//!
//! A `go` marks the board as searching and queues a [`Job`]; the page takes it
//! ([`PageBoards::take_job`]), has a search worker run it ([`crate::SearchWorker`]) and brings
//! the answer back ([`PageBoards::finish`]), which plays it (if the job was to play) and gives
//! the `done` event the page shows. Until then the board refuses moves, as the server's
//! does during a search. The page may also finish a search it stopped early, with the
//! best move of the last iteration it saw: the board checks that it is legal.

use jiang_web::api::{self, SearchRunner, MAX_BODY};
use jiang_web::job::{self, Job, SearchAsk};
use jiang_web::sessions::{lock, Board, Store};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The page's boards and the searches asked for on them.
pub struct PageBoards {
    store: Store,
    runner: QueueRunner,
}

/// Searches asked for and not yet finished.
#[derive(Default)]
struct QueueRunner {
    /// Asked for, not yet taken by the page.
    pending: Mutex<VecDeque<Job>>,
    /// Running (taken or not), by board id: one per board.
    running: Mutex<HashMap<String, Job>>,
}

impl SearchRunner for QueueRunner {
    fn start(&self, session: &Arc<Mutex<Board>>, ask: SearchAsk) -> Result<(), (u16, String)> {
        let mut s = lock(session);
        let job = Job::begin(&mut s, ask)?;
        lock(&self.pending).push_back(job.clone());
        lock(&self.running).insert(job.session.clone(), job);
        Ok(())
    }
}

impl Default for PageBoards {
    fn default() -> Self {
        PageBoards::new()
    }
}

impl PageBoards {
    /// No board yet. Boards do not expire (the page is the only user, and closes what it
    /// leaves); at most [`jiang_web::sessions::MAX_SESSIONS`] are kept.
    pub fn new() -> PageBoards {
        PageBoards {
            store: Store::with_expiry(None),
            runner: QueueRunner::default(),
        }
    }

    /// Answers one API request (`path` below `/api/`, e.g. `sessions/ID/move`) as the
    /// server does: (status, JSON text).
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let path = path.trim_start_matches('/');
        let path = path.strip_prefix("api/").unwrap_or(path);
        let (status, value) = api::handle(&self.store, &self.runner, method, path, body);
        // A board closed while it searched: its search is forgotten (the page stops the
        // worker; a late answer finds no job).
        lock(&self.runner.running).retain(|id, _| self.store.contains(id));
        lock(&self.runner.pending).retain(|j| self.store.contains(&j.session));
        (status, value.to_string())
    }

    /// The next search asked for, as JSON (see [`Job::to_json`]), once.
    pub fn take_job(&self) -> Option<String> {
        lock(&self.runner.pending)
            .pop_front()
            .map(|j| j.to_json().to_string())
    }

    /// Ends the search of a board: `{"session": ID, "version": N, "best": MOVE}` (best
    /// may be null) plays the answer as [`job::conclude`] does and answers
    /// `{"event": "done", "data": {...}}`; `{"session": ID, "version": N, "failed":
    /// "why"}` ends it without a move and answers `{"event": "failed", "data":
    /// {"error": ...}}`. 404 when no such search is running (its board was closed, or it
    /// was finished already); the boards are unchanged then.
    pub fn finish(&self, text: &str) -> (u16, String) {
        if text.len() > MAX_BODY {
            return reply(api::error(413, "request body too large"));
        }
        let m = match api::body_object(text) {
            Ok(m) => m,
            Err(r) => return reply(r),
        };
        let (Some(id), Some(version)) = (
            m.get("session").and_then(Value::as_str),
            m.get("version").and_then(Value::as_u64),
        ) else {
            return reply(api::error(
                400,
                "'session' (a string) and 'version' (a number) are needed",
            ));
        };
        let best = match m.get("best") {
            None | Some(Value::Null) => None,
            Some(Value::String(b)) => Some(b.as_str()),
            Some(_) => return reply(api::error(400, "'best' must be a string or null")),
        };
        let failed = match m.get("failed") {
            None | Some(Value::Null) => None,
            Some(Value::String(f)) => Some(f.clone()),
            Some(_) => return reply(api::error(400, "'failed' must be a string")),
        };
        let job = {
            let mut running = lock(&self.runner.running);
            match running.get(id) {
                Some(j) if j.version == version => running.remove(id),
                _ => None,
            }
        };
        let Some(job) = job else {
            return reply(api::error(
                404,
                format!("no search of '{id}' at {version} runs"),
            ));
        };
        lock(&self.runner.pending).retain(|j| j.session != job.session);
        let Some(session) = self.store.get(id) else {
            return reply(api::error(404, format!("no session '{id}'")));
        };
        let mut s = lock(&session);
        let value = match failed {
            Some(why) => {
                s.searching = false;
                json!({ "event": "failed", "data": { "error": why } })
            }
            None => json!({ "event": "done", "data": job::conclude(&mut s, &job, best) }),
        };
        (200, value.to_string())
    }

    /// How many searches are asked for and not finished.
    pub fn searches_running(&self) -> usize {
        lock(&self.runner.running).len()
    }
}

fn reply((status, value): api::Reply) -> (u16, String) {
    (status, value.to_string())
}
