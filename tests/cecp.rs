//! End-to-end CECP (XBoard protocol v2) tests: the real `jiang` binary driven over pipes
//! the way XBoard drives it. The engine keeps the game itself in CECP, so the tests keep
//! the same game with the library and check every `move` the engine sends for legality.
//!
//! Timings are printed (see them with `cargo test --release --test cecp -- --nocapture`).

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_legal, assert_no_panic, ms, play, position, Engine, SLOW};
use jiang::xiangqi::Position;
use std::time::{Duration, Instant};

/// `xboard` + `protover 2`: returns the feature lines (the last one has `done=1`).
fn handshake(e: &mut Engine) -> Vec<String> {
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_while_waiting("feature … done=1", SLOW, |l| {
        l.starts_with("feature") && l.contains("done=1")
    });
    lines
        .into_iter()
        .filter(|l| l.starts_with("feature"))
        .collect()
}

/// What XBoard 4.9 sends before a game (as seen in its debug log).
fn xboard_game_start(e: &mut Engine) {
    handshake(e);
    for cmd in [
        "accepted myname",
        "accepted done",
        "memory 68",
        "cores 1",
        "new",
        "random",
        "variant xiangqi",
    ] {
        e.send(cmd);
    }
}

/// `ping N` → `pong N`; returns the lines before the pong.
#[track_caller]
fn ping(e: &mut Engine, n: u32, timeout: Duration) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let want = format!("pong {n}");
    let mut lines = e.read_while_waiting(&want, timeout, |l| l == want);
    lines.pop();
    lines
}

/// Pings and fails if anything sent before was refused (`Illegal …` or `Error …` before
/// the pong); `what` names what should have been accepted.
#[track_caller]
fn assert_accepted(e: &mut Engine, n: u32, what: &str) {
    let before = ping(e, n, SLOW);
    if let Some(l) = before
        .iter()
        .find(|l| l.starts_with("Illegal") || l.starts_with("Error"))
    {
        e.fail(&format!("{what}: {l}"));
    }
}

/// Waits for `move M`; returns M and the lines before it. Fails on a result claim or an
/// error line instead.
#[track_caller]
fn expect_move(e: &mut Engine, timeout: Duration) -> (String, Vec<String>) {
    let lines = e.read_while_waiting("move", timeout, |l| {
        l.starts_with("move ")
            || l.starts_with("Error")
            || l.starts_with("Illegal")
            || l.starts_with("1-0")
            || l.starts_with("0-1")
    });
    let last = lines.last().unwrap();
    if !last.starts_with("move ") {
        e.fail(&format!("expected 'move …', got '{last}'"));
    }
    let mv = last["move ".len()..].trim().to_string();
    (mv, lines)
}

/// Sends `cmd` and waits for the engine's move; returns it and how long it took (ms).
fn timed_move(e: &mut Engine, cmd: &str, timeout: Duration) -> (String, u128) {
    let t = Instant::now();
    e.send(cmd);
    let (mv, _) = expect_move(e, timeout);
    (mv, t.elapsed().as_millis())
}

/// Asserts that nothing but thinking or comment lines arrives for `d`.
#[track_caller]
fn assert_no_move_for(e: &mut Engine, d: Duration) {
    for l in e.drain(d) {
        if l.starts_with("move") {
            e.fail(&format!("unexpected move: {l}"));
        }
    }
}

/// A CECP thinking line: `ply score time nodes pv…` with integers in the first four.
fn is_thinking(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.len() >= 5 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
}

/// The first move of the principal variation of the last of `lines` (a thinking line:
/// `depth score time nodes pv…`, a bound marked `!` or `?` after the last move).
fn pv_start(lines: &[String]) -> String {
    let line = lines.last().expect("a thinking line");
    let word = line
        .split_whitespace()
        .nth(4)
        .expect("a move in the thinking line");
    word.trim_end_matches(['!', '?']).to_string()
}

