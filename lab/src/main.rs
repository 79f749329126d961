//! The `jiang-lab` executable: one subcommand per offline job (`jiang-lab --help`).
//! Results go to stdout, progress and diagnostics to stderr.

use jiang_lab::{baroque, fairychess, matches, microchess, spsa, threechess, xiangqi};
use std::io::Write;
use std::process::ExitCode;

fn usage() -> String {
    format!(
        "usage: jiang-lab JOB ARGS...\n\n\
         jiang-lab datagen GAMES [--nodes N] [--seed S] [--random-plies MIN-MAX] [--hash MB] [--eval nnue|hce]\n    \
             Xiangqi self-play training positions to stdout (FEN | score | result)\n\
         jiang-lab datagen --perturb FILE [--per N] [--plies K] [--depth D] [--seed S]\n    \
             positions a few random plies from FILE's, labelled by a shallow search (FEN | score | -)\n\
         jiang-lab train OUT.nnue DATA... [--epochs N] [--lr X] [--batch N] [--lambda X] [--threads N]\n    \
             [--seed S] [--val X] [--wd X] [--init NET] [--max-positions N] [--output-buckets 1|8]\n    \
             train the Xiangqi evaluation network on datagen output\n\
         jiang-lab tune xiangqi GAMES [PASSES]\n    \
             fit the Xiangqi evaluation weights to game results (Texel; GAMES: FEN|moves|result lines)\n\
         {fairy}\n    \
             fairychess: self-play, matches and the fit of the evaluation weights, and the\n    \
             move lists perft/fairychess_crosscheck.py reads (lab/src/fairychess/cli.rs)\n\
         {baroque}\n    \
             baroque: the self-play material fit and weight matches (lab/src/baroque/cli.rs)\n\
         {book}\n\
         jiang-lab census\n    \
             microchess: the starts' solved figures and the handout's board positions\n\
         jiang-lab microchess-models [SEED] [RUNS] [--exact]\n    \
             microchess: jiang's rules against the course's Horde, exactly over every start, and\n    \
             RUNS simulated tournaments (--exact: also the ceilings of knowing every opponent move)\n\
         jiang-lab threechess-match [--players A,B,C] [--games N] [--movetime MS | --clock MS | --nodes N]\n    \
             [--max-plies N] [--seed S] [--verbose] | perft DEPTH | fit [...]\n    \
             three-player ThreeChess matches (jiang, UCI engines, the reference's agents)\n\
         {matches}\n\
         {openings}\n\
         {spsa}\n\
         {records}\n\
         {review}\n\
         jiang-lab --help",
        fairy = fairychess::cli::jiang_lab_lines(fairychess::cli::USAGE),
        baroque = fairychess::cli::jiang_lab_lines(baroque::cli::USAGE),
        book = xiangqi::book::USAGE,
        matches = matches::cli::USAGE,
        openings = matches::openings::USAGE,
        spsa = spsa::cli::USAGE,
        records = xiangqi::records::USAGE,
        review = xiangqi::review::USAGE,
    )
}

/// Prints a failure with the usage and returns the exit code for bad arguments.
fn bad_arguments(job: &str, e: &str) -> ExitCode {
    eprintln!("{job}: {e}\n{}", usage());
    ExitCode::from(2)
}

fn datagen(args: &[String]) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = if args.iter().any(|a| a == "--perturb") {
        match xiangqi::datagen::parse_perturb_args(args) {
            Ok(config) => xiangqi::datagen::perturb(&config, &mut out),
            Err(e) => return bad_arguments("datagen", &e),
        }
    } else {
        match xiangqi::datagen::parse_args(args) {
            Ok(config) => xiangqi::datagen::run(&config, &mut out).map_err(|e| e.to_string()),
            Err(e) => return bad_arguments("datagen", &e),
        }
    };
    match result.and_then(|()| out.flush().map_err(|e| e.to_string())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("datagen: {e}");
            ExitCode::from(1)
        }
    }
}

