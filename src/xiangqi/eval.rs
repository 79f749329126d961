//! Hand-crafted static evaluation, tapered between middlegame and endgame.
//!
//! # Scale
//!
//! Scores are in internal units where a horse is worth about 400 in the middlegame, a
//! cannon about 450, a chariot about 950, an advisor or elephant about 200, and a soldier
//! 30 before the river (much more once it has crossed: material + crossing bonus +
//! piece-square value brings a soldier in front of the enemy palace to 150-200). Divide by
//! 4 for the usual "100 = one soldier-ish" display if needed. Evaluations are clamped to
//! ±[`MAX_EVAL`], far below mate scores.
//!
//! # Convention
//!
//! [`evaluate`] returns the score from the point of view of the side to move (negamax).
//! Every term is computed per colour with "good for that colour" positive, then Black's
//! total is subtracted from Red's. A colour-flipped position (colours swapped, ranks
//! mirrored, other side to move) evaluates identically, and so does the left-right mirror,
//! because every table is written for Red on files `a`..`e` and mirrored.
//!
//! # Terms
//!
//! * **Material**: per-kind middlegame/endgame values.
//! * **Piece-square**: a table per kind, written for Red, mirrored for Black and for
//!   files `f`..`i`.
//! * **Mobility**: pseudo-legal destinations of chariots, cannons and horses (a horse's
//!   destinations guarded by enemy soldiers, advisors or elephants do not count).
//! * **King safety**: enemy chariots, horses, cannons and soldiers hitting the palace
//!   (weighted, scaled up with their number), missing advisors against enemy chariots and
//!   horses, missing elephants against enemy cannons, a king file without own cover
//!   against enemy chariots, enemy cannons aiming along the king's file or rank (empty-head
//!   cannon, central cannon, bottom cannon), and a king that has left its home point while
//!   attacked.
//! * **Soldiers**: a bonus for crossing the river and for crossed soldiers linked side by
//!   side.
//! * **Horse legs**: a penalty per blocked leg, larger when our own piece blocks it.
//! * **Tempo**: a bonus for the side to move.
//!
//! All weights live in [`EvalParams`] (with their values, [`DEFAULT_PARAMS`], in
//! [`super::weights`]); [`EvalTables::new`] expands them (at compile time for the default
//! [`TABLES`]) into the per-square tables the evaluation reads. The board geometry it
//! needs beyond move generation (horse legs with targets, points ahead on a file, bits
//! between two points of a line) is with the attack tables in [`super::attacks`].
//! [`evaluate`] does no allocation and no table building.
//!
//! # Speed
//!
//! [`evaluate`] runs at nearly every node of the search, so it has a lean code path of its
//! own that sums everything into one total, avoids data-dependent branches and 128-bit
//! shifts where it can, and skips terms whose inputs are empty. [`breakdown_with`] keeps
//! every term per colour for [`trace`] and is the straightforward reference: tests check
//! that both give the same value, to the unit, on tens of thousands of positions.

use super::attacks::{
    cannon_captures, chariot_attacks, elephant_attacks, ADVISOR_STEPS, AHEAD, BETWEEN,
    BETWEEN_BITS, HORSE_LEGS, HORSE_LEG_SQUARES, HORSE_MOVES,
};
use super::bitboard::{squares, Bitboard, BOARD_MASK, FILES, HALF, PALACE};
use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use std::fmt::Write as _;

/// The weights are defined in [`super::weights`]; the evaluation's users find them here.
pub use super::weights::{EvalParams, HalfTable, Score, DEFAULT_PARAMS};

/// Largest magnitude [`evaluate`] returns; mate scores live far above it.
pub const MAX_EVAL: i32 = 19_999;

// ----- Tables ----------------------------------------------------------------------------

/// The parameters expanded for fast lookup. Build with [`EvalTables::new`] (a `const fn`:
/// the default [`TABLES`] are built at compile time).
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// The weights the tables were built from.
    pub params: EvalParams,
    /// Piece-square values `[color][kind][square]` (Black's mirrored from Red's).
    pub psq: [[[Score; 90]; 7]; 2],
    /// Material plus piece-square value `[piece][square]` from Red's view (Black's entries
    /// negated), indexed by [`Piece::index`]: [`evaluate`] adds one entry per piece. Rows
    /// are padded to 128 entries so that a square index taken from either 64-bit half of a
    /// bitboard needs no bounds check.
    pub material_psq: [[Score; 128]; 14],
    /// Phase of the start position: full middlegame.
    pub phase_max: i32,
}

impl EvalTables {
    /// Expands `params` into per-square tables.
    pub const fn new(params: &EvalParams) -> EvalTables {
        let mut psq = [[[Score::ZERO; 90]; 7]; 2];
        let mut material_psq = [[Score::ZERO; 128]; 14];
        let mut k = 0;
        while k < 7 {
            let value = params.piece_value[k];
            let mut sq = 0;
            while sq < 90 {
                let (file, rank) = (sq % 9, sq / 9);
                let col = if file <= 4 { file } else { 8 - file };
                let row = 9 - rank;
                let v = Score::new(params.pst_mg[k][row][col], params.pst_eg[k][row][col]);
                psq[0][k][sq] = v;
                // Black's square with the same meaning is the rank mirror.
                let black_sq = (9 - rank) * 9 + file;
                psq[1][k][black_sq] = v;
                material_psq[k][sq] = Score::new(value.mg + v.mg, value.eg + v.eg);
                material_psq[7 + k][black_sq] = Score::new(-value.mg - v.mg, -value.eg - v.eg);
                sq += 1;
            }
            k += 1;
        }
        let mut phase_max = 0;
        let mut k = 0;
        while k < 7 {
            phase_max += 2 * params.phase_weight[k] * PieceKind::ALL[k].max_count() as i32;
            k += 1;
        }
        if phase_max <= 0 {
            phase_max = 1;
        }
        EvalTables {
            params: params.const_copy(),
            psq,
            material_psq,
            phase_max,
        }
    }
}