#[test]
fn protover_features_and_ping() {
    let mut e = Engine::start();
    let features = handshake(&mut e);
    let all = features.join(" ");
    // Xiangqi, then every other game that XBoard can be told how to show.
    let shown: Vec<&str> = jiang::games::GAMES
        .iter()
        .filter(|g| g.xboard_native || g.xboard.is_some())
        .map(|g| g.name)
        .collect();
    assert_eq!(shown[0], "xiangqi");
    assert!(shown.contains(&"microchess"));
    let variants = format!("variants=\"{}\"", shown.join(","));
    for f in [
        variants.as_str(),
        "myname=\"jiang ",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
    ] {
        if !all.contains(f) {
            e.fail(&format!("feature {f} missing"));
        }
    }
    if !features.last().unwrap().ends_with("done=1") {
        e.fail("done=1 is not the last feature");
    }
    // XBoard answers each feature; none of these may draw a reply.
    for cmd in [
        "accepted setboard",
        "rejected pause",
        "random",
        "computer",
        "name Someone",
    ] {
        e.send(cmd);
    }
    e.send("rating 2000 1800");
    e.send("ics -");
    let before = ping(&mut e, 7, SLOW);
    if !before.is_empty() {
        e.fail(&format!("unexpected replies: {before:?}"));
    }
    assert_no_panic(&e);
}

#[test]
fn new_then_usermove_gets_a_black_move() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 1");
    e.send("post");
    e.send("usermove h2e2");
    let (mv, lines) = expect_move(&mut e, SLOW);
    let mut pos = position(None, &["h2e2"]);
    assert_legal(&e, &pos, &mv);
    if !lines.iter().any(|l| is_thinking(l)) {
        e.fail("no thinking line after 'post'");
    }
    // The engine played its move on its own board: Red's next move is accepted.
    play(&mut pos, &mv);
    let red = pos.legal_moves().iter().next().unwrap().to_string();
    play(&mut pos, &red);
    e.send(&format!("usermove {red}"));
    let (mv2, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &pos, &mv2);
    assert_no_panic(&e);
}

#[test]
fn force_moves_then_go_plays_the_side_to_move() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("b0c2"); // a bare move, as XBoard sends without usermove=1
    assert_no_move_for(&mut e, ms(300));
    e.send("sd 4");
    e.send("nopost");
    e.send("go");
    let (mv, lines) = expect_move(&mut e, SLOW);
    let pos = position(None, &["h2e2", "h9g7", "b0c2"]);
    assert_legal(&e, &pos, &mv); // Black to move
    if let Some(l) = lines.iter().find(|l| is_thinking(l)) {
        e.fail(&format!("thinking line after 'nopost': {l}"));
    }
    assert_no_panic(&e);
}

#[test]
fn engine_plays_red_after_go_and_keeps_the_game() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("level 0 0:20 0.2");
    e.send("post");
    e.send("hard");
    e.send("easy");
    ping(&mut e, 1, SLOW);
    e.send("force");
    e.send("computer");
    let mut pos = Position::startpos();
    let mut clock = 2000;
    e.send(&format!("time {clock}"));
    e.send(&format!("otim {clock}"));
    e.send("go");
    for _ in 0..6 {
        let (mv, _) = expect_move(&mut e, SLOW);
        assert_legal(&e, &pos, &mv);
        play(&mut pos, &mv);
        // Black answers with its first legal move (deterministic). Such a Black can be
        // mated within six moves: then the engine claims the game instead.
        let Some(reply) = pos.legal_moves().iter().next().map(|m| m.to_string()) else {
            let line = e.expect_line("a result claim", SLOW, |l| {
                l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("move")
            });
            if !line.starts_with("1-0 {") {
                e.fail(&format!(
                    "Black has no move: expected a 1-0 claim, got '{line}'"
                ));
            }
            ping(&mut e, 9, SLOW);
            assert_no_panic(&e);
            return;
        };
        play(&mut pos, &reply);
        clock -= 50;
        e.send(&format!("time {clock}"));
        e.send(&format!("otim {clock}"));
        e.send(&format!("usermove {reply}"));
    }
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &pos, &mv);
    e.send("result 1/2-1/2 {test over}");
    e.send("force");
    ping(&mut e, 9, SLOW);
    assert_no_panic(&e);
}

