//! Jieqi FEN, JieqiBox's format (its `NOTATION_FORMAT.md`, issue #13):
//!
//! `BOARD SIDE POOL CAPTURED HALFMOVE FULLMOVE [ASSIGNMENT]`
//!
//! * `BOARD`: Xiangqi's letters (`RNBAKCP`, Black in lower case), `X`/`x` a Red/Black
//!   face-down piece.
//! * `SIDE`: `w` (Red) or `b` (Black).
//! * `POOL`: the pieces not yet seen, `R2r2N2n2…` (letter and count), `-` for none.
//! * `CAPTURED`: the face-down pieces captured whose kind the writer knows, same
//!   spelling.
//! * `ASSIGNMENT` (jiang's extension, for full information): the true kinds of the
//!   face-down pieces, one letter each in the board field's order (rank 9 to 0, file a to
//!   i), in their side's case; the pools must then hold exactly these pieces.
//!
//! JieqiBox's legacy format (`BOARD POOL SIDE - - HALFMOVE FULLMOVE`) and its
//! limited-knowledge form (`BOARD SIDE - - HALFMOVE FULLMOVE POOL`) are read too; the
//! new format is written.

use super::position::{attacked, Position};
use super::types::*;
use crate::common::fen::{read_rank, split_ranks, write_board};
use crate::common::FenError;
use std::fmt;

/// Why a Jieqi FEN was refused, beyond the common reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JieqiFenError {
    /// A pool or captured field that is not letter-count pairs.
    BadPool(String),
    /// A king in a pool or captured field.
    KingInPool,
    /// A side has more face-down pieces than unseen pieces in its pool.
    PoolTooSmall {
        /// The side's name.
        side: &'static str,
        /// Its face-down pieces on the board.
        hidden: u32,
        /// Its pool's size.
        pool: u32,
    },
    /// The assignment field has a letter that is not a piece of the right side.
    BadAssignment(String),
    /// The assignment field does not name one kind per face-down piece.
    AssignmentCount {
        /// Letters found.
        found: usize,
        /// Face-down pieces on the board.
        expected: usize,
    },
    /// The assignment's kinds are not exactly a side's pool.
    AssignmentNotPool(&'static str),
}

impl fmt::Display for JieqiFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JieqiFenError::BadPool(s) => {
                write!(f, "pool field '{s}' is not letter-count pairs like R2r2P5")
            }
            JieqiFenError::KingInPool => write!(f, "a king cannot be in a pool"),
            JieqiFenError::PoolTooSmall { side, hidden, pool } => write!(
                f,
                "{side} has {hidden} face-down pieces but only {pool} unseen pieces in its pool"
            ),
            JieqiFenError::BadAssignment(s) => {
                write!(
                    f,
                    "assignment field '{s}' is not face-down kinds in their side's case"
                )
            }
            JieqiFenError::AssignmentCount { found, expected } => write!(
                f,
                "assignment names {found} kinds for {expected} face-down pieces"
            ),
            JieqiFenError::AssignmentNotPool(side) => {
                write!(f, "{side}'s assigned kinds are not exactly its pool")
            }
        }
    }
}

/// JieqiBox's start position.
pub const START_FEN: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2r2N2n2B2b2A2a2C2c2P5p5 - 0 1";

fn read_pool(s: &str) -> Result<[[u8; 7]; 2], FenError> {
    let mut pool = [[0u8; 7]; 2];
    if s == "-" {
        return Ok(pool);
    }
    let bad = || FenError::game(JieqiFenError::BadPool(s.to_string()));
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let kind = Kind::from_letter(c).ok_or_else(bad)?;
        if kind == Kind::King {
            return Err(FenError::game(JieqiFenError::KingInPool));
        }
        i += 1;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let n: u32 = if i == start {
            1
        } else {
            chars[start..i]
                .iter()
                .collect::<String>()
                .parse()
                .map_err(|_| bad())?
        };
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        let slot = &mut pool[color][kind as usize];
        let total = *slot as u32 + n;
        if total > 16 {
            return Err(bad());
        }
        *slot = total as u8;
    }
    Ok(pool)
}

