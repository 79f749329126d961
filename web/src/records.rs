//! Game records on the board (Xiangqi): a file read into the JSON the page steps
//! through, a game written back in a record format, and the judgement of a review the
//! page ran with its engine. No HTTP here: the server answers `POST /api/record` (the
//! file's bytes) with [`read_json`], the browser build's `jiang_record` export does the
//! same; [`write_json`] and [`review_json`] are routed by [`crate::api::handle`] for both
//! (`POST /api/record/write`, `POST /api/review`).
//!
//! The reading, writing and judging are the engine library's ([`jiang::record`],
//! [`jiang::record::review`]); this module only turns them into JSON and back, checking
//! every input: no file and no request makes it panic.

use crate::api::{error, Reply};
use jiang::record::notation::{write_iccs_pgn, write_move};
use jiang::record::review::{self, Verdict};
use jiang::record::{self, Format, Game, GameTree, Loaded, Nag, Notation, RecordError};
use jiang::tt::MATE;
use jiang::xiangqi::{Color, Move, Position};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Largest record file read, bytes (a CBL library of a few thousand games fits).
pub const MAX_RECORD_BYTES: usize = 8 << 20;
/// Most games of a file listed in the answer (the page offers them to choose from).
pub const MAX_LISTED: usize = 2000;
/// Most nodes of a game sent to the page or taken back from it.
pub const MAX_GAME_NODES: usize = 20_000;

/// The format of a file: its name's extension, else its first bytes (as `jiang-lab`
/// decides).
pub fn format_of(name: &str, bytes: &[u8]) -> Option<Format> {
    Format::from_path(Path::new(name)).or_else(|| Format::sniff(bytes))
}

fn warning_json(w: &RecordError) -> Value {
    json!({ "place": w.place.to_string(), "message": w.kind.to_string(), "text": w.to_string() })
}

/// A game's title: its players, event and date, as far as its tags tell them.
fn title(game: &Game) -> String {
    let tag = |name| game.tag(name).map(str::trim).filter(|v| !v.is_empty());
    let mut parts = Vec::new();
    if tag("Red").is_some() || tag("Black").is_some() {
        parts.push(format!(
            "{} – {}",
            tag("Red").unwrap_or("?"),
            tag("Black").unwrap_or("?")
        ));
    }
    parts.extend(tag("Event").map(str::to_string));
    let mut t = parts.join(", ");
    if let Some(d) = tag("Date") {
        t.push_str(&format!(" ({d})"));
    }
    t.trim().to_string()
}

/// A game as the page steps through it: its tags, start position, and every node of its
/// tree (`id`, `parent`, `children` (the first continues the line), `move` in ICCS with
/// its `iccs` (`H2-E2`), `wxf` and `chinese` text, `fen` after it, `ply`, `comment`,
/// `nag`).
pub fn game_json(game: &Game) -> Value {
    let tree = &game.tree;
    let start = game.start_position();
    // Positions by node, filled in preorder (a parent always comes before its children).
    let mut positions: Vec<Option<Position>> = vec![None; tree.len()];
    let mut nodes: Vec<Value> = vec![Value::Null; tree.len()];
    for id in tree.preorder() {
        let node = tree.node(id);
        let parent_pos = if id == GameTree::ROOT {
            None
        } else {
            positions.get(node.parent).and_then(|p| p.as_ref())
        };
        let mut entry = json!({
            "id": id,
            "parent": node.parent,
            "children": node.children,
            "comment": node.comment,
            "nag": node.nag.map(Nag::suffix),
        });
        let pos = match (node.mv, parent_pos) {
            (Some(m), Some(before)) => {
                let mut after = before.clone();
                entry["move"] = json!(m.to_string());
                entry["iccs"] = json!(write_iccs_pgn(m));
                entry["wxf"] = json!(write_move(before, m, Notation::Wxf));
                entry["chinese"] = json!(write_move(before, m, Notation::Chinese));
                entry["side"] = json!(if before.side_to_move() == Color::Red {
                    "red"
                } else {
                    "black"
                });
                entry["fullmove"] = json!(before.fullmove());
                after.make_move(m);
                Some(after)
            }
            (None, _) if id == GameTree::ROOT => Some(start.clone()),
            // Not reached: readers hang every node but the root under a move.
            _ => None,
        };
        if let Some(p) = &pos {
            entry["fen"] = json!(p.to_fen());
        }
        entry["ply"] = json!(tree.ply(id));
        if let Some(slot) = nodes.get_mut(id) {
            *slot = entry;
        }
        if let Some(slot) = positions.get_mut(id) {
            *slot = pos;
        }
    }
    json!({
        "tags": game.tags.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "title": title(game),
        "result": game.result(),
        "start_fen": game.start_fen,
        "nodes": nodes,
    })
}