fn tune(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("xiangqi") => {
            let Some(path) = args.get(1) else {
                return bad_arguments("tune xiangqi", "needs a games file (FEN|moves|result)");
            };
            let passes = match args.get(2).map(|p| p.parse()) {
                None => 6,
                Some(Ok(p)) => p,
                Some(Err(_)) => return bad_arguments("tune xiangqi", "PASSES is a number"),
            };
            match xiangqi::tune::run(path, passes) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tune xiangqi: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Some("fairychess") => fairychess::cli::run(&args[1..]),
        Some("baroque") => match baroque::cli::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => bad_arguments("tune baroque", &e),
        },
        _ => bad_arguments("tune", "which game: xiangqi, fairychess or baroque"),
    }
}

fn book(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("build") => match xiangqi::book::parse_build_args(&args[1..]) {
            Ok((out, config)) => xiangqi::book::run_build(&out, &config),
            Err(e) => return bad_arguments("book build", &e),
        },
        Some("show") => match args.get(1) {
            Some(path) => {
                let fen = (args.len() > 2).then(|| args[2..].join(" "));
                xiangqi::book::show(path, fen.as_deref()).map(|lines| {
                    for l in lines {
                        println!("{l}");
                    }
                })
            }
            None => return bad_arguments("book show", "needs a book file"),
        },
        Some("walk") => match args.get(1) {
            Some(path) => xiangqi::eleeye_book::walk_file(path).map(print_lines),
            None => return bad_arguments("book walk", "needs a book file"),
        },
        Some("export-eleeye") => match (args.get(1), args.get(2)) {
            (Some(input), Some(output)) => {
                xiangqi::eleeye_book::export(input, output).map(print_lines)
            }
            _ => return bad_arguments("book export-eleeye", "needs IN and OUT"),
        },
        _ => return bad_arguments("book", "build, show, walk or export-eleeye"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("book: {e}");
            ExitCode::from(1)
        }
    }
}

/// Exit code of a job that returns an error message.
fn report(job: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{job}: {e}");
            ExitCode::from(1)
        }
    }
}

fn print_lines(lines: Vec<String>) {
    for l in lines {
        println!("{l}");
    }
}

fn census() -> ExitCode {
    let c = microchess::census::census();
    let f = microchess::census::start_figures(jiang::microchess::solution());
    println!(
        "reachable states: {} ({} with moves to make)",
        c.states, c.live_states
    );
    println!(
        "board positions: {} as the handout counts them, {} reached exactly",
        c.board_positions,
        c.boards.len()
    );
    println!("starts: {}", f.starts);
    for (side, name) in ["White", "Black"].iter().enumerate() {
        println!("{name} guaranteed payoff 0/1/2/3: {:?}", f.guaranteed[side]);
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or(&[]);
    match args.first().map(String::as_str) {
        Some("datagen") => datagen(rest),
        Some("train") => {
            match xiangqi::train::parse_args(rest).and_then(|c| xiangqi::train::run(&c)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => bad_arguments("train", &e),
            }
        }
        Some("tune") => tune(rest),
        Some("book") => book(rest),
        Some("census") if rest.is_empty() => census(),
        Some("microchess-models") => {
            let numbers: Vec<&String> = rest.iter().filter(|a| *a != "--exact").collect();
            let number = |i: usize, default: u64| match numbers.get(i).map(|s| s.parse::<u64>()) {
                None => Ok(default),
                Some(Ok(n)) => Ok(n),
                Some(Err(_)) => Err(format!("'{}' is not a number", numbers[i])),
            };
            let (seed, runs) = match (number(0, 1), number(1, 2000)) {
                (Ok(seed), Ok(runs)) => (seed, runs),
                (Err(e), _) | (_, Err(e)) => return bad_arguments("microchess-models", &e),
            };
            let exact = rest.iter().any(|a| a == "--exact");
            print_lines(microchess::models::report(seed, runs as u32, exact));
            ExitCode::SUCCESS
        }
        Some("threechess-match") => {
            threechess::match_runner::run(rest);
            ExitCode::SUCCESS
        }
        Some("match") => matches::cli::run(rest),
        Some("openings") => matches::openings::run(rest),
        Some("spsa") => spsa::cli::run(rest),
        Some("convert") => report("convert", xiangqi::records::convert(rest)),
        Some("records") => report("records", xiangqi::records::run(rest)),
        Some("review") => report("review", xiangqi::review::run(rest)),
        Some("--help") | Some("-h") | Some("help") => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", usage());
            ExitCode::from(2)
        }
    }
}
