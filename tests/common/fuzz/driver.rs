//! Runs fuzz sessions against the real binary and checks the engine after each batch.
//!
//! A session: a fresh engine, a dialect (its handshake or none), then batches of 1-60
//! lines sent without waiting (so they interleave with running searches). After each
//! batch the engine must answer `isready` (CECP: `ping`), every stdout line must be
//! protocol, stderr must show no panic and no logged error, and the process must still
//! run. Then `stop` (outside CECP) ends any search, as a GUI would. A session ends with
//! `quit` or with end of input at a random point, even inside a line; the engine must
//! then exit by itself, successfully.

use super::check::check_line;
use super::games::GameInfo;
use super::grammar::{batch_block, Grammar};
use super::model::{too_slow, Model};
use super::mutate::{long_line, mutate};
use super::{show_bytes, Dialect};
use crate::engine::Engine;
use crate::rng::Rng;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// The seed of everything the fuzzer sends.
    pub seed: u64,
    /// Stop starting sessions once this many lines were sent.
    pub lines: u64,
    /// Run only this session (to reproduce a finding).
    pub only_session: Option<u64>,
    /// Stop at the first finding (the short run) or go on (the long run).
    pub stop_at_first: bool,
    /// How long the engine may take to answer a sync or to exit: longer is a hang.
    pub hang: Duration,
    /// Print a progress line every this many sessions (0: never).
    pub progress_every: u64,
    /// Engines fuzzed side by side.
    pub workers: usize,
}

/// A kind of failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// "panicked" on stderr, or an abort.
    Panic,
    /// No answer to `isready`/`ping`, or no exit after `quit`/end of input, in time.
    Hang,
    /// Something on stdout that is not protocol.
    Stray,
    /// The process ended before `quit` or end of input.
    EarlyExit,
    /// The process ended with a failure status.
    BadExit,
    /// An error logged on stderr (an internal inconsistency).
    ErrorLog,
}

/// One failure, with what is needed to look into it.
#[derive(Clone, Debug)]
pub struct Finding {
    /// What went wrong.
    pub kind: Kind,
    /// Session index (with the run's seed, enough to send the same lines again).
    pub session: u64,
    /// Batch index in the session.
    pub batch: usize,
    /// The details.
    pub detail: String,
    /// The lines of the batch, as sent.
    pub batch_lines: Vec<Vec<u8>>,
    /// The end of the engine transcript and its stderr.
    pub transcript: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:?} in session {} batch {}: {}",
            self.kind, self.session, self.batch, self.detail
        )?;
        writeln!(f, "the batch ({} lines):", self.batch_lines.len())?;
        for l in &self.batch_lines {
            writeln!(f, "  > {}", show_bytes(l))?;
        }
        write!(f, "{}", self.transcript)
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Seed of the run.
    pub seed: u64,
    /// Sessions (engine processes).
    pub sessions: u64,
    /// Batches (each followed by a check).
    pub batches: u64,
    /// Lines sent (not counting the fuzzer's own sync lines).
    pub lines: u64,
    /// Of which mutated.
    pub mutated: u64,
    /// Of which about 100 KB long.
    pub long_lines: u64,
    /// Bytes sent.
    pub bytes: u64,
    /// stdout lines checked.
    pub output_lines: u64,
    /// Sessions by starting dialect: terminal, UCI, UCCI, CECP.
    pub dialects: [u64; 4],
    /// Sessions ended by `quit` / by end of input.
    pub quit_endings: u64,
    /// Sessions ended by end of input.
    pub eof_endings: u64,
    /// Slowest answer to a batch's sync (all its lines handled, then `readyok`/`pong`).
    pub slowest_sync: Duration,
    /// Slowest exit after `quit` or end of input.
    pub slowest_exit: Duration,
    /// Time spent waiting for the batches' sync answers, by the dialect at the sync.
    pub sync_time: [Duration; 4],
    /// Wall time.
    pub elapsed: Duration,
    /// Failures.
    pub findings: Vec<Finding>,
}

