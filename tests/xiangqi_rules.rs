//! The rule judge: repetition (perpetual check, perpetual chase), the 60-move rule with
//! its check counting, dead material, and the no-legal-move result.
//!
//! The positions with move sequences live in `tests/rules_cases.txt`, shared with
//! `tests/rules_pyffish.py`, which cross-checks every expected result with pyffish.

#[path = "common/count_alloc.rs"]
mod count_alloc;

use count_alloc::allocations_in;
use jiang::game::Outcome;
use jiang::xiangqi::rules::{EndReason, GameEnd, RepetitionVerdict, RULE60_PLIES};
use jiang::xiangqi::{Bitboard, Color, Position, Square};

// ----- helpers ---------------------------------------------------------------------------

struct Case {
    name: String,
    fen: String,
    moves: Vec<String>,
    expected: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rules_cases.txt");
    let text = std::fs::read_to_string(path).expect("tests/rules_cases.txt");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 5, "rules_cases.txt:{}: five fields", i + 1);
        let moves = if f[2] == "-" {
            Vec::new()
        } else {
            f[2].split_whitespace().map(String::from).collect()
        };
        out.push(Case {
            name: f[0].to_string(),
            fen: f[1].to_string(),
            moves,
            expected: f[3].to_string(),
        });
    }
    out
}

fn describe(end: Option<GameEnd>) -> String {
    match end {
        Some(e) => format!("{} {}", e.result(), e.reason.name()),
        None => "* none".to_string(),
    }
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).expect("FEN");
    for mv in moves.split_whitespace() {
        let m = pos.parse_legal_move(mv).expect("legal move");
        pos.make_move(m);
    }
    pos
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

fn bb(squares: &[&str]) -> Bitboard {
    squares
        .iter()
        .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(sq(s)))
}

/// The search's view of a game result, from the side to move.
fn outcome_for(pos: &Position, end: GameEnd) -> Outcome {
    match end.winner {
        None => Outcome::Draw,
        Some(w) if w == pos.side_to_move() => Outcome::Win,
        Some(_) => Outcome::Loss,
    }
}

// ----- the shared cases -------------------------------------------------------------------

