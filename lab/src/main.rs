//! The `jiang-lab` executable: one subcommand per offline job (`jiang-lab --help`).
//! Results go to stdout, progress and diagnostics to stderr.

use jiang_lab::flags::{Flags, Spec};
use jiang_lab::{baroque, fairychess, jieqi, matches, microchess, spsa, threechess, xiangqi};
use std::io::Write;
use std::process::ExitCode;

/// `jiang-lab tune xiangqi`.
const TUNE_XIANGQI_USAGE: &str = "jiang-lab tune xiangqi GAMES [PASSES]\n    \
fit the Xiangqi evaluation weights to game results (Texel; GAMES: FEN|moves|result lines)";
/// `jiang-lab census`.
const CENSUS_USAGE: &str = "jiang-lab census\n    \
microchess: the starts' solved figures and the handout's board positions";
/// `jiang-lab microchess-models`.
const MODELS_USAGE: &str = "jiang-lab microchess-models [SEED] [RUNS] [--exact]\n    \
microchess: jiang's rules against the course's Horde, exactly over every start, and\n    \
RUNS simulated tournaments (--exact: also the ceilings of knowing every opponent move)";

/// The usage of `jiang-lab tune`.
fn tune_usage() -> String {
    format!(
        "{TUNE_XIANGQI_USAGE}\n{}\n{}",
        fairychess::cli::jiang_lab_lines(fairychess::cli::USAGE),
        fairychess::cli::jiang_lab_lines(baroque::cli::USAGE)
    )
}

fn usage() -> String {
    format!(
        "usage: jiang-lab JOB ARGS...\n\n\
         {datagen}\n\
         {train}\n\
         {TUNE_XIANGQI_USAGE}\n\
         {fairy}\n    \
             fairychess: self-play, matches and the fit of the evaluation weights, and the\n    \
             move lists perft/fairychess_crosscheck.py reads (lab/src/fairychess/cli.rs)\n\
         {baroque}\n    \
             baroque: the self-play material fit and weight matches (lab/src/baroque/cli.rs)\n\
         {book}\n\
         {CENSUS_USAGE}\n\
         {MODELS_USAGE}\n\
         jiang-lab threechess-match [--players A,B,C] [--games N] [--movetime MS | --clock MS | --nodes N]\n    \
             [--max-plies N] [--seed S] [--verbose] | perft DEPTH | bench [...] | fit [...]\n    \
             three-player ThreeChess matches (jiang, UCI engines, the reference's agents)\n\
         {matches}\n\
         jiang-lab jieqi-baseline [--depth D]\n    \
             a Jieqi player over UCI: expectimax of D plies (1-4, default 2) over reveals (lab/src/jieqi/baseline.rs)\n\
         {openings}\n\
         {spsa}\n\
         {records}\n\
         {review}\n\
         {egtb}\n\
         jiang-lab JOB --help\n    \
             the job's own usage\n\
         jiang-lab --help",
        datagen = xiangqi::datagen::USAGE,
        train = xiangqi::train::USAGE,
        fairy = fairychess::cli::jiang_lab_lines(fairychess::cli::USAGE),
        baroque = fairychess::cli::jiang_lab_lines(baroque::cli::USAGE),
        book = xiangqi::book::USAGE,
        matches = matches::cli::USAGE,
        openings = matches::openings::USAGE,
        spsa = spsa::cli::USAGE,
        records = xiangqi::records::USAGE,
        review = xiangqi::review::USAGE,
        egtb = xiangqi::egtb::USAGE,
    )
}

