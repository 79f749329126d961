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
use crate::flags::{Flags, Spec};
use jiang::fairychess::{PieceKind, Position};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

/// The usage line of helper `name`, as `jiang-lab` shows it.
fn usage_of(name: &str) -> String {
    let prefix = format!("tune fairychess {name}");
    jiang_lab_lines(
        &USAGE
            .lines()
            .filter(|l| {
                l.strip_prefix(&prefix)
                    .is_some_and(|r| r.is_empty() || r.starts_with(' '))
            })
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Parses helper `name`'s arguments (at most `max_args` plain ones, no options); a
/// mistake is printed with the helper's usage.
fn parse(name: &str, args: &[String], max_args: usize) -> Result<Flags, ExitCode> {
    let usage = usage_of(name);
    Flags::parse(args, &Spec::new(&usage).args(max_args)).map_err(|e| {
        eprintln!("{name}: {e}\n{usage}");
        ExitCode::from(2)
    })
}

/// Reads what `read` takes from the parsed arguments; a mistake is printed with helper
/// `name`'s usage.
fn read<T>(name: &str, read: impl FnOnce() -> Result<T, String>) -> Result<T, ExitCode> {
    read().map_err(|e| {
        eprintln!("{name}: {e}\n{}", usage_of(name));
        ExitCode::from(2)
    })
}

fn moves(args: &[String]) -> ExitCode {
    if let Err(code) = parse("moves", args, 0) {
        return code;
    }
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
    let (depth, fen) = match parse("perft", args, usize::MAX).and_then(|f| {
        let depth: u32 = read("perft", || f.arg(0, "DEPTH"))?;
        Ok((depth, f.args()[1..].join(" ")))
    }) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
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
    let parsed = parse("selfplay", args, 4).and_then(|f| {
        read("selfplay", || {
            Ok((
                f.arg::<u64>(0, "GAMES")?,
                f.arg::<u64>(1, "NODES")?,
                f.arg::<u64>(2, "SEED")?,
                f.keyword(3, "imbalanced")?,
            ))
        })
    });
    let (games, nodes, seed, imbalanced) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
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
    let parsed = parse("fit", args, 3).and_then(|f| {
        read("fit", || {
            Ok((
                f.arg::<String>(0, "GAMESFILE")?,
                f.arg(1, "ITERATIONS")?,
                f.keyword(2, "material")?,
            ))
        })
    });
    let (path, iters, material) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let r = tune::fit(&text, iters, material);
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
    let path = match parse("rust", args, 1)
        .and_then(|f| read("rust", || f.arg::<String>(0, "WEIGHTSFILE")))
    {
        Ok(path) => path,
        Err(code) => return code,
    };
    match read_weights(&path) {
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
    let parsed = parse("search", args, 2).and_then(|f| {
        read("search", || {
            Ok((
                f.arg::<String>(0, "FEN")?,
                f.arg_or(1, 300_000u64, "NODES")?,
            ))
        })
    });
    let (fen, nodes) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let pos = match Position::from_fen(&fen) {
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
    let parsed = parse("evalbench", args, 2).and_then(|f| {
        read("evalbench", || {
            Ok((
                f.arg::<String>(0, "GAMESFILE")?,
                f.arg_or(1, 50usize, "REPEATS")?,
            ))
        })
    });
    let (path, repeats) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let text = match std::fs::read_to_string(&path) {
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
    let parsed = parse("match", args, 5).and_then(|f| {
        read("match", || {
            Ok((
                f.arg::<String>(0, "WEIGHTSFILE")?,
                f.arg::<u64>(1, "PAIRS")?,
                f.arg::<u64>(2, "NODES")?,
                f.arg::<u64>(3, "SEED")?,
                f.keyword(4, "imbalanced")?,
            ))
        })
    });
    let (path, pairs, nodes, seed, imbalanced) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let w = match std::fs::read_to_string(&path)
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
        imbalanced,
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
    let parsed = parse("endgames", args, 5).and_then(|f| {
        read("endgames", || {
            Ok((
                f.arg::<String>(0, "WHITE-BLACK,...")?,
                f.arg::<u64>(1, "NODES")?,
                f.arg::<u64>(2, "GAMES")?,
                f.arg::<u64>(3, "SEED")?,
                f.args().get(4).cloned(),
            ))
        })
    });
    let (spec, nodes, games, seed, weights_file) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let weights: &'static jiang::fairychess::weights::Weights = match weights_file {
        None => &jiang::fairychess::weights::WEIGHTS,
        Some(path) => match std::fs::read_to_string(&path)
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
    let parsed = parse("positions", args, 2).and_then(|f| {
        read("positions", || {
            Ok((f.arg::<String>(0, "GAMESFILE")?, f.arg(1, "EVERY")?))
        })
    });
    let (path, every) = match parsed {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    match std::fs::read_to_string(&path) {
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
        Some("moves") => moves(&args[1..]),
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
            if let Err(code) = parse("weights", &args[1..], 0) {
                return code;
            }
            print!(
                "{}",
                tune::weights_text(&jiang::fairychess::weights::WEIGHTS)
            );
            ExitCode::SUCCESS
        }
        Some("--help") => {
            println!("{}", jiang_lab_lines(USAGE));
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
