//! Search behaviour: mates found with the right score, stalemate scored as a loss, a legal
//! answer everywhere, reproducible node counts.
//!
//! Mate positions and their mate distances were checked with Fairy-Stockfish 11.1
//! (`go depth 14`, variant xiangqi); its moves were converted from ranks 1-10 to 0-9.

use jiang::search::{search, Score, SearchControl, SearchInfo, SearchResult};

use jiang::request::SearchRequest;
use jiang::tt::TranspositionTable;
use jiang::xiangqi::{Move, Position};

fn run(fen: &str, depth: i32) -> SearchResult<Move> {
    run_limits(
        fen,
        &SearchRequest {
            depth: Some(depth),
            ..SearchRequest::default()
        },
    )
}

fn run_limits(fen: &str, limits: &SearchRequest<Move>) -> SearchResult<Move> {
    let pos = Position::from_fen(fen).expect("test FEN is valid");
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, None, false);
    search(&pos, limits, &tt, &control, &|_| {})
}

/// A search without a time limit, with every line it reported.
fn run_reporting(
    pos: &Position,
    limits: &SearchRequest<Move>,
    tt: &TranspositionTable,
) -> (SearchResult<Move>, Vec<SearchInfo<Move>>) {
    let control = SearchControl::new(None, None, false);
    let infos = std::sync::Mutex::new(Vec::new());
    let r = search(pos, limits, tt, &control, &|i| {
        infos.lock().unwrap().push(i.clone())
    });
    (r, infos.into_inner().unwrap())
}

fn assert_mate(fen: &str, depth: i32, mate: i32, best: Option<&str>) {
    let limits = SearchRequest {
        depth: Some(depth),
        ..SearchRequest::default()
    };
    assert_mate_with(fen, &limits, mate, best);
}

/// The search within `limits` reports exactly mate in `mate` (and plays `best`), and its
/// PV is a mating line of that length.
fn assert_mate_with(fen: &str, limits: &SearchRequest<Move>, mate: i32, best: Option<&str>) {
    let r = run_limits(fen, limits);
    assert_eq!(
        Score::from_internal(r.score),
        Score::Mate(mate),
        "{fen}: score {} pv {:?}",
        r.score,
        r.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>()
    );
    if let Some(best) = best {
        assert_eq!(
            r.best_move.map(|m| m.to_string()).as_deref(),
            Some(best),
            "{fen}"
        );
    }
    // The PV of a mate is the mating line: play it out and the side to move is lost.
    if mate > 0 {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in &r.pv {
            assert!(pos.legal_moves().contains(*m), "{fen}: PV move {m} illegal");
            pos.make_move(*m);
        }
        assert_eq!(r.pv.len() as i32, 2 * mate - 1, "{fen}: PV length");
        assert!(
            pos.legal_moves().is_empty(),
            "{fen}: PV does not end in mate"
        );
    }
}

#[test]
fn mates_in_one() {
    // Chariot to the king's file: the black king cannot step to e9 (flying general).
    assert_mate("3k5/9/9/9/9/9/9/9/9/R3K3R w - - 0 1", 6, 1, Some("a0d0"));
    assert_mate(
        "4ka3/4a4/9/9/9/9/9/9/9/2R1K1R2 w - - 0 1",
        6,
        1,
        Some("c0c9"),
    );
    assert_mate(
        "3ak4/4a4/4b4/9/9/9/9/9/4R4/3K1R3 w - - 0 1",
        6,
        1,
        Some("e1e7"),
    );
}

#[test]
fn mates_in_two_and_three() {
    assert_mate("4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1", 8, 2, None);
    assert_mate("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", 8, 2, None);
    // Horse and chariot.
    assert_mate("3k5/4a4/9/4N4/9/9/9/9/9/4K3R w - - 0 1", 8, 2, None);
    assert_mate("3k5/9/9/9/9/9/9/9/4A4/2HAK1R2 w - - 0 1", 10, 3, None);
}

