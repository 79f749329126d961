//! The API refuses bad input with a clear error and changes nothing.

mod common;
use common::*;
use serde_json::json;

#[test]
fn serves_the_page_and_only_its_own_assets() {
    let s = Server::start();
    let (status, body) = s.request("GET", "/", None);
    assert_eq!(status, 200);
    assert!(body.contains("<svg") || body.contains("boards.js"));
    for path in [
        "/app.js",
        "/boards.js",
        "/i18n.js",
        "/backend.js",
        "/local.js",
        "/jiang-wasm.js",
        "/engine-worker.js",
        "/style.css",
    ] {
        assert_eq!(s.request("GET", path, None).0, 200, "{path}");
    }
    for path in [
        "/../Cargo.toml",
        "/etc/passwd",
        "/web/src/main.rs",
        "/%2e%2e/Cargo.toml",
    ] {
        assert_eq!(s.request("GET", path, None).0, 404, "{path}");
    }
    assert_eq!(s.request("POST", "/", Some("x")).0, 405);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let s = Server::start();
    // Unknown game, missing or malformed fields, bad JSON.
    let (status, e) = s.json("POST", "/api/sessions", Some(json!({ "game": "chess" })));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("unknown game"), "{e}");
    assert_eq!(s.json("POST", "/api/sessions", Some(json!({}))).0, 400);
    assert_eq!(
        s.json("POST", "/api/sessions", Some(json!({ "game": 3 })))
            .0,
        400
    );
    assert_eq!(s.request("POST", "/api/sessions", Some("{not json")).0, 400);
    assert_eq!(s.request("POST", "/api/sessions", Some("[1,2]")).0, 400);
    assert_eq!(s.json("GET", "/api/sessions/nope", None).0, 404);
    for game in GAMES {
        let st = s.create(game);
        let id = st["id"].as_str().unwrap().to_string();
        let path = format!("/api/sessions/{id}");
        let before = s.json("GET", &path, None).1;
        // Illegal and malformed moves.
        for mv in ["a0a0", "zz99", "", "BE2BE9", "e2e4e4e4", "\u{5e05}"] {
            let (status, e) = s.json("POST", &format!("{path}/move"), Some(json!({ "move": mv })));
            assert_eq!(status, 400, "{game} {mv}: {e}");
            assert!(e["error"].as_str().is_some_and(|t| !t.is_empty()));
        }
        assert_eq!(
            s.json("POST", &format!("{path}/move"), Some(json!({ "move": 7 })))
                .0,
            400
        );
        // Bad FENs and move lists.
        for fen in [
            "not a fen",
            "9/9/9 w",
            "rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR x - - 0 1",
            "|||",
        ] {
            let (status, e) = s.json(
                "POST",
                &format!("{path}/position"),
                Some(json!({ "fen": fen })),
            );
            assert_eq!(status, 400, "{game} {fen}: {e}");
        }
        let (status, _) = s.json(
            "POST",
            &format!("{path}/position"),
            Some(json!({ "moves": ["nonsense"] })),
        );
        assert_eq!(status, 400);
        // Bad search requests.
        for ask in [
            json!({ "movetime_ms": -1 }),
            json!({ "lines": "x" }),
            json!({ "movetime_ms": 999999999 }),
            json!({ "play": 1 }),
        ] {
            assert_eq!(
                s.json("POST", &format!("{path}/go"), Some(ask.clone())).0,
                400,
                "{ask}"
            );
        }
        let after = s.json("GET", &path, None).1;
        assert_eq!(before["fen"], after["fen"], "{game}");
        assert_eq!(before["moves"], after["moves"], "{game}");
        assert_eq!(after["version"], before["version"], "{game}");
        // A legal move goes through, and undo brings the position back.
        let mv = legal(&before)[0].clone();
        let (status, played) = s.json("POST", &format!("{path}/move"), Some(json!({ "move": mv })));
        assert_eq!(status, 200);
        assert_eq!(played["last_move"], json!(mv));
        let (status, back) = s.json("POST", &format!("{path}/undo"), Some(json!({ "plies": 1 })));
        assert_eq!(status, 200);
        assert_eq!(back["fen"], before["fen"]);
    }
}

#[test]
fn positions_are_set_by_fen_or_move_list() {
    let s = Server::start();
    let st = s.create("threechess");
    let id = st["id"].as_str().unwrap();
    let (status, st) = s.json(
        "POST",
        &format!("/api/sessions/{id}/position"),
        Some(json!({ "moves": "BE2BE4 GD2GD4 RE2RE3" })),
    );
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["moves"], json!(["BE2BE4", "GD2GD4", "RE2RE3"]));
    assert_eq!(st["to_move"], 0);
    let fen = st["fen"].as_str().unwrap().to_string();
    let other = s.create("threechess");
    let oid = other["id"].as_str().unwrap();
    let (status, st2) = s.json(
        "POST",
        &format!("/api/sessions/{oid}/position"),
        Some(json!({ "fen": fen })),
    );
    assert_eq!(status, 200, "{st2}");
    assert_eq!(st2["fen"], json!(fen));
    assert_eq!(st2["legal"], st["legal"]);

    let xq = s.create("xiangqi");
    let xid = xq["id"].as_str().unwrap();
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    let (status, st) = s.json(
        "POST",
        &format!("/api/sessions/{xid}/position"),
        Some(json!({ "fen": fen })),
    );
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["fen"], json!(fen));
}

#[test]
fn oversized_bodies_are_refused() {
    let s = Server::start();
    let big = format!("{{\"game\":\"{}\"}}", "x".repeat(100 * 1024));
    assert_eq!(s.request("POST", "/api/sessions", Some(&big)).0, 413);
    assert_eq!(s.request("GET", "/", None).0, 200);
}

#[test]
fn sessions_are_bounded() {
    let s = Server::start();
    let ids: Vec<String> = (0..64)
        .map(|_| s.create("microchess")["id"].as_str().unwrap().to_string())
        .collect();
    let (status, e) = s.json(
        "POST",
        "/api/sessions",
        Some(json!({ "game": "microchess" })),
    );
    assert_eq!(status, 503, "{e}");
    // Closing one makes room.
    assert_eq!(
        s.json("DELETE", &format!("/api/sessions/{}", ids[0]), None)
            .0,
        200
    );
    assert_eq!(
        s.json("GET", &format!("/api/sessions/{}", ids[0]), None).0,
        404
    );
    s.create("xiangqi");
}
