//! A pipe harness around the real `jiang` binary, the way a GUI drives it: piped
//! stdin/stdout/stderr, a reader thread that forwards stdout lines through a channel, and
//! waits that always have a timeout. Every line sent and received is kept in a transcript
//! (with milliseconds since start) that failures print. The child is killed on drop.
//!
//! Include it with `#[path = "common/engine.rs"] mod engine;` (it is independent of
//! `common/mod.rs`).
//!
//! Another build of the engine can be driven instead of cargo's: `JIANG_TEST_EXE` names
//! the binary and `JIANG_TEST_RUNNER` a program that runs it (given the binary and then
//! its arguments), as the Windows CI runs the GUI tests on `jiang.exe` under Wine:
//! `JIANG_TEST_EXE=target/x86_64-pc-windows-gnu/release/jiang.exe
//! JIANG_TEST_RUNNER=tests/windows/wine-jiang.sh cargo test --release --test gui`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    transcript: Vec<String>,
    start: Instant,
    /// Set once stdout reached end of file.
    stdout_closed: bool,
}

impl Engine {
    /// Starts the engine under test: the binary built by cargo for this test run, or
    /// `JIANG_TEST_EXE` (see the module's documentation).
    pub fn start() -> Engine {
        Engine::start_program(&test_exe())
    }

    /// Starts the engine binary at `program` (e.g. a copy kept for a long soak), through
    /// `JIANG_TEST_RUNNER` when that is set.
    pub fn start_program(program: &str) -> Engine {
        Engine::spawn(program, None)
    }

    /// As [`Engine::start_program`], in the working directory `dir` (a GUI's own).
    pub fn start_program_in(program: &str, dir: &std::path::Path) -> Engine {
        Engine::spawn(program, Some(dir))
    }

