//! Fairy chess (NUS CS3243): the course's public cases, perft cross-checked with pyffish,
//! FEN errors, make/unmake, the end-of-game rules, and the search on the course's
//! best-move cases.
//!
//! Ground truth: `shared/reference/variants.md` section 1 (move lists and perft of b1-b4,
//! the best-move cases). The other perft counts were computed with pyffish 0.0.90 loaded
//! with the definition of variants.md (a Python perft over `legal_moves`, with the two
//! draws applied on top, as `perft/fairychess_crosscheck.py` does).

#[path = "common/engine.rs"]
mod engine;
#[path = "common/rng.rs"]
mod rng;

use jiang::fairychess::{Color, Move, Position, Square, START_FEN};
use jiang::game::{Game, GenType, Outcome, Rules};
use jiang::movelist::MoveList;
use jiang::perft::perft;
use jiang::request::SearchRequest;
use jiang::search::{search, Score, SearchControl, SearchResult};
use jiang::tt::TranspositionTable;
use rng::Rng;
use std::collections::BTreeSet;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn move_set(p: &Position) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

const PUBLIC: [(&str, &str, usize, u64, u64, &str); 4] = [
    ("b1", "1c2CNk1/rB6/n7/4B3/C1b3N1/cR1Cn1c1/1b6/1C3c1K w - - 0 1", 47, 1_757, 81_008,
     "a4a5 a4b4 b1a1 b1c1 b3a3 b3b2 b3b4 b3b5 b3b6 b3c3 b7a6 b7a8 b7c6 b7c8 b7d5 b7e4 b7f3 b7g2 d3c3 d3c4 d3d2 d3d4 e5b2 e5b8 e5c3 e5c7 e5d4 e5d6 e5f4 e5f6 e5g3 e5g7 e5h8 e8d8 e8e7 f8d7 f8e6 f8g6 f8h7 g4e3 g4f2 g4f6 g4h2 g4h6 h1g1 h1g2 h1h2"),
    ("b2", "kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1", 60, 2_161, 124_768,
     "c4a2 c4b3 c4b5 c4d3 c4d5 c4e2 c6b5 c6b6 c6c5 c6c7 c6d6 d2a2 d2b2 d2c2 d2d1 d2d3 d2d4 d2d5 d2d6 d2e2 d2f2 d2g2 d7b7 d7c8 d7d5 d7e8 d7f7 e1d1 e1e2 e1f2 e3a7 e3b6 e3c5 e3d4 e3f2 e3f4 e3g1 e3g5 e3h6 e6c5 e6c7 e6d4 e6d8 e6f4 e6f8 e6g5 f1f2 f1g1 f1g2 g3e2 g3e4 g3f5 g3h1 g3h5 g7e7 g7f6 g7f8 g7g5 g7h6 g7h8"),
    ("b3", "k2B2b1/7C/1Cc5/3B1cS1/3s1c2/6C1/1b5R/1KC3rc w - - 0 1", 50, 1_744, 81_490,
     "b1a1 b1a2 b1b2 b1c2 b6a6 b6b5 b6b7 c1b2 c1c2 c1d1 d5a2 d5b3 d5c4 d5c6 d5e4 d5e6 d5f3 d5f7 d5g2 d5g8 d5h1 d8c7 d8e7 d8f6 g3f3 g3f4 g3g2 g3g4 g3h3 g5e5 g5f4 g5f6 g5g7 g5h4 g5h6 h2b2 h2c2 h2d2 h2e2 h2f2 h2g2 h2h1 h2h3 h2h4 h2h5 h2h6 h7g7 h7g8 h7h6 h7h8"),
    ("b4", "kb5N/1Cc1Cs2/2C4C/4N3/1B6/1c6/1S2c3/1c2n1Kn w - - 0 1", 38, 924, 34_667,
     "b2a1 b2a3 b2c1 b2c3 b2d2 b4a3 b4a5 b4c3 b4c5 b4d2 b4d6 b4e1 b7a7 b7a8 b7b6 c6b6 c6c5 c6d6 e5c4 e5d3 e5d7 e5f3 e5f7 e5g4 e5g6 e7d7 e7e6 e7e8 g1f1 g1f2 g1g2 g1h1 g1h2 h6g6 h6h5 h6h7 h8f7 h8g6"),
];

