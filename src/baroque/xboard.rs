//! Baroque in XBoard (CECP): how the game is described to XBoard, and how its moves are
//! told so that XBoard draws the captures.
//!
//! XBoard 4.9 knows none of Baroque's capture rules. It is run with `-testLegality
//! false` and only draws what the engines say; a move `d4d1` would leave the pincer that
//! a withdrawal from d5 captures on the board. XBoard's **multi-leg moves** (CECP "Alien"
//! notation, `move d4d5,` then `move d5d1`, relayed to the other engine as `d4d5,d5d1`)
//! move the piece from the first leg's start to the last leg's end and remove what
//! stands on the square between the legs. So a capturing move is told with its victim
//! as the middle square. XBoard 4.9.1 removes **one** such square per move (with three
//! legs it puts the piece on the first leg's end, not the last), so a move that captures
//! two or three pieces away from its destination (a double pinch, a coordinator's two
//! corners) is told with one of them, the most valuable; the others stay on XBoard's
//! board as **ghosts**. A ghost is removed by the next move of jiang that captures
//! nothing away from its destination: that move is told with the ghost as its middle
//! square. To know the ghosts, jiang replays the moves as XBoard was told them (CECP
//! keeps them) on an occupancy board.
//!
//! The imitator's suffixes (`d4d2c`) are not sent: XBoard would read the letter as a
//! promotion. A suffixed move always captures, and its victim (a pincer, a coordinator or
//! a withdrawer) names the method, so the middle square tells the moves apart.
//!
//! Moves from XBoard (`usermove`) may be plain (`d4d1`, a person moving a piece; its
//! captures are made, and XBoard's drawing of them waits for jiang's next move as
//! ghosts do) or multi-leg: the legs must join up, and each middle square must hold a
//! piece the move captures or be empty (a ghost XBoard removes).
//!
//! One exception, XBoard's **castling form**: when the middle square shows a piece of the
//! mover's own colour (a ghost of its side; for Black also an empty square), XBoard 4.9.1
//! takes the move for castling when it relays it to the other engine and rewrites
//! `g6g5,g5h5` as `g6h5,g5g5`: the whole move first, then the middle square and a square
//! beside the destination (XBoard's square for a castling rook, on the destination's rank,
//! possibly off the board). Such a move is read as the move from the first square to
//! the second with the third as its middle square. jiang names such a ghost only when no
//! ghost of the other colour is shown, so that a relay stays in the plain form when it can
//! (a person's capture leaves only ghosts of jiang's colour, and XBoard's own board removes
//! them rightly whichever form is relayed).

use super::bitboard::{bit, squares, Bitboard};
use super::eval::piece_value;
use super::fen::START_FEN;
use super::movegen::legal_moves;
use super::position::Position;
use super::types::{Color, Move, Square};
use crate::common::MoveError;
use crate::game::XboardVariant;

/// How XBoard draws Baroque: pincers with the ferz's picture (a pawn's would make XBoard
/// apply en passant and promotion to them), leaper = knight, imitator = bishop,
/// coordinator = rook, withdrawer = queen, freezer = the commoner's bell, king = king.
/// The `piece` commands give XBoard the moves (not the captures, which Betza notation
/// cannot express); it must run with `-testLegality false`.
pub const XBOARD: XboardVariant = XboardVariant {
    pieces: ".LICWP....FK.licwp....fk",
    board: "8x8+0_fairy",
    betza: &[
        ("P&", "mR"),
        ("L&", "mQ"),
        ("I&", "mQ"),
        ("C&", "mQ"),
        ("W&", "mQ"),
        ("F&", "mQ"),
    ],
};

/// A move as XBoard writes it: the squares of its legs (`d4d5,d5d1` → d4, d5, d1) and
/// a letter after the last square, if any.
struct Legs {
    squares: Vec<Square>,
    suffix: Option<char>,
}

/// Reads `d4d5,d5d1` (two or more legs that join up: each leg starts where the previous
/// one ended), a plain `d4d1` / `d4d2c`, or XBoard's castling form `g6h5,g5g5` (module
/// docs), read as g6, g5, h5.
fn read_legs(text: &str) -> Option<Legs> {
    let t = text.trim();
    if !t.is_ascii() || t.is_empty() {
        return None;
    }
    let legs: Vec<&str> = t.split(',').collect();
    if let Some(legs) = read_castling_form(&legs) {
        return Some(legs);
    }
    let mut out = vec![];
    let mut suffix = None;
    for (i, leg) in legs.iter().enumerate() {
        let last = i + 1 == legs.len();
        let ok_len = leg.len() == 4 || (last && leg.len() == 5);
        if !ok_len {
            return None;
        }
        let from = Square::parse(&leg[0..2])?;
        let to = Square::parse(&leg[2..4])?;
        if leg.len() == 5 {
            suffix = leg.chars().nth(4);
        }
        match out.last() {
            None => out.push(from),
            Some(&prev) if prev == from => {}
            Some(_) => return None,
        }
        out.push(to);
    }
    Some(Legs {
        squares: out,
        suffix,
    })
}

