//! jiang's game record readers and writers (`jiang::record`) on files built here from the
//! formats' layouts, and on the texts jiang writes.

mod record_files;

use jiang::record::{self, Format, Game, Notation, Place};
use record_files::*;

/// A small tree: 1. C2.5 H8+7 2. H2+3 R9.8, with 1... H2+3 2. H8+7 as a variation of
/// Black's first move and 1. P7+1 as a variation of Red's.
fn tree() -> Vec<Rec> {
    vec![
        rec("h2", "e2", true, true, "中炮"),
        rec("h9", "g7", true, true, ""),
        rec("h0", "g2", true, false, ""),
        rec("i9", "h9", false, false, "end of the main line"),
        rec("b9", "c7", true, false, "另一变"),
        rec("b0", "c2", false, false, ""),
        rec("c3", "c4", false, false, "仙人指路"),
    ]
}

fn expected_lines() -> Vec<Vec<String>> {
    let l = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    vec![l("h2e2 h9g7 h0g2 i9h9"), l("h2e2 b9c7 b0c2"), l("c3c4")]
}

fn comments(g: &Game) -> Vec<(Vec<String>, String)> {
    let t = &g.tree;
    t.preorder()
        .into_iter()
        .filter(|&id| !t.node(id).comment.is_empty())
        .map(|id| {
            let path = t
                .path_to(id)
                .iter()
                .filter_map(|&n| t.node(n).mv.map(|m| m.to_string()))
                .collect();
            (path, t.node(id).comment.clone())
        })
        .collect()
}

fn check_tree(g: &Game) {
    assert_eq!(g.tree.lines_iccs(), expected_lines());
    let c = comments(g);
    let text = |p: &str| {
        c.iter()
            .find(|(path, _)| path.join(" ") == p)
            .map(|x| x.1.as_str())
    };
    assert_eq!(text(""), Some("对局说明"));
    assert_eq!(text("h2e2"), Some("中炮"));
    assert_eq!(text("h2e2 b9c7"), Some("另一变"));
    assert_eq!(text("c3c4"), Some("仙人指路"));
    assert_eq!(text("h2e2 h9g7 h0g2 i9h9"), Some("end of the main line"));
}

#[test]
fn xqf_every_version_reads_the_same_tree() {
    let keys = [
        0x5A, 1, 2, 3, 4, 0x31, 0x07, 0xC4, 0x22, 0x9E, 0x4B, 0x3D, 0x81,
    ];
    for version in [10, 11, 12, 18] {
        let bytes = xqf(version, keys, XQF_START, "对局说明", &tree());
        let loaded = record::read(&bytes, Format::Xqf).unwrap();
        assert!(
            loaded.warnings.is_empty(),
            "version {version}: {:?}",
            loaded.warnings
        );
        let g = &loaded.game;
        assert!(g.from_start_position(), "version {version}");
        check_tree(g);
        assert_eq!(g.tag("Title"), Some("测试对局"));
        assert_eq!(g.tag("Red"), Some("红方"));
        assert_eq!(g.result(), "1-0");
    }
}

#[test]
fn xqf_from_a_position_with_black_to_move() {
    // Black king e9, advisor d9 (as the first advisor slot); Red king e0, chariot a0. The
    // first move is Black's, so Black is to move.
    let mut pieces = [0xFFu8; 32];
    pieces[4] = 30; // red king d0
    pieces[0] = 80; // red chariot i0
    pieces[16 + 4] = 49; // black king e9
    pieces[16 + 3] = 39; // black advisor d9
    let bytes = xqf(
        10,
        [0; 13],
        pieces,
        "",
        &[rec("d9", "e8", false, false, "")],
    );
    let g = record::read(&bytes, Format::Xqf).unwrap().game;
    assert_eq!(g.start_fen, "3ak4/9/9/9/9/9/9/9/9/3K4R b - - 0 1");
    assert_eq!(g.main_line_iccs(), ["d9e8"]);
}

