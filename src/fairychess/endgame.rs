//! Perfect play in the three-piece endings: a king and one piece against a bare king.
//!
//! For each piece kind that can be left alone with its king (rook, bishop, knight,
//! squire, combatant) a table holds, for every placement of the three pieces and either
//! side to move, how the game ends with best play by both: the side to move wins (captures
//! the enemy king) or loses in so many plies, or it is a draw (no side can force a king
//! capture; the defender captures the piece, or the game goes on for ever). Built by
//! retrograde analysis on first use of each kind ([`Lazy`]): from the positions where
//! the side to move captures the king now, backwards one ply at a time, with a count of
//! undecided moves per position (a position whose every move leads to a win of the other
//! side is lost). Nothing allocates after that: a probe is an index computation and one
//! byte read.
//!
//! The rules that matter here (docs/games.md, "Fairy chess"): there is no
//! check, so a lone king must move even when every move walks into an attack (that is
//! how it is caught: there is no stalemate); a king may capture the enemy king, so the
//! side with the piece can lose by putting its king next to the other one; the king that
//! captures the lone piece leaves two kings, a draw; the game is drawn after 100 plies
//! from its start, so a win that needs more plies than remain is a draw
//! ([`solved`] applies that, [`probe`] does not).
//!
//! Every piece kind's moves are the same under the eight symmetries of the square and
//! for both colours, so the table is indexed by "the side with the piece" and "the side
//! without it", not by colour.

use super::attacks::{
    bishop_attacks, first_square, rook_attacks, Squares, COMBATANT_CAPTURES, COMBATANT_MOVES, KING,
    KNIGHT, SQUIRE,
};
use super::position::{Position, PLY_LIMIT};
use super::types::PieceKind;
use crate::game::Outcome;
use once_cell::sync::Lazy;

/// Placements of the three pieces on 64 squares (some overlap: those are no positions).
const PLACEMENTS: usize = 64 * 64 * 64;
/// Table entries: both sides to move.
pub const ENTRIES: usize = 2 * PLACEMENTS;
/// Distances beyond this many plies are not stored (they are draws anyway: a game lasts
/// at most [`PLY_LIMIT`] plies).
const MAX_DISTANCE: u32 = 255;

/// The exact value of a three-piece position for the side to move, without the ply
/// limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Neither side can force a king capture.
    Draw,
    /// The side to move captures the enemy king on the `n`-th ply from here (odd) with
    /// best play by both.
    Win(u32),
    /// The enemy captures the side to move's king on the `n`-th ply from here (even).
    Loss(u32),
}

/// One piece kind's table.
pub struct Table {
    kind: PieceKind,
    /// 0: a draw (or no position: squares overlap); odd `n`: the side to move wins in
    /// `n` plies; even `n`: it loses in `n` plies.
    dtm: Box<[u8]>,
    /// The longest win in plies, from either side.
    longest: u32,
}

/// Entry of a placement: `weak_to_move` (the side without the piece is to move), the
/// squares of the strong king, the piece and the weak king.
#[inline(always)]
pub fn index(weak_to_move: bool, strong_king: usize, piece: usize, weak_king: usize) -> usize {
    (usize::from(weak_to_move) * PLACEMENTS) | (strong_king << 12) | (piece << 6) | weak_king
}

#[inline(always)]
fn decode(i: usize) -> (bool, usize, usize, usize) {
    (i >= PLACEMENTS, (i >> 12) & 63, (i >> 6) & 63, i & 63)
}

/// Squares the piece of `kind` on `sq` can move to with blockers `occ`: captures and
/// quiet moves alike, except the combatant, which moves orthogonally to an empty square
/// and captures diagonally (own pieces are not excluded here).
#[inline(always)]
fn targets(kind: PieceKind, sq: usize, occ: u64) -> u64 {
    let s = super::types::Square::from_index(sq);
    match kind {
        PieceKind::King => KING[sq],
        PieceKind::Rook => rook_attacks(s, occ),
        PieceKind::Bishop => bishop_attacks(s, occ),
        PieceKind::Knight => KNIGHT[sq],
        PieceKind::Squire => SQUIRE[sq],
        PieceKind::Combatant => (COMBATANT_MOVES[sq] & !occ) | (COMBATANT_CAPTURES[sq] & occ),
    }
}

/// Squares from which the piece of `kind` could have moved quietly to `sq`, with the
/// other pieces on `others` (not excluded here).
#[inline(always)]
fn sources(kind: PieceKind, sq: usize, others: u64) -> u64 {
    // Every piece but the combatant moves back the way it moves forward.
    match kind {
        PieceKind::Combatant => COMBATANT_MOVES[sq],
        _ => targets(kind, sq, others),
    }
}

