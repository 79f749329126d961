//! FEN reading: every `FenError` variant from a hand-written bad FEN (exact variant, and a
//! `Display` text naming the problem), the accepted alternative forms, and a fuzz loop of
//! mutated FENs that must never panic and, when accepted, must give a valid, consistent
//! position (checked against the independent oracle in `common`).

mod common;

use common::{reachable, Rng, SlowBoard};
use jiang::common::FenError;
use jiang::xiangqi::{Color, Piece, PieceKind, Position, START_FEN};
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The variant's name. Exhaustive on purpose: a new variant must be added to the tests.
fn variant(e: &FenError) -> &'static str {
    match e {
        FenError::Empty => "Empty",
        FenError::RankCount { .. } => "RankCount",
        FenError::RankLength { .. } => "RankLength",
        FenError::UnknownPiece(_) => "UnknownPiece",
        FenError::MissingKing(_) => "MissingKing",
        FenError::ExtraKing(_) => "ExtraKing",
        FenError::TooMany { .. } => "TooMany",
        FenError::ImpossibleSquare { .. } => "ImpossibleSquare",
        FenError::BadSide { .. } => "BadSide",
        FenError::OpponentInCheck => "OpponentInCheck",
        FenError::BadHalfmove { .. } => "BadHalfmove",
        FenError::BadFullmove { .. } => "BadFullmove",
        FenError::BadField(_) => "BadField",
        FenError::TrailingText(_) => "TrailingText",
        // Not produced by Xiangqi: other games' field counts and rules of their own.
        FenError::FieldCount { .. } | FenError::Game(_) => "other games",
    }
}

const ALL_VARIANTS: usize = 14;

