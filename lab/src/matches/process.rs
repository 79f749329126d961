//! One engine process: its pipes, the lines it writes (read by threads of their own, so a
//! pipe never blocks the runner, each line stamped with the time it arrived), and the ways
//! it ends.
//!
//! On Unix every engine runs in a process group of its own (`process_group(0)`), so that
//! killing it also ends the processes it started itself (a wrapper script's engine). The
//! group is signalled once, before the engine is reaped or right after (while any process
//! of the group lives, its id is not given to another process). The runner's own SIGINT, SIGTERM and SIGHUP set a flag ([`interrupted`])
//! that every wait checks, so an interrupted match kills its engines and still writes the
//! games it finished.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line kept whole; a longer one is cut into pieces of this size.
const MAX_LINE: usize = 1 << 20;
/// Lines of stderr kept for the messages about a crash.
const STDERR_LINES: usize = 30;
/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether the runner was asked to stop (SIGINT, SIGTERM, SIGHUP, or [`interrupt`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Asks every wait to give up, as a signal does.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Makes SIGINT, SIGTERM and SIGHUP set the interrupt flag instead of ending the runner
/// at once (the engines, in process groups of their own, would live on).
pub fn catch_signals() {
    os::catch_signals();
}

/// A transcript of all engine input and output (`--log FILE`), shared by the threads.
pub struct IoLog {
    file: Mutex<File>,
    start: Instant,
}

impl IoLog {
    /// Appends to `path`.
    pub fn open(path: &Path) -> std::io::Result<IoLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(IoLog {
            file: Mutex::new(file),
            start: Instant::now(),
        })
    }

    /// One line: seconds since the start, the engine's label, `>` sent, `<` received,
    /// `E` its stderr, `**` the runner's note.
    pub fn write(&self, label: &str, direction: &str, text: &str) {
        if let Ok(mut f) = self.file.lock() {
            let t = self.start.elapsed().as_secs_f64();
            let _ = writeln!(f, "{t:10.3} {label} {direction} {text}");
        }
    }
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited, or crashed).
    Closed,
    /// The runner was interrupted.
    Interrupted,
}

enum Event {
    Line(Instant, String),
    Eof,
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    eof: bool,
    status: Option<ExitStatus>,
    group_signalled: bool,
    label: String,
    log: Option<Arc<IoLog>>,
}

