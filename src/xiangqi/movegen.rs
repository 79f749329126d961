//! Legal move generation, in stages (captures, quiet moves, or all; evasions when in check).
//!
//! Out of check, legality comes from a per-node "pin" analysis instead of testing each
//! move. A move can only expose its own king by
//! * moving the single piece between the king and an enemy chariot (or the enemy king,
//!   whose "flying general" attack works like a chariot's along the file) off that line;
//! * moving one of the two pieces between the king and an enemy cannon off the line, or
//!   capturing the other one (either leaves exactly one screen);
//! * stepping onto an empty line between the king and an enemy cannon, becoming its screen;
//! * moving a piece off a horse's leg: the legs of horses attacking the king are the king's
//!   diagonal neighbours.
//!
//! Each pinned piece gets a mask of destinations that keep its line closed; empty lines in
//! front of cannons become forbidden destinations. King moves and check evasions are
//! tested exactly with [`Position::is_safe_after`].

use super::attacks::{
    cannon_captures, chariot_attacks, elephant_attacks, horse_attackers, horse_attacks,
    line_attackers, ADVISOR_STEPS, BETWEEN, CHECK_ZONE, DISCOVERY, HORSE_ATTACKERS, KING_STEPS,
    LINES, SOLDIER_STEPS,
};
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};
use crate::common::MoveError;
use crate::movelist::{ListMove, MoveList};

impl ListMove for Move {
    const FILLER: Move = Move::new(
        Square::from_index_unchecked(0),
        Square::from_index_unchecked(1),
    );
}

pub use crate::game::GenType;

const MAX_PINS: usize = 12;

/// Where generated moves go: a list, or just a count (bulk counting in perft).
pub(crate) trait MoveSink {
    /// One move.
    fn add(&mut self, m: Move);
    /// A move from `from` to each square of `targets`.
    fn add_all(&mut self, from: Square, targets: Bitboard);
}

impl MoveSink for MoveList<Move> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
    #[inline(always)]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add_all(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}

/// Pinned pieces of the side to move and the destinations that keep them legal.
struct Pins {
    pinned: Bitboard,
    forbidden: Bitboard,
    len: usize,
    squares: [Square; MAX_PINS],
    masks: [Bitboard; MAX_PINS],
}

impl Pins {
    #[inline(always)]
    fn add(&mut self, sq: Square, mask: Bitboard) {
        if self.len < MAX_PINS {
            self.pinned |= Bitboard::from_square(sq);
            self.squares[self.len] = sq;
            self.masks[self.len] = mask;
            self.len += 1;
        }
    }

    /// Destinations allowed for the pinned piece on `sq`: every pin on it must hold.
    #[inline(always)]
    fn mask(&self, sq: Square) -> Bitboard {
        let mut m = Bitboard::FULL;
        for i in 0..self.len {
            if self.squares[i] == sq {
                m &= self.masks[i];
            }
        }
        m
    }
}

impl Position {
    /// Pin analysis for the side to move (which must not be in check).
    #[inline]
    fn pins(&self) -> Pins {
        let us = self.side_to_move();
        let them = us.flip();
        let ksq = self.king_square(us);
        let k = ksq.index();
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let mut pins = Pins {
            pinned: Bitboard::EMPTY,
            forbidden: Bitboard::EMPTY,
            len: 0,
            squares: [ksq; MAX_PINS],
            masks: [Bitboard::EMPTY; MAX_PINS],
        };
        let line = LINES[k];
        let rooks = (self.pieces_ck(them, PieceKind::Chariot)
            | self.pieces_ck(them, PieceKind::King))
            & line;
        for s in rooks {
            let between = BETWEEN[k][s.index()];
            let blockers = between & occ;
            if !blockers.more_than_one() {
                if let Some(b) = (blockers & ours).first() {
                    pins.add(b, between.with(s));
                }
            }
        }
        for s in self.pieces_ck(them, PieceKind::Cannon) & line {
            let between = BETWEEN[k][s.index()];
            let blockers = between & occ;
            match blockers.count() {
                0 => pins.forbidden |= between,
                2 => {
                    let keep = between.andnot(occ).with(s);
                    for b in blockers & ours {
                        pins.add(b, keep);
                    }
                }
                _ => {}
            }
        }
        let horses = self.pieces_ck(them, PieceKind::Horse);
        if horses.any() {
            for entry in &HORSE_ATTACKERS[k] {
                let behind = entry.targets & horses;
                if behind.any() && (ours & entry.mask).any() {
                    let leg = Square::from_index_unchecked(entry.block as usize);
                    // Only capturing the horse keeps the leg's horse harmless.
                    let mask = if behind.more_than_one() {
                        Bitboard::EMPTY
                    } else {
                        behind
                    };
                    pins.add(leg, mask);
                }
            }
        }
        pins
    }

