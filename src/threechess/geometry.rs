//! The board's geometry as unit steps, and every move table built from it at compile time.
//!
//! A move is a sequence of unit steps (FORWARD, BACKWARD, LEFT, RIGHT) relative to the
//! section the piece stands in; FORWARD from rank 4 crosses the centre into another
//! section. Once a step sequence has crossed, its later steps are mirrored (F↔B, L↔R),
//! so "the same direction" heads away from the centre. A pawn also mirrors every step it
//! takes while it stands in another colour's section (it heads for that rank 1).
//!
//! Sliders repeat their step sequence; each repetition starts mirrored when the square it
//! starts from lies in another section than the slider's start. Both orders of a
//! diagonal (`{F,L}` and `{L,F}`) are separate step sequences: they reach the same
//! squares except across the centre, where a diagonal forks into two rays. The tables:
//!
//! * [`RAYS`]: per square, the 12 queen step sequences repeated on an empty board (the
//!   first 8 are the bishop's, the last 4 the rook's). A slider walks a ray up to the
//!   first occupied square; several rays may reach one square (one move).
//! * [`KNIGHT_TARGETS`], [`KING_TARGETS`]: the squares one application of the step
//!   sequences reaches, as sets (duplicates merged).
//! * [`PAWN_PUSH`], [`PAWN_DOUBLE`], [`PAWN_CAPTURES`]: per pawn colour.
//! * [`KNIGHT_STEP`], [`PAWN_STEP`]: the end of each single step sequence, in the
//!   reference's order, for the reference agents (which choose a step sequence at random).

use super::types::{Player, Square, Squares};

const F: u8 = 0;
const B: u8 = 1;
const L: u8 = 2;
const R: u8 = 3;
/// Padding in step sequences shorter than three steps.
const END: u8 = 255;

/// The queen's (and king's) 12 step sequences: 8 diagonal (the bishop's), 4 orthogonal
/// (the rook's), in the reference's order.
const QUEEN_STEPS: [[u8; 3]; 12] = [
    [F, L, END],
    [F, R, END],
    [L, F, END],
    [R, F, END],
    [B, L, END],
    [B, R, END],
    [L, B, END],
    [R, B, END],
    [F, END, END],
    [B, END, END],
    [L, END, END],
    [R, END, END],
];

/// The knight's 16 step sequences, in the reference's order.
const KNIGHT_STEPS: [[u8; 3]; 16] = [
    [F, F, L],
    [F, F, R],
    [F, L, L],
    [F, R, R],
    [B, B, L],
    [B, B, R],
    [B, L, L],
    [B, R, R],
    [L, L, F],
    [L, L, B],
    [L, F, F],
    [L, B, B],
    [R, R, F],
    [R, R, B],
    [R, F, F],
    [R, B, B],
];

/// The pawn's 6 step sequences, in the reference's order: push, double push, then the
/// four diagonal captures.
const PAWN_STEPS: [[u8; 3]; 6] = [
    [F, END, END],
    [F, F, END],
    [F, L, END],
    [L, F, END],
    [F, R, END],
    [R, F, END],
];

/// Index of the first rook step sequence in [`RAYS`] (bishops use `0..ROOK_RAYS`).
pub const ROOK_RAYS: usize = 8;
/// Longest ray (squares).
pub const RAY_MAX: usize = 10;
/// Marks "no square" in the `u8` tables.
pub const NONE: u8 = 255;

/// The neighbour of square `sq` one unit step in direction `d`, relative to its section.
const fn neighbour(sq: u8, d: u8) -> u8 {
    let section = sq / 32;
    let rank = (sq % 32) / 8;
    let file = sq % 8;
    match d {
        F => {
            if rank < 3 {
                sq + 8
            } else if file < 4 {
                ((section + 1) % 3) * 32 + 3 * 8 + (7 - file)
            } else {
                ((section + 2) % 3) * 32 + 3 * 8 + (7 - file)
            }
        }
        B => {
            if rank == 0 {
                NONE
            } else {
                sq - 8
            }
        }
        L => {
            if file == 0 {
                NONE
            } else {
                sq - 1
            }
        }
        _ => {
            if file == 7 {
                NONE
            } else {
                sq + 1
            }
        }
    }
}

/// Applies one step sequence from `start`. `pawn` is the colour of a moving pawn (its
/// steps mirror while it stands in another colour's section), `None` for other pieces;
/// `mirrored` says whether the sequence starts mirrored. `NONE` when it leaves the board.
const fn step(start: u8, steps: [u8; 3], pawn: Option<u8>, mirrored: bool) -> u8 {
    let mut reverse = mirrored;
    let mut cur = start;
    let mut i = 0;
    while i < 3 && steps[i] != END {
        let mut d = steps[i];
        let pawn_abroad = match pawn {
            Some(colour) => colour != cur / 32,
            None => false,
        };
        if pawn_abroad || reverse {
            d ^= 1; // F↔B, L↔R
        }
        let next = neighbour(cur, d);
        if next == NONE {
            return NONE;
        }
        if next / 32 != cur / 32 {
            reverse = true;
        }
        cur = next;
        i += 1;
    }
    cur
}

