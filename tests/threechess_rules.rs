//! ThreeChess rules against the reference: the lone-piece destination lists of
//! variants.md §3, perft from the start, positions from random games checked against the
//! reference code, make/unmake, castling, promotion, the end of the game, FEN and bad
//! input.

#[path = "common/rng.rs"]
mod rng;

use jiang::game::Rules;
use jiang::movelist::MoveList;
use jiang::perft::{divide, perft};
use jiang::threechess::fen::ThreeChessFenError;
use jiang::threechess::{Board, Ending, Gen, Kind, Move, Piece, Player, Square, START_FEN};
use rng::Rng;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// The sorted destinations of the piece on `at` (its owner to move).
fn destinations(b: &Board, at: Square) -> Vec<String> {
    let mut d: Vec<String> = b
        .legal_moves_list()
        .iter()
        .filter(|m| m.from() == at)
        .map(|m| m.to().to_string())
        .collect();
    d.sort();
    d
}

/// A board holding only `piece` on `at`, its owner to move.
fn lone(owner: Player, kind: Kind, at: &str) -> Board {
    let mut b = Board::empty();
    b.put(sq(at), Piece::new(owner, kind));
    b.set_side_to_move(owner);
    b
}

/// variants.md §3, "Lone pieces on an empty board" (Blue pieces).
const LONE_PIECES: &[(Kind, &str, &str)] = &[
    (Kind::King, "BD4", "BC3 BC4 BD3 BE3 BE4 GD4 GE4 GF4 RD4"),
    (Kind::King, "BE4", "BD3 BD4 BE3 BF3 BF4 GE4 RC4 RD4 RE4"),
    (Kind::King, "BA4", "BA3 BB3 BB4 GG4 GH4"),
    (
        Kind::Rook,
        "BD4",
        "BA4 BB4 BC4 BD1 BD2 BD3 BE4 BF4 BG4 BH4 GE1 GE2 GE3 GE4",
    ),
    (
        Kind::Bishop,
        "BD4",
        "BA1 BB2 BC3 BE3 BF2 BG1 GA1 GB2 GC3 GD4 GF4 GG3 GH2 RA1 RB2 RC3 RD4",
    ),
    (
        Kind::Bishop,
        "BE4",
        "BB1 BC2 BD3 BF3 BG2 BH1 GE4 GF3 GG2 GH1 RA2 RB3 RC4 RE4 RF3 RG2 RH1",
    ),
    (
        Kind::Bishop,
        "BD3",
        "BB1 BC2 BC4 BE2 BE4 BF1 GG4 GH3 RA2 RB3 RC4",
    ),
    (
        Kind::Queen,
        "BD4",
        "BA1 BA4 BB2 BB4 BC3 BC4 BD1 BD2 BD3 BE3 BE4 BF2 BF4 BG1 BG4 BH4 GA1 GB2 GC3 GD4 GE1 \
         GE2 GE3 GE4 GF4 GG3 GH2 RA1 RB2 RC3 RD4",
    ),
    (
        Kind::Knight,
        "BD4",
        "BB3 BC2 BE2 BF3 GC4 GD3 GF3 GG4 RC4 RD3",
    ),
    (
        Kind::Knight,
        "BE4",
        "BC3 BD2 BF2 BG3 GE3 GF4 RB4 RC3 RE3 RF4",
    ),
    (Kind::Knight, "BD3", "BB2 BB4 BC1 BE1 BF2 BF4 GD4 GF4 RD4"),
    (Kind::Pawn, "BD4", "GE4"),
    (Kind::Pawn, "BE4", "RD4"),
    (Kind::Pawn, "GD4", "GD3"),
    (Kind::Pawn, "BC2", "BC3 BC4"),
];

#[test]
fn lone_piece_destinations_match_the_reference() {
    for &(kind, at, expected) in LONE_PIECES {
        let b = lone(Player::Blue, kind, at);
        let want: Vec<&str> = expected.split_whitespace().collect();
        assert_eq!(destinations(&b, sq(at)), want, "{kind:?}@{at}");
    }
}

#[test]
fn perft_from_the_start() {
    let mut b = Board::startpos();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&mut b, d)).collect();
    assert_eq!(counts, [20, 400, 8_000, 178_080]);
    assert_eq!(b.to_fen(), START_FEN, "perft left the board changed");
}

