//! XQF, the binary format of 象棋演播室 (XQStudio) and XiangQi Wizard: read, every
//! version, with variations and comments.
//!
//! The facts used, from the public descriptions: 过河象 (XQStudio's author), *XQF 1.0
//! 文件格式说明* (2001; `XQFTOOLS/XQF.TXT` in xqbase/eleeye), the key derivation and the
//! record flags of the later versions as the open readers implement them (xqbase/eleeye
//! `XQFTOOLS/xqf2pgn.cpp`, and the `cchess` package's XQF reader, walker8088/cchess):
//!
//! * bytes 0-1 `XQ`; byte 2 the version (10 = 1.0; 11 and up are encrypted, 12 and up also
//!   shuffle the piece table). Bytes 3-15 are the keys of the later versions: 3 the mask,
//!   8-11 four "or" bytes, 12 the key sum, 13 KeyXY, 14 KeyXYf, 15 KeyXYt.
//! * 0x10-0x2F: 32 bytes, one per piece, Red's chariot, horse, elephant, advisor, king,
//!   advisor, elephant, horse, chariot, cannon, cannon, five pawns, then Black's in the
//!   same order; each `X*10+Y` (X the file 0..8 from Red's left, Y the rank 0..9 from
//!   Red's side), anything above 89 is a piece off the board.
//! * 0x33 the result (1 Red won, 2 Black won, 3 or 4 a draw); 0x40 the record's kind
//!   (full game, opening, middle game, endgame).
//! * strings as a length byte and GBK text: title 0x50 (64 bytes), event 0xD0 (64), date
//!   0x110, site 0x120, Red 0x130, Black 0x140 (16 each), time rule 0x150 (64), Red's time
//!   0x190, Black's time 0x1A0, annotator 0x1D0, author 0x1E0 (16 each).
//! * from 0x400, move records in depth-first order, the first one (move "0") standing for
//!   the start position with the game's comment. Version 10: 4 bytes (from + 24, to + 32,
//!   flags, reserved) and a 32-bit little-endian comment length, then the comment; the
//!   flags' high nibble says a move follows, the low one that a variation follows.
//!   Versions 11 and up: every byte from 0x400 on is encrypted (byte at offset `p` minus
//!   `F32Keys[p % 32]`); the flags are 0x80 (a move follows), 0x40 (a variation follows),
//!   0x20 (a comment length follows, minus `KeyRMKSize`); from and to are less `KeyXYf`
//!   and `KeyXYt` too.
//! * keys: `KeyXY = (54·k13² + 221)·k13`, `KeyXYf = (54·k14² + 221)·KeyXY`,
//!   `KeyXYt = (54·k15² + 221)·KeyXYf` (all modulo 256), `KeyRMKSize = (k12·256 + k13)
//!   mod 32000 + 767`; `F32Keys[i]` = the i-th byte of `[(C) Copyright Mr. Dong Shiwei.]`
//!   AND `(k[12 + i%4] AND k3) OR k[8 + i%4]`. Piece squares: less KeyXY; from version
//!   12 the byte `i` of the table belongs to piece `(KeyXY + i + 1) mod 32`.
//! * After a move record, its subtree comes first (if "a move follows"), then the
//!   variation that replaces it (if "a variation follows").
//!
//! The side to move is that of the first move's piece (XQF does not store it).

use super::error::{ErrorKind, Place, RecordError};
use super::raw::{build, Board, RawNode, RawTree};
use super::text::decode_gbk;
use super::{Loaded, MAX_NODES};
use crate::xiangqi::{Color, Piece, PieceKind, Square};

