//! Microchess rules: perft (the handout's counts with the last-move rule, pyffish's
//! without it), FEN reading and writing, the end of the game and its payoffs, and the
//! front end's [`Rules`] behaviour.

use jiang::game::Rules;
use jiang::microchess::{Ending, Move, Piece, Position, Side, Square, Status, HANDOUT_FEN};
use jiang::perft::{divide, perft};

fn sq(s: &str) -> Option<Square> {
    Some(Square::parse(s).expect("square"))
}

fn mv(s: &str) -> Move {
    Move::parse(s).expect("move")
}

fn fen(s: &str) -> Position {
    Position::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Plays moves given as text through the front end.
fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let m = pos
            .parse_legal_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        Rules::play(pos, m);
    }
}

/// perft with the game cut at every king capture: the extinction game pyffish knows.
fn perft_without_last_move(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if !pos.has(Piece::WhiteKing) || !pos.has(Piece::BlackKing) {
        return 0;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| perft_without_last_move(&pos.after(m), depth - 1))
        .sum()
}

#[test]
fn handout_perft_with_the_last_move_rule() {
    let mut pos = fen(HANDOUT_FEN);
    let expected = [11, 143, 1_319, 13_342, 116_731];
    for (depth, &nodes) in (1..).zip(&expected) {
        assert_eq!(perft(&mut pos, depth), nodes, "depth {depth}");
        let report = divide(&mut pos, depth);
        assert_eq!(report.nodes, nodes);
        assert_eq!(report.divide.len(), 11);
    }
    // Without the rule: the handout's other sequence.
    let cut: Vec<u64> = (1..=5).map(|d| perft_without_last_move(&pos, d)).collect();
    assert_eq!(cut, [11, 137, 1_250, 12_648, 111_266]);
}

#[test]
fn perft_matches_pyffish_without_the_last_move_rule() {
    let data = include_str!("microchess_pyffish_perft.txt");
    let mut records = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (text, counts) = line.split_once(';').expect("FEN;counts");
        let pos = fen(text);
        for (depth, count) in (1..).zip(counts.split(',')) {
            let count: u64 = count.parse().expect("count");
            assert_eq!(
                perft_without_last_move(&pos, depth),
                count,
                "{text} depth {depth}"
            );
        }
        records += 1;
    }
    assert_eq!(records, 60);
}

#[test]
fn fen_errors_are_one_line_reasons() {
    let bad = [
        ("", "empty"),
        ("2R1/3r/Kk2/4/4 w - - 0 1", "5 ranks"),
        ("2R2/3r1/Kk3/5/5 w - - 0 1", "5 ranks"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "10 ranks",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8 ranks",
        ),
        ("2R1/3r/Kk3/4 w - - 0 1", "rank 2"),
        ("2R1/3r/Kk1/4 w - - 0 1", "rank 2"),
        ("2R1/3r/Kk2/5 w - - 0 1", "count 1-4"),
        ("2R1/3r/Kk2/04 w - - 0 1", "count 1-4"),
        ("2Q1/3r/Kk2/4 w - - 0 1", "'Q'"),
        ("2R1/3p/Kk2/4 w - - 0 1", "'p'"),
        ("2R1/3r/KK2/4 w - - 0 1", "more than one 'K'"),
        ("2R1/3r/Kk2/r3 w - - 0 1", "more than one 'r'"),
        ("2R1/3r/Kk2/4 x - - 0 1", "side to move"),
        ("2R1/3r/Kk2/4 r - - 0 1", "side to move"),
        ("2R1/3r/Kk2/4 w KQ - 0 1", "'KQ'"),
        ("2R1/3r/Kk2/4 w - - x 1", "since the last capture"),
        ("2R1/3r/Kk2/4 w - - 31 16", "since the last capture"),
        ("2R1/3r/Kk2/4 w - - 3 1", "3 plies since the last capture"),
        ("2R1/3r/Kk2/4 w - - 0 0", "move number"),
        ("2R1/3r/Kk2/4 w - - 0 -1", "move number"),
        ("2R1/3r/Kk2/4 b - - 0 16", "31 plies"),
        ("2R1/3r/Kk2/4 w - - 0 17", "32 plies"),
        ("2R1/3r/Kk2/4 w - - 0 99999999999", "move number"),
        ("2R1/3r/Kk2/4 w - - 0 1 extra", "extra"),
        // No king: Black's gone with Black to move is a last-move state; these are not.
        ("2R1/4/K3/4 w - - 0 2", "no king and no rook"),
        ("4/4/4/4 w - - 0 2", "no king and no rook"),
        ("2R1/4/4/4 w - - 0 2", "no king and no rook"),
        ("2r1/4/4/4 b - - 0 2", "no king and no rook"),
        ("2R1/3r/1k2/4 w - - 0 1", "no ply"),
        ("2R1/3r/4/4 b - - 0 1", "2 plies"),
    ];
    for (text, reason) in bad {
        match Position::from_fen(text) {
            Ok(p) => panic!("accepted {text:?} as {}", p.to_fen()),
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains(reason), "{text:?}: {e:?} lacks {reason:?}");
                assert!(!e.contains('\n'), "{e:?}");
            }
        }
    }
}

