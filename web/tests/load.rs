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
    let refused = boards_in_parallel(&server, 20, 6);
    // With 20 boards and 2 search slots, some asks must have waited.
    assert!(refused > 0, "the search bound never refused anyone");
    assert!(start.elapsed() < Duration::from_secs(120));
    assert_eq!(server.request("GET", "/", None).0, 200);
}

/// The load bar: 50 boards for 60 s, every answer checked, memory reported.
/// Long: `cargo test --release -p jiang-web --test load -- --ignored --nocapture`.
#[test]
#[ignore]
fn fifty_sessions_for_a_minute() {
    let server = Arc::new(Server::start());
    let start = Instant::now();
    let mut rounds = 0;
    let mut peak = 0;
    while start.elapsed() < Duration::from_secs(60) {
        boards_in_parallel(&server, 50, 4);
        rounds += 1;
        peak = peak.max(server.resident_kib().unwrap_or(0));
        // Close the boards of this round: the store holds at most 64.
        server_close_all(&server);
    }
    let rss = server.resident_kib().unwrap_or(0);
    eprintln!(
        "50 boards x {rounds} rounds in {:?}: 0 errors; resident {rss} KiB now, peak {peak} KiB",
        start.elapsed()
    );
    assert!(peak < 1024 * 1024, "resident memory {peak} KiB");
}

/// Deletes every board the tests made (they are listed by id on creation).
fn server_close_all(server: &Server) {
    for id in std::mem::take(&mut *IDS.lock().unwrap()) {
        assert_eq!(
            server
                .json("DELETE", &format!("/api/sessions/{id}"), None)
                .0,
            200
        );
    }
}

static IDS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// `boards` boards in parallel, each alternating a random move and an engine move for
/// `rounds` rounds; every answer checked. Returns how often a search was refused (429).
fn boards_in_parallel(server: &Arc<Server>, boards: usize, rounds: usize) -> usize {
    let workers: Vec<_> = (0..boards)
        .map(|n| {
            let s = Arc::clone(server);
            std::thread::spawn(move || {
                let game = GAMES[n % GAMES.len()];
                let mut st = s.create(game);
                let id = st["id"].as_str().unwrap().to_string();
                IDS.lock().unwrap().push(id.clone());
                let mut rng = Rng(0x9e37_79b9 + n as u64);
                let mut refused = 0;
                for round in 0..rounds * 2 {
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
                            Some(json!({ "nodes": 500, "movetime_ms": 1000, "skill": (n + round) % 21 })),
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
    workers.into_iter().map(|w| w.join().expect("worker")).sum()
}
