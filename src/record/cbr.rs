//! CBR and CBL, the binary formats of 象棋桥 (ChessBridge): one game, and a library of
//! games. Read only.
//!
//! The facts used, from the public descriptions (*象棋桥文件格式*, `doc/象棋桥文件格式.docx`
//! and `doc/象棋棋谱文件格式.md` in walker8088/cchess, and that package's CBR reader):
//!
//! * a game starts with the 16 bytes `CCBridge Record\0`; text is UTF-16LE, each field
//!   ending at its first NUL: title at 180 (128 bytes), event 692, round 756, date 884,
//!   site 948, Red 1076, Black 1300 (64 bytes each);
//! * 2076: the result (1 Red won, 2 Black won, 3 or 4 a draw); 2112: who moves first
//!   (1 Red, 2 Black);
//! * 2120: the board, 90 bytes, row by row from Black's side (index `row * 9 + file`),
//!   pieces `0x11`..`0x17` Red's chariot, horse, elephant, advisor, king, cannon, pawn
//!   and `0x21`..`0x27` Black's;
//! * 2214: a 32-bit little-endian word, non-zero when the game has a comment: then its
//!   length in bytes and the text;
//! * then move records of 4 bytes: flags, 0, from, to (squares as on the board above);
//!   flag 1: the line ends after this move; 2: a variation follows (after this move's
//!   line); 4: a comment follows (a 32-bit length, then the text). Four zero bytes end
//!   the game.
//! * a library starts with `CCBridgeLibrary\0`, the number of games at 60 (32 bits); the
//!   games follow in blocks of 4096 bytes from an offset that depends on that number.

use super::error::{ErrorKind, Place, RecordError};
use super::raw::{build, Board, RawNode, RawTree};
use super::text::decode_utf16;
use super::{Loaded, MAX_NODES};
use crate::xiangqi::{Color, Piece, PieceKind, Square};

/// The first bytes of a game.
pub const RECORD_MAGIC: &[u8] = b"CCBridge Record\0";
/// The first bytes of a library.
pub const LIBRARY_MAGIC: &[u8] = b"CCBridgeLibrary\0";

const BOARD: usize = 2120;
const MOVES: usize = 2214;
const BLOCK: usize = 4096;

/// The string fields: (offset, size, PGN tag).
const FIELDS: [(usize, usize, &str); 7] = [
    (180, 128, "Title"),
    (692, 64, "Event"),
    (756, 64, "Round"),
    (884, 64, "Date"),
    (948, 64, "Site"),
    (1076, 64, "Red"),
    (1300, 64, "Black"),
];

/// UTF-16LE text up to its first NUL.
fn utf16_field(bytes: &[u8]) -> String {
    let end = bytes
        .chunks_exact(2)
        .position(|c| c == [0, 0])
        .map_or(bytes.len(), |i| i * 2);
    decode_utf16(&bytes[..end], false)
}

fn cbr_square(v: u8) -> Option<Square> {
    (v < 90).then(|| Square::from_coords(i32::from(v % 9), 9 - i32::from(v / 9)))?
}

fn piece_of(code: u8) -> Option<Piece> {
    let color = match code >> 4 {
        1 => Color::Red,
        2 => Color::Black,
        _ => return None,
    };
    let kind = match code & 0x0F {
        1 => PieceKind::Chariot,
        2 => PieceKind::Horse,
        3 => PieceKind::Elephant,
        4 => PieceKind::Advisor,
        5 => PieceKind::King,
        6 => PieceKind::Cannon,
        7 => PieceKind::Soldier,
        _ => return None,
    };
    Some(Piece::new(color, kind))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], RecordError> {
        match self.at.checked_add(n).filter(|&e| e <= self.bytes.len()) {
            Some(end) => {
                let out = &self.bytes[self.at..end];
                self.at = end;
                Ok(out)
            }
            None => Err(RecordError::new(
                Place::Byte(self.at),
                ErrorKind::Truncated { what },
            )),
        }
    }

    fn u32(&mut self, what: &'static str) -> Result<usize, RecordError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    fn comment(&mut self) -> Result<String, RecordError> {
        let len = self.u32("a comment length")?;
        let text = self.take(len, "a comment (its length runs past the end)")?;
        Ok(utf16_field(text))
    }
}

/// Reads one CBR game (the bytes may go on past it, as in a library).
pub fn read(bytes: &[u8]) -> Result<Loaded, RecordError> {
    read_at(bytes, 0)
}

