//! Baroque chess: the rule book's 25 worked examples (`tests/baroque_examples.txt`),
//! start-position perft 1–3, FEN errors, the end of the game, and properties checked on
//! random positions (mirror symmetry, make/unmake, frozen pieces, friendly pieces never
//! captured, staged generation, move codes).

mod common;

use common::Rng;
use jiang::baroque::bitboard::squares;
use jiang::baroque::captures::can_capture;
use jiang::baroque::movegen::{count_moves, has_legal_move, legal_moves};
use jiang::baroque::{Color, Move, Piece, PieceKind, Position, START_FEN};
use jiang::common::FenError;
use jiang::game::{Game, GenType, Outcome, Rules};
use jiang::movelist::MoveList;
use jiang::perft::perft;
use std::collections::BTreeSet;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn frozen_squares(p: &Position) -> Vec<String> {
    let set = p.frozen(Color::White) | p.frozen(Color::Black);
    let mut v: Vec<String> = squares(set).map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `m`, checking that it removes only enemy pieces, and that unmaking it restores
/// the position and key; returns the position after it.
fn play_checked(p: &Position, m: Move) -> Position {
    let mut q = p.clone();
    let before_fen = q.to_fen();
    let before_key = q.key();
    let us = q.side_to_move();
    let mine_before = q.board().color(us);
    let theirs_before = q.board().color(us.flip());
    q.make_move(m);
    assert!(
        q.is_consistent(),
        "{before_fen} {m}: inconsistent after make"
    );
    let mine_after = q.board().color(us);
    assert_eq!(
        mine_after.count_ones(),
        mine_before.count_ones(),
        "{before_fen} {m}: a friendly piece was removed"
    );
    let caught = p.captures_of(m);
    assert_eq!(
        caught & mine_before,
        0,
        "{before_fen} {m}: captures a friend"
    );
    assert_eq!(
        q.board().color(us.flip()),
        theirs_before & !caught,
        "{before_fen} {m}: removed pieces differ from the capture set"
    );
    let after = q.clone();
    q.unmake_move(m);
    assert_eq!(q.to_fen(), before_fen, "{m}: unmake");
    assert_eq!(q.key(), before_key, "{before_fen} {m}: unmake key");
    assert_eq!(q, *p, "{before_fen} {m}: unmake position");
    after
}

/// Runs the worked examples file; returns the number of checks made.
fn run_examples(text: &str) -> usize {
    let mut checks = 0;
    let mut example = String::new();
    let mut base: Option<Position> = None;
    let mut current: Option<Position> = None;
    let mut pending_move: Option<(Position, String)> = None;
    for (lineno, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let value = value.trim();
        let ctx = format!("line {} ({example})", lineno + 1);
        match key {
            "example" => {
                example = value.to_string();
                base = None;
                current = None;
            }
            "fen" => {
                let p = pos(value);
                assert_eq!(p.to_fen(), value, "{ctx}: FEN round trip");
                assert!(p.is_consistent(), "{ctx}");
                base = Some(p.clone());
                current = Some(p);
            }
            "frozen" => {
                let p = base.as_ref().expect("fen first");
                let want: Vec<String> = value.split_whitespace().map(String::from).collect();
                assert_eq!(frozen_squares(p), want, "{ctx}: frozen pieces");
                // A frozen piece has no moves.
                for m in legal_moves(p) {
                    assert!(
                        !want.contains(&m.from().to_string()),
                        "{ctx}: {m} moves a frozen piece"
                    );
                }
                checks += 1;
            }
            "moves" => {
                let p = base.as_ref().expect("fen first");
                let want: Vec<String> = value.split_whitespace().map(String::from).collect();
                assert_eq!(sorted_moves(p), want, "{ctx}: legal moves");
                checks += 1;
            }
            "count" => {
                let p = base.as_ref().expect("fen first");
                let want: usize = value.parse().expect("count");
                assert_eq!(legal_moves(p).len(), want, "{ctx}: move count");
                assert_eq!(count_moves(p), want as u64, "{ctx}: counted moves");
                assert_eq!(has_legal_move(p), want > 0, "{ctx}: has_legal_move");
                checks += 1;
            }
            "move" => {
                let p = base.as_ref().expect("fen first");
                let m = p
                    .parse_legal_move(value)
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert_eq!(m.to_string(), value, "{ctx}: notation");
                pending_move = Some((p.clone(), value.to_string()));
                current = Some(play_checked(p, m));
            }
            "result" => {
                let (_, mv) = pending_move.as_ref().expect("move first");
                let q = current.as_ref().expect("move first");
                assert_eq!(q.to_fen(), value, "{ctx}: result of {mv}");
                checks += 1;
            }
            "outcome" => {
                let q = current.as_ref().expect("position first");
                let end = q
                    .game_end()
                    .unwrap_or_else(|| panic!("{ctx}: game not over"));
                match value {
                    "white wins" => {
                        assert_eq!(end.result, "1-0", "{ctx}");
                        assert_eq!(end.reason, "White captures the king", "{ctx}");
                    }
                    "black wins" => {
                        assert_eq!(end.result, "0-1", "{ctx}");
                        assert_eq!(end.reason, "Black captures the king", "{ctx}");
                    }
                    "draw (no legal move)" => {
                        assert_eq!(end.result, "1/2-1/2", "{ctx}");
                        assert!(
                            end.reason.contains("no legal move"),
                            "{ctx}: {}",
                            end.reason
                        );
                        // The search finds no move and asks the game, which says draw;
                        // the rules' per-node verdict does not look for moves.
                        assert_eq!(q.no_moves_outcome(), Outcome::Draw, "{ctx}");
                        assert_eq!(q.rule_outcome(0, true), None, "{ctx}");
                    }
                    other => panic!("{ctx}: unknown outcome {other}"),
                }
                // A finished game has no moves.
                assert!(
                    legal_moves(q).is_empty() || end.result == "1/2-1/2",
                    "{ctx}"
                );
                checks += 1;
            }
            other => panic!("{ctx}: unknown key {other}"),
        }
    }
    checks
}

#[test]
fn worked_examples() {
    let text = include_str!("baroque_examples.txt");
    assert_eq!(
        text.matches("\nexample ").count(),
        25,
        "all 25 examples present"
    );
    let checks = run_examples(text);
    assert!(checks >= 60, "only {checks} checks ran");
}

#[test]
fn example_runner_catches_wrong_data() {
    // The runner must fail on a wrong result, a wrong move list and a wrong frozen list.
    for bad in [
        "example x\nfen 7k/8/3P4/3p4/P7/8/8/7K w - - 0 1\nmove a4d4\nresult 7k/8/3P4/3p4/3P4/8/8/7K b - - 0 1\n",
        "example x\nfen 8/8/8/4k3/8/4K3/8/8 w - - 0 1\nmoves e3d2 e3d3\n",
        "example x\nfen 7k/8/8/8/1p1f4/2I5/8/K7 b - - 0 1\nfrozen d4\n",
    ] {
        let r = std::panic::catch_unwind(|| run_examples(bad));
        assert!(r.is_err(), "accepted: {bad}");
    }
}

#[test]
fn start_position_perft() {
    let mut p = Position::startpos();
    assert_eq!(p.to_fen(), START_FEN);
    let want = [1u64, 32, 944, 42_738];
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32), n, "perft {d}");
    }
    assert_eq!(perft(&mut p, 2), 944);
    assert_eq!(p.to_fen(), START_FEN, "perft leaves the position as it was");
}

