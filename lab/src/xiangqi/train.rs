//! `jiang-lab train`: fits the network ([`super`]) to positions written by `jiang-lab datagen`.
//!
//! Each position's target is a blend of its search score and its game's result, from the
//! side to move's view: `λ · σ(score / SCALE) + (1 − λ) · result` with `σ` the logistic
//! function and `result` 1, ½ or 0. The network's output `o` is trained so that `σ(o)`
//! matches the target (mean squared error), so `o · SCALE` is an evaluation in the
//! search's units. Every position is also used mirrored left to right (the rules are
//! symmetric), chosen at random each time it is drawn.
//!
//! Training runs on the CPU in `f32` with AdamW, mini-batches split over `--threads`
//! threads; the input layer's gradient is accumulated sparsely (only the rows of the
//! active features). Positions in the last `--val` fraction of the data are held out and
//! their loss reported after each epoch. The quantised network is written after every
//! epoch, so an interrupted run leaves a usable file.
//!
//! `--output-buckets 8` trains a network with one output neuron per piece-count bucket
//! ([`jiang::xiangqi::nnue::output_bucket`]); started from a one-output network (`--init`),
//! every bucket begins as a copy of its output.
//!
//! `--king-buckets 6|9` trains a king-relative network ([`jiang::xiangqi::nnue::king_bucket`]:
//! nine buckets, one per palace square, or six, the right-hand file mirrored onto the left):
//! one set of first-layer rows per bucket of the view's own king, plus one shared set
//! that every bucket adds (a *factoriser*: what a piece on a square is worth whatever
//! the king's square, learned from all positions at once). The written network folds
//! the shared rows into each bucket's. Started from a plain network (`--init`), the shared
//! rows take its weights and the buckets start at zero, so training begins from that
//! network's evaluation (exactly so with nine buckets; with six, a view whose king stands
//! on the right-hand file sees the board's mirror image) and learns what the king adds.

// Index loops over parallel arrays (weights, gradients, moments) read best as they are.
#![allow(clippy::needless_range_loop)]

use crate::flags::{Flags, Spec};
use jiang::xiangqi::nnue::{
    king_bucket, output_bucket, Network, Row, HIDDEN, INPUTS, KING_BUCKETS, KING_SQUARE_BUCKETS,
    OUTPUT_BUCKETS, QA, QB, SCALE,
};
use jiang::xiangqi::types::PieceKind;
use jiang::xiangqi::types::{Color, Square};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::BufRead;
use std::time::Instant;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Where the network is written.
    pub out: String,
    /// Data files (`FEN | score | result` lines).
    pub data: Vec<String>,
    /// Passes over the training data.
    pub epochs: usize,
    /// Learning rate at the start.
    pub lr: f32,
    /// The learning rate is multiplied by `lr_drop` at each of these fractions of the run.
    pub lr_drop: f32,
    /// Positions per batch.
    pub batch: usize,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Threads per batch.
    pub threads: usize,
    /// Seed of the shuffling, mirroring and initial weights.
    pub seed: u64,
    /// Fraction of the data (its end) held out for validation.
    pub val: f64,
    /// Decoupled weight decay.
    pub weight_decay: f32,
    /// Network to start from instead of random weights.
    pub init: Option<String>,
    /// Keep at most this many positions (0: all), for quick experiments.
    pub max_positions: usize,
    /// Output neurons: 1, or [`OUTPUT_BUCKETS`] chosen by the number of pieces.
    pub output_buckets: usize,
    /// King buckets of the inputs: 1 (plain), [`KING_BUCKETS`] or [`KING_SQUARE_BUCKETS`].
    pub king_buckets: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            out: String::new(),
            data: Vec::new(),
            epochs: 20,
            lr: 0.001,
            lr_drop: 0.3,
            batch: 16384,
            lambda: 0.75,
            threads: 1,
            seed: 1,
            val: 0.02,
            weight_decay: 0.0,
            init: None,
            max_positions: 0,
            output_buckets: 1,
            king_buckets: 1,
        }
    }
}

/// The usage of `jiang-lab train`.
pub const USAGE: &str = "jiang-lab train OUT.nnue DATA... [--epochs N] [--lr X] [--lr-drop X] [--batch N] [--lambda X] [--threads N]\n    \
[--seed S] [--val X] [--wd X] [--init NET] [--max-positions N] [--output-buckets 1|8] [--king-buckets 1|6|9]\n    \
train the Xiangqi evaluation network on datagen output";

