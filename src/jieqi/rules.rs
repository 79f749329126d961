//! The rule judge of Jieqi: how a game ends other than by a move. Xiangqi's Asian rules
//! as jiang judges them in Xiangqi (`src/xiangqi/rules.rs` says them in full), on
//! Jieqi's board:
//!
//! * **Repetition**, judged over the moves between the occurrences (the *span*): a side
//!   that gave check with every move of the span loses (a draw if both did); else a side
//!   that with every move of the span newly attacked one and the same enemy piece in the
//!   chase sense loses (a draw if both did or neither). In the game record the third
//!   occurrence ends the game; inside the search one earlier occurrence after the root
//!   is enough, two when the repetition reaches back before it.
//! * **The 60-move rule**: 120 plies without a capture draw, unless the side to move has
//!   no legal move (it loses); checks beyond a side's tenth since the last capture, and
//!   the replies to them, do not advance the count.
//! * **Dead material**: no face-down piece and no chariot, horse, cannon or soldier left.
//!
//! What Jieqi adds: a repetition cannot span a reveal or a capture (neither can be
//! undone), so in a span only face-up pieces move and every face-down piece stands on
//! its start square. A face-down piece attacks, defends and is attacked as the piece it
//! moves as (its square's start piece) and counts as that piece for "worth more" (a
//! face-down piece on a chariot's square attacked by a horse is chased even when
//! protected): the rule books of Jieqi say nothing of this, and it is what a player
//! sees — the piece's move, not its unknown kind. A revealed advisor or elephant
//! attacks and defends wherever its free move reaches.
//!
//! As in Xiangqi: an attack by a king or a soldier is no chase; the king and a soldier
//! on its own side of the river cannot be chased; a capture counts only if it is legal,
//! a target only if it is worth more than its attacker or has no legal recapture, equal
//! pieces that attack each other offer an exchange; captures and recaptures are judged
//! as if the pieces giving check were not there; "newly" compares the attacked pieces
//! before and after the move, and a chased piece is followed when it moves.

use super::position::{attacked, for_targets, Position};
use super::types::*;
use crate::common::asian_rules::judge_repetition;
use crate::game::{GameEnd, Outcome};

pub use crate::common::asian_rules::{FREE_CHECKS, RULE60_PLIES};

/// How a repetition is judged.
pub type RepetitionVerdict = crate::common::asian_rules::RepetitionVerdict<Color>;

const KING: u8 = Kind::King as u8;
const PAWN: u8 = Kind::Pawn as u8;
const CHARIOT: u8 = Kind::Rook as u8;
const HORSE: u8 = Kind::Knight as u8;
const CANNON: u8 = Kind::Cannon as u8;
const ADVISOR: u8 = Kind::Advisor as u8;
const ELEPHANT: u8 = Kind::Bishop as u8;

/// A set of squares.
type Squares = u128;

#[inline(always)]
fn bit(sq: usize) -> Squares {
    1 << sq
}

fn squares(set: Squares) -> impl Iterator<Item = usize> {
    (0..SQUARES).filter(move |&s| set & bit(s) != 0)
}

/// Whether an attack by a piece moving as `attacker` on one moving as `target` chases it
/// even when the target is protected: the target is worth more.
fn outranks(attacker: u8, target: u8) -> bool {
    match target {
        CHARIOT => matches!(attacker, HORSE | CANNON | ADVISOR | ELEPHANT),
        HORSE | CANNON => matches!(attacker, ADVISOR | ELEPHANT),
        _ => false,
    }
}

/// The board of a span's replay: the cells and the kings' squares.
#[derive(Clone, Copy)]
struct Board {
    cells: [Cell; SQUARES],
    kings: [u8; 2],
}

impl Board {
    fn shift(&mut self, from: usize, to: usize) {
        let c = self.cells[from];
        self.cells[to] = c;
        self.cells[from] = 0;
        for k in &mut self.kings {
            if *k as usize == from {
                *k = to as u8;
            }
        }
    }