#[test]
fn fen_errors() {
    let cases: [(&str, FenError); 11] = [
        ("", FenError::Empty),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            FenError::RankCount {
                found: 10,
                expected: 8,
            },
        ),
        (
            "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILCC w - - 0 1",
            FenError::RankLength {
                rank: 1,
                len: 9,
                expected: 8,
            },
        ),
        (
            "cliwkilf/ppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1",
            FenError::RankLength {
                rank: 7,
                len: 7,
                expected: 8,
            },
        ),
        (
            "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILQ w - - 0 1",
            FenError::UnknownPiece('Q'),
        ),
        (
            "cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKIKC w - - 0 1",
            FenError::ExtraKing(Color::White.name()),
        ),
        (
            "k6k/8/8/8/8/8/8/7K w - - 0 1",
            FenError::ExtraKing(Color::Black.name()),
        ),
        (
            "7k/8/8/8/8/8/8/7K x - - 0 1",
            FenError::BadSide {
                found: "x".into(),
                expected: "w or b",
            },
        ),
        (
            "7k/8/8/8/8/8/8/7K w KQ - 0 1",
            FenError::BadField("KQ".into()),
        ),
        (
            "7k/8/8/8/8/8/8/7K w - - a 1",
            FenError::BadHalfmove {
                text: "a".into(),
                max: u32::MAX,
            },
        ),
        (
            "7k/8/8/8/8/8/8/7K w - - 0 0",
            FenError::BadFullmove {
                text: "0".into(),
                max: 1_000_000,
            },
        ),
    ];
    for (fen, want) in cases {
        let got = Position::from_fen(fen).expect_err(fen);
        assert_eq!(got, want, "{fen}");
        let text = got.to_string();
        assert!(!text.is_empty() && !text.contains('\n'), "{fen}: {text}");
        let via_rules = <Position as Rules>::from_fen(fen).expect_err(fen);
        assert_eq!(via_rules.to_string(), text);
    }
    assert_eq!(
        Position::from_fen("7k/8/8/8/8/8/8/7K w - - 0").expect_err("5 fields"),
        FenError::FieldCount {
            found: 5,
            expected: "6 (board side - - halfmove fullmove; the last two or four may be left out)"
        }
    );
    // Accepted short forms, and a missing king (a finished game without moves).
    assert_eq!(
        pos("7k/8/8/8/8/8/8/7K w - -").to_fen(),
        "7k/8/8/8/8/8/8/7K w - - 0 1"
    );
    assert_eq!(
        pos("7k/8/8/8/8/8/8/7K b").to_fen(),
        "7k/8/8/8/8/8/8/7K b - - 0 1"
    );
    let no_black_king = pos("8/8/8/8/8/8/PPP5/7K w - - 0 1");
    assert!(legal_moves(&no_black_king).is_empty());
    assert_eq!(
        no_black_king.game_end().map(|e| e.result),
        Some("1-0".into())
    );
}

