//! The lab's Microchess model evaluation (`jiang-lab microchess-models`): its exact
//! evaluation of a pairing against quantities the engine computes another way, and its
//! course players against the course's definitions.

use jiang::microchess::opponents::RATIONAL_BELIEFS;
use jiang::microchess::solve::pick;
use jiang::microchess::{solution, starts, Position};
use jiang_lab::microchess::models::{jiang, pair, sampled_rational, simple};

/// The solution's expected payoffs against a random mover (`Value::expected`, its own
/// induction) are what the pairing evaluator gives jiang's rule against the course's
/// Nihilist, start by start.
#[test]
fn pairing_a_random_mover_reproduces_the_solution_expectations() {
    let me = jiang("solution", |pos: &Position, c| pick(c, pos.side_to_move()));
    let values = pair(&me, &simple(false));
    for (start, v) in starts().zip(&values) {
        let expected = solution().value(&start).expected;
        assert!(
            (v[0] - expected[0]).abs() < 1e-4,
            "{}: jiang White {} vs {}",
            start.to_fen(),
            v[0],
            expected[0]
        );
        // Slot 2: jiang's payoff as Black, the random mover White.
        assert!(
            (v[2] - expected[1]).abs() < 1e-4,
            "{}: jiang Black {} vs {}",
            start.to_fen(),
            v[2],
            expected[1]
        );
    }
}

/// The course's pessimist keeps its guaranteed payoff (it believes its opponent wants to
/// hurt it: maximin), so against it nobody gets more than the guarantee's complement and
/// it never gets less than its own guarantee.
#[test]
fn the_pessimist_keeps_its_guarantee() {
    let belief = RATIONAL_BELIEFS
        .iter()
        .find(|b| b.name == "pessimist")
        .expect("pessimist");
    let pessimist = sampled_rational(*belief, 7);
    let me = jiang("solution", |pos: &Position, c| pick(c, pos.side_to_move()));
    for (start, v) in starts().zip(pair(&me, &pessimist)) {
        let sure = solution().value(&start).guaranteed;
        // Slot 1: the pessimist's payoff as Black; slot 3: as White.
        assert!(
            v[1] >= f32::from(sure[1]) - 1e-4,
            "{}: as Black {} of {}",
            start.to_fen(),
            v[1],
            sure[1]
        );
        assert!(
            v[3] >= f32::from(sure[0]) - 1e-4,
            "{}: as White {} of {}",
            start.to_fen(),
            v[3],
            sure[0]
        );
    }
}