fn write_pool(pool: &[[u8; 7]; 2]) -> String {
    let mut s = String::new();
    for k in Kind::ALL {
        for color in Color::ALL {
            let n = pool[color.index()][k as usize];
            if n > 0 {
                s.push(k.letter_of(color));
                s.push_str(&n.to_string());
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn side_of(s: &str) -> Option<Color> {
    match s {
        "w" | "r" => Some(Color::Red),
        "b" => Some(Color::Black),
        _ => None,
    }
}

fn number(s: Option<&str>, max: u32, default: u32, half: bool) -> Result<u32, FenError> {
    let Some(s) = s else {
        return Ok(default);
    };
    match s.parse::<u32>() {
        Ok(n) if n <= max && (half || n >= 1) => Ok(n),
        _ if half => Err(FenError::BadHalfmove {
            text: s.to_string(),
            max,
        }),
        _ => Err(FenError::BadFullmove {
            text: s.to_string(),
            max,
        }),
    }
}

/// Reads a Jieqi FEN (see the module's description).
pub fn from_fen(fen: &str) -> Result<Position, FenError> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.is_empty() {
        return Err(FenError::Empty);
    }
    if f.len() > 7 {
        return Err(FenError::TrailingText(f[7..].join(" ")));
    }
    let (side_text, pool_text, captured_text, half, full, assignment);
    let legacy = f.len() >= 2 && side_of(f[1]).is_none() && f.len() >= 3 && side_of(f[2]).is_some();
    if legacy {
        // BOARD POOL SIDE - - HALFMOVE FULLMOVE
        for p in f.iter().skip(3).take(2) {
            if *p != "-" {
                return Err(FenError::BadField(p.to_string()));
            }
        }
        side_text = f[2];
        pool_text = f[1];
        captured_text = "-";
        half = f.get(5).copied();
        full = f.get(6).copied();
        assignment = None;
    } else {
        side_text = f.get(1).copied().unwrap_or("w");
        let seventh = f.get(6).copied();
        let limited = seventh.is_some_and(|s| s.chars().any(|c| c.is_ascii_digit()));
        if limited {
            // BOARD SIDE - - HALFMOVE FULLMOVE POOL
            for p in f.iter().skip(2).take(2) {
                if *p != "-" {
                    return Err(FenError::BadField(p.to_string()));
                }
            }
            pool_text = seventh.unwrap_or("-");
            captured_text = "-";
            assignment = None;
        } else {
            pool_text = f.get(2).copied().unwrap_or("-");
            captured_text = f.get(3).copied().unwrap_or("-");
            assignment = seventh;
        }
        half = f.get(4).copied();
        full = f.get(5).copied();
    }
    let side = side_of(side_text).ok_or_else(|| FenError::BadSide {
        found: side_text.to_string(),
        expected: "w or b",
    })?;
    let pool = read_pool(pool_text)?;
    let captured = read_pool(captured_text)?;
    let halfmove = number(half, 10_000, 0, true)?;
    let fullmove = number(full, 100_000, 1, false)?;

    let mut board = [0u8; SQUARES];
    let ranks = split_ranks(f[0], 10)?;
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i;
        read_rank(text, 9, rank, |file, c| {
            let sq = rank * 9 + file;
            let color = if c.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            if c == 'x' || c == 'X' {
                if start_color(sq) != Some(color) || START_KIND[sq] == Kind::King as u8 {
                    return Err(FenError::ImpossibleSquare {
                        letter: c,
                        square: square_name(sq),
                    });
                }
                board[sq] = face_down(color, NONE);
                return Ok(());
            }
            let kind = Kind::from_letter(c).ok_or(FenError::UnknownPiece(c))?;
            if kind == Kind::King && !in_palace(sq, color) {
                return Err(FenError::ImpossibleSquare {
                    letter: c,
                    square: square_name(sq),
                });
            }
            board[sq] = face_up(color, kind);
            Ok(())
        })?;
    }

    // Counts: face up + unseen + known captured face-down pieces, per kind.
    for color in Color::ALL {
        let ci = color.index();
        let mut kings = 0;
        let mut hidden = 0u32;
        let mut up = [0u32; 7];
        for &c in board.iter() {
            if c == 0 || cell_color(c) != color {
                continue;
            }
            if is_hidden(c) {
                hidden += 1;
            } else {
                up[cell_kind(c) as usize] += 1;
                if cell_kind(c) == Kind::King as u8 {
                    kings += 1;
                }
            }
        }
        match kings {
            0 => return Err(FenError::MissingKing(color.name())),
            1 => {}
            _ => return Err(FenError::ExtraKing(color.name())),
        }
        for k in Kind::ALL {
            let n = up[k as usize] + pool[ci][k as usize] as u32 + captured[ci][k as usize] as u32;
            if n > Kind::COUNTS[k as usize] as u32 {
                return Err(FenError::TooMany {
                    side: color.name(),
                    letter: k.letter_of(color),
                    count: n,
                    max: Kind::COUNTS[k as usize] as u32,
                });
            }
        }
        let pool_size: u32 = pool[ci].iter().map(|&n| n as u32).sum();
        if pool_size < hidden {
            return Err(FenError::game(JieqiFenError::PoolTooSmall {
                side: color.name(),
                hidden,
                pool: pool_size,
            }));
        }
    }

    let full_info = assignment.is_some();
    if let Some(a) = assignment {
        let hidden_squares: Vec<usize> = (0..10)
            .rev()
            .flat_map(|r| (0..9).map(move |f| r * 9 + f))
            .filter(|&s| board[s] != 0 && is_hidden(board[s]))
            .collect();
        let letters: Vec<char> = a.chars().collect();
        if letters.len() != hidden_squares.len() {
            return Err(FenError::game(JieqiFenError::AssignmentCount {
                found: letters.len(),
                expected: hidden_squares.len(),
            }));
        }
        let mut assigned = [[0u8; 7]; 2];
        for (&sq, &c) in hidden_squares.iter().zip(letters.iter()) {
            let color = cell_color(board[sq]);
            let kind = Kind::from_letter(c)
                .filter(|&k| k != Kind::King && k.letter_of(color) == c)
                .ok_or_else(|| FenError::game(JieqiFenError::BadAssignment(a.to_string())))?;
            board[sq] = face_down(color, kind as u8);
            assigned[color.index()][kind as usize] += 1;
        }
        for color in Color::ALL {
            if assigned[color.index()] != pool[color.index()] {
                return Err(FenError::game(JieqiFenError::AssignmentNotPool(
                    color.name(),
                )));
            }
        }
    }

    let pos = Position::from_parts(board, side, pool, captured, full_info, halfmove, fullmove);
    let them = side.flip();
    if attacked(&pos.board, pos.kings[them.index()] as usize, side, true) {
        return Err(FenError::OpponentInCheck);
    }
    Ok(pos)
}

/// The position in JieqiBox's new format, with the assignment field when the position
/// has full information and face-down pieces.
pub fn to_fen(pos: &Position) -> String {
    let board = write_board(9, 10, |file, rank| {
        let c = pos.board[rank * 9 + file];
        if c == 0 {
            None
        } else if is_hidden(c) {
            Some(match cell_color(c) {
                Color::Red => 'X',
                Color::Black => 'x',
            })
        } else {
            Some(Kind::from_index(cell_kind(c)).letter_of(cell_color(c)))
        }
    });
    let side = match pos.side {
        Color::Red => "w",
        Color::Black => "b",
    };
    let mut s = format!(
        "{board} {side} {} {} {} {}",
        write_pool(&pos.pool),
        write_pool(&pos.captured),
        pos.halfmove,
        pos.fullmove
    );
    if pos.full {
        let mut a = String::new();
        for r in (0..10).rev() {
            for f in 0..9 {
                let c = pos.board[r * 9 + f];
                if c != 0 && is_hidden(c) && cell_kind(c) != NONE {
                    a.push(Kind::from_index(cell_kind(c)).letter_of(cell_color(c)));
                }
            }
        }
        if !a.is_empty() {
            s.push(' ');
            s.push_str(&a);
        }
    }
    s
}
