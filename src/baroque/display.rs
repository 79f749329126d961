//! The Baroque board drawn as text for a person (`d`).

use super::bitboard::squares;
use super::position::Position;
use super::rules::game_end;
use super::types::{Color, Square};

/// The board as text: files a–h, ranks 1–8, White at the bottom, upper case White,
/// frozen pieces marked with `*`, then side to move, FEN, key, frozen pieces and state.
pub fn board_diagram(pos: &Position) -> String {
    let frozen = pos.frozen(Color::White) | pos.frozen(Color::Black);
    let mut s = String::from("   +-------------------------+\n");
    for rank in (0..8).rev() {
        s.push_str(&format!(" {} |", rank + 1));
        for file in 0..8 {
            let sq = Square::from_coords(file, rank).unwrap_or(Square::from_index(0));
            match pos.piece_at(sq) {
                Some(p) => {
                    s.push(' ');
                    s.push(p.letter());
                    s.push(if frozen & (1u64 << sq.index()) != 0 {
                        '*'
                    } else {
                        ' '
                    });
                }
                None => s.push_str(" . "),
            }
        }
        s.push_str(" |\n");
    }
    s.push_str("   +-------------------------+\n");
    s.push_str("     a  b  c  d  e  f  g  h\n\n");
    let side = match pos.side_to_move() {
        Color::White => "white (upper case)",
        Color::Black => "black (lower case)",
    };
    s.push_str(&format!("Side to move: {side}\n"));
    s.push_str(&format!("FEN: {}\n", pos.to_fen()));
    s.push_str(&format!("Key: {:016X}\n", pos.key()));
    let names: Vec<String> = squares(frozen).map(|sq| sq.to_string()).collect();
    s.push_str(&format!(
        "Frozen: {}\n",
        if names.is_empty() {
            "-".to_string()
        } else {
            names.join(" ")
        }
    ));
    s.push_str(&format!(
        "King attacked: {}   Plies played: {} of 5000\n",
        if pos.in_check() { "yes" } else { "no" },
        pos.plies_played()
    ));
    s.push_str(&match game_end(pos) {
        Some(end) => format!("Game over: {end}"),
        None => "Game: in progress".to_string(),
    });
    s
}