/// The tables of [`DEFAULT_PARAMS`], used by [`evaluate`].
pub static TABLES: EvalTables = EvalTables::new(&DEFAULT_PARAMS);

// ----- Terms -----------------------------------------------------------------------------

/// The evaluation terms, in trace order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Term {
    /// Piece values.
    Material = 0,
    /// Piece-square tables.
    PieceSquare,
    /// Chariot, cannon and horse mobility.
    Mobility,
    /// Danger to the own king (always ≤ 0).
    KingSafety,
    /// Crossed and linked soldiers.
    Soldiers,
    /// Blocked horse legs.
    HorseLegs,
    /// Side-to-move bonus.
    Tempo,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 7;
    /// All terms in order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::PieceSquare,
        Term::Mobility,
        Term::KingSafety,
        Term::Soldiers,
        Term::HorseLegs,
        Term::Tempo,
    ];

    /// The name shown by [`trace`].
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::PieceSquare => "Piece-square",
            Term::Mobility => "Mobility",
            Term::KingSafety => "King safety",
            Term::Soldiers => "Soldiers",
            Term::HorseLegs => "Horse legs",
            Term::Tempo => "Tempo",
        }
    }
}

/// Every term for both colours (`[color][term]`, good-for-that-colour positive), the
/// phase and the final scores: what [`evaluate`] computes and [`trace`] prints.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// Per colour, per term.
    pub terms: [[Score; Term::COUNT]; 2],
    /// Game phase, 0 (endgame) ..= `phase_max` (middlegame).
    pub phase: i32,
    /// Phase of the full board.
    pub phase_max: i32,
    /// Tapered score from Red's view before scaling.
    pub tapered: i32,
    /// Scale applied to `tapered`, in 64ths.
    pub scale: i32,
    /// Final score from Red's view (scaled, clamped).
    pub red_view: i32,
    /// Final score from the side to move's view: what [`evaluate`] returns.
    pub stm_view: i32,
}

impl Breakdown {
    /// Sum of a colour's terms.
    pub fn total(&self, c: Color) -> Score {
        self.terms[c.index()]
            .iter()
            .fold(Score::ZERO, |a, &b| a + b)
    }
}

/// Pieces that can cross the river and so give mate.
const ATTACKING_KINDS: [PieceKind; 4] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// Squares strictly in front of `sq` (towards the enemy) on its file, for `color`.
#[inline(always)]
fn ahead_on_file(color: Color, sq: Square) -> Bitboard {
    let file = FILES[sq.file() as usize].0;
    let i = sq.index();
    Bitboard(match color {
        Color::Red => file & (!0u128 << (i + 1)),
        Color::Black => file & ((1u128 << i) - 1),
    })
}

/// The point a king starts on.
#[inline(always)]
fn king_home(color: Color) -> Square {
    match color {
        Color::Red => Square::from_index_unchecked(4),
        Color::Black => Square::from_index_unchecked(85),
    }
}

/// Every point attacked by `color`'s soldiers `soldiers`: one step forward, and sideways
/// for those across the river. Shifts on the whole set instead of a loop.
#[inline(always)]
fn soldier_attacks_all(color: Color, soldiers: Bitboard) -> Bitboard {
    let crossed = (soldiers & HALF[color.flip().index()]).0;
    let forward = match color {
        Color::Red => (soldiers.0 << 9) & BOARD_MASK,
        Color::Black => soldiers.0 >> 9,
    };
    // A step off file a (or i) would wrap to the neighbouring rank's other edge.
    let left = (crossed >> 1) & !FILES[8].0;
    let right = (crossed << 1) & !FILES[0].0 & BOARD_MASK;
    Bitboard(forward | left | right)
}

/// Points from which a crossed soldier of each colour stands in or steps into the enemy
/// palace: the palace itself, the three points in front of it, and files c and g beside it.
const NEAR_PALACE: [Bitboard; 2] = [
    PALACE[1].or(squares(&[
        (3, 6),
        (4, 6),
        (5, 6),
        (2, 7),
        (2, 8),
        (2, 9),
        (6, 7),
        (6, 8),
        (6, 9),
    ])),
    PALACE[0].or(squares(&[
        (3, 3),
        (4, 3),
        (5, 3),
        (2, 0),
        (2, 1),
        (2, 2),
        (6, 0),
        (6, 1),
        (6, 2),
    ])),
];

/// Our pieces' pressure on the enemy palace, gathered while scanning them.
#[derive(Default)]
struct Attack {
    count: i32,
    weight: Score,
}

