//! Microchess's opponent model (issue 27): the expectation against a maximin opponent
//! against an independent recursion, the guarantee kept whatever the model's weight, and
//! the odds learnt from observed moves through the protocol (`OpponentModel`, `Observe`).

use std::collections::HashMap;
use std::time::Duration;

use jiang::microchess::solve::{expected_against_maximin, pick_weighted};
use jiang::microchess::{solution, starts, Move, Position, Side, Square};

#[path = "common/engine.rs"]
mod engine;
#[path = "common/microchess.rs"]
mod microchess;
#[path = "common/rng.rs"]
mod rng;
use engine::Engine;
use rng::Rng;

type Memo = HashMap<([Option<Square>; 4], u8, usize), f64>;

/// The moves of `pos` after which its mover keeps its best guarantee.
fn keeping(pos: &Position) -> Vec<Move> {
    let m = pos.side_to_move().index();
    let children = solution().move_values(pos);
    let best = children
        .iter()
        .map(|c| c.1.guaranteed[m])
        .max()
        .unwrap_or(0);
    children
        .into_iter()
        .filter(|c| c.1.guaranteed[m] == best)
        .map(|c| c.0)
        .collect()
}

/// `side`'s expected payoff when it takes, among its guarantee-keeping moves, the one
/// with the best such expectation, and its opponent moves uniformly among its own
/// guarantee-keeping moves: plain recursion in f64, memoised by state.
fn by_recursion(pos: &Position, side: Side, memo: &mut Memo) -> f64 {
    if pos.legal_moves().is_empty() {
        return f64::from(pos.ending().expect("over").payoffs()[side.index()]);
    }
    let key = (pos.placement(), pos.plies(), side.index());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let values: Vec<f64> = keeping(pos)
        .iter()
        .map(|&m| by_recursion(&pos.after(m), side, memo))
        .collect();
    let v = if pos.side_to_move() == side {
        values.iter().copied().fold(f64::MIN, f64::max)
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    };
    memo.insert(key, v);
    v
}

#[test]
fn expectation_against_a_maximin_opponent_matches_a_recursion() {
    let mut rng = Rng::new(27);
    let all: Vec<Position> = starts().collect();
    let mut memo = Memo::new();
    for _ in 0..300 {
        let mut pos = all[rng.below(all.len())];
        for _ in 0..rng.below(12) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(
                moves
                    .iter()
                    .copied()
                    .nth(rng.below(moves.len()))
                    .expect("a move"),
            );
        }
        let table = expected_against_maximin(&pos);
        for side in [Side::White, Side::Black] {
            let want = by_recursion(&pos, side, &mut memo);
            let got = f64::from(table[side.index()]);
            assert!(
                (got - want).abs() < 1e-4,
                "{} {side:?}: table {got}, recursion {want}",
                pos.to_fen()
            );
        }
    }
}

/// Whatever the weight of the maximin model, the chooser's move keeps the mover's
/// guarantee: the worst case over every opponent strategy, by backward induction over
/// every state, is the guarantee.
#[test]
fn every_weight_keeps_the_guarantee() {
    let sol = solution();
    for weight in [1.0, 0.5] {
        microchess::assert_choice_secures_the_guarantee(&format!("weight {weight}"), |pos| {
            let options = sol.move_values(pos);
            options[pick_weighted(pos, &options, weight)].0
        });
    }
}

/// The weight of the maximin model the engine reports after `go` in `fen`.
fn reported_weight(e: &mut Engine, fen: &str) -> (f64, u32) {
    e.send(&format!("position fen {fen}"));
    e.send("go");
    let (_, lines) = e.bestmove(Duration::from_secs(10));
    let note = lines
        .iter()
        .find(|l| l.contains("opponent maximin"))
        .unwrap_or_else(|| e.fail("no opponent model in the note"));
    let words: Vec<&str> = note.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "maximin").expect("maximin") + 1;
    (
        words[at].parse().expect("weight"),
        words[at + 2].parse().expect("count"),
    )
}

#[test]
fn observed_moves_move_the_odds() {
    // A start whose mover (White) has guarantee-keeping moves and others.
    let pos = starts()
        .find(|p| {
            let k = keeping(p).len();
            k >= 1 && k < p.legal_moves().len()
        })
        .expect("such a start");
    let kept = keeping(&pos)[0];
    let dropped = *pos
        .legal_moves()
        .iter()
        .find(|m| !keeping(&pos).contains(m))
        .expect("a dropping move");
    let observe = |m: Move| {
        format!(
            "setoption name Observe value {} {}",
            pos.to_fen(),
            pos.after(m).to_fen()
        )
    };
    let probe = pos.after(kept).to_fen();

    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    e.send("setoption name UCI_Variant value microchess");
    e.send("setoption name OpponentModel value observed");
    e.sync(Duration::from_secs(30));
    assert_eq!(reported_weight(&mut e, &probe), (0.5, 0));
    for _ in 0..3 {
        e.send(&observe(kept));
    }
    let (up, n) = reported_weight(&mut e, &probe);
    assert!(
        up > 0.5 && n == 3,
        "after three guarantee-keeping moves: {up} after {n}"
    );
    e.send("setoption name Observe value reset");
    e.send(&observe(dropped));
    let (down, n) = reported_weight(&mut e, &probe);
    assert!(
        down < 0.1 && n == 1,
        "after a guarantee-dropping move: {down} after {n}"
    );
    // A pair of positions no move joins is refused and changes nothing.
    e.send(&format!(
        "setoption name Observe value {} {}",
        pos.to_fen(),
        pos.to_fen()
    ));
    let lines = e.sync(Duration::from_secs(10));
    assert!(
        lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert_eq!(reported_weight(&mut e, &probe), (down, 1));
    // The default model is the random one: weight 0.
    e.send("setoption name OpponentModel value random");
    assert_eq!(reported_weight(&mut e, &probe).0, 0.0);
    e.send("quit");
}
