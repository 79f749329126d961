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
//! All weights live in [`EvalParams`]; [`EvalTables::new`] expands them (at compile time
//! for the default [`TABLES`]) into the per-square tables the evaluation reads.
//! [`evaluate`] does no allocation and no table building.

use super::attacks::{
    cannon_captures, chariot_attacks, elephant_attacks, ADVISOR_STEPS, BETWEEN, HORSE_MOVES,
};
use super::bitboard::{Bitboard, BOARD_MASK, FILES, HALF, PALACE};
use super::position::Position;
use super::types::{Color, PieceKind, Square};
use std::fmt::Write as _;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Largest magnitude [`evaluate`] returns; mate scores live far above it.
pub const MAX_EVAL: i32 = 19_999;

// ----- Score -----------------------------------------------------------------------------

/// A middlegame/endgame pair of values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Score {
    /// Zero in both phases.
    pub const ZERO: Score = Score { mg: 0, eg: 0 };

    /// The pair `(mg, eg)`.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> Score {
        Score { mg, eg }
    }

    /// Blends the pair: `phase` runs from 0 (pure endgame) to `phase_max` (pure
    /// middlegame). Rounds toward zero, so `taper(-s) == -taper(s)`.
    #[inline(always)]
    pub const fn taper(self, phase: i32, phase_max: i32) -> i32 {
        (self.mg * phase + self.eg * (phase_max - phase)) / phase_max
    }
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, o: Score) -> Score {
        Score::new(self.mg + o.mg, self.eg + o.eg)
    }
}
impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, o: Score) -> Score {
        Score::new(self.mg - o.mg, self.eg - o.eg)
    }
}
impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score::new(-self.mg, -self.eg)
    }
}
impl Mul<i32> for Score {
    type Output = Score;
    #[inline(always)]
    fn mul(self, k: i32) -> Score {
        Score::new(self.mg * k, self.eg * k)
    }
}
impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}
impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, o: Score) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

/// Shorthand for table literals.
const fn s(mg: i32, eg: i32) -> Score {
    Score::new(mg, eg)
}

// ----- Parameters ------------------------------------------------------------------------

/// A piece-square table for Red on the half board: `[row][column]` with row 0 = rank 9
/// (the enemy's back rank, drawn on top as on a diagram) down to row 9 = rank 0 (Red's back
/// rank), and columns = files `a`..`e`. Files `f`..`i` mirror `d`..`a`; Black reads the
/// table with ranks mirrored. Points a piece can never stand on are 0.
pub type HalfTable = [[i32; 5]; 10];

/// Every tunable weight of the evaluation, as middlegame/endgame pairs unless noted.
/// Indices by kind follow [`PieceKind::index`]: king, advisor, elephant, horse, chariot,
/// cannon, soldier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Material value per kind (the king's is 0: it is never captured).
    pub piece_value: [Score; 7],
    /// Game-phase weight per kind; the phase is the sum over the pieces on the board,
    /// capped at its start-position value (pure middlegame).
    pub phase_weight: [i32; 7],
    /// Middlegame piece-square tables per kind (see [`HalfTable`]).
    pub pst_mg: [HalfTable; 7],
    /// Endgame piece-square tables per kind (see [`HalfTable`]).
    pub pst_eg: [HalfTable; 7],
    /// Chariot mobility by number of destinations (empty points and enemy pieces, 0..=17).
    pub chariot_mobility: [Score; 18],
    /// Cannon mobility by number of destinations (quiet slides plus captures, 0..=17).
    pub cannon_mobility: [Score; 18],
    /// Horse mobility by number of safe destinations (legs free, not own pieces, not
    /// guarded by enemy soldiers, advisors or elephants, 0..=8).
    pub horse_mobility: [Score; 9],
    /// King danger weight of one enemy piece of each kind that attacks the palace.
    pub king_attack_weight: [Score; 7],
    /// Percentage of the summed attack weights that counts as danger, by the number of
    /// palace attackers (capped at 7): lone attackers are little danger, a swarm is.
    pub king_attack_scale: [i32; 8],
    /// Penalty per (missing advisor × enemy chariot).
    pub missing_advisor_vs_chariot: Score,
    /// Penalty per (missing advisor × enemy horse).
    pub missing_advisor_vs_horse: Score,
    /// Penalty per (missing elephant × enemy cannon).
    pub missing_elephant_vs_cannon: Score,
    /// Penalty per enemy chariot when no own piece stands in front of the king on its file.
    pub king_open_file: Score,
    /// Penalty per enemy cannon on the king's file, by the number of pieces between them
    /// (0 = empty-head cannon, 1 = cannon giving check, 2 = central cannon behind a screen
    /// pair).
    pub cannon_on_king_file: [Score; 3],
    /// Penalty per enemy cannon on the king's rank (bottom cannon), by pieces between.
    pub cannon_on_king_rank: [Score; 3],
    /// Penalty per palace attacker when the king has left its home point.
    pub king_off_home: Score,
    /// Bonus per soldier across the river.
    pub soldier_crossed: Score,
    /// Bonus per pair of crossed soldiers side by side on one rank.
    pub soldier_linked: Score,
    /// Penalty per horse leg (with targets on the board) blocked by an own piece.
    pub horse_leg_own: Score,
    /// Penalty per horse leg blocked by an enemy piece.
    pub horse_leg_enemy: Score,
    /// Bonus for the side to move.
    pub tempo: Score,
    /// When the side that is ahead has no piece able to cross the river (chariot, horse,
    /// cannon or soldier), its score is multiplied by this many 64ths: it cannot win.
    pub no_attackers_scale: i32,
}

