//! Fairy chess as a game of jiang: [`Rules`] for the front end, [`Game`] for the search.
//!
//! How the king-capture rules meet the search (see [`Game`]): "in check" means the enemy
//! could capture the king now (the search then looks at every move and does not stand
//! pat); a node whose side to move has lost its king is lost ([`Outcome::Loss`] from
//! `rule_outcome`), so a forced king capture scores as a mate of the right length; no
//! legal move loses too.

use super::position::{End, Position};
use super::see::see_value;
use super::types::{Color, Move, PieceKind};
use crate::common::{FenError, MoveError};
use crate::game::{Game, GameEnd, GenType, Outcome, Rules, XboardVariant};
use crate::movelist::MoveList;

/// The reason of a game end in words.
pub fn end_reason(end: End) -> String {
    match end {
        End::KingCaptured { winner } => format!("{} captures the king", winner.name()),
        End::KingsOnly => "only kings left".to_string(),
        End::PlyLimit => "100-ply limit".to_string(),
        End::NoMoves { loser } => format!("{} has no legal move", loser.name()),
    }
}

/// The game end as the front end shows it.
pub fn game_end_of(end: End) -> GameEnd {
    let winner = match end {
        End::KingCaptured { winner } => Some(winner),
        End::NoMoves { loser } => Some(loser.flip()),
        End::KingsOnly | End::PlyLimit => None,
    };
    GameEnd {
        result: match winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
        .to_string(),
        reason: end_reason(end),
        winner: winner.map(Color::index),
    }
}

impl Rules for Position {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "fairychess";
    const PLAYERS: &'static [&'static str] = &["white", "black"];
    /// XBoard's fairy family on 8x8: knight, bishop, rook and king as themselves, the
    /// squire in the ferz's slot (drawn as a ferz) and the combatant in the wazir's, with
    /// their real moves given in Betza notation.
    const XBOARD: Option<XboardVariant> = Some(XboardVariant {
        pieces: ".NBR.S...CK.nbr.s...ck",
        board: "8x8+0_fairy",
        betza: &[("S&", "FD"), ("C&", "mWcF")],
    });

    fn start_position() -> Self {
        Position::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
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
        self.game_ply() as usize
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.end().map(game_end_of)
    }
    fn diagram(&self) -> String {
        super::display::board_diagram(self)
    }
    fn eval_report(&self) -> String {
        super::eval::trace(self)
    }
    fn reserve(&mut self, plies: usize) {
        self.reserve_history(plies);
    }
    /// None once the game is over by rule: a captured king, kings only, the ply limit.
    #[inline(always)]
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        if self.end_by_rule().is_none() {
            self.generate(GenType::All, list);
        }
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

impl Game for Position {
    const HISTORY_SIZE: usize = 12 * 64;

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
    #[inline(always)]
    fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        // Evasions only when the king is attacked: see `generate_for_search`.
        Position::generate_for_search(self, gen, list)
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
        // A side must move even when every move loses something (zugzwang is real in a
        // game without pawns only when little is left): pass only with at least two
        // pieces besides the king, one of them more than a combatant.
        let us = self.side_to_move();
        let own = self.pieces_of(us) & !self.pieces(us, PieceKind::King);
        let strong = own & !self.pieces(us, PieceKind::Combatant);
        own.count_ones() >= 2 && strong != 0
    }
    #[inline(always)]
    fn evaluate(&self) -> i32 {
        super::eval::evaluate(self)
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
    fn rule_outcome(&self, ply: usize, _judge_repetitions: bool) -> Option<Outcome> {
        match self.end_by_rule() {
            Some(End::KingCaptured { .. } | End::NoMoves { .. }) => Some(Outcome::Loss),
            Some(End::KingsOnly | End::PlyLimit) => Some(Outcome::Draw),
            // The game has no repetition rule; a cycle inside the search tree is a draw
            // (see `Position::repeats`).
            // (Not where the three-piece table gives the value: it stands, see `solved`.)
            None if self.repeats(ply) && Game::solved(self, ply).is_none() => Some(Outcome::Draw),
            None => None,
        }
    }
    /// A king and one piece against a bare king: the exact value from
    /// [`super::endgame`], with the 100-ply limit. Except a draw in an ending that was
    /// already on the board at the root (no capture since, by the halfmove clock): that
    /// is searched on with the evaluation, whose king hunt gives an opponent more chances
    /// to go wrong than the table's one-move tie-break (measured against Fairy-Stockfish,
    /// see docs/MEASUREMENTS.md); its wins and losses below are still exact. A capture
    /// inside the tree that reaches a drawn ending gets the draw, so the search does not
    /// trade into one taking it for a material edge.
    #[inline(always)]
    fn solved(&self, ply: usize) -> Option<(Outcome, i32)> {
        let s = super::endgame::solved(self)?;
        if s.0 == Outcome::Draw && self.halfmove_clock() as usize >= ply {
            return None;
        }
        Some(s)
    }
    fn no_moves_outcome(&self) -> Outcome {
        // Fairy-Stockfish's definition: stalemateValue = loss.
        Outcome::Loss
    }
}
