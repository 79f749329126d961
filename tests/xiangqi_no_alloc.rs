//! Move generation, make/unmake and perft never touch the heap.
//!
//! This test binary installs a counting global allocator (wrapping `System`). Counting is
//! switched on per thread, so that the test harness's own threads cannot disturb the
//! count: every allocation, zeroed allocation and reallocation made by the measuring
//! thread while counting is on is added to an `AtomicUsize`.

#[path = "common/count_alloc.rs"]
mod count_alloc;
#[path = "common/rng.rs"]
mod rng;

use count_alloc::allocations_in;
use jiang::movelist::MoveList;
use jiang::perft::perft;
use jiang::xiangqi::{GenType, Move, Position};
use rng::Rng;

/// Random walks: generate all stages, query each move, make, recurse a few plies, unmake
/// everything. Returns a checksum so nothing is optimised away.
fn churn(pos: &mut Position, rng: &mut Rng, walks: usize, depth: usize) -> u64 {
    let mut sum = 0u64;
    let mut path: [Option<Move>; 64] = [None; 64];
    for _ in 0..walks {
        let mut made = 0;
        for slot in path.iter_mut().take(depth) {
            let mut all = MoveList::new();
            let mut caps = MoveList::new();
            let mut quiets = MoveList::new();
            pos.generate(GenType::All, &mut all);
            pos.generate(GenType::Captures, &mut caps);
            pos.generate(GenType::Quiets, &mut quiets);
            sum += (all.len() + caps.len() + quiets.len()) as u64;
            if all.is_empty() {
                break;
            }
            for &m in all.iter() {
                sum += u64::from(pos.gives_check(m)) + u64::from(pos.is_legal(m));
                sum ^= pos.key_after(m);
            }
            let m = all.as_slice()[rng.below(all.len())];
            pos.make_move(m);
            sum ^= pos.key() ^ u64::from(pos.in_check());
            *slot = Some(m);
            made += 1;
        }
        for slot in path[..made].iter().rev() {
            pos.unmake_move(slot.expect("made"));
        }
    }
    sum
}

#[test]
fn search_primitives_do_not_allocate() {
    // The counter works: an allocation is seen.
    let (n, v) = allocations_in(|| vec![1u8; 100]);
    assert!(
        n >= 1 && v.len() == 100,
        "the counting allocator does not count"
    );

    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        // A middlegame with checks and pins.
        "2bak4/4a4/4b4/p8/2c6/6R2/P3C4/9/4A4/2B1KA3 b - - 0 1",
        // Sparse, with cannons and horses near the kings.
        "1R2k4/9/4bc3/p8/6n2/9/P8/9/4A4/3AK4 b - - 0 1",
    ];
    let depths = [4, 4, 4];
    for (fen, depth) in fens.iter().zip(depths) {
        let mut pos = Position::from_fen(fen).unwrap();
        pos.reserve_history(64);
        // Warm-up: lazily built tables and anything else initialised on first use.
        let warm = perft(&mut pos, 2);
        let _ = churn(&mut pos, &mut Rng::new(1), 4, 8);

        let (n, nodes) = allocations_in(|| perft(&mut pos, depth));
        assert_eq!(n, 0, "{fen}: perft({depth}) allocated {n} times");
        assert!(nodes > warm);

        let mut rng = Rng::new(0x9e37_79b9);
        let (n, sum) = allocations_in(|| churn(&mut pos, &mut rng, 2000, 40));
        assert_eq!(n, 0, "{fen}: generate/make/unmake allocated {n} times");
        assert_ne!(sum, 0);
        assert_eq!(
            pos.to_fen(),
            *fen,
            "walks must leave the position unchanged"
        );
    }

    // Known start-position count, to be sure perft did real work.
    let mut pos = Position::startpos();
    let (n, nodes) = allocations_in(|| perft(&mut pos, 4));
    assert_eq!(n, 0);
    assert_eq!(nodes, 3_290_240);
}