/// Positions from random games on the reference's Board: its legal moves (every
/// isLegalMove pair) and perft 2 through its move().
#[test]
fn random_game_positions_match_the_reference() {
    let text = include_str!("threechess_reference_positions.txt");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let (mut castlings, mut promotions) = (0, 0);
    assert_eq!(lines.len() % 3, 0);
    for rec in lines.chunks(3) {
        let fen = rec[0].strip_prefix("fen ").expect("fen line");
        let want: Vec<&str> = rec[1]
            .strip_prefix("moves")
            .expect("moves")
            .split_whitespace()
            .collect();
        let perft2: u64 = rec[2]
            .strip_prefix("perft2 ")
            .expect("perft2")
            .parse()
            .unwrap();
        let mut b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(b.to_fen(), fen);
        let list = b.legal_moves_list();
        let mut mine: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        mine.sort();
        assert_eq!(mine, want, "{fen}");
        assert_eq!(perft(&mut b, 2), perft2, "{fen}");
        for m in list.iter() {
            let kind = b.piece_at(m.from()).unwrap().kind();
            castlings +=
                (kind == Kind::King && m.from().file().abs_diff(m.to().file()) == 2) as u32;
            promotions += (kind == Kind::Pawn && m.to().rank() == 0) as u32;
        }
    }
    // The sample exercises the special moves (counted so that a thinner sample fails).
    assert!(
        castlings >= 5 && promotions >= 5,
        "{castlings} castlings, {promotions} promotions"
    );
}

/// Issue 25: a king captured at the first ply ends the game, so that move has no replies
/// below it (perft counts move sequences of exactly the given length). The reference's
/// count is 639; before the fix jiang counted the finished game as a leaf (640).
#[test]
fn a_king_captured_inside_the_tree_has_no_replies() {
    let mut b = Board::startpos();
    play(
        &mut b,
        "BB2BB4 GG1GF3 RB2RB4 BC1BB2 GF3BB4 RB1RA3 BB2RA1 BB4BC2 RG1RF3 BD1BC2 GB1GA3 RC1RB2 \
         RA1RB2 GA1GB1 RD1RA1 RB2RA1 GB2GB3 RH1RG1 BC2RA2 GB1GB2 RG1RH1 RA2RA3 GB2GB1 RH1RG1 \
         RA3RB4 GB1GB2 RG1RH1 RB4RD2 GH1GG1 RF3RD2 BE2BE4 GC2GC3 RD2RB3 RA1GC3 GD2GC3 RC2RC3 \
         BB1BA3 GC1BA3 RE2RE3 BA1BC1 BA3BC1 RF1BG4 BE1BD1 GD1RE3",
    );
    let fen = b.to_fen();
    let report = divide(&mut b, 2);
    assert_eq!(report.nodes, 639);
    let king_capture: Vec<_> = report.divide.iter().filter(|(_, n)| *n == 0).collect();
    assert_eq!(king_capture, [&("BG4BD1".to_string(), 0)]);
    assert_eq!(b.to_fen(), fen, "perft left the board changed");
    play(&mut b, "BG4BD1");
    assert!(b.game_end().is_some());
    assert_eq!(
        (perft(&mut b, 0), perft(&mut b, 1), perft(&mut b, 2)),
        (1, 0, 0)
    );
}

/// Positions from random games on the reference's Board whose perft trees hold finished
/// games (a king captured above the last ply), with the reference's counts
/// (`perft/threechess_crosscheck.py --record`).
#[test]
fn perft_with_king_captures_inside_matches_the_reference() {
    let text = include_str!("threechess_perft_reference.txt");
    let mut checked = 0;
    let mut b = Board::startpos();
    for line in text.lines().map(str::trim) {
        if let Some(moves) = line.strip_prefix("moves ") {
            b = Board::startpos();
            play(&mut b, moves);
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').expect("perft DEPTH NODES");
            let (d, n): (u32, u64) = (d.parse().expect("depth"), n.parse().expect("nodes"));
            assert_eq!(perft(&mut b, d), n, "depth {d} after {}", b.to_fen());
            checked += 1;
        } else {
            assert!(
                line.is_empty() || line.starts_with('#'),
                "unknown line {line}"
            );
        }
    }
    assert!(checked >= 30, "only {checked} counts");
}

