//! Move generation (rule book section 12), staged into captures and quiet moves.
//!
//! There is no check rule, so every generated move is legal. A move is a *capture* when it
//! removes at least one enemy piece; as captures are automatic (D3), each from/to pair
//! (and imitated method) is either a capture or not, never both. Capture destinations are
//! found with whole-board masks ([`pincer_targets`], [`coordinator_targets`]) or per
//! direction (withdrawal, leaps), so no move is made to classify it.

use super::bitboard::{
    bit, first_blocker, is_orthogonal, neighbours, opposite, orth_spread, queen_attacks,
    ray_attacks, rook_attacks, spread, squares, step, Bitboard, NUM_DIRS,
};
use super::captures::{coordinator_targets, pincer_targets};
use super::position::Position;
use super::types::{Method, Move, PieceKind, Square};
use crate::common::MoveError;
use crate::game::GenType;
use crate::movelist::MoveList;

/// Where generated moves go: a list, a vector, or a counter.
pub trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);
    /// A plain move (own method, no suffix) from `from` to every square of `targets`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in squares(targets) {
            self.push(Move::new(from, to));
        }
    }
}

impl MoveSink for MoveList<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
}

impl MoveSink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// Counts moves without listing them (perft's last ply).
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }
}

/// Splits `targets` into captures (`capturing`) and quiet moves as `gen` asks.
#[inline(always)]
fn push_split<S: MoveSink>(
    sink: &mut S,
    gen: GenType,
    from: Square,
    targets: Bitboard,
    capturing: Bitboard,
) {
    match gen {
        GenType::All => sink.push_targets(from, targets),
        GenType::Captures => sink.push_targets(from, targets & capturing),
        GenType::Quiets => sink.push_targets(from, targets & !capturing),
    }
}

/// Appends the moves of type `gen` of the side to move to `sink`. Nothing when a king is
/// missing (the game is over).
pub fn generate<S: MoveSink>(pos: &Position, gen: GenType, sink: &mut S) {
    if pos.king_missing() {
        return;
    }
    let movable = pos.board().color(pos.side_to_move()) & !pos.frozen(pos.side_to_move());
    generate_pieces(pos, gen, movable, sink);
}

/// Appends the moves of type `gen` of the pieces of `from_set` (pieces of the side to
/// move that are not frozen).
pub fn generate_pieces<S: MoveSink>(
    pos: &Position,
    gen: GenType,
    from_set: Bitboard,
    sink: &mut S,
) {
    let b = pos.board();
    let us = pos.side_to_move();
    let them = us.flip();
    let occ = b.occ;
    let empty = !occ;
    let enemy = b.color(them);
    let mine = |k: PieceKind| b.of(us, k) & from_set;

    // Pincers: rook slides; captures where the destination sandwiches an enemy.
    let pincers = mine(PieceKind::Pincer);
    if pincers != 0 {
        let capturing = pincer_targets(b, us, enemy);
        for sq in squares(pincers) {
            push_split(sink, gen, sq, rook_attacks(sq, occ) & empty, capturing);
        }
    }
    // Coordinators: queen slides; captures where a corner holds an enemy.
    let coordinators = mine(PieceKind::Coordinator);
    if coordinators != 0 {
        let capturing = coordinator_targets(b, us, enemy);
        for sq in squares(coordinators) {
            push_split(sink, gen, sq, queen_attacks(sq, occ) & empty, capturing);
        }
    }
    // Freezers never capture.
    if gen != GenType::Captures {
        for sq in squares(mine(PieceKind::Freezer)) {
            sink.push_targets(sq, queen_attacks(sq, occ) & empty);
        }
    }
    // Withdrawers: every move away from an adjacent enemy captures it.
    for sq in squares(mine(PieceKind::Withdrawer)) {
        for d in 0..NUM_DIRS {
            let targets = ray_attacks(d, sq, occ) & empty;
            let behind = step(opposite(d), sq).map_or(0, bit);
            let capturing = if behind & enemy != 0 { targets } else { 0 };
            push_split(sink, gen, sq, targets, capturing);
        }
    }
    // Leapers: quiet slides, and a jump over the first piece of a line when it is an
    // enemy with an empty square just beyond (D1).
    for sq in squares(mine(PieceKind::Leaper)) {
        if gen != GenType::Captures {
            sink.push_targets(sq, queen_attacks(sq, occ) & empty);
        }
        if gen != GenType::Quiets {
            push_leaps(sink, sq, occ, enemy);
        }
    }
    // King: one step, capturing an enemy there.
    for sq in squares(mine(PieceKind::King)) {
        let targets = neighbours(sq) & !b.color(us);
        push_split(sink, gen, sq, targets, enemy);
    }
    // Imitators (section 8).
    let imitators = mine(PieceKind::Imitator);
    if imitators != 0 {
        let as_pincer = pincer_targets(b, us, b.of(them, PieceKind::Pincer));
        let as_coordinator = coordinator_targets(b, us, b.of(them, PieceKind::Coordinator));
        let withdrawers = b.of(them, PieceKind::Withdrawer);
        for sq in squares(imitators) {
            for d in 0..NUM_DIRS {
                let targets = ray_attacks(d, sq, occ) & empty;
                if targets == 0 {
                    continue;
                }
                let p = if is_orthogonal(d) {
                    targets & as_pincer
                } else {
                    0
                };
                let c = targets & as_coordinator;
                let behind = step(opposite(d), sq).map_or(0, bit);
                let w = if behind & withdrawers != 0 {
                    targets
                } else {
                    0
                };
                let capturing = p | c | w;
                if gen != GenType::Captures {
                    sink.push_targets(sq, targets & !capturing);
                }
                if gen != GenType::Quiets {
                    for to in squares(capturing) {
                        let t = bit(to);
                        let fits = [
                            (p & t != 0, Method::Pincer),
                            (c & t != 0, Method::Coordinator),
                            (w & t != 0, Method::Withdrawer),
                        ];
                        let several = fits.iter().filter(|f| f.0).count() > 1;
                        for (fit, method) in fits {
                            if fit {
                                sink.push(Move::with_method(sq, to, method, several));
                            }
                        }
                    }
                }
            }
            if gen != GenType::Quiets {
                push_leaps(sink, sq, occ, b.of(them, PieceKind::Leaper));
                let king = neighbours(sq) & b.of(them, PieceKind::King);
                sink.push_targets(sq, king);
            }
        }
    }
}

