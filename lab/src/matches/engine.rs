//! An engine of the match: what the user said about it ([`EngineSpec`], the
//! `KEY=VALUE` items of `--engine`), and the running engine ([`Engine`]): the start-up
//! handshake, its options, a new game, one search with a hard deadline, and its restart
//! after a crash, a hang or a garbage reply.

use super::process::{IoLog, Process, ReadError};
use super::protocol::{
    go_command, parse_option, parse_reply, split_command, Dialect, GoLimit, Info, OptionDecl,
    Reply, TimeUnit,
};
use super::referee::{xiangqi_from_dialect, xiangqi_to_dialect, Side, Variant};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How an engine failed; the category a forfeit is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It exited, closed its output, or could not be started.
    Crash,
    /// No answer in time.
    Time,
    /// An answer that makes no sense (no move, an unparsable one, a refused variant).
    Protocol,
    /// The runner was interrupted (not the engine's fault; the game is discarded).
    Interrupted,
}

impl Fault {
    /// `crash`, `time`, `protocol`, `interrupted`.
    pub fn name(self) -> &'static str {
        match self {
            Fault::Crash => "crash",
            Fault::Time => "time",
            Fault::Protocol => "protocol",
            Fault::Interrupted => "interrupted",
        }
    }
}

/// An engine failure.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineError {
    /// Its category.
    pub fault: Fault,
    /// What happened, in words.
    pub message: String,
    /// How long the engine had been searching, ms (failures during a search).
    pub elapsed_ms: Option<f64>,
}

impl EngineError {
    fn new(fault: Fault, message: impl Into<String>) -> EngineError {
        EngineError {
            fault,
            message: message.into(),
            elapsed_ms: None,
        }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// How an engine numbers Xiangqi ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// 0 for UCCI; for UCI 1 when its `id name` says Fairy-Stockfish, else 0.
    Auto,
    /// 0-9 (`h2e2`: UCCI, Pikafish, jiang).
    Zero,
    /// 1-10 (`h3e3`: Fairy-Stockfish in UCI).
    One,
}

/// UCCI's time unit as the user asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnitChoice {
    /// Milliseconds when the engine declares `usemillisec` (then sent as `true`);
    /// Fairy-Stockfish 11 (which reads milliseconds without declaring it) by its name;
    /// seconds otherwise.
    Auto,
    /// Milliseconds.
    Millis,
    /// Seconds.
    Seconds,
}

/// An engine as the user describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// Program and arguments (`cmd=`).
    pub command: Vec<String>,
    /// More arguments after them (`arg=`, in order).
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub dialect: Dialect,
    /// Options in the order given, set after the handshake.
    pub options: Vec<(String, String)>,
    /// Xiangqi rank numbering.
    pub ranks: Ranks,
    /// UCCI time unit.
    pub time_unit: TimeUnitChoice,
    /// UCCI fixed time per move as `go movetime` (`movetime=native`) instead of
    /// `go time T movestogo 1`.
    pub native_movetime: bool,
    /// A fresh process for every game.
    pub restart: bool,
}

impl Default for EngineSpec {
    fn default() -> Self {
        EngineSpec {
            name: String::new(),
            command: Vec::new(),
            args: Vec::new(),
            dir: None,
            dialect: Dialect::Uci,
            options: Vec::new(),
            ranks: Ranks::Auto,
            time_unit: TimeUnitChoice::Auto,
            native_movetime: false,
            restart: false,
        }
    }
}

/// The `KEY=VALUE` items an engine takes.
pub const ENGINE_KEYS: &str = "name=, cmd= (shell-quoted command), arg= (one more argument, \
    repeatable), dir=, proto=uci|ucci, option.NAME=VALUE (option.NAME= for a button), \
    ranks=auto|0|1, timeunit=auto|ms|s (UCCI), movetime=time|native (UCCI), restart=on|off";