#[test]
fn move_notation_and_parsing() {
    let p = pos("7k/8/8/3w4/3I4/8/1Pp5/3c3K w - - 0 1");
    // An ambiguous pair without its suffix matches nothing.
    let e = p.parse_legal_move("d4d2").expect_err("ambiguous");
    assert!(e.to_string().contains("d4d2c"), "{e}");
    assert!(p.parse_legal_move("d4d2x").is_err());
    assert!(p.parse_legal_move("d4d9").is_err());
    assert!(p.parse_legal_move("h1h3").is_err());
    assert!(p.parse_legal_move("e2e4e").is_err());
    assert!(p.parse_legal_move("").is_err());
    // An unambiguous imitator capture takes no suffix.
    assert!(p.parse_legal_move("d4a4").is_ok());
    assert!(p.parse_legal_move("d4d2p").is_ok());
    // 16-bit codes round-trip and keep the method and suffix.
    for m in legal_moves(&p) {
        let code = <Position as Game>::move_to_u16(m);
        assert_ne!(code, 0);
        assert_eq!(<Position as Game>::move_from_u16(code), Some(m));
        assert!(Game::is_legal(&p, m));
    }
    assert_eq!(Move::from_u16(0), None);
}

#[test]
fn game_end_and_rule_outcomes() {
    // King captured: the loser is to move.
    let p = pos("8/8/8/8/4k3/8/8/8 w - - 0 2");
    assert_eq!(p.rule_outcome(3, true), Some(Outcome::Loss));
    assert_eq!(
        p.game_end().map(|e| (e.result, e.winner)),
        Some(("0-1".into(), Some(1)))
    );
    // The move limit: White to move at fullmove 2501 is 5000 plies played.
    let limit = pos("7k/8/8/8/8/8/8/7K w - - 17 2501");
    let end = limit.game_end().expect("limit");
    assert_eq!(
        (end.result.as_str(), end.reason.as_str()),
        ("1/2-1/2", "5000-ply limit")
    );
    assert_eq!(limit.rule_outcome(0, true), Some(Outcome::Draw));
    let before = pos("7k/8/8/8/8/8/8/7K b - - 17 2500");
    assert_eq!(before.game_end(), None);
    assert_eq!(before.rule_outcome(0, true), None);
    // A king captured on ply 5000 still wins.
    let mut last = pos("8/8/8/8/8/8/6k1/7K b - - 0 2500");
    let m = last.parse_legal_move("g2h1").expect("legal");
    last.make_move(m);
    assert_eq!(last.game_end().map(|e| e.result), Some("0-1".into()));
    // No legal move: a draw, with the side named.
    let stuck = pos("kp6/pF6/8/8/8/8/8/7K b - - 0 1");
    let end = stuck.game_end().expect("stuck");
    assert_eq!(end.reason, "Black has no legal move: draw");
    assert_eq!(stuck.no_moves_outcome(), Outcome::Draw);
}

