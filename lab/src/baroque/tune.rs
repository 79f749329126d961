//! Self-play for measuring and tuning the evaluation: games between two sets of weights
//! at a fixed number of nodes per move, a match runner over paired openings, and a
//! logistic fit of the material values to game results.
//!
//! **How the material values were measured.** Self-play games at fixed nodes from
//! random openings are recorded. Every position where the side to move is not in check
//! and the move played was not a capture (so the material on the board is what the game
//! went on with) gives a sample: the material difference by kind (White's count minus
//! Black's, for the six kinds besides the king) and the game's result for White (1, ½,
//! 0). A logistic model `P(White wins) = σ(b + Σ_k w_k d_k)` is fitted by Newton's
//! method (with a small ridge term), and the values are `100 · w_k / w_pincer`: what each
//! piece is worth in pincers, judged by how much having one more changes the results.
//! The games are then replayed with the new values and the fit repeated.
//!
//! Run through the ignored tests of `tests/baroque_tune.rs`.

use jiang::baroque::eval::Params;
use jiang::baroque::movegen::legal_moves;
use jiang::baroque::position::Position;
use jiang::baroque::rules::game_end;
use jiang::baroque::types::{Color, Move, PieceKind};
use jiang::game::{Game, Rules};
use jiang::request::SearchRequest;
use jiang::search::{search, SearchControl};
use jiang::tt::TranspositionTable;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies from the start position before the engines take over.
    pub random_plies: usize,
    /// Games longer than this are stopped and scored as draws (`None`: the 5000-ply
    /// rule only).
    pub max_plies: Option<usize>,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The moves from the start position, random opening included.
    pub moves: Vec<Move>,
    /// How many of them were the random opening.
    pub opening_plies: usize,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// Why it ended (the rules' reason, or `ply cap`).
    pub reason: String,
}

/// A random opening of `plies` plies from the start (stopping early if the game ends).
pub fn random_opening(rng: &mut Xoshiro256PlusPlus, plies: usize) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next_u64() % legal.len() as u64) as usize];
        pos.make_move(m);
        moves.push(m);
    }
    moves
}