impl EngineSpec {
    /// Reads `name=A cmd="/path/eng --x" proto=ucci option.Hash=64 ...` on top of
    /// `base` (the `--each` items).
    pub fn parse(items: &[String], base: &EngineSpec) -> Result<EngineSpec, String> {
        let mut spec = base.clone();
        for item in items {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{item}' is not KEY=VALUE"))?;
            match key.to_ascii_lowercase().as_str() {
                "name" => spec.name = value.to_string(),
                "cmd" => spec.command = split_command(value)?,
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.dialect = Dialect::from_name(value)
                        .ok_or_else(|| format!("unknown protocol '{value}' (uci, ucci)"))?
                }
                "ranks" => {
                    spec.ranks = match value {
                        "auto" => Ranks::Auto,
                        "0" => Ranks::Zero,
                        "1" => Ranks::One,
                        _ => return Err("ranks must be auto, 0 or 1".into()),
                    }
                }
                "timeunit" => {
                    spec.time_unit = match value {
                        "auto" => TimeUnitChoice::Auto,
                        "ms" => TimeUnitChoice::Millis,
                        "s" => TimeUnitChoice::Seconds,
                        _ => return Err("timeunit must be auto, ms or s".into()),
                    }
                }
                "movetime" => {
                    spec.native_movetime = match value {
                        "time" => false,
                        "native" => true,
                        _ => return Err("movetime must be time or native".into()),
                    }
                }
                "restart" => {
                    spec.restart = matches!(
                        value.to_ascii_lowercase().as_str(),
                        "1" | "on" | "true" | "yes"
                    )
                }
                k if k.starts_with("option.") => {
                    let name = &key["option.".len()..];
                    if name.is_empty() {
                        return Err(format!("'{item}': option. needs a name"));
                    }
                    spec.options.retain(|(n, _)| n != name);
                    spec.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "unknown engine setting '{key}' (known: {ENGINE_KEYS})"
                    ))
                }
            }
        }
        Ok(spec)
    }

    /// The command line run: `cmd=`'s words, then the `arg=`s.
    pub fn argv(&self) -> Vec<String> {
        self.command.iter().chain(&self.args).cloned().collect()
    }
}

/// Timeouts of the engine's life besides the searches.
#[derive(Clone, Copy, Debug)]
pub struct EngineSettings {
    /// The handshake (`uci` to `uciok`, options, `isready`).
    pub startup: Duration,
    /// `isready` at a new game.
    pub ready: Duration,
    /// After a search's deadline: how long to wait for the move after `stop` before the
    /// process is killed.
    pub stop_grace: Duration,
    /// After `quit`.
    pub quit_grace: Duration,
    /// The game played.
    pub variant: Variant,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            startup: Duration::from_secs(10),
            ready: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
            quit_grace: Duration::from_secs(1),
            variant: Variant::Xiangqi,
        }
    }
}

/// One search's answer.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move (canonical notation) or the raw text it could not be read from;
    /// `None`: no move (`nobestmove`, `bestmove (none)`).
    pub mv: Option<String>,
    /// The move as the engine wrote it.
    pub raw: Option<String>,
    /// Time from `go` to the reply, ms (measured by the runner).
    pub elapsed_ms: f64,
    /// The engine's last `info` fields.
    pub info: Info,
    /// Words after the move (`resign`, `draw`).
    pub flags: Vec<String>,
    /// The reply line.
    pub line: String,
}

/// A running (or restartable) engine.
pub struct Engine {
    /// What the user said.
    pub spec: EngineSpec,
    settings: EngineSettings,
    log: Option<Arc<IoLog>>,
    label: String,
    process: Option<Process>,
    /// The engine's `id name`.
    pub id_name: Option<String>,
    /// The options it declared.
    pub declared: Vec<OptionDecl>,
    /// Notes for the header line (`auto: UCI_Variant=xiangqi`, the UCCI time unit).
    pub notes: Vec<String>,
    rank_base: u8,
    unit: TimeUnit,
    needs_restart: bool,
    /// Processes started so far.
    pub starts: u32,
}

impl Engine {
    /// An engine not started yet; `label` names it in the I/O log (`jiang#0`).
    pub fn new(
        spec: EngineSpec,
        settings: EngineSettings,
        log: Option<Arc<IoLog>>,
        label: &str,
    ) -> Engine {
        Engine {
            spec,
            settings,
            log,
            label: label.to_string(),
            process: None,
            id_name: None,
            declared: Vec::new(),
            notes: Vec::new(),
            rank_base: 0,
            unit: TimeUnit::Millis,
            needs_restart: false,
            starts: 0,
        }
    }

    /// The Xiangqi rank numbering in use (0 or 1).
    pub fn rank_base(&self) -> u8 {
        self.rank_base
    }