#[test]
fn xqf_damage_is_named_by_its_byte() {
    let good = xqf(10, [0; 13], XQF_START, "对局说明", &tree());
    // Not XQF.
    let e = record::read(b"PK\x03\x04", Format::Xqf).unwrap_err();
    assert_eq!(e.place, Place::Byte(0));
    // The header cut short.
    let e = record::read(&good[..600], Format::Xqf).unwrap_err();
    assert_eq!(e.place, Place::Byte(600));
    assert!(e.to_string().contains("header"), "{e}");
    // Two pieces on one square.
    let mut two = good.clone();
    two[0x10 + 1] = two[0x10];
    let e = record::read(&two, Format::Xqf).unwrap_err();
    assert_eq!(e.place, Place::Byte(0x11));
    // Cut inside the records: the moves before are kept, the place of the cut named.
    let cut = &good[..0x400 + 8 + 12 + 8 + 8 + 3];
    let l = record::read(cut, Format::Xqf).unwrap();
    assert_eq!(l.game.main_line_iccs(), ["h2e2", "h9g7"]);
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert!(matches!(l.warnings[0].place, Place::Byte(b) if b >= 0x400));
    // An illegal move (the horse of h0 sent to h2): its line ends, the rest is kept.
    let mut recs = tree();
    recs[2] = rec("h0", "h2", true, false, "");
    let bytes = xqf(10, [0; 13], XQF_START, "", &recs);
    let l = record::read(&bytes, Format::Xqf).unwrap();
    assert_eq!(l.game.tree.lines_iccs()[0], ["h2e2", "h9g7"]);
    assert_eq!(l.game.tree.lines_iccs().len(), 3);
    assert_eq!(l.warnings.len(), 1);
    let w = l.warnings[0].to_string();
    assert!(w.starts_with("byte 1052") && w.contains("h0h2"), "{w}");
}

#[test]
fn cbr_and_cbl_read_the_tree() {
    let bytes = cbr(cbr_start(), true, "对局说明", &tree());
    let l = record::read(&bytes, Format::Cbr).unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    check_tree(&l.game);
    assert_eq!(l.game.tag("Red"), Some("红方"));
    assert_eq!(l.game.result(), "1/2-1/2");
    let lib = cbl(&[
        bytes.clone(),
        cbr(cbr_start(), true, "", &[rec("b2", "e2", false, false, "")]),
    ]);
    let games = record::read_all(&lib, Format::Cbl);
    assert_eq!(games.len(), 2);
    check_tree(&games[0].as_ref().unwrap().game);
    assert_eq!(games[1].as_ref().unwrap().game.main_line_iccs(), ["b2e2"]);
    // A piece code that is none: named by its byte.
    let mut bad = bytes.clone();
    bad[2120 + 40] = 0x38;
    let e = record::read(&bad, Format::Cbr).unwrap_err();
    assert_eq!(e.place, Place::Byte(2160));
    // A comment length running past the end: the moves before it are kept.
    let mut cut = bytes.clone();
    cut.truncate(cut.len() - 20);
    let l = record::read(&cut, Format::Cbr).unwrap();
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert!(l.game.tree.len() > 3);
}

