//! `jiang-lab spsa`: tunes an engine's integer parameters (UCI spin options) by
//! simultaneous perturbation stochastic approximation, as fishtest runs it for Stockfish.
//!
//! # The method
//!
//! SPSA (J. C. Spall, "Multivariate stochastic approximation using a simultaneous
//! perturbation gradient approximation", IEEE Transactions on Automatic Control 37(3),
//! 1992; and Spall, "Implementation of the simultaneous perturbation algorithm for
//! stochastic optimization", IEEE Transactions on Aerospace and Electronic Systems
//! 34(3), 1998, for the gains) estimates the gradient of the playing strength from the
//! result of games between two engines whose parameters differ by a random perturbation
//! of every parameter at once. The schedules and the parameter format are fishtest's
//! (the "SPSA" section of fishtest's wiki and its `spsa_handler.py`):
//!
//! * Each parameter is `NAME,start,min,max,c_end,r_end`. The run has `N` iterations (game
//!   pairs); `A = A_ratio · N` (`A_ratio` 0.1), `α = 0.602`, `γ = 0.101`, and per parameter
//!
//!   `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, `θ₀ = start`.
//!
//! * Iteration `k` (from 0; `k' = k + 1`): `c_k = c / k'^γ`, `R_k = a / (A + k')^α / c_k²`
//!   (so `c_N = c_end` and `R_N = r_end`), a random sign `δ = ±1` per parameter; the
//!   engine θ⁺ plays with `clip(θ + c_k δ)`, θ⁻ with `clip(θ − c_k δ)`, each value rounded
//!   stochastically to an integer (`floor(v + U[0,1))`, as fishtest's worker does), a game
//!   pair from a random opening (θ⁺ Red in the first game, Black in the second).
//! * With `result` = θ⁺'s wins − losses over the pair(s), every parameter moves by
//!   `θ ← clip(θ + R_k · c_k · result · δ)`, and `k` advances by the number of pairs.
//!
//! `--pairs P` plays P pairs per iteration with the same perturbation (fishtest's batches).
//! With `--concurrency K`, K iterations are drawn from the same θ and played at the same
//! time, then applied in order: what fishtest's workers do, asynchronously there and in a
//! fixed order here.
//!
//! # Determinism and checkpoints
//!
//! Everything random in iteration `k` (signs, roundings, openings) is drawn from a
//! xoshiro256++ generator seeded with the run's seed and `k`, so a run is the same for a
//! seed whatever the concurrency and however often it was interrupted (as long as the
//! engine's own play is deterministic, as at fixed nodes with one thread). After every
//! round the state (θ, `k`, the history) is written to the checkpoint file (through a
//! temporary file and a rename); a run started with the same checkpoint and settings
//! continues from there.

pub mod cli;

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The engine option's name.
    pub name: String,
    /// Start value.
    pub start: f64,
    /// Lower bound.
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
    /// The current value.
    pub theta: f64,
}

impl Param {
    /// Reads `NAME,start,min,max,c_end,r_end`.
    pub fn parse(line: &str) -> Result<Param, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(format!(
                "'{line}': want NAME,start,min,max,c_end,r_end (6 fields, got {})",
                fields.len()
            ));
        }
        let num = |i: usize, what: &str| -> Result<f64, String> {
            fields[i]
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("'{line}': {what} '{}' is not a number", fields[i]))
        };
        let p = Param {
            name: fields[0].to_string(),
            start: num(1, "start")?,
            min: num(2, "min")?,
            max: num(3, "max")?,
            c_end: num(4, "c_end")?,
            r_end: num(5, "r_end")?,
            theta: num(1, "start")?,
        };
        if p.name.is_empty() {
            return Err(format!("'{line}': no name"));
        }
        if p.min > p.max || p.start < p.min || p.start > p.max {
            return Err(format!("'{line}': need min <= start <= max"));
        }
        if p.c_end <= 0.0 || p.r_end < 0.0 {
            return Err(format!("'{line}': need c_end > 0 and r_end >= 0"));
        }
        Ok(p)
    }

    /// Reads a parameters file: one [`Param::parse`] line each, `#` comments.
    pub fn parse_file(text: &str) -> Result<Vec<Param>, String> {
        let params: Vec<Param> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(Param::parse)
            .collect::<Result<_, _>>()?;
        if params.is_empty() {
            return Err("no parameters".into());
        }
        Ok(params)
    }

    fn clip(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }
}

/// The gains of a run (fishtest's names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// Iterations (game pairs) of the whole run, `N`.
    pub iterations: u64,
    /// `A` as a fraction of `N`.
    pub a_ratio: f64,
    /// Decay of the learning rate.
    pub alpha: f64,
    /// Decay of the perturbation.
    pub gamma: f64,
}

impl Default for Gains {
    fn default() -> Self {
        Gains {
            iterations: 1000,
            a_ratio: 0.1,
            alpha: 0.602,
            gamma: 0.101,
        }
    }
}

impl Gains {
    /// `A`.
    pub fn big_a(&self) -> f64 {
        (self.a_ratio * self.iterations as f64).floor()
    }