impl Summary {
    /// Failures of one kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.findings.iter().filter(|f| f.kind == kind).count()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "fuzz seed {:#x}: {} lines ({} mutated, {} of 100 KB, {:.1} MB) in {} sessions, {} batches, {:.1} s",
            self.seed,
            self.lines,
            self.mutated,
            self.long_lines,
            self.bytes as f64 / 1e6,
            self.sessions,
            self.batches,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "sessions by dialect: terminal {} uci {} ucci {} cecp {}; ended by quit {}, by end of input {}",
            self.dialects[0],
            self.dialects[1],
            self.dialects[2],
            self.dialects[3],
            self.quit_endings,
            self.eof_endings
        )?;
        writeln!(
            f,
            "stdout lines checked {}; slowest batch answer {} ms; slowest exit {} ms",
            self.output_lines,
            self.slowest_sync.as_millis(),
            self.slowest_exit.as_millis()
        )?;
        let t = self.sync_time.map(|d| d.as_secs_f64());
        writeln!(
            f,
            "waiting for batch answers: terminal {:.1} s, uci {:.1} s, ucci {:.1} s, cecp {:.1} s",
            t[0], t[1], t[2], t[3]
        )?;
        write!(
            f,
            "panics {} hangs {} stray-stdout {} early-exits {} bad-exits {} logged-errors {}",
            self.count(Kind::Panic),
            self.count(Kind::Hang),
            self.count(Kind::Stray),
            self.count(Kind::EarlyExit),
            self.count(Kind::BadExit),
            self.count(Kind::ErrorLog)
        )
    }
}

/// The seed of session `i` of a run.
pub fn session_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Kills the engine if the fuzzer is stuck writing to it (its stdin pipe full because it
/// no longer reads): the write then fails and the session reports a hang.
struct Watchdog {
    state: Arc<WatchState>,
}

struct WatchState {
    start: Instant,
    deadline_ms: AtomicU64,
    done: AtomicBool,
    fired: AtomicBool,
}

impl Watchdog {
    fn new(pid: u32) -> Watchdog {
        let state = Arc::new(WatchState {
            start: Instant::now(),
            deadline_ms: AtomicU64::new(u64::MAX),
            done: AtomicBool::new(false),
            fired: AtomicBool::new(false),
        });
        let s = Arc::clone(&state);
        std::thread::spawn(move || {
            while !s.done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let now = s.start.elapsed().as_millis() as u64;
                if now > s.deadline_ms.load(Ordering::Relaxed) && !s.done.load(Ordering::Relaxed) {
                    s.fired.store(true, Ordering::Relaxed);
                    // The child is not reaped before the session ends, so the pid is ours.
                    let _ = std::process::Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status();
                    return;
                }
            }
        });
        Watchdog { state }
    }

    fn arm(&self, d: Duration) {
        let at = self.state.start.elapsed() + d;
        self.state
            .deadline_ms
            .store(at.as_millis() as u64, Ordering::Relaxed);
    }

    fn fired(&self) -> bool {
        self.state.fired.load(Ordering::Relaxed)
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.state.done.store(true, Ordering::Relaxed);
    }
}

/// One session's state.
struct Session<'a> {
    cfg: &'a Config,
    games: &'a [GameInfo],
    index: u64,
    rng: Rng,
    model: Model,
    engine: Engine,
    watchdog: Watchdog,
    /// stderr bytes already looked at.
    stderr_seen: usize,
    /// `readyok` lines received.
    readyoks: u64,
    batch: usize,
    batch_lines: Vec<Vec<u8>>,
}

fn dialect_index(d: Dialect) -> usize {
    match d {
        Dialect::Terminal => 0,
        Dialect::Uci => 1,
        Dialect::Ucci => 2,
        Dialect::Cecp => 3,
    }
}

