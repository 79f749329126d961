//! What differs between the two dialects the runner speaks, UCI (Pikafish,
//! Fairy-Stockfish, jiang) and UCCI 3.0 (ElephantEye, jiang), and what they share: the
//! `info` lines, the `bestmove` reply, the option declarations.
//!
//! UCCI (from its specification, `cchess_ucci.htm`, and ElephantEye's behaviour):
//! * `ucci` must be the first line (ElephantEye exits on anything else), answered by
//!   `ucciok`; options are declared `option NAME type ...` and set with `setoption NAME
//!   VALUE` (no `name`/`value` keywords);
//! * times are in seconds unless `setoption usemillisec true` was sent, which a GUI sends
//!   when the engine declares `usemillisec`; a clock is `go time T increment I opptime OT
//!   oppincrement OI`, a repeating control adds `movestogo M`; the specification has no
//!   fixed time per move, so `go time T movestogo 1` stands for it (or `go movetime T`
//!   for engines that take it, `movetime=native`);
//! * a new game is `setoption newgame` where declared;
//! * replies are `bestmove M [ponder P] [draw|resign]` or `nobestmove`; `info ... score
//!   35` carries the score without `cp`.

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI.
    Uci,
    /// UCCI 3.0.
    Ucci,
}

impl Dialect {
    /// `uci` or `ucci`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
        }
    }

    /// The dialect called `name`.
    pub fn from_name(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "uci" => Some(Dialect::Uci),
            "ucci" => Some(Dialect::Ucci),
            _ => None,
        }
    }

    /// The first line sent and the line that ends the engine's answer.
    pub fn hello(self) -> (&'static str, &'static str) {
        match self {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        }
    }

    /// `setoption` for `name` (`value` empty: a button).
    pub fn set_option(self, name: &str, value: &str) -> String {
        match (self, value.is_empty()) {
            (Dialect::Uci, true) => format!("setoption name {name}"),
            (Dialect::Uci, false) => format!("setoption name {name} value {value}"),
            (Dialect::Ucci, true) => format!("setoption {name}"),
            (Dialect::Ucci, false) => format!("setoption {name} {value}"),
        }
    }

    /// Other spellings of a common option in this dialect (UCI `Hash` is UCCI
    /// `hashsize`).
    pub fn aliases(self, name: &str) -> &'static [&'static str] {
        match (self, name.to_ascii_lowercase().as_str()) {
            (Dialect::Ucci, "hash") => &["hashsize"],
            (Dialect::Uci, "hashsize") => &["Hash"],
            (_, "threads") => &["Threads"],
            _ => &[],
        }
    }
}

/// How an engine is told the limit of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoLimit {
    /// A clock: both sides' remaining time and the increment, ms; `moves_to_go` in a
    /// repeating control.
    Clock {
        /// Red's (the first player's) time.
        red_ms: u64,
        /// Black's time.
        black_ms: u64,
        /// Increment per move.
        inc_ms: u64,
        /// Moves left until the clock is refilled (`None`: sudden death).
        moves_to_go: Option<u32>,
    },
    /// A fixed time per move, ms.
    MoveTime(u64),
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

/// UCCI's time unit for an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds.
    Millis,
    /// Seconds (rounded down, a time under a second sent as 1).
    Seconds,
}

