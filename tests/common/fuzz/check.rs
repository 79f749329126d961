//! What the engine may write on stdout: the lines of each dialect's protocol, and free
//! text only in answer to a terminal command (`d`, `eval`, `perft`, `help`, …), never a
//! diagnostic (log lines, panic messages, backtraces), never a control character.

use super::Dialect;

/// Whether a word is a move as the engine prints them (`h2e2`, `e7e8q`, `BE2BE4`, and
/// Baroque's XBoard multi-leg moves `d4d5,d5d1`).
pub fn is_move(w: &str) -> bool {
    (2..=16).contains(&w.len())
        && w.bytes().any(|b| b.is_ascii_digit())
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"@=+-,".contains(&b))
}

fn is_uint(w: &str) -> bool {
    !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
}

fn is_int(w: &str) -> bool {
    is_uint(w.strip_prefix('-').unwrap_or(w))
}

/// Text that comes from the runtime or the logger, not from the protocol.
pub fn looks_like_diagnostic(line: &str) -> bool {
    let l = line.trim_start();
    l.contains("panicked")
        || l.starts_with("thread '")
        || l.contains("RUST_BACKTRACE")
        || l.starts_with("stack backtrace")
        || l.starts_with("note: ")
        || l.contains("src/")
        || l.contains(".rs:")
        || (l.starts_with('[')
            && [" ERROR ", " WARN ", " INFO ", " DEBUG ", " TRACE "]
                .iter()
                .any(|lvl| l.contains(lvl)))
        || l.starts_with("ERROR ")
        || l.starts_with("WARN ")
        || l.contains("memory allocation of")
        || l.contains("fatal runtime error")
}

/// `info …` of UCI (`score cp|mate`) or UCCI (`score N`).
fn info_ok(words: &[&str], ucci: bool) -> bool {
    let mut i = 1;
    if words.len() < 2 {
        return false;
    }
    if matches!(words[1], "string" | "message") {
        return true;
    }
    while i < words.len() {
        match words[i] {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time" | "tbhits"
            | "currmovenumber" => {
                if !words.get(i + 1).is_some_and(|w| is_uint(w)) {
                    return false;
                }
                i += 2;
            }
            "score" => {
                if ucci {
                    if !words.get(i + 1).is_some_and(|w| is_int(w)) {
                        return false;
                    }
                    i += 2;
                } else {
                    if !matches!(words.get(i + 1), Some(&"cp") | Some(&"mate"))
                        || !words.get(i + 2).is_some_and(|w| is_int(w))
                    {
                        return false;
                    }
                    i += 3;
                    if matches!(words.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                        i += 1;
                    }
                }
            }
            // UCI_ShowWDL: three per-mille chances that sum to 1000 (UCI only).
            "wdl" if !ucci => {
                let chances: Option<Vec<u32>> = words
                    .get(i + 1..i + 4)
                    .map(|w| w.iter().filter_map(|n| n.parse().ok()).collect());
                if !chances.is_some_and(|c| c.len() == 3 && c.iter().sum::<u32>() == 1000) {
                    return false;
                }
                i += 4;
            }
            "currmove" => {
                if !words.get(i + 1).is_some_and(|w| is_move(w)) {
                    return false;
                }
                i += 2;
            }
            "pv" => {
                // A pv may be empty only if nothing follows.
                return words[i + 1..].iter().all(|w| is_move(w));
            }
            "string" => return true,
            _ => return false,
        }
    }
    true
}

/// `bestmove M [ponder P]` (UCCI also `[draw|resign]`).
fn bestmove_ok(words: &[&str], ucci: bool) -> bool {
    match words {
        [_, "(none)"] => !ucci,
        [_, m] => is_move(m),
        [_, m, "ponder", p] => is_move(m) && is_move(p),
        [_, m, "draw" | "resign"] => ucci && is_move(m),
        [_, m, "ponder", p, "draw" | "resign"] => ucci && is_move(m) && is_move(p),
        _ => false,
    }
}