    fn side_of(&self, color: Color) -> Squares {
        let mut set = 0;
        for (sq, &c) in self.cells.iter().enumerate() {
            if c != 0 && cell_color(c) == color {
                set |= bit(sq);
            }
        }
        set
    }

    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut hit = false;
        for_targets(&self.cells, from, |t| hit |= t == to);
        hit
    }

    /// The pieces of `color.flip()` giving check to `color`'s king.
    fn checkers_of(&self, color: Color) -> Squares {
        let k = self.kings[color.index()] as usize;
        squares(self.side_of(color.flip()))
            .filter(|&s| self.reaches(s, k))
            .fold(0, |set, s| set | bit(s))
    }

    /// Whether `color`'s king is safe on `cells`, the enemy pieces in `ignored` only
    /// blocking (a piece of `color` stands in for each).
    fn king_safe(mut cells: [Cell; SQUARES], color: Color, king: usize, ignored: Squares) -> bool {
        for s in squares(ignored) {
            if cells[s] != 0 && cell_color(cells[s]) != color {
                cells[s] = face_up(color, Kind::Pawn);
            }
        }
        !attacked(&cells, king, color.flip(), true)
    }

    /// Whether `color` capturing with its piece on `from` on `to` keeps its king safe.
    fn capture_is_legal(&self, color: Color, from: usize, to: usize, ignored: Squares) -> bool {
        let mut cells = self.cells;
        cells[to] = cells[from];
        cells[from] = 0;
        let k = self.kings[color.index()] as usize;
        let k = if k == from { to } else { k };
        Self::king_safe(cells, color, k, ignored & !bit(to))
    }

    /// Whether, after `c`'s piece on `a` takes on `x`, the other side can legally take
    /// back on `x` (`c`'s pieces in `ignored` only blocking).
    fn can_recapture(&self, c: Color, a: usize, x: usize, ignored: Squares) -> bool {
        let o = c.flip();
        let mut after = *self;
        after.shift(a, x);
        let k = self.kings[o.index()] as usize;
        squares(after.side_of(o)).any(|r| {
            if !after.reaches(r, x) {
                return false;
            }
            let mut cells = after.cells;
            cells[x] = cells[r];
            cells[r] = 0;
            let k = if r == k { x } else { k };
            Self::king_safe(cells, o, k, ignored & !bit(a) & !bit(x))
        })
    }

    /// The pieces among `targets` that side `c` attacks in the chase sense.
    fn chased_by(&self, c: Color, targets: Squares) -> Squares {
        let o = c.flip();
        let kind_on = |s: usize| move_kind(self.cells[s], s);
        let enemies = targets & self.side_of(o);
        let targets = squares(enemies).filter(|&x| {
            let k = kind_on(x);
            !(k == KING || k == PAWN && own_half(x, o))
        });
        let checkers = [self.checkers_of(Color::Red), self.checkers_of(Color::Black)];
        let attackers = squares(self.side_of(c))
            .filter(|&a| !matches!(kind_on(a), KING | PAWN))
            .fold(0, |set, a| set | bit(a));
        let mut chased = 0;
        for x in targets {
            let xk = kind_on(x);
            for a in squares(attackers) {
                if !self.reaches(a, x) || !self.capture_is_legal(c, a, x, checkers[c.index()]) {
                    continue;
                }
                let ak = kind_on(a);
                if ak == xk
                    && self.reaches(x, a)
                    && self.capture_is_legal(o, x, a, checkers[o.index()])
                {
                    continue;
                }
                if outranks(ak, xk) || !self.can_recapture(c, a, x, checkers[o.index()]) {
                    chased |= bit(x);
                    break;
                }
            }
        }
        chased
    }
}

impl Position {
    /// The enemy pieces among `targets` (a set of squares, bit `rank * 9 + file`) that
    /// side `c` attacks in the chase sense, whoever is to move.
    pub fn chased_by(&self, c: Color, targets: u128) -> u128 {
        Board {
            cells: self.board,
            kings: self.kings,
        }
        .chased_by(c, targets)
    }

    /// Advances the 60-move counters over the move just made by the side that is no
    /// longer to move.
    pub(crate) fn advance_rule60(&mut self, captured: bool, gives_check: bool) {
        if captured {
            self.rule60_count = 0;
            self.checks = [0; 2];
            return;
        }
        let mover = self.side_to_move().flip();
        let mut advance = true;
        if self.checked && self.checks[self.side_to_move().index()] > FREE_CHECKS {
            // A reply to a check that did not count.
            advance = false;
        }
        if gives_check {
            let n = self.checks[mover.index()].saturating_add(1);
            self.checks[mover.index()] = n;
            advance &= n <= FREE_CHECKS;
        }
        self.rule60_count = self.rule60_count.saturating_add(u16::from(advance));
    }

    /// The 60-move rule's count.
    pub fn rule60_count(&self) -> u16 {
        self.rule60_count
    }

    /// Whether neither side can ever give mate: no face-down piece and no chariot, horse,
    /// cannon or soldier.
    pub fn is_dead_material(&self) -> bool {
        (0..SQUARES).all(|s| {
            let c = self.cell(s);
            c == 0 || !is_hidden(c) && matches!(cell_kind(c), KING | ADVISOR | ELEPHANT)
        })
    }