#[test]
fn check_means_the_king_can_be_captured() {
    // Example 22: the black king e5 can be taken by every method; with Black to move it
    // is in check.
    let p = pos("8/C7/4I3/4kW2/4K3/8/1L6/3P4 b - - 0 1");
    assert!(p.in_check());
    // Each single attacker is enough.
    for fen in [
        "7K/8/8/4kP2/8/8/8/3P4 b - - 0 1", // pincer d1d5 with partner f5
        "7K/8/8/4kW2/8/8/8/8 b - - 0 1",   // withdrawal f5g5
        "7K/8/8/4k3/8/8/1L6/8 b - - 0 1",  // leap b2f6
        "8/C7/8/4k3/8/8/8/4K3 b - - 0 1",  // coordination a7a5 with the king e1
        "7K/8/4I3/4k3/8/8/8/8 b - - 0 1",  // imitator steps onto the king
    ] {
        assert!(pos(fen).in_check(), "{fen}");
    }
    for fen in [
        "7K/8/8/4kP2/8/8/8/8 b - - 0 1",    // no pincer to close the sandwich
        "7K/8/8/4kWP1/8/8/8/8 b - - 0 1",   // the withdrawer has no room
        "7K/8/5P2/4k3/8/8/1L6/8 b - - 0 1", // the leap's landing square is occupied
        "7K/8/8/4k3/8/8/1I6/8 b - - 0 1",   // an imitator cannot leap a king
        "8/C7/8/4k3/8/8/8/3K4 b - - 0 1",   // the king is not on a line with e5
    ] {
        assert!(!pos(fen).in_check(), "{fen}");
    }
    // A frozen attacker does not attack.
    assert!(!pos("7K/8/4If2/4k3/8/8/8/8 b - - 0 1").in_check());
}

/// A random position: both kings (usually), up to `max_per_kind` of each other kind per
/// side, on random squares, either side to move.
fn random_position(rng: &mut Rng, max_per_kind: usize) -> Position {
    loop {
        let mut board: Vec<char> = vec!['.'; 64];
        let mut place = |c: char, rng: &mut Rng| loop {
            let s = rng.below(64);
            if board[s] == '.' {
                board[s] = c;
                break;
            }
        };
        for color in [Color::White, Color::Black] {
            if !rng.chance(1, 40) {
                place(Piece::new(color, PieceKind::King).letter(), rng);
            }
            for kind in PieceKind::ALL {
                if kind == PieceKind::King {
                    continue;
                }
                let max = if kind == PieceKind::Pincer {
                    2 * max_per_kind
                } else {
                    max_per_kind
                };
                for _ in 0..rng.below(max + 1) {
                    place(Piece::new(color, kind).letter(), rng);
                }
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if rng.chance(1, 2) {
            " w - - 0 1"
        } else {
            " b - - 3 7"
        });
        let p = pos(&fen);
        // Stay within the search's 256-move lists.
        if legal_moves(&p).len() <= 256 {
            return p;
        }
    }
}

/// Positions for the property tests: random set-ups, and positions along random games
/// from the start.
fn sample_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        out.push(random_position(&mut rng, 2));
        let mut p = Position::startpos();
        for _ in 0..rng.below(80) {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[rng.below(moves.len())]);
        }
        out.push(p);
    }
    out
}

#[test]
fn mirrored_positions_have_mirrored_moves() {
    for p in sample_positions(1, 600) {
        let q = p.mirrored();
        assert_eq!(q.mirrored().to_fen(), p.to_fen());
        let want: BTreeSet<String> = legal_moves(&p)
            .iter()
            .map(|m| m.flip_rank().to_string())
            .collect();
        let got: BTreeSet<String> = legal_moves(&q).iter().map(|m| m.to_string()).collect();
        assert_eq!(got, want, "{} vs {}", p.to_fen(), q.to_fen());
        assert_eq!(p.in_check(), q.in_check(), "{}", p.to_fen());
        assert_eq!(frozen_squares(&p).len(), frozen_squares(&q).len());
        // Results are mirrored too.
        for m in legal_moves(&p).into_iter().take(20) {
            let a = play_checked(&p, m);
            let b = play_checked(&q, m.flip_rank());
            assert_eq!(
                b.board().occ,
                a.board().occ.swap_bytes(),
                "{} {m}",
                p.to_fen()
            );
        }
        // The evaluation is symmetric.
        assert_eq!(p.evaluate(), q.evaluate(), "{}", p.to_fen());
    }
}

