//! ElephantEye's position keys and move codes, so that jiang reads its opening book
//! (`BOOK.DAT`, layout in `crate::book::elephanteye`).
//!
//! # The key, and where ElephantEye documents it
//!
//! From ElephantEye's repository, <https://github.com/xqbase/eleeye> (re-implemented from
//! these facts, nothing copied):
//!
//! * `base/rc4prng.h` (`RC4Struct`): the tables come from the RC4 keystream: the key
//!   schedule with a key of four zero bytes (`InitZero`), then bytes
//!   `x = x + 1; y = y + s[x]; swap(s[x], s[y]); s[s[x] + s[y]]` (all mod 256);
//!   a 32-bit number is four such bytes, the first the least significant (`NextLong`).
//! * `eleeye/pregen.h`, `eleeye/pregen.cpp` (`ZobristStruct::InitRC4`, `PreGenInit`):
//!   each table entry is three numbers in that order, `dwKey`, `dwLock0`, `dwLock1`; the
//!   side entry (`zobrPlayer`) is drawn first, then `zobrTable[14][256]`, piece type by
//!   piece type and, within one, square 0..255 of the 16x16 board.
//! * `eleeye/position.cpp` (`AddPiece`, `FromFen`, `MakeMove` via `ChangeSide`,
//!   `cnPieceTypes`): a position's numbers are the XOR of `zobrTable[type][square]`
//!   over its pieces, and of `zobrPlayer` when Black is to move; the piece type is king,
//!   advisor, bishop (elephant), knight (horse), rook (chariot), cannon, pawn = 0..6 for
//!   Red, and 7..13 for Black (exactly jiang's `Piece::index`).
//! * `eleeye/book.h` and `BOOK/MAKEBOOK.CPP`: the book stores `dwLock1`, so only that
//!   number is computed here.
//!
//! The tables are computed at compile time (14 × 256 numbers of 32 bits, 14 KiB).

use super::mirror::mirror_square;
use super::position::Position;
use super::types::{Color, Move, Square};
use crate::book::elephanteye::{move_code, move_coords, square_code};

/// ElephantEye's `dwLock1` of each (piece index, 16x16 square), and of Black to move.
struct Locks {
    piece: [[u32; 256]; 14],
    black_to_move: u32,
}

/// The RC4 generator state.
struct Rc4 {
    s: [u8; 256],
    x: usize,
    y: usize,
}

impl Rc4 {
    /// The key schedule with a key of four zero bytes.
    const fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            s[i] = i as u8;
            i += 1;
        }
        let mut j = 0usize;
        i = 0;
        while i < 256 {
            // j += s[i] + key[i % 4], and every key byte is 0.
            j = (j + s[i] as usize) & 255;
            let t = s[i];
            s[i] = s[j];
            s[j] = t;
            i += 1;
        }
        Rc4 { s, x: 0, y: 0 }
    }

    const fn next_byte(&mut self) -> u8 {
        self.x = (self.x + 1) & 255;
        self.y = (self.y + self.s[self.x] as usize) & 255;
        let t = self.s[self.x];
        self.s[self.x] = self.s[self.y];
        self.s[self.y] = t;
        self.s[(self.s[self.x] as usize + self.s[self.y] as usize) & 255]
    }

    const fn next_u32(&mut self) -> u32 {
        let b0 = self.next_byte() as u32;
        let b1 = self.next_byte() as u32;
        let b2 = self.next_byte() as u32;
        let b3 = self.next_byte() as u32;
        b0 | (b1 << 8) | (b2 << 16) | (b3 << 24)
    }

    /// One table entry (`dwKey`, `dwLock0`, `dwLock1`); only the last is kept.
    const fn next_lock1(&mut self) -> u32 {
        self.next_u32();
        self.next_u32();
        self.next_u32()
    }
}

const fn locks() -> Locks {
    let mut rc4 = Rc4::zero_key();
    let black_to_move = rc4.next_lock1();
    let mut piece = [[0u32; 256]; 14];
    let mut p = 0;
    while p < 14 {
        let mut sq = 0;
        while sq < 256 {
            piece[p][sq] = rc4.next_lock1();
            sq += 1;
        }
        p += 1;
    }
    Locks {
        piece,
        black_to_move,
    }
}

