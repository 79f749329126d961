//! The rule judge: how a game ends other than by a move — repetition with its perpetual
//! check / perpetual chase rulings, the 60-move rule, and dead material — for the search
//! ([`Position::rule_outcome`]) and for the game record ([`Position::game_result`]).
//!
//! # What is implemented
//!
//! * **No legal move**: the side to move loses (checkmate, and stalemate too).
//! * **Repetition.** A position repeats when the same pieces stand on the same squares
//!   with the same side to move and no capture in between. The moves between the earliest
//!   and the latest occurrence (the *span*) are judged:
//!   1. *Perpetual check*: a side that gave check with every one of its moves in the span
//!      loses, unless the other side did too (then it is a draw).
//!   2. *Perpetual chase* (Asian / AXF rules as used in computer Xiangqi), judged only
//!      when nobody checked perpetually — check outranks chase: a side loses if with
//!      every one of its moves in the span it **newly** attacked the same enemy piece in
//!      the chase sense below. A check is not a chase: a side that alternates checks and
//!      chases ("one check, one chase"), or chases two pieces in turn, does not chase
//!      perpetually — unless its checking moves newly attack the chased piece as well. If
//!      both sides chase, or neither does, the repetition is a draw.
//!
//!   An attack by piece `A` of side `S` on enemy piece `X` counts as a chase when
//!   * `A` is not a king or a soldier (they may chase freely), and `X` is not the king
//!     and not a soldier on its own side of the river;
//!   * `S` could legally capture `X` with `A` (so a pinned attacker only counts against
//!     the pinner, and a capture that would expose `S`'s king does not count);
//!   * `X` is worth more than `A` — a chariot attacked by a horse, cannon, advisor or
//!     elephant, or a horse or cannon attacked by an advisor or elephant — or `X` is not
//!     protected: after `A` takes on `X`'s square, the other side has no *legal*
//!     recapture there (pins, flying general, cannon screens and the capturing piece's own
//!     arrival are all taken into account by making the capture);
//!   * when `A` and `X` are of the same kind, `X` cannot legally capture `A` back right
//!     away (an asymmetric attack, e.g. a horse whose own leg is free while the target
//!     horse's leg is blocked); a mutual attack between equal pieces is an offer to
//!     exchange, not a chase.
//!
//!   A check is answered before anything else, so captures and recaptures are judged as
//!   if the pieces giving check were not on the board: a check does not make every piece
//!   of the checked side unprotected, and a piece attacked before a check is still
//!   attacked after the reply to it.
//!
//!   "Newly" means the piece is attacked in the chase sense after the move and was not
//!   before it (in the position before the move, same criteria): keeping up an existing
//!   attack while shuffling is not chasing. The chased piece is followed by identity
//!   through the span: when it moves, the square it moved to is tracked.
//! * **Which repetitions.** In the game record ([`Position::game_result`]) a position
//!   must have occurred three times (the latest included), as `pyffish` counts. Inside the
//!   search ([`Position::rule_outcome`]) a single earlier occurrence at or after the root
//!   is enough; a repetition reaching back before the root needs two earlier occurrences.
//!   The span judged reaches back to the earliest occurrence needed.
//! * **60-move rule**: when the count reaches 120 plies without a capture the game is a
//!   draw — unless the side to move has no legal move, which still loses. Checks beyond
//!   a side's tenth since the last capture, and the replies to them, do not advance the
//!   count (the AXF rule as Pikafish interprets it). [`StateInfo`] keeps the raw number of
//!   plies since the capture (`rule60`, which bounds repetitions and is what FEN field 5
//!   holds), the rule's count (`rule60_count`) and the checks given by each side
//!   (`checks`).
//! * **Dead material**: neither side has a chariot, horse, cannon or soldier: a draw.
//!
//! # Simplifications
//!
//! * Only the chase rules above are applied; the finer cases of the rule books (threats
//!   of mate, attacks that only win material after an exchange sequence, "protected"
//!   pieces whose recapture loses more than it wins, a piece attacked by two pieces of
//!   which only one counts, rulings on kills/threats rather than captures) are not.
//!   Chinese (CXA) rules, where e.g. a perpetual mate threat also loses, are not
//!   implemented.
//! * "Newly attacked" compares the sets of attacked pieces before and after the move, not
//!   attacker by attacker: a move that keeps up an attack the piece already faced (e.g.
//!   a chariot retreating along the line it attacks on) is not a chase.
//! * A side that checks perpetually loses even if the other side chases perpetually too;
//!   other combinations of violations are not ranked (both sides chasing is a draw).
//! * Dead material is judged by material only (king, advisors and elephants on both
//!   sides); positions that are drawn for other reasons (e.g. a lone cannon without
//!   screens) are left to the 60-move rule.