/// The hand-set default weights.
pub const DEFAULT_PARAMS: EvalParams = EvalParams {
    //             king      advisor      elephant     horse        chariot      cannon       soldier
    piece_value: [
        s(0, 0),
        s(200, 210),
        s(200, 190),
        s(400, 430),
        s(950, 980),
        s(450, 410),
        s(30, 50),
    ],
    phase_weight: [0, 0, 0, 2, 4, 2, 0],
    pst_mg: [
        // King: home e0; stepping up or aside costs a little.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -30, -25],
            [0, 0, 0, -15, -10],
            [0, 0, 0, -5, 0],
        ],
        // Advisor: the palace centre is best, raised corners worst.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -10, 0],
            [0, 0, 0, 0, 5],
            [0, 0, 0, 0, 0],
        ],
        // Elephant: the central point e2 links both, edges and river bank are weaker.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, -5, 0, 0],
            [0, 0, 0, 0, 0],
            [-10, 0, 0, 0, 10],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Horse: out of the corner, to the centre and the enemy palace (c8 = "wo cao").
        [
            [0, -5, 5, 10, 0],
            [5, 20, 40, 30, 20],
            [5, 25, 35, 40, 35],
            [5, 20, 30, 40, 40],
            [0, 15, 25, 30, 30],
            [0, 10, 20, 20, 20],
            [-5, 5, 15, 10, 10],
            [-10, 0, 10, 5, 0],
            [-15, -5, -5, -10, -20],
            [-20, -10, -10, -10, -20],
        ],
        // Chariot: the enemy half, its second rank and the palace files.
        [
            [0, 10, 5, 15, 10],
            [15, 25, 20, 30, 30],
            [5, 15, 15, 25, 25],
            [10, 20, 20, 25, 25],
            [5, 15, 15, 20, 20],
            [5, 15, 15, 20, 20],
            [-5, 5, 5, 10, 10],
            [-5, 5, 0, 10, 5],
            [-5, 5, 0, 10, 0],
            [-10, 0, -5, 5, 0],
        ],
        // Cannon: the central file (e2 = central cannon), the back ranks and the bottom.
        [
            [5, 5, 0, 10, 15],
            [0, 5, 0, 5, 5],
            [0, 0, 0, 5, 10],
            [0, 0, 0, 0, 10],
            [-5, 0, 0, 0, 10],
            [0, 0, 5, 5, 15],
            [0, 0, 0, 5, 15],
            [0, 5, 5, 10, 25],
            [0, 0, 0, 5, 10],
            [0, 0, 0, 5, 5],
        ],
        // Soldier: little before the river; strong in front of the palace; weak at the
        // bottom. (Crossing itself is rewarded by `soldier_crossed`.)
        [
            [0, 0, 0, 5, 10],
            [0, 20, 45, 70, 80],
            [5, 20, 40, 60, 70],
            [5, 15, 30, 40, 45],
            [0, 10, 15, 20, 25],
            [-5, 0, 5, 0, 10],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
    ],
    pst_eg: [
        // King: mostly free in the endgame; the second palace rank is exposed.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -10, -5],
            [0, 0, 0, 0, 5],
            [0, 0, 0, 0, 0],
        ],
        // Advisor.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -5, 0],
            [0, 0, 0, 0, 5],
            [0, 0, 0, 0, 0],
        ],
        // Elephant.
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, -5, 0, 0],
            [0, 0, 0, 0, 0],
            [-5, 0, 0, 0, 10],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        // Horse: centralise and close in on the enemy palace.
        [
            [0, 5, 10, 15, 10],
            [5, 15, 25, 30, 25],
            [5, 15, 25, 30, 30],
            [0, 10, 20, 25, 25],
            [-5, 5, 15, 20, 20],
            [-5, 5, 10, 15, 15],
            [-10, 0, 5, 10, 10],
            [-15, -5, 0, 5, 5],
            [-20, -10, -5, 0, 0],
            [-25, -15, -10, -5, -5],
        ],
        // Chariot: active on the enemy half, slightly central.
        [
            [0, 5, 5, 10, 10],
            [5, 10, 10, 15, 15],
            [5, 10, 10, 15, 15],
            [5, 10, 10, 15, 15],
            [0, 5, 5, 10, 10],
            [0, 5, 5, 10, 10],
            [-5, 0, 0, 5, 5],
            [-5, 0, 0, 5, 5],
            [-10, -5, -5, 0, 0],
            [-10, -5, -5, 0, 0],
        ],
        // Cannon: stays behind its screens near home, on the central files.
        [
            [0, 0, 0, 5, 5],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 5],
            [0, 0, 0, 0, 5],
            [0, 0, 0, 5, 5],
            [0, 0, 5, 5, 10],
            [0, 5, 5, 10, 10],
            [0, 0, 5, 10, 10],
            [0, 0, 0, 5, 5],
        ],
        // Soldier: the endgame's winning force in front of the palace; an "old soldier" on
        // the bottom rank is nearly useless.
        [
            [0, 0, 5, 10, 15],
            [10, 30, 55, 80, 90],
            [10, 30, 55, 75, 85],
            [10, 25, 40, 50, 55],
            [5, 15, 25, 30, 35],
            [0, 0, 5, 0, 10],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
    ],
    chariot_mobility: [
        s(-40, -50),
        s(-30, -38),
        s(-20, -26),
        s(-12, -16),
        s(-5, -7),
        s(0, 0),
        s(5, 6),
        s(9, 11),
        s(13, 16),
        s(16, 20),
        s(19, 24),
        s(22, 27),
        s(24, 30),
        s(26, 33),
        s(28, 35),
        s(30, 37),
        s(31, 38),
        s(32, 39),
    ],
    cannon_mobility: [
        s(-15, -10),
        s(-10, -7),
        s(-6, -4),
        s(-3, -2),
        s(0, 0),
        s(2, 1),
        s(4, 2),
        s(6, 3),
        s(8, 4),
        s(9, 5),
        s(10, 6),
        s(11, 7),
        s(12, 7),
        s(13, 8),
        s(14, 8),
        s(15, 9),
        s(15, 9),
        s(16, 10),
    ],
    horse_mobility: [
        s(-40, -50),
        s(-20, -25),
        s(-8, -10),
        s(0, 0),
        s(6, 8),
        s(11, 14),
        s(15, 18),
        s(18, 21),
        s(20, 23),
    ],
    king_attack_weight: [
        s(0, 0),
        s(0, 0),
        s(0, 0),
        s(35, 15),
        s(50, 20),
        s(35, 10),
        s(20, 15),
    ],
    king_attack_scale: [0, 10, 50, 75, 90, 100, 100, 100],
    missing_advisor_vs_chariot: s(20, 30),
    missing_advisor_vs_horse: s(15, 25),
    missing_elephant_vs_cannon: s(15, 25),
    king_open_file: s(20, 10),
    cannon_on_king_file: [s(60, 30), s(15, 5), s(30, 10)],
    cannon_on_king_rank: [s(30, 15), s(10, 5), s(20, 5)],
    king_off_home: s(10, 3),
    soldier_crossed: s(40, 60),
    soldier_linked: s(15, 25),
    horse_leg_own: s(8, 4),
    horse_leg_enemy: s(4, 2),
    tempo: s(20, 10),
    no_attackers_scale: 8,
};

