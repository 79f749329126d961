//! Shared test helpers: an independent, deliberately simple Xiangqi rules oracle on a plain
//! 90-square array (no bitboards, no tables, nothing taken from the engine), a FEN writer
//! of its own, and a small random-number wrapper.
//!
//! Coordinates: file 0..9 (`a`..`i`), rank 0..10 (0 = Red's back rank), index
//! `rank * 9 + file`.

#![allow(dead_code)]

use jiang::xiangqi::{Color, Move, Piece, PieceKind, Position, Square};

mod rng;
pub use rng::Rng;

/// The four orthogonal unit steps.
const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four diagonal unit steps.
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn idx(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

/// Inside `c`'s palace: files d-f, ranks 0-2 (Red) or 7-9 (Black).
pub fn in_palace(c: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match c {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

/// On `c`'s own side of the river: ranks 0-4 (Red) or 5-9 (Black).
pub fn own_half(c: Color, r: i32) -> bool {
    match c {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

/// A board as a plain array of 90 cells plus the side to move.
#[derive(Clone, PartialEq, Eq)]
pub struct SlowBoard {
    pub cells: [Option<Piece>; 90],
    pub side: Color,
}

impl SlowBoard {
    /// Reads the position square by square through `piece_at`.
    pub fn from_position(pos: &Position) -> SlowBoard {
        let mut cells = [None; 90];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = pos.piece_at(Square::new(i as u8).unwrap());
        }
        SlowBoard {
            cells,
            side: pos.side_to_move(),
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Piece> {
        self.cells[idx(f, r)]
    }

    /// Calls `emit(to)` for every pseudo-legal destination of the piece on `from`
    /// (movement rules only; the mover's king safety is not considered).
    pub fn piece_targets(&self, from: usize, emit: &mut dyn FnMut(usize)) {
        let Some(p) = self.cells[from] else {
            return;
        };
        let c = p.color();
        let f = (from % 9) as i32;
        let r = (from / 9) as i32;
        // A destination on the board that is empty or holds an enemy piece.
        let mut push = |tf: i32, tr: i32| {
            if on_board(tf, tr) {
                match self.at(tf, tr) {
                    Some(q) if q.color() == c => {}
                    _ => emit(idx(tf, tr)),
                }
            }
        };
        match p.kind() {
            PieceKind::King => {
                for (df, dr) in ORTH {
                    if in_palace(c, f + df, r + dr) {
                        push(f + df, r + dr);
                    }
                }
            }
            PieceKind::Advisor => {
                for (df, dr) in DIAG {
                    if in_palace(c, f + df, r + dr) {
                        push(f + df, r + dr);
                    }
                }
            }
            PieceKind::Elephant => {
                for (df, dr) in DIAG {
                    let (tf, tr) = (f + 2 * df, r + 2 * dr);
                    if on_board(tf, tr) && own_half(c, tr) && self.at(f + df, r + dr).is_none() {
                        push(tf, tr);
                    }
                }
            }
            PieceKind::Horse => {
                for (df, dr) in ORTH {
                    let (lf, lr) = (f + df, r + dr);
                    if !on_board(lf, lr) || self.at(lf, lr).is_some() {
                        continue; // leg off the board or blocked
                    }
                    for side in [-1, 1] {
                        if df != 0 {
                            push(f + 2 * df, r + side);
                        } else {
                            push(f + side, r + 2 * dr);
                        }
                    }
                }
            }
            PieceKind::Chariot => {
                for (df, dr) in ORTH {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    while on_board(tf, tr) {
                        let occupied = self.at(tf, tr).is_some();
                        push(tf, tr);
                        if occupied {
                            break;
                        }
                        tf += df;
                        tr += dr;
                    }
                }
            }
            PieceKind::Cannon => {
                for (df, dr) in ORTH {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    let mut screen = false;
                    while on_board(tf, tr) {
                        let here = self.at(tf, tr);
                        if !screen {
                            match here {
                                None => push(tf, tr),
                                Some(_) => screen = true,
                            }
                        } else if let Some(q) = here {
                            if q.color() != c {
                                push(tf, tr);
                            }
                            break;
                        }
                        tf += df;
                        tr += dr;
                    }
                }
            }
            PieceKind::Soldier => {
                let fwd = match c {
                    Color::Red => 1,
                    Color::Black => -1,
                };
                push(f, r + fwd);
                if !own_half(c, r) {
                    push(f - 1, r);
                    push(f + 1, r);
                }
            }
        }
    }

    /// Every pseudo-legal move of colour `c` as (from, to) indices.
    pub fn pseudo_moves_of(&self, c: Color) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for from in 0..90 {
            if matches!(self.cells[from], Some(p) if p.color() == c) {
                self.piece_targets(from, &mut |to| out.push((from, to)));
            }
        }
        out
    }

    /// Square index of `c`'s king.
    pub fn king(&self, c: Color) -> Option<usize> {
        let k = Piece::new(c, PieceKind::King);
        self.cells.iter().position(|&p| p == Some(k))
    }

    /// Squares of the enemy pieces that could capture `c`'s king next, plus the enemy king
    /// if the two kings face each other on an open file.
    pub fn attackers_of_king(&self, c: Color) -> Vec<usize> {
        let mut out = Vec::new();
        let Some(k) = self.king(c) else {
            return out;
        };
        for from in 0..90 {
            if matches!(self.cells[from], Some(p) if p.color() != c) {
                let mut hit = false;
                self.piece_targets(from, &mut |to| hit |= to == k);
                if hit {
                    out.push(from);
                }
            }
        }
        if let Some(ek) = self.king(c.flip()) {
            if self.kings_face(k, ek) {
                out.push(ek);
            }
        }
        out
    }

    /// Whether kings on `a` and `b` stand on one file with nothing between them.
    fn kings_face(&self, a: usize, b: usize) -> bool {
        if a % 9 != b % 9 {
            return false;
        }
        let (lo, hi) = (a.min(b) / 9, a.max(b) / 9);
        ((lo + 1)..hi).all(|r| self.cells[r * 9 + a % 9].is_none())
    }

    /// Whether `c`'s king could be captured, or faces the other king.
    pub fn king_exposed(&self, c: Color) -> bool {
        let Some(k) = self.king(c) else {
            return true;
        };
        if let Some(ek) = self.king(c.flip()) {
            if self.kings_face(k, ek) {
                return true;
            }
        }
        for from in 0..90 {
            if matches!(self.cells[from], Some(p) if p.color() != c) {
                let mut hit = false;
                self.piece_targets(from, &mut |to| hit |= to == k);
                if hit {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king_exposed(self.side)
    }

    /// The board after moving the piece on `from` to `to` (capturing whatever is there).
    pub fn apply(&self, from: usize, to: usize) -> SlowBoard {
        let mut b = self.clone();
        b.cells[to] = b.cells[from];
        b.cells[from] = None;
        b.side = self.side.flip();
        b
    }

    /// Pseudo-legal moves of the side to move.
    pub fn pseudo_moves(&self) -> Vec<Move> {
        self.pseudo_moves_of(self.side)
            .into_iter()
            .map(|(f, t)| to_move(f, t))
            .collect()
    }

    /// Legal moves: pseudo-legal moves after which the mover's king is safe.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.pseudo_moves_of(self.side)
            .into_iter()
            .filter(|&(f, t)| !self.apply(f, t).king_exposed(self.side))
            .map(|(f, t)| to_move(f, t))
            .collect()
    }

    /// FEN of the board, written independently of the engine (counters `0 1`).
    pub fn fen(&self) -> String {
        fen_of_cells(&self.cells, self.side)
    }
}

pub fn to_move(from: usize, to: usize) -> Move {
    Move::new(
        Square::new(from as u8).unwrap(),
        Square::new(to as u8).unwrap(),
    )
}

/// FEN letter of a piece (upper case Red, lower case Black).
pub fn letter(p: Piece) -> char {
    let c = match p.kind() {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'B',
        PieceKind::Horse => 'N',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    };
    match p.color() {
        Color::Red => c,
        Color::Black => c.to_ascii_lowercase(),
    }
}

/// Writes the board part and side of a FEN from 90 cells.
pub fn fen_of_cells(cells: &[Option<Piece>; 90], side: Color) -> String {
    let mut s = String::new();
    for r in (0..10).rev() {
        let mut empty = 0;
        for f in 0..9 {
            match cells[r * 9 + f] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(letter(p));
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push_str(match side {
        Color::Red => " w - - 0 1",
        Color::Black => " b - - 0 1",
    });
    s
}

/// Parses a square name such as `e0` (test-only, panics on bad input).
pub fn sq(name: &str) -> usize {
    let b = name.as_bytes();
    assert!(b.len() == 2, "bad square name {name}");
    let f = (b[0] - b'a') as usize;
    let r = (b[1] - b'0') as usize;
    assert!(f < 9 && r < 10, "bad square name {name}");
    r * 9 + f
}

/// Piece from a FEN letter (test-only; `KABNRCP`, lower case for Black).
pub fn piece_of(c: char) -> Piece {
    let color = if c.is_ascii_uppercase() {
        Color::Red
    } else {
        Color::Black
    };
    let kind = match c.to_ascii_uppercase() {
        'K' => PieceKind::King,
        'A' => PieceKind::Advisor,
        'B' => PieceKind::Elephant,
        'N' => PieceKind::Horse,
        'R' => PieceKind::Chariot,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Soldier,
        _ => panic!("bad piece letter {c}"),
    };
    Piece::new(color, kind)
}

/// FEN for a board given as a list of (square, letter), e.g. `[("e0", 'K'), ("e9", 'k')]`.
pub fn fen_of(pieces: &[(&str, char)], side: Color) -> String {
    let mut cells = [None; 90];
    for &(name, c) in pieces {
        let i = sq(name);
        assert!(cells[i].is_none(), "two pieces on {name}");
        cells[i] = Some(piece_of(c));
    }
    fen_of_cells(&cells, side)
}

/// Whether a piece may ever stand on (f, r) by the movement rules: kings in the palace,
/// advisors on the palace's five diagonal points, elephants on their seven own-half points,
/// soldiers on their starting files before the river and anywhere not behind their start
/// after it.
pub fn reachable(p: Piece, f: i32, r: i32) -> bool {
    let c = p.color();
    // Rank seen from the piece's own side (0 = its back rank).
    let rr = match c {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    match p.kind() {
        PieceKind::King => in_palace(c, f, r),
        PieceKind::Advisor => in_palace(c, f, r) && (f + rr) % 2 == 1,
        PieceKind::Elephant => {
            matches!(
                (f, rr),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            )
        }
        PieceKind::Soldier => rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0),
        _ => true,
    }
}