/// The `go` command. `red_to_move` picks "mine" and "theirs" for UCCI;
/// `native_movetime` sends UCCI's fixed time as `go movetime`.
pub fn go_command(
    dialect: Dialect,
    limit: &GoLimit,
    red_to_move: bool,
    unit: TimeUnit,
    native_movetime: bool,
) -> String {
    let t = |ms: u64, floor_one: bool| -> u64 {
        let v = match unit {
            TimeUnit::Millis => ms,
            TimeUnit::Seconds => ms / 1000,
        };
        if floor_one {
            v.max(1)
        } else {
            v
        }
    };
    match (*limit, dialect) {
        (GoLimit::Depth(d), _) => format!("go depth {d}"),
        (GoLimit::Nodes(n), _) => format!("go nodes {n}"),
        (GoLimit::MoveTime(ms), Dialect::Uci) => format!("go movetime {ms}"),
        (GoLimit::MoveTime(ms), Dialect::Ucci) => {
            if native_movetime {
                format!("go movetime {ms}")
            } else {
                format!("go time {} movestogo 1", t(ms, true))
            }
        }
        (
            GoLimit::Clock {
                red_ms,
                black_ms,
                inc_ms,
                moves_to_go,
            },
            Dialect::Uci,
        ) => {
            let mut s = format!(
                "go wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                red_ms.max(1),
                black_ms.max(1)
            );
            if let Some(m) = moves_to_go {
                s.push_str(&format!(" movestogo {m}"));
            }
            s
        }
        (
            GoLimit::Clock {
                red_ms,
                black_ms,
                inc_ms,
                moves_to_go,
            },
            Dialect::Ucci,
        ) => {
            let (mine, theirs) = if red_to_move {
                (red_ms, black_ms)
            } else {
                (black_ms, red_ms)
            };
            let inc = t(inc_ms, false);
            let mut s = format!(
                "go time {} increment {inc} opptime {} oppincrement {inc}",
                t(mine, true),
                t(theirs, true)
            );
            if let Some(m) = moves_to_go {
                s.push_str(&format!(" movestogo {m}"));
            }
            s
        }
    }
}

/// The fields of an engine's `info` lines, the last value of each kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth.
    pub depth: Option<i64>,
    /// Selective depth.
    pub seldepth: Option<i64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time, ms.
    pub time: Option<u64>,
    /// Score in centipawns (UCI `score cp N`, UCCI `score N`).
    pub score_cp: Option<i64>,
    /// Mate in N (negative: mated).
    pub score_mate: Option<i64>,
    /// The first 12 moves of the principal variation.
    pub pv: Option<String>,
}

impl Info {
    /// Merges one `info` line (its words) into what is known; `info string` is ignored.
    pub fn merge(&mut self, words: &[&str]) {
        if words.get(1) == Some(&"string") {
            return;
        }
        let mut i = 1;
        while i < words.len() {
            let key = words[i];
            let next = words.get(i + 1).copied();
            match key {
                "depth" | "seldepth" | "nodes" | "nps" | "time" => {
                    if let Some(v) = next.and_then(|v| v.parse::<i64>().ok()) {
                        match key {
                            "depth" => self.depth = Some(v),
                            "seldepth" => self.seldepth = Some(v),
                            "nodes" => self.nodes = u64::try_from(v).ok(),
                            "nps" => self.nps = u64::try_from(v).ok(),
                            _ => self.time = u64::try_from(v).ok(),
                        }
                    }
                    i += 2;
                }
                "score" => match next {
                    Some("cp") | Some("mate") => {
                        if let Some(v) = words.get(i + 2).and_then(|v| v.parse::<i64>().ok()) {
                            if next == Some("cp") {
                                self.score_cp = Some(v);
                                self.score_mate = None;
                            } else {
                                self.score_mate = Some(v);
                                self.score_cp = None;
                            }
                        }
                        i += 3;
                    }
                    _ => {
                        if let Some(v) = next.and_then(|v| v.parse::<i64>().ok()) {
                            self.score_cp = Some(v);
                            self.score_mate = None;
                        }
                        i += 2;
                    }
                },
                "pv" => {
                    let pv: Vec<&str> = words[i + 1..].iter().take(12).copied().collect();
                    self.pv = Some(pv.join(" "));
                    break;
                }
                "string" => break,
                _ => i += 1,
            }
        }
    }