/// Plays random games; after every move, checks the incremental key, that unmake restores
/// the position exactly, and that captures and quiet moves partition the move list.
#[test]
fn make_unmake_restores_position_and_key_in_random_games() {
    let mut rng = Rng::new(0x3c3c_2020);
    let mut plies = 0;
    let mut kings_taken = 0;
    for _ in 0..60 {
        let mut b = Board::startpos();
        while b.ending().is_none() {
            let list = b.legal_moves_list();
            let (mut caps, mut quiets) = (MoveList::new(), MoveList::new());
            b.generate(Gen::Captures, &mut caps);
            b.generate(Gen::Quiets, &mut quiets);
            assert_eq!(caps.len() + quiets.len(), list.len());
            assert!(caps
                .iter()
                .all(|&m| list.contains(m) && b.piece_at(m.to()).is_some()));
            assert!(quiets
                .iter()
                .all(|&m| list.contains(m) && b.piece_at(m.to()).is_none()));
            // The attack test of one square agrees with the attack sets.
            for p in Player::ALL {
                let att = b.attacks_of(p);
                for sq in Square::all() {
                    assert_eq!(b.is_attacked_by(sq, p), att & sq.bit() != 0, "{sq} by {p}");
                }
                // A capture of p's is a move onto an attacked enemy piece.
                if p == b.side_to_move() {
                    assert!(caps.iter().all(|m| att & m.to().bit() != 0));
                }
            }
            for &m in list.iter() {
                assert!(b.is_legal(m));
                let before = b.snapshot();
                b.make_move(m);
                assert_eq!(b.key(), b.key_from_scratch(), "after {m}");
                b.unmake_move();
                assert_eq!(b.snapshot(), before, "unmake {m}");
            }
            // Prefer captures a little so that games end by a king capture.
            let pick = if !caps.is_empty() && rng.chance(1, 2) {
                caps.as_slice()[rng.below(caps.len())]
            } else {
                list.as_slice()[rng.below(list.len())]
            };
            b.make_move(pick);
            plies += 1;
        }
        if matches!(b.ending(), Some(Ending::KingCaptured { .. })) {
            kings_taken += 1;
        }
        // Unwinding the whole game returns to the start.
        while b.history_len() > 0 {
            b.unmake_move();
        }
        assert_eq!(b.to_fen(), START_FEN);
        assert_eq!(b.key(), Board::startpos().key());
    }
    assert!(
        plies > 1000 && kings_taken == 60,
        "{plies} plies, {kings_taken} kings taken"
    );
}

fn play(b: &mut Board, moves: &str) {
    for t in moves.split_whitespace() {
        let m = b.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        b.make_move(m);
    }
}

#[test]
fn blue_opens_with_sixteen_pawn_moves_and_four_knight_moves() {
    let b = Board::startpos();
    let mut moves: Vec<String> = b.legal_moves_list().iter().map(|m| m.to_string()).collect();
    moves.sort();
    let knights = ["BB1BA3", "BB1BC3", "BG1BF3", "BG1BH3"];
    for k in knights {
        assert!(moves.iter().any(|m| m == k), "{k}");
    }
    let pawns = moves.iter().filter(|m| m.as_bytes()[2] == b'2').count();
    assert_eq!((moves.len(), pawns), (20, 16));
}

#[test]
fn castling_moves_the_rook_and_needs_only_the_pieces_in_place() {
    // Blue: king E1, rooks A1 and H1, nothing between; Green and Red kings far away.
    let fen = "8/8/8/bR3bK2bR|8/8/8/4gK3|8/8/8/4rK3 b 0";
    let mut b = Board::from_fen(fen).unwrap();
    let short = Move::parse("BE1BG1").unwrap();
    let long = Move::parse("BE1BC1").unwrap();
    assert!(b.is_legal(short) && b.is_legal(long));
    b.make_move(short);
    assert_eq!(
        b.piece_at(Square::parse("BF1").unwrap()),
        Some(Piece::new(Player::Blue, Kind::Rook))
    );
    assert_eq!(b.piece_at(Square::parse("BH1").unwrap()), None);
    b.unmake_move();
    b.make_move(long);
    assert_eq!(
        b.piece_at(Square::parse("BD1").unwrap()),
        Some(Piece::new(Player::Blue, Kind::Rook))
    );
    assert_eq!(
        b.piece_at(Square::parse("BC1").unwrap()),
        Some(Piece::new(Player::Blue, Kind::King))
    );
    b.unmake_move();
    assert_eq!(b.to_fen(), fen);
    // A piece between, or a rook of another colour on the corner: no castling.
    let blocked = Board::from_fen("8/8/8/bRbN2bK1gRbR|8/8/8/4gK3|8/8/8/4rK3 b 0").unwrap();
    assert!(!blocked.is_legal(long) && !blocked.is_legal(short));
    let foreign = Board::from_fen("8/8/8/gR3bK2rR|8/8/8/4gK3|8/8/8/4rK3 b 0").unwrap();
    assert!(!foreign.is_legal(long) && !foreign.is_legal(short));
}

