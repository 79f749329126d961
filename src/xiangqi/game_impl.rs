//! Xiangqi as a game of jiang: [`Rules`] for the front end, [`Game`] for the search.

use super::position::Position;
use super::see::see_value;
use super::types::{Color, Move, PieceKind};
use crate::book::BookFormat;
use crate::common::{FenError, MoveError};
use crate::game::{Game, GameEnd, GenType, Outcome, Rules, TableVerdict};
use crate::movelist::MoveList;
use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue};

impl Rules for Position {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "xiangqi";
    const PLAYERS: &'static [&'static str] = &["red", "black"];
    const OPTIONS: &'static [OptionSpec] = &[RULES_OPTION, USE_NNUE_OPTION];

    fn start_position() -> Self {
        Position::startpos()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }
    fn player_to_move(&self) -> usize {
        self.side_to_move().index()
    }
    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).iter().copied().collect()
    }
    fn parse_legal_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_legal_move(self, text)
    }
    fn play(&mut self, m: Move) {
        self.make_move(m);
    }
    fn plies_played(&self) -> usize {
        // A GUI that sends only the current FEN still sends its move number.
        2 * (self.fullmove() as usize - 1) + usize::from(self.side_to_move() == Color::Black)
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.game_result().map(|end| GameEnd {
            result: end.result().to_string(),
            reason: end.reason_text(),
            winner: end.winner.map(Color::index),
        })
    }
    fn diagram(&self) -> String {
        with_tablebase_line(super::display::board_diagram(self), self)
    }
    fn eval_report(&self) -> String {
        with_tablebase_line(super::eval::trace(self), self)
    }
    fn table_verdict(&self) -> Option<TableVerdict> {
        use super::egtb::TbValue;
        let (v, ending) = super::egtb::verdict(self)?;
        let (outcome, plies) = match v {
            TbValue::Win(d) => (Outcome::Win, d),
            TbValue::Draw => (Outcome::Draw, 0),
            TbValue::Loss(d) => (Outcome::Loss, d),
            // Not a verdict: the repetition rules may decide (`d` says so in words).
            TbValue::RuleDraw { .. } => return None,
        };
        Some(TableVerdict {
            outcome,
            plies: u32::from(plies),
            table: ending.to_string(),
        })
    }
    fn reserve(&mut self, plies: usize) {
        self.reserve_history(plies);
    }
    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if spec.name == RULES_OPTION.name {
            let rules = super::RuleSet::from_name(value.as_choice()).ok_or_else(|| {
                OptionError::Refused {
                    name: RULES_OPTION.name,
                    reason: format!(
                        "unknown rule set '{value}' (xiangqi: {})",
                        super::RuleSet::NAMES.join(", ")
                    ),
                }
            })?;
            self.set_rule_set(rules);
        } else if spec.name == USE_NNUE_OPTION.name {
            self.set_use_network(value.as_bool());
        } else {
            return Err(OptionError::Unknown {
                name: spec.name.to_string(),
            });
        }
        Ok(())
    }
    #[inline(always)]
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        self.generate(GenType::All, list);
    }
    /// In bulk: popcounts of target sets, no list.
    #[inline(always)]
    fn perft_count(&self) -> u64 {
        self.count_legal() as u64
    }
    #[inline(always)]
    fn perft_make(&mut self, m: Move) {
        self.make_move(m);
    }
    #[inline(always)]
    fn perft_unmake(&mut self, m: Move, _: ()) {
        self.unmake_move(m);
    }
}