fn uci_line(words: &[&str], line: &str) -> bool {
    match words {
        ["id", "name" | "author", _, ..] => true,
        ["option", "name", ..] => line.contains(" type "),
        ["uciok"] | ["readyok"] => true,
        ["info", ..] => info_ok(words, false),
        ["bestmove", ..] => bestmove_ok(words, false),
        ["pophash", ..] => pophash_line(words),
        _ => false,
    }
}

/// `pophash …`, the answer to `probe` (a UCCI command the engine takes in every dialect).
fn pophash_line(words: &[&str]) -> bool {
    let ["pophash", rest @ ..] = words else {
        return false;
    };
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            "bestmove" if rest.get(i + 1).is_some_and(|m| is_move(m)) => i += 2,
            "lowerbound" | "upperbound"
                if rest.get(i + 1).is_some_and(|v| is_int(v))
                    && rest.get(i + 2) == Some(&"depth")
                    && rest.get(i + 3).is_some_and(|d| is_int(d)) =>
            {
                i += 4
            }
            _ => return false,
        }
    }
    true
}

fn ucci_line(words: &[&str], line: &str) -> bool {
    match words {
        ["id", "name" | "copyright" | "author" | "user" | "version", _, ..] => true,
        ["option", name, "type", ..] => *name != "name" && line.contains(" type "),
        ["ucciok"] | ["readyok"] | ["bye"] | ["nobestmove"] => true,
        ["info", ..] => info_ok(words, true),
        ["bestmove", ..] => bestmove_ok(words, true),
        ["pophash", ..] => pophash_line(words),
        _ => false,
    }
}

/// A game result with its reason: `1-0 {Red mates}`.
fn result_line(line: &str) -> bool {
    let Some((result, reason)) = line.split_once(" {") else {
        return false;
    };
    reason.ends_with('}')
        && (matches!(result, "1-0" | "0-1" | "1/2-1/2" | "*")
            || result.split(' ').all(|w| !w.is_empty() && !w.contains('{')))
}

fn cecp_line(words: &[&str], line: &str) -> bool {
    match words {
        ["feature", ..] | ["tellusererror", ..] | ["piece", _, ..] => true,
        ["move", m] => is_move(m),
        ["pong", ..] => true,
        ["#", ..] => true,
        ["offer", "draw"] | ["resign"] => true,
        ["setup", ..] => line.starts_with("setup ("),
        _ if line.starts_with("Illegal move: ") || line.starts_with("Illegal move (") => true,
        _ if line.starts_with("Error (") && line.contains("): ") => true,
        _ if line.starts_with("# ") => true,
        _ if result_line(line) => true,
        // Thinking: ply score time nodes pv (the pv may end in ? or !).
        [ply, score, time, nodes, pv @ ..] => {
            is_uint(ply)
                && is_int(score)
                && is_uint(time)
                && is_uint(nodes)
                && pv.iter().all(|m| is_move(m.trim_end_matches(['?', '!'])))
        }
        _ => false,
    }
}

fn terminal_line(words: &[&str], line: &str) -> bool {
    uci_line(words, line) || line.starts_with("error: ") || matches!(words, ["variant", _])
}

/// Whether `line` is a protocol line of `dialect`.
pub fn protocol_line(dialect: Dialect, line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
    match dialect {
        Dialect::Terminal => terminal_line(&words, line),
        Dialect::Uci => uci_line(&words, line),
        Dialect::Ucci => ucci_line(&words, line),
        Dialect::Cecp => cecp_line(&words, line),
    }
}

/// Checks one stdout line: a protocol line of one of `dialects`, or free text when
/// `free_text` (a terminal command was answered). Control characters and diagnostics are
/// refused everywhere.
pub fn check_line(line: &str, dialects: &[Dialect], free_text: bool) -> Result<(), String> {
    if let Some(c) = line.chars().find(|c| c.is_control() && *c != '\t') {
        return Err(format!("control character {c:?} in an output line"));
    }
    if looks_like_diagnostic(line) {
        return Err("a diagnostic on stdout".to_string());
    }
    if dialects.iter().any(|&d| protocol_line(d, line)) || free_text {
        return Ok(());
    }
    Err(format!("not a protocol line of {dialects:?}"))
}