    /// The spans back to the earlier occurrences of the current position, nearest first
    /// (plies, even, at least 4), up to the last capture, reveal or null move.
    fn repetition_spans(&self) -> impl Iterator<Item = usize> + '_ {
        let key = self.key();
        (1..)
            .map(move |back| (back, self.past_move(back)))
            .take_while(|(_, m)| m.is_some_and(|m| m.reversible))
            .filter_map(move |(back, m)| {
                (back % 2 == 0 && back >= 4 && m.is_some_and(|m| m.key_before == key))
                    .then_some(back)
            })
    }

    /// If the current position has occurred `times` times (itself included) since the
    /// last capture or reveal, the plies back to the earliest of those occurrences.
    pub fn repetition_span(&self, times: usize) -> Option<usize> {
        self.repetition_spans().nth(times.checked_sub(2)?)
    }

    /// Judges the last `span` plies, which lead from an earlier occurrence of the
    /// current position back to it.
    pub fn judge_span(&self, span: usize) -> RepetitionVerdict {
        let us = self.side_to_move();
        let them = us.flip();
        let mut always_checked = [true; 2];
        for back in 1..=span {
            let Some(m) = self.past_move(back).filter(|m| m.reversible) else {
                return RepetitionVerdict::Draw;
            };
            // The last move (back 1) was made by `them`.
            let mover = if back % 2 == 1 { them } else { us };
            always_checked[mover.index()] &= m.gave_check;
        }
        judge_repetition(
            always_checked,
            || self.perpetual_chasers(span),
            Color::from_index,
        )
    }

    /// For Red and Black: whether that side newly attacked one and the same enemy piece,
    /// in the chase sense, with every one of its moves of the span.
    fn perpetual_chasers(&self, span: usize) -> [bool; 2] {
        let mut w = Board {
            cells: self.board,
            kings: self.kings,
        };
        let mut moves = [(0usize, 0usize); 128];
        if span > moves.len() {
            return [false; 2];
        }
        for back in 1..=span {
            let Some(m) = self.past_move(back) else {
                return [false; 2];
            };
            moves[back - 1] = (m.from, m.to);
            w.shift(m.to, m.from);
        }
        // The side to move at the span's start: the same as now (the span is even).
        let mut mover = self.side_to_move();
        let mut candidates = [w.side_of(Color::Black), w.side_of(Color::Red)];
        for back in (1..=span).rev() {
            let (from, to) = moves[back - 1];
            let ci = mover.index();
            let before = w;
            w.shift(from, to);
            if candidates[ci] != 0 {
                let after = w.chased_by(mover, candidates[ci]);
                candidates[ci] = if after != 0 {
                    after & !before.chased_by(mover, after)
                } else {
                    0
                };
            }
            let oi = mover.flip().index();
            if candidates[oi] & bit(from) != 0 {
                candidates[oi] = candidates[oi] & !bit(from) | bit(to);
            }
            if candidates == [0, 0] {
                return [false; 2];
            }
            mover = mover.flip();
        }
        [candidates[0] != 0, candidates[1] != 0]
    }

    /// A repetition verdict from the side to move's view.
    fn outcome_of(&self, verdict: RepetitionVerdict) -> Outcome {
        match verdict {
            RepetitionVerdict::Draw => Outcome::Draw,
            RepetitionVerdict::PerpetualCheck(c) | RepetitionVerdict::PerpetualChase(c) => {
                if c == self.side_to_move() {
                    Outcome::Loss
                } else {
                    Outcome::Win
                }
            }
        }
    }

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        let mut list = crate::movelist::MoveList::new();
        self.generate(crate::game::GenType::All, &mut list);
        !list.is_empty()
    }

    /// The rule outcome at a search node `ply` plies below the root, from the side to
    /// move's view (with `judge` false every repetition is a draw).
    pub fn rule_outcome(&self, ply: usize, judge: bool) -> Option<Outcome> {
        if self.rule60_count >= RULE60_PLIES {
            return Some(if self.has_legal_move() {
                Outcome::Draw
            } else {
                Outcome::Loss
            });
        }
        let mut before_root = false;
        for span in self.repetition_spans() {
            if span <= ply || before_root {
                return Some(if judge {
                    self.outcome_of(self.judge_span(span))
                } else {
                    Outcome::Draw
                });
            }
            before_root = true;
        }
        if self.is_dead_material() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// How the game stands by the rules other than a move: the 60-move rule, a position
    /// occurring for the third time (judged), dead material. The caller looks at mate
    /// and stalemate first.
    pub fn rule_end(&self) -> Option<GameEnd> {
        let name = |c: Color| c.name();
        let win = |winner: Color, reason: String| GameEnd {
            result: if winner == Color::Red { "1-0" } else { "0-1" }.to_string(),
            reason,
            winner: Some(winner.index()),
        };
        let draw = |reason: &str| GameEnd {
            result: "1/2-1/2".to_string(),
            reason: reason.to_string(),
            winner: None,
        };
        if self.rule60_count >= RULE60_PLIES {
            return Some(draw(&format!(
                "draw by the 60-move rule ({RULE60_PLIES} plies)"
            )));
        }
        if let Some(span) = self.repetition_span(3) {
            return Some(match self.judge_span(span) {
                RepetitionVerdict::Draw => draw("draw by repetition"),
                RepetitionVerdict::PerpetualCheck(c) => {
                    win(c.flip(), format!("{} checks perpetually", name(c)))
                }
                RepetitionVerdict::PerpetualChase(c) => {
                    win(c.flip(), format!("{} chases perpetually", name(c)))
                }
            });
        }
        if self.is_dead_material() {
            return Some(draw("draw: neither side can mate"));
        }
        None
    }
}
