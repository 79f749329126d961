//! End-to-end protocol tests: the real `jiang` binary driven over pipes, as a GUI would
//! (UCI, UCCI, the Cyclone dialect and the terminal commands). Moves the engine answers
//! are checked for legality with the library.
//!
//! Timings are printed (see them with `cargo test --release --test protocol -- --nocapture`).

#[path = "common/engine.rs"]
mod engine;
#[path = "common/rng.rs"]
mod rng;

use engine::{assert_legal, assert_no_panic, ms, position, Engine, SLOW};
use jiang::search::skill;
use jiang::xiangqi::{Position, START_FEN};
use rng::Rng;
use std::time::{Duration, Instant};

/// The `info` lines that carry a search report (depth and pv).
fn search_infos(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
        .collect()
}

/// The UCCI score of an `info depth … score N pv …` line, if it is a plain integer.
fn ucci_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "score")?;
    words.get(i + 1)?.parse().ok()
}

fn uci_handshake(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok")
}

fn ucci_handshake(e: &mut Engine) -> Vec<String> {
    e.send("ucci");
    e.read_while_waiting("ucciok", SLOW, |l| l == "ucciok")
}

/// Asserts that a UCCI search printed integer scores without `cp`/`mate` keywords.
#[track_caller]
fn assert_ucci_infos(e: &Engine, lines: &[String]) {
    let infos = search_infos(lines);
    if infos.is_empty() {
        e.fail("no 'info depth … score … pv …' line");
    }
    for l in &infos {
        if l.contains(" cp ") || l.contains(" mate ") || ucci_score(l).is_none() {
            e.fail(&format!("not a UCCI score: {l}"));
        }
    }
}

/// Asserts that a UCI search printed `score cp|mate`, `nodes` and `pv`.
#[track_caller]
fn assert_uci_infos(e: &Engine, lines: &[String]) {
    let infos = search_infos(lines);
    if infos.is_empty() {
        e.fail("no 'info depth … pv …' line");
    }
    for l in &infos {
        let ok = (l.contains(" score cp ") || l.contains(" score mate "))
            && l.contains(" nodes ")
            && l.contains(" pv ");
        if !ok {
            e.fail(&format!(
                "UCI info line lacks score cp/mate, nodes or pv: {l}"
            ));
        }
    }
}

#[test]
fn uci_handshake_and_search() {
    let mut e = Engine::start();
    let lines = uci_handshake(&mut e);
    let has = |p: &str| lines.iter().any(|l| l.starts_with(p));
    for p in [
        "id name jiang",
        "option name Hash type spin",
        "option name Threads",
        "option name MaxMoveTime",
        "option name RepetitionJudge type check default true",
    ] {
        if !has(p) {
            e.fail(&format!("no line starting with '{p}' before uciok"));
        }
    }
    e.sync(SLOW);
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 4");
    let (mv, lines) = e.bestmove(SLOW);
    assert_uci_infos(&e, &lines);
    assert_legal(&e, &position(None, &["h2e2", "h9g7"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn ucci_handshake_search_and_quit() {
    let mut e = Engine::start();
    let lines = ucci_handshake(&mut e);
    if !lines.iter().any(|l| l.starts_with("id name")) {
        e.fail("no 'id name' line");
    }
    if !lines
        .iter()
        .any(|l| l == "option usemillisec type check default true")
    {
        e.fail("no 'option usemillisec type check default true' line");
    }
    if let Some(l) = lines.iter().find(|l| l.starts_with("option name")) {
        e.fail(&format!("UCCI option lines have no 'name' keyword: {l}"));
    }
    e.send("go depth 3");
    let (mv, lines) = e.bestmove(SLOW);
    assert_ucci_infos(&e, &lines);
    assert_legal(&e, &Position::startpos(), &mv);
    e.send("quit");
    e.expect_line("bye", ms(2000), |l| l == "bye");
    let status = e.wait_exit(ms(2000));
    if !status.success() {
        e.fail(&format!("exit status {status}"));
    }
    assert_no_panic(&e);
}

/// The RepetitionJudge option reaches the search: Red can only check perpetually, which
/// loses with the judge on and draws with it off.
#[test]
fn repetition_judge_option() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("setoption name Contempt value 0");
    let last_score = |e: &mut Engine, judge: &str| -> String {
        e.send(&format!("setoption name RepetitionJudge value {judge}"));
        e.send("position fen 4k4/9/7R1/9/9/9/9/1r7/r8/3K5 w - - 0 1");
        e.send("go depth 10");
        let (_, lines) = e.bestmove(SLOW);
        let Some(info) = lines.iter().rev().find(|l| l.contains(" score ")) else {
            e.fail("no info line with a score");
        };
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "score").unwrap_or(0);
        words[at + 1..words.len().min(at + 3)].join(" ")
    };
    let on = last_score(&mut e, "true");
    if !on.starts_with("mate -") {
        e.fail(&format!("judge on: expected a lost mate score, got '{on}'"));
    }
    let off = last_score(&mut e, "false");
    if off != "cp 0" {
        e.fail(&format!("judge off: expected 'cp 0', got '{off}'"));
    }
    e.send("setoption name RepetitionJudge value maybe");
    e.expect_line("complaint", SLOW, |l| {
        l.starts_with("info string") && l.contains("RepetitionJudge")
    });
    assert_no_panic(&e);
}

/// VinXiangQi writes `uci` and `ucci` at once and then speaks UCCI.
#[test]
fn uci_then_ucci_back_to_back() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("ucci");
    e.expect_line("uciok", SLOW, |l| l == "uciok");
    e.expect_line("ucciok", SLOW, |l| l == "ucciok");
    e.send("position startpos moves b2e2");
    e.send("go depth 3");
    let (mv, lines) = e.bestmove(SLOW);
    assert_ucci_infos(&e, &lines);
    assert_legal(&e, &position(None, &["b2e2"]), &mv);
}

/// UCI2WB's "Cyclone dialect": position lines without the word `position`, side `r`.
#[test]
fn cyclone_dialect_fen_line() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2");
    e.send("go depth 3");
    let (mv, lines) = e.bestmove(SLOW);
    if let Some(l) = lines.iter().find(|l| l.starts_with("info string")) {
        e.fail(&format!("the Cyclone line was refused: {l}"));
    }
    assert_uci_infos(&e, &lines);
    let pos = position(Some(START_FEN), &["h2e2"]);
    assert_legal(&e, &pos, &mv);
}