#[test]
fn setboard_with_xboard_letters() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    // As XBoard 4.9 writes a Xiangqi FEN: H/E letters, no castling or e.p. fields.
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("sd 3");
    e.send("go");
    let (mv, _) = expect_move(&mut e, SLOW);
    let pos = position(
        Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"),
        &[],
    );
    assert_legal(&e, &pos, &mv);
    // The usual letters work too.
    e.send("force");
    e.send("setboard 4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    e.send("usermove a1a8");
    assert_accepted(&mut e, 2, "setboard not taken");
    assert_no_panic(&e);
}

#[test]
fn illegal_usermove_is_refused_and_the_board_kept() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    e.send("usermove h2e3");
    e.expect_line("Illegal move", SLOW, |l| l == "Illegal move: h2e3");
    e.send("usermove h9g7"); // Black's move while Red is to move
    e.expect_line("Illegal move", SLOW, |l| l == "Illegal move: h9g7");
    e.send("usermove banana");
    e.expect_line("Illegal move", SLOW, |l| l.starts_with("Illegal move"));
    e.send("usermove h2e2");
    e.send("st 1");
    e.send("go");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("undo"); // i9h9 taken back: Black to move
    e.send("usermove i9h9");
    e.send("remove"); // h0g2 and i9h9 taken back: Red to move
    e.send("usermove h0g2");
    assert_accepted(&mut e, 3, "the board was not taken back");
    e.send("new");
    e.send("undo"); // nothing to take back
    e.expect_line("an error", SLOW, |l| l.starts_with("Error"));
    // Undo during analysis re-analyses the earlier position: the analysis of the position
    // after h2e2 shows Black's moves; once the undo is read (the pong after it: the old
    // analysis has stopped by then), every line shows a Red move of the start position,
    // which is never legal after h2e2.
    e.send("force");
    e.send("usermove h2e2");
    e.send("post");
    e.send("analyze");
    let after = position(None, &["h2e2"]);
    let start = position(None, &[]);
    let analysed = e.read_while_waiting("thinking", SLOW, is_thinking);
    let first = pv_start(&analysed);
    assert_legal(&e, &after, &first);
    e.send("undo");
    ping(&mut e, 5, SLOW);
    let analysed = e.read_while_waiting("thinking after the undo", ms(30_000), is_thinking);
    let first = pv_start(&analysed);
    assert_legal(&e, &start, &first);
    if after.parse_legal_move(&first).is_ok() {
        e.fail(&format!(
            "{first} after the undo is a move of the position after h2e2"
        ));
    }
    e.send("exit");
    e.send("usermove h2e2"); // legal again: the undo reached the board
    assert_accepted(&mut e, 4, "undo in analysis failed");
    assert_no_panic(&e);
}

#[test]
fn st_one_second_is_kept() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 1");
    e.send("post");
    ping(&mut e, 1, SLOW);
    let (mv, took) = timed_move(&mut e, "usermove h2e2", ms(3000));
    println!("st 1: move after {took} ms");
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    if took > 1200 {
        e.fail(&format!("st 1 took {took} ms"));
    }
    assert_no_panic(&e);
}

#[test]
fn level_with_a_short_clock_answers_in_time() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("level 40 5 0");
    e.send("force");
    e.send("usermove h2e2");
    e.send("time 500");
    e.send("otim 500");
    let (mv, took) = timed_move(&mut e, "go", ms(5000));
    println!("level 40 5 0, time 500: move after {took} ms");
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    // 5 s for 40 moves: far less than a second for this one.
    if took > 1000 {
        e.fail(&format!("took {took} ms with 5 s for 40 moves"));
    }
    assert_no_panic(&e);
}

#[test]
fn ten_second_cap_with_a_long_clock() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    // One move left in the session and ten minutes on the clock: still at most 10 s.
    e.send("level 1 10 0");
    e.send("time 60000");
    e.send("otim 60000");
    let (mv, took) = timed_move(&mut e, "go", ms(12_000));
    println!("level 1 10 0, time 60000: move after {took} ms");
    assert_legal(&e, &Position::startpos(), &mv);
    if took > 10_000 {
        e.fail(&format!("took {took} ms, more than the 10 s cap"));
    }
    assert_no_panic(&e);
}

