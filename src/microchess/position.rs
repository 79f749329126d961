//! The Microchess position: where the four pieces stand (or that they are gone), and how
//! many plies have been played, which also says whose turn it is (White moves on even
//! counts). Move generation, the end of the game and its payoffs.
//!
//! The rules (docs/games.md, "Microchess"): a rook slides orthogonally through empty squares
//! and may capture the enemy piece that ends its line; a king steps to any of the 8
//! neighbours that its own rook does not occupy. No check rules, no passing. When a king
//! is captured and its side still has a rook, that side gets exactly one last rook move
//! (the "last-move state"), then the game is over; without a rook it is over at once.
//! After 30 plies in total the game is over too: a draw if both kings live, and a king
//! captured on ply 30 gets no last move.

use super::error::MicrochessFenError;
use super::types::{Kind, Move, Piece, Side, Square};
use crate::movelist::MoveList;

/// The game is over after this many plies.
pub const MAX_PLIES: u8 = 30;

/// Marks a captured piece in the square table.
const GONE: u8 = 16;

/// Placement codes: each of the four pieces on one of 16 squares or gone, base 17
/// (public for the census in `jiang-lab`, which dedupes boards through them).
pub const PLACEMENT_CODES: usize = 17 * 17 * 17 * 17;

/// King steps.
const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Rook directions.
const ROOK_DIRECTIONS: [(i8, i8); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// Only this side captured a king: payoffs 3 and 0.
    Win(Side),
    /// Both kings were captured: payoffs 2 and 2.
    Tie,
    /// 30 plies with both kings alive: payoffs 1 and 1.
    Draw,
}

impl Ending {
    /// The payoffs, White first.
    pub const fn payoffs(self) -> [u8; 2] {
        match self {
            Ending::Win(Side::White) => [3, 0],
            Ending::Win(Side::Black) => [0, 3],
            Ending::Tie => [2, 2],
            Ending::Draw => [1, 1],
        }
    }
}

/// Where the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// Both kings on the board, plies left: the side to move moves its king or rook.
    Playing,
    /// The side to move has lost its king and plays its one last rook move.
    LastMove,
    /// The game is over.
    Over(Ending),
}

/// A Microchess position. `Copy`: playing a move makes a new one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Square index of each [`Piece`] (by [`Piece::index`]), [`GONE`] once captured.
    squares: [u8; 4],
    /// Plies played since the start of the game (0..=30); even: White to move.
    plies: u8,
    /// Plies since the last capture (kept for the FEN only; no rule uses it).
    halfmove: u8,
}

impl Position {
    /// A position from piece squares (`None`: captured) and plies played, unchecked: the
    /// squares must be distinct and `plies <= 30` (the FEN reader and
    /// [`Position::from_placement`] check that and more).
    pub(crate) fn from_parts(pieces: [Option<Square>; 4], plies: u8, halfmove: u8) -> Position {
        Position {
            squares: pieces.map(|s| s.map_or(GONE, |s| s.index() as u8)),
            plies,
            halfmove,
        }
    }

    /// A position from piece squares (White king, White rook, Black king, Black rook;
    /// `None`: captured) and plies played, checked as a FEN is: distinct squares, at most
    /// 30 plies, and a position without a king only if play can reach it.
    pub fn from_placement(
        pieces: [Option<Square>; 4],
        plies: u8,
    ) -> Result<Position, MicrochessFenError> {
        for (i, a) in pieces.iter().enumerate() {
            for (j, b) in pieces.iter().enumerate().skip(i + 1) {
                if a.is_some() && a == b {
                    return Err(MicrochessFenError::SameSquare(
                        Piece::ALL[i].letter(),
                        Piece::ALL[j].letter(),
                    ));
                }
            }
        }
        let pos = Position::from_parts(pieces, plies.min(MAX_PLIES), 0);
        if plies > MAX_PLIES {
            return Err(MicrochessFenError::PastTheEnd {
                fullmove: None,
                side: pos.side_to_move(),
                plies: u64::from(plies),
                max: MAX_PLIES,
            });
        }
        pos.check_reachable()?;
        Ok(pos)
    }

