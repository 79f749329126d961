//! `jiang-lab tune fairychess`: command-line helpers for the fairychess game, outside the
//! protocol front end:
//!
//! * `moves`: reads FENs (one per line) on stdin; for each prints one line
//!   `FEN|m1 m2 …|child-count child-count …` — the legal moves and, for each of them in
//!   the same order, the number of legal moves after it (for `perft/fairychess_crosscheck.py`).
//! * `perft DEPTH FEN`: divide and total, with nodes per second.
//!
//! * `selfplay GAMES NODES SEED [imbalanced]`: self-play games from random-army openings
//!   (with `imbalanced`, one or two pieces taken from a random side), one line
//!   `FEN|moves|result` each, on stdout.
//! * `fit GAMESFILE ITERATIONS [material]`: fits the evaluation weights to the games (or to
//!   labelled positions, `FEN|p` lines); the
//!   report goes to stderr, the weights (`index mg eg` lines) to stdout.
//! * `rust WEIGHTSFILE`: the weights of the file as the Rust table of `src/fairychess/weights.rs`.
//! * `weights`: the built-in weights as `index mg eg` lines.
//! * `match WEIGHTSFILE PAIRS NODES SEED [imbalanced]`: the weights in the file against
//!   the built-in ones, each random opening played with both colours.
//! * `endgames WHITE-BLACK,... NODES GAMES SEED [WEIGHTSFILE]`: how often White converts
//!   an endgame (armies as piece letters) within the plies left.
//! * `search FEN [NODES]`: the evaluation's breakdown, then the search's iterations.
//! * `evalbench GAMESFILE [REPEATS]`: evaluations per second over every position of the
//!   games (a `selfplay` file).
//! * `positions GAMESFILE EVERY`: every EVERY-th quiet position of the games (to label).
//!
//! `cargo run --release -p jiang-lab -- tune fairychess perft 3 "<FEN>"`

use crate::fairychess::tune;
use jiang::fairychess::{PieceKind, Position};
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
    let d = jiang::perft::divide(&mut pos, depth);
    let secs = d.elapsed.as_secs_f64();
    for (m, n) in &d.divide {
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
        eprintln!("selfplay GAMES NODES SEED [imbalanced]");
        return ExitCode::from(2);
    };
    let imbalanced = args.get(3).is_some_and(|a| a == "imbalanced");
    let mut rng = tune::Rng::new(seed);
    let w = &jiang::fairychess::weights::WEIGHTS;
    for _ in 0..games {
        let start = tune::random_start(&mut rng, imbalanced);
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
    ExitCode::SUCCESS
}

/// Reads a weights file (`index mg eg` lines).
fn read_weights(path: &str) -> Result<&'static jiang::fairychess::weights::Weights, String> {
    std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| tune::parse_weights(&t))
        .map(|w| &*Box::leak(w))
        .map_err(|e| format!("{path}: {e}"))
}

/// `rust WEIGHTSFILE`: the table to paste into `src/fairychess/weights.rs`.
fn rust_table(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("rust WEIGHTSFILE");
        return ExitCode::from(2);
    };
    match read_weights(path) {
        Ok(w) => {
            print!("{}", tune::weights_source(w));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// `search FEN [NODES]`: what the evaluation sees and what the search makes of it.
fn search(args: &[String]) -> ExitCode {
    use jiang::request::SearchRequest;
    use jiang::search::{search, SearchControl};
    use jiang::tt::TranspositionTable;
    let Some(fen) = args.first() else {
        eprintln!("search FEN [NODES]");
        return ExitCode::from(2);
    };
    let nodes = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300_000);
    let pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{fen}: {e}");
            return ExitCode::from(2);
        }
    };
    println!("{}", jiang::fairychess::eval::trace(&pos));
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, None, false);
    let limits = SearchRequest {
        nodes: Some(nodes),
        ..SearchRequest::default()
    };
    let r = search(&pos, &limits, &tt, &control, &|i| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} score {:?} nodes {} pv {}",
            i.depth,
            i.score,
            i.nodes,
            pv.join(" ")
        );
    });
    println!(
        "best {} score {}",
        r.best_move.map_or("(none)".to_string(), |m| m.to_string()),
        r.score
    );
    ExitCode::SUCCESS
}