/// What the side to move can do in entry `i`: `Err(())` when it captures the enemy
/// king at once, otherwise the number of moves (those to other entries, and a capture
/// of the piece by the weak king, which draws).
#[inline]
fn moves_of(kind: PieceKind, i: usize) -> Result<u32, ()> {
    let (weak_to_move, sk, x, wk) = decode(i);
    let occ = (1u64 << sk) | (1u64 << x) | (1u64 << wk);
    if weak_to_move {
        if KING[wk] & (1 << sk) != 0 {
            return Err(());
        }
        // Captures of the piece count as moves too (each leads to a draw).
        Ok((KING[wk] & !(1u64 << sk)).count_ones())
    } else {
        let piece = targets(kind, x, occ);
        if (KING[sk] | piece) & (1 << wk) != 0 {
            return Err(());
        }
        Ok((KING[sk] & !occ).count_ones() + (piece & !occ).count_ones())
    }
}

/// Calls `f` with every entry from which one quiet move leads to entry `i`.
#[inline]
fn for_each_predecessor(kind: PieceKind, i: usize, mut f: impl FnMut(usize)) {
    let (weak_to_move, sk, x, wk) = decode(i);
    let occ = (1u64 << sk) | (1u64 << x) | (1u64 << wk);
    if weak_to_move {
        // The strong side has just moved its king or its piece.
        for from in Squares(KING[sk] & !occ) {
            f(index(false, from.index(), x, wk));
        }
        let others = (1u64 << sk) | (1u64 << wk);
        for from in Squares(sources(kind, x, others) & !occ) {
            f(index(false, sk, from.index(), wk));
        }
    } else {
        for from in Squares(KING[wk] & !occ) {
            f(index(true, sk, x, from.index()));
        }
    }
}

impl Table {
    /// Solves the ending of a king and a `kind` against a bare king.
    pub fn build(kind: PieceKind) -> Table {
        let mut dtm = vec![0u8; ENTRIES].into_boxed_slice();
        let mut open = vec![0u8; ENTRIES];
        let mut current = Vec::new();
        for i in 0..ENTRIES {
            let (_, sk, x, wk) = decode(i);
            if sk == x || sk == wk || x == wk {
                continue;
            }
            match moves_of(kind, i) {
                Err(()) => {
                    dtm[i] = 1;
                    current.push(i as u32);
                }
                // At most 8 king moves and 14 piece moves.
                Ok(n) => open[i] = n as u8,
            }
        }
        let mut level = 1u32;
        let mut longest = 1;
        let mut next = Vec::new();
        while !current.is_empty() && level < MAX_DISTANCE {
            let won = !level.is_multiple_of(2);
            let d = (level + 1) as u8;
            for &p in &current {
                for_each_predecessor(kind, p as usize, |q| {
                    if dtm[q] != 0 {
                        return;
                    }
                    if won {
                        // One more move of q's side leads to a loss: lost once none is left.
                        open[q] -= 1;
                        if open[q] == 0 {
                            dtm[q] = d;
                            next.push(q as u32);
                        }
                    } else {
                        dtm[q] = d;
                        next.push(q as u32);
                    }
                });
            }
            if !next.is_empty() && level.is_multiple_of(2) {
                longest = level + 1;
            }
            std::mem::swap(&mut current, &mut next);
            next.clear();
            level += 1;
        }
        Table { kind, dtm, longest }
    }

    /// The piece kind of this table.
    pub fn kind(&self) -> PieceKind {
        self.kind
    }

    /// The longest win, in plies (the side to move wins on the last of them).
    pub fn longest_win(&self) -> u32 {
        self.longest
    }

    /// The value of entry `i` (see [`index`]).
    #[inline(always)]
    pub fn value(&self, i: usize) -> Value {
        match self.dtm.get(i).copied().unwrap_or(0) {
            0 => Value::Draw,
            n if !n.is_multiple_of(2) => Value::Win(u32::from(n)),
            n => Value::Loss(u32::from(n)),
        }
    }

    /// How many positions (placements with distinct squares, either side to move) the
    /// side to move wins, loses and draws.
    pub fn counts(&self) -> (usize, usize, usize) {
        let (mut win, mut loss, mut draw) = (0, 0, 0);
        for i in 0..ENTRIES {
            let (_, sk, x, wk) = decode(i);
            if sk == x || sk == wk || x == wk {
                continue;
            }
            match self.value(i) {
                Value::Win(_) => win += 1,
                Value::Loss(_) => loss += 1,
                Value::Draw => draw += 1,
            }
        }
        (win, loss, draw)
    }
}

