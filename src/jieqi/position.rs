//! The Jieqi position: the board (face-up and face-down pieces), the pools of unseen
//! pieces, move generation, make/unmake and the key.
//!
//! Jieqi has its own small mailbox generator rather than Xiangqi's bitboards
//! (`src/xiangqi/`): a game may not import another game, Xiangqi's attack tables are
//! tuned for its hot path and assume palace-bound advisors and river-bound elephants,
//! and moving them down to `src/common/` would touch that hot path. A face-down piece
//! moves as its square's start piece and a revealed advisor or elephant goes anywhere,
//! which a 90-square mailbox says in a few lines.

use super::types::*;
use crate::common::KeyStream;
use crate::game::GenType;
use crate::movelist::MoveList;

const ZOBRIST: Zobrist = Zobrist::new();

struct Zobrist {
    /// By visible code (face up: `color * 7 + kind`; face down: `14 + color`) and square.
    cells: [[u64; SQUARES]; 16],
    /// By colour, kind and count in the pool.
    pool: [[[u64; 6]; 7]; 2],
    side: u64,
}

impl Zobrist {
    const fn new() -> Zobrist {
        // "jieqi" in the seed's bytes.
        let mut s = KeyStream::new(0x6a69_6571_6900_0001);
        let cells = s.piece_square::<16, SQUARES>();
        let mut pool = [[[0u64; 6]; 7]; 2];
        let mut c = 0;
        while c < 2 {
            let mut k = 0;
            while k < 7 {
                pool[c][k] = s.keys::<6>();
                k += 1;
            }
            c += 1;
        }
        Zobrist {
            cells,
            pool,
            side: s.next_key(),
        }
    }
}

#[inline(always)]
fn cell_key(c: Cell, sq: usize) -> u64 {
    let code = if is_hidden(c) {
        14 + cell_color(c) as usize
    } else {
        cell_color(c) as usize * 7 + cell_kind(c) as usize
    };
    ZOBRIST.cells[code][sq]
}

#[inline(always)]
fn pool_key(color: usize, kind: usize, count: u8) -> u64 {
    ZOBRIST.pool[color][kind][(count as usize).min(5)]
}

/// What a move changed, for unmake and the repetition scan.
#[derive(Clone, Copy, Debug)]
struct Undo {
    from: u8,
    to: u8,
    moved: Cell,
    captured: Cell,
    /// The kind the mover was revealed as and whether it came out of the pool.
    reveal: u8,
    reveal_pooled: bool,
    /// The kind the captured face-down piece was known as (taken from its pool).
    capt: u8,
    halfmove: u32,
    key: u64,
    null: bool,
    /// The 60-move rule's counters and whether the side to move was in check, before the
    /// move.
    rule60_count: u16,
    checks: [u8; 2],
    checked: bool,
}

/// A move of the game's record as the rule judge sees it ([`Position::past_move`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PastMove {
    /// The key of the position the move was made in.
    pub key_before: u64,
    pub from: usize,
    pub to: usize,
    /// Whether the move gave check.
    pub gave_check: bool,
    /// Not a null move, a capture or a reveal: a move a repetition can span.
    pub reversible: bool,
}

