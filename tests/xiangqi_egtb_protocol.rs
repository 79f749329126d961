//! Endgame tables in the engine: `EgtbPath` over UCI, UCCI (`egtbpaths`) and CECP, the
//! table-optimal move and the mate score of a search with tables, the `d` line, damaged
//! or missing files refused in one line each while the engine plays on, and a probe
//! that allocates nothing. The tables are built here with the engine's solver.

#[path = "common/count_alloc.rs"]
mod count_alloc;
#[path = "common/egtb.rs"]
mod egtb;
#[path = "common/engine.rs"]
mod engine;

use engine::{Engine, SLOW};
use jiang::xiangqi::egtb::ending::Ending;
use jiang::xiangqi::egtb::index::{entries, placement};
use jiang::xiangqi::egtb::{Table, TbValue};
use jiang::xiangqi::{Move, Piece, Position, Square};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

type Tables = HashMap<Ending, Table>;

/// KRK, KHKA, KRKH and what they capture into, built once for this binary.
fn tables() -> &'static (PathBuf, Tables) {
    static T: once_cell::sync::Lazy<(PathBuf, Tables)> =
        once_cell::sync::Lazy::new(|| egtb::build("protocol", &["KRK", "KHKA", "KRKH"]));
    &T
}

/// The legal position of `e` with the strong side to move and the longest win.
fn longest_win(tables: &Tables, e: Ending) -> (Position, u16) {
    let t = &tables[&e];
    let mut best: Option<(usize, u16)> = None;
    for i in 0..entries(e) / 2 {
        if let Some(TbValue::Win(d)) = t.value(i) {
            if best.is_none_or(|(_, b)| d > b) {
                best = Some((i, d));
            }
        }
    }
    let (i, d) = best.unwrap();
    let p = placement(e, i).unwrap();
    (Position::from_pieces(p.pieces(), p.side).unwrap(), d)
}

/// The moves that keep the fastest win of a won position.
fn optimal_moves(tables: &Tables, pos: &Position) -> Vec<String> {
    let Some(TbValue::Win(d)) = egtb::value(tables, pos) else {
        panic!("{}: not a table win", pos.to_fen());
    };
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for m in pos.legal_moves().iter().copied().collect::<Vec<Move>>() {
        pos.make_move(m);
        if egtb::value(tables, &pos) == Some(TbValue::Loss(d - 1)) {
            out.push(m.to_string());
        }
        pos.unmake_move(m);
    }
    assert!(!out.is_empty());
    out
}

fn score_mate(lines: &[String]) -> Option<i32> {
    let last = lines.iter().rev().find(|l| l.starts_with("info depth"))?;
    let w: Vec<&str> = last.split_whitespace().collect();
    let i = w.iter().position(|x| *x == "mate")?;
    w.get(i + 1)?.parse().ok()
}

