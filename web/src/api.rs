//! The JSON API: what a board's state, a search report and an answer look like, and the
//! handlers of every `/api/...` request. Every input is checked before anything changes;
//! a refusal is `{"error": "..."}` with a 4xx status.
//!
//! No HTTP here: the server (`crate::server`) and the browser build (`wasm/`) both route
//! their requests through [`handle`], each with its own [`SearchRunner`].

use crate::job::{SearchAsk, MAX_DEPTH, MAX_LINES, MAX_MOVE_TIME, MAX_NODES, MAX_SKILL};
use crate::sessions::{lock, stop_search, Board, Store};
use jiang::engine::games;
use jiang::engine::{Answer, InfoReport};
use jiang::game::Outcome;
use jiang::report::Score;
use jiang::search::skill::MAX_LEVEL;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An API answer: status and JSON body.
pub type Reply = (u16, Value);

/// Largest request body taken, bytes; a larger one is refused unread (413).
pub const MAX_BODY: usize = 64 * 1024;

/// Who runs the searches a `go` asks for: a thread of the server, or the browser's
/// search worker.
pub trait SearchRunner {
    /// Starts a search of the board `session` (the board is marked as searching), or
    /// refuses with a status and a message, changing nothing.
    fn start(&self, session: &Arc<Mutex<Board>>, ask: SearchAsk) -> Result<(), (u16, String)>;
}

/// A refusal: `{"error": message}` with a 4xx status.
pub fn error(status: u16, message: impl Into<String>) -> Reply {
    (status, json!({ "error": message.into() }))
}

/// The message of a refusal's body.
pub fn error_text(body: &Value) -> String {
    body["error"].as_str().unwrap_or("refused").to_string()
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// A board's state, everything the page draws.
pub fn state_json(s: &Board) -> Value {
    let g = &s.game;
    let end = g.game_end();
    let legal = g.legal_moves();
    let over = end.is_some() || legal.is_empty();
    let start_fen = s.start_fen.clone().unwrap_or_else(|| g.start_fen());
    // Xiangqi's moves as the move list writes them (WXF, Chinese); the others' are their
    // own notation.
    let notation = if g.name() == "xiangqi" {
        crate::records::move_texts(&start_fen, &s.moves)
    } else {
        Value::Null
    };
    json!({
        "id": s.id,
        "game": g.name(),
        "players": g.players(),
        "to_move": g.player_to_move(),
        "fen": g.fen(),
        "start_fen": start_fen,
        "moves": s.moves,
        "notation": notation,
        "last_move": s.moves.last(),
        "legal": legal,
        "over": over,
        "result": end.map(|e| json!({
            "result": e.result,
            "reason": e.reason,
            "winner": e.winner,
        })),
        "searching": s.searching,
        "version": s.version,
        "tablebase": g.table_verdict().map(|v| json!({
            "result": match v.outcome {
                Outcome::Win => "win",
                Outcome::Draw => "draw",
                Outcome::Loss => "loss",
            },
            "plies": v.plies,
            "table": v.table,
        })),
    })
}

/// One progress report of a search.
pub fn info_json(info: &InfoReport) -> Value {
    json!({
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_json(info.score),
        "bound": format!("{:?}", info.bound).to_lowercase(),
        "wdl": info.wdl.map(|w| [w.win, w.draw, w.loss]),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "multipv": info.multipv,
        "pv": info.pv,
        "player_scores": info.player_scores.iter().map(|(p, v)| json!([p, v])).collect::<Vec<_>>(),
    })
}

/// A search's final answer.
pub fn answer_json(a: &Answer) -> Value {
    json!({
        "best": a.best,
        "ponder": a.ponder,
        "score": score_json(Score::from_internal(a.score)),
        "depth": a.depth,
        "nodes": a.nodes,
    })
}

/// `GET /api/games`: every game with its players and start position.
pub fn list_games() -> Reply {
    let list: Vec<Value> = games::GAMES
        .iter()
        .map(|g| {
            let s = (g.new_session)();
            json!({ "name": g.name, "players": s.players(), "start_fen": s.start_fen() })
        })
        .collect();
    (200, json!({ "games": list }))
}

/// The JSON object of a request body (an empty body is an empty object).
pub fn body_object(body: &str) -> Result<serde_json::Map<String, Value>, Reply> {
    if body.trim().is_empty() {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(error(400, "the body must be a JSON object")),
        Err(e) => Err(error(400, format!("bad JSON: {e}"))),
    }
}

fn string_field<'a>(
    m: &'a serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, Reply> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(error(400, format!("'{key}' must be a string"))),
    }
}

fn uint_field(
    m: &serde_json::Map<String, Value>,
    key: &str,
    max: u64,
) -> Result<Option<u64>, Reply> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(error(
                400,
                format!("'{key}' must be a whole number from 0 to {max}"),
            )),
        },
    }
}

