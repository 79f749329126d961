//! jiang's record readers against an independent one: the `cchess` package (PyPI,
//! walker8088/cchess), installed with pip into a virtual environment under the target
//! directory, as the cluster test installs pyffish. Files are made here (XQF, CBR, CBL
//! byte by byte from the formats' layouts; PGN and CBF by jiang's writers) and both
//! readers must read the same start, lines of moves and comments
//! (`tools/record/compare_cchess.py`).
//!
//! Without Python or the package the test fails; `JIANG_SKIP_CCHESS=1` skips it, loudly.
//! cchess 1.25.5 (the version on PyPI) reads neither comments in CBR and CBF files nor
//! comments and variations in PGN ones, so those files carry none here.

mod record_files;

use jiang::record::{self, Format, Game, Notation};
use jiang::xiangqi::Position;
use record_files::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const CCHESS: &str = "cchess==1.25.5";

fn venv_python() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cchess-venv");
    let python = dir.join("bin/python");
    let ready = |p: &Path| {
        Command::new(p)
            .args(["-c", "import cchess"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if ready(&python) {
        return Ok(python);
    }
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{what} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    run(
        Command::new("python3").args(["-m", "venv"]).arg(&dir),
        "python3 -m venv",
    )?;
    run(
        Command::new(&python).args(["-m", "pip", "install", "--quiet", CCHESS]),
        "pip install cchess",
    )?;
    if ready(&python) {
        Ok(python)
    } else {
        Err("cchess installed but cannot be imported".into())
    }
}

/// A game of `plies` random legal moves from the start (a fixed seed): jiang's own data.
fn random_game(seed: u64, plies: usize) -> Game {
    let mut pos = Position::startpos();
    let mut game = Game::new(pos.to_fen());
    let mut node = 0;
    let mut state = seed;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves
            .iter()
            .copied()
            .nth((state >> 33) as usize % moves.len())
            .unwrap();
        pos.make_move(m);
        node = game.tree.add_move(node, m);
    }
    game
}

/// The game cut before the first move cchess 1.25.5 reads wrongly from Chinese notation:
/// a 前/中/后 qualifier (it picks among all the pieces of the kind, not those of the file)
/// or an advisor or elephant with another of its kind on its file (it tries only one).
fn cchess_readable_prefix(game: &Game) -> Game {
    let mut pos = game.start_position();
    let mut out = Game::new(game.start_fen.clone());
    let mut node = 0;
    for m in game.main_line_iccs() {
        let m = jiang::xiangqi::Move::parse(&m).unwrap();
        let text = jiang::record::notation::write_move(&pos, m, Notation::Chinese);
        let piece = pos.piece_at(m.from()).unwrap();
        let doubled = pos
            .pieces_ck(piece.color(), piece.kind())
            .filter(|s| s.file() == m.from().file())
            .count()
            > 1;
        let first = text.chars().next().unwrap();
        if "前中后二三四".contains(first) || doubled {
            break;
        }
        pos.make_move(m);
        node = out.tree.add_move(node, m);
    }
    out
}

/// The main line as XQF records.
fn line_records(game: &Game) -> Vec<Rec> {
    let moves = game.main_line_iccs();
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut r = rec(&m[0..2], &m[2..4], i + 1 < moves.len(), false, "");
            r.comment = "";
            r
        })
        .collect()
}