/// One table per piece kind but the king (index `kind.index() - 1`), each built on first
/// use.
static TABLES: [Lazy<Table>; 5] = [
    Lazy::new(|| build_logged(PieceKind::Rook)),
    Lazy::new(|| build_logged(PieceKind::Bishop)),
    Lazy::new(|| build_logged(PieceKind::Knight)),
    Lazy::new(|| build_logged(PieceKind::Squire)),
    Lazy::new(|| build_logged(PieceKind::Combatant)),
];

/// Builds a table and says how long it took (`RUST_LOG=debug`).
fn build_logged(kind: PieceKind) -> Table {
    let start = crate::common::clock::Instant::now();
    let t = Table::build(kind);
    log::debug!(
        "fairychess: table of king and {} against king built in {:.1} ms (longest win {} plies)",
        kind.name(),
        start.elapsed().as_secs_f64() * 1000.0,
        t.longest_win()
    );
    t
}

/// The table of a king and a `kind` against a bare king (`None` for the king), built now
/// if it was not yet.
pub fn table(kind: PieceKind) -> Option<&'static Table> {
    match kind {
        PieceKind::King => None,
        _ => Some(&*TABLES[kind.index() - 1]),
    }
}

/// A king and one piece against a bare king, located: the piece's table, whether the bare
/// king is to move, and the squares of the piece's king, the piece and the bare king.
#[inline]
fn locate(pos: &Position) -> Option<(&'static Table, bool, usize, usize, usize)> {
    let occ = pos.occupied();
    if occ.count_ones() != 3 {
        return None;
    }
    let kings = pos.pieces_kind(PieceKind::King);
    let piece_sq = first_square(occ & !kings)?;
    let piece = pos.piece_at(piece_sq)?;
    let strong = piece.color();
    let sk = pos.king_square(strong)?.index();
    let wk = pos.king_square(strong.flip())?.index();
    let t = table(piece.kind())?;
    let weak_to_move = pos.side_to_move() != strong;
    Some((t, weak_to_move, sk, piece_sq.index(), wk))
}

/// The exact value of `pos` without the ply limit, if it is a king and one piece against
/// a bare king.
#[inline]
pub fn probe(pos: &Position) -> Option<Value> {
    let (t, weak_to_move, sk, x, wk) = locate(pos)?;
    Some(t.value(index(weak_to_move, sk, x, wk)))
}

/// Tie-break of a drawn position for the side with the piece (in the evaluation's units,
/// where a knight is several hundred): keeping the piece is worth [`KEEP`] more than the
/// two kings left after its capture (also a draw, which the bare king could still
/// throw away only if the piece stays on the board), and with the bare king to move each
/// move of it that loses in time is worth [`TRAP`] more: among drawing moves the side with
/// the piece picks the one that leaves the most ways to go wrong.
pub const KEEP: i32 = 20;
/// See [`KEEP`].
pub const TRAP: i32 = 4;