    /// The declared option `name` (case-insensitive).
    pub fn declared_option(&self, name: &str) -> Option<&OptionDecl> {
        self.declared
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// The engine's spelling of option `name` (or an alias of it), `name` itself when it
    /// declares no such option.
    fn resolve(&self, name: &str) -> String {
        std::iter::once(name)
            .chain(self.spec.dialect.aliases(name).iter().copied())
            .find_map(|n| self.declared_option(n).map(|d| d.name.clone()))
            .unwrap_or_else(|| name.to_string())
    }

    fn process(&mut self) -> Result<&mut Process, EngineError> {
        self.process
            .as_mut()
            .ok_or_else(|| EngineError::new(Fault::Crash, "engine not running"))
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let p = self.process()?;
        match p.send(line) {
            Ok(()) => Ok(()),
            Err(e) => {
                let note = p.exit_note();
                self.needs_restart = true;
                Err(EngineError::new(Fault::Crash, format!("{e}{note}")))
            }
        }
    }

    /// The next line before `deadline`; a timeout says `what` was awaited.
    fn read(&mut self, deadline: Instant, what: &str) -> Result<(Instant, String), EngineError> {
        let p = self.process()?;
        match p.read_line(deadline) {
            Ok(l) => Ok(l),
            Err(ReadError::Timeout) => {
                Err(EngineError::new(Fault::Time, format!("no {what} in time")))
            }
            Err(ReadError::Interrupted) => Err(EngineError::new(Fault::Interrupted, "interrupted")),
            Err(ReadError::Closed) => {
                let note = p.exit_note();
                self.needs_restart = true;
                Err(EngineError::new(
                    Fault::Crash,
                    format!("engine exited{note}"),
                ))
            }
        }
    }

    /// Starts a fresh process: handshake, options, `isready`. A failure leaves it
    /// stopped.
    pub fn start(&mut self) -> Result<(), EngineError> {
        self.stop();
        self.needs_restart = false;
        self.notes.clear();
        self.declared.clear();
        self.starts += 1;
        let process = Process::start(
            &self.spec.argv(),
            self.spec.dir.as_deref(),
            &self.label,
            self.log.clone(),
        )
        .map_err(|e| EngineError::new(Fault::Crash, e))?;
        self.process = Some(process);
        let result = self.handshake();
        if result.is_err() {
            self.kill();
        }
        result
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        let (hello, ok) = self.spec.dialect.hello();
        self.send(hello)?;
        let deadline = Instant::now() + self.settings.startup;
        loop {
            let (_, line) = self.read(deadline, ok).map_err(|e| match e.fault {
                Fault::Time => EngineError::new(
                    Fault::Time,
                    format!(
                        "no '{ok}' within {} ms of '{hello}'",
                        self.settings.startup.as_millis()
                    ),
                ),
                _ => e,
            })?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some(w) if w == ok => break,
                Some("id") if words.get(1) == Some(&"name") => {
                    self.id_name = line
                        .split_once("name")
                        .map(|(_, rest)| rest.trim().to_string());
                }
                Some("option") => {
                    if let Some(d) = parse_option(&line) {
                        self.declared.push(d);
                    }
                }
                _ => {}
            }
        }
        let fairy_stockfish = self
            .id_name
            .as_deref()
            .is_some_and(|n| n.to_ascii_lowercase().contains("fairy-stockfish"));
        self.rank_base = match (self.settings.variant.has_rank_dialects(), self.spec.ranks) {
            (false, _) => 0,
            (true, Ranks::Zero) => 0,
            (true, Ranks::One) => 1,
            (true, Ranks::Auto) => u8::from(self.spec.dialect == Dialect::Uci && fairy_stockfish),
        };
        self.configure(fairy_stockfish)?;
        self.sync(self.settings.startup)
    }