/// (bad FEN, the exact error, a word its `Display` text must contain)
fn cases() -> Vec<(String, FenError, &'static str)> {
    const B: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let with_board = |ranks: [&str; 10], rest: &str| format!("{} {rest}", ranks.join("/"));
    let start: [&str; 10] = [
        "rnbakabnr",
        "9",
        "1c5c1",
        "p1p1p1p1p",
        "9",
        "9",
        "P1P1P1P1P",
        "1C5C1",
        "9",
        "RNBAKABNR",
    ];
    // The start position with rank `r` (0 = Red's back rank) replaced.
    let edit = |r: usize, text: &'static str| {
        let mut ranks = start;
        ranks[9 - r] = text;
        ranks
    };
    let edit2 = |r1: usize, t1: &'static str, r2: usize, t2: &'static str| {
        let mut ranks = start;
        ranks[9 - r1] = t1;
        ranks[9 - r2] = t2;
        ranks
    };
    vec![
        (String::new(), FenError::Empty, "empty"),
        ("  \t \n".to_string(), FenError::Empty, "empty"),
        (
            "9/9/9 w".to_string(),
            FenError::RankCount {
                found: 3,
                expected: 10,
            },
            "3",
        ),
        (
            format!("{B}/9 w"),
            FenError::RankCount {
                found: 11,
                expected: 10,
            },
            "11",
        ),
        (
            with_board(edit(0, "RNBAKABN"), "w"),
            FenError::RankLength {
                rank: 0,
                len: 8,
                expected: 9,
            },
            "rank 0",
        ),
        (
            with_board(edit(9, "rnbakabnrr"), "w"),
            FenError::RankLength {
                rank: 9,
                len: 10,
                expected: 9,
            },
            "rank 9",
        ),
        (
            with_board(edit(4, "55"), "w"),
            FenError::RankLength {
                rank: 4,
                len: 10,
                expected: 9,
            },
            "rank 4",
        ),
        (
            with_board(edit(4, "4x4"), "w"),
            FenError::UnknownPiece('x'),
            "'x'",
        ),
        (
            with_board(edit(4, "405"), "w"),
            FenError::UnknownPiece('0'),
            "'0'",
        ),
        (
            with_board(edit(4, "4帅4"), "w"),
            FenError::UnknownPiece('帅'),
            "帅",
        ),
        (
            with_board(edit(0, "RNBA1ABNR"), "w"),
            FenError::MissingKing("red"),
            "red",
        ),
        (
            with_board(edit(9, "rnba1abnr"), "w"),
            FenError::MissingKing("black"),
            "black",
        ),
        (
            with_board(edit(1, "4K4"), "w"),
            FenError::ExtraKing("red"),
            "red",
        ),
        (
            with_board(edit(8, "4k4"), "w"),
            FenError::ExtraKing("black"),
            "black",
        ),
        (
            with_board(edit(4, "R8"), "w"),
            FenError::TooMany {
                side: "red",
                letter: 'R',
                count: 3,
                max: 2,
            },
            "'R'",
        ),
        (
            with_board(edit(5, "p8"), "w"),
            FenError::TooMany {
                side: "black",
                letter: 'p',
                count: 6,
                max: 5,
            },
            "'p'",
        ),
        (
            // An elephant on e4 (it only ever stands on c0 g0 a2 e2 i2 c4 g4).
            with_board(edit2(0, "RN1AKABNR", 4, "4B4"), "w"),
            FenError::ImpossibleSquare {
                letter: 'B',
                square: "e4".into(),
            },
            "e4",
        ),
        (
            // A red soldier on b3: before the river soldiers stay on files a c e g i.
            with_board(edit(3, "PPP1P1P2"), "w"),
            FenError::ImpossibleSquare {
                letter: 'P',
                square: "b3".into(),
            },
            "b3",
        ),
        (
            // A black soldier behind its starting rank.
            "3k5/4p4/9/9/9/9/9/9/9/4K4 w".to_string(),
            FenError::ImpossibleSquare {
                letter: 'p',
                square: "e8".into(),
            },
            "e8",
        ),
        (
            // A king outside its palace.
            "3k5/9/9/9/9/9/9/9/9/K8 w".to_string(),
            FenError::ImpossibleSquare {
                letter: 'K',
                square: "a0".into(),
            },
            "a0",
        ),
        (
            // An advisor on the palace centre's orthogonal neighbour.
            "3k5/9/9/9/9/9/9/9/3A5/4K4 w".to_string(),
            FenError::ImpossibleSquare {
                letter: 'A',
                square: "d1".into(),
            },
            "d1",
        ),
        (
            format!("{B} x"),
            FenError::BadSide {
                found: "x".into(),
                expected: "w, r or b",
            },
            "'x'",
        ),
        (
            format!("{B} red"),
            FenError::BadSide {
                found: "red".into(),
                expected: "w, r or b",
            },
            "red",
        ),
        (
            // Red to move, but Black's king stands in the chariot's line.
            "4k4/9/9/9/9/9/9/9/9/3KR4 w".to_string(),
            FenError::OpponentInCheck,
            "check",
        ),
        (
            // Black to move while the kings face each other (flying general).
            "4k4/9/9/9/9/9/9/9/9/4K4 b".to_string(),
            FenError::OpponentInCheck,
            "check",
        ),
        (
            // A cannon with exactly one screen checks: Black to move, Red in check.
            "3k5/9/9/9/9/4c4/9/9/4A4/4K4 b".to_string(),
            FenError::OpponentInCheck,
            "check",
        ),
        (
            format!("{B} w - - 120 1"),
            FenError::BadHalfmove {
                text: "120".into(),
                max: 119,
            },
            "120",
        ),
        (
            format!("{B} w - - -1 1"),
            FenError::BadHalfmove {
                text: "-1".into(),
                max: 119,
            },
            "-1",
        ),
        (
            format!("{B} w - - ten 1"),
            FenError::BadHalfmove {
                text: "ten".into(),
                max: 119,
            },
            "ten",
        ),
        (
            format!("{B} w - - 0 x1"),
            FenError::BadFullmove {
                text: "x1".into(),
                max: 100_000,
            },
            "x1",
        ),
        (
            format!("{B} w - - 0 -3"),
            FenError::BadFullmove {
                text: "-3".into(),
                max: 100_000,
            },
            "-3",
        ),
        (
            format!("{B} w KQkq -"),
            FenError::BadField("KQkq".into()),
            "KQkq",
        ),
        (format!("{B} w - e3"), FenError::BadField("e3".into()), "e3"),
        (
            format!("{B} w - - 0 1 extra"),
            FenError::TrailingText("extra".into()),
            "extra",
        ),
    ]
}