use super::bitboard::{Bitboard, HALF};
use super::position::{Position, StateInfo};
use super::types::{Color, PieceKind, Square};
use crate::common::asian_rules::judge_repetition;
use crate::game::Outcome;
use std::fmt;

pub use crate::common::asian_rules::{FREE_CHECKS, RULE60_PLIES};

/// How a repetition is judged.
pub type RepetitionVerdict = crate::common::asian_rules::RepetitionVerdict<Color>;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check but has no legal move (it loses).
    Stalemate,
    /// The loser checked perpetually.
    PerpetualCheck,
    /// The loser chased perpetually.
    PerpetualChase,
    /// Threefold repetition without a culprit (or with culprits on both sides).
    Repetition,
    /// 120 plies without a capture (60-move rule).
    MoveLimit,
    /// Neither side can ever give mate.
    DeadMaterial,
}

impl EndReason {
    /// Short machine-friendly name: `checkmate`, `stalemate`, `perpetual-check`,
    /// `perpetual-chase`, `repetition`, `move-limit`, `dead-material`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::PerpetualChase => "perpetual-chase",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move-limit",
            EndReason::DeadMaterial => "dead-material",
        }
    }
}

/// The end of a game by the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameEnd {
    /// The winner (`None` for a draw).
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl GameEnd {
    /// The result in PGN style: `1-0` (Red wins), `0-1` (Black wins) or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

impl GameEnd {
    /// Why the game ended, in words: `Red checks perpetually`.
    pub fn reason_text(&self) -> String {
        let loser = self.winner.map(|w| color_name(w.flip())).unwrap_or("");
        let winner = self.winner.map(color_name).unwrap_or("");
        match self.reason {
            // XBoard's wording for a mate claim.
            EndReason::Checkmate => format!("{winner} mates"),
            EndReason::Stalemate => format!("{loser} has no legal move"),
            EndReason::PerpetualCheck => format!("{loser} checks perpetually"),
            EndReason::PerpetualChase => format!("{loser} chases perpetually"),
            EndReason::Repetition => "draw by repetition".to_string(),
            EndReason::MoveLimit => format!("draw by the 60-move rule ({RULE60_PLIES} plies)"),
            EndReason::DeadMaterial => "draw: neither side can mate".to_string(),
        }
    }
}

impl fmt::Display for GameEnd {
    /// E.g. `0-1 {Red checks perpetually}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{{}}}", self.result(), self.reason_text())
    }
}

/// Whether an attack by `attacker` on `target` counts as a chase even when the target is
/// protected: the target is worth more.
#[inline]
fn outranks(attacker: PieceKind, target: PieceKind) -> bool {
    use PieceKind::*;
    match target {
        Chariot => matches!(attacker, Horse | Cannon | Advisor | Elephant),
        Horse | Cannon => matches!(attacker, Advisor | Elephant),
        _ => false,
    }
}

impl Position {
    /// The state of the position `back` plies ago (0 = now); `back <= history().len()`.
    #[inline(always)]
    fn state_back(&self, back: usize) -> &StateInfo {
        let h = self.history();
        if back == 0 {
            self.state()
        } else {
            &h[h.len() - back]
        }
    }

    /// Whether neither side has a piece that could ever attack a king.
    #[inline]
    pub fn is_dead_material(&self) -> bool {
        let attackers = self.pieces_kind(PieceKind::Chariot)
            | self.pieces_kind(PieceKind::Horse)
            | self.pieces_kind(PieceKind::Cannon)
            | self.pieces_kind(PieceKind::Soldier);
        attackers.is_empty()
    }

    /// How many plies back a repetition can reach: positions since the last capture and
    /// since the last null move.
    #[inline(always)]
    fn repetition_reach(&self) -> usize {
        let st = self.state();
        (st.rule60 as usize).min(st.plies_from_null as usize)
    }

    /// The rule outcome at a search node `ply` plies below the root, if any, from the side
    /// to move's view. Cheap unless a repetition is found.
    #[inline]
    pub fn rule_outcome(&self, ply: usize) -> Option<Outcome> {
        self.rule_outcome_with(ply, true)
    }