    /// The options: the UCCI time unit, the game (`UCI_Variant`), then the user's.
    fn configure(&mut self, fairy_stockfish: bool) -> Result<(), EngineError> {
        let dialect = self.spec.dialect;
        let user_has = |name: &str, spec: &EngineSpec| {
            spec.options
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case(name))
        };
        if dialect == Dialect::Ucci {
            let user_ms = self
                .spec
                .options
                .iter()
                .rev()
                .find(|(n, _)| n.eq_ignore_ascii_case("usemillisec"))
                .map(|(_, v)| {
                    matches!(v.to_ascii_lowercase().as_str(), "true" | "on" | "1" | "yes")
                });
            let declares = self.declared_option("usemillisec").is_some();
            let unit = match (self.spec.time_unit, user_ms) {
                (TimeUnitChoice::Auto, Some(ms)) => {
                    if ms {
                        TimeUnit::Millis
                    } else {
                        TimeUnit::Seconds
                    }
                }
                (choice, _) if declares => {
                    let ms = choice != TimeUnitChoice::Seconds;
                    let name = self.resolve("usemillisec");
                    self.send(&dialect.set_option(&name, if ms { "true" } else { "false" }))?;
                    if ms {
                        TimeUnit::Millis
                    } else {
                        TimeUnit::Seconds
                    }
                }
                (TimeUnitChoice::Millis, _) => TimeUnit::Millis,
                (TimeUnitChoice::Seconds, _) => TimeUnit::Seconds,
                (TimeUnitChoice::Auto, None) => {
                    if fairy_stockfish {
                        TimeUnit::Millis
                    } else {
                        TimeUnit::Seconds
                    }
                }
            };
            self.unit = unit;
            self.notes.push(format!(
                "ucci time unit: {}",
                if unit == TimeUnit::Millis { "ms" } else { "s" }
            ));
        }
        let game = self.settings.variant.name();
        if !user_has("UCI_Variant", &self.spec) {
            match self.declared_option("UCI_Variant").cloned() {
                Some(d) if d.vars.is_empty() || d.vars.iter().any(|v| v == game) => {
                    self.send(&dialect.set_option(&d.name, game))?;
                    self.notes.push(format!("auto: UCI_Variant={game}"));
                }
                Some(_) if self.settings.variant != Variant::Xiangqi => {
                    return Err(EngineError::new(
                        Fault::Protocol,
                        format!(
                            "engine {} cannot play {game}: its UCI_Variant option does not list it",
                            self.spec.name
                        ),
                    ));
                }
                None if self.settings.variant != Variant::Xiangqi => {
                    return Err(EngineError::new(
                        Fault::Protocol,
                        format!(
                            "engine {} cannot play {game}: it declares no UCI_Variant option",
                            self.spec.name
                        ),
                    ));
                }
                _ => {}
            }
        }
        let options = self.spec.options.clone();
        for (name, value) in &options {
            let name = self.resolve(name);
            self.send(&dialect.set_option(&name, value))?;
        }
        Ok(())
    }

    /// `isready`, waiting up to `timeout` for `readyok`.
    fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.read(deadline, "readyok").map_err(|e| match e.fault {
                Fault::Time => EngineError::new(
                    Fault::Time,
                    format!("no 'readyok' within {} ms", timeout.as_millis()),
                ),
                _ => e,
            })?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Starts the engine if it is not running (or must be restarted).
    pub fn ensure_started(&mut self) -> Result<(), EngineError> {
        let running = self.process.as_ref().is_some_and(Process::alive);
        if !running || self.needs_restart {
            self.start()?;
        }
        Ok(())
    }

    /// Prepares a game: a fresh process with `restart=on`, then `ucinewgame` (UCCI:
    /// `setoption newgame` where declared) and `isready`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        if self.spec.restart {
            self.needs_restart = true;
        }
        self.ensure_started()?;
        let result = match self.spec.dialect {
            Dialect::Uci => self.send("ucinewgame"),
            Dialect::Ucci => match self.declared_option("newgame").map(|d| d.name.clone()) {
                Some(name) => self.send(&Dialect::Ucci.set_option(&name, "")),
                None => Ok(()),
            },
        }
        .and_then(|()| self.sync(self.settings.ready));
        if result.is_err() {
            self.kill();
        }
        result
    }

    /// Sets options between games (`setoption`, then `isready`): what the tuner changes.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        self.ensure_started()?;
        let dialect = self.spec.dialect;
        for (name, value) in options {
            let name = self.resolve(name);
            self.send(&dialect.set_option(&name, value))?;
        }
        let result = self.sync(self.settings.ready);
        if result.is_err() {
            self.kill();
        }
        result
    }

    /// A canonical move in the engine's notation.
    pub fn to_engine(&self, canonical: &str) -> String {
        xiangqi_to_dialect(canonical, self.rank_base)
    }

    /// An engine's move in canonical notation where the game has rank dialects (`None`
    /// when it is not move-shaped); other games' moves as written.
    pub fn from_engine(&self, text: &str) -> Option<String> {
        if self.settings.variant.has_rank_dialects() {
            xiangqi_from_dialect(text, self.rank_base)
        } else {
            Some(text.to_string())
        }
    }

    /// The move read with the other rank numbering, for the illegal-move message.
    pub fn other_dialect(&self, text: &str) -> Option<String> {
        if self.settings.variant.has_rank_dialects() {
            xiangqi_from_dialect(text, 1 - self.rank_base)
        } else {
            None
        }
    }

    /// Searches the position after `moves` from `start_fen` (Xiangqi moves canonical,
    /// converted here) with `limit`, `side` to move. No reply within `hard_ms` is a time
    /// failure: then `stop` is sent and the move awaited for the stop grace, so that the
    /// process can be used again; otherwise it is killed.
    pub fn search(
        &mut self,
        start_fen: &str,
        moves: &[String],
        side: Side,
        limit: &GoLimit,
        hard_ms: f64,
    ) -> Result<SearchResult, EngineError> {
        let stale = self.process()?.drain();
        if stale > 0 {
            if let Some(l) = &self.log {
                l.write(
                    &self.label,
                    "**",
                    &format!("discarded {stale} stale line(s)"),
                );
            }
        }
        let mut position = format!("position fen {start_fen}");
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&self.to_engine(m));
            }
        }
        let go = go_command(
            self.spec.dialect,
            limit,
            side == Side::Red,
            self.unit,
            self.spec.native_movetime,
        );
        self.send(&position)?;
        self.send(&go)?;
        let t0 = Instant::now();
        let deadline = t0 + Duration::from_secs_f64(hard_ms.max(0.0) / 1000.0);
        let mut info = Info::default();
        loop {
            let (t, line) = match self.read(deadline, "move") {
                Ok(l) => l,
                Err(mut e) => {
                    e.elapsed_ms = Some(t0.elapsed().as_secs_f64() * 1000.0);
                    if e.fault == Fault::Time {
                        self.recover_after_timeout();
                        e.message = format!("no move within {hard_ms:.0} ms");
                    }
                    return Err(e);
                }
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.first() == Some(&"info") {
                info.merge(&words);
                continue;
            }
            let Some(reply) = parse_reply(&words) else {
                continue; // debug output and the like
            };
            let elapsed_ms = t.saturating_duration_since(t0).as_secs_f64() * 1000.0;
            return Ok(match reply {
                Reply::NoMove => SearchResult {
                    mv: None,
                    raw: None,
                    elapsed_ms,
                    info,
                    flags: Vec::new(),
                    line,
                },
                Reply::Move { text, flags } => SearchResult {
                    mv: self.from_engine(&text),
                    raw: Some(text),
                    elapsed_ms,
                    info,
                    flags,
                    line,
                },
            });
        }
    }

    /// After a deadline: `stop`, then the move within the stop grace, or the process is
    /// killed (and restarted before the next game).
    fn recover_after_timeout(&mut self) {
        let grace = self.settings.stop_grace;
        if self.send("stop").is_ok() {
            let deadline = Instant::now() + grace;
            while let Ok((_, line)) = self.read(deadline, "move after stop") {
                let first = line.split_whitespace().next();
                if matches!(first, Some("bestmove") | Some("nobestmove")) {
                    return;
                }
            }
        }
        self.kill();
    }

    /// Marks the engine for a restart before its next game (after a garbage reply).
    pub fn mark_for_restart(&mut self) {
        self.needs_restart = true;
    }

    /// Kills the process (it is started again when needed).
    pub fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.needs_restart = true;
    }

    /// Quits politely (`quit`, the quit grace), then kills what is left.
    pub fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.close("quit", self.settings.quit_grace);
        }
    }

    /// The process id while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn engine_items_are_read_on_top_of_each() {
        let each = EngineSpec::parse(
            &items(&["option.Hash=16", "proto=ucci", "arg=--each"]),
            &EngineSpec::default(),
        )
        .unwrap();
        let spec = EngineSpec::parse(
            &items(&[
                "name=A",
                "cmd=/opt/my engine' --x'",
                "arg=--y",
                "option.Skill Level=5",
                "option.Hash=32",
                "ranks=1",
                "restart=on",
            ]),
            &each,
        )
        .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.argv(), ["/opt/my", "engine --x", "--each", "--y"]);
        assert_eq!(spec.dialect, Dialect::Ucci);
        assert_eq!(
            spec.options,
            [
                ("Skill Level".to_string(), "5".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
        assert_eq!((spec.ranks, spec.restart), (Ranks::One, true));
        for bad in [
            "proto=xboard",
            "ranks=2",
            "colour=red",
            "novalue",
            "option.=1",
        ] {
            assert!(EngineSpec::parse(&items(&[bad]), &each).is_err(), "{bad}");
        }
    }
}