/// A pseudo-random legal game of `plies` plies that never reaches a position without a
/// legal move.
fn random_game(seed: u64, plies: usize) -> (Position, Vec<String>) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal: Vec<_> = pos.legal_moves().iter().copied().collect();
        assert!(
            !legal.is_empty(),
            "the game reached a position without moves"
        );
        let start = rng.below(legal.len());
        let mut played = false;
        for k in 0..legal.len() {
            let m = legal[(start + k) % legal.len()];
            pos.make_move(m);
            if !pos.legal_moves().is_empty() {
                moves.push(m.to_string());
                played = true;
                break;
            }
            pos.unmake_move(m);
        }
        assert!(played, "every move leads to a position without moves");
    }
    (pos, moves)
}

#[test]
fn long_move_list() {
    let (pos, moves) = random_game(0x9E37_79B9_7F4A_7C15, 160);
    // Cross-check with an independent replay of the text.
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    assert_eq!(position(None, &refs).to_fen(), pos.to_fen());
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let before = e.sync(SLOW);
    if let Some(l) = before.iter().find(|l| l.starts_with("info string")) {
        e.fail(&format!(
            "the {}-ply move list was refused: {l}",
            moves.len()
        ));
    }
    e.send("go depth 3");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &pos, &mv);
    e.send("d");
    let board = e.sync(SLOW);
    let fen = format!("FEN: {}", pos.to_fen());
    if !board.contains(&fen) {
        e.fail(&format!("`d` does not show '{fen}'"));
    }
}

#[test]
fn isready_and_stop_during_infinite_search() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos moves h2e2");
    e.send("go infinite");
    e.expect_line("first info line", SLOW, |l| l.starts_with("info depth"));
    let t = Instant::now();
    e.send("isready");
    let lines = e.read_while_waiting("readyok", SLOW, |l| l == "readyok");
    let isready_ms = t.elapsed().as_millis();
    println!("isready latency during search: {isready_ms} ms");
    if lines.iter().any(|l| l.starts_with("bestmove")) {
        e.fail("an infinite search answered bestmove on isready");
    }
    if isready_ms > 200 {
        e.fail(&format!("readyok took {isready_ms} ms (limit 200)"));
    }
    // Still thinking: no bestmove by itself.
    let more = e.drain(ms(150));
    if more.iter().any(|l| l.starts_with("bestmove")) {
        e.fail("an infinite search answered before stop");
    }
    let t = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(SLOW);
    let stop_ms = t.elapsed().as_millis();
    println!("stop latency (go infinite): {stop_ms} ms");
    if stop_ms > 200 {
        e.fail(&format!(
            "bestmove took {stop_ms} ms after stop (limit 200)"
        ));
    }
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    // Exactly one answer.
    if e.drain(ms(100)).iter().any(|l| l.starts_with("bestmove")) {
        e.fail("two bestmove lines for one go");
    }
}

#[test]
fn stop_during_deep_search() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos moves h2e2 h7e7 h0g2");
    e.send("go depth 60");
    e.expect_line("first info line", SLOW, |l| l.starts_with("info depth"));
    let more = e.drain(ms(300));
    if more.iter().any(|l| l.starts_with("bestmove")) {
        e.fail("depth 60 finished in 300 ms?");
    }
    let t = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(SLOW);
    let stop_ms = t.elapsed().as_millis();
    println!("stop latency (go depth 60): {stop_ms} ms");
    if stop_ms > 200 {
        e.fail(&format!(
            "bestmove took {stop_ms} ms after stop (limit 200)"
        ));
    }
    assert_legal(&e, &position(None, &["h2e2", "h7e7", "h0g2"]), &mv);
}