/// `evalbench GAMESFILE [REPEATS]`: evaluation speed on real game positions.
fn evalbench(args: &[String]) -> ExitCode {
    let Some(path) = args.first() else {
        eprintln!("evalbench GAMESFILE [REPEATS]");
        return ExitCode::from(2);
    };
    let repeats: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut positions = Vec::new();
    for line in text.lines() {
        let mut fields = line.split('|');
        let Some(Ok(mut pos)) = fields.next().map(Position::from_fen) else {
            continue;
        };
        for m in fields.next().unwrap_or("").split_whitespace() {
            let Ok(mv) = pos.parse_legal_move(m) else {
                break;
            };
            pos.make_move(mv);
            if pos.end_by_rule().is_none() {
                positions.push(pos.clone());
            }
        }
    }
    let start = Instant::now();
    let mut checksum: i64 = 0;
    for _ in 0..repeats {
        for (i, p) in positions.iter().enumerate() {
            let e = jiang::fairychess::eval::evaluate(p) as i64;
            checksum = checksum.wrapping_add(e * (i as i64 % 7 + 1));
        }
    }
    let n = positions.len() * repeats;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} evaluations in {secs:.3} s ({:.0}/s), checksum {checksum}",
        n as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn play_match(args: &[String]) -> ExitCode {
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(path), Some(pairs), Some(nodes), Some(seed)) = (args.first(), num(1), num(2), num(3))
    else {
        eprintln!("match WEIGHTSFILE PAIRS NODES SEED [imbalanced]");
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
        args.get(4).is_some_and(|a| a == "imbalanced"),
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

/// `endgames ARMIES NODES GAMES SEED [WEIGHTSFILE]`: how often White converts, e.g.
/// `endgames RR-,BS-C,NN- 20000 20 1`: per army pair (White-Black, letters), games from
/// random placements with 60 plies left, both sides with the same weights.
fn endgames(args: &[String]) -> ExitCode {
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<u64>().ok());
    let (Some(spec), Some(nodes), Some(games), Some(seed)) = (args.first(), num(1), num(2), num(3))
    else {
        eprintln!("endgames WHITE-BLACK,... NODES GAMES SEED [WEIGHTSFILE]");
        return ExitCode::from(2);
    };
    let weights: &'static jiang::fairychess::weights::Weights = match args.get(4) {
        None => &jiang::fairychess::weights::WEIGHTS,
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| tune::parse_weights(&t))
        {
            Ok(w) => Box::leak(w),
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let kinds = |t: &str| -> Vec<PieceKind> {
        t.chars()
            .filter_map(|c| PieceKind::from_letter(c.to_ascii_uppercase()))
            .collect()
    };
    let mut rng = tune::Rng::new(seed);
    let mut total = [0u32; 3];
    for pair in spec.split(',') {
        let (w, b) = pair.split_once('-').unwrap_or((pair, ""));
        let (w, b) = (kinds(w), kinds(b));
        let mut r = [0u32; 3];
        let mut plies = 0usize;
        for _ in 0..games {
            let start = tune::random_endgame(&mut rng, &w, &b, 40);
            let g = tune::play_game(&start, [weights, weights], nodes);
            let i = if g.result > 0.75 {
                0
            } else if g.result < 0.25 {
                2
            } else {
                1
            };
            if i == 0 {
                plies += g.moves.len();
            }
            r[i] += 1;
        }
        for i in 0..3 {
            total[i] += r[i];
        }
        println!(
            "{pair:>10}: White +{} ={} -{}  (wins in {:.1} plies on average)",
            r[0],
            r[1],
            r[2],
            plies as f64 / r[0].max(1) as f64
        );
    }
    println!("total: +{} ={} -{}", total[0], total[1], total[2]);
    ExitCode::SUCCESS
}

/// `positions GAMESFILE EVERY`: every EVERY-th quiet position of the games, one FEN a line.
fn positions(args: &[String]) -> ExitCode {
    let (Some(path), Some(every)) = (args.first(), args.get(1).and_then(|s| s.parse().ok())) else {
        eprintln!("positions GAMESFILE EVERY");
        return ExitCode::from(2);
    };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            for fen in tune::quiet_positions(&text, every) {
                println!("{fen}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(2)
        }
    }
}

/// The usage lines of `jiang-lab tune fairychess`.
pub const USAGE: &str = "tune fairychess moves < FENS\n\
tune fairychess perft DEPTH FEN\n\
tune fairychess selfplay GAMES NODES SEED [imbalanced]\n\
tune fairychess fit GAMESFILE ITERATIONS [material]\n\
tune fairychess rust WEIGHTSFILE\n\
tune fairychess weights\n\
tune fairychess match WEIGHTSFILE PAIRS NODES SEED [imbalanced]\n\
tune fairychess endgames WHITE-BLACK,... NODES GAMES SEED [WEIGHTSFILE]\n\
tune fairychess search FEN [NODES]\n\
tune fairychess evalbench GAMESFILE [REPEATS]\n\
tune fairychess positions GAMESFILE EVERY";

/// Runs one of the helpers (`args[0]` names it).
pub fn run(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("moves") => moves(),
        Some("perft") => perft(&args[1..]),
        Some("selfplay") => selfplay(&args[1..]),
        Some("fit") => fit(&args[1..]),
        Some("match") => play_match(&args[1..]),
        Some("endgames") => endgames(&args[1..]),
        Some("rust") => rust_table(&args[1..]),
        Some("search") => search(&args[1..]),
        Some("evalbench") => evalbench(&args[1..]),
        Some("positions") => positions(&args[1..]),
        Some("weights") => {
            print!(
                "{}",
                tune::weights_text(&jiang::fairychess::weights::WEIGHTS)
            );
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage:\n{}", jiang_lab_lines(USAGE));
            ExitCode::from(2)
        }
    }
}

/// `usage` with each command line prefixed by the binary's name.
pub fn jiang_lab_lines(usage: &str) -> String {
    usage
        .lines()
        .map(|l| {
            if l.starts_with("tune ") {
                format!("jiang-lab {l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