    /// `c_k` and `R_k` of parameter `p` at iteration `k` (from 0).
    pub fn at(&self, p: &Param, k: u64) -> (f64, f64) {
        let n = self.iterations.max(1) as f64;
        let c = p.c_end * n.powf(self.gamma);
        let a = p.r_end * p.c_end * p.c_end * (self.big_a() + n).powf(self.alpha);
        let kk = (k + 1) as f64;
        let c_k = c / kk.powf(self.gamma);
        let r_k = a / (self.big_a() + kk).powf(self.alpha) / (c_k * c_k);
        (c_k, r_k)
    }
}

/// What iteration `k` plays: per parameter its `c_k`, `R_k`, sign, and the two
/// engines' integer values; the openings of its pairs (indices drawn from `openings`).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The iteration.
    pub k: u64,
    /// `c_k` per parameter.
    pub c: Vec<f64>,
    /// `R_k` per parameter.
    pub r: Vec<f64>,
    /// The signs.
    pub flips: Vec<f64>,
    /// θ⁺'s values.
    pub plus: Vec<i64>,
    /// θ⁻'s values.
    pub minus: Vec<i64>,
    /// Opening index of each pair.
    pub openings: Vec<usize>,
}

/// The generator of iteration `k` of a run with `seed`.
fn rng_for(seed: u64, k: u64) -> Xoshiro256PlusPlus {
    // SplitMix-style mixing keeps nearby (seed, k) apart.
    let mut z = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Xoshiro256PlusPlus::seed_from_u64(z ^ (z >> 31))
}

fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The state of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    /// The parameters with their current values.
    pub params: Vec<Param>,
    /// The gains.
    pub gains: Gains,
    /// Pairs per iteration.
    pub pairs: u32,
    /// The seed.
    pub seed: u64,
    /// Iterations done (pairs played).
    pub k: u64,
    /// θ after each applied step: (k, values, result).
    pub history: Vec<(u64, Vec<f64>, i64)>,
}

impl Spsa {
    /// A new run.
    pub fn new(params: Vec<Param>, gains: Gains, pairs: u32, seed: u64) -> Spsa {
        Spsa {
            params,
            gains,
            pairs: pairs.max(1),
            seed,
            k: 0,
            history: Vec::new(),
        }
    }

    /// Whether the run has played its iterations.
    pub fn done(&self) -> bool {
        self.k >= self.gains.iterations
    }

