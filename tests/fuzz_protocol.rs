//! The protocol fuzzer (see `tests/common/fuzz/`): lines of every dialect and game,
//! mutated, sent to the real binary in batches that interleave with running searches;
//! after each batch the engine must answer `isready`/`ping`, write protocol only, not
//! panic and not exit before `quit` or end of input.
//!
//! * `short_run`: about 20,000 lines (part of `cargo test --release`).
//! * `long_run` (ignored): `FUZZ_LINES` lines, 1,000,000 by default, going on after a
//!   finding; `tools/reliability/fuzz.sh` runs it.
//!
//! Both take `FUZZ_SEED` (hex `0x…` or decimal), `FUZZ_SESSION` (run only that session:
//! what a finding's report says to reproduce it) and `FUZZ_WORKERS` (engines side by
//! side, 3 by default: the fuzzer mostly waits for answers).

#[path = "common/engine.rs"]
mod engine;
#[path = "common/fuzz/mod.rs"]
mod fuzz;
#[path = "common/rng.rs"]
mod rng;

use fuzz::check::{check_line, is_move, looks_like_diagnostic};
use fuzz::model::{too_slow, Model};
use fuzz::Dialect;
use std::time::Duration;

const SHORT_SEED: u64 = 0x6a69_616e_2014;
const LONG_SEED: u64 = 0x6c6f_6e67_2014;

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

fn config(default_seed: u64, default_lines: u64, stop_at_first: bool) -> fuzz::Config {
    fuzz::Config {
        seed: env_u64("FUZZ_SEED").unwrap_or(default_seed),
        lines: env_u64("FUZZ_LINES").unwrap_or(default_lines),
        only_session: env_u64("FUZZ_SESSION"),
        stop_at_first,
        hang: Duration::from_secs(30),
        progress_every: if stop_at_first { 0 } else { 20 },
        workers: env_u64("FUZZ_WORKERS").unwrap_or(3) as usize,
    }
}

#[test]
fn short_run() {
    let cfg = config(SHORT_SEED, 20_000, true);
    let games = fuzz::games::all_games(cfg.seed);
    let summary = fuzz::run(&cfg, &games);
    println!("{summary}");
    if let Some(f) = summary.findings.first() {
        panic!(
            "{summary}\nfirst finding (reproduce: FUZZ_SEED={:#x} FUZZ_SESSION={} cargo test --release --test fuzz_protocol short_run):\n{f}",
            cfg.seed, f.session
        );
    }
    assert!(summary.lines >= cfg.lines.min(20_000) || cfg.only_session.is_some());
}

#[test]
#[ignore = "long: tools/reliability/fuzz.sh (FUZZ_LINES, default 1,000,000)"]
fn long_run() {
    let cfg = config(LONG_SEED, 1_000_000, false);
    let games = fuzz::games::all_games(cfg.seed);
    eprintln!(
        "fuzzing {} lines, seed {:#x}, games {:?}",
        cfg.lines,
        cfg.seed,
        games.iter().map(|g| g.name).collect::<Vec<_>>()
    );
    let summary = fuzz::run(&cfg, &games);
    println!("{summary}");
    assert!(
        summary.findings.is_empty(),
        "{} findings (printed above as FUZZ FINDING)",
        summary.findings.len()
    );
}

