//! `jiang-lab openings`: balanced start positions for matches.
//!
//! From the start position, a uniformly random number of plies between `--plies MIN-MAX`
//! (default 4-8), each a uniformly random legal move (jiang's rules library lists them);
//! positions that are over or have the side to move in check are dropped; the rest are
//! searched by an engine (`--engine`, over UCI or UCCI) to `--depth` (default 10) after
//! `ucinewgame`, and kept when its score for the side to move is within `--max-cp`
//! (default 60) and not a mate; duplicates (the same board and side to move) are dropped.
//! Deterministic for a seed and an engine that is (fixed depth, one thread). The same
//! recipe as the openings of the independent runner xqmatch, written anew; the file
//! `tools/match/openings.epd` was made this way (its first line says how).

use super::engine::{Engine, EngineSettings, EngineSpec};
use super::protocol::GoLimit;
use super::referee::Variant;
use crate::flags::{Flags, Spec};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeSet;
use std::io::Write;
use std::process::ExitCode;

/// The usage lines of `jiang-lab openings`.
pub const USAGE: &str = "jiang-lab openings COUNT --engine KEY=VALUE... [--seed S] [--plies MIN-MAX] [--depth D] [--max-cp CP]\n    \
    balanced random openings for matches, one FEN a line, to stdout (lab/README.md)";

/// Settings of a run.
pub struct OpeningsConfig {
    /// Openings wanted.
    pub count: usize,
    /// Random plies: at least.
    pub plies_min: u32,
    /// Random plies: at most.
    pub plies_max: u32,
    /// Seed of the random moves.
    pub seed: u64,
    /// Depth of the balance check.
    pub depth: u32,
    /// Largest |score| kept, centipawns.
    pub max_cp: i64,
    /// The judging engine.
    pub spec: EngineSpec,
}

/// Reads `COUNT --engine ... [--seed S] [--plies MIN-MAX] [--depth D] [--max-cp CP]`.
pub fn parse_args(args: &[String]) -> Result<OpeningsConfig, String> {
    let flags = Flags::parse(
        args,
        &Spec::new(USAGE)
            .options(&["seed", "plies", "depth", "max-cp"])
            .lists(&["engine"])
            .args(1),
    )?;
    let count: usize = flags.arg(0, "a COUNT")?;
    let [items] = flags.lists("engine") else {
        return Err("give one --engine to judge the openings".into());
    };
    let spec = EngineSpec::parse(items, &EngineSpec::default())?;
    if spec.command.is_empty() {
        return Err("the engine has no cmd=".into());
    }
    let plies = flags.get("plies", "4-8".to_string())?;
    let (lo, hi) = plies.split_once('-').unwrap_or((&plies, &plies));
    let bad = || format!("--plies: want MIN-MAX, not '{plies}'");
    let (plies_min, plies_max): (u32, u32) = (
        lo.parse().map_err(|_| bad())?,
        hi.parse().map_err(|_| bad())?,
    );
    if plies_min > plies_max {
        return Err(bad());
    }
    Ok(OpeningsConfig {
        count,
        plies_min,
        plies_max,
        seed: flags.get("seed", 1)?,
        depth: flags.get("depth", 10)?,
        max_cp: flags.get("max-cp", 60)?,
        spec,
    })
}

/// Writes `count` openings to `out`; progress and the pass rate go to stderr.
pub fn generate(cfg: &OpeningsConfig, out: &mut dyn Write) -> Result<(), String> {
    let variant = Variant::Xiangqi;
    let mut engine = Engine::new(cfg.spec.clone(), EngineSettings::default(), None, "judge");
    engine.start().map_err(|e| format!("engine: {e}"))?;
    let name = engine.id_name.clone().unwrap_or_else(|| "?".into());
    writeln!(
        out,
        "# jiang-lab openings {} --seed {} --plies {}-{} --depth {} --max-cp {} (judged by {name})",
        cfg.count, cfg.seed, cfg.plies_min, cfg.plies_max, cfg.depth, cfg.max_cp
    )
    .map_err(|e| e.to_string())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut seen = BTreeSet::new();
    let (mut tried, mut kept) = (0u64, 0usize);
    let span = u64::from(cfg.plies_max - cfg.plies_min + 1);
    while kept < cfg.count {
        tried += 1;
        let mut board = variant.referee(&variant.start_fen())?;
        let plies = cfg.plies_min + (rng.next_u64() % span) as u32;
        let mut ok = true;
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize].clone();
            board.push(&m);
        }
        if !ok || board.end(0).is_some() || board.in_check() {
            continue;
        }
        // The position alone (the random moves folded into the FEN).
        let fen = board.fen();
        let key: String = fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if seen.contains(&key) {
            continue;
        }
        engine.new_game().map_err(|e| format!("engine: {e}"))?;
        let side = board.side_to_move();
        let r = engine
            .search(&fen, &[], side, &GoLimit::Depth(cfg.depth), 600_000.0)
            .map_err(|e| format!("engine: {e}"))?;
        let balanced =
            r.info.score_mate.is_none() && r.info.score_cp.is_some_and(|cp| cp.abs() <= cfg.max_cp);
        if !balanced {
            continue;
        }
        seen.insert(key);
        writeln!(out, "{fen}").map_err(|e| e.to_string())?;
        kept += 1;
        if kept % 25 == 0 || kept == cfg.count {
            eprintln!("openings: {kept} kept of {tried} tried");
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    engine.stop();
    Ok(())
}

/// `jiang-lab openings ARGS`.
pub fn run(args: &[String]) -> ExitCode {
    let cfg = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("openings: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match generate(&cfg, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("openings: {e}");
            ExitCode::from(1)
        }
    }
}
