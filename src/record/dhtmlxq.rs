//! DhtmlXQ (东萍象棋 DPXQ's UBB tags, embedded by forums and web pages): read and write.
//!
//! The tags, as the public players and their descriptions use them (东萍象棋网's DhtmlXQ
//! player; the summary in walker8088/cchess `doc/象棋棋谱文件格式.md`):
//!
//! * `[DhtmlXQ_binit]`: 64 digits, the squares of the 32 pieces in the order Red's
//!   chariot, horse, elephant, advisor, king, advisor, elephant, horse, chariot, cannon,
//!   cannon, five pawns, then Black's; each square two digits `x y`, `x` the file 0..8 from
//!   Red's left, `y` the row 0..9 from Black's side; `99` for a piece off the board. It
//!   does not say who moves: the first move's piece does. (jiang also writes and reads
//!   `[DhtmlXQ_fen]`, which wins when present.)
//! * `[DhtmlXQ_movelist]`: the main line, four digits a move, `x y` of the origin and of
//!   the destination.
//! * `[DhtmlXQ_move_A_B_C]`: variation `C`, which replaces move `B` (counted from 1) of
//!   variation `A` (0 is the main line).
//! * `[DhtmlXQ_commentN]`: the comment after move `N` of the main line (`0`: before the
//!   first); `[DhtmlXQ_commentC_N]`: after move `N` of variation `C`. `||` is a line break.
//! * `[DhtmlXQ_title]`, `_event`, `_date`, `_place`, `_round`, `_red`, `_black`,
//!   `_result` (红胜, 黑胜, 和棋).

use super::error::{ErrorKind, Place, RecordError};
use super::notation::illegal_reason;
use super::raw::Board;
use super::tree::{GameTree, NodeId};
use super::{Game, Loaded, MAX_NODES};
use crate::xiangqi::{Color, Move, Piece, PieceKind, Position, Square, START_FEN};
use std::collections::BTreeMap;

const ORDER: [PieceKind; 16] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

/// Tags and the PGN tags they stand for.
const TAGS: [(&str, &str); 7] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("black", "Black"),
];

fn place_of(text: &str, offset: usize) -> Place {
    let before = text.get(..offset).unwrap_or(text);
    Place::Line {
        line: before.matches('\n').count() + 1,
        column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
    }
}

/// Every `[DhtmlXQ_name]value[/DhtmlXQ_name]`, with the place of its start.
fn tags(text: &str) -> Vec<(String, String, Place)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find("[DhtmlXQ_") {
        let start = at + found;
        let name_start = start + "[DhtmlXQ_".len();
        let Some(name_len) = text[name_start..].find(']') else {
            break;
        };
        let name = &text[name_start..name_start + name_len];
        let value_start = name_start + name_len + 1;
        let close = format!("[/DhtmlXQ_{name}]");
        match text[value_start..].find(&close) {
            Some(len) => {
                out.push((
                    name.to_string(),
                    text[value_start..value_start + len].to_string(),
                    place_of(text, start),
                ));
                at = value_start + len + close.len();
            }
            None => at = value_start,
        }
    }
    out
}

fn square(x: u8, y: u8) -> Option<Square> {
    let (x, y) = (x.checked_sub(b'0')?, y.checked_sub(b'0')?);
    (x < 9 && y < 10).then(|| Square::from_coords(i32::from(x), 9 - i32::from(y)))?
}

/// The moves of a move list, syntax only; `Err` at the first group that is not a move.
fn moves_of(list: &str) -> Result<Vec<(Square, Square)>, usize> {
    let digits: Vec<u8> = list.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(4)
        .enumerate()
        .map(|(i, c)| match c {
            [a, b, c, d] => square(*a, *b)
                .zip(square(*c, *d))
                .filter(|(f, t)| f != t)
                .ok_or(i),
            _ => Err(i),
        })
        .collect()
}

/// A variation as the tags give it.
struct Variation {
    parent: usize,
    /// The step (from 1) of the parent's line it replaces.
    step: usize,
    moves: String,
    place: Place,
}

