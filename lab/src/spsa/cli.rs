//! `jiang-lab spsa`: the command line, the games of each iteration (played through the
//! match runner's library, [`crate::matches::game::play_game`]), the checkpoint.

use super::{Gains, Param, Spsa, Step};
use crate::flags::{Flags, Spec};
use crate::matches::cli::parse_limit;
use crate::matches::engine::{Engine, EngineSettings, EngineSpec};
use crate::matches::game::{play_game, Forfeit, GameConfig, GameRecord, Limit, Seat, TimeControl};
use crate::matches::process::{catch_signals, interrupted};
use crate::matches::referee::Variant;
use crate::matches::schedule::load_openings;
use crate::matches::stats::Wdl;
use std::process::ExitCode;

/// The usage lines of `jiang-lab spsa`.
pub const USAGE: &str = "jiang-lab spsa --engine KEY=VALUE... (--params FILE | --tune NAME[,NAME...]) [--iterations N]\n    \
    [--pairs P] [--nodes N | --depth N | --movetime MS | --tc BASE+INC] [--openings FILE] [--seed S]\n    \
    [--concurrency K] [--checkpoint FILE] [--c-end X] [--r-end X] [--a-ratio X] [--alpha X] [--gamma X]\n    \
    [--max-move-ms MS] [--margin-ms MS] [--draw-plies N] [--quiet] | --engine ... --print-params\n    \
    tunes spin options by SPSA as fishtest does (lab/README.md, \"jiang-lab spsa\")";

const VALUES: &[&str] = &[
    "params",
    "tune",
    "iterations",
    "pairs",
    "nodes",
    "depth",
    "movetime",
    "tc",
    "openings",
    "seed",
    "concurrency",
    "checkpoint",
    "c-end",
    "r-end",
    "a-ratio",
    "alpha",
    "gamma",
    "max-move-ms",
    "margin-ms",
    "draw-plies",
];
const SWITCHES: &[&str] = &["print-params", "quiet"];
const LISTS: &[&str] = &["engine"];

/// A tuning run as the command line describes it.
pub struct SpsaRun {
    /// The engine (both sides).
    pub spec: EngineSpec,
    /// The algorithm's state.
    pub spsa: Spsa,
    /// How the games are played.
    pub game: GameConfig,
    /// Openings.
    pub openings: Vec<String>,
    /// Iterations at the same time.
    pub concurrency: usize,
    /// Where the state is kept.
    pub checkpoint: Option<String>,
    /// One line per round instead of one per iteration.
    pub quiet: bool,
}

fn engine_spec(flags: &Flags) -> Result<EngineSpec, String> {
    let lists = flags.lists("engine");
    let [items] = lists else {
        return Err(format!(
            "give one --engine (both sides play it), got {}",
            lists.len()
        ));
    };
    let mut spec = EngineSpec::parse(items, &EngineSpec::default())?;
    if spec.command.is_empty() {
        return Err("the engine has no cmd=".into());
    }
    if spec.name.is_empty() {
        spec.name = "engine".into();
    }
    Ok(spec)
}

fn start_engine(spec: &EngineSpec, label: &str) -> Result<Engine, String> {
    let mut e = Engine::new(spec.clone(), EngineSettings::default(), None, label);
    e.start()
        .map_err(|err| format!("engine {} failed to start: {err}", spec.name))?;
    Ok(e)
}

/// The parameters: a `--params` file, or `--tune NAMES` taken from the engine's own
/// option list (start = its default, its min and max, `--c-end` (default a twentieth of
/// the range, at least 1) and `--r-end` (default 0.002)).
fn parameters(flags: &Flags, spec: &EngineSpec) -> Result<Vec<Param>, String> {
    if let Some(path) = flags.optional::<String>("params")? {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("--params {path}: {e}"))?;
        return Param::parse_file(&text).map_err(|e| format!("--params {path}: {e}"));
    }
    let names = flags.text("tune");
    if names.is_empty() {
        return Err("give --params FILE or --tune NAME[,NAME...]".into());
    }
    let engine = start_engine(spec, "spsa-options")?;
    let mut params = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let d = engine
            .declared_option(name)
            .ok_or_else(|| format!("the engine declares no option '{name}'"))?;
        let (Some(min), Some(max)) = (d.min, d.max) else {
            return Err(format!(
                "option '{name}' is not a spin option with min and max"
            ));
        };
        let start: i64 = d
            .default
            .as_deref()
            .and_then(|v| v.parse().ok())
            .unwrap_or(min);
        let c_end = flags.get("c-end", (((max - min) as f64) / 20.0).max(1.0))?;
        let r_end = flags.get("r-end", 0.002)?;
        params.push(Param::parse(&format!(
            "{},{start},{min},{max},{c_end},{r_end}",
            d.name
        ))?);
    }
    Ok(params)
}