/// Evaluates `us`'s pieces beyond material and piece-square values: fills the mobility,
/// soldier and horse-leg terms of `terms` and returns the danger `us` poses to the enemy
/// king, to be charged to the enemy. `counts` holds both sides' piece counts by kind.
#[inline(always)]
fn eval_side(
    pos: &Position,
    t: &EvalTables,
    us: Color,
    counts: &[[i32; 7]; 2],
    terms: &mut [Score; Term::COUNT],
) -> Score {
    let p = &t.params;
    let them = us.flip();
    let occ = pos.occupied();
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(them);
    let zone = PALACE[them.index()];
    let eksq = pos.king_square(them);

    let mut mobility = Score::ZERO;
    let mut attack = Attack::default();
    let mut danger = Score::ZERO;

    // Points where a horse would be exchanged for a cheap piece.
    let mut guarded = soldier_attacks_all(them, pos.pieces_ck(them, PieceKind::Soldier));
    for sq in pos.pieces_ck(them, PieceKind::Advisor) {
        guarded |= ADVISOR_STEPS[sq.index()];
    }
    for sq in pos.pieces_ck(them, PieceKind::Elephant) {
        guarded |= elephant_attacks(sq, occ);
    }

    // Chariots.
    let chariot_weight = p.king_attack_weight[PieceKind::Chariot.index()];
    for sq in pos.pieces_ck(us, PieceKind::Chariot) {
        let a = chariot_attacks(sq, occ, pos.file_occupancy(sq.file()));
        mobility += p.chariot_mobility[(a.andnot(own).count() as usize).min(17)];
        if (a & zone).any() {
            attack.count += 1;
            attack.weight += chariot_weight;
        }
    }

    // Cannons, including their aim along the enemy king's file and rank.
    let cannon_weight = p.king_attack_weight[PieceKind::Cannon.index()];
    for sq in pos.pieces_ck(us, PieceKind::Cannon) {
        let fo = pos.file_occupancy(sq.file());
        let slides = chariot_attacks(sq, occ, fo).andnot(occ);
        let captures = cannon_captures(sq, occ, fo);
        mobility +=
            p.cannon_mobility[((slides.count() + (captures & enemy).count()) as usize).min(17)];
        let mut hits = (captures & zone).any();
        let between = (BETWEEN[sq.index()][eksq.index()] & occ).count() as usize;
        if between <= 2 {
            if sq.file() == eksq.file() {
                danger += p.cannon_on_king_file[between];
                hits = true;
            } else if sq.rank() == eksq.rank() {
                danger += p.cannon_on_king_rank[between];
                hits = true;
            }
        }
        if hits {
            attack.count += 1;
            attack.weight += cannon_weight;
        }
    }

    // Horses: safe mobility, blocked legs, palace attacks.
    let horse_weight = p.king_attack_weight[PieceKind::Horse.index()];
    let (mut own_legs, mut enemy_legs) = (0, 0);
    for sq in pos.pieces_ck(us, PieceKind::Horse) {
        // One pass over the legs gives both the targets and the blocked legs. Unused
        // slots have block 90, never occupied, and no targets.
        let mut a = Bitboard::EMPTY;
        for leg in &HORSE_MOVES[sq.index()] {
            let b = leg.block as u32;
            if (occ.0 >> b) & 1 == 0 {
                a |= leg.targets;
            } else if leg.targets.any() {
                if (own.0 >> b) & 1 != 0 {
                    own_legs += 1;
                } else {
                    enemy_legs += 1;
                }
            }
        }
        mobility += p.horse_mobility[(a.andnot(own).andnot(guarded).count() as usize).min(8)];
        if (a & zone).any() {
            attack.count += 1;
            attack.weight += horse_weight;
        }
    }
    let legs = -(p.horse_leg_own * own_legs + p.horse_leg_enemy * enemy_legs);

    // Soldiers: crossing, linking, palace attacks.
    let soldiers = pos.pieces_ck(us, PieceKind::Soldier);
    let crossed = soldiers & HALF[them.index()];
    let linked = Bitboard(crossed.0 & (crossed.0 >> 1)).andnot(FILES[8]);
    let soldier_weight = p.king_attack_weight[PieceKind::Soldier.index()];
    let mut n_crossed = 0;
    for sq in crossed {
        n_crossed += 1;
        if NEAR_PALACE[us.index()].has(sq) {
            attack.count += 1;
            attack.weight += soldier_weight;
        }
    }
    let soldier_score = p.soldier_crossed * n_crossed + p.soldier_linked * linked.count() as i32;

    terms[Term::Mobility as usize] = mobility;
    terms[Term::Soldiers as usize] = soldier_score;
    terms[Term::HorseLegs as usize] = legs;

    // Danger to the enemy king.
    let scale = p.king_attack_scale[attack.count.min(7) as usize];
    danger += Score::new(
        attack.weight.mg * scale / 100,
        attack.weight.eg * scale / 100,
    );
    let chariots = counts[us.index()][PieceKind::Chariot.index()];
    let horses = counts[us.index()][PieceKind::Horse.index()];
    let cannons = counts[us.index()][PieceKind::Cannon.index()];
    let missing_advisors = 2 - counts[them.index()][PieceKind::Advisor.index()];
    let missing_elephants = 2 - counts[them.index()][PieceKind::Elephant.index()];
    danger += p.missing_advisor_vs_chariot * (missing_advisors * chariots);
    danger += p.missing_advisor_vs_horse * (missing_advisors * horses);
    danger += p.missing_elephant_vs_cannon * (missing_elephants * cannons);
    if (ahead_on_file(them, eksq) & enemy).is_empty() {
        danger += p.king_open_file * chariots;
    }
    if eksq != king_home(them) {
        danger += p.king_off_home * attack.count;
    }
    danger
}

