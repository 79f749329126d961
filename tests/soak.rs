//! Soak (issue 14): games of jiang against jiang over UCI, refereed with jiang's own rules
//! (the library: `jiang::games::new_session`), every game in `jiang::games::VARIANTS`,
//! random settings per engine and game (Threads 1-2, Hash 1-256, MultiPV 1-3, Ponder on
//! or off; the options are changed on live processes between games, as a GUI does),
//! mixed controls (a 2+0.05 clock, movetime 50, depth 6). With Ponder on the runner
//! ponders like a GUI: `go ponder` on the expected reply, then `ponderhit` or `stop`.
//!
//! Counted per game: illegal moves, time losses (the clock, movetime or the 10 s cap,
//! each with a 200 ms margin, measured from `go`/`ponderhit` to `bestmove`), crashes
//! (exit, closed stdout, a panic on stderr), hangs (no answer 1 s after `stop`), bad
//! replies (no move though there is one, an illegal ponder move, a line that is not UCI).
//!
//! ```sh
//! tools/reliability/soak_selfplay.sh [GAMES] [SEED]    # niced; JSON lines and a table
//! ```
//! Environment: `SOAK_GAMES` (1000), `SOAK_SEED`, `SOAK_VARIANTS` (comma list, default
//! all), `SOAK_ENGINE` (binary, default the test build), `SOAK_OUT` (JSON lines file,
//! default `target/soak/selfplay.jsonl`), `SOAK_MAX_PLIES` (300).

#[path = "common/engine.rs"]
mod engine;
#[path = "common/fuzz/mod.rs"]
#[allow(unused_imports)]
mod fuzz;
#[path = "common/rng.rs"]
mod rng;

use engine::Engine;
use fuzz::check::check_line;
use fuzz::Dialect;
use rng::Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::{Duration, Instant};

/// Grace added to every time limit (as xqmatch's `--margin-ms`).
const MARGIN_MS: u128 = 200;
/// The absolute cap per move.
const CAP_MS: u128 = 10_000;

#[derive(Clone, Copy, Debug)]
enum Control {
    /// A Fischer clock: base and increment in ms.
    Clock {
        base: u64,
        inc: u64,
    },
    MoveTime(u64),
    Depth(u32),
}

impl Control {
    fn label(self) -> String {
        match self {
            Control::Clock { base, inc } => {
                format!("tc {}+{}", base as f64 / 1000.0, inc as f64 / 1000.0)
            }
            Control::MoveTime(t) => format!("movetime {t}"),
            Control::Depth(d) => format!("depth {d}"),
        }
    }
}

#[derive(Clone, Debug)]
struct Settings {
    threads: u32,
    hash: u32,
    multipv: u32,
    ponder: bool,
}

impl Settings {
    fn random(rng: &mut Rng) -> Settings {
        Settings {
            threads: 1 + rng.below(2) as u32,
            hash: match rng.below(4) {
                0 => 1 + rng.below(256) as u32,
                _ => [1, 16, 64, 128, 256][rng.below(5)],
            },
            multipv: 1 + rng.below(3) as u32,
            ponder: rng.chance(1, 2),
        }
    }

    fn label(&self) -> String {
        format!(
            "t{} h{} mpv{}{}",
            self.threads,
            self.hash,
            self.multipv,
            if self.ponder { " ponder" } else { "" }
        )
    }
}

/// A forfeit: what went wrong and with which engine.
#[derive(Clone, Debug)]
struct Forfeit {
    kind: &'static str,
    player: usize,
    detail: String,
}

/// One engine process and its state in the current game.
struct Player {
    engine: Engine,
    /// The reply it is pondering on.
    pondering: Option<String>,
    /// stderr bytes already looked at.
    stderr_seen: usize,
}

impl Player {
    fn start(program: &str) -> Result<Player, String> {
        let mut engine = Engine::start_program(program);
        engine.send("uci");
        read_until(&mut engine, Duration::from_secs(10), |l| l == "uciok")
            .map_err(|e| format!("no uciok: {e}"))?;
        Ok(Player {
            engine,
            pondering: None,
            stderr_seen: 0,
        })
    }

    /// A panic (caught or not) on stderr is a crash.
    fn check_stderr(&mut self) -> Result<(), String> {
        let err = self.engine.stderr();
        let new = err.get(self.stderr_seen..).unwrap_or("").to_string();
        self.stderr_seen = err.len();
        match new
            .lines()
            .find(|l| l.contains("panicked") || l.contains(" ERROR "))
        {
            Some(l) => Err(format!("stderr: {l}")),
            None => Ok(()),
        }
    }
}