/// The arguments of `job` as `spec` reads them, or the exit code of a mistake (printed
/// with the usage).
fn parse(job: &str, args: &[String], spec: &Spec) -> Result<Flags, ExitCode> {
    Flags::parse(args, spec).map_err(|e| bad_arguments(job, &e))
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
            let spec = Spec::new(TUNE_XIANGQI_USAGE).args(2);
            let parsed = parse("tune xiangqi", &args[1..], &spec).and_then(|f| {
                let path: String = f
                    .arg(0, "a games file (FEN|moves|result)")
                    .map_err(|e| bad_arguments("tune xiangqi", &e))?;
                let passes: usize = f
                    .arg_or(1, 6, "PASSES")
                    .map_err(|e| bad_arguments("tune xiangqi", &e))?;
                Ok((path, passes))
            });
            let (path, passes) = match parsed {
                Ok(parsed) => parsed,
                Err(code) => return code,
            };
            match xiangqi::tune::run(&path, passes) {
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
        Some("--help") => {
            println!("{}", tune_usage());
            ExitCode::SUCCESS
        }
        _ => bad_arguments("tune", "which game: xiangqi, fairychess or baroque"),
    }
}

fn book(args: &[String]) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("build") => match xiangqi::book::parse_build_args(&args[1..]) {
            Ok((out, config)) => xiangqi::book::run_build(&out, &config),
            Err(e) => return bad_arguments("book build", &e),
        },
        Some(job @ ("show" | "walk" | "export-eleeye")) => {
            let most = match job {
                "show" => usize::MAX,
                "walk" => 1,
                _ => 2,
            };
            let name = format!("book {job}");
            let spec = Spec::new(xiangqi::book::USAGE).args(most);
            let f = match parse(&name, &args[1..], &spec) {
                Ok(f) => f,
                Err(code) => return code,
            };
            let files = match job {
                "export-eleeye" => f
                    .arg::<String>(0, "IN")
                    .and_then(|i| Ok((i, f.arg(1, "OUT")?))),
                _ => f
                    .arg::<String>(0, "a book file")
                    .map(|path| (path, String::new())),
            };
            let (path, output) = match files {
                Ok(files) => files,
                Err(e) => return bad_arguments(&name, &e),
            };
            match job {
                "show" => {
                    let fen = f.args().get(1..).filter(|words| !words.is_empty());
                    xiangqi::book::show(&path, fen.map(|w| w.join(" ")).as_deref()).map(print_lines)
                }
                "walk" => xiangqi::eleeye_book::walk_file(&path).map(print_lines),
                _ => xiangqi::eleeye_book::export(&path, &output).map(print_lines),
            }
        }
        Some("--help") => {
            println!("{}", xiangqi::book::USAGE);
            return ExitCode::SUCCESS;
        }
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
        Some("census") => match parse("census", rest, &Spec::new(CENSUS_USAGE)) {
            Ok(_) => census(),
            Err(code) => code,
        },
        Some("microchess-models") => {
            let spec = Spec::new(MODELS_USAGE).switches(&["exact"]).args(2);
            let parsed = parse("microchess-models", rest, &spec).and_then(|f| {
                let numbers = f
                    .arg_or(0, 1u64, "SEED")
                    .and_then(|seed| Ok((seed, f.arg_or(1, 2000u32, "RUNS")?)));
                match numbers {
                    Ok((seed, runs)) => Ok((seed, runs, f.is_set("exact"))),
                    Err(e) => Err(bad_arguments("microchess-models", &e)),
                }
            });
            let (seed, runs, exact) = match parsed {
                Ok(parsed) => parsed,
                Err(code) => return code,
            };
            print_lines(microchess::models::report(seed, runs, exact));
            ExitCode::SUCCESS
        }
        Some("threechess-match") => {
            threechess::match_runner::run(rest);
            ExitCode::SUCCESS
        }
        Some("match") => matches::cli::run(rest),
        Some("jieqi-baseline") => report("jieqi-baseline", jieqi::baseline::run(rest)),
        Some("openings") => matches::openings::run(rest),
        Some("spsa") => spsa::cli::run(rest),
        Some("convert") => report("convert", xiangqi::records::convert(rest)),
        Some("records") => report("records", xiangqi::records::run(rest)),
        Some("review") => report("review", xiangqi::review::run(rest)),
        Some("egtb") => report("egtb", xiangqi::egtb::run(rest)),
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
