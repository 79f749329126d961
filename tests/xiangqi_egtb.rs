//! Endgame tables: built here with the engine's solver (small endings only), then
//! checked against the rules and against the search, and refused when damaged.
//!
//! * every value is the best of its successors' (through the engine's make/unmake, not
//!   the solver's own move application), with distances stepping down by exactly one;
//! * the same ending solved twice gives the same bytes;
//! * on random positions the search without tables never finds a mate shorter than the
//!   table's, finds every short table win, and never claims a mate the table denies;
//! * a flipped byte, a cut file or a wrong magic is refused.
//!
//! This binary never loads tables into the engine (`egtb::load_paths`): its searches
//! run without them. `xiangqi_egtb_protocol.rs` tests the loaded tables.

#[path = "common/egtb.rs"]
mod egtb;
#[path = "common/rng.rs"]
mod rng;

use jiang::request::SearchRequest;
use jiang::search::{search, Score, SearchControl};
use jiang::tt::TranspositionTable;
use jiang::xiangqi::egtb::ending::Ending;
use jiang::xiangqi::egtb::format::{self, FormatError, Header, NO_POSITION};
use jiang::xiangqi::egtb::index::{entries, placement};
use jiang::xiangqi::egtb::solve::solve;
use jiang::xiangqi::egtb::{Table, TbValue};
use jiang::xiangqi::Position;
use std::collections::HashMap;

/// Checks every index value of `e` against its successors.
fn check_consistent(tables: &HashMap<Ending, Table>, e: Ending) -> [usize; 3] {
    let t = &tables[&e];
    let mut counts = [0usize; 3];
    for i in 0..entries(e) {
        let byte = t.byte(i).unwrap();
        let pos = placement(e, i).and_then(|p| Position::from_pieces(p.pieces(), p.side).ok());
        let Some(mut pos) = pos else {
            assert_eq!(byte, NO_POSITION, "{e} {i}: no position, yet a value");
            continue;
        };
        let v = TbValue::from_byte(byte)
            .unwrap_or_else(|| panic!("{e} {i} {}: a position without value", pos.to_fen()));
        let mut children = Vec::new();
        for m in pos.legal_moves().iter().copied().collect::<Vec<_>>() {
            pos.make_move(m);
            let c = egtb::value(tables, &pos)
                .unwrap_or_else(|| panic!("{e}: successor {} unknown", pos.to_fen()));
            children.push(c);
            pos.unmake_move(m);
        }
        let fen = pos.to_fen();
        let fastest_loss = children
            .iter()
            .filter_map(|c| match c {
                TbValue::Loss(k) => Some(*k),
                _ => None,
            })
            .min();
        let all_wins = children.iter().all(|c| matches!(c, TbValue::Win(_)));
        match v {
            TbValue::Win(d) => {
                counts[0] += 1;
                assert_eq!(fastest_loss, Some(d - 1), "{e} {fen}: win in {d}");
            }
            TbValue::Loss(d) => {
                counts[2] += 1;
                assert!(all_wins, "{e} {fen}: loss with a move that does not lose");
                let slowest = children
                    .iter()
                    .map(|c| match c {
                        TbValue::Win(k) => *k + 1,
                        _ => 0,
                    })
                    .max()
                    .unwrap_or(0);
                assert_eq!(slowest, d, "{e} {fen}: loss in {d}");
            }
            TbValue::Draw => {
                counts[1] += 1;
                assert!(
                    fastest_loss.is_none(),
                    "{e} {fen}: draw with a winning move"
                );
                assert!(
                    !children.is_empty() && !all_wins,
                    "{e} {fen}: draw without a drawing move"
                );
            }
        }
    }
    counts
}

#[test]
fn every_value_is_the_best_of_its_successors() {
    let names = [
        "KRK", "KHK", "KCK", "KPK", "KRKA", "KHKA", "KPKE", "KCAK", "KCAKA",
    ];
    let (_, tables) = egtb::build("consistency", &names);
    for name in names {
        let e = Ending::parse(name).unwrap();
        let [w, d, l] = check_consistent(&tables, e);
        // Every ending has positions; only the cannon without a screen never wins.
        assert!(w + d + l > 1000, "{name}");
        if name != "KCK" {
            assert!(w > 0 && l > 0, "{name}: {w} wins, {l} losses");
        }
    }
    // Known theory the rules above must reproduce: a cannon alone cannot mate, with an
    // advisor as its screen it wins against a bare king, a chariot always wins.
    let tally = |name: &str| {
        let e = Ending::parse(name).unwrap();
        let t = &tables[&e];
        let mut strong = [0; 3];
        for i in 0..entries(e) / 2 {
            match t.value(i) {
                Some(TbValue::Win(_)) => strong[0] += 1,
                Some(TbValue::Draw) => strong[1] += 1,
                Some(TbValue::Loss(_)) => strong[2] += 1,
                None => {}
            }
        }
        strong
    };
    assert_eq!(tally("KCK")[0], 0);
    assert_eq!(tally("KCAK")[1], 0);
    assert_eq!(tally("KRK")[1], 0);
}