#[test]
fn make_unmake_restores_and_captures_only_enemies() {
    for p in sample_positions(2, 600) {
        let mut q = p.clone();
        for m in legal_moves(&p) {
            play_checked(&p, m);
            // Incremental key agrees with a fresh computation.
            q.make_move(m);
            assert_eq!(q.key(), q.compute_key(), "{} {m}", p.to_fen());
            assert_eq!(pos(&q.to_fen()).key(), q.key());
            q.unmake_move(m);
        }
        assert_eq!(q, p);
        // Null moves too.
        q.make_null_move();
        assert_ne!(q.key(), p.key());
        q.unmake_null_move();
        assert_eq!(q, p);
    }
}

#[test]
fn frozen_pieces_have_no_moves() {
    let mut frozen_seen = 0;
    for p in sample_positions(3, 800) {
        let us = p.side_to_move();
        let frozen = p.frozen(us);
        frozen_seen += frozen.count_ones();
        for m in legal_moves(&p) {
            assert_eq!(frozen & (1u64 << m.from().index()), 0, "{} {m}", p.to_fen());
        }
        // Frozen = next to an enemy freezer, or a freezer next to an enemy imitator.
        for sq in squares(p.board().color(us)) {
            let near = |kind: PieceKind| {
                squares(p.board().of(us.flip(), kind))
                    .any(|s| (s.file() - sq.file()).abs() <= 1 && (s.rank() - sq.rank()).abs() <= 1)
            };
            let is_freezer = p.piece_at(sq).map(|x| x.kind()) == Some(PieceKind::Freezer);
            let want = near(PieceKind::Freezer) || (is_freezer && near(PieceKind::Imitator));
            assert_eq!(
                frozen & (1u64 << sq.index()) != 0,
                want,
                "{} {sq}",
                p.to_fen()
            );
        }
    }
    assert!(
        frozen_seen > 100,
        "the sample has too few frozen pieces ({frozen_seen})"
    );
}

#[test]
fn staged_generation_partitions_the_moves() {
    for p in sample_positions(4, 400) {
        let mut all = MoveList::new();
        let mut caps = MoveList::new();
        let mut quiets = MoveList::new();
        p.generate(GenType::Captures, &mut caps);
        p.generate(GenType::Quiets, &mut quiets);
        let legal = legal_moves(&p);
        for &m in &legal {
            all.push(m);
        }
        assert_eq!(all.len(), caps.len() + quiets.len(), "{}", p.to_fen());
        // In check, the search's "all moves" are the evasions (or everything without one).
        let mut search_all = MoveList::new();
        p.generate(GenType::All, &mut search_all);
        if p.in_check() {
            let evasions: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let mut q = p.clone();
                    q.make_move(m);
                    q.king(q.side_to_move()).is_none()
                        || q.king(p.side_to_move()).is_some_and(|k| {
                            !can_capture(q.board(), k, PieceKind::King, q.side_to_move())
                        })
                })
                .collect();
            let want = if evasions.is_empty() {
                legal.clone()
            } else {
                evasions
            };
            assert_eq!(search_all.as_slice(), want.as_slice(), "{}", p.to_fen());
        } else {
            assert_eq!(search_all.as_slice(), legal.as_slice(), "{}", p.to_fen());
        }
        for &m in caps.iter() {
            assert!(all.contains(m));
            assert!(p.is_capture(m), "{} {m}", p.to_fen());
            assert!(p.captured_value(m) > 0);
        }
        for &m in quiets.iter() {
            assert!(all.contains(m));
            assert!(!p.is_capture(m), "{} {m}", p.to_fen());
        }
        // Every generated move is legal by is_legal, and from/to pairs repeat only for
        // suffixed imitator moves.
        let mut pairs = std::collections::HashMap::new();
        for &m in all.iter() {
            assert!(p.is_legal(m), "{} {m}", p.to_fen());
            *pairs.entry((m.from(), m.to())).or_insert(0) += 1;
        }
        for &m in all.iter() {
            assert_eq!(
                pairs[&(m.from(), m.to())] > 1,
                m.suffixed(),
                "{} {m}",
                p.to_fen()
            );
        }
        // gives_check agrees with making the move.
        for &m in all.iter().take(30) {
            let mut q = p.clone();
            let them_king = q.king(p.side_to_move().flip());
            q.make_move(m);
            let expect = q.king(q.side_to_move()).is_some() && them_king.is_some() && q.in_check();
            assert_eq!(p.gives_check(m), expect, "{} {m}", p.to_fen());
        }
    }
}

