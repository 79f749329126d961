//! Static evaluation, in centipawns of a pincer (100), from the side to move's view.
//!
//! Terms, each computed for both colours and subtracted:
//! * **material**: the piece values ([`Params::value`]), measured from self-play (see the
//!   docs/games.md, "Baroque chess", and the lab's `tune.rs`);
//! * **freezing**: a frozen piece is worth less (a penalty per frozen piece by kind, a
//!   frozen king included), and a freezer is better near the centre, where it reaches
//!   more victims;
//! * **mobility**: empty squares each unfrozen piece can slide to, by kind;
//! * **king safety**: enemy pieces (unfrozen) near the king, by kind; empty squares next
//!   to the king (landing squares for leaps and room for pincers and withdrawers); and
//!   pincer set-ups: an enemy piece beside the king with the square on the other side
//!   empty, so that a pincer arriving there captures;
//! * **hunt** (endings only): when one side leads in material and the other has little
//!   left, the leader's pieces are drawn towards the enemy king. Without it a won ending
//!   has no gradient (no piece can capture a lone king from afar) and self-play games
//!   wandered to the 5000-ply limit with a leaper and a pincer against a bare king.
//!
//! Nothing here allocates; [`trace`] explains the terms for the `eval` command.

use super::bitboard::{
    bit, neighbours, opposite, queen_attacks, rook_attacks, spread, squares, step, Bitboard,
};
use super::captures::can_capture;
use super::movegen::generate;
use super::position::Position;
use super::see::is_evasion;
use super::types::{Color, PieceKind, Square};
use crate::game::GenType;
use crate::movelist::MoveList;

/// Value of a king for exchanges and capture ordering (a king capture ends the game).
pub const KING_VALUE: i32 = 20_000;

/// The evaluation's weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Material value by kind (the king's is only for display: both sides have one).
    pub value: [i32; 7],
    /// Penalty for a frozen piece, by kind.
    pub frozen: [i32; 7],
    /// Mobility bonus per empty destination, by kind.
    pub mobility: [i32; 7],
    /// Bonus for a freezer per step closer to the centre (0..3).
    pub freezer_centre: i32,
    /// Penalty per unfrozen enemy piece within two squares of the king, by kind.
    pub king_near: [i32; 7],
    /// Penalty per empty square adjacent to the king.
    pub king_open: i32,
    /// Penalty per pincer set-up against the king.
    pub king_pincer_setup: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Hunt, by kind: bonus per step each unfrozen piece of the side ahead in material
    /// stands closer to the enemy king than 7 (Chebyshev distance).
    pub hunt: [i32; 7],
    /// Hunt only when the enemy's material (kings aside) is at most this.
    pub hunt_material: i32,
}

/// The weights jiang plays with.
pub const DEFAULT_PARAMS: Params = Params {
    value: [100, 300, 450, 450, 400, 0, 450],
    frozen: [30, 120, 180, 180, 150, 150, 150],
    mobility: [2, 2, 3, 3, 3, 0, 3],
    freezer_centre: 10,
    king_near: [10, 25, 25, 25, 40, 20, 0],
    king_open: 6,
    king_pincer_setup: 25,
    tempo: 10,
    // The king half as much: it is a partner for pincers, and the enemy king takes it
    // when it comes adjacent on the wrong move.
    hunt: [20, 20, 20, 20, 20, 10, 20],
    hunt_material: 1000,
};

/// Number of reported terms.
pub const NUM_TERMS: usize = 6;

/// Names of the terms, as [`trace`] prints them.
pub const TERM_NAMES: [&str; NUM_TERMS] = [
    "material",
    "freezing",
    "mobility",
    "king safety",
    "tempo",
    "hunt",
];

/// Exchange value of a kind (the king's is [`KING_VALUE`]).
#[inline(always)]
pub fn piece_value(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        KING_VALUE
    } else {
        DEFAULT_PARAMS.value[kind.index()]
    }
}