/// Reads lines until `pred`; every line must be UCI. Returns the lines (match last).
fn read_until(
    e: &mut Engine,
    timeout: Duration,
    pred: impl Fn(&str) -> bool,
) -> Result<Vec<String>, String> {
    let deadline = Instant::now() + timeout;
    let mut seen = Vec::new();
    loop {
        match e.next_line(deadline.saturating_duration_since(Instant::now())) {
            Some(l) => {
                if let Err(why) = check_line(&l, &[Dialect::Uci], false) {
                    return Err(format!("stray output ({why}): {l:?}"));
                }
                let done = pred(&l);
                seen.push(l);
                if done {
                    return Ok(seen);
                }
            }
            None if e.stdout_closed() => return Err("stdout closed".into()),
            None => return Err("timeout".into()),
        }
    }
}

/// The record of one game.
struct GameRecord {
    number: usize,
    variant: &'static str,
    control: Control,
    settings: Vec<Settings>,
    opening: String,
    plies: usize,
    result: String,
    forfeit: Option<Forfeit>,
    /// Longest move per player: (ms, ply, move).
    longest: Vec<(u128, usize, String)>,
    ponderhits: usize,
    ponder_misses: usize,
    duration: Duration,
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

impl GameRecord {
    fn json(&self) -> String {
        let settings: Vec<String> = self
            .settings
            .iter()
            .map(|s| {
                format!(
                    "{{\"threads\":{},\"hash\":{},\"multipv\":{},\"ponder\":{}}}",
                    s.threads, s.hash, s.multipv, s.ponder
                )
            })
            .collect();
        let longest: Vec<String> = self
            .longest
            .iter()
            .map(|(ms, ply, m)| format!("{{\"ms\":{ms},\"ply\":{ply},\"move\":{}}}", json_str(m)))
            .collect();
        let forfeit = match &self.forfeit {
            Some(f) => format!(
                "{{\"kind\":{},\"player\":{},\"detail\":{}}}",
                json_str(f.kind),
                f.player,
                json_str(&f.detail)
            ),
            None => "null".into(),
        };
        format!(
            "{{\"game\":{},\"variant\":{},\"control\":{},\"settings\":[{}],\"opening\":{},\"plies\":{},\"result\":{},\"forfeit\":{},\"longest\":[{}],\"ponderhits\":{},\"ponder_misses\":{},\"seconds\":{:.1}}}",
            self.number,
            json_str(self.variant),
            json_str(&self.control.label()),
            settings.join(","),
            json_str(&self.opening),
            self.plies,
            json_str(&self.result),
            forfeit,
            longest.join(","),
            self.ponderhits,
            self.ponder_misses,
            self.duration.as_secs_f64()
        )
    }
}

/// The soak's state: engine processes kept between games.
struct Soak {
    program: String,
    players: Vec<Option<Player>>,
    max_plies: usize,
}

impl Soak {
    fn player(&mut self, i: usize) -> Result<&mut Player, String> {
        if self.players[i].is_none() {
            self.players[i] = Some(Player::start(&self.program)?);
        }
        Ok(self.players[i].as_mut().unwrap())
    }

    /// Replaces a player's process (after a crash or hang).
    fn restart(&mut self, i: usize) {
        self.players[i] = None;
    }