/// Parses `OUT DATA... [--epochs N] [--lr X] [--lr-drop X] [--batch N] [--lambda X]
/// [--threads N] [--seed S] [--val X] [--wd X] [--init NET] [--max-positions N]
/// [--output-buckets 1|8] [--king-buckets 1|6|9]`.
pub fn parse_args(args: &[String]) -> Result<TrainConfig, String> {
    const SPEC: Spec = Spec::new(USAGE)
        .options(&[
            "epochs",
            "lr",
            "lr-drop",
            "batch",
            "lambda",
            "threads",
            "seed",
            "val",
            "wd",
            "init",
            "max-positions",
            "output-buckets",
            "king-buckets",
        ])
        .args(usize::MAX);
    let f = Flags::parse(args, &SPEC)?;
    let d = TrainConfig::default();
    // Rates are read as f64 and narrowed, as they always were.
    let rate = |name: &str, default: f32| f.get(name, f64::from(default)).map(|v| v as f32);
    let c = TrainConfig {
        out: f.arg(0, "an output file")?,
        data: f.args().get(1..).unwrap_or_default().to_vec(),
        epochs: f.get("epochs", d.epochs)?.max(1),
        lr: rate("lr", d.lr)?,
        lr_drop: rate("lr-drop", d.lr_drop)?,
        batch: f.get("batch", d.batch)?.max(1),
        lambda: f.get("lambda", f64::from(d.lambda))?.clamp(0.0, 1.0) as f32,
        threads: f.get("threads", d.threads)?.clamp(1, 64),
        seed: f.get("seed", d.seed)?,
        val: f.get("val", d.val)?.clamp(0.0, 0.5),
        weight_decay: rate("wd", d.weight_decay)?,
        init: f.value("init").map(String::from),
        max_positions: f.get("max-positions", d.max_positions)?,
        output_buckets: f.get("output-buckets", d.output_buckets)?,
        king_buckets: f.get("king-buckets", d.king_buckets)?,
    };
    if ![1, KING_BUCKETS, KING_SQUARE_BUCKETS].contains(&c.king_buckets) {
        return Err(format!(
            "--king-buckets must be 1, {KING_BUCKETS} or {KING_SQUARE_BUCKETS}"
        ));
    }
    if c.output_buckets != 1 && c.output_buckets != OUTPUT_BUCKETS {
        return Err(format!("--output-buckets must be 1 or {OUTPUT_BUCKETS}"));
    }
    if c.data.is_empty() {
        return Err("train needs at least one data file".into());
    }
    Ok(c)
}

/// A training position: pieces as (square, piece index), Red's score and result.
#[derive(Clone, Copy)]
struct Sample {
    squares: [u8; 32],
    pieces: [u8; 32],
    count: u8,
    /// 0: Red to move, 1: Black.
    stm: u8,
    /// Search score from Red's view.
    score: i16,
    /// Red's result: 0 loss, 1 draw, 2 win, [`UNKNOWN_RESULT`] when there was no game.
    result: u8,
}

/// `result` of positions without a game (`jiang-lab datagen --perturb`): trained on the
/// score alone.
const UNKNOWN_RESULT: u8 = 3;

/// Reads `board stm ... | score | result`; `None` for a malformed line.
fn parse_line(line: &str) -> Option<Sample> {
    let mut parts = line.split('|');
    let fen = parts.next()?.trim();
    let score: i32 = parts.next()?.trim().parse().ok()?;
    let result = match parts.next()?.trim() {
        "1" | "1.0" => 2,
        "0.5" => 1,
        "0" | "0.0" => 0,
        "-" => UNKNOWN_RESULT,
        _ => return None,
    };
    let mut fields = fen.split_whitespace();
    let board = fields.next()?;
    let stm = match fields.next()? {
        "w" | "r" => 0,
        "b" => 1,
        _ => return None,
    };
    let mut s = Sample {
        squares: [0; 32],
        pieces: [0; 32],
        count: 0,
        stm,
        score: score.clamp(-20000, 20000) as i16,
        result,
    };
    let mut rank = 9i32;
    let mut file = 0i32;
    for c in board.chars() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='9' => file += c as i32 - '0' as i32,
            _ => {
                let kind = PieceKind::from_letter(c)?;
                let color = usize::from(c.is_ascii_lowercase());
                if !(0..9).contains(&file) || !(0..10).contains(&rank) || s.count >= 32 {
                    return None;
                }
                let i = usize::from(s.count);
                s.squares[i] = (rank * 9 + file) as u8;
                s.pieces[i] = (color * 7 + kind.index()) as u8;
                s.count += 1;
                file += 1;
            }
        }
    }
    (rank == 0).then_some(s)
}

fn load(config: &TrainConfig) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    let mut bad = 0usize;
    for path in &config.data {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for line in std::io::BufReader::new(f).lines() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            match parse_line(&line) {
                Some(s) => samples.push(s),
                None => bad += 1,
            }
            if config.max_positions > 0 && samples.len() >= config.max_positions {
                break;
            }
        }
    }
    if bad > 0 {
        eprintln!("skipped {bad} malformed lines");
    }
    Ok(samples)
}