#[test]
fn ponder_hit_and_ponder_stop() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    let moves = ["h2e2", "h9g7"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go ponder wtime 2000 btime 2000");
    if e.drain(ms(300)).iter().any(|l| l.starts_with("bestmove")) {
        e.fail("a ponder search answered before ponderhit");
    }
    let t = Instant::now();
    e.send("ponderhit");
    let (mv, _) = e.bestmove(ms(2500));
    println!("bestmove {} ms after ponderhit", t.elapsed().as_millis());
    assert_legal(&e, &position(None, &moves), &mv);

    e.send("go ponder wtime 2000 btime 2000");
    if e.drain(ms(300)).iter().any(|l| l.starts_with("bestmove")) {
        e.fail("a ponder search answered before stop");
    }
    let t = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(ms(1000));
    println!(
        "bestmove {} ms after stop (ponder)",
        t.elapsed().as_millis()
    );
    assert_legal(&e, &position(None, &moves), &mv);

    // The same in UCCI (milliseconds mode is the default).
    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send("position startpos moves h2e2");
    e.send("go ponder time 2000 increment 0");
    if e.drain(ms(300)).iter().any(|l| l.starts_with("bestmove")) {
        e.fail("a UCCI ponder search answered before ponderhit");
    }
    e.send("ponderhit");
    let (mv, _) = e.bestmove(ms(2500));
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
}

/// Milliseconds from writing `go` to reading `bestmove`.
#[track_caller]
fn timed_go(e: &mut Engine, go: &str, timeout: Duration) -> (String, u128) {
    let t = Instant::now();
    e.send(go);
    let (mv, _) = e.bestmove(timeout);
    (mv, t.elapsed().as_millis())
}

#[test]
fn ten_second_cap_uci_clock() {
    if cfg!(debug_assertions) {
        println!("skipped: the 10 s cap test runs only with --release");
        return;
    }
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos moves h2e2 h9g7");
    let (mv, t) = timed_go(&mut e, "go wtime 600000 btime 600000", ms(15_000));
    println!("UCI go wtime 600000 btime 600000: bestmove after {t} ms");
    assert_legal(&e, &position(None, &["h2e2", "h9g7"]), &mv);
    if t >= 10_000 {
        e.fail(&format!("bestmove after {t} ms (cap 10 s)"));
    }
}

#[test]
fn ten_second_cap_ucci_clock() {
    if cfg!(debug_assertions) {
        println!("skipped: the 10 s cap test runs only with --release");
        return;
    }
    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send("position startpos moves b2e2");
    let (mv, t) = timed_go(&mut e, "go time 600000 movestogo 1", ms(15_000));
    println!("UCCI go time 600000 movestogo 1: bestmove after {t} ms");
    assert_legal(&e, &position(None, &["b2e2"]), &mv);
    if t >= 10_000 {
        e.fail(&format!("bestmove after {t} ms (cap 10 s)"));
    }
}

#[test]
fn max_move_time_option() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("setoption name MaxMoveTime value 1000");
    let lines = e.sync(SLOW);
    if let Some(l) = lines.iter().find(|l| l.starts_with("info string")) {
        e.fail(&format!("MaxMoveTime 1000 was not accepted silently: {l}"));
    }
    e.send("position startpos");
    let (mv, t) = timed_go(&mut e, "go wtime 600000 btime 600000", ms(5000));
    println!("MaxMoveTime 1000, go wtime 600000: bestmove after {t} ms");
    assert_legal(&e, &Position::startpos(), &mv);
    if t > 1200 {
        e.fail(&format!(
            "bestmove after {t} ms with MaxMoveTime 1000 (limit 1200)"
        ));
    }
}

#[test]
fn movetime_is_respected() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos moves h2e2 h7e7");
    let (mv, t) = timed_go(&mut e, "go movetime 300", ms(5000));
    println!("go movetime 300: bestmove after {t} ms");
    assert_legal(&e, &position(None, &["h2e2", "h7e7"]), &mv);
    if t > 450 {
        e.fail(&format!(
            "bestmove after {t} ms for movetime 300 (limit 450)"
        ));
    }
    // A fixed move time is meant to be used, not half of it.
    if t < 200 {
        e.fail(&format!("bestmove after only {t} ms for movetime 300"));
    }
}

#[test]
fn banmoves_forbids_the_best_move_until_next_position() {
    // Red takes a free chariot on the open a-file.
    let fen = "r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let pos = position(Some(fen), &[]);
    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (best, _) = e.bestmove(SLOW);
    if best != "a0a9" {
        e.fail(&format!("expected the capture a0a9, got {best}"));
    }
    e.send(&format!("banmoves {best}"));
    let lines = e.sync(SLOW);
    if let Some(l) = lines.iter().find(|l| l.starts_with("info string")) {
        e.fail(&format!("banmoves {best} refused: {l}"));
    }
    e.send("go depth 4");
    let (other, _) = e.bestmove(SLOW);
    assert_legal(&e, &pos, &other);
    if other == best {
        e.fail(&format!("the banned move {best} was played"));
    }
    // A new `position` clears the ban.
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (again, _) = e.bestmove(SLOW);
    if again != best {
        e.fail(&format!(
            "after a new position expected {best} again, got {again}"
        ));
    }
}