#[test]
fn cbf_reads_the_main_line_and_comments() {
    let text = cbf(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        &[
            ("00-00", "开局"),
            ("77-47", "中炮"),
            ("72-42", ""),
            ("79-67", ""),
        ],
    );
    let l = record::read(text.as_bytes(), Format::Cbf).unwrap();
    assert!(l.warnings.is_empty());
    assert_eq!(l.game.main_line_iccs(), ["h2e2", "h7e7", "h0g2"]);
    assert_eq!(l.game.tree.node(0).comment, "开局");
    assert_eq!(l.game.result(), "1-0");
    let bad = cbf(START, &[("00-00", ""), ("77-47", ""), ("77-47", "")]);
    let l = record::read(bad.as_bytes(), Format::Cbf).unwrap();
    assert_eq!(l.game.main_line_iccs(), ["h2e2"]);
    assert!(
        matches!(
            l.warnings[0].place,
            Place::Line {
                line: 13,
                column: 3
            }
        ),
        "{}",
        l.warnings[0]
    );
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn the_tree_game() -> Game {
    let bytes = xqf(10, [0; 13], XQF_START, "对局说明", &tree());
    record::read(&bytes, Format::Xqf).unwrap().game
}

#[test]
fn every_written_format_reads_back_the_same() {
    let mut g = the_tree_game();
    g.set_tag("Event", "Test \"quoted\" event");
    for format in [
        Format::Pgn(Notation::Iccs),
        Format::Pgn(Notation::Wxf),
        Format::Pgn(Notation::Chinese),
        Format::DhtmlXq,
    ] {
        let text = record::write(&g, format).unwrap();
        let back = record::read(text.as_bytes(), format).unwrap();
        assert!(
            back.warnings.is_empty(),
            "{format:?}: {:?}\n{text}",
            back.warnings
        );
        check_tree(&back.game);
        assert_eq!(back.game.start_fen, g.start_fen);
        assert_eq!(back.game.tag("Red"), Some("红方"), "{format:?}");
        assert_eq!(back.game.result(), "1-0", "{format:?}");
        // Any notation is read by the same PGN reader.
        assert_eq!(
            Format::sniff(text.as_bytes()).map(|f| matches!(f, Format::Pgn(_) | Format::DhtmlXq)),
            Some(true)
        );
    }
    assert!(record::write(&g, Format::Xqf).is_err());
    let fen = record::write(&g, Format::FenMoves).unwrap();
    assert_eq!(fen, "position startpos moves h2e2 h9g7 h0g2 i9h9\n");
    assert_eq!(
        record::read(fen.as_bytes(), Format::FenMoves)
            .unwrap()
            .game
            .main_line_iccs(),
        g.main_line_iccs()
    );
}

#[test]
fn pgn_writes_the_three_notations() {
    let g = the_tree_game();
    let one_line = |f| record::write(&g, f).unwrap().replace('\n', " ");
    let wxf = one_line(Format::Pgn(Notation::Wxf));
    assert!(
        wxf.contains("{对局说明} 1. C2.5 {中炮} (1. P7+1 {仙人指路}) 1... H8+7 (1... H2+3 {另一变} 2. H8+7) 2. H2+3 R9.8 {end of the main line} 1-0"),
        "{wxf}"
    );
    let cn = one_line(Format::Pgn(Notation::Chinese));
    assert!(cn.contains("1. 炮二平五 {中炮} (1. 兵七进一 {仙人指路}) 1... 马８进７ (1... 马２进３ {另一变} 2. 马八进七) 2. 马二进三 车９平８"), "{cn}");
    let iccs = one_line(Format::Pgn(Notation::Iccs));
    assert!(
        iccs.contains("[Format \"ICCS\"]") && iccs.contains("1. H2-E2 {中炮}"),
        "{iccs}"
    );
}

#[test]
fn pgn_reads_what_others_write() {
    let text = "[Event \"x\"]\n[Red \"甲\"]\n\n1. 炮二平五 馬８進７ 2．傌二進三 车9平8\n3. Ｒ１＝２ c6c5 4. 兵七进一?! $6 {a comment\nover two lines} 4... 炮８平９ ; rest of line\n5. H8+7 *\n\n[Event \"two\"]\n1. h2e2 1-0\n";
    let games = record::read_all(text.as_bytes(), Format::Pgn(Notation::Iccs));
    assert_eq!(games.len(), 2);
    let l = games[0].as_ref().unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(
        l.game.main_line_iccs(),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "c6c5", "c3c4", "h7i7", "b0c2"]
    );
    let seventh = l.game.tree.main_line()[6];
    assert_eq!(
        l.game.tree.node(seventh).comment,
        "a comment\nover two lines"
    );
    assert_eq!(
        l.game.tree.node(seventh).nag,
        Some(jiang::record::Nag::Dubious)
    );
    assert_eq!(l.game.tag("Red"), Some("甲"));
    assert_eq!(games[1].as_ref().unwrap().game.main_line_iccs(), ["h2e2"]);
    assert_eq!(games[1].as_ref().unwrap().game.result(), "1-0");
}

#[test]
fn pgn_illegal_moves_end_their_line_at_a_named_place() {
    let text = "1. C2.5 H8+7 (1... C8.5 2. R9.8 3. X 4. h2h3) 2. H2+3 R9.8 3. R1.2 C8.9?? 4. h7h8 5. R2+4\n";
    let l = record::read(text.as_bytes(), Format::Pgn(Notation::Wxf)).unwrap();
    // The variation ended at R9.8 (the chariot a0 has no such move: R9.8 means file 9 to
    // file 8, a0 to b0, blocked by the horse), the main line at h7h8 (Black's cannon).
    assert_eq!(
        l.game.main_line_iccs(),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7i7"]
    );
    assert_eq!(l.game.tree.lines_iccs()[1], ["h2e2", "h7e7"]);
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert_eq!(
        l.warnings[0].place,
        Place::Line {
            line: 1,
            column: 28
        }
    );
    assert!(l.warnings[0]
        .to_string()
        .contains("this variation ends here"));
    let column = text.find("4. h7h8").unwrap() + 4;
    assert_eq!(l.warnings[1].place, Place::Line { line: 1, column });
    assert!(l.warnings[1].to_string().contains("the game ends here"));
    let nag = l
        .game
        .tree
        .node(*l.game.tree.main_line().last().unwrap())
        .nag;
    assert_eq!(nag, Some(jiang::record::Nag::Blunder));
    // A bad FEN tag refuses the game, naming the tag's line.
    let e = record::read(
        b"[Event \"e\"]\n[FEN \"9/9 w\"]\n1. h2e2\n",
        Format::Pgn(Notation::Iccs),
    )
    .unwrap_err();
    assert_eq!(e.place, Place::Line { line: 2, column: 1 });
}

