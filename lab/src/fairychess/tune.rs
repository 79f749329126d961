//! Measuring the evaluation: self-play games from random-army openings, matches between
//! two weight sets, and a Texel-style fit of the weights to game results.
//!
//! * [`random_opening`]: a start like xqmatch's `gen_openings.py --variant fairychess
//!   --no-captures` makes (each side a king and 5-10 pieces from R B N S C on its own two
//!   back ranks, material within one point by R 5, B N S 3, C 1.5, every other position
//!   mirrored, no capture possible for either side).
//! * [`play_game`]: one game, each side searching a fixed number of nodes with its own
//!   weights and transposition table.
//! * [`fit`]: reads games (`FEN|moves|result` per line, result from White's view) or
//!   labelled positions (`FEN|p`, p White's expected score in 0..1), keeps
//!   the quiet positions (side to move not attacked, no capture winning material by SEE),
//!   and fits the weights to minimise the mean squared difference between the result and
//!   `1 / (1 + 10^(-K·eval/400))` (K fitted first): full-batch Adam with a light pull
//!   towards the starting weights. Every tenth game is held out for validation. The
//!   placement tables are kept at mean zero per kind (their mean goes to material), so
//!   the material weights are the pieces' values.

use jiang::fairychess::eval::{
    feature_counts, phase, BISHOP_PAIR, GROUPS, KING_EN_PRISE, MATERIAL, N_FEATURES, PHASE_MAX,
    PST, SAFE_CHECKS,
};
use jiang::fairychess::position::Position;
use jiang::fairychess::types::{Color, Move, Piece, PieceKind, Square};
use jiang::fairychess::weights::{Weights, HAND_SET};
use jiang::game::{GenType, Rules};
use jiang::movelist::MoveList;
use jiang::request::SearchRequest;
use jiang::search::{search, SearchControl};
use jiang::tt::TranspositionTable;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;

/// A seeded random generator.
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// The generator of a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

/// Opening material of a kind in half points (R 10, B N S 6, C 3), as the generator counts.
fn half_points(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Rook => 10,
        PieceKind::Combatant => 3,
        PieceKind::King => 0,
        _ => 6,
    }
}

/// The FEN (White to move, ply 0) of a board.
fn fen_of(board: &[Option<Piece>; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        let _ = write!(fen, "{empty}");
                        empty = 0;
                    }
                    fen.push(p.letter());
                }
            }
        }
        if empty > 0 {
            let _ = write!(fen, "{empty}");
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(" w - - 0 1");
    fen
}

/// A random start for measuring: with `imbalanced`, a [`random_opening`] from which one
/// or two random pieces of a random side are taken away (so that results depend on
/// material, and the winning side must convert within the 100 plies).
pub fn random_start(rng: &mut Rng, imbalanced: bool) -> Position {
    loop {
        let start = random_opening(rng);
        if !imbalanced {
            return start;
        }
        let mut board = [None; 64];
        for (i, slot) in board.iter_mut().enumerate() {
            *slot = start.piece_at(Square::from_index(i));
        }
        let victim = Color::ALL[rng.below(2)];
        for _ in 0..1 + rng.below(2) {
            let squares: Vec<usize> = (0..64)
                .filter(|&i| {
                    board[i].is_some_and(|p| p.color() == victim && p.kind() != PieceKind::King)
                })
                .collect();
            if squares.len() > 1 {
                board[squares[rng.below(squares.len())]] = None;
            }
        }
        if let Ok(p) = Position::from_fen(&fen_of(&board)) {
            return p;
        }
    }
}

