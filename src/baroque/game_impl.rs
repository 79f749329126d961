//! Baroque as a game of jiang: [`Rules`] for the front end, [`Game`] for the search.

use super::eval;
use super::movegen;
use super::position::Position;
use super::see;
use super::types::{Move, PieceKind};
use crate::common::{FenError, MoveError};
use crate::game::{Game, GameEnd, GenType, Outcome, Rules, XboardVariant};
use crate::movelist::MoveList;

impl Rules for Position {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "baroque";
    const PLAYERS: &'static [&'static str] = &["white", "black"];
    const XBOARD: Option<XboardVariant> = Some(super::xboard::XBOARD);

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
        movegen::legal_moves(self)
    }
    /// The canonical notation (`d4d1`, `d4d2c`), or XBoard's multi-leg form
    /// (`d4d5,d5d1`: see [`super::xboard`]).
    fn parse_legal_move(&self, text: &str) -> Result<Move, MoveError> {
        if super::xboard::is_multi_leg(text) {
            super::xboard::parse_multi_leg(self, text)
        } else {
            movegen::parse_legal_move(self, text)
        }
    }
    fn play(&mut self, m: Move) {
        self.make_move(m);
    }
    fn plies_played(&self) -> usize {
        Position::plies_played(self) as usize
    }
    fn game_end(&self) -> Option<GameEnd> {
        super::rules::game_end(self)
    }
    fn diagram(&self) -> String {
        super::display::board_diagram(self)
    }
    fn eval_report(&self) -> String {
        eval::trace(self)
    }
    fn reserve(&mut self, plies: usize) {
        self.reserve_history(plies);
    }
    /// None once a king is captured; the move limit is ignored (rule book section 12).
    #[inline(always)]
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        movegen::generate(self, GenType::All, list);
    }
    /// Counted without listing (target-set popcounts where the generator has them).
    #[inline(always)]
    fn perft_count(&self) -> u64 {
        movegen::count_moves(self)
    }
    /// Leaves the in-check flag stale until the move is taken back: perft never asks.
    #[inline(always)]
    fn perft_make(&mut self, m: Move) {
        self.make_move_keeping_check(m);
    }
    #[inline(always)]
    fn perft_unmake(&mut self, m: Move, _: ()) {
        self.unmake_move(m);
    }
    fn xboard_moves(&self, base: Option<&str>, seen: &[String]) -> Vec<(Move, String)> {
        super::xboard::xboard_moves(self, base, seen)
    }
}

impl Game for Position {
    const HISTORY_SIZE: usize = 14 * 64;
    const QSEARCH_EVASION_PLIES: usize = 4;

    #[inline(always)]
    fn key(&self) -> u64 {
        Position::key(self)
    }
    #[inline(always)]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    /// Every move, staged as asked; when the king is attacked, "all moves" are the
    /// evasions only (moves after which the king cannot be taken, or that take the enemy
    /// king), unless there are none. Every other move loses the king at once, so leaving
    /// them out changes no score, and the search's in-check nodes (quiescence searches
    /// all of their moves) stay small. With no evasion every move is given, so the king's
    /// loss is searched to its real distance and a legal move is always found.
    #[inline(always)]
    fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        if gen != GenType::All || !self.in_check() {
            return movegen::generate(self, gen, list);
        }
        let mut all = MoveList::new();
        movegen::generate(self, GenType::All, &mut all);
        let before = list.len();
        for &m in all.iter() {
            if see::is_evasion(self, m) {
                list.push(m);
            }
        }
        if list.len() == before {
            for &m in all.iter() {
                list.push(m);
            }
        }
    }
    #[inline(always)]
    fn is_legal(&self, m: Move) -> bool {
        movegen::is_legal(self, m)
    }
    #[inline(always)]
    fn is_capture(&self, m: Move) -> bool {
        self.captures_of(m) != 0
    }
    #[inline(always)]
    fn gives_check(&self, m: Move) -> bool {
        see::gives_check(self, m)
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
        // Zugzwang is rare with queen-moving pieces: passing is a fair approximation
        // while the side has two unfrozen pieces besides the king and pincers.
        let us = self.side_to_move();
        let b = self.board();
        let officers =
            b.color(us) & !b.of(us, PieceKind::King) & !b.of(us, PieceKind::Pincer) & !b.frozen(us);
        officers.count_ones() >= 2
    }
    #[inline(always)]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }
    #[inline(always)]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see::see_ge(self, m, threshold)
    }
    #[inline(always)]
    fn capture_order(&self, m: Move) -> i32 {
        let attacker = self
            .piece_at(m.from())
            .map_or(0, |p| eval::piece_value(p.kind()));
        see::captured_value(self, m) * 16 - attacker / 64
    }
    #[inline(always)]
    fn captured_value(&self, m: Move) -> i32 {
        see::captured_value(self, m)
    }
    #[inline(always)]
    fn history_index(&self, m: Move) -> usize {
        self.piece_at(m.from()).map_or(0, |p| p.index()) * 64 + m.to().index()
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
    fn rule_outcome(&self, _ply: usize, _judge_repetitions: bool) -> Option<Outcome> {
        super::rules::rule_outcome(self)
    }
    /// A draw: all its pieces frozen or blocked (the rules' section 9.2, decision D13).
    #[inline(always)]
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Draw
    }
}