/// Every search report the engine can format passes the checker in its dialect: each
/// score kind and bound, with and without win/draw/loss (the fuzzer met `wdl` before
/// the bound only when a search happened to report a bound with UCI_ShowWDL on).
#[test]
fn every_info_line_the_engine_formats_is_protocol() {
    use jiang::protocol::output::{format_info, Dialect as Engine};
    use jiang::report::{InfoReport, Score, ScoreBound, Wdl};
    let dialects = [
        (Engine::Terminal, Dialect::Terminal),
        (Engine::Uci, Dialect::Uci),
        (Engine::Ucci, Dialect::Ucci),
        (Engine::Cecp, Dialect::Cecp),
    ];
    let mut checked = 0;
    for score in [
        Score::Cp(-2731),
        Score::Cp(40),
        Score::Mate(3),
        Score::Mate(-2),
    ] {
        for bound in [ScoreBound::Exact, ScoreBound::Lower, ScoreBound::Upper] {
            for show_wdl in [false, true] {
                let info = InfoReport {
                    depth: 7,
                    seldepth: 12,
                    score,
                    raw_score: 0,
                    bound,
                    wdl: Some(Wdl {
                        win: 0,
                        draw: 1,
                        loss: 999,
                    }),
                    nodes: 2256,
                    time_ms: 4,
                    nps: 564_000,
                    hashfull: 3,
                    multipv: 1,
                    pv: vec!["g9e7".to_string(), "h2e2".to_string()],
                    player_scores: Vec::new(),
                };
                for (engine, checker) in dialects {
                    for line in format_info(engine, &info, show_wdl) {
                        if let Err(why) = check_line(&line, &[checker], false) {
                            panic!("{engine:?}: {why}: {line:?}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 4 * 3 * 2 * 4, "only {checked} lines formatted");
}

/// The checker must refuse what is not protocol, or the fuzzer proves nothing.
#[test]
fn checker_refuses_what_is_not_protocol() {
    use Dialect::*;
    let ok = |line: &str, d: Dialect| check_line(line, &[d], false).is_ok();
    // Protocol lines of each dialect.
    assert!(ok("readyok", Uci) && ok("uciok", Uci) && ok("bestmove h2e2 ponder h7e7", Uci));
    assert!(ok(
        "info depth 3 seldepth 5 multipv 1 score cp -12 upperbound nodes 300 nps 1000 hashfull 0 time 3 pv h2e2 h7e7",
        Uci
    ));
    assert!(ok("info string anything at all", Uci) && ok("bestmove (none)", Uci));
    assert!(ok("bestmove h2e2 draw", Ucci) && ok("nobestmove", Ucci) && ok("bye", Ucci));
    assert!(
        ok("info depth 4 score -35 pv h2e2", Ucci)
            && ok("pophash bestmove h2e2 lowerbound 12 depth 5", Ucci)
    );
    assert!(ok(
        "option hashsize type spin min 1 max 1024 default 64",
        Ucci
    ));
    assert!(ok("move h2e2", Cecp) && ok("pong 7", Cecp) && ok("# a comment", Cecp));
    assert!(ok("Illegal move: e2e4", Cecp) && ok("Error (unknown command): foo", Cecp));
    assert!(ok("1-0 {Red mates}", Cecp) && ok("7 -35 12 40000 h2e2 h7e7?", Cecp));
    assert!(ok("error: unknown command 'x'", Terminal) && ok("variant xiangqi", Terminal));
    // Not protocol, or not of this dialect.
    assert!(!ok("hello", Uci) && !ok("", Uci) && !ok("readyok now", Uci));
    assert!(!ok("bestmove h2e2 draw", Uci), "draw is UCCI's");
    assert!(
        !ok("info depth 3 score 12 pv h2e2", Uci),
        "UCCI score in UCI"
    );
    assert!(
        !ok("info depth 3 score cp 12 pv h2e2", Ucci),
        "UCI score in UCCI"
    );
    assert!(!ok("option name Hash type spin", Ucci) && !ok("nobestmove", Uci));
    assert!(!ok("move", Cecp) && !ok("bestmove h2e2", Cecp) && !ok("readyok", Cecp));
    assert!(!ok("info depth 3 pv h2e2 'quoted'", Uci));
    // Free text answers terminal commands, but never diagnostics or control characters.
    assert!(check_line("   +-------------------+", &[Terminal], true).is_ok());
    for bad in [
        "thread 'main' panicked at src/protocol/mod.rs:12:5:",
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        "[2026-01-01T00:00:00Z ERROR jiang::engine] search thread panicked",
        "stack backtrace:",
        "memory allocation of 1024 bytes failed",
    ] {
        assert!(looks_like_diagnostic(bad), "{bad}");
        assert!(check_line(bad, &[Terminal, Uci], true).is_err(), "{bad}");
    }
    assert!(check_line("info string a\rb", &[Uci], true).is_err());
    assert!(check_line("Error (unknown command): a\u{1b}[2J", &[Cecp], false).is_err());
    assert!(is_move("h2e2") && is_move("BE2BE4") && is_move("e7e8q") && !is_move("hello"));
}

/// The model reads lines as the engine does (dialect switches, quit, free text).
#[test]
fn model_follows_lines_as_the_engine_reads_them() {
    let games = fuzz::games::all_games(1);
    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
    assert_eq!(names, jiang::games::VARIANTS, "every game is fuzzed");
    assert!(games.iter().all(|g| !g.samples.is_empty()));
    let mut m = Model::new(&games);
    assert_eq!(m.dialect, Dialect::Terminal);
    assert!(m.observe("d", &games).free_text);
    m.observe("UCI", &games);
    assert_eq!(m.dialect, Dialect::Terminal, "commands are case-sensitive");
    m.observe(" \tuci\r", &games);
    assert_eq!(m.dialect, Dialect::Uci);
    assert!(m
        .observe("setoption name Hash value 4096", &games)
        .undo
        .is_some());
    assert!(m.observe("setoption name batch", &games).undo.is_some());
    assert!(m
        .observe("setoption name Hash value 64", &games)
        .undo
        .is_none());
    if std::env::var("FUZZ_MANY_THREADS").is_err() {
        assert!(m
            .observe("setoption name Threads value 99999", &games)
            .undo
            .is_some());
    }
    assert!(m
        .observe("setoption name Threads value 3", &games)
        .undo
        .is_none());
    m.observe("isready", &games);
    assert_eq!(m.isready, 1);
    m.observe("xboard", &games);
    assert_eq!(m.dialect, Dialect::Cecp);
    m.observe("isready", &games);
    assert_eq!(m.isready, 1, "CECP does not answer isready");
    assert!(
        !m.observe("exit", &games).quits,
        "exit leaves analysis in CECP"
    );
    assert!(m.observe("memory 100000", &games).undo.is_some());
    m.observe("ucci", &games);
    assert_eq!(m.dialect, Dialect::Ucci);
    let e = m.observe_bytes(b"go depth 1\nexit\nisready", &games);
    assert!(e.quits && m.quit);
    assert_eq!(m.isready, 1, "nothing is read after quit");
    assert!(too_slow(b"perft 5") && too_slow(b"bench") && too_slow(b"go perft 1e1"));
    assert!(!too_slow(b"perft 3") && !too_slow(b"bench 1") && !too_slow(b"perft 13"));
    assert!(!too_slow(b"go perft 99") && too_slow(b"isready\nbench 2"));
}
