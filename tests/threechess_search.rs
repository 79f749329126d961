//! ThreeChess search: takes a king when it can, saves its own, obeys node limits, root
//! move restrictions and stop; its reports are consistent; the whole-game clock budget
//! never runs out. (The reference's agents are tested with them in `lab/`.)

use jiang::request::SearchRequest;
use jiang::search::SearchControl;
use jiang::threechess::eval::OTHER_CAPTURE;
use jiang::threechess::search::{
    fallible_chances, search, time_budget, Algorithm, Chances, ThreeInfo, ThreeResult,
    ThreeSettings, WIN_BOUND,
};
use jiang::threechess::{Board, Move, Player};
use jiang::time::TimeSettings;
use jiang::tt::TranspositionTable;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a search is asked, and how the three-player search plays.
type Ask = (SearchRequest<Move>, ThreeSettings);

fn run(b: &Board, (request, settings): &Ask) -> (ThreeResult, Vec<ThreeInfo>) {
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, None, false);
    let infos = Mutex::new(Vec::new());
    let r = search(b, request, settings, &tt, &control, &|i| {
        infos.lock().unwrap().push(i.clone())
    });
    (r, infos.into_inner().unwrap())
}

fn depth(d: i32, algorithm: Algorithm) -> Ask {
    let request = SearchRequest {
        depth: Some(d),
        ..SearchRequest::default()
    };
    (request, playing(algorithm))
}

fn playing(algorithm: Algorithm) -> ThreeSettings {
    ThreeSettings {
        algorithm,
        ..ThreeSettings::default()
    }
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

#[test]
fn every_algorithm_takes_a_king_it_can_reach() {
    // Blue's rook on BE4 reaches Red's king on RD4 (FORWARD across the centre); a Blue
    // queen could take a Green pawn instead.
    let b = Board::from_fen("4bR3/bQ7/8/4bK3|8/gP7/8/4gK3|3rK4/8/8/8 b").unwrap();
    for algorithm in Algorithm::ALL {
        let (r, infos) = run(&b, &depth(3, algorithm));
        assert_eq!(r.best_move, Some(mv("BE4RD4")), "{algorithm:?}");
        assert!(r.score >= WIN_BOUND, "{algorithm:?}: {}", r.score);
        assert!(!infos.is_empty());
    }
}

#[test]
fn every_algorithm_saves_its_king_from_the_next_player() {
    // Green's rook on GE3 attacks along Green's file E towards the centre: GE4, then
    // across to BD4, where Blue's king stands. Green moves next, so Blue must step off
    // the line or block it.
    let b = Board::from_fen("3bK4/8/8/1bN6|8/4gR3/8/4gK3|8/8/8/4rK3 b").unwrap();
    for algorithm in Algorithm::ALL {
        let (r, _) = run(&b, &depth(3, algorithm));
        let m = r.best_move.expect("a move");
        let mut after = b.clone();
        after.make_move(m);
        let king = after.king(Player::Blue).expect("Blue's king");
        let green_takes = after.legal_moves_list().iter().any(|g| g.to() == king);
        assert!(
            !green_takes,
            "{algorithm:?} played {m} and Green takes the king"
        );
        assert!(r.score > -WIN_BOUND, "{algorithm:?}: {}", r.score);
    }
}

#[test]
fn node_limits_and_search_moves_are_obeyed() {
    let b = Board::startpos();
    for algorithm in Algorithm::ALL {
        let request = SearchRequest {
            nodes: Some(20_000),
            ..SearchRequest::default()
        };
        let limits = (request, playing(algorithm));
        let (r, _) = run(&b, &limits);
        let m = r.best_move.expect("a move");
        assert!(b.is_legal(m));
        // Nodes are polled every 256.
        assert!(r.nodes <= 20_000 + 256, "{algorithm:?}: {} nodes", r.nodes);
        let only = vec![mv("BB1BC3"), mv("BH2BH3")];
        let request = SearchRequest {
            depth: Some(2),
            search_moves: only.clone(),
            ..SearchRequest::default()
        };
        let limits = (request, playing(algorithm));
        let (r, _) = run(&b, &limits);
        assert!(only.contains(&r.best_move.unwrap()), "{algorithm:?}");
    }
}

#[test]
fn reports_grow_in_depth_and_the_scores_match_the_line() {
    let mut b = Board::startpos();
    for m in ["BE2BE4", "GD2GD4", "RE2RE3"] {
        b.make_move(mv(m));
    }
    for algorithm in [Algorithm::Paranoid, Algorithm::Brs, Algorithm::BrsPlus] {
        let (r, infos) = run(&b, &depth(4, algorithm));
        let depths: Vec<i32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, [1, 2, 3, 4], "{algorithm:?}");
        let last = infos.last().unwrap();
        assert_eq!(last.pv.first().copied(), r.best_move);
        // The PV is legal in turn order.
        let mut line = b.clone();
        for &m in &last.pv {
            assert!(line.is_legal(m), "{algorithm:?}: PV move {m}");
            line.make_move(m);
        }
        // The mover's score is its score at the end of the principal variation, in
        // every iteration (BRS's lines end with the root player to move after a pass).
        for info in &infos {
            assert_eq!(
                info.score,
                info.scores[Player::Blue.index()],
                "{algorithm:?} depth {}",
                info.depth
            );
        }
    }
}

