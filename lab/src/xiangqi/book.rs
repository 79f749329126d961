//! Building an opening book with jiang's own search (`jiang-lab book build`), and
//! showing one (`jiang-lab book show`). Never from another project's book or games.
//!
//! **Drop-out expansion**: a tree grows from the start position. Each position expanded
//! is searched once at a fixed node budget with several lines (MultiPV); the moves whose
//! score is within `--margin` of the best are kept, weighted by a softmax over their
//! score gap (`--temperature`), and their positions join the frontier. The frontier
//! position expanded next is the one whose line has dropped least from best play: the
//! sum, over its moves, of each move's gap to the best move there, plus `--ply-cost`
//! per ply (so the tree also grows in breadth, not only along the main line). Mirrored
//! positions (Xiangqi's left-right mirror) are one position: expanded once, stored once.
//!
//! The search is single-threaded at a node budget, so a build is deterministic; the
//! seed adds a small jitter (below `--jitter`) to the frontier's costs, for a book
//! that differs a little from one seed to the next.

use crate::flags::{Flags, Spec};
use jiang::book::{self, Book, BookEntry, BookKey};
use jiang::game::{Game, Rules};
use jiang::request::SearchRequest;
use jiang::search::{self, SearchControl, SearchState};
use jiang::tt::TranspositionTable;
use jiang::xiangqi::{Move, Position};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// The usage lines of `jiang-lab book`.
pub const USAGE: &str =
    "jiang-lab book build OUT [--nodes N] [--positions P] [--seed S] [--lines K] \
[--margin M] [--temperature T] [--ply-cost C] [--max-plies D] [--jitter J]\n    \
grow a Xiangqi opening book by drop-out expansion with jiang's own search\n\
jiang-lab book show FILE [FEN]\n    \
the book's moves of a position (the start position without a FEN)\n\
jiang-lab book walk FILE\n    \
how much of a book (jiang's or ElephantEye's BOOK.DAT) is reached from the start\n\
jiang-lab book export-eleeye IN OUT\n    \
writes a book's positions reached from the start in ElephantEye's BOOK.DAT layout";

/// How a book is grown.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Node budget of each position's search.
    pub nodes: u64,
    /// Positions to expand.
    pub positions: usize,
    /// Seed of the frontier's jitter.
    pub seed: u64,
    /// Lines searched per position (MultiPV).
    pub lines: usize,
    /// Moves within this many evaluation units of the best are kept.
    pub margin: i32,
    /// Softmax temperature of the weights, evaluation units.
    pub temperature: f64,
    /// Cost of one more ply in the frontier's order.
    pub ply_cost: i64,
    /// Deepest ply a book position may be at.
    pub max_plies: usize,
    /// Largest jitter added to a frontier cost.
    pub jitter: u64,
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            nodes: 30_000,
            positions: 2_000,
            seed: 1,
            lines: 4,
            margin: 40,
            temperature: 15.0,
            ply_cost: 12,
            max_plies: 24,
            jitter: 4,
        }
    }
}

/// Reads `build OUT --flags…` after `book build`; returns the output path and config.
pub fn parse_build_args(args: &[String]) -> Result<(String, BuildConfig), String> {
    const SPEC: Spec = Spec::new(USAGE)
        .options(&[
            "nodes",
            "positions",
            "seed",
            "lines",
            "margin",
            "temperature",
            "ply-cost",
            "max-plies",
            "jitter",
        ])
        .args(1);
    let f = Flags::parse(args, &SPEC)?;
    let out: String = f.arg(0, "an output file")?;
    let d = BuildConfig::default();
    let config = BuildConfig {
        nodes: f.get("nodes", d.nodes)?.max(1),
        positions: f.get("positions", d.positions)?,
        seed: f.get("seed", d.seed)?,
        lines: f
            .get("lines", d.lines)?
            .clamp(1, book::MAX_MOVES_PER_POSITION),
        margin: f.get("margin", d.margin)?.max(0),
        temperature: f.get("temperature", d.temperature)?.max(0.1),
        ply_cost: f.get("ply-cost", d.ply_cost)?,
        max_plies: f.get("max-plies", d.max_plies)?,
        jitter: f.get("jitter", d.jitter)?,
    };
    Ok((out, config))
}

/// A position waiting on the frontier.
struct Leaf {
    pos: Position,
    plies: usize,
    cost: i64,
}

/// Weights of moves with these gaps to the best (gap 0 weighs the most), a softmax
/// scaled so that the best move weighs 1000 (never 0: every kept move can be chosen).
fn weights(gaps: &[i32], temperature: f64) -> Vec<u16> {
    gaps.iter()
        .map(|&g| {
            let w = 1000.0 * (-f64::from(g) / temperature).exp();
            w.round().clamp(1.0, 1000.0) as u16
        })
        .collect()
}