#[test]
fn the_same_ending_gives_the_same_bytes() {
    let e = Ending::parse("KHKA").unwrap();
    let mut sub = HashMap::new();
    sub.insert(
        Ending::parse("KHK").unwrap(),
        solve(Ending::parse("KHK").unwrap(), &sub).unwrap().values,
    );
    let header = |s: &jiang::xiangqi::egtb::solve::Solved| Header {
        ending: e,
        flags: 0,
        max_dtm: s.max_dtm,
        notes: "determinism".into(),
    };
    let a = solve(e, &sub).unwrap();
    let b = solve(e, &sub).unwrap();
    assert_eq!(
        format::encode(&header(&a), &a.values),
        format::encode(&header(&b), &b.values)
    );
}

#[test]
fn the_search_without_tables_agrees_with_them() {
    let (_, tables) = egtb::build("search", &["KHKA", "KRKA"]);
    let mut rng = rng::Rng::new(56);
    let tt = TranspositionTable::new(16);
    let mut checked_wins = 0;
    for name in ["KHKA", "KRKA"] {
        let e = Ending::parse(name).unwrap();
        let mut tried = 0;
        while tried < 150 {
            let i = rng.below(entries(e));
            let Some(pos) =
                placement(e, i).and_then(|p| Position::from_pieces(p.pieces(), p.side).ok())
            else {
                continue;
            };
            if pos.legal_moves().is_empty() {
                continue;
            }
            tried += 1;
            let v = tables[&e].value(i).unwrap();
            let short_win = matches!(v, TbValue::Win(d) if d <= 7);
            let depth = match v {
                // Quiet mating moves are reduced and pruned: twice the distance and more.
                TbValue::Win(d) if d <= 7 => 2 * d as i32 + 4,
                _ => 6,
            };
            tt.clear();
            let control = SearchControl::new(None, None, false);
            let limits = SearchRequest {
                depth: Some(depth),
                ..SearchRequest::default()
            };
            let r = search(&pos, &limits, &tt, &control, &|_| {});
            let fen = pos.to_fen();
            match (Score::from_internal(r.score), v) {
                // A mate found is no shorter than the table's (the table's is the fastest).
                (Score::Mate(n), TbValue::Win(d)) if n > 0 => {
                    let plies = 2 * n - 1;
                    assert!(
                        plies >= d as i32,
                        "{fen}: search mate {n}, table win in {d}"
                    );
                    if short_win {
                        assert_eq!(2 * n - 1, d as i32, "{fen}: a table mate within reach");
                    }
                }
                (Score::Mate(n), v) if n > 0 => panic!("{fen}: search mate {n}, table {v}"),
                (Score::Mate(n), v) if n <= 0 => {
                    assert!(
                        matches!(v, TbValue::Loss(_)),
                        "{fen}: search mated, table {v}"
                    )
                }
                (s, _) => assert!(
                    !short_win,
                    "{fen}: table {v}, search {s:?} at depth {depth}"
                ),
            }
            checked_wins += usize::from(short_win);
        }
    }
    assert!(
        checked_wins > 20,
        "only {checked_wins} short wins among the samples"
    );
}

#[test]
fn damaged_files_are_refused() {
    let (dir, tables) = egtb::build("damage", &["KRK"]);
    let path = dir.join("KRK.jtb");
    let good = std::fs::read(&path).unwrap();
    assert_eq!(
        Table::from_bytes(good.clone()).unwrap().values(),
        tables[&Ending::parse("KRK").unwrap()].values()
    );
    for at in [20, good.len() / 2, good.len() - 9] {
        let mut bad = good.clone();
        bad[at] ^= 1;
        assert!(
            Table::from_bytes(bad).is_err(),
            "flipped byte at {at} accepted"
        );
    }
    for len in [0, 10, 60, good.len() - 1] {
        assert!(
            Table::from_bytes(good[..len].to_vec()).is_err(),
            "cut at {len} accepted"
        );
    }
    let mut magic = good.clone();
    magic[1] = b'X';
    assert_eq!(Table::from_bytes(magic).err(), Some(FormatError::BadMagic));
    let mut version = good;
    version[8] = 9;
    assert_eq!(
        Table::from_bytes(version).err(),
        Some(FormatError::Version(9))
    );
}
