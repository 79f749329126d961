//! Many boards at once: 20 sessions in parallel play moves and ask the engine, the
//! searches bounded by the server (a refusal, 429, is retried); every answer is checked.

mod common;
use common::*;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[test]
fn twenty_sessions_in_parallel() {
    let server = Arc::new(Server::start());
    let start = Instant::now();
    let workers: Vec<_> = (0..20)
        .map(|n| {
            let s = Arc::clone(&server);
            std::thread::spawn(move || {
                let game = GAMES[n % GAMES.len()];
                let mut st = s.create(game);
                let id = st["id"].as_str().unwrap().to_string();
                let mut rng = Rng(0x9e37_79b9 + n as u64);
                let mut refused = 0;
                for round in 0..6 {
                    if st["over"] == json!(true) {
                        break;
                    }
                    if round % 2 == 0 {
                        let moves = legal(&st);
                        let mv = moves[rng.below(moves.len())].clone();
                        let (status, next) = s.json(
                            "POST",
                            &format!("/api/sessions/{id}/move"),
                            Some(json!({ "move": mv })),
                        );
                        assert_eq!(status, 200, "{game}: {next}");
                        assert_eq!(next["last_move"], json!(mv));
                        st = next;
                        continue;
                    }
                    // The engine's move, retried while every search slot is taken.
                    loop {
                        let (status, e) = s.json(
                            "POST",
                            &format!("/api/sessions/{id}/go"),
                            Some(json!({ "nodes": 500, "movetime_ms": 1000 })),
                        );
                        if status == 429 {
                            refused += 1;
                            std::thread::sleep(Duration::from_millis(20));
                            continue;
                        }
                        assert_eq!(status, 202, "{game}: {e}");
                        break;
                    }
                    let events = s.events(&id);
                    let (name, done) = events.last().expect("events").clone();
                    assert_eq!(name, "done", "{game}: {events:?}");
                    let played = done["played"].as_str().expect("played").to_string();
                    assert!(legal(&st).contains(&played), "{game}: {played}");
                    st = done["state"].clone();
                    let (status, now) = s.json("GET", &format!("/api/sessions/{id}"), None);
                    assert_eq!(status, 200);
                    assert_eq!(now["fen"], st["fen"], "{game}");
                }
                refused
            })
        })
        .collect();
    let refused: usize = workers.into_iter().map(|w| w.join().expect("worker")).sum();
    // With 20 boards and 2 search slots, some asks must have waited.
    assert!(refused > 0, "the search bound never refused anyone");
    assert!(start.elapsed() < Duration::from_secs(120));
    assert_eq!(server.request("GET", "/", None).0, 200);
}
