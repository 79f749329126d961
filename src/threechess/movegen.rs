//! Move generation: every (start, end) pair the reference's `isLegalMove` accepts, each
//! once.
//!
//! There is no check rule, so every pseudo-legal move is legal. Sliders walk the
//! precomputed rays up to the first occupied square; where two rays (the forked
//! diagonals across the centre) reach one square it is still one move, so a set of the
//! squares already listed for the piece filters the second route.

use super::board::Board;
use super::geometry::{
    castle_from, castlings, BISHOP_FROM, KING_FROM, KING_TARGETS, KNIGHT_FROM, KNIGHT_TARGETS,
    NONE, PAWN_CAPTURES, PAWN_DOUBLE, PAWN_FROM, PAWN_PUSH, RAYS, RAY_LEN, RAY_MASK, ROOK_FROM,
    ROOK_RAYS,
};
use super::types::{squares_of, Kind, Move, Player, Square, Squares};
use crate::movelist::MoveList;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gen {
    /// Moves onto another player's piece.
    Captures,
    /// Moves onto an empty square (castling and non-capturing promotions included).
    Quiets,
    /// Both.
    All,
}

impl Gen {
    #[inline(always)]
    fn captures(self) -> bool {
        self != Gen::Quiets
    }
    #[inline(always)]
    fn quiets(self) -> bool {
        self != Gen::Captures
    }
}

/// The ray indices (into [`RAYS`]) a slider uses.
#[inline(always)]
fn slider_rays(kind: Kind) -> std::ops::Range<usize> {
    match kind {
        Kind::Bishop => 0..ROOK_RAYS,
        Kind::Rook => ROOK_RAYS..12,
        _ => 0..12,
    }
}

impl Board {
    /// Appends the moves of type `gen` of the player to move (none once the game is over
    /// by a king capture or the ply limit).
    pub fn generate(&self, gen: Gen, list: &mut MoveList<Move>) {
        if self.finished() {
            return;
        }
        let us = self.side_to_move();
        let own = self.occupied_by(us);
        let all = self.occupied();
        let enemy = all & !own;
        let mut mask: Squares = 0;
        if gen.captures() {
            mask |= enemy;
        }
        if gen.quiets() {
            mask |= !all;
        }
        for from in squares_of(own) {
            let Some(piece) = self.piece_at(from) else {
                continue;
            };
            match piece.kind() {
                Kind::Pawn => self.pawn_moves(us, from, gen, list),
                Kind::Knight => push_set(from, KNIGHT_TARGETS[from.index()] & mask, list),
                Kind::King => {
                    push_set(from, KING_TARGETS[from.index()] & mask, list);
                    if gen.quiets() && from == castle_from(us) {
                        self.castling_moves(us, list);
                    }
                }
                kind => slide(from, kind, all, mask, list),
            }
        }
    }

    /// Every legal move of the player to move.
    #[inline]
    pub fn legal_moves_list(&self) -> MoveList<Move> {
        let mut list = MoveList::new();
        self.generate(Gen::All, &mut list);
        list
    }

    #[inline(always)]
    fn pawn_moves(&self, us: Player, from: Square, gen: Gen, list: &mut MoveList<Move>) {
        let c = us.index();
        let i = from.index();
        if gen.captures() {
            let enemy = self.occupied() & !self.occupied_by(us);
            push_set(from, PAWN_CAPTURES[c][i] & enemy, list);
        }
        if gen.quiets() {
            let empty = !self.occupied();
            let push = PAWN_PUSH[c][i];
            if push != NONE && empty & (1u128 << push) != 0 {
                list.push(Move::new(from, sq(push)));
                let double = PAWN_DOUBLE[c][i];
                if double != NONE && empty & (1u128 << double) != 0 {
                    list.push(Move::new(from, sq(double)));
                }
            }
        }
    }

    fn castling_moves(&self, us: Player, list: &mut MoveList<Move>) {
        let all = self.occupied();
        for (king_to, corner, _, must_be_empty) in castlings(us) {
            let rook_there = self
                .piece_at(corner)
                .is_some_and(|p| p.player() == us && p.kind() == Kind::Rook);
            if rook_there && all & must_be_empty == 0 {
                list.push(Move::new(castle_from(us), king_to));
            }
        }
    }

    /// Whether `m` is a legal move here (for moves from outside the generator: the TT,
    /// killers, the protocol).
    pub fn is_legal(&self, m: Move) -> bool {
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.player() != self.side_to_move() || self.finished() {
            return false;
        }
        let mut list = MoveList::new();
        let gen = if self.piece_at(m.to()).is_some() {
            Gen::Captures
        } else {
            Gen::Quiets
        };
        self.generate_from(m.from(), gen, &mut list);
        list.contains(m)
    }

