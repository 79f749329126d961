//! Game records through the server: `POST /api/record?name=FILE` reads a file's bytes
//! into the same JSON the browser build's `jiang_record` gives (both call
//! `jiang_web::records::read_json`), damaged files are refused naming the place, random
//! bytes never break it; `POST /api/record/write` writes a game back, `POST /api/review`
//! judges a reviewed line by `jiang-lab review`'s rules; a Xiangqi board's state carries
//! its moves in WXF and Chinese.

mod common;
use common::*;
use jiang::record::{self, Format, Game, Notation};
use jiang::xiangqi::Move;
use serde_json::{json, Value};

/// 1. C2.5 H8+7 2. H2+3 (2. P7+1 {仙人指路} P7+1) 2... R9.8.
fn sample() -> Game {
    let mut g = Game::default();
    g.set_tag("Event", "jiang test");
    let mv = |s: &str| Move::parse(s).expect("a move");
    let t = &mut g.tree;
    let a = t.add_move(0, mv("h2e2"));
    let b = t.add_move(a, mv("h9g7"));
    let c = t.add_move(b, mv("h0g2"));
    t.add_move(c, mv("i9h9"));
    let v = t.add_move(b, mv("c3c4"));
    t.add_comment(v, "仙人指路");
    t.add_move(v, mv("g6g5"));
    g
}

fn main_line(game: &Value) -> Vec<String> {
    let nodes = game["nodes"].as_array().expect("nodes");
    let mut line = Vec::new();
    let mut at = &nodes[0];
    while let Some(c) = at["children"].as_array().and_then(|c| c.first()) {
        at = &nodes[c.as_u64().expect("an id") as usize];
        line.push(at["move"].as_str().expect("a move").to_string());
    }
    line
}

#[test]
fn record_files_are_read_as_the_browser_build_reads_them() {
    let s = Server::start();
    let game = sample();
    for (name, query, format) in [
        (
            "棋谱.pgn",
            "%E6%A3%8B%E8%B0%B1.pgn",
            Format::Pgn(Notation::Chinese),
        ),
        ("game.pgn", "game.pgn", Format::Pgn(Notation::Wxf)),
        ("game.ubb", "game.ubb", Format::DhtmlXq),
        ("game.fen", "game.fen", Format::FenMoves),
    ] {
        let text = record::write(&game, format).expect("written");
        let (status, g) = s.bytes(
            "POST",
            &format!("/api/record?name={query}"),
            text.as_bytes(),
        );
        assert_eq!(status, 200, "{name}: {g}");
        assert_eq!(g["name"], name);
        assert_eq!(main_line(&g), ["h2e2", "h9g7", "h0g2", "i9h9"], "{name}");
        // The same JSON as the library function the wasm export calls.
        let (_, direct) = jiang_web::records::read_json(name, text.as_bytes(), 0);
        assert_eq!(g, direct, "{name}");
        if format != Format::FenMoves {
            let v = g["nodes"]
                .as_array()
                .and_then(|n| n.iter().find(|n| n["move"] == "c3c4"))
                .unwrap_or_else(|| panic!("{name}: no variation"));
            assert_eq!(v["comment"], "仙人指路");
            assert_eq!(v["chinese"], "兵七进一");
            assert_eq!(v["wxf"], "P7+1");
        }
    }
    // Larger than an API body (64 KiB): a long comment.
    let mut big = sample();
    big.tree.add_comment(1, &"长".repeat(40_000));
    let text = record::write(&big, Format::Pgn(Notation::Iccs)).expect("written");
    assert!(text.len() > 100_000);
    let (status, g) = s.bytes("POST", "/api/record?name=big.pgn", text.as_bytes());
    assert_eq!(status, 200, "{g}");
    // Too large for a record.
    let huge = vec![b' '; jiang_web::records::MAX_RECORD_BYTES + 10];
    assert_eq!(s.bytes("POST", "/api/record?name=huge.pgn", &huge).0, 413);
}

#[test]
fn damaged_and_random_files_are_refused_cleanly() {
    let mut s = Server::start();
    let (status, e) = s.bytes("POST", "/api/record?name=game.xqf", b"XQ\x0a\x00garbage");
    assert_eq!(status, 422, "{e}");
    assert_eq!(e["place"], "byte 11 (0xb)");
    assert!(
        e["error"].as_str().is_some_and(|m| m.contains("byte 11")),
        "{e}"
    );
    let (status, g) = s.bytes(
        "POST",
        "/api/record?name=bad.pgn",
        b"[Event \"x\"]\n\n1. h2e2 h9g7\n2. h0h5 i9h9 *\n",
    );
    assert_eq!(status, 200, "{g}");
    assert_eq!(main_line(&g), ["h2e2", "h9g7"]);
    assert!(g["warnings"][0]["place"]
        .as_str()
        .is_some_and(|p| p.starts_with("line 4:")));
    assert_eq!(
        s.bytes("POST", "/api/record?name=a.pgn&game=x", b"[").0,
        400
    );
    // Random bytes under every name: never a server error, the server stays up.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..300 {
        let n = (next() % 2000) as usize;
        let mut bytes: Vec<u8> = (0..n).map(|_| next() as u8).collect();
        if round % 2 == 0 && bytes.len() > 2 {
            bytes[0] = b'X';
            bytes[1] = b'Q';
        }
        let name = ["a.xqf", "a.cbr", "a.cbl", "a.cbf", "a.pgn", "a.ubb", "a"][round % 7];
        let (status, e) = s.bytes("POST", &format!("/api/record?name={name}"), &bytes);
        assert!(
            matches!(status, 200 | 400 | 413 | 422),
            "{name}: {status} {e}"
        );
    }
    assert!(s.alive());
    assert_eq!(s.request("GET", "/api/games", None).0, 200);
}

