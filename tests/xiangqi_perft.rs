//! Perft regression tests against `perft/xiangqi.perft` (format: `perft/README.md`).
//!
//! * `perft_file_parses`: every record is complete and its FEN is accepted.
//! * `perft_counts`: every entry up to [`NODE_BUDGET`] nodes matches `jiang::perft::perft`.
//! * `staged_generation_matches_all`: at every node of a small tree below each position,
//!   captures and quiet moves partition the full move list.
//!
//! The deeper entries are run by `perft/run.sh`.

use std::fmt::Write as _;

use jiang::movelist::MoveList;
use jiang::perft::perft;
use jiang::xiangqi::{GenType, Move, Position};

/// Entries with more expected nodes than this are left to `perft/run.sh`.
const NODE_BUDGET: u64 = 50_000_000;

/// Depth of the tree walked below each position by the staged-generation test.
const STAGED_DEPTH: u32 = 3;
/// Most nodes the staged-generation test visits below one position.
const STAGED_NODE_BUDGET: u64 = 150_000;

/// One position of the perft file.
#[derive(Debug)]
struct Record {
    /// Line of the `id` line (1-based), for messages.
    line: usize,
    id: String,
    fen: Option<String>,
    /// (depth, expected nodes) in file order.
    perft: Vec<(u32, u64)>,
}

/// Parses the perft file. Any line that is not blank, a comment, or a well-formed
/// `id` / `epd` / `perft` line in the right place is an error, never skipped.
fn parse_perft_file(text: &str) -> Result<Vec<Record>, String> {
    let mut records: Vec<Record> = Vec::new();
    // Whether the current record is still open (no blank line since its `id`).
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if key == "id" {
            if open {
                return Err(format!(
                    "line {n}: `id` inside a record (blank line missing?)"
                ));
            }
            if rest.is_empty() {
                return Err(format!("line {n}: `id` without a name"));
            }
            if records.iter().any(|r| r.id == rest) {
                return Err(format!("line {n}: duplicate id `{rest}`"));
            }
            records.push(Record {
                line: n,
                id: rest.to_string(),
                fen: None,
                perft: Vec::new(),
            });
            open = true;
            continue;
        }
        let rec = match records.last_mut() {
            Some(r) if open => r,
            _ => return Err(format!("line {n}: `{key}` line outside a record")),
        };
        match key {
            "epd" => {
                if rec.fen.is_some() {
                    return Err(format!("line {n}: second `epd` in record `{}`", rec.id));
                }
                if rest.is_empty() {
                    return Err(format!("line {n}: `epd` without a FEN"));
                }
                rec.fen = Some(rest.to_string());
            }
            "perft" => {
                if rec.fen.is_none() {
                    return Err(format!("line {n}: `perft` before `epd`"));
                }
                let fields: Vec<&str> = rest.split_whitespace().collect();
                let [d, nodes] = fields[..] else {
                    return Err(format!("line {n}: expected `perft DEPTH NODES`"));
                };
                let d: u32 = d
                    .parse()
                    .map_err(|_| format!("line {n}: bad depth `{d}`"))?;
                let nodes: u64 = nodes
                    .parse()
                    .map_err(|_| format!("line {n}: bad node count `{nodes}`"))?;
                if d == 0 {
                    return Err(format!("line {n}: depth 0"));
                }
                if rec.perft.iter().any(|&(pd, _)| pd == d) {
                    return Err(format!("line {n}: depth {d} given twice"));
                }
                rec.perft.push((d, nodes));
            }
            _ => return Err(format!("line {n}: unknown line `{line}`")),
        }
    }
    for r in &records {
        if r.fen.is_none() {
            return Err(format!("record `{}` (line {}): no `epd`", r.id, r.line));
        }
        if r.perft.is_empty() {
            return Err(format!(
                "record `{}` (line {}): no `perft` lines",
                r.id, r.line
            ));
        }
    }
    Ok(records)
}

const PERFT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/xiangqi.perft");

fn load_text() -> String {
    std::fs::read_to_string(PERFT_FILE).unwrap_or_else(|e| panic!("{PERFT_FILE}: {e}"))
}

fn load() -> Vec<Record> {
    parse_perft_file(&load_text()).unwrap_or_else(|e| panic!("{PERFT_FILE}: {e}"))
}

fn position(r: &Record) -> Position {
    let fen = r.fen.as_deref().expect("checked by the parser");
    Position::from_fen(fen).unwrap_or_else(|e| panic!("record `{}`: bad FEN {fen}: {e}", r.id))
}

/// Per-root-move counts, one `move: nodes` per line.
fn divide_text(pos: &mut Position, depth: u32) -> String {
    let mut s = String::new();
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        pos.make_move(m);
        let n = perft(pos, depth - 1);
        pos.unmake_move(m);
        let _ = writeln!(s, "  {m}: {n}");
    }
    s
}

#[test]
fn perft_file_parses() {
    let records = load();
    assert!(records.len() >= 50, "only {} records", records.len());
    for r in &records {
        let pos = position(r);
        // The FEN must survive a round trip through the writer.
        let again = Position::from_fen(&pos.to_fen()).expect("to_fen output parses");
        assert_eq!(again.to_fen(), pos.to_fen(), "record `{}`", r.id);
    }
    // Nothing was dropped: as many records as `id` and `epd` lines, entries as `perft` lines.
    let text = load_text();
    let count = |key: &str| {
        text.lines()
            .filter(|l| l.trim_start().starts_with(key))
            .count()
    };
    assert_eq!(records.len(), count("id "), "every id line is a record");
    assert_eq!(records.len(), count("epd "), "every epd line is a FEN");
    let entries: usize = records.iter().map(|r| r.perft.len()).sum();
    assert_eq!(entries, count("perft "), "every perft line is an entry");
}