#[test]
fn dhtmlxq_from_a_position_with_black_to_move() {
    let mut g = Game::new("3k5/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1".into());
    g.set_tag("Result", "*");
    let m = |s: &str| jiang::xiangqi::Move::parse(s).unwrap();
    let a = g.tree.add_move(0, m("d9e9"));
    let b = g.tree.add_move(a, m("e0f0"));
    g.tree.add_comment(b, "第二步");
    let alt = g.tree.add_move(0, m("d9d8"));
    g.tree.add_comment(alt, "另着");
    let text = record::write(&g, Format::DhtmlXq).unwrap();
    assert!(
        text.contains("[DhtmlXQ_move_0_1_1]3031[/DhtmlXQ_move_0_1_1]"),
        "{text}"
    );
    let back = record::read(text.as_bytes(), Format::DhtmlXq).unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(back.game, g);
    // Without the FEN tag the side comes from the first move (binit has no side).
    let without: String = text
        .lines()
        .filter(|l| !l.contains("DhtmlXQ_fen"))
        .collect::<Vec<_>>()
        .join("\n");
    let back = record::read(without.as_bytes(), Format::DhtmlXq).unwrap();
    assert_eq!(back.game.start_fen, g.start_fen);
    assert_eq!(back.game.tree.lines_iccs(), g.tree.lines_iccs());
}

#[test]
fn formats_from_names_and_bytes() {
    use std::path::Path;
    assert_eq!(Format::from_path(Path::new("a/b.XQF")), Some(Format::Xqf));
    assert_eq!(
        Format::from_path(Path::new("g.pgn")),
        Some(Format::Pgn(Notation::Iccs))
    );
    assert_eq!(Format::from_path(Path::new("g.cbl")), Some(Format::Cbl));
    assert_eq!(Format::from_path(Path::new("g.ubb")), Some(Format::DhtmlXq));
    assert_eq!(
        Format::from_name("pgn-chinese"),
        Some(Format::Pgn(Notation::Chinese))
    );
    assert_eq!(
        Format::sniff(&xqf(10, [0; 13], XQF_START, "", &[])),
        Some(Format::Xqf)
    );
    assert_eq!(
        Format::sniff(&cbr(cbr_start(), true, "", &[])),
        Some(Format::Cbr)
    );
    assert_eq!(
        Format::sniff(b"position startpos moves h2e2"),
        Some(Format::FenMoves)
    );
}

#[test]
fn big5_pgn_reads_like_gbk() {
    // `[Event "測"]` and `1. 炮二平五 馬８進７ 2. 馬二進三 *` in Big5 (traditional-character
    // files from Taiwan and Hong Kong), bytes that are valid GBK too.
    let bytes: &[u8] = &[
        91, 69, 118, 101, 110, 116, 32, 34, 180, 250, 34, 93, 10, 10, 49, 46, 32, 172, 182, 164,
        71, 165, 173, 164, 173, 32, 176, 168, 162, 183, 182, 105, 162, 182, 32, 50, 46, 32, 176,
        168, 164, 71, 182, 105, 164, 84, 32, 42, 10,
    ];
    let loaded = record::read(bytes, Format::Pgn(Notation::Chinese)).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.game.main_line_iccs(), ["h2e2", "h9g7", "h0g2"]);
    assert_eq!(loaded.game.tag("Event"), Some("測"));
}

fn lab_records(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_jiang-lab"))
        .arg("records")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn records_check_counts_a_folder_of_games() {
    let dir = std::env::temp_dir().join(format!("jiang-records-check-{}", std::process::id()));
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let g = the_tree_game();
    let chinese = record::write(&g, Format::Pgn(Notation::Chinese)).unwrap();
    let wxf = record::write(&g, Format::Pgn(Notation::Wxf)).unwrap();
    std::fs::write(dir.join("a.pgn"), format!("{chinese}\n{chinese}")).unwrap();
    std::fs::write(sub.join("b.pgn"), &wxf).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
    let d = dir.to_string_lossy().into_owned();
    let out = lab_records(&["check", &d, "--roundtrip"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("files 2, not read 0; games 3, read 3, not read 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("no damage 3, with an illegal move or damage 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("pgn-chinese: 3 of 3 written and read back the same"),
        "{stdout}"
    );
    assert!(
        stdout.contains("dhtmlxq: 3 of 3 written and read back the same"),
        "{stdout}"
    );

    // A move no legal move fits: counted, named by its place, and the check fails.
    let damaged = chinese.replacen("马８进７", "马８进６", 1);
    assert_ne!(damaged, chinese);
    std::fs::write(sub.join("c.pgn"), damaged).unwrap();
    let out = lab_records(&["check", &d]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stdout.contains("no damage 3, with an illegal move or damage 1"),
        "{stdout}"
    );
    assert!(
        stderr.contains("c.pgn: game 1: line ") && stderr.contains("马８进６"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