    /// The placement as a number below [`PLACEMENT_CODES`] (each piece's square or
    /// `GONE`, base 17, White king lowest).
    #[inline(always)]
    pub fn placement_code(&self) -> usize {
        self.squares
            .iter()
            .rev()
            .fold(0, |code, &s| code * 17 + s as usize)
    }

    /// [`Position::placement_code`] after the legal move `m`, from this position's `code`
    /// (cheaper than playing the move: only the digits of the mover and the victim change).
    #[inline(always)]
    pub(crate) fn placement_code_after(&self, code: usize, m: Move) -> usize {
        const POW17: [usize; 4] = [1, 17, 17 * 17, 17 * 17 * 17];
        let (from, to) = (m.from().index(), m.to().index());
        let mut code = code;
        for (i, &s) in self.squares.iter().enumerate() {
            if s as usize == from {
                code = code + to * POW17[i] - from * POW17[i];
            } else if s as usize == to {
                code = code + GONE as usize * POW17[i] - to * POW17[i];
            }
        }
        code
    }

    /// The position with placement `code` and `plies` played, `None` when two pieces
    /// would share a square.
    pub(crate) fn from_placement_code(code: usize, plies: u8) -> Option<Position> {
        let pos = Position::from_valid_placement_code(code, plies);
        let s = pos.squares;
        for i in 0..4 {
            if s[i] != GONE && s[i + 1..].contains(&s[i]) {
                return None;
            }
        }
        Some(pos)
    }

    /// [`Position::from_placement_code`] for a code known to have distinct squares.
    #[inline(always)]
    pub(crate) fn from_valid_placement_code(code: usize, plies: u8) -> Position {
        let mut squares = [GONE; 4];
        let mut rest = code;
        for s in squares.iter_mut() {
            *s = (rest % 17) as u8;
            rest /= 17;
        }
        Position {
            squares,
            plies,
            halfmove: 0,
        }
    }

    /// The handout's example: White K a2, R c4; Black k b2, r d3; White to move.
    pub fn handout() -> Position {
        let sq = |s| Square::parse(s);
        Position::from_parts([sq("a2"), sq("c4"), sq("b2"), sq("d3")], 0, 0)
    }