/// Chebyshev distance of a square from the centre (0 on d4–e5, 3 on the edge).
#[inline(always)]
fn centre_distance(sq: Square) -> i32 {
    let f = if sq.file() < 4 {
        3 - sq.file()
    } else {
        sq.file() - 4
    };
    let r = if sq.rank() < 4 {
        3 - sq.rank()
    } else {
        sq.rank() - 4
    };
    f.max(r)
}

/// Squares within two steps of each square.
static ZONE: [Bitboard; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        let one = spread(1u64 << i) | 1u64 << i;
        t[i] = spread(one) | one;
        i += 1;
    }
    t
};

/// Squares within two steps of `sq`.
#[inline(always)]
fn zone(sq: Square) -> Bitboard {
    ZONE[sq.index()]
}

/// Terms of one colour, positive = good for `c`.
fn side_terms(pos: &Position, c: Color, p: &Params) -> [i32; NUM_TERMS] {
    let b = pos.board();
    let them = c.flip();
    let occ = b.occ;
    let empty = !occ;
    let frozen = b.frozen(c);
    let mut t = [0; NUM_TERMS];
    for kind in PieceKind::ALL {
        let set = b.of(c, kind);
        if set == 0 {
            continue;
        }
        let k = kind.index();
        t[0] += p.value[k] * set.count_ones() as i32;
        t[1] -= p.frozen[k] * (set & frozen).count_ones() as i32;
        if p.mobility[k] != 0 {
            for sq in squares(set & !frozen) {
                let reach = if kind == PieceKind::Pincer {
                    rook_attacks(sq, occ)
                } else {
                    queen_attacks(sq, occ)
                };
                t[2] += p.mobility[k] * (reach & empty).count_ones() as i32;
            }
        }
    }
    for sq in squares(b.of(c, PieceKind::Freezer)) {
        t[1] += p.freezer_centre * (3 - centre_distance(sq));
    }
    if let Some(k) = b.king(c) {
        let enemy_movable = b.color(them) & !b.frozen(them);
        let near = zone(k) & enemy_movable;
        let mut danger = 0;
        for kind in PieceKind::ALL {
            danger += p.king_near[kind.index()] * (near & b.of(them, kind)).count_ones() as i32;
        }
        danger += p.king_open * (neighbours(k) & empty).count_ones() as i32;
        for d in 0..4 {
            if let (Some(a), Some(gap)) = (step(d, k), step(opposite(d), k)) {
                if b.color(them) & bit(a) != 0 && empty & bit(gap) != 0 {
                    danger += p.king_pincer_setup;
                }
            }
        }
        t[3] -= danger;
    }
    if pos.side_to_move() == c {
        t[4] += p.tempo;
    }
    t
}

/// Chebyshev distance between two squares.
#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    (a.file() - b.file()).abs().max((a.rank() - b.rank()).abs())
}

/// The hunt term of `c` (see the module notes).
fn hunt(pos: &Position, c: Color, p: &Params) -> i32 {
    let b = pos.board();
    let Some(target) = b.king(c.flip()) else {
        return 0;
    };
    let movable = b.color(c) & !b.frozen(c);
    PieceKind::ALL
        .iter()
        .map(|&kind| {
            let w = p.hunt[kind.index()];
            squares(b.of(c, kind) & movable)
                .map(|sq| w * (7 - distance(sq, target)))
                .sum::<i32>()
        })
        .sum()
}

/// Both colours' terms (White's, Black's), the hunt included where it applies.
fn all_terms(pos: &Position, p: &Params) -> ([i32; NUM_TERMS], [i32; NUM_TERMS]) {
    let mut w = side_terms(pos, Color::White, p);
    let mut bl = side_terms(pos, Color::Black, p);
    // Material is term 0: the hunt is for the side ahead when the other has little.
    if w[0] > bl[0] && bl[0] <= p.hunt_material {
        w[5] = hunt(pos, Color::White, p);
    } else if bl[0] > w[0] && w[0] <= p.hunt_material {
        bl[5] = hunt(pos, Color::Black, p);
    }
    (w, bl)
}

