//! Which game plays which opening with which colours.
//!
//! Openings come from an EPD/FEN file, one position a line (`#` comments and blank lines
//! skipped, EPD operations after the fields ignored, positions the referee refuses
//! skipped with a warning), or the start position. Games come in pairs: opening `i` is
//! played twice with colours swapped, game `2i+1` with engine A as Red, game `2i+2` with
//! engine B as Red; more games than twice the openings cycle through the list. With
//! `--colours a-to-move` each opening is played once, engine A on the side to move (test
//! positions whose point is one side's task: a table win to convert, a draw to hold).
//! `--shuffle --seed S` shuffles the list (Fisher-Yates driven by xoshiro256++ seeded with
//! S: deterministic, but not the order Python's `random.shuffle` gives), then
//! `--opening-offset K` rotates it to start at the K-th.

use super::game::Seat;
use super::referee::Variant;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Reads the openings of `path` for `variant`; `warn` hears about every line skipped.
pub fn load_openings(
    path: &str,
    variant: Variant,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("openings {path}: {e}"))?;
    Ok(parse_openings(&text, path, variant, warn))
}

/// The openings of a file's text (see [`load_openings`]).
pub fn parse_openings(
    text: &str,
    path: &str,
    variant: Variant,
    warn: &mut dyn FnMut(String),
) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let s = line.trim();
        if s.is_empty() || s.starts_with('#') {
            continue;
        }
        match variant.referee(s) {
            Ok(r) => out.push(r.start_fen().to_string()),
            Err(e) => warn(format!("openings {path}:{} skipped: {e}", n + 1)),
        }
    }
    out
}

/// Shuffles `openings` deterministically for `seed`.
pub fn shuffle(openings: &mut [String], seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for i in (1..openings.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        openings.swap(i, j);
    }
}

/// Rotates `openings` to start at `offset` (modulo their number).
pub fn rotate(openings: &mut [String], offset: usize) {
    if !openings.is_empty() {
        let k = offset % openings.len();
        openings.rotate_left(k);
    }
}

/// How the engines' colours are chosen for each opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// Each opening twice, colours swapped (the default).
    Pairs,
    /// Each opening once, engine A on the side to move.
    AToMove,
}

impl std::str::FromStr for Colours {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pairs" => Ok(Colours::Pairs),
            "a-to-move" => Ok(Colours::AToMove),
            _ => Err(format!("--colours {s}: expected pairs or a-to-move")),
        }
    }
}

/// Whether Black (the second player) is to move in `fen` (its second field is `b`).
fn black_to_move(fen: &str) -> bool {
    fen.split_whitespace().nth(1) == Some("b")
}

/// Game `index` (from 0) over `openings`: the opening it plays and the engine that is Red.
pub fn game_plan(index: usize, openings: &[String], colours: Colours) -> (usize, Seat) {
    match colours {
        Colours::Pairs => pair_plan(index, openings.len()),
        Colours::AToMove => {
            let opening = index % openings.len().max(1);
            let a_black = openings.get(opening).is_some_and(|f| black_to_move(f));
            (opening, if a_black { Seat::B } else { Seat::A })
        }
    }
}

/// Game `index` when openings come in pairs.
fn pair_plan(index: usize, openings: usize) -> (usize, Seat) {
    let opening = (index / 2) % openings.max(1);
    let red = if index.is_multiple_of(2) {
        Seat::A
    } else {
        Seat::B
    };
    (opening, red)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_cycle() {
        let three: Vec<String> = (0..3).map(|_| "9/9/9/9/9/9/9/9/9/4K4 w".into()).collect();
        let plan = |i| game_plan(i, &three, Colours::Pairs);
        assert_eq!(plan(0), (0, Seat::A));
        assert_eq!(plan(1), (0, Seat::B));
        assert_eq!(plan(2), (1, Seat::A));
        assert_eq!(plan(7), (0, Seat::B));
    }

    #[test]
    fn a_to_move_plays_each_opening_once_with_a_on_the_move() {
        let ops: Vec<String> = vec![
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(),
            "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1".into(),
        ];
        let plan = |i| game_plan(i, &ops, Colours::AToMove);
        assert_eq!(plan(0), (0, Seat::A));
        assert_eq!(plan(1), (1, Seat::B));
        assert_eq!(plan(2), (0, Seat::A));
        assert_eq!("a-to-move".parse::<Colours>(), Ok(Colours::AToMove));
        assert!("both".parse::<Colours>().is_err());
    }

    #[test]
    fn openings_are_read_shuffled_and_rotated() {
        let text = "# comment\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
            \n\
            not a fen\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1 c0 \"x\";\n";
        let mut warnings = Vec::new();
        let mut ops = parse_openings(text, "t.epd", Variant::Xiangqi, &mut |w| warnings.push(w));
        assert_eq!(ops.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("t.epd:4"), "{}", warnings[0]);
        assert!(ops[1].ends_with(" b - - 1 1"), "{}", ops[1]);
        let before = ops.clone();
        rotate(&mut ops, 3);
        assert_eq!(ops, [before[1].clone(), before[0].clone()]);
        let mut many: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut again = many.clone();
        shuffle(&mut many, 7);
        shuffle(&mut again, 7);
        assert_eq!(many, again);
        assert_ne!(many, (0..20).map(|i| i.to_string()).collect::<Vec<_>>());
    }
}
