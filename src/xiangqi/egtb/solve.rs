//! The retrograde solver: win, draw or loss and the distance to mate of every position
//! of an ending, by the rules of the move generator (stalemate loses), with every
//! repetition a draw and the 60-move rule left out; then, for the draws, which side is
//! proved to hold them under the repetition rules (`rules.rs`; see `docs/tablebases.md`
//! for why the wins and losses are exact, and what the files say about the rest).
//!
//! Moves come from jiang's own legal move generator: a first pass over the index counts
//! each position's moves and resolves its captures from the smaller tables (a capture of
//! the attacker leaves dead material, a draw). The way back, from a position to those
//! with a move to it, is the un-move generator's (`unmove.rs`), so nothing but a few
//! bytes a position is kept. Then values spread by distance, one
//! ply at a time: a position with a successor lost in `d` is won in `d + 1` (the first
//! such `d` reached is the smallest), and one whose last successor becomes won in `d`,
//! all others won sooner, is lost in `d + 1` (or later, after a capture into a slower
//! win). What is never reached is a draw. The order of work is fixed, so the values (and
//! the file) are the same on every run.

use super::ending::Ending;
use super::format::{TbValue, MAX_DTM, NO_POSITION};
use super::index::{entries, locate, placement, Placement};
use super::unmove::predecessors;
use crate::game::GenType;
use crate::movelist::MoveList;
use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Move, PieceKind};
use std::collections::HashMap;

/// The values of one ending and what was counted on the way.
pub struct Solved {
    /// The ending.
    pub ending: Ending,
    /// One byte per index value (see `format.rs`).
    pub values: Vec<u8>,
    /// Positions (legal, canonical) with the strong side to move: wins, draws, losses.
    pub strong_to_move: [u64; 3],
    /// The same with the weak side to move.
    pub weak_to_move: [u64; 3],
    /// Longest distance to mate, plies.
    pub max_dtm: u16,
    /// Wins whose mate lies beyond 120 plies (the 60-move rule's count).
    pub beyond_rule60: u64,
    /// Drawn positions whose draw the strong side, and the weak side, is not proved to
    /// hold under the repetition rules (see `rules.rs`).
    pub unproved_holds: [u64; 2],
}

/// Where a move leads, from the solver's point of view.
pub(super) enum Child {
    /// A position of the same ending.
    Same(usize),
    /// A capture into another table (or dead material): its value for the side to move
    /// there.
    Known(TbValue),
}

/// The placement after `m` (legal in the position of `p`).
fn after(p: &Placement, m: Move) -> Placement {
    let mut c = Placement::new(p.side.flip());
    for &(piece, sq) in p.pieces() {
        if sq == m.to() {
            continue; // captured
        }
        c.push(piece, if sq == m.from() { m.to() } else { sq });
    }
    c
}

/// Why an ending could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A capture leads to an ending whose table was not given.
    MissingSuccessor {
        /// The ending being solved.
        ending: Ending,
        /// The ending a capture leads to.
        needs: Ending,
    },
    /// A capture leads to an index the successor's table holds no position at.
    BadSuccessor {
        /// The ending being solved.
        ending: Ending,
        /// The successor's ending.
        successor: Ending,
    },
    /// A capture leads outside the family of one-attacker endings.
    OutsideFamily(Ending),
    /// More positions than the solver's 32-bit counters hold.
    TooManyPositions(Ending),
    /// A distance to mate the file's byte cannot hold.
    DistanceTooLong(Ending),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::MissingSuccessor { ending, needs } => {
                write!(f, "{ending} needs the table of {needs} first")
            }
            SolveError::BadSuccessor { ending, successor } => {
                write!(
                    f,
                    "{successor}: a successor of {ending} is no position there"
                )
            }
            SolveError::OutsideFamily(e) => write!(f, "{e}: a successor outside the family"),
            SolveError::TooManyPositions(e) => {
                write!(f, "{e}: too many positions for this solver")
            }
            SolveError::DistanceTooLong(e) => {
                write!(f, "{e}: a distance to mate over {MAX_DTM} plies")
            }
        }
    }
}

