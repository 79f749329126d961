//! ElephantEye's opening book format (`BOOK.DAT`), read so that a UCCI user's existing
//! book works with `BookFile` / `bookfiles`. Only the layout is here; how a Xiangqi
//! position's lock is computed (ElephantEye's Zobrist tables) is in
//! `crate::xiangqi::eleeye`.
//!
//! # The facts used, and where ElephantEye documents them
//!
//! All from ElephantEye's repository, <https://github.com/xqbase/eleeye> (LGPL; nothing of
//! it is copied here, the format is re-implemented from these facts):
//!
//! * `eleeye/book.h` (`BookStruct`, `BOOK_POS_CMP`): the file is a bare array of 8-byte
//!   records, no header: a 32-bit Zobrist lock, a 16-bit move, a 16-bit value (the
//!   program reads them as x86 structs, so all little-endian). The number of records is
//!   the file's length / 8.
//! * `BOOK/MAKEBOOK.CPP` (`TempStruct::operator<`, `MakeBook`): records are sorted by
//!   the lock, an unsigned 32-bit number (ties by the position's second lock, then by
//!   the move); the lock stored is the position's `dwLock1`; the value is the move's
//!   summed game results divided by a ratio, so at least 1. Of a position and its left-right
//!   mirror image, only the one with the smaller lock pair is stored (both when equal).
//! * `eleeye/book.cpp` (`GetBookMoves`): a probe is a binary search for the position's
//!   lock; when it is absent, the mirror image's lock is searched, and the moves found
//!   are mirrored back. `eleeye/search.cpp` then chooses a move at random with its value
//!   as the weight and skips it if it repeats a position.
//! * `eleeye/position.h` and `eleeye/pregen.h` (`SRC`, `DST`, `MOVE`, `COORD_XY`,
//!   `RANK_TOP`, `FILE_LEFT`, `MOVE_COORD`): a move is `from + 256 * to` over a 16x16
//!   board whose square is `x + 16 * y`; files a..i are x = 3..=11, and ranks 9..0 (Black's
//!   back rank first) are y = 3..=12, so rank r is y = 12 - r. The mirror of a square
//!   is x → 14 - x (`cucsqMirrorTab`).
//! * `DOC/eleeye_book.htm` (chapter 7 of the author's notes) says the same in prose:
//!   4-byte Zobrist key, 2-byte move, 2-byte weight per record, symmetric positions
//!   merged, binary search, the mirror looked up when the position is not found, weighted
//!   random choice, repetitions refused.
//!
//! Reading a file checks what can be checked without the game: the length is a whole
//! number of records, the locks are sorted, and every move's squares are on the board.

use std::fmt;

/// Size of one record.
pub const RECORD_SIZE: usize = 8;

/// The board square (file 0..9 from `a`, rank 0..10 from Red's back rank) of a square
/// code of ElephantEye's 16x16 board, if it is on the board.
pub fn square_coords(code: u8) -> Option<(u8, u8)> {
    let (x, y) = (code & 15, code >> 4);
    if (3..=11).contains(&x) && (3..=12).contains(&y) {
        Some((x - 3, 12 - y))
    } else {
        None
    }
}

/// The square code of `file` (0..9) and `rank` (0..10).
pub fn square_code(file: u8, rank: u8) -> u8 {
    debug_assert!(file < 9 && rank < 10);
    (file + 3) + 16 * (12 - rank)
}

/// A move code's two squares as (file, rank) pairs, if both are on the board.
pub fn move_coords(code: u16) -> Option<((u8, u8), (u8, u8))> {
    let [from, to] = code.to_le_bytes();
    Some((square_coords(from)?, square_coords(to)?))
}

/// The move code of a move from `from` to `to`, each (file, rank).
pub fn move_code(from: (u8, u8), to: (u8, u8)) -> u16 {
    u16::from_le_bytes([square_code(from.0, from.1), square_code(to.0, to.1)])
}

/// Record `i` of a file's bytes: (lock, move code, value). The caller keeps `i` below
/// the number of records.
pub fn record(data: &[u8], i: usize) -> (u32, u16, u16) {
    let b = &data[i * RECORD_SIZE..(i + 1) * RECORD_SIZE];
    (
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        u16::from_le_bytes([b[4], b[5]]),
        u16::from_le_bytes([b[6], b[7]]),
    )
}

