//! `jiang-web --egtb DIR`: the board's state carries a loaded table's verdict (what the
//! page shows under the result), the value the table file holds; a position no table
//! knows carries none, and a board started without `--egtb` never does.

mod common;
#[path = "../../tests/common/egtb.rs"]
mod egtb;

use common::Server;
use jiang::xiangqi::egtb::TbValue;
use jiang::xiangqi::Position;
use serde_json::{json, Value};

fn set_fen(s: &Server, id: &str, fen: &str) -> Value {
    let (status, st) = s.json(
        "POST",
        &format!("/api/sessions/{id}/position"),
        Some(json!({ "fen": fen })),
    );
    assert_eq!(status, 200, "{st}");
    st
}

#[test]
fn the_state_carries_the_tables_verdict() {
    let (dir, tables) = egtb::build("web", &["KRK"]);
    let fen_won = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let fen_lost = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1";
    let s = Server::start_with(&["--egtb", dir.to_str().unwrap()]);
    let st = s.create("xiangqi");
    let id = st["id"].as_str().unwrap();
    assert_eq!(st["tablebase"], Value::Null, "the start position: {st}");

    for fen in [fen_won, fen_lost] {
        let pos = Position::from_fen(fen).unwrap();
        let (result, plies) = match egtb::value(&tables, &pos).expect("in KRK") {
            TbValue::Win(d) => ("win", d),
            TbValue::Loss(d) => ("loss", d),
            TbValue::Draw => ("draw", 0),
            other => panic!("{fen}: KRK has no {other}"),
        };
        let st = set_fen(&s, id, fen);
        assert_eq!(
            st["tablebase"],
            json!({ "result": result, "plies": plies, "table": "KRK" }),
            "{fen}: {st}"
        );
    }
    // A chariot more on each side: no table of this server knows it.
    let st = set_fen(&s, id, "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 0 1");
    assert_eq!(st["tablebase"], Value::Null, "{st}");

    let plain = Server::start();
    let st = plain.create("xiangqi");
    let pid = st["id"].as_str().unwrap();
    let st = set_fen(&plain, pid, fen_won);
    assert_eq!(st["tablebase"], Value::Null, "without --egtb: {st}");
}

#[test]
fn a_missing_table_path_is_refused_and_the_board_works() {
    let s = Server::start_with(&["--egtb", "/nonexistent/jiang-tables"]);
    let st = s.create("xiangqi");
    assert_eq!(st["tablebase"], Value::Null, "{st}");
    assert!(!st["legal"].as_array().unwrap().is_empty(), "{st}");
}