/// Positions from the mate set (`tools/xiangqi/mate_set.py`: Pikafish-HCE and
/// Fairy-Stockfish agree on the distance, pyffish checked the line) that jiang used to
/// miss or report longer: the mating captures next to a king facing the other king along
/// an open file were taken for losing exchanges and pruned. Each is searched with a
/// budget of 1,000,000 nodes (under a second at the network's 1.2M nodes/s), as the
/// issue asks for the shortest mate within a second: the depth it takes depends on the
/// pruning and the evaluation (with the network the last one is seen at depth 22, 540,000
/// nodes).
#[test]
fn shortest_mates_behind_king_facing_exchanges() {
    let limits = SearchRequest {
        nodes: Some(1_000_000),
        ..SearchRequest::default()
    };
    for (fen, mate, best) in [
        (
            "C2k1a3/4a4/b3c4/8N/C8/P5p2/5r3/9/9/2c1K4 b - - 0 67",
            3,
            None,
        ),
        (
            "4kab2/3ra4/2n1b4/p1N5p/4C4/2B3P2/P3c4/4r4/4R4/2BAKA3 b - - 6 28",
            4,
            Some("e9d9"),
        ),
        ("9/5k3/b8/3P5/p6P1/4R4/9/4B4/4A4/2B1KA3 w - - 3 70", 5, None),
        (
            "3k1ab2/9/b1n6/p7p/6P2/P1B6/9/2r1B4/4K1C2/5r3 b - - 1 38",
            4,
            None,
        ),
    ] {
        assert_mate_with(fen, &limits, mate, best);
    }
}

/// Mates from the deep set (`tools/xiangqi/mates-deep.txt`, mates in 6 and 7) in decided
/// positions, each starting with a quiet move that the search used to try only in a
/// null-window search against a best line already scored far ahead: a defender whose
/// evaluation looked no worse than that line, or who passed (null move), was cut off
/// before the mate showed. The first and third were not found before the 10 s cap (about
/// 16M nodes), the second after 4.3M. Without the evaluation-trusting cuts beyond
/// `Game::DECIDED_SCORE` each is found well inside 1,000,000 nodes.
#[test]
fn mates_behind_a_quiet_move_in_decided_positions() {
    let limits = SearchRequest {
        nodes: Some(1_000_000),
        ..SearchRequest::default()
    };
    for (fen, mate) in [
        // A king step first: e0d0.
        (
            "2bak1r2/2r1a4/4b4/p4N3/2PR3R1/P3C1P1p/4P1c2/4C4/4A4/c3KAB2 w - - 4 25",
            6,
        ),
        ("2b1k4/4a4/9/9/7RP/2B6/P8/5K3/2c1r4/2n3B2 b - - 1 60", 6),
        (
            "2b1ka3/4a4/2n1b4/4pR3/6p2/3R5/4P3P/3AB4/4K4/3r1c1r1 b - - 6 43",
            7,
        ),
    ] {
        assert_mate_with(fen, &limits, mate, None);
    }
}

/// A shorter mate behind a longer one (the deep set's hardest): the mate in 8 starts
/// `f7c7 b1d1 c7c8`, the mate in 7 `f7c7 b1d1 c7c9`, a later move. Once alpha is a mate
/// the side to move mostly fails low, and the extra reduction for an expected cut node
/// cut the shorter mate's lines short: the engine (Hash 64) took 7.6M nodes (depth 17) to
/// report the mate in 7, and takes about 0.73M without that reduction there.
#[test]
fn a_shorter_mate_after_a_longer_one() {
    let limits = SearchRequest {
        nodes: Some(1_500_000),
        ..SearchRequest::default()
    };
    let fen = "4kar2/4aP3/5R1P1/4R4/9/9/4P4/4B4/1r2A4/3CKAB1c w - - 13 68";
    assert_mate_with(fen, &limits, 7, Some("f7c7"));
}

