//! The Xiangqi board drawn as text for a person (`d`).

use super::{Color, Position, Square};

/// Whether the terminal is likely to show Chinese characters (a UTF-8 locale).
fn utf8_terminal() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"].iter().any(|v| {
        std::env::var(v).is_ok_and(|s| {
            let s = s.to_ascii_lowercase();
            s.contains("utf-8") || s.contains("utf8")
        })
    })
}

/// The board as text: files a–i, ranks 0–9, Red at the bottom; letters (upper case Red),
/// with a second diagram in Chinese characters on UTF-8 terminals.
pub fn board_diagram(pos: &Position) -> String {
    board_diagram_with(pos, utf8_terminal())
}

/// [`board_diagram`] with the Chinese diagram chosen explicitly.
pub fn board_diagram_with(pos: &Position, chinese: bool) -> String {
    let mut s = String::new();
    s.push_str("   +-------------------+");
    if chinese {
        s.push_str("      ");
    }
    s.push('\n');
    for rank in (0..10).rev() {
        let mut letters = format!(" {rank} |");
        let mut hanzi = format!(" {rank} ");
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("on board");
            match pos.piece_at(sq) {
                Some(p) => {
                    letters.push(' ');
                    letters.push(p.letter());
                    hanzi.push(p.chinese());
                }
                None => {
                    letters.push_str(" .");
                    hanzi.push('．');
                }
            }
        }
        letters.push_str(" |");
        s.push_str(&letters);
        if chinese {
            s.push_str("  ");
            s.push_str(&hanzi);
        }
        s.push('\n');
        if rank == 5 {
            s.push_str("   |~~~~~~~ river ~~~~~|\n");
        }
    }
    s.push_str("   +-------------------+\n");
    s.push_str("     a b c d e f g h i\n\n");
    let side = match pos.side_to_move() {
        Color::Red => "red (upper case)",
        Color::Black => "black (lower case)",
    };
    s.push_str(&format!("Side to move: {side}\n"));
    s.push_str(&format!("FEN: {}\n", pos.to_fen()));
    s.push_str(&format!("Key: {:016X}\n", pos.key()));
    let checkers: Vec<String> = pos.checkers().map(|sq| sq.to_string()).collect();
    s.push_str(&format!(
        "Checkers: {}\n",
        if checkers.is_empty() {
            "-".to_string()
        } else {
            checkers.join(" ")
        }
    ));
    s.push_str(&format!(
        "No-capture plies: {} (60-move rule count {} of 120)   Moves since FEN: {}\n",
        pos.rule60(),
        pos.rule60_count(),
        pos.game_ply()
    ));
    s.push_str(&match pos.game_result() {
        Some(end) => format!("Game over: {end}"),
        None => "Game: in progress".to_string(),
    });
    s
}
