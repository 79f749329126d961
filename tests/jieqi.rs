//! Jieqi (揭棋): the rules (face-down moves, reveals, free advisors and elephants, the
//! flying general, captures of face-down pieces), the FEN (JieqiBox's, with jiang's
//! assignment field) read and written back, bad FENs refused with a typed error, the
//! perfts checked against counts from JieqiBox's own move legality
//! (`tests/jieqi_reference.txt`, written by `tools/jieqi/crosscheck.mjs`), move
//! generation without allocation, and the generic search answering a legal move.

#[path = "common/count_alloc.rs"]
mod count_alloc;
#[path = "common/engine.rs"]
mod engine;

use jiang::common::FenError;
use jiang::game::{GenType, Rules};
use jiang::jieqi::{perft_chance, perft_view, Color, JieqiFenError, Kind, Position, START_FEN};
use jiang::movelist::MoveList;
use std::time::Duration;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn has(p: &Position, m: &str) -> bool {
    moves(p).iter().any(|x| x == m)
}

#[test]
fn start_position_is_jieqibox_s() {
    let p = Position::start_position();
    assert_eq!(p.to_fen(), START_FEN);
    assert!(!p.is_full_information());
    // The same 44 moves as Xiangqi: face-down pieces move as their squares' pieces.
    assert_eq!(p.legal_moves().len(), 44);
    let mut q = p.clone();
    // 41 face-down moves, each one of 6 kinds; the two cannon captures of a face-down
    // horse, 6 kinds revealed times 6 kinds captured; the king's move.
    assert_eq!(perft_chance(&mut q, 1), 41 * 6 + 2 * 36 + 1);
    assert_eq!(perft_view(&mut q, 1), 44);
    // Legacy JieqiBox format reads the same.
    let legacy = pos(
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX A2B2N2R2C2P5a2b2n2r2c2p5 w - - 0 1",
    );
    assert_eq!(legacy, p);
}

#[test]
fn jieqibox_issue_13_views_read() {
    // Red's cannon took a face-down piece, revealed as a soldier, which was a black
    // soldier: Red's (and the all-seeing) view, then Black's, which does not know it.
    let red = pos("xxxxkxxPx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX b R2r2N2n2B2b2A2a2C2c2P4p4 p1 0 1");
    assert_eq!(red.captured_hidden(Color::Black)[Kind::Pawn as usize], 1);
    let black = pos("xxxxkxxPx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX b R2r2N2n2B2b2A2a2C2c2P4p5 - 0 1");
    assert_eq!(black.pool(Color::Black)[Kind::Pawn as usize], 5);
    assert_eq!(red.legal_moves(), black.legal_moves());
    assert!(red.diagram().contains("Black unseen: r2n2b2a2c2p4;"));
}

