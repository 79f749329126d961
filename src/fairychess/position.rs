//! The fairy-chess position: mailbox + bitboards, incremental Zobrist key, make/unmake,
//! attack queries and the end-of-game rules.
//!
//! The mailbox answers "what is on this square" (make/unmake, SEE, display), the
//! bitboards answer set questions (move generation, attacks, evaluation).

use super::attacks::{
    bishop_attacks, first_square, rook_attacks, COMBATANT_CAPTURES, KING, KNIGHT, SQUIRE,
};
use super::types::{Color, Move, Piece, PieceKind, Square};
use super::weights::{Weights, WEIGHTS};
use super::zobrist::{ply_key, BLACK_TO_MOVE, PIECE_SQUARE};

/// The game is drawn once this many plies have been played, counted from the game's
/// start (a FEN's ply count is `2 * (fullmove - 1) + (1 if Black is to move)`).
pub const PLY_LIMIT: u32 = 100;

/// Room reserved in the undo history so that a game and a search never reallocate it.
pub const HISTORY_RESERVE: usize = 512;

/// What unmake needs that the move does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo {
    captured: Option<Piece>,
    halfmove: u32,
    key: u64,
}

/// How a game stands by the rules (see [`Position::end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The side to move has no king: the other side captured it and won.
    KingCaptured {
        /// The side that captured the king.
        winner: Color,
    },
    /// Only the two kings are left: a draw.
    KingsOnly,
    /// 100 plies have been played since the game's start: a draw.
    PlyLimit,
    /// The side to move has no move at all: it loses.
    NoMoves {
        /// The side that is to move and cannot.
        loser: Color,
    },
}

/// A fairy-chess position with the undo history of the moves made on it.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 64],
    by_piece: [u64; 12],
    by_color: [u64; 2],
    occupied: u64,
    side: Color,
    key: u64,
    /// Plies since the last capture (FEN field 5; shown, no rule uses it).
    halfmove: u32,
    /// Plies played since the game's start.
    ply: u32,
    history: Vec<Undo>,
    /// The evaluation weights this position is scored with (the built-in ones unless a
    /// tuner or a match between weight sets says otherwise).
    weights: &'static Weights,
}

