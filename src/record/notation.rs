//! The three ways Xiangqi moves are written, read and written here.
//!
//! * **ICCS** coordinates: `h2e2`, also `H2-E2` (files `a`..`i` from Red's left, ranks
//!   `0`..`9` from Red's side).
//! * **WXF** (the World Xiangqi Federation's notation): piece, file, movement, number:
//!   `C2.5`, `H8+7`, `R1-2`. Pieces `K A E H R C P` (`B` and `N` are read for elephant and
//!   horse); files 1..9 from the mover's right; `+` forward, `-` backward, `.` (or `=`)
//!   along the rank; the number is the file arrived on for a move along the rank and for
//!   the diagonal movers (advisor, elephant, horse), else the ranks moved. Two pieces of
//!   a kind on one file are told apart by `+` (front) and `-` (rear) in place of the file:
//!   `R+.3`, `C--1`. Pawns, as the WXF's tandem rules write them: three on a file
//!   `P+`, `P<file>` (the middle one), `P-`; four `++`, `P+`, `P-`, `--`; five `++`, `P+`,
//!   `P<file>`, `P-`, `--`; on two files the file first: `3+.4`, `33.4`, `3-.4`. Also
//!   read: the qualifier before the piece (`+C.5`), the letters `f`, `m`, `b` for front,
//!   middle, rear (`fC5-2`), full-width letters, digits and signs (`Ｃ２＝５`).
//! * **Chinese** (中文纵线记谱): `炮二平五`, `马８进７`: piece, file, 进 (forward), 退
//!   (backward) or 平 (along the rank), number, with the same meanings as WXF; Red's
//!   numbers are written 一..九 and Black's １..９ (both are read in either form, ASCII
//!   digits too). Several pieces of a kind on a file: 前/后 (two), 前/中/后 (three),
//!   前/二/三/四/后 (four or five; 一..五 are read too) in place of the piece's file:
//!   `前炮平五`; pawns on two files keep the file and drop the piece: `前九平八` (the
//!   five-character `前兵九平八` is read too). Traditional characters are read as well
//!   (帥 將 傌 俥 馬 車 砲 包 進 後).
//!
//! A move is read by matching its description against every legal move of the position,
//! so a description no legal move fits, or one that fits two, is refused.

use super::text::{narrow, wide_digit};
use crate::xiangqi::{Color, Move, PieceKind, Position, Square};

/// A move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `h2e2` (written by PGN as `H2-E2`).
    Iccs,
    /// `C2.5`.
    Wxf,
    /// `炮二平五`.
    Chinese,
}

/// The direction of a move as the notations write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Forward,
    Backward,
    Along,
}

/// A legal move as the notations see it.
#[derive(Clone, Copy, Debug)]
struct Description {
    color: Color,
    kind: PieceKind,
    /// The origin's file, 1..9 from the mover's right.
    file: u8,
    op: Op,
    /// The number written last.
    number: u8,
    /// Pieces of this kind and colour on the origin's file, and this one's place among
    /// them from the front (the one nearest the enemy) back.
    count: usize,
    index: usize,
    /// Files holding two or more pieces of this kind and colour.
    tandem_files: usize,
}

fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

fn describe(pos: &Position, m: Move) -> Option<Description> {
    let piece = pos.piece_at(m.from())?;
    let (color, kind) = (piece.color(), piece.kind());
    let (from, to) = (m.from(), m.to());
    let ahead = match color {
        Color::Red => i32::from(to.rank()) - i32::from(from.rank()),
        Color::Black => i32::from(from.rank()) - i32::from(to.rank()),
    };
    let op = match ahead {
        a if a > 0 => Op::Forward,
        a if a < 0 => Op::Backward,
        _ => Op::Along,
    };
    let diagonal = matches!(
        kind,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
    );
    let number = if op == Op::Along || diagonal {
        file_number(color, to.file())
    } else {
        ahead.unsigned_abs() as u8
    };
    let same = pos.pieces_ck(color, kind);
    let mut on_file: Vec<u8> = same
        .into_iter()
        .filter(|s: &Square| s.file() == from.file())
        .map(|s| s.rank())
        .collect();
    // Front first: the highest rank for Red, the lowest for Black.
    on_file.sort_unstable();
    if color == Color::Red {
        on_file.reverse();
    }
    let index = on_file.iter().position(|&r| r == from.rank()).unwrap_or(0);
    let mut per_file = [0usize; 9];
    for s in same {
        per_file[usize::from(s.file())] += 1;
    }
    Some(Description {
        color,
        kind,
        file: file_number(color, from.file()),
        op,
        number,
        count: on_file.len(),
        index,
        tandem_files: per_file.iter().filter(|&&n| n >= 2).count(),
    })
}

