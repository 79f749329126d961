//! `jiang-lab datagen`: self-play games that produce training data for the evaluation network.
//!
//! Each game starts from the start position with a few uniformly random plies (openings
//! that a quick search finds too unbalanced are thrown away), then both sides play the
//! search's move at a fixed node budget. Every position where the side to move is not in
//! check, the search's score is not a mate and its best move is quiet is written with the
//! score and, once the game is over, the result:
//!
//! ```text
//! FEN | score | result
//! ```
//!
//! `score` is the search score from Red's view in evaluation units (a horse ≈ 400),
//! `result` Red's result: `1`, `0.5` or `0` (`-` for the positions of [`perturb`], which
//! come from no game). Games end by the rules (mate, stalemate,
//! repetition with its check/chase judgement, 60-move rule, dead material), by
//! adjudication when both sides' searches agree for several plies that one side is far
//! ahead, or as a draw after [`MAX_PLIES`] plies. The output is flushed after each game,
//! so a partial file is usable.

use crate::flags::{Flags, Spec};
use jiang::game::Rules;
use jiang::request::SearchRequest;
use jiang::search::{self, SearchControl, SearchState};
use jiang::tt::{TranspositionTable, MATE_BOUND};
use jiang::xiangqi::{Color, Move, Position};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::Write;
use std::time::Instant;

/// Longest game played; longer ones are drawn.
pub const MAX_PLIES: usize = 400;
/// A score beyond this for [`ADJUDICATE_PLIES`] plies in a row ends the game.
const ADJUDICATE_SCORE: i32 = 2500;
const ADJUDICATE_PLIES: usize = 6;
/// Openings whose score after the random plies is beyond this are discarded.
const OPENING_MAX_SCORE: i32 = 350;

/// Settings of a data generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Number of games.
    pub games: u64,
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Random plies at the start: at least `random_plies_min`, at most `random_plies_max`.
    pub random_plies_min: u32,
    /// See `random_plies_min`.
    pub random_plies_max: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Hash table per game, MiB.
    pub hash_mb: usize,
    /// The evaluation the searches use: the network (true) or the hand-written one.
    pub nnue: bool,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 1000,
            nodes: 5000,
            random_plies_min: 6,
            random_plies_max: 10,
            seed: 1,
            hash_mb: 16,
            nnue: jiang::xiangqi::nnue::DEFAULT_ENABLED,
        }
    }
}

/// The usage of `jiang-lab datagen` (both its forms).
pub const USAGE: &str = "jiang-lab datagen GAMES [--nodes N] [--seed S] [--random-plies MIN-MAX] [--hash MB] [--eval nnue|hce]\n    \
Xiangqi self-play training positions to stdout (FEN | score | result)\n\
jiang-lab datagen --perturb FILE [--per N] [--plies K] [--depth D] [--seed S]\n    \
positions a few random plies from FILE's, labelled by a shallow search (FEN | score | -)";

/// Parses `GAMES [--nodes N] [--seed S] [--random-plies MIN-MAX] [--hash MB] [--eval nnue|hce]`.
pub fn parse_args(args: &[String]) -> Result<DatagenConfig, String> {
    const SPEC: Spec = Spec::new(USAGE)
        .options(&["nodes", "seed", "hash", "eval", "random-plies"])
        .args(1);
    let f = Flags::parse(args, &SPEC)?;
    let d = DatagenConfig::default();
    let mut c = DatagenConfig {
        games: f.arg(0, "a number of games")?,
        nodes: f.get("nodes", d.nodes)?.max(1),
        seed: f.get("seed", d.seed)?,
        hash_mb: f.get::<u64>("hash", d.hash_mb as u64)?.clamp(1, 1024) as usize,
        ..d
    };
    if let Some(value) = f.value("eval") {
        c.nnue = jiang::xiangqi::nnue::Evaluation::named(value)
            .ok_or_else(|| format!("--eval takes nnue or hce, not '{value}'"))?
            .uses_network();
    }
    if let Some(value) = f.value("random-plies") {
        let num = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| format!("--random-plies: cannot read '{value}'"))
        };
        let (lo, hi) = value.split_once('-').unwrap_or((value, value));
        c.random_plies_min = num(lo)?;
        c.random_plies_max = num(hi)?.max(c.random_plies_min);
    }
    Ok(c)
}

