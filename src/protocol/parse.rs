//! Pure parsers for the protocol commands shared by UCCI and UCI (`go`, `position`,
//! `setoption`). They build a fresh value and return a one-line error on bad input; the
//! caller commits only on success.

use crate::request::SearchRequest;
use std::time::Duration;

/// Reads a non-negative number; negative clock values (seen from some GUIs when a flag
/// falls) count as 0.
fn number(tok: Option<&&str>) -> Option<u64> {
    let t = tok?;
    if let Ok(v) = t.parse::<u64>() {
        return Some(v);
    }
    if let Ok(v) = t.parse::<i64>() {
        return Some(v.max(0) as u64);
    }
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(0.0, 1e15) as u64)
}

/// Parses the words after `go`. `clock_keys` are the keywords of the side to move's time
/// and increment (`wtime`/`winc` for the first player of a two-player game, `btime`/`binc`
/// for the second; ThreeChess: `btime`/`gtime`/`rtime`); the other players' clocks are
/// read and ignored. `unit_ms` is the multiplier for UCCI's `time`/`increment`/`opptime`
/// (1 in milliseconds mode, 1000 in seconds mode); UCI times are always milliseconds.
/// Returns the request and the keywords or numbers that could not be understood
/// (reported, not fatal).
pub fn parse_go(
    words: &[&str],
    clock_keys: (&str, &str),
    unit_ms: u64,
) -> (SearchRequest, Vec<String>) {
    let mut go = SearchRequest::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    let ms = |v: u64, unit: u64| Duration::from_millis(v.saturating_mul(unit));
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1);
        let mut consumed = 1;
        let mut bad_value = false;
        match w {
            "ponder" => go.ponder = true,
            "draw" => go.draw_offered = true,
            "infinite" => go.infinite = true,
            "depth" | "nodes" | "time" | "movestogo" | "increment" | "opptime" | "oppmovestogo"
            | "oppincrement" | "wtime" | "btime" | "gtime" | "rtime" | "winc" | "binc" | "ginc"
            | "rinc" | "movetime" | "perft" | "mate" => {
                consumed = 2;
                match number(next) {
                    None => bad_value = true,
                    Some(v) => match w {
                        "depth" => go.depth = Some(v.min(1000) as i32),
                        "mate" => go.mate = Some(v.min(1000) as u32),
                        "nodes" => go.nodes = Some(v),
                        "time" => go.clock.time_left = Some(ms(v, unit_ms)),
                        "increment" => go.clock.increment = ms(v, unit_ms),
                        "movestogo" => go.clock.moves_to_go = Some(v.min(10_000) as u32),
                        "movetime" => go.clock.move_time = Some(ms(v, 1)),
                        k if k == clock_keys.0 => go.clock.time_left = Some(ms(v, 1)),
                        k if k == clock_keys.1 => go.clock.increment = ms(v, 1),
                        "perft" => go.perft = Some(v.min(20) as u32),
                        // The opponents' clocks do not change our allocation.
                        _ => {}
                    },
                }
            }
            "searchmoves" => {
                consumed = 1;
                // The moves run to the next keyword; the game checks them.
                while let Some(m) = words.get(i + consumed) {
                    if is_keyword(m) {
                        break;
                    }
                    go.search_moves.push(m.to_string());
                    consumed += 1;
                }
            }
            _ => warnings.push(format!("ignored '{w}'")),
        }
        if bad_value {
            warnings.push(format!(
                "'{w}' needs a number, got '{}'",
                next.copied().unwrap_or("")
            ));
            if next.is_none_or(|n| n.parse::<f64>().is_err() && is_keyword(n)) {
                consumed = 1;
            }
        }
        i += consumed;
    }
    (go, warnings)
}

fn is_keyword(w: &str) -> bool {
    matches!(
        w,
        "ponder"
            | "draw"
            | "infinite"
            | "depth"
            | "nodes"
            | "time"
            | "movestogo"
            | "increment"
            | "opptime"
            | "oppmovestogo"
            | "oppincrement"
            | "wtime"
            | "btime"
            | "gtime"
            | "rtime"
            | "winc"
            | "binc"
            | "ginc"
            | "rinc"
            | "movetime"
            | "searchmoves"
            | "perft"
            | "mate"
    )
}

/// A `position` command: the start position or a FEN, and moves to play from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The FEN (`None`: the game's start position).
    pub fen: Option<String>,
    /// The moves after it, as text.
    pub moves: Vec<String>,
}

