//! The `jiang` executable: the protocol loop on stdin/stdout, or a one-shot command
//! (`jiang perft D [FEN]`, `jiang bench [D]`).

use jiang::protocol;
use std::process::ExitCode;

fn usage() -> &'static str {
    "usage: jiang                    read UCCI/UCI/terminal commands from stdin\n       \
     jiang perft [--variant NAME] DEPTH [FEN]\n                                 count leaf nodes (divide) and report speed\n       \
     jiang bench [DEPTH [hce|nnue]]  fixed-depth search benchmark (node signature, nps)\n       \
     jiang --version | --help\n\n\
     Offline jobs (data generation, training, tuning) live in the workspace member\n\
     jiang-lab (lab/): cargo run --release -p jiang-lab -- --help"
}

fn main() -> ExitCode {
    // Diagnostics go to stderr; stdout carries protocol only. RUST_LOG=debug for more.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            protocol::run();
            ExitCode::SUCCESS
        }
        Some("perft") => {
            // jiang perft [--variant NAME] DEPTH [FEN]
            let mut rest = &args[1..];
            let mut variant = jiang::games::DEFAULT_VARIANT;
            if rest.first().map(String::as_str) == Some("--variant") {
                let Some(v) = rest.get(1) else {
                    eprintln!("--variant needs a name\n{}", usage());
                    return ExitCode::from(2);
                };
                variant = v;
                rest = &rest[2..];
            }
            let Some(depth) = rest
                .first()
                .and_then(|d| d.parse::<u32>().ok())
                .filter(|d| *d <= 12)
            else {
                eprintln!("perft needs a depth from 0 to 12\n{}", usage());
                return ExitCode::from(2);
            };
            let Some(game) = jiang::games::new_session(variant) else {
                eprintln!(
                    "unknown variant '{variant}' (jiang plays {})",
                    jiang::games::VARIANTS.join(", ")
                );
                return ExitCode::from(2);
            };
            let fen = rest[1..].join(" ");
            match game.perft(depth, (!fen.is_empty()).then_some(fen.as_str())) {
                Ok(report) => {
                    for line in protocol::perft_lines(&report) {
                        println!("{line}");
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(2)
                }
            }
        }
        Some("bench") => {
            // `jiang bench [DEPTH] [hce|nnue]`: the evaluation to measure (default: the
            // engine's default).
            let use_network = match args.get(2) {
                None => jiang::xiangqi::nnue::DEFAULT_ENABLED,
                Some(name) => match jiang::xiangqi::nnue::Evaluation::named(name) {
                    Some(evaluation) => evaluation.uses_network(),
                    None => {
                        eprintln!("bench: unknown evaluation '{name}' (hce or nnue)");
                        return ExitCode::from(2);
                    }
                },
            };
            let depth = match args.get(1).map(|d| d.parse::<i32>()) {
                None => jiang::bench::DEFAULT_DEPTH,
                Some(Ok(d)) if (1..=30).contains(&d) => d,
                _ => {
                    eprintln!("bench takes a depth from 1 to 30");
                    return ExitCode::from(2);
                }
            };
            for line in protocol::bench_report(depth, use_network, &mut |l| eprintln!("{l}")) {
                println!("{line}");
            }
            for line in jiang::search::stats::report() {
                eprintln!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some("--version") | Some("-V") => {
            println!("{}", protocol::version_line());
            ExitCode::SUCCESS
        }
        Some("--help") | Some("-h") | Some("help") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown argument '{other}'\n{}", usage());
            ExitCode::from(2)
        }
    }
}
