//! The board drawn as text for a person (`d`).

use super::game_impl::game_end_of;
use super::position::{Position, PLY_LIMIT};
use super::types::{Color, Square};

/// The board as text: files a–h, ranks 1–8, White at the bottom, upper case White.
pub fn board_diagram(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str("   +-----------------+\n");
    for rank in (0..8u8).rev() {
        s.push_str(&format!(" {} |", rank + 1));
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            s.push(' ');
            s.push(pos.piece_at(sq).map_or('.', |p| p.letter()));
        }
        s.push_str(" |\n");
    }
    s.push_str("   +-----------------+\n");
    s.push_str("     a b c d e f g h\n\n");
    let side = match pos.side_to_move() {
        Color::White => "white (upper case)",
        Color::Black => "black (lower case)",
    };
    s.push_str(&format!("Side to move: {side}\n"));
    s.push_str(&format!("FEN: {}\n", pos.to_fen()));
    s.push_str(&format!("Key: {:016X}\n", pos.key()));
    let attacked: Vec<&str> = Color::ALL
        .iter()
        .filter(|&&c| pos.king_attacked(c))
        .map(|c| c.name())
        .collect();
    s.push_str(&format!(
        "King attacked: {}\n",
        if attacked.is_empty() {
            "-".to_string()
        } else {
            attacked.join(", ")
        }
    ));
    s.push_str(&format!(
        "Plies played: {} of {PLY_LIMIT}\n",
        pos.game_ply()
    ));
    s.push_str(&match pos.end() {
        Some(end) => format!("Game over: {}", game_end_of(end)),
        None => "Game: in progress".to_string(),
    });
    s
}
