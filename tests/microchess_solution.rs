//! Microchess: the solution against the published figures (variants.md section 2), and
//! the choosing rule against independent recomputations.
//!
//! Every figure is computed here from the solver's table or by walking the game; the
//! expected numbers are the handout's, never read from the solver's code.

use std::collections::HashMap;

use jiang::microchess::table::{layer, states};
use jiang::microchess::{solution, starts, Move, Position, Side, Square, MAX_PLIES};

#[path = "common/microchess.rs"]
mod microchess;
#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

fn sq(s: &str) -> Option<Square> {
    Some(Square::parse(s).expect("square"))
}

fn mv(s: &str) -> Move {
    Move::parse(s).expect("move")
}

/// Guaranteed payoff of `side` in `pos`.
fn guaranteed(pos: &Position, side: Side) -> u8 {
    solution().value(pos).guaranteed[side.index()]
}

#[test]
fn handout_positions_are_forced_white_wins() {
    // K b2, R a1, k d3 (Black's rook gone): whichever side starts.
    for plies in [0, 1] {
        let pos = Position::from_placement([sq("b2"), sq("a1"), sq("d3"), None], plies).unwrap();
        assert_eq!(guaranteed(&pos, Side::White), 3, "{}", pos.to_fen());
        assert_eq!(guaranteed(&pos, Side::Black), 0, "{}", pos.to_fen());
    }
    // K a2, R a3, k c2, White to move.
    let pos = Position::from_placement([sq("a2"), sq("a3"), sq("c2"), None], 0).unwrap();
    assert_eq!(guaranteed(&pos, Side::White), 3);
}

#[test]
fn handout_example_kxb2_wins_c4a4_guarantees_one() {
    let pos = Position::handout();
    assert_eq!(guaranteed(&pos, Side::White), 3);
    for (m, after) in solution().move_values(&pos) {
        let expect = match m.to_string().as_str() {
            "a2b2" => 3,
            "c4a4" => 1,
            _ => 0,
        };
        assert_eq!(after.guaranteed[0], expect, "{m}");
    }
    let choice = solution().choose(&pos).unwrap();
    assert_eq!(choice.mv, mv("a2b2"));
    assert_eq!(choice.guaranteed, [3, 0]);
    assert_eq!(choice.expected, 3.0);
    // Kxb2, then Black's last rook move: 2 plies.
    assert_eq!(choice.plies, 2);
}

/// Whatever the opponent does, a side that moves by the chooser gets at least its
/// guaranteed payoff: the worst case over all opponent strategies, computed by its own
/// backward induction over every state, equals the guarantee.
#[test]
fn the_chooser_secures_the_guarantee_against_any_opponent() {
    let sol = solution();
    microchess::assert_choice_secures_the_guarantee("the chooser", |pos| {
        sol.choose(pos).expect("a move").mv
    });
}

/// Expected payoff of `side` moving by the chooser against a uniformly random opponent,
/// by plain recursion over the game tree (memoised by state), in f64.
fn expected_by_recursion(
    pos: &Position,
    side: Side,
    memo: &mut HashMap<([Option<Square>; 4], u8), f64>,
) -> f64 {
    if let Some(end) = pos.ending() {
        return f64::from(end.payoffs()[side.index()]);
    }
    let key = (pos.placement(), pos.plies());
    if let Some(&e) = memo.get(&key) {
        return e;
    }
    let e = if pos.side_to_move() == side {
        let m = solution().choose(pos).expect("a move").mv;
        expected_by_recursion(&pos.after(m), side, memo)
    } else {
        let moves = pos.legal_moves();
        let sum: f64 = moves
            .iter()
            .map(|&m| expected_by_recursion(&pos.after(m), side, memo))
            .sum();
        sum / moves.len() as f64
    };
    memo.insert(key, e);
    e
}