/// One recorded position: FEN and score from Red's view.
struct Record {
    fen: String,
    score_red: i32,
}

/// Plays the games and writes the positions to `out`; progress goes to stderr.
pub fn run(config: &DatagenConfig, out: &mut dyn Write) -> std::io::Result<()> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let tt = TranspositionTable::new(config.hash_mb);
    let start = Instant::now();
    let (mut positions, mut results) = (0u64, [0u64; 3]);
    for game in 0..config.games {
        let (records, red_result) = play_game(config, &tt, &mut rng);
        let result_text = match red_result {
            2 => "1",
            1 => "0.5",
            _ => "0",
        };
        results[red_result as usize] += 1;
        for r in &records {
            writeln!(out, "{} | {} | {}", r.fen, r.score_red, result_text)?;
        }
        out.flush()?;
        positions += records.len() as u64;
        if (game + 1) % 10 == 0 || game + 1 == config.games {
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            eprintln!(
                "games {} positions {} ({:.0}/s) red wins {} draws {} black wins {}",
                game + 1,
                positions,
                positions as f64 / secs,
                results[2],
                results[1],
                results[0]
            );
        }
    }
    Ok(())
}

/// A random legal move, or `None` when there is none.
fn random_move(pos: &Position, rng: &mut Xoshiro256PlusPlus) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize])
}

/// Plays one game; returns its recorded positions and Red's result (0 loss, 1 draw,
/// 2 win).
fn play_game(
    config: &DatagenConfig,
    tt: &TranspositionTable,
    rng: &mut Xoshiro256PlusPlus,
) -> (Vec<Record>, u8) {
    let span = u64::from(config.random_plies_max - config.random_plies_min + 1);
    'opening: loop {
        tt.clear();
        let mut state = SearchState::<Position>::new();
        let mut pos = Position::startpos();
        pos.set_use_network(config.nnue);
        let plies = config.random_plies_min + (rng.next_u64() % span) as u32;
        for _ in 0..plies {
            match random_move(&pos, rng) {
                Some(m) => pos.play(m),
                None => continue 'opening,
            }
            if pos.game_result().is_some() {
                continue 'opening;
            }
        }
        let mut records = Vec::new();
        let mut winning_streak: [usize; 2] = [0; 2];
        let mut first = true;
        loop {
            if let Some(end) = pos.game_result() {
                let red = match end.winner {
                    Some(Color::Red) => 2,
                    Some(Color::Black) => 0,
                    None => 1,
                };
                return (records, red);
            }
            if pos.game_ply() >= MAX_PLIES {
                return (records, 1);
            }
            let limits = SearchRequest::<Move> {
                nodes: Some(config.nodes),
                ..SearchRequest::default()
            };
            let control = SearchControl::new(None, None, false);
            let r = search::search_with_state(&pos, &limits, tt, &control, &|_| {}, &mut state);
            let Some(best) = r.best_move else {
                // No legal move: game_end above would have ended the game.
                return (records, 1);
            };
            if first {
                first = false;
                if r.score.abs() > OPENING_MAX_SCORE {
                    continue 'opening;
                }
            }
            let us = pos.side_to_move();
            let score_red = if us == Color::Red { r.score } else { -r.score };
            if r.score.abs() < MATE_BOUND && !pos.in_check() && !pos.is_capture(best) {
                records.push(Record {
                    fen: pos.to_fen(),
                    score_red,
                });
            }
            // Adjudication: the side to move's own search says it is far ahead (or
            // behind); both sides must agree for a few plies in a row.
            let winner = if score_red >= ADJUDICATE_SCORE {
                Some(0)
            } else if score_red <= -ADJUDICATE_SCORE {
                Some(1)
            } else {
                None
            };
            for (c, streak) in winning_streak.iter_mut().enumerate() {
                *streak = if winner == Some(c) { *streak + 1 } else { 0 };
            }
            if winning_streak[0] >= ADJUDICATE_PLIES {
                return (records, 2);
            }
            if winning_streak[1] >= ADJUDICATE_PLIES {
                return (records, 0);
            }
            pos.play(best);
        }
    }
}