/// A Jieqi position as one player, or an all-seeing referee, knows it.
///
/// * **Player view** (a FEN without the assignment field, JieqiBox's own): the kinds of
///   the face-down pieces are unknown; the pool holds the pieces of each side not yet
///   seen (by the FEN's writer). A move of a face-down piece is a chance event.
/// * **Full information** (a FEN with jiang's assignment field, or [`Position::deal`]):
///   every face-down piece has a kind, known to the position and revealed when it moves.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: [Cell; SQUARES],
    pub(crate) side: Color,
    /// Unseen pieces, by colour and kind.
    pub(crate) pool: [[u8; 7]; 2],
    /// Face-down pieces captured whose kind is known, by their colour and kind.
    pub(crate) captured: [[u8; 7]; 2],
    /// Whether every face-down piece's kind is known.
    pub(crate) full: bool,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) kings: [u8; 2],
    pub(crate) key: u64,
    /// The 60-move rule's count (see `rules`): plies since the last capture, but for
    /// checks beyond a side's tenth and the replies to them.
    pub(crate) rule60_count: u16,
    /// Checks given by Red and by Black since the last capture.
    pub(crate) checks: [u8; 2],
    /// Whether the side to move is in check (kept by make and unmake).
    pub(crate) checked: bool,
    history: Vec<Undo>,
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.side == o.side
            && self.pool == o.pool
            && self.captured == o.captured
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
    }
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Horse moves as (file, rank) offsets with the leg's offset.
const HORSE: [((i32, i32), (i32, i32)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

#[inline(always)]
fn offset(sq: usize, d: (i32, i32)) -> Option<usize> {
    square(file_of(sq) + d.0, rank_of(sq) + d.1)
}

#[inline(always)]
const fn forward(color: Color) -> i32 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Calls `f(to)` for every square the piece on `from` may move to by its movement rules
/// (own pieces excluded, the king's safety not checked).
#[inline(always)]
pub(crate) fn for_targets(b: &[Cell; SQUARES], from: usize, mut f: impl FnMut(usize)) {
    let c = b[from];
    let color = cell_color(c);
    let mk = move_kind(c, from);
    let mut go = |to: usize| {
        let t = b[to];
        if t == 0 || cell_color(t) != color {
            f(to)
        }
    };
    match mk {
        0 | 5 => {
            let cannon = mk == 5;
            for d in ORTHO {
                let mut s = from;
                let mut screen = false;
                while let Some(n) = offset(s, d) {
                    s = n;
                    if b[n] == 0 {
                        if !screen {
                            go(n);
                        }
                        continue;
                    }
                    if !cannon {
                        go(n);
                        break;
                    }
                    if screen {
                        go(n);
                        break;
                    }
                    screen = true;
                }
            }
        }
        1 => {
            for (d, leg) in HORSE {
                if let (Some(to), Some(l)) = (offset(from, d), offset(from, leg)) {
                    if b[l] == 0 {
                        go(to);
                    }
                }
            }
        }
        2 => {
            for d in DIAG {
                if let (Some(to), Some(eye)) = (offset(from, (2 * d.0, 2 * d.1)), offset(from, d)) {
                    if b[eye] == 0 {
                        go(to);
                    }
                }
            }
        }
        3 => {
            // A face-down advisor keeps its palace; a revealed one goes anywhere.
            let hidden = is_hidden(c);
            for d in DIAG {
                if let Some(to) = offset(from, d) {
                    if !hidden || in_palace(to, color) {
                        go(to);
                    }
                }
            }
        }
        4 => {
            for d in ORTHO {
                if let Some(to) = offset(from, d) {
                    if in_palace(to, color) {
                        go(to);
                    }
                }
            }
        }
        6 => {
            if let Some(to) = offset(from, (0, forward(color))) {
                go(to);
            }
            if !own_half(from, color) {
                for d in [(1, 0), (-1, 0)] {
                    if let Some(to) = offset(from, d) {
                        go(to);
                    }
                }
            }
        }
        _ => {}
    }
}

#[inline(always)]
fn is_by(b: &[Cell; SQUARES], sq: usize, by: Color, kind: u8) -> bool {
    let c = b[sq];
    c != 0 && cell_color(c) == by && move_kind(c, sq) == kind
}

/// Whether a piece of `by` attacks `sq` on board `b`; with `king_target`, a king of `by`
/// facing `sq` on an open file counts (the flying general).
pub(crate) fn attacked(b: &[Cell; SQUARES], sq: usize, by: Color, king_target: bool) -> bool {
    // Chariots, cannons and the facing king along the lines.
    for d in ORTHO {
        let mut s = sq;
        let mut first = true;
        while let Some(n) = offset(s, d) {
            s = n;
            if b[n] == 0 {
                continue;
            }
            if first {
                if is_by(b, n, by, 0) || (king_target && d.0 == 0 && is_by(b, n, by, 4)) {
                    return true;
                }
                first = false;
            } else {
                if is_by(b, n, by, 5) {
                    return true;
                }
                break;
            }
        }
    }
    // Horses: the horse at sq - d reaches sq if its leg is empty.
    for (d, leg) in HORSE {
        if let Some(h) = offset(sq, (-d.0, -d.1)) {
            if is_by(b, h, by, 1) {
                if let Some(l) = offset(h, leg) {
                    if b[l] == 0 {
                        return true;
                    }
                }
            }
        }
    }
    // Pawns: from behind (their forward) and, across the river, from the sides.
    if let Some(p) = offset(sq, (0, -forward(by))) {
        if is_by(b, p, by, 6) {
            return true;
        }
    }
    for d in [(1, 0), (-1, 0)] {
        if let Some(p) = offset(sq, d) {
            if is_by(b, p, by, 6) && !own_half(p, by) {
                return true;
            }
        }
    }
    for d in DIAG {
        if let Some(a) = offset(sq, d) {
            if is_by(b, a, by, 3) && (!is_hidden(b[a]) || in_palace(sq, by)) {
                return true;
            }
        }
        if let (Some(e), Some(eye)) = (offset(sq, (2 * d.0, 2 * d.1)), offset(sq, d)) {
            if is_by(b, e, by, 2) && b[eye] == 0 {
                return true;
            }
        }
    }
    if in_palace(sq, by) {
        for d in ORTHO {
            if let Some(k) = offset(sq, d) {
                if is_by(b, k, by, 4) {
                    return true;
                }
            }
        }
    }
    false
}

/// A deterministic draw from a pool (`h` a hash): a kind with a non-zero count, weighted
/// by the counts; `None` for an empty pool.
pub(crate) fn draw_from(pool: &[u8; 7], h: u64) -> Option<u8> {
    let total: u64 = pool.iter().map(|&n| n as u64).sum();
    if total == 0 {
        return None;
    }
    let mut i = h % total;
    for (k, &n) in pool.iter().enumerate() {
        if i < n as u64 {
            return Some(k as u8);
        }
        i -= n as u64;
    }
    None
}

/// SplitMix64's finaliser.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Position {
    /// A position from its parts (the FEN reader checks them first).
    pub(crate) fn from_parts(
        board: [Cell; SQUARES],
        side: Color,
        pool: [[u8; 7]; 2],
        captured: [[u8; 7]; 2],
        full: bool,
        halfmove: u32,
        fullmove: u32,
    ) -> Position {
        let mut kings = [0u8; 2];
        for (sq, &c) in board.iter().enumerate() {
            if c != 0 && !is_hidden(c) && cell_kind(c) == Kind::King as u8 {
                kings[cell_color(c).index()] = sq as u8;
            }
        }
        let mut p = Position {
            board,
            side,
            pool,
            captured,
            full,
            halfmove,
            fullmove,
            kings,
            key: 0,
            rule60_count: halfmove.min(u32::from(u16::MAX)) as u16,
            checks: [0; 2],
            checked: false,
            history: Vec::new(),
        };
        p.key = p.compute_key();
        p.checked = p.compute_in_check();
        p
    }

    /// The key from scratch: visible cells (a face-down piece's kind is not part of it),
    /// the pools' counts, the side to move.
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            if c != 0 {
                k ^= cell_key(c, sq);
            }
        }
        for color in 0..2 {
            for kind in 0..7 {
                k ^= pool_key(color, kind, self.pool[color][kind]);
            }
        }
        if self.side == Color::Black {
            k ^= ZOBRIST.side;
        }
        k
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// The cell on a square.
    #[inline(always)]
    pub fn cell(&self, sq: usize) -> Cell {
        self.board[sq]
    }
    /// The unseen pool of a side, by kind ([`Kind::ALL`] order).
    pub fn pool(&self, color: Color) -> [u8; 7] {
        self.pool[color.index()]
    }
    /// Captured face-down pieces of `color` whose kind is known, by kind.
    pub fn captured_hidden(&self, color: Color) -> [u8; 7] {
        self.captured[color.index()]
    }
    /// Whether every face-down piece's kind is known (full information).
    pub fn is_full_information(&self) -> bool {
        self.full
    }
    /// The key (player's view: face-down pieces' kinds are not in it).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Plies played since the FEN's move 1.
    pub fn plies_played(&self) -> usize {
        (self.fullmove.saturating_sub(1) as usize) * 2 + self.side.index()
    }
    /// Makes room for `plies` more moves.
    pub fn reserve_history(&mut self, plies: usize) {
        self.history.reserve(plies);
    }

    /// Whether the side to move's king is attacked (or faces the enemy king).
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checked
    }

    /// [`Position::in_check`] from the board.
    fn compute_in_check(&self) -> bool {
        let us = self.side;
        attacked(
            &self.board,
            self.kings[us.index()] as usize,
            us.flip(),
            true,
        )
    }

    /// Whether the bare move `from`-`to` of the side to move leaves its king safe.
    #[inline(always)]
    fn leaves_king_safe(&self, from: usize, to: usize) -> bool {
        let us = self.side;
        let mut b = self.board;
        b[to] = b[from];
        b[from] = 0;
        let k = if from == self.kings[us.index()] as usize {
            to
        } else {
            self.kings[us.index()] as usize
        };
        !attacked(&b, k, us.flip(), true)
    }

    /// The board after the bare move `m`, the mover revealed as [`Position::resolved`]
    /// says.
    fn board_after(&self, m: Move) -> [Cell; SQUARES] {
        let (from, to) = (m.from as usize, m.to as usize);
        let mut b = self.board;
        let mut c = b[from];
        if c != 0 && is_hidden(c) {
            let r = self.resolved(m).reveal;
            if r < 7 {
                c = face_up(self.side, Kind::from_index(r));
            }
        }
        b[to] = c;
        b[from] = 0;
        b
    }

    /// Whether the legal move `m` attacks the enemy king.
    pub fn gives_check_bare(&self, m: Move) -> bool {
        let b = self.board_after(m);
        let them = self.side.flip();
        attacked(&b, self.kings[them.index()] as usize, self.side, true)
    }

    /// Whether the opponent attacks `m`'s destination once it is played.
    pub fn to_square_attacked_after(&self, m: Move) -> bool {
        let b = self.board_after(m);
        attacked(&b, m.to as usize, self.side.flip(), false)
    }

    /// Appends the legal moves of the side to move of type `gen`, bare (nothing told of
    /// reveals or captured kinds: the moves as a player sees them). Allocates nothing.
    pub fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        let us = self.side;
        for from in 0..SQUARES {
            let c = self.board[from];
            if c == 0 || cell_color(c) != us {
                continue;
            }
            for_targets(&self.board, from, |to| {
                let capture = self.board[to] != 0;
                let wanted = match gen {
                    GenType::All => true,
                    GenType::Captures => capture,
                    GenType::Quiets => !capture,
                };
                if wanted && self.leaves_king_safe(from, to) {
                    list.push(Move::bare(from, to, us));
                }
            });
        }
    }

    /// Whether the bare part of `m` is a legal move here.
    pub fn is_legal_bare(&self, m: Move) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        if from >= SQUARES || to >= SQUARES || m.red != (self.side == Color::Red) {
            return false;
        }
        let c = self.board[from];
        if c == 0 || cell_color(c) != self.side {
            return false;
        }
        let mut ok = false;
        for_targets(&self.board, from, |t| ok |= t == to);
        ok && self.leaves_king_safe(from, to)
    }

    /// Whether `m`'s letters fit: a reveal only on a face-down mover and of a kind its
    /// pool holds (full information: its own kind), a captured kind only on a face-down
    /// victim, likewise.
    pub fn letters_fit(&self, m: Move) -> bool {
        let mover = self.board[m.from as usize];
        let victim = self.board[m.to as usize];
        let us = self.side.index();
        let fits = |cell: Cell, told: u8, pool: &[u8; 7]| -> bool {
            if told == NONE {
                return true;
            }
            if cell == 0 || !is_hidden(cell) || told >= 7 || told == Kind::King as u8 {
                return false;
            }
            if self.full {
                cell_kind(cell) == told
            } else {
                pool[told as usize] > 0
            }
        };
        fits(mover, m.reveal, &self.pool[us]) && fits(victim, m.capt, &self.pool[1 - us])
    }

    /// The chance outcomes of the legal bare move `m`, spelled out in the first `n` of
    /// the returned moves: in a player's view a move of a face-down piece once per
    /// distinct kind in its side's pool, a capture of a face-down piece once per distinct
    /// kind in the victim's pool (both when both); with full information the one move
    /// that will happen.
    pub fn outcomes(&self, m: Move) -> ([Move; 49], usize) {
        let mut out = [m; 49];
        if self.full {
            out[0] = self.resolved(m);
            return (out, 1);
        }
        let us = self.side.index();
        let reveals = is_hidden(self.board[m.from as usize]);
        let victim = self.board[m.to as usize];
        let capts = victim != 0 && is_hidden(victim);
        let mut n = 0;
        for r in 0..7u8 {
            if reveals && self.pool[us][r as usize] == 0 || !reveals && r > 0 {
                continue;
            }
            for k in 0..7u8 {
                if capts && self.pool[1 - us][k as usize] == 0 || !capts && k > 0 {
                    continue;
                }
                out[n] = Move {
                    reveal: if reveals { r } else { NONE },
                    capt: if capts { k } else { NONE },
                    ..m
                };
                n += 1;
            }
        }
        (out, n)
    }

    /// The reveals the bare move `m` can make, each with its weight
    /// ([`Position::outcome_weight`]: the pool's count of that kind), into `out`; their number, 0 when `m` reveals nothing unknown (the
    /// mover is face up, or its kind is known: full information). The capture of a
    /// face-down piece stays unknown, as in the search's [`Position::resolved`]. The
    /// heaviest come first.
    pub fn reveal_outcomes(&self, m: Move, out: &mut [(Move, u32)]) -> usize {
        let mover = self.board[m.from as usize];
        if m.reveal != NONE || !is_hidden(mover) || cell_kind(mover) != NONE {
            return 0;
        }
        let mut n = 0;
        for (kind, &count) in self.pool[self.side.index()].iter().enumerate() {
            if count > 0 && n < out.len() {
                let o = Move {
                    reveal: kind as u8,
                    ..m
                };
                out[n] = (o, self.outcome_weight(o));
                n += 1;
            }
        }
        // Heaviest first: the likeliest outcomes decide a chance node's bounds soonest.
        out[..n].sort_unstable_by_key(|&(_, w)| std::cmp::Reverse(w));
        n
    }

    /// How many ways the outcome `o` (one of [`Position::outcomes`]) can happen: the
    /// pool's count of the kind it reveals times the victim's pool's count of the kind
    /// it captures (1 for what it does not tell). Outcomes weigh in proportion to it.
    pub fn outcome_weight(&self, o: Move) -> u32 {
        let us = self.side.index();
        let count = |pool: &[u8; 7], kind: u8| {
            if kind == NONE {
                1
            } else {
                u32::from(pool[kind as usize])
            }
        };
        count(&self.pool[us], o.reveal) * count(&self.pool[1 - us], o.capt)
    }

    /// The move with its letters as they will be: told ones kept, the rest from the
    /// known kinds (full information) or, for a reveal in a player's view, a
    /// deterministic draw from the pool weighted by its counts (the capture of an unknown
    /// face-down piece stays unknown).
    pub fn resolved(&self, m: Move) -> Move {
        let mover = self.board[m.from as usize];
        let victim = self.board[m.to as usize];
        let mut r = m;
        if r.reveal == NONE && mover != 0 && is_hidden(mover) {
            r.reveal = if cell_kind(mover) != NONE {
                cell_kind(mover)
            } else {
                draw_from(
                    &self.pool[self.side.index()],
                    mix(self.key ^ (m.from as u64) << 8 ^ m.to as u64),
                )
                .unwrap_or(NONE)
            };
        }
        if r.capt == NONE && victim != 0 && is_hidden(victim) {
            r.capt = cell_kind(victim);
        }
        r
    }

    /// Plays a legal move (its letters, where told, fitting: see [`Position::letters_fit`]).
    pub fn make_move(&mut self, m: Move) {
        self.make(m, false)
    }

    /// Plays a legal move in the search: as [`Position::make_move`], and a piece whose
    /// kind was drawn from the pool is marked [`DRAWN`].
    pub fn make_move_search(&mut self, m: Move) {
        self.make(m, true)
    }

    fn make(&mut self, told: Move, search: bool) {
        let m = self.resolved(told);
        let drawn = search
            && told.reveal == NONE
            && is_hidden(self.board[told.from as usize])
            && cell_kind(self.board[told.from as usize]) == NONE;
        let (from, to) = (m.from as usize, m.to as usize);
        let us = self.side;
        let moved = self.board[from];
        let captured = self.board[to];
        let mut undo = Undo {
            from: m.from,
            to: m.to,
            moved,
            captured,
            reveal: NONE,
            reveal_pooled: false,
            capt: NONE,
            halfmove: self.halfmove,
            key: self.key,
            null: false,
            rule60_count: self.rule60_count,
            checks: self.checks,
            checked: self.checked,
        };
        let mut key = self.key ^ cell_key(moved, from);
        let mut arriving = moved;
        if is_hidden(moved) {
            let kind = if m.reveal < 7 {
                m.reveal
            } else {
                Kind::Pawn as u8
            };
            let p = &mut self.pool[us.index()][kind as usize];
            if m.reveal < 7 && *p > 0 {
                key ^= pool_key(us.index(), kind as usize, *p);
                *p -= 1;
                key ^= pool_key(us.index(), kind as usize, *p);
                undo.reveal_pooled = true;
            }
            undo.reveal = kind;
            arriving = face_up(us, Kind::from_index(kind));
            if drawn {
                arriving |= DRAWN;
            }
        }
        if captured != 0 {
            key ^= cell_key(captured, to);
            if is_hidden(captured) && m.capt < 7 {
                let them = us.flip().index();
                let p = &mut self.pool[them][m.capt as usize];
                if *p > 0 {
                    key ^= pool_key(them, m.capt as usize, *p);
                    *p -= 1;
                    key ^= pool_key(them, m.capt as usize, *p);
                    self.captured[them][m.capt as usize] += 1;
                    undo.capt = m.capt;
                }
            }
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.board[from] = 0;
        self.board[to] = arriving;
        key ^= cell_key(arriving, to);
        if from == self.kings[us.index()] as usize {
            self.kings[us.index()] = to as u8;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = us.flip();
        key ^= ZOBRIST.side;
        self.key = key;
        let gives_check = self.compute_in_check();
        self.advance_rule60(captured != 0, gives_check);
        self.checked = gives_check;
        self.history.push(undo);
    }

    /// Takes back the last move.
    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.side = self.side.flip();
        let us = self.side;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.rule60_count = u.rule60_count;
        self.checks = u.checks;
        self.checked = u.checked;
        if u.null {
            return;
        }
        let (from, to) = (u.from as usize, u.to as usize);
        self.board[from] = u.moved;
        self.board[to] = u.captured;
        if !is_hidden(u.moved) && cell_kind(u.moved) == Kind::King as u8 {
            self.kings[us.index()] = from as u8;
        }
        if u.reveal_pooled {
            self.pool[us.index()][u.reveal as usize] += 1;
        }
        if u.capt != NONE {
            let them = us.flip().index();
            self.pool[them][u.capt as usize] += 1;
            self.captured[them][u.capt as usize] -= 1;
        }
    }

    /// Passes the turn.
    pub fn make_null_move(&mut self) {
        self.history.push(Undo {
            from: 0,
            to: 0,
            moved: 0,
            captured: 0,
            reveal: NONE,
            reveal_pooled: false,
            capt: NONE,
            halfmove: self.halfmove,
            key: self.key,
            null: true,
            rule60_count: self.rule60_count,
            checks: self.checks,
            checked: self.checked,
        });
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.flip();
        self.key ^= ZOBRIST.side;
        self.checked = self.compute_in_check();
    }

    /// How often the current position occurred before, back to the last capture or
    /// reveal (neither can be undone), null move or the start of the recorded moves.
    pub fn repetitions(&self) -> usize {
        let mut n = 0;
        for u in self.history.iter().rev() {
            if u.null {
                break;
            }
            if u.key == self.key {
                n += 1;
            }
            if !u.null && (u.captured != 0 || is_hidden(u.moved)) {
                break;
            }
        }
        n
    }

    /// The move `back` plies ago (1: the last one), for the rule judge; `None` beyond the
    /// recorded moves.
    pub(crate) fn past_move(&self, back: usize) -> Option<PastMove> {
        let n = self.history.len();
        if back == 0 || back > n {
            return None;
        }
        let u = &self.history[n - back];
        let gave_check = if back == 1 {
            self.checked
        } else {
            self.history[n - back + 1].checked
        };
        Some(PastMove {
            key_before: u.key,
            from: u.from as usize,
            to: u.to as usize,
            gave_check,
            reversible: !u.null && u.captured == 0 && !is_hidden(u.moved),
        })
    }

    /// Whether the last move was a null move.
    pub fn last_was_null(&self) -> bool {
        self.history.last().is_some_and(|u| u.null)
    }

    /// Deals the pools onto the face-down pieces at random (a seeded shuffle): the
    /// full-information position of a player's view whose pools hold exactly its
    /// face-down pieces; `None` where a pool does not.
    pub fn deal(&self, seed: u64) -> Option<Position> {
        let mut p = self.clone();
        let mut state = seed;
        for color in Color::ALL {
            let ci = color.index();
            let mut bag = [0u8; 16];
            let mut n = 0;
            for k in 0..7 {
                for _ in 0..self.pool[ci][k] {
                    if n < bag.len() {
                        bag[n] = k as u8;
                    }
                    n += 1;
                }
            }
            let squares: Vec<usize> = (0..SQUARES)
                .filter(|&s| {
                    let c = self.board[s];
                    c != 0 && is_hidden(c) && cell_color(c) == color
                })
                .collect();
            if n != squares.len() || n > bag.len() {
                return None;
            }
            for i in (1..n).rev() {
                state = mix(state);
                let j = (state % (i as u64 + 1)) as usize;
                bag.swap(i, j);
            }
            for (i, &s) in squares.iter().enumerate() {
                p.board[s] = face_down(color, bag[i]);
            }
        }
        p.full = true;
        p.history.clear();
        p.key = p.compute_key();
        Some(p)
    }
}
