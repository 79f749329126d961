//! Static evaluation: symmetry, sign, material and soldier sanity, trace contents.

use jiang::xiangqi::eval::{
    breakdown_with, evaluate, evaluate_with, phase, trace, EvalParams, EvalTables, Score, Term,
    DEFAULT_PARAMS, MAX_EVAL, TABLES,
};
use jiang::xiangqi::{Position, START_FEN};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Board field and side of a FEN.
fn fields(fen: &str) -> (Vec<String>, &str) {
    let mut it = fen.split_whitespace();
    let board = it.next().expect("board field");
    let side = it.next().unwrap_or("w");
    (board.split('/').map(str::to_string).collect(), side)
}

/// Colours swapped, ranks mirrored, other side to move.
fn color_flip(fen: &str) -> String {
    let (ranks, side) = fields(fen);
    let board: Vec<String> = ranks
        .iter()
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
    let side = if side == "b" { "w" } else { "b" };
    format!("{} {side} - - 0 1", board.join("/"))
}

/// Files a ⇄ i, same side to move.
fn lr_mirror(fen: &str) -> String {
    let (ranks, side) = fields(fen);
    let board: Vec<String> = ranks.iter().map(|r| r.chars().rev().collect()).collect();
    format!("{} {side} - - 0 1", board.join("/"))
}

/// FEN board field of a `[rank][file]` grid (`' '` = empty).
fn board_fen(grid: &[[char; 9]; 10]) -> String {
    let mut ranks = Vec::new();
    for row in grid.iter().rev() {
        let mut s = String::new();
        let mut empty = 0;
        for &c in row {
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// Positions from random playouts from the start (and a few sparse endgames).
fn sample_positions() -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_e7a1);
    let mut out = Vec::new();
    for _ in 0..60 {
        let mut p = Position::startpos();
        let plies = 20 + rng.next_u32() % 140;
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.next_u32() as usize % moves.len()];
            p.make_move(m);
            if rng.next_u32() % 4 == 0 {
                out.push(Position::from_fen(&p.to_fen()).unwrap());
            }
        }
        out.push(Position::from_fen(&p.to_fen()).unwrap());
    }
    for fen in [
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 b - - 0 1",
        "4ka3/4a4/4b4/9/2P6/9/9/9/4A4/3AK4 w - - 0 1",
        "2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
        "3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1",
    ] {
        out.push(pos(fen));
    }
    out
}

#[test]
fn colour_flip_symmetry() {
    let samples = sample_positions();
    assert!(samples.len() > 200, "{} samples", samples.len());
    for p in &samples {
        let fen = p.to_fen();
        let flipped = pos(&color_flip(&fen));
        assert_eq!(
            evaluate(p),
            evaluate(&flipped),
            "{fen} vs {}",
            flipped.to_fen()
        );
    }
}

#[test]
fn left_right_mirror_symmetry() {
    for p in &sample_positions() {
        let fen = p.to_fen();
        let mirrored = pos(&lr_mirror(&fen));
        assert_eq!(
            evaluate(p),
            evaluate(&mirrored),
            "{fen} vs {}",
            mirrored.to_fen()
        );
    }
}

#[test]
fn scores_stay_in_range() {
    for p in &sample_positions() {
        let v = evaluate(p);
        assert!(
            v.abs() <= MAX_EVAL && v.abs() < 20_000,
            "{v} for {}",
            p.to_fen()
        );
        assert_eq!(phase(p), breakdown_with(p, &TABLES).phase);
    }
    assert_eq!(phase(&Position::startpos()), TABLES.phase_max);
    assert_eq!(phase(&pos("3k5/9/9/9/9/9/9/9/9/4K4 w")), 0);
}

#[test]
fn start_position_is_just_tempo() {
    let red = evaluate(&Position::startpos());
    let black = evaluate(&pos(&START_FEN.replace(" w ", " b ")));
    assert!(red > 0 && red <= 50, "{red}");
    assert_eq!(red, black, "tempo goes to whoever is to move");
}

