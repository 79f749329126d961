//! The Baroque position: bitboards + mailbox, side to move, FEN counters, incremental
//! Zobrist key, and make/unmake with an undo stack.

use super::board::Board;
use super::captures::{can_capture, captured_by};
use super::eval::{Params, DEFAULT_PARAMS};
use super::types::{Color, Move, Piece, PieceKind, Square};
use super::zobrist::{BLACK_TO_MOVE, PIECE_SQUARE};

/// The game master's turn limit (D14): after this many plies the game is drawn.
pub const MOVE_LIMIT_PLIES: u32 = 5000;

/// Room reserved in the undo stack so that a search never reallocates it.
pub const UNDO_RESERVE: usize = 1024;

/// What unmake needs: the previous counters and key, and the captured pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo {
    key: u64,
    halfmove: u32,
    fullmove: u32,
    /// Captured pieces (square, piece); a pincer takes at most 3.
    captured: [(Square, Piece); 3],
    n_captured: u8,
    in_check: bool,
}

/// A Baroque position with the undo information of the moves made since it was set up.
#[derive(Clone)]
pub struct Position {
    board: Board,
    mailbox: [Option<Piece>; 64],
    side: Color,
    key: u64,
    /// Plies since the last capture (FEN field 5).
    halfmove: u32,
    /// FEN field 6.
    fullmove: u32,
    undo: Vec<Undo>,
    /// The evaluation's weights (the defaults, or a variant under test in self-play).
    params: &'static Params,
    /// Whether the side to move's king can be captured now (kept up to date by make and
    /// unmake: the search asks at every node, several times).
    in_check: bool,
}

impl PartialEq for Position {
    /// Same placement, side and counters (the undo history is not compared).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.mailbox == other.mailbox
            && self.side == other.side
            && self.key == other.key
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.in_check == other.in_check
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Position {
    /// An empty board, White to move, counters 0 and 1 (set-up only).
    pub(crate) fn empty() -> Position {
        Position {
            board: Board::default(),
            mailbox: [None; 64],
            side: Color::White,
            key: 0,
            halfmove: 0,
            fullmove: 1,
            undo: Vec::with_capacity(UNDO_RESERVE),
            params: &DEFAULT_PARAMS,
            in_check: false,
        }
    }

    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
    }

    /// Puts a piece on an empty square (set-up only; [`Position::finish_setup`] fixes
    /// the key).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.mailbox[sq.index()].is_none());
        self.mailbox[sq.index()] = Some(piece);
        self.board.add(piece, sq);
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(crate) fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// Computes the key from scratch after set-up.
    pub(crate) fn finish_setup(&mut self) {
        self.key = self.compute_key();
        self.in_check = self.compute_in_check();
    }