#[test]
fn no_legal_move_answers() {
    // Black is checkmated: chariots on a9 (check along the back rank) and a8.
    let fen = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1";
    let pos = position(Some(fen), &[]);
    assert!(
        pos.legal_moves().is_empty() && pos.in_check(),
        "test position must be mate"
    );

    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send("position startpos");
    e.send("stop");
    let line = e.expect_line("nobestmove for an idle stop", ms(2000), |l| {
        l == "nobestmove" || l.starts_with("bestmove")
    });
    if line != "nobestmove" {
        e.fail("idle stop in UCCI must answer nobestmove");
    }
    e.send("go depth 0");
    let lines = e.read_while_waiting("answer to go depth 0", SLOW, |l| {
        l == "nobestmove" || l.starts_with("bestmove")
    });
    if lines.last().unwrap() != "nobestmove" {
        e.fail("UCCI go depth 0 must answer nobestmove");
    }
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.read_while_waiting("answer in a mated position", SLOW, |l| {
        l == "nobestmove" || l.starts_with("bestmove")
    });
    if lines.last().unwrap() != "nobestmove" {
        e.fail("UCCI must answer nobestmove when there is no legal move");
    }

    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let line = e.expect_line("bestmove", SLOW, |l| l.starts_with("bestmove"));
    if line != "bestmove (none)" {
        e.fail("UCI must answer 'bestmove (none)' when there is no legal move");
    }
    assert_no_panic(&e);
}

/// Sends a bad input (bytes, newline included) and checks: exactly `strings` info string
/// lines before `readyok`, each containing `says`, and the process alive.
#[track_caller]
fn bad_input(e: &mut Engine, bytes: &[u8], strings: usize, says: &str) {
    e.send_raw(bytes);
    let lines = e.sync(SLOW);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
    if infos.len() != strings {
        e.fail(&format!(
            "{} info string lines for '{shown}', expected {strings}",
            infos.len()
        ));
    }
    if let Some(l) = infos.iter().find(|l| !l.contains(says)) {
        e.fail(&format!(
            "the complaint about '{shown}' does not say '{says}': {l}"
        ));
    }
    if !e.is_running() {
        e.fail("the engine exited on bad input");
    }
}

#[test]
fn bad_input_is_survived_and_reported_once() {
    let moves = ["h2e2", "h9g7"];
    let pos = position(None, &moves);
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.sync(SLOW);

    let mut garbage = Vec::with_capacity(100 * 1024 + 1);
    while garbage.len() < 100 * 1024 {
        garbage.extend_from_slice(b"zq#x7 ");
    }
    garbage.push(b'\n');
    let fen8 = "rnbakabnr/9/1c5c1/p1p1p1p1p/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let two_kings = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBKKABNR w";
    let cases: Vec<(Vec<u8>, usize, &str)> = vec![
        (b"frobnicate\n".to_vec(), 1, "frobnicate"),
        (b"position fen garbage\n".to_vec(), 1, "position"),
        (format!("position fen {fen8}\n").into_bytes(), 1, "position"),
        (
            format!("position fen {two_kings}\n").into_bytes(),
            1,
            "king",
        ),
        (b"position startpos moves h2e2 h2e2\n".to_vec(), 1, "h2e2"),
        (b"position startpos moves zz99\n".to_vec(), 1, "position"),
        (b"setoption name Hash value -5\n".to_vec(), 1, "range"),
        // Clamped to the maximum (a real allocation), then back to a small table.
        (b"setoption name Hash value 99999999\n".to_vec(), 1, "range"),
        (b"setoption name Hash value 16\n".to_vec(), 0, ""),
        (
            b"setoption name Threads value banana\n".to_vec(),
            1,
            "banana",
        ),
        (b"\n".to_vec(), 0, ""),
        (garbage, 1, "unknown"),
        (b"\xff\xfe\xfd\x80 \xc3\x28\n".to_vec(), 1, "unknown"),
        (b"banmoves zz11\n".to_vec(), 1, "zz11"),
    ];
    for (bytes, strings, says) in &cases {
        bad_input(&mut e, bytes, *strings, says);
    }

    // `go depth banana`: one complaint, then a search without a limit that still answers.
    e.send("go depth banana");
    let (mv, lines) = e.bestmove(SLOW);
    let n = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    if n != 1 {
        e.fail(&format!(
            "{n} info string lines for 'go depth banana', expected 1"
        ));
    }
    assert_legal(&e, &pos, &mv);

    // A negative clock (a flag fell): a fast legal answer.
    let t = Instant::now();
    e.send("go wtime -100 btime -100");
    let (mv, lines) = e.bestmove(SLOW);
    let t = t.elapsed().as_millis();
    let n = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    println!("go wtime -100 btime -100: bestmove after {t} ms, {n} info string lines");
    assert_legal(&e, &pos, &mv);
    if t > 500 {
        e.fail(&format!(
            "negative clock: bestmove after {t} ms (limit 500)"
        ));
    }
    if n > 1 {
        e.fail("more than one complaint about a negative clock");
    }

    // The position in force is still the last valid one.
    e.send("d");
    let board = e.sync(SLOW);
    let fen = format!("FEN: {}", pos.to_fen());
    if !board.contains(&fen) {
        e.fail(&format!("after the bad input the position is not '{fen}'"));
    }
    e.send("go depth 2");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &pos, &mv);
    if !e.is_running() {
        e.fail("the engine exited");
    }
    assert_no_panic(&e);
}

#[test]
fn eof_after_go_still_answers_then_exits() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos moves c3c4");
    e.send("go depth 3");
    e.close_stdin();
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &position(None, &["c3c4"]), &mv);
    let status = e.wait_exit(ms(2000));
    if !status.success() {
        e.fail(&format!("exit status {status} after EOF"));
    }
    assert_no_panic(&e);
}

