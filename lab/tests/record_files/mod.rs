//! Record files built byte by byte from the formats' documented layouts (see the doc
//! comments of `jiang::record::xqf` and `jiang::record::cbr`), for the tests: jiang only
//! reads these formats, so the tests make their own files instead of using others'.

#![allow(dead_code)]

/// A square as the tests name it: `(file 0..8 from Red's left, rank 0..9 from Red's side)`.
pub type Sq = (u8, u8);

/// One move record in the file's (depth-first) order.
pub struct Rec {
    pub from: Sq,
    pub to: Sq,
    /// Another move follows this one in its line.
    pub next: bool,
    /// A variation replacing this move follows (after this move's line).
    pub variation: bool,
    pub comment: &'static str,
}

/// Shorthand for a record.
pub fn rec(from: &str, to: &str, next: bool, variation: bool, comment: &'static str) -> Rec {
    let sq = |s: &str| {
        let b = s.as_bytes();
        (b[0] - b'a', b[1] - b'0')
    };
    Rec {
        from: sq(from),
        to: sq(to),
        next,
        variation,
        comment,
    }
}

/// The 32 pieces of the start position in XQF's order, `x*10+y`.
pub const XQF_START: [u8; 32] = [
    80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 89, 79, 69, 59, 49, 39, 29, 19,
    9, 77, 17, 86, 66, 46, 26, 6,
];

fn gbk(text: &str) -> Vec<u8> {
    jiang::record::text::encode_gbk(text).expect("the gbk feature is on in jiang-lab")
}

/// An XQF file. `version` 10 writes the plain layout of XQF 1.0; 11 and up encrypt with
/// `keys` (header bytes 3..16), and 12 and up also rotate the piece table.
pub fn xqf(
    version: u8,
    keys: [u8; 13],
    pieces: [u8; 32],
    game_comment: &str,
    recs: &[Rec],
) -> Vec<u8> {
    let mut h = vec![0u8; 0x400];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = version;
    let encrypted = version >= 11;
    if encrypted {
        h[3..16].copy_from_slice(&keys);
    }
    let sq_key =
        |k: u8, by: u8| (((54 * u32::from(k) * u32::from(k) + 221) * u32::from(by)) & 0xFF) as u8;
    let (xy, xyf, xyt, rmk, stream) = if encrypted {
        let xy = sq_key(h[13], h[13]);
        let xyf = sq_key(h[14], xy);
        let xyt = sq_key(h[15], xyf);
        let rmk = (u32::from(h[12]) * 256 + u32::from(h[13])) % 32000 + 767;
        let copyright = b"[(C) Copyright Mr. Dong Shiwei.]";
        let mut stream = [0u8; 32];
        for i in 0..32 {
            stream[i] = copyright[i] & ((h[12 + i % 4] & h[3]) | h[8 + i % 4]);
        }
        (xy, xyf, xyt, rmk, stream)
    } else {
        (0, 0, 0, 0, [0; 32])
    };
    for i in 0..32 {
        let piece = if version >= 12 {
            pieces[(usize::from(xy) + i + 1) % 32]
        } else {
            pieces[i]
        };
        h[0x10 + i] = piece.wrapping_add(xy);
    }
    h[0x33] = 1;
    let field = |h: &mut Vec<u8>, at: usize, text: &str| {
        let b = gbk(text);
        h[at] = b.len() as u8;
        h[at + 1..at + 1 + b.len()].copy_from_slice(&b);
    };
    field(&mut h, 0x50, "测试对局");
    field(&mut h, 0x130, "红方");
    field(&mut h, 0x140, "黑方");
    let mut body = Vec::new();
    let record =
        |body: &mut Vec<u8>, from: u8, to: u8, next: bool, variation: bool, comment: &str| {
            let c = gbk(comment);
            if encrypted {
                let flags = (if next { 0x80 } else { 0 })
                    | (if variation { 0x40 } else { 0 })
                    | (if c.is_empty() { 0 } else { 0x20 });
                body.extend_from_slice(&[
                    from.wrapping_add(24).wrapping_add(xyf),
                    to.wrapping_add(32).wrapping_add(xyt),
                    flags,
                    0,
                ]);
                if !c.is_empty() {
                    body.extend_from_slice(&(c.len() as u32 + rmk).to_le_bytes());
                }
            } else {
                let flags = (if next { 0xF0 } else { 0 }) | (if variation { 0x0F } else { 0 });
                body.extend_from_slice(&[from.wrapping_add(24), to.wrapping_add(32), flags, 0]);
                body.extend_from_slice(&(c.len() as u32).to_le_bytes());
            }
            body.extend_from_slice(&c);
        };
    record(&mut body, 0, 0, !recs.is_empty(), false, game_comment);
    for r in recs {
        record(
            &mut body,
            r.from.0 * 10 + r.from.1,
            r.to.0 * 10 + r.to.1,
            r.next,
            r.variation,
            r.comment,
        );
    }
    for (i, b) in body.iter_mut().enumerate() {
        *b = b.wrapping_add(stream[(0x400 + i) % 32]);
    }
    h.extend_from_slice(&body);
    h
}

fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// A CBR file from a board (90 piece codes, row 0 at Black's side).
pub fn cbr(board: [u8; 90], first_red: bool, game_comment: &str, recs: &[Rec]) -> Vec<u8> {
    let mut b = vec![0u8; 2214];
    b[..16].copy_from_slice(b"CCBridge Record\0");
    let put = |b: &mut Vec<u8>, at: usize, text: &str| {
        let t = utf16(text);
        b[at..at + t.len()].copy_from_slice(&t);
    };
    put(&mut b, 180, "测试对局");
    put(&mut b, 1076, "红方");
    put(&mut b, 1300, "黑方");
    b[2076] = 3;
    b[2112] = if first_red { 1 } else { 2 };
    b[2116] = 1; // the first move number
    b[2120..2210].copy_from_slice(&board);
    if game_comment.is_empty() {
        b.extend_from_slice(&[0; 4]);
    } else {
        let t = utf16(game_comment);
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&(t.len() as u32).to_le_bytes());
        b.extend_from_slice(&t);
    }
    let index = |s: Sq| (9 - s.1) * 9 + s.0;
    for r in recs {
        let t = utf16(r.comment);
        let flags = (if r.next { 0 } else { 1 })
            | (if r.variation { 2 } else { 0 })
            | (if t.is_empty() { 0 } else { 4 });
        b.extend_from_slice(&[flags, 0, index(r.from), index(r.to)]);
        if !t.is_empty() {
            b.extend_from_slice(&(t.len() as u32).to_le_bytes());
            b.extend_from_slice(&t);
        }
    }
    b.extend_from_slice(&[0; 4]);
    b
}

/// The start position as CBR's board.
pub fn cbr_start() -> [u8; 90] {
    let mut board = [0u8; 90];
    let back = [1, 2, 3, 4, 5, 4, 3, 2, 1];
    for f in 0..9 {
        board[f] = 0x20 + back[f];
        board[81 + f] = 0x10 + back[f];
    }
    for f in [1, 7] {
        board[2 * 9 + f] = 0x26;
        board[7 * 9 + f] = 0x16;
    }
    for f in [0, 2, 4, 6, 8] {
        board[3 * 9 + f] = 0x27;
        board[6 * 9 + f] = 0x17;
    }
    board
}

/// A CBL library holding `games` (each padded to 4096-byte blocks).
pub fn cbl(games: &[Vec<u8>]) -> Vec<u8> {
    let mut b = vec![0u8; 101_952];
    b[..16].copy_from_slice(b"CCBridgeLibrary\0");
    b[60..64].copy_from_slice(&(games.len() as u32).to_le_bytes());
    for g in games {
        let mut g = g.clone();
        g.resize(g.len().div_ceil(4096) * 4096, 0);
        b.extend_from_slice(&g);
    }
    b
}

/// A CBF document from XY-XY moves (X the file, Y the row from Black's side).
pub fn cbf(fen: &str, moves: &[(&str, &str)]) -> String {
    let mut s = format!(
        "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n <Head>\n  <Name>测试</Name>\n  <Red>红方</Red>\n  <Black />\n  <RecordResult>1</RecordResult>\n  <FEN>{fen}</FEN>\n </Head>\n <MoveList>\n"
    );
    for (value, comment) in moves {
        if comment.is_empty() {
            s.push_str(&format!("  <Move value=\"{value}\" />\n"));
        } else {
            s.push_str(&format!(
                "  <Move value=\"{value}\"><![CDATA[{comment}]]></Move>\n"
            ));
        }
    }
    s.push_str(" </MoveList>\n</ChineseChessRecord>\n");
    s
}
