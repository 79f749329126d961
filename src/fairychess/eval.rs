//! Static evaluation: a weighted sum of features, tapered between a middlegame and an
//! endgame weight by the material left.
//!
//! Every term is linear in its weight, so one function ([`evaluate_terms`]) serves the
//! search (adding weights as it goes) and the tuner (collecting the feature counts to
//! fit the weights to game results; see `tune.rs`). The weights live in `weights.rs`.
//!
//! The terms, each counted for White minus Black:
//! * material per kind;
//! * placement: a piece-square table per kind, folded to the 10 squares of one octant
//!   (the rules have no direction), and tropism (nearness to the enemy king) per kind;
//! * mobility per kind: squares the piece can move to that are not its own side's and
//!   not attacked by an enemy combatant;
//! * king safety, which matters a lot in a king-capture game: enemy pieces attacking the
//!   king's neighbourhood (per kind, plus the number of attacked neighbour squares and
//!   the square of the number of attackers), enemy moves that would attack the king
//!   (safe ones per kind, unsafe ones together), the king's safe flight squares (and
//!   having none), own pieces next to the king;
//! * threats: pieces attacked by a cheaper enemy piece or attacked and undefended, per
//!   kind, separately for the side to move (it can save one) and the other side, and
//!   having two or more such pieces when it is one's move;
//! * the bishop pair and the right to move (tempo).

use super::attacks::{Squares, COMBATANT_MOVES, KING};
use super::position::Position;
use super::types::{Color, PieceKind, Square};
use super::weights::Weights;
use std::fmt::Write;

/// Phase weight of each kind (king, rook, bishop, knight, squire, combatant).
pub const PHASE_WEIGHT: [i32; 6] = [0, 4, 2, 2, 2, 1];
/// Phase of a full middlegame; more material counts as this much.
pub const PHASE_MAX: i32 = 24;

/// Feature groups: (name, first index, length).
pub const GROUPS: [(&str, usize, usize); 25] = [
    ("Material", MATERIAL, 5),
    ("Placement", PST, 60),
    ("Tropism", TROPISM, 5),
    ("Mobility", MOBILITY, 6),
    ("King zone attackers", ZONE_ATTACKERS, 6),
    ("King zone squares hit", ZONE_SQUARES, 1),
    ("King zone attackers^2", ZONE_ATTACKERS_SQ, 1),
    ("Safe checks", SAFE_CHECKS, 6),
    ("Unsafe checks", UNSAFE_CHECKS, 1),
    ("King flight squares", KING_FLIGHT, 1),
    ("King no flight", KING_NO_FLIGHT, 1),
    ("King defenders", KING_DEFENDERS, 1),
    ("Threatened (to move)", THREATENED_STM, 5),
    ("Threatened (not to move)", THREATENED_OPP, 5),
    ("Two threatened (to move)", TWO_THREATENED, 1),
    ("Bishop pair", BISHOP_PAIR, 1),
    ("Tempo", TEMPO, 1),
    ("Attacks enemy king", KING_EN_PRISE, 1),
    ("Squire pair", SQUIRE_PAIR, 1),
    ("Combatant chain", COMBATANT_CHAIN, 1),
    ("Rook pair", ROOK_PAIR, 1),
    ("Ahead: enemy king off centre", MOPUP_EDGE, 1),
    ("Ahead: enemy king flight", MOPUP_FLIGHT, 1),
    ("Ahead: kings near", MOPUP_KINGS, 1),
    ("Ahead: enemy zone hit", MOPUP_ZONE, 1),
];