    /// Nodes per second: `nps`, or nodes / time when only those were given.
    pub fn nodes_per_second(&self) -> Option<u64> {
        self.nps.or_else(|| match (self.nodes, self.time) {
            (Some(n), Some(t)) if n > 0 && t > 0 => Some(n * 1000 / t.max(1)),
            _ => None,
        })
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `bestmove MOVE [ponder P] [draw|resign]`; the words after the move other than the
    /// ponder move are its flags.
    Move {
        /// The move as the engine wrote it.
        text: String,
        /// `draw`, `resign`, ...
        flags: Vec<String>,
    },
    /// `nobestmove`, `bestmove (none)` / `0000`: no move.
    NoMove,
}

/// Reads a `bestmove` or `nobestmove` line; `None` for any other line.
pub fn parse_reply(words: &[&str]) -> Option<Reply> {
    match words.first().copied() {
        Some("nobestmove") => Some(Reply::NoMove),
        Some("bestmove") => {
            let Some(text) = words.get(1) else {
                return Some(Reply::NoMove);
            };
            if ["(none)", "0000", "none", "resign", "null"].contains(text) {
                return Some(Reply::NoMove);
            }
            let mut flags = Vec::new();
            let mut rest = words[2..].iter();
            while let Some(w) = rest.next() {
                if *w == "ponder" {
                    rest.next();
                } else {
                    flags.push(w.to_string());
                }
            }
            Some(Reply::Move {
                text: text.to_string(),
                flags,
            })
        }
        _ => None,
    }
}

/// One option an engine declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name as the engine spells it.
    pub name: String,
    /// `spin`, `check`, `combo`, `button`, `string` (lower case).
    pub kind: String,
    /// Its default, as written.
    pub default: Option<String>,
    /// A spin's minimum.
    pub min: Option<i64>,
    /// A spin's maximum.
    pub max: Option<i64>,
    /// A combo's choices.
    pub vars: Vec<String>,
}

/// Reads an `option` line: UCI `option name Skill Level type spin default 20 min 0 max
/// 20`, UCCI `option hashsize type spin min 1 max 1024 default 64`.
pub fn parse_option(line: &str) -> Option<OptionDecl> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") {
        return None;
    }
    let keys = ["type", "default", "min", "max", "var"];
    let (name, mut i) = if words.get(1) == Some(&"name") {
        let end = words
            .iter()
            .skip(2)
            .position(|w| *w == "type")
            .map(|p| p + 2)
            .unwrap_or(words.len());
        (words[2..end].join(" "), end)
    } else {
        (words.get(1)?.to_string(), 2)
    };
    if name.is_empty() {
        return None;
    }
    let mut decl = OptionDecl {
        name,
        kind: String::new(),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    while i < words.len() {
        let key = words[i];
        // A value runs to the next keyword (a string default can have spaces).
        let end = words
            .iter()
            .skip(i + 1)
            .position(|w| keys.contains(w))
            .map(|p| p + i + 1)
            .unwrap_or(words.len());
        let value = words[i + 1..end].join(" ");
        match key {
            "type" => decl.kind = value.to_ascii_lowercase(),
            "default" => decl.default = Some(value),
            "min" => decl.min = value.parse().ok(),
            "max" => decl.max = value.parse().ok(),
            "var" => decl.vars.push(value),
            _ => {}
        }
        i = end.max(i + 1);
    }
    Some(decl)
}