/// Reads a record file (`name` tells its format by its extension, else its bytes do) and
/// answers its game number `index` (from 0) as [`game_json`], with `format`, `warnings`
/// (each with its `place`), the number of `games` in the file and a `list` of their
/// titles; a file that cannot be read is a 422 naming the place at fault.
pub fn read_json(name: &str, bytes: &[u8], index: usize) -> Reply {
    if bytes.len() > MAX_RECORD_BYTES {
        return error(
            413,
            format!(
                "the file is too large ({} bytes; at most {MAX_RECORD_BYTES})",
                bytes.len()
            ),
        );
    }
    if bytes.is_empty() {
        return error(422, "the file is empty");
    }
    let Some(format) = format_of(name, bytes) else {
        return error(
            422,
            "not a game record jiang reads (PGN, XQF, CBR, CBL, CBF, DhtmlXQ/UBB, FEN)",
        );
    };
    let games = record::read_all(bytes, format);
    let count = games.len();
    if count == 0 {
        return error(422, "no game in the file");
    }
    let list: Vec<Value> = games
        .iter()
        .take(MAX_LISTED)
        .map(|g| match g {
            Ok(l) => json!(title(&l.game)),
            Err(e) => json!(format!("({e})")),
        })
        .collect();
    let Some(chosen) = games.into_iter().nth(index) else {
        return error(
            400,
            format!("no game {} (the file holds {count})", index + 1),
        );
    };
    let Loaded { game, warnings } = match chosen {
        Ok(l) => l,
        Err(e) => {
            return (
                422,
                json!({
                    "error": e.to_string(),
                    "place": e.place.to_string(),
                    "format": format.name(),
                }),
            )
        }
    };
    if game.tree.len() > MAX_GAME_NODES {
        return error(
            422,
            format!(
                "the game holds {} moves, more than the board shows ({MAX_GAME_NODES})",
                game.tree.len() - 1
            ),
        );
    }
    let mut value = game_json(&game);
    value["format"] = json!(format.name());
    value["name"] = json!(name);
    value["index"] = json!(index);
    value["games"] = json!(count);
    value["list"] = json!(list);
    value["warnings"] = json!(warnings.iter().map(warning_json).collect::<Vec<_>>());
    (200, value)
}

fn field<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