/// Material, per non-king kind (index `kind - 1`).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PST + kind * 10 + octant square`.
pub const PST: usize = MATERIAL + 5;
/// Nearness to the enemy king, per non-king kind: `7 - Chebyshev distance`.
pub const TROPISM: usize = PST + 60;
/// Mobility per kind.
pub const MOBILITY: usize = TROPISM + 5;
/// Enemy pieces of each kind attacking the king's neighbourhood.
pub const ZONE_ATTACKERS: usize = MOBILITY + 6;
/// Neighbour squares of the king the enemy attacks.
pub const ZONE_SQUARES: usize = ZONE_ATTACKERS + 6;
/// The square of the number of enemy pieces attacking the neighbourhood.
pub const ZONE_ATTACKERS_SQ: usize = ZONE_SQUARES + 1;
/// Enemy moves, per moving kind, that would attack the king from a square we do not
/// defend.
pub const SAFE_CHECKS: usize = ZONE_ATTACKERS_SQ + 1;
/// Enemy moves that would attack the king from a square we defend.
pub const UNSAFE_CHECKS: usize = SAFE_CHECKS + 6;
/// King moves to squares the enemy does not attack.
pub const KING_FLIGHT: usize = UNSAFE_CHECKS + 1;
/// 1 when the king has no such square.
pub const KING_NO_FLIGHT: usize = KING_FLIGHT + 1;
/// Own non-king pieces next to the king.
pub const KING_DEFENDERS: usize = KING_NO_FLIGHT + 1;
/// Threatened pieces of the side to move, per non-king kind.
pub const THREATENED_STM: usize = KING_DEFENDERS + 1;
/// Threatened pieces of the side not to move, per non-king kind.
pub const THREATENED_OPP: usize = THREATENED_STM + 5;
/// 1 when the side to move has two or more threatened pieces.
pub const TWO_THREATENED: usize = THREATENED_OPP + 5;
/// Two bishops.
pub const BISHOP_PAIR: usize = TWO_THREATENED + 1;
/// The side to move.
pub const TEMPO: usize = BISHOP_PAIR + 1;
/// The side to move attacks the enemy king (it can take it: the game is won).
pub const KING_EN_PRISE: usize = TEMPO + 1;
/// Two squires.
pub const SQUIRE_PAIR: usize = KING_EN_PRISE + 1;
/// Combatants defending combatants (diagonal neighbours).
pub const COMBATANT_CHAIN: usize = SQUIRE_PAIR + 1;
/// Two rooks.
pub const ROOK_PAIR: usize = COMBATANT_CHAIN + 1;
/// Ahead by two points or more (R 5, B N S 3, C 1.5): the enemy king's distance from the
/// centre (0-3). The "ahead" terms are there to turn an advantage into a king capture
/// within the 100 plies: hunt the king, do not just sit on the extra material.
pub const MOPUP_EDGE: usize = ROOK_PAIR + 1;
/// Ahead: the enemy king's flight squares.
pub const MOPUP_FLIGHT: usize = MOPUP_EDGE + 1;
/// Ahead: nearness of the kings, `7 - distance`.
pub const MOPUP_KINGS: usize = MOPUP_FLIGHT + 1;
/// Ahead: squares next to the enemy king that we attack.
pub const MOPUP_ZONE: usize = MOPUP_KINGS + 1;
/// Number of features.
pub const N_FEATURES: usize = MOPUP_ZONE + 1;

/// Material in half points (R 10, B N S 6, C 3) for deciding who is ahead.
const HALF_POINTS: [i32; 6] = [0, 10, 6, 6, 6, 3];

#[inline(always)]
fn half_points(pos: &Position, c: Color) -> i32 {
    PieceKind::NON_KING
        .iter()
        .map(|&k| HALF_POINTS[k.index()] * pos.pieces(c, k).count_ones() as i32)
        .sum()
}

#[inline(always)]
fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32)
        .abs()
        .max((a.rank() as i32 - b.rank() as i32).abs())
}

/// Receives the features of a position: `color` has `count` of feature `f`.
pub trait FeatureSink {
    /// Adds `count` of feature `f` for `color` (White's count minus Black's is scored).
    fn add(&mut self, color: Color, f: usize, count: i32);
}

/// The search's sink: sums the weights (middlegame, endgame) from White's view.
struct WeightSum {
    weights: &'static Weights,
    mg: i32,
    eg: i32,
}

impl FeatureSink for WeightSum {
    #[inline(always)]
    fn add(&mut self, color: Color, f: usize, count: i32) {
        let w = self.weights[f];
        let c = if color == Color::White { count } else { -count };
        self.mg += w[0] * c;
        self.eg += w[1] * c;
    }
}

/// The 10 squares of the a1-d1-d4 octant, indexed by (file, rank) of the folded square.
#[inline(always)]
pub fn octant(sq: Square) -> usize {
    let f = sq.file().min(7 - sq.file()) as usize;
    let r = sq.rank().min(7 - sq.rank()) as usize;
    let (lo, hi) = if f <= r { (f, r) } else { (r, f) };
    hi * (hi + 1) / 2 + lo
}

/// The game phase: material left, 0 (bare kings) to [`PHASE_MAX`].
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for kind in PieceKind::NON_KING {
        p += PHASE_WEIGHT[kind.index()] * pos.pieces_kind(kind).count_ones() as i32;
    }
    p.min(PHASE_MAX)
}

