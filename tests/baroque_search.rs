//! Search on Baroque positions.

use jiang::baroque::{Move, Position};
use jiang::search::{search, Limits, Score, SearchControl, SearchResult};
use jiang::tt::TranspositionTable;

fn run(fen: &str, depth: i32) -> SearchResult<Move> {
    let pos = Position::from_fen(fen).expect("test FEN is valid");
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = SearchControl::new(None, None, false);
    search(&pos, &limits, &tt, &control, &|i| {
        eprintln!(
            "depth {} score {:?} nodes {} nps {} pv {}",
            i.depth,
            i.score,
            i.nodes,
            i.nps,
            i.pv.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )
    })
}

#[test]
#[ignore]
fn explore() {
    let fen = std::env::var("FEN").unwrap_or(Position::startpos().to_fen());
    let d = std::env::var("DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(8);
    let r = run(&fen, d);
    eprintln!(
        "best {:?} score {:?}",
        r.best_move.map(|m| m.to_string()),
        Score::from_internal(r.score)
    );
}