/// Whether pieces of this kind need telling apart when they share a file (advisors,
/// elephants and the king never do: their moves already differ).
fn needs_qualifier(d: &Description) -> bool {
    d.count >= 2
        && matches!(
            d.kind,
            PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
        )
}

/// Writes a legal move of `pos` in `notation`.
pub fn write_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Wxf => write_wxf(pos, m),
        Notation::Chinese => write_chinese(pos, m),
    }
}

/// ICCS as PGN files write it: `H2-E2`.
pub fn write_iccs_pgn(m: Move) -> String {
    let s = m.to_string().to_ascii_uppercase();
    format!("{}-{}", &s[0..2], &s[2..4])
}

fn write_wxf(pos: &Position, m: Move) -> String {
    let Some(d) = describe(pos, m) else {
        return m.to_string();
    };
    let letter = d.kind.wxf_letter();
    let file = char::from(b'0' + d.file);
    let prefix: String = if !needs_qualifier(&d) {
        format!("{letter}{file}")
    } else if d.kind == PieceKind::Soldier && d.tandem_files >= 2 {
        // The file first, then + / - (or the file again for the middle one of three).
        let mark = match (d.count, d.index) {
            (_, 0) => '+',
            (3, 1) => file,
            _ => '-',
        };
        format!("{file}{mark}")
    } else {
        match (d.count, d.index) {
            (2 | 3, 0) => format!("{letter}+"),
            (2, _) | (3, 2) => format!("{letter}-"),
            (3, _) => format!("{letter}{file}"),
            (_, 0) => "++".to_string(),
            (_, 1) => format!("{letter}+"),
            (n, i) if i == n - 1 => "--".to_string(),
            (n, i) if i == n - 2 => format!("{letter}-"),
            _ => format!("{letter}{file}"),
        }
    };
    let op = match d.op {
        Op::Forward => '+',
        Op::Backward => '-',
        Op::Along => '.',
    };
    format!("{prefix}{op}{}", d.number)
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn chinese_number(color: Color, n: u8) -> char {
    match color {
        Color::Red => RED_NUMERALS
            .get(usize::from(n).wrapping_sub(1))
            .copied()
            .unwrap_or('?'),
        Color::Black => wide_digit(n),
    }
}

fn chinese_piece(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Black, PieceKind::King) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Soldier) => '兵',
        (Color::Black, PieceKind::Soldier) => '卒',
    }
}

/// 前/中/后 for two or three pieces, 前/二/三/四/后 for four or five.
fn chinese_qualifier(count: usize, index: usize) -> char {
    match (count, index) {
        (_, 0) => '前',
        (n, i) if i + 1 == n => '后',
        (3, _) => '中',
        (_, 1) => '二',
        (_, 2) => '三',
        _ => '四',
    }
}

fn write_chinese(pos: &Position, m: Move) -> String {
    let Some(d) = describe(pos, m) else {
        return m.to_string();
    };
    let piece = chinese_piece(d.color, d.kind);
    let file = chinese_number(d.color, d.file);
    let mut s = String::new();
    if !needs_qualifier(&d) {
        s.push(piece);
        s.push(file);
    } else if d.kind == PieceKind::Soldier && d.tandem_files >= 2 {
        s.push(chinese_qualifier(d.count, d.index));
        s.push(file);
    } else {
        s.push(chinese_qualifier(d.count, d.index));
        s.push(piece);
    }
    s.push(match d.op {
        Op::Forward => '进',
        Op::Backward => '退',
        Op::Along => '平',
    });
    s.push(chinese_number(d.color, d.number));
    s
}