/// Computes every term, the phase and the final scores with the given tables.
pub fn breakdown_with(pos: &Position, t: &EvalTables) -> Breakdown {
    let p = &t.params;
    let mut terms = [[Score::ZERO; Term::COUNT]; 2];

    // Material and piece-square values, counting the pieces on the way.
    let mut counts = [[0i32; 7]; 2];
    for c in Color::ALL {
        let psq = &t.psq[c.index()];
        let mut material = Score::ZERO;
        let mut pst = Score::ZERO;
        for kind in PieceKind::ALL {
            let k = kind.index();
            let mut n = 0;
            for sq in pos.pieces_ck(c, kind) {
                pst += psq[k][sq.index()];
                n += 1;
            }
            counts[c.index()][k] = n;
            material += p.piece_value[k] * n;
        }
        terms[c.index()][Term::Material as usize] = material;
        terms[c.index()][Term::PieceSquare as usize] = pst;
    }

    let danger_to_black = eval_side(pos, t, Color::Red, &counts, &mut terms[0]);
    let danger_to_red = eval_side(pos, t, Color::Black, &counts, &mut terms[1]);
    terms[0][Term::KingSafety as usize] = -danger_to_red;
    terms[1][Term::KingSafety as usize] = -danger_to_black;
    let stm = pos.side_to_move();
    terms[stm.index()][Term::Tempo as usize] = p.tempo;

    let phase = p
        .phase_weight
        .iter()
        .zip(counts[0].iter().zip(&counts[1]))
        .map(|(w, (r, b))| w * (r + b))
        .sum::<i32>()
        .clamp(0, t.phase_max);

    let sum = |c: usize| terms[c].iter().fold(Score::ZERO, |a, &b| a + b);
    let total = sum(0) - sum(1);
    let tapered = total.taper(phase, t.phase_max);
    let (scale, red_view) = scale_for_winnability(pos, p, tapered);
    let stm_view = match stm {
        Color::Red => red_view,
        Color::Black => -red_view,
    };
    Breakdown {
        terms,
        phase,
        phase_max: t.phase_max,
        tapered,
        scale,
        red_view,
        stm_view,
    }
}

/// The final scale (64 = 1) and the scaled, clamped score from Red's view: a side without
/// pieces able to cross the river cannot win, so its lead counts for less. Shared by
/// `breakdown_with` and the fast path.
#[inline(always)]
fn scale_for_winnability(pos: &Position, p: &EvalParams, tapered: i32) -> (i32, i32) {
    let leader = if tapered > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let can_attack = ATTACKING_KINDS
        .iter()
        .any(|&k| pos.pieces_ck(leader, k).any());
    let scale = if tapered != 0 && !can_attack {
        p.no_attackers_scale
    } else {
        64
    };
    (scale, (tapered * scale / 64).clamp(-MAX_EVAL, MAX_EVAL))
}

// ----- Fast path -------------------------------------------------------------------------
//
// `breakdown_with` keeps every term per colour for `trace` and is the reference; the search
// only needs the final number, so `fast_evaluate` computes the same sum on a leaner path.
// What makes it faster, measured one change at a time (callgrind instruction counts and a
// timing loop over 10,000 playout positions):
//
// * One running total instead of a `[colour][term]` table. Integer sums are exact in any
//   order, so regrouping them changes nothing; the non-additive steps (attack scaling,
//   tapering, the no-attacker scale) see exactly the quantities `breakdown_with` gives them.
// * Material and piece-square values from one combined table (`material_psq`); chariots,
//   cannons and horses pick theirs up in the loops that visit them anyway.
// * Bitboards scanned as two 64-bit halves (`for_each_index`), which is about half the
//   instructions of a `u128` scan.
// * No data-dependent branches where the outcome is a coin flip: palace hits are counted
//   with `as i32`, the guarded-point sets are built set-wise with shifts, horse legs are
//   masked rather than tested. A mispredicted branch costs more than the work it skips.
// * Counts as population counts of masks (crossed soldiers, soldiers near the palace,
//   blocked legs, pieces per kind) instead of loops.
// * The cannon's line to the enemy king counted on the 10-bit file / 9-bit rank word, and
//   only when they are aligned, instead of a load from the 130 KB `BETWEEN` table.
// * Terms skipped when their input is empty (no horses: no guarded-point set).

/// Calls `f` with the index of every square of `bb`, scanning the low and high 64-bit
/// halves separately: a 64-bit trailing-zero count and lowest-bit clear are one or two
/// instructions each, their 128-bit versions (what iterating a [`Bitboard`] does) need a
/// carry chain and a conditional move. Callers mark `f` `#[inline(always)]`: it appears
/// twice, and a call per square would cost more than the scan saves.
#[inline(always)]
fn for_each_index(bb: Bitboard, mut f: impl FnMut(usize)) {
    let mut lo = bb.0 as u64;
    while lo != 0 {
        f(lo.trailing_zeros() as usize);
        lo &= lo - 1;
    }
    let mut hi = (bb.0 >> 64) as u64;
    while hi != 0 {
        f(64 + hi.trailing_zeros() as usize);
        hi &= hi - 1;
    }
}

