//! What the engine makes of the lines it is sent: the dialect, the game, whether it
//! quits, whether a line may be answered with free text. Lines are read exactly as the
//! engine reads them (split at `\n`, invalid UTF-8 replaced, words split at Unicode
//! white space), so the model follows mutated lines too.

use super::games::GameInfo;
use super::Dialect;

/// Hash sizes (MiB) above this are turned back right after they are set: a search in a
/// table of many GiB would fault in gigabytes of the shared machine's memory (the table is
/// lazily mapped with huge pages). Setting them is still fuzzed.
pub const BIG_HASH_MB: i128 = 512;

/// Thread counts above this are turned back right after they are set, unless
/// `FUZZ_MANY_THREADS=1`: with hundreds of threads on two cores every search overruns its
/// time by seconds (a known problem, see `fuzz_regressions.rs`), which stalls the run.
pub const MANY_THREADS: i64 = 8;

fn many_threads_allowed() -> bool {
    std::env::var("FUZZ_MANY_THREADS").is_ok_and(|v| v == "1")
}

/// The engine's state as far as the fuzzer needs it.
#[derive(Clone, Debug)]
pub struct Model {
    /// The dialect of the last handshake.
    pub dialect: Dialect,
    /// Index of the game being played in the fuzzer's game list.
    pub game: usize,
    /// `quit` (or `exit` outside CECP) was sent.
    pub quit: bool,
    /// The last position set up from a sample: (game, sample, ply).
    pub pos: Option<(usize, usize, usize)>,
    /// `isready` lines the engine will answer (outside CECP each gets one `readyok`).
    pub isready: u64,
}

/// What one line does, as far as the checks are concerned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// The line is a terminal command whose answer is free text (`d`, `eval`, `perft`, …).
    pub free_text: bool,
    /// The line ends the engine.
    pub quits: bool,
    /// A line the fuzzer sends next to undo a setting it must not keep (see
    /// [`BIG_HASH_MB`]).
    pub undo: Option<String>,
}

impl Model {
    /// A fresh engine: terminal mode, Xiangqi.
    pub fn new(games: &[GameInfo]) -> Model {
        Model {
            dialect: Dialect::Terminal,
            game: games.iter().position(|g| g.name == "xiangqi").unwrap_or(0),
            quit: false,
            pos: None,
            isready: 0,
        }
    }

    /// Follows every line in `bytes` (split at `\n` as the engine reads them; a last
    /// piece without a newline is a line too when the input ends after it).
    pub fn observe_bytes(&mut self, bytes: &[u8], games: &[GameInfo]) -> Effect {
        let mut total = Effect::default();
        for piece in bytes.split(|&b| b == b'\n') {
            if self.quit {
                break;
            }
            let e = self.observe(&String::from_utf8_lossy(piece), games);
            total.free_text |= e.free_text;
            total.quits |= e.quits;
            if e.undo.is_some() {
                total.undo = e.undo;
            }
        }
        total
    }

    /// Follows one line as the engine reads it.
    pub fn observe(&mut self, line: &str, games: &[GameInfo]) -> Effect {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut effect = Effect::default();
        let Some((&cmd, args)) = words.split_first() else {
            return effect;
        };
        if self.dialect == Dialect::Cecp {
            match cmd {
                "quit" => {
                    self.quit = true;
                    effect.quits = true;
                    return effect;
                }
                "d" | "display" | "moves" | "eval" | "perft" | "bench" | "help" => {
                    effect.free_text = true;
                    return effect;
                }
                "uci" | "ucci" => {} // handled below, as in every mode
                "variant" => {
                    if let Some(i) = args
                        .first()
                        .and_then(|v| games.iter().position(|g| g.xboard && g.name == *v))
                    {
                        self.game = i;
                    }
                    return effect;
                }
                "cores" => {
                    if let Some(n) = args.first().and_then(|a| a.parse::<u64>().ok()) {
                        if n as i128 > MANY_THREADS as i128 && !many_threads_allowed() {
                            effect.undo = Some("cores 2".to_string());
                        }
                    }
                    return effect;
                }
                "memory" => {
                    if let Some(mb) = args.first().and_then(|a| a.parse::<u64>().ok()) {
                        if mb as i128 > BIG_HASH_MB {
                            effect.undo = Some("memory 16".to_string());
                        }
                    }
                    return effect;
                }
                _ => return effect,
            }
        }
        match cmd {
            "xboard" => self.dialect = Dialect::Cecp,
            "uci" => self.dialect = Dialect::Uci,
            "ucci" => {
                self.dialect = Dialect::Ucci;
                self.select("xiangqi", games);
            }
            "quit" | "exit" => {
                self.quit = true;
                effect.quits = true;
            }
            "d" | "display" | "moves" | "eval" | "result" | "perft" | "bench" | "help" | "?" => {
                effect.free_text = true
            }
            "variant" => {
                effect.free_text = true;
                if let [name] = args {
                    if self.dialect != Dialect::Ucci || name.eq_ignore_ascii_case("xiangqi") {
                        self.select(name, games);
                    }
                }
            }
            "go" => effect.free_text = args.contains(&"perft"),
            "isready" => self.isready += 1,
            "setoption" => self.setoption(args, games, &mut effect),
            _ => {}
        }
        effect
    }

