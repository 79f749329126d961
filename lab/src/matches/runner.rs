//! A whole match: worker threads (one game each at a time, each with its own pair of
//! engine processes), the schedule, the tallies, progress lines, SPRT stopping, PGN and
//! JSON as games finish.

use super::engine::{Engine, EngineSettings, EngineSpec};
use super::game::{play_game, Forfeit, GameConfig, GameRecord, Seat, Termination};
use super::pgn::{game_to_pgn, pgn_date};
use super::process::{interrupted, IoLog};
use super::report;
use super::schedule::{game_plan, Colours};
use super::stats::{format_elo, Sprt, SprtState, Wdl};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    /// Engines A and B.
    pub specs: [EngineSpec; 2],
    /// Games to play.
    pub games: u32,
    /// How each game is played.
    pub game: GameConfig,
    /// The openings (normalised FENs).
    pub openings: Vec<String>,
    /// Where they came from (`None`: the start position).
    pub openings_path: Option<String>,
    /// How colours are given for each opening.
    pub colours: Colours,
    /// Games at the same time.
    pub concurrency: usize,
    /// PGN file.
    pub pgn_path: Option<PathBuf>,
    /// JSON summary file.
    pub json_path: Option<PathBuf>,
    /// The stop rule.
    pub sprt: Option<Sprt>,
    /// The engines' timeouts.
    pub settings: EngineSettings,
    /// The I/O transcript.
    pub log: Option<Arc<IoLog>>,
    /// PGN `Event`.
    pub event: String,
    /// Only forfeits and the summary on stdout.
    pub quiet: bool,
    /// Consecutive start failures of an engine after which the match stops.
    pub max_start_failures: u32,
}

/// The figures of one engine over the match.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Its name.
    pub name: String,
    /// Wins, draws, losses.
    pub wdl: Wdl,
    /// Forfeits by kind (resignations included).
    pub forfeits: BTreeMap<Forfeit, u32>,
    /// Moves played.
    pub moves: u32,
    /// Time of every move and of every reply that came too late, ms.
    pub move_ms: Vec<f64>,
    /// The same for the moves of the first 40 plies of a game, and for the later ones.
    pub move_ms_by_phase: [Vec<f64>; 2],
    /// Depths of the moves without a mate score (engines report nominal depths there).
    pub depths: Vec<f64>,
    /// Nodes per second of each move.
    pub nps: Vec<f64>,
    /// The longest move: ms, game number, ply.
    pub longest: Option<(f64, u32, usize)>,
    /// Clock left at the end of each game (clock modes), ms.
    pub clock_left: Vec<f64>,
}

impl EngineTally {
    fn add_game(&mut self, rec: &GameRecord, seat: Seat) {
        let side = rec.side_of(seat);
        self.wdl.add(rec.score_of(seat).unwrap_or(0.0));
        if let Some((fside, how)) = rec.forfeit {
            if fside == side {
                *self.forfeits.entry(how).or_default() += 1;
            }
        }
        for (ply, m) in rec.moves.iter().enumerate() {
            if m.side != side {
                continue;
            }
            // A timeout without a reply is not a time sample; a late reply is.
            if m.mv.is_none() && !m.flags.iter().any(|f| f == "late") {
                continue;
            }
            self.move_ms.push(m.elapsed_ms);
            self.move_ms_by_phase[usize::from(ply >= 40)].push(m.elapsed_ms);
            if self.longest.is_none_or(|(ms, _, _)| m.elapsed_ms > ms) {
                self.longest = Some((m.elapsed_ms, rec.number, ply + 1));
            }
            if m.mv.is_none() {
                continue;
            }
            self.moves += 1;
            if let (Some(d), None) = (m.info.depth, m.info.score_mate) {
                self.depths.push(d as f64);
            }
            if let Some(nps) = m.info.nodes_per_second() {
                self.nps.push(nps as f64);
            }
        }
        if let Some(clocks) = rec.clock_left_ms {
            self.clock_left
                .push(clocks[usize::from(side == super::referee::Side::Black)]);
        }
    }

