//! Command-line helpers for the fairychess game, outside the protocol front end:
//!
//! * `moves`: reads FENs (one per line) on stdin; for each prints one line
//!   `FEN|m1 m2 …|child-count child-count …` — the legal moves and, for each of them in
//!   the same order, the number of legal moves after it (for `perft/fairychess_crosscheck.py`).
//! * `perft DEPTH FEN`: divide and total, with nodes per second.
//!
//! `cargo run --release --example fairychess -- perft 3 "<FEN>"`

use jiang::fairychess::Position;
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("moves") => moves(),
        Some("perft") => perft(&args[1..]),
        _ => {
            eprintln!("usage: fairychess moves < fens | fairychess perft DEPTH FEN");
            ExitCode::from(2)
        }
    }
}
