//! The weights of the hand-written Xiangqi evaluation ([`super::eval`]), as
//! `fairychess/weights.rs` is for its game: the middlegame/endgame pair they are written
//! in ([`Score`]), what each weight means ([`EvalParams`]) and the values the engine plays
//! with ([`DEFAULT_PARAMS`]). Kept apart from the evaluation code because they change on
//! their own: `jiang-lab tune xiangqi` fits them to game results and prints the new values as Rust
//! source for this file.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

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

/// Shorthand for the table literals below.
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
/// Indices by kind follow [`PieceKind::index`](super::types::PieceKind::index): king,
/// advisor, elephant, horse, chariot, cannon, soldier.
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

impl EvalParams {
    /// The feature weights that are middlegame/endgame pairs, in a fixed order: every
    /// `Score` field except material (`piece_value`) and `tempo`. One list for the tuner
    /// and the tests, so a new weight cannot be left out of either.
    pub fn feature_scores_mut(&mut self) -> impl Iterator<Item = &mut Score> {
        self.chariot_mobility
            .iter_mut()
            .chain(&mut self.cannon_mobility)
            .chain(&mut self.horse_mobility)
            .chain(&mut self.king_attack_weight)
            .chain(&mut self.cannon_on_king_file)
            .chain(&mut self.cannon_on_king_rank)
            .chain([
                &mut self.missing_advisor_vs_chariot,
                &mut self.missing_advisor_vs_horse,
                &mut self.missing_elephant_vs_cannon,
                &mut self.king_open_file,
                &mut self.king_off_home,
                &mut self.soldier_crossed,
                &mut self.soldier_linked,
                &mut self.horse_leg_own,
                &mut self.horse_leg_enemy,
            ])
    }

    /// A copy in a `const` context ([`EvalTables::new`](super::eval::EvalTables::new)
    /// builds the default tables at compile time): `Clone` is not `const`; every field is
    /// `Copy`.
    pub const fn const_copy(&self) -> EvalParams {
        EvalParams {
            piece_value: self.piece_value,
            phase_weight: self.phase_weight,
            pst_mg: self.pst_mg,
            pst_eg: self.pst_eg,
            chariot_mobility: self.chariot_mobility,
            cannon_mobility: self.cannon_mobility,
            horse_mobility: self.horse_mobility,
            king_attack_weight: self.king_attack_weight,
            king_attack_scale: self.king_attack_scale,
            missing_advisor_vs_chariot: self.missing_advisor_vs_chariot,
            missing_advisor_vs_horse: self.missing_advisor_vs_horse,
            missing_elephant_vs_cannon: self.missing_elephant_vs_cannon,
            king_open_file: self.king_open_file,
            cannon_on_king_file: self.cannon_on_king_file,
            cannon_on_king_rank: self.cannon_on_king_rank,
            king_off_home: self.king_off_home,
            soldier_crossed: self.soldier_crossed,
            soldier_linked: self.soldier_linked,
            horse_leg_own: self.horse_leg_own,
            horse_leg_enemy: self.horse_leg_enemy,
            tempo: self.tempo,
            no_attackers_scale: self.no_attackers_scale,
        }
    }
}