impl Session<'_> {
    fn finding(&self, kind: Kind, detail: String) -> Finding {
        let t = self.engine.transcript();
        let lines: Vec<&str> = t.lines().collect();
        // FUZZ_TRANSCRIPT_LINES: how much of the transcript a report shows (default 80).
        let keep = std::env::var("FUZZ_TRANSCRIPT_LINES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(80);
        let tail = if lines.len() > keep {
            format!(
                "… ({} transcript lines before)\n{}",
                lines.len() - keep,
                lines[lines.len() - keep..].join("\n")
            )
        } else {
            t.clone()
        };
        Finding {
            kind,
            session: self.index,
            batch: self.batch,
            detail,
            batch_lines: self.batch_lines.clone(),
            transcript: tail,
        }
    }

    /// New stderr: a panic or a logged error is a finding.
    fn check_stderr(&mut self) -> Result<(), Finding> {
        let err = self.engine.stderr();
        let new = err.get(self.stderr_seen..).unwrap_or("").to_string();
        self.stderr_seen = err.len();
        if new.contains("panicked") || new.contains("fatal runtime error") {
            return Err(self.finding(Kind::Panic, "stderr shows a panic".into()));
        }
        if let Some(l) = new.lines().find(|l| l.contains(" ERROR ")) {
            return Err(self.finding(Kind::ErrorLog, format!("error logged: {l}")));
        }
        Ok(())
    }

    /// Reads stdout until `done` says so, checking every line.
    fn read_checked(
        &mut self,
        allowed: &[Dialect],
        free_text: bool,
        summary: &mut Summary,
        mut done: impl FnMut(&str, &mut Self) -> bool,
    ) -> Result<Option<Duration>, Finding> {
        let start = Instant::now();
        let deadline = start + self.cfg.hang;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.engine.next_line(left) {
                Some(line) => {
                    summary.output_lines += 1;
                    if line == "readyok" {
                        self.readyoks += 1;
                    }
                    if let Err(why) = check_line(&line, allowed, free_text) {
                        return Err(self.finding(
                            Kind::Stray,
                            format!("{why}: {:?}", show_bytes(line.as_bytes())),
                        ));
                    }
                    if done(&line, self) {
                        return Ok(Some(start.elapsed()));
                    }
                }
                None if self.engine.stdout_closed() => return Ok(None),
                None => {
                    return Err(self.finding(
                        Kind::Hang,
                        format!("no answer within {} s", self.cfg.hang.as_secs()),
                    ))
                }
            }
        }
    }

    /// The engine's exit after `quit` or end of input: output checked to the end, then a
    /// successful exit status.
    fn expect_exit(
        &mut self,
        allowed: &[Dialect],
        free_text: bool,
        summary: &mut Summary,
    ) -> Result<(), Finding> {
        let start = Instant::now();
        self.read_checked(allowed, free_text, summary, |_, _| false)?;
        let deadline = start + self.cfg.hang;
        let status = loop {
            if let Some(s) = self.engine.exit_status() {
                break s;
            }
            if Instant::now() > deadline {
                return Err(
                    self.finding(Kind::Hang, "stdout closed but the process runs on".into())
                );
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        summary.slowest_exit = summary.slowest_exit.max(start.elapsed());
        self.check_stderr()?;
        if !status.success() {
            return Err(self.finding(Kind::BadExit, format!("exit status {status}")));
        }
        Ok(())
    }

    /// After a batch: the engine answers `isready` (or `ping`) and still runs.
    fn sync(
        &mut self,
        allowed: &[Dialect],
        free_text: bool,
        summary: &mut Summary,
    ) -> Result<(), Finding> {
        let cecp = self.model.dialect == Dialect::Cecp;
        let token = format!("fz{}", self.batch);
        if cecp {
            self.engine.send("?");
            self.engine.send(&format!("ping {token}"));
        } else {
            self.model.isready += 1;
            self.engine.send("isready");
        }
        let want = self.model.isready;
        let pong = format!("pong {token}");
        let answered = self.read_checked(allowed, free_text, summary, |line, s| {
            if cecp {
                line == pong
            } else {
                s.readyoks >= want
            }
        })?;
        match answered {
            Some(t) => {
                // FUZZ_SLOW_MS: print the batches slower than that (to tune the grammar).
                if let Some(slow) = std::env::var("FUZZ_SLOW_MS")
                    .ok()
                    .and_then(|v| v.parse().ok())
                {
                    if t.as_millis() >= slow {
                        eprintln!(
                            "slow batch: {} ms, session {} batch {}:",
                            t.as_millis(),
                            self.index,
                            self.batch
                        );
                        for l in &self.batch_lines {
                            eprintln!("  > {}", show_bytes(l));
                        }
                    }
                }
                summary.slowest_sync = summary.slowest_sync.max(t);
                summary.sync_time[dialect_index(self.model.dialect)] += t;
            }
            None => {
                let status = self.engine.exit_status();
                self.check_stderr()?;
                return Err(self.finding(
                    Kind::EarlyExit,
                    format!("stdout closed before quit or end of input (status {status:?})"),
                ));
            }
        }
        self.check_stderr()?;
        if !cecp {
            self.engine.send("stop");
        }
        Ok(())
    }

    /// The lines of the next batch (the model follows them).
    fn make_batch(&mut self, summary: &mut Summary) -> Vec<Vec<u8>> {
        let grammar = Grammar { games: self.games };
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let push = |s: &mut Self, bytes: Vec<u8>, lines: &mut Vec<Vec<u8>>| {
            let effect = s.model.observe_bytes(&bytes, s.games);
            lines.push(bytes);
            if let Some(undo) = effect.undo {
                s.model.observe(&undo, s.games);
                lines.push(undo.into_bytes());
            }
        };
        if self.batch == 0 {
            let d = pick_dialect(&mut self.rng);
            summary.dialects[dialect_index(d)] += 1;
            for l in grammar.opening(&mut self.rng, d) {
                push(self, l.into_bytes(), &mut lines);
            }
            return lines;
        }
        let n = 1 + self.rng.below(60);
        for _ in 0..n {
            if self.model.quit {
                break;
            }
            if self.rng.chance(1, 300) && self.model.dialect != Dialect::Cecp {
                for l in batch_block(&grammar, &mut self.rng, &mut self.model) {
                    // Followed, but never undone or mutated.
                    self.model.observe(&l, self.games);
                    lines.push(l.into_bytes());
                }
                continue;
            }
            let mut model = self.model.clone();
            let mut bytes = grammar.line(&mut self.rng, &mut model).into_bytes();
            // Keep the sample position the grammar chose (only the position is taken
            // from the trial model; the final line is followed below).
            self.model.pos = model.pos;
            if self.rng.chance(1, 4) {
                let other = grammar.line(&mut self.rng, &mut model).into_bytes();
                bytes = mutate(&mut self.rng, &bytes, &other);
                summary.mutated += 1;
            }
            if self.rng.chance(1, 1500) {
                let moves: Vec<String> = self.games[self.model.game]
                    .samples
                    .first()
                    .map(|s| s.moves.clone())
                    .unwrap_or_default();
                bytes = long_line(&mut self.rng, &bytes, &moves);
                summary.long_lines += 1;
            }
            if too_slow(&bytes) {
                bytes = b"perft 1".to_vec();
            }
            if self.rng.chance(1, 20) {
                bytes.push(b'\r');
            }
            push(self, bytes, &mut lines);
        }
        lines
    }

    fn run(&mut self, summary: &mut Summary) -> Result<(), Finding> {
        let target = 200 + self.rng.below(1800) as u64;
        let end_by_eof = self.rng.chance(1, 3);
        let mut sent = 0u64;
        // A search's lines may come after the batch that started it (`stop` goes after
        // the sync), in the dialect it started in: the last batch's dialects stay allowed.
        let mut previous = vec![self.model.dialect];
        loop {
            let before = self.model.clone();
            let mut batch = self.make_batch(summary);
            let last = self.model.quit || sent + batch.len() as u64 >= target;
            let mut allowed = previous.clone();
            allowed.push(before.dialect);
            let mut free_text = false;
            let eof = last && end_by_eof && !self.model.quit;
            if eof {
                // End of input anywhere in the batch, even inside a line.
                let total: usize = batch.iter().map(|l| l.len() + 1).sum();
                let mut cut = self.rng.below(total + 1);
                let mut kept = Vec::new();
                for mut l in batch {
                    l.push(b'\n');
                    if cut >= l.len() {
                        cut -= l.len();
                        kept.push(l);
                    } else {
                        l.truncate(cut);
                        if !l.is_empty() {
                            kept.push(l);
                        }
                        break;
                    }
                }
                // Follow only what is sent (the last piece is a line at end of input).
                self.model = before.clone();
                for l in &kept {
                    let e = self.model.observe_bytes(l, self.games);
                    free_text |= e.free_text;
                    allowed.push(self.model.dialect);
                }
                batch = kept;
            } else {
                // Follow the batch again line by line for the dialects it passes through.
                let mut m = before.clone();
                for l in &batch {
                    let e = m.observe_bytes(l, self.games);
                    free_text |= e.free_text;
                    allowed.push(m.dialect);
                }
                for l in &mut batch {
                    l.push(b'\n');
                }
            }
            allowed.sort();
            allowed.dedup();
            previous = allowed.clone();
            sent += batch.len() as u64;
            summary.lines += batch.len() as u64;
            summary.bytes += batch.iter().map(|l| l.len() as u64).sum::<u64>();
            summary.batches += 1;
            self.batch_lines = batch.clone();
            self.watchdog.arm(self.cfg.hang + Duration::from_secs(10));
            for l in &batch {
                self.engine.send_raw(l);
            }
            if eof {
                self.engine.close_stdin();
                summary.eof_endings += 1;
                self.watchdog
                    .arm(self.cfg.hang * 2 + Duration::from_secs(10));
                return self.expect_exit(&allowed, free_text, summary);
            }
            if self.model.quit {
                summary.quit_endings += 1;
                self.watchdog
                    .arm(self.cfg.hang * 2 + Duration::from_secs(10));
                return self.expect_exit(&allowed, free_text, summary);
            }
            self.sync(&allowed, free_text, summary)?;
            self.batch += 1;
            if last {
                // A polite end: quit (in every dialect).
                self.batch_lines = vec![b"quit".to_vec()];
                self.engine.send("quit");
                summary.quit_endings += 1;
                let d = [self.model.dialect];
                return self.expect_exit(&d, false, summary);
            }
        }
    }
}

fn pick_dialect(rng: &mut Rng) -> Dialect {
    match rng.below(20) {
        0..=2 => Dialect::Terminal,
        3..=9 => Dialect::Uci,
        10..=14 => Dialect::Ucci,
        _ => Dialect::Cecp,
    }
}

/// Runs one session; a failure of the harness itself (a write to a dead engine) becomes
/// a finding too.
fn run_session(
    cfg: &Config,
    games: &[GameInfo],
    index: u64,
    summary: &mut Summary,
) -> Option<Finding> {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let engine = Engine::start();
        let watchdog = Watchdog::new(engine.pid());
        let mut s = Session {
            cfg,
            games,
            index,
            rng: Rng::new(session_seed(cfg.seed, index)),
            model: Model::new(games),
            engine,
            watchdog,
            stderr_seen: 0,
            readyoks: 0,
            batch: 0,
            batch_lines: Vec::new(),
        };
        let result = s.run(summary);
        let fired = s.watchdog.fired();
        (result, fired)
    }));
    match outcome {
        Ok((Ok(()), _)) => None,
        Ok((Err(mut f), fired)) => {
            if fired {
                f.kind = Kind::Hang;
                f.detail = format!("killed by the watchdog; {}", f.detail);
            }
            Some(f)
        }
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let lines: Vec<&str> = msg.lines().collect();
            let tail = lines[lines.len().saturating_sub(80)..].join("\n");
            Some(Finding {
                kind: if msg.contains("cannot write") {
                    Kind::EarlyExit
                } else {
                    Kind::Hang
                },
                session: index,
                batch: 0,
                detail: format!(
                    "the harness gave up: {}",
                    lines.first().copied().unwrap_or("")
                ),
                batch_lines: Vec::new(),
                transcript: tail,
            })
        }
    }
}

