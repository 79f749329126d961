//! Microchess for jiang's front end: [`Rules`]. It has no [`crate::game::Game`]
//! implementation: the game is not zero-sum, so the two-player search does not play it;
//! the engine asks [`super::choose`] instead.

use super::position::{Ending, Position, Status, MAX_PLIES};
use super::solve::{solution, Value};
use super::types::{Move, Side, Square, SIZE};
use crate::common::{FenError, MoveError};
use crate::game::{GameEnd, Rules, XboardVariant};
use crate::movelist::MoveList;
use std::fmt::Write as _;

impl Rules for Position {
    type Move = Move;
    /// The position before the move: four bytes of squares and two counters, cheaper to
    /// copy back than to undo.
    type Undo = Position;
    const NAME: &'static str = "microchess";
    const PLAYERS: &'static [&'static str] = &["white", "black"];
    /// XBoard's fairy family on a 4x4 board: rook and king only (XBoard's own rook and
    /// king moves, so it can check the moves it is sent).
    const XBOARD: Option<XboardVariant> = Some(XboardVariant {
        pieces: "...RK...rk",
        board: "4x4+0_fairy",
        betza: &[],
    });

    fn start_position() -> Self {
        Position::handout()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Position::from_fen(fen).map_err(FenError::game)
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
        if let Some(end) = Rules::game_end(self) {
            return Err(MoveError::GameOver {
                text: text.to_string(),
                end: end.to_string(),
            });
        }
        let m = Move::parse(text).ok_or_else(|| MoveError::Malformed {
            text: text.to_string(),
            game: "Microchess",
            expected: "from and to square, a1-d4, e.g. a2b2",
        })?;
        if !self.is_legal(m) {
            return Err(MoveError::Illegal(m.to_string()));
        }
        Ok(m)
    }
    fn play(&mut self, m: Move) {
        Position::play(self, m);
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.ending().map(game_end)
    }
    fn diagram(&self) -> String {
        diagram(self)
    }
    fn eval_report(&self) -> String {
        eval_report(self)
    }
    fn reserve(&mut self, _plies: usize) {}
    /// None once the game is over.
    #[inline(always)]
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        self.generate(list);
    }
    #[inline(always)]
    fn perft_make(&mut self, m: Move) -> Position {
        let before = *self;
        Position::play(self, m);
        before
    }
    #[inline(always)]
    fn perft_unmake(&mut self, _m: Move, before: Position) {
        *self = before;
    }
}

/// The result of a finished game, with the payoffs in words.
pub fn game_end(ending: Ending) -> GameEnd {
    let [white, black] = ending.payoffs();
    match ending {
        Ending::Win(side) => GameEnd {
            result: if side == Side::White { "1-0" } else { "0-1" }.to_string(),
            reason: format!(
                "{} captured the king (payoffs {white} {black})",
                side.name()
            ),
            winner: Some(side.index()),
        },
        Ending::Tie => GameEnd {
            result: "1/2-1/2".to_string(),
            reason: format!("both kings captured: tie, payoffs {white} {black}"),
            winner: None,
        },
        Ending::Draw => GameEnd {
            result: "1/2-1/2".to_string(),
            reason: format!("{MAX_PLIES} plies: draw, payoffs {white} {black}"),
            winner: None,
        },
    }
}

/// `1 ply`, `2 plies`.
fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// One side's solved value in words.
fn side_value(value: &Value, side: Side) -> String {
    let s = side.index();
    format!(
        "{} guaranteed {}, expects {:.3} against a random opponent, maximin line {}",
        side.name(),
        value.guaranteed[s],
        value.expected[s],
        plies(value.plies[s].into())
    )
}

/// The board for a person (`d`): White upper case, the side to move, FEN, plies, the
/// solved value and jiang's move.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::from("   +---------+\n");
    for rank in (0..SIZE as i8).rev() {
        let _ = write!(s, " {} |", rank + 1);
        for file in 0..SIZE as i8 {
            let piece = Square::from_coords(file, rank).and_then(|sq| pos.piece_at(sq));
            let _ = write!(s, " {}", piece.map_or('.', |p| p.letter()));
        }
        s.push_str(" |\n");
    }
    s.push_str("   +---------+\n     a b c d\n\n");
    let side = pos.side_to_move();
    let note = match (side, pos.status()) {
        (Side::White, Status::LastMove) => "white (its king is gone: one last rook move)",
        (Side::Black, Status::LastMove) => "black (its king is gone: one last rook move)",
        (Side::White, _) => "white (upper case)",
        (Side::Black, _) => "black (lower case)",
    };
    let _ = writeln!(s, "Side to move: {note}");
    let _ = writeln!(s, "FEN: {}", pos.to_fen());
    let _ = writeln!(s, "Plies played: {} of {MAX_PLIES}", pos.plies());
    let value = solution().value(pos);
    let _ = writeln!(s, "Solved: {}", side_value(&value, Side::White));
    let _ = writeln!(s, "        {}", side_value(&value, Side::Black));
    match pos.ending() {
        Some(end) => {
            let _ = write!(s, "Game over: {}", game_end(end));
        }
        None => {
            if let Some(c) = solution().choose(pos) {
                let _ = writeln!(s, "jiang plays: {}", c.mv);
            }
            s.push_str("Game: in progress");
        }
    }
    s
}

/// The solved value explained (`eval`): both sides' values and every move's.
pub fn eval_report(pos: &Position) -> String {
    let sol = solution();
    let value = sol.value(pos);
    let mut s = String::from("Microchess, solved (payoffs: win 3, tie 2, draw 1, loss 0)\n");
    let _ = writeln!(s, "  {}", side_value(&value, Side::White));
    let _ = writeln!(s, "  {}", side_value(&value, Side::Black));
    if let Some(end) = pos.ending() {
        let _ = write!(s, "Game over: {}", game_end(end));
        return s;
    }
    let side = pos.side_to_move();
    let m = side.index();
    let _ = writeln!(
        s,
        "Moves of {} (guaranteed White Black after the move; {}'s expectation against a random opponent; its maximin line):",
        side.name(),
        side.name()
    );
    for (mv, after) in sol.move_values(pos) {
        let _ = writeln!(
            s,
            "  {mv}  guaranteed {} {}  expects {:.3}  line {}",
            after.guaranteed[0],
            after.guaranteed[1],
            after.expected[m],
            plies(u16::from(after.plies[m]) + 1)
        );
    }
    if let Some(c) = sol.choose(pos) {
        let _ = write!(
            s,
            "Choice: {} (keeps {}'s guarantee {}, expects {:.3}, maximin line {})",
            c.mv,
            side.name(),
            c.guaranteed[m],
            c.expected,
            plies(c.plies.into())
        );
    }
    s
}