impl Process {
    /// Starts `argv` (in `dir` if given) with piped stdin, stdout and stderr.
    pub fn start(
        argv: &[String],
        dir: Option<&Path>,
        label: &str,
        log: Option<Arc<IoLog>>,
    ) -> Result<Process, String> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| "empty command".to_string())?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        os::own_group(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", argv.join(" ")))?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(out) = child.stdout.take() {
            let log = log.clone();
            let label = label.to_string();
            thread::spawn(move || {
                split_lines(out, |line| {
                    if let Some(l) = &log {
                        l.write(&label, "<", &line);
                    }
                    let _ = tx.send(Event::Line(Instant::now(), line));
                });
                let _ = tx.send(Event::Eof);
            });
        }
        if let Some(err) = child.stderr.take() {
            let log = log.clone();
            let label = label.to_string();
            let tail = Arc::clone(&stderr_tail);
            thread::spawn(move || {
                split_lines(err, |line| {
                    if let Some(l) = &log {
                        l.write(&label, "E", &line);
                    }
                    if let Ok(mut t) = tail.lock() {
                        if t.len() == STDERR_LINES {
                            t.pop_front();
                        }
                        t.push_back(line);
                    }
                });
            });
        }
        if let Some(l) = &log {
            l.write(
                label,
                "**",
                &format!("started pid {}: {}", child.id(), argv.join(" ")),
            );
        }
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stderr_tail,
            eof: false,
            status: None,
            group_signalled: false,
            label: label.to_string(),
            log,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(l) = &self.log {
            l.write(&self.label, ">", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err("engine stdin closed".into());
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("engine stdin closed ({e})"))
    }

    /// The next line and when it arrived, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(Instant, String), ReadError> {
        if self.eof {
            return Err(ReadError::Closed);
        }
        loop {
            if interrupted() {
                return Err(ReadError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line already waiting still counts.
                return match self.lines.try_recv() {
                    Ok(Event::Line(t, l)) => Ok((t, l)),
                    Ok(Event::Eof) | Err(mpsc::TryRecvError::Disconnected) => {
                        self.eof = true;
                        Err(ReadError::Closed)
                    }
                    Err(mpsc::TryRecvError::Empty) => Err(ReadError::Timeout),
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(t, l)) => return Ok((t, l)),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    return Err(ReadError::Closed);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Throws away the lines already received (late output of an earlier search); returns
    /// how many.
    pub fn drain(&mut self) -> usize {
        let mut n = 0;
        loop {
            match self.lines.try_recv() {
                Ok(Event::Line(..)) => n += 1,
                Ok(Event::Eof) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.eof = true;
                    return n;
                }
                Err(mpsc::TryRecvError::Empty) => return n,
            }
        }
    }

    /// Whether the engine's output is still open.
    pub fn alive(&self) -> bool {
        !self.eof && self.status.is_none()
    }

    /// The last `n` lines of its stderr.
    pub fn stderr_tail(&self, n: usize) -> Vec<String> {
        match self.stderr_tail.lock() {
            Ok(t) => t.iter().skip(t.len().saturating_sub(n)).cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// How the process ended, for a message: ` (exit code 1); stderr: a | b`. Kills it
    /// first if it still runs (a process that closed its output is of no use).
    pub fn exit_note(&mut self) -> String {
        // Give a process that is exiting a moment, so that its own status is read.
        let until = Instant::now() + Duration::from_millis(200);
        while self.status.is_none() && Instant::now() < until && self.eof {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.status = Some(s);
            } else {
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
        let mut note = match self.status {
            Some(s) => os::describe_status(s),
            None => String::new(),
        };
        let tail = self.stderr_tail(3);
        if !tail.is_empty() {
            note.push_str("; stderr: ");
            note.push_str(&tail.join(" | "));
        }
        note
    }

    /// Kills the engine and every process of its group, and reaps it.
    pub fn kill(&mut self) {
        if !self.group_signalled {
            self.group_signalled = true;
            os::kill_group(&mut self.child);
        }
        if self.status.is_none() {
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
            if let Some(l) = &self.log {
                l.write(
                    &self.label,
                    "**",
                    &format!("killed process group {}", self.child.id()),
                );
            }
        }
        self.stdin = None;
    }

    /// Polite end: `quit_command`, up to `grace` for the engine to close its output, then
    /// [`Process::kill`] for whatever is left of its group.
    pub fn close(&mut self, quit_command: &str, grace: Duration) {
        if self.alive() {
            let _ = self.send(quit_command);
            self.stdin = None;
            let deadline = Instant::now() + grace;
            while !self.eof && Instant::now() < deadline {
                match self.read_line(deadline) {
                    Ok(_) => {}
                    Err(ReadError::Interrupted) => break,
                    Err(_) => {}
                }
            }
            let until = Instant::now() + grace.min(Duration::from_millis(500));
            while self.status.is_none() && Instant::now() < until {
                match self.child.try_wait() {
                    Ok(Some(s)) => self.status = Some(s),
                    _ => thread::sleep(Duration::from_millis(10)),
                }
            }
        }
        self.kill();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads `stream` to its end, handing each line (without `\n` and `\r`, invalid UTF-8
/// replaced) to `on_line`.
fn split_lines(mut stream: impl Read, mut on_line: impl FnMut(String)) {
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 65536];
    let emit = |bytes: &[u8], on_line: &mut dyn FnMut(String)| {
        let text = String::from_utf8_lossy(bytes);
        on_line(text.trim_end_matches('\r').to_string());
    };
    loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        buf.extend_from_slice(&chunk[..n]);
        let mut start = 0;
        while let Some(i) = buf[start..].iter().position(|&b| b == b'\n') {
            emit(&buf[start..start + i], &mut on_line);
            start += i + 1;
        }
        buf.drain(..start);
        if buf.len() > MAX_LINE {
            emit(&buf, &mut on_line);
            buf.clear();
        }
    }
    if !buf.is_empty() {
        emit(&buf, &mut on_line);
    }
}

#[cfg(unix)]
mod os {
    //! Process groups and signals through the C library every Unix program links.
    use std::os::raw::c_int;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Child, Command, ExitStatus};

    const SIGHUP: c_int = 1;
    const SIGINT: c_int = 2;
    const SIGKILL: c_int = 9;
    const SIGTERM: c_int = 15;

    extern "C" {
        fn kill(pid: c_int, sig: c_int) -> c_int;
        fn signal(signum: c_int, handler: usize) -> usize;
    }

    extern "C" fn on_signal(_: c_int) {
        // Async-signal-safe: an atomic store.
        super::interrupt();
    }

    pub fn own_group(cmd: &mut Command) {
        cmd.process_group(0);
    }

    /// SIGKILL to the child's process group (its id is the child's pid).
    pub fn kill_group(child: &mut Child) {
        if let Ok(pid) = c_int::try_from(child.id()) {
            if pid > 1 {
                // SAFETY: kill(2) with a negative pid signals that process group; it
                // touches no memory of ours.
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
    }

    pub fn catch_signals() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            // SAFETY: installs a handler that only stores to an atomic.
            unsafe {
                signal(sig, on_signal as extern "C" fn(c_int) as usize);
            }
        }
    }

    pub fn describe_status(s: ExitStatus) -> String {
        if let Some(code) = s.code() {
            return format!(" (exit code {code})");
        }
        match s.signal() {
            Some(sig) => {
                let name = match sig {
                    1 => "SIGHUP".to_string(),
                    2 => "SIGINT".to_string(),
                    6 => "SIGABRT".to_string(),
                    9 => "SIGKILL".to_string(),
                    11 => "SIGSEGV".to_string(),
                    15 => "SIGTERM".to_string(),
                    n => format!("signal {n}"),
                };
                format!(" (killed by {name})")
            }
            None => String::new(),
        }
    }
}

#[cfg(not(unix))]
mod os {
    use std::process::{Child, Command, ExitStatus};

    pub fn own_group(_: &mut Command) {}

    pub fn kill_group(_: &mut Child) {}

    pub fn catch_signals() {}

    pub fn describe_status(s: ExitStatus) -> String {
        match s.code() {
            Some(code) => format!(" (exit code {code})"),
            None => String::new(),
        }
    }
}
