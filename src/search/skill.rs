//! Playing strength below the full search (UCI `Skill Level`, `UCI_LimitStrength` with
//! `UCI_Elo`): a shallower search of a few best lines, then a choice among them by a
//! softmax on their scores whose temperature grows as the level drops, as Stockfish's
//! skill levels do. A weak jiang misses what lies deep and prefers the plausible; from
//! level [`SAFE_FROM_LEVEL`] on it never picks a line far worse than the best (a piece
//! hung for nothing).
//!
//! The Elo each level announces ([`LEVEL_ELO`]) is measured, on jiang's own ladder: the
//! levels play matches against reference opponents (full-strength jiang searching a fixed
//! number of plies; the one-ply reference is 1000 by convention), see
//! `tools/xiangqi/ladder.py`, docs/strength.md's table. `UCI_Elo` plays the level whose Elo is nearest.
//!
//! UCCI's `knowledge` and `pruning` (none/small/medium/large) are mapped onto the same
//! levels ([`level_for_effort`]); its `randomness` ([`randomness_temperature`]) varies
//! the choice among the best lines at any level, still never giving material away.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Full strength: no limit, the best move.
pub const MAX_LEVEL: u8 = 20;
/// Lines searched below full strength.
pub const LINES: usize = 4;
/// From this level on, only lines within [`SAFE_MARGIN`] of the best are candidates.
pub const SAFE_FROM_LEVEL: u8 = 10;
/// Evaluation units (a soldier is about 100, a horse 400): a line this much below the
/// best gives something away.
pub const SAFE_MARGIN: i32 = 150;
/// The Elo of levels 0 to 19 on jiang's ladder (see the module's doc; full strength,
/// level 20, depends on the time given and has no fixed Elo). Levels 0, 4, 8, 12, 16 and
/// 19 are measured (900 calibration games with the ladder's references, docs/strength.md "Playing
/// levels"); the levels between them are interpolated.
pub const LEVEL_ELO: [i64; MAX_LEVEL as usize] = [
    760, 790, 830, 860, 890, 980, 1070, 1160, 1250, 1360, 1470, 1580, 1690, 1860, 2030, 2200, 2360,
    2420, 2470, 2520,
];
/// The Elo range of `UCI_Elo`.
pub const MIN_ELO: i64 = LEVEL_ELO[0];
/// See [`MIN_ELO`].
pub const MAX_ELO: i64 = LEVEL_ELO[MAX_LEVEL as usize - 1];

/// The level `UCI_Elo` plays: the one whose Elo is nearest (the lower on a tie).
pub fn level_for_elo(elo: i64) -> u8 {
    let mut best = 0;
    for (level, &e) in LEVEL_ELO.iter().enumerate() {
        if (e - elo).abs() < (LEVEL_ELO[best] - elo).abs() {
            best = level;
        }
    }
    best as u8
}

/// UCCI's effort names (`knowledge`, `pruning`), weakest first.
pub const EFFORTS: &[&str] = &["none", "small", "medium", "large"];

/// The level a UCCI effort (an index into [`EFFORTS`]) stands for: `large` is full
/// strength; `medium`, `small` and `none` are levels 14, 8 and 3 (about 2030, 1250 and
/// 860 on the ladder).
pub fn level_for_effort(effort: usize) -> u8 {
    [3, 8, 14, MAX_LEVEL][effort.min(EFFORTS.len() - 1)]
}

/// How much UCCI's `randomness` (an index into [`EFFORTS`]) spreads the choice among the
/// best lines: a softmax temperature in evaluation units (`none`: always the best).
pub fn randomness_temperature(randomness: usize) -> f64 {
    [0.0, 10.0, 25.0, 50.0][randomness.min(EFFORTS.len() - 1)]
}

/// The deepest iteration searched at `level` (`None` at full strength).
pub fn depth_cap(level: u8) -> Option<i32> {
    (level < MAX_LEVEL).then_some(1 + i32::from(level) / 2)
}