    fn play(
        &mut self,
        number: usize,
        variant: &'static str,
        control: Control,
        rng: &mut Rng,
    ) -> GameRecord {
        let start = Instant::now();
        let mut game = jiang::games::new_session(variant).expect("a listed game");
        let n = game.players().len();
        // A few random plies from the start, so that games differ.
        let mut opening_moves = Vec::new();
        for _ in 0..rng.below(7) {
            let legal = game.legal_moves();
            if legal.is_empty() || game.game_end().is_some() {
                break;
            }
            let m = legal[rng.below(legal.len())].clone();
            game.play(&m).expect("a legal move");
            opening_moves.push(m);
        }
        if game.legal_moves().is_empty() || game.game_end().is_some() {
            game = jiang::games::new_session(variant).expect("a listed game");
        }
        let opening = game.fen();
        let settings: Vec<Settings> = (0..n).map(|_| Settings::random(rng)).collect();
        let mut record = GameRecord {
            number,
            variant,
            control,
            settings: settings.clone(),
            opening: opening.clone(),
            plies: 0,
            result: String::new(),
            forfeit: None,
            longest: vec![(0, 0, String::new()); n],
            ponderhits: 0,
            ponder_misses: 0,
            duration: Duration::ZERO,
        };
        // Engine process of player i: rotated so each process plays every side.
        let slot = |i: usize| (i + number) % n;
        if let Err(f) = self.new_game(variant, &settings, n, &slot) {
            record.forfeit = Some(f);
            record.result = "aborted".into();
            return record;
        }
        let keys = game.clock_keys().to_vec();
        let mut clock: Vec<i64> = vec![
            match control {
                Control::Clock { base, .. } => base as i64,
                _ => 0,
            };
            n
        ];
        let mut moves: Vec<String> = Vec::new();
        let outcome = loop {
            if let Some(end) = game.game_end() {
                break Ok(end.to_string());
            }
            if game.legal_moves().is_empty() {
                break Ok("* {no legal move and no result}".to_string());
            }
            if moves.len() >= self.max_plies {
                break Ok(format!(
                    "1/2-1/2 {{{} plies played: adjudicated}}",
                    self.max_plies
                ));
            }
            let p = game.player_to_move();
            let go_args = go_args(control, &clock, &keys);
            match self.turn(slot(p), &opening, &moves, &go_args, control, clock[p], n) {
                Err(mut f) => {
                    f.player = p;
                    if let Some(pl) = self.players[slot(p)].as_ref() {
                        let t = pl.engine.transcript();
                        let lines: Vec<&str> = t.lines().collect();
                        let tail = lines[lines.len().saturating_sub(30)..].join("\n");
                        f.detail = format!("{}\n{tail}", f.detail);
                    }
                    break Err(f);
                }
                Ok(turn) => {
                    if turn.ponderhit {
                        record.ponderhits += 1;
                    }
                    if turn.ponder_miss {
                        record.ponder_misses += 1;
                    }
                    let ms = turn.elapsed.as_millis();
                    if ms > record.longest[p].0 {
                        record.longest[p] = (ms, moves.len() + 1, turn.best.clone());
                    }
                    if let Control::Clock { inc, .. } = control {
                        clock[p] = clock[p] - ms as i64 + inc as i64;
                    }
                    if let Err(e) = game.play(&turn.best) {
                        break Err(Forfeit {
                            kind: "illegal move",
                            player: p,
                            detail: format!("{} after {} plies: {e}", turn.best, moves.len()),
                        });
                    }
                    moves.push(turn.best.clone());
                    // Ponder like a GUI: on the expected reply, with the clocks as they
                    // will be (two-player games).
                    if let (true, Some(reply)) = (settings[p].ponder && n == 2, turn.ponder) {
                        if game.check_move(&reply).is_err() {
                            break Err(Forfeit {
                                kind: "bad reply",
                                player: p,
                                detail: format!(
                                    "ponder move {reply} is not legal after {}",
                                    turn.best
                                ),
                            });
                        }
                        if game.game_end().is_none() {
                            let mut line = moves.clone();
                            line.push(reply.clone());
                            let args = go_args_ponder(control, &clock, &keys);
                            if let Ok(pl) = self.player(slot(p)) {
                                pl.engine.send(&position(&opening, &line));
                                pl.engine.send(&format!("go ponder {args}"));
                                pl.pondering = Some(reply);
                            }
                        }
                    }
                }
            }
        };
        record.plies = moves.len();
        match outcome {
            Ok(result) => record.result = result,
            Err(f) => {
                record.result = format!("forfeit by player {}", f.player);
                if matches!(f.kind, "crash" | "hang") {
                    self.restart(slot(f.player));
                }
                record.forfeit = Some(f);
            }
        }
        // Stop any pondering and check every engine is sane before the next game.
        for i in 0..n {
            let s = slot(i);
            let ok = (|| -> Result<(), String> {
                let pl = self.player(s)?;
                if pl.pondering.take().is_some() {
                    pl.engine.send("stop");
                    read_until(&mut pl.engine, Duration::from_secs(3), |l| {
                        l.starts_with("bestmove")
                    })?;
                }
                pl.check_stderr()
            })();
            if let Err(e) = ok {
                if record.forfeit.is_none() {
                    record.forfeit = Some(Forfeit {
                        kind: if e.contains("stderr") {
                            "crash"
                        } else {
                            "hang"
                        },
                        player: i,
                        detail: format!("after the game: {e}"),
                    });
                }
                self.restart(s);
            }
        }
        record.duration = start.elapsed();
        record
    }

