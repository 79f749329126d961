//! What goes wrong with lines on a pipe: truncation, huge numbers, other games' FENs
//! and moves, words of other commands, binary garbage (NUL, invalid UTF-8, escape
//! sequences, carriage returns, stray newlines), odd white space and Unicode, two
//! commands run together, and 100 KB lines.

use super::games::{FOREIGN_FENS, FOREIGN_MOVES};
use super::grammar::HUGE_NUMBERS;
use crate::rng::Rng;

/// Size of a "long line".
pub const LONG_LINE: usize = 100 * 1024;

fn pick<T: Clone>(rng: &mut Rng, xs: &[T]) -> T {
    xs[rng.below(xs.len())].clone()
}

fn pick_ref<'b, T>(rng: &mut Rng, xs: &'b [T]) -> &'b T {
    &xs[rng.below(xs.len())]
}

/// Words from everywhere, for replacing and inserting.
const WORDS: &[&str] = &[
    "moves",
    "fen",
    "startpos",
    "name",
    "value",
    "depth",
    "infinite",
    "ponder",
    "searchmoves",
    "wtime",
    "movestogo",
    "time",
    "opptime",
    "draw",
    "usermove",
    "ping",
    "setboard",
    "go",
    "stop",
    "position",
    "setoption",
    "perft",
    "-",
    "w",
    "b",
    "r",
    "",
    "将",
    "\u{3000}",
    "\u{feff}",
    "\u{200b}",
    "\u{202e}",
    "é",
    "🐉",
];

/// Binary garbage: control bytes, invalid UTF-8, escape sequences.
fn garbage(rng: &mut Rng, n: usize, newlines: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let b = match rng.below(10) {
            0 => pick(rng, &[0u8, b'\r', 0x1b, 0x7f, 0x08, 0x0c, 0x0b, b'\t']),
            1 => pick(rng, &[0x80u8, 0xc0, 0xff, 0xfe, 0xed, 0xf4]),
            _ => rng.below(256) as u8,
        };
        if b == b'\n' && !newlines {
            out.push(b' ');
        } else {
            out.push(b);
        }
    }
    out
}

/// Byte ranges of the space-separated words of `line`.
fn word_spans(line: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &b) in line.iter().enumerate() {
        match (b == b' ', start) {
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, line.len()));
    }
    spans
}

fn replace_span(line: &[u8], span: (usize, usize), with: &[u8]) -> Vec<u8> {
    let mut out = line[..span.0].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&line[span.1..]);
    out
}