#[test]
fn terminal_commands_before_handshake() {
    let mut e = Engine::start();
    let start = Position::startpos();

    e.send("d");
    let board = e.sync(SLOW);
    if !board.iter().any(|l| l.contains("a b c d e f g h i")) {
        e.fail("`d` shows no file letters a b c d e f g h i");
    }
    let fen = format!("FEN: {}", start.to_fen());
    if !board.contains(&fen) {
        e.fail(&format!("`d` shows no '{fen}' line"));
    }

    e.send("help");
    let help = e.sync(SLOW).join("\n");
    for cmd in ["position", "go", "stop", "perft", "moves", "quit"] {
        if !help.contains(cmd) {
            e.fail(&format!("`help` does not mention '{cmd}'"));
        }
    }

    e.send("moves");
    let out = e.sync(SLOW);
    let line = out
        .iter()
        .find(|l| l.contains("legal moves"))
        .unwrap_or_else(|| e.fail("`moves` printed no move list"));
    let listed: Vec<&str> = line
        .split_once(':')
        .map_or("", |(_, m)| m)
        .split_whitespace()
        .collect();
    if !line.starts_with("44 ") || listed.len() != 44 {
        e.fail(&format!("expected 44 legal moves, got: {line}"));
    }
    for m in &listed {
        assert_legal(&e, &start, m);
    }

    e.send("perft 3");
    let out = e.sync(SLOW);
    if !out.iter().any(|l| l == "Nodes searched: 79666") {
        e.fail("`perft 3` did not print 'Nodes searched: 79666'");
    }

    e.send("eval");
    let out = e.sync(SLOW);
    if out.len() < 3 || !out.join("\n").to_ascii_lowercase().contains("material") {
        e.fail("`eval` printed no breakdown");
    }

    e.send("go depth 3");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &start, &mv);
    let errors: Vec<_> = board
        .iter()
        .chain(out.iter())
        .filter(|l| l.starts_with("error") || l.starts_with("info string"))
        .collect();
    if !errors.is_empty() {
        e.fail(&format!("complaints in terminal mode: {errors:?}"));
    }
    assert_no_panic(&e);
}

#[test]
fn probe_after_search_shows_the_hash_move() {
    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send("position startpos");
    e.send("go depth 5");
    let (best, _) = e.bestmove(SLOW);
    e.send("probe startpos");
    let line = e.expect_line("pophash", SLOW, |l| l.starts_with("pophash"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(i) = words.iter().position(|w| *w == "bestmove") else {
        e.fail("pophash has no bestmove after a search of that position");
    };
    let mv = words.get(i + 1).copied().unwrap_or("");
    assert_legal(&e, &Position::startpos(), mv);
    if mv != best {
        e.fail(&format!(
            "pophash bestmove {mv} differs from the search's {best}"
        ));
    }
}

/// The option tables as the handshakes show them: every option UCI, UCCI and CECP list can
/// be set back to its listed default without a complaint (each layer's table and its
/// on-change agree), a value of the wrong type gets one line naming the option, and the
/// engine still answers afterwards.
#[test]
fn every_listed_option_takes_its_default_and_refuses_nonsense() {
    let mut e = Engine::start();
    // UCI: `option name NAME type T default D ...`.
    let lines = uci_handshake(&mut e);
    let options: Vec<(String, String, String)> = lines
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("option name ")?;
            let (name, rest) = rest.split_once(" type ")?;
            let mut words = rest.split_whitespace();
            let kind = words.next()?.to_string();
            let default = rest
                .split_once("default ")
                .map(|(_, d)| d.split_whitespace().next().unwrap_or("").to_string())
                .unwrap_or_default();
            Some((name.to_string(), kind, default))
        })
        .collect();
    for wanted in [
        "Hash",
        "Threads",
        "MultiPV",
        "UseNNUE",
        "Rules",
        "ThreeFallibility",
    ] {
        assert!(
            options.iter().any(|(n, _, _)| n == wanted),
            "uci lists {wanted}: {options:?}"
        );
    }
    for (name, kind, default) in &options {
        if name == "UCI_Variant" || kind == "button" {
            continue;
        }
        e.send(&format!("setoption name {name} value {default}"));
        // Another game's option is kept, and the user told so (once): not a complaint.
        let complaints: Vec<String> = e
            .sync(SLOW)
            .into_iter()
            .filter(|l| l.starts_with("info string") && !l.ends_with("kept for when it is played"))
            .collect();
        assert!(complaints.is_empty(), "{name} = {default}: {complaints:?}");
        if kind == "spin" || kind == "check" || kind == "combo" {
            e.send(&format!("setoption name {name} value nonsense-value"));
            let said: Vec<String> = e
                .sync(SLOW)
                .into_iter()
                .filter(|l| l.starts_with("info string"))
                .collect();
            assert_eq!(said.len(), 1, "{name}: {said:?}");
            assert!(said[0].contains(name.as_str()), "{name}: {said:?}");
        }
    }
    e.send("position startpos");
    e.send("go depth 3");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &position(None, &[]), &mv);

    // UCCI lists the Xiangqi options under its own names, and takes them back.
    let lines = ucci_handshake(&mut e);
    for wanted in [
        "option hashsize type spin",
        "option usennue type check",
        "option rules type combo",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(wanted)),
            "{wanted}: {lines:?}"
        );
    }
    assert!(
        !lines.iter().any(|l| l.contains("threefallibility")),
        "{lines:?}"
    );
    e.send("setoption usennue false");
    e.send("setoption rules alphachess");
    let said = e.sync(SLOW);
    assert!(
        !said.iter().any(|l| l.starts_with("info string")),
        "{said:?}"
    );

    // CECP: the same options as `feature option=...`, set with `option NAME=VALUE`.
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_while_waiting("done=1", SLOW, |l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l == "feature option=\"Contempt -spin 10 0 200\""),
        "{features:?}"
    );
    e.send("option Contempt=20");
    e.send("option Contempt=many");
    e.send("ping 7");
    let said = e.read_until("pong 7", SLOW);
    let comments: Vec<&String> = said.iter().filter(|l| l.starts_with('#')).collect();
    assert_eq!(comments.len(), 1, "{said:?}");
    assert!(comments[0].contains("Contempt"), "{comments:?}");
    assert_no_panic(&e);
}

