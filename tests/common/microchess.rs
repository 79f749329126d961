//! Checks shared by the Microchess tests.
#![allow(dead_code)]

use jiang::microchess::table::{layer, StateTable};
use jiang::microchess::{solution, Move, Position, MAX_PLIES};

/// Asserts that a side moving by `choose` gets at least its guaranteed payoff whatever
/// the opponent does: the worst case over every opponent strategy, computed by its own
/// backward induction over every state, equals the solution's guarantee everywhere.
/// `what` names the choosing rule in a failure.
pub fn assert_choice_secures_the_guarantee(what: &str, choose: impl Fn(&Position) -> Move) {
    let sol = solution();
    let secured = secured(choose);
    for plies in 0..=MAX_PLIES {
        for pos in layer(plies) {
            assert_eq!(
                secured.get(&pos),
                sol.value(&pos).guaranteed,
                "{what}: {}",
                pos.to_fen()
            );
        }
    }
}

/// The payoff each side secures in every state when it moves by `choose`: the worst case
/// over every opponent strategy, by backward induction over every state.
pub fn secured(choose: impl Fn(&Position) -> Move) -> StateTable<[u8; 2]> {
    StateTable::backward_induction([0u8; 2], |pos, children| {
        if children.is_empty() {
            return pos.ending().expect("over").payoffs();
        }
        let mover = pos.side_to_move().index();
        let chosen = choose(pos);
        let mut v = [0u8; 2];
        v[mover] = children.iter().find(|c| c.0 == chosen).expect("legal").1[mover];
        v[1 - mover] = children
            .iter()
            .map(|c| c.1[1 - mover])
            .min()
            .expect("moves");
        v
    })
}
