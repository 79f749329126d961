//! The AlphaChess harness's house rules (`setoption name Rules value alphachess`): the
//! history rule against a piece checking a fourth time running, the 120-ply draw that
//! comes before mate, and no repetition rules. The worked examples are those of
//! `variants.md` §4; the others are built from the rule as stated there.

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_no_panic, Engine, SLOW};
use jiang::game::Outcome;
use jiang::request::SearchRequest;
use jiang::search::{search, SearchControl};
use jiang::tt::TranspositionTable;
use jiang::xiangqi::rules::EndReason;
use jiang::xiangqi::{Color, Move, Position, RuleSet};

/// The position after `moves` from `fen`, played under `rules`.
fn game(fen: &str, moves: &str, rules: RuleSet) -> Position {
    let mut pos = Position::from_fen(fen).expect("test FEN");
    pos.set_rule_set(rules);
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_legal_move(m)
            .unwrap_or_else(|e| panic!("{m} in {fen}: {e}"));
        pos.make_move(mv);
    }
    pos
}

fn legal(pos: &Position, m: &str) -> bool {
    pos.parse_legal_move(m).is_ok()
}

/// Each worked example: (FEN, history, the refused move, the other moves the same rule
/// refuses there: the same piece's other checks).
const EXAMPLES: &[(&str, &str, &str, &[&str])] = &[
    (
        "RR1k5/9/8b/9/2b6/9/9/5A3/8C/5K3 b - - 0 1",
        "d9d8 b9d9 d8e8 d9d8 e8e7 d8d7 e7e8",
        "d7d8",
        &["d7e7"],
    ),
    (
        "C2k1a3/9/8N/9/9/9/3p5/4K4/6p2/9 w - - 0 1",
        "i7h5 d3d2 e2e1 d2d1 e1e0 d1d0 e0f0",
        "d0e0",
        &[],
    ),
    (
        "3k1NR2/4a4/3a1P3/1N7/2b3b2/9/2c1p4/5A3/5K3/9 b - - 0 1",
        "d9e9 f9e7 e8f9 g9f9 e9e8 f9f8 e8e9",
        "f8f9",
        &["f8e8"],
    ),
];

#[test]
fn worked_examples_are_refused_only_under_alphachess() {
    for &(fen, moves, refused, also) in EXAMPLES {
        let asian = game(fen, moves, RuleSet::Asian);
        let alpha = game(fen, moves, RuleSet::AlphaChess);
        assert!(legal(&asian, refused), "{refused} is legal by Asian rules");
        assert!(
            !legal(&alpha, refused),
            "{refused} refused under alphachess"
        );
        let mv = Move::parse(refused).unwrap();
        assert!(!alpha.is_legal(mv), "is_legal agrees with the generator");
        for m in also {
            assert!(legal(&asian, m) && !legal(&alpha, m), "{m}");
        }
        // Exactly these moves are refused: the rest of the lists agree.
        let refused_count = 1 + also.len();
        assert_eq!(
            asian.legal_moves().len(),
            alpha.legal_moves().len() + refused_count,
            "{fen} {moves}"
        );
        assert_eq!(alpha.count_legal(), alpha.legal_moves().len());
    }
}

#[test]
fn six_plies_are_not_enough() {
    // Example 1 from a later FEN: the same three checks, but n = 6 < 7.
    let pos = game(
        "RR7/3k5/8b/9/2b6/9/9/5A3/8C/5K3 w - - 1 2",
        "b9d9 d8e8 d9d8 e8e7 d8d7 e7e8",
        RuleSet::AlphaChess,
    );
    assert!(legal(&pos, "d7d8"));
}

#[test]
fn a_move_without_a_check_resets_the_count() {
    // Example 1, but the chariot's second move (d9d8 in the example) is replaced by a
    // quiet chariot move that does not check; then it checks twice: not refused.
    let fen = "RR1k5/9/8b/9/2b6/9/9/5A3/8C/5K3 b - - 0 1";
    let pos = game(
        fen,
        "d9d8 b9d9 d8e8 d9f9 e8e7 f9f7 e7e8",
        RuleSet::AlphaChess,
    );
    assert!(
        legal(&pos, "f7f8"),
        "d9f9 gave no check: f7f8 is only the second check running"
    );
    // With every check in place the fourth is refused (the worked example itself).
    let pos = game(
        fen,
        "d9d8 b9d9 d8e8 d9d8 e8e7 d8d7 e7e8",
        RuleSet::AlphaChess,
    );
    assert!(!legal(&pos, "d7d8"));
}

