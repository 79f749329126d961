//! The judgement of a reviewed game: given a search's verdict on every position of a
//! line (its score and best move), how much of the mover's winning chances each move gave
//! away, its mark, and each side's accuracy. The searching is the caller's (`jiang-lab
//! review` with the engine, the web board with its own engine); the rules of judging are
//! here, once, so that every review marks the same moves the same way.
//!
//! The chances are jiang's WDL model ([`crate::xiangqi::wdl`]): the expected score of the
//! side to move, `(W + D/2) / 1000`, from the search score and the material. A move's
//! loss is the mover's expected score before it (the best move's) less the one after it
//! (the reply's search, from the mover's side); a move that is the engine's best loses
//! nothing. Marks, the thresholds lichess.org uses for chess on the same scale: `?!`
//! (inaccuracy) from [`INACCURACY`], `?` (mistake) from [`MISTAKE`], `??` (blunder) from
//! [`BLUNDER`]. Accuracy of a move, lichess's formula on the loss in percent:
//! `103.1668 · exp(-0.04354 · loss%) - 3.1669`, within 0..100; a side's accuracy is the
//! mean over its moves.

use super::Nag;
use crate::xiangqi::{wdl, Color, Move, Position};

/// The smallest loss marked `?!`.
pub const INACCURACY: f64 = 0.10;
/// The smallest loss marked `?`.
pub const MISTAKE: f64 = 0.20;
/// The smallest loss marked `??`.
pub const BLUNDER: f64 = 0.30;
/// The smallest loss that can be a deciding moment (a marked move; at most
/// [`MAX_DECIDING`] of them).
pub const DECIDING: f64 = INACCURACY;
/// Most deciding moments named.
pub const MAX_DECIDING: usize = 3;

/// The mark for a loss of expected score (0..1).
pub fn mark(loss: f64) -> Option<Nag> {
    if loss >= BLUNDER {
        Some(Nag::Blunder)
    } else if loss >= MISTAKE {
        Some(Nag::Mistake)
    } else if loss >= INACCURACY {
        Some(Nag::Dubious)
    } else {
        None
    }
}

/// The accuracy of a move that lost `loss` (0..1) of the mover's expected score, 0..100.
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss * 100.0).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The expected score (0..1) of the side to move of `pos` for a search score (internal
/// units, the side to move's view).
pub fn expectation(score: i32, pos: &Position) -> f64 {
    let w = wdl::wdl(score, wdl::material(pos));
    (f64::from(w.win) + f64::from(w.draw) / 2.0) / 1000.0
}

/// What a search said about one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Its score, internal units, the side to move's view (a position with no legal move
    /// is lost: `-MATE`).
    pub score: i32,
    /// Its best move, if it gave one.
    pub best: Option<Move>,
}

/// One judged move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// Who played it.
    pub side: Color,
    /// The mover's expected score before the move (with the best move), 0..1.
    pub before: f64,
    /// The mover's expected score after it, 0..1.
    pub after: f64,
    /// `before - after`, at least 0 (0 for the engine's best move).
    pub loss: f64,
    /// Its mark, if any.
    pub nag: Option<Nag>,
    /// Red's expected score after the move (for a graph), 0..1.
    pub red_after: f64,
}

/// Judges the moves of a line: `moves[i]` is played from the position `verdicts[i]`
/// speaks of, starting at `start`. A move is judged when the verdicts on the positions
/// before and after it are both given, so a review stopped early judges the moves it
/// reached. The moves must be legal (the record readers only keep legal ones); the first
/// one that is not ends the judging.
pub fn judge(start: &Position, moves: &[Move], verdicts: &[Verdict]) -> Vec<Judgement> {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for (i, &m) in moves.iter().enumerate() {
        let (Some(now), Some(next)) = (verdicts.get(i), verdicts.get(i + 1)) else {
            break;
        };
        if !pos.is_legal(m) {
            break;
        }
        let side = pos.side_to_move();
        let before = expectation(now.score, &pos);
        pos.make_move(m);
        let after = 1.0 - expectation(next.score, &pos);
        let loss = if now.best == Some(m) {
            0.0
        } else {
            (before - after).max(0.0)
        };
        out.push(Judgement {
            side,
            before,
            after,
            loss,
            nag: mark(loss),
            red_after: if side == Color::Red {
                after
            } else {
                1.0 - after
            },
        });
    }
    out
}