#[test]
fn uci_option_loads_tables_and_the_search_plays_the_fastest_win() {
    let (dir, tables) = tables();
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", SLOW);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name EgtbPath type string")),
        "{lines:?}"
    );
    e.send(&format!("setoption name EgtbPath value {}", dir.display()));
    let said = e.sync(SLOW);
    assert_eq!(said.len(), 1, "{said:?}");
    let n = tables.len();
    assert!(
        said[0].starts_with(&format!("info string tablebases: {n} loaded (")),
        "{said:?}"
    );
    assert!(said[0].contains(" KHKA"), "{said:?}");

    for ending in ["KRK", "KHKA"] {
        let (pos, d) = longest_win(tables, Ending::parse(ending).unwrap());
        let optimal = optimal_moves(tables, &pos);
        e.send(&format!("position fen {}", pos.to_fen()));
        e.send("d");
        let shown = e.sync(SLOW);
        assert!(
            shown
                .iter()
                .any(|l| l.contains(&format!("tablebase: win in {d} plies"))),
            "{ending}: {shown:?}"
        );
        // Depth 3 sees nothing of a mate in 19 moves: the tables do.
        e.send("go depth 3");
        let (best, lines) = e.bestmove(SLOW);
        assert!(
            optimal.contains(&best),
            "{ending} {}: {best} not in {optimal:?}",
            pos.to_fen()
        );
        assert_eq!(
            score_mate(&lines),
            Some((d as i32 + 1) / 2),
            "{ending}: {lines:?}"
        );
    }
    // Every root move solved, the depths run out at once: `go infinite` still waits for
    // `stop` before it answers.
    let (pos, _) = longest_win(tables, Ending::parse("KHKA").unwrap());
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go infinite");
    let early = e.drain(std::time::Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("stop");
    let (best, _) = e.bestmove(SLOW);
    assert!(optimal_moves(tables, &pos).contains(&best), "{best}");
    // The AlphaChess house rules forbid lines the tables play (a fourth check running):
    // there the tables stay out of the search.
    let (pos, _) = longest_win(tables, Ending::parse("KHKA").unwrap());
    e.send("setoption name Rules value alphachess");
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go depth 3");
    let (_, lines) = e.bestmove(SLOW);
    assert_eq!(score_mate(&lines), None, "{lines:?}");
    e.send("setoption name Rules value asian");
    // Unloaded again: the long win is out of the search's sight.
    e.send("setoption name EgtbPath value <empty>");
    assert_eq!(
        e.sync(SLOW),
        vec!["info string tablebases: none loaded".to_string()]
    );
    let (pos, _) = longest_win(tables, Ending::parse("KHKA").unwrap());
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go depth 3");
    let (_, lines) = e.bestmove(SLOW);
    assert_eq!(score_mate(&lines), None, "{lines:?}");
}

/// Chariot against horse, an attacker on each side: the table's fastest win is played
/// and scored as its mate; a draw the horse holds only by checking perpetually is shown
/// as such by `d`, and the search, not the table, answers there: its rule judge finds the
/// horse lost.
#[test]
fn an_attacker_on_each_side_wins_by_the_table_and_rule_draws_are_searched() {
    let (dir, tables) = tables();
    let e = Ending::parse("KRKH").unwrap();
    let mut eng = Engine::start();
    eng.send("uci");
    eng.read_until("uciok", SLOW);
    eng.send(&format!("setoption name EgtbPath value {}", dir.display()));
    let said = eng.sync(SLOW);
    assert!(said[0].contains(" KRKH"), "{said:?}");

    let (pos, d) = longest_win(tables, e);
    let optimal = optimal_moves(tables, &pos);
    eng.send(&format!("position fen {}", pos.to_fen()));
    eng.send("go depth 3");
    let (best, lines) = eng.bestmove(SLOW);
    assert!(
        optimal.contains(&best),
        "{}: {best} not in {optimal:?}",
        pos.to_fen()
    );
    assert_eq!(score_mate(&lines), Some((d as i32 + 1) / 2), "{lines:?}");

    let t = &tables[&e];
    let rule_draw = (entries(e) / 2..entries(e))
        .find_map(|i| {
            let v = t.value(i)?;
            let unproved = matches!(
                v,
                TbValue::RuleDraw {
                    mover_holds: false,
                    ..
                }
            );
            let p = placement(e, i)?;
            let pos = Position::from_pieces(p.pieces(), p.side).ok()?;
            (unproved && !pos.legal_moves().is_empty()).then_some(pos)
        })
        .expect("a draw the horse does not hold by the rules");
    eng.send(&format!("position fen {}", rule_draw.to_fen()));
    eng.send("d");
    let shown = eng.sync(SLOW);
    assert!(
        shown.iter().any(|l| l.contains(
            "tablebase: draw if repetitions are drawn (the repetition rules may decide)"
        )),
        "{shown:?}"
    );
    eng.send("go depth 16");
    let (_, lines) = eng.bestmove(SLOW);
    assert!(
        score_mate(&lines).is_some_and(|n| n < 0),
        "{}: {lines:?}",
        rule_draw.to_fen()
    );
}