/// The `wdl W D L` of a UCI score line and its `cp` score (`None` for a mate).
fn wdl_of(line: &str) -> Option<([u32; 3], Option<i32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "wdl")?;
    let n = |k: usize| words.get(i + k)?.parse::<u32>().ok();
    let cp = words
        .iter()
        .position(|w| *w == "cp")
        .and_then(|k| words.get(k + 1)?.parse().ok());
    Some(([n(1)?, n(2)?, n(3)?], cp))
}

#[test]
fn show_wdl_puts_win_draw_loss_on_every_score_line() {
    let mut e = Engine::start();
    let lines = uci_handshake(&mut e);
    if !lines
        .iter()
        .any(|l| l == "option name UCI_ShowWDL type check default false")
    {
        e.fail("UCI_ShowWDL is not in the UCI handshake");
    }
    e.send("setoption name UCI_ShowWDL value true");
    // (material, cp, win) of every exact line, to check that the win rises with the score.
    let mut seen: Vec<(u32, i32, u32)> = Vec::new();
    let mut positions = 0;
    for seed in 0..240u64 {
        let (pos, moves) = random_game(0xD1B5_4A32_D192_ED03 ^ seed, (seed % 90) as usize);
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.send(&format!("position startpos moves {}", texts.join(" ")));
        e.send("go depth 3");
        let (_, lines) = e.bestmove(SLOW);
        positions += 1;
        let material = jiang::xiangqi::wdl::material(&pos);
        for l in lines.iter().filter(|l| l.contains(" score ")) {
            let Some(([w, d, loss], cp)) = wdl_of(l) else {
                e.fail(&format!("a score line without wdl: {l}"));
            };
            if w + d + loss != 1000 {
                e.fail(&format!("wdl does not sum to 1000: {l}"));
            }
            match cp {
                Some(cp) if !l.contains("bound") => seen.push((material, cp, w)),
                Some(_) => {}
                None if l.contains(" mate -") => assert_eq!([w, d, loss], [0, 0, 1000], "{l}"),
                None => assert_eq!([w, d, loss], [1000, 0, 0], "{l}"),
            }
        }
    }
    assert!(positions >= 200 && seen.len() >= 200, "{}", seen.len());
    seen.sort();
    for pair in seen.windows(2) {
        let ((m1, s1, w1), (m2, s2, w2)) = (pair[0], pair[1]);
        assert!(m1 != m2 || s1 == s2 || w1 <= w2, "{pair:?}");
    }
    // Off again: no wdl.
    e.send("setoption name UCI_ShowWDL value false");
    e.send("position startpos");
    e.send("go depth 3");
    let (_, lines) = e.bestmove(SLOW);
    if lines.iter().any(|l| l.contains(" wdl ")) {
        e.fail("wdl shown with UCI_ShowWDL off");
    }
    assert_no_panic(&e);
}

#[test]
fn go_mate_stops_at_a_mate_short_enough() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    // Mate in 3 (checked with Fairy-Stockfish 11.1, see tools/xiangqi/mates.txt).
    let fen = "9/5k3/4R4/5N3/9/9/9/4B4/2n1Ac3/3K1AB2 w - - 1 70";
    e.send(&format!("position fen {fen}"));
    let start = Instant::now();
    e.send("go mate 3");
    let (mv, lines) = e.bestmove(SLOW);
    let took = start.elapsed();
    let infos = search_infos(&lines);
    let last = infos.last().unwrap_or_else(|| e.fail("no info line"));
    if !last.contains(" score mate 3 ") {
        e.fail(&format!("the last line is not mate 3: {last}"));
    }
    assert_eq!(mv, "e7e8");
    // It stopped at the mate, not at the cap on any move (10 s).
    assert!(took < Duration::from_secs(5), "{took:?}");
    // Without a mate short enough it would search on: a depth limit still applies.
    e.send("go mate 2 depth 6");
    let (_, lines) = e.bestmove(SLOW);
    let infos = search_infos(&lines);
    assert!(infos.last().is_some_and(|l| l.starts_with("info depth 6 ")));
    assert_no_panic(&e);
}

