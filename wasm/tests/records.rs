//! The browser build's record export, `jiang_record`, called natively as the page calls
//! it (bytes into memory from `jiang_alloc`, the answer from the reply buffer): files of
//! several formats written by jiang's own writers at test time come back as the game
//! (moves in three notations, the variation, the comments); a damaged file is refused
//! naming the place; random and mutated bytes never make it panic.

use jiang::record::{self, Format, Game, Notation};
use jiang::xiangqi::Move;
use jiang_wasm::abi;
use serde_json::Value;
use std::sync::Mutex;

/// The reply buffer is one per module (as in the browser): one call at a time.
static CALLS: Mutex<()> = Mutex::new(());

/// `jiang_record(name, bytes, game)` as the page makes it: (status, parsed reply).
fn call_record(name: &str, bytes: &[u8], game: u32) -> (u32, Value) {
    let _one = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    let put = |b: &[u8]| {
        let p = abi::jiang_alloc(b.len());
        assert!(!p.is_null());
        // SAFETY: `p` has room for `b.len()` bytes (jiang_alloc).
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), p, b.len()) };
        p
    };
    let (np, bp) = (put(name.as_bytes()), put(bytes));
    // SAFETY: both pairs were allocated above with these lengths.
    let status = unsafe { abi::jiang_record(np, name.len(), bp, bytes.len(), game) };
    // SAFETY: the reply buffer holds `jiang_reply_len()` bytes until the next call.
    let reply = unsafe {
        std::slice::from_raw_parts(abi::jiang_reply_ptr(), abi::jiang_reply_len()).to_vec()
    };
    // SAFETY: freed once, with the lengths they were allocated with.
    unsafe {
        abi::jiang_free(np, name.len());
        abi::jiang_free(bp, bytes.len());
    }
    let text = String::from_utf8(reply).expect("the reply is UTF-8");
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, value)
}

/// 1. C2.5 H8+7 2. H2+3 (2. P7+1 {仙人指路} P7+1) 2... R9.8, a comment on the game.
fn sample() -> Game {
    let mut g = Game::default();
    g.set_tag("Event", "jiang test");
    g.set_tag("Red", "红方");
    g.set_tag("Black", "黑方");
    let mv = |s: &str| Move::parse(s).expect("a move");
    let t = &mut g.tree;
    t.add_comment(0, "开局");
    let a = t.add_move(0, mv("h2e2"));
    let b = t.add_move(a, mv("h9g7"));
    let c = t.add_move(b, mv("h0g2"));
    t.add_move(c, mv("i9h9"));
    let v = t.add_move(b, mv("c3c4"));
    t.add_comment(v, "仙人指路");
    t.add_move(v, mv("g6g5"));
    g
}

fn main_line(game: &Value) -> Vec<String> {
    let nodes = game["nodes"].as_array().expect("nodes");
    let mut line = Vec::new();
    let mut at = &nodes[0];
    while let Some(c) = at["children"].as_array().and_then(|c| c.first()) {
        at = &nodes[c.as_u64().expect("an id") as usize];
        line.push(at["move"].as_str().expect("a move").to_string());
    }
    line
}

fn node_with<'a>(game: &'a Value, mv: &str) -> &'a Value {
    game["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["move"] == mv)
        .unwrap_or_else(|| panic!("no node with {mv}"))
}

#[test]
fn files_written_by_jiang_come_back_whole() {
    let game = sample();
    let cases = [
        ("game.pgn", Format::Pgn(Notation::Iccs), true),
        ("game-wxf.pgn", Format::Pgn(Notation::Wxf), true),
        ("game-chinese.PGN", Format::Pgn(Notation::Chinese), true),
        ("game.ubb", Format::DhtmlXq, true),
        // No extension: the bytes tell the format.
        ("clipboard", Format::Pgn(Notation::Chinese), true),
        // FEN and moves keep the main line only.
        ("game.fen", Format::FenMoves, false),
    ];
    for (name, format, whole) in cases {
        let text = record::write(&game, format).expect("a written format");
        let (status, g) = call_record(name, text.as_bytes(), 0);
        assert_eq!(status, 200, "{name}: {g}");
        assert_eq!(g["games"], 1, "{name}");
        assert_eq!(
            main_line(&g),
            ["h2e2", "h9g7", "h0g2", "i9h9"],
            "{name}: {text}"
        );
        assert_eq!(g["warnings"].as_array().map(Vec::len), Some(0), "{name}");
        let first = node_with(&g, "h2e2");
        assert_eq!(first["iccs"], "H2-E2");
        assert_eq!(first["wxf"], "C2.5");
        assert_eq!(first["chinese"], "炮二平五");
        assert_eq!(node_with(&g, "h9g7")["chinese"], "马８进７");
        assert_eq!(
            first["fen"],
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
        );
        if whole {
            let v = node_with(&g, "c3c4");
            assert_eq!(v["comment"], "仙人指路", "{name}");
            assert_eq!(v["chinese"], "兵七进一");
            let parent = &g["nodes"][v["parent"].as_u64().expect("parent") as usize];
            assert_eq!(
                parent["move"], "h9g7",
                "{name}: the variation hangs where it was"
            );
            assert_eq!(parent["children"].as_array().map(Vec::len), Some(2));
            assert_eq!(g["nodes"][0]["comment"], "开局", "{name}");
            assert!(
                g["tags"]
                    .as_array()
                    .expect("tags")
                    .iter()
                    .any(|t| t[0] == "Red" && t[1] == "红方"),
                "{name}: {}",
                g["tags"]
            );
        }
    }
}

