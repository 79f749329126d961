//! Checking a built table against the rules, independently of the solver: every
//! position's moves are played with the engine's own make/unmake (not the solver's move
//! application) and the value is compared with its successors' (issue 56's check (a)).
//! Used by the test suite on its small tables and by `jiang-lab egtb verify` on a
//! directory.

use super::ending::Ending;
use super::format::{Table, TbValue, NO_POSITION};
use super::index::{entries, locate, placement};
use crate::xiangqi::Position;
use std::collections::HashMap;

/// The value of `pos` in `tables` for its side to move, looked up by hand (not through
/// the engine's loaded set): a draw for dead material, `None` outside the tables.
pub fn value(tables: &HashMap<Ending, Table>, pos: &Position) -> Option<TbValue> {
    if pos.is_dead_material() {
        return Some(TbValue::Draw);
    }
    let p = super::placement_of_position(pos)?;
    let (e, i) = locate(&p)?;
    tables.get(&e)?.value(i)
}

/// Whose draw is proved held under the repetition rules: (side to move, other side).
fn holds(v: TbValue) -> (bool, bool) {
    match v {
        TbValue::Draw => (true, true),
        TbValue::RuleDraw {
            mover_holds,
            other_holds,
        } => (mover_holds, other_holds),
        _ => (false, false),
    }
}

/// Checks every index value of `e` (whose table, and those of its successors, `tables`
/// holds): an index value is a position exactly when its byte says so; a win in `d` has
/// a move to a loss in `d - 1` and none to a faster loss; a loss in `d` has only moves to
/// wins, the slowest in `d - 1`; a draw has no move to a loss and one that is no win; a
/// draw's proved hold for the side to move has a move to a position where that side
/// still holds, one for the other side survives every move. Returns the positions won,
/// drawn and lost (side to move), or the first problem found.
pub fn check_table(tables: &HashMap<Ending, Table>, e: Ending) -> Result<[u64; 3], String> {
    let t = tables
        .get(&e)
        .ok_or_else(|| format!("{e}: no table given"))?;
    let mut counts = [0u64; 3];
    let mut children = Vec::new();
    for i in 0..entries(e) {
        let byte = t
            .byte(i)
            .ok_or_else(|| format!("{e} {i}: no byte in the file"))?;
        let pos = placement(e, i).and_then(|p| Position::from_pieces(p.pieces(), p.side).ok());
        let Some(mut pos) = pos else {
            if byte != NO_POSITION {
                return Err(format!("{e} {i}: no position, yet a value"));
            }
            continue;
        };
        let fen = pos.to_fen();
        let v = TbValue::from_byte(byte)
            .ok_or_else(|| format!("{e} {i} {fen}: a position without value"))?;
        children.clear();
        for &m in pos.legal_moves().iter() {
            pos.make_move(m);
            let c = value(tables, &pos);
            let child_fen = pos.to_fen();
            pos.unmake_move(m);
            children.push(c.ok_or_else(|| format!("{e}: successor {child_fen} unknown"))?);
        }
        let fastest_loss = children
            .iter()
            .filter_map(|c| match c {
                TbValue::Loss(k) => Some(*k),
                _ => None,
            })
            .min();
        let all_wins = children.iter().all(|c| matches!(c, TbValue::Win(_)));
        let fail = |why: &str| Err(format!("{e} {fen}: {v}, {why}"));
        match v {
            TbValue::Win(d) => {
                counts[0] += 1;
                if fastest_loss != Some(d - 1) {
                    return fail(&format!("the fastest move to a loss: {fastest_loss:?}"));
                }
            }
            TbValue::Loss(d) => {
                counts[2] += 1;
                if !all_wins {
                    return fail("a move that does not lose");
                }
                let slowest = children
                    .iter()
                    .map(|c| match c {
                        TbValue::Win(k) => *k + 1,
                        _ => 0,
                    })
                    .max()
                    .unwrap_or(0);
                if slowest != d {
                    return fail(&format!("the slowest loss is in {slowest}"));
                }
            }
            TbValue::Draw | TbValue::RuleDraw { .. } => {
                counts[1] += 1;
                if fastest_loss.is_some() {
                    return fail("a winning move");
                }
                if children.is_empty() || all_wins {
                    return fail("no drawing move");
                }
                let (mover, other) = holds(v);
                if mover && !children.iter().any(|&c| holds(c).1) {
                    return fail("the mover's hold has no move that keeps it");
                }
                if other
                    && !children
                        .iter()
                        .all(|&c| matches!(c, TbValue::Win(_)) || holds(c).0)
                {
                    return fail("a move breaks the other side's hold");
                }
            }
        }
    }
    Ok(counts)
}