/// Which of several pieces on a file a move names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Qualifier {
    /// WXF `+` / `-` (front / rear, or the second from the front / rear among four or
    /// five pawns).
    Sign(bool),
    /// WXF `++` / `--`: the foremost / rearmost.
    DoubleSign(bool),
    /// 前, `f`: the foremost.
    First,
    /// 后, `b`: the rearmost.
    Last,
    /// 中, `m`, or a pawn's file repeated (`33.4`): the middle one.
    Middle,
    /// 一..五 (or 二..四 between 前 and 后): the n-th from the front.
    Ordinal(u8),
}

impl Qualifier {
    /// The index from the front this qualifier names among `count` pieces.
    fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        Some(match self {
            Qualifier::Sign(true) => usize::from(count > 3),
            Qualifier::Sign(false) => count - 1 - usize::from(count > 3),
            Qualifier::DoubleSign(true) | Qualifier::First => 0,
            Qualifier::DoubleSign(false) | Qualifier::Last => count - 1,
            Qualifier::Middle if count % 2 == 1 => count / 2,
            Qualifier::Middle => return None,
            Qualifier::Ordinal(k) if (1..=count).contains(&usize::from(k)) => usize::from(k) - 1,
            Qualifier::Ordinal(_) => return None,
        })
    }
}

/// A move as written, before it is matched with the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spec {
    /// `None`: a pawn (the piece was left out).
    kind: Option<PieceKind>,
    file: Option<u8>,
    qualifier: Option<Qualifier>,
    op: Op,
    number: u8,
}

/// One symbol of a written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Piece(PieceKind),
    Num(u8),
    Qual(Qualifier),
    /// `+` or `-` (which of op or qualifier depends on the place).
    Sign(bool),
    /// `.`, `=`, 平.
    Along,
    /// 进 / 退 (only ever an op).
    Dir(bool),
}

fn chinese_symbol(c: char) -> Option<Sym> {
    let piece = |k| Some(Sym::Piece(k));
    match c {
        '帅' | '帥' | '将' | '將' => piece(PieceKind::King),
        '仕' | '士' => piece(PieceKind::Advisor),
        '相' | '象' => piece(PieceKind::Elephant),
        '马' | '馬' | '傌' | '騎' => piece(PieceKind::Horse),
        '车' | '車' | '俥' | '伡' => piece(PieceKind::Chariot),
        '炮' | '砲' | '包' => piece(PieceKind::Cannon),
        '兵' | '卒' => piece(PieceKind::Soldier),
        '进' | '進' | '上' => Some(Sym::Dir(true)),
        '退' | '下' => Some(Sym::Dir(false)),
        '平' => Some(Sym::Along),
        '前' => Some(Sym::Qual(Qualifier::First)),
        '后' | '後' => Some(Sym::Qual(Qualifier::Last)),
        '中' => Some(Sym::Qual(Qualifier::Middle)),
        '1'..='9' => Some(Sym::Num(c as u8 - b'0')),
        _ => RED_NUMERALS
            .iter()
            .position(|&n| n == c)
            .map(|i| Sym::Num(i as u8 + 1)),
    }
}

fn wxf_symbols(text: &str) -> Option<Vec<Sym>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        let next_is_piece = chars
            .get(i + 1)
            .is_some_and(|n| "KAEBHNRCP".contains(n.to_ascii_uppercase()));
        let sym = match c {
            '+' => Sym::Sign(true),
            '-' => Sym::Sign(false),
            '.' | '=' => Sym::Along,
            '1'..='9' => Sym::Num(c as u8 - b'0'),
            'f' | 'F' if next_is_piece => Sym::Qual(Qualifier::First),
            'm' | 'M' if next_is_piece => Sym::Qual(Qualifier::Middle),
            'b' if next_is_piece => Sym::Qual(Qualifier::Last),
            _ => match c.to_ascii_uppercase() {
                'K' => Sym::Piece(PieceKind::King),
                'A' => Sym::Piece(PieceKind::Advisor),
                'E' | 'B' => Sym::Piece(PieceKind::Elephant),
                'H' | 'N' => Sym::Piece(PieceKind::Horse),
                'R' => Sym::Piece(PieceKind::Chariot),
                'C' => Sym::Piece(PieceKind::Cannon),
                'P' => Sym::Piece(PieceKind::Soldier),
                _ => return None,
            },
        };
        out.push(sym);
    }
    Some(out)
}

