//! CBF, the XML game format of 象棋桥 (ChessBridge). Read only.
//!
//! The shape (as the files and the readers of walker8088/cchess and others show it):
//! `<ChineseChessRecord>` holding `<Head>` (`<Name>`, `<Contest>`, `<Round>`, `<Date>`,
//! `<Site>`, `<Red>`, `<Black>`, `<RecordResult>` 0 unknown, 1 Red won, 2 Black won, 3 or
//! 4 a draw, `<FEN>`) and `<MoveList>`: one `<Move value="XY-XY">` per move, X the file
//! 0..8 from Red's left and Y the row 0..9 from Black's side, its text (often CDATA)
//! the comment after the move; the first, `00-00`, stands for the start position and
//! holds the game's comment. The files seen keep one line of moves.

use super::error::{ErrorKind, Place, RecordError};
use super::notation::illegal_reason;
use super::tree::GameTree;
use super::{Game, Loaded, MAX_LINE_PLIES};
use crate::xiangqi::{Move, Position, Square};

/// The line and column of a byte offset of `text`.
fn place(text: &str, offset: usize) -> Place {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Place::Line { line, column }
}

/// The text between `<name>` and `</name>` (`None` when absent or empty: `<name />`).
fn element<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{name}>"))? + start;
    Some(&text[start..end])
}

fn unescape(s: &str) -> String {
    let s = s.trim();
    let s = s
        .strip_prefix("<![CDATA[")
        .and_then(|r| r.strip_suffix("]]>"))
        .map_or_else(
            || {
                s.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&apos;", "'")
                    .replace("&amp;", "&")
            },
            str::to_string,
        );
    s.trim().to_string()
}

/// An attribute's value in a start tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

fn cbf_square(x: u8, y: u8) -> Option<Square> {
    let (x, y) = (x.checked_sub(b'0')?, y.checked_sub(b'0')?);
    (x < 9 && y < 10).then(|| Square::from_coords(i32::from(x), 9 - i32::from(y)))?
}

/// Reads a CBF document.
pub fn read(text: &str) -> Result<Loaded, RecordError> {
    if !text.contains("<ChineseChessRecord") {
        return Err(RecordError::new(
            Place::Line { line: 1, column: 1 },
            ErrorKind::NotThisFormat {
                format: "CBF",
                found: "no <ChineseChessRecord> element".into(),
            },
        ));
    }
    let head = element(text, "Head").unwrap_or("");
    let fen = element(head, "FEN").map(unescape);
    let start = match fen.as_deref() {
        None | Some("") => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(|e| {
            RecordError::new(
                place(text, text.find("<FEN>").unwrap_or(0)),
                ErrorKind::Position(e),
            )
        })?,
    };
    let mut game = Game::new(start.to_fen());
    for (name, tag) in [
        ("Name", "Title"),
        ("Contest", "Event"),
        ("Round", "Round"),
        ("Date", "Date"),
        ("Site", "Site"),
        ("Red", "Red"),
        ("Black", "Black"),
        ("Commentator", "Annotator"),
    ] {
        if let Some(v) = element(head, name).map(unescape).filter(|v| !v.is_empty()) {
            game.set_tag(tag, &v);
        }
    }
    let result = match element(head, "RecordResult").map(str::trim) {
        Some("1") => "1-0",
        Some("2") => "0-1",
        Some("3" | "4") => "1/2-1/2",
        _ => "*",
    };
    game.set_tag("Result", result);

    let mut warnings = Vec::new();
    let list_at = text.find("<MoveList").unwrap_or(text.len());
    let mut pos = start;
    let mut node = GameTree::ROOT;
    let mut at = list_at;
    let mut first = true;
    while let Some(found) = text[at..]
        .find("<Move ")
        .or_else(|| text[at..].find("<Move>"))
    {
        let tag_start = at + found;
        let Some(tag_len) = text[tag_start..].find('>') else {
            warnings.push(RecordError::malformed(
                place(text, tag_start),
                "a <Move> tag is not closed",
            ));
            break;
        };
        let tag = &text[tag_start..tag_start + tag_len + 1];
        let body_start = tag_start + tag_len + 1;
        let (comment, next) = if tag.ends_with("/>") {
            (String::new(), body_start)
        } else {
            match text[body_start..].find("</Move>") {
                Some(end) => (
                    unescape(&text[body_start..body_start + end]),
                    body_start + end + 7,
                ),
                None => {
                    warnings.push(RecordError::malformed(
                        place(text, tag_start),
                        "<Move> without </Move>",
                    ));
                    break;
                }
            }
        };
        at = next;
        let value = attribute(tag, "value").unwrap_or("").as_bytes();
        if first {
            first = false;
            if value == b"00-00" {
                game.tree.add_comment(GameTree::ROOT, &comment);
                continue;
            }
        }
        let squares = match value {
            [a, b, b'-', c, d] => cbf_square(*a, *b).zip(cbf_square(*c, *d)),
            _ => None,
        };
        let text_of = String::from_utf8_lossy(value).into_owned();
        let Some((from, to)) = squares.filter(|(f, t)| f != t) else {
            warnings.push(RecordError::bad_move(
                place(text, tag_start),
                text_of,
                "not two squares XY-XY; the game ends here",
            ));
            break;
        };
        let m = Move::new(from, to);
        if !pos.is_legal(m) {
            warnings.push(RecordError::bad_move(
                place(text, tag_start),
                format!("{text_of} ({m})"),
                format!("{}; the game ends here", illegal_reason(&pos, m)),
            ));
            break;
        }
        if game.tree.ply(node) >= MAX_LINE_PLIES {
            warnings.push(RecordError::new(
                place(text, tag_start),
                ErrorKind::TooLarge(format!("more than {MAX_LINE_PLIES} plies")),
            ));
            break;
        }
        pos.make_move(m);
        node = game.tree.add_move(node, m);
        game.tree.add_comment(node, &comment);
    }
    Ok(Loaded { game, warnings })
}