/// Why bytes are not a `BOOK.DAT`; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElephantEyeError {
    /// The length (in bytes) is not a whole number of records.
    Length(usize),
    /// A record whose lock is below the one before it (its index).
    OutOfOrder(usize),
    /// A record whose move code leaves the board.
    MoveOffBoard {
        /// The record's index.
        record: usize,
        /// The move code.
        code: u16,
    },
}

impl fmt::Display for ElephantEyeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElephantEyeError::Length(len) => write!(
                f,
                "its length, {len} bytes, is not a whole number of {RECORD_SIZE}-byte records \
                 (truncated?)"
            ),
            ElephantEyeError::OutOfOrder(i) => {
                write!(f, "record {i} is out of order (not sorted by lock)")
            }
            ElephantEyeError::MoveOffBoard { record, code } => {
                write!(f, "record {record} has a move off the board ({code:#06x})")
            }
        }
    }
}

impl std::error::Error for ElephantEyeError {}

/// Checks bytes as a `BOOK.DAT`; returns the number of records, or why it is not one.
pub fn check(data: &[u8]) -> Result<usize, ElephantEyeError> {
    if !data.len().is_multiple_of(RECORD_SIZE) {
        return Err(ElephantEyeError::Length(data.len()));
    }
    let count = data.len() / RECORD_SIZE;
    let mut last = 0;
    for i in 0..count {
        let (lock, mv, _) = record(data, i);
        if lock < last {
            return Err(ElephantEyeError::OutOfOrder(i));
        }
        if move_coords(mv).is_none() {
            return Err(ElephantEyeError::MoveOffBoard {
                record: i,
                code: mv,
            });
        }
        last = lock;
    }
    Ok(count)
}

/// Writes a `BOOK.DAT`: sorts `records` (lock, move code, value) the way ElephantEye's
/// book maker does (by lock, then move) and lays them out. For tests and for exporting
/// a book; the caller stores each position the way ElephantEye does (see the module
/// documentation).
pub fn encode(records: &mut [(u32, u16, u16)]) -> Vec<u8> {
    records.sort_by_key(|&(lock, mv, _)| (lock, mv));
    let mut out = Vec::with_capacity(records.len() * RECORD_SIZE);
    for (lock, mv, value) in records.iter() {
        out.extend_from_slice(&lock.to_le_bytes());
        out.extend_from_slice(&mv.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_follow_the_16x16_board() {
        // a9 (Black's left corner) is the first square of the board, 0x33; i0 the last.
        assert_eq!(square_code(0, 9), 0x33);
        assert_eq!(square_code(8, 0), 0xcb);
        assert_eq!(square_coords(0x33), Some((0, 9)));
        assert_eq!(square_coords(0xcb), Some((8, 0)));
        for off in [0x00, 0x32, 0x3c, 0x23, 0xd3, 0xff] {
            assert_eq!(square_coords(off), None, "{off:#x}");
        }
        for file in 0..9 {
            for rank in 0..10 {
                assert_eq!(square_coords(square_code(file, rank)), Some((file, rank)));
            }
        }
        // h2e2 (Red's right cannon to the centre): from x=10, y=10 to x=7, y=10.
        assert_eq!(move_code((7, 2), (4, 2)), 0xa7aa);
        assert_eq!(move_coords(0xa7aa), Some(((7, 2), (4, 2))));
    }

    #[test]
    fn files_are_checked() {
        let mut records = vec![
            (9, move_code((7, 2), (4, 2)), 3),
            (2, move_code((1, 0), (2, 2)), 1),
        ];
        let good = encode(&mut records);
        assert_eq!(check(&good), Ok(2));
        assert_eq!(record(&good, 0), (2, move_code((1, 0), (2, 2)), 1));
        assert_eq!(check(&[]), Ok(0));
        let truncated = check(&good[..good.len() - 3]).unwrap_err();
        assert_eq!(truncated, ElephantEyeError::Length(13));
        assert!(truncated.to_string().contains("truncated"));
        let mut unsorted = good[8..].to_vec();
        unsorted.extend_from_slice(&good[..8]);
        assert_eq!(check(&unsorted), Err(ElephantEyeError::OutOfOrder(1)));
        let mut off_board = good.clone();
        off_board[4] = 0;
        let off = check(&off_board).unwrap_err();
        assert!(matches!(
            off,
            ElephantEyeError::MoveOffBoard { record: 0, .. }
        ));
        assert!(off.to_string().contains("off the board"));
    }
}