// ----- Tables ----------------------------------------------------------------------------

/// The parameters expanded for fast lookup. Build with [`EvalTables::new`] (a `const fn`:
/// the default [`TABLES`] are built at compile time).
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// The weights the tables were built from.
    pub params: EvalParams,
    /// Piece-square values `[color][kind][square]` (Black's mirrored from Red's).
    pub psq: [[[Score; 90]; 7]; 2],
    /// Phase of the start position: full middlegame.
    pub phase_max: i32,
}

impl EvalTables {
    /// Expands `params` into per-square tables.
    pub const fn new(params: &EvalParams) -> EvalTables {
        let mut psq = [[[Score::ZERO; 90]; 7]; 2];
        let mut k = 0;
        while k < 7 {
            let mut sq = 0;
            while sq < 90 {
                let (file, rank) = (sq % 9, sq / 9);
                let col = if file <= 4 { file } else { 8 - file };
                let row = 9 - rank;
                let v = Score::new(params.pst_mg[k][row][col], params.pst_eg[k][row][col]);
                psq[0][k][sq] = v;
                // Black's square with the same meaning is the rank mirror.
                psq[1][k][(9 - rank) * 9 + file] = v;
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
            params: params_copy(params),
            psq,
            phase_max,
        }
    }
}

/// `Clone` is not `const`; every field is `Copy`.
const fn params_copy(p: &EvalParams) -> EvalParams {
    EvalParams {
        piece_value: p.piece_value,
        phase_weight: p.phase_weight,
        pst_mg: p.pst_mg,
        pst_eg: p.pst_eg,
        chariot_mobility: p.chariot_mobility,
        cannon_mobility: p.cannon_mobility,
        horse_mobility: p.horse_mobility,
        king_attack_weight: p.king_attack_weight,
        king_attack_scale: p.king_attack_scale,
        missing_advisor_vs_chariot: p.missing_advisor_vs_chariot,
        missing_advisor_vs_horse: p.missing_advisor_vs_horse,
        missing_elephant_vs_cannon: p.missing_elephant_vs_cannon,
        king_open_file: p.king_open_file,
        cannon_on_king_file: p.cannon_on_king_file,
        cannon_on_king_rank: p.cannon_on_king_rank,
        king_off_home: p.king_off_home,
        soldier_crossed: p.soldier_crossed,
        soldier_linked: p.soldier_linked,
        horse_leg_own: p.horse_leg_own,
        horse_leg_enemy: p.horse_leg_enemy,
        tempo: p.tempo,
        no_attackers_scale: p.no_attackers_scale,
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

const fn squares(list: &[(usize, usize)]) -> Bitboard {
    let mut bb = 0u128;
    let mut i = 0;
    while i < list.len() {
        bb |= 1u128 << (list[i].1 * 9 + list[i].0);
        i += 1;
    }
    Bitboard(bb)
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

    // A side without pieces able to cross the river cannot win.
    let leader = if tapered > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let can_attack = ATTACKING_KINDS
        .iter()
        .any(|&k| counts[leader.index()][k.index()] > 0);
    let scale = if tapered != 0 && !can_attack {
        p.no_attackers_scale
    } else {
        64
    };
    let red_view = (tapered * scale / 64).clamp(-MAX_EVAL, MAX_EVAL);
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

/// Static evaluation with the given tables, from the side to move's point of view.
#[inline]
pub fn evaluate_with(pos: &Position, t: &EvalTables) -> i32 {
    breakdown_with(pos, t).stm_view
}

/// Static evaluation with the default weights, from the side to move's point of view, in
/// the units described in the [module documentation](self).
#[inline]
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
    use crate::xiangqi::attacks::SOLDIER_STEPS;
    use crate::xiangqi::bitboard::RANKS;

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
}