impl PartialEq for Position {
    /// Same board, side, counters (the history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.ply == other.ply
            && self.key == other.key
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// An empty board, White to move, ply 0 (not a legal position: FEN set-up starts here).
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 64],
            by_piece: [0; 12],
            by_color: [0; 2],
            occupied: 0,
            side: Color::White,
            key: 0,
            halfmove: 0,
            ply: 0,
            history: Vec::with_capacity(HISTORY_RESERVE),
            weights: &WEIGHTS,
        }
    }

    /// Puts a piece on an empty square (set-up; the key is computed by `finish_setup`).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        self.add_piece(piece, sq);
    }

    pub(crate) fn set_state(&mut self, side: Color, halfmove: u32, ply: u32) {
        self.side = side;
        self.halfmove = halfmove;
        self.ply = ply;
    }

    pub(crate) fn finish_setup(&mut self) {
        self.key = self.compute_key();
        self.history.clear();
    }

    /// The key computed from scratch (tests and set-up).
    pub fn compute_key(&self) -> u64 {
        let mut key = ply_key(self.ply);
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                key ^= PIECE_SQUARE[p.index()][i];
            }
        }
        if self.side == Color::Black {
            key ^= BLACK_TO_MOVE;
        }
        key
    }

    // ----- accessors -------------------------------------------------------------------

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// Squares of `color`'s pieces.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> u64 {
        self.by_piece[Piece::new(color, kind).index()]
    }

    /// Squares of both colours' pieces of `kind`.
    #[inline(always)]
    pub fn pieces_kind(&self, kind: PieceKind) -> u64 {
        self.by_piece[kind.index()] | self.by_piece[kind.index() + 6]
    }

    /// Square of `color`'s king (`None` once it has been captured).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        first_square(self.pieces(color, PieceKind::King))
    }

    /// Whether `color` still has its king.
    #[inline(always)]
    pub fn has_king(&self, color: Color) -> bool {
        self.pieces(color, PieceKind::King) != 0
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Plies played since the game's start (what the 100-ply limit counts).
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        self.ply
    }

    /// The FEN move number: `ply / 2 + 1`.
    pub fn fullmove(&self) -> u32 {
        self.ply / 2 + 1
    }

    /// Moves made on this position object (since the FEN), i.e. the undo history length.
    pub fn moves_made(&self) -> usize {
        self.history.len()
    }

    /// The evaluation weights in use.
    #[inline(always)]
    pub fn weights(&self) -> &'static Weights {
        self.weights
    }

    /// Scores this position (and the positions played from it) with other weights.
    pub fn set_weights(&mut self, weights: &'static Weights) {
        self.weights = weights;
    }

    /// Makes room so that `plies` more moves do not allocate.
    pub fn reserve_history(&mut self, plies: usize) {
        self.history.reserve(plies);
    }

    // ----- attacks ---------------------------------------------------------------------

    /// Squares a piece of `kind` on `sq` attacks (could capture on) with blockers `occ`.
    /// A combatant attacks only its diagonal neighbours.
    #[inline(always)]
    pub fn attacks_of(kind: PieceKind, sq: Square, occ: u64) -> u64 {
        match kind {
            PieceKind::King => KING[sq.index()],
            PieceKind::Rook => rook_attacks(sq, occ),
            PieceKind::Bishop => bishop_attacks(sq, occ),
            PieceKind::Knight => KNIGHT[sq.index()],
            PieceKind::Squire => SQUIRE[sq.index()],
            PieceKind::Combatant => COMBATANT_CAPTURES[sq.index()],
        }
    }

    /// Pieces of both colours that attack `sq` with blockers `occ` (every attack set is
    /// symmetric, so each is looked up from `sq`).
    #[inline(always)]
    pub fn all_attackers_to(&self, sq: Square, occ: u64) -> u64 {
        let i = sq.index();
        (KING[i] & self.pieces_kind(PieceKind::King))
            | (KNIGHT[i] & self.pieces_kind(PieceKind::Knight))
            | (SQUIRE[i] & self.pieces_kind(PieceKind::Squire))
            | (COMBATANT_CAPTURES[i] & self.pieces_kind(PieceKind::Combatant))
            | (rook_attacks(sq, occ) & self.pieces_kind(PieceKind::Rook))
            | (bishop_attacks(sq, occ) & self.pieces_kind(PieceKind::Bishop))
    }

    /// `by`'s pieces that attack `sq` on the current board.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color) -> u64 {
        self.all_attackers_to(sq, self.occupied) & self.by_color[by.index()]
    }

    /// Whether `color`'s king is attacked (false when it has no king).
    #[inline(always)]
    pub fn king_attacked(&self, color: Color) -> bool {
        match self.king_square(color) {
            Some(k) => self.attackers_to(k, color.flip()) != 0,
            None => false,
        }
    }

    /// Whether the side to move's king is attacked: the enemy threatens to capture it.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    /// Whether after `m` (legal here) the enemy king is attacked: by the moved piece, a
    /// slider it uncovers, or a piece that attacked it already. A move that captures the
    /// king is not a check: it wins.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let Some(k) = self.king_square(self.side.flip()) else {
            return false;
        };
        if k == to {
            return false;
        }
        let occ = (self.occupied & !from.bb()) | to.bb();
        if Self::attacks_of(piece.kind(), to, occ) & k.bb() != 0 {
            return true;
        }
        let others = self.by_color[self.side.index()] & !from.bb();
        self.all_attackers_to(k, occ) & others != 0
    }

    // ----- end of game -----------------------------------------------------------------

    /// Whether only the two kings are on the board.
    #[inline(always)]
    pub fn kings_only(&self) -> bool {
        self.occupied.count_ones() == 2 && self.pieces_kind(PieceKind::King).count_ones() == 2
    }

    /// The game's end by the rules other than "no move": a captured king first (a king
    /// captured on the 100th ply still wins), then the two draws.
    #[inline(always)]
    pub fn end_by_rule(&self) -> Option<End> {
        if !self.has_king(self.side) {
            return Some(End::KingCaptured {
                winner: self.side.flip(),
            });
        }
        if self.kings_only() {
            return Some(End::KingsOnly);
        }
        if self.ply >= PLY_LIMIT {
            return Some(End::PlyLimit);
        }
        None
    }

    /// Whether the position occurred before, at most `max_back` plies ago, with no
    /// capture (or null move) since. The game has no repetition rule, but the search
    /// scores a repetition inside its tree as a draw: a side that can force a cycle can
    /// keep cycling until the 100-ply limit. (It also stops endless check-and-evade
    /// cycles in the quiescence search.)
    #[inline]
    pub fn repeats(&self, max_back: usize) -> bool {
        let n = self.history.len();
        let reach = (self.halfmove as usize).min(n).min(max_back);
        let board_key = self.key ^ ply_key(self.ply);
        let mut d = 4;
        while d <= reach {
            let past = &self.history[n - d];
            if past.key ^ ply_key(self.ply - d as u32) == board_key {
                return true;
            }
            d += 2;
        }
        false
    }

    /// How the game stands: `None` while it goes on.
    pub fn end(&self) -> Option<End> {
        self.end_by_rule().or_else(|| {
            let mut list = crate::movelist::MoveList::new();
            self.generate(crate::game::GenType::All, &mut list);
            list.is_empty().then_some(End::NoMoves { loser: self.side })
        })
    }

    // ----- make / unmake ---------------------------------------------------------------

    #[inline(always)]
    fn add_piece(&mut self, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.board[sq.index()] = Some(piece);
        self.by_piece[piece.index()] |= b;
        self.by_color[piece.color().index()] |= b;
        self.occupied |= b;
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        let b = sq.bb();
        self.board[sq.index()] = None;
        self.by_piece[piece.index()] &= !b;
        self.by_color[piece.color().index()] &= !b;
        self.occupied &= !b;
    }

    #[inline(always)]
    fn shift_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let b = from.bb() | to.bb();
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        self.by_piece[piece.index()] ^= b;
        self.by_color[piece.color().index()] ^= b;
        self.occupied ^= b;
    }

    /// Plays a legal move.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()];
        debug_assert!(
            piece.is_some_and(|p| p.color() == self.side),
            "{m} in {self:?}"
        );
        let captured = self.board[to.index()];
        self.history.push(Undo {
            captured,
            halfmove: self.halfmove,
            key: self.key,
        });
        let mut key = self.key ^ ply_key(self.ply) ^ BLACK_TO_MOVE;
        if let Some(c) = captured {
            self.remove_piece(c, to);
            key ^= PIECE_SQUARE[c.index()][to.index()];
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if let Some(p) = piece {
            self.shift_piece(p, from, to);
            key ^= PIECE_SQUARE[p.index()][from.index()] ^ PIECE_SQUARE[p.index()][to.index()];
        }
        self.side = self.side.flip();
        self.ply += 1;
        self.key = key ^ ply_key(self.ply);
    }

    /// Takes back the last move, `m`.
    #[inline]
    pub fn unmake_move(&mut self, m: Move) {
        let Some(u) = self.history.pop() else {
            debug_assert!(false, "unmake without make");
            return;
        };
        let (from, to) = (m.from(), m.to());
        if let Some(p) = self.board[to.index()] {
            self.shift_piece(p, to, from);
        }
        if let Some(c) = u.captured {
            self.add_piece(c, to);
        }
        self.side = self.side.flip();
        self.ply -= 1;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    /// Passes the turn (search only).
    #[inline]
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            captured: None,
            halfmove: self.halfmove,
            key: self.key,
        });
        self.key ^= ply_key(self.ply) ^ BLACK_TO_MOVE;
        self.side = self.side.flip();
        // Repetition detection looks back no further than this counter: never across
        // a null move.
        self.halfmove = 0;
        self.ply += 1;
        self.key ^= ply_key(self.ply);
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null_move(&mut self) {
        let Some(u) = self.history.pop() else {
            debug_assert!(false, "unmake without make");
            return;
        };
        self.side = self.side.flip();
        self.ply -= 1;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    /// Checks that the bitboards, mailbox and key agree (tests).
    pub fn is_consistent(&self) -> bool {
        let mut by_piece = [0u64; 12];
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                by_piece[p.index()] |= 1 << i;
            }
        }
        let white: u64 = by_piece[..6].iter().fold(0, |a, b| a | b);
        let black: u64 = by_piece[6..].iter().fold(0, |a, b| a | b);
        by_piece == self.by_piece
            && self.by_color == [white, black]
            && self.occupied == white | black
            && self.key == self.compute_key()
    }
}
