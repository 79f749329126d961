//! The repetition rules in the tables: which draws each side holds without ever
//! breaking them.
//!
//! The solver's values treat every repetition as a draw. Its wins and losses are exact
//! under the Asian rules too (a shortest mate never repeats a position), but a draw may
//! not be: a side whose only way to hold is to check or chase perpetually loses by the
//! rules. This pass proves, for every drawn position and for each side, whether that side
//! holds the draw *cleanly*: it can stay among drawn positions forever (or capture into a
//! table where it holds) while playing, again and again, a move that gives no check and
//! newly attacks no piece in the chase sense of `src/xiangqi/rules.rs` (the engine's own
//! `Position::chased_by`). Such a side can never be the culprit of a repetition: with a
//! strategy that depends on the position only, every repetition's span contains one of
//! those clean moves, and the rule judge then finds neither a perpetual check nor a
//! perpetual chase by it. A draw both sides hold cleanly is a draw under the rules; any
//! other draw is marked ([`TbValue::RuleDraw`]) with whose hold is proved.
//!
//! It is a Büchi game (reach clean moves infinitely often, never leave the draws),
//! solved by the usual nested fixpoint: keep the drawn positions from which the side can
//! force its way to a clean move that stays in the set, remove the others, repeat until
//! nothing is removed. The proof is sufficient, not necessary: a side that holds only by
//! alternating a check and a chase, which the rules allow, is not proved to hold.

use super::ending::Ending;
use super::format::TbValue;
use super::index::placement;
use super::solve::{child, position, Child, SolveError};
use super::unmove::predecessors;
use crate::game::GenType;
use crate::movelist::MoveList;
use std::collections::HashMap;

/// Per drawn position: what its moves into other tables do to the two sides' holds, and
/// how many of its moves stay among this table's draws.
#[derive(Clone, Copy, Default)]
struct DrawInfo {
    /// The side to move has a capture into a table where it holds (or wins).
    mover_exits_well: bool,
    /// The side to move has a capture into a table where the other side's hold is not
    /// proved.
    other_may_fall: bool,
    /// Moves to positions of this table that are draws.
    drawn_moves: u16,
}

/// Runs `work` on `threads` consecutive parts of `out` (each told the number of its first
/// element), the first error returned.
fn in_parts<T: Send>(
    out: &mut [T],
    threads: usize,
    work: impl Fn(usize, &mut [T]) -> Result<(), SolveError> + Sync,
    ending: Ending,
) -> Result<(), SolveError> {
    let chunk = out.len().div_ceil(threads.clamp(1, 64)).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(chunk)
            .enumerate()
            .map(|(k, part)| scope.spawn(move || work(k * chunk, part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(SolveError::OutsideFamily(ending))))
            .collect::<Result<Vec<()>, SolveError>>()
    })?;
    Ok(())
}

/// For each drawn position (`drawn[i]`), whether the side to move and the other side
/// hold it cleanly; `threads` share the work of looking at the moves.
pub(super) fn clean_holds(
    ending: Ending,
    drawn: &[bool],
    tables: &HashMap<Ending, Vec<u8>>,
    threads: usize,
) -> Result<(Vec<bool>, Vec<bool>), SolveError> {
    let mut info = vec![DrawInfo::default(); drawn.len()];
    in_parts(
        &mut info,
        threads,
        |first, part| look_at_moves(ending, first, part, drawn, tables),
        ending,
    )?;
    buchi(ending, drawn, &info, tables, threads)
}

/// Fills `part` (the positions from `first` on).
fn look_at_moves(
    ending: Ending,
    first: usize,
    part: &mut [DrawInfo],
    drawn: &[bool],
    tables: &HashMap<Ending, Vec<u8>>,
) -> Result<(), SolveError> {
    let mut list = MoveList::new();
    for (k, slot_info) in part.iter_mut().enumerate() {
        let i = first + k;
        if !drawn[i] {
            continue;
        }
        let Some((p, pos)) = position(ending, i) else {
            continue;
        };
        list.clear();
        pos.generate(GenType::All, &mut list);
        let mut info = DrawInfo::default();
        for &m in list.iter() {
            match child(ending, &p, m, tables)? {
                Child::Same(c) => info.drawn_moves += u16::from(drawn[c]),
                // The value for the side to move after the capture: the other side.
                Child::Known(v) => match v {
                    TbValue::Loss(_) | TbValue::Draw => info.mover_exits_well = true,
                    TbValue::RuleDraw {
                        mover_holds,
                        other_holds,
                    } => {
                        info.mover_exits_well |= other_holds;
                        info.other_may_fall |= !mover_holds;
                    }
                    TbValue::Win(_) => {}
                },
            }
        }
        *slot_info = info;
    }
    Ok(())
}