/// Per-side attack information.
#[derive(Default, Clone, Copy)]
struct Attacks {
    /// Squares attacked by any piece.
    all: u64,
    /// Squares attacked by a combatant.
    combatant: u64,
    /// Squares attacked by a bishop, knight or squire.
    minor: u64,
}

/// Rank of a kind for "attacked by a cheaper piece": combatant < minor pieces < rook.
const CHEAPNESS: [u8; 6] = [3, 2, 1, 1, 1, 0];

/// One piece and the squares it attacks, computed once per evaluation.
#[derive(Clone, Copy)]
struct Placed {
    sq: Square,
    kind: PieceKind,
    attacks: u64,
}

/// The pieces of one side with their attack sets; at most 64.
struct Army {
    pieces: [Placed; 64],
    len: usize,
}

impl Army {
    #[inline(always)]
    fn of(pos: &Position, c: Color, occ: u64) -> (Army, Attacks) {
        let mut army = Army {
            pieces: [Placed {
                sq: Square::from_index(0),
                kind: PieceKind::King,
                attacks: 0,
            }; 64],
            len: 0,
        };
        let mut a = Attacks::default();
        for kind in PieceKind::ALL {
            for sq in Squares(pos.pieces(c, kind)) {
                let s = Position::attacks_of(kind, sq, occ);
                a.all |= s;
                match kind {
                    PieceKind::Combatant => a.combatant |= s,
                    PieceKind::Bishop | PieceKind::Knight | PieceKind::Squire => a.minor |= s,
                    _ => {}
                }
                army.pieces[army.len & 63] = Placed {
                    sq,
                    kind,
                    attacks: s,
                };
                army.len += 1;
            }
        }
        (army, a)
    }

    #[inline(always)]
    fn iter(&self) -> std::slice::Iter<'_, Placed> {
        self.pieces[..self.len.min(64)].iter()
    }
}

/// Where a piece can move: its attacks off its own pieces, except for the combatant,
/// which moves orthogonally to empty squares and captures diagonally.
#[inline(always)]
fn moves_of(p: &Placed, own: u64, enemy: u64, occ: u64) -> u64 {
    match p.kind {
        PieceKind::Combatant => (COMBATANT_MOVES[p.sq.index()] & !occ) | (p.attacks & enemy),
        _ => p.attacks & !own,
    }
}

