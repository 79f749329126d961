//! `jiang-lab tune xiangqi`: fits the evaluation weights to game results (Texel's method).
//!
//! Input: one game per line, `FEN|move move …|result` with the result from Red's view
//! (`1-0`, `0-1`, `1/2-1/2`). From every game the quiet positions after the opening plies
//! are kept (side to move not in check, no capture that wins material by SEE). The error
//! is the mean squared difference between the result and `1 / (1 + 10^(-K·eval/400))`
//! (eval from Red's view); K is fitted first, then each weight is nudged up and down in
//! turn while the error falls. One game in ten is held out: the validation error tells
//! whether the fit generalises. The tuned [`EvalParams`] are printed as Rust source for
//! `DEFAULT_PARAMS`.

use jiang::xiangqi::eval::{evaluate_with, EvalParams, EvalTables, Score, DEFAULT_PARAMS};
use jiang::xiangqi::{Color, GenType, Position};

/// A training position and its game's result from Red's view (1, 0.5 or 0).
struct Sample {
    pos: Position,
    result: f64,
}

/// Reads the games file and keeps the quiet positions, split into training and
/// validation sets (every tenth game validates).
fn load(path: &str, skip_plies: usize) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split('|').collect();
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
            log::warn!("line {}: bad FEN, game skipped", n + 1);
            continue;
        };
        games += 1;
        let target = if games % 10 == 0 {
            &mut valid
        } else {
            &mut train
        };
        for (ply, text) in moves.split_whitespace().enumerate() {
            let Ok(m) = pos.parse_legal_move(text) else {
                log::warn!("line {}: illegal move {text}, rest of game skipped", n + 1);
                break;
            };
            pos.make_move(m);
            if ply + 1 >= skip_plies && is_quiet(&pos) {
                let mut sample = pos.clone();
                sample.shrink_history();
                target.push(Sample {
                    pos: sample,
                    result,
                });
            }
        }
    }
    eprintln!(
        "{games} games: {} training and {} validation positions",
        train.len(),
        valid.len()
    );
    Ok((train, valid))
}

/// Not in check and no capture that wins material: the static evaluation means
/// something here.
fn is_quiet(pos: &Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let mut captures = jiang::movelist::MoveList::new();
    pos.generate(GenType::Captures, &mut captures);
    !captures.iter().any(|&m| pos.see_ge(m, 1))
}

/// Mean squared error of the predictions with weights `tables` and scale `k`, computed
/// on two threads.
fn error(samples: &[Sample], tables: &EvalTables, k: f64) -> f64 {
    let half = samples.len() / 2;
    let part = |s: &[Sample]| -> f64 {
        s.iter()
            .map(|x| {
                let stm = evaluate_with(&x.pos, tables) as f64;
                let red = if x.pos.side_to_move() == Color::Red {
                    stm
                } else {
                    -stm
                };
                let p = 1.0 / (1.0 + 10f64.powf(-k * red / 400.0));
                (x.result - p) * (x.result - p)
            })
            .sum()
    };
    let (a, b) = samples.split_at(half);
    let total = std::thread::scope(|scope| {
        let other = scope.spawn(|| part(b));
        part(a) + other.join().unwrap_or(0.0)
    });
    total / samples.len().max(1) as f64
}