/// Added to the evaluation when the side to move can capture the enemy king: the game is
/// won, though the search has not played the capture yet. Below the search's mate scores,
/// far above any material: pruning that trusts the static evaluation (reverse futility,
/// stand-pat) then sees a win instead of hiding it behind a material score.
pub const KING_EN_PRISE: i32 = 15_000;

/// Evaluation with explicit weights, from the side to move's view.
pub fn evaluate_with(pos: &Position, p: &Params) -> i32 {
    let (w, bl) = all_terms(pos, p);
    let score: i32 = w.iter().zip(bl.iter()).map(|(a, b)| a - b).sum();
    let score = match pos.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    };
    if enemy_king_en_prise(pos) {
        score + KING_EN_PRISE
    } else if every_move_loses_the_king(pos) {
        score - KING_EN_PRISE
    } else {
        score
    }
}

/// Most moves for which [`every_move_loses_the_king`] looks at every move.
const FEW_MOVES: u64 = 8;

/// Whether the side to move, not in check, has a few moves and every one of them lets
/// the opponent take its king (zugzwang by freezing and blocking: a king whose every
/// step walks into capture, the other pieces frozen). Pruning that trusts the static
/// evaluation (reverse futility, null move, stand-pat) assumes the side to move can at
/// least keep its position; here it cannot, and the evaluation says so.
fn every_move_loses_the_king(pos: &Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let b = pos.board();
    let us = pos.side_to_move();
    let movable = b.color(us) & !b.frozen(us);
    // A cheap upper bound on the slides: stop at once when there are many.
    let mut slides = 0u64;
    for sq in squares(movable) {
        let reach = match pos.piece_at(sq).map(|p| p.kind()) {
            Some(PieceKind::Pincer) => rook_attacks(sq, b.occ) & !b.occ,
            Some(PieceKind::King) => neighbours(sq) & !b.color(us),
            _ => queen_attacks(sq, b.occ) & !b.occ,
        };
        slides += reach.count_ones() as u64;
        if slides > FEW_MOVES {
            return false;
        }
    }
    let mut moves = MoveList::new();
    generate(pos, GenType::All, &mut moves);
    !moves.is_empty()
        && moves.len() as u64 <= FEW_MOVES + 8
        && moves.iter().all(|&m| !is_evasion(pos, m))
}

/// Whether the side to move could capture the enemy king now.
#[inline]
pub fn enemy_king_en_prise(pos: &Position) -> bool {
    let us = pos.side_to_move();
    match pos.king(us.flip()) {
        Some(k) => can_capture(pos.board(), k, PieceKind::King, us),
        None => false,
    }
}

/// Evaluation from the side to move's view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, pos.eval_params())
}

/// The evaluation explained term by term (the `eval` command).
pub fn trace(pos: &Position) -> String {
    let (w, bl) = all_terms(pos, pos.eval_params());
    let mut s = String::from("term            white   black   total (White's view)\n");
    for i in 0..NUM_TERMS {
        s.push_str(&format!(
            "{:<14} {:>6}  {:>6}  {:>6}\n",
            TERM_NAMES[i],
            w[i],
            bl[i],
            w[i] - bl[i]
        ));
    }
    let total: i32 = w.iter().zip(bl.iter()).map(|(a, b)| a - b).sum();
    if enemy_king_en_prise(pos) {
        s.push_str(&format!(
            "the side to move can capture the king: +{KING_EN_PRISE}\n"
        ));
    }
    s.push_str(&format!(
        "total (White's view) {total}; side to move ({}) {}",
        pos.side_to_move().name().to_lowercase(),
        evaluate(pos)
    ));
    s
}