    /// [`Position::rule_outcome`], or with `judge_repetitions` false, every repetition a
    /// draw (the judge off: option `RepetitionJudge`, used to measure what the judge is
    /// worth).
    #[inline]
    pub fn rule_outcome_with(&self, ply: usize, judge_repetitions: bool) -> Option<Outcome> {
        if self.rule_set() == super::RuleSet::AlphaChess {
            // Only the 120-ply rule, declared before mate is looked at.
            return self.alphachess_move_limit().then_some(Outcome::Draw);
        }
        let st = self.state();
        if st.rule60_count >= RULE60_PLIES {
            return Some(if self.has_legal_move() {
                Outcome::Draw
            } else {
                Outcome::Loss
            });
        }
        let reach = self.repetition_reach();
        if reach >= 4 {
            let key = st.key;
            let mut before_root = false;
            let mut back = 4;
            while back <= reach {
                if self.state_back(back).key == key {
                    if back <= ply || before_root {
                        return Some(if judge_repetitions {
                            self.outcome_of(self.judge_span(back))
                        } else {
                            Outcome::Draw
                        });
                    }
                    before_root = true;
                }
                back += 2;
            }
        }
        if self.is_dead_material() {
            return Some(Outcome::Draw);
        }
        None
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

    /// If the current position has occurred `times` times (itself included) since the
    /// last capture, the number of plies back to the earliest of those occurrences.
    pub fn repetition_span(&self, times: usize) -> Option<usize> {
        let reach = self.repetition_reach();
        let key = self.key();
        let mut seen = 1;
        let mut back = 4;
        while back <= reach {
            if self.state_back(back).key == key {
                seen += 1;
                if seen >= times {
                    return Some(back);
                }
            }
            back += 2;
        }
        None
    }

    /// Judges the moves of the last `span` plies, which lead from an earlier occurrence of
    /// the current position back to it (`span` even, at least 4, and no capture or null
    /// move among them).
    #[inline(never)]
    pub fn judge_span(&self, span: usize) -> RepetitionVerdict {
        debug_assert!(
            span.is_multiple_of(2) && span <= self.repetition_reach(),
            "span {span}"
        );
        if span > self.repetition_reach() {
            return RepetitionVerdict::Draw;
        }
        let us = self.side_to_move();
        let them = us.flip();
        // The position `back` plies ago was reached by a move of `them` if `back` is even.
        // Its `checkers` tell whether that move gave check.
        let mut always_checked = [true; 2];
        for back in 0..span {
            let mover = if back % 2 == 0 { them } else { us };
            always_checked[mover.index()] &= self.state_back(back).checkers.any();
        }
        judge_repetition(
            always_checked,
            || self.perpetual_chasers(span),
            Color::from_index,
        )
    }

    /// For Red and Black: whether that side newly attacked one and the same enemy piece,
    /// in the chase sense, with every one of its moves in the span.
    fn perpetual_chasers(&self, span: usize) -> [bool; 2] {
        // Replay the span on a copy of the board: first back to its start, then forwards.
        let mut w = self.board_copy();
        for back in 0..span {
            let Some(m) = self.state_back(back).last_move else {
                return [false; 2];
            };
            w.shift_piece(m.to(), m.from());
        }
        // candidates[c]: squares of the enemy pieces that side c may be chasing.
        let mut candidates = [w.pieces_of(Color::Black), w.pieces_of(Color::Red)];
        for back in (0..span).rev() {
            let Some(m) = self.state_back(back).last_move else {
                return [false; 2];
            };
            let c = w.side_to_move();
            let ci = c.index();
            w.shift_piece(m.from(), m.to());
            if candidates[ci].any() {
                // Attacked now and not before the move; `before` only for those attacked now.
                let after = w.chased_by(c, candidates[ci]);
                candidates[ci] = if after.any() {
                    w.shift_piece(m.to(), m.from());
                    let before = w.chased_by(c, after);
                    w.shift_piece(m.from(), m.to());
                    after.andnot(before)
                } else {
                    Bitboard::EMPTY
                };
            }
            // Follow the moved piece if the other side has it as a candidate.
            let oi = c.flip().index();
            if candidates[oi].has(m.from()) {
                candidates[oi] = candidates[oi].without(m.from()).with(m.to());
            }
            if candidates[0].is_empty() && candidates[1].is_empty() {
                return [false; 2];
            }
        }
        [candidates[0].any(), candidates[1].any()]
    }

    /// The pieces among `targets` that side `c` attacks in the chase sense (see the
    /// module documentation), whoever is to move.
    pub fn chased_by(&self, c: Color, targets: Bitboard) -> Bitboard {
        let o = c.flip();
        let occ = self.occupied();
        let free_attackers =
            self.pieces_ck(c, PieceKind::King) | self.pieces_ck(c, PieceKind::Soldier);
        let exempt = self.pieces_ck(o, PieceKind::King)
            | (self.pieces_ck(o, PieceKind::Soldier) & HALF[o.index()]);
        let targets = (targets & self.pieces_of(o)).andnot(exempt);
        if targets.is_empty() {
            return Bitboard::EMPTY;
        }
        // A check is answered first: captures and recaptures are judged as if the pieces
        // giving check were not there.
        let checkers = [
            self.attackers_to(self.king_square(Color::Red), Color::Black),
            self.attackers_to(self.king_square(Color::Black), Color::Red),
        ];
        let mut chased = Bitboard::EMPTY;
        for x in targets {
            let Some(target) = self.piece_at(x) else {
                continue;
            };
            let attackers = self.all_attackers_to(x, c, occ).andnot(free_attackers);
            for a in attackers {
                if self.chase_counts(c, a, x, target.kind(), &checkers) {
                    chased |= Bitboard::from_square(x);
                    break;
                }
            }
        }
        chased
    }

    /// Whether `c`'s piece on `a`, which attacks the enemy piece of kind `xk` on `x`,
    /// chases it. `checkers[color]`: the pieces giving check to that colour's king.
    fn chase_counts(
        &self,
        c: Color,
        a: Square,
        x: Square,
        xk: PieceKind,
        checkers: &[Bitboard; 2],
    ) -> bool {
        let Some(attacker) = self.piece_at(a) else {
            return false;
        };
        let ak = attacker.kind();
        if !self.capture_is_legal(c, a, x, checkers[c.index()]) {
            return false;
        }
        let o = c.flip();
        if ak == xk
            && self.all_attackers_to(a, o, self.occupied()).has(x)
            && self.capture_is_legal(o, x, a, checkers[o.index()])
        {
            return false;
        }
        outranks(ak, xk) || !self.can_recapture(c, a, x, checkers[o.index()])
    }

    /// Whether `color` moving its piece from `from` to capture on `to` keeps its king safe
    /// (whoever is to move), the enemy pieces in `ignored` left out.
    fn capture_is_legal(&self, color: Color, from: Square, to: Square, ignored: Bitboard) -> bool {
        let ksq = self.king_square(color);
        let ksq = if ksq == from { to } else { ksq };
        let occ = self.occupied().without(from).with(to);
        let enemy = self.pieces_of(color.flip()).without(to).andnot(ignored);
        !self.king_attacked_with(color, ksq, occ, enemy)
    }

    /// Whether, after `c`'s piece on `a` captures on `x`, the other side has a legal
    /// recapture on `x` (`c`'s pieces in `ignored` left out of the king-safety test).
    fn can_recapture(&self, c: Color, a: Square, x: Square, ignored: Bitboard) -> bool {
        let o = c.flip();
        let occ = self.occupied().without(a);
        // After the recapture, `c` has lost the capturing piece.
        let enemy = self.pieces_of(c).without(a).andnot(ignored);
        let ksq = self.king_square(o);
        for r in self.all_attackers_to(x, o, occ) {
            let k = if r == ksq { x } else { ksq };
            if !self.king_attacked_with(o, k, occ.without(r), enemy) {
                return true;
            }
        }
        false
    }

    /// How the game stands by the rules for the game record: `None` while it goes on.
    ///
    /// In order: no legal move (the side to move loses), the 60-move rule, a position
    /// occurring for the third time (judged for perpetual check and chase), dead material.
    pub fn game_result(&self) -> Option<GameEnd> {
        let us = self.side_to_move();
        if self.rule_set() == super::RuleSet::AlphaChess && self.alphachess_move_limit() {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::MoveLimit,
            });
        }
        if !self.has_legal_move() {
            let reason = if self.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(GameEnd {
                winner: Some(us.flip()),
                reason,
            });
        }
        if self.rule_set() == super::RuleSet::AlphaChess {
            return None;
        }
        if self.rule60_count() >= RULE60_PLIES {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::MoveLimit,
            });
        }
        if let Some(span) = self.repetition_span(3) {
            return Some(match self.judge_span(span) {
                RepetitionVerdict::Draw => GameEnd {
                    winner: None,
                    reason: EndReason::Repetition,
                },
                RepetitionVerdict::PerpetualCheck(c) => GameEnd {
                    winner: Some(c.flip()),
                    reason: EndReason::PerpetualCheck,
                },
                RepetitionVerdict::PerpetualChase(c) => GameEnd {
                    winner: Some(c.flip()),
                    reason: EndReason::PerpetualChase,
                },
            });
        }
        if self.is_dead_material() {
            return Some(GameEnd {
                winner: None,
                reason: EndReason::DeadMaterial,
            });
        }
        None
    }
}