impl std::error::Error for SolveError {}

pub(super) fn child(
    ending: Ending,
    p: &Placement,
    m: Move,
    tables: &HashMap<Ending, Vec<u8>>,
) -> Result<Child, SolveError> {
    let c = after(p, m);
    let has_attacker = c.pieces().iter().any(|(piece, _)| {
        !matches!(
            piece.kind(),
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant
        )
    });
    if !has_attacker {
        return Ok(Child::Known(TbValue::Draw));
    }
    let (e, i) = locate(&c).ok_or(SolveError::OutsideFamily(ending))?;
    if e == ending {
        return Ok(Child::Same(i));
    }
    let t = tables
        .get(&e)
        .ok_or(SolveError::MissingSuccessor { ending, needs: e })?;
    t.get(i)
        .copied()
        .and_then(TbValue::from_byte)
        .map(Child::Known)
        .ok_or(SolveError::BadSuccessor {
            ending,
            successor: e,
        })
}

/// The legal position of index `i`, if it is one.
pub(super) fn position(ending: Ending, i: usize) -> Option<(Placement, Position)> {
    let p = placement(ending, i)?;
    let pos = Position::from_pieces(p.pieces(), p.side).ok()?;
    Some((p, pos))
}

const UNKNOWN: u8 = 254;
const CANT_LOSE: u8 = 255;

#[inline]
fn code(ending: Ending, d: usize) -> Result<u8, SolveError> {
    if d > MAX_DTM as usize {
        return Err(SolveError::DistanceTooLong(ending));
    }
    Ok((d + 1) as u8)
}

