//! Jieqi's rule judge (`src/jieqi/rules.rs`): Xiangqi's Asian rules on Jieqi's board.
//!
//! Every case of `tests/rules_cases.txt` (the Xiangqi judge's cases, each cross-checked
//! with pyffish by `tests/rules_pyffish.py`) is played again as a Jieqi game with every
//! piece face up and must end the same way (none of them turns on a move that a face-up
//! advisor or elephant has in Jieqi and not in Xiangqi). Then what only Jieqi has:
//! face-down pieces in a repetition, a reveal closing the repetition window, the
//! search's view and the record's.

#[path = "common/count_alloc.rs"]
mod count_alloc;

use jiang::game::{Game, Outcome, Rules};
use jiang::jieqi::rules::{RepetitionVerdict, RULE60_PLIES};
use jiang::jieqi::{Color, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, moves: &str) {
    for mv in moves.split_whitespace() {
        let m = p
            .parse_legal_move(mv)
            .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_fen()));
        p.play(m);
    }
}

/// The end as the Xiangqi cases spell it: `<result> <reason>`.
fn describe(p: &Position) -> String {
    let Some(end) = p.game_end() else {
        return "* none".to_string();
    };
    let r = &end.reason;
    let reason = if r.ends_with("stalemates") {
        "stalemate"
    } else if r.ends_with("mates") {
        "checkmate"
    } else if r.ends_with("checks perpetually") {
        "perpetual-check"
    } else if r.ends_with("chases perpetually") {
        "perpetual-chase"
    } else if r == "draw by repetition" {
        "repetition"
    } else if r.starts_with("draw by the 60-move rule") {
        "move-limit"
    } else if r == "draw: neither side can mate" {
        "dead-material"
    } else {
        panic!("unknown reason {r}")
    };
    format!("{} {reason}", end.result)
}

#[test]
fn the_xiangqi_rule_cases_end_the_same_way() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rules_cases.txt");
    let text = std::fs::read_to_string(path).expect("tests/rules_cases.txt");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 5, "{line}");
        let (name, fen, moves, expected) = (f[0], f[1], f[2], f[3]);
        // A Xiangqi FEN is a Jieqi FEN with empty pools: every piece face up.
        let mut p = pos(fen);
        if moves != "-" {
            play(&mut p, moves);
        }
        let got = describe(&p);
        if got != expected {
            failures.push(format!("{name}: got {got}, expected {expected}"));
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_face_down_piece_defends_and_is_chased_as_the_piece_it_moves_as() {
    // Red's chariot follows Black's horse between a7 and b5 (the Xiangqi case
    // chase-unprotected-horse): a perpetual chase ...
    let chase = "b2a2 a7b5 a2b2 b5a7 b2a2 a7b5 a2b2 b5a7";
    let mut p = pos("4k4/9/n8/9/9/9/9/1R7/9/3K5 w - - 0 1");
    play(&mut p, chase);
    assert_eq!(p.game_end().expect("ends").reason, "Red chases perpetually");
    // ... but not when a black face-down piece on c9, an elephant's square, guards a7
    // with the elephant's move: every other attack is on a protected horse.
    let mut p = pos("2x1k4/9/n8/9/9/9/9/1R7/9/3K5 w b1 - 0 1");
    play(&mut p, chase);
    assert_eq!(p.game_end().expect("ends").reason, "draw by repetition");
    // On d9, an advisor's square, it guards nothing of a7's: the chase stands.
    let mut p = pos("3xk4/9/n8/9/9/9/9/1R7/9/3K5 w b1 - 0 1");
    play(&mut p, chase);
    assert_eq!(p.game_end().expect("ends").reason, "Red chases perpetually");

    // As a target: a face-down piece on a chariot's square (a9) attacked by a horse is
    // chased though protected (by the chariot a6), as a chariot would be; one on a
    // horse's square (b9) attacked by a chariot is chased only when unprotected (here by
    // the chariot b5).
    let p = pos("x3k4/9/1N7/r8/9/9/9/9/9/3K5 b r1 - 0 1");
    assert_eq!(p.chased_by(Color::Red, !0), 1u128 << 81, "a9 chased");
    let p = pos("1x2k4/9/9/9/1r7/9/9/9/9/1R1K5 b n1 - 0 1");
    assert_eq!(p.chased_by(Color::Red, !0), 0, "b9 protected, not chased");
    let p = pos("1x2k4/9/9/9/9/9/9/9/9/1R1K5 b n1 - 0 1");
    assert_eq!(
        p.chased_by(Color::Red, !0),
        1u128 << 82,
        "b9 unprotected, chased"
    );
}

#[test]
fn perpetual_check_loses_in_the_record_and_in_the_search() {
    // The red face-down piece on f0 (an advisor's square) stays out of it.
    let fen = "4k4/9/7R1/9/9/9/9/9/9/3K1X3 w A1 - 0 1";
    let mut p = pos(fen);
    play(&mut p, "h7h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9 h8h9");
    let end = p.game_end().expect("perpetual check");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str()),
        ("0-1", "Red checks perpetually")
    );
    assert!(p.legal_moves().is_empty());
    // The search sees it at the first repetition after its root ...
    let mut q = pos(fen);
    play(&mut q, "h7h9 e9e8 h9h8 e8e9 h8h9");
    assert_eq!(
        q.judge_span(4),
        RepetitionVerdict::PerpetualCheck(Color::Red)
    );
    assert_eq!(
        q.rule_outcome(4, true),
        Some(Outcome::Win),
        "Black to move wins"
    );
    assert_eq!(q.rule_outcome(4, false), Some(Outcome::Draw), "judge off");
    // ... and one occurrence before the root is not enough.
    assert_eq!(Game::rule_outcome(&q, 0, true), None);
    assert!(q.game_end().is_none(), "twofold only");
    // The search judges repetitions at its nodes: without allocating.
    let (allocations, verdict) = count_alloc::allocations_in(|| q.rule_outcome(4, true));
    assert_eq!(verdict, Some(Outcome::Win));
    assert_eq!(allocations, 0);
}