#[test]
fn ucci_egtbpaths_and_cecp_egtpath_load_tables() {
    let (dir, tables) = tables();
    let (pos, d) = longest_win(tables, Ending::parse("KHKA").unwrap());
    let mut e = Engine::start();
    e.send("ucci");
    e.read_until("ucciok", SLOW);
    e.send(&format!("setoption egtbpaths {}", dir.display()));
    let said = e.sync(SLOW);
    let loaded = format!("tablebases: {} loaded", tables.len());
    assert!(
        said.iter()
            .any(|l| l.starts_with(&format!("info string {loaded}"))),
        "{said:?}"
    );
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go depth 3");
    let (best, lines) = e.bestmove(SLOW);
    assert!(optimal_moves(tables, &pos).contains(&best), "{lines:?}");
    // UCCI writes a mate as a number of its own: the line must not be a plain
    // evaluation of a few hundred.
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let w: Vec<&str> = last.split_whitespace().collect();
    let score = w
        .iter()
        .position(|x| *x == "score")
        .and_then(|i| w.get(i + 1));
    let score: i32 = score
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{last}"));
    assert_eq!(score, 10_000 - d as i32, "{last} (win in {d} plies)");

    let mut x = Engine::start();
    x.send("xboard");
    x.send("protover 2");
    x.read_while_waiting("done=1", SLOW, |l| l.contains("done=1"));
    x.send(&format!("egtpath xiangqi {}", dir.display()));
    x.send("ping 7");
    let said = x.read_until("pong 7", SLOW);
    assert!(
        said.iter().any(|l| l.starts_with(&format!("# {loaded}"))),
        "{said:?}"
    );
}

#[test]
fn damaged_or_missing_files_are_refused_in_one_line_each() {
    let (dir, _) = tables();
    let bad = dir.with_file_name("egtb-protocol-damaged");
    let _ = std::fs::remove_dir_all(&bad);
    std::fs::create_dir_all(&bad).unwrap();
    let krk = std::fs::read(dir.join("KRK.jtb")).unwrap();
    let mut flipped = krk.clone();
    flipped[krk.len() / 2] ^= 0x10;
    std::fs::write(bad.join("KRK.jtb"), flipped).unwrap();
    std::fs::write(bad.join("KHK.jtb"), &krk[..krk.len() - 30]).unwrap();
    std::fs::copy(dir.join("KHKA.jtb"), bad.join("KHKA.jtb")).unwrap();
    let missing = bad.join("no-such-dir");
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", SLOW);
    e.send(&format!(
        "setoption name EgtbPath value {};{}",
        bad.display(),
        missing.display()
    ));
    let said = e.sync(SLOW);
    assert_eq!(said.len(), 4, "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.contains("KRK.jtb refused: checksum mismatch")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l.contains("KHK.jtb refused:")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l.contains("no-such-dir refused:")),
        "{said:?}"
    );
    assert_eq!(said[3], "info string tablebases: 1 loaded (KHKA)");
    // The engine plays on, in the ending of the good file and elsewhere.
    e.send("position startpos");
    e.send("go depth 4");
    let (best, _) = e.bestmove(SLOW);
    assert!(
        Position::startpos().parse_legal_move(&best).is_ok(),
        "{best}"
    );
    e.send("position fen 3k5/9/9/9/9/9/9/9/4K4/R8 w - - 0 1");
    e.send("go depth 4");
    let (best, _) = e.bestmove(SLOW);
    assert_eq!(best.len(), 4);
}

/// Loading into this process is global: one test at a time touches it.
static LOADED: Mutex<()> = Mutex::new(());