/// Reads DhtmlXQ text.
pub fn read(text: &str) -> Result<Loaded, RecordError> {
    let all = tags(text);
    if all.is_empty() {
        return Err(RecordError::new(
            Place::Line { line: 1, column: 1 },
            ErrorKind::NotThisFormat {
                format: "DhtmlXQ",
                found: "no [DhtmlXQ_…] tag".into(),
            },
        ));
    }
    let get = |name: &str| all.iter().find(|(n, _, _)| n == name);
    let mut variations: BTreeMap<usize, Variation> = BTreeMap::new();
    let mut warnings = Vec::new();
    let main = get("movelist").map_or(String::new(), |t| t.1.clone());
    variations.insert(
        0,
        Variation {
            parent: 0,
            step: 1,
            moves: main,
            place: get("movelist").map_or(Place::Nowhere, |t| t.2),
        },
    );
    for (name, value, place) in &all {
        let Some(numbers) = name.strip_prefix("move_") else {
            continue;
        };
        let parts: Vec<Option<usize>> = numbers.split('_').map(|p| p.parse().ok()).collect();
        match parts.as_slice() {
            [Some(a), Some(b), Some(c)] if *c > 0 && *b > 0 => {
                variations.insert(
                    *c,
                    Variation {
                        parent: *a,
                        step: *b,
                        moves: value.clone(),
                        place: *place,
                    },
                );
            }
            _ => warnings.push(RecordError::malformed(
                *place,
                format!("[DhtmlXQ_{name}] is not move_A_B_C"),
            )),
        }
    }

    // The start position: the FEN tag, else binit and the first move's side.
    let first_from = moves_of(&variations[&0].moves)
        .ok()
        .and_then(|m| m.first().map(|f| f.0));
    let start = if let Some((_, fen, place)) = get("fen") {
        Position::from_fen(fen.trim())
            .map_err(|e| RecordError::new(*place, ErrorKind::Position(e)))?
    } else if let Some((_, binit, place)) = get("binit") {
        let digits: Vec<u8> = binit.bytes().filter(u8::is_ascii_digit).collect();
        if digits.len() != 64 {
            return Err(RecordError::malformed(
                *place,
                format!("binit has {} digits, not 64", digits.len()),
            ));
        }
        let mut board = Board::empty();
        for (i, pair) in digits.chunks(2).enumerate() {
            let Some(sq) = square(pair[0], pair[1]) else {
                continue; // "99": off the board
            };
            let color = if i < 16 { Color::Red } else { Color::Black };
            board.squares[sq.index()] = Some(Piece::new(color, ORDER[i % 16]));
        }
        let side = first_from
            .and_then(|s| board.squares[s.index()])
            .map_or(Color::Red, |p| p.color());
        Position::from_fen(&board.fen(side))
            .map_err(|e| RecordError::new(*place, ErrorKind::Position(e)))?
    } else {
        Position::startpos()
    };
    let mut game = Game::new(start.to_fen());
    for (tag, pgn) in TAGS {
        if let Some((_, v, _)) = get(tag) {
            let v = v.trim();
            if !v.is_empty() {
                game.set_tag(pgn, v);
            }
        }
    }
    if let Some((_, r, _)) = get("result") {
        let result = match r.trim() {
            "红胜" | "红方胜" | "紅勝" | "1-0" => "1-0",
            "黑胜" | "黑方胜" | "黑勝" | "0-1" => "0-1",
            "和棋" | "和局" | "和" | "1/2-1/2" => "1/2-1/2",
            _ => "*",
        };
        game.set_tag("Result", result);
    }

    // Each variation's nodes by step, and the first step it holds.
    let mut lines: BTreeMap<usize, (usize, Vec<NodeId>)> = BTreeMap::new();
    let node_at = |lines: &BTreeMap<usize, (usize, Vec<NodeId>)>,
                   mut var: usize,
                   step: usize|
     -> Option<NodeId> {
        if step == 0 {
            return Some(GameTree::ROOT);
        }
        for _ in 0..=lines.len() {
            let (first, nodes) = lines.get(&var)?;
            if step >= *first {
                return nodes.get(step - first).copied();
            }
            var = variations.get(&var)?.parent;
        }
        None
    };
    for (&index, v) in &variations {
        let parent_node = if index == 0 {
            Some(GameTree::ROOT)
        } else if v.parent >= index || !lines.contains_key(&v.parent) {
            None
        } else {
            node_at(&lines, v.parent, v.step - 1)
        };
        let Some(mut node) = parent_node else {
            warnings.push(RecordError::malformed(
                v.place,
                format!("variation {index} hangs from a move that is not there; skipped"),
            ));
            continue;
        };
        let mut pos = game.tree.position_at(&start, node);
        let mut nodes = Vec::new();
        let moves = match moves_of(&v.moves) {
            Ok(m) => m,
            Err(i) => {
                warnings.push(RecordError::bad_move(
                    v.place,
                    v.moves.chars().skip(4 * i).take(4).collect::<String>(),
                    format!("not a move (four digits x y x y); variation {index} ends before it"),
                ));
                moves_of(&v.moves.chars().take(4 * i).collect::<String>()).unwrap_or_default()
            }
        };
        for (k, (from, to)) in moves.into_iter().enumerate() {
            let m = Move::new(from, to);
            if !pos.is_legal(m) || game.tree.len() > MAX_NODES {
                let why = if pos.is_legal(m) {
                    format!("more than {MAX_NODES} moves")
                } else {
                    illegal_reason(&pos, m).to_string()
                };
                warnings.push(RecordError::bad_move(
                    v.place,
                    m.to_string(),
                    format!(
                        "{why} (move {} of variation {index}); the variation ends here",
                        v.step + k
                    ),
                ));
                break;
            }
            pos.make_move(m);
            node = game.tree.add_move(node, m);
            nodes.push(node);
        }
        lines.insert(index, (if index == 0 { 1 } else { v.step }, nodes));
    }
    for (name, value, place) in &all {
        let Some(numbers) = name.strip_prefix("comment") else {
            continue;
        };
        let (var, step) = match numbers.split_once('_') {
            Some((c, n)) => (c.parse().ok(), n.parse().ok()),
            None => (Some(0), numbers.parse().ok()),
        };
        let text = value.replace("||", "\n");
        match var.zip(step).and_then(|(c, n)| node_at(&lines, c, n)) {
            Some(node) => game.tree.add_comment(node, &text),
            None => warnings.push(RecordError::malformed(
                *place,
                format!("[DhtmlXQ_{name}] names no move; dropped"),
            )),
        }
    }
    Ok(Loaded { game, warnings })
}

