//! Small endgame tables for the tests, built once per test binary with the engine's solver
//! into cargo's scratch directory for integration tests (`CARGO_TARGET_TMPDIR`).

#![allow(dead_code)]

use jiang::xiangqi::egtb::ending::Ending;
use jiang::xiangqi::egtb::format::{self, Header};
use jiang::xiangqi::egtb::solve::solve_with_successors;
use jiang::xiangqi::egtb::{file_name, Table};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Builds `names` (and what they capture into) into `CARGO_TARGET_TMPDIR/egtb-TAG`, fresh,
/// and returns the directory and the tables as read back from their files.
pub fn build(tag: &str, names: &[&str]) -> (PathBuf, HashMap<Ending, Table>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("egtb-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let targets: Vec<Ending> = names.iter().map(|n| Ending::parse(n).unwrap()).collect();
    let mut values = HashMap::new();
    solve_with_successors(&targets, &mut values, |s, _| {
        let header = Header {
            ending: s.ending,
            flags: 0,
            max_dtm: s.max_dtm,
            notes: format!("test table {}", s.ending),
        };
        std::fs::write(
            dir.join(file_name(s.ending)),
            format::encode(&header, &s.values),
        )
        .unwrap();
    })
    .unwrap();
    let tables = values
        .keys()
        .map(|&e| {
            let t = jiang::xiangqi::egtb::read_table(&dir.join(file_name(e))).unwrap();
            (e, t)
        })
        .collect();
    (dir, tables)
}

/// The value of `pos` in `tables` for its side to move, looked up by hand (not through
/// the engine's loaded set).
#[allow(unused_imports)]
pub use jiang::xiangqi::egtb::verify::value;
