//! jiang's Microchess chooser against the course's opponents, "the Horde" (variants.md
//! section 2): Monkey (takes the king if it can, else the rook, else random), Nihilist
//! (random), and backward-induction personalities that assume a pair of utilities, one
//! for themselves and one for their opponent (our reading of the course's names):
//!
//! | personality | its utility | the opponent's, as it assumes |
//! |---|---|---|
//! | Pessimist | its payoff | minus its payoff (maximin: the solver's guarantee) |
//! | Optimist | its payoff | its payoff (the opponent helps it) |
//! | Realist | its payoff | the opponent's own payoff |
//! | Scrapper | its payoff minus the opponent's | the same, from the opponent's side |
//! | Utilitarian | the sum of both payoffs | the same |
//!
//! Ties between equally good moves are broken at random (seeded); inside a
//! personality's model, the first move in generation order.
//!
//! From many random starts, jiang plays each colour against each opponent; the test
//! asserts that jiang never gets less than its guaranteed payoff from the start, and
//! that its guarantee never drops during a game. The averages are printed:
//! `cargo test --release --test microchess_horde -- --nocapture`.

#[path = "common/rng.rs"]
mod rng;

use jiang::microchess::table::StateTable;
use jiang::microchess::{choose, solution, starts, Kind, Move, Piece, Position, Side};
use rng::Rng;

/// Starts sampled per opponent (each played with jiang as White and as Black).
const STARTS: usize = 2_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Personality {
    Nihilist,
    Monkey,
    Pessimist,
    Optimist,
    Realist,
    Scrapper,
    Utilitarian,
    /// jiang's own chooser, for comparison (self-play).
    Jiang,
}

use Personality::*;

impl Personality {
    /// The utilities (its own, the opponent's as it assumes) of a payoff pair, for a
    /// personality playing `me` (model-based personalities only).
    fn utilities(self, payoffs: [u8; 2], me: Side) -> (i32, i32) {
        let mine = i32::from(payoffs[me.index()]);
        let theirs = i32::from(payoffs[me.flip().index()]);
        match self {
            Optimist => (mine, mine),
            Realist => (mine, theirs),
            Scrapper => (mine - theirs, theirs - mine),
            Utilitarian => (mine + theirs, mine + theirs),
            _ => unreachable!("{self:?} has no model"),
        }
    }
}

/// The outcome a model-based personality playing `me` predicts from every state: each
/// side picks the move best for the utility the personality assigns it.
fn model(personality: Personality, me: Side) -> StateTable<[u8; 2]> {
    StateTable::backward_induction([0u8; 2], |pos, children| {
        let Some((_, first)) = children.first() else {
            return pos.ending().expect("over").payoffs();
        };
        let utility = |pair: [u8; 2]| {
            let (mine, theirs) = personality.utilities(pair, me);
            if pos.side_to_move() == me {
                mine
            } else {
                theirs
            }
        };
        let mut best = *first;
        for &(_, pair) in &children[1..] {
            if utility(pair) > utility(best) {
                best = pair;
            }
        }
        best
    })
}

/// One of the Horde, ready to move.
struct Player {
    personality: Personality,
    side: Side,
    model: Option<StateTable<[u8; 2]>>,
    rng: Rng,
}

impl Player {
    fn new(personality: Personality, side: Side, seed: u64) -> Player {
        let model = match personality {
            Optimist | Realist | Scrapper | Utilitarian => Some(model(personality, side)),
            _ => None,
        };
        Player {
            personality,
            side,
            model,
            rng: Rng::new(seed),
        }
    }

    fn choose(&mut self, pos: &Position) -> Move {
        let me = self.side;
        let rng = &mut self.rng;
        match (self.personality, &self.model) {
            (Nihilist, _) => best_by(rng, pos, |_| 0),
            (Monkey, _) => best_by(rng, pos, |m| match pos.captured(m) {
                Some(p) if p == Piece::new(me.flip(), Kind::King) => 2,
                Some(_) => 1,
                None => 0,
            }),
            (Pessimist, _) => best_by(rng, pos, |m| {
                i32::from(solution().value(&pos.after(m)).guaranteed[me.index()])
            }),
            (Jiang, _) => choose(pos).expect("a move").mv,
            (personality, Some(model)) => best_by(rng, pos, |m| {
                personality.utilities(model.get(&pos.after(m)), me).0
            }),
            (personality, None) => unreachable!("{personality:?} has a model"),
        }
    }
}

/// A uniformly random move among those with the highest `score`.
fn best_by(rng: &mut Rng, pos: &Position, score: impl Fn(Move) -> i32) -> Move {
    let moves = pos.legal_moves();
    let best = moves.iter().map(|&m| score(m)).max().expect("a move");
    let top: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| score(m) == best)
        .collect();
    top[rng.below(top.len())]
}

/// Plays jiang (as `jiang_side`) against `opponent` from `start`; returns the payoffs.
/// Asserts at every jiang move that its guarantee has not dropped below the start's.
fn play(start: Position, jiang_side: Side, opponent: &mut Player) -> [u8; 2] {
    let j = jiang_side.index();
    let promised = solution().value(&start).guaranteed[j];
    let mut pos = start;
    loop {
        if let Some(end) = pos.ending() {
            return end.payoffs();
        }
        let m = if pos.side_to_move() == jiang_side {
            let choice = choose(&pos).expect("a move");
            let kept = solution().value(&pos.after(choice.mv)).guaranteed[j];
            assert!(
                kept >= promised,
                "{}: {} drops the guarantee",
                pos.to_fen(),
                choice.mv
            );
            choice.mv
        } else {
            opponent.choose(&pos)
        };
        pos.play(m);
    }
}

#[test]
fn jiang_never_gets_less_than_its_guarantee_against_the_horde() {
    let all: Vec<Position> = starts().collect();
    let mut rng = Rng::new(2017);
    let sample: Vec<Position> = (0..STARTS).map(|_| all[rng.below(all.len())]).collect();
    eprintln!(
        "jiang against the Horde, {STARTS} random starts per colour (mean payoffs; 3 win, 2 tie, 1 draw, 0 loss)"
    );
    eprintln!("opponent      jiang as  guaranteed  jiang gets  opponent gets");
    for (k, personality) in [
        Nihilist,
        Monkey,
        Pessimist,
        Optimist,
        Realist,
        Scrapper,
        Utilitarian,
        Jiang,
    ]
    .into_iter()
    .enumerate()
    {
        for jiang_side in Side::ALL {
            let mut opponent = Player::new(personality, jiang_side.flip(), k as u64 * 2 + 1);
            let j = jiang_side.index();
            let (mut promised, mut got, mut theirs) = (0u64, 0u64, 0u64);
            for &start in &sample {
                let guaranteed = solution().value(&start).guaranteed[j];
                let payoffs = play(start, jiang_side, &mut opponent);
                assert!(
                    payoffs[j] >= guaranteed,
                    "{}: jiang ({jiang_side:?}) got {} < {guaranteed} against {personality:?}",
                    start.to_fen(),
                    payoffs[j]
                );
                promised += u64::from(guaranteed);
                got += u64::from(payoffs[j]);
                theirs += u64::from(payoffs[1 - j]);
            }
            let mean = |x: u64| x as f64 / STARTS as f64;
            eprintln!(
                "{:<13} {:<9} {:>10.3}  {:>10.3}  {:>13.3}",
                format!("{personality:?}"),
                jiang_side.name(),
                mean(promised),
                mean(got),
                mean(theirs)
            );
        }
    }
}