/// Most features of one view: a piece's bucket row and its shared (factoriser) row.
const MAX_FEATURES: usize = 64;

/// Rows of the first layer in training: [`INPUTS`] for a plain network; for a
/// king-relative one a block per king bucket and then the shared block.
fn training_rows(king_buckets: usize) -> usize {
    if king_buckets == 1 {
        INPUTS
    } else {
        (king_buckets + 1) * INPUTS
    }
}

/// The input features of a sample from the side to move's view and the other side's,
/// optionally mirrored left to right; returns how many each view has. A king-relative
/// network (`king_buckets` > 1) gives each piece two: its row in the view's king bucket (the board
/// mirrored when that king is on the right-hand file, as the engine does) and the shared
/// row of the same feature.
#[inline(always)]
fn features(
    s: &Sample,
    mirror: bool,
    king_buckets: usize,
    stm_f: &mut [u16; MAX_FEATURES],
    nstm_f: &mut [u16; MAX_FEATURES],
) -> usize {
    let stm = usize::from(s.stm);
    let king = king_buckets != 1;
    let file_of = |sq: usize| if mirror { 8 - sq % 9 } else { sq % 9 };
    // Each view's king bucket and mirror, from its own king's square.
    let mut context = [(0usize, false); 2];
    if king {
        for i in 0..usize::from(s.count) {
            let p = usize::from(s.pieces[i]);
            if p % 7 == 0 {
                let sq = usize::from(s.squares[i]);
                let at = Square::from_coords(file_of(sq) as i32, (sq / 9) as i32);
                let color = if p < 7 { Color::Red } else { Color::Black };
                if let Some(at) = at {
                    context[p / 7] = king_bucket(color, at, king_buckets);
                }
            }
        }
    }
    let n = usize::from(s.count);
    for i in 0..n {
        let sq = usize::from(s.squares[i]);
        let (rank, file) = (sq / 9, file_of(sq));
        let p = usize::from(s.pieces[i]);
        let (color, kind) = (p / 7, p % 7);
        for (view, out) in [(stm, &mut *stm_f), (1 - stm, &mut *nstm_f)] {
            let r = if view == 0 { rank } else { 9 - rank };
            let own = usize::from(color != view);
            let base = (own * 7 + kind) * 90 + r * 9;
            if king {
                let (bucket, flip) = context[view];
                let f = if flip { 8 - file } else { file };
                // The shared row of the same (mirrored) feature: the written network folds
                // it into the bucket's row of that feature.
                out[i] = (bucket * INPUTS + base + f) as u16;
                out[n + i] = (king_buckets * INPUTS + base + f) as u16;
            } else {
                out[i] = (base + file) as u16;
            }
        }
    }
    if king {
        2 * n
    } else {
        n
    }
}

/// Float weights (or their gradients, or Adam moments: the same shape).
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Per output bucket: the side to move's half, then the other side's.
    w2: Vec<f32>,
    /// Per output bucket.
    b2: Vec<f32>,
}

impl Params {
    fn zeros(buckets: usize, king_buckets: usize) -> Params {
        Params {
            w1: vec![0.0; training_rows(king_buckets) * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; buckets * 2 * HIDDEN],
            b2: vec![0.0; buckets],
        }
    }

    fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// King buckets of the inputs (1: plain), from the first layer's shape.
    fn king_buckets(&self) -> usize {
        match self.w1.len() / (INPUTS * HIDDEN) {
            1 => 1,
            rows => rows - 1,
        }
    }

    /// The output bucket of a sample.
    #[inline(always)]
    fn bucket(&self, s: &Sample) -> usize {
        output_bucket(self.buckets(), u32::from(s.count))
    }

    fn random(rng: &mut Xoshiro256PlusPlus, buckets: usize, king_buckets: usize) -> Params {
        let mut p = Params::zeros(buckets, king_buckets);
        let mut uniform = |scale: f32| {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            (u as f32 * 2.0 - 1.0) * scale
        };
        // About 32 active features: keep the accumulator's spread near 0.5 (a king-relative
        // network has twice as many, its bucket rows and the shared ones).
        let spread = if king_buckets == 1 {
            0.15
        } else {
            0.15 / 2f32.sqrt()
        };
        for w in p.w1.iter_mut() {
            *w = uniform(spread);
        }
        for w in p.w2.iter_mut() {
            *w = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
        }
        p
    }

