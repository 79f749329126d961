//! Staged move picker: TT move, good captures (by MVV-LVA, checked by SEE), killers,
//! counter-move, quiet moves by history, bad captures. In check: the TT move, then every
//! evasion ordered by the same keys. Moves are generated lazily, stage by stage, so a
//! cut-off on the TT move or a capture never pays for generating quiet moves.

use super::history::History;
use crate::game::{Game, GenType};
use crate::movelist::{MoveList, MAX_MOVES};
use std::mem::MaybeUninit;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    Done,
}

/// Yields the moves of a node in a good order, each once.
pub struct MovePicker<G: Game> {
    stage: Stage,
    tt_move: Option<G::Move>,
    killers: [Option<G::Move>; 2],
    counter: Option<G::Move>,
    /// History indices of the moves one and two plies before (continuation history).
    prev: [Option<usize>; 2],
    list: MoveList<G::Move>,
    /// Ordering keys of `list` (each stage writes those of the moves it generates; the
    /// slots past them are never read, so they are not cleared for every node).
    scores: [MaybeUninit<i32>; MAX_MOVES],
    cur: usize,
    bad: MoveList<G::Move>,
    bad_cur: usize,
    /// Only captures (quiescence search): no killers, quiets or bad captures.
    captures_only: bool,
    /// Whether the node generates evasions (the side to move is in check, and in
    /// quiescence within the game's evasion plies) instead of captures.
    evasions: bool,
    /// Set by the search to skip the remaining quiet moves (late-move pruning).
    pub skip_quiets: bool,
}

impl<G: Game> MovePicker<G> {
    /// Picker for a full-width node; `in_check` as the search found it (evasions then).
    pub fn new(
        in_check: bool,
        tt_move: Option<G::Move>,
        killers: [Option<G::Move>; 2],
        counter: Option<G::Move>,
        prev: [Option<usize>; 2],
    ) -> Self {
        let mut p = Self::with_mode(in_check, tt_move, killers, counter, false);
        p.prev = prev;
        p
    }

    /// Picker for quiescence: captures only, or every evasion when `evasions` (in check,
    /// within the game's [`Game::QSEARCH_EVASION_PLIES`]).
    pub fn new_qsearch(pos: &G, tt_move: Option<G::Move>, evasions: bool) -> Self {
        let tt = tt_move.filter(|&m| evasions || pos.is_capture(m));
        Self::with_mode(evasions, tt, [None; 2], None, true)
    }

    fn with_mode(
        evasions: bool,
        tt_move: Option<G::Move>,
        killers: [Option<G::Move>; 2],
        counter: Option<G::Move>,
        captures_only: bool,
    ) -> Self {
        MovePicker {
            stage: if tt_move.is_some() {
                Stage::TtMove
            } else if evasions {
                Stage::GenEvasions
            } else {
                Stage::GenCaptures
            },
            tt_move,
            killers,
            counter,
            prev: [None; 2],
            list: MoveList::new(),
            scores: [MaybeUninit::uninit(); MAX_MOVES],
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            captures_only,
            evasions,
            skip_quiets: false,
        }
    }

    /// Index of the best-scored move from `cur` on, swapped to `cur`.
    #[inline(always)]
    fn pick_best(&mut self) -> Option<G::Move> {
        let n = self.list.len();
        if self.cur >= n {
            return None;
        }
        // The first of the best, as a scan with the running best in a register (this
        // loop was half of the picker's time when it re-read `scores[best]` each step).
        // SAFETY: the stage that generated `list` wrote the keys of all its `n` moves.
        let scores: &[i32] = unsafe {
            std::slice::from_raw_parts(self.scores.as_ptr().add(self.cur).cast(), n - self.cur)
        };
        let (mut best, mut best_score) = (0, scores[0]);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        let best = self.cur + best;
        let moves = self.list.as_mut_slice();
        moves.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        let m = moves[self.cur];
        self.cur += 1;
        Some(m)
    }

    #[inline(always)]
    fn is_special(&self, m: G::Move) -> bool {
        Some(m) == self.tt_move
            || (!self.captures_only
                && (Some(m) == self.killers[0]
                    || Some(m) == self.killers[1]
                    || Some(m) == self.counter))
    }

    /// The next move, or `None` when the node is exhausted.
    pub fn next(&mut self, pos: &G, hist: &History<G>) -> Option<G::Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if self.evasions {
                        Stage::GenEvasions
                    } else {
                        Stage::GenCaptures
                    };
                    if let Some(m) = self.tt_move {
                        return Some(m);
                    }
                }
                Stage::GenCaptures => {
                    self.list.clear();
                    pos.generate(GenType::Captures, &mut self.list);
                    for (i, &m) in self.list.iter().enumerate() {
                        self.scores[i] = MaybeUninit::new(pos.capture_order(m));
                    }
                    self.cur = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) => {
                        if Some(m) == self.tt_move {
                            continue;
                        }
                        if self.captures_only || pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    // Each special quiet move is tried once: skip it if an earlier stage
                    // (TT move, first killer, second killer) already returned it.
                    let (m, earlier, next): (_, &[Option<G::Move>], _) = match self.stage {
                        Stage::Killer1 => (self.killers[0], &[], Stage::Killer2),
                        Stage::Killer2 => (self.killers[1], &self.killers[..1], Stage::Counter),
                        _ => (self.counter, &self.killers[..], Stage::GenQuiets),
                    };
                    let fresh = m.is_some() && m != self.tt_move && !earlier.contains(&m);
                    self.stage = next;
                    if let (Some(m), true, false) = (m, fresh, self.skip_quiets) {
                        if !pos.is_capture(m) && pos.is_legal(m) {
                            return Some(m);
                        }
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.list.clear();
                    self.cur = 0;
                    if !self.skip_quiets {
                        pos.generate(GenType::Quiets, &mut self.list);
                        let side = pos.side_index();
                        for (i, &m) in self.list.iter().enumerate() {
                            self.scores[i] = MaybeUninit::new(hist.ordering_score(
                                side,
                                pos.history_index(m),
                                &self.prev,
                            ));
                        }
                    }
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    match self.pick_best() {
                        Some(m) => {
                            if !self.is_special(m) {
                                return Some(m);
                            }
                        }
                        None => self.stage = Stage::BadCaptures,
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        let m = self.bad.as_slice()[self.bad_cur];
                        self.bad_cur += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.list.clear();
                    pos.generate(GenType::All, &mut self.list);
                    let side = pos.side_index();
                    for (i, &m) in self.list.iter().enumerate() {
                        self.scores[i] = MaybeUninit::new(if pos.is_capture(m) {
                            1 << 24 | pos.capture_order(m)
                        } else if Some(m) == self.killers[0] || Some(m) == self.killers[1] {
                            1 << 20
                        } else {
                            hist.ordering_score(side, pos.history_index(m), &self.prev)
                        });
                    }
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) => {
                        if Some(m) != self.tt_move {
                            return Some(m);
                        }
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}
