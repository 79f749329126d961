//! Self-play tools for the Baroque evaluation (all ignored: they take minutes to hours).
//!
//! * `material_fit`: self-play at fixed nodes, then the logistic fit of the material
//!   values (see `jiang::baroque::tune`). Env: `GAMES` (each from its own opening),
//!   `NODES`, `ROUNDS` (refit and replay with the fitted values), `SEED`.
//! * `weights_match`: the default weights against a variant. Env: `VARIANT` (e.g.
//!   `king_open=10,value.2=500`), `BASE` (changes to the defaults for both sides),
//!   `PAIRS`, `NODES`, `SEED`.
//!
//! Run: `nice -n 10 cargo test --release --test baroque_tune -- --ignored --nocapture NAME`.

use jiang::baroque::eval::{Params, DEFAULT_PARAMS};
use jiang::baroque::tune::{
    fit_logistic, run_match, run_selfplay, samples, set_param, GameRecord, SelfPlay, SAMPLE_KINDS,
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
    let mut params: &'static Params = with_changes(DEFAULT_PARAMS, &env("BASE", String::new()));
    for round in 0..rounds {
        let mut all = Vec::new();
        let mut reasons = std::collections::BTreeMap::new();
        let mut plies = 0;
        let mut games = 0;
        let started = std::time::Instant::now();
        let (mut white, mut black, mut draws) = (0, 0, 0);
        let mut collect = |g: &GameRecord| {
            match g.white_score {
                x if x > 0.75 => white += 1,
                x if x < 0.25 => black += 1,
                _ => draws += 1,
            }
            all.extend(samples(g));
            *reasons.entry(g.reason.clone()).or_insert(0) += 1;
            plies += g.moves.len();
            games += 1;
            eprintln!(
                "  game {games}: {} plies, {} ({:.0} s so far)",
                g.moves.len(),
                g.reason,
                started.elapsed().as_secs_f64()
            );
        };
        run_selfplay(
            params,
            games_wanted,
            &cfg,
            seed + round as u64,
            &mut collect,
        );
        let (w, b) = fit_logistic(&all, 1.0);
        let unit = w[0];
        let values: Vec<i32> = w
            .iter()
            .map(|x| (100.0 * x / unit).round() as i32)
            .collect();
        println!(
            "round {round}: {games} games ({} plies on average), {} samples, white {} / black {} / draw {}",
            plies / games.max(1),
            all.len(),
            white,
            black,
            draws
        );
        println!("  endings {reasons:?}");
        println!("  logistic weights {w:.3?} bias {b:.3}");
        for (k, v) in SAMPLE_KINDS.iter().zip(values.iter()) {
            println!("  {:<12} {v}", k.name());
        }
        let mut next = *params;
        for (k, v) in SAMPLE_KINDS.iter().zip(values.iter()) {
            next.value[k.index()] = *v;
        }
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