/// The game's value of `pos` with the 100-ply limit, if it is a king and one piece
/// against a bare king: the outcome for the side to move and, for a win or a loss, the
/// plies until the king capture; for a draw a tie-break in the side to move's favour
/// ([`KEEP`] for the side with the piece; for the bare king 0 if it can take the piece,
/// otherwise `-KEEP` and `-TRAP` per losing move it has). A win or loss that would come
/// after the limit is a draw.
#[inline]
pub fn solved(pos: &Position) -> Option<(Outcome, i32)> {
    let (t, weak_to_move, sk, x, wk) = locate(pos)?;
    let left = PLY_LIMIT.saturating_sub(pos.game_ply());
    Some(match t.value(index(weak_to_move, sk, x, wk)) {
        Value::Win(n) if n <= left => (Outcome::Win, n as i32),
        Value::Loss(n) if n <= left => (Outcome::Loss, n as i32),
        // The bare king takes the piece: two kings, a draw without a tie-break.
        _ if weak_to_move && KING[wk] & (1u64 << x) != 0 => (Outcome::Draw, 0),
        _ if weak_to_move => {
            // Moves of the lone king to a square where the other side wins in time.
            let losing = Squares(KING[wk] & !((1u64 << sk) | (1u64 << x)))
                .filter(|to| {
                    matches!(t.value(index(false, sk, x, to.index())),
                        Value::Win(n) if n < left)
                })
                .count() as i32;
            (Outcome::Draw, -KEEP - TRAP * losing)
        }
        _ => (Outcome::Draw, KEEP),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairychess::{End, Position};

    /// A FEN of entry `i` with the piece's side `strong_white`.
    fn fen(kind: PieceKind, i: usize, strong_white: bool) -> String {
        let (weak_to_move, sk, x, wk) = decode(i);
        let mut board = [' '; 64];
        let (k, xl, wkl) = if strong_white {
            ('K', kind.letter(), 'k')
        } else {
            ('k', kind.letter().to_ascii_lowercase(), 'K')
        };
        board[sk] = k;
        board[x] = xl;
        board[wk] = wkl;
        let placement = crate::common::fen::write_board(8, 8, |file, rank| {
            Some(board[rank * 8 + file]).filter(|&c| c != ' ')
        });
        let white_to_move = strong_white != weak_to_move;
        format!(
            "{placement} {} - - 0 1",
            if white_to_move { 'w' } else { 'b' }
        )
    }

    /// The value of `pos` from its children, read with the game's own move generator
    /// and the table (or the rules, after a capture).
    fn backed_up(pos: &Position) -> Value {
        let mut best = Value::Loss(0);
        let rank = |v: Value| match v {
            Value::Win(n) => 1000 - n as i64,
            Value::Draw => 0,
            Value::Loss(n) => -1000 + n as i64,
        };
        for m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.make_move(*m);
            let v = match child.end_by_rule() {
                Some(End::KingCaptured { .. }) => Value::Win(1),
                Some(End::KingsOnly) => Value::Draw,
                other => match probe(&child) {
                    Some(Value::Win(n)) => Value::Loss(n + 1),
                    Some(Value::Loss(n)) => Value::Win(n + 1),
                    Some(Value::Draw) => Value::Draw,
                    None => panic!("{} after {m}: {other:?}", child.to_fen()),
                },
            };
            if rank(v) > rank(best) {
                best = v;
            }
        }
        best
    }

    fn check_entries(step: usize) -> usize {
        let mut checked = 0;
        for kind in PieceKind::NON_KING {
            let t = table(kind).unwrap();
            for i in (0..ENTRIES).step_by(step) {
                let (_, sk, x, wk) = decode(i);
                if sk == x || sk == wk || x == wk {
                    continue;
                }
                let f = fen(kind, i, (i / step).is_multiple_of(2));
                let pos = Position::from_fen(&f).unwrap();
                assert_eq!(probe(&pos), Some(t.value(i)), "{f}");
                assert_eq!(backed_up(&pos), t.value(i), "{f}");
                checked += 1;
            }
        }
        checked
    }

    /// Every value is what the game's own moves make of its children's values (with the
    /// king capture and the two-kings draw by the rules): a sample here, all entries in
    /// the ignored test below.
    #[test]
    fn the_tables_agree_with_the_move_generator() {
        assert!(check_entries(97) > 20_000);
    }

    #[test]
    #[ignore = "every entry of the five tables: about half a minute in release"]
    fn every_entry_agrees_with_the_move_generator() {
        assert_eq!(check_entries(1), 5 * 64 * 63 * 62 * 2);
    }

    #[test]
    fn solved_applies_the_ply_limit_and_counts_traps() {
        // King and rook: White wins; with a mate 35 plies deep from somewhere, the
        // limit turns it into a draw late in the game.
        let t = table(PieceKind::Rook).unwrap();
        let deep = (0..PLACEMENTS)
            .find(|&i| t.value(i) == Value::Win(t.longest_win()))
            .unwrap();
        let f = fen(PieceKind::Rook, deep, true);
        let at = |fullmove: u32| {
            let p: Vec<&str> = f.split(' ').collect();
            Position::from_fen(&format!("{} w - - 0 {fullmove}", p[0])).unwrap()
        };
        let n = t.longest_win();
        // White to move at ply 2 * (fullmove - 1): the capture on ply 100 still wins.
        let last = (PLY_LIMIT - n) / 2 + 1;
        assert_eq!(solved(&at(last)), Some((Outcome::Win, n as i32)));
        assert_eq!(solved(&at(last + 1)), Some((Outcome::Draw, KEEP)));
        assert_eq!(solved(&at(1)), Some((Outcome::Win, n as i32)));
        // The bare king to move in a drawn knight ending where some of its moves lose: the
        // tie-break counts them.
        let pos = Position::from_fen("k7/8/1NK5/8/8/8/8/8 b - - 0 1").unwrap();
        let (o, tie) = solved(&pos).unwrap();
        assert_eq!(o, Outcome::Draw);
        let losing = pos
            .legal_moves()
            .iter()
            .filter(|&&m| {
                let mut c = pos.clone();
                c.make_move(m);
                matches!(solved(&c), Some((Outcome::Win, _)))
            })
            .count() as i32;
        assert!(losing > 0);
        assert_eq!(tie, -KEEP - TRAP * losing);
        // Not an ending of three pieces: no value.
        assert_eq!(
            solved(&Position::from_fen("k7/8/1NK5/8/8/8/8/7R b - - 0 1").unwrap()),
            None
        );
    }
}