/// A side's advisors and elephants, and every point they step over or to, stay on its own
/// half of the board: 45 points, five whole ranks. `to_half` moves `color`'s half to the
/// low bits of a `u64` (Black's shifted down five ranks, so the files keep their bit
/// pattern) and [`from_half`] moves it back: one-word shifts and masks are about half the
/// work of `u128` ones.
#[inline(always)]
fn to_half(color: Color, bb: u128) -> u64 {
    (bb >> (45 * color.index())) as u64
}

/// The inverse of [`to_half`] for the half's 45 points (the other bits are dropped).
#[inline(always)]
fn from_half(color: Color, half: u64) -> Bitboard {
    const HALF_BITS: u64 = (1 << 45) - 1;
    Bitboard(((half & HALF_BITS) as u128) << (45 * color.index()))
}

/// Every point `color`'s advisors step to: the union of [`ADVISOR_STEPS`] in one go.
/// Advisors stand in their palace (FEN parsing enforces it), on files d-f, so a diagonal
/// step (±8 or ±10 bits) never wraps around a board edge; the palace mask drops the steps
/// that leave it.
#[inline(always)]
fn advisor_steps_all(color: Color, advisors: Bitboard) -> Bitboard {
    let a = to_half(color, advisors.0);
    let palace = to_half(color, PALACE[color.index()].0);
    from_half(
        color,
        ((a << 8) | (a << 10) | (a >> 8) | (a >> 10)) & palace,
    )
}

/// Every point `color`'s elephants attack: the union of [`elephant_attacks`] in one go.
/// Per diagonal, the eyes are the elephants shifted one step (dropping those that wrapped
/// around a board edge onto the other edge file), and the free eyes shifted one more step
/// are the targets; leaving the half (crossing the river) drops them too.
#[inline(always)]
fn elephant_attacks_all(color: Color, elephants: Bitboard, occ: Bitboard) -> Bitboard {
    const NOT_A: u64 = !(FILES[0].0 as u64);
    const NOT_I: u64 = !(FILES[8].0 as u64);
    let e = to_half(color, elephants.0);
    let empty = !to_half(color, occ.0);
    // +10 = one file right and one rank up: a step off file i lands on file a.
    let up_right = (((e << 10) & NOT_A & empty) << 10) & NOT_A;
    // +8 = one file left and one rank up: a step off file a lands on file i.
    let up_left = (((e << 8) & NOT_I & empty) << 8) & NOT_I;
    let down_right = (((e >> 8) & NOT_A & empty) >> 8) & NOT_A;
    let down_left = (((e >> 10) & NOT_I & empty) >> 10) & NOT_I;
    from_half(color, up_right | up_left | down_right | down_left)
}

/// Targets of a horse on square index `sq` (those whose leg is empty), as
/// [`horse_attacks`](super::attacks::horse_attacks) computes them but without a branch
/// per leg: whether a leg is free is unpredictable, and a mispredicted branch costs more
/// than masking all four target pairs. The legs are read off the mailbox, a byte each.
#[inline(always)]
fn horse_targets(pos: &Position, sq: usize) -> Bitboard {
    let mut free = 0u32;
    for (k, &leg) in HORSE_LEG_SQUARES[sq].iter().enumerate() {
        let empty = pos
            .piece_at(Square::from_index_unchecked(leg as usize))
            .is_none();
        free |= (empty as u32) << k;
    }
    // Opaque to the optimiser: otherwise it turns the masks below back into branches
    // (measured: 20 ns more per evaluation).
    let free = std::hint::black_box(free);
    let mut targets = 0u128;
    for (k, leg) in HORSE_MOVES[sq].iter().enumerate() {
        targets |= leg.targets.0 & (((free >> k) & 1) as u128).wrapping_neg();
    }
    Bitboard(targets)
}

/// Material plus piece-square value of `us`'s `kind` on square index `i`, from `us`'s
/// view ([`EvalTables::material_psq`] holds Black's negated).
#[inline(always)]
fn material_of(t: &EvalTables, us: Color, kind: PieceKind, i: usize) -> Score {
    let v = t.material_psq[Piece::new(us, kind).index()][i];
    match us {
        Color::Red => v,
        Color::Black => -v,
    }
}