/// Plays a game from `opening` between `white` and `black` weights.
pub fn play_game(
    white: &'static Params,
    black: &'static Params,
    opening: &[Move],
    cfg: &SelfPlay,
) -> GameRecord {
    let mut pos = Position::startpos();
    pos.reserve_history(6000);
    for &m in opening {
        pos.make_move(m);
    }
    let tts = [TranspositionTable::new(8), TranspositionTable::new(8)];
    let mut moves = opening.to_vec();
    loop {
        if let Some(end) = game_end(&pos) {
            let white_score = match end.winner {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            return GameRecord {
                moves,
                opening_plies: opening.len(),
                white_score,
                reason: end.reason,
            };
        }
        if cfg.max_plies.is_some_and(|m| moves.len() >= m) {
            return GameRecord {
                moves,
                opening_plies: opening.len(),
                white_score: 0.5,
                reason: "ply cap".into(),
            };
        }
        let side = pos.side_to_move();
        pos.set_eval_params(if side == Color::White { white } else { black });
        let limits = SearchRequest {
            nodes: Some(cfg.nodes),
            ..SearchRequest::default()
        };
        let control = SearchControl::new(None, None, false);
        let r = search(&pos, &limits, &tts[side.index()], &control, &|_| {});
        let Some(m) = r.best_move else {
            // No move although the rules say the game goes on: cannot happen (the
            // search only answers None without legal moves); stop as a draw.
            return GameRecord {
                moves,
                opening_plies: opening.len(),
                white_score: 0.5,
                reason: "no move from the search".into(),
            };
        };
        debug_assert!(pos.legal_moves().contains(&m));
        pos.make_move(m);
        moves.push(m);
    }
}

/// Result of a match between two sets of weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchResult {
    /// Wins of the first set.
    pub wins: u32,
    /// Losses of the first set.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

impl MatchResult {
    /// The first set's score in percent.
    pub fn score(&self) -> f64 {
        let n = (self.wins + self.losses + self.draws).max(1) as f64;
        100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Elo difference implied by the score, with its 95 % error margin (normal
    /// approximation over game results).
    pub fn elo(&self) -> (f64, f64) {
        let n = (self.wins + self.losses + self.draws) as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = (self.wins as f64 + 0.5 * self.draws as f64) / n;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n;
        let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        let margin = 1.96 * (var / n).sqrt();
        (
            elo(s),
            (elo((s + margin).min(0.999)) - elo((s - margin).max(0.001))) / 2.0,
        )
    }
}

/// Plays `pairs` random openings twice each (colours swapped) between `a` and `b`;
/// `report` sees every finished game (`a` had White or not, the record).
pub fn run_match(
    a: &'static Params,
    b: &'static Params,
    pairs: usize,
    cfg: &SelfPlay,
    seed: u64,
    report: &mut dyn FnMut(bool, &GameRecord),
) -> MatchResult {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut res = MatchResult::default();
    for _ in 0..pairs {
        let opening = random_opening(&mut rng, cfg.random_plies);
        for a_white in [true, false] {
            let (w, bl) = if a_white { (a, b) } else { (b, a) };
            let g = play_game(w, bl, &opening, cfg);
            let a_score = if a_white {
                g.white_score
            } else {
                1.0 - g.white_score
            };
            if a_score > 0.75 {
                res.wins += 1;
            } else if a_score < 0.25 {
                res.losses += 1;
            } else {
                res.draws += 1;
            }
            report(a_white, &g);
        }
    }
    res
}

/// Changes one weight of `p` by name: `value.2=480` (index into a per-kind table, in
/// [`PieceKind`] order), `king_open=8`.
pub fn set_param(p: &mut Params, assignment: &str) -> Result<(), String> {
    let (name, value) = assignment
        .split_once('=')
        .ok_or_else(|| format!("'{assignment}': expected name=value"))?;
    let value: i32 = value
        .trim()
        .parse()
        .map_err(|_| format!("'{assignment}': value is not a number"))?;
    let (name, index) = match name.split_once('.') {
        Some((n, i)) => (
            n.trim(),
            Some(
                i.parse::<usize>()
                    .ok()
                    .filter(|&i| i < 7)
                    .ok_or_else(|| format!("'{assignment}': index 0..7"))?,
            ),
        ),
        None => (name.trim(), None),
    };
    let table = match name {
        "value" => Some(&mut p.value),
        "frozen" => Some(&mut p.frozen),
        "mobility" => Some(&mut p.mobility),
        "king_near" => Some(&mut p.king_near),
        "hunt" => Some(&mut p.hunt),
        _ => None,
    };
    match (table, index) {
        (Some(t), Some(i)) => t[i] = value,
        (None, None) => match name {
            "freezer_centre" => p.freezer_centre = value,
            "king_open" => p.king_open = value,
            "king_pincer_setup" => p.king_pincer_setup = value,
            "tempo" => p.tempo = value,
            "hunt_material" => p.hunt_material = value,
            _ => return Err(format!("'{assignment}': unknown weight {name}")),
        },
        _ => return Err(format!("'{assignment}': {name} needs an index or none")),
    }
    Ok(())
}

/// Plays `games` games of `params` against itself, each from its own random opening
/// (self-play at fixed nodes is deterministic, so a colour-swapped replay would repeat
/// the game); `report` sees every finished game.
pub fn run_selfplay(
    params: &'static Params,
    games: usize,
    cfg: &SelfPlay,
    seed: u64,
    report: &mut dyn FnMut(&GameRecord),
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..games {
        let opening = random_opening(&mut rng, cfg.random_plies);
        report(&play_game(params, params, &opening, cfg));
    }
}

/// One training sample: White's material surplus by kind (pincer, coordinator, leaper,
/// imitator, withdrawer, freezer) and White's game score.
pub type Sample = ([f64; 6], f64);

/// The six non-king kinds in sample order.
pub const SAMPLE_KINDS: [PieceKind; 6] = [
    PieceKind::Pincer,
    PieceKind::Coordinator,
    PieceKind::Leaper,
    PieceKind::Imitator,
    PieceKind::Withdrawer,
    PieceKind::Freezer,
];

/// Samples of a game: positions after the opening where the side to move is not in check
/// and the move played from them captured nothing.
pub fn samples(g: &GameRecord) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut pos = Position::startpos();
    for (i, &m) in g.moves.iter().enumerate() {
        if i >= g.opening_plies && !pos.in_check() && !pos.is_capture(m) {
            let b = pos.board();
            let mut d = [0.0; 6];
            for (j, k) in SAMPLE_KINDS.iter().enumerate() {
                d[j] = b.of(Color::White, *k).count_ones() as f64
                    - b.of(Color::Black, *k).count_ones() as f64;
            }
            out.push((d, g.white_score));
        }
        pos.make_move(m);
    }
    out
}

/// Fits `P(White wins) = σ(b + Σ w_k d_k)` by Newton's method with a ridge term `l2`;
/// returns (`w`, `b`).
pub fn fit_logistic(samples: &[Sample], l2: f64) -> ([f64; 6], f64) {
    let weighted: Vec<(Sample, f64)> = samples.iter().map(|&s| (s, 1.0)).collect();
    fit_logistic_weighted(&weighted, l2)
}

/// [`fit_logistic`] over samples with weights (a weight counts the sample that often).
pub fn fit_logistic_weighted(samples: &[(Sample, f64)], l2: f64) -> ([f64; 6], f64) {
    const N: usize = 7;
    let mut theta = [0.0f64; N];
    for _ in 0..50 {
        let mut grad = [0.0f64; N];
        let mut hess = [[0.0f64; N]; N];
        for &((d, y), n) in samples {
            let x: [f64; N] = [d[0], d[1], d[2], d[3], d[4], d[5], 1.0];
            let z: f64 = x.iter().zip(theta.iter()).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let w = n * p * (1.0 - p);
            for i in 0..N {
                grad[i] += n * (p - y) * x[i];
                for j in 0..N {
                    hess[i][j] += w * x[i] * x[j];
                }
            }
        }
        for i in 0..N - 1 {
            grad[i] += l2 * theta[i];
            hess[i][i] += l2;
        }
        let step = solve(hess, grad);
        let mut change = 0.0f64;
        for i in 0..N {
            theta[i] -= step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    (
        [theta[0], theta[1], theta[2], theta[3], theta[4], theta[5]],
        theta[6],
    )
}

/// Material values in pincers × 100 from the fitted logistic weights (`100 · w_k / w_pincer`).
pub fn values_from_weights(w: &[f64; 6]) -> [i32; 6] {
    let mut v = [0; 6];
    for (out, x) in v.iter_mut().zip(w.iter()) {
        *out = (100.0 * x / w[0]).round() as i32;
    }
    v
}

/// The samples of several games merged: equal samples (the same material differences
/// and result) become one with a weight, which makes the fit fast.
pub fn merge_samples<'a>(games: impl IntoIterator<Item = &'a [Sample]>) -> Vec<(Sample, f64)> {
    let mut counts: std::collections::BTreeMap<([i64; 6], i64), f64> =
        std::collections::BTreeMap::new();
    for g in games {
        for (d, y) in g {
            let key = (d.map(|x| x as i64), (2.0 * y) as i64);
            *counts.entry(key).or_insert(0.0) += 1.0;
        }
    }
    counts
        .into_iter()
        .map(|((d, y), n)| ((d.map(|x| x as f64), y as f64 / 2.0), n))
        .collect()
}

/// The material fit of a set of games (each a list of samples) with a bootstrap over
/// games: the logistic weights and the values of the fit on all games, and for each kind the 2.5 % and 97.5 %
/// quantiles of the values over `resamples` fits on games drawn with replacement (the
/// samples of one game are not independent, so the game is the unit drawn).
pub fn material_fit_with_bootstrap(
    games: &[Vec<Sample>],
    resamples: usize,
    seed: u64,
) -> ([f64; 6], [i32; 6], [(i32, i32); 6]) {
    let all = merge_samples(games.iter().map(|g| g.as_slice()));
    let (w, _) = fit_logistic_weighted(&all, 1.0);
    let point = values_from_weights(&w);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut draws: Vec<[i32; 6]> = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let pick: Vec<&[Sample]> = (0..games.len())
            .map(|_| games[(rng.next_u64() % games.len() as u64) as usize].as_slice())
            .collect();
        let (w, _) = fit_logistic_weighted(&merge_samples(pick), 1.0);
        draws.push(values_from_weights(&w));
    }
    let mut ci = [(0, 0); 6];
    for (k, c) in ci.iter_mut().enumerate() {
        let mut v: Vec<i32> = draws.iter().map(|d| d[k]).collect();
        v.sort_unstable();
        if !v.is_empty() {
            let q = |f: f64| v[((f * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
            *c = (q(0.025), q(0.975));
        }
    }
    (w, point, ci)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (small systems).
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col];
        for row in col + 1..N {
            let f = a[row][col] / p;
            for (x, y) in a[row][col..].iter_mut().zip(pivot_row[col..].iter()) {
                *x -= f * y;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let s: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-12 {
            0.0
        } else {
            (b[row] - s) / a[row][row]
        };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistic_fit_recovers_known_weights() {
        // Synthetic data drawn from known weights must give them back.
        let truth = [0.4, 1.0, 1.6, 1.8, 1.2, 2.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut samples = Vec::new();
        for _ in 0..40_000 {
            let mut d = [0.0; 6];
            for x in d.iter_mut() {
                *x = (rng.next_u64() % 5) as f64 - 2.0;
            }
            let z: f64 = d.iter().zip(truth.iter()).map(|(a, b)| a * b).sum::<f64>() + 0.1;
            let p = 1.0 / (1.0 + (-z).exp());
            let y = if (rng.next_u64() % 1_000_000) as f64 / 1e6 < p {
                1.0
            } else {
                0.0
            };
            samples.push((d, y));
        }
        let (w, b) = fit_logistic(&samples, 0.0);
        for (got, want) in w.iter().zip(truth.iter()) {
            assert!((got - want).abs() < 0.08, "{w:?} vs {truth:?}");
        }
        assert!((b - 0.1).abs() < 0.08, "bias {b}");
    }
}
