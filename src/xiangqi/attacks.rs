//! Attack tables, all built at compile time by `const fn`.
//!
//! * Stepping pieces (king, advisor, soldier) have plain per-square target sets.
//! * Elephants and horses can be blocked: per square we keep up to four (blocking square,
//!   targets) pairs. For the elephant the blocking square is the "eye" (the midpoint); for
//!   the horse it is the "leg" (the orthogonal neighbour in the direction of the long step).
//! * Horse attacks *to* a square need their own table: the horse at `t + (1, 2)` attacking
//!   `t` is blocked by `t + (1, 1)`, a diagonal neighbour of the target, not by the leg the
//!   forward table would use from `t` (ElephantEye's "source and destination are swapped").
//! * Chariot and cannon attacks come from rank/file occupancy lookups: the occupancy of the
//!   piece's rank (9 bits) or file (10 bits) indexes a table of reachable squares.

use super::bitboard::{Bitboard, FILES, HALF, PALACE, RANKS};
use super::types::{Color, Square};

/// A blocking square and the targets it unlocks. `block == 90` marks an unused slot (bit 90
/// of an occupancy is never set, and the targets are empty).
#[derive(Clone, Copy, Debug)]
pub struct Blockable {
    /// Index of the square that must be empty.
    pub block: u8,
    /// The same square as a set (testing it needs no 128-bit shift).
    pub mask: Bitboard,
    /// Targets reachable when it is.
    pub targets: Bitboard,
}

const UNUSED: Blockable = Blockable {
    block: 90,
    mask: Bitboard::EMPTY,
    targets: Bitboard::EMPTY,
};

const fn sq_bit(file: i32, rank: i32) -> u128 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        1u128 << (rank * 9 + file)
    } else {
        0
    }
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn build_steps(dirs: [(i32, i32); 4], palace_only: bool) -> [Bitboard; 90] {
    let both_palaces = PALACE[0].0 | PALACE[1].0;
    let mut t = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        if !palace_only || (both_palaces >> sq) & 1 != 0 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let mut bb = 0u128;
            let mut i = 0;
            while i < 4 {
                bb |= sq_bit(f + dirs[i].0, r + dirs[i].1);
                i += 1;
            }
            if palace_only {
                bb &= both_palaces;
            }
            t[sq] = Bitboard(bb);
        }
        sq += 1;
    }
    t
}

/// King steps: one orthogonal step, staying in the palace.
pub static KING_STEPS: [Bitboard; 90] = build_steps(ORTHO, true);
/// Advisor steps: one diagonal step, staying in the palace.
pub static ADVISOR_STEPS: [Bitboard; 90] = build_steps(DIAG, true);