#[test]
fn analyze_prints_thinking_until_exit() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    e.send("post");
    e.send("analyze");
    let lines = e.read_while_waiting("a thinking line", SLOW, is_thinking);
    if lines.iter().any(|l| l.starts_with("move")) {
        e.fail("a move during analysis");
    }
    // ping is answered at once while analysing.
    let t = Instant::now();
    ping(&mut e, 5, ms(1000));
    println!("pong during analysis after {} ms", t.elapsed().as_millis());
    // A move restarts the analysis on the new position.
    e.send("usermove h2e2");
    e.read_while_waiting("a thinking line", SLOW, is_thinking);
    e.send("exit");
    ping(&mut e, 6, SLOW);
    // After exit: silence (no more thinking, no move).
    if let Some(l) = e.drain(ms(500)).first() {
        e.fail(&format!("output after exit: {l}"));
    }
    // The analysed move was kept on the board: Black to move now.
    e.send("sd 3");
    e.send("go");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn question_mark_moves_now() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 30");
    e.send("usermove h2e2");
    std::thread::sleep(ms(300));
    let (mv, took) = timed_move(&mut e, "?", ms(3000));
    println!("? answered after {took} ms");
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    if took > 500 {
        e.fail(&format!("'?' took {took} ms"));
    }
    // '?' while idle does nothing.
    e.send("?");
    let before = ping(&mut e, 8, SLOW);
    if !before.is_empty() {
        e.fail(&format!("'?' while idle answered: {before:?}"));
    }
    assert_no_panic(&e);
}

#[test]
fn ping_waits_for_the_pending_move() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 1");
    e.send("usermove h2e2");
    e.send("ping 11");
    let lines = e.read_while_waiting("pong 11", SLOW, |l| l == "pong 11");
    if !lines.iter().any(|l| l.starts_with("move ")) {
        e.fail("pong came before the move");
    }
    assert_no_panic(&e);
}

#[test]
fn unknown_and_bad_commands_get_errors() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("frobnicate now");
    e.expect_line("unknown command error", SLOW, |l| {
        l.starts_with("Error (unknown command): frobnicate")
    });
    e.send("variant shogi");
    e.expect_line("variant error", SLOW, |l| {
        l == "Error (unsupported variant): shogi"
    });
    for bad in [
        "level 40 x 0",
        "st soon",
        "sd",
        "time lots",
        "memory -5",
        "cores many",
    ] {
        e.send(bad);
        e.expect_line("bad argument error", SLOW, |l| l.starts_with("Error"));
    }
    e.send_raw(b"\xff\xfe garbage\n");
    e.expect_line("error for garbage", SLOW, |l| l.starts_with("Error"));
    e.send("usermove");
    e.expect_line("usermove error", SLOW, |l| l.starts_with("Error"));
    // Still alive and playing.
    e.send("st 1");
    e.send("usermove h2e2");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn bad_setboard_keeps_the_previous_position() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    e.send("usermove h2e2");
    for bad in [
        "setboard rnbakabnr/9/9 w",
        "setboard 4k4/9/9/9/9/9/9/9/9/4K4 w 0 1", // kings face each other
        "setboard",
    ] {
        e.send(bad);
        e.expect_line("an error line", SLOW, |l| {
            l.starts_with("tellusererror") || l.starts_with("Error")
        });
    }
    // h2e2 is still on the board: Black to move.
    e.send("usermove h9g7");
    let before = ping(&mut e, 3, SLOW);
    if let Some(l) = before.iter().find(|l| l.starts_with("Illegal")) {
        e.fail(&format!("the position was not kept: {l}"));
    }
    assert_no_panic(&e);
}

