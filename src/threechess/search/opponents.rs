//! The fallible-opponent model: how likely opponents who do not play perfectly (the
//! reference's greedy and random agents, or anything that blunders) are to leave a king
//! for us to take after a root move. The searches assume best replies and never try a
//! threat that one parries; the root adds this model's bonus to each move's score (see
//! [`super::ThreeSettings::fallibility`]).

use super::{Searcher, MAX_FALLIBILITY};
use crate::threechess::board::{Board, Status};
use crate::threechess::types::{Move, Player, Square};

/// How a short stretch of play ends, as chances (see [`fallible_chances`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Chances {
    /// `root` can take a king.
    pub win: f64,
    /// `root`'s king was taken.
    pub loss: f64,
    /// One opponent took the other's king.
    pub other: f64,
}

/// How greedy each player has been in the game so far (`b`'s history): of its moves
/// when it had a capture, the share that took a most valuable target, with a prior of
/// one such move in two (0.5 before any evidence). The reference's greedy agent comes
/// out near 1, its random agent near 0.1, and a searching engine low too (jiang about
/// 0.3: it takes only what is safe to take), so greed alone does not tell an engine from
/// a random mover.
pub fn observed_greed(b: &Board) -> [f64; 3] {
    let moves: Vec<Move> = b.history().collect();
    let mut replay = b.clone();
    for _ in &moves {
        replay.unmake_move();
    }
    let (mut hits, mut chances) = ([0u32; 3], [0u32; 3]);
    for &m in &moves {
        let mover = replay.side_to_move().index();
        let best = replay
            .legal_moves_list()
            .iter()
            .map(|r| capture_value(&replay, r.to()))
            .max()
            .unwrap_or(0);
        if best > 0 {
            chances[mover] += 1;
            hits[mover] += u32::from(capture_value(&replay, m.to()) == best);
        }
        replay.make_move(m);
    }
    std::array::from_fn(|p| f64::from(hits[p] + 1) / f64::from(chances[p] + 2))
}

/// The chances after the next `plies` moves of `root`'s opponents (from `b`, an opponent
/// to move) that `root`'s king was taken, that one opponent took the other's, or, the
/// game going on, that `root` can take a king. The model of
/// [`super::ThreeSettings::fallibility`]: an opponent takes `root`'s king whenever it can (the
/// safe assumption); otherwise, with probability `greed[opponent]` (see
/// [`observed_greed`]), it plays a capture of its most valuable target, the other king
/// included (as the reference's greedy agent), and else a uniformly random legal move
/// (as its random agent). `b` is restored.
pub fn fallible_chances(b: &mut Board, root: Player, plies: u32, greed_all: &[f64; 3]) -> Chances {
    let mover = b.side_to_move();
    if plies == 0 || mover == root {
        let can_take =
            b.king_attacked_by(root.next(), root) || b.king_attacked_by(root.prev(), root);
        if can_take {
            return Chances {
                win: 1.0,
                ..Chances::default()
            };
        }
        return Chances {
            other: next_round_risk(b, root, greed_all),
            ..Chances::default()
        };
    }
    let third = if mover.next() == root {
        mover.prev()
    } else {
        mover.next()
    };
    if b.king_attacked_by(root, mover) {
        return Chances {
            loss: 1.0,
            ..Chances::default()
        };
    }
    let list = b.legal_moves_list();
    let greed = greed_all[mover.index()].clamp(0.0, 1.0);
    if b.king_attacked_by(third, mover) {
        // The greedy part takes it; the random part only if it happens to pick it.
        let king = b.king(third);
        let takes = list.iter().filter(|r| Some(r.to()) == king).count();
        let random_takes = takes as f64 / list.len().max(1) as f64;
        let other = greed + (1.0 - greed) * random_takes;
        if other >= 1.0 {
            return Chances {
                other: 1.0,
                ..Chances::default()
            };
        }
        // The rest of the time: a random move that leaves the king.
        let mut rest = Chances::default();
        for &reply in list.iter().filter(|r| Some(r.to()) != king) {
            b.make_move(reply);
            rest.add(fallible_chances(b, root, plies - 1, greed_all));
            b.unmake_move();
        }
        let mut c = rest.scaled((1.0 - other) / (list.len() - takes).max(1) as f64);
        c.other += other;
        return c;
    }
    // A capture of the most valuable piece (when there is one) with probability `greed`,
    // else a uniformly random move, as the reference's greedy and random agents.
    let mut uniform = Chances::default();
    let mut greedy = Chances::default();
    let (mut greedy_value, mut greedy_count) = (0, 0u32);
    for &reply in list.iter() {
        let victim = capture_value(b, reply.to());
        b.make_move(reply);
        // No king is taken here (those moves were handled above): the game goes on.
        let c = fallible_chances(b, root, plies - 1, greed_all);
        b.unmake_move();
        uniform.add(c);
        if victim > greedy_value {
            (greedy, greedy_value, greedy_count) = (Chances::default(), victim, 0);
        }
        if victim == greedy_value && victim > 0 {
            greedy.add(c);
            greedy_count += 1;
        }
    }
    let uniform = uniform.scaled(1.0 / list.len().max(1) as f64);
    if greedy_count == 0 {
        return uniform;
    }
    let greedy = greedy.scaled(1.0 / f64::from(greedy_count));
    let mut mix = uniform.scaled(1.0 - greed);
    mix.add(greedy.scaled(greed));
    mix
}