const HEADER: usize = 0x400;
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The kinds of the 16 pieces of a side, in the file's order.
const PIECE_ORDER: [PieceKind; 16] = [
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

/// The string fields of the header: (offset, size, PGN tag).
const FIELDS: [(usize, usize, &str); 11] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x150, 64, "TimeControl"),
    (0x190, 16, "RedTime"),
    (0x1A0, 16, "BlackTime"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// The decryption keys of versions 11 and up (all zero before).
#[derive(Clone, Copy, Debug)]
struct Keys {
    xy: u8,
    xyf: u8,
    xyt: u8,
    comment: u32,
    stream: [u8; 32],
}

fn square_key(k: u8, by: u8) -> u8 {
    let k = u32::from(k);
    ((54 * k * k + 221).wrapping_mul(u32::from(by)) & 0xFF) as u8
}

impl Keys {
    fn none() -> Keys {
        Keys {
            xy: 0,
            xyf: 0,
            xyt: 0,
            comment: 0,
            stream: [0; 32],
        }
    }

    fn from_header(h: &[u8]) -> Keys {
        let xy = square_key(h[13], h[13]);
        let xyf = square_key(h[14], xy);
        let xyt = square_key(h[15], xyf);
        let comment = (u32::from(h[12]) * 256 + u32::from(h[13])) % 32000 + 767;
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            let key = (h[12 + i % 4] & h[3]) | h[8 + i % 4];
            *s = COPYRIGHT[i] & key;
        }
        Keys {
            xy,
            xyf,
            xyt,
            comment,
            stream,
        }
    }
}

/// Reads the move area byte by byte, decrypting as it goes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    keys: Keys,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<Vec<u8>, RecordError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(RecordError::new(
                Place::Byte(self.at),
                ErrorKind::Truncated { what },
            ));
        };
        let out = (self.at..end)
            .map(|p| self.bytes[p].wrapping_sub(self.keys.stream[p % 32]))
            .collect();
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, RecordError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// One move record: squares, flags, comment.
struct Record {
    node: RawNode,
    has_next: bool,
    has_variation: bool,
}

fn xqf_square(v: u8) -> Option<Square> {
    (v < 90).then(|| Square::from_coords(i32::from(v / 10), i32::from(v % 10)))?
}

fn read_record(
    r: &mut Reader,
    version: u8,
    warnings: &mut Vec<RecordError>,
) -> Result<Record, RecordError> {
    let offset = r.at;
    let head = r.take(4, "a move record")?;
    let (has_next, has_variation, comment_len) = if version <= 10 {
        let len = r.u32("a comment length")?;
        (head[2] & 0xF0 != 0, head[2] & 0x0F != 0, i64::from(len))
    } else {
        let len = if head[2] & 0x20 != 0 {
            i64::from(r.u32("a comment length")?) - i64::from(r.keys.comment)
        } else {
            0
        };
        (head[2] & 0x80 != 0, head[2] & 0x40 != 0, len)
    };
    let from = head[0].wrapping_sub(24).wrapping_sub(r.keys.xyf);
    let to = head[1].wrapping_sub(32).wrapping_sub(r.keys.xyt);
    let mut comment = String::new();
    if comment_len > 0 {
        let len = usize::try_from(comment_len).unwrap_or(usize::MAX);
        if len > r.bytes.len().saturating_sub(r.at) {
            return Err(RecordError::new(
                Place::Byte(r.at),
                ErrorKind::Truncated {
                    what: "a comment (its length runs past the end)",
                },
            ));
        }
        let at = r.at;
        let bytes = r.take(len, "a comment")?;
        let (text, clean) = decode_gbk(&bytes);
        if !clean {
            warnings.push(RecordError::new(
                Place::Byte(at),
                ErrorKind::Encoding(
                    "a comment that is not GBK text: unknown characters replaced".into(),
                ),
            ));
        }
        comment = text.trim_end_matches('\0').to_string();
    }
    Ok(Record {
        node: RawNode {
            from: xqf_square(from),
            to: xqf_square(to),
            comment,
            offset,
            children: Vec::new(),
        },
        has_next,
        has_variation,
    })
}