#[test]
fn checkmated_engine_claims_the_result() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    // Black king d9, checked by the chariot on d0; e9/e8 face the red king.
    e.send("setboard 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    e.send("go");
    let line = e.expect_line("a result claim", SLOW, |l| {
        l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("move")
    });
    if line != "1-0 {Red mates}" {
        e.fail(&format!("expected '1-0 {{Red mates}}', got '{line}'"));
    }
    assert_no_move_for(&mut e, ms(300));
    // Stalemate loses too: black king e9 boxed in without being in check.
    e.send("force");
    e.send("setboard 4k4/2R6/3R5/9/9/9/9/9/9/5K3 b - - 0 1");
    e.send("go");
    let line = e.expect_line("a result claim", SLOW, |l| {
        l.starts_with("1-0") || l.starts_with("0-1") || l.starts_with("move")
    });
    if !line.starts_with("1-0 {") {
        e.fail(&format!("expected a 1-0 claim, got '{line}'"));
    }
    assert_no_panic(&e);
}

#[test]
fn mating_move_is_followed_by_a_claim() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    // Red mates with a1d1 (the chariot on the king's file; e9/e8 face the red king).
    e.send("setboard 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let (mv, _) = expect_move(&mut e, SLOW);
    let mut pos = position(Some("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1"), &[]);
    assert_legal(&e, &pos, &mv);
    play(&mut pos, &mv);
    if pos.has_legal_move() {
        e.fail(&format!("{mv} does not mate"));
    }
    e.expect_line("the claim", SLOW, |l| l == "1-0 {Red mates}");
    assert_no_panic(&e);
}

#[test]
fn result_and_force_stop_thinking_without_a_move() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 5");
    e.send("usermove h2e2");
    std::thread::sleep(ms(200));
    e.send("result 1-0 {White resigns}");
    e.send("force");
    let before = ping(&mut e, 4, ms(2000));
    if let Some(l) = before.iter().find(|l| l.starts_with("move")) {
        e.fail(&format!("move after result: {l}"));
    }
    assert_no_move_for(&mut e, ms(300));
    // A new game starts cleanly.
    e.send("new");
    e.send("st 1");
    e.send("usermove b2e2");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["b2e2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn draw_offer_is_declined_when_not_worse() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 1");
    e.send("draw");
    e.send("usermove h2e2");
    let (mv, lines) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    if lines.iter().any(|l| l == "offer draw") {
        e.fail("accepted a draw at the start position");
    }
    assert_no_panic(&e);
}

#[test]
fn quit_exits_promptly_even_while_thinking() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("st 30");
    e.send("usermove h2e2");
    std::thread::sleep(ms(200));
    e.send("quit");
    let status = e.wait_exit(ms(2000));
    if !status.success() {
        e.fail(&format!("exit status {status}"));
    }
    assert_no_panic(&e);
}

#[test]
fn memory_and_cores_are_taken() {
    let mut e = Engine::start();
    handshake(&mut e);
    e.send("memory 16");
    e.send("cores 2");
    e.send("new");
    e.send("variant xiangqi");
    e.send("st 1");
    e.send("usermove h2e2");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn playother_makes_the_engine_answer_the_next_move() {
    let mut e = Engine::start();
    xboard_game_start(&mut e);
    e.send("force");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("st 1");
    e.send("playother"); // Red to move: the engine takes Black
    assert_no_move_for(&mut e, ms(300));
    e.send("usermove b0c2");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2", "h9g7", "b0c2"]), &mv);
    assert_no_panic(&e);
}

#[test]
fn xboard_after_uci_switches_protocol() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect_line("uciok", SLOW, |l| l == "uciok");
    e.send("position startpos moves h2e2");
    handshake(&mut e);
    // The position set over UCI is the game's start.
    e.send("force");
    e.send("usermove h9g7");
    e.send("sd 3");
    e.send("go");
    let (mv, _) = expect_move(&mut e, SLOW);
    assert_legal(&e, &position(None, &["h2e2", "h9g7"]), &mv);
    // And back: `uci` speaks UCI again.
    e.send("uci");
    e.expect_line("uciok", SLOW, |l| l == "uciok");
    e.send("position startpos");
    e.send("go depth 2");
    let (mv, _) = e.bestmove(SLOW);
    assert_legal(&e, &Position::startpos(), &mv);
    assert_no_panic(&e);
}