/// One mutation of `line`. `other` is another well-formed line to splice in.
pub fn mutate_once(rng: &mut Rng, line: &[u8], other: &[u8]) -> Vec<u8> {
    let spans = word_spans(line);
    let word = |rng: &mut Rng| spans.get(rng.below(spans.len().max(1))).copied();
    match rng.below(14) {
        // Truncation anywhere (even inside a UTF-8 sequence).
        0 | 1 => line[..rng.below(line.len() + 1)].to_vec(),
        // A number (or any word) becomes a huge or malformed one.
        2 | 3 => {
            let numeric: Vec<(usize, usize)> = spans
                .iter()
                .copied()
                .filter(|&(a, b)| line[a..b].iter().any(u8::is_ascii_digit))
                .collect();
            let span = if numeric.is_empty() {
                word(rng)
            } else {
                Some(pick(rng, &numeric))
            };
            match span {
                Some(s) => replace_span(line, s, pick(rng, HUGE_NUMBERS).as_bytes()),
                None => line.to_vec(),
            }
        }
        // A word becomes another game's move, a foreign FEN, or a keyword.
        4 | 5 => match word(rng) {
            Some(s) => {
                let with = match rng.below(3) {
                    0 => pick(rng, FOREIGN_MOVES).to_string(),
                    1 => pick(rng, FOREIGN_FENS).to_string(),
                    _ => pick(rng, WORDS).to_string(),
                };
                replace_span(line, s, with.as_bytes())
            }
            None => line.to_vec(),
        },
        // Binary garbage inserted (rarely with a newline: two lines).
        6 => {
            let at = rng.below(line.len() + 1);
            let n = 1 + rng.below(16);
            let newlines = rng.chance(1, 4);
            let junk = garbage(rng, n, newlines);
            let mut out = line[..at].to_vec();
            out.extend_from_slice(&junk);
            out.extend_from_slice(&line[at..]);
            out
        }
        // A word dropped or doubled, or two swapped.
        7 => match word(rng) {
            Some(s) if rng.chance(1, 2) => replace_span(line, s, b""),
            Some(s) => {
                let w = line[s.0..s.1].to_vec();
                let mut doubled = w.clone();
                doubled.push(b' ');
                doubled.extend_from_slice(&w);
                replace_span(line, s, &doubled)
            }
            None => line.to_vec(),
        },
        8 => {
            if spans.len() < 2 {
                return line.to_vec();
            }
            let i = rng.below(spans.len());
            let j = rng.below(spans.len());
            let (a, b) = (spans[i.min(j)], spans[i.max(j)]);
            if a == b {
                return line.to_vec();
            }
            let mut out = line[..a.0].to_vec();
            out.extend_from_slice(&line[b.0..b.1]);
            out.extend_from_slice(&line[a.1..b.0]);
            out.extend_from_slice(&line[a.0..a.1]);
            out.extend_from_slice(&line[b.1..]);
            out
        }
        // Odd white space.
        9 => {
            let ws: &[u8] = pick(
                rng,
                &[
                    b"\t".as_slice(),
                    b"   ",
                    b"\x0b",
                    b"\x0c",
                    "\u{3000}".as_bytes(),
                    "\u{a0}".as_bytes(),
                    b"\r",
                ],
            );
            let mut out = Vec::new();
            if rng.chance(1, 3) {
                out.extend_from_slice(ws);
            }
            for &b in line {
                if b == b' ' && rng.chance(1, 2) {
                    out.extend_from_slice(ws);
                } else {
                    out.push(b);
                }
            }
            if rng.chance(1, 3) {
                out.extend_from_slice(ws);
            }
            out
        }
        // Case changed.
        10 => {
            if rng.chance(1, 2) {
                line.to_ascii_uppercase()
            } else {
                let mut out = line.to_vec();
                if let Some(s) = word(rng) {
                    out[s.0..s.1].make_ascii_uppercase();
                }
                out
            }
        }
        // A Unicode character inserted.
        11 => {
            let at = pick(
                rng,
                &spans
                    .iter()
                    .map(|s| s.0)
                    .chain([line.len()])
                    .collect::<Vec<_>>(),
            );
            let mut out = line[..at].to_vec();
            out.extend_from_slice(pick(rng, WORDS).as_bytes());
            out.extend_from_slice(&line[at..]);
            out
        }
        // Two commands run together.
        12 => {
            let mut out = line.to_vec();
            if rng.chance(1, 2) {
                out.push(b' ');
            }
            out.extend_from_slice(other);
            out
        }
        // Digits inside a word changed (FEN ranks, square names).
        _ => {
            let mut out = line.to_vec();
            let digits: Vec<usize> = (0..out.len())
                .filter(|&i| out[i].is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                let i = pick(rng, &digits);
                out[i] = pick(rng, b"0123456789x/-");
            }
            out
        }
    }
}

/// One to three mutations.
pub fn mutate(rng: &mut Rng, line: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = mutate_once(rng, line, other);
    while rng.chance(1, 3) {
        out = mutate_once(rng, &out, other);
    }
    out
}

/// A line of about 100 KB: a command with a huge argument list, or garbage.
pub fn long_line(rng: &mut Rng, line: &[u8], moves: &[String]) -> Vec<u8> {
    let mut out = match rng.below(8) {
        0 => b"position startpos moves".to_vec(),
        1 => b"go searchmoves".to_vec(),
        2 => b"banmoves".to_vec(),
        3 => b"setoption name Hash value ".to_vec(),
        4 => Vec::new(), // garbage only
        5 => b"ping ".to_vec(),
        6 => {
            let mut v = vec![b' '; LONG_LINE];
            v.extend_from_slice(b"isready");
            return v;
        }
        _ => line.to_vec(),
    };
    while out.len() < LONG_LINE {
        match rng.below(4) {
            0 if !moves.is_empty() => {
                out.push(b' ');
                out.extend_from_slice(pick_ref(rng, moves).as_bytes());
            }
            1 => out.extend_from_slice(b"9999999999"),
            2 => {
                let n = 1 + rng.below(64);
                out.extend(garbage(rng, n, false));
            }
            _ => {
                out.push(b' ');
                out.extend_from_slice(pick(rng, FOREIGN_MOVES).as_bytes());
            }
        }
    }
    out
}