/// Opponents that capture their most valuable target half the time.
const EVEN: [f64; 3] = [0.5; 3];

#[test]
fn the_fallible_opponent_model_takes_kings_when_it_can() {
    let none = Chances::default();
    // Green to move attacks Blue's king (the position of the test above): taken, whatever
    // Green's greed (the model assumes the worst for the root player's king).
    let mut b = Board::from_fen("3bK4/8/8/1bN6|8/4gR3/8/4gK3|8/8/8/4rK3 g").unwrap();
    for greed in [[0.0; 3], EVEN] {
        let c = fallible_chances(&mut b, Player::Blue, 2, &greed);
        assert_eq!(c, Chances { loss: 1.0, ..none });
    }
    // Blue to move reaches Red's king: for Green that ends the game without its win if
    // Blue is greedy, and only now and then if Blue moves at random; for Blue, to move
    // itself, it is a king to take.
    let mut b = Board::from_fen("4bR3/bQ7/8/4bK3|8/gP7/8/4gK3|3rK4/8/8/8 b").unwrap();
    let before = b.key();
    assert_eq!(
        fallible_chances(&mut b, Player::Green, 2, &[1.0; 3]),
        Chances { other: 1.0, ..none }
    );
    let random = fallible_chances(&mut b, Player::Green, 2, &[0.0; 3]);
    assert!(random.other > 0.0 && random.other < 0.5, "{random:?}");
    assert_eq!(
        fallible_chances(&mut b, Player::Blue, 2, &EVEN),
        Chances { win: 1.0, ..none }
    );
    assert_eq!(b.key(), before, "the board is restored");
    // From the start nothing can happen within a round.
    let start = Board::startpos();
    for &m in start.legal_moves_list().iter() {
        let mut b = start.clone();
        b.make_move(m);
        assert_eq!(
            fallible_chances(&mut b, Player::Blue, 2, &EVEN),
            none,
            "{m}"
        );
    }
}

#[test]
fn the_model_counts_a_king_one_opponent_will_take_from_the_other_next_round() {
    let none = Chances::default();
    let greed = [0.3, 0.9, 0.5];
    // Red to move; Green's knight on BC2 attacks Blue's king on BE1 and nothing of Red's
    // can take it or block it: after Blue's move Green takes with its greed.
    let mut b = Board::from_fen("8/8/2gN5/4bK3|8/8/8/4gK3|8/8/8/4rK3 r").unwrap();
    let before = b.key();
    let c = fallible_chances(&mut b, Player::Red, 2, &greed);
    assert_eq!(c, Chances { other: 0.9, ..none });
    assert_eq!(b.key(), before, "the board is restored");
    // Blue's knight on GC2 attacks Green's king; Blue moves next and takes with its greed.
    let mut b = Board::from_fen("8/8/8/4bK3|8/8/2bN5/4gK3|8/8/8/4rK3 r").unwrap();
    let c = fallible_chances(&mut b, Player::Red, 2, &greed);
    assert_eq!(c, Chances { other: 0.3, ..none });
    // A Red rook on BC4 can take the knight: no risk.
    let mut b = Board::from_fen("2rR5/8/2gN5/4bK3|8/8/8/4gK3|8/8/8/4rK3 r").unwrap();
    assert_eq!(fallible_chances(&mut b, Player::Red, 2, &greed), none);
}

