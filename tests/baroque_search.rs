//! The generic search playing Baroque: a king capture is a mate score, a side without a
//! legal move draws (the search asks the game), forced king captures in two moves are
//! found exactly when a brute-force search finds them, every answer is legal, and SEE
//! judges the one-reply exchanges as documented.

mod common;

use common::Rng;
use jiang::baroque::movegen::legal_moves;
use jiang::baroque::{Color, Move, Position};
use jiang::game::{Game, Outcome, Rules};
use jiang::request::SearchRequest;
use jiang::search::{search, Score, SearchControl, SearchResult};
use jiang::tt::TranspositionTable;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn run(p: &Position, limits: SearchRequest<Move>) -> SearchResult<Move> {
    let tt = TranspositionTable::new(16);
    let control = SearchControl::new(None, None, false);
    search(p, &limits, &tt, &control, &|_| {})
}

fn run_depth(p: &Position, depth: i32) -> SearchResult<Move> {
    run(
        p,
        SearchRequest {
            depth: Some(depth),
            ..SearchRequest::default()
        },
    )
}

/// Whether the side to move can capture the enemy king at once.
fn king_capture_now(p: &Position) -> bool {
    let them = p.side_to_move().flip();
    legal_moves(p).into_iter().any(|m| {
        let mut q = p.clone();
        q.make_move(m);
        q.king(them).is_none()
    })
}

/// Whether the side to move captures the king by force within its second move: some
/// move after which every reply leaves a king capture (and the reply neither captures
/// our king nor leaves the opponent without moves, which would be a draw).
fn forced_king_capture_in_two(p: &Position) -> bool {
    let us = p.side_to_move();
    legal_moves(p).into_iter().any(|m| {
        let mut q = p.clone();
        q.make_move(m);
        if q.king(us.flip()).is_none() {
            return true;
        }
        let replies = legal_moves(&q);
        !replies.is_empty()
            && replies.into_iter().all(|r| {
                let mut s = q.clone();
                s.make_move(r);
                s.king(us).is_some() && king_capture_now(&s)
            })
    })
}

#[test]
fn king_capture_is_mate_in_one() {
    // Worked example 22: six ways to take the king.
    let p = pos("8/C7/4I3/4kW2/4K3/8/1L6/3P4 w - - 0 1");
    let r = run_depth(&p, 4);
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
    let m = r.best_move.expect("a move");
    let mut q = p.clone();
    q.make_move(m);
    assert_eq!(q.king(Color::Black), None, "{m} does not take the king");
    // The side that is about to lose its king sees the mate against it: the black king
    // a8 is frozen by b7 and the withdrawer b8 takes it by stepping to c8; the pincer h2
    // cannot help.
    let lost = pos("kW6/1F6/8/8/8/8/7p/K7 b - - 0 1");
    assert!(lost.in_check());
    let r = run_depth(&lost, 4);
    assert_eq!(Score::from_internal(r.score), Score::Mate(-1));
    // The same with nothing else to move is a draw (no legal move), not a loss.
    let stuck = pos("kW6/1F6/8/8/8/8/8/K7 b - - 0 1");
    assert_eq!(stuck.game_end().map(|e| e.result), Some("1/2-1/2".into()));
}

#[test]
fn no_legal_move_is_the_draw_the_game_says_it_is() {
    // The rules' worked example 25: every black piece stands next to the white freezer
    // b7, Black has no legal move, and the game is drawn. The rules' per-node verdict does
    // not look for moves: the search finds none and asks the game.
    let stuck = pos("kp6/pF6/8/8/8/8/8/7K b - - 0 1");
    assert!(legal_moves(&stuck).is_empty());
    assert_eq!(stuck.rule_outcome(0, true), None);
    assert_eq!(stuck.no_moves_outcome(), Outcome::Draw);
    // At the root: no move, a draw (not the loss a position without moves is elsewhere).
    let r = run_depth(&stuck, 4);
    assert_eq!(r.best_move, None);
    assert_eq!(Score::from_internal(r.score), Score::Cp(0));
    // Inside the tree: White, a freezer up, can freeze all of Black at once (h7b7).
    // That move ends the game in a draw, whatever White's material: a search that took
    // the reply-less node for lost would see a mate in one.
    let before = pos("kp6/p6F/8/8/8/8/8/7K w - - 0 1");
    let freeze = before.parse_legal_move("h7b7").expect("legal");
    let r = run(
        &before,
        SearchRequest {
            depth: Some(4),
            search_moves: vec![freeze],
            ..SearchRequest::default()
        },
    );
    assert_eq!(r.best_move, Some(freeze));
    assert_eq!(Score::from_internal(r.score), Score::Cp(0));
    // Left free, White keeps its winning chances instead.
    let r = run_depth(&before, 4);
    assert_ne!(r.best_move, Some(freeze));
    assert!(r.score > 0, "{}", r.score);
}