#[test]
fn a_probe_allocates_nothing_and_agrees_with_the_files() {
    let _guard = LOADED.lock().unwrap();
    let (dir, tables) = tables();
    let report = jiang::xiangqi::egtb::load_paths(&dir.display().to_string());
    assert_eq!(report.refused, vec![]);
    let e = Ending::parse("KHKA").unwrap();
    let positions: Vec<Position> = (0..entries(e))
        .step_by(97)
        .filter_map(|i| placement(e, i))
        .filter_map(|p| Position::from_pieces(p.pieces(), p.side).ok())
        .collect();
    assert!(positions.len() > 100);
    let expected: Vec<Option<TbValue>> = positions.iter().map(|p| egtb::value(tables, p)).collect();
    // Warm up (the index's lists are made on first use), then count.
    let _ = jiang::xiangqi::egtb::probe(&positions[0]);
    let (allocations, got) = count_alloc::allocations_in(|| {
        let mut got = [None; 4096];
        for (slot, p) in got.iter_mut().zip(&positions) {
            *slot = jiang::xiangqi::egtb::probe(p);
        }
        got
    });
    assert_eq!(allocations, 0);
    assert_eq!(&got[..positions.len()], &expected[..]);
    // Mirrored and turned positions read the same values.
    for p in positions.iter().take(200) {
        let pl = jiang::xiangqi::egtb::placement_of_position(p).unwrap();
        let mirror =
            |sq: Square| Square::from_coords(8 - sq.file() as i32, sq.rank() as i32).unwrap();
        let mirrored: Vec<(Piece, Square)> = pl
            .pieces()
            .iter()
            .map(|&(pc, sq)| (pc, mirror(sq)))
            .collect();
        let turned: Vec<(Piece, Square)> = pl
            .pieces()
            .iter()
            .map(|&(pc, sq)| (Piece::new(pc.color().flip(), pc.kind()), sq.flip_rank()))
            .collect();
        let want = egtb::value(tables, p);
        let m = Position::from_pieces(&mirrored, pl.side).unwrap();
        let t = Position::from_pieces(&turned, pl.side.flip()).unwrap();
        assert_eq!(jiang::xiangqi::egtb::probe(&m), want, "{}", m.to_fen());
        assert_eq!(jiang::xiangqi::egtb::probe(&t), want, "{}", t.to_fen());
    }
    jiang::xiangqi::egtb::load_paths("");
    assert_eq!(jiang::xiangqi::egtb::probe(&positions[0]), None);
}

/// A table draw is taken as the search's answer only at a position the game has not
/// seen: at a repetition the search goes on (its rule judge sees the cycle, which the
/// table's drawing strategy would never have played; a427109, the KRKHEE game it lost).
#[test]
fn a_table_draw_at_a_repeated_position_is_searched_not_taken() {
    use jiang::game::{Game, Outcome};
    let _guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, tables) = tables();
    let report = jiang::xiangqi::egtb::load_paths(&dir.display().to_string());
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    let e = Ending::parse("KRKH").unwrap();
    let t = &tables[&e];
    // A quiet KRKH draw both sides hold, with a cycle of four king moves back to itself.
    let king_step = |pos: &Position| -> Vec<Move> {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        moves
            .into_iter()
            .filter(|m| {
                pos.piece_at(m.from())
                    .is_some_and(|p| p.kind() == jiang::xiangqi::PieceKind::King)
            })
            .collect()
    };
    let found = (0..entries(e)).find_map(|i| {
        if t.value(i) != Some(TbValue::Draw) {
            return None;
        }
        let p = placement(e, i)?;
        let mut pos = Position::from_pieces(p.pieces(), p.side).ok()?;
        if pos.in_check() {
            return None;
        }
        let start = pos.key();
        for a in king_step(&pos) {
            pos.make_move(a);
            for b in king_step(&pos) {
                pos.make_move(b);
                let back_a = Move::new(a.to(), a.from());
                let back_b = Move::new(b.to(), b.from());
                if pos.legal_moves().iter().any(|&m| m == back_a) {
                    pos.make_move(back_a);
                    if pos.legal_moves().iter().any(|&m| m == back_b) {
                        pos.make_move(back_b);
                        if pos.key() == start {
                            return Some((Position::from_pieces(p.pieces(), p.side).ok()?, pos));
                        }
                        pos.unmake_move(back_b);
                    }
                    pos.unmake_move(back_a);
                }
                pos.unmake_move(b);
            }
            pos.unmake_move(a);
        }
        None
    });
    let (fresh, repeated) = found.expect("a KRKH draw with a cycle of king moves");
    assert_eq!(jiang::xiangqi::egtb::probe(&fresh), Some(TbValue::Draw));
    assert_eq!(jiang::xiangqi::egtb::probe(&repeated), Some(TbValue::Draw));
    assert_eq!(
        fresh.solved(0),
        Some((Outcome::Draw, 0)),
        "{}",
        fresh.to_fen()
    );
    assert_eq!(repeated.solved(0), None, "{}", repeated.to_fen());
}