#[test]
fn currmove_only_on_long_searches() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos");
    e.send("go depth 3");
    let (_, lines) = e.bestmove(SLOW);
    if let Some(l) = lines.iter().find(|l| l.contains("currmove")) {
        e.fail(&format!("a fast search printed {l}"));
    }
    e.send("go movetime 2500");
    let (_, lines) = e.bestmove(SLOW);
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    if current.is_empty() {
        e.fail("a 2.5 s search printed no currmove");
    }
    let start = Position::startpos();
    for l in current {
        let words: Vec<&str> = l.split_whitespace().collect();
        let ok = matches!(
            words.as_slice(),
            ["info", "depth", d, "currmove", m, "currmovenumber", n]
                if d.parse::<i32>().is_ok()
                    && n.parse::<usize>().is_ok_and(|n| (1..=44).contains(&n))
                    && start.legal_moves().iter().any(|lm| lm.to_string() == *m)
        );
        if !ok {
            e.fail(&format!("not a currmove line: {l}"));
        }
    }
    assert_no_panic(&e);
}

#[test]
fn another_games_option_is_kept_and_said_so_once() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("setoption name UCI_Variant value baroque");
    e.send("setoption name UseNNUE value false");
    let said: Vec<String> = e
        .sync(SLOW)
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(
        said,
        ["info string UseNNUE applies to xiangqi, not baroque; kept for when it is played"]
    );
    // Its own game's option: nothing to say.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("setoption name UseNNUE value false");
    let said: Vec<String> = e
        .sync(SLOW)
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert!(said.is_empty(), "{said:?}");
    assert_no_panic(&e);
}

/// The first move of every line's pv and the answer: all must be among `allowed`.
#[track_caller]
fn assert_root_moves_within(
    e: &Engine,
    mode: &str,
    best: &str,
    lines: &[String],
    allowed: &[&str],
) {
    if !allowed.contains(&best) {
        e.fail(&format!("{mode}: bestmove {best} is not among {allowed:?}"));
    }
    for l in search_infos(lines) {
        let first = l
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split_whitespace().next());
        if first.is_some_and(|m| !allowed.contains(&m)) {
            e.fail(&format!("{mode}: a line starts outside {allowed:?}: {l}"));
        }
    }
}

#[test]
fn searchmoves_and_banmoves_hold_in_every_search_mode() {
    // UCI searchmoves: fixed depth, MultiPV, infinite, ponder.
    let allowed = ["a0a1", "i0i1", "b0c2"];
    let only = format!("searchmoves {}", allowed.join(" "));
    let mut e = Engine::start();
    uci_handshake(&mut e);
    e.send("position startpos");
    e.send(&format!("go depth 5 {only}"));
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "depth", &best, &lines, &allowed);
    e.send("setoption name MultiPV value 3");
    e.send(&format!("go depth 4 {only}"));
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "multipv", &best, &lines, &allowed);
    let multipv3 = search_infos(&lines)
        .iter()
        .any(|l| l.contains(" multipv 3 "));
    assert!(multipv3, "three lines expected: {lines:?}");
    e.send("setoption name MultiPV value 1");
    e.send(&format!("go infinite {only}"));
    e.drain(ms(400));
    e.send("stop");
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "infinite", &best, &lines, &allowed);
    e.send(&format!("go ponder wtime 3000 btime 3000 {only}"));
    e.drain(ms(300));
    e.send("ponderhit");
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "ponder", &best, &lines, &allowed);
    assert_no_panic(&e);

    // UCCI banmoves: fixed depth, infinite, ponder (the ban lasts until the position
    // changes).
    let start = Position::startpos();
    let everything: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    let banned = ["h2e2", "b2e2", "h0g2", "b0c2", "c3c4", "g3g4"];
    let allowed: Vec<&str> = everything
        .iter()
        .map(String::as_str)
        .filter(|m| !banned.contains(m))
        .collect();
    let mut e = Engine::start();
    ucci_handshake(&mut e);
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 5");
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "ucci depth", &best, &lines, &allowed);
    e.send("go infinite");
    e.drain(ms(400));
    e.send("stop");
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "ucci infinite", &best, &lines, &allowed);
    e.send("go ponder time 3000 increment 0");
    e.drain(ms(300));
    e.send("ponderhit");
    let (best, lines) = e.bestmove(SLOW);
    assert_root_moves_within(&e, "ucci ponder", &best, &lines, &allowed);
    assert_no_panic(&e);
}

#[test]
fn skill_levels_vary_below_full_strength_and_keep_material_from_level_10() {
    let mut e = Engine::start();
    let lines = uci_handshake(&mut e);
    let (min, max) = (skill::MIN_ELO, skill::MAX_ELO);
    for wanted in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {max} min {min} max {max}"),
    ] {
        if !lines.contains(&wanted) {
            e.fail(&format!("the handshake lacks '{wanted}'"));
        }
    }
    // Level 0 from the start position: not always the same move.
    e.send("setoption name Skill Level value 0");
    let seen = start_moves(&mut e, 12);
    assert!(seen.len() >= 2, "level 0 always played {seen:?}");
    // A free chariot: taken at every level from 10 on, by Skill Level or by Elo.
    let fen = "r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    for level in 10..=20 {
        e.send(&format!("setoption name Skill Level value {level}"));
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        let (mv, _) = e.bestmove(SLOW);
        assert_eq!(mv, "a0a9", "level {level}");
    }
    e.send("setoption name UCI_LimitStrength value true");
    expect_level_note(&mut e, skill::MAX_LEVEL - 1, "UCI_LimitStrength true");
    let elo = skill::LEVEL_ELO[usize::from(skill::SAFE_FROM_LEVEL)];
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    expect_level_note(&mut e, skill::SAFE_FROM_LEVEL, "UCI_Elo");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 4");
    let (mv, _) = e.bestmove(SLOW);
    assert_eq!(mv, "a0a9", "Elo {elo}");
    assert_no_panic(&e);
}

