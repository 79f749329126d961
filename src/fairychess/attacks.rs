//! Attack sets: tables for the leapers (king, knight, squire, the combatant's two step
//! sets) built at compile time, and magic bitboards for the sliders (rook, bishop).
//!
//! Bitboards are plain `u64`, bit `i` = square `i` (a1 = bit 0, h8 = bit 63).
//!
//! The slider magics are found at first use by a seeded random search (the same numbers
//! in every run; a few milliseconds), then each lookup is a mask, a multiply, a shift
//! and one load.

use super::types::Square;
use once_cell::sync::Lazy;

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index(sq))
    }
}

/// The lowest square of a non-empty bitboard.
#[inline(always)]
pub fn first_square(bb: u64) -> Option<Square> {
    if bb == 0 {
        None
    } else {
        Some(Square::from_index(bb.trailing_zeros() as usize))
    }
}

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const ORTHOGONAL_STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL_STEPS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// King steps (8 neighbours).
pub static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
]);

/// Knight leaps.
pub static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// Squire leaps: every square at Manhattan distance 2 (FD).
pub static SQUIRE: [u64; 64] = leaper_table(&[
    (2, 0),
    (-2, 0),
    (0, 2),
    (0, -2),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
]);

/// Combatant moves: one square orthogonally (to an empty square only).
pub static COMBATANT_MOVES: [u64; 64] = leaper_table(&ORTHOGONAL_STEPS);

/// Combatant captures: one square diagonally (an enemy piece only). The same for both
/// colours, so it is also the set of squares a combatant attacks `sq` from.
pub static COMBATANT_CAPTURES: [u64; 64] = leaper_table(&DIAGONAL_STEPS);