/// Prints the engine's spin options as parameter lines (a file to edit for `--params`).
fn print_params(spec: &EngineSpec) -> Result<(), String> {
    let engine = start_engine(spec, "spsa-options")?;
    println!(
        "# NAME,start,min,max,c_end,r_end: the spin options of {}",
        engine.id_name.as_deref().unwrap_or("the engine")
    );
    for d in &engine.declared {
        if let (Some(min), Some(max), "spin") = (d.min, d.max, d.kind.as_str()) {
            let start = d.default.as_deref().unwrap_or("0");
            let c_end = (((max - min) as f64) / 20.0).max(1.0);
            println!("{},{start},{min},{max},{c_end},0.002", d.name);
        }
    }
    Ok(())
}

/// Reads the command line into a run (`None`: `--print-params` was done).
pub fn parse_args(args: &[String]) -> Result<Option<SpsaRun>, String> {
    let flags = Flags::parse(
        args,
        &Spec::new(USAGE)
            .options(VALUES)
            .switches(SWITCHES)
            .lists(LISTS),
    )?;
    let spec = engine_spec(&flags)?;
    if flags.is_set("print-params") {
        print_params(&spec)?;
        return Ok(None);
    }
    let params = parameters(&flags, &spec)?;
    let gains = Gains {
        iterations: flags.get("iterations", 200)?,
        a_ratio: flags.get("a-ratio", 0.1)?,
        alpha: flags.get("alpha", 0.602)?,
        gamma: flags.get("gamma", 0.101)?,
    };
    if gains.iterations == 0 {
        return Err("--iterations must be positive".into());
    }
    let pairs: u32 = flags.get("pairs", 1)?;
    let limit = if ["tc", "movetime", "depth", "nodes"]
        .iter()
        .any(|k| flags.has(k))
    {
        parse_limit(&flags)?
    } else {
        Limit::Nodes(2000)
    };
    let game = GameConfig {
        variant: Variant::Xiangqi,
        tc: TimeControl {
            limit,
            max_move_ms: flags.get("max-move-ms", 10_000)?,
            margin_ms: flags.get("margin-ms", 200)?,
        },
        draw_plies: flags.get("draw-plies", 300)?,
        no_capture_plies: 0,
        honour_resign: true,
        deal_seed: 0,
    };
    let openings = match flags.optional::<String>("openings")? {
        Some(path) => {
            let ops = load_openings(&path, Variant::Xiangqi, &mut |w| eprintln!("warning: {w}"))?;
            if ops.is_empty() {
                return Err(format!("no usable openings in {path}"));
            }
            ops
        }
        None => vec![Variant::Xiangqi.start_fen()],
    };
    let mut spsa = Spsa::new(params, gains, pairs, flags.get("seed", 1)?);
    let checkpoint = flags.optional::<String>("checkpoint")?;
    if let Some(path) = &checkpoint {
        if let Ok(text) = std::fs::read_to_string(path) {
            let value: serde_json::Value =
                serde_json::from_str(&text).map_err(|e| format!("checkpoint {path}: {e}"))?;
            spsa.resume(&value)
                .map_err(|e| format!("checkpoint {path}: {e}"))?;
            eprintln!("spsa: resuming {path} at iteration {}", spsa.k);
        }
    }
    Ok(Some(SpsaRun {
        spec,
        spsa,
        game,
        openings,
        concurrency: flags.get::<usize>("concurrency", 1)?.max(1),
        checkpoint,
        quiet: flags.is_set("quiet"),
    }))
}

/// What a step's games gave.
#[derive(Clone, Debug, Default)]
pub struct StepResult {
    /// θ⁺'s W/D/L.
    pub wdl: Wdl,
    /// Forfeits of either side (illegal moves, time losses, crashes, bad replies).
    pub faults: u32,
    /// Games not finished (interrupted).
    pub aborted: u32,
}

fn options_of(params: &[Param], values: &[i64]) -> Vec<(String, String)> {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| (p.name.clone(), v.to_string()))
        .collect()
}

/// Plays a step's pairs: θ⁺ (`engines[0]`) against θ⁻ (`engines[1]`), θ⁺ Red first.
pub fn play_step(
    step: &Step,
    params: &[Param],
    engines: &mut [Engine; 2],
    game: &GameConfig,
    openings: &[String],
) -> StepResult {
    let mut out = StepResult::default();
    let [plus, minus] = engines;
    let set = plus
        .set_options(&options_of(params, &step.plus))
        .and_then(|()| minus.set_options(&options_of(params, &step.minus)));
    if let Err(e) = set {
        eprintln!("spsa: setting the options failed: {e}");
    }
    for (pair, &op) in step.openings.iter().enumerate() {
        let fen = openings
            .get(op)
            .cloned()
            .unwrap_or_else(|| Variant::Xiangqi.start_fen());
        for red in [Seat::A, Seat::B] {
            let mut rec = GameRecord::new(pair as u32 * 2 + 1, op, &fen, red);
            let (r, b) = match red {
                Seat::A => (&mut *plus, &mut *minus),
                Seat::B => (&mut *minus, &mut *plus),
            };
            play_game(&mut rec, r, b, game, &interrupted);
            match rec.score_of(Seat::A) {
                None => out.aborted += 1,
                Some(score) => out.wdl.add(score),
            }
            if rec.forfeit.is_some_and(|(_, f)| f != Forfeit::Resign) {
                out.faults += 1;
            }
        }
    }
    out
}