#[test]
fn public_move_lists_and_perft() {
    for (id, fen, n, d2, d3, moves) in PUBLIC {
        let mut p = pos(fen);
        let want: BTreeSet<String> = moves.split_whitespace().map(String::from).collect();
        assert_eq!(want.len(), n, "{id}: the list itself");
        assert_eq!(move_set(&p), want, "{id}");
        assert_eq!(perft(&mut p, 1), n as u64, "{id} d1");
        assert_eq!(perft(&mut p, 2), d2, "{id} d2");
        assert_eq!(perft(&mut p, 3), d3, "{id} d3");
        assert_eq!(p.to_fen(), fen, "{id}: perft left the position as it was");
    }
}

/// Positions of our own, perft 1-3 from pyffish (draws applied on top).
#[test]
fn own_perft_cross_checked_with_pyffish() {
    let cases: [(&str, [u64; 3]); 6] = [
        // Symmetric armies of every kind.
        (
            "r1b1kb1r/1nsccsn1/8/8/8/8/1NSCCSN1/R1B1KB1R w - - 0 1",
            [38, 1_378, 51_714],
        ),
        // Black to move, a later move number.
        ("2k5/1c6/8/3Sc3/8/5C2/6s1/4K3 b - - 3 17", [17, 299, 5_184]),
        // Ply 97: the 100-ply limit cuts the tree at depth 3.
        ("8/2k5/8/3K4/8/8/8/7r b - - 0 49", [22, 176, 3_674]),
        // King captures in the tree.
        ("7k/6C1/8/8/2b5/8/1R6/K7 w - - 0 1", [21, 276, 5_363]),
        // Kxe4 leaves only the kings: that child has no moves.
        ("8/8/8/3k4/4R3/3K4/8/8 b - - 0 1", [8, 137, 1_048]),
        // Ply 99: every child is drawn by the limit.
        ("4k3/4c3/8/8/8/8/4C3/4K3 b - - 0 50", [7, 0, 0]),
    ];
    for (fen, counts) in cases {
        let mut p = pos(fen);
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), n, "{fen} d{}", d + 1);
        }
    }
}

#[test]
fn fen_errors() {
    let cases = [
        // King-less FENs are refused: a finished position only arises by playing.
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
        ("8/8/8/8/8/8/8/4K3 b - - 0 1", "Black has no king"),
        ("rbnsc3/8/8/8/8/8/8/RBNSC3 w - - 0 1", "has no king"),
        (
            "4k3/8/8/8/8/8/8/2K1K3 w - - 0 1",
            "White has more than one king",
        ),
        // Other games and sizes.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "10 ranks",
        ),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "7 ranks"),
        (
            "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
            "rank 8 describes 9 squares",
        ),
        ("4k3/8/8/8/8/8/8/4K w - - 0 1", "rank 1 describes 5 squares"),
        // Chess and Xiangqi letters are not fairychess pieces.
        (
            "4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
            "unknown piece letter 'p'",
        ),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "unknown piece letter 'Q'"),
        ("4k3/8/8/8/8/8/8/3AK3 w - - 0 1", "unknown piece letter 'A'"),
        ("4k3/8/8/8/8/8/8/4K3 r - - 0 1", "side to move 'r'"),
        ("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "unexpected field 'KQ'"),
        ("", "empty FEN"),
    ];
    for (fen, want) in cases {
        let err = <Position as Rules>::from_fen(fen)
            .expect_err(fen)
            .to_string();
        assert!(err.contains(want), "{fen}: '{err}' lacks '{want}'");
        assert!(!err.contains('\n'), "{fen}: '{err}' is not one line");
    }
}