    /// The Zobrist key computed from the placement and side (for tests of the
    /// incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == Color::Black {
            BLACK_TO_MOVE
        } else {
            0
        };
        for (i, p) in self.mailbox.iter().enumerate() {
            if let Some(p) = p {
                k ^= PIECE_SQUARE[p.index()][i];
            }
        }
        k
    }

    /// The evaluation weights this position is evaluated with.
    #[inline(always)]
    pub fn eval_params(&self) -> &'static Params {
        self.params
    }

    /// Evaluates with other weights from now on (self-play tuning); they are leaked
    /// once by the caller (`Box::leak`) and shared by every copy of the position.
    pub fn set_eval_params(&mut self, params: &'static Params) {
        self.params = params;
    }

    /// The bitboards.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key (placement and side to move).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Move number (FEN field 6).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Plies played in the game by the FEN counters: 2·(fullmove − 1) + (Black to move)
    /// (section 9.4).
    #[inline(always)]
    pub fn plies_played(&self) -> u32 {
        2 * (self.fullmove - 1) + self.side.index() as u32
    }

    /// Moves made since the position was set up (and not taken back).
    pub fn moves_made(&self) -> usize {
        self.undo.len()
    }

    /// Makes room for `plies` more moves without allocating.
    pub fn reserve_history(&mut self, plies: usize) {
        self.undo.reserve(plies);
    }

    /// The king of `color`, if on the board.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.king(color)
    }

    /// Whether a king is missing: the game is over and nobody moves (9.1, D15).
    #[inline(always)]
    pub fn king_missing(&self) -> bool {
        self.board.of(Color::White, PieceKind::King) == 0
            || self.board.of(Color::Black, PieceKind::King) == 0
    }

    /// Whether the move limit is reached (D14).
    #[inline(always)]
    pub fn move_limit_reached(&self) -> bool {
        self.plies_played() >= MOVE_LIMIT_PLIES
    }

    /// The pieces of `color` that are frozen.
    #[inline(always)]
    pub fn frozen(&self, color: Color) -> super::bitboard::Bitboard {
        self.board.frozen(color)
    }

    /// Whether the side to move's king could be captured by the opponent's next move
    /// (false when a king is missing).
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// [`Position::in_check`] computed from the board.
    pub fn compute_in_check(&self) -> bool {
        match self.king(self.side) {
            Some(k) if !self.king_missing() => {
                can_capture(&self.board, k, PieceKind::King, self.side.flip())
            }
            _ => false,
        }
    }

    /// The enemy pieces the (legal) move `m` removes.
    #[inline(always)]
    pub fn captures_of(&self, m: Move) -> super::bitboard::Bitboard {
        match self.piece_at(m.from()) {
            Some(p) => captured_by(&self.board, self.side, p.kind(), m),
            None => 0,
        }
    }

    /// The board after the (legal) move `m`, and what it captured.
    #[inline(always)]
    pub fn board_after(&self, m: Move) -> (Board, super::bitboard::Bitboard) {
        let mut b = self.board;
        let Some(p) = self.piece_at(m.from()) else {
            return (b, 0);
        };
        let caught = captured_by(&self.board, self.side, p.kind(), m);
        b.remove_set(self.side.flip(), caught);
        b.shift_piece(p, m.from(), m.to());
        (b, caught)
    }

    /// Plays a legal move: removes its captures, moves the piece, updates the counters
    /// (section 12, step 4).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        self.make_move_keeping_check(m);
        self.in_check = self.compute_in_check();
    }

    /// [`Position::make_move`] without updating [`Position::in_check`], which is left
    /// stale until the move is taken back: for perft, which never asks.
    pub(crate) fn make_move_keeping_check(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.mailbox[from.index()] else {
            debug_assert!(false, "make_move {m}: no piece on {from}");
            return;
        };
        let caught = captured_by(&self.board, self.side, piece.kind(), m);
        let mut u = Undo {
            key: self.key,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            captured: [(from, piece); 3],
            n_captured: 0,
            in_check: self.in_check,
        };
        let mut rest = caught;
        while rest != 0 {
            let sq = Square::from_index(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            if let Some(victim) = self.mailbox[sq.index()] {
                self.board.remove(victim, sq);
                self.mailbox[sq.index()] = None;
                self.key ^= PIECE_SQUARE[victim.index()][sq.index()];
                if (u.n_captured as usize) < u.captured.len() {
                    u.captured[u.n_captured as usize] = (sq, victim);
                    u.n_captured += 1;
                }
            }
        }
        self.board.shift_piece(piece, from, to);
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        self.key ^= PIECE_SQUARE[piece.index()][from.index()]
            ^ PIECE_SQUARE[piece.index()][to.index()]
            ^ BLACK_TO_MOVE;
        self.halfmove = if caught != 0 { 0 } else { self.halfmove + 1 };
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.undo.push(u);
    }

    /// Takes back the last move, which was `m`.
    pub fn unmake_move(&mut self, m: Move) {
        let Some(u) = self.undo.pop() else {
            debug_assert!(false, "unmake_move {m} without a move made");
            return;
        };
        self.side = self.side.flip();
        let (from, to) = (m.from(), m.to());
        if let Some(piece) = self.mailbox[to.index()] {
            self.board.shift_piece(piece, to, from);
            self.mailbox[to.index()] = None;
            self.mailbox[from.index()] = Some(piece);
        }
        for &(sq, victim) in &u.captured[..u.n_captured as usize] {
            self.board.add(victim, sq);
            self.mailbox[sq.index()] = Some(victim);
        }
        self.key = u.key;
        self.halfmove = u.halfmove;
        self.fullmove = u.fullmove;
        self.in_check = u.in_check;
    }

    /// Passes the turn (search only).
    pub fn make_null_move(&mut self) {
        self.undo.push(Undo {
            key: self.key,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            captured: [(
                Square::from_index(0),
                Piece::new(Color::White, PieceKind::King),
            ); 3],
            n_captured: 0,
            in_check: self.in_check,
        });
        self.key ^= BLACK_TO_MOVE;
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.in_check = self.compute_in_check();
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        if let Some(u) = self.undo.pop() {
            self.side = self.side.flip();
            self.key = u.key;
            self.halfmove = u.halfmove;
            self.fullmove = u.fullmove;
            self.in_check = u.in_check;
        }
    }

    /// Whether the mailbox, bitboards and key agree (for tests).
    pub fn is_consistent(&self) -> bool {
        let mut b = Board::default();
        for (i, p) in self.mailbox.iter().enumerate() {
            if let Some(p) = p {
                b.add(*p, Square::from_index(i));
            }
        }
        b == self.board
            && self.key == self.compute_key()
            && self.in_check == self.compute_in_check()
            && (self.board.colors[0] & self.board.colors[1]) == 0
            && self.board.occ == (self.board.colors[0] | self.board.colors[1])
            && Color::ALL
                .iter()
                .all(|&c| self.board.of(c, PieceKind::King).count_ones() <= 1)
    }

    /// The position with colours swapped and ranks mirrored (the same game seen from the
    /// other side); counters kept, except that the move number keeps the ply count
    /// parity sensible (the side to move is swapped).
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty();
        for (i, piece) in self.mailbox.iter().enumerate() {
            if let Some(piece) = piece {
                let sq = Square::from_index(i).flip_rank();
                p.put(Piece::new(piece.color().flip(), piece.kind()), sq);
            }
        }
        p.side = self.side.flip();
        p.halfmove = self.halfmove;
        p.fullmove = self.fullmove;
        p.params = self.params;
        p.finish_setup();
        p
    }
}