#[test]
fn a_pawn_promotes_to_a_queen_on_another_colours_rank_one() {
    // A Blue pawn on GC2 (in Green's section it heads for Green's rank 1).
    let fen = "8/8/8/4bK3|8/8/2bP5/4gK3|8/8/8/4rK3 b 5";
    let mut b = Board::from_fen(fen).unwrap();
    play(&mut b, "GC2GC1");
    assert_eq!(
        b.piece_at(Square::parse("GC1").unwrap()),
        Some(Piece::new(Player::Blue, Kind::Queen))
    );
    b.unmake_move();
    assert_eq!(b.to_fen(), fen);
    // It captures diagonally (backwards on the board) onto GB1/GD1 when a piece is there.
    let b = Board::from_fen("8/8/8/4bK3|8/8/2bP5/1gN2gK3|8/8/8/4rK3 b 5").unwrap();
    let mut d: Vec<String> = b
        .legal_moves_list()
        .iter()
        .filter(|m| m.from().to_string() == "GC2")
        .map(|m| m.to().to_string())
        .collect();
    d.sort();
    assert_eq!(d, ["GB1", "GC1"]);
}

#[test]
fn a_captured_king_ends_the_game_with_scores() {
    // Blue's rook on BE4 takes Red's king on RD4 (FORWARD from BE4 is RD4).
    let mut b = Board::from_fen("4bR3/8/8/4bK3|8/8/8/4gK3|3rK4/8/8/8 b 0").unwrap();
    assert!(b.game_end().is_none());
    play(&mut b, "BE4RD4");
    let end = b.game_end().expect("the game is over");
    assert_eq!(end.result, "blue 1 green 0 red -1");
    assert_eq!(end.reason, "blue captures red's king");
    assert_eq!(end.winner, Some(0));
    assert!(b.legal_moves().is_empty());
    assert_eq!(perft(&mut b, 3), 0, "a finished game has no moves");
    assert_eq!(perft(&mut b, 0), 1);
    // A move after the end: one clear line, nothing changed.
    let fen = b.to_fen();
    let err = b.parse_legal_move("GE1GE2").unwrap_err().to_string();
    assert!(err.contains("game is over") && !err.contains('\n'), "{err}");
    assert_eq!(b.to_fen(), fen);
    // The finished position's FEN reads back as finished (Blue moved last, took the king).
    let again = Board::from_fen(&fen).unwrap();
    assert_eq!(
        again.game_end().map(|e| e.result),
        Some("blue 1 green 0 red -1".to_string())
    );
}

#[test]
fn endings_score_as_variants_md_decides() {
    // A player with no legal move (the reference would force an illegal move): -2 for
    // it, +1 for each other player. A position with it needs a king boxed in by its own
    // immobile pieces, which takes more than 16 pieces, so the scoring is tested here.
    assert_eq!(Ending::NoMoves(Player::Green).scores(), [1, -2, 1]);
    assert_eq!(
        Ending::NoMoves(Player::Green).result_text(),
        "blue 1 green -2 red 1"
    );
    assert_eq!(Ending::PlyLimit.scores(), [0, 0, 0]);
    let k = Ending::KingCaptured {
        capturer: Player::Red,
        victim: Player::Blue,
    };
    assert_eq!(k.result_text(), "blue -1 green 0 red 1");
    // The optional ply limit draws.
    let mut b = Board::startpos();
    b.set_ply_limit(Some(3));
    play(&mut b, "BE2BE3 GE2GE3");
    assert!(b.game_end().is_none());
    play(&mut b, "RE2RE3");
    assert_eq!(
        b.game_end().map(|e| e.result),
        Some("blue 0 green 0 red 0".to_string())
    );
    assert!(b.legal_moves().is_empty());
}