#[test]
fn every_error_variant_is_produced_and_named() {
    let mut seen = BTreeSet::new();
    for (fen, expected, word) in cases() {
        let got = Position::from_fen(&fen).map(|p| p.to_fen());
        assert_eq!(got, Err(expected.clone()), "FEN {fen:?}");
        let text = expected.to_string();
        assert!(!text.trim().is_empty(), "{expected:?}: empty Display");
        assert!(
            text.contains(word),
            "{expected:?}: Display {text:?} should name {word:?}"
        );
        // Errors are proper std errors.
        let _: &dyn std::error::Error = &expected;
        seen.insert(variant(&expected));
    }
    assert_eq!(seen.len(), ALL_VARIANTS, "variants covered: {seen:?}");
}

#[test]
fn accepted_alternative_forms() {
    let start = Position::startpos();
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for fen in [
        START_FEN.to_string(),
        // H/E letters for horse and elephant, either case.
        "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1".to_string(),
        // 'r' for Red to move.
        format!("{board} r - - 0 1"),
        // Trailing fields missing.
        board.to_string(),
        format!("{board} w"),
        format!("{board} w -"),
        format!("{board} w - -"),
        format!("{board} w - - 0"),
    ] {
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"));
        assert_eq!(pos.to_fen(), START_FEN, "{fen:?}");
        assert!(pos == start, "{fen:?}");
        assert_eq!(pos.key(), start.key());
        assert!(pos.is_consistent());
    }
    // Black to move, counters kept.
    let pos = Position::from_fen(&format!("{board} b - - 7 12")).unwrap();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.rule60(), 7);
    assert_eq!(pos.to_fen(), format!("{board} b - - 7 12"));
    // The largest no-capture counter.
    let pos = Position::from_fen(&format!("{board} w - - 119 1")).unwrap();
    assert_eq!(pos.rule60(), 119);
    // A side to move may be in check.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3KR4 b").unwrap();
    assert!(pos.in_check());
}

// ----- fuzzing -----------------------------------------------------------------------------

/// Valid FENs to mutate: the start position, a few sparse ones, and positions from random
/// playouts.
fn seed_fens(rng: &mut Rng) -> Vec<String> {
    let mut fens: Vec<String> = [
        START_FEN,
        "3aka3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
        "4k4/9/4b4/9/2p6/9/9/7C1/4A4/3AK4 w - - 0 1",
        "2bak4/4a4/4b4/p8/2c6/6R2/P3C4/9/4A4/2B1KA3 b - - 0 1",
        "4k4/9/9/9/9/9/9/9/r8/3K5 w - - 17 40",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for _ in 0..10 {
        let mut pos = Position::startpos();
        for _ in 0..rng.below(120) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.rule60() >= 119 {
                break;
            }
            pos.make_move(moves.as_slice()[rng.below(moves.len())]);
        }
        fens.push(pos.to_fen());
    }
    fens
}

const ALPHABET: &[char] = &[
    'k', 'a', 'b', 'n', 'r', 'c', 'p', 'K', 'A', 'B', 'N', 'R', 'C', 'P', 'h', 'e', 'H', 'E', '0',
    '1', '2', '3', '4', '5', '6', '7', '8', '9', '/', ' ', '-', 'w', 'x', '+', '\t', '\n', '\0',
    'é', '帅', '将', '９', '\u{3000}', '\u{200b}', '🐴', '\u{feff}', '\u{7f}',
];

fn random_char(rng: &mut Rng) -> char {
    if rng.chance(1, 4) {
        // Any Unicode scalar value.
        loop {
            if let Some(c) = char::from_u32((rng.next_u64() % 0x11_0000) as u32) {
                return c;
            }
        }
    }
    ALPHABET[rng.below(ALPHABET.len())]
}