/// Splits a command line as a POSIX shell would, without expansions: words separated by
/// blanks, `'...'` literal, `"..."` with `\` escaping `"`, `\` and `$`, and `\` escaping
/// any character outside quotes.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => word.push(ch),
                        None => return Err(format!("unmatched ' in '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&n) if matches!(n, '"' | '\\' | '$' | '`') => {
                                word.push(n);
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err(format!("unmatched \" in '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn go_commands_of_both_dialects() {
        let clock = GoLimit::Clock {
            red_ms: 9500,
            black_ms: 700,
            inc_ms: 100,
            moves_to_go: None,
        };
        let uci = |l: &GoLimit| go_command(Dialect::Uci, l, true, TimeUnit::Millis, false);
        assert_eq!(uci(&clock), "go wtime 9500 btime 700 winc 100 binc 100");
        assert_eq!(uci(&GoLimit::MoveTime(200)), "go movetime 200");
        assert_eq!(uci(&GoLimit::Nodes(5000)), "go nodes 5000");
        assert_eq!(uci(&GoLimit::Depth(7)), "go depth 7");
        let ucci = |l: &GoLimit, red, unit, native| go_command(Dialect::Ucci, l, red, unit, native);
        assert_eq!(
            ucci(&clock, false, TimeUnit::Millis, false),
            "go time 700 increment 100 opptime 9500 oppincrement 100"
        );
        assert_eq!(
            ucci(&clock, false, TimeUnit::Seconds, false),
            "go time 1 increment 0 opptime 9 oppincrement 0"
        );
        assert_eq!(
            ucci(&GoLimit::MoveTime(2500), true, TimeUnit::Seconds, false),
            "go time 2 movestogo 1"
        );
        assert_eq!(
            ucci(&GoLimit::MoveTime(2500), true, TimeUnit::Millis, true),
            "go movetime 2500"
        );
        let repeating = GoLimit::Clock {
            red_ms: 60000,
            black_ms: 60000,
            inc_ms: 0,
            moves_to_go: Some(12),
        };
        assert!(uci(&repeating).ends_with("movestogo 12"));
        assert!(ucci(&repeating, true, TimeUnit::Millis, false).ends_with("movestogo 12"));
    }

    #[test]
    fn info_lines_of_both_dialects() {
        let mut info = Info::default();
        info.merge(&words(
            "info depth 12 seldepth 20 score cp 35 nodes 1000 nps 50000 time 20 pv h2e2 h9g7",
        ));
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.score_cp, Some(35));
        assert_eq!(info.pv.as_deref(), Some("h2e2 h9g7"));
        info.merge(&words("info depth 13 score mate -3"));
        assert_eq!((info.score_cp, info.score_mate), (None, Some(-3)));
        info.merge(&words("info depth 5 score 47 nodes 300 time 10"));
        assert_eq!((info.score_cp, info.score_mate), (Some(47), None));
        info.merge(&words("info string depth 99"));
        assert_eq!(info.depth, Some(5));
        info.nps = None;
        assert_eq!(info.nodes_per_second(), Some(30000));
        info.merge(&words("info depth x nodes -1 score cp"));
        assert_eq!(info.depth, Some(5));
    }

    #[test]
    fn replies() {
        assert_eq!(
            parse_reply(&words("bestmove h2e2 ponder h9g7")),
            Some(Reply::Move {
                text: "h2e2".into(),
                flags: vec![]
            })
        );
        assert_eq!(
            parse_reply(&words("bestmove h2e2 resign")),
            Some(Reply::Move {
                text: "h2e2".into(),
                flags: vec!["resign".into()]
            })
        );
        assert_eq!(parse_reply(&words("bestmove (none)")), Some(Reply::NoMove));
        assert_eq!(parse_reply(&words("nobestmove")), Some(Reply::NoMove));
        assert_eq!(parse_reply(&words("bestmove")), Some(Reply::NoMove));
        assert_eq!(parse_reply(&words("info depth 3")), None);
    }

    #[test]
    fn option_declarations_of_both_dialects() {
        let o = parse_option("option name Skill Level type spin default 20 min 0 max 20").unwrap();
        assert_eq!((o.name.as_str(), o.kind.as_str()), ("Skill Level", "spin"));
        assert_eq!(
            (o.default.as_deref(), o.min, o.max),
            (Some("20"), Some(0), Some(20))
        );
        let o = parse_option("option hashsize type spin min 1 max 1024 default 64").unwrap();
        assert_eq!(
            (o.name.as_str(), o.min, o.max),
            ("hashsize", Some(1), Some(1024))
        );
        let o = parse_option(
            "option name UCI_Variant type combo default xiangqi var xiangqi var fairychess",
        )
        .unwrap();
        assert_eq!(o.vars, ["xiangqi", "fairychess"]);
        let o = parse_option("option name BookFile type string default <empty>").unwrap();
        assert_eq!(o.default.as_deref(), Some("<empty>"));
        assert!(parse_option("id name x").is_none());
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command("/opt/eng --threads 1").unwrap(),
            ["/opt/eng", "--threads", "1"]
        );
        assert_eq!(
            split_command(r#"python3 'my engine.py' "a \"b\"" c\ d"#).unwrap(),
            ["python3", "my engine.py", "a \"b\"", "c d"]
        );
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("'open").is_err());
        assert!(split_command("").unwrap().is_empty());
    }
}