#[test]
fn bad_moves_are_refused_with_one_line_and_change_nothing() {
    let mut b = Board::startpos();
    play(&mut b, "BE2BE4");
    let fen = b.to_fen();
    for (text, expect) in [
        ("BI2BI4", "not a ThreeChess move"),
        ("GE2GE9", "not a ThreeChess move"),
        ("XE2XE4", "not a ThreeChess move"),
        ("e2e4", "not a ThreeChess move"),
        ("", "not a ThreeChess move"),
        ("BD2BD4", "blue piece, green is to move"),
        ("GE3GE4", "no piece on GE3"),
        ("GE2GE5", "not a ThreeChess move"),
        ("GE2GD3", "not legal"),
        ("GB1GB3", "not legal"),
    ] {
        let err = b.parse_legal_move(text).unwrap_err().to_string();
        assert!(err.contains(expect), "{text}: {err}");
        assert!(!err.contains('\n'));
        assert_eq!(b.to_fen(), fen);
    }
    assert!(b.parse_legal_move("ge2ge4").is_ok());
}

#[test]
fn bad_fens_are_refused() {
    for (fen, expect) in [
        ("", "empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "ThreeChess FEN has 6 fields",
        ),
        ("8/8/8/4bK3|8/8/8/4gK3 b", "three sections"),
        ("8/8/4bK3|8/8/8/4gK3|8/8/8/4rK3 b", "ranks"),
        ("8/8/8/4bK2|8/8/8/4gK3|8/8/8/4rK3 b", "7 files"),
        ("8/8/8/4bK4|8/8/8/4gK3|8/8/8/4rK3 b", "more than 8 files"),
        ("8/8/8/4xK3|8/8/8/4gK3|8/8/8/4rK3 b", "bad piece"),
        ("8/8/8/4bX3|8/8/8/4gK3|8/8/8/4rK3 b", "bad piece"),
        ("8/8/8/4bK3|8/8/8/4gK3|8/8/8/4rK3", "side to move"),
        ("8/8/8/4bK3|8/8/8/4gK3|8/8/8/4rK3 w", "bad side"),
        ("8/8/8/4bK3|8/8/8/4gK3|8/8/8/4rK3 b x", "bad ply count"),
        ("8/8/8/4bKbK2|8/8/8/4gK3|8/8/8/4rK3 b", "more than one king"),
        (
            "8/8/8/8|8/8/8/8|8/8/8/4rK3 b",
            "more than one king is missing",
        ),
        ("8/8/8/8|8/8/8/4gK3|8/8/8/4rK3 g", "no one took it"),
        ("8/8/8/4bK3|8/8/8/bP3gK3|8/8/8/4rK3 g", "promoted"),
    ] {
        let err = Board::from_fen(fen)
            .err()
            .unwrap_or_else(|| panic!("accepted {fen}"))
            .to_string();
        assert!(err.contains(expect), "{fen}: {err}");
        assert!(!err.contains('\n'));
    }
}

#[test]
fn the_diagram_shows_every_section_and_the_state() {
    let mut b = Board::startpos();
    play(&mut b, "BE2BE4");
    let d = b.diagram();
    for needle in [
        "Blue (B)",
        "Green (G)  <- to move",
        "Red (R)",
        " bK",
        " gQ",
        " rP",
        "FEN: ",
        "Green to move",
    ] {
        assert!(d.contains(needle), "{needle} missing in\n{d}");
    }
    // Blue's rank 4 shows the pawn that moved there.
    let blue_rank4 = d.lines().find(|l| l.starts_with("  4")).unwrap();
    assert!(blue_rank4.contains("bP"), "{blue_rank4}");
}

#[test]
fn a_fen_of_another_game_is_refused() {
    let err = Board::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
        .unwrap_err();
    assert_eq!(err, ThreeChessFenError::SectionCount(1));
    assert!(err.to_string().contains("three sections"), "{err}");
}