    /// Appends the moves of type `gen` of the piece on `from` (which must belong to the
    /// player to move).
    pub fn generate_from(&self, from: Square, gen: Gen, list: &mut MoveList<Move>) {
        let Some(piece) = self.piece_at(from) else {
            return;
        };
        let us = piece.player();
        if us != self.side_to_move() || self.finished() {
            return;
        }
        let all = self.occupied();
        let mut mask: Squares = 0;
        if gen.captures() {
            mask |= all & !self.occupied_by(us);
        }
        if gen.quiets() {
            mask |= !all;
        }
        match piece.kind() {
            Kind::Pawn => self.pawn_moves(us, from, gen, list),
            Kind::Knight => push_set(from, KNIGHT_TARGETS[from.index()] & mask, list),
            Kind::King => {
                push_set(from, KING_TARGETS[from.index()] & mask, list);
                if gen.quiets() && from == castle_from(us) {
                    self.castling_moves(us, list);
                }
            }
            kind => slide(from, kind, all, mask, list),
        }
    }

    /// The squares a player's pieces attack (could capture on, were an enemy there) —
    /// pawns diagonally, sliders up to and including the first occupied square.
    pub fn attacks_of(&self, p: Player) -> Squares {
        let all = self.occupied();
        let mut att: Squares = 0;
        for from in squares_of(self.pieces(p, Kind::Pawn)) {
            att |= PAWN_CAPTURES[p.index()][from.index()];
        }
        for from in squares_of(self.pieces(p, Kind::Knight)) {
            att |= KNIGHT_TARGETS[from.index()];
        }
        for from in squares_of(self.pieces(p, Kind::King)) {
            att |= KING_TARGETS[from.index()];
        }
        for kind in [Kind::Bishop, Kind::Rook, Kind::Queen] {
            for from in squares_of(self.pieces(p, kind)) {
                att |= slider_reach(from, kind, all);
            }
        }
        att
    }

    /// Whether player `p` attacks square `sq` (could capture there, were an enemy on it).
    pub fn is_attacked_by(&self, sq: Square, p: Player) -> bool {
        let i = sq.index();
        if self.pieces(p, Kind::Pawn) & PAWN_FROM[p.index()][i] != 0
            || self.pieces(p, Kind::Knight) & KNIGHT_FROM[i] != 0
            || self.pieces(p, Kind::King) & KING_FROM[i] != 0
        {
            return true;
        }
        let all = self.occupied();
        let queens = self.pieces(p, Kind::Queen);
        let diagonal = (self.pieces(p, Kind::Bishop) | queens) & BISHOP_FROM[i];
        let straight = (self.pieces(p, Kind::Rook) | queens) & ROOK_FROM[i];
        // Candidates that reach it on an empty board: walk their rays.
        squares_of(diagonal).any(|from| slider_reach(from, Kind::Bishop, all) & sq.bit() != 0)
            || squares_of(straight).any(|from| slider_reach(from, Kind::Rook, all) & sq.bit() != 0)
    }

    /// Whether a player's king stands where another player attacks it.
    pub fn king_attacked(&self, p: Player) -> bool {
        self.king_attacked_by(p, p.next()) || self.king_attacked_by(p, p.prev())
    }

    /// Whether `victim`'s king stands where player `by` attacks it.
    #[inline]
    pub fn king_attacked_by(&self, victim: Player, by: Player) -> bool {
        self.king(victim)
            .is_some_and(|k| self.is_attacked_by(k, by))
    }
}

#[inline(always)]
fn sq(i: u8) -> Square {
    match Square::new(i) {
        Some(s) => s,
        None => unreachable!("table entry {i} is not a square"),
    }
}

#[inline(always)]
fn push_set(from: Square, targets: Squares, list: &mut MoveList<Move>) {
    for to in squares_of(targets) {
        list.push(Move::new(from, to));
    }
}

/// A slider's moves onto `mask` squares: each ray up to its first occupied square; a
/// square two rays reach is listed once.
#[inline(always)]
fn slide(from: Square, kind: Kind, all: Squares, mask: Squares, list: &mut MoveList<Move>) {
    let reach = slider_reach(from, kind, all) & mask;
    push_set(from, reach, list);
}

/// The squares a slider reaches: every ray up to and including its first occupied square.
#[inline(always)]
pub(crate) fn slider_reach(from: Square, kind: Kind, all: Squares) -> Squares {
    let i = from.index();
    let mut reach: Squares = 0;
    for k in slider_rays(kind) {
        // An empty ray is reached whole (no walk).
        let mask = RAY_MASK[i][k];
        if mask & all == 0 {
            reach |= mask;
            continue;
        }
        for &t in &RAYS[i][k][..RAY_LEN[i][k] as usize] {
            let bit = 1u128 << t;
            reach |= bit;
            if all & bit != 0 {
                break;
            }
        }
    }
    reach
}
