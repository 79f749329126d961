//! Command-line helpers for the fairychess game, outside the protocol front end:
//!
//! * `moves`: reads FENs (one per line) on stdin; for each prints one line
//!   `FEN|m1 m2 …|child-count child-count …` — the legal moves and, for each of them in
//!   the same order, the number of legal moves after it (for `perft/fairychess_crosscheck.py`).
//! * `perft DEPTH FEN`: divide and total, with nodes per second.
//!
//! * `selfplay GAMES NODES SEED`: self-play games from random-army openings, one line
//!   `FEN|moves|result` each, on stdout.
//! * `fit GAMESFILE ITERATIONS [material]`: fits the evaluation weights to the games; the
//!   report goes to stderr, the weights (`index mg eg` lines) to stdout, and the Rust
//!   table to `fit-weights.rs`.
//! * `match WEIGHTSFILE PAIRS NODES SEED`: the weights in the file against the built-in
//!   ones, each random opening played with both colours.
//!
//! `cargo run --release --example fairychess -- perft 3 "<FEN>"`

use jiang::fairychess::{tune, Position};
use jiang::game::Rules;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

fn moves() -> ExitCode {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let fen = line.trim();
        if fen.is_empty() {
            continue;
        }
        match Position::from_fen(fen) {
            Err(e) => {
                let _ = writeln!(out, "{fen}|ERROR {e}|");
            }
            Ok(pos) => {
                let list = pos.legal_moves();
                let mut texts = Vec::new();
                let mut counts = Vec::new();
                for &m in list.iter() {
                    let mut child = pos.clone();
                    child.make_move(m);
                    texts.push(m.to_string());
                    counts.push(child.legal_moves().len().to_string());
                }
                let _ = writeln!(out, "{fen}|{}|{}", texts.join(" "), counts.join(" "));
            }
        }
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}

fn perft(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("perft DEPTH FEN");
        return ExitCode::from(2);
    };
    let fen = args[1..].join(" ");
    let mut pos = match Position::from_fen(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    jiang::fairychess::attacks::init();
    let start = Instant::now();
    let d = Rules::divide(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    for (m, n) in &d.moves {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {}", d.nodes);
    println!(
        "Time: {:.3} s, {:.0} nodes/s",
        secs,
        d.nodes as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn selfplay(args: &[String]) -> ExitCode {
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(games), Some(nodes), Some(seed)) = (num(0), num(1), num(2)) else {
        eprintln!("selfplay GAMES NODES SEED");
        return ExitCode::from(2);
    };
    let mut rng = tune::Rng::new(seed);
    let w = &jiang::fairychess::weights::WEIGHTS;
    for _ in 0..games {
        let start = tune::random_opening(&mut rng);
        let g = tune::play_game(&start, [w, w], nodes);
        println!("{}", g.line());
    }
    ExitCode::SUCCESS
}

fn fit(args: &[String]) -> ExitCode {
    let (Some(path), Some(iters)) = (args.first(), args.get(1).and_then(|s| s.parse().ok())) else {
        eprintln!("fit GAMESFILE ITERATIONS [material]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let r = tune::fit(&text, iters, args.get(2).is_some_and(|a| a == "material"));
    eprint!("{}", r.text);
    print!("{}", tune::weights_text(&r.weights));
    let _ = std::fs::write("fit-weights.rs", tune::weights_source(&r.weights));
    ExitCode::SUCCESS
}

fn play_match(args: &[String]) -> ExitCode {
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(path), Some(pairs), Some(nodes), Some(seed)) = (args.first(), num(1), num(2), num(3))
    else {
        eprintln!("match WEIGHTSFILE PAIRS NODES SEED");
        return ExitCode::from(2);
    };
    let w = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| tune::parse_weights(&t))
    {
        Ok(w) => Box::leak(w),
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let r = tune::play_match(
        w,
        &jiang::fairychess::weights::WEIGHTS,
        pairs as usize,
        nodes,
        seed,
        &mut |r| {
            let (elo, err) = r.elo();
            eprintln!(
                "+{} ={} -{}  {:.1} %  Elo {elo:+.0} +/- {err:.0}",
                r.wins,
                r.draws,
                r.losses,
                100.0 * r.score()
            );
        },
    );
    let (elo, err) = r.elo();
    println!(
        "{path} vs built-in: +{} ={} -{} score {:.1} % Elo {elo:+.0} +/- {err:.0}",
        r.wins,
        r.draws,
        r.losses,
        100.0 * r.score()
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("moves") => moves(),
        Some("perft") => perft(&args[1..]),
        Some("selfplay") => selfplay(&args[1..]),
        Some("fit") => fit(&args[1..]),
        Some("match") => play_match(&args[1..]),
        _ => {
            eprintln!(
                "usage: fairychess moves < FENS | perft DEPTH FEN | selfplay GAMES NODES SEED \
                 | fit GAMESFILE ITERATIONS [material] | match WEIGHTSFILE PAIRS NODES SEED"
            );
            ExitCode::from(2)
        }
    }
}