#[test]
fn is_legal_refuses_foreign_moves() {
    let mut rng = Rng::new(5);
    for p in sample_positions(5, 200) {
        let legal: std::collections::HashSet<Move> = legal_moves(&p).into_iter().collect();
        for _ in 0..200 {
            let code = (rng.next_u64() & 0x7fff) as u16;
            if let Some(m) = Move::from_u16(code) {
                assert_eq!(p.is_legal(m), legal.contains(&m), "{} {m}", p.to_fen());
            }
        }
        assert_eq!(has_legal_move(&p), !legal.is_empty(), "{}", p.to_fen());
    }
}

/// Start-position perft at depth 4 (1,847,014 leaves), with its speed: run by
/// `perft/baroque.sh` (`cargo test --release --test baroque -- --ignored --nocapture`).
#[test]
#[ignore]
fn perft_depth_4_speed() {
    let depth: u32 = std::env::var("BAROQUE_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let mut p = Position::startpos();
    let start = std::time::Instant::now();
    let nodes = perft(&mut p, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth} start position: {nodes} nodes in {secs:.3} s, {:.0} nodes/s",
        nodes as f64 / secs
    );
    if depth == 4 {
        assert_eq!(nodes, 1_847_014);
    }
}

/// 64-bit FNV-1a (the hash `tools/baroque/referee.py` writes).
fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// jiang agrees with the independent Python referee (`tools/baroque/referee.py
/// crosscheck 400 473`, written from the rule book, not from this code) on 400 positions:
/// the legal moves, perft 2, and the FEN after every move.
#[test]
fn agrees_with_the_python_referee() {
    let text = include_str!("baroque_referee.txt");
    let mut checked = 0;
    let mut p: Option<Position> = None;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "fen" => p = Some(pos(value)),
            "moves" => {
                let want: Vec<String> = value.split_whitespace().map(String::from).collect();
                let q = p.as_ref().expect("fen first");
                assert_eq!(sorted_moves(q), want, "{}", q.to_fen());
            }
            "perft2" => {
                let mut q = p.clone().expect("fen first");
                assert_eq!(
                    perft(&mut q, 2),
                    value.parse::<u64>().expect("count"),
                    "{}",
                    q.to_fen()
                );
            }
            "results" => {
                let q = p.as_ref().expect("fen first");
                let mut lines: Vec<String> = legal_moves(q)
                    .into_iter()
                    .map(|m| {
                        let mut r = q.clone();
                        r.make_move(m);
                        format!("{m} {}", r.to_fen())
                    })
                    .collect();
                lines.sort();
                let got = format!("{:016x}", fnv1a(&lines.join("\n")));
                assert_eq!(got, value, "{}: results differ", q.to_fen());
                checked += 1;
            }
            other => panic!("unknown key {other}"),
        }
    }
    assert_eq!(checked, 400);
}

/// Weights that are all zero (then one term at a time is switched on).
fn zero_params() -> jiang::baroque::eval::Params {
    jiang::baroque::eval::Params {
        value: [0; 7],
        frozen: [0; 7],
        mobility: [0; 7],
        freezer_centre: 0,
        king_near: [0; 7],
        king_open: 0,
        king_pincer_setup: 0,
        tempo: 0,
        hunt: [0; 7],
        hunt_material: 0,
    }
}

