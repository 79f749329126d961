//! The evaluation weights, `[middlegame, endgame]` per feature of `eval.rs`.
//!
//! These are hand-set starting values; `tune.rs` fits them to game results.

use super::eval::*;

const fn build() -> [[i32; 2]; N_FEATURES] {
    let mut w = [[0i32; 2]; N_FEATURES];
    let material = [500, 300, 300, 300, 150];
    let mut i = 0;
    while i < 5 {
        w[MATERIAL + i] = [material[i], material[i]];
        w[TROPISM + i] = [4, 2];
        i += 1;
    }
    let mobility = [0, 3, 4, 4, 4, 3];
    let mut i = 0;
    while i < 6 {
        w[MOBILITY + i] = [mobility[i], mobility[i]];
        w[ZONE_ATTACKERS + i] = [-15, -8];
        w[SAFE_CHECKS + i] = [-30, -20];
        i += 1;
    }
    w[ZONE_SQUARES] = [-5, -3];
    w[ZONE_ATTACKERS_SQ] = [-8, -4];
    w[UNSAFE_CHECKS] = [-5, -3];
    w[KING_FLIGHT] = [5, 5];
    w[KING_NO_FLIGHT] = [-30, -20];
    w[KING_DEFENDERS] = [5, 0];
    let mut i = 0;
    while i < 5 {
        w[THREATENED_STM + i] = [-material[i] / 8, -material[i] / 8];
        w[THREATENED_OPP + i] = [-material[i] / 4, -material[i] / 4];
        i += 1;
    }
    w[TWO_THREATENED] = [-80, -80];
    w[BISHOP_PAIR] = [20, 20];
    w[TEMPO] = [15, 10];
    w[KING_EN_PRISE] = [1000, 1000];
    w[MOPUP_EDGE] = [10, 20];
    w[MOPUP_FLIGHT] = [-10, -15];
    w[MOPUP_KINGS] = [0, 5];
    w[MOPUP_ZONE] = [5, 8];
    w
}

/// A set of weights: `[middlegame, endgame]` per feature.
pub type Weights = [[i32; 2]; N_FEATURES];

/// The weights.
pub static WEIGHTS: Weights = build();
