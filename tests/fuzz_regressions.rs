//! Regression tests for what the protocol fuzzer (`tests/fuzz_protocol.rs`) and the soak
//! (`tools/reliability/`) found. Each test names the run that found it.

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_no_panic, Engine, SLOW};
use std::time::{Duration, Instant};

/// Fails if any stdout line holds a control character other than a tab.
#[track_caller]
fn assert_printable(e: &Engine, lines: &[String]) {
    if let Some(l) = lines
        .iter()
        .find(|l| l.chars().any(|c| c.is_control() && c != '\t'))
    {
        e.fail(&format!("control character on stdout: {l:?}"));
    }
}

/// Fuzz seed 0x1, sessions 7-99 (and most sessions of any seed): input quoted back in an
/// error message (an unknown command, a malformed move or FEN, a `go` keyword, a CECP
/// command) carried its NULs, escape sequences and carriage returns to stdout. A GUI's
/// line reader may end the line at the carriage return and read the rest as a line of
/// its own; an escape sequence repaints a terminal.
#[test]
fn control_characters_in_the_input_are_not_echoed() {
    let garbage: &[&[u8]] = &[
        b"ev\x00a\x1b[2Jl\n",
        b"position startpos moves h2e2 h7\x08\x7fe7\n",
        b"position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \x00\x1b\n",
        b"go wtime 1\x01000 depth 1\n",
        b"setoption name MultiPV value 2\x1b\n",
        b"setoption name UCI_Variant value xiang\x07qi\n",
        b"banmoves h2\x00e2\n",
    ];
    // Terminal, UCI and UCCI: every message is one printable line.
    for handshake in [None, Some("uci"), Some("ucci")] {
        let mut e = Engine::start();
        if let Some(h) = handshake {
            e.send(h);
            e.sync(SLOW);
        }
        for g in garbage {
            e.send_raw(g);
            let lines = e.sync(SLOW);
            assert_printable(&e, &lines);
            // The search of the `go` line may report before the sync, in any dialect.
            let complaints = lines
                .iter()
                .filter(|l| l.starts_with("info string") || l.starts_with("error:"))
                .count();
            if complaints != 1 {
                e.fail(&format!("expected one complaint, got {lines:?}"));
            }
        }
        e.send("stop");
        assert_no_panic(&e);
    }
    // CECP quotes the whole line (`Error (unknown command): …`, `Illegal move: …`).
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    // One `feature option=…` line per option, then the line that ends with `done=1`.
    e.read_while_waiting("done=1", SLOW, |l| l.ends_with("done=1"));
    e.send("force");
    for g in [
        b"f\x04o\rrce\n".as_slice(),
        b"usermove h2\x1be2\n",
        b"st 0\x01.05\r\n",
        b"\x7f\x02h2e\n",
    ] {
        e.send_raw(g);
        e.send("ping 1");
        let lines = e.read_until("pong 1", SLOW);
        assert_printable(&e, &lines);
        if lines.len() != 2 {
            e.fail(&format!("expected one error line, got {lines:?}"));
        }
    }
    assert_no_panic(&e);
}

/// Fuzz seed 0x1, session 10: with `Threads` at its maximum (256) on this two-core
/// machine, `go movetime 13` answered after 6-12 s, over `MaxMoveTime` and the 10 s cap:
/// the search starts its helper threads one by one before the main thread searches or
/// looks at the clock (`src/search/mod.rs`, `search_with_state`), and on a loaded machine
/// starting 255 threads that already search takes seconds. Outside the area this work
/// may change; the proposed fix (start helpers from a thread of their own and stop
/// starting them once the search is stopped) is in the issue 14 report.
#[test]
#[ignore = "known: helpers are started before the clock is looked at (src/search/mod.rs)"]
fn many_threads_keep_the_move_time() {
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name Threads value 256");
    e.send("setoption name MaxMoveTime value 1000");
    e.sync(SLOW);
    let mut worst = 0;
    for _ in 0..3 {
        e.send("position startpos");
        let t = Instant::now();
        e.send("go movetime 100");
        e.bestmove(Duration::from_secs(30));
        worst = worst.max(t.elapsed().as_millis());
    }
    println!("256 threads, go movetime 100 (MaxMoveTime 1000): worst {worst} ms");
    if worst > 2000 {
        e.fail(&format!(
            "go movetime 100 took {worst} ms with 256 threads (MaxMoveTime 1000)"
        ));
    }
    assert_no_panic(&e);
}