#[test]
fn evaluation_terms() {
    use jiang::baroque::eval::{evaluate_with, KING_EN_PRISE};
    // White: king a1, freezer d4, leaper h1; Black: king h8, leaper e5 (frozen by d4),
    // pincers a7 b7. Black to move.
    let p = pos("7k/pp6/8/4l3/3F4/8/8/K6L b - - 0 1");
    assert!(!p.in_check());
    let mut w = zero_params();
    w.value = [100, 0, 450, 0, 0, 0, 500];
    // Black's view: 450 + 200 - (500 + 450).
    assert_eq!(evaluate_with(&p, &w), -300);
    let mut w = zero_params();
    w.frozen[PieceKind::Leaper.index()] = 170;
    assert_eq!(evaluate_with(&p, &w), -170, "the frozen black leaper");
    let mut w = zero_params();
    w.freezer_centre = 10;
    assert_eq!(evaluate_with(&p, &w), -30, "d4 is a centre square");
    let mut w = zero_params();
    w.tempo = 7;
    assert_eq!(evaluate_with(&p, &w), 7);
    let mut w = zero_params();
    w.mobility[PieceKind::Pincer.index()] = 1;
    // a7: a8 and a6..a2 (a1 holds the king); b7: b8, b6..b1 and c7..h7. 6 + 7 + 6.
    assert_eq!(evaluate_with(&p, &w), 19);
    // The hunt: Black (leaper d5, pincer c2, king h6) against a bare White king on a1.
    // Steps closer than 7: leaper 3, pincer 5, king 0; 8 a step (the king 4).
    let ending = pos("8/8/7k/3l4/8/8/2p5/K7 w - - 0 30");
    let mut w = zero_params();
    w.value = [100, 0, 450, 0, 0, 0, 0];
    w.hunt = [8, 8, 8, 8, 8, 4, 8];
    w.hunt_material = 1000;
    assert_eq!(evaluate_with(&ending, &w), -(550 + 8 * (3 + 5)));
    w.hunt_material = -1;
    assert_eq!(
        evaluate_with(&ending, &w),
        -550,
        "no hunt while the enemy has material"
    );
    w.hunt_material = 1000;
    w.value = [0; 7];
    assert_eq!(
        evaluate_with(&ending, &w),
        0,
        "no hunt without a material lead"
    );
    // The side to move can take the king: a win in all but name.
    let can_take = pos("8/C7/4I3/4kW2/4K3/8/1L6/3P4 w - - 0 1");
    assert!(can_take.evaluate() > KING_EN_PRISE - 3000);
    // Every move of Black loses the king (its freezer is frozen, each king step walks
    // into a capture): the evaluation knows.
    let zugzwang = pos("8/7I/6f1/2L3K1/8/1C6/8/3I1k2 b - - 1 1");
    assert!(zugzwang.evaluate() < -KING_EN_PRISE + 3000);
    // Not so when one move is safe (the white coordinator b3 gone, g2 is safe).
    let escape = pos("8/7I/6f1/2L3K1/8/8/8/3I1k2 b - - 1 1");
    assert!(escape.evaluate() > -5000);
}

