//! Move generation. Without a check rule every move the pieces can make is legal, so
//! the generator is the whole legality test: a side may leave its king attacked, and a
//! side whose king is gone has no moves (the game is over).

use super::attacks::{Squares, COMBATANT_CAPTURES, COMBATANT_MOVES};
use super::position::Position;
use super::types::{Move, PieceKind};
use crate::common::MoveError;
use crate::game::GenType;
use crate::movelist::MoveList;

impl Position {
    /// Appends the moves of type `gen` of the side to move (none once its king is gone).
    /// The draws by rule are not looked at here: [`Position::legal_moves`] does that.
    pub fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        let us = self.side_to_move();
        if !self.has_king(us) {
            return;
        }
        let own = self.pieces_of(us);
        let enemy = self.pieces_of(us.flip());
        let occ = self.occupied();
        let empty = !occ;
        let targets = match gen {
            GenType::Captures => enemy,
            GenType::Quiets => empty,
            GenType::All => !own,
        };
        for kind in [
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Squire,
            PieceKind::King,
        ] {
            for from in Squares(self.pieces(us, kind)) {
                let att = Self::attacks_of(kind, from, occ) & targets;
                for to in Squares(att) {
                    list.push(Move::new(from, to));
                }
            }
        }
        let capture_to = if gen == GenType::Quiets { 0 } else { enemy };
        let quiet_to = if gen == GenType::Captures { 0 } else { empty };
        for from in Squares(self.pieces(us, PieceKind::Combatant)) {
            let att = (COMBATANT_CAPTURES[from.index()] & capture_to)
                | (COMBATANT_MOVES[from.index()] & quiet_to);
            for to in Squares(att) {
                list.push(Move::new(from, to));
            }
        }
    }

    /// Whether after `m` (a move of the side to move) its own king can be captured.
    #[inline]
    pub fn leaves_king_attacked(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(king) = self.king_square(us) else {
            return true;
        };
        let king = if king == from { to } else { king };
        let occ = (self.occupied() & !from.bb()) | to.bb();
        // The piece captured on `to`, if any, attacks nothing any more.
        let enemy = self.pieces_of(us.flip()) & !to.bb();
        self.all_attackers_to(king, occ) & enemy != 0
    }

    /// The search's move generation: all moves, except that a side whose king is
    /// attacked gets only the moves that save it (or capture the enemy king). Every other
    /// move loses the king at once, so it can never do better than a move that saves it.
    /// With no such move, one move is kept (any: all lose the king on the next ply), so
    /// that the search still sees the king captured, at the right distance.
    pub fn generate_for_search(&self, gen: GenType, list: &mut MoveList<Move>) {
        if !self.in_check() {
            self.generate(gen, list);
            return;
        }
        let mut all = MoveList::new();
        self.generate(gen, &mut all);
        let enemy_king = self.king_square(self.side_to_move().flip());
        let first = list.len();
        for &m in all.iter() {
            if Some(m.to()) == enemy_king || !self.leaves_king_attacked(m) {
                list.push(m);
            }
        }
        if list.len() == first && gen == GenType::All {
            if let Some(&m) = all.iter().next() {
                list.push(m);
            }
        }
    }

    /// Whether `m` is a move of the side to move here (for moves from outside the
    /// generator: the transposition table, killers). Draws by rule are not looked at.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let Some(p) = self.piece_at(from) else {
            return false;
        };
        if p.color() != us || !self.has_king(us) || self.pieces_of(us) & to.bb() != 0 {
            return false;
        }
        let reach = match p.kind() {
            PieceKind::Combatant => {
                if self.occupied() & to.bb() != 0 {
                    COMBATANT_CAPTURES[from.index()]
                } else {
                    COMBATANT_MOVES[from.index()]
                }
            }
            kind => Self::attacks_of(kind, from, self.occupied()),
        };
        reach & to.bb() != 0
    }

    /// Whether `m` captures.
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        self.occupied() & m.to().bb() != 0
    }

    /// Every legal move; none when the game is over (king captured, a draw by rule).
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut list = MoveList::new();
        if self.end_by_rule().is_none() {
            self.generate(GenType::All, &mut list);
        }
        list
    }

    /// Reads a move like `e2e4` and checks that it is legal here.
    pub fn parse_legal_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse(text)?;
        if let Some(end) = self.end_by_rule() {
            return Err(MoveError::GameOver {
                text: text.to_string(),
                end: super::game_impl::end_reason(end),
            });
        }
        if self.is_legal(m) {
            return Ok(m);
        }
        let reason = match self.piece_at(m.from()) {
            None => format!("no piece on {}", m.from()),
            Some(p) if p.color() != self.side_to_move() => format!(
                "the {} on {} is not {}'s",
                p.kind().name(),
                m.from(),
                self.side_to_move().name()
            ),
            Some(p) => format!(
                "a {} cannot move from {} to {} here",
                p.kind().name(),
                m.from(),
                m.to()
            ),
        };
        Err(MoveError::IllegalBecause {
            text: m.to_string(),
            reason,
        })
    }
}
