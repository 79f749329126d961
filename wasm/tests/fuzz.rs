//! The browser build's command interface, natively: the same entry points the page calls
//! (`PageBoards::request`, `take_job`, `finish`; `SearchWorker::search`), fed malformed JSON,
//! huge bodies, unknown paths and methods, garbage jobs and finishes, and commands while a
//! search runs (in a thread beside the board, as a Web Worker beside the page). Nothing
//! panics, nothing answers 5xx, a refused request leaves its board as it was, and every
//! board's moves replay to its FEN. (`wasm/tests/node_check.js` runs the same kind of fuzz
//! against the .wasm itself under node.)

use jiang::engine::games;
use jiang_wasm::{PageBoards, SearchWorker};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// xorshift64: every run fuzzes the same.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn state(board: &PageBoards, id: &str) -> Option<Value> {
    let (status, text) = board.request("GET", &format!("sessions/{id}"), "");
    (status == 200).then(|| parse(&text))
}

fn new_board(board: &PageBoards, game: &str) -> String {
    let (status, text) = board.request("POST", "sessions", &json!({ "game": game }).to_string());
    assert_eq!(status, 201, "{text}");
    parse(&text)["id"].as_str().expect("an id").to_string()
}

/// The board's moves, replayed by the library from its start FEN, give its FEN.
fn check_replays(st: &Value) {
    let game = st["game"].as_str().expect("a game");
    let mut g = games::new_session(game).expect("a known game");
    let moves: Vec<&str> = st["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    g.set_position(st["start_fen"].as_str(), &moves)
        .expect("the moves replay");
    assert_eq!(g.fen(), st["fen"].as_str().expect("a FEN"), "{game}");
}

const BODIES: &[&str] = &[
    "",
    "{",
    "}",
    "[]",
    "null",
    "1",
    "\"x\"",
    "{\"move\":",
    "{\"move\": 7}",
    "{\"move\": null}",
    "{\"move\": \"a0a0\"}",
    "{\"move\": \"\u{5e05}\u{5e05}\"}",
    "{\"fen\": 3}",
    "{\"fen\": \"9/9/9 w\"}",
    "{\"moves\": {}}",
    "{\"moves\": [1, 2]}",
    "{\"moves\": \"h2e2 h9g7 nonsense\"}",
    "{\"plies\": -1}",
    "{\"plies\": 1e99}",
    "{\"plies\": 3}",
    "{\"movetime_ms\": \"soon\"}",
    "{\"lines\": 99}",
    "{\"skill\": -3}",
    "{\"play\": \"yes\"}",
    "{\"game\": \"chess\"}",
    "{\"depth\": 65}",
    "{\"nodes\": 1e12}",
    "{\"movetime_ms\": 20}",
    "\u{0}\u{1}",
];

const METHODS: &[&str] = &["GET", "POST", "DELETE", "PUT", "", "post", "\u{0}"];

fn paths(id: &str) -> Vec<String> {
    [
        "games".to_string(),
        "sessions".into(),
        format!("sessions/{id}"),
        format!("sessions/{id}/move"),
        format!("sessions/{id}/position"),
        format!("sessions/{id}/undo"),
        format!("sessions/{id}/go"),
        format!("sessions/{id}/stop"),
        format!("sessions/{id}/events"),
        format!("sessions/{id}/nope"),
        "sessions/nope/move".into(),
        "../etc/passwd".into(),
        String::new(),
        "/api/games".into(),
        "sessions//move".into(),
        format!("sessions/{id}/move?x=1#y"),
        "x".repeat(5000),
    ]
    .to_vec()
}

#[test]
fn the_board_survives_malformed_commands_and_commands_during_a_search() {
    let board = PageBoards::new();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let names: Vec<&str> = games::VARIANTS.to_vec();
    let mut ids: Vec<String> = names.iter().map(|g| new_board(&board, g)).collect();
    let huge = format!("{{\"move\": \"{}\"}}", "a".repeat(200 * 1024));
    let (mut refused, mut during_search) = (0, 0);
    for _round in 0..3000 {
        let g = rng.below(names.len());
        let id = ids[g].clone();
        let before = state(&board, &id).expect("the board is kept");
        // Sometimes a search is running (asked for, not finished) meanwhile.
        let mut job = None;
        if before["over"] == json!(false) && rng.below(4) == 0 {
            let (status, text) = board.request(
                "POST",
                &format!("sessions/{id}/go"),
                "{\"movetime_ms\": 50}",
            );
            assert_eq!(status, 202, "{text}");
            let j = parse(&board.take_job().expect("a job"));
            assert_eq!(j["session"], json!(id));
            job = Some(j);
            during_search += 1;
        }
        let during = state(&board, &id).expect("the board is kept");
        let (status, text) = match rng.below(10) {
            0 => board.request("POST", &format!("sessions/{id}/move"), &huge),
            1 => board.finish(rng.pick::<String>(&[
                "".to_string(),
                "{}".to_string(),
                json!({ "session": id }).to_string(),
                json!({ "session": 5, "version": 0 }).to_string(),
                json!({ "session": id, "version": during["version"].as_u64().unwrap_or(0) + 1, "best": "x" }).to_string(),
                json!({ "session": id, "version": -1 }).to_string(),
                "x".repeat(100 * 1024),
            ])),
            _ => {
                let p = rng.pick(&paths(&id)).clone();
                let m = *rng.pick(METHODS);
                let b = *rng.pick(BODIES);
                board.request(m, &p, b)
            }
        };
        assert!(status < 500, "{status}: {text}");
        parse(&text);
        if status >= 400 {
            refused += 1;
        }
        if status == 202 {
            // The fuzz itself asked for a search: end it without a move.
            let extra = parse(&board.take_job().expect("a job"));
            let end =
                json!({ "session": extra["session"], "version": extra["version"], "best": null });
            assert_eq!(board.finish(&end.to_string()).0, 200);
        }
        let Some(after) = state(&board, &id) else {
            // Closed: a late answer finds no search; a new board takes its place.
            if let Some(j) = &job {
                let end = json!({ "session": id, "version": j["version"], "best": null });
                assert_eq!(board.finish(&end.to_string()).0, 404);
            }
            ids[g] = new_board(&board, names[g]);
            continue;
        };
        if status >= 400 {
            assert_eq!(
                after["fen"], during["fen"],
                "a refused request moved {}",
                names[g]
            );
            assert_eq!(after["moves"], during["moves"]);
            assert_eq!(after["version"], during["version"]);
        }
        check_replays(&after);
        if let Some(j) = job {
            assert_eq!(after["searching"], json!(true), "the search was lost");
            let legal = after["legal"].as_array().expect("legal moves").clone();
            let best = (!legal.is_empty()).then(|| rng.pick(&legal).clone());
            let end = json!({ "session": id, "version": j["version"], "best": best });
            let (status, text) = board.finish(&end.to_string());
            assert_eq!(status, 200, "{text}");
            let done = parse(&text);
            assert_eq!(done["event"], json!("done"));
            let st = &done["data"]["state"];
            assert_eq!(st["searching"], json!(false));
            let grew = st["moves"].as_array().map_or(0, Vec::len)
                - after["moves"].as_array().map_or(0, Vec::len);
            assert_eq!(
                grew,
                usize::from(best.is_some()),
                "the answer is played once"
            );
            // Finished once: a second finish finds nothing.
            assert_eq!(board.finish(&end.to_string()).0, 404);
        }
        if state(&board, &id).is_some_and(|s| s["over"] == json!(true)) || rng.below(50) == 0 {
            board.request("DELETE", &format!("sessions/{id}"), "");
            ids[g] = new_board(&board, names[g]);
        }
    }
    assert!(
        refused > 1000 && during_search > 300,
        "{refused} {during_search}"
    );
    assert_eq!(board.searches_running(), 0);
}

#[test]
fn a_worker_runs_jobs_beside_the_board_and_refuses_garbage() {
    let board = Arc::new(PageBoards::new());
    let id = new_board(&board, "xiangqi");
    let (mut worker, report) = SearchWorker::new(8, None);
    assert_eq!(report["hash_mb"], json!(8));
    let (status, _) = board.request(
        "POST",
        &format!("sessions/{id}/go"),
        "{\"movetime_ms\": 300, \"lines\": 3, \"play\": true}",
    );
    assert_eq!(status, 202);
    let job = board.take_job().expect("a job");
    // The search runs in a thread of its own, as in a Web Worker; the board is asked
    // things meanwhile and refuses what a searching board must.
    let events = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let sink = Arc::clone(&events);
    let search = std::thread::spawn(move || {
        let answer = worker.search(&job, move |name, data| {
            sink.lock().expect("events").push((name.to_string(), data))
        });
        (worker, job, answer)
    });
    let mut refusals = 0;
    while !search.is_finished() {
        for (method, path, body) in [
            ("POST", "move", "{\"move\": \"h2e2\"}"),
            ("POST", "undo", ""),
            ("POST", "position", "{\"fen\": null}"),
            ("POST", "go", ""),
        ] {
            let (status, _) = board.request(method, &format!("sessions/{id}/{path}"), body);
            assert!(status == 400 || status == 409, "{path}: {status}");
            refusals += 1;
        }
        assert_eq!(state(&board, &id).expect("kept")["moves"], json!([]));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let (mut worker, job, (status, answer)) = search.join().expect("the search thread");
    assert_eq!(status, 200, "{answer}");
    let best = parse(&answer)["best"].as_str().expect("a move").to_string();
    let infos: Vec<Value> = events
        .lock()
        .expect("events")
        .iter()
        .filter(|(n, _)| n == "info")
        .map(|(_, d)| parse(d))
        .collect();
    assert!(
        infos.iter().any(|i| i["multipv"] == json!(3)),
        "three lines"
    );
    let job_v = parse(&job);
    let end = json!({ "session": id, "version": job_v["version"], "best": best });
    let (status, done) = board.finish(&end.to_string());
    assert_eq!(status, 200);
    assert_eq!(parse(&done)["data"]["played"], json!(best));
    assert!(refusals > 0);

    // Garbage jobs: refused, the worker goes on.
    let mut bad_game = job_v.clone();
    bad_game["game"] = json!("chess");
    let mut bad_moves = job_v.clone();
    bad_moves["moves"] = json!(["z9z9"]);
    let mut bad_ask = job_v.clone();
    bad_ask["ask"] = json!({ "lines": 50 });
    let mut bad_fen = job_v.clone();
    bad_fen["start_fen"] = json!("9/9/9 w");
    for bad in [
        String::new(),
        "{}".into(),
        "nonsense".into(),
        "x".repeat(100_000),
        bad_game.to_string(),
        bad_moves.to_string(),
        bad_ask.to_string(),
        bad_fen.to_string(),
    ] {
        let (status, text) = worker.search(&bad, |_, _| {});
        assert!(status == 400 || status == 422, "{status}: {text}");
        parse(&text);
    }
    let (status, _) = worker.search(&job, |_, _| {});
    assert_eq!(status, 200, "the worker searches after bad jobs");
}

#[test]
fn a_job_round_trips_through_its_json() {
    let board = PageBoards::new();
    let id = new_board(&board, "fairychess");
    let first = state(&board, &id).expect("kept")["legal"][0].clone();
    let (status, _) = board.request(
        "POST",
        &format!("sessions/{id}/move"),
        &json!({ "move": first }).to_string(),
    );
    assert_eq!(status, 200);
    let (status, _) = board.request(
        "POST",
        &format!("sessions/{id}/go"),
        "{\"movetime_ms\": 777, \"depth\": 9, \"nodes\": 1234, \"lines\": 2, \"skill\": 7, \"play\": false}",
    );
    assert_eq!(status, 202);
    let text = board.take_job().expect("a job");
    let job = jiang_web::job::Job::from_json(&text).expect("a job reads back");
    assert_eq!(job.to_json(), parse(&text));
    assert_eq!(job.ask.move_time.as_millis(), 777);
    assert_eq!(
        (job.ask.depth, job.ask.nodes, job.ask.lines, job.ask.skill),
        (Some(9), Some(1234), 2, 7)
    );
    assert!(!job.ask.play);
    assert_eq!(job.game, "fairychess");
    assert_eq!(job.moves.len(), 1);
    assert!(board.take_job().is_none(), "handed out once");
}
