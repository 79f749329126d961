//! `jiang-lab tune baroque`: self-play tools for the Baroque evaluation (minutes to
//! hours each).
//!
//! * `fit`: self-play at fixed nodes, then the logistic fit of the material values with
//!   a bootstrap interval over games (see [`crate::baroque::tune`]). Options: `--games`
//!   (each from its own opening), `--nodes`, `--rounds` (refit and replay with the fitted
//!   values), `--seed`, `--resamples`, `--base` (weights to start from), and the
//!   self-play options `--random-plies`, `--max-plies`.
//! * `match`: the default weights against a variant. Options: `--variant` (e.g.
//!   `king_open=10,value.2=500`), `--base` (changes to the defaults for both sides),
//!   `--pairs`, `--nodes`, `--seed`, `--random-plies`, `--max-plies`.
//!
//! Run: `nice -n 10 cargo run --release -p jiang-lab -- tune baroque fit --games 100`.

use crate::baroque::tune::{
    material_fit_with_bootstrap, run_match, run_selfplay, samples, set_param, GameRecord, Sample,
    SelfPlay, SAMPLE_KINDS,
};
use crate::flags::{Flags, Spec};
use jiang::baroque::eval::{Params, DEFAULT_PARAMS};

/// The usage lines of `jiang-lab tune baroque`.
pub const USAGE: &str =
    "tune baroque fit [--games N] [--rounds N] [--resamples N] [--base CHANGES] \
[--nodes N] [--random-plies N] [--max-plies N] [--seed S]\n\
tune baroque match [--variant CHANGES] [--base CHANGES] [--pairs N] [--nodes N] \
[--random-plies N] [--max-plies N] [--seed S]\n    \
(CHANGES: name=value,... as in jiang::baroque::eval::Params, e.g. king_open=10,value.2=500)";

/// Runs `fit` or `match` with their options.
pub fn run(args: &[String]) -> Result<(), String> {
    const SELF_PLAY: [&str; 4] = ["nodes", "random-plies", "max-plies", "seed"];
    let usage = crate::fairychess::cli::jiang_lab_lines(USAGE);
    match args.first().map(String::as_str) {
        Some("fit") => {
            let known = [&SELF_PLAY[..], &["games", "rounds", "resamples", "base"]].concat();
            material_fit(&Flags::parse(
                &args[1..],
                &Spec::new(&usage).options(&known),
            )?)
        }
        Some("match") => {
            let known = [&SELF_PLAY[..], &["variant", "base", "pairs"]].concat();
            weights_match(&Flags::parse(
                &args[1..],
                &Spec::new(&usage).options(&known),
            )?)
        }
        Some("--help") => {
            println!("{usage}");
            Ok(())
        }
        _ => Err("fit or match (options: jiang-lab --help)".to_string()),
    }
}

/// The parameters `base` with the comma-separated `name=value` changes applied; leaked,
/// as the self-play players hold `&'static Params`.
fn with_changes(base: Params, changes: &str) -> Result<&'static Params, String> {
    let mut p = base;
    for c in changes.split(',').filter(|c| !c.trim().is_empty()) {
        set_param(&mut p, c.trim())?;
    }
    Ok(Box::leak(Box::new(p)))
}

fn config(flags: &Flags) -> Result<SelfPlay, String> {
    Ok(SelfPlay {
        nodes: flags.get("nodes", 20_000)?,
        random_plies: flags.get("random-plies", 4)?,
        max_plies: Some(flags.get("max-plies", 600)?),
    })
}