const fn build_elephant() -> [[Blockable; 4]; 90] {
    let mut t = [[UNUSED; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let half = if r <= 4 { HALF[0].0 } else { HALF[1].0 };
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAG[i];
            let target = sq_bit(f + 2 * df, r + 2 * dr) & half;
            if target != 0 {
                t[sq][i] = Blockable {
                    block: ((r + dr) * 9 + f + df) as u8,
                    mask: Bitboard(sq_bit(f + df, r + dr)),
                    targets: Bitboard(target),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Elephant moves: two diagonal steps on its own half, blocked by a piece on the eye.
/// The relation is symmetric, so the same table gives elephant attacks *to* a square.
pub static ELEPHANT_MOVES: [[Blockable; 4]; 90] = build_elephant();

const fn build_horse_moves() -> [[Blockable; 4]; 90] {
    let mut t = [[UNUSED; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = ORTHO[i];
            if on_board(f + df, r + dr) {
                // Long step in the leg's direction, then one sideways.
                let targets = if df != 0 {
                    sq_bit(f + 2 * df, r + 1) | sq_bit(f + 2 * df, r - 1)
                } else {
                    sq_bit(f + 1, r + 2 * dr) | sq_bit(f - 1, r + 2 * dr)
                };
                t[sq][i] = Blockable {
                    block: ((r + dr) * 9 + f + df) as u8,
                    mask: Bitboard(sq_bit(f + df, r + dr)),
                    targets: Bitboard(targets),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Horse moves from a square: per leg (orthogonal neighbour), the two targets beyond it.
pub static HORSE_MOVES: [[Blockable; 4]; 90] = build_horse_moves();

const fn build_horse_legs() -> [Bitboard; 90] {
    let moves = build_horse_moves();
    let mut t = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut k = 0;
        while k < 4 {
            if moves[sq][k].targets.0 != 0 {
                t[sq].0 |= moves[sq][k].mask.0;
            }
            k += 1;
        }
        sq += 1;
    }
    t
}

/// Per square, the horse legs that lead to at least one target on the board (the legs of
/// the [`HORSE_MOVES`] slots with targets): the evaluation's horse-leg term counts a
/// blocked leg only then.
pub static HORSE_LEGS: [Bitboard; 90] = build_horse_legs();

const fn build_horse_leg_squares() -> [[u8; 4]; 90] {
    let moves = build_horse_moves();
    let mut t = [[0u8; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut k = 0;
        while k < 4 {
            let block = moves[sq][k].block;
            t[sq][k] = if block < 90 { block } else { sq as u8 };
            k += 1;
        }
        sq += 1;
    }
    t
}

/// Per square, the leg of each [`HORSE_MOVES`] slot as a square index; where the leg is
/// off the board (and the slot has no targets), the horse's own square, never empty, so
/// the evaluation reads every slot's leg off the mailbox without a check.
pub static HORSE_LEG_SQUARES: [[u8; 4]; 90] = build_horse_leg_squares();

const fn build_horse_attackers() -> [[Blockable; 4]; 90] {
    let mut t = [[UNUSED; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAG[i];
            if on_board(f + df, r + dr) {
                // A horse two ranks away on the (df, dr) side steps through (f+df, r+dr);
                // so does one two files away on that side.
                let sources = sq_bit(f + df, r + 2 * dr) | sq_bit(f + 2 * df, r + dr);
                t[sq][i] = Blockable {
                    block: ((r + dr) * 9 + f + df) as u8,
                    mask: Bitboard(sq_bit(f + df, r + dr)),
                    targets: Bitboard(sources),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Horses attacking a square: per diagonal neighbour of the target (the leg those horses
/// need empty), the squares such horses stand on.
pub static HORSE_ATTACKERS: [[Blockable; 4]; 90] = build_horse_attackers();

const fn build_soldier_steps() -> [[Bitboard; 90]; 2] {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let forward = if c == 0 { 1 } else { -1 };
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            let mut bb = sq_bit(f, r + forward);
            if crossed {
                bb |= sq_bit(f + 1, r) | sq_bit(f - 1, r);
            }
            t[c][sq] = Bitboard(bb);
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Soldier steps per colour: forward, and sideways once across the river.
pub static SOLDIER_STEPS: [[Bitboard; 90]; 2] = build_soldier_steps();

const fn build_soldier_attackers() -> [[Bitboard; 90]; 2] {
    let steps = build_soldier_steps();
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut to = 0;
            while to < 90 {
                if (steps[c][from].0 >> to) & 1 != 0 {
                    t[c][to].0 |= 1u128 << from;
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

/// Squares from which a soldier of the given colour attacks a square.
pub static SOLDIER_ATTACKERS: [[Bitboard; 90]; 2] = build_soldier_attackers();

/// Reachable squares along one line of `len` points for a slider at `pos`, given the line's
/// occupancy bits: `(chariot, cannon capture)` masks packed as `rook | cannon << 16`.
const fn slide(pos: usize, occ: u32, len: usize) -> u32 {
    let mut rook = 0u32;
    let mut cannon = 0u32;
    let mut dir = 0;
    while dir < 2 {
        let mut p = pos as i32;
        let mut screen = false;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as i32 {
                break;
            }
            let occupied = (occ >> p) & 1 != 0;
            if !screen {
                rook |= 1 << p;
                if occupied {
                    screen = true;
                }
            } else if occupied {
                cannon |= 1 << p;
                break;
            }
        }
        dir += 1;
    }
    rook | cannon << 16
}

const fn build_rank_slide() -> [[u32; 512]; 9] {
    let mut t = [[0u32; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = slide(f, occ as u32, 9);
            occ += 1;
        }
        f += 1;
    }
    t
}

const fn build_file_slide() -> [[u32; 1024]; 10] {
    let mut t = [[0u32; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = slide(r, occ as u32, 10);
            occ += 1;
        }
        r += 1;
    }
    t
}

/// Rank lookups: `[file][rank occupancy]` → chariot targets | cannon captures << 16.
static RANK_SLIDE: [[u32; 512]; 9] = build_rank_slide();
/// File lookups: `[rank][file occupancy]` → chariot targets | cannon captures << 16.
static FILE_SLIDE: [[u32; 1024]; 10] = build_file_slide();

const fn build_file_spread() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut bb = 0u128;
        let mut r = 0;
        while r < 10 {
            if (m >> r) & 1 != 0 {
                bb |= 1u128 << (r * 9);
            }
            r += 1;
        }
        t[m] = bb;
        m += 1;
    }
    t
}

/// A 10-bit rank mask spread onto file `a` (bit `r` → square `r * 9`); shift by the file.
static FILE_SPREAD: [u128; 1024] = build_file_spread();

/// Chariot targets (empty squares plus the first piece each way) from `sq`.
/// `file_occ` is the occupancy of `sq`'s file, bit `r` = rank `r`.
#[inline(always)]
pub fn chariot_attacks(sq: Square, occ: Bitboard, file_occ: u16) -> Bitboard {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank_occ = ((occ.0 >> (r * 9)) & 0x1ff) as usize;
    let along_rank = (RANK_SLIDE[f][rank_occ] & 0x1ff) as u128;
    let along_file = FILE_SLIDE[r][file_occ as usize & 0x3ff] & 0x3ff;
    Bitboard(along_rank << (r * 9) | FILE_SPREAD[along_file as usize] << f)
}

/// Cannon captures (the piece beyond exactly one screen each way) from `sq`.
#[inline(always)]
pub fn cannon_captures(sq: Square, occ: Bitboard, file_occ: u16) -> Bitboard {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank_occ = ((occ.0 >> (r * 9)) & 0x1ff) as usize;
    let along_rank = (RANK_SLIDE[f][rank_occ] >> 16) as u128;
    let along_file = FILE_SLIDE[r][file_occ as usize & 0x3ff] >> 16;
    Bitboard(along_rank << (r * 9) | FILE_SPREAD[along_file as usize] << f)
}

/// The file occupancy word of file `f` read off a bitboard (slow: for tests and setup).
pub fn file_occupancy(occ: Bitboard, f: usize) -> u16 {
    let mut bits = 0u16;
    for r in 0..10 {
        if (occ.0 >> (r * 9 + f)) & 1 != 0 {
            bits |= 1 << r;
        }
    }
    bits
}

/// Horse targets from `sq` with the given occupancy (legs must be empty).
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for entry in &HORSE_MOVES[sq.index()] {
        if (occ & entry.mask).is_empty() {
            bb |= entry.targets;
        }
    }
    bb
}

/// Squares from which a horse would attack `sq` with the given occupancy.
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for entry in &HORSE_ATTACKERS[sq.index()] {
        if (occ & entry.mask).is_empty() {
            bb |= entry.targets;
        }
    }
    bb
}

/// Elephant targets from `sq` with the given occupancy (eyes must be empty).
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for entry in &ELEPHANT_MOVES[sq.index()] {
        if (occ & entry.mask).is_empty() {
            bb |= entry.targets;
        }
    }
    bb
}

/// Soldier targets of `color` from `sq`.
#[inline(always)]
pub fn soldier_attacks(color: Color, sq: Square) -> Bitboard {
    SOLDIER_STEPS[color.index()][sq.index()]
}

const fn build_between() -> [[Bitboard; 90]; 90] {
    let mut t = [[Bitboard::EMPTY; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
            let mut bb = 0u128;
            if a != b && (fa == fb || ra == rb) {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                let step = if fa == fb { 9 } else { 1 };
                let mut s = lo + step;
                while s < hi {
                    bb |= 1u128 << s;
                    s += step;
                }
            }
            t[a][b] = Bitboard(bb);
            b += 1;
        }
        a += 1;
    }
    t
}

/// Squares strictly between two squares on one rank or file; empty otherwise.
pub static BETWEEN: [[Bitboard; 90]; 90] = build_between();

const fn build_lines() -> [Bitboard; 90] {
    let mut t = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = Bitboard((FILES[sq % 9].0 | RANKS[sq / 9].0) & !(1u128 << sq));
        sq += 1;
    }
    t
}

/// The other squares of a square's rank and file.
pub static LINES: [Bitboard; 90] = build_lines();

/// Of `rooks` and `cannons` (any squares), those on `sq`'s rank or file that attack it
/// with occupancy `occ`: a rook with nothing between, a cannon over exactly one screen.
/// Read ray by ray from [`BETWEEN`], so `occ` may differ from the board (exchanges, king
/// safety after a move, discovered checks).
#[inline(always)]
pub fn line_attackers(sq: Square, occ: Bitboard, rooks: Bitboard, cannons: Bitboard) -> Bitboard {
    let k = sq.index();
    let mut att = Bitboard::EMPTY;
    for s in LINES[k] & rooks {
        if (BETWEEN[k][s.index()] & occ).is_empty() {
            att |= Bitboard::from_square(s);
        }
    }
    for s in LINES[k] & cannons {
        if (BETWEEN[k][s.index()] & occ).count() == 1 {
            att |= Bitboard::from_square(s);
        }
    }
    att
}

/// Per square: its rank and file, plus the squares at the given (file, rank) offsets.
const fn lines_and_offsets(offsets: &[(i32, i32)]) -> [Bitboard; 90] {
    let mut t = build_lines();
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < offsets.len() {
            let (df, dr) = offsets[i];
            t[sq] = Bitboard(t[sq].0 | sq_bit(f + df, r + dr));
            i += 1;
        }
        sq += 1;
    }
    t
}

/// `DISCOVERY[k]`: the squares a piece may leave to uncover an attack on a king at `k`
/// (its rank and file for chariots, cannons and the facing king; its diagonal neighbours,
/// the legs of horses that attack it). `gives_check` skips the discovered-check work for
/// any other move (a piece arriving off `k`'s lines cannot uncover anything either).
pub static DISCOVERY: [Bitboard; 90] = lines_and_offsets(&DIAG);

/// `CHECK_ZONE[k]`: the squares from which some piece attacks a king at `k` on an open
/// board (its rank and file for chariots and cannons, the horse jumps, the orthogonal
/// neighbours for soldiers). A move whose destination is outside and whose origin is
/// outside [`DISCOVERY`] cannot give check.
pub static CHECK_ZONE: [Bitboard; 90] = lines_and_offsets(&[
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (-2, 1),
    (2, -1),
    (-2, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
]);

/// `AHEAD[color][sq]`: the points strictly in front of `sq` (towards the enemy) on its
/// file, for `color`'s king (the evaluation's open king file), without 128-bit shifts.
pub static AHEAD: [[Bitboard; 90]; 2] = {
    let mut t = [[Bitboard::EMPTY; 90]; 2];
    let mut sq = 0;
    while sq < 90 {
        let file = FILES[sq % 9].0;
        t[0][sq] = Bitboard(file & (!0u128 << (sq + 1)));
        t[1][sq] = Bitboard(file & ((1u128 << sq) - 1));
        sq += 1;
    }
    t
};

/// `BETWEEN_BITS[a][b]`: the bits strictly between positions `a` and `b` of a rank word
/// (indexed by file) or a file word (indexed by rank): [`BETWEEN`] for the occupancy
/// words of [`chariot_attacks`] and [`cannon_captures`].
pub static BETWEEN_BITS: [[u16; 10]; 10] = {
    let mut t = [[0u16; 10]; 10];
    let mut a = 0;
    while a < 10 {
        let mut b = 0;
        while b < 10 {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let mut i = lo + 1;
            while i < hi {
                t[a][b] |= 1 << i;
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn set(list: &[&str]) -> Bitboard {
        list.iter().fold(Bitboard::EMPTY, |b, s| b.with(sq(s)))
    }

    #[test]
    fn horse_legs_block() {
        let occ = set(&["b1"]);
        // Horse on b0: leg b1 blocked; a1? leg c0 free → d1; leg a0 free → no targets (edge).
        assert_eq!(horse_attacks(sq("b0"), occ), set(&["d1"]));
        assert_eq!(
            horse_attacks(sq("b0"), Bitboard::EMPTY),
            set(&["a2", "c2", "d1"])
        );
    }

    #[test]
    fn horse_attackers_match_forward_table() {
        // For every square pair and several occupancies, "h attacks t" must agree both ways.
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard(
                (seed as u128 | (seed.rotate_left(23) as u128) << 64)
                    & (crate::xiangqi::bitboard::BOARD_MASK),
            );
            for t in 0..90u8 {
                let t = Square::new(t).unwrap();
                let attackers = horse_attackers(t, occ);
                for h in 0..90u8 {
                    let h = Square::new(h).unwrap();
                    assert_eq!(horse_attacks(h, occ).has(t), attackers.has(h), "{h} -> {t}");
                }
            }
        }
    }

    #[test]
    fn elephant_eye_and_river() {
        assert_eq!(
            elephant_attacks(sq("c0"), Bitboard::EMPTY),
            set(&["a2", "e2"])
        );
        assert_eq!(elephant_attacks(sq("c0"), set(&["d1"])), set(&["a2"]));
        // From c4 it may not cross to e6/a6.
        assert_eq!(
            elephant_attacks(sq("c4"), Bitboard::EMPTY),
            set(&["a2", "e2"])
        );
    }

    #[test]
    fn sliders_on_rank_and_file() {
        let occ = set(&["e2", "e5", "e7", "b2", "h2"]);
        let e2 = sq("e2");
        let fo = file_occupancy(occ, 4);
        assert_eq!(
            chariot_attacks(e2, occ, fo),
            set(&["e0", "e1", "e3", "e4", "e5", "c2", "d2", "b2", "f2", "g2", "h2"])
        );
        assert_eq!(cannon_captures(e2, occ, fo), set(&["e7"]));
    }

    #[test]
    fn soldiers_move_sideways_after_the_river() {
        assert_eq!(soldier_attacks(Color::Red, sq("e3")), set(&["e4"]));
        assert_eq!(
            soldier_attacks(Color::Red, sq("e5")),
            set(&["e6", "d5", "f5"])
        );
        assert_eq!(soldier_attacks(Color::Black, sq("e5")), set(&["e4"]));
        assert_eq!(soldier_attacks(Color::Black, sq("a4")), set(&["a3", "b4"]));
        assert_eq!(soldier_attacks(Color::Red, sq("a9")), set(&["b9"]));
        assert!(SOLDIER_ATTACKERS[0][sq("e6").index()].has(sq("e5")));
    }

    #[test]
    fn king_and_advisor_stay_in_palace() {
        assert_eq!(KING_STEPS[sq("d0").index()], set(&["e0", "d1"]));
        assert_eq!(
            ADVISOR_STEPS[sq("e8").index()],
            set(&["d9", "f9", "d7", "f7"])
        );
        assert_eq!(
            BETWEEN[sq("e0").index()][sq("e3").index()],
            set(&["e1", "e2"])
        );
        assert!(BETWEEN[sq("e0").index()][sq("f1").index()].is_empty());
    }

    #[test]
    fn horse_tables_match_attack_tables() {
        for sq in 0..90 {
            let mut legs = Bitboard::EMPTY;
            for (k, slot) in HORSE_MOVES[sq].iter().enumerate() {
                let leg = HORSE_LEG_SQUARES[sq][k] as usize;
                if slot.block < 90 {
                    assert_eq!(leg, slot.block as usize);
                } else {
                    assert_eq!(leg, sq);
                    assert!(slot.targets.is_empty());
                }
                if slot.targets.any() {
                    legs |= slot.mask;
                }
            }
            assert_eq!(HORSE_LEGS[sq], legs, "{sq}");
        }
    }
}