/// Reads the symbols of a WXF or Chinese move into a [`Spec`].
fn spec_of(symbols: &[Sym]) -> Option<Spec> {
    let (&last, rest) = symbols.split_last()?;
    let (&op_sym, prefix) = rest.split_last()?;
    let Sym::Num(number) = last else {
        return None;
    };
    let op = match op_sym {
        Sym::Sign(true) | Sym::Dir(true) => Op::Forward,
        Sym::Sign(false) | Sym::Dir(false) => Op::Backward,
        Sym::Along => Op::Along,
        _ => return None,
    };
    let spec = |kind, file, qualifier| {
        Some(Spec {
            kind,
            file,
            qualifier,
            op,
            number,
        })
    };
    let ordinal = |n: u8| (1..=5).contains(&n).then_some(Qualifier::Ordinal(n));
    match *prefix {
        [Sym::Piece(k), Sym::Num(f)] => spec(Some(k), Some(f), None),
        [Sym::Piece(k), Sym::Sign(s)] | [Sym::Sign(s), Sym::Piece(k)] => {
            spec(Some(k), None, Some(Qualifier::Sign(s)))
        }
        [Sym::Sign(a), Sym::Sign(b)] if a == b => spec(None, None, Some(Qualifier::DoubleSign(a))),
        [Sym::Num(f), Sym::Sign(s)] => spec(None, Some(f), Some(Qualifier::Sign(s))),
        [Sym::Num(f), Sym::Num(g)] if f == g => spec(None, Some(f), Some(Qualifier::Middle)),
        [Sym::Qual(q), Sym::Piece(k)] | [Sym::Piece(k), Sym::Qual(q)] => {
            spec(Some(k), None, Some(q))
        }
        [Sym::Qual(q), Sym::Piece(k), Sym::Num(f)] => spec(Some(k), Some(f), Some(q)),
        [Sym::Qual(q), Sym::Num(f)] => spec(None, Some(f), Some(q)),
        [Sym::Num(n), Sym::Piece(k)] => spec(Some(k), None, Some(ordinal(n)?)),
        [Sym::Num(n), Sym::Piece(k), Sym::Num(f)] => spec(Some(k), Some(f), Some(ordinal(n)?)),
        _ => None,
    }
}

fn matches(spec: &Spec, d: &Description) -> bool {
    spec.kind.unwrap_or(PieceKind::Soldier) == d.kind
        && spec.file.is_none_or(|f| f == d.file)
        && spec
            .qualifier
            .is_none_or(|q| q.index(d.count) == Some(d.index))
        && spec.op == d.op
        && spec.number == d.number
}

/// Why [`read_move`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveReadError {
    /// Nothing but blanks.
    Empty,
    /// Not shaped like a move in any of the three notations.
    NotANotation,
    /// Coordinates of a move that is not legal here.
    Illegal(IllegalMove),
    /// A description that no legal move of the side to move fits.
    NoneFits(Color),
    /// A description that several legal moves fit.
    Ambiguous(Vec<Move>),
}

impl std::fmt::Display for MoveReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveReadError::Empty => write!(f, "an empty move"),
            MoveReadError::NotANotation => {
                write!(f, "not a move in ICCS, WXF or Chinese notation")
            }
            MoveReadError::Illegal(why) => write!(f, "{why}"),
            MoveReadError::NoneFits(side) => write!(
                f,
                "no legal move of {} fits it",
                if *side == Color::Red { "Red" } else { "Black" }
            ),
            MoveReadError::Ambiguous(moves) => {
                write!(f, "ambiguous: ")?;
                for (i, m) in moves.iter().enumerate() {
                    write!(f, "{}{m}", if i > 0 { ", " } else { "" })?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for MoveReadError {}

/// Why a move given by its squares is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// No piece stands on the square it starts from.
    NoPiece(Square),
    /// The piece there is the other side's.
    NotTheMoversPiece(Square),
    /// The piece there does not move that way (or is blocked).
    CannotGoThere(Square),
    /// It would leave the mover's general in check or facing the other general.
    LeavesGeneralInCheck,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::NoPiece(sq) => write!(f, "no piece on {sq}"),
            IllegalMove::NotTheMoversPiece(sq) => {
                write!(f, "the piece on {sq} is not the side to move's")
            }
            IllegalMove::CannotGoThere(sq) => write!(f, "the piece on {sq} cannot go there"),
            IllegalMove::LeavesGeneralInCheck => {
                write!(
                    f,
                    "it leaves the general in check (or facing the other general)"
                )
            }
        }
    }
}