    /// Forfeits of kind `f`.
    pub fn forfeits_of(&self, f: Forfeit) -> u32 {
        self.forfeits.get(&f).copied().unwrap_or(0)
    }
}

/// The state of a match, shared by the workers.
pub struct MatchState {
    /// Games played, by number.
    pub results: BTreeMap<u32, GameRecord>,
    /// Game numbers in the order they finished.
    pub finished_order: Vec<u32>,
    /// Engines A and B.
    pub tally: [EngineTally; 2],
    /// How games ended: `checkmate`, `time forfeit by X`, ... with counts.
    pub terminations: BTreeMap<String, u32>,
    /// Games not counted.
    pub aborted_games: u32,
    /// Why the match stopped early.
    pub stop_reason: Option<String>,
    /// A failure that stops the match (exit code 2).
    pub fatal: Option<String>,
    /// The SPRT's state after the last game.
    pub sprt: Option<SprtState>,
    /// The engines' `id name`s and header notes.
    pub engine_ids: [Option<String>; 2],
    /// See `engine_ids`.
    pub engine_notes: [Vec<String>; 2],
    next_index: u32,
    start_failures: [u32; 2],
    pgn: Option<File>,
}

/// A match being played.
pub struct Match {
    /// Its settings.
    pub config: MatchConfig,
    state: Mutex<MatchState>,
    stop: AtomicBool,
    started: Instant,
    started_unix: u64,
}

/// What came of a match.
pub struct Outcome {
    /// The JSON summary (also written to `--json`).
    pub summary: serde_json::Value,
    /// A failure that stopped it.
    pub fatal: Option<String>,
    /// Whether it was interrupted.
    pub interrupted: bool,
}

