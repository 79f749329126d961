//! `jiang-lab match` against engines that misbehave (`tests/fake_engine.py`, which needs
//! `python3`: without it the engines cannot start and these tests fail) and against jiang
//! itself: every forfeit is counted against the right engine, a hung engine is killed,
//! no engine process is left behind, and the runner's games are reproducible.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lab(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jiang-lab"))
        .args(args)
        .output()
        .expect("jiang-lab runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jiang-lab-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn fake(mode: &str, extra: &str, pidfile: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.py");
    format!(
        "cmd=python3 {} --mode {mode} --pidfile {} {extra}",
        script.display(),
        pidfile.display()
    )
}

fn s(items: &[&str]) -> Vec<String> {
    items.iter().map(|x| x.to_string()).collect()
}

/// Plays a match of engine A (`a_items`) against B and returns its JSON summary and
/// stdout; asserts the exit code.
fn play(
    dir: &Path,
    a_items: &[String],
    b_items: &[String],
    rest: &[&str],
    code: i32,
) -> (Value, String) {
    let json = dir.join("out.json");
    let mut args = vec!["match".to_string(), "--engine".into()];
    args.extend(a_items.iter().cloned());
    args.push("--engine".into());
    args.extend(b_items.iter().cloned());
    args.extend(s(rest));
    args.extend(s(&["--json", json.to_str().unwrap()]));
    let out = lab(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&json).expect("the JSON summary is written");
    (serde_json::from_str(&text).expect("valid JSON"), stdout)
}

/// Every engine process the fakes recorded has ended.
fn assert_none_left(pidfile: &Path) {
    let pids = std::fs::read_to_string(pidfile).unwrap_or_default();
    assert!(!pids.trim().is_empty(), "the fake engines recorded no pid");
    for pid in pids.split_whitespace() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // A zombie (state Z) of someone else's is not ours to reap; a live one is a leak.
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().next());
        assert!(
            stat.is_empty() || state == Some("Z"),
            "engine process {pid} still runs: {stat}"
        );
    }
}

fn per(summary: &Value, engine: &str, key: &str) -> u64 {
    summary["per_engine"][engine][key]
        .as_u64()
        .unwrap_or(u64::MAX)
}

