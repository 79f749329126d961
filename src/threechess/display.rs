//! The board as text for a person (`d`): the three sections, each drawn from its owner's
//! seat (rank 4, next to the centre, at the top; file A on the left), with the squares
//! each rank 4 meets across the centre, then the FEN and the state of the game.

use super::board::Board;
use super::types::{Player, Square};
use crate::game::Rules;

/// The diagram.
pub fn board_diagram(b: &Board) -> String {
    let mut s = String::new();
    for section in Player::ALL {
        let (left, right) = (section.next(), section.prev());
        let marker = if b.side_to_move() == section && !b.finished() {
            "  <- to move"
        } else {
            ""
        };
        s.push_str(&format!(
            "{} ({}){marker}\n     A  B  C  D  E  F  G  H\n",
            capitalised(section.name()),
            section.letter()
        ));
        for rank in (0..4u8).rev() {
            s.push_str(&format!("  {}", rank + 1));
            for file in 0..8u8 {
                match b.piece_at(Square::at(section, rank, file)) {
                    None => s.push_str("  ."),
                    Some(p) => {
                        s.push(' ');
                        s.push(p.player().letter().to_ascii_lowercase());
                        s.push(p.kind().letter());
                    }
                }
            }
            if rank == 3 {
                s.push_str(&format!(
                    "   A-D meet {} H-E, E-H meet {} D-A",
                    capitalised(left.name()),
                    capitalised(right.name())
                ));
            }
            s.push('\n');
        }
        s.push('\n');
    }
    s.push_str(&format!("FEN: {}\n", b.to_fen()));
    s.push_str(&format!(
        "Material (reference score): blue {} green {} red {}\n",
        b.reference_score(Player::Blue),
        b.reference_score(Player::Green),
        b.reference_score(Player::Red)
    ));
    match b.game_end() {
        Some(end) => s.push_str(&format!("Game over: {end}\n")),
        None => s.push_str(&format!(
            "{} to move\n",
            capitalised(b.side_to_move().name())
        )),
    }
    s
}

fn capitalised(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