static LOCKS: Locks = locks();

/// The 16x16 square code of a square.
fn code_of(sq: Square) -> usize {
    usize::from(square_code(sq.file(), sq.rank()))
}

/// ElephantEye's `dwLock1` of the position, or of its left-right mirror image when
/// `mirrored` (computed from the board; for the book probe at the root).
pub fn lock(pos: &Position, mirrored: bool) -> u32 {
    let mut lock = 0;
    for i in 0..Square::COUNT {
        let sq = Square::from_index_unchecked(i);
        if let Some(p) = pos.piece_at(sq) {
            let sq = if mirrored { mirror_square(sq) } else { sq };
            lock ^= LOCKS.piece[p.index()][code_of(sq)];
        }
    }
    if pos.side_to_move() == Color::Black {
        lock ^= LOCKS.black_to_move;
    }
    lock
}

/// The move of an ElephantEye move code, if both its squares are on the board.
pub fn move_from_code(code: u16) -> Option<Move> {
    let ((ff, fr), (tf, tr)) = move_coords(code)?;
    let from = Square::from_coords(i32::from(ff), i32::from(fr))?;
    let to = Square::from_coords(i32::from(tf), i32::from(tr))?;
    (from != to).then(|| Move::new(from, to))
}

/// The ElephantEye move code of a move.
pub fn move_to_code(m: Move) -> u16 {
    move_code(
        (m.from().file(), m.from().rank()),
        (m.to().file(), m.to().rank()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn the_keystream_is_rc4() {
        // RC4 with an all-zero key starts de 18 89 41 a3 37 5d 3a (the cipher's
        // published test vector; with every key byte 0, the key's length does not
        // matter), so the side's dwKey is 0x418918de.
        let mut rc4 = Rc4::zero_key();
        let first: Vec<u8> = (0..8).map(|_| rc4.next_byte()).collect();
        assert_eq!(first, [0xde, 0x18, 0x89, 0x41, 0xa3, 0x37, 0x5d, 0x3a]);
        let mut rc4 = Rc4::zero_key();
        assert_eq!(rc4.next_u32(), 0x4189_18de);
    }

    #[test]
    fn moves_round_trip() {
        let pos = Position::startpos();
        for m in ["h2e2", "b0c2", "a3a4", "e9e8", "i9i8"] {
            let m = Move::parse(m).unwrap();
            assert_eq!(move_from_code(move_to_code(m)), Some(m));
        }
        assert_eq!(move_to_code(Move::parse("h2e2").unwrap()), 0xa7aa);
        assert_eq!(move_from_code(0), None);
        // The start position is its own mirror image.
        assert_eq!(lock(&pos, false), lock(&pos, true));
    }

    #[test]
    fn locks_follow_moves_and_mirrors() {
        let play = |moves: &[&str]| {
            let mut pos = Position::startpos();
            for m in moves {
                pos.play(pos.parse_legal_move(m).unwrap());
            }
            pos
        };
        let left = play(&["h2e2", "h9g7"]);
        let right = play(&["b2e2", "b9c7"]);
        assert_ne!(lock(&left, false), lock(&right, false));
        assert_eq!(lock(&left, true), lock(&right, false));
        assert_eq!(lock(&right, true), lock(&left, false));
        // The same position by another order of moves has the same lock; the side to
        // move changes it.
        let a = play(&["h2e2", "h9g7", "b0c2"]);
        let b = play(&["b0c2", "h9g7", "h2e2"]);
        assert_eq!(lock(&a, false), lock(&b, false));
        let start = Position::startpos();
        let mut black = Position::from_fen(&crate::xiangqi::START_FEN.replace(" w ", " b "))
            .expect("the start position with Black to move");
        assert_eq!(
            lock(&black, false),
            lock(&start, false) ^ LOCKS.black_to_move
        );
        black.play(black.parse_legal_move("h7e7").unwrap());
        assert_ne!(lock(&black, false), lock(&start, false));
    }
}
