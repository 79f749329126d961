//! Playing strength below the full search (UCI `Skill Level`, `UCI_LimitStrength` with
//! `UCI_Elo`): a shallower search of a few best lines, then a choice among them by a
//! softmax on their scores whose temperature grows as the level drops, as Stockfish's
//! skill levels do. A weak jiang misses what lies deep and prefers the plausible; from
//! level [`SAFE_FROM_LEVEL`] on it never picks a line far worse than the best (a piece
//! hung for nothing).
//!
//! The Elo scale ([`level_for_elo`]) is provisional: a straight line from 800 (level 0)
//! to 2600 (level 20), not yet calibrated by matches.

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
/// The Elo range of `UCI_Elo`.
pub const MIN_ELO: i64 = 800;
/// See [`MIN_ELO`].
pub const MAX_ELO: i64 = 2600;

/// The level `UCI_Elo` stands for (provisional, see the module's doc).
pub fn level_for_elo(elo: i64) -> u8 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    ((elo - MIN_ELO) * i64::from(MAX_LEVEL) / (MAX_ELO - MIN_ELO)) as u8
}

/// The deepest iteration searched at `level` (`None` at full strength).
pub fn depth_cap(level: u8) -> Option<i32> {
    (level < MAX_LEVEL).then_some(1 + i32::from(level) / 2)
}

/// The softmax temperature at `level`, evaluation units.
fn temperature(level: u8) -> f64 {
    f64::from(MAX_LEVEL.saturating_sub(level)) * 20.0
}

/// Picks one of `lines` (move, score; best first) for `level`, drawing with `seed`.
pub fn pick<M: Copy>(lines: &[(M, i32)], level: u8, seed: u64) -> Option<M> {
    let best = lines.first()?.1;
    let candidates: Vec<(M, i32)> = lines
        .iter()
        .copied()
        .filter(|&(_, s)| level < SAFE_FROM_LEVEL || s >= best - SAFE_MARGIN)
        .collect();
    let t = temperature(level).max(1.0);
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
        assert_eq!(level_for_elo(0), 0);
        assert_eq!(level_for_elo(1700), 10);
        assert_eq!(level_for_elo(9999), MAX_LEVEL);
        assert_eq!(depth_cap(MAX_LEVEL), None);
        assert_eq!(depth_cap(0), Some(1));
    }

    #[test]
    fn higher_levels_never_give_material_away_and_lower_ones_vary() {
        let lines = [(1, 50), (2, 30), (3, -400), (4, -900)];
        for seed in 0..500 {
            for level in SAFE_FROM_LEVEL..MAX_LEVEL {
                let m = pick(&lines, level, seed);
                assert!(matches!(m, Some(1) | Some(2)), "{level} {seed} {m:?}");
            }
        }
        let low: std::collections::HashSet<_> =
            (0..500).filter_map(|seed| pick(&lines, 0, seed)).collect();
        assert!(low.len() >= 3, "{low:?}");
        let top = (0..500).filter(|&s| pick(&lines, 19, s) == Some(1)).count();
        let bottom = (0..500).filter(|&s| pick(&lines, 10, s) == Some(1)).count();
        assert!(top > bottom, "{top} {bottom}");
        assert_eq!(pick::<u8>(&[], 5, 1), None);
    }
}