#[test]
fn against_fallible_opponents_the_root_prefers_a_threat_to_a_pawn() {
    // Blue's queen can take a Red pawn, or go for Green's king, which a random Green
    // (its king boxed in by its own pawns) and a random Red mostly leave en prise.
    let b = Board::from_fen("3bQ4/8/8/4bK3|8/8/3gPgPgP2/3gPgKgP2|8/8/rPrPrP5/4rK3 b").unwrap();
    let chance = |m: Move| {
        let mut after = b.clone();
        after.make_move(m);
        fallible_chances(&mut after, Player::Blue, 2, &EVEN).win
    };
    let best_chance = b
        .legal_moves_list()
        .iter()
        .map(|&m| chance(m))
        .fold(0.0, f64::max);
    let with = |fallibility: i32| {
        let request = SearchRequest {
            depth: Some(4),
            ..SearchRequest::default()
        };
        let settings = ThreeSettings {
            fallibility,
            ..ThreeSettings::default()
        };
        let limits = (request, settings);
        let r = run(&b, &limits).0;
        (r.best_move.expect("a move"), r.score)
    };
    let (plain, plain_score) = with(0);
    assert!(
        b.piece_at(plain.to()).is_some(),
        "without the model: {plain} takes"
    );
    assert!(chance(plain) < 0.5, "{plain}: {}", chance(plain));
    let (threat, threat_score) = with(3000);
    assert!(best_chance > 0.5);
    assert_eq!(chance(threat), best_chance, "{threat}");
    // The reported score is the search's own, without the bonus: the threat is worth no
    // more to the search than the pawn.
    assert!(
        threat_score <= plain_score,
        "{threat_score} > {plain_score}"
    );
}

#[test]
fn best_reply_search_does_not_fear_an_opponent_marching_on_a_standing_one() {
    // From the opening, BRS lets one opponent move while the other passes; without the
    // stand-in rule Green's queen walked to Blue's king through Blue's passes (GD1GG4,
    // GG4BF1, BF1BE1) and every Red move scored as the third player's loss
    // (`OTHER_CAPTURE`) from depth 5 on.
    let mut b = Board::startpos();
    for m in ["BE2BE4", "GE2GE4"] {
        b.make_move(mv(m));
    }
    for algorithm in [Algorithm::Brs, Algorithm::BrsPlus] {
        let (_, infos) = run(&b, &depth(6, algorithm));
        for info in &infos {
            assert!(
                info.score > OTHER_CAPTURE,
                "{algorithm:?} depth {}: {}",
                info.depth,
                info.score
            );
        }
    }
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let b = Board::startpos();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, None, false);
    let request = SearchRequest {
        infinite: true,
        ..SearchRequest::default()
    };
    let settings = ThreeSettings::default();
    std::thread::scope(|s| {
        let h = s.spawn(|| search(&b, &request, &settings, &tt, &control, &|_| {}));
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        control.stop();
        let r = h.join().unwrap();
        // Generous bound for a loaded machine; the search polls every 256 nodes.
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        assert!(b.is_legal(r.best_move.unwrap()));
    });
}

#[test]
fn the_whole_game_budget_is_spent_but_never_runs_out() {
    let settings = TimeSettings::default();
    let cap = jiang::time::hard_cap(&settings);
    // A 300 s game, each move using its full hard budget plus the move overhead (30 ms)
    // of lag, for 200 of our moves (the reference's tournaments stop at 100): the clock
    // never runs out and no move exceeds the 10 s cap.
    let mut left = Duration::from_secs(300);
    for own_move in 0..200usize {
        let (soft, hard) = time_budget(left, own_move * 3, &settings);
        assert!(soft <= hard && hard <= cap, "{soft:?} {hard:?}");
        let spent = hard + settings.move_overhead;
        assert!(spent < left, "move {own_move}: {spent:?} of {left:?}");
        left -= spent;
    }
    // At the start the budget is several seconds: the time is used.
    let (soft, _) = time_budget(Duration::from_secs(300), 0, &settings);
    assert!(soft >= Duration::from_secs(5), "{soft:?}");
}