fn save(run: &SpsaRun) {
    if let Some(path) = &run.checkpoint {
        let tmp = format!("{path}.tmp");
        let text = serde_json::to_string_pretty(&run.spsa.to_json()).unwrap_or_default();
        if let Err(e) = std::fs::write(&tmp, text + "\n").and_then(|()| std::fs::rename(&tmp, path))
        {
            eprintln!("spsa: cannot write the checkpoint {path}: {e}");
        }
    }
}

fn thetas(spsa: &Spsa) -> String {
    spsa.params
        .iter()
        .map(|p| format!("{}={:.2}", p.name, p.theta))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the tuner until its iterations are played (or it is interrupted).
pub fn tune(run: &mut SpsaRun) -> Result<bool, String> {
    catch_signals();
    let mut slots: Vec<[Engine; 2]> = Vec::new();
    for i in 0..run.concurrency {
        let mut pair = [
            Engine::new(
                run.spec.clone(),
                EngineSettings::default(),
                None,
                &format!("plus#{i}"),
            ),
            Engine::new(
                run.spec.clone(),
                EngineSettings::default(),
                None,
                &format!("minus#{i}"),
            ),
        ];
        for e in &mut pair {
            e.start()
                .map_err(|err| format!("engine {} failed to start: {err}", run.spec.name))?;
        }
        slots.push(pair);
    }
    println!(
        "spsa: {} parameters, {} iterations ({} pair(s) each, A {}, alpha {}, gamma {}), {}, {} openings, concurrency {}, seed {}",
        run.spsa.params.len(),
        run.spsa.gains.iterations,
        run.spsa.pairs,
        run.spsa.gains.big_a(),
        run.spsa.gains.alpha,
        run.spsa.gains.gamma,
        run.game.tc.describe(),
        run.openings.len(),
        run.concurrency,
        run.spsa.seed
    );
    println!("start: {}", thetas(&run.spsa));
    let mut total = Wdl::default();
    let mut faults = 0;
    while !run.spsa.done() {
        if interrupted() {
            break;
        }
        // A round: up to `concurrency` iterations from the same θ.
        let mut steps = Vec::new();
        let mut k = run.spsa.k;
        while steps.len() < run.concurrency && k < run.spsa.gains.iterations {
            steps.push(run.spsa.step(k, run.openings.len()));
            k += u64::from(run.spsa.pairs);
        }
        let params = run.spsa.params.clone();
        let (game, openings) = (&run.game, &run.openings);
        let results: Vec<StepResult> = std::thread::scope(|scope| {
            let handles: Vec<_> = steps
                .iter()
                .zip(slots.iter_mut())
                .map(|(step, engines)| {
                    let params = &params;
                    scope.spawn(move || play_step(step, params, engines, game, openings))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        if interrupted() || results.iter().any(|r| r.aborted > 0) {
            break; // the round is not applied: a resumed run plays it again
        }
        for (step, r) in steps.iter().zip(&results) {
            let result = i64::from(r.wdl.wins) - i64::from(r.wdl.losses);
            run.spsa.apply(step, result);
            total.wins += r.wdl.wins;
            total.draws += r.wdl.draws;
            total.losses += r.wdl.losses;
            faults += r.faults;
            if !run.quiet {
                let plus: Vec<String> = step.plus.iter().map(i64::to_string).collect();
                let minus: Vec<String> = step.minus.iter().map(i64::to_string).collect();
                println!(
                    "[{:>5}/{}] plus {} minus {}: {:+} (+{} ={} -{}) -> {}",
                    run.spsa.k,
                    run.spsa.gains.iterations,
                    plus.join(","),
                    minus.join(","),
                    result,
                    r.wdl.wins,
                    r.wdl.draws,
                    r.wdl.losses,
                    thetas(&run.spsa)
                );
            }
        }
        if run.quiet {
            println!(
                "[{:>5}/{}] {}",
                run.spsa.k,
                run.spsa.gains.iterations,
                thetas(&run.spsa)
            );
        }
        save(run);
    }
    for slot in &mut slots {
        for e in slot.iter_mut() {
            e.stop();
        }
    }
    save(run);
    println!(
        "games: plus +{} ={} -{} (faults {faults}); final: {}",
        total.wins,
        total.draws,
        total.losses,
        thetas(&run.spsa)
    );
    println!(
        "# tuned values (NAME,value,min,max,c_end,r_end as a --params file starting from them):"
    );
    for p in &run.spsa.params {
        println!(
            "{},{},{},{},{},{}",
            p.name,
            p.theta.round(),
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    Ok(run.spsa.done())
}

/// `jiang-lab spsa ARGS`: 0 when the iterations are done, 1 on a failure, 2 for bad
/// arguments, 130 when interrupted (the checkpoint holds the last whole round).
pub fn run(args: &[String]) -> ExitCode {
    let mut spsa_run = match parse_args(args) {
        Ok(Some(r)) => r,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("spsa: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    match tune(&mut spsa_run) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!(
                "spsa: stopped at iteration {}; run again to resume",
                spsa_run.spsa.k
            );
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("spsa: {e}");
            ExitCode::from(1)
        }
    }
}