    /// The float form of `net` with `buckets` outputs and `king_buckets` king buckets: a
    /// one-output network's output is copied into every bucket; a plain network's rows
    /// become a king-relative one's shared rows (the bucket rows start at zero).
    fn from_network(net: &Network, buckets: usize, king_buckets: usize) -> Result<Params, String> {
        let from = net.w2.len();
        if from != buckets && from != 1 {
            return Err(format!(
                "the network has {from} output buckets, the run {buckets}"
            ));
        }
        if net.king_buckets != 1 && net.king_buckets != king_buckets {
            return Err(format!(
                "the network has {} king buckets, the run {king_buckets}",
                net.king_buckets
            ));
        }
        let mut p = Params::zeros(buckets, king_buckets);
        // A plain network into a king-relative run: its rows are the shared block.
        let offset = if king_buckets != 1 && net.king_buckets == 1 {
            king_buckets * INPUTS
        } else {
            0
        };
        for (f, row) in net.w1.iter().enumerate() {
            for (j, &v) in row.0.iter().enumerate() {
                p.w1[(offset + f) * HIDDEN + j] = f32::from(v) / QA as f32;
            }
        }
        for j in 0..HIDDEN {
            p.b1[j] = f32::from(net.b1.0[j]) / QA as f32;
        }
        for b in 0..buckets {
            let src = if from == 1 { 0 } else { b };
            for h in 0..2 {
                for j in 0..HIDDEN {
                    p.w2[(2 * b + h) * HIDDEN + j] = f32::from(net.w2[src][h].0[j]) / QB as f32;
                }
            }
            p.b2[b] = net.b2[src] as f32 / (QA * QB) as f32;
        }
        Ok(p)
    }