/// The legal moves played from the start position in `games` searches to depth 3 (a
/// level or randomness that chooses among lines varies them).
fn start_moves(e: &mut Engine, games: usize) -> std::collections::HashSet<String> {
    let mut seen = std::collections::HashSet::new();
    for _ in 0..games {
        e.send("position startpos");
        e.send("go depth 3");
        let (mv, _) = e.bestmove(SLOW);
        assert_legal(e, &Position::startpos(), &mv);
        seen.insert(mv);
    }
    seen
}

/// Reads the `info string` an option that changed the level played answers, and checks it
/// names `level` and the Elo the level announces.
#[track_caller]
fn expect_level_note(e: &mut Engine, level: u8, what: &str) {
    let told = e.read_until("info string", SLOW);
    let expected = match skill::LEVEL_ELO.get(usize::from(level)) {
        Some(elo) => {
            format!("info string playing at Skill Level {level} (Elo {elo} on jiang's ladder)")
        }
        None => "info string playing at full strength".to_string(),
    };
    assert_eq!(
        told.last().map(String::as_str),
        Some(expected.as_str()),
        "{what}"
    );
}

#[test]
fn ucci_knowledge_pruning_and_randomness_set_the_strength_and_the_variety() {
    let mut e = Engine::start();
    let lines = ucci_handshake(&mut e);
    for wanted in [
        "option knowledge type combo var none var small var medium var large default large",
        "option pruning type combo var none var small var medium var large default large",
        "option randomness type combo var none var small var medium var large default none",
    ] {
        if !lines.iter().any(|l| l == wanted) {
            e.fail(&format!("the handshake lacks '{wanted}'"));
        }
    }
    // Each effort stands for a level; the weaker of knowledge and pruning applies.
    for (effort, name) in skill::EFFORTS.iter().enumerate() {
        e.send(&format!("setoption knowledge {name}"));
        expect_level_note(&mut e, skill::level_for_effort(effort), name);
    }
    e.send("setoption pruning none");
    expect_level_note(&mut e, skill::level_for_effort(0), "pruning none");
    e.send("setoption pruning large");
    expect_level_note(&mut e, skill::MAX_LEVEL, "pruning large");
    // Full strength with randomness: several moves from the start position, each of
    // them among the best lines (a free chariot is always taken).
    e.send("setoption randomness large");
    let seen = start_moves(&mut e, 12);
    assert!(seen.len() >= 2, "randomness large always played {seen:?}");
    let fen = "r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    for _ in 0..6 {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        let (mv, _) = e.bestmove(SLOW);
        assert_eq!(mv, "a0a9");
    }
    e.send("setoption randomness none");
    let mut seen = std::collections::HashSet::new();
    for _ in 0..4 {
        // A new game clears the hash, which would otherwise change the search.
        e.send("setoption newgame");
        e.send("position startpos");
        e.send("go depth 3");
        seen.insert(e.bestmove(SLOW).0);
    }
    assert_eq!(seen.len(), 1, "randomness none varied: {seen:?}");
    assert_no_panic(&e);
}

/// `bench D hce|nnue` measures the evaluation it names, as `jiang bench D EVAL` does from
/// the shell; an unknown name is refused in one line and the engine stays usable.
#[test]
fn bench_names_its_evaluation() {
    let mut e = Engine::start();
    uci_handshake(&mut e);
    let signature = |e: &mut Engine, cmd: &str| -> Option<u64> {
        e.send(cmd);
        e.sync(SLOW).iter().find_map(|l| {
            l.strip_prefix("Bench: ")
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse().ok())
        })
    };
    let hce = jiang::bench::run(2, false, &mut |_| {}).nodes;
    let nnue = jiang::bench::run(2, true, &mut |_| {}).nodes;
    assert_ne!(hce, nnue, "the two evaluations should search differently");
    for (name, expected) in [("hce", hce), ("nnue", nnue)] {
        let got = signature(&mut e, &format!("bench 2 {name}"));
        if got != Some(expected) {
            e.fail(&format!(
                "`bench 2 {name}`: {got:?} nodes, expected {expected}"
            ));
        }
    }

    e.send("bench 2 stockfish");
    let out = e.sync(SLOW);
    if !out
        .iter()
        .any(|l| l == "info string bench: unknown evaluation 'stockfish' (hce or nnue)")
        || out.iter().any(|l| l.starts_with("Bench: "))
    {
        e.fail(&format!(
            "`bench 2 stockfish` should be refused in one line: {out:?}"
        ));
    }
    e.send("position startpos");
    e.send("go depth 2");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &Position::startpos(), &mv);
    assert_no_panic(&e);
}
