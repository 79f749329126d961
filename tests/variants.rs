//! Every game jiang plays, through real pipes: `UCI_Variant` and `variant` switch games
//! (start position, game shown by `d`), every terminal command works for every game, and
//! input of the wrong game (a FEN, a move), unknown variants and malformed FENs are
//! answered with one line and change nothing.
//!
//! The tests run over `jiang::games::VARIANTS`, so a new game is covered when it is
//! registered; the library (`jiang::games::new_session`) says what the engine should
//! accept, and the pipe must agree.

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_no_panic, Engine, SLOW};
use jiang::games::{self, VARIANTS};

/// `d` prints the FEN on a line `FEN: …` for every game.
fn fen_shown(e: &mut Engine) -> String {
    e.send("d");
    let line = e.expect_line("the FEN in d", SLOW, |l| l.starts_with("FEN: "));
    e.sync(SLOW);
    line["FEN: ".len()..].to_string()
}

/// Sends `cmd` and checks that exactly one `info string` answers it before `readyok`
/// and that it mentions `says`.
#[track_caller]
fn one_complaint(e: &mut Engine, cmd: &str, says: &str) {
    e.send(cmd);
    let lines = e.sync(SLOW);
    let complaints: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    if complaints.len() != 1 || !complaints[0].contains(says) {
        e.fail(&format!(
            "'{cmd}': expected one info string mentioning '{says}', got {lines:?}"
        ));
    }
}

fn uci(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.read_until("uciok", SLOW)
}

fn select(e: &mut Engine, v: &str) {
    e.send(&format!("setoption name UCI_Variant value {v}"));
    let lines = e.sync(SLOW);
    if !lines.is_empty() {
        e.fail(&format!("switching to {v}: {lines:?}"));
    }
}

/// The start FEN of each game and a legal move from it, from the library.
fn samples() -> Vec<(&'static str, String, String)> {
    VARIANTS
        .iter()
        .map(|&v| {
            let g = games::new_session(v).unwrap();
            let first = g.legal_moves().first().cloned().expect("start has moves");
            (v, g.start_fen(), first)
        })
        .collect()
}

#[test]
fn uci_lists_every_game_and_switches_to_each() {
    let mut e = Engine::start();
    let lines = uci(&mut e);
    let vars: Vec<String> = VARIANTS.iter().map(|v| format!("var {v}")).collect();
    let expected = format!(
        "option name UCI_Variant type combo default xiangqi {}",
        vars.join(" ")
    );
    assert!(lines.contains(&expected), "{lines:?}");
    for (v, start, first) in samples() {
        // Away from the start first, so that selecting the game (again) visibly resets
        // the position.
        select(&mut e, v);
        e.send(&format!("position startpos moves {first}"));
        assert_ne!(fen_shown(&mut e), start, "{v}: {first} was played");
        select(&mut e, v);
        assert_eq!(
            fen_shown(&mut e),
            start,
            "{v}: switching resets to the start"
        );
        // Every terminal command answers for every game.
        e.send("moves");
        let l = e.expect_line("moves", SLOW, |l| l.contains("legal moves:"));
        let listed: Vec<&str> = l
            .split(": ")
            .nth(1)
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert!(listed.contains(&first.as_str()), "{v}: {l}");
        e.send("perft 1");
        let l = e.expect_line("perft", SLOW, |l| l.starts_with("Nodes searched"));
        assert_eq!(l, format!("Nodes searched: {}", listed.len()), "{v}");
        e.send("result");
        e.expect_line("result", SLOW, |l| l.starts_with('*'));
        e.send("eval");
        e.send("go depth 3");
        let (mv, _) = e.bestmove(SLOW);
        assert!(
            listed.contains(&mv.as_str()),
            "{v}: bestmove {mv} not in {listed:?}"
        );
        e.send(&format!("position startpos moves {first}"));
        let lines = e.sync(SLOW);
        assert!(
            lines.iter().all(|l| !l.starts_with("info string")),
            "{v}: {lines:?}"
        );
    }
    assert_no_panic(&e);
}

#[test]
fn unknown_variant_changes_nothing() {
    let mut e = Engine::start();
    uci(&mut e);
    let (v, _, first) = &samples()[VARIANTS.len() - 1];
    select(&mut e, v);
    e.send(&format!("position startpos moves {first}"));
    let before = fen_shown(&mut e);
    one_complaint(&mut e, "setoption name UCI_Variant value shogi", "shogi");
    one_complaint(&mut e, "setoption name UCI_Variant value", "variant");
    assert_eq!(fen_shown(&mut e), before);
    // The terminal's `variant` lists the games and refuses unknown names the same way.
    e.send("variant");
    let l = e.expect_line("the list", SLOW, |l| l.starts_with("variant "));
    for v in VARIANTS {
        assert!(l.contains(v), "{l}");
    }
    one_complaint(&mut e, "variant chess", "chess");
    assert_eq!(fen_shown(&mut e), before);
    assert_no_panic(&e);
}

