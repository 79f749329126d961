//! A search of one board, from the request to the move on the board, written once for
//! both backends: the server runs it on a thread of its own ([`crate::search`]), the
//! browser build hands it as JSON to the Web Worker that searches (`wasm/`).
//!
//! [`Job::begin`] marks the board as searching and copies what the search needs;
//! [`start_search`] sets an engine up for it and starts it; [`conclude`] plays the answer
//! (if asked to, on the position it was asked for) and gives the `done` event's data.

use crate::api;
use crate::sessions::Board;
use jiang::engine::{Engine, Event, EventSink};
use jiang::request::SearchRequest;
use jiang::time::Clock;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Longest time per move a page may ask for.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(60);
/// Full strength: the engine's `Skill Level` at its top (lower levels play weaker moves
/// on purpose, in the games whose search supports it).
pub use jiang::search::skill::MAX_LEVEL as MAX_SKILL;
/// Most lines of a MultiPV analysis.
pub const MAX_LINES: usize = 5;
/// Most nodes a page may ask for.
pub const MAX_NODES: u64 = 1_000_000_000;
/// Deepest depth a page may ask for.
pub const MAX_DEPTH: u64 = 64;

/// What a page asks a search for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchAsk {
    /// Time for the move (the search's hard limit).
    pub move_time: Duration,
    /// Node limit, if any.
    pub nodes: Option<u64>,
    /// Depth limit, if any.
    pub depth: Option<i32>,
    /// MultiPV lines, 1 to [`MAX_LINES`].
    pub lines: usize,
    /// The engine's strength, 0 (weakest) to [`MAX_SKILL`] (full strength).
    pub skill: u8,
    /// Play the answer on the board (a game) or only report (analysis).
    pub play: bool,
}

impl SearchAsk {
    /// The ask as JSON, in the shape of a `go` body (what [`api::parse_ask`] reads).
    pub fn to_json(&self) -> Value {
        json!({
            "movetime_ms": self.move_time.as_millis() as u64,
            "nodes": self.nodes,
            "depth": self.depth,
            "lines": self.lines,
            "skill": self.skill,
            "play": self.play,
        })
    }
}

/// What a search needs of its board, copied when it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The board's id.
    pub session: String,
    /// The game's name.
    pub game: String,
    /// The FEN the board's game started from (`None`: the game's start position).
    pub start_fen: Option<String>,
    /// The moves played since.
    pub moves: Vec<String>,
    /// The board's version when the search started: the answer is played only on it.
    pub version: u64,
    /// The limits and what to do with the answer.
    pub ask: SearchAsk,
}

impl Job {
    /// Marks `s` as searching and copies its position: 409 when it already searches, 400
    /// when its game is over.
    pub fn begin(s: &mut Board, ask: SearchAsk) -> Result<Job, (u16, String)> {
        Job::check(s)?;
        s.searching = true;
        Ok(Job {
            session: s.id.clone(),
            game: s.game.name().to_string(),
            start_fen: s.start_fen.clone(),
            moves: s.moves.clone(),
            version: s.version,
            ask,
        })
    }

    /// Whether `s` may start a search (see [`Job::begin`]).
    pub fn check(s: &Board) -> Result<(), (u16, String)> {
        if s.searching {
            return Err((409, "this board is already searching".into()));
        }
        if s.is_over() {
            return Err((400, "the game is over".into()));
        }
        Ok(())
    }

    /// The job as JSON (what [`Job::from_json`] reads).
    pub fn to_json(&self) -> Value {
        json!({
            "session": self.session,
            "game": self.game,
            "start_fen": self.start_fen,
            "moves": self.moves,
            "version": self.version,
            "ask": self.ask.to_json(),
        })
    }

    /// Reads a job from its JSON text, every field checked as a request's are.
    pub fn from_json(text: &str) -> Result<Job, String> {
        let m = api::body_object(text).map_err(|(_, e)| api::error_text(&e))?;
        let text_field = |key: &str| match m.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            _ => Err(format!("the job's '{key}' must be a string")),
        };
        let start_fen = match m.get("start_fen") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err("the job's 'start_fen' must be a string".into()),
        };
        let moves = match m.get("moves") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or("the job's 'moves' must hold strings")?,
            _ => return Err("the job's 'moves' must be a list".into()),
        };
        let version = m
            .get("version")
            .and_then(Value::as_u64)
            .ok_or("the job's 'version' must be a whole number")?;
        let ask = match m.get("ask") {
            Some(Value::Object(a)) => api::parse_ask(a).map_err(|(_, e)| api::error_text(&e))?,
            _ => return Err("the job's 'ask' must be an object".into()),
        };
        Ok(Job {
            session: text_field("session")?,
            game: text_field("game")?,
            start_fen,
            moves,
            version,
            ask,
        })
    }
}

/// An event sink that hands each search event to `emit` as (event name, JSON data):
/// `info`, `note` and `answer`, as the page reads them.
pub fn event_sink(emit: impl Fn(&'static str, String) + Send + Sync + 'static) -> EventSink {
    Arc::new(move |event: Event<'_>| match event {
        Event::Info(info) => emit("info", api::info_json(info).to_string()),
        Event::Note(note) => emit("note", json!({ "note": note }).to_string()),
        Event::CurrMove { .. } => {}
        Event::Answer(answer) => emit("answer", api::answer_json(answer).to_string()),
    })
}

/// Sets `engine` up for `job` (game, lines, strength, position) and starts the search,
/// its events to `sink`. Natively the search runs on the engine's thread (wait for it
/// with [`Engine::wait`]); in the browser build it has run to its end on return.
pub fn start_search(engine: &mut Engine, job: &Job, sink: EventSink) -> Result<(), String> {
    if engine.variant() != job.game {
        engine.set_variant(&job.game).map_err(|e| e.to_string())?;
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
    Ok(())
}

/// The end of `job`'s search on its board `s`: the board stops searching, `best` is
/// played if the job was to play and the board is still at the searched position (a move
/// that is not legal there is refused, logged, and the board stays as it was). Returns
/// the `done` event's data: `played` (the move, canonical, or null) and the new `state`.
pub fn conclude(s: &mut Board, job: &Job, best: Option<&str>) -> Value {
    s.searching = false;
    s.stop = None;
    let mut played = None;
    if let Some(best) = best {
        if job.ask.play && s.version == job.version {
            match s.play(best) {
                Ok(m) => played = Some(m),
                Err(e) => log::warn!("the engine's move {best} was not played: {}", e.0),
            }
        }
    }
    json!({ "played": played, "state": api::state_json(s) })
}