impl PositionCommand {
    /// The moves as string slices.
    pub fn move_texts(&self) -> Vec<&str> {
        self.moves.iter().map(String::as_str).collect()
    }
}

/// Why the words of a `position` command are not one; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A word after `startpos` other than `moves`.
    AfterStartpos(String),
    /// `fen` without a FEN.
    NoFen,
    /// Neither `fen` nor `startpos` (the word found, if any).
    NoSetup(Option<String>),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::AfterStartpos(w) => write!(f, "unexpected '{w}' after startpos"),
            PositionError::NoFen => write!(f, "'fen' needs a FEN"),
            PositionError::NoSetup(Some(w)) => {
                write!(f, "expected 'fen' or 'startpos', got '{w}'")
            }
            PositionError::NoSetup(None) => write!(f, "expected 'fen' or 'startpos'"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Parses `[fen F… | startpos] [moves m…]` (the words after `position`, or a Cyclone
/// `fen …`/`startpos …` line). The game checks the FEN and the moves.
pub fn parse_position(words: &[&str]) -> Result<PositionCommand, PositionError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &words[words.len()..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => None,
        Some(&"startpos") => return Err(PositionError::AfterStartpos(setup[1].to_string())),
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        Some(&"fen") => return Err(PositionError::NoFen),
        Some(w) => return Err(PositionError::NoSetup(Some(w.to_string()))),
        None => return Err(PositionError::NoSetup(None)),
    };
    Ok(PositionCommand {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// The words of `text` with the byte offset where each starts.
fn words_at(text: &str) -> Vec<(usize, &str)> {
    text.split_whitespace()
        // Each word is a slice of `text`, so the difference of the addresses is its offset.
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect()
}

/// A `setoption` command in either form, from the text after the word `setoption`:
/// `name NAME [value VALUE]` (UCI; names may contain spaces) or `NAME [VALUE]` (UCCI).
/// The value is the rest of the line as written, only trimmed, so a path keeps its
/// spaces and backslashes (`value C:\My  Books\xq.jbk`).
///
/// In the UCCI form the name is the first word, or the longest run of words (up to
/// three) that `is_option` knows: VinXiangQi sends the UCI names it read from `option
/// name …` lines in the UCCI form (`setoption Move Overhead 10`, see tests/gui.rs).
pub fn parse_setoption(text: &str, is_option: impl Fn(&str) -> bool) -> Option<(String, String)> {
    let words = words_at(text);
    // The rest of the text from word `i` on (empty past the end).
    let rest = |i: usize| {
        words
            .get(i)
            .map_or("", |&(at, _)| text.get(at..).unwrap_or("").trim_end())
            .to_string()
    };
    let joined = |ws: &[(usize, &str)]| ws.iter().map(|&(_, w)| w).collect::<Vec<_>>().join(" ");
    let &(_, first) = words.first()?;
    if first.eq_ignore_ascii_case("name") {
        let value_at = words
            .iter()
            .position(|(_, w)| w.eq_ignore_ascii_case("value"))
            .unwrap_or(words.len());
        let name = joined(&words[1..value_at]);
        (!name.is_empty()).then(|| (name, rest(value_at + 1)))
    } else {
        let name_words = (2..=3.min(words.len()))
            .rev()
            .find(|&n| is_option(&joined(&words[..n])))
            .unwrap_or(1);
        Some((joined(&words[..name_words]), rest(name_words)))
    }
}

/// Reads a boolean option value: `true/on/1` or `false/off/0` (an empty value, a
/// button-style `setoption ponder`, counts as true).
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "" | "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn go_ucci_seconds_and_milliseconds() {
        let red = ("wtime", "winc");
        let (g, _) = parse_go(
            &w("time 300 increment 2 opptime 280 oppincrement 2"),
            red,
            1000,
        );
        assert_eq!(g.clock.time_left, Some(Duration::from_secs(300)));
        assert_eq!(g.clock.increment, Duration::from_secs(2));
        let (g, _) = parse_go(&w("ponder time 295000 movestogo 10"), red, 1);
        assert!(g.ponder);
        assert_eq!(g.clock.time_left, Some(Duration::from_millis(295_000)));
        assert_eq!(g.clock.moves_to_go, Some(10));
    }

    #[test]
    fn go_uci_side_and_garbage() {
        let black = ("btime", "binc");
        let (g, _) = parse_go(&w("wtime 1000 btime 2000 winc 10 binc 20"), black, 1);
        assert_eq!(g.clock.time_left, Some(Duration::from_millis(2000)));
        assert_eq!(g.clock.increment, Duration::from_millis(20));
        // ThreeChess: green's clock among three.
        let (g, warnings) = parse_go(&w("btime 1000 gtime 3000 rtime 2000"), ("gtime", "ginc"), 1);
        assert_eq!(g.clock.time_left, Some(Duration::from_millis(3000)));
        assert!(warnings.is_empty());
        let (g, warnings) = parse_go(&w("depth banana nodes 100 frobnicate"), black, 1);
        assert_eq!(g.depth, None);
        assert_eq!(g.nodes, Some(100));
        assert_eq!(warnings.len(), 2);
        let (g, warnings) = parse_go(&w("wtime -50 depth"), ("wtime", "winc"), 1);
        assert_eq!(g.clock.time_left, Some(Duration::ZERO));
        assert_eq!(warnings.len(), 1);
        let (g, _) = parse_go(&w("searchmoves h2e2 b0c2 depth 3"), black, 1);
        assert_eq!(g.search_moves, ["h2e2", "b0c2"]);
        assert_eq!(g.depth, Some(3));
    }

    #[test]
    fn go_mate_is_a_limit_of_its_own() {
        let (g, _) = parse_go(&w("mate 4"), ("wtime", "winc"), 1);
        assert_eq!((g.mate, g.depth), (Some(4), None));
        assert!(!g.has_no_limit());
    }

    #[test]
    fn position_commands() {
        let p = parse_position(&w("startpos moves h2e2 h7e7")).unwrap();
        assert_eq!(p.fen, None);
        assert_eq!(p.move_texts(), ["h2e2", "h7e7"]);
        let p = parse_position(&w("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves")).unwrap();
        assert_eq!(p.fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(p.moves.is_empty());
        assert_eq!(
            parse_position(&w("startpos now")),
            Err(PositionError::AfterStartpos("now".into()))
        );
        assert_eq!(parse_position(&w("fen")), Err(PositionError::NoFen));
        assert_eq!(
            parse_position(&w("sideways")),
            Err(PositionError::NoSetup(Some("sideways".into())))
        );
        assert_eq!(parse_position(&[]), Err(PositionError::NoSetup(None)));
    }

    #[test]
    fn setoption_both_forms() {
        let none = |_: &str| false;
        assert_eq!(
            parse_setoption("name Clear Hash", none),
            Some(("Clear Hash".into(), "".into()))
        );
        assert_eq!(
            parse_setoption("name Hash value 64\r\n", none),
            Some(("Hash".into(), "64".into()))
        );
        assert_eq!(
            parse_setoption("hashsize 64", none),
            Some(("hashsize".into(), "64".into()))
        );
        assert_eq!(
            parse_setoption("newgame", none),
            Some(("newgame".into(), "".into()))
        );
        assert_eq!(parse_setoption("", none), None);
        assert_eq!(parse_setoption("name  value 3", none), None);
        assert_eq!(parse_bool("on"), Some(true));
        assert_eq!(parse_bool("FALSE"), Some(false));
        assert_eq!(parse_bool("maybe"), None);
    }

    #[test]
    fn setoption_values_keep_their_spacing() {
        let none = |_: &str| false;
        assert_eq!(
            parse_setoption("name BookFile value C:\\My  Books\\xq.jbk \r", none),
            Some(("BookFile".into(), "C:\\My  Books\\xq.jbk".into()))
        );
        assert_eq!(
            parse_setoption("bookfiles  D:\\象棋 书\\a.jbk;b.jbk", none),
            Some(("bookfiles".into(), "D:\\象棋 书\\a.jbk;b.jbk".into()))
        );
        // Only the first `value` is the keyword.
        assert_eq!(
            parse_setoption("name BookFile value C:\\value\\b.jbk", none),
            Some(("BookFile".into(), "C:\\value\\b.jbk".into()))
        );
    }

    #[test]
    fn ucci_form_names_of_several_words() {
        let known = |n: &str| matches!(n, "Move Overhead" | "Clear Hash" | "Hash");
        assert_eq!(
            parse_setoption("Move Overhead 30", known),
            Some(("Move Overhead".into(), "30".into()))
        );
        assert_eq!(
            parse_setoption("Clear Hash", known),
            Some(("Clear Hash".into(), "".into()))
        );
        assert_eq!(
            parse_setoption("Hash 16", known),
            Some(("Hash".into(), "16".into()))
        );
        // Unknown names stay one word (the engine says it does not know it).
        assert_eq!(
            parse_setoption("Frobnicate Level 3", known),
            Some(("Frobnicate".into(), "Level 3".into()))
        );
    }
}