/// The softmax temperature at `level`, evaluation units (a soldier is about 100): 250 at
/// level 0, falling by about a fifth (x0.82) a level, so that the lowest levels are not all alike (a
/// choice among four lines that is nearly uniform plays the same at any depth).
fn temperature(level: u8) -> f64 {
    if level >= MAX_LEVEL {
        0.0
    } else {
        250.0 * 0.82f64.powi(i32::from(level))
    }
}

/// Picks one of `lines` (move, score; best first) for `level` with `randomness` (an
/// index into [`EFFORTS`]) on top, drawing with `seed`.
pub fn pick<M: Copy>(lines: &[(M, i32)], level: u8, randomness: usize, seed: u64) -> Option<M> {
    let best = lines.first()?.1;
    let candidates: Vec<(M, i32)> = lines
        .iter()
        .copied()
        .filter(|&(_, s)| level < SAFE_FROM_LEVEL || s >= best - SAFE_MARGIN)
        .collect();
    let t = temperature(level)
        .max(randomness_temperature(randomness))
        .max(1.0);
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, s)| (f64::from(s - best).max(-3000.0) / t).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (&(m, _), w) in candidates.iter().zip(&weights) {
        if draw < *w {
            return Some(m);
        }
        draw -= w;
    }
    candidates.last().map(|&(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_scale_and_depth() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]), "{LEVEL_ELO:?}");
        for (level, &elo) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(level_for_elo(elo), level as u8);
            assert_eq!(level_for_elo(elo + 1), level as u8);
        }
        assert_eq!(level_for_elo(0), 0);
        assert_eq!(level_for_elo(99_999), MAX_LEVEL - 1);
        assert_eq!(depth_cap(MAX_LEVEL), None);
        assert_eq!(depth_cap(0), Some(1));
        let efforts: Vec<u8> = (0..EFFORTS.len()).map(level_for_effort).collect();
        assert!(efforts.windows(2).all(|w| w[0] < w[1]), "{efforts:?}");
        assert_eq!(level_for_effort(EFFORTS.len() - 1), MAX_LEVEL);
    }

    #[test]
    fn higher_levels_never_give_material_away_and_lower_ones_vary() {
        let lines = [(1, 50), (2, 30), (3, -400), (4, -900)];
        for seed in 0..500 {
            for level in SAFE_FROM_LEVEL..MAX_LEVEL {
                let m = pick(&lines, level, 0, seed);
                assert!(matches!(m, Some(1) | Some(2)), "{level} {seed} {m:?}");
            }
        }
        let low: std::collections::HashSet<_> = (0..500)
            .filter_map(|seed| pick(&lines, 0, 0, seed))
            .collect();
        assert!(low.len() >= 3, "{low:?}");
        let top = (0..500)
            .filter(|&s| pick(&lines, 19, 0, s) == Some(1))
            .count();
        let bottom = (0..500)
            .filter(|&s| pick(&lines, 10, 0, s) == Some(1))
            .count();
        assert!(top > bottom, "{top} {bottom}");
        assert_eq!(pick::<u8>(&[], 5, 0, 1), None);
    }

    #[test]
    fn randomness_varies_full_strength_among_safe_lines_only() {
        let lines = [(1, 50), (2, 30), (3, 20), (4, -900)];
        let always: std::collections::HashSet<_> = (0..300)
            .filter_map(|seed| pick(&lines, MAX_LEVEL, 0, seed))
            .collect();
        assert_eq!(always, [1].into());
        let mut seen = [0usize; 5];
        for seed in 0..300 {
            let m = pick(&lines, MAX_LEVEL, EFFORTS.len() - 1, seed).unwrap();
            seen[m] += 1;
        }
        assert_eq!(seen[4], 0, "{seen:?}");
        assert!(seen[1] > seen[3] && seen[3] > 0, "{seen:?}");
    }
}
