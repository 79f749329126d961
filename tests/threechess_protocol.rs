//! ThreeChess through the real binary: UCI with `UCI_Variant threechess`, the three
//! players' clocks, the per-iteration scores line, the terminal's `d`, `moves`, `result`
//! and `perft`, and bad input (one clear line, nothing changed).

#[path = "common/engine.rs"]
mod engine;

use engine::{ms, Engine};
use jiang::threechess::Board;

/// A UCI engine switched to ThreeChess.
fn uci_threechess() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", ms(5000));
    e.send("setoption name UCI_Variant value threechess");
    e.sync(ms(5000));
    e
}

/// The board after `moves` from the start.
fn board_after(moves: &[&str]) -> Board {
    let mut b = Board::startpos();
    for m in moves {
        let mv = b.parse_move(m).unwrap();
        b.make_move(mv);
    }
    b
}

fn fen_line(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("FEN: "))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn uci_plays_a_legal_move_and_reports_three_scores() {
    let mut e = uci_threechess();
    let moves = ["BE2BE4", "GE2GE4"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go movetime 300");
    let (best, lines) = e.bestmove(ms(5000));
    let b = board_after(&moves);
    if b.parse_move(&best).is_err() {
        e.fail(&format!("bestmove {best} is not a legal Red move"));
    }
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score cp ")).collect();
    let scores: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string scores blue "))
        .collect();
    if infos.is_empty() || scores.len() != infos.len() {
        e.fail("expected one `info string scores` line per iteration");
    }
    let words: Vec<&str> = scores[0].split_whitespace().collect();
    if words.len() != 9 || words[5] != "green" || words[7] != "red" {
        e.fail(&format!("bad scores line: {}", scores[0]));
    }
    // The mover (Red) sees its own score on the score line.
    let last_info = infos.last().unwrap();
    let last_scores = scores.last().unwrap();
    let cp: Vec<&str> = last_info
        .split_whitespace()
        .skip_while(|w| *w != "cp")
        .take(2)
        .collect();
    let red = last_scores.split_whitespace().last().unwrap_or("");
    if cp.get(1) != Some(&red) {
        e.fail(&format!("score {cp:?} is not Red's {red}"));
    }
}

#[test]
fn three_fallibility_option_turns_the_weak_opponent_bonus_on_and_off() {
    // The position of `tests/threechess_search.rs`: with the bonus Blue's queen goes for
    // Green's boxed-in king; without it, it takes a Red pawn.
    let fen = "3bQ4/8/8/4bK3|8/8/3gPgPgP2/3gPgKgP2|8/8/rPrPrP5/4rK3 b";
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", ms(5000));
    if !lines
        .iter()
        .any(|l| l.starts_with("option name ThreeFallibility type spin default 3000"))
    {
        e.fail("uci does not list ThreeFallibility");
    }
    e.send("setoption name UCI_Variant value threechess");
    let mut answers = Vec::new();
    for value in ["0", "3000"] {
        e.send(&format!("setoption name ThreeFallibility value {value}"));
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        answers.push(e.bestmove(ms(10_000)).0);
    }
    let b = Board::from_fen(fen).unwrap();
    let takes = |m: &str| {
        b.parse_move(m)
            .ok()
            .and_then(|m| b.piece_at(m.to()))
            .is_some()
    };
    if !takes(&answers[0]) || takes(&answers[1]) {
        e.fail(&format!(
            "bestmoves without and with the bonus: {answers:?}"
        ));
    }
}

#[test]
fn go_reads_the_clock_of_the_player_to_move() {
    let mut e = uci_threechess();
    // Green to move with 1 s left (less than the reserve kept for the rest of the game):
    // it answers at once, although Blue and Red have five minutes.
    e.send("position startpos moves BE2BE4");
    e.send("go btime 300000 gtime 1000 rtime 300000");
    let start = e.elapsed_ms();
    let (best, _) = e.bestmove(ms(5000));
    let took = e.elapsed_ms() - start;
    if board_after(&["BE2BE4"]).parse_move(&best).is_err() {
        e.fail(&format!("bestmove {best} is not a legal Green move"));
    }
    if took > 800 {
        e.fail(&format!("took {took} ms with 1 s on Green's clock"));
    }
    // Blue to move with a minute thinks (its budget: about 1.4 s, at most 4 s).
    e.send("position startpos");
    e.send("go btime 60000 gtime 1000 rtime 1000");
    let start = e.elapsed_ms();
    let (best, _) = e.bestmove(ms(12_000));
    let took = e.elapsed_ms() - start;
    if Board::startpos().parse_move(&best).is_err() || !(300..=5_000).contains(&took) {
        e.fail(&format!(
            "bestmove {best} after {took} ms with 60 s on Blue's clock"
        ));
    }
}

#[test]
fn terminal_shows_the_board_moves_result_and_perft() {
    let mut e = Engine::start();
    e.send("variant threechess");
    e.send("position startpos moves BE2BE4");
    e.send("d");
    e.send("moves");
    e.send("result");
    e.send("position startpos");
    e.send("perft 3");
    let lines = e.read_until("Time:", ms(10_000));
    let text = lines.join("\n");
    for needle in [
        "Blue (B)",
        "Green (G)  <- to move",
        "Red (R)",
        "FEN: 4bP3/",
        "* {game not over}",
        "Nodes searched: 8000",
    ] {
        if !text.contains(needle) {
            e.fail(&format!("missing `{needle}`"));
        }
    }
    let moves = lines
        .iter()
        .find(|l| l.contains("legal moves:"))
        .cloned()
        .unwrap_or_default();
    if !moves.starts_with("20 legal moves: ") || !moves.contains("GE2GE4") {
        e.fail(&format!("bad moves line: {moves}"));
    }
}

#[test]
fn bad_input_gets_one_line_and_changes_nothing() {
    let mut e = uci_threechess();
    e.send("position startpos moves BE2BE4");
    e.send("d");
    let before = fen_line(&e.read_until("FEN: ", ms(5000)));
    for (cmd, expect) in [
        (
            "position startpos moves BE2BE4 GI2GI4",
            "'GI2GI4' is not a ThreeChess move",
        ),
        (
            "position startpos moves BE2BE4 BD2BD4",
            "blue piece, green is to move",
        ),
        (
            "position startpos moves BE2BE4 GE2GE5",
            "not a ThreeChess move",
        ),
        ("position startpos moves BE2BE4 GE2GF3", "not legal"),
        ("position fen 8/8/8/4bK3 b", "three sections"),
        (
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "ThreeChess FEN",
        ),
    ] {
        e.send(cmd);
        let lines = e.sync(ms(5000));
        let complaints: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        if complaints.len() != 1 || !complaints[0].contains(expect) {
            e.fail(&format!("`{cmd}`: expected one line with `{expect}`"));
        }
        e.send("d");
        let after = fen_line(&e.read_until("FEN: ", ms(5000)));
        if after != before {
            e.fail(&format!("`{cmd}` changed the position"));
        }
    }
    // A move after the end: Blue's rook takes Red's king, then Green may not move.
    let fen = "4bR3/8/8/4bK3|8/8/8/4gK3|3rK4/8/8/8 b";
    e.send(&format!("position fen {fen} moves BE4RD4 GE1GE2"));
    let lines = e.sync(ms(5000));
    if !lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains("game is over"))
    {
        e.fail("a move after a king capture was not refused");
    }
    e.send(&format!("position fen {fen} moves BE4RD4"));
    e.send("go movetime 100");
    let (best, _) = e.bestmove(ms(5000));
    if best != "(none)" {
        e.fail(&format!("bestmove {best} after the end of the game"));
    }
}