#[test]
fn games_are_written_and_reviews_judged() {
    let s = Server::start();
    // A record as the page sends it back: nodes with parents, a variation, a mark.
    let nodes = json!([
        { "comment": "开局" },
        { "parent": 0, "move": "h2e2" },
        { "parent": 1, "move": "h9g7", "nag": "?!" },
        { "parent": 2, "move": "h0g2" },
        { "parent": 2, "move": "c3c4", "comment": "仙人指路" },
    ]);
    let (status, w) = s.json(
        "POST",
        "/api/record/write",
        Some(json!({ "format": "pgn-chinese", "tags": [["Red", "红方"]], "nodes": nodes })),
    );
    assert_eq!(status, 200, "{w}");
    let text = w["text"].as_str().expect("text");
    for part in [
        "炮二平五",
        "马８进７?!",
        "(2. 兵七进一",
        "仙人指路",
        "[Red \"红方\"]",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    let back = record::pgn::read(text).expect("read back");
    assert_eq!(back.game.main_line_iccs(), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(back.game.tree.lines_iccs().len(), 2);
    for (format, ext) in [("dhtmlxq", "ubb"), ("fen", "fen"), ("pgn-wxf", "pgn")] {
        let (status, w) = s.json(
            "POST",
            "/api/record/write",
            Some(json!({ "format": format, "moves": ["h2e2", "h9g7"] })),
        );
        assert_eq!(status, 200, "{format}: {w}");
        assert_eq!(w["extension"], ext);
    }
    for bad in [
        json!({ "format": "xqf", "moves": [] }),
        json!({ "format": "pgn", "moves": ["h2e2", "h2e2"] }),
        json!({ "format": "pgn", "nodes": [{}, { "parent": 5, "move": "h2e2" }] }),
        json!({ "format": "pgn", "start_fen": "not a fen" }),
    ] {
        let (status, e) = s.json("POST", "/api/record/write", Some(bad.clone()));
        assert_eq!(status, 400, "{bad}: {e}");
    }
    // A review: Red's third move gives a cannon for a soldier (the scores say so), Black
    // plays the engine's best each time.
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6", "g7e6"];
    let verdicts = json!([
        { "score": { "cp": 40 }, "best": "h2e2" },
        { "score": { "cp": -40 }, "best": "h9g7" },
        { "score": { "cp": 45 }, "best": "h0g2" },
        { "score": { "cp": -50 }, "best": "i9h9" },
        { "score": { "cp": 55 }, "best": "i0h0" },
        { "score": { "cp": 600 }, "best": "g7e6" },
        { "score": { "cp": -620 }, "best": "h0h6" },
    ]);
    let (status, r) = s.json(
        "POST",
        "/api/review",
        Some(json!({ "moves": moves, "verdicts": verdicts })),
    );
    assert_eq!(status, 200, "{r}");
    let judged = r["moves"].as_array().expect("moves");
    assert_eq!(judged.len(), 6);
    assert_eq!(judged[4]["nag"], "??", "{r}");
    assert_eq!(judged[4]["best"], "i0h0");
    assert_eq!(judged[4]["best_chinese"], "车一平二");
    assert_eq!(judged[4]["score"], "-6.00");
    assert_eq!(r["deciding"], json!([4]));
    assert_eq!(r["summary"]["red"]["blunders"], 1);
    assert_eq!(r["summary"]["black"]["blunders"], 0);
    assert_eq!(r["summary"]["black"]["accuracy"], 100.0);
    for (i, j) in judged.iter().enumerate() {
        if i != 4 {
            assert_eq!(j["loss"], 0.0, "{i}: {j}");
        }
    }
    // Fewer verdicts (a review stopped early): the moves reached are judged.
    let (_, part) = s.json(
        "POST",
        "/api/review",
        Some(json!({ "moves": moves, "verdicts": verdicts.as_array().map(|v| v[..3].to_vec()) })),
    );
    assert_eq!(part["moves"].as_array().map(Vec::len), Some(2));
    for bad in [
        json!({ "moves": ["h2e2", "a0a9"], "verdicts": [] }),
        json!({ "moves": ["h2e2"], "verdicts": [{ "score": 5 }] }),
        json!({ "moves": ["h2e2"], "verdicts": [{}, {}, {}] }),
        json!({ "verdicts": [] }),
    ] {
        assert_eq!(
            s.json("POST", "/api/review", Some(bad.clone())).0,
            400,
            "{bad}"
        );
    }
    // A board's moves in the move list's notations.
    let st = s.create("xiangqi");
    let id = st["id"].as_str().expect("id");
    let (_, st) = s.json(
        "POST",
        &format!("/api/sessions/{id}/position"),
        Some(json!({ "moves": "h2e2 h9g7" })),
    );
    assert_eq!(st["notation"]["chinese"], json!(["炮二平五", "马８进７"]));
    assert_eq!(st["notation"]["wxf"], json!(["C2.5", "H8+7"]));
}