#[test]
fn forced_king_captures_in_two_match_brute_force() {
    // Random positions with few pieces: the search (depth 5) scores mate in 1 exactly when
    // the king can be taken at once, mate in 2 exactly when brute force finds a forced
    // capture on the second move.
    let mut rng = Rng::new(11);
    let letters = ['P', 'C', 'L', 'I', 'W', 'F'];
    let (mut mates1, mut mates2, mut tried) = (0, 0, 0);
    while tried < 600 {
        let mut board = ['.'; 64];
        let mut put = |c: char, rng: &mut Rng| loop {
            let s = rng.below(64);
            if board[s] == '.' {
                board[s] = c;
                break;
            }
        };
        put('K', &mut rng);
        put('k', &mut rng);
        for _ in 0..4 {
            put(letters[rng.below(6)], &mut rng);
        }
        put(letters[rng.below(6)].to_ascii_lowercase(), &mut rng);
        let mut fen = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                fen.push(board[rank * 8 + file]);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        for n in (1..=8).rev() {
            fen = fen.replace(&".".repeat(n), &n.to_string());
        }
        fen.push_str(" w - - 0 1");
        let p = pos(&fen);
        if p.in_check() {
            continue; // White to move would be taking a king left en prise: trivial.
        }
        tried += 1;
        let r = run_depth(&p, 5);
        let got = Score::from_internal(r.score);
        if king_capture_now(&p) {
            mates1 += 1;
            assert_eq!(got, Score::Mate(1), "{fen}");
        } else if forced_king_capture_in_two(&p) {
            mates2 += 1;
            assert_eq!(got, Score::Mate(2), "{fen}");
        } else {
            assert!(
                !matches!(got, Score::Mate(1) | Score::Mate(2)),
                "{fen}: search claims {got:?}"
            );
        }
    }
    eprintln!("{mates1} mates in 1, {mates2} mates in 2 of {tried}");
    assert!(
        mates1 > 40 && mates2 > 5,
        "sample too easy: {mates1} / {mates2}"
    );
}

#[test]
fn every_answer_is_legal() {
    let mut rng = Rng::new(12);
    for game in 0..6 {
        let mut p = Position::startpos();
        for _ in 0..(10 + game * 7) {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[rng.below(moves.len())]);
        }
        for _ in 0..12 {
            if p.game_end().is_some() {
                break;
            }
            let r = run(
                &p,
                SearchRequest {
                    nodes: Some(3000),
                    ..SearchRequest::default()
                },
            );
            let m = r.best_move.expect("a legal move exists");
            assert!(legal_moves(&p).contains(&m), "{} {m}", p.to_fen());
            p.make_move(m);
        }
    }
    // No legal move: no answer.
    let stuck = pos("kp6/pF6/8/8/8/8/8/7K b - - 0 1");
    assert_eq!(run_depth(&stuck, 3).best_move, None);
}

#[test]
fn see_is_one_reply_deep() {
    // a4-d4 pinches d5 against d6; nothing black can reach d4 afterwards: +100.
    let p = pos("2p4k/8/3P4/3p4/P7/8/8/7K w - - 0 1");
    let m = p.parse_legal_move("a4d4").expect("legal");
    assert_eq!(p.captured_value(m), 100);
    assert!(p.see_ge(m, 100));
    // With a black withdrawer on e4, d4 can be taken back (withdrawal e4-f4, or the
    // pincer c8-c4 against e4): 100 - 100.
    let p = pos("2p4k/8/3P4/3p4/P3w3/8/8/7K w - - 0 1");
    let m = p.parse_legal_move("a4d4").expect("legal");
    assert!(p.see_ge(m, 0));
    assert!(!p.see_ge(m, 1));
    // A king capture is always good.
    let p = pos("8/C7/4I3/4kW2/4K3/8/1L6/3P4 w - - 0 1");
    let m = p.parse_legal_move("e4e5").expect("legal");
    assert!(p.see_ge(m, 10_000));
    // A king stepping where it can be leapt (h5 over h2 to h1) is always bad.
    let p = pos("7k/8/8/7l/8/8/8/7K w - - 0 1");
    assert!(!p.see_ge(p.parse_legal_move("h1h2").expect("legal"), -1000));
    assert!(p.see_ge(p.parse_legal_move("h1g1").expect("legal"), 0));
}