/// Fills `part` (the positions from `first` on): whether the side to move at a drawn
/// position of `in_z` has a clean move (no check, no new chase) to a drawn position whose
/// state `2 c + 1` (the other side to move) is in `in_z`.
fn clean_moves_into(
    ending: Ending,
    first: usize,
    part: &mut [bool],
    in_z: &[bool],
    tables: &HashMap<Ending, Vec<u8>>,
) -> Result<(), SolveError> {
    let mut list = MoveList::new();
    for (k, has) in part.iter_mut().enumerate() {
        let i = first + k;
        *has = false;
        if !in_z[2 * i] {
            continue;
        }
        let Some((p, mut pos)) = position(ending, i) else {
            continue;
        };
        let us = pos.side_to_move();
        let them_pieces = pos.pieces_of(us.flip());
        let attacked_before = pos.chased_by(us, them_pieces);
        list.clear();
        pos.generate(GenType::All, &mut list);
        for &m in list.iter() {
            let Child::Same(c) = child(ending, &p, m, tables)? else {
                continue;
            };
            if !in_z[2 * c + 1] {
                continue;
            }
            pos.make_move(m);
            let quiet = !pos.in_check()
                && pos
                    .chased_by(us, them_pieces)
                    .andnot(attacked_before)
                    .is_empty();
            pos.unmake_move(m);
            if quiet {
                *has = true;
                break;
            }
        }
    }
    Ok(())
}

/// The nested fixpoint over states `2 i + r`: the side we ask about is to move at
/// position `i` when `r == 0`, its opponent when `r == 1`. Returns, per position, whether
/// the side to move holds and whether the other side does.
fn buchi(
    ending: Ending,
    drawn: &[bool],
    info: &[DrawInfo],
    tables: &HashMap<Ending, Vec<u8>>,
    threads: usize,
) -> Result<(Vec<bool>, Vec<bool>), SolveError> {
    let n = drawn.len();
    let mut in_z: Vec<bool> = (0..2 * n).map(|s| drawn[s / 2]).collect();
    let mut in_y = vec![false; 2 * n];
    let mut left = vec![0u16; n];
    let mut clean_in = vec![false; n];
    let mut queue: Vec<u32> = Vec::new();
    let mut preds: Vec<u32> = Vec::new();
    loop {
        in_y.iter_mut().for_each(|b| *b = false);
        queue.clear();
        let push = |s: usize, in_y: &mut Vec<bool>, queue: &mut Vec<u32>| {
            if !in_y[s] {
                in_y[s] = true;
                queue.push(s as u32);
            }
        };
        {
            let in_z = &in_z;
            in_parts(
                &mut clean_in,
                threads,
                |first, part| clean_moves_into(ending, first, part, in_z, tables),
                ending,
            )?;
        }
        for i in 0..n {
            if !drawn[i] {
                continue;
            }
            left[i] = info[i].drawn_moves;
            // Our move: a capture into a table where we hold, or a clean move into the set.
            if in_z[2 * i] && (info[i].mover_exits_well || clean_in[i]) {
                push(2 * i, &mut in_y, &mut queue);
            }
            // Their move, and every one of them leaves the draws for a win of ours.
            if in_z[2 * i + 1] && left[i] == 0 && !info[i].other_may_fall {
                push(2 * i + 1, &mut in_y, &mut queue);
            }
        }
        // The attractor of those within the set.
        let mut head = 0;
        while let Some(&s) = queue.get(head) {
            head += 1;
            let (c, r) = (s as usize / 2, s as usize % 2);
            let Some(cp) = placement(ending, c) else {
                continue;
            };
            predecessors(ending, &cp, c, &mut preds);
            for &q in &preds {
                let q = q as usize;
                let t = 2 * q + (1 - r);
                if !in_z[t] || in_y[t] {
                    continue;
                }
                if r == 1 {
                    // We are to move at q and can move to c.
                    push(t, &mut in_y, &mut queue);
                } else {
                    left[q] -= 1;
                    if left[q] == 0 && !info[q].other_may_fall {
                        push(t, &mut in_y, &mut queue);
                    }
                }
            }
        }
        if in_y == in_z {
            break;
        }
        std::mem::swap(&mut in_z, &mut in_y);
    }
    let mover = (0..n).map(|i| in_z[2 * i]).collect();
    let other = (0..n).map(|i| in_z[2 * i + 1]).collect();
    Ok((mover, other))
}
