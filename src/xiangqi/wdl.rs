//! Win/draw/loss chances of a Xiangqi search score (UCI's `UCI_ShowWDL`), from a model
//! fitted to jiang's own self-play outcomes.
//!
//! For a score `s` (side to move's view, evaluation units) and the material `m` on the
//! board (both sides' chariots 6, horses 3, cannons 3, soldiers 1; 58 at the start), with
//! `x = m / 58`:
//!
//! ```text
//! W = logistic((s - a(x)) / b(x))    L = logistic((-s - a(x)) / b(x))    D = 1 - W - L
//! ```
//!
//! `a(x)` is the score at which a win is as likely as not, `b(x)` how fast the chance
//! grows with the score; both are cubic polynomials in `x` (the shape of Stockfish's
//! model). With few pieces left a large score is still often a draw (a bigger `a`).
//!
//! The fit (`tools/xiangqi/wdl_fit.py`, maximum likelihood over every position): 98 000
//! positions of 850 self-play games, `jiang datagen 100000 --nodes 5000 --seed 6001
//! --eval nnue` (the first 98 000 lines; Red won 33.4 %, drew 38.1 %, lost 28.5 % of
//! the positions' games). Log-loss of the results: 0.614 with the model, 1.092 with the
//! constant frequencies. Scores come from 5000-node searches, which are shallower than
//! a GUI's; the figures are a guide, not a measured truth about deeper searches.

use super::{Color, PieceKind, Position};
use crate::game::Wdl;
use crate::tt::MATE_BOUND;

/// The material of the start position, which scales `x`.
const START_MATERIAL: f64 = 58.0;
/// `a(x)`, highest power first.
const A: [f64; 4] = [-857.881, 2142.173, -1975.361, 822.430];
/// `b(x)`, highest power first.
const B: [f64; 4] = [-1737.407, 2618.050, -795.956, 207.344];
/// Scores beyond this are read as this (the fit clipped them the same way).
const SCORE_CLIP: i32 = 4000;

/// The material measure of the model: both sides' chariots 6, horses 3, cannons 3,
/// soldiers 1.
pub fn material(pos: &Position) -> u32 {
    let count =
        |kind| pos.pieces_ck(Color::Red, kind).count() + pos.pieces_ck(Color::Black, kind).count();
    6 * count(PieceKind::Chariot)
        + 3 * count(PieceKind::Horse)
        + 3 * count(PieceKind::Cannon)
        + count(PieceKind::Soldier)
}

fn poly(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The chances, per mille, of a search score (internal units, side to move's view) with
/// `material` on the board. A mate score is certain.
pub fn wdl(score: i32, material: u32) -> Wdl {
    if score >= MATE_BOUND {
        return Wdl::WIN;
    }
    if score <= -MATE_BOUND {
        return Wdl::LOSS;
    }
    let x = (f64::from(material) / START_MATERIAL).clamp(0.0, 1.0);
    // Both stay well above 0 over the whole range; the floor only guards the division.
    let a = poly(&A, x).max(1.0);
    let b = poly(&B, x).max(1.0);
    let s = f64::from(score.clamp(-SCORE_CLIP, SCORE_CLIP));
    let win = (logistic((s - a) / b) * 1000.0).round() as u16;
    // a > 0 keeps W + L below 1 (and their rounded sum at most 1000); the draw takes
    // what is left.
    let loss = ((logistic((-s - a) / b) * 1000.0).round() as u16).min(1000 - win.min(1000));
    let win = win.min(1000);
    Wdl {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_the_win_rises_with_the_score() {
        for material in 0..=70 {
            let mut last_win = 0;
            let mut last_loss = 1000;
            for score in (-5000..=5000).step_by(10) {
                let w = wdl(score, material);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{score} {material}");
                assert!(
                    w.win >= last_win && w.loss <= last_loss,
                    "{score} {material}"
                );
                last_win = w.win;
                last_loss = w.loss;
            }
        }
    }

    #[test]
    fn symmetric_and_matches_the_fit() {
        for (score, material) in [(0, 58), (150, 40), (700, 12)] {
            let (us, them) = (wdl(score, material), wdl(-score, material));
            assert_eq!((us.win, us.draw, us.loss), (them.loss, them.draw, them.win));
        }
        // Values the fitting script prints for the same coefficients.
        let w = wdl(300, 58);
        assert_eq!((w.win, w.draw, w.loss), (640, 174, 186));
        let w = wdl(100, 20);
        assert_eq!((w.win, w.draw, w.loss), (181, 754, 65));
        assert_eq!(wdl(MATE_BOUND + 3, 10), Wdl::WIN);
        assert_eq!(wdl(-MATE_BOUND - 3, 10), Wdl::LOSS);
    }

    #[test]
    fn material_of_the_start_position() {
        assert_eq!(material(&Position::startpos()), 58);
    }
}