    /// `ucinewgame`, the game and the settings, `isready`.
    fn new_game(
        &mut self,
        variant: &str,
        settings: &[Settings],
        n: usize,
        slot: &dyn Fn(usize) -> usize,
    ) -> Result<(), Forfeit> {
        for (i, s) in settings.iter().enumerate().take(n) {
            let fail = |kind: &'static str, detail: String| Forfeit {
                kind,
                player: i,
                detail,
            };
            let pl = self.player(slot(i)).map_err(|e| fail("crash", e))?;
            pl.engine.clear_transcript();
            pl.pondering = None;
            for line in [
                "ucinewgame".to_string(),
                format!("setoption name UCI_Variant value {variant}"),
                format!("setoption name Threads value {}", s.threads),
                format!("setoption name Hash value {}", s.hash),
                format!("setoption name MultiPV value {}", s.multipv),
                format!("setoption name Ponder value {}", s.ponder),
                "isready".to_string(),
            ] {
                pl.engine.send(&line);
            }
            if let Err(e) = read_until(&mut pl.engine, Duration::from_secs(10), |l| l == "readyok")
            {
                self.restart(slot(i));
                return Err(fail("hang", format!("no readyok before the game: {e}")));
            }
        }
        Ok(())
    }

    /// One move of the engine in `slot`.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &mut self,
        slot: usize,
        opening: &str,
        moves: &[String],
        go_args: &str,
        control: Control,
        clock_ms: i64,
        players: usize,
    ) -> Result<Turn, Forfeit> {
        let pl = self.player(slot).map_err(|e| Forfeit {
            kind: "crash",
            player: 0,
            detail: e,
        })?;
        // A forfeit carries the end of the engine's transcript.
        let fail = |kind: &'static str, detail: String| Forfeit {
            kind,
            player: 0,
            detail,
        };
        let last = moves.last().cloned();
        let mut ponderhit = false;
        let mut ponder_miss = false;
        let t0;
        match pl.pondering.take() {
            Some(expected) if Some(&expected) == last.as_ref() => {
                pl.engine.send("ponderhit");
                t0 = Instant::now();
                ponderhit = true;
            }
            Some(_) => {
                pl.engine.send("stop");
                read_until(&mut pl.engine, Duration::from_secs(3), |l| {
                    l.starts_with("bestmove")
                })
                .map_err(|e| {
                    fail(
                        "hang",
                        format!("no bestmove after stop of a ponder search: {e}"),
                    )
                })?;
                ponder_miss = true;
                pl.engine.send(&position(opening, moves));
                t0 = Instant::now();
                pl.engine.send(&format!("go {go_args}"));
            }
            None => {
                pl.engine.send(&position(opening, moves));
                t0 = Instant::now();
                pl.engine.send(&format!("go {go_args}"));
            }
        }
        let limit = match control {
            Control::Clock { .. } => (clock_ms.max(0) as u128 + MARGIN_MS).min(CAP_MS + MARGIN_MS),
            Control::MoveTime(t) => t as u128 + MARGIN_MS,
            Control::Depth(_) => CAP_MS + MARGIN_MS,
        };
        let answer = read_until(&mut pl.engine, Duration::from_millis(limit as u64), |l| {
            l.starts_with("bestmove")
        });
        let lines = match answer {
            Ok(lines) => lines,
            Err(e) if e == "timeout" => {
                pl.engine.send("stop");
                return match read_until(&mut pl.engine, Duration::from_secs(1), |l| {
                    l.starts_with("bestmove")
                }) {
                    Ok(_) => Err(fail(
                        "time loss",
                        format!("no move within {limit} ms ({})", control.label()),
                    )),
                    Err(_) => Err(fail(
                        "hang",
                        format!("no move within {limit} ms nor 1 s after stop"),
                    )),
                };
            }
            Err(e) if e.starts_with("stray") => return Err(fail("bad reply", e)),
            Err(e) => {
                let status = pl.engine.exit_status();
                return Err(fail("crash", format!("{e} (exit status {status:?})")));
            }
        };
        let elapsed = t0.elapsed();
        let ms = elapsed.as_millis();
        if let Err(e) = pl.check_stderr() {
            return Err(fail("crash", e));
        }
        let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        let best = words.get(1).copied().unwrap_or("").to_string();
        if best == "(none)" || best.is_empty() {
            return Err(fail(
                "bad reply",
                format!("{:?} though moves exist", lines.last()),
            ));
        }
        let over = match control {
            Control::Clock { .. } => ms > clock_ms.max(0) as u128 + MARGIN_MS,
            Control::MoveTime(t) => ms > t as u128 + MARGIN_MS,
            Control::Depth(_) => false,
        } || ms > CAP_MS + MARGIN_MS;
        if over {
            return Err(fail(
                "time loss",
                format!(
                    "{best} after {ms} ms ({}, clock {clock_ms} ms)",
                    control.label()
                ),
            ));
        }
        let ponder = match words.get(2..4) {
            Some(["ponder", p]) if players == 2 => Some(p.to_string()),
            _ => None,
        };
        Ok(Turn {
            best,
            ponder,
            elapsed,
            ponderhit,
            ponder_miss,
        })
    }
}