/// The scale K that best maps evaluations to results.
fn fit_k(samples: &[Sample], tables: &EvalTables) -> f64 {
    let (mut lo, mut hi) = (0.05, 4.0);
    // Golden-section search: the error is unimodal in K.
    for _ in 0..40 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if error(samples, tables, m1) < error(samples, tables, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    (lo + hi) / 2.0
}

/// Calls `f` on every tuned weight, in a fixed order. Phase weights, the attack scale
/// curve and the no-attacker scale stay as they are (they shape the evaluation rather
/// than weigh a feature), and so does the tempo bonus: sampling only quiet positions
/// biases it (the side to move is the one without a winning capture).
fn visit(p: &mut EvalParams, f: &mut dyn FnMut(&mut i32)) {
    let score = |s: &mut Score, f: &mut dyn FnMut(&mut i32)| {
        f(&mut s.mg);
        f(&mut s.eg);
    };
    for v in p.piece_value.iter_mut().skip(1) {
        score(v, f);
    }
    // Soldier tables stay hand-set: how a soldier gains value as it nears the palace is
    // known, and games reach its deep squares too rarely to fit them.
    let soldier = jiang::xiangqi::PieceKind::Soldier.index();
    let tables = p
        .pst_mg
        .iter_mut()
        .enumerate()
        .chain(p.pst_eg.iter_mut().enumerate());
    for (_, table) in tables.filter(|(kind, _)| *kind != soldier) {
        for row in table.iter_mut() {
            for v in row.iter_mut() {
                f(v);
            }
        }
    }
    for v in p.feature_scores_mut() {
        score(v, f);
    }
}

fn count(p: &EvalParams) -> usize {
    let mut p = p.clone();
    let mut n = 0;
    visit(&mut p, &mut |_| n += 1);
    n
}

fn set(p: &mut EvalParams, i: usize, value: i32) {
    let mut n = 0;
    visit(p, &mut |x| {
        if n == i {
            *x = value;
        }
        n += 1;
    });
}

/// Weight of the pull towards the hand-set defaults: `REGULARISATION · Σ (w − w₀)²` is
/// added to the error, so a weight only moves far where many positions ask for it (a
/// table entry seen in a handful of positions would otherwise fit their noise).
const REGULARISATION: f64 = 5e-9;

fn penalty(current: &[i32], defaults: &[i32]) -> f64 {
    current
        .iter()
        .zip(defaults)
        .map(|(&c, &d)| ((c - d) as f64).powi(2))
        .sum::<f64>()
        * REGULARISATION
}

fn flat(p: &EvalParams) -> Vec<i32> {
    let mut p = p.clone();
    let mut v = Vec::new();
    visit(&mut p, &mut |x| v.push(*x));
    v
}

/// Runs the tuning and prints the result as Rust source on stdout.
pub fn run(path: &str, passes: usize) -> Result<(), String> {
    let (train, valid) = load(path, 8)?;
    if train.is_empty() || valid.is_empty() {
        return Err("not enough positions to tune".to_string());
    }
    let mut params = DEFAULT_PARAMS.clone();
    let tables = EvalTables::new(&params);
    let k = fit_k(&train, &tables);
    let defaults = flat(&params);
    let mut current = defaults.clone();
    let mut best = error(&train, &tables, k);
    let start_valid = error(&valid, &tables, k);
    eprintln!("K = {k:.3}; error: training {best:.6}, validation {start_valid:.6}");
    let n = count(&params);
    for pass in 1..=passes {
        let mut improved = 0;
        for i in 0..n {
            let old = current[i];
            let step = if i < 12 { 8 } else { 3 };
            for delta in [step, -step] {
                set(&mut params, i, old + delta);
                current[i] = old + delta;
                let e = error(&train, &EvalTables::new(&params), k) + penalty(&current, &defaults);
                if e < best {
                    best = e;
                    improved += 1;
                    break;
                }
                set(&mut params, i, old);
                current[i] = old;
            }
        }
        let v = error(&valid, &EvalTables::new(&params), k);
        eprintln!(
            "pass {pass}: {improved} weights moved; error: training {best:.6}, validation {v:.6}"
        );
        if improved == 0 {
            break;
        }
    }
    println!("{}", rust_source(&params));
    Ok(())
}

fn pair(s: &Score) -> String {
    format!("s({}, {})", s.mg, s.eg)
}

fn pairs(v: &[Score]) -> String {
    v.iter().map(pair).collect::<Vec<_>>().join(", ")
}

/// `DEFAULT_PARAMS` as Rust source, in the layout of `eval.rs`.
fn rust_source(p: &EvalParams) -> String {
    let table = |t: &[[i32; 5]; 10]| {
        let rows: Vec<String> = t.iter().map(|r| format!("            {r:?},")).collect();
        format!("        [\n{}\n        ],", rows.join("\n"))
    };
    let tables = |ts: &[[[i32; 5]; 10]; 7]| ts.iter().map(table).collect::<Vec<_>>().join("\n");
    format!(
        "pub const DEFAULT_PARAMS: EvalParams = EvalParams {{
    piece_value: [{}],
    phase_weight: {:?},
    pst_mg: [
{}
    ],
    pst_eg: [
{}
    ],
    chariot_mobility: [{}],
    cannon_mobility: [{}],
    horse_mobility: [{}],
    king_attack_weight: [{}],
    king_attack_scale: {:?},
    missing_advisor_vs_chariot: {},
    missing_advisor_vs_horse: {},
    missing_elephant_vs_cannon: {},
    king_open_file: {},
    cannon_on_king_file: [{}],
    cannon_on_king_rank: [{}],
    king_off_home: {},
    soldier_crossed: {},
    soldier_linked: {},
    horse_leg_own: {},
    horse_leg_enemy: {},
    tempo: {},
    no_attackers_scale: {},
}};",
        pairs(&p.piece_value),
        p.phase_weight,
        tables(&p.pst_mg),
        tables(&p.pst_eg),
        pairs(&p.chariot_mobility),
        pairs(&p.cannon_mobility),
        pairs(&p.horse_mobility),
        pairs(&p.king_attack_weight),
        p.king_attack_scale,
        pair(&p.missing_advisor_vs_chariot),
        pair(&p.missing_advisor_vs_horse),
        pair(&p.missing_elephant_vs_cannon),
        pair(&p.king_open_file),
        pairs(&p.cannon_on_king_file),
        pairs(&p.cannon_on_king_rank),
        pair(&p.king_off_home),
        pair(&p.soldier_crossed),
        pair(&p.soldier_linked),
        pair(&p.horse_leg_own),
        pair(&p.horse_leg_enemy),
        pair(&p.tempo),
        p.no_attackers_scale,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(p: &EvalParams, i: usize) -> i32 {
        flat(p)[i]
    }

    #[test]
    fn visit_get_set_address_each_weight_once() {
        let mut p = DEFAULT_PARAMS.clone();
        let n = count(&p);
        assert!(n > 700, "{n} weights");
        for i in [0, 1, 13, n / 2, n - 1] {
            let old = get(&p, i);
            set(&mut p, i, old + 1);
            assert_eq!(get(&p, i), old + 1);
            set(&mut p, i, old);
        }
        assert_eq!(p, DEFAULT_PARAMS);
        assert_eq!(flat(&p).len(), n);
    }
}