    /// Where `piece` stands, `None` once it is captured.
    #[inline(always)]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        Square::from_index(self.squares[piece.index()])
    }

    /// The squares of the four pieces, White king, White rook, Black king, Black rook.
    pub fn placement(&self) -> [Option<Square>; 4] {
        Piece::ALL.map(|p| self.square_of(p))
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let i = self
            .squares
            .iter()
            .position(|&s| s as usize == sq.index())?;
        Some(Piece::ALL[i])
    }

    /// Whether `piece` is still on the board.
    #[inline(always)]
    pub fn has(&self, piece: Piece) -> bool {
        self.squares[piece.index()] != GONE
    }

    /// Plies played since the start (0..=30).
    #[inline(always)]
    pub fn plies(&self) -> u8 {
        self.plies
    }

    /// Plies since the last capture.
    #[inline(always)]
    pub fn halfmove(&self) -> u8 {
        self.halfmove
    }

    /// Whose turn it is (in a finished game: whose turn it would be).
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        if self.plies.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        }
    }

    /// Where the game stands: playing, a last rook move, or over (and how).
    pub fn status(&self) -> Status {
        let white_king = self.has(Piece::WhiteKing);
        let black_king = self.has(Piece::BlackKing);
        match (white_king, black_king) {
            (true, true) if self.plies >= MAX_PLIES => Status::Over(Ending::Draw),
            (true, true) => Status::Playing,
            (false, false) => Status::Over(Ending::Tie),
            (false, true) => self.after_king_capture(Side::White),
            (true, false) => self.after_king_capture(Side::Black),
        }
    }

    /// The status once `victim`'s king is gone (and the other king lives): a last move if
    /// it is the victim's turn, it has a rook and plies are left; else the capturer won.
    fn after_king_capture(&self, victim: Side) -> Status {
        if self.side_to_move() == victim
            && self.has(Piece::new(victim, Kind::Rook))
            && self.plies < MAX_PLIES
        {
            Status::LastMove
        } else {
            Status::Over(Ending::Win(victim.flip()))
        }
    }

    /// How the game ended, `None` while it goes on.
    pub fn ending(&self) -> Option<Ending> {
        match self.status() {
            Status::Over(e) => Some(e),
            _ => None,
        }
    }

    /// Appends the legal moves (none once the game is over; rook moves only in the
    /// last-move state), king moves first.
    pub fn generate(&self, list: &mut MoveList<Move>) {
        let us = self.side_to_move();
        match self.status() {
            Status::Over(_) => return,
            Status::Playing => self.king_moves(us, list),
            Status::LastMove => {}
        }
        self.rook_moves(us, list);
    }

    /// The legal moves in a list.
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    fn king_moves(&self, us: Side, list: &mut MoveList<Move>) {
        let Some(from) = self.square_of(Piece::new(us, Kind::King)) else {
            return;
        };
        let own_rook = self.square_of(Piece::new(us, Kind::Rook));
        for (df, dr) in KING_STEPS {
            if let Some(to) = from.offset(df, dr) {
                if Some(to) != own_rook {
                    list.push(Move::new(from, to));
                }
            }
        }
    }

    fn rook_moves(&self, us: Side, list: &mut MoveList<Move>) {
        let Some(from) = self.square_of(Piece::new(us, Kind::Rook)) else {
            return;
        };
        for (df, dr) in ROOK_DIRECTIONS {
            let mut sq = from;
            while let Some(to) = sq.offset(df, dr) {
                match self.piece_at(to) {
                    None => list.push(Move::new(from, to)),
                    Some(p) => {
                        if p.side() != us {
                            list.push(Move::new(from, to));
                        }
                        break;
                    }
                }
                sq = to;
            }
        }
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// What `m` captures, if anything.
    #[inline(always)]
    pub fn captured(&self, m: Move) -> Option<Piece> {
        self.piece_at(m.to())
    }

    /// Plays a legal move. (Anything else is a caller's bug: a debug build asserts; a
    /// release build leaves a finished game as it is and keeps the ply count in range.)
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "{m} is not legal");
        if self.plies >= MAX_PLIES {
            return;
        }
        let Some(mover) = self.piece_at(m.from()) else {
            return;
        };
        match self.piece_at(m.to()) {
            Some(victim) => {
                self.squares[victim.index()] = GONE;
                self.halfmove = 0;
            }
            None => self.halfmove = self.halfmove.saturating_add(1),
        }
        self.squares[mover.index()] = m.to().index() as u8;
        self.plies += 1;
    }

    /// The position after the legal move `m`.
    #[inline(always)]
    pub fn after(&self, m: Move) -> Position {
        let mut next = *self;
        next.play(m);
        next
    }

    /// Checks that play can reach this position, as far as the game's rules go: every
    /// placement with both kings is accepted at any ply count (a study position may lack
    /// rooks from the start); one without a king must be a last-move state or the end of
    /// a game (a king was captured, and, if it is not the victim's turn, the victim's
    /// rook made the last move).
    pub(crate) fn check_reachable(&self) -> Result<(), MicrochessFenError> {
        if self.halfmove > self.plies {
            return Err(MicrochessFenError::HalfmoveAbovePlies {
                halfmove: self.halfmove,
                plies: self.plies,
            });
        }
        let to_move = self.side_to_move();
        let just_moved = to_move.flip();
        let king = |s: Side| self.has(Piece::new(s, Kind::King));
        let rook = |s: Side| self.has(Piece::new(s, Kind::Rook));
        if king(Side::White) && king(Side::Black) {
            return Ok(());
        }
        if self.plies == 0 {
            return Err(MicrochessFenError::KingMissingAtStart);
        }
        if !king(to_move) && king(just_moved) {
            // The side that just moved captured the king: a last-move state, or over.
            return Ok(());
        }
        // The side that just moved lost its king earlier, and this was its last rook move
        // (which, if the other king is gone too, captured it: a tie).
        if !rook(just_moved) {
            return Err(MicrochessFenError::LastMoverWithoutPieces(just_moved));
        }
        if self.plies < 2 {
            return Err(MicrochessFenError::LastRookMoveTooEarly);
        }
        Ok(())
    }
}