/// Computes every feature of `pos` into `sink`.
#[inline(always)]
pub fn evaluate_terms<S: FeatureSink>(pos: &Position, sink: &mut S) {
    let occ = pos.occupied();
    let stm = pos.side_to_move();
    let (white, white_att) = Army::of(pos, Color::White, occ);
    let (black, black_att) = Army::of(pos, Color::Black, occ);
    let armies = [&white, &black];
    let att = [white_att, black_att];
    let points = [
        half_points(pos, Color::White),
        half_points(pos, Color::Black),
    ];
    for c in Color::ALL {
        let them = c.flip();
        let own = pos.pieces_of(c);
        let enemy = pos.pieces_of(them);
        let (a_us, a_them) = (att[c.index()], att[them.index()]);
        let (army, enemy_army) = (armies[c.index()], armies[them.index()]);
        let enemy_king = pos.king_square(them);
        let mobility_area = !own & !a_them.combatant;

        // Material, placement, tropism, mobility.
        for p in army.iter() {
            let k = p.kind.index();
            if p.kind != PieceKind::King {
                sink.add(c, MATERIAL + k - 1, 1);
                if let Some(ek) = enemy_king {
                    sink.add(c, TROPISM + k - 1, 7 - distance(p.sq, ek));
                }
            }
            sink.add(c, PST + k * 10 + octant(p.sq), 1);
            let moves = moves_of(p, own, enemy, occ);
            sink.add(c, MOBILITY + k, (moves & mobility_area).count_ones() as i32);
        }
        if pos.pieces(c, PieceKind::Bishop).count_ones() >= 2 {
            sink.add(c, BISHOP_PAIR, 1);
        }
        if pos.pieces(c, PieceKind::Squire).count_ones() >= 2 {
            sink.add(c, SQUIRE_PAIR, 1);
        }
        if pos.pieces(c, PieceKind::Rook).count_ones() >= 2 {
            sink.add(c, ROOK_PAIR, 1);
        }
        let combatants = pos.pieces(c, PieceKind::Combatant);
        let chain = (combatants & a_us.combatant).count_ones() as i32;
        if chain > 0 {
            sink.add(c, COMBATANT_CHAIN, chain);
        }

        // King safety (of c's king, against `them`).
        if let Some(k) = pos.king_square(c) {
            let zone = KING[k.index()];
            let mut attackers = 0;
            let mut unsafe_checks = 0;
            for p in enemy_army.iter() {
                if p.attacks & zone != 0 {
                    sink.add(c, ZONE_ATTACKERS + p.kind.index(), 1);
                    attackers += 1;
                }
                if p.kind == PieceKind::King {
                    continue;
                }
                // Moves onto squares from which the moved piece attacks the king.
                let check_squares = Position::attacks_of(p.kind, k, occ);
                let checks = moves_of(p, enemy, own, occ) & check_squares;
                if checks != 0 {
                    let safe = (checks & !a_us.all).count_ones() as i32;
                    if safe > 0 {
                        sink.add(c, SAFE_CHECKS + p.kind.index(), safe);
                    }
                    unsafe_checks += (checks & a_us.all).count_ones() as i32;
                }
            }
            sink.add(c, ZONE_SQUARES, (zone & a_them.all).count_ones() as i32);
            sink.add(c, ZONE_ATTACKERS_SQ, attackers * attackers);
            sink.add(c, UNSAFE_CHECKS, unsafe_checks);
            let flight = (zone & !own & !a_them.all).count_ones() as i32;
            sink.add(c, KING_FLIGHT, flight);
            if flight == 0 {
                sink.add(c, KING_NO_FLIGHT, 1);
            }
            sink.add(c, KING_DEFENDERS, (zone & own).count_ones() as i32);
        }

        // Threats against c's pieces.
        let mut threatened = 0;
        let group = if c == stm {
            THREATENED_STM
        } else {
            THREATENED_OPP
        };
        for kind in PieceKind::NON_KING {
            let cheaper = match CHEAPNESS[kind.index()] {
                0 => 0,
                1 => a_them.combatant,
                _ => a_them.combatant | a_them.minor,
            };
            let bb = pos.pieces(c, kind) & ((a_them.all & !a_us.all) | cheaper);
            let n = bb.count_ones() as i32;
            if n > 0 {
                sink.add(c, group + kind.index() - 1, n);
                threatened += n;
            }
        }
        // Ahead: hunt the enemy king.
        if points[c.index()] >= points[them.index()] + 4 {
            if let (Some(ek), Some(k)) = (enemy_king, pos.king_square(c)) {
                let centre = |x: u8| (2 * x as i32 - 7).abs() / 2;
                sink.add(c, MOPUP_EDGE, centre(ek.file()).max(centre(ek.rank())));
                let zone = KING[ek.index()];
                let flight = (zone & !enemy & !a_us.all).count_ones() as i32;
                sink.add(c, MOPUP_FLIGHT, flight);
                sink.add(c, MOPUP_KINGS, 7 - distance(k, ek));
                sink.add(c, MOPUP_ZONE, (zone & a_us.all).count_ones() as i32);
            }
        }
        if c == stm {
            if threatened >= 2 {
                sink.add(c, TWO_THREATENED, 1);
            }
            sink.add(c, TEMPO, 1);
            if let Some(ek) = enemy_king {
                if a_us.all & ek.bb() != 0 {
                    sink.add(c, KING_EN_PRISE, 1);
                }
            }
        }
    }
}

/// Tapers a (middlegame, endgame) pair by `phase`.
#[inline(always)]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation from White's view.
#[inline]
pub fn evaluate_white(pos: &Position) -> i32 {
    let mut s = WeightSum {
        weights: pos.weights(),
        mg: 0,
        eg: 0,
    };
    evaluate_terms(pos, &mut s);
    taper(s.mg, s.eg, phase(pos))
}

/// The evaluation from the side to move's view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let v = evaluate_white(pos);
    if pos.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

/// Collects the counts per feature and side (for the report and the tuner).
pub struct FeatureCounts {
    /// `counts[color][feature]`.
    pub counts: [[i32; N_FEATURES]; 2],
}

impl FeatureSink for FeatureCounts {
    fn add(&mut self, color: Color, f: usize, count: i32) {
        self.counts[color.index()][f] += count;
    }
}