#[test]
fn king_less_positions_that_play_reaches_are_read() {
    // Last-move states: the victim to move.
    assert_eq!(fen("2R1/3r/K3/4 b - - 0 1").status(), Status::LastMove);
    assert_eq!(fen("2R1/3r/3k/4 w - - 0 2").status(), Status::LastMove);
    // Black's king captured on ply 30: no last move.
    assert_eq!(
        fen("2R1/3r/3k/4 w - - 0 16").status(),
        Status::Over(Ending::Win(Side::Black))
    );
    // After the last move, and a tie.
    assert_eq!(
        fen("2R1/3r/K3/4 w - - 0 2").status(),
        Status::Over(Ending::Win(Side::White))
    );
    assert_eq!(
        fen("2R1/3r/4/4 w - - 0 2").status(),
        Status::Over(Ending::Tie)
    );
    assert_eq!(
        fen("4/3r/4/4 w - - 0 2").status(),
        Status::Over(Ending::Tie)
    );
    // Black's king gone, no Black rook: over at once.
    assert_eq!(
        fen("2R1/4/K3/4 b - - 0 1").status(),
        Status::Over(Ending::Win(Side::White))
    );
}

#[test]
fn results_and_payoffs_in_words() {
    // Kxb2, then Black's last rook move misses White's king: White wins.
    let mut pos = fen(HANDOUT_FEN);
    play(&mut pos, &["a2b2"]);
    assert_eq!(Rules::game_end(&pos), None);
    let last: Vec<String> = Rules::legal_moves(&pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(last, ["d3d4", "d3d2", "d3d1", "d3c3", "d3b3", "d3a3"]);
    play(&mut pos, &["d3d1"]);
    let end = Rules::game_end(&pos).expect("over");
    assert_eq!(
        end.to_string(),
        "1-0 {White captured the king (payoffs 3 0)}"
    );
    assert_eq!(end.winner, Some(0));
    assert!(Rules::legal_moves(&pos).is_empty());
    let err = pos.parse_legal_move("b2c2").unwrap_err().to_string();
    assert!(err.contains("game is over"), "{err}");

    // Black's king takes White's; White's rook takes it back: a tie.
    let mut pos = fen("R3/4/1k2/K2r b - - 0 2");
    play(&mut pos, &["b2a1", "a4a1"]);
    let end = Rules::game_end(&pos).expect("over");
    assert_eq!(
        end.to_string(),
        "1/2-1/2 {both kings captured: tie, payoffs 2 2}"
    );
    assert_eq!(end.winner, None);

    // Black wins: White's last move misses.
    let mut pos = fen("R3/4/1k2/K2r b - - 0 2");
    play(&mut pos, &["b2a1", "a4b4"]);
    let end = Rules::game_end(&pos).expect("over");
    assert_eq!(
        end.to_string(),
        "0-1 {Black captured the king (payoffs 0 3)}"
    );
    assert_eq!(end.winner, Some(1));

    // Ply 30 with both kings: a draw.
    let mut pos = fen("R3/4/3k/K2r b - - 0 15");
    assert_eq!(pos.plies(), 29);
    play(&mut pos, &["d2d3"]);
    let end = Rules::game_end(&pos).expect("over");
    assert_eq!(end.to_string(), "1/2-1/2 {30 plies: draw, payoffs 1 1}");
    assert_eq!(end.winner, None);

    // A king captured on ply 30: the capturer wins, no last move.
    let mut pos = fen("R3/4/1k2/K2r b - - 0 15");
    play(&mut pos, &["b2a1"]);
    assert_eq!(
        Rules::game_end(&pos).expect("over").to_string(),
        "0-1 {Black captured the king (payoffs 0 3)}"
    );
}

#[test]
fn moves_from_outside_are_checked() {
    let pos = fen(HANDOUT_FEN);
    for (text, reason) in [
        ("a2", "not a Microchess move"),
        ("h2e2", "not a Microchess move"),
        ("a0a1", "not a Microchess move"),
        ("e2e4", "not a Microchess move"),
        ("a2b2q", "not a Microchess move"),
        ("a2c2", "not legal"),
        ("b2b3", "not legal"),
        ("c4d3", "not legal"),
        ("c4c4", "not legal"),
    ] {
        let err = pos.parse_legal_move(text).unwrap_err().to_string();
        assert!(err.contains(reason), "{text}: {err}");
    }
    assert_eq!(pos.parse_legal_move("c4a4"), Ok(mv("c4a4")));
}

#[test]
fn the_front_end_view() {
    assert_eq!(<Position as Rules>::NAME, "microchess");
    let pos = <Position as Rules>::start_position();
    assert_eq!(Rules::to_fen(&pos), HANDOUT_FEN);
    assert_eq!(pos.player_to_move(), 0);
    let d = pos.diagram();
    for line in [
        " 4 | . . R . |",
        " 3 | . . . r |",
        " 2 | K k . . |",
        " 1 | . . . . |",
    ] {
        assert!(d.contains(line), "{d}");
    }
    assert!(d.contains("White guaranteed 3"), "{d}");
    assert!(d.contains("Black guaranteed 0"), "{d}");
    assert!(d.contains("jiang plays: a2b2"), "{d}");
    let e = pos.eval_report();
    assert!(e.contains("c4a4  guaranteed 1"), "{e}");
    assert!(e.contains("a2b2  guaranteed 3 0"), "{e}");
    assert!(e.contains("Choice: a2b2"), "{e}");
    let last = fen("2R1/3r/K3/4 b - - 0 1");
    assert!(last.diagram().contains("one last rook move"));
    assert_eq!(last.player_to_move(), 1);
    // Every move of a last-move state is a rook move.
    assert!(Rules::legal_moves(&last)
        .iter()
        .all(|m| m.from() == sq("d3").unwrap()));
}