#[test]
fn parser_rejects_malformed_input() {
    let good = "# c\nid a\nepd 4k4/9/9/9/9/9/9/9/9/3K5 w\n# source: x\nperft 1 5\n\nid b\nepd 4k4/9/9/9/9/9/9/9/9/3K5 b\nperft 2 9\n";
    let recs = parse_perft_file(good).expect("good input");
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].perft, vec![(1, 5)]);
    let bad = [
        "id a\nperft 1 5\n",                                  // perft before epd
        "id a\nepd 4k4/9/9/9/9/9/9/9/9/3K5 w\n",              // no perft
        "id a\nperft 1 5\nepd x\n",                           // perft before epd
        "epd 4k4/9/9/9/9/9/9/9/9/3K5 w\nperft 1 5\n",         // no id
        "id a\nepd f\nperft 1\n",                             // missing count
        "id a\nepd f\nperft 1 5 6\n",                         // extra field
        "id a\nepd f\nperft x 5\n",                           // bad depth
        "id a\nepd f\nperft 1 -5\n",                          // bad count
        "id a\nepd f\nperft 0 1\n",                           // depth 0
        "id a\nepd f\nperft 1 5\nperft 1 5\n",                // depth twice
        "id a\nepd f\nepd g\nperft 1 5\n",                    // two FENs
        "id a\nepd f\nperft 1 5\nid b\nepd g\nperft 1 5\n",   // no blank line
        "id a\nepd f\nperft 1 5\n\nid a\nepd g\nperft 1 5\n", // duplicate id
        "id a\nepd f\nperft 1 5\n\nperft 2 7\n",              // entry outside a record
        "id a\nepd f\nperfect 1 5\n",                         // unknown key
        "id\nepd f\nperft 1 5\n",                             // empty id
    ];
    for b in bad {
        assert!(parse_perft_file(b).is_err(), "accepted:\n{b}");
    }
}

#[test]
fn perft_counts() {
    let mut checked = 0;
    let mut nodes = 0;
    for r in load() {
        let mut pos = position(&r);
        for &(depth, expected) in &r.perft {
            if expected > NODE_BUDGET {
                continue;
            }
            let got = perft(&mut pos, depth);
            if got != expected {
                panic!(
                    "perft mismatch for `{}`\nfen: {}\ndepth: {depth}\nexpected: {expected}\ngot: {got}\ndivide (depth {depth}):\n{}",
                    r.id,
                    r.fen.as_deref().unwrap_or_default(),
                    divide_text(&mut pos, depth)
                );
            }
            checked += 1;
            nodes += got;
        }
    }
    assert!(checked > 200, "only {checked} entries within the budget");
    eprintln!("perft_counts: {checked} entries, {nodes} nodes");
}

/// Checks the staged generators at this node and below, visiting at most `budget` nodes.
fn check_staged(pos: &mut Position, depth: u32, budget: &mut u64) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let us = pos.side_to_move();
    let mut all = MoveList::new();
    pos.generate(GenType::All, &mut all);
    // Captures, then quiet moves appended to the same list.
    let mut staged = MoveList::new();
    pos.generate(GenType::Captures, &mut staged);
    let n_captures = staged.len();
    pos.generate(GenType::Quiets, &mut staged);
    for (i, &m) in staged.iter().enumerate() {
        let target = pos.piece_at(m.to());
        if i < n_captures {
            assert!(
                target.is_some_and(|p| p.color() != us),
                "capture {m} does not take an enemy piece in {}",
                pos.to_fen()
            );
        } else {
            assert!(
                target.is_none(),
                "quiet move {m} lands on an occupied point in {}",
                pos.to_fen()
            );
        }
    }
    // As sets: sorted, `all` without duplicates, and the two stages together equal to it
    // (which also makes them disjoint and free of duplicates).
    let mut sorted_all = all.clone();
    sorted_all
        .as_mut_slice()
        .sort_unstable_by_key(|m| m.to_u16());
    staged.as_mut_slice().sort_unstable_by_key(|m| m.to_u16());
    let dup = |l: &MoveList<Move>| l.as_slice().windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
    if let Some(m) = dup(&sorted_all) {
        panic!("All lists {m} twice in {}", pos.to_fen());
    }
    if staged.as_slice() != sorted_all.as_slice() {
        let show = |l: &[Move]| {
            l.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let only_all: Vec<Move> = sorted_all
            .iter()
            .copied()
            .filter(|m| !staged.contains(*m))
            .collect();
        let only_staged: Vec<Move> = staged
            .iter()
            .copied()
            .filter(|m| !all.contains(*m))
            .collect();
        panic!(
            "captures + quiets != all in {}\nonly in all: {}\nonly in the stages: {}\ntwice in the stages: {:?}",
            pos.to_fen(),
            show(&only_all),
            show(&only_staged),
            dup(&staged).map(|m| m.to_string())
        );
    }
    if depth == 0 {
        return;
    }
    for &m in all.iter() {
        pos.make_move(m);
        check_staged(pos, depth - 1, budget);
        pos.unmake_move(m);
        if *budget == 0 {
            break;
        }
    }
}

#[test]
fn staged_generation_matches_all() {
    for r in load() {
        let mut pos = position(&r);
        let before = pos.to_fen();
        let mut budget = STAGED_NODE_BUDGET;
        check_staged(&mut pos, STAGED_DEPTH, &mut budget);
        assert_eq!(
            pos.to_fen(),
            before,
            "make/unmake did not restore `{}`",
            r.id
        );
    }
}