/// Reads an XQF file.
pub fn read(bytes: &[u8]) -> Result<Loaded, RecordError> {
    if !bytes.starts_with(b"XQ") {
        let found = format!("{:02x?}", &bytes[..bytes.len().min(2)]);
        return Err(RecordError::new(
            Place::Byte(0),
            ErrorKind::NotThisFormat {
                format: "XQF",
                found: format!("it starts with {found}, not 'XQ'"),
            },
        ));
    }
    if bytes.len() < HEADER {
        return Err(RecordError::new(
            Place::Byte(bytes.len()),
            ErrorKind::Truncated {
                what: "the 1024-byte XQF header",
            },
        ));
    }
    let version = bytes[2];
    let keys = if version >= 11 {
        Keys::from_header(bytes)
    } else {
        Keys::none()
    };
    let mut board = Board::empty();
    let mut table = [0u8; 32];
    for (i, &b) in bytes[0x10..0x30].iter().enumerate() {
        let slot = if version >= 12 {
            (usize::from(keys.xy) + i + 1) % 32
        } else {
            i
        };
        table[slot] = b.wrapping_sub(keys.xy);
    }
    for (i, &v) in table.iter().enumerate() {
        let Some(sq) = xqf_square(v) else {
            continue;
        };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, PIECE_ORDER[i % 16]);
        if board.squares[sq.index()].is_some() {
            return Err(RecordError::malformed(
                Place::Byte(0x10 + i),
                format!("two pieces on {sq} in the start position"),
            ));
        }
        board.squares[sq.index()] = Some(piece);
    }

    let mut warnings = Vec::new();
    // Problems that do not stop the reading (text that is not GBK).
    let mut notes = Vec::new();
    let mut raw = RawTree::new();
    let mut r = Reader {
        bytes,
        at: HEADER,
        keys,
    };
    if r.at < bytes.len() {
        match read_record(&mut r, version, &mut notes) {
            Ok(first) => raw.nodes[0].comment = first.node.comment,
            Err(e) => warnings.push(e),
        }
    }
    // Parents still owed a variation (the record before it had "a variation follows").
    let mut owed: Vec<usize> = Vec::new();
    let mut parent = 0;
    let mut more = true;
    while r.at < bytes.len() && warnings.is_empty() {
        if raw.nodes.len() > MAX_NODES {
            warnings.push(RecordError::new(
                Place::Byte(r.at),
                ErrorKind::TooLarge(format!("more than {MAX_NODES} moves")),
            ));
            break;
        }
        let record = match read_record(&mut r, version, &mut notes) {
            Ok(rec) => rec,
            Err(e) => {
                warnings.push(e);
                break;
            }
        };
        let id = raw.add(parent, record.node);
        if record.has_variation {
            owed.push(parent);
        }
        if record.has_next {
            parent = id;
        } else if let Some(p) = owed.pop() {
            parent = p;
        } else {
            more = false;
            break;
        }
    }
    if more && warnings.is_empty() && raw.nodes.len() > 1 {
        warnings.push(RecordError::new(
            Place::Byte(r.at),
            ErrorKind::Truncated {
                what: "the move records (more moves were announced)",
            },
        ));
    }
    let (mut game, mut refused) = build(&board, Color::Red, &raw, 0x10)?;
    warnings.append(&mut notes);
    warnings.append(&mut refused);
    for (offset, size, tag) in FIELDS {
        let len = usize::from(bytes[offset]).min(size - 1);
        let (text, clean) = decode_gbk(&bytes[offset + 1..offset + 1 + len]);
        let text = text.trim_end_matches('\0').trim().to_string();
        if !clean {
            warnings.push(RecordError::new(
                Place::Byte(offset),
                ErrorKind::Encoding(format!("the {tag} field is not GBK text")),
            ));
        }
        if !text.is_empty() {
            game.set_tag(tag, &text);
        }
    }
    let result = match bytes[0x33] {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    };
    game.set_tag("Result", result);
    Ok(Loaded { game, warnings })
}