/// A timed search that has found a mate longer than one keeps deepening (a shorter mate
/// may still turn up) until its time or the depth limit ends it; it used to stop as soon
/// as the mate was shorter than the iteration depth.
#[test]
fn timed_search_does_not_stop_at_the_first_mate() {
    let fen = "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(8);
    let control = SearchControl::new(None, Some(std::time::Duration::from_secs(20)), false);
    let r = search(&pos, &SearchRequest::default(), &tt, &control, &|_| {});
    assert_eq!(Score::from_internal(r.score), Score::Mate(2));
    assert!(r.depth > 30, "stopped at depth {}", r.depth);
}

#[test]
fn being_mated_is_negative() {
    // Black to move, mated next move whatever it does.
    assert_mate("3k5/9/9/9/9/9/9/9/9/R3K3R b - - 0 1", 6, -1, None);
    assert_mate("4k4/4a4/9/9/9/9/9/9/9/2R1K1R2 b - - 0 1", 8, -2, None);
}

#[test]
fn stalemate_is_a_loss() {
    // Red wins by leaving Black without a move (not in check): that counts as mate.
    assert_mate("3k5/4P4/9/9/9/9/9/9/9/4K4 w - - 0 1", 4, 1, None);
    // Black to move with no legal move and not in check: lost, no move to play.
    let r = run("3k5/4P4/9/9/9/9/9/9/4K4/9 b - - 0 1", 4);
    assert_eq!(r.best_move, None);
    assert_eq!(Score::from_internal(r.score), Score::Mate(0));
}

#[test]
fn legal_answer_from_every_perft_position() {
    let data = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/xiangqi.perft"))
        .expect("perft data file");
    let fens: Vec<&str> = data
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(str::trim)
        .collect();
    assert!(fens.len() >= 14);
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let legal = pos.legal_moves();
        for depth in 1..=4 {
            let r = run(fen, depth);
            match r.best_move {
                Some(m) => assert!(legal.contains(m), "{fen} depth {depth}: {m} illegal"),
                None => assert!(legal.is_empty(), "{fen} depth {depth}: no move"),
            }
        }
    }
}

#[test]
fn same_search_twice_gives_same_nodes() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let a = run(fen, 7);
    let b = run(fen, 7);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
    assert!(a.nodes > 1000);
}