/// Slider attacks from `sq` along `dirs` with blockers `occ`, the slow way (table
/// building and tests).
pub fn slider_attacks_slow(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Rook attacks the slow way.
pub fn rook_attacks_slow(sq: Square, occ: u64) -> u64 {
    slider_attacks_slow(sq.index(), occ, &ORTHOGONAL_STEPS)
}

/// Bishop attacks the slow way.
pub fn bishop_attacks_slow(sq: Square, occ: u64) -> u64 {
    slider_attacks_slow(sq.index(), occ, &DIAGONAL_STEPS)
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occ: u64) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

struct Sliders {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    table: Vec<u64>,
}

/// The blockers that matter for a slider on `sq`: its rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

/// Rook magic numbers, per square (found by `find_magics`, see the tests).
const ROOK_MAGICS: [u64; 64] = [
    0x2080_0020_4000_8014,
    0x2240_0240_6001_5000,
    0x0680_0860_0080_7002,
    0x2900_0823_0004_1000,
    0x0200_0410_0820_0200,
    0x4080_0200_8004_0001,
    0x2100_0402_0000_8100,
    0x0100_0241_8200_2b00,
    0x0004_8011_8460_4000,
    0x080c_4010_0840_2000,
    0x0002_0010_8244_2204,
    0x0081_0021_0008_1002,
    0x0004_8080_0800_0400,
    0x8082_8080_0400_0200,
    0x080a_0044_0802_0001,
    0x2002_0002_0100_a044,
    0x4020_0080_8000_4000,
    0x0020_8300_2440_0102,
    0x0a21_4500_2003_0012,
    0x4008_0280_1000_8008,
    0x0004_0080_8004_0800,
    0x0084_0080_0200_0480,
    0x0000_4400_1042_6108,
    0x4098_0200_0081_0044,
    0x0980_4002_8003_8020,
    0x4840_2000_4000_5008,
    0x1010_0800_2004_0021,
    0x0000_0800_8010_0080,
    0x1098_0004_0400_4020,
    0x0800_0400_8002_0080,
    0x0008_8104_0008_5042,
    0x1090_940a_0010_9841,
    0x0080_0020_0a40_03c0,
    0x00c0_2000_4040_1000,
    0x0010_4204_1200_2280,
    0x0088_0010_0101_0020,
    0x2200_8008_0080_0400,
    0x1254_0080_0480_0200,
    0x0002_0802_0400_1001,
    0x1090_4041_0200_0084,
    0x4828_8030_4000_8004,
    0x0110_0040_2002_4010,
    0x2002_0040_8022_0010,
    0x9320_1001_0409_0020,
    0x4000_0800_0501_0010,
    0x0909_1040_0408_0120,
    0x0000_0110_0204_0008,
    0x0140_9080_4122_0004,
    0x0c59_4002_2480_0080,
    0x4200_2000_4000_8080,
    0x0060_8212_0040_2a00,
    0x2201_0010_0020_0900,
    0x5040_0800_0411_0100,
    0x1182_0400_8002_0080,
    0x0000_4102_1038_0400,
    0x1000_2080_4904_0200,
    0x0100_8001_0025_4255,
    0x0106_002c_8100_4012,
    0x0000_8020_4008_1202,
    0x0001_0010_0006_2009,
    0x0091_0008_0014_1013,
    0x0101_0004_0008_0203,
    0x0000_2088_1210_0104,
    0x0040_0080_c10c_0222,
];

/// Bishop magic numbers, per square.
const BISHOP_MAGICS: [u64; 64] = [
    0x3110_2000_8080_9100,
    0x3402_2401_1401_0107,
    0x8052_0082_0201_0000,
    0x0004_4040_8020_1010,
    0x0214_1421_3011_0261,
    0x0090_9004_2080_c400,
    0x0812_8804_3024_0400,
    0x0802_0622_0802_2820,
    0x0800_1050_0109_6406,
    0x0800_2890_8880_8100,
    0x000c_0434_0c10_4200,
    0x0084_3820_4042_9420,
    0x0002_2110_4108_4c00,
    0x1008_c104_2004_080a,
    0x4330_0108_0110_0800,
    0x0200_4140_7208_2004,
    0x0048_8020_0810_4488,
    0x0010_0844_49a8_1100,
    0x0002_2024_0400_1200,
    0x4118_2084_0400_1080,
    0x1002_0304_1202_1010,
    0x0202_0293_4050_0400,
    0x000b_0080_4170_1008,
    0x000e_0454_2084_1441,
    0x0010_0800_1020_e102,
    0x4008_c811_3510_0152,
    0x000a_a801_0400_4402,
    0x0021_0800_1008_2020,
    0x80a1_0011_0100_4000,
    0x0008_2600_9420_8400,
    0x0024_0400_0088_9401,
    0x0001_0042_0202_1085,
    0x2004_2020_1406_0400,
    0x0002_2290_0020_0104,
    0x44c2_0441_0490_0108,
    0x2824_4008_2082_0200,
    0x4068_0100_1014_0204,
    0x0904_1401_2204_1000,
    0x0001_0200_8042_1800,
    0x2000_8400_4000_8a04,
    0x9004_0442_0804_4002,
    0x2402_94b0_1801_5000,
    0x80c0_4200_4c02_4040,
    0x0000_0020_1100_1800,
    0x0020_1101_2400_0200,
    0x0008_1118_1020_0600,
    0x0004_0128_0200_2104,
    0x0004_0c00_9a02_0128,
    0x0484_0201_1108_0102,
    0x0422_0602_1104_001b,
    0x0404_0022_2110_1080,
    0x2048_0002_421a_0004,
    0x3202_1040_0d0b_001a,
    0x0000_11b2_1001_0000,
    0x8422_2001_020c_81a0,
    0x0004_8840_8106_0400,
    0x0002_008a_0822_0202,
    0x5102_0441_0801_1000,
    0x0008_2008_8404_c80c,
    0x0d00_0040_020a_0200,
    0x8420_2000_2020_4108,
    0x0082_8020_0401_0204,
    0x0000_4604_2818_2102,
    0x0018_0801_1402_2209,
];

/// Fills `table` with the attack sets of one slider for the given magics; `None` if a
/// magic maps two different attack sets to one slot.
fn fill_tables(
    dirs: &[(i8, i8); 4],
    numbers: &[u64; 64],
    table: &mut Vec<u64>,
) -> Option<[Magic; 64]> {
    let mut magics = [Magic::default(); 64];
    for (sq, magic) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        *magic = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset: table.len(),
        };
        table.resize(table.len() + (1 << bits), 0);
        // Every subset of the mask (carry-rippler).
        let mut sub = 0u64;
        loop {
            let att = slider_attacks_slow(sq, sub, dirs);
            let slot = &mut table[magic.index(sub)];
            if *slot != 0 && *slot != att {
                return None;
            }
            *slot = att;
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
    }
    Some(magics)
}

