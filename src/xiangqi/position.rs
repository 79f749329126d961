//! The Xiangqi position: mailbox + bitboards, incremental Zobrist key, make/unmake.
//!
//! Both representations are kept in step: the mailbox answers "what is on this square"
//! (make/unmake, SEE, display), the bitboards answer set questions (move generation,
//! attacks). A `u16` occupancy word per file feeds the file lookups of chariots and cannons.

use super::attacks::{
    cannon_captures, chariot_attacks, horse_attackers, line_attackers, ADVISOR_STEPS,
    ELEPHANT_MOVES, KING_STEPS, SOLDIER_ATTACKERS,
};
use super::bitboard::Bitboard;
use super::nnue::AccumulatorStack;
use super::rules::FREE_CHECKS;
use super::types::{Color, Move, Piece, PieceKind, Square};
use super::zobrist;

/// What make_move must remember to unmake, plus per-ply facts the rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// Zobrist key of the position.
    pub key: u64,
    /// Pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// Plies since the last capture, every ply counted (what FEN field 5 holds; how far
    /// back a repetition can reach).
    pub rule60: u16,
    /// The 60-move rule's count: plies since the last capture, except that a side's checks
    /// beyond its tenth since that capture, and the replies to them, do not advance it.
    pub rule60_count: u16,
    /// Checks given by Red and by Black since the last capture.
    pub checks: [u8; 2],
    /// The piece the move into this position captured.
    pub captured: Option<Piece>,
    /// The move that led here (`None` at the root of the game or after a null move).
    pub last_move: Option<Move>,
    /// Plies since the FEN or the last null move: how far back repetitions can reach.
    pub plies_from_null: u16,
}

/// Room reserved in the history so that a search never reallocates it.
pub const HISTORY_RESERVE: usize = 1024;

/// A Xiangqi position with its game history since the last FEN.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_piece: [Bitboard; 14],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    /// Occupancy of each file, bit `r` = rank `r`.
    file_occ: [u16; 9],
    king: [Square; 2],
    side: Color,
    st: StateInfo,
    /// States before each move made since the FEN, oldest first.
    history: Vec<StateInfo>,
    /// Full-move number of the FEN this position was set up from.
    start_fullmove: u32,
    /// The network's accumulators, kept up to date by make/unmake while a search uses the
    /// learned evaluation (`None`: the hand-written one).
    nnue: Option<Box<AccumulatorStack>>,
    /// The rules the game is played by (default: Asian).
    rule_set: super::house_rules::RuleSet,
    /// Whether searches of this position evaluate with the network (`UseNNUE`) or the
    /// hand-written evaluation; read once when a search starts.
    use_network: bool,
}

impl Position {
    /// An empty board with Red to move (not a legal position: used while parsing FEN).
    pub(crate) fn empty() -> Position {
        Position {
            board: [None; 90],
            by_piece: [Bitboard::EMPTY; 14],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            file_occ: [0; 9],
            king: [Square::from_index_unchecked(0); 2],
            side: Color::Red,
            st: StateInfo {
                key: 0,
                checkers: Bitboard::EMPTY,
                rule60: 0,
                rule60_count: 0,
                checks: [0; 2],
                captured: None,
                last_move: None,
                plies_from_null: 0,
            },
            history: Vec::with_capacity(HISTORY_RESERVE),
            start_fullmove: 1,
            nnue: None,
            rule_set: super::house_rules::RuleSet::Asian,
            use_network: super::nnue::DEFAULT_ENABLED,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::START_FEN).expect("the start FEN is valid")
    }

    /// Puts a piece on an empty square (set-up only: the key and state are fixed up by
    /// [`Position::finish_setup`]).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.board[sq.index()].is_none());
        let bb = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(piece);
        self.by_piece[piece.index()] |= bb;
        self.by_color[piece.color().index()] |= bb;
        self.occupied |= bb;
        self.file_occ[sq.file() as usize] |= 1 << sq.rank();
        if piece.kind() == PieceKind::King {
            self.king[piece.color().index()] = sq;
        }
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(crate) fn set_counters(&mut self, rule60: u16, fullmove: u32) {
        self.st.rule60 = rule60;
        self.st.rule60_count = rule60;
        self.st.checks = [0; 2];
        self.start_fullmove = fullmove.max(1);
    }