#[test]
fn move_text_errors() {
    let p = pos("kr1b3s/3S2Sb/2C1N3/1n3c2/2B5/4B1Nn/3R2c1/4KC1s w - - 0 1");
    for (text, want) in [
        ("h2e2x", "not a fairychess move"),
        ("i0h0", "not a fairychess move"),
        ("e9e8", "not a fairychess move"),
        ("a1a2", "no piece on a1"),
        ("b8b7", "not White's"),
        ("c6d5", "a Combatant cannot move from c6 to d5"),
        ("g7g6", "a Squire cannot move"),
    ] {
        let err = p.parse_legal_move(text).expect_err(text).to_string();
        assert!(err.contains(want), "{text}: '{err}' lacks '{want}'");
    }
    assert!(p.parse_legal_move("c6c5").is_ok());
    assert!(p.parse_legal_move("g7g5").is_ok());
}

/// A random position: both kings and up to `max` pieces a side anywhere, either side to
/// move, sometimes late in the 100 plies.
fn random_position(rng: &mut Rng, max: usize) -> Position {
    loop {
        let mut board = [' '; 64];
        for white in [true, false] {
            let n = rng.below(max + 1);
            for i in 0..=n {
                let letter = if i == 0 {
                    'K'
                } else {
                    ['R', 'B', 'N', 'S', 'C'][rng.below(5)]
                };
                let mut sq = rng.below(64);
                while board[sq] != ' ' {
                    sq = rng.below(64);
                }
                board[sq] = if white {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
            }
        }
        let fen = jiang::common::fen::write_board(8, 8, |file, rank| {
            Some(board[rank * 8 + file]).filter(|&c| c != ' ')
        });
        let side = if rng.chance(1, 2) { "w" } else { "b" };
        let fullmove = if rng.chance(1, 5) {
            30 + rng.below(15)
        } else {
            1
        };
        if let Ok(p) = Position::from_fen(&format!("{fen} {side} - - 0 {fullmove}")) {
            return p;
        }
    }
}

#[test]
fn make_unmake_restores_fen_and_key_on_random_games() {
    let mut rng = Rng::new(0xfa1c);
    let mut plies = 0;
    for _ in 0..300 {
        let start = random_position(&mut rng, 10);
        let mut p = start.clone();
        let mut played: Vec<(Move, String, u64)> = Vec::new();
        loop {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Every move is made and taken back once; then a random one is played.
            for &m in moves.iter() {
                let (fen, key) = (p.to_fen(), p.key());
                Game::make_move(&mut p, m);
                assert!(p.is_consistent(), "{fen} {m}");
                Game::unmake_move(&mut p, m);
                assert_eq!((p.to_fen(), p.key()), (fen.clone(), key), "{m}");
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            played.push((m, p.to_fen(), p.key()));
            Game::make_move(&mut p, m);
            assert!(p.is_consistent());
            // A null move too, where the search could make one.
            if p.end_by_rule().is_none() {
                let (fen, key) = (p.to_fen(), p.key());
                p.make_null_move();
                assert_eq!(p.key(), p.compute_key());
                p.unmake_null_move();
                assert_eq!((p.to_fen(), p.key()), (fen, key));
            }
            plies += 1;
        }
        for (m, fen, key) in played.into_iter().rev() {
            Game::unmake_move(&mut p, m);
            assert_eq!((p.to_fen(), p.key()), (fen, key));
        }
        assert_eq!(p, start);
    }
    assert!(plies > 3000, "only {plies} plies played");
}

#[test]
fn staged_generation_and_move_predicates_agree() {
    let mut rng = Rng::new(77);
    let (mut evasions, mut lost_in_check) = (0, 0);
    for _ in 0..400 {
        let p = random_position(&mut rng, 12);
        if p.end_by_rule().is_some() {
            continue;
        }
        let (mut all, mut caps, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
        p.generate(GenType::All, &mut all);
        p.generate(GenType::Captures, &mut caps);
        p.generate(GenType::Quiets, &mut quiets);
        assert_eq!(all.len(), caps.len() + quiets.len(), "{p:?}");
        for &m in caps.iter() {
            assert!(all.contains(m) && Game::is_capture(&p, m));
        }
        for &m in quiets.iter() {
            assert!(all.contains(m) && !Game::is_capture(&p, m));
        }
        // is_legal accepts exactly the generated moves.
        for code in 1..4096u16 {
            if let Some(m) = Position::move_from_u16(code) {
                assert_eq!(Game::is_legal(&p, m), all.contains(m), "{p:?} {m}");
            }
        }
        // The search's generator: everything, except that a side whose king is attacked
        // gets the moves that save it or take the enemy king (or one move, if none does).
        let mut search_all = MoveList::new();
        Game::generate(&p, GenType::All, &mut search_all);
        if Game::in_check(&p) {
            let them = p.king_square(p.side_to_move().flip());
            let good: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| {
                    let mut q = p.clone();
                    q.make_move(m);
                    Some(m.to()) == them || !q.king_attacked(p.side_to_move())
                })
                .collect();
            if good.is_empty() {
                assert_eq!(search_all.len(), 1, "{p:?}");
                assert!(all.contains(search_all.as_slice()[0]));
                lost_in_check += 1;
            } else {
                assert_eq!(search_all.as_slice(), &good[..], "{p:?}");
                evasions += 1;
            }
        } else {
            assert_eq!(search_all.as_slice(), all.as_slice());
        }
        // gives_check: after the move, the mover attacks the enemy king.
        for &m in all.iter() {
            let them = p.side_to_move().flip();
            let takes_king = p.king_square(them) == Some(m.to());
            let mut q = p.clone();
            q.make_move(m);
            let attacked = q.king_attacked(them);
            assert_eq!(
                Game::gives_check(&p, m),
                attacked && !takes_king,
                "{p:?} {m}"
            );
        }
        // in_check: the enemy could take the king now.
        let us = p.side_to_move();
        let mut passed = p.clone();
        passed.make_null_move();
        let king = p.king_square(us);
        let can_take = passed.legal_moves().iter().any(|m| Some(m.to()) == king);
        assert_eq!(Game::in_check(&p), can_take, "{p:?}");
    }
    assert!(
        evasions > 20 && lost_in_check > 0,
        "{evasions} {lost_in_check}"
    );
}

fn play(p: &mut Position, text: &str) {
    let m = p.parse_legal_move(text).unwrap_or_else(|e| panic!("{e}"));
    Rules::play(p, m);
}

#[test]
fn king_capture_ends_the_game() {
    // The white king on e1 is attacked by the rook; White leaves it (a legal move).
    let mut p = pos("4k3/8/8/8/8/8/8/R3K2r w - - 0 1");
    assert!(p.in_check());
    assert!(
        p.parse_legal_move("a1a2").is_ok(),
        "leaving the king attacked is legal"
    );
    play(&mut p, "a1a2");
    play(&mut p, "h1e1");
    let end = p.game_end().expect("over");
    assert_eq!((end.result.as_str(), end.winner), ("0-1", Some(1)));
    assert_eq!(end.reason, "Black captures the king");
    assert!(Rules::legal_moves(&p).is_empty());
    assert_eq!(perft(&mut p, 2), 0);
    assert_eq!(Game::rule_outcome(&p, 3, true), Some(Outcome::Loss));
    assert!(p
        .parse_legal_move("e8e7")
        .unwrap_err()
        .to_string()
        .contains("game is over"));
    // The board after the capture is written out but cannot be read back.
    assert!(<Position as Rules>::from_fen(&p.to_fen())
        .unwrap_err()
        .to_string()
        .contains("White has no king"));

    // Both kings attacked: whoever moves first captures.
    let mut p = pos("4k2R/8/8/8/8/8/8/r3K3 b - - 0 1");
    assert!(p.in_check() && p.king_attacked(Color::White));
    play(&mut p, "a1e1");
    assert_eq!(p.game_end().unwrap().reason, "Black captures the king");

    // Captures by a squire and by a combatant (diagonally only).
    let mut p = pos("8/8/8/3k4/8/3S4/8/K7 w - - 0 1");
    play(&mut p, "d3d5");
    assert_eq!(p.game_end().unwrap().result, "1-0");
    let mut p = pos("8/8/8/3k4/2C5/8/8/K7 w - - 0 1");
    play(&mut p, "c4d5");
    assert_eq!(p.game_end().unwrap().reason, "White captures the king");
    let p = pos("8/8/8/3k4/3C4/8/8/K7 w - - 0 1");
    assert!(
        p.parse_legal_move("d4d5").is_err(),
        "a combatant does not take ahead"
    );
}

#[test]
fn draws_by_rule() {
    // Only the kings left, even where one could take the other.
    let mut p = pos("8/8/8/3k4/3R4/3K4/8/8 b - - 0 1");
    play(&mut p, "d5d4");
    let end = p.game_end().expect("over");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str(), end.winner),
        ("1/2-1/2", "only kings left", None)
    );
    assert!(Rules::legal_moves(&p).is_empty(), "Kxd4 is not played");
    assert_eq!(Game::rule_outcome(&p, 1, true), Some(Outcome::Draw));
    let p = pos("8/8/8/8/3k4/3K4/8/8 w - - 0 1");
    assert_eq!(p.game_end().unwrap().reason, "only kings left");

    // 100 plies counted from the game's start: fullmove 50 with Black to move is ply 99.
    let mut p = pos("4k3/8/8/8/8/8/3C4/4K3 b - - 0 50");
    assert_eq!(p.game_ply(), 99);
    assert!(p.game_end().is_none());
    play(&mut p, "e8e7");
    let end = p.game_end().expect("over");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str()),
        ("1/2-1/2", "100-ply limit")
    );
    assert!(Rules::legal_moves(&p).is_empty());
    assert_eq!(Game::rule_outcome(&p, 1, true), Some(Outcome::Draw));
    // A FEN with fullmove 1 starts the count at 0: 99 plies later the game goes on.
    let p = pos("4k3/8/8/8/8/8/3C4/4K3 w - - 0 1");
    assert_eq!(p.game_ply(), 0);
    // A FEN at the limit is a drawn game.
    let p = pos("4k3/8/8/8/8/8/3C4/4K3 w - - 0 51");
    assert_eq!(p.game_end().unwrap().reason, "100-ply limit");

    // A king captured on the 100th ply wins.
    let mut p = pos("4k3/8/8/8/8/8/8/r3K3 b - - 0 50");
    play(&mut p, "a1e1");
    assert_eq!(p.game_ply(), 100);
    let end = p.game_end().expect("over");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str(), end.winner),
        ("0-1", "Black captures the king", Some(1))
    );
    assert_eq!(Game::rule_outcome(&p, 1, true), Some(Outcome::Loss));
    // And the last piece but the kings captured on ply 100 is a kings-only draw.
    let mut p = pos("4k3/8/8/8/8/8/3r4/4K3 w - - 0 50");
    play(&mut p, "e1d2");
    assert_eq!(p.game_end().unwrap().reason, "only kings left");
}