/// `text` with the tablebase's verdict on `pos` added as a last line, when a loaded table
/// knows it (`d` and `eval` show it).
fn with_tablebase_line(mut text: String, pos: &Position) -> String {
    if let Some(line) = super::egtb::describe(pos) {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// `Rules`: the house rules Xiangqi is played by (Asian rules, or the AlphaChess
/// harness's; see `house_rules.rs`).
const RULES_OPTION: OptionSpec = OptionSpec::new(
    "Rules",
    OptionKind::Combo {
        default: super::RuleSet::NAMES[0],
        choices: super::RuleSet::NAMES,
    },
);

/// `UseNNUE`: the learned evaluation (true) or the hand-written one.
const USE_NNUE_OPTION: OptionSpec = OptionSpec::new(
    "UseNNUE",
    OptionKind::Check {
        default: super::nnue::DEFAULT_ENABLED,
    },
);

impl Game for Position {
    /// 1,500 (UCI `cp` units): the side ahead wins 98-99.9 % by the WDL model of
    /// self-play (`wdl.rs`), whatever the material. Trusting the evaluation beyond it hid
    /// the mates behind a late quiet root move: a defender whose evaluation was not quite
    /// as bad as the best line's, or who passed, was cut off before the mate showed
    /// (issue 24's deep set at 3M nodes: 33 of 46 with those cuts, 44 without them).
    const DECIDED_SCORE: i32 = 1500;
    const HISTORY_SIZE: usize = 14 * 90;

    #[inline(always)]
    fn key(&self) -> u64 {
        Position::key(self)
    }
    #[inline(always)]
    fn key_after(&self, m: Move) -> Option<u64> {
        Some(Position::key_after(self, m))
    }
    #[inline(always)]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    #[inline(always)]
    fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        Position::generate(self, gen, list)
    }
    #[inline(always)]
    fn is_legal(&self, m: Move) -> bool {
        Position::is_legal(self, m)
    }
    #[inline(always)]
    fn is_capture(&self, m: Move) -> bool {
        Position::is_capture(self, m)
    }
    #[inline(always)]
    fn gives_check(&self, m: Move) -> bool {
        Position::gives_check(self, m)
    }
    #[inline(always)]
    fn make_move(&mut self, m: Move) {
        Position::make_move(self, m)
    }
    #[inline(always)]
    fn unmake_move(&mut self, m: Move) {
        Position::unmake_move(self, m)
    }
    #[inline(always)]
    fn make_null_move(&mut self) {
        Position::make_null_move(self)
    }
    #[inline(always)]
    fn unmake_null_move(&mut self) {
        Position::unmake_null_move(self)
    }
    #[inline(always)]
    fn null_move_allowed(&self) -> bool {
        // Zugzwang matters in Xiangqi endgames where the side to move has only a few
        // defenders and soldiers; with a chariot, or two horses/cannons, passing is safe
        // enough as an approximation.
        let us = self.side_to_move();
        let strong = self.pieces_ck(us, PieceKind::Chariot).count() * 2
            + self.pieces_ck(us, PieceKind::Horse).count()
            + self.pieces_ck(us, PieceKind::Cannon).count();
        strong >= 2
    }
    fn prepare_search(&mut self, plies: usize) {
        // The search evaluates with the network when that is switched on.
        self.set_nnue(self.uses_network(), plies);
    }
    #[inline(always)]
    fn evaluate(&self) -> i32 {
        match self.nnue() {
            Some(n) => super::nnue::evaluate(self, n),
            None => super::eval::evaluate(self),
        }
    }
    fn wdl(&self, score: i32) -> Option<crate::report::Wdl> {
        Some(super::wdl::wdl(score, super::wdl::material(self)))
    }
    #[inline(always)]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        Position::see_ge(self, m, threshold)
    }
    #[inline(always)]
    fn capture_order(&self, m: Move) -> i32 {
        let victim = self.piece_at(m.to()).map_or(0, |p| see_value(p.kind()));
        let attacker = self.piece_at(m.from()).map_or(0, |p| see_value(p.kind()));
        victim * 16 - attacker / 64
    }
    #[inline(always)]
    fn captured_value(&self, m: Move) -> i32 {
        self.piece_at(m.to()).map_or(0, |p| see_value(p.kind()))
    }
    #[inline(always)]
    fn history_index(&self, m: Move) -> usize {
        self.piece_at(m.from()).map_or(0, |p| p.index()) * 90 + m.to().index()
    }
    #[inline(always)]
    fn move_to_u16(m: Move) -> u16 {
        m.to_u16()
    }
    #[inline(always)]
    fn move_from_u16(v: u16) -> Option<Move> {
        Move::from_u16(v)
    }
    #[inline(always)]
    fn rule_outcome(&self, ply: usize, judge_repetitions: bool) -> Option<Outcome> {
        Position::rule_outcome_with(self, ply, judge_repetitions)
    }
    /// A loaded endgame table's value (`super::egtb`): the exact distance to mate, so
    /// that the search scores a table win as the mate it is and the root ranks its moves
    /// by it (the fastest win, the longest defence). A mate farther away than the
    /// 60-move rule's count leaves (counted as if no capture came first) is not taken
    /// from the table: the search goes on there and the rule judges. Under the AlphaChess
    /// house rules (no fourth check running by one piece, their own move limit) the
    /// tables' lines need not be legal, and they are not used. A draw that a side is not
    /// proved to hold under the repetition rules is no answer either, nor a draw at a
    /// position that already occurred: the search goes on and the rule judge sees the
    /// repetitions.
    #[inline(always)]
    fn solved(&self, _ply: usize) -> Option<(Outcome, i32)> {
        let v = super::egtb::probe(self)?;
        if self.rule_set() != super::RuleSet::Asian {
            return None;
        }
        let left = super::rules::RULE60_PLIES.saturating_sub(self.rule60_count());
        match v {
            // A table draw is held by a strategy that never checks or chases perpetually,
            // whatever came before; a position already seen in the game may be the middle
            // of a cycle of checks the engine itself began, which the strategy would never
            // have played. There the search goes on, and the rule judge sees the cycle.
            super::egtb::TbValue::Draw if self.repetition_span(2).is_some() => None,
            super::egtb::TbValue::Draw => Some((Outcome::Draw, 0)),
            super::egtb::TbValue::Win(d) if d <= left => Some((Outcome::Win, i32::from(d))),
            super::egtb::TbValue::Loss(d) if d <= left => Some((Outcome::Loss, i32::from(d))),
            _ => None,
        }
    }
    fn mirrored_key(&self) -> Option<u64> {
        Some(Position::mirrored_key(self))
    }
    fn mirror_move(m: Move) -> Move {
        super::mirror::mirror_move(m)
    }
    fn book_keys(&self, format: BookFormat) -> Option<(u64, Option<u64>)> {
        Some(match format {
            BookFormat::Jiang => (self.key(), Some(Position::mirrored_key(self))),
            BookFormat::ElephantEye => (
                u64::from(super::eleeye::lock(self, false)),
                Some(u64::from(super::eleeye::lock(self, true))),
            ),
        })
    }
    fn book_move_from_code(format: BookFormat, code: u16) -> Option<Move> {
        match format {
            BookFormat::Jiang => Move::from_u16(code),
            BookFormat::ElephantEye => super::eleeye::move_from_code(code),
        }
    }
}