#[test]
fn expected_payoff_against_a_random_opponent_matches_a_recursion() {
    let mut rng = Rng::new(456);
    let all: Vec<Position> = starts().collect();
    for side in Side::ALL {
        let mut memo = HashMap::new();
        for _ in 0..40 {
            let start = all[rng.below(all.len())];
            let e = expected_by_recursion(&start, side, &mut memo);
            let stored = f64::from(solution().value(&start).expected[side.index()]);
            assert!(
                (e - stored).abs() < 1e-5,
                "{} {side:?}: {e} vs {stored}",
                start.to_fen()
            );
            let g = f64::from(solution().value(&start).guaranteed[side.index()]);
            assert!(e >= g - 1e-9, "expectation below the guarantee");
        }
    }
}

/// Whether `side` can force a win (payoff 3) within `depth` plies: a plain search.
fn wins_within(
    pos: &Position,
    side: Side,
    depth: u32,
    memo: &mut HashMap<(Position, Side, u32), bool>,
) -> bool {
    if let Some(end) = pos.ending() {
        return end.payoffs()[side.index()] == 3;
    }
    if depth == 0 {
        return false;
    }
    if let Some(&w) = memo.get(&(*pos, side, depth)) {
        return w;
    }
    let moves = pos.legal_moves();
    let mut children = moves.iter().map(|&m| pos.after(m));
    let w = if pos.side_to_move() == side {
        children.any(|c| wins_within(&c, side, depth - 1, memo))
    } else {
        children.all(|c| wins_within(&c, side, depth - 1, memo))
    };
    memo.insert((*pos, side, depth), w);
    w
}

#[test]
fn forced_wins_take_the_fastest_line() {
    let mut rng = Rng::new(0xfa57);
    let all: Vec<Position> = starts().collect();
    let mut checked = 0;
    let mut memo = HashMap::new();
    while checked < 60 {
        let start = all[rng.below(all.len())];
        let value = solution().value(&start);
        let Some(side) = Side::ALL
            .into_iter()
            .find(|s| value.guaranteed[s.index()] == 3)
        else {
            continue;
        };
        let fastest = (1..=u32::from(MAX_PLIES))
            .find(|&d| wins_within(&start, side, d, &mut memo))
            .expect("a forced win ends");
        assert_eq!(
            u32::from(value.plies[side.index()]),
            fastest,
            "{}",
            start.to_fen()
        );
        if start.side_to_move() == side {
            let choice = solution().choose(&start).expect("a move");
            assert_eq!(u32::from(choice.plies), fastest, "{}", start.to_fen());
        }
        checked += 1;
    }
}

/// Offered a guaranteed tie (2) and a guaranteed draw (1) and no win, jiang takes the
/// tie: its own payoff counts, not the difference.
#[test]
fn a_guaranteed_tie_beats_a_guaranteed_draw() {
    let sol = solution();
    let mut found = 0;
    for plies in 0..MAX_PLIES {
        for pos in layer(plies) {
            if pos.ending().is_some() {
                continue;
            }
            let s = pos.side_to_move().index();
            let mine: Vec<u8> = sol
                .move_values(&pos)
                .iter()
                .map(|(_, v)| v.guaranteed[s])
                .collect();
            if mine.contains(&2) && mine.contains(&1) && !mine.contains(&3) {
                let choice = sol.choose(&pos).expect("a move");
                assert_eq!(sol.value(&pos.after(choice.mv)).guaranteed[s], 2);
                assert_eq!(choice.guaranteed[s], 2);
                found += 1;
            }
        }
    }
    assert!(found > 0);
}

/// The time to solve, printed (not asserted: timings belong to commands):
/// `cargo test --release --test microchess_solution -- --ignored --nocapture solve_time`.
#[test]
#[ignore]
fn solve_time() {
    for run in 1..=5 {
        let s = jiang::microchess::Solution::compute();
        eprintln!(
            "solve {run}: {} states in {:.1} ms, table {:.1} MB",
            states(),
            s.elapsed.as_secs_f64() * 1e3,
            (states() * std::mem::size_of::<jiang::microchess::Value>()) as f64 / 1e6
        );
    }
}
