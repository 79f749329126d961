//! Formatting of engine→GUI lines (from the engine's structured events), and the single
//! writer that owns stdout.

use crate::engine::{Answer, InfoReport};
use crate::search::{Score, ScoreBound};
use std::io::Write;

/// The protocol spoken on stdin/stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// No handshake yet: a person at a terminal (UCI-style output).
    Terminal,
    /// UCCI 3.0.
    Ucci,
    /// UCI as Pikafish speaks it (ranks 0-9).
    Uci,
    /// CECP (the XBoard/WinBoard protocol, version 2), ranks 0-9.
    Cecp,
}

/// Writes one line to stdout and flushes it (stdout may be block-buffered on a pipe).
/// Lines from the search thread and the input thread never interleave: the lock is held
/// for the whole line. Control characters (see [`printable`]) never reach the GUI.
pub fn send(line: &str) {
    let line = printable(line);
    let mut out = std::io::stdout().lock();
    // A closed stdout (the GUI went away) is not worth a panic; stdin's EOF ends us.
    if cfg!(windows) {
        // Lines end in CR LF on Windows, as every C and C++ engine's text-mode stdout
        // writes them there (and xqbase's pipe code, ElephantEye's and XQWizard's): a GUI
        // that splits on CR LF only still reads them; those that split on LF ignore the CR.
        let _ = write!(out, "{}\r\n", line.replace('\n', "\r\n"));
    } else {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// The text with every control character but the line break and the tab replaced by
/// U+FFFD. Error messages quote the input, which may hold anything: a NUL, an escape
/// sequence, or a carriage return that a GUI's line reader would take for the end of
/// the line (the rest then reads as a line of its own).
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if text.chars().any(bad) {
        text.chars()
            .map(|c| if bad(c) { '\u{fffd}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// Sends an `info string` line (UCI and UCCI GUIs both show or ignore it).
pub fn info_string(msg: &str) {
    send(&format!("info string {msg}"));
}

/// UCCI scores are in units where a horse or cannon is 100 (the spec); mates are shown
/// as large values, as ElephantEye does.
pub fn ucci_score(raw: i32) -> i32 {
    match Score::from_internal(raw) {
        Score::Cp(cp) => {
            cp * 100 / crate::xiangqi::see::see_value(crate::xiangqi::PieceKind::Horse)
        }
        Score::Mate(_) => raw.signum() * (10_000 - (crate::tt::MATE - raw.abs())),
    }
}

/// CECP thinking-output scores: the evaluation's units (as UCI's `cp`); mates as
/// 100000 + N for "mate in N moves" and -100000 - N for "mated in N moves".
pub fn cecp_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(m) if m >= 0 => 100_000 + m as i64,
        Score::Mate(m) => -100_000 + m as i64,
    }
}

/// A CECP thinking line: `ply score time(cs) nodes pv`; a fail-low pv ends in `?`, a
/// fail-high one in `!`.
pub fn cecp_thinking(info: &InfoReport) -> String {
    let mark = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => "!",
        ScoreBound::Upper => "?",
    };
    format!(
        "{} {} {} {} {}{mark}",
        info.depth,
        cecp_score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv_text(&info.pv)
    )
}

/// The lines that end a CECP game search: `offer draw` (accepting the opponent's offer)
/// and `move M`, followed by the result claim when the move ends the game; or only the
/// claim when the engine has no legal move.
pub fn cecp_answer(answer: &Answer) -> Vec<String> {
    let Some(m) = &answer.best else {
        return vec![answer
            .end_now
            .as_ref()
            .map_or_else(|| "# no move to play".to_string(), |end| end.to_string())];
    };
    let mut lines = Vec::new();
    if answer.offer_draw {
        lines.push("offer draw".to_string());
    }
    lines.push(format!("move {m}"));
    if let Some(end) = &answer.end_after {
        lines.push(end.to_string());
    }
    lines
}

fn pv_text(pv: &[String]) -> String {
    pv.join(" ")
}

/// The `info` lines for one report; with `show_wdl` (UCI's `UCI_ShowWDL`) UCI score
/// lines carry `wdl W D L` where the game has a model of them.
pub fn format_info(dialect: Dialect, info: &InfoReport, show_wdl: bool) -> Vec<String> {
    // Only UCI has MultiPV; the other protocols show the best line.
    if info.multipv > 1 && !matches!(dialect, Dialect::Uci | Dialect::Terminal) {
        return Vec::new();
    }
    match dialect {
        Dialect::Ucci => {
            let mut lines = vec![format!("info time {} nodes {}", info.time_ms, info.nodes)];
            lines.push(format!(
                "info depth {} score {} pv {}",
                info.depth,
                ucci_score(info.raw_score),
                pv_text(&info.pv)
            ));
            lines
        }
        Dialect::Uci | Dialect::Terminal => {
            let score = match info.score {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(m) => format!("mate {m}"),
            };
            let wdl = match (show_wdl, info.wdl) {
                (true, Some(w)) => format!(" wdl {} {} {}", w.win, w.draw, w.loss),
                _ => String::new(),
            };
            let bound = match info.bound {
                ScoreBound::Exact => "",
                ScoreBound::Lower => " lowerbound",
                ScoreBound::Upper => " upperbound",
            };
            let mut lines = vec![format!(
                "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.multipv,
                info.nodes,
                info.nps,
                info.hashfull,
                info.time_ms,
                pv_text(&info.pv)
            )];
            if !info.player_scores.is_empty() {
                let scores: Vec<String> = info
                    .player_scores
                    .iter()
                    .map(|(name, v)| format!("{name} {v}"))
                    .collect();
                lines.push(format!("info string scores {}", scores.join(" ")));
            }
            lines
        }
        Dialect::Cecp => vec![cecp_thinking(info)],
    }
}

/// The final line of a search in UCI or UCCI (UCCI appends `draw` to offer or accept a
/// draw).
pub fn format_bestmove(dialect: Dialect, answer: &Answer) -> String {
    match (dialect, &answer.best) {
        (Dialect::Cecp, Some(m)) => format!("move {m}"),
        (Dialect::Cecp, None) => "# no move to play".to_string(),
        (Dialect::Ucci, None) => "nobestmove".to_string(),
        (_, None) => "bestmove (none)".to_string(),
        (d, Some(m)) => {
            let mut s = format!("bestmove {m}");
            if let Some(p) = &answer.ponder {
                s.push_str(&format!(" ponder {p}"));
            }
            if answer.offer_draw && d == Dialect::Ucci {
                s.push_str(" draw");
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_has_no_cp_and_uci_has_it() {
        let info = InfoReport {
            depth: 5,
            seldepth: 9,
            score: Score::Cp(40),
            raw_score: 40,
            bound: ScoreBound::Exact,
            wdl: None,
            nodes: 1000,
            time_ms: 10,
            nps: 100_000,
            hashfull: 3,
            multipv: 1,
            pv: vec!["h2e2".to_string()],
            player_scores: Vec::new(),
        };
        let ucci = format_info(Dialect::Ucci, &info, true);
        assert_eq!(ucci[1], "info depth 5 score 10 pv h2e2");
        assert!(ucci[0].starts_with("info time 10 nodes 1000"));
        let uci = format_info(Dialect::Uci, &info, false);
        assert_eq!(uci.len(), 1);
        assert!(uci[0].contains(" score cp 40 nodes 1000 nps 100000 hashfull 3 time 10 pv h2e2"));
        // UCI_ShowWDL: after the score and its bound (as Pikafish and Stockfish write
        // them, `score cp 40 lowerbound wdl …`); never in UCCI.
        let with_wdl = InfoReport {
            wdl: Some(crate::report::Wdl {
                win: 300,
                draw: 600,
                loss: 100,
            }),
            bound: ScoreBound::Lower,
            ..info.clone()
        };
        let uci = format_info(Dialect::Uci, &with_wdl, true);
        assert!(uci[0].contains(" score cp 40 lowerbound wdl 300 600 100 nodes 1000"));
        assert!(!format_info(Dialect::Uci, &with_wdl, false)[0].contains("wdl"));
        assert!(!format_info(Dialect::Ucci, &with_wdl, true)[1].contains("wdl"));
        let three = InfoReport {
            player_scores: vec![("blue", 12), ("green", -3), ("red", -9)],
            ..info
        };
        let uci = format_info(Dialect::Uci, &three, false);
        assert_eq!(uci[1], "info string scores blue 12 green -3 red -9");
    }

    #[test]
    fn control_characters_are_not_written() {
        assert_eq!(printable("info depth 3 pv h2e2"), "info depth 3 pv h2e2");
        assert_eq!(
            printable("Error (unknown command): a\rb\0c\u{1b}[2J\u{7f}"),
            "Error (unknown command): a\u{fffd}b\u{fffd}c\u{fffd}[2J\u{fffd}"
        );
        // Multi-line answers (help, the board) and tabs stay as they are.
        assert_eq!(printable("a\tb\nc"), "a\tb\nc");
    }

    #[test]
    fn no_move_answers() {
        let r = Answer::default();
        assert_eq!(format_bestmove(Dialect::Ucci, &r), "nobestmove");
        assert_eq!(format_bestmove(Dialect::Uci, &r), "bestmove (none)");
        assert_eq!(cecp_answer(&r), ["# no move to play"]);
        let r = Answer {
            best: Some("h2e2".into()),
            ponder: Some("h7e7".into()),
            offer_draw: true,
            ..Answer::default()
        };
        assert_eq!(
            format_bestmove(Dialect::Ucci, &r),
            "bestmove h2e2 ponder h7e7 draw"
        );
        assert_eq!(
            format_bestmove(Dialect::Uci, &r),
            "bestmove h2e2 ponder h7e7"
        );
        assert_eq!(cecp_answer(&r), ["offer draw", "move h2e2"]);
    }
}