#[test]
fn extra_material_helps_its_owner() {
    // Black's a9 chariot removed.
    let fen = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let red_to_move = evaluate(&pos(&format!("{fen} w")));
    let black_to_move = evaluate(&pos(&format!("{fen} b")));
    assert!(red_to_move > 700, "{red_to_move}");
    assert!(black_to_move < -700, "{black_to_move}");

    // A horse less is smaller than a chariot less, but still large.
    let no_horse = evaluate(&pos(
        "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    ));
    assert!(no_horse > 250 && no_horse < red_to_move, "{no_horse}");

    // Endgame: a lone extra chariot is decisive; bare kings are level.
    assert!(evaluate(&pos("3k5/9/9/9/9/9/9/9/9/4KR3 w")) > 700);
    assert!(evaluate(&pos("3k5/9/9/9/9/9/9/9/9/4KR3 b")) < -700);
    assert!(evaluate(&pos("3k5/9/9/9/9/9/9/9/9/4K4 w")).abs() <= 20);
}

#[test]
fn crossed_soldier_beats_uncrossed() {
    let with_soldier = |rank: usize, file: usize| {
        // Kings and an advisor each, plus one red soldier.
        let mut grid = [[' '; 9]; 10];
        grid[9][4] = 'k';
        grid[8][4] = 'a';
        grid[1][4] = 'A';
        grid[0][3] = 'K';
        grid[rank][file] = 'P';
        evaluate(&pos(&format!("{} w", board_fen(&grid))))
    };
    for file in [0, 2, 4, 6, 8] {
        let home = with_soldier(3, file);
        let bank = with_soldier(4, file);
        let crossed = with_soldier(5, file);
        let deep = with_soldier(7, file);
        assert!(home > 0, "a soldier up is an advantage");
        assert!(crossed > bank + 40, "file {file}: {crossed} vs {bank}");
        assert!(crossed > home + 40, "file {file}: {crossed} vs {home}");
        assert!(deep > crossed, "file {file}: {deep} vs {crossed}");
    }
    // The bottom rank ("old soldier") is worth less than the palace front.
    assert!(with_soldier(9, 2) < with_soldier(7, 2));
}

#[test]
fn trace_names_every_term() {
    for p in [Position::startpos(), pos("3k5/9/9/9/9/9/9/9/9/4KR3 b")] {
        let t = trace(&p);
        for term in Term::ALL {
            assert!(t.contains(term.name()), "{} missing from\n{t}", term.name());
        }
        assert!(t.contains("Phase"), "{t}");
        assert!(t.contains(&format!("{:+}", evaluate(&p))), "{t}");
    }
}

/// Positions for the fast-path check: seeded random playouts from the start, half of them
/// biased towards captures so that they drain into sparse endgames (down to bare kings).
fn playout_positions(count: usize) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xfa57_e7a1);
    let mut out = Vec::with_capacity(count);
    let mut game = 0u32;
    while out.len() < count {
        game += 1;
        // Odd games take a capture whenever one is available, 7 times in 8.
        let greedy = game % 2 == 1;
        let mut p = Position::startpos();
        for _ in 0..400 {
            let moves = p.legal_moves();
            if moves.is_empty() || out.len() >= count {
                break;
            }
            let moves = moves.as_slice();
            let captures: Vec<_> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if greedy && !captures.is_empty() && rng.next_u32() % 8 != 0 {
                captures[rng.next_u32() as usize % captures.len()]
            } else {
                moves[rng.next_u32() as usize % moves.len()]
            };
            p.make_move(m);
            out.push(p.clone());
        }
    }
    out
}

#[test]
fn fast_path_matches_breakdown() {
    // `evaluate` has its own lean code path; `breakdown_with` (used by `trace`) computes
    // every term separately. They must agree to the unit on every position.
    let samples = playout_positions(30_000);
    let sparse = samples
        .iter()
        .filter(|p| p.occupied().count() <= 10)
        .count();
    assert!(sparse >= 2_000, "only {sparse} sparse positions");
    for p in &samples {
        assert_eq!(
            evaluate(p),
            breakdown_with(p, &TABLES).stm_view,
            "{}",
            p.to_fen()
        );
    }
    for p in &sample_positions() {
        assert_eq!(
            evaluate(p),
            breakdown_with(p, &TABLES).stm_view,
            "{}",
            p.to_fen()
        );
    }
}

/// The default weights with every one moved by a random amount (so that no weight is zero
/// or equal to another by accident, as several defaults are).
fn random_params(rng: &mut Xoshiro256PlusPlus) -> EvalParams {
    let mut r = |lo: i32, hi: i32| lo + (rng.next_u32() % (hi - lo + 1) as u32) as i32;
    let mut p = DEFAULT_PARAMS.clone();
    let mut nudge = |s: &mut Score| *s = Score::new(s.mg + r(-25, 25), s.eg + r(-25, 25));
    p.piece_value.iter_mut().for_each(&mut nudge);
    p.feature_scores_mut().for_each(&mut nudge);
    nudge(&mut p.tempo);
    for k in 0..7 {
        p.phase_weight[k] = r(0, 4);
        for row in 0..10 {
            for col in 0..5 {
                p.pst_mg[k][row][col] += r(-20, 20);
                p.pst_eg[k][row][col] += r(-20, 20);
            }
        }
    }
    for scale in &mut p.king_attack_scale {
        *scale = r(0, 150);
    }
    p.no_attackers_scale = r(0, 64);
    p
}

#[test]
fn fast_path_matches_breakdown_with_other_weights() {
    // The same check with weights other than the defaults, for `evaluate_with`.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7ab1e5);
    let samples = playout_positions(6_000);
    for _ in 0..4 {
        let tables = EvalTables::new(&random_params(&mut rng));
        for p in &samples {
            assert_eq!(
                evaluate_with(p, &tables),
                breakdown_with(p, &tables).stm_view,
                "{}",
                p.to_fen()
            );
        }
    }
}