#[test]
fn cchess_reads_what_jiang_reads() {
    if std::env::var("JIANG_SKIP_CCHESS").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: records_cchess (JIANG_SKIP_CCHESS=1): jiang's readers were NOT checked against cchess");
        return;
    }
    let python = venv_python().unwrap_or_else(|e| {
        panic!("the independent reader is missing ({e}); install python3-venv and network access to PyPI, or set JIANG_SKIP_CCHESS=1 to skip")
    });
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cchess-files");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tree = || {
        vec![
            rec("h2", "e2", true, true, "中炮"),
            rec("h9", "g7", true, true, ""),
            rec("h0", "g2", true, false, ""),
            rec("i9", "h9", false, false, "主变结束"),
            rec("b9", "c7", true, false, "另一变"),
            rec("b0", "c2", false, false, ""),
            rec("c3", "c4", false, false, "仙人指路"),
        ]
    };
    let silent = |mut recs: Vec<Rec>| {
        for r in &mut recs {
            r.comment = "";
        }
        recs
    };
    let keys = [
        0x5A, 1, 2, 3, 4, 0x31, 0x07, 0xC4, 0x22, 0x9E, 0x4B, 0x3D, 0x81,
    ];
    let long = random_game(2024, 120);
    let long2 = random_game(7, 90);
    let mut endgame = [0xFFu8; 32];
    endgame[4] = 30; // red king d0
    endgame[0] = 80; // red chariot i0
    endgame[16 + 4] = 49; // black king e9
    endgame[16 + 3] = 39; // black advisor d9
    let mut files: Vec<(&str, Vec<u8>)> = vec![
        (
            "tree-v10.xqf",
            xqf(10, keys, XQF_START, "对局说明", &tree()),
        ),
        (
            "tree-v11.xqf",
            xqf(11, keys, XQF_START, "对局说明", &tree()),
        ),
        (
            "tree-v18.xqf",
            xqf(18, keys, XQF_START, "对局说明", &tree()),
        ),
        (
            "long-v18.xqf",
            xqf(18, keys, XQF_START, "", &line_records(&long)),
        ),
        (
            "endgame.xqf",
            xqf(
                10,
                keys,
                endgame,
                "黑先",
                &[
                    rec("d9", "e8", true, false, "上士"),
                    rec("i0", "i9", false, false, ""),
                ],
            ),
        ),
        ("tree.cbr", cbr(cbr_start(), true, "", &silent(tree()))),
        (
            "long.cbr",
            cbr(cbr_start(), true, "", &line_records(&long2)),
        ),
        (
            "two.cbl",
            cbl(&[
                cbr(cbr_start(), true, "", &silent(tree())),
                cbr(cbr_start(), true, "", &line_records(&long)),
            ]),
        ),
    ];
    // Random games, cut where cchess 1.25.5 would misread them, the first two that keep
    // 60 plies.
    let readable: Vec<Game> = (1..)
        .map(|seed| cchess_readable_prefix(&random_game(seed, 200)))
        .filter(|g| g.tree.len() > 60)
        .take(2)
        .collect();
    for (name, game) in [("long", &readable[0]), ("long2", &readable[1])] {
        let text = record::write(game, Format::Pgn(Notation::Chinese)).unwrap();
        files.push((
            if name == "long" {
                "long.pgn"
            } else {
                "long2.pgn"
            },
            text.into_bytes(),
        ));
        let moves: Vec<(String, &str)> = std::iter::once(("00-00".to_string(), ""))
            .chain(game.main_line_iccs().iter().map(|m| {
                let b = m.as_bytes();
                (
                    format!(
                        "{}{}-{}{}",
                        b[0] - b'a',
                        9 - (b[1] - b'0'),
                        b[2] - b'a',
                        9 - (b[3] - b'0')
                    ),
                    "",
                )
            }))
            .collect();
        let moves: Vec<(&str, &str)> = moves.iter().map(|(v, c)| (v.as_str(), *c)).collect();
        files.push((
            if name == "long" {
                "long.cbf"
            } else {
                "long2.cbf"
            },
            cbf(&game.start_fen, &moves).into_bytes(),
        ));
    }
    let mut paths = Vec::new();
    for (name, bytes) in &files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        // jiang itself must read each without a warning.
        for r in record::read_all(bytes, Format::from_path(&p).unwrap()) {
            let l = r.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(l.warnings.is_empty(), "{name}: {:?}", l.warnings);
        }
        paths.push(p);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/record/compare_cchess.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(["--lab", env!("CARGO_BIN_EXE_jiang-lab")])
        .args(&paths)
        .env("PYTHONUTF8", "1")
        .output()
        .expect("python runs");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "jiang and cchess disagree:\n{report}");
    let games = files.len() + 1; // the library holds two
    assert!(
        report.contains(&format!(
            "{} files, {games} games: {games} agree",
            files.len()
        )),
        "{report}"
    );
}