/// A random-army start, White to move, ply 0 (see the module documentation).
pub fn random_opening(rng: &mut Rng) -> Position {
    loop {
        let army = |rng: &mut Rng| -> Vec<PieceKind> {
            let n = 5 + rng.below(6);
            (0..n).map(|_| PieceKind::NON_KING[rng.below(5)]).collect()
        };
        let place = |rng: &mut Rng, count: usize, ranks: [u8; 2]| -> Vec<Square> {
            let mut squares: Vec<Square> = (0..16)
                .map(|i| Square::from_coords(i % 8, ranks[(i / 8) as usize]).expect("on board"))
                .collect();
            for i in 0..count {
                let j = i + rng.below(16 - i);
                squares.swap(i, j);
            }
            squares.truncate(count);
            squares
        };
        let white = army(rng);
        let white_sq = place(rng, white.len() + 1, [0, 1]);
        let mirrored = rng.below(2) == 0;
        let (black, black_sq) = if mirrored {
            let sq = white_sq
                .iter()
                .map(|s| Square::from_coords(s.file(), 7 - s.rank()).expect("on board"))
                .collect();
            (white.clone(), sq)
        } else {
            let b = army(rng);
            let sq = place(rng, b.len() + 1, [6, 7]);
            (b, sq)
        };
        let material = |a: &[PieceKind]| a.iter().map(|&k| half_points(k)).sum::<i32>();
        if (material(&white) - material(&black)).abs() > 2 {
            continue;
        }
        let mut board = [None; 64];
        for (color, kinds, squares) in [
            (Color::White, &white, &white_sq),
            (Color::Black, &black, &black_sq),
        ] {
            board[squares[0].index()] = Some(Piece::new(color, PieceKind::King));
            for (k, s) in kinds.iter().zip(&squares[1..]) {
                board[s.index()] = Some(Piece::new(color, *k));
            }
        }
        let fen = fen_of(&board);
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        let mut caps = MoveList::new();
        pos.generate(GenType::Captures, &mut caps);
        let mut passed = pos.clone();
        passed.make_null_move();
        passed.generate(GenType::Captures, &mut caps);
        if caps.is_empty() {
            return Position::from_fen(&fen).expect("checked");
        }
    }
}

/// A random endgame: White has a king and `white`, Black a king and `black`, anywhere on
/// the board, no capture possible for either side, White to move at ply `ply`.
pub fn random_endgame(
    rng: &mut Rng,
    white: &[PieceKind],
    black: &[PieceKind],
    ply: u32,
) -> Position {
    loop {
        let mut board = [None; 64];
        let mut place = |board: &mut [Option<Piece>; 64], piece: Piece| loop {
            let sq = rng.below(64);
            if board[sq].is_none() {
                board[sq] = Some(piece);
                break;
            }
        };
        place(&mut board, Piece::new(Color::White, PieceKind::King));
        place(&mut board, Piece::new(Color::Black, PieceKind::King));
        for &k in white {
            place(&mut board, Piece::new(Color::White, k));
        }
        for &k in black {
            place(&mut board, Piece::new(Color::Black, k));
        }
        let fen = fen_of(&board).replace(" 0 1", &format!(" 0 {}", ply / 2 + 1));
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        let mut caps = MoveList::new();
        pos.generate(GenType::Captures, &mut caps);
        let mut passed = pos.clone();
        passed.make_null_move();
        passed.generate(GenType::Captures, &mut caps);
        if caps.is_empty() {
            return pos;
        }
    }
}

/// A finished game: start, moves, result from White's view (1, 0.5, 0).
pub struct GameRecord {
    /// The start FEN.
    pub start: String,
    /// The moves played.
    pub moves: Vec<Move>,
    /// White's score.
    pub result: f64,
}

impl GameRecord {
    /// `FEN|moves|result` (the format [`fit`] reads).
    pub fn line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        let result = match self.result {
            r if r > 0.75 => "1-0",
            r if r < 0.25 => "0-1",
            _ => "1/2-1/2",
        };
        format!("{}|{}|{}", self.start, moves.join(" "), result)
    }
}

