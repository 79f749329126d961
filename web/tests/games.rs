//! A whole game of each game played through the API to its end, the result checked
//! against the game's own rules; and whole engine-against-engine games through the
//! event stream.

mod common;
use common::*;
use jiang::engine::games;
use serde_json::{json, Value};

/// The moves of a state.
fn moves_of(st: &Value) -> Vec<String> {
    st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Checks a finished game against the library's own board replayed from its moves, and
/// that no move is accepted any more.
fn check_end(s: &Server, game: &str, st: &Value) {
    assert_eq!(st["over"], json!(true), "{game}");
    let mut g = games::new_session(game).expect("a known game");
    let moves = moves_of(st);
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let start = st["start_fen"].as_str().expect("a start FEN");
    g.set_position(Some(start), &refs)
        .expect("the moves replay");
    let end = g.game_end();
    let no_moves = g.legal_moves().is_empty();
    assert!(end.is_some() || no_moves, "{game}: over without a result");
    assert_eq!(
        st["result"]["result"].as_str(),
        end.as_ref().map(|e| e.result.as_str()),
        "{game}"
    );
    assert_eq!(
        st["legal"].as_array().unwrap().is_empty(),
        no_moves,
        "{game}"
    );
    if let Some(e) = &end {
        // A game won by a player names it; the result text says the same.
        if let Some(w) = e.winner {
            assert_eq!(st["result"]["winner"], json!(w), "{game}");
        }
    }
    let id = st["id"].as_str().unwrap();
    let any = g.start_fen();
    let (status, _) = s.json(
        "POST",
        &format!("/api/sessions/{id}/move"),
        Some(json!({ "move": any })),
    );
    assert_eq!(status, 400, "{game}: a move after the end");
}

/// Plays random legal moves through the API until the game is over; returns the state.
fn random_game(s: &Server, game: &str, seed: u64, max_plies: usize) -> Value {
    let mut st = s.create(game);
    let id = st["id"].as_str().unwrap().to_string();
    let mut rng = Rng(seed);
    let mut plies = 0;
    while !st["over"].as_bool().unwrap() {
        assert!(plies < max_plies, "{game}: no end after {plies} plies");
        let moves = legal(&st);
        let mv = &moves[rng.below(moves.len())];
        let (status, next) = s.json(
            "POST",
            &format!("/api/sessions/{id}/move"),
            Some(json!({ "move": mv })),
        );
        assert_eq!(status, 200, "{game} {mv}: {next}");
        assert_eq!(next["last_move"], json!(mv));
        assert_eq!(next["moves"].as_array().unwrap().len(), plies + 1);
        st = next;
        plies += 1;
    }
    st
}

#[test]
fn a_random_game_of_every_game_reaches_its_end() {
    let s = Server::start();
    for (n, game) in GAMES.iter().enumerate() {
        let st = random_game(&s, game, 0x1234_5678 + n as u64, 20_000);
        check_end(&s, game, &st);
    }
}

/// Asks the engine for a move at a tiny node count, reads the event stream, returns the
/// state after its move.
fn engine_move(s: &Server, id: &str, before: &Value) -> Value {
    loop {
        let (status, answer) = s.json(
            "POST",
            &format!("/api/sessions/{id}/go"),
            Some(json!({ "nodes": 300, "movetime_ms": 2000, "play": true })),
        );
        if status == 429 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            continue;
        }
        assert_eq!(status, 202, "{answer}");
        break;
    }
    let events = s.events(id);
    let (name, done) = events.last().expect("events").clone();
    assert_eq!(name, "done", "{events:?}");
    let played = done["played"].as_str().expect("a move played").to_string();
    assert!(legal(before).contains(&played), "{played} not legal");
    let answer = events
        .iter()
        .find(|(n, _)| n == "answer")
        .expect("an answer");
    assert_eq!(answer.1["best"], json!(played));
    let st = done["state"].clone();
    assert_eq!(st["last_move"], json!(played));
    st
}

#[test]
fn the_engine_plays_whole_games_through_the_event_stream() {
    let s = Server::start();
    // Microchess ends by its ply limit; the others from a position near the end.
    let setups: [(&str, Option<&str>); 3] = [
        ("microchess", None),
        ("xiangqi", Some("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")),
        ("threechess", None),
    ];
    for (game, fen) in setups {
        let mut st = s.create(game);
        let id = st["id"].as_str().unwrap().to_string();
        if let Some(fen) = fen {
            let (status, next) = s.json(
                "POST",
                &format!("/api/sessions/{id}/position"),
                Some(json!({ "fen": fen })),
            );
            assert_eq!(status, 200, "{next}");
            st = next;
        }
        let mut plies = 0;
        while !st["over"].as_bool().unwrap() && plies < 400 {
            st = engine_move(&s, &id, &st);
            plies += 1;
        }
        check_end(&s, game, &st);
    }
}

#[test]
fn analysis_reports_several_lines_and_plays_nothing() {
    let s = Server::start();
    let st = s.create("xiangqi");
    let id = st["id"].as_str().unwrap();
    let (status, _) = s.json(
        "POST",
        &format!("/api/sessions/{id}/go"),
        Some(json!({ "depth": 4, "lines": 3, "play": false })),
    );
    assert_eq!(status, 202);
    let events = s.events(id);
    let lines: std::collections::BTreeSet<u64> = events
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, d)| d["multipv"].as_u64().unwrap())
        .collect();
    assert_eq!(lines.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    for (n, d) in &events {
        if n == "info" {
            assert!(
                d["score"]["cp"].is_i64() || d["score"]["mate"].is_i64(),
                "{d}"
            );
            assert!(!d["pv"].as_array().unwrap().is_empty());
        }
    }
    let (_, done) = events.last().unwrap();
    assert_eq!(done["played"], Value::Null);
    let after = s.json("GET", &format!("/api/sessions/{id}"), None).1;
    assert_eq!(after["fen"], st["fen"]);
    assert_eq!(after["searching"], json!(false));
}

#[test]
fn a_long_search_stops_when_asked() {
    let s = Server::start();
    let st = s.create("fairychess");
    let id = st["id"].as_str().unwrap();
    let (status, _) = s.json(
        "POST",
        &format!("/api/sessions/{id}/go"),
        Some(json!({ "movetime_ms": 60000, "play": true })),
    );
    assert_eq!(status, 202);
    // A second search on the same board is refused while the first runs.
    assert_eq!(
        s.json("POST", &format!("/api/sessions/{id}/go"), None).0,
        409
    );
    // So is a move.
    let mv = legal(&st)[0].clone();
    assert_eq!(
        s.json(
            "POST",
            &format!("/api/sessions/{id}/move"),
            Some(json!({ "move": mv }))
        )
        .0,
        400
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    let t = std::time::Instant::now();
    assert_eq!(
        s.json("POST", &format!("/api/sessions/{id}/stop"), None).0,
        200
    );
    let events = s.events(id);
    assert!(
        t.elapsed().as_secs() < 10,
        "the stop took {:?}",
        t.elapsed()
    );
    assert_eq!(events.last().unwrap().0, "done");
}