#[test]
fn no_legal_move_loses() {
    // The whole board full: every white piece is blocked by its own, none attacks h8
    // (the knight on g7 does not). pyffish: legal_moves [] and game_result -32000.
    let fen = "CCCCCCCk/CCCCCCNC/CCCCCCCC/CCCCCCCC/CCCCCCCC/CCCCCCCC/CCCCCCCC/KCCCCCCC w - - 0 1";
    let mut p = pos(fen);
    assert!(p.end_by_rule().is_none());
    let end = p.game_end().expect("over");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str(), end.winner),
        ("0-1", "White has no legal move", Some(1))
    );
    assert_eq!(Game::no_moves_outcome(&p), Outcome::Loss);
    assert_eq!(perft(&mut p, 1), 0);
    let r = run(
        fen,
        SearchRequest {
            depth: Some(3),
            ..SearchRequest::default()
        },
    );
    assert_eq!(r.best_move, None);
    // Black, to move there, takes a combatant (g8, h7) or the knight (g7).
    let p = pos(&fen.replace(" w ", " b "));
    assert_eq!(move_set(&p).len(), 3);
}

#[test]
fn a_side_must_move_even_when_every_move_loses() {
    // Black's king on h8 is not attacked, but each of its squares is (g8 and g7 by the g1
    // rook, g7 and h7 by the a7 rook): in chess a stalemate, here Black must move.
    let fen = "7k/R7/8/8/8/8/8/K5R1 b - - 0 1";
    let p = pos(fen);
    assert!(!p.in_check());
    assert!(p.game_end().is_none());
    let want: BTreeSet<String> = ["h8g7", "h8g8", "h8h7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(move_set(&p), want);
    // Moving into attack is legal (no check rule) and loses the king on the next ply.
    for m in &want {
        let mut q = p.clone();
        play(&mut q, m);
        assert!(q.game_end().is_none(), "{m}");
        assert!(q
            .legal_moves()
            .iter()
            .any(|r| Some(r.to()) == q.king_square(Color::Black)));
    }
    let r = run(
        fen,
        SearchRequest {
            depth: Some(6),
            ..SearchRequest::default()
        },
    );
    assert!(r.best_move.is_some(), "a move is played, not passed");
    assert_eq!(
        Score::from_internal(r.score),
        Score::Mate(-1),
        "{}",
        r.score
    );
}

#[test]
fn the_search_knows_the_ply_limit() {
    // m3_1 (a king capture on the third ply) from move 49: the capture comes on ply 99.
    let at = |fullmove: u32| format!("k7/8/8/8/8/1R6/1R3rr1/7K w - - 0 {fullmove}");
    let limits = || SearchRequest {
        depth: Some(8),
        ..SearchRequest::default()
    };
    let r = run(&at(49), limits());
    assert_eq!(Score::from_internal(r.score), Score::Mate(2), "{}", r.score);
    // From move 50 it would come on ply 101, after the game is drawn: no mate, and every
    // line ends in the draw at ply 100 (a draw scores 0 without contempt).
    let r = run(&at(50), limits());
    assert_eq!(r.score, 0, "pv {:?}", r.pv);
    assert!(r.best_move.is_some());
}

fn run(fen: &str, limits: SearchRequest<Move>) -> SearchResult<Move> {
    let p = pos(fen);
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, None, false);
    search(&p, &limits, &tt, &control, &|_| {})
}