/// What `us`'s chariots, cannons, horses and soldiers are worth, from `us`'s view:
/// material and piece-square values of the chariots, cannons and horses, the mobility,
/// soldier and horse-leg terms, and the danger `us` poses to the enemy king (which
/// [`breakdown_with`] books as the enemy's king safety: the same in a Red-minus-Black
/// total). Mirrors [`eval_side`] term by term.
#[inline(always)]
fn fast_side(pos: &Position, t: &EvalTables, us: Color) -> Score {
    let p = &t.params;
    let them = us.flip();
    let occ = pos.occupied();
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(them);
    let zone = PALACE[them.index()];
    let eksq = pos.king_square(them);

    let mut score = Score::ZERO;
    // Palace attackers by kind; their weights are summed once at the end.
    let (mut chariot_hits, mut cannon_hits, mut horse_hits) = (0i32, 0i32, 0i32);

    let chariots = pos.pieces_ck(us, PieceKind::Chariot);
    for_each_index(
        chariots,
        #[inline(always)]
        |i| {
            let sq = Square::from_index_unchecked(i);
            let a = chariot_attacks(sq, occ, pos.file_occupancy(sq.file()));
            score += material_of(t, us, PieceKind::Chariot, i);
            score += p.chariot_mobility[(a.andnot(own).count() as usize).min(17)];
            chariot_hits += (a & zone).any() as i32;
        },
    );

    let cannons = pos.pieces_ck(us, PieceKind::Cannon);
    let (kfile, krank) = (eksq.file() as usize, eksq.rank() as usize);
    for_each_index(
        cannons,
        #[inline(always)]
        |i| {
            let sq = Square::from_index_unchecked(i);
            let (file, rank) = (sq.file() as usize, sq.rank() as usize);
            let file_occ = pos.file_occupancy(file as u8);
            let slides = chariot_attacks(sq, occ, file_occ).andnot(occ);
            let captures = cannon_captures(sq, occ, file_occ);
            score += material_of(t, us, PieceKind::Cannon, i);
            let moves = slides.count() + (captures & enemy).count();
            score += p.cannon_mobility[(moves as usize).min(17)];
            let mut hits = (captures & zone).any();
            // Aim along the king's file or rank: the pieces between, counted on that line.
            if file == kfile {
                let between = (file_occ & BETWEEN_BITS[rank][krank]).count_ones() as usize;
                if between <= 2 {
                    score += p.cannon_on_king_file[between];
                    hits = true;
                }
            } else if rank == krank {
                let rank_occ = (occ.0 >> (9 * rank)) as u16 & 0x1ff;
                let between = (rank_occ & BETWEEN_BITS[file][kfile]).count_ones() as usize;
                if between <= 2 {
                    score += p.cannon_on_king_rank[between];
                    hits = true;
                }
            }
            cannon_hits += hits as i32;
        },
    );

    let horses = pos.pieces_ck(us, PieceKind::Horse);
    if horses.any() {
        // Points where a horse would be exchanged for a cheap piece.
        let guarded = soldier_attacks_all(them, pos.pieces_ck(them, PieceKind::Soldier))
            | advisor_steps_all(them, pos.pieces_ck(them, PieceKind::Advisor))
            | elephant_attacks_all(them, pos.pieces_ck(them, PieceKind::Elephant), occ);
        let (mut own_legs, mut enemy_legs) = (0, 0);
        for_each_index(
            horses,
            #[inline(always)]
            |i| {
                let a = horse_targets(pos, i);
                score += material_of(t, us, PieceKind::Horse, i);
                let safe = a.andnot(own).andnot(guarded).count() as usize;
                score += p.horse_mobility[safe.min(8)];
                horse_hits += (a & zone).any() as i32;
                own_legs += (HORSE_LEGS[i] & own).count() as i32;
                enemy_legs += (HORSE_LEGS[i] & enemy).count() as i32;
            },
        );
        score -= p.horse_leg_own * own_legs + p.horse_leg_enemy * enemy_legs;
    }

    let crossed = pos.pieces_ck(us, PieceKind::Soldier) & HALF[them.index()];
    let linked = Bitboard(crossed.0 & (crossed.0 >> 1)).andnot(FILES[8]);
    let soldier_hits = (crossed & NEAR_PALACE[us.index()]).count() as i32;
    score += p.soldier_crossed * crossed.count() as i32 + p.soldier_linked * linked.count() as i32;

    // Danger to the enemy king.
    let w = &p.king_attack_weight;
    let weight = w[PieceKind::Chariot.index()] * chariot_hits
        + w[PieceKind::Cannon.index()] * cannon_hits
        + w[PieceKind::Horse.index()] * horse_hits
        + w[PieceKind::Soldier.index()] * soldier_hits;
    let attackers = chariot_hits + cannon_hits + horse_hits + soldier_hits;
    let scale = p.king_attack_scale[attackers.min(7) as usize];
    score += Score::new(weight.mg * scale / 100, weight.eg * scale / 100);
    let n_chariots = chariots.count() as i32;
    let missing_advisors = 2 - pos.pieces_ck(them, PieceKind::Advisor).count() as i32;
    let missing_elephants = 2 - pos.pieces_ck(them, PieceKind::Elephant).count() as i32;
    score += p.missing_advisor_vs_chariot * (missing_advisors * n_chariots);
    score += p.missing_advisor_vs_horse * (missing_advisors * horses.count() as i32);
    score += p.missing_elephant_vs_cannon * (missing_elephants * cannons.count() as i32);
    let open_file = (AHEAD[them.index()][eksq.index()] & enemy).is_empty();
    score += p.king_open_file * (n_chariots * open_file as i32);
    let off_home = eksq != king_home(them);
    score += p.king_off_home * (attackers * off_home as i32);
    score
}