    fn quantise(&self) -> Network {
        let q = |v: f32, scale: i32, limit: i32| {
            ((v * scale as f32).round() as i32).clamp(-limit, limit) as i16
        };
        let row = |vals: &[f32], scale: i32, limit: i32| {
            let mut r = Row([0; HIDDEN]);
            for (o, &v) in r.0.iter_mut().zip(vals) {
                *o = q(v, scale, limit);
            }
            r
        };
        let king_buckets = self.king_buckets();
        let king = king_buckets != 1;
        let rows = king_buckets * INPUTS;
        // A king-relative network's rows: each bucket's plus the shared one of its feature.
        let folded = |f: usize| -> Vec<f32> {
            let own = &self.w1[f * HIDDEN..(f + 1) * HIDDEN];
            if !king {
                return own.to_vec();
            }
            let shared = king_buckets * INPUTS + f % INPUTS;
            let shared = &self.w1[shared * HIDDEN..(shared + 1) * HIDDEN];
            own.iter().zip(shared).map(|(a, b)| a + b).collect()
        };
        Network {
            king_buckets,
            w1: (0..rows).map(|f| row(&folded(f), QA, 32767)).collect(),
            b1: row(&self.b1, QA, 32767),
            w2: self
                .w2
                .chunks_exact(2 * HIDDEN)
                .map(|w| [row(&w[..HIDDEN], QB, 127), row(&w[HIDDEN..], QB, 127)])
                .collect(),
            b2: self
                .b2
                .iter()
                .map(|b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    fn add(&mut self, o: &Params) {
        for (a, b) in self.w1.iter_mut().zip(&o.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&o.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&o.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&o.b2) {
            *a += b;
        }
    }

    fn clear(&mut self) {
        self.w1.iter_mut().for_each(|v| *v = 0.0);
        self.b1.iter_mut().for_each(|v| *v = 0.0);
        self.w2.iter_mut().for_each(|v| *v = 0.0);
        self.b2.iter_mut().for_each(|v| *v = 0.0);
    }
}

/// Largest |weight| of the output layer: `QA · w` must fit in i16 after quantisation.
const W2_LIMIT: f32 = 127.0 / QB as f32;
/// Largest |weight| of the input layer (keeps the i16 accumulator far from overflow).
const W1_LIMIT: f32 = 1.98;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a sample from the side to move's view.
#[inline(always)]
fn target(s: &Sample, lambda: f32) -> f32 {
    let (score, result) = if s.stm == 0 {
        (f32::from(s.score), f32::from(s.result) / 2.0)
    } else {
        (-f32::from(s.score), 1.0 - f32::from(s.result) / 2.0)
    };
    if s.result == UNKNOWN_RESULT {
        return sigmoid(score / SCALE as f32);
    }
    lambda * sigmoid(score / SCALE as f32) + (1.0 - lambda) * result
}

/// Forward pass (and, with `grad`, backward pass) of one sample; returns its loss.
#[inline(always)]
fn run_sample(p: &Params, s: &Sample, mirror: bool, lambda: f32, grad: Option<&mut Params>) -> f32 {
    let mut fs = [[0u16; MAX_FEATURES]; 2];
    let [ref mut f0, ref mut f1] = fs;
    let n = features(s, mirror, p.king_buckets(), f0, f1);
    let mut acc = [[0f32; HIDDEN]; 2];
    for h in 0..2 {
        acc[h].copy_from_slice(&p.b1);
        for &f in &fs[h][..n] {
            let row = &p.w1[usize::from(f) * HIDDEN..][..HIDDEN];
            for (a, w) in acc[h].iter_mut().zip(row) {
                *a += w;
            }
        }
    }
    let bucket = p.bucket(s);
    let mut out = p.b2[bucket];
    for h in 0..2 {
        let w2 = &p.w2[(2 * bucket + h) * HIDDEN..][..HIDDEN];
        for (a, w) in acc[h].iter().zip(w2) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    let pred = sigmoid(out);
    let t = target(s, lambda);
    let err = pred - t;
    if let Some(g) = grad {
        let d_out = 2.0 * err * pred * (1.0 - pred);
        g.b2[bucket] += d_out;
        for h in 0..2 {
            let w2 = &p.w2[(2 * bucket + h) * HIDDEN..][..HIDDEN];
            let gw2 = &mut g.w2[(2 * bucket + h) * HIDDEN..][..HIDDEN];
            let mut d_acc = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                let a = acc[h][j];
                let c = a.clamp(0.0, 1.0);
                gw2[j] += d_out * c * c;
                d_acc[j] = if a > 0.0 && a < 1.0 {
                    d_out * w2[j] * 2.0 * a
                } else {
                    0.0
                };
            }
            for (gb, d) in g.b1.iter_mut().zip(&d_acc) {
                *gb += d;
            }
            for &f in &fs[h][..n] {
                let row = &mut g.w1[usize::from(f) * HIDDEN..][..HIDDEN];
                for (gw, d) in row.iter_mut().zip(&d_acc) {
                    *gw += d;
                }
            }
        }
    }
    err * err
}

/// Runs a slice of a batch; the AVX2 copy is used when the CPU has it.
fn run_slice(
    p: &Params,
    samples: &[Sample],
    idx: &[u32],
    mirrors: &[bool],
    lambda: f32,
    mut grad: Option<&mut Params>,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports AVX2 and FMA (checked just above).
        return unsafe { run_slice_avx2(p, samples, idx, mirrors, lambda, grad) };
    }
    let mut loss = 0.0f64;
    for (&i, &m) in idx.iter().zip(mirrors) {
        loss += f64::from(run_sample(
            p,
            &samples[i as usize],
            m,
            lambda,
            grad.as_deref_mut(),
        ));
    }
    loss
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_slice_avx2(
    p: &Params,
    samples: &[Sample],
    idx: &[u32],
    mirrors: &[bool],
    lambda: f32,
    mut grad: Option<&mut Params>,
) -> f64 {
    let mut loss = 0.0f64;
    for (&i, &m) in idx.iter().zip(mirrors) {
        loss += f64::from(run_sample(
            p,
            &samples[i as usize],
            m,
            lambda,
            grad.as_deref_mut(),
        ));
    }
    loss
}

/// AdamW state.
struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    fn step(&mut self, p: &mut Params, g: &Params, lr: f32, wd: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        // One AdamW step for each weight of a tensor, clipped to `limit`.
        let upd = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], limit: f32| {
            for i in 0..w.len() {
                let g = g[i] * scale;
                m[i] = B1 * m[i] + (1.0 - B1) * g;
                v[i] = B2 * v[i] + (1.0 - B2) * g * g;
                let step = (m[i] / c1) / ((v[i] / c2).sqrt() + EPS);
                w[i] -= lr * (step + wd * w[i]);
                w[i] = w[i].clamp(-limit, limit);
            }
        };
        let (m, v) = (&mut self.m, &mut self.v);
        upd(&mut p.w1, &g.w1, &mut m.w1, &mut v.w1, W1_LIMIT);
        upd(&mut p.b1, &g.b1, &mut m.b1, &mut v.b1, 60.0);
        upd(&mut p.w2, &g.w2, &mut m.w2, &mut v.w2, W2_LIMIT);
        upd(&mut p.b2, &g.b2, &mut m.b2, &mut v.b2, 60.0);
    }
}

/// Mean loss of `idx` (no mirroring, no gradient).
fn validate(p: &Params, samples: &[Sample], idx: &[u32], lambda: f32) -> f64 {
    let mirrors = vec![false; idx.len()];
    run_slice(p, samples, idx, &mirrors, lambda, None) / idx.len().max(1) as f64
}

/// The sample as a FEN (board and side to move).
fn sample_fen(s: &Sample) -> String {
    let mut board = [None; 90];
    for i in 0..usize::from(s.count) {
        board[usize::from(s.squares[i])] = Some(s.pieces[i]);
    }
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board[rank * 9 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = PieceKind::ALL[usize::from(p) % 7].letter();
                    fen.push(if p < 7 { c } else { c.to_ascii_lowercase() });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if s.stm == 0 {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

/// Loss of the hand-written evaluation (`σ(eval / SCALE)`) on `idx`, for comparison.
fn hce_loss(samples: &[Sample], idx: &[u32], lambda: f32) -> f64 {
    let mut loss = 0.0f64;
    let mut n = 0usize;
    for &i in idx {
        let s = &samples[i as usize];
        if let Ok(pos) = jiang::xiangqi::Position::from_fen(&sample_fen(s)) {
            let e = jiang::xiangqi::eval::evaluate(&pos) as f32;
            let d = sigmoid(e / SCALE as f32) - target(s, lambda);
            loss += f64::from(d * d);
            n += 1;
        }
    }
    loss / n.max(1) as f64
}

/// Trains a network as configured and writes it to `config.out`.
pub fn run(config: &TrainConfig) -> Result<(), String> {
    let t0 = Instant::now();
    let samples = load(config)?;
    if samples.len() < 100 {
        return Err(format!("only {} positions: too few", samples.len()));
    }
    let n_val = ((samples.len() as f64 * config.val) as usize).min(samples.len() / 2);
    let n_train = samples.len() - n_val;
    let val_idx: Vec<u32> = (n_train as u32..samples.len() as u32).collect();
    eprintln!(
        "{} positions ({} training, {} validation) loaded in {:.1} s; {:?}",
        samples.len(),
        n_train,
        n_val,
        t0.elapsed().as_secs_f64(),
        config
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut params = match &config.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Params::from_network(
                &Network::from_bytes(&bytes).map_err(|e| e.to_string())?,
                config.output_buckets,
                config.king_buckets,
            )?
        }
        None => Params::random(&mut rng, config.output_buckets, config.king_buckets),
    };
    let (buckets, king) = (config.output_buckets, config.king_buckets);
    let mut adam = Adam {
        m: Params::zeros(buckets, king),
        v: Params::zeros(buckets, king),
        t: 0,
    };
    let threads = config.threads;
    let mut grads: Vec<Params> = (0..threads).map(|_| Params::zeros(buckets, king)).collect();
    let mut total = Params::zeros(buckets, king);
    let mut order: Vec<u32> = (0..n_train as u32).collect();
    let mut mirrors = vec![false; config.batch];
    let drops = [0.5, 0.75, 0.9];
    eprintln!(
        "epoch 0: validation loss {:.6} (hand-written evaluation: {:.6})",
        validate(&params, &samples, &val_idx, config.lambda),
        hce_loss(&samples, &val_idx, config.lambda)
    );
    for epoch in 0..config.epochs {
        let progress = epoch as f64 / config.epochs as f64;
        let lr = config.lr
            * config
                .lr_drop
                .powi(drops.iter().filter(|&&d| progress >= d).count() as i32);
        // Fisher-Yates shuffle.
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let te = Instant::now();
        let mut train_loss = 0.0f64;
        for batch in order.chunks(config.batch) {
            for m in mirrors.iter_mut().take(batch.len()) {
                *m = rng.next_u64() & 1 == 1;
            }
            let per = batch.len().div_ceil(threads);
            let p = &params;
            let samples = &samples;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per).zip(mirrors.chunks(per)))
                    .map(|(g, (idx, mir))| {
                        scope.spawn(move || {
                            g.clear();
                            run_slice(p, samples, idx, mir, config.lambda, Some(g))
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            total.clear();
            for g in grads.iter().take(batch.len().div_ceil(per)) {
                total.add(g);
            }
            adam.step(
                &mut params,
                &total,
                lr,
                config.weight_decay,
                1.0 / batch.len() as f32,
            );
        }
        let val = validate(&params, &samples, &val_idx, config.lambda);
        eprintln!(
            "epoch {}: lr {:.6} training loss {:.6} validation loss {:.6} ({:.1} s, {:.0} positions/s)",
            epoch + 1,
            lr,
            train_loss / n_train as f64,
            val,
            te.elapsed().as_secs_f64(),
            n_train as f64 / te.elapsed().as_secs_f64()
        );
        let net = params.quantise();
        std::fs::write(&config.out, net.to_bytes()).map_err(|e| format!("{}: {e}", config.out))?;
    }
    eprintln!(
        "network written to {} ({:.0} s in all)",
        config.out,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_lines_parse_and_features_match_the_engine() {
        let line =
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 | -25 | 0.5";
        let s = parse_line(line).expect("valid line");
        assert_eq!((s.count, s.stm, s.score, s.result), (32, 1, -25, 1));
        assert_eq!(sample_fen(&s), line.split(" | ").next().unwrap());
        assert!(parse_line("rnbakabnr/9 w | 1 | 1").is_none());
        let unknown = parse_line("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 | 400 | -").unwrap();
        assert_eq!(unknown.result, UNKNOWN_RESULT);
        assert!((target(&unknown, 0.0) - sigmoid(1.0)).abs() < 1e-6);
        assert!(parse_line("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1 | x | 1").is_none());
        // The trainer's features are the engine's (`super::feature`), side to move first.
        let pos = jiang::xiangqi::Position::from_fen(line.split('|').next().unwrap()).unwrap();
        let (mut a, mut b) = ([0u16; MAX_FEATURES], [0u16; MAX_FEATURES]);
        assert_eq!(features(&s, false, 1, &mut a, &mut b), 32);
        let mut engine: Vec<Vec<u16>> = vec![Vec::new(), Vec::new()];
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).unwrap();
            engine[0]
                .push(jiang::xiangqi::nnue::feature(jiang::xiangqi::Color::Black, p, sq) as u16);
            engine[1].push(jiang::xiangqi::nnue::feature(jiang::xiangqi::Color::Red, p, sq) as u16);
        }
        for (mine, mut theirs) in [a, b].into_iter().zip(engine) {
            let mut mine = mine[..usize::from(s.count)].to_vec();
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs);
        }
    }

    /// King-relative features: each piece's bucket row is the engine's
    /// (`super::king_feature`), its shared row that of the same feature (what the written
    /// network folds together); with no king on the middle file, the sample's mirror image
    /// has the same rows.
    #[test]
    fn king_relative_features_match_the_engine() {
        use jiang::xiangqi::nnue::king_feature;
        let line = "3k5/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/5K3/2BA1AB2 w - - 0 1 | 40 | 1";
        let s = parse_line(line).expect("valid line");
        let pos = jiang::xiangqi::Position::from_fen(line.split('|').next().unwrap()).unwrap();
        let n = usize::from(s.count);
        for (kb, mirror) in [
            (KING_BUCKETS, false),
            (KING_BUCKETS, true),
            (KING_SQUARE_BUCKETS, false),
        ] {
            let (mut a, mut b) = ([0u16; MAX_FEATURES], [0u16; MAX_FEATURES]);
            assert_eq!(features(&s, mirror, kb, &mut a, &mut b), 2 * n);
            for (view, mine) in [(Color::Red, a), (Color::Black, b)] {
                let king = pos.king_square(view);
                let mut bucket_rows: Vec<u16> = mine[..n].to_vec();
                let mut shared: Vec<u16> = mine[n..2 * n].to_vec();
                let mut engine_rows = Vec::new();
                let mut plain = Vec::new();
                for sq in pos.occupied() {
                    let p = pos.piece_at(sq).unwrap();
                    let f = king_feature(view, p, sq, king, kb);
                    engine_rows.push(f as u16);
                    plain.push((kb * INPUTS + f % INPUTS) as u16);
                }
                for v in [&mut bucket_rows, &mut shared, &mut engine_rows, &mut plain] {
                    v.sort();
                }
                // The red king on f1 mirrors Red's view, the black king on d9 not Black's;
                // in the sample's mirror image (kings on d1 and f9) it is the other way
                // round, and each view's bucket rows come out the same.
                assert_eq!(bucket_rows, engine_rows, "{view:?} mirror {mirror}");
                assert_eq!(shared, plain, "{view:?} mirror {mirror}");
            }
        }
    }

    /// A plain network seeds a king-relative run exactly: with nine buckets everywhere,
    /// with six where no view mirrors, the folded network evaluates as the plain one did.
    #[test]
    fn a_plain_network_seeds_a_king_relative_one_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let plain = Params::random(&mut rng, OUTPUT_BUCKETS, 1).quantise();
        let nine = Params::from_network(&plain, OUTPUT_BUCKETS, KING_SQUARE_BUCKETS)
            .unwrap()
            .quantise();
        assert_eq!(nine.king_buckets, KING_SQUARE_BUCKETS);
        let six = Params::from_network(&plain, OUTPUT_BUCKETS, KING_BUCKETS)
            .unwrap()
            .quantise();
        assert_eq!(six.king_buckets, KING_BUCKETS);
        let mirrored = "3k5/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/5K3/2BA1AB2 w - - 0 1";
        for (king, fen) in [
            (
                &six,
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            ),
            (
                &six,
                "3k5/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/4K4/2BA1AB2 b - - 0 1",
            ),
            (
                &nine,
                "3k5/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/4K4/2BA1AB2 b - - 0 1",
            ),
            (&nine, mirrored),
        ] {
            let pos = jiang::xiangqi::Position::from_fen(fen).unwrap();
            let pieces = pos.occupied().count();
            let stm = pos.side_to_move();
            assert_eq!(
                king.evaluate(&king.refresh(&pos), stm, pieces),
                plain.evaluate(&plain.refresh(&pos), stm, pieces),
                "{fen}"
            );
        }
        // With six buckets a view whose king is on the right-hand file sees the mirror.
        let pos = jiang::xiangqi::Position::from_fen(mirrored).unwrap();
        let (pieces, stm) = (pos.occupied().count(), pos.side_to_move());
        assert_ne!(
            six.evaluate(&six.refresh(&pos), stm, pieces),
            plain.evaluate(&plain.refresh(&pos), stm, pieces)
        );
        // A king-relative network seeds no run of another input kind.
        assert!(Params::from_network(&six, OUTPUT_BUCKETS, 1).is_err());
        assert!(Params::from_network(&six, OUTPUT_BUCKETS, KING_SQUARE_BUCKETS).is_err());
    }

    #[test]
    fn quantised_network_evaluates_like_its_float_form() {
        // Random float weights, quantised; the integer inference must agree with the float
        // forward pass of the quantised weights up to the rounding of its divisions. With
        // output buckets too: each position is evaluated by its piece count's bucket.
        for (buckets, kb) in [
            (1, 1),
            (OUTPUT_BUCKETS, 1),
            (OUTPUT_BUCKETS, KING_BUCKETS),
            (OUTPUT_BUCKETS, KING_SQUARE_BUCKETS),
        ] {
            let king = kb != 1;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            let mut p = Params::random(&mut rng, buckets, kb);
            for w in p.w2.iter_mut() {
                *w *= 30.0;
            }
            for (b, v) in p.b2.iter_mut().enumerate() {
                *v = 0.3 + 0.1 * b as f32;
            }
            if king {
                // On the quantisation grid, so that folding the shared rows in is exact.
                for w in p.w1.iter_mut().chain(p.b1.iter_mut()) {
                    *w = (*w * QA as f32).round() / QA as f32;
                }
                for w in p.w2.iter_mut() {
                    *w = (*w * QB as f32).round() / QB as f32;
                }
            }
            let net = p.quantise();
            assert_eq!(net.w2.len(), buckets);
            // A king-relative network is checked against the training weights themselves,
            // shared rows and all (kings on the right-hand file included): the written
            // file must fold them as the training's features use them.
            let q = if king {
                p.clone()
            } else {
                Params::from_network(&net, buckets, kb).unwrap()
            };
            for fen in [
                "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
                "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 b - - 0 1",
                "3k5/9/9/9/R8/9/P2r5/7n1/9/4K4 b - - 0 1",
                "2ba1k3/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/3K5/2BA1AB2 w - - 0 1",
                "3k5/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/5K3/2BA1AB2 w - - 0 1",
            ] {
                let s = parse_line(&format!("{fen} | 0 | 0.5")).unwrap();
                let pos = jiang::xiangqi::Position::from_fen(fen).unwrap();
                let pieces = pos.occupied().count();
                let quantised = net.evaluate(&net.refresh(&pos), pos.side_to_move(), pieces);
                let mut fs = [[0u16; MAX_FEATURES]; 2];
                let [ref mut f0, ref mut f1] = fs;
                let n = features(&s, false, kb, f0, f1);
                let bucket = q.bucket(&s);
                // The sample's piece count is the engine's.
                assert_eq!(bucket, output_bucket(buckets, pieces));
                let mut out = q.b2[bucket] as f64;
                for h in 0..2 {
                    let mut acc: Vec<f64> = q.b1.iter().map(|&v| v as f64).collect();
                    for &f in &fs[h][..n] {
                        for j in 0..HIDDEN {
                            acc[j] += q.w1[usize::from(f) * HIDDEN + j] as f64;
                        }
                    }
                    for j in 0..HIDDEN {
                        let c = acc[j].clamp(0.0, 1.0);
                        out += c * c * q.w2[(2 * bucket + h) * HIDDEN + j] as f64;
                    }
                }
                let float = out * SCALE as f64;
                assert!(
                    float.abs() > 50.0,
                    "{fen}: the test needs a sizeable output"
                );
                assert!(
                    (quantised as f64 - float).abs() <= 2.0,
                    "{fen}: quantised {quantised}, float {float}"
                );
            }
        }
    }

    #[test]
    fn a_one_output_network_seeds_every_bucket() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let one = Params::random(&mut rng, 1, 1).quantise();
        let eight = Params::from_network(&one, OUTPUT_BUCKETS, 1).unwrap();
        assert_eq!(eight.buckets(), OUTPUT_BUCKETS);
        let net = eight.quantise();
        for (w, b) in net.w2.iter().zip(&net.b2) {
            assert!(w[0].0 == one.w2[0][0].0 && w[1].0 == one.w2[0][1].0 && *b == one.b2[0]);
        }
        // A bucketed network cannot be cut back to one output.
        assert!(Params::from_network(&net, 1, 1).is_err());
    }
}