/// Solves `ending`; `tables` must hold the values of every ending a capture leads to
/// ([`Ending::successors`]).
pub fn solve(ending: Ending, tables: &HashMap<Ending, Vec<u8>>) -> Result<Solved, SolveError> {
    let n = entries(ending);
    if n >= u32::MAX as usize {
        return Err(SolveError::TooManyPositions(ending));
    }
    let mut val = vec![UNKNOWN; n];
    let mut remaining = vec![0u8; n];
    // CANT_LOSE, or 1 + the longest win a capture hands the opponent (0: none).
    let mut capinfo = vec![0u8; n];
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); MAX_DTM as usize + 2];
    let mut list = MoveList::new();

    // Pass 1: moves counted, captures resolved, mates found.
    for i in 0..n {
        let Some((p, pos)) = position(ending, i) else {
            val[i] = NO_POSITION;
            continue;
        };
        list.clear();
        pos.generate(GenType::All, &mut list);
        if list.is_empty() {
            val[i] = code(ending, 0)?;
            buckets[0].push(i as u32);
            continue;
        }
        let mut win_seed = usize::MAX;
        let mut capmax = 0usize;
        let mut cant_lose = false;
        for &m in list.iter() {
            match child(ending, &p, m, tables)? {
                Child::Same(_) => remaining[i] += 1,
                Child::Known(TbValue::Loss(k)) => {
                    win_seed = win_seed.min(k as usize + 1);
                    cant_lose = true;
                }
                Child::Known(TbValue::Draw | TbValue::RuleDraw { .. }) => cant_lose = true,
                Child::Known(TbValue::Win(k)) => capmax = capmax.max(k as usize + 1),
            }
        }
        if win_seed != usize::MAX {
            code(ending, win_seed)?;
            buckets[win_seed].push(i as u32);
        }
        if cant_lose {
            capinfo[i] = CANT_LOSE;
        } else {
            capinfo[i] = code(ending, capmax)? - 1;
            if remaining[i] == 0 {
                // Every move captures into a win for the opponent.
                val[i] = code(ending, capmax)?;
                buckets[capmax].push(i as u32);
            }
        }
    }

    // Values spread by distance.
    let mut done = vec![false; n];
    let mut preds = Vec::new();
    for d in 0..=MAX_DTM as usize {
        let bucket = std::mem::take(&mut buckets[d]);
        for &i in &bucket {
            let i = i as usize;
            if done[i] {
                continue;
            }
            if val[i] == UNKNOWN && d % 2 == 1 {
                val[i] = code(ending, d)?; // a capture into a loss, nothing faster found
            } else if val[i] != code(ending, d)? {
                continue;
            }
            done[i] = true;
            let Some(c) = placement(ending, i) else {
                continue;
            };
            predecessors(ending, &c, i, &mut preds);
            if d % 2 == 0 {
                for &q in &preds {
                    let q = q as usize;
                    if val[q] == UNKNOWN {
                        val[q] = code(ending, d + 1)?;
                        buckets[d + 1].push(q as u32);
                    }
                }
            } else {
                for &q in &preds {
                    let q = q as usize;
                    if val[q] != UNKNOWN {
                        continue;
                    }
                    remaining[q] -= 1;
                    if remaining[q] == 0 && capinfo[q] != CANT_LOSE {
                        let l = (d + 1).max(capinfo[q] as usize);
                        val[q] = code(ending, l)?;
                        buckets[l].push(q as u32);
                    }
                }
            }
        }
    }
    if buckets.iter().any(|b| !b.is_empty()) {
        return Err(SolveError::DistanceTooLong(ending));
    }
    drop((done, remaining, capinfo, buckets));

    // The draws: who holds them under the repetition rules.
    let drawn: Vec<bool> = val.iter().map(|&v| v == UNKNOWN).collect();
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let (mover_holds, other_holds) = super::rules::clean_holds(ending, &drawn, tables, threads)?;
    let half = n / 2;
    let mut unproved_holds = [0u64; 2];
    for i in 0..n {
        if drawn[i] {
            let (m, o) = (mover_holds[i], other_holds[i]);
            val[i] = TbValue::RuleDraw {
                mover_holds: m,
                other_holds: o,
            }
            .to_byte();
            let mover = usize::from(i >= half);
            unproved_holds[mover] += u64::from(!m);
            unproved_holds[1 - mover] += u64::from(!o);
        }
    }

    let mut solved = Solved {
        ending,
        values: Vec::new(),
        strong_to_move: [0; 3],
        weak_to_move: [0; 3],
        max_dtm: 0,
        beyond_rule60: 0,
        unproved_holds,
    };
    for (i, v) in val.iter().enumerate() {
        let Some(value) = TbValue::from_byte(*v) else {
            continue;
        };
        let counts = if i < half {
            &mut solved.strong_to_move
        } else {
            &mut solved.weak_to_move
        };
        match value {
            TbValue::Win(d) => {
                counts[0] += 1;
                solved.max_dtm = solved.max_dtm.max(d);
                if d > crate::xiangqi::rules::RULE60_PLIES {
                    solved.beyond_rule60 += 1;
                }
            }
            TbValue::Draw | TbValue::RuleDraw { .. } => counts[1] += 1,
            TbValue::Loss(d) => {
                counts[2] += 1;
                solved.max_dtm = solved.max_dtm.max(d);
            }
        }
    }
    solved.values = val;
    Ok(solved)
}

/// Solves `targets` and every ending they capture into, smallest first, adding each to
/// `tables` (those already there are not solved again). Returns the endings solved, in
/// order, with their results.
pub fn solve_with_successors(
    targets: &[Ending],
    tables: &mut HashMap<Ending, Vec<u8>>,
    mut on_solved: impl FnMut(&Solved, std::time::Duration),
) -> Result<Vec<Ending>, SolveError> {
    let mut order: Vec<Ending> = Vec::new();
    let mut stack: Vec<Ending> = targets.to_vec();
    while let Some(e) = stack.pop() {
        if order.contains(&e) || tables.contains_key(&e) {
            continue;
        }
        order.push(e);
        stack.extend(e.successors());
    }
    // Successors have fewer pieces: solving by piece count puts them first.
    order.sort_by_key(|e| (e.piece_count(), entries(*e), e.slot()));
    for &e in &order {
        let t0 = std::time::Instant::now();
        let s = solve(e, tables)?;
        on_solved(&s, t0.elapsed());
        tables.insert(e, s.values);
    }
    Ok(order)
}