/// XBoard's castling form of a two-leg move (module docs): `FROM TO , MIDDLE SIDE`, where
/// SIDE is on TO's rank, one file after TO if FROM's file is after MIDDLE's and one file
/// before it otherwise (XBoard writes it even off the board: file `i` or the character
/// before `a`). The legs do not join up, so no move of the ordinary form reads as this.
fn read_castling_form(legs: &[&str]) -> Option<Legs> {
    let [first, second] = legs else {
        return None;
    };
    if first.len() != 4 || second.len() != 4 {
        return None;
    }
    let from = Square::parse(&first[0..2])?;
    let to = Square::parse(&first[2..4])?;
    let middle = Square::parse(&second[0..2])?;
    if middle == to || middle == from {
        return None;
    }
    let side = second.as_bytes();
    let step: i32 = if from.file() > middle.file() { 1 } else { -1 };
    let side_file = i32::from(side[2]) - i32::from(b'a');
    let side_rank = i32::from(side[3]) - i32::from(b'1');
    (side_file == to.file() + step && side_rank == to.rank()).then(|| Legs {
        squares: vec![from, middle, to],
        suffix: None,
    })
}

/// Whether `text` is written in XBoard's multi-leg form.
pub fn is_multi_leg(text: &str) -> bool {
    text.contains(',')
}

/// Reads a multi-leg move (`d4d5,d5d1`): the legal move from the first square to the
/// last whose captures include every middle square that holds a piece (an empty middle
/// square is a ghost XBoard removes). An imitator move that fits several methods is told
/// apart by its victim on a middle square, or by a suffix on the last leg.
pub fn parse_multi_leg(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let malformed = || MoveError::Malformed {
        text: t.to_string(),
        game: "Baroque",
        expected: "XBoard's form, legs that join up: d4d5,d5d1",
    };
    let legs = read_legs(t).ok_or_else(malformed)?;
    let (Some(&from), Some(&to)) = (legs.squares.first(), legs.squares.last()) else {
        return Err(malformed());
    };
    if pos.king_missing() {
        return Err(super::movegen::game_over(t));
    }
    let middle: Bitboard = legs.squares[1..legs.squares.len() - 1]
        .iter()
        .fold(0, |acc, &s| acc | bit(s));
    let occupied_middle = middle & pos.board().occ;
    let fits: Vec<Move> = legal_moves(pos)
        .into_iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| match legs.suffix {
            Some(c) => m.suffixed() && m.to_string().ends_with(c),
            None => true,
        })
        .filter(|&m| occupied_middle & !pos.captures_of(m) == 0)
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal(t.to_string())),
        several => Err(MoveError::IllegalBecause {
            text: t.to_string(),
            reason: format!(
                "ambiguous: {}",
                several
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// The squares XBoard shows occupied, and which of them hold White's pieces, after the
/// moves `seen` (as it was told them) from `base` (or the start position): each move
/// empties its start and middle squares and puts the piece of its start on its last one.
/// `None` if the record cannot be read.
fn shown_board(base: Option<&str>, seen: &[String]) -> Option<(Bitboard, Bitboard)> {
    let start = Position::from_fen(base.unwrap_or(START_FEN)).ok()?;
    let mut occ = start.board().occ;
    let mut white = start.board().colors[Color::White.index()];
    for text in seen {
        let legs = read_legs(text)?;
        let (&first, &last) = (legs.squares.first()?, legs.squares.last()?);
        let mover_is_white = white & bit(first) != 0;
        for &s in &legs.squares[..legs.squares.len() - 1] {
            occ &= !bit(s);
            white &= !bit(s);
        }
        occ |= bit(last);
        if mover_is_white {
            white |= bit(last);
        } else {
            white &= !bit(last);
        }
    }
    Some((occ, white))
}

/// Every legal move of `pos` and how XBoard is told it (module docs): a move that
/// captures away from its destination names its most valuable such victim as the middle
/// square; a move that does not names a ghost, if XBoard shows one; other moves are
/// written plainly, without the imitator's suffix.
pub fn xboard_moves(pos: &Position, base: Option<&str>, seen: &[String]) -> Vec<(Move, String)> {
    let real = pos.board().occ;
    let (shown, shown_white) = shown_board(base, seen).unwrap_or((real, 0));
    let ghosts = shown & !real;
    // A ghost of the mover's colour makes XBoard relay the move in its castling form
    // (module docs): name one only when XBoard shows no ghost of the other colour.
    let theirs = match pos.side_to_move() {
        Color::White => ghosts & !shown_white,
        Color::Black => ghosts & shown_white,
    };
    let ghost_order = [theirs, ghosts & !theirs];
    legal_moves(pos)
        .into_iter()
        .map(|m| {
            let away = pos.captures_of(m) & !bit(m.to());
            let victim = squares(away).max_by_key(|&s| {
                (
                    pos.piece_at(s).map_or(0, |p| piece_value(p.kind())),
                    -(s.index() as i32),
                )
            });
            let middle = victim.or_else(|| {
                ghost_order
                    .iter()
                    .find_map(|&g| squares(g & !bit(m.to())).next())
            });
            let text = match middle {
                Some(k) => format!("{}{k},{k}{}", m.from(), m.to()),
                None => format!("{}{}", m.from(), m.to()),
            };
            (m, text)
        })
        .collect()
}