/// The course's best-move cases, with a node limit (a fraction of a second in release).
#[test]
fn course_best_moves() {
    let cases = [
        (
            "m1_1",
            "5C2/1R2CkCS/5C2/8/3r4/2K5/5R2/b2b4 w - - 0 1",
            "h7f7",
            Some(1),
        ),
        (
            "m3_1",
            "k7/8/8/8/8/1R6/1R3rr1/7K w - - 0 1",
            "b3a3",
            Some(2),
        ),
        (
            "m5_1",
            "4k3/4C3/3K1C2/8/8/8/8/c7 w - - 0 1",
            "d6e6",
            Some(3),
        ),
        // The squire forks king and rook; after Rxe6 Kxe6 only the kings are left: a
        // draw, and the best White has (a squire against a rook loses otherwise).
        ("e3_1", "4k3/8/2SK4/8/4r3/8/8/8 w - - 0 1", "c6e6", None),
        ("e3_2", "2R5/2K5/8/r7/8/8/2k1r3/8 w - - 0 1", "c7b6", None),
    ];
    for (id, fen, best, mate) in cases {
        let r = run(
            fen,
            SearchRequest {
                nodes: Some(300_000),
                ..SearchRequest::default()
            },
        );
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            r.best_move.map(|m| m.to_string()).as_deref(),
            Some(best),
            "{id}: pv {pv:?} score {}",
            r.score
        );
        if let Some(n) = mate {
            // Mate in n moves = the king captured on ply 2n-1: the shortest forced win.
            assert_eq!(
                Score::from_internal(r.score),
                Score::Mate(n),
                "{id}: pv {pv:?}"
            );
            let mut p = pos(fen);
            for m in &r.pv {
                assert!(p.legal_moves().contains(*m), "{id}: PV move {m} illegal");
                p.make_move(*m);
            }
            assert_eq!(r.pv.len() as i32, 2 * n - 1, "{id}: PV {pv:?}");
            assert_eq!(
                p.game_end().map(|e| e.winner),
                Some(Some(Color::White.index())),
                "{id}"
            );
        } else if id == "e3_1" {
            assert_eq!(r.score, 0, "{id}: pv {pv:?}");
        } else {
            assert!(
                r.score > -5000 && r.score < 5000,
                "{id}: no mate, score {}",
                r.score
            );
        }
    }
}