static SLIDERS: Lazy<Sliders> = Lazy::new(|| {
    let mut table = Vec::with_capacity(102_400 + 5_248);
    let rook = fill_tables(&ORTHOGONAL_STEPS, &ROOK_MAGICS, &mut table);
    let bishop = fill_tables(&DIAGONAL_STEPS, &BISHOP_MAGICS, &mut table);
    match (rook, bishop) {
        (Some(rook), Some(bishop)) => Sliders {
            rook,
            bishop,
            table,
        },
        // The constants are checked by a test; this cannot happen in a tested build.
        _ => panic!("the slider magic numbers collide"),
    }
});

/// Builds the slider tables now (otherwise the first lookup does).
pub fn init() {
    Lazy::force(&SLIDERS);
}

/// Squares a rook on `sq` attacks with blockers `occ` (the first blocker included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u64) -> u64 {
    let s = &*SLIDERS;
    s.table[s.rook[sq.index()].index(occ)]
}

/// Squares a bishop on `sq` attacks with blockers `occ` (the first blocker included).
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: u64) -> u64 {
    let s = &*SLIDERS;
    s.table[s.bishop[sq.index()].index(occ)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_the_slow_rays() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & (x >> 3) & (x << 5);
            let sq = Square::from_index((x >> 58) as usize);
            assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ));
            assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ));
        }
    }

    /// How the magic numbers were found: a seeded random search for sparse numbers that
    /// map every blocker subset of a square to a slot without destructive collisions.
    /// `cargo test --release --lib find_magics -- --ignored --nocapture` prints tables.
    #[test]
    #[ignore]
    fn find_magics() {
        let mut rng = 0x6661_6972_7963_6873u64; // "fairychs"
        let mut next = || {
            rng ^= rng >> 12;
            rng ^= rng << 25;
            rng ^= rng >> 27;
            rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        for (name, dirs) in [("ROOK", ORTHOGONAL_STEPS), ("BISHOP", DIAGONAL_STEPS)] {
            let mut found = [0u64; 64];
            for (sq, number) in found.iter_mut().enumerate() {
                let mask = relevant_mask(sq, &dirs);
                let bits = mask.count_ones();
                'search: loop {
                    let m = next() & next() & next();
                    if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                        continue;
                    }
                    let mut slots = vec![0u64; 1 << bits];
                    let mut sub = 0u64;
                    loop {
                        let att = slider_attacks_slow(sq, sub, &dirs);
                        let slot = &mut slots[(sub.wrapping_mul(m) >> (64 - bits)) as usize];
                        if *slot != 0 && *slot != att {
                            continue 'search;
                        }
                        *slot = att;
                        sub = sub.wrapping_sub(mask) & mask;
                        if sub == 0 {
                            break;
                        }
                    }
                    *number = m;
                    break;
                }
            }
            println!("{name}_MAGICS: {found:#018x?}");
        }
    }

    #[test]
    fn leaper_counts() {
        let sq = |s: &str| Square::parse(s).unwrap().index();
        assert_eq!(KING[sq("a1")].count_ones(), 3);
        assert_eq!(KING[sq("e4")].count_ones(), 8);
        assert_eq!(KNIGHT[sq("a1")].count_ones(), 2);
        assert_eq!(KNIGHT[sq("d4")].count_ones(), 8);
        // The squire: d4 reaches b4 f4 d2 d6 c3 c5 e3 e5.
        let d4: Vec<String> = Squares(SQUIRE[sq("d4")]).map(|s| s.to_string()).collect();
        assert_eq!(d4, ["d2", "c3", "e3", "b4", "f4", "c5", "e5", "d6"]);
        assert_eq!(SQUIRE[sq("a1")].count_ones(), 3);
        assert_eq!(COMBATANT_MOVES[sq("a1")].count_ones(), 2);
        assert_eq!(COMBATANT_CAPTURES[sq("h8")], 1u64 << sq("g7"));
    }
}