/// XBoard's form of each move (`src/baroque/xboard.rs`): a capture away from the
/// destination is told as a two-leg move through its victim, the imitator's suffix is
/// never sent, a double capture leaves a ghost that the next quiet move clears, and every
/// text reads back as its move.
#[test]
fn xboard_multi_leg_moves() {
    use jiang::baroque::xboard::{parse_multi_leg, xboard_moves};
    let text_of = |p: &Position, base: Option<&str>, seen: &[String], mv: &str| -> String {
        let m = p.parse_legal_move(mv).expect(mv);
        xboard_moves(p, base, seen)
            .into_iter()
            .find(|(x, _)| *x == m)
            .map(|(_, t)| t)
            .expect("listed")
    };
    // Withdrawal (example 5): the victim e5 is the middle square; a quiet move is plain.
    let fen = "7k/8/8/4p3/3W4/8/8/K7 w - - 0 1";
    let p = pos(fen);
    assert_eq!(text_of(&p, Some(fen), &[], "d4b2"), "d4e5,e5b2");
    assert_eq!(text_of(&p, Some(fen), &[], "d4d1"), "d4d1");
    // Leap (example 7) and the king's displacement (on the destination: plain).
    let fen = "k7/8/8/8/3p4/8/8/L6K w - - 0 1";
    assert_eq!(text_of(&pos(fen), Some(fen), &[], "a1e5"), "a1d4,d4e5");
    let fen = "8/8/8/4k3/4K3/8/8/8 b - - 1 1";
    assert_eq!(text_of(&pos(fen), Some(fen), &[], "e5e4"), "e5e4");
    // From the start position (no base FEN), nothing is a ghost.
    assert_eq!(text_of(&Position::startpos(), None, &[], "a2a6"), "a2a6");
    // The imitator's three methods (example 21): no suffix, told apart by the victim.
    let base = "7k/8/8/3w4/3I4/8/1Pp5/3c3K w - - 0 1";
    let p = pos(base);
    for (mv, want) in [
        ("d4d2c", "d4d1,d1d2"),
        ("d4d2p", "d4c2,c2d2"),
        ("d4d2w", "d4d5,d5d2"),
    ] {
        let text = text_of(&p, Some(base), &[], mv);
        assert_eq!(text, want, "{mv}");
        assert_eq!(
            parse_multi_leg(&p, &text).map(|m| m.to_string()),
            Ok(mv.into())
        );
    }
    assert!(
        parse_multi_leg(&p, "d4d2").is_err(),
        "ambiguous without a leg"
    );
    assert_eq!(
        p.parse_legal_move("d4d5,d5d2w").map(|m| m.to_string()),
        Ok("d4d2w".into())
    );
    // Coordinator double capture (example 9): the freezer f2 (worth more) is told, the
    // pincer b6 stays on XBoard's board as a ghost; Black's next quiet move clears it
    // (a ghost of Black's own colour: XBoard relays that move in its castling form).
    let base = "7k/8/1p6/8/8/2C5/1K3f2/8 w - - 0 1";
    let mut p = pos(base);
    let told = text_of(&p, Some(base), &[], "c3f6");
    assert_eq!(told, "c3f2,f2f6");
    p.make_move(p.parse_legal_move(&told).expect("reads back"));
    assert_eq!(p.to_fen(), "7k/8/5C2/8/8/8/1K6/8 b - - 0 1");
    let seen = vec![told];
    assert_eq!(text_of(&p, Some(base), &seen, "h8h7"), "h8b6,b6h7");
    // The ghost is gone once told: the next move is plain again.
    let mut q = p.clone();
    q.make_move(
        q.parse_legal_move("h8b6,b6h7")
            .expect("a ghost middle square"),
    );
    let seen2 = vec![seen[0].clone(), "h8b6,b6h7".to_string()];
    assert_eq!(text_of(&q, Some(base), &seen2, "b2b3"), "b2b3");
    // The same move as XBoard 4.9.1 relays it to the other engine (castling form: the
    // whole move, then the middle square and the "rook's" square beside the destination,
    // here off the board), and the record of it: the ghost is gone there too.
    assert_eq!(
        p.parse_legal_move("h8h7,b6i7").map(|m| m.to_string()),
        Ok("h8h7".into())
    );
    let relayed = vec![seen[0].clone(), "h8h7,b6i7".to_string()];
    assert_eq!(text_of(&q, Some(base), &relayed, "b2b3"), "b2b3");
    // Not the castling form: the side square elsewhere, the middle square the destination.
    assert!(p.parse_legal_move("h8h7,b6g7").is_err());
    assert!(p.parse_legal_move("h8h7,h7i7").is_err());
    // Ghosts of both colours (a person's plain captures): each side names the other
    // side's ghost, which XBoard relays in the ordinary form.
    let base = "7k/8/2w5/3Pp3/5W2/8/8/K7 w - - 0 1";
    let mut p = pos(base);
    p.make_move(p.parse_legal_move("f4g3").expect("withdraws from e5"));
    p.make_move(p.parse_legal_move("c6b7").expect("withdraws from d5"));
    assert_eq!(p.to_fen(), "7k/1w6/8/8/8/6W1/8/K7 w - - 0 2");
    let mut seen = vec!["f4g3".to_string(), "c6b7".to_string()];
    let told = text_of(&p, Some(base), &seen, "a1a2");
    assert_eq!(told, "a1e5,e5a2", "Black's ghost e5, not White's d5");
    p.make_move(p.parse_legal_move(&told).expect("reads back"));
    seen.push(told);
    assert_eq!(text_of(&p, Some(base), &seen, "h8h7"), "h8d5,d5h7");
    // A person's plain capture in XBoard (no legs) leaves its victim as a ghost too.
    let base = "7k/8/8/3p4/3W4/8/8/K7 w - - 0 1";
    let mut p = pos(base);
    p.make_move(p.parse_legal_move("d4d1").expect("legal"));
    assert_eq!(
        text_of(&p, Some(base), &["d4d1".to_string()], "h8g8"),
        "h8d5,d5g8"
    );
    // Refused: a middle square holding a piece the move does not capture, legs that do
    // not join up, an unfinished move.
    let p = pos("7k/8/8/3p4/3W4/8/8/K7 w - - 0 1");
    assert_eq!(
        p.parse_legal_move("d4e4,e4d1").map(|m| m.to_string()),
        Ok("d4d1".into()),
        "an empty middle square"
    );
    assert!(
        p.parse_legal_move("a1d5,d5a2").is_err(),
        "d5 is not captured by a1a2"
    );
    assert!(p.parse_legal_move("d4d5,d6d1").is_err(), "legs do not join");
    assert!(p.parse_legal_move("d4d5,").is_err());
    assert!(p.parse_legal_move(",").is_err());
    // Every move's text reads back as that move, on random positions.
    for p in sample_positions(6, 300) {
        let fen = p.to_fen();
        for (m, text) in xboard_moves(&p, Some(&fen), &[]) {
            assert!(!text.ends_with(['p', 'c', 'w']), "{} {text}", p.to_fen());
            let back = p.parse_legal_move(&text);
            assert_eq!(back, Ok(m), "{} {m} told as {text}", p.to_fen());
            let away = p.captures_of(m) & !(1u64 << m.to().index());
            assert_eq!(text.contains(','), away != 0, "{} {m} {text}", p.to_fen());
        }
    }
}