#[test]
fn a_reveal_closes_the_repetition_window() {
    // The threefold test of tests/jieqi.rs with a red face-down piece on i0: revealed
    // (as the chariot of the pool) between the second and third occurrence, it makes
    // the earlier positions unreachable: the count starts again.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K3X w R1 - 0 1";
    let cycle = "a0a1 d9d8 a1a0 d8d9";
    let mut p = pos(fen);
    play(&mut p, cycle);
    assert_eq!(p.repetition_span(2), Some(4));
    play(&mut p, "i0i1 d9d8 i1i0 d8d9");
    assert_eq!(p.repetition_span(2), None, "{}", p.to_fen());
    play(&mut p, cycle);
    assert_eq!(p.repetition_span(2), Some(4));
    assert_eq!(p.repetition_span(3), None);
    assert!(p.game_end().is_none());
    // The position after i1i0 (chariots a0 and i0, king d8, Black to move) comes a
    // third time.
    play(&mut p, "a0a1 d9d8 a1a0");
    assert_eq!(p.repetition_span(3), Some(8));
    assert_eq!(
        p.game_end().expect("threefold").reason,
        "draw by repetition"
    );
}

#[test]
fn the_sixty_move_rule_counts_captures_and_checks_as_in_xiangqi() {
    // 118 quiet plies on the FEN's clock: two more draw.
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 118 80");
    assert_eq!(p.rule60_count(), 118);
    play(&mut p, "a0a1");
    assert!(p.game_end().is_none());
    play(&mut p, "d9d8");
    assert_eq!(p.rule60_count(), RULE60_PLIES);
    let end = p.game_end().expect("move limit");
    assert_eq!(end.result, "1/2-1/2");
    assert!(
        end.reason.starts_with("draw by the 60-move rule"),
        "{}",
        end.reason
    );
    assert_eq!(p.rule_outcome(10, true), Some(Outcome::Draw));
    // A capture starts it again.
    let mut q = pos("3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 119 80");
    play(&mut q, "a0a1");
    assert_eq!(q.rule60_count(), 0);
    assert!(q.game_end().is_none());
}

#[test]
fn dead_material_needs_every_piece_face_up() {
    assert!(pos("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1").is_dead_material());
    // A face-down piece may yet be a chariot.
    let p = pos("3k5/4a4/9/9/9/9/9/9/4A4/3XK4 w A1 - 0 1");
    assert!(!p.is_dead_material());
    assert!(p.game_end().is_none());
}