/// A game from the page's JSON: `start_fen` (default the start position), `tags` (a list
/// of `[name, value]`), and `nodes` (a list of `{parent, move, comment, nag}`, each
/// parent an earlier entry, entry 0 the root; or `moves`, a main line of ICCS moves).
/// Every move is checked against the rules.
pub fn game_from_json(m: &Map<String, Value>) -> Result<Game, Reply> {
    let start_fen = match field(m, "start_fen") {
        None => jiang::xiangqi::START_FEN.to_string(),
        Some(Value::String(f)) if f.trim().is_empty() || f.trim() == "startpos" => {
            jiang::xiangqi::START_FEN.to_string()
        }
        Some(Value::String(f)) => match Position::from_fen(f.trim()) {
            Ok(p) => p.to_fen(),
            Err(e) => return Err(error(400, format!("bad start_fen: {e}"))),
        },
        Some(_) => return Err(error(400, "'start_fen' must be a string")),
    };
    let mut game = Game::new(start_fen);
    match field(m, "tags") {
        None => {}
        Some(Value::Array(tags)) => {
            for t in tags {
                match t.as_array().map(Vec::as_slice) {
                    Some([Value::String(k), Value::String(v)]) if !k.is_empty() => {
                        if !k.eq_ignore_ascii_case("FEN") {
                            game.set_tag(k, v);
                        }
                    }
                    _ => return Err(error(400, "'tags' must hold [name, value] pairs")),
                }
            }
        }
        Some(_) => return Err(error(400, "'tags' must be a list")),
    }
    let start = match Position::from_fen(&game.start_fen) {
        Ok(p) => p,
        Err(e) => return Err(error(400, format!("bad start_fen: {e}"))),
    };
    let entries: Vec<Value> = match (field(m, "nodes"), field(m, "moves")) {
        (Some(Value::Array(n)), _) => n.clone(),
        (None, Some(Value::Array(moves))) => {
            // A main line: node i+1 hangs under node i.
            let mut n = vec![json!({})];
            for (i, mv) in moves.iter().enumerate() {
                n.push(json!({ "parent": i, "move": mv }));
            }
            n
        }
        (None, None) => vec![json!({})],
        _ => return Err(error(400, "'nodes' or 'moves' must be a list")),
    };
    if entries.len() > MAX_GAME_NODES {
        return Err(error(413, "too many moves"));
    }
    // Our node of each entry, and its position.
    let mut ids: Vec<usize> = Vec::with_capacity(entries.len());
    let mut positions: Vec<Position> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let Some(e) = e.as_object() else {
            return Err(error(400, format!("node {i}: not an object")));
        };
        let comment = match field(e, "comment") {
            None => "",
            Some(Value::String(c)) => c.as_str(),
            Some(_) => return Err(error(400, format!("node {i}: 'comment' must be a string"))),
        };
        let nag = match field(e, "nag") {
            None => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::String(s)) => match Nag::from_suffix(s) {
                Some(n) => Some(n),
                None => return Err(error(400, format!("node {i}: bad 'nag' {s:?}"))),
            },
            Some(_) => return Err(error(400, format!("node {i}: 'nag' must be a string"))),
        };
        let id = if i == 0 {
            positions.push(start.clone());
            GameTree::ROOT
        } else {
            let parent = match field(e, "parent").and_then(Value::as_u64) {
                Some(p) if (p as usize) < i => p as usize,
                _ => {
                    return Err(error(
                        400,
                        format!("node {i}: 'parent' must be an earlier node"),
                    ))
                }
            };
            let Some(text) = field(e, "move").and_then(Value::as_str) else {
                return Err(error(400, format!("node {i}: 'move' (ICCS) is missing")));
            };
            let mut pos = positions[parent].clone();
            let mv = match Move::parse(text) {
                Ok(mv) if pos.is_legal(mv) => mv,
                _ => {
                    return Err(error(
                        400,
                        format!("node {i}: '{text}' is not a legal move there"),
                    ))
                }
            };
            pos.make_move(mv);
            positions.push(pos);
            game.tree.add_move(ids[parent], mv)
        };
        ids.push(id);
        game.tree.add_comment(id, comment);
        if let (Some(n), Some(node)) = (nag, game.tree.node_mut(id)) {
            node.nag = Some(n);
        }
    }
    Ok(game)
}