/// Every start: the four pieces on distinct squares, White to move, no ply played.
pub fn starts() -> impl Iterator<Item = Position> {
    let squares = || Square::all().map(Some);
    squares().flat_map(move |k| {
        squares().flat_map(move |r| {
            squares().flat_map(move |bk| {
                squares().filter_map(move |br| Position::from_placement([k, r, bk, br], 0).ok())
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Option<Square> {
        Square::parse(s)
    }

    #[test]
    fn handout_moves() {
        let pos = Position::handout();
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            moves,
            [
                "a2a1", "a2b1", "a2b2", "a2a3", "a2b3", "c4c3", "c4c2", "c4c1", "c4b4", "c4a4",
                "c4d4"
            ]
        );
    }

    #[test]
    fn king_capture_gives_the_victim_one_rook_move() {
        let pos = Position::handout().after(Move::parse("a2b2").unwrap());
        assert_eq!(pos.status(), Status::LastMove);
        assert_eq!(pos.side_to_move(), Side::Black);
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 6);
        assert!(moves.iter().all(|m| m.from() == sq("d3").unwrap()));
        let quiet = pos.after(Move::parse("d3d1").unwrap());
        assert_eq!(quiet.status(), Status::Over(Ending::Win(Side::White)));
        assert!(quiet.legal_moves().is_empty());
    }

    #[test]
    fn last_move_capturing_the_king_is_a_tie() {
        // Black's king takes White's on a1; White's rook on a4 answers down the a-file.
        let pos = Position::from_parts([sq("a1"), sq("a4"), sq("b2"), sq("d3")], 3, 0);
        let pos = pos.after(Move::parse("b2a1").unwrap());
        assert_eq!(pos.status(), Status::LastMove);
        let tie = pos.after(Move::parse("a4a1").unwrap());
        assert_eq!(tie.status(), Status::Over(Ending::Tie));
        assert_eq!(Ending::Tie.payoffs(), [2, 2]);
    }

    #[test]
    fn no_rook_no_last_move() {
        let pos = Position::from_parts([sq("a1"), None, sq("b2"), sq("d3")], 1, 0);
        let pos = pos.after(Move::parse("b2a1").unwrap());
        assert_eq!(pos.status(), Status::Over(Ending::Win(Side::Black)));
    }

    #[test]
    fn ply_thirty() {
        let both = Position::from_parts([sq("a1"), sq("d4"), sq("c3"), None], 30, 5);
        assert_eq!(both.status(), Status::Over(Ending::Draw));
        // Black captures on ply 30: White's rook lives, but there is no last move.
        let pos = Position::from_parts([sq("a1"), sq("d4"), sq("b2"), None], 29, 0);
        let pos = pos.after(Move::parse("b2a1").unwrap());
        assert_eq!(pos.plies(), 30);
        assert_eq!(pos.status(), Status::Over(Ending::Win(Side::Black)));
        // The same capture on ply 28 leaves White its last move.
        let pos = Position::from_parts([sq("a1"), sq("d4"), sq("b2"), None], 27, 0);
        assert_eq!(
            pos.after(Move::parse("b2a1").unwrap()).status(),
            Status::LastMove
        );
    }

    #[test]
    fn king_never_steps_onto_its_rook_rook_stops_at_pieces() {
        let pos = Position::from_parts([sq("a1"), sq("b1"), sq("a3"), sq("c1")], 0, 0);
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["a1a2", "a1b2", "b1b2", "b1b3", "b1b4", "b1c1"]);
    }
}