#[test]
fn alternating_checkers_are_never_refused() {
    // Two chariots take turns checking the black king (a line found with pyffish, each
    // red move a check): after three checks in a row, a fourth by either chariot is fine.
    let fen = "4k4/9/9/9/9/9/9/R8/8R/3K5 w - - 0 1";
    let line = "a2e2 e9f9 i1i9 f9f8 e2f2 f8e8 i9i8 e8e7";
    let mut pos = Position::from_fen(fen).unwrap();
    pos.set_rule_set(RuleSet::AlphaChess);
    for m in line.split_whitespace() {
        let mv = pos
            .parse_legal_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        if pos.side_to_move() == Color::Red {
            assert!(pos.gives_check(mv), "{m} checks");
        }
        pos.make_move(mv);
    }
    assert_eq!(pos.check_history_square(), None);
    for m in ["i8i7", "f2f7"] {
        let mv = pos
            .parse_legal_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        assert!(pos.gives_direct_check(mv), "{m} checks");
    }
    // The same piece three times running is where the rule starts: the i-chariot checks
    // again and again while the king steps back and forth.
    let mut pos = game(fen, "", RuleSet::AlphaChess);
    for m in "i1i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9".split_whitespace() {
        let mv = pos
            .parse_legal_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make_move(mv);
    }
    assert_eq!(
        pos.check_history_square().map(|s| s.to_string()),
        Some("i8".into())
    );
    assert!(!legal(&pos, "i8i9"), "the fourth check running is refused");
    assert!(
        legal(&pos, "i8i7"),
        "a quiet move of the same chariot is not"
    );
}

#[test]
fn a_mating_fourth_check_is_refused_too() {
    // Found in a random game played with the harness's own `get_legal_actions` (it
    // refused g3h1 there, and after g3h1 Red would have had no legal action): the black
    // horse checked from g3, e4 and g3 after Black's last three moves, made the last two,
    // and its fourth check, g3h1, would mate. The FEN is the game's position 7 plies
    // before, so that n = 7 here as well.
    let fen = "3a1rb2/3k5/4ca3/p6P1/P1p1p1p1p/2n1n1P2/2P6/4K4/3cN4/1N1A2B2 w - - 0 100";
    let moves = "h6i6 e4g3 e2f2 g3e4 f2e2 e4g3 e2f2";
    let mut asian = game(fen, moves, RuleSet::Asian);
    let alpha = game(fen, moves, RuleSet::AlphaChess);
    assert_eq!(
        alpha.check_history_square().map(|s| s.to_string()),
        Some("g3".into())
    );
    assert!(!legal(&alpha, "g3h1"), "the mating fourth check is refused");
    assert!(alpha.game_result().is_none(), "Black has other moves");
    let mv = asian
        .parse_legal_move("g3h1")
        .expect("legal by Asian rules");
    asian.make_move(mv);
    let end = asian.game_result().expect("mate");
    assert_eq!(end.reason, EndReason::Checkmate);
    // Nor does the search play it.
    let tt = TranspositionTable::new(4);
    let limits = SearchRequest::<Move> {
        depth: Some(4),
        ..SearchRequest::default()
    };
    let r = search(
        &alpha,
        &limits,
        &tt,
        &SearchControl::new(None, None, false),
        &|_| {},
    );
    assert_ne!(r.best_move.map(|m| m.to_string()), Some("g3h1".into()));
}

