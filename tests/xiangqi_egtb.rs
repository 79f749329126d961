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
use jiang::xiangqi::egtb::format::{self, FormatError, Header};
use jiang::xiangqi::egtb::index::{entries, placement};
use jiang::xiangqi::egtb::solve::solve;
use jiang::xiangqi::egtb::verify::check_table;
use jiang::xiangqi::egtb::{Table, TbValue};
use jiang::xiangqi::Position;
use std::collections::HashMap;

#[test]
fn every_value_is_the_best_of_its_successors() {
    let names = [
        "KRK", "KHK", "KCK", "KPK", "KRKA", "KHKA", "KPKE", "KCAK", "KCAKA", "KHKP", "KPKP",
        "KRKH", "KHKH",
    ];
    let (_, tables) = egtb::build("consistency", &names);
    for name in names {
        let e = Ending::parse(name).unwrap();
        let [w, d, l] = check_table(&tables, e).unwrap_or_else(|why| panic!("{why}"));
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
                Some(TbValue::Draw | TbValue::RuleDraw { .. }) => strong[1] += 1,
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

/// Chariot against horse: the draws the horse is not proved to hold (it can only keep
/// checking) are lost by the rules, and only by them: the search with the rule judge is
/// mated there, without it is not; the draws both sides hold stay draws either way.
#[test]
fn a_draw_held_only_by_perpetual_check_is_lost_by_the_rules() {
    let (_, tables) = egtb::build("rules", &["KRKH"]);
    let e = Ending::parse("KRKH").unwrap();
    let t = &tables[&e];
    let (mut unproved, mut held) = (Vec::new(), Vec::new());
    let (mut seen_unproved, mut seen_held) = (0, 0);
    for i in entries(e) / 2..entries(e) {
        let Some(pos) =
            placement(e, i).and_then(|p| Position::from_pieces(p.pieces(), p.side).ok())
        else {
            continue;
        };
        match t.value(i) {
            Some(TbValue::RuleDraw {
                mover_holds: false,
                other_holds: true,
            }) => {
                seen_unproved += 1;
                if seen_unproved % 97 == 1 && unproved.len() < 6 {
                    unproved.push(pos);
                }
            }
            Some(TbValue::Draw) if !pos.legal_moves().is_empty() => {
                seen_held += 1;
                if seen_held % 89 == 1 && held.len() < 6 {
                    held.push(pos);
                }
            }
            _ => {}
        }
    }
    assert!(seen_unproved > 100, "{seen_unproved} unproved draws");
    assert_eq!((unproved.len(), held.len()), (6, 6));
    let tt = TranspositionTable::new(16);
    let score = |pos: &Position, judge: bool| {
        tt.clear();
        let control = SearchControl::new(None, None, false);
        let limits = SearchRequest {
            depth: Some(16),
            judge_repetitions: judge,
            ..SearchRequest::default()
        };
        Score::from_internal(search(pos, &limits, &tt, &control, &|_| {}).score)
    };
    for pos in &unproved {
        let fen = pos.to_fen();
        assert!(
            matches!(score(pos, true), Score::Mate(n) if n <= 0),
            "{fen}: the horse's perpetual check should lose"
        );
        assert!(
            !matches!(score(pos, false), Score::Mate(_)),
            "{fen}: with every repetition a draw it is no loss"
        );
    }
    for pos in &held {
        assert!(
            !matches!(score(pos, true), Score::Mate(_)),
            "{}: a draw both sides hold",
            pos.to_fen()
        );
    }
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
