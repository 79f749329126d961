//! Every line the search reports is a legal sequence of moves, in every game the generic
//! search plays: the PV of each `info` (every MultiPV line, every iteration), the final
//! PV, and the ponder move (the PV's second move, sent as `bestmove … ponder …`).
//!
//! A Baroque self-play soak game (issue 14) once got `bestmove c7b6 ponder b7b5` with b7b5
//! illegal after c7b6: a root move that failed high in its null-window search kept the
//! continuation of another root move's line.

#[path = "common/rng.rs"]
mod rng;

use jiang::game::Game;
use jiang::request::SearchRequest;
use jiang::search::{search, SearchControl};
use jiang::tt::TranspositionTable;
use rng::Rng;
use std::sync::Mutex;

/// Plays `line` from `pos`, failing with `what` at the first illegal move (a move after
/// the end of the game counts as illegal).
fn assert_legal_line<G: Game>(pos: &G, line: &[G::Move], what: &str) {
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        assert!(
            p.game_end().is_none() && p.legal_moves().contains(&m),
            "{what}: move {} ({m}) of {:?} is illegal in {}",
            i + 1,
            line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            p.to_fen()
        );
        p.play(m);
    }
}

/// Searches `positions` positions reached by random play from the start (each with
/// 1,000 to `max_nodes` nodes, so that searches stop anywhere, even inside a re-search
/// after a fail-high; MultiPV 1 or 2; one table kept between them as in a game) and
/// checks every reported line.
fn check_lines<G: Game>(seed: u64, positions: usize, max_nodes: u64) {
    let mut rng = Rng::new(seed);
    let tt = TranspositionTable::new(4);
    let mut checked = 0;
    while checked < positions {
        let mut pos = G::start_position();
        let plies = 4 + rng.below(40);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        if pos.game_end().is_some() || pos.legal_moves().is_empty() {
            continue;
        }
        let limits = SearchRequest::<G::Move> {
            nodes: Some(1_000 + rng.next_u64() % max_nodes),
            multipv: 1 + rng.below(2),
            ..SearchRequest::default()
        };
        let control = SearchControl::new(None, None, false);
        let lines = Mutex::new(Vec::new());
        let r = search(&pos, &limits, &tt, &control, &|i| {
            lines
                .lock()
                .unwrap()
                .push((i.depth, i.multipv, i.pv.clone()))
        });
        let fen = pos.to_fen();
        for (depth, k, pv) in lines.into_inner().unwrap() {
            assert_legal_line(&pos, &pv, &format!("{fen}: info depth {depth} multipv {k}"));
        }
        assert_legal_line(&pos, &r.pv, &format!("{fen}: final PV"));
        assert_eq!(
            r.best_move,
            r.pv.first().copied(),
            "{fen}: best move and PV"
        );
        if let (Some(best), Some(ponder)) = (r.best_move, r.ponder_move) {
            assert_legal_line(&pos, &[best, ponder], &format!("{fen}: bestmove/ponder"));
        }
        checked += 1;
    }
}

#[test]
fn xiangqi_lines_are_legal() {
    check_lines::<jiang::xiangqi::Position>(1, 400, 20_000);
}

#[test]
fn fairychess_lines_are_legal() {
    check_lines::<jiang::fairychess::Position>(2, 400, 20_000);
}

#[test]
fn baroque_lines_are_legal() {
    check_lines::<jiang::baroque::Position>(3, 400, 20_000);
}