/// Red's expected score before the first judged move (the graph's first point); an even
/// game when none was judged.
pub fn red_start(judged: &[Judgement]) -> f64 {
    judged.first().map_or(0.5, |j| {
        if j.side == Color::Red {
            j.before
        } else {
            1.0 - j.before
        }
    })
}

/// One side's account of a reviewed game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideSummary {
    /// Moves judged.
    pub moves: usize,
    /// Mean accuracy of its moves (100 when it has none), 0..100.
    pub accuracy: f64,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

/// The account of `side`'s moves.
pub fn side_summary(judged: &[Judgement], side: Color) -> SideSummary {
    let mine: Vec<&Judgement> = judged.iter().filter(|j| j.side == side).collect();
    let acc = if mine.is_empty() {
        100.0
    } else {
        mine.iter().map(|j| accuracy(j.loss)).sum::<f64>() / mine.len() as f64
    };
    let count = |n| mine.iter().filter(|j| j.nag == Some(n)).count();
    SideSummary {
        moves: mine.len(),
        accuracy: acc,
        inaccuracies: count(Nag::Dubious),
        mistakes: count(Nag::Mistake),
        blunders: count(Nag::Blunder),
    }
}

/// The moments that decided the game: the indices (in line order) of the moves with the
/// largest losses, each at least [`DECIDING`], at most [`MAX_DECIDING`].
pub fn deciding(judged: &[Judgement]) -> Vec<usize> {
    let mut marked: Vec<usize> = (0..judged.len())
        .filter(|&i| judged[i].loss >= DECIDING)
        .collect();
    marked.sort_by(|&a, &b| judged[b].loss.total_cmp(&judged[a].loss));
    marked.truncate(MAX_DECIDING);
    marked.sort_unstable();
    marked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::MATE;

    fn mv(s: &str) -> Move {
        Move::parse(s).expect("a move")
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(0.10), Some(Nag::Dubious));
        assert_eq!(mark(0.199), Some(Nag::Dubious));
        assert_eq!(mark(0.25), Some(Nag::Mistake));
        assert_eq!(mark(0.30), Some(Nag::Blunder));
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(accuracy(0.1) < accuracy(0.05) && accuracy(1.0) < 5.0);
    }

    #[test]
    fn a_best_move_loses_nothing_and_a_blunder_is_marked() {
        let start = Position::startpos();
        let moves = [mv("h2e2"), mv("h9g7"), mv("b0c2")];
        // Red's best is played (no loss, whatever the scores say); Black's reply turns an
        // even game into a lost one; Red's third move is judged only when the position
        // after it has a verdict: here it has none.
        let verdicts = [
            Verdict {
                score: 20,
                best: Some(mv("h2e2")),
            },
            Verdict {
                score: 0,
                best: Some(mv("b9c7")),
            },
            Verdict {
                score: MATE - 5,
                best: Some(mv("b0c2")),
            },
        ];
        let j = judge(&start, &moves, &verdicts);
        assert_eq!(j.len(), 2);
        assert_eq!(j[0].side, Color::Red);
        assert_eq!(j[0].loss, 0.0);
        assert_eq!(j[0].nag, None);
        assert_eq!(j[1].side, Color::Black);
        assert!(j[1].after < 0.01 && j[1].loss > 0.4, "{:?}", j[1]);
        assert_eq!(j[1].nag, Some(Nag::Blunder));
        assert!(j[1].red_after > 0.99);
        assert_eq!(deciding(&j), vec![1]);
        let black = side_summary(&j, Color::Black);
        assert_eq!((black.moves, black.blunders, black.mistakes), (1, 1, 0));
        assert!(black.accuracy < 20.0);
        let red = side_summary(&j, Color::Red);
        assert!((red.accuracy - 100.0).abs() < 0.01);
        // An illegal move ends the judging.
        assert!(judge(&start, &[mv("a0a5")], &verdicts).is_empty());
    }
}