/// One random edit of `s` (on char boundaries).
fn mutate(s: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    match rng.below(8) {
        0 if n > 0 => chars[rng.below(n)] = random_char(rng),
        1 => chars.insert(rng.below(n + 1), random_char(rng)),
        2 if n > 0 => {
            chars.remove(rng.below(n));
        }
        3 => chars.truncate(rng.below(n + 1)),
        4 if n > 1 => chars.swap(rng.below(n), rng.below(n)),
        5 => {
            // Duplicate or drop a field.
            let mut fields: Vec<String> = s.split(' ').map(str::to_string).collect();
            let i = rng.below(fields.len());
            if rng.chance(1, 2) {
                let f = fields[i].clone();
                fields.insert(i, f);
            } else {
                fields.remove(i);
            }
            return fields.join(" ");
        }
        6 => {
            // Swap two ranks.
            let (board, rest) = s.split_once(' ').unwrap_or((s, ""));
            let mut ranks: Vec<&str> = board.split('/').collect();
            let (i, j) = (rng.below(ranks.len()), rng.below(ranks.len()));
            ranks.swap(i, j);
            return format!("{} {rest}", ranks.join("/"));
        }
        _ => {
            // Replace a random span by random garbage.
            let a = rng.below(n + 1);
            let b = (a + rng.below(8)).min(n);
            let garbage: Vec<char> = (0..rng.below(6)).map(|_| random_char(rng)).collect();
            chars.splice(a..b, garbage);
        }
    }
    chars.into_iter().collect()
}

/// An accepted FEN must describe a valid position by the rules (checked independently).
fn check_accepted(fen: &str, pos: &Position) {
    assert!(pos.is_consistent(), "{fen:?}: inconsistent");
    assert_eq!(pos.key(), pos.compute_key(), "{fen:?}: key");
    let slow = SlowBoard::from_position(pos);
    let mut counts = [0u32; 14];
    for (i, cell) in slow.cells.iter().enumerate() {
        if let Some(p) = *cell {
            counts[p.index()] += 1;
            assert!(
                reachable(p, (i % 9) as i32, (i / 9) as i32),
                "{fen:?}: {p:?} on an impossible square"
            );
        }
    }
    for p in Piece::ALL {
        let max = match p.kind() {
            PieceKind::King => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        };
        assert!(counts[p.index()] <= max, "{fen:?}: too many {p:?}");
        if p.kind() == PieceKind::King {
            assert_eq!(counts[p.index()], 1, "{fen:?}: kings");
        }
    }
    assert!(
        !slow.king_exposed(slow.side.flip()),
        "{fen:?}: accepted with the side not to move in check"
    );
    assert!(pos.rule60() <= 119, "{fen:?}: rule60");
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut oracle: Vec<String> = slow.legal_moves().iter().map(|m| m.to_string()).collect();
    fast.sort();
    oracle.sort();
    assert_eq!(fast, oracle, "{fen:?}: legal moves");
    // The canonical FEN reads back to the same position.
    let canon = pos.to_fen();
    let back = Position::from_fen(&canon).unwrap_or_else(|e| panic!("{canon}: {e}"));
    assert!(back == *pos, "{fen:?}: round trip");
    assert_eq!(back.to_fen(), canon);
}

#[test]
fn mutated_fens_never_panic() {
    let mut rng = Rng::new(0xf0_22ed);
    let seeds = seed_fens(&mut rng);
    let (mut accepted, mut rejected) = (0usize, 0usize);
    let mut kinds = BTreeSet::new();
    for i in 0..200_000 {
        let fen = if i % 10 == 9 {
            // Pure garbage.
            (0..rng.below(100)).map(|_| random_char(&mut rng)).collect()
        } else {
            let mut s = seeds[rng.below(seeds.len())].clone();
            for _ in 0..1 + rng.below(4) {
                s = mutate(&s, &mut rng);
            }
            s
        };
        let result = catch_unwind(AssertUnwindSafe(|| Position::from_fen(&fen)));
        match result {
            Err(_) => panic!("from_fen panicked on {fen:?}"),
            Ok(Ok(pos)) => {
                check_accepted(&fen, &pos);
                accepted += 1;
            }
            Ok(Err(e)) => {
                assert!(!e.to_string().is_empty());
                kinds.insert(variant(&e));
                rejected += 1;
            }
        }
    }
    eprintln!("fuzz: {accepted} accepted, {rejected} rejected, error kinds {kinds:?}");
    assert!(accepted > 5000 && rejected > 5000);
}