type RayTable = [[[u8; RAY_MAX]; 12]; 96];

const fn build_rays() -> (RayTable, [[u8; 12]; 96]) {
    let mut rays = [[[NONE; RAY_MAX]; 12]; 96];
    let mut lens = [[0u8; 12]; 96];
    let mut sq = 0;
    while sq < 96 {
        let start = sq as u8;
        let mut k = 0;
        while k < 12 {
            let mut n = 0;
            let mut cur = step(start, QUEEN_STEPS[k], None, false);
            // The ray ends off the board or on its own start (occupied by the slider).
            while cur != NONE && cur != start {
                assert!(n < RAY_MAX, "a ray is longer than RAY_MAX");
                rays[sq][k][n] = cur;
                n += 1;
                cur = step(cur, QUEEN_STEPS[k], None, cur / 32 != start / 32);
            }
            lens[sq][k] = n as u8;
            k += 1;
        }
        sq += 1;
    }
    (rays, lens)
}

const RAY_TABLES: (RayTable, [[u8; 12]; 96]) = build_rays();

/// Per square, the 12 queen rays (squares in order, `NONE`-padded): `0..8` diagonal,
/// `8..12` orthogonal.
pub static RAYS: RayTable = RAY_TABLES.0;
/// Length of each ray in [`RAYS`].
pub static RAY_LEN: [[u8; 12]; 96] = RAY_TABLES.1;

const fn ray_masks() -> [[Squares; 12]; 96] {
    let mut out = [[0u128; 12]; 96];
    let mut sq = 0;
    while sq < 96 {
        let mut k = 0;
        while k < 12 {
            let mut i = 0;
            while i < RAY_TABLES.1[sq][k] as usize {
                out[sq][k] |= 1u128 << RAY_TABLES.0[sq][k][i];
                i += 1;
            }
            k += 1;
        }
        sq += 1;
    }
    out
}

/// The squares of each ray in [`RAYS`] as a set.
pub static RAY_MASK: [[Squares; 12]; 96] = ray_masks();

const fn targets_of(steps: &[[u8; 3]], pawn: Option<u8>) -> [Squares; 96] {
    let mut out = [0u128; 96];
    let mut sq = 0;
    while sq < 96 {
        let mut k = 0;
        while k < steps.len() {
            let t = step(sq as u8, steps[k], pawn, false);
            if t != NONE && t != sq as u8 {
                out[sq] |= 1u128 << t;
            }
            k += 1;
        }
        sq += 1;
    }
    out
}

/// Squares a knight reaches from each square.
pub static KNIGHT_TARGETS: [Squares; 96] = targets_of(&KNIGHT_STEPS, None);
/// Squares a king reaches from each square by a step (castling aside).
pub static KING_TARGETS: [Squares; 96] = targets_of(&QUEEN_STEPS, None);

/// Per pawn colour: push targets, double-push targets, capture sets.
type PawnTables = ([[u8; 96]; 3], [[u8; 96]; 3], [[Squares; 96]; 3]);

const fn pawn_tables() -> PawnTables {
    let mut push = [[NONE; 96]; 3];
    let mut double = [[NONE; 96]; 3];
    let mut captures = [[0u128; 96]; 3];
    let capture_steps = [PAWN_STEPS[2], PAWN_STEPS[3], PAWN_STEPS[4], PAWN_STEPS[5]];
    let mut c = 0;
    while c < 3 {
        let colour = Some(c as u8);
        captures[c] = targets_of(&capture_steps, colour);
        let mut sq = 0;
        while sq < 96 {
            push[c][sq] = step(sq as u8, PAWN_STEPS[0], colour, false);
            // Two steps only from the pawn's own rank 2.
            if sq / 32 == c && (sq % 32) / 8 == 1 {
                double[c][sq] = step(sq as u8, PAWN_STEPS[1], colour, false);
            }
            sq += 1;
        }
        c += 1;
    }
    (push, double, captures)
}

const PAWN_TABLES: PawnTables = pawn_tables();

/// Per pawn colour and square: the one-step push target (`NONE` off the board).
pub static PAWN_PUSH: [[u8; 96]; 3] = PAWN_TABLES.0;
/// Per pawn colour and square: the two-step target from the pawn's own rank 2 (else
/// `NONE`); the square passed over is the push target.
pub static PAWN_DOUBLE: [[u8; 96]; 3] = PAWN_TABLES.1;
/// Per pawn colour and square: the squares it captures on (diagonally forward, forking
/// at the centre).
pub static PAWN_CAPTURES: [[Squares; 96]; 3] = PAWN_TABLES.2;

const fn single_steps<const N: usize>(steps: &[[u8; 3]; N], pawn: Option<u8>) -> [[u8; N]; 96] {
    let mut out = [[NONE; N]; 96];
    let mut sq = 0;
    while sq < 96 {
        let mut k = 0;
        while k < N {
            out[sq][k] = step(sq as u8, steps[k], pawn, false);
            k += 1;
        }
        sq += 1;
    }
    out
}

