//! A FEN and a list of ICCS moves, as jiang's protocols take a position:
//! `position fen <FEN> moves h2e2 h9g7` (or `position startpos moves …`). Read: the same,
//! `position` and `fen` optional, `startpos` or a FEN, then the moves (with or without
//! the word `moves`), over one or several lines. Written: `position fen <FEN> moves …`
//! (`position startpos …` from the start position), the main line only.

use super::error::{ErrorKind, Place, RecordError};
use super::notation::illegal_reason;
use super::{Game, Loaded, MAX_LINE_PLIES};
use crate::xiangqi::{Move, Position, START_FEN};

fn is_iccs(token: &str) -> bool {
    let b = token.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2].to_ascii_lowercase())
        && b[3].is_ascii_digit()
}

/// Whether a text looks like this format (for guessing a file's format).
pub fn looks_like(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("");
    matches!(first, "position" | "fen" | "startpos") || first.matches('/').count() == 9
}

/// Reads a FEN and moves.
pub fn read(text: &str) -> Result<Loaded, RecordError> {
    // Tokens with their places.
    let mut tokens: Vec<(&str, Place)> = Vec::new();
    for (l, line) in text.lines().enumerate() {
        let mut col = 0;
        for word in line.split_whitespace() {
            let at = line[col..].find(word).map_or(col, |i| col + i);
            let column = line[..at].chars().count() + 1;
            tokens.push((
                word,
                Place::Line {
                    line: l + 1,
                    column,
                },
            ));
            col = at + word.len();
        }
    }
    let mut i = 0;
    if tokens.first().is_some_and(|(t, _)| *t == "position") {
        i += 1;
    }
    let start_place = tokens.get(i).map_or(Place::Nowhere, |t| t.1);
    let fen = if tokens.get(i).is_some_and(|(t, _)| *t == "startpos") {
        i += 1;
        START_FEN.to_string()
    } else {
        if tokens.get(i).is_some_and(|(t, _)| *t == "fen") {
            i += 1;
        }
        let fen_start = i;
        while i < tokens.len() && tokens[i].0 != "moves" && !is_iccs(tokens[i].0) {
            i += 1;
        }
        if i == fen_start {
            START_FEN.to_string()
        } else {
            tokens[fen_start..i]
                .iter()
                .map(|t| t.0)
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let mut pos = Position::from_fen(&fen)
        .map_err(|e| RecordError::new(start_place, ErrorKind::Position(e)))?;
    let mut game = Game::new(pos.to_fen());
    if tokens.get(i).is_some_and(|(t, _)| *t == "moves") {
        i += 1;
    }
    let mut warnings = Vec::new();
    let mut node = 0;
    for &(token, place) in &tokens[i.min(tokens.len())..] {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            game.set_tag("Result", token);
            break;
        }
        let m = match Move::parse(&token.to_ascii_lowercase()) {
            Ok(m) if pos.is_legal(m) => m,
            Ok(m) => {
                let why = illegal_reason(&pos, m);
                warnings.push(RecordError::bad_move(
                    place,
                    token,
                    format!("{why}; the game ends here"),
                ));
                break;
            }
            Err(_) => {
                warnings.push(RecordError::bad_move(
                    place,
                    token,
                    "not an ICCS move like h2e2; the game ends here",
                ));
                break;
            }
        };
        if game.tree.len() > MAX_LINE_PLIES {
            warnings.push(RecordError::new(
                place,
                ErrorKind::TooLarge(format!("more than {MAX_LINE_PLIES} plies")),
            ));
            break;
        }
        pos.make_move(m);
        node = game.tree.add_move(node, m);
    }
    Ok(Loaded { game, warnings })
}

/// Writes the start position and the main line.
pub fn write(game: &Game) -> String {
    let mut out = if game.from_start_position() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start_fen)
    };
    let moves = game.main_line_iccs();
    if !moves.is_empty() {
        out.push_str(" moves ");
        out.push_str(&moves.join(" "));
    }
    out.push('\n');
    out
}