    /// Computes the key and checkers from scratch after set-up.
    pub(crate) fn finish_setup(&mut self) {
        self.st.key = self.compute_key();
        self.st.checkers = self.attackers_to(self.king_square(self.side), self.side.flip());
        self.st.plies_from_null = 0;
        self.history.clear();
    }

    /// The key computed from the pieces, ignoring the incremental one (for tests and setup).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                key ^= zobrist::PIECE_SQUARE[p.index()][i];
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    // ----- accessors -------------------------------------------------------------------

    /// The rules the game is played by.
    #[inline(always)]
    pub fn rule_set(&self) -> super::house_rules::RuleSet {
        self.rule_set
    }

    /// Plays the game by other rules from now on.
    pub fn set_rule_set(&mut self, rules: super::house_rules::RuleSet) {
        self.rule_set = rules;
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }

    /// The piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Squares of `color`'s pieces.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares of one piece (colour and kind).
    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.by_piece[piece.index()]
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_ck(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_piece[color.index() * 7 + kind.index()]
    }

    /// Squares of both colours' pieces of `kind`.
    #[inline(always)]
    pub fn pieces_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_piece[kind.index()] | self.by_piece[kind.index() + 7]
    }

    /// Occupancy word of file `f` (bit `r` = rank `r`).
    #[inline(always)]
    pub fn file_occupancy(&self, f: u8) -> u16 {
        self.file_occ[f as usize]
    }

    /// Square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color.index()]
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }

    /// Plies since the last capture (every ply counted; FEN field 5).
    #[inline(always)]
    pub fn rule60(&self) -> u16 {
        self.st.rule60
    }

    /// The 60-move rule's count: plies since the last capture, not counting a side's checks
    /// beyond its tenth nor the replies to them. The game is drawn when it reaches
    /// [`super::rules::RULE60_PLIES`].
    #[inline(always)]
    pub fn rule60_count(&self) -> u16 {
        self.st.rule60_count
    }

    /// Checks `color` has given since the last capture (since the FEN if none was made).
    #[inline(always)]
    pub fn checks_given(&self, color: Color) -> u8 {
        self.st.checks[color.index()]
    }

    /// The current state record.
    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        &self.st
    }

    /// States of the earlier positions since the FEN, oldest first; the last entry is the
    /// position just before the current one.
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// Number of moves made since the FEN.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// Full-move number (as FEN counts it) of the current position.
    pub fn fullmove(&self) -> u32 {
        let red_first = if self.history.len().is_multiple_of(2) {
            self.side == Color::Red
        } else {
            self.side == Color::Black
        };
        // Moves made from the FEN; the number advances after each Black move.
        let plies = self.history.len() as u32 + if red_first { 0 } else { 1 };
        self.start_fullmove + plies / 2
    }

    /// Makes sure `extra` more moves can be made without reallocating the history.
    pub fn reserve_history(&mut self, extra: usize) {
        self.history.reserve(extra);
    }

    /// Chooses the evaluation of the searches of this position (and of the positions
    /// played from it): the network (true) or the hand-written one.
    pub fn set_use_network(&mut self, on: bool) {
        self.use_network = on;
    }

    /// Whether searches of this position evaluate with the network.
    pub fn uses_network(&self) -> bool {
        self.use_network
    }

    /// Switches the learned evaluation on (accumulators computed now, with room for
    /// `plies` moves) or off.
    pub fn set_nnue(&mut self, on: bool, plies: usize) {
        self.nnue = on.then(|| Box::new(AccumulatorStack::new(self, plies)));
    }

    /// The network's accumulators, when the learned evaluation is on.
    #[inline(always)]
    pub fn nnue(&self) -> Option<&AccumulatorStack> {
        self.nnue.as_deref()
    }

    /// Forgets the game history (keeps the position): the current position becomes the
    /// root of the game record.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.st.plies_from_null = 0;
    }

    /// Forgets the game history and releases its reserved memory, for keeping many
    /// positions (a tuning data set). Making moves afterwards reallocates it.
    pub fn shrink_history(&mut self) {
        self.clear_history();
        self.history = Vec::new();
    }

    // ----- attacks ---------------------------------------------------------------------

    /// Pieces of colour `by` that attack `sq` as a king-capturing threat: chariots, the
    /// king along a file (flying general), cannons, horses and soldiers. Advisors and
    /// elephants never reach the other palace, so they are left out here.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        let occ = self.occupied;
        let fo = self.file_occ[sq.file() as usize];
        let rooks = self.pieces_ck(by, PieceKind::Chariot) | self.pieces_ck(by, PieceKind::King);
        (chariot_attacks(sq, occ, fo) & rooks)
            | (cannon_captures(sq, occ, fo) & self.pieces_ck(by, PieceKind::Cannon))
            | (horse_attackers(sq, occ) & self.pieces_ck(by, PieceKind::Horse))
            | (SOLDIER_ATTACKERS[by.index()][sq.index()] & self.pieces_ck(by, PieceKind::Soldier))
    }

    /// Every piece of colour `by` attacking `sq` with occupancy `occ` (advisors, elephants
    /// and the king's step included), for exchanges and threat detection. Chariot and
    /// cannon lines are read from `occ` ray by ray, so `occ` may differ from the board.
    pub fn all_attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        // Only chariots and cannons attack along the lines (the king's line attack is
        // not a capture it can make).
        let mut att = line_attackers(
            sq,
            occ,
            self.pieces_ck(by, PieceKind::Chariot) & occ,
            self.pieces_ck(by, PieceKind::Cannon) & occ,
        );
        att |= horse_attackers(sq, occ) & self.pieces_ck(by, PieceKind::Horse);
        att |= SOLDIER_ATTACKERS[by.index()][sq.index()] & self.pieces_ck(by, PieceKind::Soldier);
        att |= ADVISOR_STEPS[sq.index()] & self.pieces_ck(by, PieceKind::Advisor);
        att |= KING_STEPS[sq.index()] & self.pieces_ck(by, PieceKind::King);
        for entry in &ELEPHANT_MOVES[sq.index()] {
            if (occ & entry.mask).is_empty() {
                att |= entry.targets & self.pieces_ck(by, PieceKind::Elephant);
            }
        }
        att & occ
    }

    /// Whether the king of `color` would be attacked on `ksq` given occupancy `occ` and
    /// enemy pieces `enemy` (the board otherwise). Works for hypothetical occupancies
    /// without touching the file words: lines are tested with the `BETWEEN` table.
    #[inline(always)]
    pub(crate) fn king_attacked_with(
        &self,
        color: Color,
        ksq: Square,
        occ: Bitboard,
        enemy: Bitboard,
    ) -> bool {
        let them = color.flip();
        let k = ksq.index();
        let rooks =
            self.pieces_ck(them, PieceKind::Chariot) | self.pieces_ck(them, PieceKind::King);
        let cannons = self.pieces_ck(them, PieceKind::Cannon);
        if line_attackers(ksq, occ, rooks & enemy, cannons & enemy).any() {
            return true;
        }
        if (horse_attackers(ksq, occ) & enemy & self.pieces_ck(them, PieceKind::Horse)).any() {
            return true;
        }
        (SOLDIER_ATTACKERS[them.index()][k] & enemy & self.pieces_ck(them, PieceKind::Soldier))
            .any()
    }

    /// Whether the move, pseudo-legal in this position, leaves the mover's king safe.
    /// The exact (slower) test used for king moves and check evasions.
    #[inline]
    pub fn is_safe_after(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let ksq = if from == self.king[us.index()] {
            to
        } else {
            self.king[us.index()]
        };
        let occ = self.occupied.without(from).with(to);
        let enemy = self.by_color[us.flip().index()].without(to);
        !self.king_attacked_with(us, ksq, occ, enemy)
    }

    // ----- make / unmake ---------------------------------------------------------------

    /// Plays a legal move. Allocation-free as long as the history has spare capacity
    /// (see [`Position::reserve_history`]).
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.flip();
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "make_move {m}: no piece on {from}");
            return;
        };
        let captured = self.board[to.index()];
        self.history.push(self.st);

        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let z = &zobrist::PIECE_SQUARE;
        let mut key = self.st.key
            ^ zobrist::BLACK_TO_MOVE
            ^ z[piece.index()][from.index()]
            ^ z[piece.index()][to.index()];
        if let Some(cap) = captured {
            key ^= z[cap.index()][to.index()];
            self.by_piece[cap.index()] ^= to_bb;
            self.by_color[them.index()] ^= to_bb;
        } else {
            self.occupied ^= to_bb;
            self.file_occ[to.file() as usize] ^= 1 << to.rank();
        }
        self.occupied ^= from_bb;
        self.file_occ[from.file() as usize] ^= 1 << from.rank();
        self.by_piece[piece.index()] ^= from_bb | to_bb;
        self.by_color[us.index()] ^= from_bb | to_bb;
        self.board[to.index()] = Some(piece);
        self.board[from.index()] = None;
        if piece.kind() == PieceKind::King {
            self.king[us.index()] = to;
        }
        if let Some(n) = &mut self.nnue {
            n.push_move(piece, from, to, captured, &self.board, self.king);
        }
        self.side = them;
        let checkers = self.attackers_to(self.king[them.index()], us);
        let (rule60, rule60_count, checks) = if captured.is_some() {
            (0, 0, [0; 2])
        } else if (checkers | self.st.checkers).is_empty() {
            (
                self.st.rule60.wrapping_add(1),
                self.st.rule60_count + 1,
                self.st.checks,
            )
        } else {
            self.counters_around_check(us, checkers.any())
        };
        self.st = StateInfo {
            key,
            checkers,
            rule60,
            rule60_count,
            checks,
            captured,
            last_move: Some(m),
            plies_from_null: self.st.plies_from_null.saturating_add(1),
        };
    }

    /// The 60-move counters after a non-capturing move by `us` that gives check or answers
    /// one: a check beyond the checker's tenth since the last capture, and the reply to
    /// such a check, do not advance the rule's count.
    #[cold]
    #[inline(never)]
    fn counters_around_check(&self, us: Color, gives_check: bool) -> (u16, u16, [u8; 2]) {
        let them = us.flip();
        let mut checks = self.st.checks;
        let mut advance = !(self.st.checkers.any() && checks[them.index()] > FREE_CHECKS);
        if gives_check {
            let n = checks[us.index()].saturating_add(1);
            checks[us.index()] = n;
            advance &= n <= FREE_CHECKS;
        }
        (
            self.st.rule60.wrapping_add(1),
            self.st.rule60_count + u16::from(advance),
            checks,
        )
    }

    /// Takes back `m`, which must be the last move made.
    #[inline]
    pub fn unmake_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let them = self.side;
        let us = them.flip();
        let Some(piece) = self.board[to.index()] else {
            debug_assert!(false, "unmake_move {m}: no piece on {to}");
            return;
        };
        let captured = self.st.captured;
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        self.by_piece[piece.index()] ^= from_bb | to_bb;
        self.by_color[us.index()] ^= from_bb | to_bb;
        self.occupied ^= from_bb;
        self.file_occ[from.file() as usize] ^= 1 << from.rank();
        if let Some(cap) = captured {
            self.by_piece[cap.index()] ^= to_bb;
            self.by_color[them.index()] ^= to_bb;
        } else {
            self.occupied ^= to_bb;
            self.file_occ[to.file() as usize] ^= 1 << to.rank();
        }
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = captured;
        if piece.kind() == PieceKind::King {
            self.king[us.index()] = from;
        }
        self.side = us;
        if let Some(n) = &mut self.nnue {
            n.pop();
        }
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    /// Passes the turn (for null-move pruning; never while in check).
    #[inline]
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        self.history.push(self.st);
        if let Some(n) = &mut self.nnue {
            n.push_null();
        }
        self.side = self.side.flip();
        self.st = StateInfo {
            key: self.st.key ^ zobrist::BLACK_TO_MOVE,
            checkers: Bitboard::EMPTY,
            rule60: self.st.rule60.wrapping_add(1),
            rule60_count: self.st.rule60_count + 1,
            checks: self.st.checks,
            captured: None,
            last_move: None,
            plies_from_null: 0,
        };
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null_move(&mut self) {
        self.side = self.side.flip();
        if let Some(n) = &mut self.nnue {
            n.pop();
        }
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    /// A copy of the pieces and side to move without the game history (allocates nothing),
    /// for replaying a repetition cycle with [`Position::shift_piece`]. Its state record is
    /// a stale copy: only board queries are meaningful on it.
    pub(crate) fn board_copy(&self) -> Position {
        Position {
            history: Vec::new(),
            nnue: None,
            ..*self
        }
    }

    /// Moves the piece on `from` to the empty square `to` and passes the turn, updating
    /// the board only (no key, no state record): for replaying non-capturing moves on a
    /// [`Position::board_copy`], forwards (`shift_piece(from, to)`) and backwards
    /// (`shift_piece(to, from)`).
    pub(crate) fn shift_piece(&mut self, from: Square, to: Square) {
        let Some(piece) = self.board[from.index()] else {
            debug_assert!(false, "shift_piece: no piece on {from}");
            return;
        };
        debug_assert!(self.board[to.index()].is_none(), "shift_piece onto {to}");
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_piece[piece.index()] ^= bb;
        self.by_color[piece.color().index()] ^= bb;
        self.occupied ^= bb;
        self.file_occ[from.file() as usize] ^= 1 << from.rank();
        self.file_occ[to.file() as usize] ^= 1 << to.rank();
        self.board[to.index()] = Some(piece);
        self.board[from.index()] = None;
        if piece.kind() == PieceKind::King {
            self.king[piece.color().index()] = to;
        }
        self.side = self.side.flip();
    }

    /// Key of the position after `m`, without making it (for TT prefetch and tests).
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let z = &zobrist::PIECE_SQUARE;
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return self.st.key;
        };
        let mut key = self.st.key
            ^ zobrist::BLACK_TO_MOVE
            ^ z[piece.index()][from.index()]
            ^ z[piece.index()][to.index()];
        if let Some(cap) = self.board[to.index()] {
            key ^= z[cap.index()][to.index()];
        }
        key
    }

    /// Whether the move captures.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()].is_some()
    }

    /// Checks internal consistency (tests and debug builds): bitboards, mailbox, file
    /// words, king squares and key agree.
    pub fn is_consistent(&self) -> bool {
        let mut by_piece = [Bitboard::EMPTY; 14];
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                by_piece[p.index()] |= Bitboard::from_square(Square::from_index_unchecked(i));
            }
        }
        let red = by_piece[..7].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let black = by_piece[7..].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        by_piece == self.by_piece
            && red == self.by_color[0]
            && black == self.by_color[1]
            && (red | black) == self.occupied
            && (0..9).all(|f| self.file_occ[f] == super::attacks::file_occupancy(self.occupied, f))
            && Color::ALL.iter().all(|&c| {
                self.pieces_ck(c, PieceKind::King) == Bitboard::from_square(self.king[c.index()])
            })
            && self.st.key == self.compute_key()
            && self.st.checkers == self.attackers_to(self.king_square(self.side), self.side.flip())
    }
}

impl PartialEq for Position {
    /// Same pieces, side and counters (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.st == other.st
            && self.by_piece == other.by_piece
            && self.file_occ == other.file_occ
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