/// Inverts a target table: for each square, the squares whose targets include it.
const fn invert(targets: &[Squares; 96]) -> [Squares; 96] {
    let mut out = [0u128; 96];
    let mut from = 0;
    while from < 96 {
        let mut to = 0;
        while to < 96 {
            if targets[from] & (1u128 << to) != 0 {
                out[to] |= 1u128 << from;
            }
            to += 1;
        }
        from += 1;
    }
    out
}

/// The union of a square's rays `first..last` (an empty board's slider reach).
const fn reach_on_empty_board(first: usize, last: usize) -> [Squares; 96] {
    let masks = ray_masks();
    let mut out = [0u128; 96];
    let mut sq = 0;
    while sq < 96 {
        let mut k = first;
        while k < last {
            out[sq] |= masks[sq][k];
            k += 1;
        }
        sq += 1;
    }
    out
}

/// For each square, the squares a knight attacks it from.
pub static KNIGHT_FROM: [Squares; 96] = invert(&targets_of(&KNIGHT_STEPS, None));
/// For each square, the squares a king attacks it from.
pub static KING_FROM: [Squares; 96] = invert(&targets_of(&QUEEN_STEPS, None));
/// For each square and pawn colour, the squares such a pawn attacks it from.
pub static PAWN_FROM: [[Squares; 96]; 3] = [
    invert(&PAWN_TABLES.2[0]),
    invert(&PAWN_TABLES.2[1]),
    invert(&PAWN_TABLES.2[2]),
];
/// For each square, the squares a bishop attacks it from on an empty board.
pub static BISHOP_FROM: [Squares; 96] = invert(&reach_on_empty_board(0, ROOK_RAYS));
/// For each square, the squares a rook attacks it from on an empty board.
pub static ROOK_FROM: [Squares; 96] = invert(&reach_on_empty_board(ROOK_RAYS, 12));

/// The end of each knight step sequence from each square (`NONE`: off the board).
pub static KNIGHT_STEP: [[u8; 16]; 96] = single_steps(&KNIGHT_STEPS, None);
/// Per pawn colour, the end of each pawn step sequence from each square.
pub static PAWN_STEP: [[[u8; 6]; 96]; 3] = [
    single_steps(&PAWN_STEPS, Some(0)),
    single_steps(&PAWN_STEPS, Some(1)),
    single_steps(&PAWN_STEPS, Some(2)),
];

/// The square with index `i` from a table entry (`None` for [`NONE`]).
#[inline(always)]
pub fn square(i: u8) -> Option<Square> {
    Square::new(i)
}

/// A king's own E1, where castling starts.
#[inline(always)]
pub const fn castle_from(p: Player) -> Square {
    Square::at(p, 0, 4)
}

/// The two castlings of a player: (king's target, rook's corner, rook's target, squares
/// that must be empty), short (towards H) first.
pub fn castlings(p: Player) -> [(Square, Square, Square, Squares); 2] {
    let sq = |file| Square::at(p, 0, file);
    [
        (sq(6), sq(7), sq(5), sq(5).bit() | sq(6).bit()),
        (sq(2), sq(0), sq(3), sq(1).bit() | sq(2).bit() | sq(3).bit()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(i: u8) -> String {
        Square::new(i).unwrap().to_string()
    }

    #[test]
    fn crossing_the_centre_matches_the_rules_text() {
        // `BD4` FORWARD is `GE4` and back; the other pairs of docs/games.md (ThreeChess).
        for (a, b) in [
            ("BD4", "GE4"),
            ("BE4", "RD4"),
            ("BA4", "GH4"),
            ("BH4", "RA4"),
            ("GA4", "RH4"),
            ("GD4", "RE4"),
        ] {
            let (sa, sb) = (Square::parse(a).unwrap(), Square::parse(b).unwrap());
            assert_eq!(name(neighbour(sa.index() as u8, F)), b);
            assert_eq!(name(neighbour(sb.index() as u8, F)), a);
        }
    }

    #[test]
    fn rays_never_repeat_a_square() {
        for sq in 0..96 {
            for k in 0..12 {
                let ray = &RAYS[sq][k][..RAY_LEN[sq][k] as usize];
                for (i, a) in ray.iter().enumerate() {
                    assert!(!ray[i + 1..].contains(a), "{} ray {k}", name(sq as u8));
                    assert_ne!(*a as usize, sq);
                }
                // Every ray runs to the edge of the board: none was cut short by coming
                // back to its start (the reference would walk on through it).
                let (last, n) = match ray.last() {
                    Some(&t) => (t, ray.len()),
                    None => (sq as u8, 0),
                };
                let mirrored = n > 0 && last / 32 != sq as u8 / 32;
                assert_eq!(
                    step(last, QUEEN_STEPS[k], None, mirrored),
                    NONE,
                    "{}",
                    name(sq as u8)
                );
            }
        }
    }
}
