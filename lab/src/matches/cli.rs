//! `jiang-lab match`: the command line (read through [`crate::flags`]) into a
//! [`MatchConfig`], the match, the summary.

use super::engine::{EngineSettings, EngineSpec};
use super::game::{GameConfig, Limit, TimeControl};
use super::process::{catch_signals, IoLog};
use super::referee::Variant;
use super::report::summary_text;
use super::runner::{Match, MatchConfig};
use super::schedule::{load_openings, rotate, shuffle, Colours};
use super::stats::Sprt;
use crate::flags::{Flags, Spec};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The usage lines of `jiang-lab match`.
pub const USAGE: &str = "jiang-lab match --engine KEY=VALUE... --engine KEY=VALUE... [--each KEY=VALUE...]\n    \
    (--nodes N | --depth N | --movetime MS | --tc BASE+INC | --tc MOVES/BASE+INC) [--games N]\n    \
    [--openings FILE] [--colours pairs|a-to-move] [--shuffle] [--seed S] [--opening-offset K] [--concurrency N] [--variant xiangqi|fairychess|baroque|jieqi]\n    \
    [--max-move-ms MS] [--margin-ms MS] [--draw-plies N] [--no-capture-plies N] [--ignore-resign]\n    \
    [--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05] [--pgn FILE] [--json FILE] [--log FILE] [--event NAME]\n    \
    [--startup-ms MS] [--ready-ms MS] [--stop-grace-ms MS] [--quiet]\n    \
    two engines over UCI or UCCI, every move refereed by jiang's rules (lab/README.md, \"jiang-lab match\")";

const VALUES: &[&str] = &[
    "variant",
    "games",
    "tc",
    "movetime",
    "depth",
    "nodes",
    "max-move-ms",
    "margin-ms",
    "openings",
    "colours",
    "seed",
    "opening-offset",
    "concurrency",
    "draw-plies",
    "no-capture-plies",
    "pgn",
    "json",
    "log",
    "event",
    "startup-ms",
    "ready-ms",
    "stop-grace-ms",
];
const SWITCHES: &[&str] = &["shuffle", "ignore-resign", "quiet"];
const LISTS: &[&str] = &["engine", "each", "sprt"];

/// The limit given by exactly one of `--tc`, `--movetime`, `--depth`, `--nodes`.
pub fn parse_limit(flags: &Flags) -> Result<Limit, String> {
    let given: Vec<&str> = ["tc", "movetime", "depth", "nodes"]
        .into_iter()
        .filter(|k| flags.has(k))
        .collect();
    if given.len() != 1 {
        return Err("give exactly one of --tc, --movetime, --depth, --nodes".into());
    }
    let positive = |name: &str| -> Result<u64, String> {
        match flags.optional::<u64>(name)? {
            Some(v) if v > 0 => Ok(v),
            _ => Err(format!("--{name} must be positive")),
        }
    };
    Ok(match given[0] {
        "tc" => TimeControl::parse_clock(&flags.text("tc"))?,
        "movetime" => Limit::MoveTime(positive("movetime")?),
        "depth" => {
            Limit::Depth(u32::try_from(positive("depth")?).map_err(|_| "--depth is too large")?)
        }
        _ => Limit::Nodes(positive("nodes")?),
    })
}

/// The two engines of `--engine` (twice) on top of `--each`; names made distinct.
pub fn parse_engines(flags: &Flags) -> Result<[EngineSpec; 2], String> {
    let lists = flags.lists("engine");
    if lists.len() != 2 {
        return Err(format!(
            "need exactly two --engine definitions, got {}",
            lists.len()
        ));
    }
    let each: Vec<String> = flags.lists("each").iter().flatten().cloned().collect();
    let base =
        EngineSpec::parse(&each, &EngineSpec::default()).map_err(|e| format!("--each: {e}"))?;
    let mut specs = Vec::new();
    for (i, items) in lists.iter().enumerate() {
        let mut spec =
            EngineSpec::parse(items, &base).map_err(|e| format!("engine {}: {e}", i + 1))?;
        if spec.command.is_empty() {
            return Err(format!("engine {} has no cmd=", i + 1));
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.command[0])
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_else(|| spec.command[0].clone());
        }
        specs.push(spec);
    }
    let mut b = specs.pop().ok_or("no engine")?;
    let mut a = specs.pop().ok_or("no engine")?;
    if a.name == b.name {
        a.name.push_str("-1");
        b.name.push_str("-2");
    }
    Ok([a, b])
}

