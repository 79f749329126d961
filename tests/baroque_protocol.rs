//! Baroque through real pipes: CECP as XBoard drives it (the `setup` and `piece`
//! description, multi-leg moves both ways, ghosts cleared), and bad input over UCI and
//! CECP answered with one line each, the position unchanged.

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_no_panic, Engine, SLOW};

/// `d` prints the FEN on a line `FEN: …` (UCI and CECP alike); the FEN is returned.
fn fen_shown(e: &mut Engine, sync: &mut dyn FnMut(&mut Engine) -> Vec<String>) -> String {
    e.send("d");
    let lines = sync(e);
    let line = lines
        .iter()
        .find(|l| l.starts_with("FEN: "))
        .unwrap_or_else(|| e.fail(&format!("no FEN in d: {lines:?}")));
    line["FEN: ".len()..].to_string()
}

/// CECP: `ping N` and the lines before `pong N`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let want = format!("pong {n}");
    let mut lines = e.read_while_waiting(&want, SLOW, |l| l == want);
    lines.pop();
    lines
}

fn cecp_baroque() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let feature = e.expect_line("features", SLOW, |l| l.contains("done=1"));
    assert!(feature.contains("baroque"), "{feature}");
    e.send("variant baroque");
    let lines = ping(&mut e, 1);
    assert_eq!(
        lines,
        [
            "setup (.LICWP....FK.licwp....fk) 8x8+0_fairy cliwkilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1",
            "piece P& mR",
            "piece L& mQ",
            "piece I& mQ",
            "piece C& mQ",
            "piece W& mQ",
            "piece F& mQ",
        ]
    );
    e
}

/// The engine's `move` line (thinking lines skipped), and what follows it up to `pong`.
fn engine_move(e: &mut Engine, n: u32) -> (String, Vec<String>) {
    let line = e.expect_line("a move", SLOW, |l| l.starts_with("move "));
    (line["move ".len()..].to_string(), ping(e, n))
}