/// Reads the game at `base` of `bytes`; places are offsets in `bytes`.
fn read_at(bytes: &[u8], base: usize) -> Result<Loaded, RecordError> {
    let game_bytes = bytes.get(base..).unwrap_or(&[]);
    if !game_bytes.starts_with(RECORD_MAGIC) {
        return Err(RecordError::new(
            Place::Byte(base),
            ErrorKind::NotThisFormat {
                format: "CBR",
                found: "it does not start with 'CCBridge Record'".into(),
            },
        ));
    }
    if game_bytes.len() < MOVES {
        return Err(RecordError::new(
            Place::Byte(base + game_bytes.len()),
            ErrorKind::Truncated {
                what: "the 2214-byte CBR header",
            },
        ));
    }
    let mut board = Board::empty();
    for (i, &code) in game_bytes[BOARD..BOARD + 90].iter().enumerate() {
        if code == 0 {
            continue;
        }
        let (Some(piece), Some(sq)) = (piece_of(code), cbr_square(i as u8)) else {
            return Err(RecordError::malformed(
                Place::Byte(base + BOARD + i),
                format!("0x{code:02x} is not a piece"),
            ));
        };
        board.squares[sq.index()] = Some(piece);
    }
    let first = if game_bytes[2112] == 2 {
        Color::Black
    } else {
        Color::Red
    };

    let mut warnings = Vec::new();
    let mut raw = RawTree::new();
    let mut c = Cursor {
        bytes,
        at: base + MOVES,
    };
    match c.u32("the game's comment flag") {
        Ok(0) => {}
        Ok(_) => match c.comment() {
            Ok(text) => raw.nodes[0].comment = text,
            Err(e) => warnings.push(e),
        },
        Err(e) => warnings.push(e),
    }
    let mut owed: Vec<usize> = Vec::new();
    let mut parent = 0;
    while warnings.is_empty() {
        if raw.nodes.len() > MAX_NODES {
            warnings.push(RecordError::new(
                Place::Byte(c.at),
                ErrorKind::TooLarge(format!("more than {MAX_NODES} moves")),
            ));
            break;
        }
        let offset = c.at;
        let head = match c.take(4, "a move record") {
            Ok(h) => [h[0], h[1], h[2], h[3]],
            Err(e) => {
                // Only a game without moves may end without its four zero bytes.
                if raw.nodes.len() > 1 {
                    warnings.push(e);
                }
                break;
            }
        };
        if head == [0; 4] {
            break;
        }
        let comment = if head[0] & 4 != 0 {
            match c.comment() {
                Ok(t) => t,
                Err(e) => {
                    warnings.push(e);
                    break;
                }
            }
        } else {
            String::new()
        };
        let id = raw.add(
            parent,
            RawNode {
                from: cbr_square(head[2]),
                to: cbr_square(head[3]),
                comment,
                offset,
                children: Vec::new(),
            },
        );
        if head[0] & 2 != 0 {
            owed.push(parent);
        }
        if head[0] & 1 == 0 {
            parent = id;
        } else if let Some(p) = owed.pop() {
            parent = p;
        } else {
            break;
        }
    }
    let (mut game, mut refused) = build(&board, first, &raw, base + BOARD)?;
    warnings.append(&mut refused);
    for (offset, size, tag) in FIELDS {
        let text = utf16_field(&game_bytes[offset..offset + size]);
        let text = text.trim();
        if !text.is_empty() {
            game.set_tag(tag, text);
        }
    }
    let result = match game_bytes[2076] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    game.set_tag("Result", result);
    Ok(Loaded { game, warnings })
}

/// Reads every game of a CBL library.
pub fn read_library(bytes: &[u8]) -> Vec<Result<Loaded, RecordError>> {
    if !bytes.starts_with(LIBRARY_MAGIC) {
        return vec![Err(RecordError::new(
            Place::Byte(0),
            ErrorKind::NotThisFormat {
                format: "CBL",
                found: "it does not start with 'CCBridgeLibrary'".into(),
            },
        ))];
    }
    let count = bytes
        .get(60..64)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let start = match count {
        0..=128 => 101_952,
        129..=256 => 137_280,
        257..=384 => 151_080,
        385..=512 => 207_936,
        _ => 349_248,
    };
    let Some(first) = bytes.get(start..).and_then(|rest| {
        rest.windows(RECORD_MAGIC.len())
            .position(|w| w == RECORD_MAGIC)
    }) else {
        return Vec::new();
    };
    let mut games = Vec::new();
    let mut at = start + first;
    while at < bytes.len() {
        if bytes[at..].starts_with(RECORD_MAGIC) {
            games.push(read_at(bytes, at));
        }
        at += BLOCK;
    }
    games
}