/// Reads a move in any of the three notations (the notation is told by its shape) and
/// checks it against the legal moves of `pos`. The error says why it was refused.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, MoveReadError> {
    let narrow_text: String = text.trim().chars().map(narrow).collect();
    if narrow_text.is_empty() {
        return Err(MoveReadError::Empty);
    }
    if let Some(m) = iccs(&narrow_text) {
        return if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveReadError::Illegal(illegal_reason(pos, m)))
        };
    }
    let symbols = if narrow_text.is_ascii() {
        wxf_symbols(&narrow_text)
    } else {
        narrow_text.chars().map(chinese_symbol).collect()
    };
    let Some(spec) = symbols.as_deref().and_then(spec_of) else {
        return Err(MoveReadError::NotANotation);
    };
    let legal = pos.legal_moves();
    let described: Vec<(Move, Description)> = legal
        .iter()
        .filter_map(|&m| describe(pos, m).map(|d| (m, d)))
        .collect();
    let fitting: Vec<&(Move, Description)> = described
        .iter()
        .filter(|(_, d)| matches(&spec, d))
        .collect();
    match fitting.as_slice() {
        [(m, _)] => Ok(*m),
        [] => Err(MoveReadError::NoneFits(pos.side_to_move())),
        several => {
            // A plain file with an odd number of pawns on it names the middle one (WXF).
            let middle: Vec<&&(Move, Description)> = several
                .iter()
                .filter(|(_, d)| {
                    spec.qualifier.is_none() && d.count % 2 == 1 && d.index == d.count / 2
                })
                .collect();
            match middle.as_slice() {
                [(m, _)] => Ok(*m),
                _ => Err(MoveReadError::Ambiguous(
                    several.iter().map(|(m, _)| *m).collect(),
                )),
            }
        }
    }
}

/// An ICCS move (`h2e2`, `H2-E2`), syntax only.
fn iccs(text: &str) -> Option<Move> {
    if !text.is_ascii() {
        return None;
    }
    let b = text.as_bytes();
    let squares = match b.len() {
        4 => [&text[0..2], &text[2..4]],
        5 if b[2] == b'-' => [&text[0..2], &text[3..5]],
        _ => return None,
    };
    let from = Square::parse(&squares[0].to_ascii_lowercase())?;
    let to = Square::parse(&squares[1].to_ascii_lowercase())?;
    (from != to).then(|| Move::new(from, to))
}

