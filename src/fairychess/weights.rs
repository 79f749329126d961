//! The evaluation weights, `[middlegame, endgame]` per feature of `eval.rs`.
//!
//! [`HAND_SET`] are the hand-set starting values; [`WEIGHTS`], what the engine plays
//! with, were fitted from them (`jiang-lab tune fairychess fit FILE 2000`, in the `lab/`
//! workspace member) to 33,731 positions from about 800 games against Fairy-Stockfish, each
//! labelled with Fairy-Stockfish's own score of it (`tools/fairychess/fsf_labels.py`). A
//! game result is a poor label here, 95 % of these games are drawn at the 100-ply limit;
//! a depth-14 search's score is not. See docs/MEASUREMENTS.md for what the fit changed in play.
//! The four "Ahead" weights (the hunt of the enemy king when two points or more ahead)
//! were then raised by hand: the fit left them too weak to catch a bare king within the
//! 100 plies (docs/MEASUREMENTS.md, "A measure with resolution").

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

/// The hand-set starting values: where the fit starts and what it is pulled towards.
pub static HAND_SET: Weights = build();

/// The weights the evaluation uses (fitted, see the module comment), as
/// `jiang-lab tune fairychess rust FILE` writes them.
#[rustfmt::skip]
pub static WEIGHTS: Weights = [
    // Material
    [536, 514], [360, 320], [270, 299], [293, 301], [138, 159],
    // Placement
    [-4, -7], [1, -10], [-3, -8], [2, 2], [1, -1],
    [6, 3], [-8, 6], [-4, 4], [8, 3], [4, 3],
    [-9, -4], [2, -1], [-2, -2], [-1, 1], [0, 2],
    [0, 0], [2, 0], [3, 0], [0, 1], [0, 0],
    [6, 1], [6, 4], [5, 2], [4, -1], [-4, 3],
    [-4, -3], [-4, 2], [-1, -2], [-4, -3], [-2, -5],
    [-6, -1], [-12, -4], [0, 0], [-13, -1], [-5, -2],
    [6, -5], [1, 1], [8, 6], [14, 1], [17, 3],
    [-8, -1], [-14, -2], [-14, -2], [-5, -2], [5, -2],
    [1, 2], [5, -1], [4, 2], [11, 3], [9, 5],
    [-13, -7], [-26, -12], [-8, -8], [-8, -4], [1, -4],
    [7, 8], [-2, -5], [9, 2], [18, 17], [31, 18],
    // Tropism
    [6, 8], [-1, 4], [4, -7], [7, 0], [7, 0],
    // Mobility
    [16, 4], [8, 15], [6, 4], [7, 10], [4, 11],
    [-2, 11],
    // King zone attackers
    [-15, -8], [-10, -13], [-16, -14], [-13, -8], [-14, -5],
    [-7, 4],
    // King zone squares hit
    [10, 4],
    // King zone attackers^2
    [1, 2],
    // Safe checks
    [-30, -20], [-22, -10], [-28, -17], [-20, -4], [-21, -18],
    [-30, -20],
    // Unsafe checks
    [-5, 0],
    // King flight squares
    [-5, 4],
    // King no flight
    [-27, -22],
    // King defenders
    [14, 7],
    // Threatened (to move)
    [-56, -59], [-33, -34], [-31, -33], [-32, -34], [-17, -17],
    // Threatened (not to move)
    [-125, -125], [-75, -75], [-75, -75], [-75, -75], [-37, -37],
    // Two threatened (to move)
    [-78, -79],
    // Bishop pair
    [36, 26],
    // Tempo
    [53, 8],
    // Attacks enemy king
    [1000, 1000],
    // Squire pair
    [7, 0],
    // Combatant chain
    [0, 5],
    // Rook pair
    [-2, 1],
    // Ahead: enemy king off centre
    [28, 40],
    // Ahead: enemy king flight
    [-10, -25],
    // Ahead: kings near
    [8, 12],
    // Ahead: enemy zone hit
    [12, 10],
];