    /// Targets of a non-king piece of the side to move on `from` (pseudo-legal).
    #[inline(always)]
    fn piece_targets(
        &self,
        kind: PieceKind,
        from: Square,
        us: Color,
        targets: Bitboard,
    ) -> Bitboard {
        let occ = self.occupied();
        match kind {
            PieceKind::Chariot => {
                chariot_attacks(from, occ, self.file_occupancy(from.file())) & targets
            }
            PieceKind::Cannon => {
                let fo = self.file_occupancy(from.file());
                (chariot_attacks(from, occ, fo).andnot(occ)
                    | (cannon_captures(from, occ, fo) & self.pieces_of(us.flip())))
                    & targets
            }
            PieceKind::Horse => horse_attacks(from, occ) & targets,
            PieceKind::Elephant => elephant_attacks(from, occ) & targets,
            PieceKind::Advisor => ADVISOR_STEPS[from.index()] & targets,
            PieceKind::Soldier => SOLDIER_STEPS[us.index()][from.index()] & targets,
            PieceKind::King => KING_STEPS[from.index()] & targets,
        }
    }

    /// Appends the legal moves of the chosen type to `list`. In check, only evasions.
    pub fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        self.generate_into(gen, list);
    }

    /// Number of legal moves, counted without listing them (perft's bulk counting).
    pub fn count_legal(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate_into(GenType::All, &mut counter);
        counter.0
    }

    /// The generator behind [`Position::generate`] and [`Position::count_legal`]: the
    /// moves of the rules, less those a house rule refuses (AlphaChess's history rule,
    /// which rarely has anything to refuse: one branch otherwise).
    #[inline(always)]
    fn generate_into<S: MoveSink>(&self, gen: GenType, sink: &mut S) {
        if self.rule_set() != super::RuleSet::Asian {
            if let Some(from) = self.check_history_square() {
                let mut refusing = super::house_rules::Refusing {
                    pos: self,
                    from,
                    inner: sink,
                };
                self.generate_by_movement(gen, &mut refusing);
                return;
            }
        }
        self.generate_by_movement(gen, sink);
    }

    /// The legal moves by the movement rules (own king never left attacked).
    #[inline(always)]
    fn generate_by_movement<S: MoveSink>(&self, gen: GenType, sink: &mut S) {
        let us = self.side_to_move();
        let targets = match gen {
            GenType::Captures => self.pieces_of(us.flip()),
            GenType::Quiets => !self.occupied(),
            GenType::All => !self.pieces_of(us),
        };
        if self.in_check() {
            self.generate_evasions(targets, sink);
            return;
        }
        let pins = self.pins();
        let allowed = targets.andnot(pins.forbidden);
        const KINDS: [PieceKind; 6] = [
            PieceKind::Chariot,
            PieceKind::Cannon,
            PieceKind::Horse,
            PieceKind::Soldier,
            PieceKind::Advisor,
            PieceKind::Elephant,
        ];
        for kind in KINDS {
            for from in self.pieces_ck(us, kind).andnot(pins.pinned) {
                sink.add_all(from, self.piece_targets(kind, from, us, allowed));
            }
        }
        // Pinned pieces (rare): the king is not in `KINDS`, so it never lands here.
        for from in pins.pinned {
            if let Some(piece) = self.piece_at(from) {
                let to_set = self.piece_targets(piece.kind(), from, us, allowed) & pins.mask(from);
                sink.add_all(from, to_set);
            }
        }
        let ksq = self.king_square(us);
        for to in KING_STEPS[ksq.index()] & targets {
            let m = Move::new(ksq, to);
            if self.is_safe_after(m) {
                sink.add(m);
            }
        }
    }

    /// All legal moves when in check: pseudo-legal moves tested one by one.
    fn generate_evasions<S: MoveSink>(&self, targets: Bitboard, sink: &mut S) {
        let us = self.side_to_move();
        for kind in PieceKind::ALL {
            for from in self.pieces_ck(us, kind) {
                for to in self.piece_targets(kind, from, us, targets) {
                    let m = Move::new(from, to);
                    if self.is_safe_after(m) {
                        sink.add(m);
                    }
                }
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// Whether the side to move has any legal move (it has lost if not).
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Whether `m` is pseudo-legal here: a piece of the side to move on its origin that
    /// can reach its destination by the movement rules (king safety not tested).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(m.from()) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        self.piece_targets(piece.kind(), m.from(), us, !self.pieces_of(us))
            .has(m.to())
    }

    /// Whether `m` is legal here (for moves from outside the generator: TT, killers).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m)
            && self.is_safe_after(m)
            && (self.rule_set() == super::RuleSet::Asian || !self.refused_by_house_rules(m))
    }

    /// Whether the moved piece itself attacks the enemy king from its destination (a
    /// check it uncovers does not count), without making the move.
    #[inline]
    pub fn gives_direct_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let occ = self.occupied().without(from).with(to);
        self.direct_check(us, self.king_square(us.flip()), from, to, occ)
    }

    /// Whether `us`'s piece on `from`, arriving on `to` (occupancy after the move `occ`),
    /// attacks the enemy king on `ksq` itself.
    #[inline(always)]
    fn direct_check(
        &self,
        us: Color,
        ksq: Square,
        from: Square,
        to: Square,
        occ: Bitboard,
    ) -> bool {
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let k = ksq.index();
        match piece.kind() {
            PieceKind::Chariot => LINES[k].has(to) && (BETWEEN[k][to.index()] & occ).is_empty(),
            PieceKind::Cannon => LINES[k].has(to) && (BETWEEN[k][to.index()] & occ).count() == 1,
            PieceKind::Horse => horse_attacks(to, occ).has(ksq),
            PieceKind::Soldier => SOLDIER_STEPS[us.index()][to.index()].has(ksq),
            _ => false,
        }
    }

    /// Whether the (legal) move gives check, without making it.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let ksq = self.king_square(us.flip());
        let k = ksq.index();
        let (from, to) = (m.from(), m.to());
        // Most moves land outside every square that attacks the enemy king and leave
        // none that could uncover it.
        let uncovers = DISCOVERY[k].has(from);
        if !uncovers && !CHECK_ZONE[k].has(to) {
            return false;
        }
        let occ = self.occupied().without(from).with(to);
        if self.direct_check(us, ksq, from, to, occ) {
            return true;
        }
        // A discovered check: leave a square that could uncover the king, or arrive on
        // its lines (a new cannon screen).
        if !uncovers && !LINES[k].has(to) {
            return false;
        }
        // A chariot, the facing king or a cannon whose line changed, or a horse whose
        // leg was vacated.
        let ours = self.pieces_of(us).without(from);
        let rooks = self.pieces_ck(us, PieceKind::Chariot) | self.pieces_ck(us, PieceKind::King);
        let cannons = self.pieces_ck(us, PieceKind::Cannon);
        line_attackers(ksq, occ, rooks & ours, cannons & ours).any()
            || (horse_attackers(ksq, occ) & ours & self.pieces_ck(us, PieceKind::Horse)).any()
    }

    /// Parses a coordinate move and checks that it is legal here.
    pub fn parse_legal_move(&self, s: &str) -> Result<Move, MoveError> {
        let m = Move::parse(s)?;
        if self.legal_moves().contains(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(s.to_string()))
        }
    }
}