/// Leaps from `sq` over the first piece of each line when it is in `victims` and the
/// square just beyond is empty.
#[inline(always)]
fn push_leaps<S: MoveSink>(sink: &mut S, sq: Square, occ: Bitboard, victims: Bitboard) {
    for d in 0..NUM_DIRS {
        if let Some(v) = first_blocker(d, sq, occ) {
            if victims & bit(v) != 0 {
                if let Some(land) = step(d, v) {
                    if occ & bit(land) == 0 {
                        sink.push(Move::new(sq, land));
                    }
                }
            }
        }
    }
}

/// The legal moves of the side to move.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut v = Vec::with_capacity(96);
    generate(pos, GenType::All, &mut v);
    v
}

/// Number of legal moves.
pub fn count_moves(pos: &Position) -> u64 {
    let mut c = MoveCounter::default();
    generate(pos, GenType::All, &mut c);
    c.0
}

/// Whether the side to move has a legal move, decided cheaply in almost every position:
/// any unfrozen piece with an empty square next to it (orthogonally, for a pincer) can
/// move; a king can also step onto an enemy. Only when no such piece exists are the moves
/// of the remaining pieces (leaps, imitator king captures) generated.
pub fn has_legal_move(pos: &Position) -> bool {
    if pos.king_missing() {
        return false;
    }
    let b = pos.board();
    let us = pos.side_to_move();
    let movable = b.color(us) & !pos.frozen(us);
    let empty = !b.occ;
    let pincers = b.of(us, PieceKind::Pincer) & movable;
    if orth_spread(pincers) & empty != 0 {
        return true;
    }
    let king = b.of(us, PieceKind::King) & movable;
    if spread(king) & !b.color(us) != 0 {
        return true;
    }
    let others = movable & !pincers & !king;
    if spread(others) & empty != 0 {
        return true;
    }
    let jumpers = movable & (b.of(us, PieceKind::Leaper) | b.of(us, PieceKind::Imitator));
    let mut c = MoveCounter::default();
    generate_pieces(pos, GenType::All, jumpers, &mut c);
    c.0 > 0
}

/// The legal moves of the piece on `from` (nothing if it is not the side to move's, or
/// frozen, or the game is over).
pub fn moves_from<S: MoveSink>(pos: &Position, from: Square, sink: &mut S) {
    if pos.king_missing() {
        return;
    }
    let us = pos.side_to_move();
    let set = bit(from) & pos.board().color(us) & !pos.frozen(us);
    if set != 0 {
        generate_pieces(pos, GenType::All, set, sink);
    }
}

/// Whether `m` is a legal move here (for moves from outside the generator).
pub fn is_legal(pos: &Position, m: Move) -> bool {
    struct Find(Move, bool);
    impl MoveSink for Find {
        #[inline(always)]
        fn push(&mut self, m: Move) {
            self.1 |= m == self.0;
        }
        #[inline(always)]
        fn push_targets(&mut self, from: Square, targets: Bitboard) {
            self.1 |= from == self.0.from()
                && self.0.method() == Method::Own
                && !self.0.suffixed()
                && targets & bit(self.0.to()) != 0;
        }
    }
    let mut f = Find(m, false);
    moves_from(pos, m.from(), &mut f);
    f.1
}

/// Reads a move in the book's notation and finds it among the legal moves.
pub fn parse_legal_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let valid_shape = (t.len() == 4 || t.len() == 5)
        && t.is_ascii()
        && Square::parse(&t[0..2]).is_some()
        && Square::parse(&t[2..4]).is_some()
        && (t.len() == 4 || matches!(&t[4..], "p" | "c" | "w"));
    if !valid_shape {
        return Err(MoveError::Malformed {
            text: t.to_string(),
            game: "Baroque",
            expected: "from-square, to-square, optional p/c/w: e2e4, d4d2c",
        });
    }
    if pos.king_missing() {
        return Err(game_over(t));
    }
    let mut v = Vec::new();
    let from = Square::parse(&t[0..2]).unwrap_or(Square::from_index(0));
    moves_from(pos, from, &mut v);
    if let Some(&m) = v.iter().find(|m| m.to_string() == t) {
        return Ok(m);
    }
    let ambiguous: Vec<String> = v
        .iter()
        .filter(|m| m.suffixed() && m.to_string()[..4] == t[..4])
        .map(|m| m.to_string())
        .collect();
    if !ambiguous.is_empty() {
        return Err(MoveError::IllegalBecause {
            text: t.to_string(),
            reason: format!(
                "ambiguous or not legal here: write one of {}",
                ambiguous.join(", ")
            ),
        });
    }
    Err(MoveError::Illegal(t.to_string()))
}

/// The error for a move given after a king has been captured.
pub(crate) fn game_over(text: &str) -> MoveError {
    MoveError::GameOver {
        text: text.to_string(),
        end: "a king has been captured".to_string(),
    }
}