impl Match {
    /// A match not started yet.
    pub fn new(config: MatchConfig) -> Match {
        let names = [config.specs[0].name.clone(), config.specs[1].name.clone()];
        let tally = names.map(|name| EngineTally {
            name,
            ..EngineTally::default()
        });
        Match {
            state: Mutex::new(MatchState {
                results: BTreeMap::new(),
                finished_order: Vec::new(),
                tally,
                terminations: BTreeMap::new(),
                aborted_games: 0,
                stop_reason: None,
                fatal: None,
                sprt: None,
                engine_ids: [None, None],
                engine_notes: [Vec::new(), Vec::new()],
                next_index: 0,
                start_failures: [0, 0],
                pgn: None,
            }),
            config,
            stop: AtomicBool::new(false),
            started: Instant::now(),
            started_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MatchState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn say(&self, text: &str) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn engines(&self, worker: usize) -> [Engine; 2] {
        let cfg = &self.config;
        [0, 1].map(|i| {
            Engine::new(
                cfg.specs[i].clone(),
                cfg.settings,
                cfg.log.clone(),
                &format!("{}#{worker}", cfg.specs[i].name),
            )
        })
    }

    /// Starts each engine once so that a broken command or option fails at once.
    fn preflight(&self) -> Result<[Engine; 2], String> {
        let mut engines = self.engines(0);
        for (i, e) in engines.iter_mut().enumerate() {
            e.start()
                .map_err(|err| format!("engine {} failed to start: {err}", e.spec.name))?;
            let mut notes = e.notes.clone();
            if self.config.game.variant.has_rank_dialects() {
                notes.push(format!("ranks={}", e.rank_base()));
            }
            let mut st = self.lock();
            st.engine_ids[i] = e.id_name.clone();
            st.engine_notes[i] = notes;
        }
        Ok(engines)
    }

    /// Plays the match; progress lines go to stdout.
    pub fn run(&self) -> Result<Outcome, String> {
        let cfg = &self.config;
        if let Some(path) = &cfg.pgn_path {
            let f = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            self.lock().pgn = Some(f);
        }
        let first = self.preflight()?;
        {
            let st = self.lock();
            for i in 0..2 {
                let spec = &cfg.specs[i];
                self.say(&format!(
                    "Engine {}: {} ({}, id '{}'; {})",
                    ["A", "B"][i],
                    spec.name,
                    spec.dialect.name(),
                    st.engine_ids[i].as_deref().unwrap_or("?"),
                    st.engine_notes[i].join(", ")
                ));
            }
        }
        let variant = cfg.game.variant;
        self.say(&format!(
            "Games: {}{}, {}, openings: {}{}, concurrency {}, max-move-ms {}, margin {} ms",
            cfg.games,
            if variant == super::referee::Variant::Xiangqi {
                String::new()
            } else {
                format!(" of {}", variant.name())
            },
            cfg.game.tc.describe(),
            cfg.openings.len(),
            match &cfg.openings_path {
                Some(p) => format!(" ({p})"),
                None => " (start position)".to_string(),
            },
            cfg.concurrency,
            cfg.game.tc.max_move_ms,
            cfg.game.tc.margin_ms
        ));
        let mut first = Some(first);
        std::thread::scope(|scope| {
            for w in 0..cfg.concurrency.max(1) {
                let engines = first.take().unwrap_or_else(|| self.engines(w));
                scope.spawn(move || self.worker(engines));
            }
        });
        let was_interrupted = interrupted();
        if was_interrupted {
            let mut st = self.lock();
            st.stop_reason
                .get_or_insert_with(|| "interrupted".to_string());
        }
        let summary = self.summary();
        if let Some(path) = &cfg.json_path {
            report::write_json(path, &summary).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let fatal = self.lock().fatal.clone();
        Ok(Outcome {
            summary,
            fatal,
            interrupted: was_interrupted,
        })
    }

    fn take_index(&self) -> Option<u32> {
        if self.stop.load(Ordering::SeqCst) || interrupted() {
            return None;
        }
        let mut st = self.lock();
        if st.next_index >= self.config.games {
            return None;
        }
        st.next_index += 1;
        Some(st.next_index - 1)
    }

    fn worker(&self, mut engines: [Engine; 2]) {
        let cfg = &self.config;
        while let Some(index) = self.take_index() {
            let (opening, red) = game_plan(index as usize, &cfg.openings, cfg.colours);
            let Some(fen) = cfg.openings.get(opening) else {
                break;
            };
            let mut rec = GameRecord::new(index + 1, opening, fen, red);
            let [a, b] = &mut engines;
            let (red_engine, black_engine) = match red {
                Seat::A => (a, b),
                Seat::B => (b, a),
            };
            play_game(&mut rec, red_engine, black_engine, &cfg.game, &|| {
                interrupted()
            });
            self.record(rec);
        }
        for e in &mut engines {
            e.stop();
        }
    }

    fn record(&self, rec: GameRecord) {
        let cfg = &self.config;
        let mut st = self.lock();
        if !rec.finished() || interrupted() {
            st.aborted_games += 1;
            if !interrupted() {
                self.say(&format!(
                    "[game {} aborted: {} {}]",
                    rec.number, rec.reason, rec.detail
                ));
                // Both engines failing before move 1 again and again: the set-up is
                // broken; stop instead of looping.
                st.start_failures[0] += 1;
                st.start_failures[1] += 1;
                if st.start_failures.iter().min().copied().unwrap_or(0) >= cfg.max_start_failures {
                    let msg = "both engines keep failing to start".to_string();
                    st.fatal = Some(msg.clone());
                    st.stop_reason = Some(msg);
                    self.stop.store(true, Ordering::SeqCst);
                }
            }
            return;
        }
        for (i, seat) in [Seat::A, Seat::B].into_iter().enumerate() {
            st.tally[i].add_game(&rec, seat);
        }
        let seat_index = |s: Seat| usize::from(s == Seat::B);
        if let Some((side, how)) = rec.forfeit {
            let loser = seat_index(rec.seat_of(side));
            if rec.detail.starts_with("before first move")
                && matches!(how, Forfeit::Crash | Forfeit::Time)
            {
                st.start_failures[loser] += 1;
                if st.start_failures[loser] >= cfg.max_start_failures {
                    let msg = format!(
                        "engine {} failed to start/respond {} times in a row",
                        cfg.specs[loser].name, st.start_failures[loser]
                    );
                    st.fatal = Some(msg.clone());
                    st.stop_reason = Some(msg);
                    self.stop.store(true, Ordering::SeqCst);
                }
            } else {
                st.start_failures[loser] = 0;
            }
        } else {
            st.start_failures = [0, 0];
        }
        let term = match rec.forfeit {
            Some((side, how)) => format!(
                "{} by {}",
                match how {
                    Forfeit::Illegal => "illegal move",
                    Forfeit::Time => "time forfeit",
                    Forfeit::Crash => "crash",
                    Forfeit::Protocol => "bad reply",
                    Forfeit::Resign => "resignation",
                },
                cfg.specs[seat_index(rec.seat_of(side))].name
            ),
            None => rec.reason.split(" (").next().unwrap_or("").to_string(),
        };
        *st.terminations.entry(term).or_default() += 1;
        if let Some(f) = st.pgn.as_mut() {
            let text = game_to_pgn(
                &rec,
                &cfg.event,
                &cfg.game.tc.pgn_tag(),
                cfg.game.variant,
                &pgn_date(rec.started_unix),
            );
            let _ = f.write_all(text.as_bytes()).and_then(|()| f.flush());
        }
        let wdl = st.tally[0].wdl;
        let n = wdl.games();
        let est = wdl.estimate();
        let width = cfg.games.to_string().len();
        let mut line = format!(
            "[{n:>width$}/{}] game {}: {} ({}) vs {} (black): {} {}, {} plies | {}: +{} ={} -{} {:.1}%",
            cfg.games,
            rec.number,
            rec.names[0],
            cfg.game.variant.player(super::referee::Side::Red),
            rec.names[1],
            rec.result.map(|r| r.pgn()).unwrap_or("*"),
            rec.reason,
            rec.plies(),
            cfg.specs[0].name,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            est.map(|e| 100.0 * e.score).unwrap_or(0.0)
        );
        if let Some(e) = est {
            line.push_str(&format!(" Elo {}", format_elo(e.elo, e.error95)));
        }
        if let Some(sprt) = cfg.sprt {
            let state = sprt.state(&wdl);
            line.push_str(&format!(
                " LLR {:.2} [{:.2}, {:.2}]",
                state.llr, state.lower, state.upper
            ));
            st.sprt = Some(state);
            if let Some(h1) = state.verdict {
                if !self.stop.swap(true, Ordering::SeqCst) {
                    st.stop_reason =
                        Some(format!("SPRT accepted {}", if h1 { "H1" } else { "H0" }));
                }
            }
        }
        if rec.forfeit.is_some() && !rec.detail.is_empty() {
            line.push_str(&format!("\n        forfeit detail: {}", rec.detail));
        }
        if !cfg.quiet || rec.forfeit.is_some() {
            self.say(&line);
        }
        st.finished_order.push(rec.number);
        st.results.insert(rec.number, rec);
        if let Some(path) = &cfg.json_path {
            if st.finished_order.len().is_multiple_of(10) {
                let summary = report::summary(self, &st);
                let _ = report::write_json(path, &summary);
            }
        }
    }

    /// The JSON summary of the games so far.
    pub fn summary(&self) -> serde_json::Value {
        let st = self.lock();
        report::summary(self, &st)
    }

    /// Seconds since the match started.
    pub fn elapsed_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// When it started, seconds since the Unix epoch.
    pub fn started_unix(&self) -> u64 {
        self.started_unix
    }
}

/// Game records that count, in game order (for the summary).
pub fn counted(st: &MatchState) -> impl Iterator<Item = &GameRecord> {
    st.results
        .values()
        .filter(|r| r.termination != Termination::Aborted)
}