#[test]
fn cecp_tells_xboard_captures_as_multi_leg_moves() {
    let mut e = cecp_baroque();
    // The withdrawer takes the king d5 by moving away from it: told through d5, then the
    // result is claimed.
    e.send("force");
    e.send("setboard 8/8/8/3k4/3W4/8/8/K7 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let (mv, after) = engine_move(&mut e, 2);
    assert!(
        ["d4d5,d5d3", "d4d5,d5d2", "d4d5,d5d1"].contains(&mv.as_str()),
        "{mv}"
    );
    assert_eq!(after, ["1-0 {White captures the king}"]);
    // A double capture by the coordinator (c3f6 takes b6 and f2), sent by XBoard as two
    // legs through f2: b6 stays on XBoard's board, and the engine's answer (Black has
    // only king moves) goes through b6 to clear it.
    e.send("new");
    e.send("force");
    e.send("setboard 7k/8/1p6/8/8/2C5/1K3f2/8 w - - 0 1");
    e.send("sd 2");
    e.send("usermove c3f2,f2f6");
    e.send("go");
    let (mv, _) = engine_move(&mut e, 3);
    assert!(
        ["h8b6,b6g8", "h8b6,b6g7", "h8b6,b6h7"].contains(&mv.as_str()),
        "{mv}"
    );
    let fen = fen_shown(&mut e, &mut |e| ping(e, 4));
    assert!(
        fen.starts_with("6k1/8/5C2/")
            || fen.starts_with("8/6k1/5C2/")
            || fen.starts_with("8/7k/5C2/"),
        "{fen}"
    );
    assert_no_panic(&e);
}

/// The other engine's answer through its own side's ghost (b6, Black's pincer), as XBoard
/// 4.9.1 relays it: in the form it uses for castling (`h8b6,b6h7` arrives as
/// `h8h7,b6i7`). It is read as h8h7, and the ghost is gone from the engine's record of
/// XBoard's board: its next quiet move is told plainly.
#[test]
fn cecp_reads_xboards_castling_form_of_a_relayed_move() {
    let mut e = cecp_baroque();
    e.send("force");
    e.send("setboard 7k/8/1p6/8/8/2C5/1K3f2/8 w - - 0 1");
    e.send("usermove c3f2,f2f6");
    e.send("usermove h8h7,b6i7");
    assert!(ping(&mut e, 2).is_empty(), "no error line");
    let fen = fen_shown(&mut e, &mut |e| ping(e, 3));
    assert!(fen.starts_with("8/7k/5C2/8/8/8/1K6/8 w"), "{fen}");
    e.send("sd 2");
    e.send("go");
    let (mv, _) = engine_move(&mut e, 4);
    assert!(!mv.contains(','), "no ghost left to clear: {mv}");
    assert_no_panic(&e);
}

#[test]
fn cecp_bad_input_changes_nothing() {
    let mut e = cecp_baroque();
    e.send("force");
    e.send("setboard 7k/8/8/3p4/3W4/8/8/K7 w - - 0 1");
    assert!(ping(&mut e, 2).is_empty());
    let before = fen_shown(&mut e, &mut |e| ping(e, 3));
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for (n, (cmd, answer)) in [
        (
            format!("setboard {xiangqi}"),
            "tellusererror Illegal position",
        ),
        ("usermove e1e2".into(), "Illegal move: e1e2"),
        ("usermove d4d5,d5e5".into(), "Illegal move: d4d5,d5e5"),
        ("usermove a1d5,d5a2".into(), "Illegal move: a1d5,d5a2"),
        ("usermove d4d5,d6d1".into(), "Illegal move: d4d5,d6d1"),
        ("usermove d4d9".into(), "Illegal move: d4d9"),
    ]
    .into_iter()
    .enumerate()
    {
        e.send(&cmd);
        let lines = ping(&mut e, 10 + n as u32);
        assert!(
            lines.len() == 1 && lines[0].starts_with(answer),
            "'{cmd}': {lines:?}"
        );
        assert_eq!(fen_shown(&mut e, &mut |e| ping(e, 100 + n as u32)), before);
    }
    // After the game has ended (the white king is taken), no move is taken.
    e.send("setboard 8/8/8/4k3/4K3/8/8/P7 b - - 1 1");
    e.send("usermove e5e4");
    assert!(ping(&mut e, 30).is_empty());
    let over = fen_shown(&mut e, &mut |e| ping(e, 31));
    e.send("usermove a1a2");
    assert_eq!(ping(&mut e, 32), ["Illegal move: a1a2"]);
    assert_eq!(fen_shown(&mut e, &mut |e| ping(e, 33)), over);
    assert_no_panic(&e);
}

/// UCI: what `tests/variants.rs` does not already send (a Xiangqi FEN, an illegal move
/// and a move after the game ended are there): an imitator move without the suffix it
/// needs, a suffix where none belongs, a malformed move, a multi-leg move whose middle
/// square is not captured, and a move after a king was taken within the move list.
#[test]
fn uci_bad_moves_change_nothing() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", SLOW);
    e.send("setoption name UCI_Variant value baroque");
    let fen = "7k/8/8/3w4/3I4/8/1Pp5/3c3K w - - 0 1";
    e.send(&format!("position fen {fen}"));
    assert!(e.sync(SLOW).is_empty());
    let mut sync = |e: &mut Engine| e.sync(SLOW);
    let before = fen_shown(&mut e, &mut sync);
    assert_eq!(before, fen);
    for (cmd, says) in [
        (format!("position fen {fen} moves d4d2"), "d4d2c"),
        (format!("position fen {fen} moves d4a4p"), "d4a4p"),
        (format!("position fen {fen} moves d4d2x"), "d4d2x"),
        (format!("position fen {fen} moves b2b9"), "b2b9"),
        (format!("position fen {fen} moves h1c2,c2h2"), "h1c2,c2h2"),
        (
            "position fen 8/8/8/4k3/4K3/8/8/P7 b - - 1 1 moves e5e4 a1a2".to_string(),
            "over",
        ),
    ] {
        e.send(&cmd);
        let lines = e.sync(SLOW);
        let complaints: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert!(
            lines.len() == 1 && complaints.len() == 1 && complaints[0].contains(says),
            "'{cmd}': expected one info string mentioning '{says}', got {lines:?}"
        );
        assert_eq!(fen_shown(&mut e, &mut sync), before, "{cmd}");
    }
    // The multi-leg form of a legal move is accepted over UCI too.
    e.send(&format!("position fen {fen} moves d4d5,d5d2"));
    assert!(e.sync(SLOW).is_empty());
    assert_eq!(
        fen_shown(&mut e, &mut sync),
        "7k/8/8/8/8/8/1PpI4/3c3K b - - 0 1"
    );
    assert_no_panic(&e);
}

/// Quiescence stays bounded when a side is in check: it searched every evasion at any
/// depth, and in Baroque (where nearly every piece slides like a queen and a king is
/// attacked in many ways) one chain of checks and evasions grew without end. Found by
/// the self-play soak (a `go depth 6` stopped by the 10 s cap): the last of these 15
/// positions (self-play games a few plies before a king capture), searched after the 14
/// before it in one session so that the hash and the move-ordering memory are as they
/// were, needed more than 200,000 nodes without finishing depth 3. Depth 6 takes about
/// 15,000 now.
#[test]
fn uci_quiescence_in_check_stays_bounded() {
    let games: Vec<&str> = include_str!("baroque_qsearch_sequence.txt")
        .lines()
        .collect();
    assert_eq!(games.len(), 15);
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", SLOW);
    e.send("setoption name UCI_Variant value baroque");
    e.send("setoption name MultiPV value 3");
    for moves in &games[..14] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 6");
        e.read_until("bestmove", SLOW);
    }
    e.send(&format!("position startpos moves {}", games[14]));
    e.send("go nodes 200000");
    let lines = e.read_until("bestmove", SLOW);
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(
        deepest >= 6,
        "depth {deepest} in 200,000 nodes: {:?}",
        lines.iter().rev().take(3).collect::<Vec<_>>()
    );
    assert_no_panic(&e);
}