#[test]
fn damaged_files_are_refused_naming_the_place() {
    // An XQF header cut short: refused, the byte named.
    let (status, e) = call_record("game.xqf", b"XQ\x0a\x00garbage", 0);
    assert_eq!(status, 422, "{e}");
    let msg = e["error"].as_str().expect("an error");
    assert!(msg.contains("byte 11"), "{msg}");
    assert_eq!(e["place"], "byte 11 (0xb)");
    // A PGN whose third move is illegal: the moves before it kept, a warning naming the
    // line and column.
    let text = "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h0h5 i9h9 *\n";
    let (status, g) = call_record("bad.pgn", text.as_bytes(), 0);
    assert_eq!(status, 200, "{g}");
    assert_eq!(main_line(&g), ["h2e2", "h9g7"]);
    let w = &g["warnings"][0];
    assert!(
        w["place"]
            .as_str()
            .is_some_and(|p| p.starts_with("line 4:")),
        "{w}"
    );
    assert!(
        w["text"].as_str().is_some_and(|t| t.contains("h0h5")),
        "{w}"
    );
    // Not a record at all, an empty file, a game the file does not hold.
    assert_eq!(call_record("notes.txt", b"hello there", 0).0, 422);
    assert_eq!(call_record("game.pgn", b"", 0).0, 422);
    let one = record::write(&sample(), Format::Pgn(Notation::Iccs)).expect("pgn");
    let (status, e) = call_record("game.pgn", one.as_bytes(), 3);
    assert_eq!(status, 400, "{e}");
    // A file name that is not UTF-8.
    let _one = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    let bad_name = [0xffu8, 0xfe];
    let p = abi::jiang_alloc(2);
    // SAFETY: two bytes allocated; the pair passed is that allocation.
    let status = unsafe {
        std::ptr::copy_nonoverlapping(bad_name.as_ptr(), p, 2);
        let s = abi::jiang_record(p, 2, std::ptr::null(), 0, 0);
        abi::jiang_free(p, 2);
        s
    };
    assert_eq!(status, 400);
}

/// xorshift64*: enough randomness for bytes, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_and_mutated_bytes_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let names = [
        "a.pgn", "a.xqf", "a.cbr", "a.cbl", "a.cbf", "a.ubb", "a.fen", "a.txt", "a",
    ];
    let heads: [&[u8]; 6] = [
        b"XQ",
        b"CCBridge Record",
        b"CCBridgeLibrary",
        b"<?xml version=\"1.0\"?><ChineseChessRecord>",
        b"[DhtmlXQ]",
        b"[Event ",
    ];
    let good: Vec<Vec<u8>> = [
        Format::Pgn(Notation::Chinese),
        Format::Pgn(Notation::Wxf),
        Format::DhtmlXq,
    ]
    .iter()
    .map(|&f| record::write(&sample(), f).expect("written").into_bytes())
    .collect();
    let mut answered = [0usize; 4];
    for round in 0..3000 {
        let mut bytes: Vec<u8> = if round % 3 == 0 {
            // A good file with a few bytes changed, cut or doubled.
            let mut b = good[rng.below(good.len())].clone();
            for _ in 0..1 + rng.below(8) {
                let i = rng.below(b.len());
                match rng.below(3) {
                    0 => b[i] = rng.next() as u8,
                    1 => b.truncate(i.max(1)),
                    _ => b.insert(i, b[i]),
                }
            }
            b
        } else {
            let mut b = Vec::new();
            if rng.below(2) == 0 {
                b.extend_from_slice(heads[rng.below(heads.len())]);
            }
            let most = if rng.below(8) == 0 { 5000 } else { 300 };
            let n = rng.below(most);
            b.extend((0..n).map(|_| rng.next() as u8));
            b
        };
        if bytes.len() > 2 && round % 7 == 0 {
            // XQF versions and their key bytes.
            bytes[2] = [10u8, 11, 12, 16, 18][rng.below(5)];
        }
        let name = names[rng.below(names.len())];
        let game = if round % 5 == 4 {
            rng.below(3) as u32
        } else {
            0
        };
        let (status, reply) = call_record(name, &bytes, game);
        let slot = match status {
            200 => 0,
            400 => 1,
            413 => 2,
            422 => 3,
            other => panic!("{name}: status {other}: {reply}"),
        };
        answered[slot] += 1;
        if status != 200 {
            assert!(reply["error"].is_string(), "{reply}");
        } else {
            assert!(reply["nodes"].is_array(), "{reply}");
        }
    }
    // The mutated good files are mostly still read.
    assert!(answered[0] > 400, "{answered:?}");
    assert!(answered[3] > 300, "{answered:?}");
}