/// `POST /api/record/write {"format": "pgn-chinese", ...the game...}`: the game (see
/// [`game_from_json`]) written in a format jiang writes (`pgn`, `pgn-wxf`,
/// `pgn-chinese`, `dhtmlxq`, `fen`): `{"text", "format", "extension"}`.
pub fn write_json(m: &Map<String, Value>) -> Reply {
    let name = match field(m, "format").and_then(Value::as_str) {
        Some(n) => n,
        None => return error(400, "'format' is missing"),
    };
    let Some(format) = Format::from_name(name).filter(|f| f.writable()) else {
        return error(
            400,
            format!("'{name}': jiang writes pgn, pgn-wxf, pgn-chinese, dhtmlxq or fen"),
        );
    };
    let game = match game_from_json(m) {
        Ok(g) => g,
        Err(r) => return r,
    };
    match record::write(&game, format) {
        Ok(text) => (
            200,
            json!({
                "text": text,
                "format": format.name(),
                "extension": match format {
                    Format::DhtmlXq => "ubb",
                    Format::FenMoves => "fen",
                    _ => "pgn",
                },
            }),
        ),
        Err(e) => error(400, e.to_string()),
    }
}

/// The moves of a Xiangqi board (`moves` in ICCS from `start_fen`) as the move list
/// writes them: `{"wxf": [...], "chinese": [...]}`, as far as they replay.
pub fn move_texts(start_fen: &str, moves: &[String]) -> Value {
    let mut wxf = Vec::with_capacity(moves.len());
    let mut chinese = Vec::with_capacity(moves.len());
    if let Ok(mut pos) = Position::from_fen(start_fen) {
        for m in moves {
            let Ok(mv) = Move::parse(m) else { break };
            if !pos.is_legal(mv) {
                break;
            }
            wxf.push(write_move(&pos, mv, Notation::Wxf));
            chinese.push(write_move(&pos, mv, Notation::Chinese));
            pos.make_move(mv);
        }
    }
    json!({ "wxf": wxf, "chinese": chinese })
}

/// A score the page reports (`{"cp": N}` or `{"mate": N}`, the side to move's view) in
/// internal units, as `jiang::report::Score::from_internal` reads them.
fn score_internal(v: &Value) -> Option<i32> {
    let clamp = |n: i64| n.clamp(-i64::from(MATE), i64::from(MATE)) as i32;
    if let Some(cp) = v.get("cp").and_then(Value::as_i64) {
        return Some(clamp(cp));
    }
    let n = clamp(v.get("mate").and_then(Value::as_i64)?);
    Some(if n > 0 {
        MATE - 2 * n + 1
    } else if n < 0 {
        -MATE - 2 * n
    } else {
        -MATE
    })
}

fn summary_json(s: review::SideSummary) -> Value {
    json!({
        "moves": s.moves,
        "accuracy": (s.accuracy * 10.0).round() / 10.0,
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
    })
}