#[test]
fn bench_signature_is_reproducible() {
    let a = jiang::bench::run(4, true, &mut |_| {});
    let b = jiang::bench::run(4, true, &mut |_| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let pos = Position::startpos();
    let tt = TranspositionTable::new(8);
    let limits = SearchRequest::<Move> {
        nodes: Some(20_000),
        ..SearchRequest::default()
    };
    let control = SearchControl::new(None, None, false);
    let r = search(&pos, &limits, &tt, &control, &|_| {});
    assert!(r.best_move.is_some());
    // The limit is checked at every node; a few in-flight nodes may finish after it.
    assert!(r.nodes >= 20_000 && r.nodes < 20_100, "nodes {}", r.nodes);
}

#[test]
fn banned_and_restricted_root_moves_are_obeyed() {
    let fen = "r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(8);
    let capture = Move::parse("a0a9").unwrap();
    let control = SearchControl::new(None, None, false);
    let limits = SearchRequest {
        depth: Some(4),
        banned: vec![capture],
        ..SearchRequest::default()
    };
    let r = search(&pos, &limits, &tt, &control, &|_| {});
    assert!(r.best_move.is_some_and(|m| m != capture));
    let only = Move::parse("d0d1").unwrap();
    let limits = SearchRequest {
        depth: Some(4),
        search_moves: vec![only],
        ..SearchRequest::default()
    };
    let control = SearchControl::new(None, None, false);
    let r = search(&pos, &limits, &tt, &control, &|_| {});
    assert_eq!(r.best_move, Some(only));
}

/// Searches with the repetition judge on or off, contempt 0.
fn run_judged(pos: &Position, depth: i32, judge_repetitions: bool) -> SearchResult<Move> {
    let tt = TranspositionTable::new(8);
    let limits = SearchRequest {
        depth: Some(depth),
        judge_repetitions,
        ..SearchRequest::default()
    };
    let control = SearchControl::new(None, None, false);
    search(pos, &limits, &tt, &control, &|_| {})
}

#[test]
fn the_search_knows_perpetual_check_loses() {
    // Black's chariots mate Red at once unless Red keeps checking; Red's lone chariot can
    // check forever. By the Asian rules that perpetual loses; as a plain repetition it draws.
    let fen = "4k4/9/7R1/9/9/9/9/1r7/r8/3K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let judged = run_judged(&pos, 12, true);
    assert!(
        matches!(Score::from_internal(judged.score), Score::Mate(n) if n < 0),
        "judge on, the checking side is lost: score {}",
        judged.score
    );
    let plain = run_judged(&pos, 12, false);
    assert_eq!(plain.score, 0, "judge off, perpetual check draws");

    // The other side of it: Black, being checked, knows Red must stop checking and lose.
    let mut pos = pos;
    pos.make_move(pos.parse_legal_move("h7e7").unwrap());
    let judged = run_judged(&pos, 12, true);
    assert!(
        matches!(Score::from_internal(judged.score), Score::Mate(n) if n > 0),
        "judge on, the checked side wins: score {}",
        judged.score
    );
    assert_eq!(run_judged(&pos, 12, false).score, 0);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = Position::startpos();
    let tt = TranspositionTable::new(8);
    let limits = SearchRequest::<Move> {
        depth: Some(7),
        multipv: 3,
        ..SearchRequest::default()
    };
    let (r, infos) = run_reporting(&pos, &limits, &tt);
    let last: Vec<_> = infos.iter().filter(|i| i.depth == 7).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(last.windows(2).all(|w| w[0].raw_score >= w[1].raw_score));
    assert_eq!(r.best_move, Some(firsts[0]));
    // A single legal move gives a single line, however many are asked for.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R b - - 0 1").unwrap();
    let limits = SearchRequest::<Move> {
        depth: Some(3),
        multipv: 50,
        ..SearchRequest::default()
    };
    let (_, infos) = run_reporting(&pos, &limits, &tt);
    assert!(!infos.is_empty() && infos.iter().all(|i| i.multipv == 1));
}

/// The last line reported before `bestmove` is the move played, with the score the search
/// gives it: when a node or time limit stops an iteration that has already changed the best
/// move or its score (a mate found late, a fail-low), that iteration's line is reported
/// too. The case must actually occur here, so the assertion is not empty.
#[test]
fn the_last_line_reported_is_the_move_played() {
    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
        "2bak4/4a4/4b4/p3C3p/2p6/6P2/P3c3P/4B4/4A4/3AK1B2 w - - 0 1",
    ];
    let mut interrupted_lines = 0;
    let mut changed_moves = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).expect("test FEN is valid");
        for k in 1..=24u64 {
            let nodes = 3_000 * k * k;
            let limits = SearchRequest::<Move> {
                nodes: Some(nodes),
                ..SearchRequest::default()
            };
            let (r, infos) = run_reporting(&pos, &limits, &TranspositionTable::new(8));
            let last = infos.last().expect("a search reports at least one line");
            assert_eq!(Some(last.pv[0]), r.best_move, "{fen}, {nodes} nodes");
            assert_eq!(last.raw_score, r.score, "{fen}, {nodes} nodes");
            if last.depth > r.depth {
                interrupted_lines += 1;
                let completed = infos.iter().rev().find(|i| i.depth == r.depth);
                if completed.is_some_and(|c| c.pv[0] != last.pv[0]) {
                    changed_moves += 1;
                }
            }
        }
    }
    assert!(
        interrupted_lines > 0,
        "no search stopped in a changed iteration"
    );
    assert!(
        changed_moves > 0,
        "no interrupted iteration changed the move"
    );
}