/// Settings of `jiang-lab datagen --perturb`: cheap extra positions around existing ones.
#[derive(Clone, Debug)]
pub struct PerturbConfig {
    /// Input file: lines starting with a FEN (anything after ` | ` is ignored).
    pub input: String,
    /// Positions made from each input position.
    pub per_position: u32,
    /// Random plies played from the input position: 1 to this many.
    pub max_plies: u32,
    /// Depth of the labelling search.
    pub depth: i32,
    /// Seed of the random plies.
    pub seed: u64,
}

/// Parses `--perturb FILE [--per N] [--plies K] [--depth D] [--seed S]`.
pub fn parse_perturb_args(args: &[String]) -> Result<PerturbConfig, String> {
    const SPEC: Spec = Spec::new(USAGE).options(&["perturb", "per", "plies", "depth", "seed"]);
    let f = Flags::parse(args, &SPEC)?;
    let c = PerturbConfig {
        input: f.text("perturb"),
        per_position: f.get("per", 4u32)?.clamp(1, 1000),
        max_plies: f.get("plies", 4u32)?.clamp(1, 40),
        depth: f.get("depth", 2i32)?.clamp(1, 20),
        seed: f.get("seed", 1)?,
    };
    if c.input.is_empty() {
        return Err("datagen --perturb needs an input file".into());
    }
    Ok(c)
}

/// Writes, for every input position, `per_position` positions a few random plies away,
/// each labelled by a shallow search (`FEN | score | -`: no game result). These are
/// cheap (a search of a few hundred nodes each) and cover positions self-play does not
/// reach; the trainer uses only their score.
pub fn perturb(config: &PerturbConfig, out: &mut dyn Write) -> Result<(), String> {
    use std::io::BufRead;
    let file = std::fs::File::open(&config.input).map_err(|e| format!("{}: {e}", config.input))?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    // Small: cleared before every search of a few hundred nodes.
    let tt = TranspositionTable::new(1);
    let start = Instant::now();
    let mut written = 0u64;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", config.input))?;
        let fen = line.split(" | ").next().unwrap_or("").trim();
        let Ok(root) = Position::from_fen(fen) else {
            continue;
        };
        for _ in 0..config.per_position {
            let mut pos = root.clone();
            let plies = 1 + (rng.next_u64() % u64::from(config.max_plies)) as u32;
            let mut ok = true;
            for _ in 0..plies {
                match random_move(&pos, &mut rng) {
                    Some(m) => pos.make_move(m),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok || pos.in_check() || pos.game_result().is_some() {
                continue;
            }
            let limits = SearchRequest::<Move> {
                depth: Some(config.depth),
                ..SearchRequest::default()
            };
            let control = SearchControl::new(None, None, false);
            tt.clear();
            let r = search::search(&pos, &limits, &tt, &control, &|_| {});
            let Some(best) = r.best_move else { continue };
            if r.score.abs() >= MATE_BOUND || pos.is_capture(best) {
                continue;
            }
            let score_red = if pos.side_to_move() == Color::Red {
                r.score
            } else {
                -r.score
            };
            let mut p = pos.clone();
            p.shrink_history();
            writeln!(out, "{} | {} | -", p.to_fen(), score_red).map_err(|e| e.to_string())?;
            written += 1;
        }
        if (n + 1) % 10000 == 0 {
            eprintln!(
                "{} input positions, {} written ({:.0}/s)",
                n + 1,
                written,
                written as f64 / start.elapsed().as_secs_f64().max(1e-3)
            );
        }
    }
    out.flush().map_err(|e| e.to_string())
}