/// Grows a book; `progress` gets a line now and then. Returns the records to encode.
pub fn build(config: &BuildConfig, progress: &mut dyn FnMut(&str)) -> Vec<(u64, BookEntry)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let tt = TranspositionTable::new(16);
    let mut state = SearchState::<Position>::new();
    let mut expanded: HashSet<u64> = HashSet::new();
    let mut records = Vec::new();
    // Max-heap of Reverse(cost, order): the cheapest first, ties by arrival.
    let mut frontier: BinaryHeap<Reverse<(i64, u64)>> = BinaryHeap::new();
    let mut leaves: Vec<Option<Leaf>> = Vec::new();
    let push = |frontier: &mut BinaryHeap<_>, leaves: &mut Vec<Option<Leaf>>, leaf: Leaf| {
        frontier.push(Reverse((leaf.cost, leaves.len() as u64)));
        leaves.push(Some(leaf));
    };
    push(
        &mut frontier,
        &mut leaves,
        Leaf {
            pos: Position::startpos(),
            plies: 0,
            cost: 0,
        },
    );
    while expanded.len() < config.positions {
        let Some(Reverse((_, id))) = frontier.pop() else {
            break;
        };
        let Some(leaf) = leaves.get_mut(id as usize).and_then(Option::take) else {
            continue;
        };
        let key = BookKey::new(leaf.pos.key(), Game::mirrored_key(&leaf.pos));
        if leaf.plies >= config.max_plies
            || expanded.contains(&key.key)
            || leaf.pos.game_end().is_some()
        {
            continue;
        }
        expanded.insert(key.key);
        let limits = SearchRequest::<Move> {
            nodes: Some(config.nodes),
            multipv: config.lines,
            ..SearchRequest::default()
        };
        let control = SearchControl::new(None, None, false);
        let r = search::search_with_state(&leaf.pos, &limits, &tt, &control, &|_| {}, &mut state);
        // The lines' scores may come from different iterations: the best is the largest.
        let Some(best) = r.lines.iter().map(|&(_, s)| s).max() else {
            continue;
        };
        let kept: Vec<(Move, i32)> = r
            .lines
            .iter()
            .copied()
            .filter(|&(_, s)| best - s <= config.margin)
            .collect();
        let gaps: Vec<i32> = kept.iter().map(|&(_, s)| best - s).collect();
        for ((m, score), weight) in kept.iter().zip(weights(&gaps, config.temperature)) {
            let stored = if key.mirrored {
                <Position as Game>::mirror_move(*m)
            } else {
                *m
            };
            records.push((
                key.key,
                BookEntry {
                    mv: <Position as Game>::move_to_u16(stored),
                    weight,
                    score: (*score).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                    depth: r.depth.clamp(0, 255) as u8,
                },
            ));
            let mut child = leaf.pos.clone();
            child.play(*m);
            let jitter = if config.jitter > 0 {
                (rng.next_u64() % config.jitter) as i64
            } else {
                0
            };
            push(
                &mut frontier,
                &mut leaves,
                Leaf {
                    pos: child,
                    plies: leaf.plies + 1,
                    cost: leaf.cost + i64::from(best - score) + config.ply_cost + jitter,
                },
            );
        }
        if expanded.len().is_multiple_of(100) {
            progress(&format!(
                "{} positions expanded, {} moves, frontier {}, cost {}",
                expanded.len(),
                records.len(),
                frontier.len(),
                leaf.cost
            ));
        }
    }
    records
}

/// Builds a book and writes it to `out`.
pub fn run_build(out: &str, config: &BuildConfig) -> Result<(), String> {
    let mut records = build(config, &mut |l| eprintln!("{l}"));
    let bytes = book::encode(Position::NAME, &mut records);
    std::fs::write(out, &bytes).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("{out}: {} moves, {} bytes", records.len(), bytes.len());
    Ok(())
}

/// The lines `book show` prints: the book's size, then the moves of the position.
pub fn show(path: &str, fen: Option<&str>) -> Result<Vec<String>, String> {
    let b = Book::open(path).map_err(|e| e.to_string())?;
    show_book(&b, fen)
}

/// [`show`] of a book already read.
pub fn show_book(b: &Book, fen: Option<&str>) -> Result<Vec<String>, String> {
    let mut keys = 0;
    let mut last = None;
    for i in 0..b.len() {
        let (k, _) = b.record(i);
        if last != Some(k) {
            keys += 1;
            last = Some(k);
        }
    }
    let mut lines = vec![format!(
        "book of {}: {} positions, {} moves",
        b.game(),
        keys,
        b.len()
    )];
    if b.game() != Position::NAME {
        return Ok(lines);
    }
    let pos = match fen {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
    };
    let (entries, records, _) = super::eleeye_book::book_moves(b, &pos);
    let total: u64 = entries.iter().map(|(_, e)| u64::from(e.weight)).sum();
    if records == 0 {
        lines.push("position not in the book".to_string());
    }
    let illegal = records - entries.len();
    for (m, e) in entries {
        let scored = if e.depth > 0 {
            format!(" score {} depth {}", e.score, e.depth)
        } else {
            String::new()
        };
        lines.push(format!(
            "{m} weight {} ({:.1}%){scored}",
            e.weight,
            100.0 * f64::from(e.weight) / total.max(1) as f64,
        ));
    }
    if illegal > 0 {
        lines.push(format!("({illegal} moves not legal here left out)"));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn a_small_build_is_deterministic_and_reads_back() {
        let config = BuildConfig {
            nodes: 2_000,
            positions: 6,
            ..BuildConfig::default()
        };
        let mut a = build(&config, &mut |_| {});
        let mut b = build(&config, &mut |_| {});
        assert_eq!(a, b);
        assert!(a.len() >= 6, "{}", a.len());
        let bytes = book::encode("xiangqi", &mut a);
        assert_eq!(bytes, book::encode("xiangqi", &mut b));
        let book = Book::from_bytes(Cow::Owned(bytes)).unwrap();
        let lines = show_book(&book, None).unwrap();
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(weights(&[0, 15, 40], 15.0)[0] == 1000);
    }
}