fn coords(sq: Square) -> String {
    format!("{}{}", sq.file(), 9 - sq.rank())
}

/// Writes a game as DhtmlXQ.
pub fn write(game: &Game) -> String {
    let mut out = String::from("[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n");
    for (tag, pgn) in TAGS {
        if let Some(v) = game.tag(pgn) {
            out.push_str(&format!(
                "[DhtmlXQ_{tag}]{}[/DhtmlXQ_{tag}]\n",
                v.replace('[', "(").replace(']', ")")
            ));
        }
    }
    let result = match game.result() {
        "1-0" => "红胜",
        "0-1" => "黑胜",
        "1/2-1/2" => "和棋",
        _ => "未知",
    };
    out.push_str(&format!("[DhtmlXQ_result]{result}[/DhtmlXQ_result]\n"));
    let start = game.start_position();
    let mut binit = String::new();
    for color in [Color::Red, Color::Black] {
        let mut used = [false; 90];
        for kind in ORDER {
            let sq = start.pieces_ck(color, kind).find(|s| !used[s.index()]);
            match sq {
                Some(s) => {
                    used[s.index()] = true;
                    binit.push_str(&coords(s));
                }
                None => binit.push_str("99"),
            }
        }
    }
    out.push_str(&format!("[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]\n"));
    if game.start_fen != START_FEN {
        out.push_str(&format!("[DhtmlXQ_fen]{}[/DhtmlXQ_fen]\n", game.start_fen));
    }
    let tree = &game.tree;
    // Variations numbered as they are met: (first node, parent variation, step).
    let mut vars: Vec<(NodeId, usize, usize)> = Vec::new();
    if let Some(&first) = tree.node(GameTree::ROOT).children.first() {
        vars.push((first, 0, 1));
    }
    let mut comments = Vec::new();
    let root_comment = &tree.node(GameTree::ROOT).comment;
    if !root_comment.is_empty() {
        comments.push(("0".to_string(), root_comment.clone()));
    }
    let mut i = 0;
    while i < vars.len() {
        let (first, parent_var, step) = vars[i];
        let mut list = String::new();
        let mut id = first;
        let mut s = step;
        loop {
            let node = tree.node(id);
            if let Some(m) = node.mv {
                list.push_str(&coords(m.from()));
                list.push_str(&coords(m.to()));
            }
            if !node.comment.is_empty() {
                let key = if i == 0 {
                    s.to_string()
                } else {
                    format!("{i}_{s}")
                };
                comments.push((key, node.comment.clone()));
            }
            // The alternatives to this move start new variations of this one.
            if tree.is_first_child(id) {
                for &alt in tree.node(node.parent).children.iter().skip(1) {
                    vars.push((alt, i, s));
                }
            }
            match node.children.first() {
                Some(&next) => {
                    id = next;
                    s += 1;
                }
                None => break,
            }
        }
        if i == 0 {
            out.push_str(&format!("[DhtmlXQ_movelist]{list}[/DhtmlXQ_movelist]\n"));
        } else {
            out.push_str(&format!("[DhtmlXQ_move_{parent_var}_{step}_{i}]{list}[/DhtmlXQ_move_{parent_var}_{step}_{i}]\n"));
        }
        i += 1;
    }
    for (key, text) in comments {
        let text = text.replace('\n', "||").replace('[', "(").replace(']', ")");
        out.push_str(&format!(
            "[DhtmlXQ_comment{key}]{text}[/DhtmlXQ_comment{key}]\n"
        ));
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}