/// Plays one game from `start`: White searches `nodes` nodes a move with `players[0]`'s
/// weights, Black with `players[1]`'s.
pub fn play_game(start: &Position, players: [&'static Weights; 2], nodes: u64) -> GameRecord {
    let tts = [TranspositionTable::new(4), TranspositionTable::new(4)];
    let mut pos = start.clone();
    let mut moves = Vec::new();
    loop {
        if let Some(end) = Rules::game_end(&pos) {
            let result = match end.winner {
                Some(0) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            return GameRecord {
                start: start.to_fen(),
                moves,
                result,
            };
        }
        let side = pos.side_to_move().index();
        pos.set_weights(players[side]);
        let limits = SearchRequest {
            nodes: Some(nodes),
            ..SearchRequest::default()
        };
        let control = SearchControl::new(None, None, false);
        let r = search(&pos, &limits, &tts[side], &control, &|_| {});
        let Some(m) = r.best_move else {
            // game_end said the game goes on, so there is a move; be safe anyway.
            let result = if side == 0 { 0.0 } else { 1.0 };
            return GameRecord {
                start: start.to_fen(),
                moves,
                result,
            };
        };
        pos.make_move(m);
        moves.push(m);
    }
}

/// Result of a match between two weight sets.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchResult {
    /// Games won by the first set.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the first set.
    pub losses: u32,
}

impl MatchResult {
    /// The first set's score, 0..1.
    pub fn score(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses).max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Elo difference and its 95 % error bar (trinomial).
    pub fn elo(&self) -> (f64, f64) {
        let n = (self.wins + self.draws + self.losses).max(1) as f64;
        let s = self.score().clamp(1e-3, 1.0 - 1e-3);
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let elo = |x: f64| -400.0 * (1.0 / x.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        let margin = 1.96 * (var / n).sqrt();
        (elo(s), (elo(s + margin) - elo(s - margin)) / 2.0)
    }
}

/// Plays `pairs` openings twice (colours swapped) between weight sets `a` and `b` at
/// `nodes` nodes a move, from [`random_start`]; `progress` is called after each pair.
pub fn play_match(
    a: &'static Weights,
    b: &'static Weights,
    pairs: usize,
    nodes: u64,
    seed: u64,
    imbalanced: bool,
    progress: &mut dyn FnMut(&MatchResult),
) -> MatchResult {
    let mut rng = Rng::new(seed);
    let mut r = MatchResult::default();
    for _ in 0..pairs {
        let start = random_start(&mut rng, imbalanced);
        for a_white in [true, false] {
            let players = if a_white { [a, b] } else { [b, a] };
            let g = play_game(&start, players, nodes);
            let a_score = if a_white { g.result } else { 1.0 - g.result };
            match a_score {
                s if s > 0.75 => r.wins += 1,
                s if s < 0.25 => r.losses += 1,
                _ => r.draws += 1,
            }
        }
        progress(&r);
    }
    r
}

/// A training position: phase, the non-zero feature differences (White − Black), and
/// which tenth of the 100 plies the game is in (the result of a position near the limit
/// depends less on the evaluation: there is no time left to convert an advantage).
struct Sample {
    phase: f32,
    features: Vec<(u16, i16)>,
    result: f32,
    bucket: u8,
}

/// Number of ply buckets.
const BUCKETS: usize = 10;

/// Whether the position is quiet enough to learn from: the side to move is not
/// attacked and has no capture that wins material.
fn is_quiet(pos: &Position) -> bool {
    if pos.in_check() || pos.end().is_some() {
        return false;
    }
    let mut caps = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    !caps.iter().any(|&m| pos.see_ge(m, 1))
}

/// Every `every`-th quiet position (see [`fit`]) after the first 8 plies of each game in
/// `text` (`FEN|moves|result` lines), as FENs: positions to label.
pub fn quiet_positions(text: &str, every: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    for line in text.lines() {
        let mut fields = line.split('|');
        let (Some(fen), Some(moves)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(mut pos) = Position::from_fen(fen.trim()) else {
            continue;
        };
        for (ply, text) in moves.split_whitespace().enumerate() {
            let Ok(m) = pos.parse_legal_move(text) else {
                break;
            };
            pos.make_move(m);
            if ply >= 8 && is_quiet(&pos) {
                seen += 1;
                if seen.is_multiple_of(every.max(1)) {
                    out.push(pos.to_fen());
                }
            }
        }
    }
    out
}

fn sample_of(pos: &Position, result: f32) -> Sample {
    let fc = feature_counts(pos);
    let features = (0..N_FEATURES)
        .filter_map(|f| {
            let d = fc.counts[0][f] - fc.counts[1][f];
            (d != 0).then_some((f as u16, d as i16))
        })
        .collect();
    Sample {
        phase: phase(pos) as f32 / PHASE_MAX as f32,
        features,
        result,
        bucket: (pos.game_ply() as usize * BUCKETS
            / jiang::fairychess::position::PLY_LIMIT as usize)
            .min(BUCKETS - 1) as u8,
    }
}

/// Reads a games file into training and validation samples (every tenth game validates).
fn load(text: &str) -> (Vec<Sample>, Vec<Sample>, usize) {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let mut games = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split('|').collect();
        if let [fen, target] = fields[..] {
            // A labelled position: `FEN|p`, p the expected score of White in 0..1 (for
            // instance another engine's search score through a logistic curve).
            let (Ok(pos), Ok(p)) = (Position::from_fen(fen.trim()), target.trim().parse::<f32>())
            else {
                continue;
            };
            if !(0.0..=1.0).contains(&p) || !is_quiet(&pos) {
                continue;
            }
            games += 1;
            let sample = sample_of(&pos, p);
            if games % 10 == 0 {
                valid.push(sample);
            } else {
                train.push(sample);
            }
            continue;
        }
        let [fen, moves, result] = fields[..] else {
            continue;
        };
        let result = match result.trim() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        let Ok(mut pos) = Position::from_fen(fen.trim()) else {
            continue;
        };
        games += 1;
        let target = if games % 10 == 0 {
            &mut valid
        } else {
            &mut train
        };
        for text in moves.split_whitespace() {
            let Ok(m) = pos.parse_legal_move(text) else {
                break;
            };
            pos.make_move(m);
            if is_quiet(&pos) {
                target.push(sample_of(&pos, result));
            }
        }
    }
    (train, valid, games)
}

/// White-view evaluation of a sample under float weights `w[f] = [mg, eg]`.
fn model_eval(s: &Sample, w: &[[f64; 2]]) -> f64 {
    let (ph, eph) = (s.phase as f64, 1.0 - s.phase as f64);
    s.features
        .iter()
        .map(|&(f, d)| {
            let x = &w[f as usize];
            d as f64 * (x[0] * ph + x[1] * eph)
        })
        .sum()
}

fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The model's expected score: the evaluation's win probability, pulled towards a draw
/// by how much of the game is left (`scale[bucket]`, fitted too).
fn predict(s: &Sample, w: &[[f64; 2]], k: f64, scale: &[f64; BUCKETS]) -> f64 {
    0.5 + (sigmoid(model_eval(s, w), k) - 0.5) * scale[s.bucket as usize]
}

fn mean_error(samples: &[Sample], w: &[[f64; 2]], k: f64, scale: &[f64; BUCKETS]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result as f64 - predict(s, w, k, scale)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Features the fit leaves alone: the king capture bonus (decided by the search, rare
/// in quiet positions) and slots no position uses.
fn is_fixed(f: usize) -> bool {
    f == KING_EN_PRISE || f == SAFE_CHECKS + PieceKind::King.index()
}

/// Moves the mean of each kind's placement table into its material weight (the king's
/// mean is dropped: both sides always have one).
fn center_tables(w: &mut [[f64; 2]]) {
    for kind in PieceKind::ALL {
        let table = PST + kind.index() * 10;
        let mut mean = [0.0f64; 2];
        for i in 0..64 {
            let x = w[table + jiang::fairychess::eval::octant(Square::from_index(i))];
            mean[0] += x[0] / 64.0;
            mean[1] += x[1] / 64.0;
        }
        for x in &mut w[table..table + 10] {
            x[0] -= mean[0];
            x[1] -= mean[1];
        }
        if kind != PieceKind::King {
            let m = &mut w[MATERIAL + kind.index() - 1];
            m[0] += mean[0];
            m[1] += mean[1];
        }
    }
}

/// What [`fit`] found.
pub struct FitReport {
    /// The fitted weights (rounded).
    pub weights: Box<Weights>,
    /// Text report: sample counts, K, errors before and after, material values.
    pub text: String,
}

/// Fits the weights to the games in `text` (see the module documentation); `material_only`
/// fits only material (from 300 for every piece) and tempo, everything else at 0, to
/// measure the piece values alone.
pub fn fit(text: &str, iterations: usize, material_only: bool) -> FitReport {
    let (train, valid, games) = load(text);
    let mut report = String::new();
    let _ = writeln!(
        report,
        "{games} games, {} training and {} validation positions",
        train.len(),
        valid.len()
    );
    let start: Vec<[f64; 2]> = HAND_SET
        .iter()
        .enumerate()
        .map(|(f, w)| {
            let keep = !material_only || f < MATERIAL + 5 || f == jiang::fairychess::eval::TEMPO;
            if material_only && f < MATERIAL + 5 {
                // Measured from a flat start: every piece 300, nothing assumed.
                [300.0, 300.0]
            } else if keep || is_fixed(f) {
                [w[0] as f64, w[1] as f64]
            } else {
                [0.0, 0.0]
            }
        })
        .collect();
    let tunable = |f: usize| {
        !is_fixed(f) && (!material_only || f < MATERIAL + 5 || f == jiang::fairychess::eval::TEMPO)
    };
    // K: the scale that best maps the starting evaluation to results.
    let mut k = 1.0;
    let mut best = f64::MAX;
    let mut scale = [1.0f64; BUCKETS];
    for step in 1..=300 {
        let kk = step as f64 * 0.01;
        let e = mean_error(&train, &start, kk, &scale);
        if e < best {
            best = e;
            k = kk;
        }
    }
    let _ = writeln!(
        report,
        "K = {k:.2}; error train {:.5} valid {:.5} at the start",
        best,
        mean_error(&valid, &start, k, &scale)
    );
    let mut w = start.clone();
    let (mut m1, mut m2) = (vec![[0.0f64; 2]; N_FEATURES], vec![[0.0f64; 2]; N_FEATURES]);
    let (mut s1, mut s2) = ([0.0f64; BUCKETS], [0.0f64; BUCKETS]);
    let (lr, b1, b2, eps) = (2.0, 0.9, 0.999, 1e-8);
    // A light pull towards the start: weights of rare features stay near it.
    let lambda = if material_only { 0.0 } else { 2e-8 };
    let n = train.len().max(1) as f64;
    let ln10 = std::f64::consts::LN_10;
    for it in 1..=iterations {
        let mut grad = vec![[0.0f64; 2]; N_FEATURES];
        let mut scale_grad = [0.0f64; BUCKETS];
        for s in &train {
            let e = model_eval(s, &w);
            let p = sigmoid(e, k);
            let c = scale[s.bucket as usize];
            let err = s.result as f64 - (0.5 + (p - 0.5) * c);
            scale_grad[s.bucket as usize] += -2.0 * err * (p - 0.5) / n;
            let g = -2.0 * err * c * p * (1.0 - p) * k * ln10 / 400.0 / n;
            let (ph, eph) = (s.phase as f64, 1.0 - s.phase as f64);
            for &(f, d) in &s.features {
                let gf = &mut grad[f as usize];
                gf[0] += g * d as f64 * ph;
                gf[1] += g * d as f64 * eph;
            }
        }
        for f in 0..N_FEATURES {
            if !tunable(f) {
                continue;
            }
            for ph in 0..2 {
                let g = grad[f][ph] + 2.0 * lambda * (w[f][ph] - start[f][ph]);
                m1[f][ph] = b1 * m1[f][ph] + (1.0 - b1) * g;
                m2[f][ph] = b2 * m2[f][ph] + (1.0 - b2) * g * g;
                let mh = m1[f][ph] / (1.0 - b1.powi(it as i32));
                let vh = m2[f][ph] / (1.0 - b2.powi(it as i32));
                w[f][ph] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        for b in 0..BUCKETS {
            let g = scale_grad[b];
            s1[b] = b1 * s1[b] + (1.0 - b1) * g;
            s2[b] = b2 * s2[b] + (1.0 - b2) * g * g;
            let mh = s1[b] / (1.0 - b1.powi(it as i32));
            let vh = s2[b] / (1.0 - b2.powi(it as i32));
            scale[b] = (scale[b] - 0.01 * mh / (vh.sqrt() + eps)).clamp(0.01, 1.0);
        }
        center_tables(&mut w);
        if it % 200 == 0 || it == iterations {
            log::info!(
                "iteration {it}: train {:.5} valid {:.5}",
                mean_error(&train, &w, k, &scale),
                mean_error(&valid, &w, k, &scale)
            );
        }
    }
    let mut out = Box::new([[0i32; 2]; N_FEATURES]);
    for f in 0..N_FEATURES {
        out[f] = [w[f][0].round() as i32, w[f][1].round() as i32];
    }
    let rounded: Vec<[f64; 2]> = out.iter().map(|x| [x[0] as f64, x[1] as f64]).collect();
    let _ = writeln!(
        report,
        "after {iterations} iterations: error train {:.5} valid {:.5}",
        mean_error(&train, &rounded, k, &scale),
        mean_error(&valid, &rounded, k, &scale)
    );
    let scales: Vec<String> = scale.iter().map(|c| format!("{c:.2}")).collect();
    let _ = writeln!(
        report,
        "result scale by tenth of the 100 plies: {}",
        scales.join(" ")
    );
    let _ = writeln!(report, "material [mg, eg]:");
    for kind in PieceKind::NON_KING {
        let _ = writeln!(
            report,
            "  {:<9} {:?}",
            kind.name(),
            out[MATERIAL + kind.index() - 1]
        );
    }
    let _ = writeln!(
        report,
        "  bishop pair {:?}, tempo {:?}",
        out[BISHOP_PAIR],
        out[jiang::fairychess::eval::TEMPO]
    );
    FitReport {
        weights: out,
        text: report,
    }
}

/// Weights as text, one feature a line: `index mg eg` (what [`parse_weights`] reads).
pub fn weights_text(w: &Weights) -> String {
    let mut s = String::new();
    for (f, x) in w.iter().enumerate() {
        let _ = writeln!(s, "{f} {} {}", x[0], x[1]);
    }
    s
}

/// Reads [`weights_text`] output.
pub fn parse_weights(text: &str) -> Result<Box<Weights>, String> {
    let mut w = Box::new([[0i32; 2]; N_FEATURES]);
    let mut seen = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Vec<i64> = line
            .split_whitespace()
            .map(|t| t.parse::<i64>().map_err(|e| format!("'{line}': {e}")))
            .collect::<Result<_, _>>()?;
        let [f, mg, eg] = v[..] else {
            return Err(format!("'{line}': expected 'index mg eg'"));
        };
        let f = usize::try_from(f)
            .ok()
            .filter(|&f| f < N_FEATURES)
            .ok_or_else(|| format!("'{line}': no feature {f}"))?;
        w[f] = [mg as i32, eg as i32];
        seen += 1;
    }
    if seen != N_FEATURES {
        return Err(format!("{seen} weights, expected {N_FEATURES}"));
    }
    Ok(w)
}

/// The weights as the source of `weights.rs`' table, one group a line or block.
pub fn weights_source(w: &Weights) -> String {
    let mut s = String::from("#[rustfmt::skip]\npub static WEIGHTS: Weights = [\n");
    for (name, first, len) in GROUPS {
        let _ = writeln!(s, "    // {name}");
        for chunk in w[first..first + len].chunks(5) {
            let items: Vec<String> = chunk
                .iter()
                .map(|x| format!("[{}, {}]", x[0], x[1]))
                .collect();
            let _ = writeln!(s, "    {},", items.join(", "));
        }
    }
    s.push_str("];\n");
    s
}