#[test]
fn fens_and_moves_of_other_games_are_refused() {
    let all = samples();
    let mut e = Engine::start();
    uci(&mut e);
    let mut refusals = 0;
    for (v, _, first) in &all {
        select(&mut e, v);
        e.send(&format!("position startpos moves {first}"));
        let before = fen_shown(&mut e);
        for (w, start_w, first_w) in &all {
            if w == v {
                continue;
            }
            // What the library accepts, the pipe must accept; what it refuses, the pipe
            // refuses with one line and the position stays.
            if accepts_fen(v, start_w) {
                continue;
            }
            let cmd = format!("position fen {start_w}");
            // The one exception, for JieqiBox (which never names its game): a FEN with
            // Jieqi's face-down pieces makes a UCI session playing Xiangqi play Jieqi.
            if games::fallback_for_fen(v, start_w) == Some(*w) {
                e.send(&cmd);
                let lines = e.sync(SLOW);
                assert!(
                    lines.iter().any(
                        |l| l.starts_with("info string") && l.contains(&format!("playing {w}"))
                    ),
                    "{v} after a {w} FEN: {lines:?}"
                );
                select(&mut e, v);
                e.send(&format!("position startpos moves {first}"));
                assert_eq!(fen_shown(&mut e), before, "{v} again after {w}");
                continue;
            }
            one_complaint(&mut e, &cmd, v);
            refusals += 1;
            assert_eq!(fen_shown(&mut e), before, "{v} after a {w} FEN");
            let mut probe = games::new_session(v).unwrap();
            if probe.set_position(None, &[first_w]).is_err() {
                one_complaint(
                    &mut e,
                    &format!("position startpos moves {first_w}"),
                    first_w,
                );
                refusals += 1;
                assert_eq!(fen_shown(&mut e), before, "{v} after a {w} move");
            }
        }
    }
    if VARIANTS.len() > 1 {
        assert!(refusals > 0, "some other game's input must be refused");
    }
    assert_no_panic(&e);
}

/// Whether a fresh session of game `v` takes `fen` (what the library says).
fn accepts_fen(v: &str, fen: &str) -> bool {
    let mut fresh = games::new_session(v).unwrap();
    fresh.set_position(Some(fen), &[]).is_ok()
}

#[test]
fn named_bad_inputs() {
    let mut e = Engine::start();
    uci(&mut e);
    let xiangqi_start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    if VARIANTS.contains(&"microchess") {
        select(&mut e, "microchess");
        let before = fen_shown(&mut e);
        one_complaint(&mut e, "position fen 5/5/5/5/5 w - - 0 1", "4x4");
        one_complaint(&mut e, "position fen 2R2/3r1/Kk3/5/5 w - - 0 1", "4");
        one_complaint(&mut e, &format!("position fen {xiangqi_start}"), "rank");
        one_complaint(&mut e, "position startpos moves h2e2", "h2e2");
        one_complaint(&mut e, "position startpos moves a2b2 a1a1", "a1a1");
        assert_eq!(fen_shown(&mut e), before);
    }
    if VARIANTS.contains(&"fairychess") {
        select(&mut e, "fairychess");
        let before = fen_shown(&mut e);
        one_complaint(&mut e, "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1", "king");
        one_complaint(&mut e, "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1", "king");
        one_complaint(
            &mut e,
            &format!("position fen {xiangqi_start}"),
            "Xiangqi FEN",
        );
        // Microchess's handout FEN, a Xiangqi move (rank 0), a Xiangqi move that names
        // fairychess squares (h2e2: the combatant cannot go there), a ThreeChess move.
        one_complaint(&mut e, "position fen 2R1/3r/Kk2/4 w - - 0 1", "8");
        one_complaint(&mut e, "position startpos moves b0c2", "b0c2");
        one_complaint(&mut e, "position startpos moves h2e2", "h2e2");
        one_complaint(&mut e, "position startpos moves BE2BE4", "BE2BE4");
        // A legal move first, then one of another game: all of it is refused.
        one_complaint(&mut e, "position startpos moves e2e3 b0c2", "b0c2");
        assert_eq!(fen_shown(&mut e), before);
    }
    if VARIANTS.contains(&"baroque") {
        select(&mut e, "baroque");
        let before = fen_shown(&mut e);
        one_complaint(&mut e, &format!("position fen {xiangqi_start}"), "8 ranks");
        one_complaint(&mut e, "position startpos moves e1e2", "e1e2");
        // Black's king is gone: the game is over, no move is played.
        let over = "cliw1ilf/pppppppp/8/8/8/8/PPPPPPPP/FLIWKILC w - - 0 1";
        one_complaint(&mut e, &format!("position fen {over} moves a2a3"), "over");
        assert_eq!(fen_shown(&mut e), before);
    }
    assert_no_panic(&e);
}

#[test]
fn ucci_is_xiangqi_only() {
    if VARIANTS.len() < 2 {
        return;
    }
    let other = VARIANTS[1];
    let mut e = Engine::start();
    e.send(&format!("variant {other}"));
    e.expect_line("switched", SLOW, |l| l == format!("variant {other}"));
    e.send("ucci");
    let lines = e.read_until("ucciok", SLOW);
    assert!(
        lines.iter().any(|l| l.contains("Xiangqi only")),
        "ucci says it switched back: {lines:?}"
    );
    let start = games::new_session("xiangqi").unwrap().start_fen();
    assert_eq!(fen_shown(&mut e), start);
    one_complaint(&mut e, &format!("setoption uci_variant {other}"), "Xiangqi");
    assert_eq!(fen_shown(&mut e), start);
    assert_no_panic(&e);
}
