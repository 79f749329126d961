//! Every record reader fed random and mutated bytes: none may panic (or loop), whatever
//! the input. Seeds are files built from the formats' layouts and texts jiang writes;
//! each is cut, flipped, overwritten and spliced, and every reader reads every result.

mod record_files;

use jiang::record::{self, Format, Notation};
use jiang::xiangqi::Position;
use record_files::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

const FORMATS: [Format; 9] = [
    Format::Pgn(Notation::Iccs),
    Format::Pgn(Notation::Wxf),
    Format::Pgn(Notation::Chinese),
    Format::Xqf,
    Format::Cbr,
    Format::Cbl,
    Format::Cbf,
    Format::DhtmlXq,
    Format::FenMoves,
];

/// xorshift64*: a fixed sequence, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn tree() -> Vec<Rec> {
    vec![
        rec("h2", "e2", true, true, "中炮"),
        rec("h9", "g7", true, true, ""),
        rec("h0", "g2", true, false, ""),
        rec("i9", "h9", false, false, "end"),
        rec("b9", "c7", true, false, "变"),
        rec("b0", "c2", false, false, ""),
        rec("c3", "c4", false, false, "仙人指路"),
    ]
}

fn seeds() -> Vec<Vec<u8>> {
    let keys = [
        0x5A, 1, 2, 3, 4, 0x31, 0x07, 0xC4, 0x22, 0x9E, 0x4B, 0x3D, 0x81,
    ];
    let x10 = xqf(10, keys, XQF_START, "说明", &tree());
    let x18 = xqf(18, keys, XQF_START, "说明", &tree());
    let c = cbr(cbr_start(), true, "说明", &tree());
    let game = record::read(&x10, Format::Xqf).unwrap().game;
    let mut out = vec![x10, x18, c.clone()];
    for f in [
        Format::Pgn(Notation::Iccs),
        Format::Pgn(Notation::Wxf),
        Format::Pgn(Notation::Chinese),
        Format::DhtmlXq,
        Format::FenMoves,
    ] {
        out.push(record::write(&game, f).unwrap().into_bytes());
    }
    out.push(
        cbf(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            &[("00-00", "说明"), ("77-47", "中炮"), ("79-67", "")],
        )
        .into_bytes(),
    );
    out.push(
        b"[FEN \"3k5/9/9/9/9/9/9/9/4A4/3AK4 b\"]\n1... K4+1 (1... K4.5) 2. A5+6 {x} *".to_vec(),
    );
    out.push(cbl(&[c]));
    out
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..=rng.below(6) {
        let n = b.len();
        match rng.below(7) {
            0 => b.truncate(rng.below(n + 1)),
            1 if n > 0 => {
                let i = rng.below(n);
                b[i] ^= 1 << rng.below(8);
            }
            2 if n > 0 => {
                let i = rng.below(n);
                b[i] = rng.next() as u8;
            }
            3 => {
                let i = rng.below(n + 1);
                let extra: Vec<u8> = (0..rng.below(16)).map(|_| rng.next() as u8).collect();
                b.splice(i..i, extra);
            }
            4 if n > 1 => {
                // Copy a run of the file elsewhere (repeats records, tags, brackets).
                let (from, len) = (rng.below(n), rng.below(64));
                let run: Vec<u8> = b[from..(from + len).min(n)].to_vec();
                let at = rng.below(n);
                b.splice(at..at, run);
            }
            5 if n > 4 => {
                // A 32-bit length field gone wild.
                let i = rng.below(n - 4);
                b[i..i + 4].copy_from_slice(&(rng.next() as u32).to_le_bytes());
            }
            _ => {
                let text = [
                    "(",
                    ")",
                    "{",
                    "}",
                    "[",
                    "]",
                    "$",
                    "1.",
                    "前",
                    "後",
                    "兵",
                    "Ｐ",
                    "[DhtmlXQ_move_0_1_1]",
                    "<Move value=\"",
                    "\u{feff}",
                    "\0\0",
                ];
                let i = rng.below(n + 1);
                let t = text[rng.below(text.len())].as_bytes().to_vec();
                b.splice(i..i, t);
            }
        }
    }
    b
}

fn read_everything(bytes: &[u8]) {
    for f in FORMATS {
        for loaded in record::read_all(bytes, f).into_iter().flatten() {
            // What was read must be writable and re-readable without a panic too.
            for w in [Format::Pgn(Notation::Chinese), Format::DhtmlXq] {
                let text = record::write(&loaded.game, w).unwrap();
                let _ = record::read(text.as_bytes(), w);
            }
        }
    }
    let _ = Format::sniff(bytes);
}

#[test]
fn no_reader_panics_on_mutated_files() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let seeds = seeds();
    let mut inputs = 0;
    for seed in &seeds {
        let rounds = if seed.len() > 50_000 { 150 } else { 1500 };
        for _ in 0..rounds {
            let input = mutate(&mut rng, seed);
            inputs += 1;
            if catch_unwind(AssertUnwindSafe(|| read_everything(&input))).is_err() {
                panic!(
                    "a reader panicked on this input ({} bytes): {:02x?}",
                    input.len(),
                    &input[..input.len().min(2000)]
                );
            }
        }
    }
    eprintln!("{inputs} mutated inputs read by {} readers", FORMATS.len());
}

#[test]
fn no_reader_panics_on_random_bytes() {
    let mut rng = Rng(42);
    for i in 0..3000 {
        let len = rng.below(if i % 10 == 0 { 5000 } else { 300 });
        let mut input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // Give some the magic of a binary format.
        match i % 4 {
            0 if input.len() > 2 => input[..2].copy_from_slice(b"XQ"),
            1 if input.len() > 16 => input[..16].copy_from_slice(b"CCBridge Record\0"),
            _ => {}
        }
        if catch_unwind(AssertUnwindSafe(|| read_everything(&input))).is_err() {
            panic!("a reader panicked on random input {i}: {input:02x?}");
        }
    }
}

#[test]
fn move_notation_never_panics() {
    let mut rng = Rng(7);
    let alphabet: Vec<char> = "KAEBHNRCPkabnrcpfm+-.=123456789０１２３４５６７８９ＣＲ＋－＝炮马車砲帥将前后中一二三四五六七八九进退平兵卒a0i9h2e2 -!?"
        .chars()
        .collect();
    let positions = [
        Position::startpos(),
        Position::from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w").unwrap(),
        Position::from_fen("4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w").unwrap(),
    ];
    for _ in 0..20_000 {
        let len = 1 + rng.below(6);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        for p in &positions {
            let _ = record::notation::read_move(p, &text);
        }
    }
}