/// Reads the command line into a match; warnings (skipped openings) go to stderr.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let flags = Flags::parse(
        args,
        &Spec::new(USAGE)
            .options(VALUES)
            .switches(SWITCHES)
            .lists(LISTS),
    )?;
    let specs = parse_engines(&flags)?;
    let variant_name = flags.get("variant", "xiangqi".to_string())?;
    let variant = Variant::from_name(&variant_name).ok_or_else(|| {
        format!("--variant: unknown game '{variant_name}' (xiangqi, fairychess, baroque, jieqi)")
    })?;
    let limit = parse_limit(&flags)?;
    let games: u32 = flags.get("games", 2)?;
    let max_move_ms: u64 = flags.get("max-move-ms", 10_000)?;
    if games == 0 || max_move_ms == 0 {
        return Err("--games and --max-move-ms must be positive".into());
    }
    let tc = TimeControl {
        limit,
        max_move_ms,
        margin_ms: flags.get("margin-ms", 200)?,
    };
    let game = GameConfig {
        variant,
        tc,
        draw_plies: flags.get("draw-plies", 300)?,
        no_capture_plies: flags.get("no-capture-plies", 0)?,
        honour_resign: !flags.is_set("ignore-resign"),
        deal_seed: flags.get("seed", 0)?,
    };
    let openings_path = flags.optional::<String>("openings")?;
    let mut openings = match &openings_path {
        Some(path) => {
            let ops = load_openings(path, variant, &mut |w| eprintln!("warning: {w}"))?;
            if ops.is_empty() {
                return Err(format!("no usable openings in {path}"));
            }
            ops
        }
        None => vec![variant.start_fen()],
    };
    if flags.is_set("shuffle") {
        shuffle(&mut openings, flags.get("seed", 0)?);
    }
    rotate(&mut openings, flags.get("opening-offset", 0)?);
    let ms = |name: &str, default: u64| -> Result<Duration, String> {
        Ok(Duration::from_millis(flags.get(name, default)?))
    };
    let settings = EngineSettings {
        startup: ms("startup-ms", 10_000)?,
        ready: ms("ready-ms", 10_000)?,
        stop_grace: ms("stop-grace-ms", 1_000)?,
        quit_grace: Duration::from_secs(1),
        variant,
    };
    let log = match flags.optional::<String>("log")? {
        Some(p) => Some(Arc::new(
            IoLog::open(p.as_ref()).map_err(|e| format!("--log {p}: {e}"))?,
        )),
        None => None,
    };
    let sprt = match flags.lists("sprt") {
        [] => None,
        lists => Some(Sprt::parse(&lists.concat())?),
    };
    let colours: Colours = flags.get("colours", Colours::Pairs)?;
    if games % 2 == 1 && colours == Colours::Pairs {
        eprintln!("warning: odd number of games; the last opening is played with one colour only");
    }
    Ok(MatchConfig {
        specs,
        games,
        game,
        openings,
        openings_path,
        colours,
        concurrency: flags.get::<usize>("concurrency", 1)?.max(1),
        pgn_path: flags.optional::<String>("pgn")?.map(PathBuf::from),
        json_path: flags.optional::<String>("json")?.map(PathBuf::from),
        sprt,
        settings,
        log,
        event: flags.get("event", "jiang-lab match".to_string())?,
        quiet: flags.is_set("quiet"),
        max_start_failures: 3,
    })
}

/// `jiang-lab match ARGS`: exit 0 when the match was played, 2 for bad arguments or an
/// engine that fails to start, 130 when interrupted (the games finished are written).
pub fn run(args: &[String]) -> ExitCode {
    let config = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("match: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    catch_signals();
    let m = Match::new(config);
    match m.run() {
        Err(e) => {
            eprintln!("match: {e}");
            ExitCode::from(2)
        }
        Ok(outcome) => {
            print!("{}", summary_text(&outcome.summary));
            if let Some(f) = outcome.fatal {
                eprintln!("error: {f}");
                return ExitCode::from(2);
            }
            if outcome.interrupted {
                eprintln!("match: interrupted; the games finished are in the summary");
                return ExitCode::from(130);
            }
            ExitCode::SUCCESS
        }
    }
}