#[test]
fn face_down_advisor_keeps_the_palace_revealed_one_does_not() {
    let p = Position::start_position();
    assert!(has(&p, "d0e1"));
    assert!(!has(&p, "d0c1"));
    // A revealed advisor on d0 may leave the palace.
    let q = pos("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert!(has(&q, "d0c1"));
    // A revealed elephant crosses the river; its eye still blocks.
    let e = pos("3k5/9/9/9/9/4B4/9/9/9/4K4 w - - 0 1");
    assert!(has(&e, "e4c6") && has(&e, "e4g6") && has(&e, "e4c2"));
    let blocked = pos("3k5/9/9/9/3p5/4B4/9/9/9/4K4 w - - 0 1");
    assert!(!has(&blocked, "e4c6"));
    // A soldier revealed behind its start square steps forward, not back, not sideways.
    let s = pos("3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1");
    assert_eq!(
        moves(&s)
            .iter()
            .filter(|m| m.starts_with("a1"))
            .collect::<Vec<_>>(),
        ["a1a2"]
    );
}

#[test]
fn a_reveal_comes_from_the_pool_and_a_captured_face_down_piece_is_known_to_the_capturer() {
    let mut p = Position::start_position();
    let m = p.parse_legal_move("a0a1N").unwrap();
    p.play(m);
    assert_eq!(p.pool(Color::Red)[Kind::Knight as usize], 1);
    assert!(p
        .to_fen()
        .starts_with("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/N8/1XXXKXXXX b"));
    // The horse now moves as a horse.
    let black = p.parse_legal_move("a9a8").unwrap();
    p.play(black);
    assert!(has(&p, "a1b3") && has(&p, "a1c2"));
    // The face-down cannon b2 takes the face-down horse b9, revealed as a chariot, and
    // learns that it took a black cannon.
    let mut q = Position::start_position();
    let take = q.parse_legal_move("b2b9Rc").unwrap();
    q.play(take);
    assert_eq!(q.pool(Color::Black)[Kind::Cannon as usize], 1);
    assert_eq!(q.captured_hidden(Color::Black)[Kind::Cannon as usize], 1);
    assert_eq!(
        q.to_fen(),
        "xRxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX b R1r2N2n2B2b2A2a2C2c1P5p5 c1 0 1"
    );
    // Letters that do not fit: a reveal on a face-up piece, a kind the pool lacks, the
    // king, a captured kind on a face-up victim.
    assert!(q.parse_legal_move("a9a8r").is_ok());
    let mut r = q.clone();
    r.play(r.parse_legal_move("a9a8").unwrap());
    assert!(r.parse_legal_move("b9b8r").is_err(), "b9 is face up");
    assert!(Position::start_position()
        .parse_legal_move("a0a1K")
        .is_err());
    let none_left = pos("3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1");
    assert!(none_left.parse_legal_move("a0a1B").is_err());
    assert!(none_left.parse_legal_move("a0a1R").is_ok());
}

#[test]
fn checks_mate_stalemate_and_the_flying_general() {
    // Kings on one open file: the move that opens it is illegal.
    let p = pos("4k4/9/9/9/4a4/9/9/9/9/4K4 b - - 0 1");
    assert!(!has(&p, "e5d4") && !has(&p, "e5f6"));
    assert!(has(&p, "e9d9"));
    // A FEN whose side not to move is in check is refused.
    assert_eq!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap_err(),
        FenError::OpponentInCheck
    );
    // Mate by two chariots: no move, Red wins.
    let mate = pos("R2k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1");
    assert!(mate.legal_moves().is_empty());
    let end = mate.game_end().unwrap();
    assert_eq!(end.result, "1-0");
    assert_eq!(end.reason, "Red mates");
    // Stalemate loses too.
    let stale = pos("3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1");
    assert!(stale.legal_moves().is_empty());
    let end = stale.game_end().unwrap();
    assert_eq!(
        (end.result.as_str(), end.reason.as_str()),
        ("1-0", "Red stalemates")
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    for _ in 0..2 {
        for m in ["a0a1", "d9d8", "a1a0", "d8d9"] {
            let mv = p.parse_legal_move(m).unwrap();
            p.play(mv);
        }
    }
    let end = p.game_end().unwrap();
    assert_eq!(end.result, "1/2-1/2");
    assert!(p.legal_moves().is_empty());
}

#[test]
fn fen_round_trip_and_full_information() {
    let start = Position::start_position();
    for seed in 0..20 {
        let full = start.deal(seed).unwrap();
        assert!(full.is_full_information());
        let fen = full.to_fen();
        assert_eq!(fen.split_whitespace().count(), 7, "{fen}");
        assert_eq!(pos(&fen), full, "{fen}");
        assert_eq!(pos(&fen).to_fen(), fen);
        // Play a few moves and read back every position.
        let mut p = full.clone();
        for i in 0..30 {
            let ms = p.legal_moves();
            if ms.is_empty() {
                break;
            }
            p.play(ms[(seed as usize * 7 + i * 13) % ms.len()]);
            let f = p.to_fen();
            assert_eq!(pos(&f).to_fen(), f);
        }
    }
}

#[test]
fn bad_fens_are_refused_with_a_typed_error() {
    let game = |e: FenError| match e {
        FenError::Game(r) => r.get::<JieqiFenError>().cloned(),
        _ => None,
    };
    let cases: &[&str] = &[
        "",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXX w R2 - 0 1",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX q - - 0 1",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2r2N2n2B2b2A2a2C2c2P5p5 - x 1",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2r2N2n2B2b2A2a2C2c2P5p5 - 0 0",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2r2N2n2B2b2A2a2C2c2P5p5 - 0 1 a b",
        "3k5/9/9/9/9/9/9/9/4X4/4K4 w P1 - 0 1",
        "3k5/9/9/9/9/9/9/9/9/3KX4 w P1 - 0 1",
        "3k5/9/9/9/9/9/9/9/9/K8 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/9 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/3KK4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w R3 - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4KRRR1 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w K1 - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w R! - 0 1",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2 - 0 1",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1 RRN",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1 RRNn",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1 RRNK",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1 RRNB",
        "3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2B1 - 0 1 RRNN",
        "4z4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 99999 1",
    ];
    for fen in cases {
        assert!(Position::from_fen(fen).is_err(), "accepted: {fen}");
    }
    assert_eq!(
        game(Position::from_fen("3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2 - 0 1").unwrap_err()),
        Some(JieqiFenError::PoolTooSmall {
            side: "Red",
            hidden: 4,
            pool: 2
        })
    );
    assert_eq!(
        game(Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w K1 - 0 1").unwrap_err()),
        Some(JieqiFenError::KingInPool)
    );
    assert_eq!(
        game(Position::from_fen("3k5/9/9/9/9/9/9/9/9/XXXXK4 w R2N2 - 0 1 RRN").unwrap_err()),
        Some(JieqiFenError::AssignmentCount {
            found: 3,
            expected: 4
        })
    );
    assert!(matches!(
        Position::from_fen("3k5/9/9/9/9/9/9/9/4X4/4K4 w P1 - 0 1").unwrap_err(),
        FenError::ImpossibleSquare { letter: 'X', .. }
    ));
    // Mangled FENs: an error or a position, never a panic.
    let base: Vec<char> = START_FEN.chars().collect();
    let alphabet: Vec<char> = "xXkK0123456789/ -wbRr".chars().collect();
    let mut state = 1u64;
    for _ in 0..5000 {
        let mut s = base.clone();
        for _ in 0..3 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (state >> 33) as usize % s.len();
            let c = alphabet[(state >> 20) as usize % alphabet.len()];
            match (state >> 10) % 3 {
                0 => s[i] = c,
                1 => s.insert(i, c),
                _ => {
                    s.remove(i);
                }
            }
        }
        let text: String = s.into_iter().collect();
        if let Ok(p) = Position::from_fen(&text) {
            let _ = p.legal_moves();
            assert_eq!(pos(&p.to_fen()).to_fen(), p.to_fen());
        }
    }
}

/// Every line of `tests/jieqi_reference.txt` (written by `tools/jieqi/crosscheck.mjs`,
/// whose counts come from JieqiBox's move legality): a full-information FEN with its
/// perft, and the player's view with its chance and view perft.
#[test]
fn perft_matches_the_jieqibox_reference() {
    let text = include_str!("jieqi_reference.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| l.starts_with("ok")) {
        let (full, view) = line.split_once(" || view ").unwrap();
        let (full_fen, full_counts) = full["ok   full ".len()..].split_once(" | ").unwrap();
        let (view_fen, view_counts) = view.split_once(" | ").unwrap();
        let words: Vec<&str> = full_counts.split_whitespace().collect();
        let depth: u32 = words[0]["perft(".len()..words[0].len() - 1]
            .parse()
            .unwrap();
        let want: u64 = words[1].parse().unwrap();
        let mut p = pos(full_fen);
        assert!(p.is_full_information() || !full_fen.contains(' '));
        assert_eq!(jiang::perft::perft(&mut p, depth), want, "{full_fen}");
        let w: Vec<&str> = view_counts.split_whitespace().collect();
        let cd: u32 = w[0]["chance(".len()..w[0].len() - 1].parse().unwrap();
        let mut v = pos(view_fen);
        assert_eq!(
            perft_chance(&mut v, cd),
            w[1].parse::<u64>().unwrap(),
            "{view_fen}"
        );
        assert_eq!(
            perft_view(&mut v, cd),
            w[5].parse::<u64>().unwrap(),
            "{view_fen}"
        );
        assert_eq!(v.to_fen(), view_fen);
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} reference positions");
}

#[test]
fn start_position_perft() {
    // Each move once (the `perft` command): with full information, deal 1.
    let mut full = Position::start_position().deal(1).unwrap();
    assert_eq!(jiang::perft::perft(&mut full, 1), 44);
    let mut view = Position::start_position();
    assert_eq!(perft_chance(&mut view, 2), 95862);
    assert_eq!(perft_view(&mut view, 2), 13902);
}

#[test]
fn move_generation_and_make_unmake_allocate_nothing() {
    let mut p = Position::start_position().deal(3).unwrap();
    p.reserve(64);
    let (n, _) = count_alloc::allocations_in(|| {
        let mut total = 0;
        for _ in 0..20 {
            let mut list = MoveList::new();
            p.generate(GenType::All, &mut list);
            let Some(&m) = list.iter().next() else { break };
            total += list.len();
            p.make_move(m);
        }
        total
    });
    assert_eq!(n, 0);
}

#[test]
fn the_search_answers_a_legal_move() {
    let mut e = engine::Engine::start();
    e.send("uci");
    e.expect_line("uciok", engine::SLOW, |l| l == "uciok");
    e.send("setoption name UCI_Variant value jieqi");
    e.send("position startpos moves b2e2C");
    e.send("go movetime 200");
    let (mv, _) = e.bestmove(Duration::from_secs(10));
    let mut p = Position::start_position();
    p.play(p.parse_legal_move("b2e2C").unwrap());
    assert!(p.parse_legal_move(&mv).is_ok(), "bestmove {mv}");
    e.send("quit");
}

#[test]
fn a_jieqi_fen_makes_uci_play_jieqi_but_not_ucci() {
    // UCI without UCI_Variant, as JieqiBox: the FEN alone switches the game.
    let mut e = engine::Engine::start();
    e.send("uci");
    e.expect_line("uciok", engine::SLOW, |l| l == "uciok");
    // A mistyped Xiangqi FEN stays refused as Xiangqi's, and the game stays Xiangqi.
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w - - 0 1");
    let lines = e.sync(engine::SLOW);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("refused") && l.contains("(xiangqi)")),
        "{lines:?}"
    );
    e.send(&format!("position fen {START_FEN}"));
    let lines = e.sync(engine::SLOW);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("playing jieqi")),
        "{lines:?}"
    );
    e.send("go depth 3");
    let (mv, _) = e.bestmove(Duration::from_secs(10));
    let start = Position::start_position();
    assert!(start.parse_legal_move(&mv).is_ok(), "bestmove {mv}");
    e.send("quit");

    // UCCI plays Xiangqi only: the same FEN is refused.
    let mut e = engine::Engine::start();
    e.send("ucci");
    e.expect_line("ucciok", engine::SLOW, |l| l == "ucciok");
    e.send(&format!("position fen {START_FEN}"));
    let lines = e.sync(engine::SLOW);
    assert!(
        lines.iter().any(|l| l.contains("position refused")),
        "{lines:?}"
    );
    e.send("quit");
}