/// Routes one API request. `path` is below `/api`, without the query.
pub fn handle(
    store: &Store,
    searches: &dyn SearchRunner,
    method: &str,
    path: &str,
    body: &str,
) -> Reply {
    if body.len() > MAX_BODY {
        return error(413, "request body too large");
    }
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match (method, parts.as_slice()) {
        ("GET", ["games"]) => list_games(),
        ("POST", ["record", "write"]) => match body_object(body) {
            Ok(m) => crate::records::write_json(&m),
            Err(r) => r,
        },
        ("POST", ["review"]) => match body_object(body) {
            Ok(m) => crate::records::review_json(&m),
            Err(r) => r,
        },
        ("POST", ["record"]) => error(
            400,
            "send the file's bytes as the body of POST /api/record?name=FILE (the server) or to jiang_record (the browser build)",
        ),
        ("POST", ["sessions"]) => {
            let m = match body_object(body) {
                Ok(m) => m,
                Err(r) => return r,
            };
            let game = match string_field(&m, "game") {
                Ok(Some(g)) => g,
                Ok(None) => return error(400, "'game' is missing"),
                Err(r) => return r,
            };
            match store.create(game) {
                Ok(s) => (201, state_json(&lock(&s))),
                Err((true, e)) => error(503, e),
                Err((false, e)) => error(400, e),
            }
        }
        (_, ["sessions", id, rest @ ..]) => {
            let Some(session) = store.get(id) else {
                return error(404, format!("no session '{id}' (it may have expired)"));
            };
            match (method, rest) {
                ("GET", []) => (200, state_json(&lock(&session))),
                ("DELETE", []) => {
                    store.remove(id);
                    (200, json!({ "deleted": id }))
                }
                ("POST", ["move"]) => {
                    let m = match body_object(body) {
                        Ok(m) => m,
                        Err(r) => return r,
                    };
                    let mv = match string_field(&m, "move") {
                        Ok(Some(mv)) => mv,
                        Ok(None) => return error(400, "'move' is missing"),
                        Err(r) => return r,
                    };
                    let mut s = lock(&session);
                    match s.play(mv) {
                        Ok(_) => (200, state_json(&s)),
                        Err(e) => error(400, e.0),
                    }
                }
                ("POST", ["position"]) => set_position(&session, body),
                ("POST", ["undo"]) => {
                    let m = match body_object(body) {
                        Ok(m) => m,
                        Err(r) => return r,
                    };
                    let n = match uint_field(&m, "plies", 1000) {
                        Ok(n) => n.unwrap_or(1) as usize,
                        Err(r) => return r,
                    };
                    let mut s = lock(&session);
                    match s.undo(n) {
                        Ok(()) => (200, state_json(&s)),
                        Err(e) => error(400, e.0),
                    }
                }
                ("POST", ["go"]) => go(searches, &session, body),
                ("POST", ["stop"]) => {
                    let s = lock(&session);
                    stop_search(&s);
                    (200, json!({ "stopping": s.searching }))
                }
                _ => error(404, "no such request"),
            }
        }
        _ => error(404, "no such request"),
    }
}

/// `POST /api/sessions/ID/position {"fen": ..., "moves": [...] or "m1 m2"}`.
fn set_position(session: &Arc<Mutex<Board>>, body: &str) -> Reply {
    let m = match body_object(body) {
        Ok(m) => m,
        Err(r) => return r,
    };
    let fen = match string_field(&m, "fen") {
        Ok(f) => f
            .map(str::trim)
            .filter(|f| !f.is_empty() && *f != "startpos"),
        Err(r) => return r,
    };
    let moves: Vec<&str> = match m.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => s.split_whitespace().collect(),
        Some(Value::Array(a)) => {
            let mut v = Vec::with_capacity(a.len());
            for x in a {
                match x.as_str() {
                    Some(t) => v.push(t),
                    None => return error(400, "'moves' must hold strings"),
                }
            }
            v
        }
        Some(_) => return error(400, "'moves' must be a list or a string"),
    };
    let mut s = lock(session);
    match s.set_position(fen, &moves) {
        Ok(()) => (200, state_json(&s)),
        Err(e) => error(400, e.0),
    }
}

/// The limits of a `go` body: `movetime_ms` (default 1000), `nodes`, `depth`, `lines`
/// (1 to [`MAX_LINES`]), `skill` (0 to [`MAX_SKILL`], default full strength), `play`
/// (default true), each checked.
pub fn parse_ask(m: &serde_json::Map<String, Value>) -> Result<SearchAsk, Reply> {
    let ms = uint_field(m, "movetime_ms", MAX_MOVE_TIME.as_millis() as u64)?;
    let nodes = uint_field(m, "nodes", MAX_NODES)?;
    let depth = uint_field(m, "depth", MAX_DEPTH)?;
    let lines = uint_field(m, "lines", MAX_LINES as u64)?;
    let skill = uint_field(m, "skill", u64::from(MAX_SKILL))?;
    let play = match m.get("play") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(error(400, "'play' must be true or false")),
    };
    Ok(SearchAsk {
        move_time: Duration::from_millis(ms.unwrap_or(1000).max(1)),
        nodes: nodes.filter(|&n| n > 0),
        depth: depth.filter(|&d| d > 0).map(|d| d as i32),
        lines: lines.unwrap_or(1).clamp(1, MAX_LINES as u64) as usize,
        skill: skill.map_or(MAX_LEVEL, |s| s as u8),
        play,
    })
}

/// `POST /api/sessions/ID/go {"movetime_ms", "nodes", "depth", "lines", "skill", "play"}`.
fn go(searches: &dyn SearchRunner, session: &Arc<Mutex<Board>>, body: &str) -> Reply {
    let m = match body_object(body) {
        Ok(m) => m,
        Err(r) => return r,
    };
    let ask = match parse_ask(&m) {
        Ok(a) => a,
        Err(r) => return r,
    };
    match searches.start(session, ask) {
        Ok(()) => (202, json!({ "searching": true })),
        Err((status, e)) => error(status, e),
    }
}