/// The feature counts of a position.
pub fn feature_counts(pos: &Position) -> FeatureCounts {
    let mut fc = FeatureCounts {
        counts: [[0; N_FEATURES]; 2],
    };
    evaluate_terms(pos, &mut fc);
    fc
}

/// The evaluation explained term by term (`eval`).
pub fn trace(pos: &Position) -> String {
    let fc = feature_counts(pos);
    let ph = phase(pos);
    let weights = pos.weights();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<26}|{:>7} {:>6} |{:>7} {:>6} |{:>7} {:>6}",
        "Term", "White mg", "eg", "Black mg", "eg", "Total mg", "eg"
    );
    let rule = "-".repeat(26 + 3 * 16);
    let _ = writeln!(out, "{rule}");
    let mut sum = [[0i32; 2]; 2];
    for (name, first, len) in GROUPS {
        let mut g = [[0i32; 2]; 2];
        for (ci, counts) in fc.counts.iter().enumerate() {
            for f in first..first + len {
                g[ci][0] += weights[f][0] * counts[f];
                g[ci][1] += weights[f][1] * counts[f];
            }
        }
        if g == [[0; 2]; 2] {
            continue;
        }
        for ci in 0..2 {
            sum[ci][0] += g[ci][0];
            sum[ci][1] += g[ci][1];
        }
        let _ = writeln!(
            out,
            "{:<26}|{:>8} {:>6} |{:>8} {:>6} |{:>8} {:>6}",
            name,
            g[0][0],
            g[0][1],
            g[1][0],
            g[1][1],
            g[0][0] - g[1][0],
            g[0][1] - g[1][1]
        );
    }
    let _ = writeln!(out, "{rule}");
    let _ = writeln!(
        out,
        "{:<26}|{:>8} {:>6} |{:>8} {:>6} |{:>8} {:>6}",
        "Sum",
        sum[0][0],
        sum[0][1],
        sum[1][0],
        sum[1][1],
        sum[0][0] - sum[1][0],
        sum[0][1] - sum[1][1]
    );
    let _ = writeln!(
        out,
        "Phase: {ph}/{PHASE_MAX} (middlegame weight {}%)",
        ph * 100 / PHASE_MAX
    );
    let white = evaluate_white(pos);
    let _ = writeln!(out, "Final score (White's view): {white:+}");
    let stm = pos.side_to_move();
    let v = if stm == Color::White { white } else { -white };
    let _ = writeln!(out, "Final score (side to move, {}): {v:+}", stm.name());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_features_in_order() {
        let mut next = 0;
        for (name, first, len) in GROUPS {
            assert_eq!(first, next, "{name}");
            next += len;
        }
        assert_eq!(next, N_FEATURES);
    }

    #[test]
    fn octant_folds_the_board() {
        let mut seen = [0; 10];
        for i in 0..64 {
            seen[octant(Square::from_index(i))] += 1;
        }
        // Corners, edge squares and centre squares: 4 or 8 squares per octant square.
        assert_eq!(seen.iter().sum::<i32>(), 64);
        assert!(seen.iter().all(|&n| n == 4 || n == 8));
        let sq = |s: &str| octant(Square::parse(s).unwrap());
        assert_eq!(sq("a1"), sq("h8"));
        assert_eq!(sq("b1"), sq("a2"));
        assert_eq!(sq("b1"), sq("g8"));
        assert_ne!(sq("d4"), sq("c4"));
    }

    #[test]
    fn mirrored_positions_score_opposite() {
        // Mirror ranks and swap colours and the side to move: the same position for the
        // other side.
        let fens = [
            "kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1",
            "1c2CNk1/rB6/n7/4B3/C1b3N1/cR1Cn1c1/1b6/1C3c1K w - - 0 1",
            "k2B2b1/7C/1Cc5/3B1cS1/3s1c2/6C1/1b5R/1KC3rc w - - 0 1",
        ];
        for fen in fens {
            let p = Position::from_fen(fen).unwrap();
            let (board, rest) = fen.split_once(' ').unwrap();
            let mirrored: Vec<String> = board
                .split('/')
                .rev()
                .map(|r| {
                    r.chars()
                        .map(|c| {
                            if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
            let side = if rest.starts_with('w') { "b" } else { "w" };
            let q = Position::from_fen(&format!("{} {side} - - 0 1", mirrored.join("/"))).unwrap();
            assert_eq!(evaluate(&p), evaluate(&q), "{fen}");
            assert_eq!(evaluate_white(&p), -evaluate_white(&q), "{fen}");
        }
    }
}