/// Why `m`, not legal in `pos`, is not.
pub(crate) fn illegal_reason(pos: &Position, m: Move) -> IllegalMove {
    match pos.piece_at(m.from()) {
        None => IllegalMove::NoPiece(m.from()),
        Some(p) if p.color() != pos.side_to_move() => IllegalMove::NotTheMoversPiece(m.from()),
        Some(_) if !pos.is_pseudo_legal(m) => IllegalMove::CannotGoThere(m.from()),
        Some(_) => IllegalMove::LeavesGeneralInCheck,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn read(p: &Position, text: &str) -> String {
        read_move(p, text)
            .map(|m| m.to_string())
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn the_opening_moves_in_every_notation() {
        let start = Position::startpos();
        for text in [
            "h2e2",
            "H2-E2",
            "C2.5",
            "C2=5",
            "Ｃ２＝５",
            "c2.5",
            "炮二平五",
            "砲二平五",
            "炮2平5",
        ] {
            assert_eq!(read(&start, text), "h2e2", "{text}");
        }
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(write_move(&start, m, Notation::Wxf), "C2.5");
        assert_eq!(write_move(&start, m, Notation::Chinese), "炮二平五");
        assert_eq!(write_iccs_pgn(m), "H2-E2");
        let mut after = start.clone();
        after.make_move(m);
        for text in ["h9g7", "H8+7", "马８进７", "馬8進7", "马八进七"] {
            assert_eq!(read(&after, text), "h9g7", "{text}");
        }
        let h = Move::parse("h9g7").unwrap();
        assert_eq!(write_move(&after, h, Notation::Wxf), "H8+7");
        assert_eq!(write_move(&after, h, Notation::Chinese), "马８进７");
    }

    #[test]
    fn front_and_rear_pieces() {
        // Two red chariots on file e (Red's 5th file), two black cannons on file e.
        let p = pos("3ak4/4c4/4c4/9/9/9/4R4/4R4/9/3K5 w");
        let front = Move::parse("e3e4").unwrap();
        let rear = Move::parse("e2d2").unwrap();
        assert_eq!(write_move(&p, front, Notation::Wxf), "R++1");
        assert_eq!(write_move(&p, rear, Notation::Wxf), "R-.6");
        assert_eq!(write_move(&p, front, Notation::Chinese), "前车进一");
        assert_eq!(write_move(&p, rear, Notation::Chinese), "后车平六");
        for (text, iccs) in [
            ("R++1", "e3e4"),
            ("+R+1", "e3e4"),
            ("前车进一", "e3e4"),
            ("車前進一", "e3e4"),
            ("fR5+1", "e3e4"),
            ("R-.6", "e2d2"),
            ("後車平六", "e2d2"),
            ("bR5.6", "e2d2"),
        ] {
            assert_eq!(read(&p, text), iccs, "{text}");
        }
        // The file alone is ambiguous when both could make the move, and names the one
        // that can otherwise (as older manuals write it).
        assert!(read(&p, "R5.6").starts_with("error: ambiguous"));
        assert_eq!(read(&p, "R5+1"), "e3e4");
    }

    #[test]
    fn tandem_pawns() {
        // Three red pawns on file c (Red's 7th), two on file g (Red's 3rd).
        let p = pos("4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w");
        let cases = [
            ("c7d7", "7+.6", "前七平六"),
            ("c6d6", "77.6", "中七平六"),
            ("c5d5", "7-.6", "后七平六"),
            ("g7f7", "3+.4", "前三平四"),
            ("g6f6", "3-.4", "后三平四"),
        ];
        for (iccs, wxf, chinese) in cases {
            let m = Move::parse(iccs).unwrap();
            assert_eq!(write_move(&p, m, Notation::Wxf), wxf);
            assert_eq!(write_move(&p, m, Notation::Chinese), chinese);
            assert_eq!(read(&p, wxf), iccs);
            assert_eq!(read(&p, chinese), iccs);
        }
        assert_eq!(read(&p, "前兵七平六"), "c7d7");
        // Five pawns on one file: ++, P+, P7 (middle), P-, --.
        let p = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w");
        for (iccs, wxf, chinese) in [
            ("c9d9", "++.6", "前兵平六"),
            ("c8d8", "P+.6", "二兵平六"),
            ("c7d7", "P7.6", "三兵平六"),
            ("c6d6", "P-.6", "四兵平六"),
            ("c5d5", "--.6", "后兵平六"),
        ] {
            let m = Move::parse(iccs).unwrap();
            assert_eq!(write_move(&p, m, Notation::Wxf), wxf, "{iccs}");
            assert_eq!(write_move(&p, m, Notation::Chinese), chinese, "{iccs}");
            assert_eq!(read(&p, wxf), iccs);
            assert_eq!(read(&p, chinese), iccs);
        }
        assert_eq!(read(&p, "五兵平六"), "c5d5");
        assert_eq!(read(&p, "一兵平六"), "c9d9");
    }

    #[test]
    fn refusals_say_why() {
        let start = Position::startpos();
        assert!(read(&start, "h2h8").contains("cannot go there"));
        assert!(read(&start, "a3a4").ends_with("a3a4"));
        assert!(read(&start, "h7h0").contains("not the side to move"));
        assert!(read(&start, "C2.9").contains("no legal move"));
        assert!(read(&start, "炮二").contains("not a move"));
        assert!(read(&start, "").contains("empty"));
        assert!(read(&start, "xyz!").contains("not a move"));
    }
}
