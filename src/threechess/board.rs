//! The position: a mailbox of 96 squares, a set of occupied squares per player, the
//! player to move, the Zobrist key, the game's state, and an undo stack for make/unmake.

use super::geometry::castle_from;
use super::types::{squares_of, Kind, Move, Piece, Player, Square, Squares};
use super::zobrist;

/// Whether a king has been captured (the game ends there).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Status {
    /// Every king is on the board.
    Ongoing,
    /// `capturer` took `victim`'s king: the game is over.
    KingCaptured {
        /// Who took the king (scores +1).
        capturer: Player,
        /// Whose king it was (scores −1).
        victim: Player,
    },
}

/// What make/unmake needs to take a move back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    /// The piece that moved, before any promotion.
    moved: Piece,
    captured: Option<Piece>,
    side: Player,
    status: Status,
    key: u64,
}

/// A ThreeChess position with its move history (for unmake).
#[derive(Clone, Debug)]
pub struct Board {
    squares: [Option<Piece>; 96],
    occupied: [Squares; 3],
    /// Squares of each kind of piece, all players together.
    by_kind: [Squares; 6],
    kings: [Option<Square>; 3],
    side: Player,
    key: u64,
    status: Status,
    /// Reference value (P 1 … K 40) of the pieces each player has captured.
    captured_value: [i32; 3],
    plies: u32,
    ply_limit: Option<u32>,
    undo: Vec<Undo>,
}

impl Board {
    /// An empty board, Blue to move (build positions with [`Board::put`]).
    pub fn empty() -> Board {
        Board {
            squares: [None; 96],
            occupied: [0; 3],
            by_kind: [0; 6],
            kings: [None; 3],
            side: Player::Blue,
            key: zobrist::SIDE[0],
            status: Status::Ongoing,
            captured_value: [0; 3],
            plies: 0,
            ply_limit: None,
            undo: Vec::new(),
        }
    }

    /// The start position: each player's R N B Q K B N R on its rank 1 (queen on D, king
    /// on E) and pawns on its rank 2; Blue to move.
    pub fn startpos() -> Board {
        let mut b = Board::empty();
        let back = [
            Kind::Rook,
            Kind::Knight,
            Kind::Bishop,
            Kind::Queen,
            Kind::King,
            Kind::Bishop,
            Kind::Knight,
            Kind::Rook,
        ];
        for p in Player::ALL {
            for (file, kind) in back.into_iter().enumerate() {
                b.put(Square::at(p, 0, file as u8), Piece::new(p, kind));
                b.put(Square::at(p, 1, file as u8), Piece::new(p, Kind::Pawn));
            }
        }
        b
    }