impl Summary {
    /// Adds another worker's counts.
    fn absorb(&mut self, o: Summary) {
        self.sessions += o.sessions;
        self.batches += o.batches;
        self.lines += o.lines;
        self.mutated += o.mutated;
        self.long_lines += o.long_lines;
        self.bytes += o.bytes;
        self.output_lines += o.output_lines;
        for i in 0..4 {
            self.dialects[i] += o.dialects[i];
            self.sync_time[i] += o.sync_time[i];
        }
        self.quit_endings += o.quit_endings;
        self.eof_endings += o.eof_endings;
        self.slowest_sync = self.slowest_sync.max(o.slowest_sync);
        self.slowest_exit = self.slowest_exit.max(o.slowest_exit);
        self.findings.extend(o.findings);
    }
}

/// Runs sessions until `cfg.lines` lines were sent (or the one session asked for), with
/// `cfg.workers` engines at a time: the fuzzer mostly waits for answers, so a few
/// sessions side by side finish sooner without taking much more CPU. Each session's
/// lines depend only on the seed and its index.
pub fn run(cfg: &Config, games: &[GameInfo]) -> Summary {
    let start = Instant::now();
    let next = AtomicU64::new(cfg.only_session.unwrap_or(0));
    let lines = AtomicU64::new(0);
    let sessions = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let workers = if cfg.only_session.is_some() {
        1
    } else {
        cfg.workers.max(1)
    };
    let mut summary = Summary {
        seed: cfg.seed,
        ..Summary::default()
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Summary::default();
                    while !stop.load(Ordering::Relaxed) && lines.load(Ordering::Relaxed) < cfg.lines
                    {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let before = mine.lines;
                        let finding = run_session(cfg, games, index, &mut mine);
                        lines.fetch_add(mine.lines - before, Ordering::Relaxed);
                        let done = sessions.fetch_add(1, Ordering::Relaxed) + 1;
                        mine.sessions += 1;
                        if let Some(f) = finding {
                            eprintln!(
                                "FUZZ FINDING (reproduce: FUZZ_SEED={:#x} FUZZ_SESSION={index})\n{f}",
                                cfg.seed
                            );
                            mine.findings.push(f);
                            if cfg.stop_at_first {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        if cfg.progress_every > 0 && done.is_multiple_of(cfg.progress_every) {
                            eprintln!(
                                "[{:>6.0} s] {done} sessions, {} lines",
                                start.elapsed().as_secs_f64(),
                                lines.load(Ordering::Relaxed),
                            );
                        }
                        if cfg.only_session.is_some() {
                            break;
                        }
                    }
                    mine
                })
            })
            .collect();
        for h in handles {
            summary.absorb(h.join().expect("a fuzz worker panicked"));
        }
    });
    summary.findings.sort_by_key(|f| f.session);
    summary.elapsed = start.elapsed();
    summary
}