/// The lean evaluation behind [`evaluate_with`]: the same value as
/// `breakdown_with(pos, t).stm_view`, computed separately (see the comment at the top of
/// this section).
#[inline(always)]
fn fast_evaluate(pos: &Position, t: &EvalTables) -> i32 {
    let p = &t.params;

    // Material and piece-square values of kings, advisors, elephants and soldiers;
    // `fast_side` adds the other kinds'.
    let mut total = t.material_psq[Piece::RedKing.index()][pos.king_square(Color::Red).index()]
        + t.material_psq[Piece::BlackKing.index()][pos.king_square(Color::Black).index()];
    for piece in [
        Piece::RedAdvisor,
        Piece::RedElephant,
        Piece::RedSoldier,
        Piece::BlackAdvisor,
        Piece::BlackElephant,
        Piece::BlackSoldier,
    ] {
        let row = &t.material_psq[piece.index()];
        for_each_index(
            pos.pieces(piece),
            #[inline(always)]
            |i| total += row[i],
        );
    }

    total += fast_side(pos, t, Color::Red) - fast_side(pos, t, Color::Black);
    let stm = pos.side_to_move();
    total += match stm {
        Color::Red => p.tempo,
        Color::Black => -p.tempo,
    };

    let phase = PieceKind::ALL
        .iter()
        .map(|&k| p.phase_weight[k.index()] * pos.pieces_kind(k).count() as i32)
        .sum::<i32>()
        .clamp(0, t.phase_max);
    let tapered = total.taper(phase, t.phase_max);
    let (_, red_view) = scale_for_winnability(pos, p, tapered);
    match stm {
        Color::Red => red_view,
        Color::Black => -red_view,
    }
}

/// Static evaluation with the given tables, from the side to move's point of view.
///
/// Equal to `breakdown_with(pos, t).stm_view`, but computed on a separate lean path that
/// skips the per-term bookkeeping (see [the module documentation](self#speed)); tests
/// check that the two agree.
#[inline]
pub fn evaluate_with(pos: &Position, t: &EvalTables) -> i32 {
    fast_evaluate(pos, t)
}

/// Static evaluation with the default weights, from the side to move's point of view, in
/// the units described in the [module documentation](self).
///
/// Deliberately not `#[inline]`: compiled in this crate, where [`TABLES`] is a known
/// constant, every weight becomes an immediate operand.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &TABLES)
}

/// Game phase of `pos`: 0 (bare endgame) ..= [`EvalTables::phase_max`] of [`TABLES`]
/// (the same value [`evaluate`] tapers with).
pub fn phase(pos: &Position) -> i32 {
    PieceKind::ALL
        .iter()
        .map(|&k| TABLES.params.phase_weight[k.index()] * pos.pieces_kind(k).count() as i32)
        .sum::<i32>()
        .clamp(0, TABLES.phase_max)
}