#[test]
fn the_120_ply_draw_comes_before_mate() {
    // a1d1 mates; played as the 120th ply without a capture it draws under alphachess.
    let fen = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 60";
    let asian = game(fen, "a1d1", RuleSet::Asian);
    let end = asian.game_result().expect("over");
    assert_eq!(end.reason, EndReason::Checkmate);
    let alpha = game(fen, "a1d1", RuleSet::AlphaChess);
    let end = alpha.game_result().expect("over");
    assert_eq!((end.winner, end.reason), (None, EndReason::MoveLimit));
    assert_eq!(alpha.rule_outcome_with(1, true), Some(Outcome::Draw));
    // And the search knows it: from 119, Red cannot win by mating.
    let root = game(fen, "", RuleSet::AlphaChess);
    let tt = TranspositionTable::new(4);
    let limits = SearchRequest::<Move> {
        depth: Some(4),
        ..SearchRequest::default()
    };
    let r = search(
        &root,
        &limits,
        &tt,
        &SearchControl::new(None, None, false),
        &|_| {},
    );
    assert!(
        r.score.abs() < 1000,
        "no mate score under alphachess: {}",
        r.score
    );
    let root = game(fen, "", RuleSet::Asian);
    tt.clear();
    let r = search(
        &root,
        &limits,
        &tt,
        &SearchControl::new(None, None, false),
        &|_| {},
    );
    assert!(r.score > 30_000, "mate in 1 by Asian rules: {}", r.score);
}

#[test]
fn no_repetition_rules_under_alphachess() {
    // Horses shuffle back and forth: a threefold repetition.
    let fen = "3k5/9/9/9/4n4/9/4N4/9/9/4K4 w - - 0 1";
    let shuffle = "e3f5 e5f3 f5e3 f3e5 e3f5 e5f3 f5e3 f3e5";
    let asian = game(fen, shuffle, RuleSet::Asian);
    assert!(asian.game_result().is_some(), "a repetition by Asian rules");
    let alpha = game(fen, shuffle, RuleSet::AlphaChess);
    assert_eq!(alpha.game_result(), None);
    assert_eq!(alpha.rule_outcome_with(8, true), None);
    // Dead material is no draw either.
    let bare = game("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "", RuleSet::AlphaChess);
    assert_eq!(bare.game_result(), None);
}

#[test]
fn the_option_over_the_pipe() {
    let (fen, moves, refused, _) = EXAMPLES[0];
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", SLOW);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Rules type combo default asian var asian var alphachess"),
        "{lines:?}"
    );
    let with_refused = format!("position fen {fen} moves {moves} {refused}");
    // Asian: the move is played.
    e.send(&with_refused);
    e.send("isready");
    let lines = e.read_until("readyok", SLOW);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    // AlphaChess: refused with one line, the position kept, and never generated.
    e.send("setoption name Rules value alphachess");
    e.send(&format!("position fen {fen} moves {moves}"));
    e.send(&with_refused);
    let l = e.expect_line("refusal", SLOW, |l| l.starts_with("info string"));
    assert!(l.contains(refused), "{l}");
    e.send("moves");
    let l = e.expect_line("moves", SLOW, |l| l.contains("legal moves:"));
    assert!(!l.split_whitespace().any(|m| m == refused), "{l}");
    e.send("go depth 6");
    let (mv, _) = e.bestmove(SLOW);
    assert!(mv != refused && mv != "d7e7", "{mv}");
    e.send("setoption name Rules value chinese");
    let l = e.expect_line("refusal", SLOW, |l| l.starts_with("info string"));
    assert!(l.contains("chinese"), "{l}");
    // A new game of the same variant keeps the rules; UCCI has the option too.
    e.send("ucinewgame");
    e.send(&with_refused);
    e.expect_line("still refused", SLOW, |l| l.starts_with("info string"));
    assert_no_panic(&e);
}

#[test]
fn search_only_plays_allowed_moves() {
    for &(fen, moves, refused, also) in EXAMPLES {
        let pos = game(fen, moves, RuleSet::AlphaChess);
        let tt = TranspositionTable::new(4);
        let limits = SearchRequest::<Move> {
            depth: Some(5),
            ..SearchRequest::default()
        };
        let r = search(
            &pos,
            &limits,
            &tt,
            &SearchControl::new(None, None, false),
            &|_| {},
        );
        let best = r.best_move.expect("a move").to_string();
        assert!(best != refused && !also.contains(&best.as_str()), "{best}");
        assert!(pos.is_legal(r.best_move.unwrap()));
    }
}