#[test]
fn an_illegal_move_loses_and_is_counted() {
    let dir = scratch("illegal");
    let pids = dir.join("pids");
    let (sum, stdout) = play(
        &dir,
        &s(&["name=bad", &fake("illegal", "--after 1", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &["--games", "2", "--nodes", "100"],
        0,
    );
    assert_eq!(sum["result_A"]["losses"], 2, "{stdout}");
    assert_eq!(per(&sum, "A", "illegal_moves"), 2);
    assert_eq!(per(&sum, "B", "illegal_moves"), 0);
    for g in sum["game_list"].as_array().unwrap() {
        assert_eq!(g["forfeit"]["category"], "illegal");
        assert_eq!(g["forfeit"]["engine"], "bad");
        assert_eq!(
            g["plies"].as_u64(),
            Some(if g["red"] == "bad" { 2 } else { 3 })
        );
        assert!(
            g["detail"].as_str().unwrap().contains("illegal move 'a"),
            "{g}"
        );
    }
    assert!(stdout.contains("forfeit detail: illegal move"), "{stdout}");
    assert_none_left(&pids);
}

#[test]
fn a_move_in_the_other_rank_numbering_is_named_as_such() {
    let dir = scratch("ranks");
    let pids = dir.join("pids");
    let (sum, _) = play(
        &dir,
        &s(&["name=ranks1", &fake("ranks1", "", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &["--games", "2", "--nodes", "100"],
        0,
    );
    // As Red its h1g3 is well-formed and illegal; as Black its h10g8 is not a move at
    // all with ranks 0-9: a bad reply (xqmatch counts both the same way).
    assert_eq!(per(&sum, "A", "illegal_moves"), 1);
    assert_eq!(per(&sum, "A", "bad_replies"), 1);
    let detail = sum["game_list"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("illegal move 'h1g3'"), "{detail}");
    assert!(detail.contains("would be legal with ranks=1"), "{detail}");
    let detail = sum["game_list"][1]["detail"].as_str().unwrap();
    assert!(
        detail.contains("unparsable move in 'bestmove h10g8'"),
        "{detail}"
    );
    // Told the engine's numbering, the same moves are legal: a repetition draw.
    let (sum, _) = play(
        &dir,
        &s(&["name=ranks1", &fake("ranks1", "", &pids), "ranks=1"]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &["--games", "2", "--nodes", "100"],
        0,
    );
    assert_eq!(sum["result_A"]["draws"], 2);
    assert_eq!(sum["game_list"][0]["reason"], "repetition");
    assert_eq!(sum["game_list"][0]["plies"], 8);
    assert_none_left(&pids);
}

#[test]
fn a_slow_move_loses_on_time_and_the_engine_is_used_again() {
    let dir = scratch("slow");
    let pids = dir.join("pids");
    let (sum, _) = play(
        &dir,
        &s(&["name=slow", &fake("late", "--sleep-ms 600", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &["--games", "2", "--movetime", "100", "--margin-ms", "100"],
        0,
    );
    assert_eq!(per(&sum, "A", "time_losses"), 2);
    assert_eq!(sum["result_A"]["losses"], 2);
    let g = &sum["game_list"][0];
    let last = g["moves"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["flags"][0], "timeout", "{g}");
    assert!(last["ms"].as_f64().unwrap() >= 200.0, "{last}");
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .contains("no move within 200 ms (movetime 100 + margin 100 ms)"),
        "{g}"
    );
    // Its move came within the stop grace after `stop`: the process plays game 2 too.
    let started = std::fs::read_to_string(&pids).unwrap().lines().count();
    assert_eq!(started, 2, "no restart after a move that came after stop");
    assert_none_left(&pids);
}

#[test]
fn a_hung_engine_loses_on_time_is_killed_and_restarted() {
    let dir = scratch("hang");
    let pids = dir.join("pids");
    let (sum, _) = play(
        &dir,
        &s(&["name=hung", &fake("hang", "", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &[
            "--games",
            "2",
            "--movetime",
            "100",
            "--margin-ms",
            "100",
            "--stop-grace-ms",
            "200",
        ],
        0,
    );
    assert_eq!(per(&sum, "A", "time_losses"), 2);
    let g = &sum["game_list"][0];
    assert_eq!(
        g["moves"].as_array().unwrap().last().unwrap()["flags"][0],
        "timeout"
    );
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .contains("no move within 200 ms"),
        "{g}"
    );
    // One fresh process per game for the hung engine (it was killed), one for the other.
    let started = std::fs::read_to_string(&pids).unwrap().lines().count();
    assert_eq!(started, 3, "hung engine restarted for game 2");
    assert_none_left(&pids);
}

#[test]
fn the_clock_falls() {
    let dir = scratch("clock");
    let pids = dir.join("pids");
    let (sum, _) = play(
        &dir,
        &s(&["name=slow", &fake("late", "--sleep-ms 250", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &["--games", "2", "--tc", "0.4+0", "--margin-ms", "50"],
        0,
    );
    assert_eq!(per(&sum, "A", "time_losses"), 2);
    let detail = sum["game_list"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("flag fell"), "{detail}");
    // The first slow move was within the clock: it is recorded with the clock left.
    let first = &sum["game_list"][0]["moves"][0];
    assert!(first["clock_ms"].as_i64().unwrap() < 200, "{first}");
    assert_none_left(&pids);
}

#[test]
fn crashes_garbage_and_silence_are_forfeits() {
    let dir = scratch("faults");
    let pids = dir.join("pids");
    for (mode, key, category) in [
        ("crash", "crashes", "crash"),
        ("garbage", "bad_replies", "protocol"),
        ("nomove", "bad_replies", "protocol"),
    ] {
        let (sum, _) = play(
            &dir,
            &s(&["name=bad", &fake(mode, "--after 1", &pids)]),
            &s(&["name=good", &fake("legal", "", &pids)]),
            &["--games", "2", "--nodes", "100"],
            0,
        );
        assert_eq!(per(&sum, "A", key), 2, "{mode}");
        assert_eq!(
            sum["game_list"][1]["forfeit"]["category"], category,
            "{mode}"
        );
        assert_eq!(sum["result_A"]["losses"], 2, "{mode}");
    }
    assert_none_left(&pids);
}

#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let dir = scratch("nostart");
    let out = lab(&s(&[
        "match",
        "--engine",
        "cmd=/nonexistent/engine",
        "--engine",
        "cmd=/nonexistent/other",
        "--nodes",
        "10",
        "--json",
        dir.join("x.json").to_str().unwrap(),
    ]));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("failed to start"));
    // Bad arguments: exit 2 with the usage.
    for bad in [
        &["match", "--nodes", "10"][..],
        &["match", "--engine", "cmd=x", "--engine", "cmd=y"][..],
    ] {
        let out = lab(&s(bad));
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage"));
    }
}

#[test]
fn ucci_resignation_and_time_unit() {
    let dir = scratch("ucci");
    let pids = dir.join("pids");
    let log = dir.join("io.log");
    let (sum, _) = play(
        &dir,
        &s(&[
            "name=quitter",
            &fake("resign", "--after 1", &pids),
            "proto=ucci",
        ]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &[
            "--games",
            "2",
            "--tc",
            "5+0.5",
            "--log",
            log.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(per(&sum, "A", "resignations"), 2);
    assert_eq!(per(&sum, "A", "time_losses"), 0);
    assert_eq!(sum["game_list"][0]["kind"], "resign");
    let io = std::fs::read_to_string(&log).unwrap();
    assert!(io.contains("> ucci"), "UCCI greeting");
    assert!(
        io.contains("> setoption usemillisec true"),
        "declared usemillisec is used"
    );
    assert!(io.contains("> go time 5000 increment 500 opptime"), "{io}");
    assert!(io.contains("> setoption newgame"));
    assert!(
        io.contains("> go wtime 5000 btime"),
        "the UCI engine gets UCI's clock"
    );
    assert_none_left(&pids);
}

fn jiang() -> String {
    // The engine binary sits beside jiang-lab in the target directory.
    let lab = PathBuf::from(env!("CARGO_BIN_EXE_jiang-lab"));
    let path = lab.with_file_name(format!("jiang{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: cargo build --release (the engine) before these tests",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn jiang_against_itself_is_reproducible_and_clean() {
    let dir = scratch("jiang");
    let j = jiang();
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
         rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 2 2\n",
    )
    .unwrap();
    let a = s(&["name=nnue", &format!("cmd={j}")]);
    let b = s(&["name=hce", &format!("cmd={j}"), "option.UseNNUE=false"]);
    let pgn_path = dir.join("games.pgn").display().to_string();
    let rest = [
        "--games",
        "4",
        "--nodes",
        "400",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        &pgn_path,
    ];
    let (first, stdout) = play(&dir, &a, &b, &rest, 0);
    let (second, _) = play(&dir, &a, &b, &rest, 0);
    let moves = |v: &Value| -> Vec<Vec<String>> {
        v["game_list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                g["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m["move"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .collect()
    };
    assert_eq!(moves(&first), moves(&second), "fixed nodes: the same games");
    assert_eq!(first["result_A"], second["result_A"]);
    assert_eq!(first["games"], 4);
    for e in ["A", "B"] {
        for k in ["illegal_moves", "time_losses", "crashes", "bad_replies"] {
            assert_eq!(per(&first, e, k), 0, "{e} {k}");
        }
        assert!(first["per_engine"][e]["avg_depth"].as_f64().unwrap() > 1.0);
    }
    // Pairs: the same opening, colours swapped.
    let g = first["game_list"].as_array().unwrap();
    assert_eq!(
        (g[0]["fen"].clone(), g[0]["red"].clone()),
        (g[1]["fen"].clone(), g[1]["black"].clone())
    );
    assert!(stdout.contains("[4/4] game 4"), "{stdout}");
    assert!(stdout.contains("=== jiang-lab match summary ==="));
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"xiangqi\"]").count(), 4);
    assert!(pgn.contains("1... "), "game 1 starts with Black to move");
}

#[test]
fn the_sprt_stops_the_match_once_it_decides() {
    // Two openings: from the start the bad engine loses as Red (its second move is
    // illegal) and draws as Black (three plies adjudicated); without Red's right horse
    // whoever is Red loses at once. Engine A scores W1 D1 L2 every four games, and the
    // wide test (elo1 200) accepts H0 within a few games.
    let dir = scratch("sprt");
    let pids = dir.join("pids");
    let openings = dir.join("openings.epd");
    std::fs::write(
        &openings,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1\n",
    )
    .unwrap();
    let (sum, stdout) = play(
        &dir,
        &s(&["name=bad", &fake("illegal", "--after 1", &pids)]),
        &s(&["name=good", &fake("legal", "", &pids)]),
        &[
            "--games",
            "100",
            "--nodes",
            "10",
            "--draw-plies",
            "3",
            "--openings",
            openings.to_str().unwrap(),
            "--sprt",
            "elo0=0",
            "elo1=200",
        ],
        0,
    );
    let games = sum["games"].as_u64().unwrap();
    assert!((4..100).contains(&games), "{games} games:\n{stdout}");
    assert_eq!(sum["stop_reason"], "SPRT accepted H0", "{stdout}");
    assert_eq!(sum["sprt"]["verdict"], "H0");
    assert!(sum["sprt"]["llr"].as_f64().unwrap() <= sum["sprt"]["lower"].as_f64().unwrap());
    let r = &sum["result_A"];
    assert!(
        r["wins"].as_u64() > Some(0) && r["draws"].as_u64() > Some(0),
        "{r}"
    );
    assert!(stdout.contains("LLR "), "{stdout}");
    assert_none_left(&pids);
}