#[test]
fn cases_from_the_data_file() {
    let cases = cases();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let mut failures = Vec::new();
    'cases: for case in &cases {
        let mut pos = Position::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{}: bad FEN {}: {e}", case.name, case.fen));
        pos.reserve_history(case.moves.len());
        for (i, mv) in case.moves.iter().enumerate() {
            // The game must not have ended before the last move.
            let early = pos.game_result();
            if early.is_some() {
                failures.push(format!(
                    "{}: game over before move {} ({mv}): {}",
                    case.name,
                    i + 1,
                    describe(early)
                ));
                continue 'cases;
            }
            let m = pos
                .parse_legal_move(mv)
                .unwrap_or_else(|e| panic!("{}: move {} ({mv}): {e}", case.name, i + 1));
            pos.make_move(m);
            assert!(pos.is_consistent(), "{}: after {mv}", case.name);
        }
        let end = pos.game_result();
        let got = describe(end);
        if got != case.expected {
            failures.push(format!(
                "{}: expected {}, got {got}",
                case.name, case.expected
            ));
            continue;
        }
        // The search hook at the root agrees with the game record.
        let root = pos.rule_outcome(0);
        let want = match end {
            None => None,
            Some(e) => match e.reason {
                // "No legal move" is the search's own business below the move limit.
                EndReason::Checkmate | EndReason::Stalemate
                    if pos.rule60_count() < RULE60_PLIES =>
                {
                    None
                }
                _ => Some(outcome_for(&pos, e)),
            },
        };
        if root != want {
            failures.push(format!(
                "{}: rule_outcome(0) = {root:?}, game_result says {want:?}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- repetition inside the search -------------------------------------------------------

#[test]
fn search_needs_one_repetition_after_the_root_or_two_before_it() {
    let fen = "4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 0 1";
    // Red checks with every move; after 5 plies the position after ply 1 is back.
    let pos = play(fen, "h7h9 e9e8 h9h8 e8e9 h8h9");
    assert_eq!(pos.side_to_move(), Color::Black);
    // Root at or before ply 1: the cycle lies inside the tree, Black wins by rule.
    assert_eq!(pos.rule_outcome(4), Some(Outcome::Win));
    assert_eq!(pos.rule_outcome(5), Some(Outcome::Win));
    // Root after ply 1: the earlier occurrence is game history, one is not enough.
    assert_eq!(pos.rule_outcome(3), None);
    assert_eq!(pos.rule_outcome(0), None);
    assert_eq!(pos.game_result(), None);
    assert_eq!(pos.repetition_span(2), Some(4));
    assert_eq!(pos.repetition_span(3), None);
    assert_eq!(
        pos.judge_span(4),
        RepetitionVerdict::PerpetualCheck(Color::Red)
    );

    // Two more cycles' worth: twice before the root is enough.
    let pos = play(fen, "h7h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9 h8h9");
    assert_eq!(pos.rule_outcome(0), Some(Outcome::Win));
    assert_eq!(pos.repetition_span(3), Some(8));

    // An interrupted check is no perpetual check: a plain repetition.
    let pos = play(fen, "h7h9 e9e8 h9h7 e8e9 h7h9");
    assert_eq!(pos.rule_outcome(4), Some(Outcome::Draw));

    // With the judge switched off (option RepetitionJudge) a perpetual check is a draw.
    let pos = play(fen, "h7h9 e9e8 h9h8 e8e9 h8h9");
    assert_eq!(pos.rule_outcome_with(4, false), Some(Outcome::Draw));
    assert_eq!(pos.rule_outcome_with(3, false), None);
}

#[test]
fn a_null_move_ends_the_repetition_window() {
    let fen = "4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 0 1";
    let mut pos = play(fen, "h7h9 e9e8 h9h8 e8e9");
    // Red passes, and three moves later the start position is back: not a repetition,
    // since the pass did not happen in the game.
    pos.make_null_move();
    for mv in ["e9f9", "h8h7", "f9e9"] {
        pos.make_move(pos.parse_legal_move(mv).unwrap());
    }
    assert_eq!(pos.key(), Position::from_fen(fen).unwrap().key());
    assert_eq!(pos.rule_outcome(20), None);
}

// ----- the 60-move rule's counters ----------------------------------------------------------

#[test]
fn checks_beyond_the_tenth_do_not_advance_the_count() {
    let fen = "2b3b2/4k4/9/8R/R8/9/9/9/9/3K5 w - - 0 1";
    let moves: Vec<&str> = "i6i8 e8e7 i8e8 e7f7 e8e7 f7f8 e7f7 f8e8 f7e7 e8f8 e7f7 f8e8 \
                            f7f8 e8e9 f8e8 e9f9 e8e9 f9f8 a5a8 f8f7 a8a7 f7f8 a7a8 f8f7"
        .split_whitespace()
        .collect();
    let mut pos = Position::from_fen(fen).unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let before = pos.clone();
        let m = pos.parse_legal_move(mv).unwrap();
        pos.make_move(m);
        let ply = i + 1;
        let red_checks = ply.div_ceil(2);
        assert!(
            pos.in_check() == (ply % 2 == 1),
            "ply {ply}: Red checks every move"
        );
        assert_eq!(
            pos.checks_given(Color::Red) as usize,
            red_checks,
            "ply {ply}"
        );
        assert_eq!(pos.checks_given(Color::Black), 0);
        assert_eq!(pos.rule60() as usize, ply);
        // Red's 11th and 12th checks (plies 21, 23) and the replies do not count.
        let expected = ply.min(20);
        assert_eq!(pos.rule60_count() as usize, expected, "ply {ply}");
        // Unmake restores every counter.
        pos.unmake_move(m);
        assert!(pos == before, "ply {ply}: unmake");
        pos.make_move(m);
    }
    // A quiet move counts again; a capture resets everything.
    pos.make_move(pos.parse_legal_move("d0d1").unwrap());
    assert_eq!((pos.rule60_count(), pos.rule60()), (21, 25));
    let mut pos = play("4k4/9/9/9/9/p8/9/9/R8/3K5 w - - 7 1", "a1a2 e9e8 a2a4");
    assert_eq!(pos.rule60_count(), 0);
    assert_eq!(pos.rule60(), 0);
    assert_eq!(pos.checks_given(Color::Red), 0);
    pos.make_move(pos.parse_legal_move("e8e9").unwrap());
    assert_eq!((pos.rule60_count(), pos.rule60()), (1, 1));
}

#[test]
fn no_legal_move_at_the_move_limit_still_loses() {
    // Red's 120th ply mates: the search sees a loss for Black, not a draw.
    let pos = play("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 1", "b0b9");
    assert_eq!(pos.rule60_count(), RULE60_PLIES);
    assert_eq!(pos.rule_outcome(1), Some(Outcome::Loss));
    // With a legal move left it is a draw.
    let pos = play("4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 119 1", "h7h6");
    assert_eq!(pos.rule_outcome(1), Some(Outcome::Draw));
    let pos = play("4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 118 1", "h7h6");
    assert_eq!(pos.rule_outcome(1), None);
}

// ----- what counts as a chase ----------------------------------------------------------------

#[test]
fn chase_targets() {
    // Red chariot c4 attacks the black soldier c5 (on its own half: exempt) ...
    let pos = Position::from_fen("4k4/9/9/9/2p6/2R6/9/9/9/3K5 w - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);
    // ... and, once it has crossed, b3 (a target).
    let pos = Position::from_fen("4k4/9/9/9/9/1R7/1p7/9/9/3K5 w - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), bb(&["b3"]));

    // An unprotected horse is chased; protected (by the elephant c9) it is not.
    let pos = Position::from_fen("4k4/9/n8/9/9/9/9/R8/9/3K5 b - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), bb(&["a7"]));
    assert_eq!(pos.chased_by(Color::Red, bb(&["b7"])), Bitboard::EMPTY);
    let pos = Position::from_fen("2b1k4/9/n8/9/9/9/9/R8/9/3K5 b - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);

    // A chariot attacked by a horse is chased even when protected (by the chariot c9).
    let pos = Position::from_fen("2r1k4/9/2r6/9/3N5/9/9/9/9/3K5 b - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), bb(&["c7"]));

    // Attacks by the king and by soldiers never count.
    let pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4c4/4K4 b - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);
    let pos = Position::from_fen("4k4/9/3c5/3P5/9/9/9/9/9/5K3 b - - 0 1").unwrap();
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);

    // Horse against horse: the red horse d5 attacks f6 through its free leg e5. With the
    // black horse's own leg e6 blocked it cannot answer, so the attack counts; with e6
    // free the attack is mutual, an offer to exchange, and counts for neither side.
    let asym = Position::from_fen("3k5/9/9/4pn3/3N5/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(asym.chased_by(Color::Red, Bitboard::FULL), bb(&["f6"]));
    let sym = Position::from_fen("3k5/9/9/5n3/3N5/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(sym.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);
    assert_eq!(sym.chased_by(Color::Black, Bitboard::FULL), Bitboard::EMPTY);

    // A chariot pinned on the e-file (black chariot e8, red king e0) does not chase the
    // horse g3, which it could only take by leaving the file; unpinned it does.
    let pinned = Position::from_fen("5k3/4r4/9/9/9/9/4R1n2/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(
        pinned.chased_by(Color::Red, Bitboard::FULL),
        Bitboard::EMPTY
    );
    let free = Position::from_fen("5k3/r8/9/9/9/9/4R1n2/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(free.chased_by(Color::Red, Bitboard::FULL), bb(&["g3"]));
}

#[test]
fn a_check_does_not_unprotect_the_checked_sides_pieces() {
    // Black is in check from the chariot f2. The horse a7, attacked by the chariot a2, is
    // protected by the elephant c9: that recapture would not answer the check, but the
    // check is answered first, so the horse still counts as protected.
    let pos = Position::from_fen("2b2k3/9/n8/9/9/9/9/R4R3/9/3K5 b - - 0 1").unwrap();
    assert!(pos.in_check());
    assert_eq!(pos.chased_by(Color::Red, Bitboard::FULL), Bitboard::EMPTY);
    let unprotected = Position::from_fen("5k3/9/n8/9/9/9/9/R4R3/9/3K5 b - - 0 1").unwrap();
    assert_eq!(
        unprotected.chased_by(Color::Red, Bitboard::FULL),
        bb(&["a7"])
    );
}

// ----- results and their presentation ------------------------------------------------------

#[test]
fn game_end_display() {
    let end = GameEnd {
        winner: Some(Color::Black),
        reason: EndReason::PerpetualCheck,
    };
    assert_eq!(end.result(), "0-1");
    assert_eq!(end.to_string(), "0-1 {Red checks perpetually}");
    let end = GameEnd {
        winner: None,
        reason: EndReason::MoveLimit,
    };
    assert_eq!(end.result(), "1/2-1/2");
    assert_eq!(
        end.to_string(),
        "1/2-1/2 {draw by the 60-move rule (120 plies)}"
    );
    let pos = play("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1", "a5a8");
    assert_eq!(
        pos.game_result().map(|e| e.to_string()),
        Some("1-0 {Black has no legal move}".to_string())
    );
    assert_eq!(Position::startpos().game_result(), None);
}

#[test]
fn judging_a_repetition_allocates_nothing() {
    let fen = "4k4/9/n8/9/9/9/9/1R7/9/3K5 w - - 0 1";
    let mut pos = Position::from_fen(fen).unwrap();
    pos.reserve_history(64);
    for mv in "b2a2 a7b5 a2b2 b5a7 b2a2 a7b5 a2b2 b5a7 b2a2".split_whitespace() {
        let m = pos.parse_legal_move(mv).unwrap();
        pos.make_move(m);
    }
    let (n, (inside, root, end)) =
        allocations_in(|| (pos.rule_outcome(8), pos.rule_outcome(0), pos.game_result()));
    assert_eq!(n, 0, "allocations while judging");
    assert_eq!(inside, Some(Outcome::Win));
    assert_eq!(root, Some(Outcome::Win));
    assert_eq!(
        end,
        Some(GameEnd {
            winner: Some(Color::Black),
            reason: EndReason::PerpetualChase
        })
    );
}