#[test]
fn losing_side_sees_the_king_capture_coming() {
    // Black to move, its king attacked by the h1 rook, every flight square (g8, g7, h7)
    // covered by the rooks: White captures the king on the next ply.
    let r = run(
        "7k/8/8/8/8/8/8/K5RR b - - 0 1",
        SearchRequest {
            depth: Some(6),
            ..SearchRequest::default()
        },
    );
    assert_eq!(
        Score::from_internal(r.score),
        Score::Mate(-1),
        "score {}",
        r.score
    );
}

/// The start position: the course has none, jiang's is a full army (XBoard takes the
/// start from the `setup` FEN, so two bare kings would not do): chess's back rank with the
/// squire in the queen's place and a rank of combatants, the same for both colours.
#[test]
fn start_position_is_a_mirrored_full_army() {
    let start = <Position as Rules>::start_position();
    assert_eq!(
        START_FEN,
        "rnbskbnr/cccccccc/8/8/8/8/CCCCCCCC/RNBSKBNR w - - 0 1"
    );
    assert_eq!(start.to_fen(), START_FEN);
    assert_eq!(start.game_ply(), 0);
    for i in 0..64 {
        let sq = Square::from_index(i);
        let mirror = Square::from_coords(sq.file(), 7 - sq.rank()).unwrap();
        let (a, b) = (start.piece_at(sq), start.piece_at(mirror));
        assert_eq!(
            a.map(|p| p.kind()),
            b.map(|p| p.kind()),
            "{sq} and {mirror}"
        );
        if let (Some(a), Some(b)) = (a, b) {
            assert_eq!(a.color(), b.color().flip(), "{sq} and {mirror}");
        }
    }
    assert_eq!(start.pieces_of(Color::White).count_ones(), 16);
    // Nothing can be taken by either side: the game starts quietly.
    let mut passed = start.clone();
    passed.make_null_move();
    for p in [&start, &passed] {
        let mut caps = MoveList::new();
        p.generate(GenType::Captures, &mut caps);
        assert!(caps.is_empty(), "{}", p.to_fen());
    }
    // Perft counted with pyffish 0.0.90 and the definition of variants.md.
    let mut p = start.clone();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&mut p, d)).collect();
    assert_eq!(counts, [13, 169, 3_159]);
    assert_eq!(p.to_fen(), START_FEN);
}

/// XBoard learns the game from `setup`: its FEN must be jiang's start, in the piece
/// letters of the `setup` list (squire in the ferz's slot, combatant in the wazir's),
/// with the two pieces' moves given by `piece`.
#[test]
fn cecp_setup_announces_the_start_position() {
    use engine::{assert_no_panic, Engine, SLOW};
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.expect_line("features", SLOW, |l| {
        l.contains("variants=") && l.contains("fairychess")
    });
    e.send("variant fairychess");
    let setup = e.expect_line("setup", SLOW, |l| l.starts_with("setup "));
    assert_eq!(
        setup,
        format!("setup (.NBR.S...CK.nbr.s...ck) 8x8+0_fairy {START_FEN}")
    );
    e.expect_line("the squire", SLOW, |l| l == "piece S& FD");
    e.expect_line("the combatant", SLOW, |l| l == "piece C& mWcF");
    // Every letter of the FEN is one of the setup list's pieces.
    let list = ".NBR.S...CK.nbr.s...ck";
    assert!(START_FEN
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .all(|c| c == '/' || c.is_ascii_digit() || list.contains(c)));
    e.send("ping 7");
    e.expect_line("pong", SLOW, |l| l == "pong 7");
    assert_no_panic(&e);
}