/// A readable breakdown of [`evaluate`] for a terminal `eval` command: one row per term
/// with Red's and Black's middlegame/endgame values and the difference, then the phase and
/// the final tapered score from Red's and the side to move's view.
pub fn trace(pos: &Position) -> String {
    let b = breakdown_with(pos, &TABLES);
    let mut out = String::new();
    let rule = "-".repeat(14 + 3 * 19);
    let _ = writeln!(
        out,
        "{:<14}|{:>9} {:>7} |{:>9} {:>7} |{:>9} {:>7}",
        "Term", "Red mg", "eg", "Black mg", "eg", "Total mg", "eg"
    );
    let _ = writeln!(out, "{rule}");
    let row = |out: &mut String, name: &str, r: Score, k: Score| {
        let d = r - k;
        let _ = writeln!(
            out,
            "{:<14}|{:>9} {:>7} |{:>9} {:>7} |{:>9} {:>7}",
            name, r.mg, r.eg, k.mg, k.eg, d.mg, d.eg
        );
    };
    for term in Term::ALL {
        let i = term as usize;
        row(&mut out, term.name(), b.terms[0][i], b.terms[1][i]);
    }
    let _ = writeln!(out, "{rule}");
    row(&mut out, "Sum", b.total(Color::Red), b.total(Color::Black));
    let _ = writeln!(
        out,
        "Phase: {}/{} (middlegame weight {}%)",
        b.phase,
        b.phase_max,
        b.phase * 100 / b.phase_max
    );
    let _ = writeln!(out, "Tapered score (Red's view): {:+}", b.tapered);
    if b.scale != 64 {
        let _ = writeln!(
            out,
            "Scaled by {}/64: the leading side has no piece that can cross the river",
            b.scale
        );
    }
    let stm = match pos.side_to_move() {
        Color::Red => "Red",
        Color::Black => "Black",
    };
    let _ = writeln!(out, "Final score (Red's view): {:+}", b.red_view);
    let _ = writeln!(out, "Final score (side to move, {stm}): {:+}", b.stm_view);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::attacks::{horse_attacks, SOLDIER_STEPS};
    use crate::xiangqi::bitboard::{ADVISOR_SQUARES, ELEPHANT_SQUARES, RANKS};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn tables_are_mirrored() {
        for k in 0..7 {
            for sq in 0..90u8 {
                let sq = Square::new(sq).unwrap();
                assert_eq!(
                    TABLES.psq[0][k][sq.index()],
                    TABLES.psq[1][k][sq.flip_rank().index()]
                );
                let mirror = Square::from_coords(8 - sq.file() as i32, sq.rank() as i32).unwrap();
                assert_eq!(
                    TABLES.psq[0][k][sq.index()],
                    TABLES.psq[0][k][mirror.index()]
                );
            }
        }
        assert_eq!(TABLES.phase_max, 32);
    }

    #[test]
    fn soldier_shortcuts_match_tables() {
        for c in Color::ALL {
            for i in 0..90u8 {
                let sq = Square::new(i).unwrap();
                let one = Bitboard::from_square(sq);
                assert_eq!(
                    soldier_attacks_all(c, one),
                    SOLDIER_STEPS[c.index()][sq.index()],
                    "{c:?} {sq}"
                );
                let crossed = HALF[c.flip().index()].has(sq);
                let near = (SOLDIER_STEPS[c.index()][sq.index()] & PALACE[c.flip().index()]).any()
                    || PALACE[c.flip().index()].has(sq);
                assert_eq!(
                    NEAR_PALACE[c.index()].has(sq),
                    crossed && near,
                    "{c:?} {sq}"
                );
            }
        }
        // Several soldiers at once, including both edges.
        let set = Bitboard::from_square(Square::parse("a6").unwrap())
            .with(Square::parse("i6").unwrap())
            .with(Square::parse("e3").unwrap());
        let expect = set.fold(Bitboard::EMPTY, |a, s| a | SOLDIER_STEPS[0][s.index()]);
        assert_eq!(soldier_attacks_all(Color::Red, set), expect);
    }

    #[test]
    fn ahead_masks() {
        let e0 = Square::parse("e0").unwrap();
        let e9 = Square::parse("e9").unwrap();
        assert_eq!(ahead_on_file(Color::Red, e0).count(), 9);
        assert_eq!(ahead_on_file(Color::Black, e9).count(), 9);
        assert!(ahead_on_file(Color::Red, e9).is_empty());
        assert!(ahead_on_file(Color::Black, e0).is_empty());
        assert_eq!(ahead_on_file(Color::Red, e0) & RANKS[0], Bitboard::EMPTY);
    }

    /// Every subset of `set`, as bitboards.
    fn subsets(set: Bitboard) -> Vec<Bitboard> {
        let squares: Vec<Square> = set.collect();
        (0..1u32 << squares.len())
            .map(|m| {
                let mut bb = Bitboard::EMPTY;
                for (k, &sq) in squares.iter().enumerate() {
                    if m >> k & 1 != 0 {
                        bb = bb.with(sq);
                    }
                }
                bb
            })
            .collect()
    }

    #[test]
    fn set_wise_guards_match_tables() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for c in Color::ALL {
            for advisors in subsets(ADVISOR_SQUARES[c.index()]) {
                let expect = advisors.fold(Bitboard::EMPTY, |a, s| a | ADVISOR_STEPS[s.index()]);
                assert_eq!(advisor_steps_all(c, advisors), expect, "{c:?} {advisors:?}");
            }
            for elephants in subsets(ELEPHANT_SQUARES[c.index()]) {
                for _ in 0..50 {
                    let noise = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
                    let occ = Bitboard(noise & BOARD_MASK) | elephants;
                    let expect =
                        elephants.fold(Bitboard::EMPTY, |a, s| a | elephant_attacks(s, occ));
                    assert_eq!(
                        elephant_attacks_all(c, elephants, occ),
                        expect,
                        "{c:?} {elephants:?} {occ:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn line_helpers_match_tables() {
        for a in 0..90u8 {
            let a = Square::new(a).unwrap();
            for c in Color::ALL {
                assert_eq!(AHEAD[c.index()][a.index()], ahead_on_file(c, a));
            }
            for b in 0..90u8 {
                let b = Square::new(b).unwrap();
                let (fa, ra, fb, rb) = (a.file(), a.rank(), b.file(), b.rank());
                let bits = if fa == fb {
                    BETWEEN_BITS[ra as usize][rb as usize] as u128
                } else if ra == rb {
                    BETWEEN_BITS[fa as usize][fb as usize] as u128
                } else {
                    continue;
                };
                // Spread the line word back onto the board.
                let spread = (0..10)
                    .filter(|i| bits >> i & 1 != 0)
                    .fold(0u128, |acc, i| {
                        acc | if fa == fb {
                            1 << (i * 9 + fa as usize)
                        } else {
                            1 << (ra as usize * 9 + i)
                        }
                    });
                assert_eq!(Bitboard(spread), BETWEEN[a.index()][b.index()], "{a} {b}");
            }
        }
    }

    #[test]
    fn material_table_adds_values() {
        for piece in Piece::ALL {
            let (c, k) = (piece.color().index(), piece.kind().index());
            for sq in 0..90 {
                let v = TABLES.params.piece_value[k] + TABLES.psq[c][k][sq];
                let expect = if c == 0 { v } else { -v };
                assert_eq!(TABLES.material_psq[piece.index()][sq], expect);
            }
        }
    }

    #[test]
    fn horse_targets_and_scan_match() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.next_u32() as usize % moves.len()];
                pos.make_move(m);
                let occ = pos.occupied();
                for sq in 0..90 {
                    let expect = horse_attacks(Square::new(sq as u8).unwrap(), occ);
                    assert_eq!(horse_targets(&pos, sq), expect, "{} {sq}", pos.to_fen());
                }
                let mut seen = Vec::new();
                for_each_index(occ, |i| seen.push(i));
                let expect: Vec<usize> = occ.map(|s| s.index()).collect();
                assert_eq!(seen, expect);
            }
        }
    }
}