    fn spawn(program: &str, dir: Option<&std::path::Path>) -> Engine {
        // Absolute paths: a relative one would be read from `dir` on some platforms.
        let absolute =
            |p: &str| std::fs::canonicalize(p).unwrap_or_else(|e| panic!("cannot find {p}: {e}"));
        let mut command = match std::env::var("JIANG_TEST_RUNNER") {
            Ok(runner) if !runner.is_empty() => {
                let mut c = Command::new(absolute(&runner));
                c.arg(absolute(program));
                c
            }
            _ => Command::new(absolute(program)),
        };
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("RUST_LOG", "warn");
        // A test that copies the binary (the GUI install tests) can meet "text file busy":
        // a child another test thread forks while the copy is open for writing holds the
        // file until it execs. That passes in milliseconds; wait and try again.
        let mut tries = 0;
        let mut child = loop {
            match command.spawn() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                spawned => break spawned.expect("cannot start the jiang binary"),
            }
        };
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            stderr,
            transcript: Vec::new(),
            start: Instant::now(),
            stdout_closed: false,
        }
    }

    fn stamp(&self) -> String {
        format!("{:>6}", self.start.elapsed().as_millis())
    }

    fn note(&mut self, dir: &str, text: &str) {
        let mut shown: String = text.chars().take(300).collect();
        if text.chars().count() > 300 {
            shown.push_str(&format!("… ({} bytes)", text.len()));
        }
        let stamp = self.stamp();
        self.transcript.push(format!("{stamp} {dir} {shown}"));
    }

    /// The transcript so far plus stderr, for failure messages.
    pub fn transcript(&self) -> String {
        let err = self.stderr();
        format!(
            "---- transcript (ms, > sent, < received) ----\n{}\n---- stderr ----\n{}\n----",
            self.transcript.join("\n"),
            err
        )
    }

    /// Forgets the transcript so far (a long-lived engine, e.g. between soak games).
    pub fn clear_transcript(&mut self) {
        self.transcript.clear();
    }

    /// Everything the engine wrote to stderr so far.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Panics with `msg` and the transcript.
    #[track_caller]
    pub fn fail(&self, msg: &str) -> ! {
        panic!("{msg}\n{}", self.transcript());
    }

    /// Sends one line (a newline is added).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.note(">", line);
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_bytes(&bytes);
    }

    /// Sends raw bytes (no newline added), e.g. invalid UTF-8.
    #[track_caller]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        self.note(
            ">",
            &format!("(raw) {}", text.strip_suffix('\n').unwrap_or(&text)),
        );
        self.write_bytes(bytes);
    }

    #[track_caller]
    fn write_bytes(&mut self, bytes: &[u8]) {
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("send after stdin was closed");
        };
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            self.fail(&format!("cannot write to the engine: {e}"));
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.note(">", "(EOF)");
        self.stdin = None;
    }

    /// The next line within `timeout`, or `None` (stdout closed or timed out).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        if self.stdout_closed {
            return None;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.note("<", &line);
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.stdout_closed = true;
                self.note("<", "(stdout closed)");
                None
            }
        }
    }

    /// Reads lines until one satisfies `pred`, which is returned; panics with the
    /// transcript after `timeout` or when stdout closes.
    #[track_caller]
    pub fn expect_line(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        self.read_while_waiting(what, timeout, pred).pop().unwrap()
    }

    /// Reads lines until one satisfies `pred`; returns all of them, the match last.
    #[track_caller]
    pub fn read_while_waiting(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = pred(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None if self.stdout_closed => {
                    self.fail(&format!("stdout closed while waiting for {what}"))
                }
                None => self.fail(&format!("no {what} within {} ms", timeout.as_millis())),
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns all of them, the match last.
    #[track_caller]
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.read_while_waiting(&format!("line starting with '{prefix}'"), timeout, |l| {
            l.starts_with(prefix)
        })
    }

    /// Collects whatever arrives during `duration` (stops early if stdout closes).
    pub fn drain(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut seen = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    /// The first word of `bestmove X …` (the move text, or `(none)`), waiting up to
    /// `timeout`; also returns the lines read before it.
    #[track_caller]
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.read_while_waiting("bestmove", timeout, |l| {
            l.starts_with("bestmove") || l == "nobestmove"
        });
        let last = lines.last().unwrap();
        if last == "nobestmove" {
            self.fail("expected bestmove, got nobestmove");
        }
        let mv = last.split_whitespace().nth(1).unwrap_or("").to_string();
        (mv, lines)
    }

    /// `isready` → `readyok` within `timeout`; returns the lines before `readyok`.
    #[track_caller]
    pub fn sync(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_while_waiting("readyok", timeout, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Waits for the process to exit.
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.note("=", &format!("(exited: {status})"));
                    return status;
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => self.fail(&format!(
                    "process still running {} ms after the request to exit",
                    timeout.as_millis()
                )),
                Err(e) => self.fail(&format!("wait failed: {e}")),
            }
        }
    }

    /// The process id (for a watchdog that must kill a stuck engine from another thread).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether stdout has reached end of file.
    pub fn stdout_closed(&self) -> bool {
        self.stdout_closed
    }

    /// The exit status if the process has ended (without waiting).
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Milliseconds since the engine was started (for latency notes).
    pub fn elapsed_ms(&self) -> u128 {
        self.start.elapsed().as_millis()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine binary the tests drive: `JIANG_TEST_EXE`, else the one cargo built.
pub fn test_exe() -> String {
    match std::env::var("JIANG_TEST_EXE") {
        Ok(exe) if !exe.is_empty() => exe,
        _ => env!("CARGO_BIN_EXE_jiang").to_string(),
    }
}

/// Milliseconds as a `Duration`.
pub fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// Generous wait for anything that is not a timing assertion.
pub const SLOW: Duration = Duration::from_secs(10);

/// A position from a FEN (or the start) and a move list, built with the library.
pub fn position(fen: Option<&str>, moves: &[&str]) -> jiang::xiangqi::Position {
    let mut pos = match fen {
        Some(f) => jiang::xiangqi::Position::from_fen(f)
            .unwrap_or_else(|e| panic!("bad test FEN {f}: {e:?}")),
        None => jiang::xiangqi::Position::startpos(),
    };
    for m in moves {
        play(&mut pos, m);
    }
    pos
}

/// Plays a move the test knows to be legal.
pub fn play(pos: &mut jiang::xiangqi::Position, m: &str) {
    let mv = pos
        .parse_legal_move(m)
        .unwrap_or_else(|e| panic!("test move {m} illegal: {e:?}"));
    pos.make_move(mv);
}

/// Asserts that `mv` (as the engine printed it) is legal in `pos`.
#[track_caller]
pub fn assert_legal(e: &Engine, pos: &jiang::xiangqi::Position, mv: &str) {
    match pos.parse_legal_move(mv) {
        Ok(m) if pos.legal_moves().contains(m) => {}
        _ => e.fail(&format!("move '{mv}' is not legal in {}", pos.to_fen())),
    }
}

/// Fails if the engine's stderr shows a panic.
#[track_caller]
pub fn assert_no_panic(e: &Engine) {
    if e.stderr().contains("panicked") {
        e.fail("the engine panicked");
    }
}