/// Self-play rounds, each followed by the material fit (printed on stdout).
fn material_fit(flags: &Flags) -> Result<(), String> {
    let cfg = config(flags)?;
    let games_wanted: usize = flags.get("games", 100)?;
    let rounds: usize = flags.get("rounds", 1)?;
    let seed: u64 = flags.get("seed", 1)?;
    let resamples: usize = flags.get("resamples", 200)?;
    let mut params: &'static Params = with_changes(DEFAULT_PARAMS, &flags.text("base"))?;
    println!(
        "material fit: {games_wanted} games a round, {} nodes a move, {} random plies, ply cap {:?}, seed {seed}",
        cfg.nodes, cfg.random_plies, cfg.max_plies
    );
    for round in 0..rounds {
        let mut per_game: Vec<Vec<Sample>> = Vec::new();
        let mut reasons = std::collections::BTreeMap::new();
        let mut plies = 0;
        let started = std::time::Instant::now();
        let (mut white, mut black, mut draws) = (0, 0, 0);
        let playing: Vec<i32> = SAMPLE_KINDS
            .iter()
            .map(|k| params.value[k.index()])
            .collect();
        let mut collect = |g: &GameRecord| {
            match g.white_score {
                x if x > 0.75 => white += 1,
                x if x < 0.25 => black += 1,
                _ => draws += 1,
            }
            per_game.push(samples(g));
            *reasons.entry(g.reason.clone()).or_insert(0) += 1;
            plies += g.moves.len();
            let n = per_game.len();
            if n.is_multiple_of(50) || n == games_wanted {
                eprintln!(
                    "  round {round}: {n} games ({:.0} s so far)",
                    started.elapsed().as_secs_f64()
                );
            }
        };
        run_selfplay(
            params,
            games_wanted,
            &cfg,
            seed + round as u64,
            &mut collect,
        );
        let games = per_game.len();
        let n_samples: usize = per_game.iter().map(|g| g.len()).sum();
        let (w, values, ci) = material_fit_with_bootstrap(&per_game, resamples, seed);
        println!(
            "round {round}: playing with {playing:?} (P C L I W F); {games} games ({} plies on average, {:.0} s), {n_samples} samples, white {white} / black {black} / draw {draws}",
            plies / games.max(1),
            started.elapsed().as_secs_f64()
        );
        println!("  endings {reasons:?}");
        println!("  logistic weights per piece of surplus (P C L I W F): {w:.3?}");
        for ((k, v), (lo, hi)) in SAMPLE_KINDS.iter().zip(values.iter()).zip(ci.iter()) {
            println!(
                "  {:<12} {v:>5}   95 % bootstrap interval {lo} .. {hi} ({resamples} resamples of games)",
                k.name()
            );
        }
        let mut next = *params;
        for (k, v) in SAMPLE_KINDS.iter().zip(values.iter()) {
            next.value[k.index()] = *v;
        }
        println!(
            "  as Params::value (PieceKind order P C L I W K F): {:?}",
            next.value
        );
        params = Box::leak(Box::new(next));
    }
    Ok(())
}

/// The weights `--variant` against `--base`, each opening played with both colours.
fn weights_match(flags: &Flags) -> Result<(), String> {
    let cfg = config(flags)?;
    let base = with_changes(DEFAULT_PARAMS, &flags.text("base"))?;
    let variant = with_changes(*base, &flags.text("variant"))?;
    let pairs: usize = flags.get("pairs", 50)?;
    let seed: u64 = flags.get("seed", 1)?;
    let mut n = 0;
    let mut reasons = std::collections::BTreeMap::new();
    let r = run_match(variant, base, pairs, &cfg, seed, &mut |a_white, g| {
        n += 1;
        *reasons.entry(g.reason.clone()).or_insert(0) += 1;
        eprintln!(
            "  game {n}: variant {} scores {}, {} plies, {}",
            if a_white { "white" } else { "black" },
            if a_white {
                g.white_score
            } else {
                1.0 - g.white_score
            },
            g.moves.len(),
            g.reason
        );
    });
    let (elo, margin) = r.elo();
    println!(
        "variant '{}' vs base '{}': +{} -{} ={} of {n}, score {:.1} %, Elo {elo:+.0} ± {margin:.0} ({} nodes/move)",
        flags.text("variant"),
        flags.text("base"),
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        cfg.nodes
    );
    println!("endings {reasons:?}");
    Ok(())
}
