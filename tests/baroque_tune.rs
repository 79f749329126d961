//! Self-play tools for the Baroque evaluation (all ignored: they take minutes to hours).
//!
//! * `material_fit`: self-play at fixed nodes, then the logistic fit of the material
//!   values with a bootstrap interval over games (see `jiang::baroque::tune`). Env:
//!   `GAMES` (each from its own opening), `NODES`, `ROUNDS` (refit and replay with the
//!   fitted values), `SEED`, `RESAMPLES`, `BASE` (weights to start from).
//! * `weights_match`: the default weights against a variant. Env: `VARIANT` (e.g.
//!   `king_open=10,value.2=500`), `BASE` (changes to the defaults for both sides),
//!   `PAIRS`, `NODES`, `SEED`.
//!
//! Run: `nice -n 10 cargo test --release --test baroque_tune -- --ignored --nocapture NAME`.

use jiang::baroque::eval::{Params, DEFAULT_PARAMS};
use jiang::baroque::tune::{
    material_fit_with_bootstrap, run_match, run_selfplay, samples, set_param, GameRecord, Sample,
    SelfPlay, SAMPLE_KINDS,
};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn with_changes(base: Params, changes: &str) -> &'static Params {
    let mut p = base;
    for c in changes.split(',').filter(|c| !c.trim().is_empty()) {
        set_param(&mut p, c.trim()).unwrap_or_else(|e| panic!("{e}"));
    }
    Box::leak(Box::new(p))
}

fn config() -> SelfPlay {
    SelfPlay {
        nodes: env("NODES", 20_000),
        random_plies: env("RANDOM_PLIES", 4),
        max_plies: Some(env("MAX_PLIES", 600)),
    }
}

#[test]
#[ignore]
fn material_fit() {
    let cfg = config();
    let games_wanted: usize = env("GAMES", 100);
    let rounds: usize = env("ROUNDS", 1);
    let seed: u64 = env("SEED", 1);
    let resamples: usize = env("RESAMPLES", 200);
    let mut params: &'static Params = with_changes(DEFAULT_PARAMS, &env("BASE", String::new()));
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
}

#[test]
#[ignore]
fn weights_match() {
    let cfg = config();
    let base = with_changes(DEFAULT_PARAMS, &env("BASE", String::new()));
    let variant = with_changes(*base, &env("VARIANT", String::new()));
    let pairs: usize = env("PAIRS", 50);
    let seed: u64 = env("SEED", 1);
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
        env("VARIANT", String::new()),
        env("BASE", String::new()),
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        cfg.nodes
    );
    println!("endings {reasons:?}");
}