/// `POST /api/review {"start_fen", "moves": [ICCS...], "verdicts": [{"score": {"cp"} or
/// {"mate"}, "best": ICCS}, ...]}`: the moves judged by the rules of
/// [`jiang::record::review`] (as `jiang-lab review` judges them). `verdicts[i]` is the
/// search of the position before `moves[i]` (the last one, after the last move); a
/// position with no legal move may have `null`, it is lost. Answers each judged move's
/// `side`, `before`, `after`, `loss`, `nag`, `accuracy`, `red_after`, `score` (after the
/// move, Red's view: `+0.42`, `#5`), `best_score`, the engine's `best` move before it
/// (ICCS, with `best_iccs`, `best_wxf`, `best_chinese`), the graph's
/// `red_start`, the `deciding` moves (indices) and a `summary` per side.
pub fn review_json(m: &Map<String, Value>) -> Reply {
    let start = match field(m, "start_fen").and_then(Value::as_str).map(str::trim) {
        None | Some("") | Some("startpos") => Position::startpos(),
        Some(f) => match Position::from_fen(f) {
            Ok(p) => p,
            Err(e) => return error(400, format!("bad start_fen: {e}")),
        },
    };
    let Some(Value::Array(move_list)) = field(m, "moves") else {
        return error(400, "'moves' (a list of ICCS moves) is missing");
    };
    let Some(Value::Array(verdict_list)) = field(m, "verdicts") else {
        return error(400, "'verdicts' (a list) is missing");
    };
    if move_list.len() > MAX_GAME_NODES || verdict_list.len() > move_list.len() + 1 {
        return error(400, "more verdicts than positions, or too many moves");
    }
    let mut moves = Vec::with_capacity(move_list.len());
    let mut pos = start.clone();
    let mut positions = vec![pos.clone()];
    for (i, v) in move_list.iter().enumerate() {
        match v.as_str().map(Move::parse) {
            Some(Ok(mv)) if pos.is_legal(mv) => {
                pos.make_move(mv);
                positions.push(pos.clone());
                moves.push(mv);
            }
            _ => return error(400, format!("move {}: not a legal ICCS move there", i + 1)),
        }
    }
    let mut verdicts = Vec::with_capacity(verdict_list.len());
    for (i, v) in verdict_list.iter().enumerate() {
        let lost = positions[i].legal_moves().is_empty();
        let verdict = if lost {
            Verdict {
                score: -MATE,
                best: None,
            }
        } else {
            let Some(score) = v.get("score").and_then(score_internal) else {
                return error(
                    400,
                    format!("verdict {i}: 'score' must be {{\"cp\": N}} or {{\"mate\": N}}"),
                );
            };
            let best = match v.get("best") {
                None | Some(Value::Null) => None,
                Some(Value::String(b)) => match Move::parse(b) {
                    Ok(mv) => Some(mv),
                    Err(_) => return error(400, format!("verdict {i}: bad 'best' {b:?}")),
                },
                Some(_) => return error(400, format!("verdict {i}: 'best' must be a string")),
            };
            Verdict { score, best }
        };
        verdicts.push(verdict);
    }
    let judged = review::judge(&start, &moves, &verdicts);
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    // A verdict's score from Red's view, as players read it.
    let red_score = |i: usize| {
        let v = verdicts[i].score;
        let red = if positions[i].side_to_move() == Color::Red {
            v
        } else {
            -v
        };
        match jiang::report::Score::from_internal(red) {
            jiang::report::Score::Mate(n) => format!("#{n}"),
            jiang::report::Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        }
    };
    let list: Vec<Value> = judged
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let mut entry = json!({
                "side": if j.side == Color::Red { "red" } else { "black" },
                "before": round(j.before),
                "after": round(j.after),
                "loss": round(j.loss),
                "nag": j.nag.map(Nag::suffix),
                "accuracy": (review::accuracy(j.loss) * 10.0).round() / 10.0,
                "red_after": round(j.red_after),
                "score": red_score(i + 1),
                "best_score": red_score(i),
            });
            // The engine's move in the position before, in each notation.
            if let Some(best) = verdicts[i].best.filter(|&b| positions[i].is_legal(b)) {
                entry["best"] = json!(best.to_string());
                entry["best_iccs"] = json!(write_iccs_pgn(best));
                entry["best_wxf"] = json!(write_move(&positions[i], best, Notation::Wxf));
                entry["best_chinese"] = json!(write_move(&positions[i], best, Notation::Chinese));
            }
            entry
        })
        .collect();
    (
        200,
        json!({
            "moves": list,
            "red_start": round(review::red_start(&judged)),
            "deciding": review::deciding(&judged),
            "summary": {
                "red": summary_json(review::side_summary(&judged, Color::Red)),
                "black": summary_json(review::side_summary(&judged, Color::Black)),
            },
            "thresholds": {
                "inaccuracy": review::INACCURACY,
                "mistake": review::MISTAKE,
                "blunder": review::BLUNDER,
            },
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_come_back_as_the_engine_reports_them() {
        for v in [MATE - 1, MATE - 9, -MATE + 2, -MATE + 10, 37, -412] {
            let s = jiang::report::Score::from_internal(v);
            let text = match s {
                jiang::report::Score::Cp(cp) => json!({ "cp": cp }),
                jiang::report::Score::Mate(n) => json!({ "mate": n }),
            };
            let back = score_internal(&text).expect("a score");
            assert_eq!(jiang::report::Score::from_internal(back), s, "{v}");
        }
    }
}