/// The reference value (P 1 … K 40) of what a move to `sq` would capture (0: nothing).
fn capture_value(b: &Board, sq: Square) -> i32 {
    b.piece_at(sq).map_or(0, |p| p.kind().reference_value())
}

/// At `root`'s turn, with no king for `root` to take: the chance that one opponent takes
/// the other's king in the coming round because one already attacks it and no move of
/// `root`'s removes every such attack (the next opponent to move takes with its greed;
/// the last one, whose victim moves first and rarely escapes at random, likewise).
fn next_round_risk(b: &mut Board, root: Player, greed: &[f64; 3]) -> f64 {
    let (next, last) = (root.next(), root.prev());
    let threats = |b: &Board| {
        (
            b.king_attacked_by(last, next),
            b.king_attacked_by(next, last),
        )
    };
    let (next_threat, last_threat) = threats(b);
    if !next_threat && !last_threat {
        return 0.0;
    }
    for &m in b.legal_moves_list().iter() {
        b.make_move(m);
        let defused = threats(b) == (false, false);
        b.unmake_move();
        if defused {
            return 0.0;
        }
    }
    let greed_of = |p: Player| greed[p.index()].clamp(0.0, 1.0);
    let from_next = if next_threat { greed_of(next) } else { 0.0 };
    let from_last = if last_threat { greed_of(last) } else { 0.0 };
    from_next.max(from_last)
}

impl Chances {
    fn add(&mut self, c: Chances) {
        self.win += c.win;
        self.loss += c.loss;
        self.other += c.other;
    }

    fn scaled(self, k: f64) -> Chances {
        Chances {
            win: self.win * k,
            loss: self.loss * k,
            other: self.other * k,
        }
    }
}

impl Searcher<'_> {
    /// The root bonus of move `m` for opponents that are not perfect (see
    /// [`super::ThreeSettings::fallibility`]): the weight times (the chance that the root player
    /// can take a king after the opponents' next moves − the chance its own king was
    /// taken − the chance one opponent took the other's, which ends the game without
    /// our win), by [`fallible_chances`].
    pub(super) fn fallible_bonus(&mut self, m: Move, greed: &[f64; 3]) -> i32 {
        self.b.make_move(m);
        let chances = if self.b.status() == Status::Ongoing {
            fallible_chances(&mut self.b, self.root, 2, greed)
        } else {
            Chances::default()
        };
        self.b.unmake_move();
        let weight = f64::from(self.settings.fallibility.clamp(0, MAX_FALLIBILITY));
        (weight * (chances.win - chances.loss - chances.other)).round() as i32
    }
}