/// Self-play soak, its first games: the first Microchess move of a process, `go movetime
/// 50` right after `setoption name UCI_Variant value microchess` and `readyok`, took 1-4 s
/// on the loaded machine and lost on time: the solution (0.2 s of CPU) was still being
/// built in the background, and `readyok` did not wait for it. Now `isready` (and CECP's
/// `ping`) wait until the game can answer at once: after it, getting the solution costs
/// nothing (building it costs about 200 ms of CPU, so 50 ms tells the two apart).
#[test]
fn readyok_waits_for_the_microchess_solution() {
    if !jiang::games::VARIANTS.contains(&"microchess") {
        return;
    }
    let mut engine = jiang::engine::Engine::new();
    engine
        .set_variant("microchess")
        .expect("microchess is listed");
    engine.wait_ready();
    let t = Instant::now();
    jiang::microchess::solution();
    let ms = t.elapsed().as_millis();
    assert!(ms < 50, "the solution took {ms} ms to get after wait_ready");
    // Over the pipe: isready after selecting the game is answered (once solved).
    let mut e = Engine::start();
    e.send("uci");
    e.send("setoption name UCI_Variant value microchess");
    e.sync(Duration::from_secs(30));
    e.send("go depth 1");
    e.bestmove(SLOW);
    assert_no_panic(&e);
}

/// Resident memory of a process in MiB (Linux).
#[cfg(target_os = "linux")]
fn rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .expect("VmRSS")
        / 1024
}

/// Self-play soak, its first games: the first search of a process paid for faulting in
/// the hash table (the kernel zeroes each 2 MiB huge page when it is first touched, and
/// the search checks its clock only every 512 nodes): the first `go movetime 50` took
/// 150-200 ms on the loaded machine, the next ones 25-40 ms. The default table (and any
/// table of up to 64 MiB) is now written once when it is made, before `readyok`: it is
/// resident before the first search.
#[cfg(target_os = "linux")]
#[test]
fn small_tables_are_in_place_before_the_first_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.sync(SLOW);
    let rss = rss_mb(e.pid());
    if rss < jiang::engine::DEFAULT_HASH_MB as u64 {
        e.fail(&format!(
            "RSS {rss} MiB before any search: the default {} MiB table is not in place",
            jiang::engine::DEFAULT_HASH_MB
        ));
    }
    e.send("setoption name Hash value 48");
    e.sync(SLOW);
    let rss = rss_mb(e.pid());
    if rss < 48 {
        e.fail(&format!(
            "RSS {rss} MiB after Hash 48: the new table is not in place"
        ));
    }
    assert_no_panic(&e);
}

/// Fuzz seed 0x6c6f6e672014 (the first 1,000,000-line run), sessions 132, 718, 830, …:
/// a ThreeChess move or square with a multi-byte character (`éB`, `Z\u{fffd}v`, in
/// `position … moves`, `banmoves` or the terminal) was cut at a byte count that fell
/// inside the character, and the engine panicked. Each must get one complaint instead.
#[test]
fn threechess_moves_with_multibyte_characters_are_refused() {
    let mut e = Engine::start();
    e.send("uci");
    e.sync(SLOW);
    e.send("setoption name UCI_Variant value threechess");
    e.sync(SLOW);
    for bad in [
        "éBBE4",
        "Z\u{fffd}vBE4",
        "[\u{fffd}VBE4",
        "BE2é",
        "ééé",
        "BE2-é4",
    ] {
        e.send(&format!("position startpos moves {bad}"));
        let lines = e.sync(SLOW);
        let complaints = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count();
        if complaints != 1 {
            e.fail(&format!("{bad}: expected one complaint, got {lines:?}"));
        }
        e.send(&format!("banmoves {bad}"));
        e.sync(SLOW);
    }
    e.send("position startpos moves BE2BE4");
    e.send("go depth 1");
    e.bestmove(SLOW);
    assert_no_panic(&e);
}

/// Fuzz seed 0x6c6f6e672014, sessions 99 and 1149: a search started in one dialect went on
/// printing its `info` lines in that dialect's format after a handshake of another
/// (`go infinite`, then `ucci`: UCI's `score cp` lines under UCCI). A handshake of another
/// dialect now cancels the running search, answer included.
#[test]
fn a_new_handshake_silences_the_old_dialects_search() {
    for (first, second, done) in [
        ("uci", "ucci", "ucciok"),
        ("ucci", "uci", "uciok"),
        ("uci", "xboard", "done=1"),
    ] {
        let mut e = Engine::start();
        e.send(first);
        e.sync(SLOW);
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        e.send(second);
        if second == "xboard" {
            e.send("protover 2");
        }
        // Lines before the handshake's answer were printed before the handshake.
        e.expect_line(done, SLOW, |l| l.contains(done));
        // Whatever the old search would print from now on would be in the old format.
        std::thread::sleep(Duration::from_millis(500));
        let lines = if second == "xboard" {
            e.send("ping 1");
            e.read_until("pong 1", SLOW)
        } else {
            e.sync(SLOW)
        };
        if let Some(l) = lines
            .iter()
            .find(|l| l.starts_with("info depth") || l.starts_with("bestmove"))
        {
            e.fail(&format!(
                "{first} search still talking after {second}: {l:?}"
            ));
        }
        assert_no_panic(&e);
    }
}