    fn select(&mut self, name: &str, games: &[GameInfo]) {
        if let Some(i) = games.iter().position(|g| g.name.eq_ignore_ascii_case(name)) {
            if i != self.game {
                self.pos = None;
            }
            self.game = i;
        }
    }

    /// `setoption`, parsed as the engine parses it (both forms).
    fn setoption(&mut self, args: &[&str], games: &[GameInfo], effect: &mut Effect) {
        let (name, value) = if args.first().is_some_and(|w| w.eq_ignore_ascii_case("name")) {
            let at = args
                .iter()
                .position(|w| w.eq_ignore_ascii_case("value"))
                .unwrap_or(args.len());
            let value = args.get(at + 1..).map(|v| v.join(" ")).unwrap_or_default();
            (args[1..at].join(" "), value)
        } else if let Some(first) = args.first() {
            (first.to_string(), args[1..].join(" "))
        } else {
            return;
        };
        if name.is_empty() {
            return;
        }
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        match key.as_str() {
            "hash" | "hashsize" if value.trim().parse::<i128>().is_ok_and(|v| v > BIG_HASH_MB) => {
                effect.undo = Some(match self.dialect {
                    Dialect::Ucci => "setoption hashsize 16".to_string(),
                    _ => "setoption name Hash value 16".to_string(),
                });
            }
            "threads"
                if value.trim().parse::<i64>().is_ok_and(|n| n > MANY_THREADS)
                    && !many_threads_allowed() =>
            {
                effect.undo = Some(match self.dialect {
                    Dialect::Ucci => "setoption threads 2".to_string(),
                    _ => "setoption name Threads value 2".to_string(),
                });
            }
            // UCCI batch mode: the engine reads nothing while it thinks, so an infinite
            // search would never end. Only the grammar's batch blocks (bounded searches,
            // see `grammar::batch_block`) may keep it on.
            "batch" => {
                if matches!(
                    value.trim().to_ascii_lowercase().as_str(),
                    "" | "true" | "on" | "1" | "yes"
                ) {
                    effect.undo = Some("setoption batch false".to_string());
                }
            }
            "ucivariant" | "variant" => {
                let v = value.trim();
                if self.dialect != Dialect::Ucci || v.eq_ignore_ascii_case("xiangqi") {
                    self.select(v, games);
                }
            }
            _ => {}
        }
    }
}

/// Reads a number as the engine's `go` parser does (negative → 0, floats truncated).
fn go_number(tok: Option<&&str>) -> Option<u64> {
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

/// Whether a line would start a long synchronous job (a perft deeper than 3, a bench
/// deeper than 1): the engine does it before reading on, as asked, but the fuzzer has
/// no time for it. Such lines are replaced before they are sent.
pub fn too_slow(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.split('\n').any(|piece| {
        let words: Vec<&str> = piece.split_whitespace().collect();
        match words.split_first() {
            Some((&"perft", args)) => args
                .first()
                .and_then(|d| d.parse::<u32>().ok())
                .is_some_and(|d| (4..=12).contains(&d)),
            Some((&"bench", args)) => match args.first().map(|d| d.parse::<i32>()) {
                None => true,
                Some(Ok(d)) => (2..=30).contains(&d),
                Some(Err(_)) => false,
            },
            Some((&"go", args)) => {
                let mut depth = None;
                for (i, w) in args.iter().enumerate() {
                    if *w == "perft" {
                        if let Some(d) = go_number(args.get(i + 1)) {
                            depth = Some(d.min(20));
                        }
                    }
                }
                depth.is_some_and(|d| (4..=12).contains(&d))
            }
            _ => false,
        }
    })
}