    /// Places a piece on an empty square (position set-up; not a move).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        self.add(sq, piece);
    }

    /// Sets the player to move (position set-up, and the best-reply search's passes).
    #[inline(always)]
    pub fn set_side_to_move(&mut self, p: Player) {
        self.key ^= zobrist::SIDE[self.side.index()] ^ zobrist::SIDE[p.index()];
        self.side = p;
    }

    /// Sets the game state and plies played (position set-up from a FEN).
    pub(crate) fn set_state(&mut self, status: Status, plies: u32) {
        self.status = status;
        self.plies = plies;
    }

    /// Sets an optional ply limit: at `limit` plies played the game is drawn (all 0).
    pub fn set_ply_limit(&mut self, limit: Option<u32>) {
        self.ply_limit = limit;
    }

    /// The ply limit, if any.
    pub fn ply_limit(&self) -> Option<u32> {
        self.ply_limit
    }

    #[inline(always)]
    fn add(&mut self, sq: Square, piece: Piece) {
        self.squares[sq.index()] = Some(piece);
        self.occupied[piece.player().index()] |= sq.bit();
        self.by_kind[piece.kind().index()] |= sq.bit();
        self.key ^= zobrist::PIECE_SQUARE[piece.index()][sq.index()];
        if piece.kind() == Kind::King {
            self.kings[piece.player().index()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.squares[sq.index()] = None;
        self.occupied[piece.player().index()] &= !sq.bit();
        self.by_kind[piece.kind().index()] &= !sq.bit();
        self.key ^= zobrist::PIECE_SQUARE[piece.index()][sq.index()];
        if piece.kind() == Kind::King && self.kings[piece.player().index()] == Some(sq) {
            self.kings[piece.player().index()] = None;
        }
    }

    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// The squares a player's pieces stand on.
    #[inline(always)]
    pub fn occupied_by(&self, p: Player) -> Squares {
        self.occupied[p.index()]
    }

    /// The squares of a kind of piece (every player's).
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: Kind) -> Squares {
        self.by_kind[kind.index()]
    }

    /// The squares of a player's pieces of a kind.
    #[inline(always)]
    pub fn pieces(&self, p: Player, kind: Kind) -> Squares {
        self.occupied[p.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Squares {
        self.occupied[0] | self.occupied[1] | self.occupied[2]
    }

    /// Where a player's king stands (`None` once captured).
    #[inline(always)]
    pub fn king(&self, p: Player) -> Option<Square> {
        self.kings[p.index()]
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// Zobrist key: pieces and the player to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether a king has been captured.
    #[inline(always)]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game is over by a king capture or the ply limit (a player without a
    /// legal move is found by the move generator, see [`Board::ending`]).
    #[inline(always)]
    pub fn finished(&self) -> bool {
        self.status != Status::Ongoing || self.ply_limit.is_some_and(|l| self.plies >= l)
    }

    /// Plies played since the start (or as the FEN said).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Moves made on this board and not taken back, oldest first.
    pub fn history(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    /// Number of moves on the undo stack.
    pub fn history_len(&self) -> usize {
        self.undo.len()
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
    }

    /// The reference's material score of a player (its pieces on the board plus those it
    /// captured on this board, at P 1, N 3, B 3, R 5, Q 9, K 40): what decides a time-out.
    pub fn reference_score(&self, p: Player) -> i32 {
        let on_board: i32 = squares_of(self.occupied[p.index()])
            .filter_map(|sq| self.piece_at(sq))
            .map(|pc| pc.kind().reference_value())
            .sum();
        on_board + self.captured_value[p.index()]
    }

    /// Makes room so that `plies` more moves allocate nothing.
    pub fn reserve(&mut self, plies: usize) {
        self.undo.reserve(plies);
    }

    /// Whether the move is a castling: the king from its own E1 to its own C1 or G1.
    #[inline(always)]
    fn is_castling(piece: Piece, m: Move) -> bool {
        let p = piece.player();
        piece.kind() == Kind::King
            && m.from() == castle_from(p)
            && m.to().section() == p
            && m.to().rank() == 0
            && (m.to().file() == 2 || m.to().file() == 6)
    }

    /// The rook's corner and target square of a castling to `king_to`.
    #[inline(always)]
    fn castling_rook(king_to: Square) -> (Square, Square) {
        let p = king_to.section();
        if king_to.file() == 6 {
            (Square::at(p, 0, 7), Square::at(p, 0, 5))
        } else {
            (Square::at(p, 0, 0), Square::at(p, 0, 3))
        }
    }

    /// Plays a move from the generator (a legal move of the player to move). A pawn
    /// reaching another colour's rank 1 becomes a queen; a captured king ends the game.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.squares[from.index()] else {
            debug_assert!(false, "make_move {m}: no piece on the start square");
            return;
        };
        let captured = self.squares[to.index()];
        self.undo.push(Undo {
            mv: m,
            moved: piece,
            captured,
            side: self.side,
            status: self.status,
            key: self.key,
        });
        self.remove(from, piece);
        if let Some(victim) = captured {
            self.remove(to, victim);
            self.captured_value[self.side.index()] += victim.kind().reference_value();
            if victim.kind() == Kind::King {
                self.status = Status::KingCaptured {
                    capturer: piece.player(),
                    victim: victim.player(),
                };
            }
        }
        let promoted =
            piece.kind() == Kind::Pawn && to.rank() == 0 && to.section() != piece.player();
        let placed = if promoted {
            Piece::new(piece.player(), Kind::Queen)
        } else {
            piece
        };
        self.add(to, placed);
        if Self::is_castling(piece, m) {
            let (corner, target) = Self::castling_rook(to);
            if let Some(rook) = self.squares[corner.index()] {
                self.remove(corner, rook);
                self.add(target, rook);
            }
        }
        let next = self.side.next();
        self.set_side_to_move(next);
        self.plies += 1;
    }

    /// Takes back the last move made with [`Board::make_move`].
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(u) = self.undo.pop() else {
            debug_assert!(false, "unmake_move with an empty history");
            return;
        };
        let (from, to) = (u.mv.from(), u.mv.to());
        if Self::is_castling(u.moved, u.mv) {
            let (corner, target) = Self::castling_rook(to);
            if let Some(rook) = self.squares[target.index()] {
                self.remove(target, rook);
                self.add(corner, rook);
            }
        }
        if let Some(placed) = self.squares[to.index()] {
            self.remove(to, placed);
        }
        if let Some(victim) = u.captured {
            self.add(to, victim);
            self.captured_value[u.side.index()] -= victim.kind().reference_value();
        }
        self.add(from, u.moved);
        self.side = u.side;
        self.status = u.status;
        self.key = u.key;
        self.plies -= 1;
    }

    /// The key computed from scratch (for tests of the incremental key).
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = zobrist::SIDE[self.side.index()];
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                k ^= zobrist::PIECE_SQUARE[p.index()][sq.index()];
            }
        }
        k
    }

    /// Everything that defines the position (pieces, player to move, state, key), for
    /// tests that make/unmake restores it.
    pub fn snapshot(&self) -> impl PartialEq + std::fmt::Debug {
        (
            self.squares,
            self.occupied,
            self.by_kind,
            self.kings,
            self.side,
            self.key,
            self.status,
            self.captured_value,
            self.plies,
        )
    }
}