/// The default weights: the hand-set values of the first version, fitted to game results
/// with `jiang-lab tune xiangqi` (Texel's method, 14 passes, L2 pull towards the hand-set values; the
/// tempo bonus, phase weights, attack-scale curve and soldier tables stay hand-set).
/// Data: 632 games of jiang against itself and Fairy-Stockfish (about 50,000 quiet
/// positions; validation error 0.0769 -> 0.0705). Self-play at 40,000 nodes per move on
/// unseen openings: +108 +/- 65 Elo over the hand-set weights (100 games, 65 %).
pub const DEFAULT_PARAMS: EvalParams = EvalParams {
    piece_value: [
        s(0, 0),
        s(136, 98),
        s(160, 78),
        s(424, 470),
        s(1062, 1092),
        s(562, 458),
        s(118, 74),
    ],
    phase_weight: [0, 0, 0, 2, 4, 2, 0],
    pst_mg: [
        // King
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -63, -55],
            [0, 0, 0, -57, -52],
            [0, 0, 0, 13, 42],
        ],
        // Advisor
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -25, 0],
            [0, 0, 0, 0, 17],
            [0, 0, 0, -33, 0],
        ],
        // Elephant
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, -35, 0, 0],
            [0, 0, 0, 0, 0],
            [-37, 0, 0, 0, 52],
            [0, 0, 0, 0, 0],
            [0, 0, -30, 0, 0],
        ],
        // Horse
        [
            [18, 10, 11, 16, 0],
            [11, 32, 55, 57, 23],
            [23, 34, 38, 55, 53],
            [11, 62, 72, 64, 46],
            [-3, 18, 1, 72, 69],
            [-3, 1, 38, 62, 23],
            [-23, 8, 36, 4, 52],
            [11, -30, 13, 11, 27],
            [-18, -35, -8, 14, 4],
            [-20, -52, 32, -46, -20],
        ],
        // Chariot
        [
            [-30, 19, 20, 12, 13],
            [18, 7, 50, 24, 30],
            [17, 0, 42, 37, 28],
            [25, 62, 62, 31, 43],
            [26, 45, 30, 29, 29],
            [26, 42, 42, 26, 5],
            [16, -31, -1, 25, 22],
            [-47, -37, 24, 28, -7],
            [-26, -31, -21, -32, -3],
            [-52, 27, 37, 47, -3],
        ],
        // Cannon
        [
            [-1, -16, 6, 10, 21],
            [-6, 29, -15, -25, 2],
            [0, -18, 9, 8, 4],
            [-21, -42, 6, -33, 52],
            [7, 27, 0, -3, 34],
            [-21, -21, -28, -37, 57],
            [-6, 27, 12, -7, -15],
            [42, 32, 2, 52, 67],
            [33, -12, 3, 23, -14],
            [-3, -18, 21, 20, 5],
        ],
        // Soldier (hand-set: not tuned)
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
        // King
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -16, -26],
            [0, 0, 0, -24, 23],
            [0, 0, 0, -18, 18],
        ],
        // Advisor
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, -35, 0],
            [0, 0, 0, 0, -37],
            [0, 0, 0, -42, 0],
        ],
        // Elephant
        [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, -38, 0, 0],
            [0, 0, 0, 0, 0],
            [-11, 0, 0, 0, -32],
            [0, 0, 0, 0, 0],
            [0, 0, -18, 0, 0],
        ],
        // Horse
        [
            [9, 17, 13, 30, 10],
            [20, 15, 43, 45, 40],
            [32, 24, 1, 45, 30],
            [6, 34, 14, 7, 10],
            [1, 20, 3, 41, 29],
            [-8, 26, 4, 24, 15],
            [-19, 6, 47, -17, 13],
            [-30, 1, -42, 17, 5],
            [-11, -16, -5, 6, -18],
            [-28, -57, 29, -11, -5],
        ],
        // Chariot
        [
            [-6, 17, 5, 1, 16],
            [14, 13, 34, 30, 18],
            [38, -11, 28, 30, 18],
            [41, 31, 40, 24, 24],
            [18, 23, 20, 13, 28],
            [15, 23, 8, -2, 22],
            [-17, -12, 6, -4, 8],
            [-5, -9, 12, 5, 11],
            [2, 1, -5, 15, -3],
            [-19, -29, -8, 9, -3],
        ],
        // Cannon
        [
            [12, 0, 12, 2, 2],
            [6, 21, -3, -15, -3],
            [-9, 3, 24, -15, -6],
            [-3, -6, 0, -24, 20],
            [27, 21, -9, 21, 11],
            [3, -3, 6, -13, -10],
            [-9, -12, 11, 2, 7],
            [33, -4, -7, -26, 52],
            [12, -9, 14, 16, -2],
            [3, -15, 24, -7, 8],
        ],
        // Soldier (hand-set: not tuned)
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
        s(-27, -35),
        s(-62, -29),
        s(-36, -40),
        s(-8, -10),
        s(3, -9),
        s(29, 33),
        s(48, 44),
        s(40, 31),
        s(37, 62),
        s(40, 33),
        s(46, 51),
        s(60, 66),
        s(35, 75),
        s(46, 56),
        s(63, 46),
        s(73, 65),
        s(32, 63),
    ],
    cannon_mobility: [
        s(-12, -13),
        s(20, -7),
        s(21, -4),
        s(15, -14),
        s(-18, 3),
        s(44, 7),
        s(-5, -10),
        s(-30, 21),
        s(50, 1),
        s(39, 17),
        s(-8, 39),
        s(50, 28),
        s(15, 31),
        s(-5, 8),
        s(5, -13),
        s(12, -3),
        s(12, 12),
        s(25, 13),
    ],
    horse_mobility: [
        s(-82, -56),
        s(-35, 2),
        s(-50, 8),
        s(-42, 6),
        s(48, 29),
        s(53, 23),
        s(18, 24),
        s(57, 18),
        s(35, 5),
    ],
    king_attack_weight: [
        s(0, 0),
        s(0, 0),
        s(0, 0),
        s(77, 21),
        s(89, 62),
        s(71, 49),
        s(38, 0),
    ],
    king_attack_scale: [0, 10, 50, 75, 90, 100, 100, 100],
    missing_advisor_vs_chariot: s(26, 27),
    missing_advisor_vs_horse: s(21, -8),
    missing_elephant_vs_cannon: s(30, 67),
    king_open_file: s(62, 52),
    cannon_on_king_file: [s(96, 24), s(15, 5), s(72, 13)],
    cannon_on_king_rank: [s(54, 39), s(10, 5), s(-19, 8)],
    king_off_home: s(52, -15),
    soldier_crossed: s(82, 57),
    soldier_linked: s(-18, 22),
    horse_leg_own: s(44, 7),
    horse_leg_enemy: s(-5, -28),
    tempo: s(20, 10),
    no_attackers_scale: 8,
};