#[test]
fn outcome_weights_count_the_ways_each_reveal_happens() {
    // From the start each side has 15 unseen pieces: a face-down move's outcomes weigh
    // 15 in all (5 of them a soldier), a face-down capture of a face-down piece 15 × 15.
    let p = Position::start_position();
    let total = |text: &str| -> (u32, usize) {
        let (outs, n) = p.outcomes(p.parse_legal_move(text).unwrap());
        (outs[..n].iter().map(|&o| p.outcome_weight(o)).sum(), n)
    };
    assert_eq!(total("b2b6"), (15, 6));
    assert_eq!(total("b2b9"), (15 * 15, 36));
    assert_eq!(total("e0e1"), (1, 1));
    let pawn = p.parse_legal_move("b2b6P").unwrap();
    assert_eq!(p.outcome_weight(pawn), 5);
}

#[test]
fn a_reveal_at_the_root_is_valued_over_its_outcomes_not_by_one_draw() {
    // Red's face-down piece on a0 moves as a chariot. a0a9 mates if it turns out to be
    // a chariot (1 of the 8 pieces Red has unseen; Black's king on d9 is boxed in by
    // its own soldiers), and leaves a loose advisor or soldier on a9 otherwise; i0i6
    // wins a horse for sure. Among these placements of a black soldier
    // (which only changes the position's key), take one where the search's own
    // deterministic draw for a0a9 is the chariot: a search that trusted its one draw
    // would see a mate in one there and play it.
    let rook = Kind::Rook as u8;
    let fen = (3..=7)
        .flat_map(|rank| (1..=6).map(move |file| (rank, file)))
        .map(|(rank, file)| {
            let row = |r: usize| match r {
                9 => "3kp4".to_string(),
                8 => "3p5".to_string(),
                6 if rank == 6 => format!("{file}p{}n", 7 - file),
                6 => "8n".to_string(),
                0 => "X3K3R".to_string(),
                r if r == rank => format!("{file}p{}", 8 - file),
                _ => "9".to_string(),
            };
            let rows: Vec<String> = (0..=9).rev().map(row).collect();
            format!("{} w R1A2P5 - 0 1", rows.join("/"))
        })
        .find(|fen| {
            let p = pos(fen);
            let reveal = p.parse_legal_move("a0a9").unwrap();
            p.resolved(reveal).reveal == rook
        })
        .expect("no placement draws the chariot");
    // The mate is there if the chariot comes.
    let mut mated = pos(&fen);
    mated.play(mated.parse_legal_move("a0a9R").unwrap());
    assert!(mated.legal_moves().is_empty(), "{fen}");

    let mut e = engine::Engine::start();
    e.send("uci");
    e.expect_line("uciok", engine::SLOW, |l| l == "uciok");
    e.send("setoption name UCI_Variant value jieqi");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 6");
    let (mv, lines) = e.bestmove(Duration::from_secs(20));
    assert_eq!(mv, "i0i6", "{fen}: {lines:?}");
    e.send("quit");
}