    /// The step at iteration `k` from the current θ; its openings are drawn from
    /// `openings` positions.
    pub fn step(&self, k: u64, openings: usize) -> Step {
        let mut rng = rng_for(self.seed, k);
        let mut s = Step {
            k,
            c: Vec::new(),
            r: Vec::new(),
            flips: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
            openings: Vec::new(),
        };
        for p in &self.params {
            let (c, r) = self.gains.at(p, k);
            let flip = if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 };
            let round = |v: f64, rng: &mut Xoshiro256PlusPlus| (v + uniform(rng)).floor() as i64;
            let plus = round(p.clip(p.theta + c * flip), &mut rng);
            let minus = round(p.clip(p.theta - c * flip), &mut rng);
            s.c.push(c);
            s.r.push(r);
            s.flips.push(flip);
            s.plus
                .push(plus.clamp(p.min.ceil() as i64, p.max.floor() as i64));
            s.minus
                .push(minus.clamp(p.min.ceil() as i64, p.max.floor() as i64));
        }
        for _ in 0..self.pairs {
            s.openings
                .push((rng.next_u64() % openings.max(1) as u64) as usize);
        }
        s
    }

    /// Applies a step's result (θ⁺'s wins − losses) and advances `k` by its pairs.
    pub fn apply(&mut self, step: &Step, result: i64) {
        for (i, p) in self.params.iter_mut().enumerate() {
            let delta = step.r[i] * step.c[i] * result as f64 * step.flips[i];
            p.theta = p.clip(p.theta + delta);
        }
        self.k = step.k + u64::from(self.pairs);
        self.history.push((
            self.k,
            self.params.iter().map(|p| p.theta).collect(),
            result,
        ));
    }

    /// The checkpoint: settings, θ and the history.
    pub fn to_json(&self) -> Value {
        json!({
            "tool": "jiang-lab spsa",
            "seed": self.seed,
            "pairs_per_iteration": self.pairs,
            "gains": {
                "iterations": self.gains.iterations,
                "A_ratio": self.gains.a_ratio,
                "A": self.gains.big_a(),
                "alpha": self.gains.alpha,
                "gamma": self.gains.gamma,
            },
            "k": self.k,
            "params": self.params.iter().map(|p| json!({
                "name": p.name, "start": p.start, "min": p.min, "max": p.max,
                "c_end": p.c_end, "r_end": p.r_end, "theta": p.theta,
            })).collect::<Vec<_>>(),
            "history": self.history.iter().map(|(k, theta, result)| json!({
                "k": k, "theta": theta, "result": result,
            })).collect::<Vec<_>>(),
        })
    }

    /// Resumes from a checkpoint, which must have been written with these parameters
    /// (names, start, bounds, c_end, r_end), gains, pairs and seed.
    pub fn resume(&mut self, checkpoint: &Value) -> Result<(), String> {
        let fresh = Spsa::new(self.params.clone(), self.gains, self.pairs, self.seed).to_json();
        for key in ["seed", "pairs_per_iteration", "gains"] {
            if checkpoint[key] != fresh[key] {
                return Err(format!(
                    "the checkpoint's {key} is {} but this run's is {}: use another checkpoint file",
                    checkpoint[key], fresh[key]
                ));
            }
        }
        let saved = checkpoint["params"]
            .as_array()
            .ok_or("checkpoint without params")?;
        if saved.len() != self.params.len() {
            return Err("the checkpoint tunes other parameters".into());
        }
        let mut thetas = Vec::new();
        for (p, s) in self.params.iter().zip(saved) {
            for key in ["name", "start", "min", "max", "c_end", "r_end"] {
                let want = &fresh["params"][thetas.len()][key];
                if &s[key] != want {
                    return Err(format!(
                        "the checkpoint's {} has {key} {} (this run: {want})",
                        p.name, s[key]
                    ));
                }
            }
            thetas.push(
                s["theta"]
                    .as_f64()
                    .ok_or("checkpoint theta is not a number")?,
            );
        }
        for (p, t) in self.params.iter_mut().zip(thetas) {
            p.theta = p.clip(t);
        }
        self.k = checkpoint["k"].as_u64().ok_or("checkpoint without k")?;
        self.history.clear();
        for h in checkpoint["history"].as_array().into_iter().flatten() {
            let theta = h["theta"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            self.history.push((
                h["k"].as_u64().unwrap_or(0),
                theta,
                h["result"].as_i64().unwrap_or(0),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param() -> Param {
        Param::parse("Skill Level,10,0,20,2,0.05").unwrap()
    }

    #[test]
    fn parameters_are_read_and_checked() {
        let p = param();
        assert_eq!(
            (p.name.as_str(), p.start, p.max, p.c_end),
            ("Skill Level", 10.0, 20.0, 2.0)
        );
        for bad in [
            "a,1,2,3,1",
            "a,5,0,3,1,1",
            "a,1,0,3,0,1",
            "a,x,0,3,1,1",
            ",1,0,3,1,1",
        ] {
            assert!(Param::parse(bad).is_err(), "{bad}");
        }
        let ps = Param::parse_file("# tuned\nA,1,0,2,1,0.1\n\nB,3,0,9,1,0.1\n").unwrap();
        assert_eq!(ps.len(), 2);
        assert!(Param::parse_file("# nothing\n").is_err());
    }

    #[test]
    fn gains_reach_c_end_and_r_end_at_the_last_iteration() {
        let g = Gains {
            iterations: 400,
            ..Gains::default()
        };
        let p = param();
        let (c_last, r_last) = g.at(&p, 399);
        assert!((c_last - p.c_end).abs() < 1e-9, "{c_last}");
        assert!((r_last - p.r_end).abs() < 1e-9, "{r_last}");
        let (c0, r0) = g.at(&p, 0);
        assert!(c0 > c_last && r0 < r_last * 100.0);
        // c_0 = c_end N^γ, R_0 = a/(A+1)^α/c_0².
        assert!((c0 - 2.0 * 400f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn steps_are_reproducible_and_move_theta_the_way_the_result_says() {
        let g = Gains {
            iterations: 100,
            ..Gains::default()
        };
        let mut s = Spsa::new(vec![param()], g, 1, 42);
        let a = s.step(0, 10);
        assert_eq!(a, s.step(0, 10));
        assert_ne!(a, s.step(1, 10));
        assert!((a.plus[0] - a.minus[0]).abs() >= 2, "{a:?}");
        // θ⁺ won both games: θ moves towards θ⁺ by R c · 2.
        let before = s.params[0].theta;
        s.apply(&a, 2);
        let moved = s.params[0].theta - before;
        assert!((moved - a.r[0] * a.c[0] * 2.0 * a.flips[0]).abs() < 1e-12);
        assert_eq!(moved.signum(), a.flips[0]);
        assert_eq!(s.k, 1);
        // The checkpoint round trip.
        let cp = s.to_json();
        let mut t = Spsa::new(vec![param()], g, 1, 42);
        t.resume(&cp).unwrap();
        assert_eq!(t, s);
        let mut other = Spsa::new(vec![param()], g, 1, 43);
        assert!(other.resume(&cp).is_err());
    }

    #[test]
    fn bounds_hold() {
        let g = Gains {
            iterations: 10,
            ..Gains::default()
        };
        let mut s = Spsa::new(vec![Param::parse("X,0,0,3,5,10").unwrap()], g, 1, 1);
        for k in 0..10 {
            let st = s.step(k, 1);
            assert!((0..=3).contains(&st.plus[0]) && (0..=3).contains(&st.minus[0]));
            s.apply(&st, if k % 2 == 0 { 2 } else { -2 });
            assert!((0.0..=3.0).contains(&s.params[0].theta));
        }
    }
}