struct Turn {
    best: String,
    ponder: Option<String>,
    elapsed: Duration,
    ponderhit: bool,
    ponder_miss: bool,
}

fn position(opening: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        format!("position fen {opening}")
    } else {
        format!("position fen {opening} moves {}", moves.join(" "))
    }
}

fn go_args(control: Control, clock: &[i64], keys: &[(&str, &str)]) -> String {
    match control {
        Control::Clock { inc, .. } => keys
            .iter()
            .zip(clock)
            .map(|((t, i), c)| format!("{t} {} {i} {inc}", c.max(&0)))
            .collect::<Vec<_>>()
            .join(" "),
        Control::MoveTime(t) => format!("movetime {t}"),
        Control::Depth(d) => format!("depth {d}"),
    }
}

/// The arguments of `go ponder`: the clocks as they stand (the opponent's runs first).
fn go_args_ponder(control: Control, clock: &[i64], keys: &[(&str, &str)]) -> String {
    go_args(control, clock, keys)
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

#[derive(Default)]
struct Tally {
    games: usize,
    results: BTreeMap<String, usize>,
    forfeits: BTreeMap<&'static str, usize>,
    plies: usize,
    longest: (u128, String),
    ponderhits: usize,
    ponder_misses: usize,
}

#[test]
#[ignore = "long: tools/reliability/soak_selfplay.sh (SOAK_GAMES, default 1000)"]
fn selfplay() {
    let games: usize = env_or("SOAK_GAMES", 1000);
    let seed: u64 = env_or("SOAK_SEED", 0x736f_616b);
    let max_plies: usize = env_or("SOAK_MAX_PLIES", 300);
    let variants: Vec<&'static str> = match std::env::var("SOAK_VARIANTS") {
        Ok(list) => jiang::games::VARIANTS
            .iter()
            .copied()
            .filter(|v| list.split(',').any(|w| w.trim() == *v))
            .collect(),
        Err(_) => jiang::games::VARIANTS.to_vec(),
    };
    assert!(!variants.is_empty(), "no game to play");
    let program =
        std::env::var("SOAK_ENGINE").unwrap_or_else(|_| env!("CARGO_BIN_EXE_jiang").to_string());
    let out_path =
        std::env::var("SOAK_OUT").unwrap_or_else(|_| "target/soak/selfplay.jsonl".to_string());
    if let Some(dir) = std::path::Path::new(&out_path).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let mut out = std::fs::File::create(&out_path).expect("cannot write the JSON lines file");
    let controls = [
        Control::Clock {
            base: 2000,
            inc: 50,
        },
        Control::MoveTime(50),
        Control::Depth(6),
    ];
    eprintln!(
        "self-play soak: {games} games of {variants:?}, controls {:?}, seed {seed:#x}, engine {program}, max {max_plies} plies",
        controls.iter().map(|c| c.label()).collect::<Vec<_>>()
    );
    let mut rng = Rng::new(seed);
    let mut soak = Soak {
        program,
        players: (0..3).map(|_| None).collect(),
        max_plies,
    };
    let mut by_row: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut settings_seen: BTreeMap<String, usize> = BTreeMap::new();
    let start = Instant::now();
    for g in 0..games {
        let variant = variants[g % variants.len()];
        let control = controls[(g / variants.len()) % controls.len()];
        let r = soak.play(g + 1, variant, control, &mut rng);
        writeln!(out, "{}", r.json()).expect("write");
        out.flush().ok();
        for s in &r.settings {
            *settings_seen
                .entry(format!("threads {}", s.threads))
                .or_default() += 1;
            *settings_seen
                .entry(format!("multipv {}", s.multipv))
                .or_default() += 1;
            *settings_seen
                .entry(format!("ponder {}", s.ponder))
                .or_default() += 1;
            let bucket = match s.hash {
                1 => "hash 1",
                2..=16 => "hash 2-16",
                17..=64 => "hash 17-64",
                65..=128 => "hash 65-128",
                _ => "hash 129-256",
            };
            *settings_seen.entry(bucket.to_string()).or_default() += 1;
        }
        let t = by_row
            .entry((variant.to_string(), control.label()))
            .or_default();
        t.games += 1;
        t.plies += r.plies;
        t.ponderhits += r.ponderhits;
        t.ponder_misses += r.ponder_misses;
        let result_key = r.result.split(" {").next().unwrap_or("").to_string();
        *t.results.entry(result_key).or_default() += 1;
        if let Some(f) = &r.forfeit {
            *t.forfeits.entry(f.kind).or_default() += 1;
        }
        for (p, (ms, ply, m)) in r.longest.iter().enumerate() {
            if *ms > t.longest.0 {
                t.longest = (
                    *ms,
                    format!(
                        "game {} ply {ply} {m} (player {p}, {})",
                        r.number,
                        r.settings[p].label()
                    ),
                );
            }
        }
        let longest = r.longest.iter().map(|l| l.0).max().unwrap_or(0);
        eprintln!(
            "[{:>4}/{games} {:>5.0} s] {variant} {}: {} in {} plies | {} | longest {longest} ms{}",
            g + 1,
            start.elapsed().as_secs_f64(),
            control.label(),
            r.result,
            r.plies,
            r.settings
                .iter()
                .map(Settings::label)
                .collect::<Vec<_>>()
                .join(" / "),
            r.forfeit
                .as_ref()
                .map(|f| format!(" | FORFEIT {}: {}", f.kind, f.detail))
                .unwrap_or_default()
        );
    }
    // The table.
    let kinds = ["illegal move", "time loss", "crash", "hang", "bad reply"];
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| game | control | games | results | avg plies | illegal | time loss | crash | hang | bad reply | ponderhit/miss | longest move |"
    );
    let _ = writeln!(table, "|{}", " --- |".repeat(12));
    let mut total = Tally::default();
    for ((variant, control), t) in &by_row {
        let results: Vec<String> = t.results.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        let f = |k: &str| t.forfeits.get(k).copied().unwrap_or(0);
        let _ = writeln!(
            table,
            "| {variant} | {control} | {} | {} | {:.0} | {} | {} | {} | {} | {} | {}/{} | {} ms: {} |",
            t.games,
            results.join(", "),
            t.plies as f64 / t.games.max(1) as f64,
            f(kinds[0]),
            f(kinds[1]),
            f(kinds[2]),
            f(kinds[3]),
            f(kinds[4]),
            t.ponderhits,
            t.ponder_misses,
            t.longest.0,
            t.longest.1
        );
        total.games += t.games;
        for (k, v) in &t.forfeits {
            *total.forfeits.entry(k).or_default() += v;
        }
        if t.longest.0 > total.longest.0 {
            total.longest = t.longest.clone();
        }
    }
    let f = |k: &str| total.forfeits.get(k).copied().unwrap_or(0);
    let _ = writeln!(
        table,
        "| total | | {} | | | {} | {} | {} | {} | {} | | {} ms: {} |",
        total.games,
        f(kinds[0]),
        f(kinds[1]),
        f(kinds[2]),
        f(kinds[3]),
        f(kinds[4]),
        total.longest.0,
        total.longest.1
    );
    let seen: Vec<String> = settings_seen
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    println!(
        "{table}\nsettings used (per engine and game): {}\n{} games in {:.0} s; records in {out_path}",
        seen.join(", "),
        total.games,
        start.elapsed().as_secs_f64()
    );
    assert!(
        total.forfeits.is_empty(),
        "forfeits: {:?} (see the FORFEIT lines above and {out_path})",
        total.forfeits
    );
}
