//! One game between two engines under the referee: the clocks, the limits, the
//! forfeits and the adjudication, as the independent runner `xqmatch` plays it.
//!
//! Times are measured by the runner from writing `go` to reading the `bestmove` line. In
//! every mode a move taking longer than the per-move cap (`--max-move-ms`, 10 s) plus the
//! grace margin (`--margin-ms`, 200 ms) loses on time; on a clock, a move taking longer
//! than the time left plus the margin loses ("flag fell"), otherwise the clock loses the
//! time taken and gains the increment; at a fixed time per move, a move taking longer than
//! that time plus the margin loses. The engine is sent `stop` when its deadline passes and
//! is given the stop grace to answer before it is killed.
//!
//! Forfeits, each a loss counted against the engine: an illegal move (well-formed, not
//! legal: the message says when it would be legal with the other rank numbering), a time
//! loss, a crash (the engine exits or closes its output, before the first move too), a
//! bad reply (an unparsable move, no move in a position that is not over). An engine that
//! resigns (UCCI `bestmove M resign`) loses after its move is played, unless that move
//! ended the game. `nobestmove` is a draw claim that is accepted only after as many plies
//! without capture as the game's own rule asks (Xiangqi 120) or `--no-capture-plies`.

use super::engine::{Engine, Fault};
use super::protocol::{GoLimit, Info};
use super::referee::{EndKind, GameResult, RuleEnd, Side, Variant};
use std::time::Instant;

/// The limit of every search of the match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A Fischer clock: base and increment in ms; `moves`: a repeating control, the base
    /// added again every `moves` moves of a side (`40/60+0`).
    Clock {
        /// Time at the start, ms.
        base_ms: u64,
        /// Added after each move, ms.
        inc_ms: u64,
        /// Moves per period of a repeating control.
        moves: Option<u32>,
    },
    /// A fixed time per move, ms.
    MoveTime(u64),
    /// A fixed depth.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

/// The time rules of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// What the engines are told.
    pub limit: Limit,
    /// The cap on any move, ms.
    pub max_move_ms: u64,
    /// The grace added to every limit, ms.
    pub margin_ms: u64,
}

impl TimeControl {
    /// `10+0.1`, `40/60+0`, `movetime 200 ms`, `depth 8`, `nodes 5000`.
    pub fn describe(&self) -> String {
        match self.limit {
            Limit::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let tc = format!("{}+{}", seconds(base_ms), seconds(inc_ms));
                match moves {
                    Some(m) => format!("{m}/{tc}"),
                    None => tc,
                }
            }
            Limit::MoveTime(ms) => format!("movetime {ms} ms"),
            Limit::Depth(d) => format!("depth {d}"),
            Limit::Nodes(n) => format!("nodes {n}"),
        }
    }

    /// The PGN `TimeControl` tag: `10+0.1`, `40/60`, `0.2/move`, `-` for fixed depth
    /// or nodes.
    pub fn pgn_tag(&self) -> String {
        match self.limit {
            Limit::Clock { .. } => self.describe(),
            Limit::MoveTime(ms) => format!("{}/move", seconds(ms)),
            _ => "-".to_string(),
        }
    }

    /// Reads `BASE+INC` in seconds (`10+0.1`, `60`, `1:00+1`), or `MOVES/BASE+INC`.
    pub fn parse_clock(text: &str) -> Result<Limit, String> {
        let bad =
            || format!("bad --tc '{text}' (BASE+INC in seconds, e.g. 10+0.1, or MOVES/BASE+INC)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, ""));
        let inc = if inc.trim().is_empty() { "0" } else { inc };
        let secs = |s: &str| -> Result<f64, String> {
            let s = s.trim();
            let v = match s.split_once(':') {
                Some((m, sec)) => {
                    m.parse::<f64>().map_err(|_| bad())? * 60.0
                        + sec.parse::<f64>().map_err(|_| bad())?
                }
                None => s.parse::<f64>().map_err(|_| bad())?,
            };
            if v.is_finite() && v >= 0.0 {
                Ok(v)
            } else {
                Err(bad())
            }
        };
        let (b, i) = (secs(base)?, secs(inc)?);
        if b <= 0.0 || moves == Some(0) {
            return Err(bad());
        }
        Ok(Limit::Clock {
            base_ms: (b * 1000.0).round() as u64,
            inc_ms: (i * 1000.0).round() as u64,
            moves,
        })
    }
}

fn seconds(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    // As Python's %g writes it: 10, 0.1, 1.5.
    let t = format!("{s:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// How the games of a match end besides the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameConfig {
    /// The game.
    pub variant: Variant,
    /// The time rules.
    pub tc: TimeControl,
    /// A draw after this many plies of the game (0: never).
    pub draw_plies: u32,
    /// A draw after this many plies without capture (0: only the game's own rule).
    pub no_capture_plies: u32,
    /// Whether `bestmove M resign` ends the game.
    pub honour_resign: bool,
    /// Mixed into the deal of every pair of games where a game hides pieces (Jieqi):
    /// another seed, other deals.
    pub deal_seed: u64,
}

/// What an engine's failure is counted as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Forfeit {
    /// A move that is not legal.
    Illegal,
    /// Too slow.
    Time,
    /// The engine died.
    Crash,
    /// A reply that makes no sense.
    Protocol,
    /// It resigned (a loss, not counted among the faults).
    Resign,
}

impl Forfeit {
    /// The name in the JSON: `illegal`, `time`, `crash`, `protocol`, `resign`.
    pub fn name(self) -> &'static str {
        match self {
            Forfeit::Illegal => "illegal",
            Forfeit::Time => "time",
            Forfeit::Crash => "crash",
            Forfeit::Protocol => "protocol",
            Forfeit::Resign => "resign",
        }
    }

    /// In words, after the side: `red illegal move`.
    pub fn words(self) -> &'static str {
        match self {
            Forfeit::Illegal => "illegal move",
            Forfeit::Time => "loses on time",
            Forfeit::Crash => "engine crashed",
            Forfeit::Protocol => "bad reply",
            Forfeit::Resign => "resigns",
        }
    }

    fn of(fault: Fault) -> Forfeit {
        match fault {
            Fault::Time => Forfeit::Time,
            Fault::Protocol => Forfeit::Protocol,
            Fault::Crash | Fault::Interrupted => Forfeit::Crash,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules.
    Rules,
    /// By adjudication.
    Adjudication,
    /// An engine forfeited.
    Forfeit,
    /// An engine resigned.
    Resign,
    /// Not finished (interrupted, or both engines failed before the first move): not
    /// counted.
    Aborted,
}

impl Termination {
    /// `rules`, `adjudication`, `forfeit`, `resign`, `aborted`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Adjudication => "adjudication",
            Termination::Forfeit => "forfeit",
            Termination::Resign => "resign",
            Termination::Aborted => "aborted",
        }
    }
}

/// One move of a game (or the reply that came too late, or the timeout).
#[derive(Clone, Debug)]
pub struct MoveRecord {
    /// The move played (`None`: a timeout or a late reply, which lost).
    pub mv: Option<String>,
    /// Who moved.
    pub side: Side,
    /// Time taken, ms.
    pub elapsed_ms: f64,
    /// The engine's last info.
    pub info: Info,
    /// The mover's clock after the move (clock modes).
    pub clock_ms: Option<f64>,
    /// `late`, `timeout`, or the engine's reply flags.
    pub flags: Vec<String>,
}

/// Which engine played which side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Engine A (the first `--engine`).
    A,
    /// Engine B.
    B,
}

/// A game and how it went.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, from 1.
    pub number: u32,
    /// Index of the opening in the openings list.
    pub opening_index: usize,
    /// The start position.
    pub start_fen: String,
    /// The engine playing Red (the first player).
    pub red: Seat,
    /// Display names of the Red and Black engines.
    pub names: [String; 2],
    /// The moves.
    pub moves: Vec<MoveRecord>,
    /// The result (`None`: aborted).
    pub result: Option<GameResult>,
    /// Why it ended, in words.
    pub reason: String,
    /// How it ended.
    pub termination: Termination,
    /// The side that forfeited (or resigned), and how.
    pub forfeit: Option<(Side, Forfeit)>,
    /// Details of a forfeit.
    pub detail: String,
    /// The last position.
    pub final_fen: String,
    /// Wall time of the game, s.
    pub duration_s: f64,
    /// Clock left to each side at the end, ms (clock modes).
    pub clock_left_ms: Option<[f64; 2]>,
    /// The time it started (seconds since the Unix epoch).
    pub started_unix: u64,
}

impl GameRecord {
    /// A game about to start: engine `red` plays Red from `start_fen`.
    pub fn new(number: u32, opening_index: usize, start_fen: &str, red: Seat) -> GameRecord {
        GameRecord {
            number,
            opening_index,
            start_fen: start_fen.to_string(),
            red,
            names: [String::new(), String::new()],
            moves: Vec::new(),
            result: None,
            reason: String::new(),
            termination: Termination::Aborted,
            forfeit: None,
            detail: String::new(),
            final_fen: start_fen.to_string(),
            duration_s: 0.0,
            clock_left_ms: None,
            started_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        }
    }

    /// The engine on `side`.
    pub fn seat_of(&self, side: Side) -> Seat {
        match (side, self.red) {
            (Side::Red, s) => s,
            (Side::Black, Seat::A) => Seat::B,
            (Side::Black, Seat::B) => Seat::A,
        }
    }

    /// The side engine `seat` played.
    pub fn side_of(&self, seat: Seat) -> Side {
        if self.red == seat {
            Side::Red
        } else {
            Side::Black
        }
    }

    /// The score of engine `seat` (`None` if aborted).
    pub fn score_of(&self, seat: Seat) -> Option<f64> {
        self.result.map(|r| r.score_for(self.side_of(seat)))
    }

    /// Moves played (not counting a timeout or a late reply).
    pub fn plies(&self) -> usize {
        self.moves.iter().filter(|m| m.mv.is_some()).count()
    }

    /// Whether the game counts.
    pub fn finished(&self) -> bool {
        self.result.is_some() && self.termination != Termination::Aborted
    }

    fn finish(&mut self, end: RuleEnd) {
        self.result = Some(end.result);
        self.reason = end.reason;
        self.termination = match end.kind {
            EndKind::Rules => Termination::Rules,
            EndKind::Adjudication => Termination::Adjudication,
        };
    }

    fn forfeit(&mut self, variant: Variant, side: Side, how: Forfeit, detail: String) {
        self.forfeit = Some((side, how));
        self.result = Some(GameResult::win_for(side.flip()));
        self.termination = if how == Forfeit::Resign {
            Termination::Resign
        } else {
            Termination::Forfeit
        };
        self.reason = format!("{} {}", variant.player(side), how.words());
        self.detail = detail;
    }

    fn abort(&mut self, reason: &str, detail: String) {
        self.result = None;
        self.termination = Termination::Aborted;
        self.reason = reason.to_string();
        self.detail = detail;
    }
}

/// Plays the game of `rec` between `red` and `black`, filling `rec`. `abort` is asked
/// between moves (and an interrupted wait ends the game as aborted).
pub fn play_game(
    rec: &mut GameRecord,
    red: &mut Engine,
    black: &mut Engine,
    cfg: &GameConfig,
    abort: &dyn Fn() -> bool,
) {
    let started = Instant::now();
    play(rec, red, black, cfg, abort);
    rec.duration_s = started.elapsed().as_secs_f64();
}

fn play(
    rec: &mut GameRecord,
    red: &mut Engine,
    black: &mut Engine,
    cfg: &GameConfig,
    abort: &dyn Fn() -> bool,
) {
    let variant = cfg.variant;
    rec.names = [red.spec.name.clone(), black.spec.name.clone()];
    // Both games of a pair (colours swapped) meet the same deal of Jieqi's hidden pieces.
    let deal = u64::from(rec.number.div_ceil(2)) ^ cfg.deal_seed.rotate_left(32);
    let mut board = match variant.referee_dealt(&rec.start_fen, deal) {
        Ok(b) => b,
        Err(e) => {
            rec.abort("bad start position", e);
            return;
        }
    };
    rec.start_fen = board.start_fen().to_string();
    rec.final_fen = rec.start_fen.clone();

    // Both engines ready for a new game.
    let r = red.new_game();
    let b = black.new_game();
    match (r, b) {
        (Ok(()), Ok(())) => {}
        (Err(e1), Err(e2)) => {
            if e1.fault == Fault::Interrupted || e2.fault == Fault::Interrupted {
                rec.abort("match interrupted", String::new());
            } else {
                rec.abort(
                    "both engines failed before the first move",
                    format!("{}: {e1}; {}: {e2}", rec.names[0], rec.names[1]),
                );
            }
            return;
        }
        (Err(e), Ok(())) | (Ok(()), Err(e)) if e.fault == Fault::Interrupted => {
            rec.abort("match interrupted", String::new());
            return;
        }
        (Err(e), Ok(())) => {
            let detail = format!("before first move: {e}");
            rec.forfeit(variant, Side::Red, Forfeit::of(e.fault), detail);
            return;
        }
        (Ok(()), Err(e)) => {
            let detail = format!("before first move: {e}");
            rec.forfeit(variant, Side::Black, Forfeit::of(e.fault), detail);
            return;
        }
    }

    let tc = cfg.tc;
    let margin = tc.margin_ms as f64;
    let base = match tc.limit {
        Limit::Clock { base_ms, .. } => base_ms as f64,
        _ => 0.0,
    };
    let mut clocks = [base, base];
    let mut moves_made = [0u32; 2];
    let idx = |s: Side| if s == Side::Red { 0 } else { 1 };
    loop {
        if abort() {
            rec.abort("match interrupted", String::new());
            break;
        }
        if let Some(end) = board.end(cfg.no_capture_plies) {
            rec.finish(end);
            break;
        }
        if cfg.draw_plies > 0 && board.moves().len() >= cfg.draw_plies as usize {
            rec.finish(RuleEnd {
                result: GameResult::Draw,
                reason: format!("max plies ({}) reached", cfg.draw_plies),
                kind: EndKind::Adjudication,
            });
            break;
        }
        let side = board.side_to_move();
        let engine: &mut Engine = if side == Side::Red {
            &mut *red
        } else {
            &mut *black
        };
        let mut budget = tc.max_move_ms as f64;
        let mut budget_what = format!("max-move-ms {}", tc.max_move_ms);
        let limit = match tc.limit {
            Limit::Clock { inc_ms, moves, .. } => {
                let mine = clocks[idx(side)];
                if mine < budget {
                    budget = mine.max(0.0);
                    budget_what = format!("flag fell: clock had {mine:.0} ms");
                }
                GoLimit::Clock {
                    red_ms: clocks[0].max(0.0) as u64,
                    black_ms: clocks[1].max(0.0) as u64,
                    inc_ms,
                    moves_to_go: moves.map(|m| m - moves_made[idx(side)] % m),
                }
            }
            Limit::MoveTime(ms) => {
                if (ms as f64) < budget {
                    budget = ms as f64;
                    budget_what = format!("movetime {ms}");
                }
                GoLimit::MoveTime(ms)
            }
            Limit::Depth(d) => GoLimit::Depth(d),
            Limit::Nodes(n) => GoLimit::Nodes(n),
        };
        let hard_ms = budget + margin;
        let res = match engine.search(board.start_fen(), board.moves(), side, &limit, hard_ms) {
            Ok(r) => r,
            Err(err) => {
                if err.fault == Fault::Interrupted || abort() {
                    rec.abort("match interrupted", String::new());
                    break;
                }
                let mut detail = err.message.clone();
                if err.fault == Fault::Time {
                    detail = format!("{detail} ({budget_what} + margin {margin:.0} ms)");
                }
                if let Some(ms) = err.elapsed_ms {
                    detail.push_str(&format!(" (after {ms:.0} ms)"));
                    if err.fault == Fault::Time {
                        rec.moves.push(MoveRecord {
                            mv: None,
                            side,
                            elapsed_ms: ms,
                            info: Info::default(),
                            clock_ms: None,
                            flags: vec!["timeout".into()],
                        });
                    }
                }
                rec.forfeit(variant, side, Forfeit::of(err.fault), detail);
                break;
            }
        };
        let elapsed = res.elapsed_ms;
        // Time.
        let late = if elapsed > tc.max_move_ms as f64 + margin {
            Some(format!(
                "move took {elapsed:.0} ms > max-move-ms {} + margin {margin:.0}",
                tc.max_move_ms
            ))
        } else {
            match tc.limit {
                Limit::Clock { .. } if elapsed > clocks[idx(side)] + margin => Some(format!(
                    "flag fell: move took {elapsed:.0} ms with {:.0} ms on the clock (margin {margin:.0})",
                    clocks[idx(side)]
                )),
                Limit::MoveTime(ms) if elapsed > ms as f64 + margin => Some(format!(
                    "move took {elapsed:.0} ms > movetime {ms} + margin {margin:.0}"
                )),
                _ => None,
            }
        };
        if let Some(late) = late {
            rec.moves.push(MoveRecord {
                mv: None,
                side,
                elapsed_ms: elapsed,
                info: res.info,
                clock_ms: None,
                flags: vec!["late".into()],
            });
            rec.forfeit(variant, side, Forfeit::Time, late);
            break;
        }
        // The move.
        let Some(raw) = res.raw.clone() else {
            // No move in a position that is not over: a draw claim where the no-capture
            // rule supports it, a bad reply otherwise.
            let limit = if cfg.no_capture_plies > 0 {
                cfg.no_capture_plies
            } else {
                board.rule_no_capture_plies()
            };
            let quiet = board.plies_without_capture();
            if limit > 0 && quiet >= limit {
                rec.finish(RuleEnd {
                    result: GameResult::Draw,
                    reason: format!(
                        "draw claimed by {} ('{}') after {quiet} plies without capture",
                        engine.spec.name, res.line
                    ),
                    kind: EndKind::Adjudication,
                });
            } else {
                rec.forfeit(
                    variant,
                    side,
                    Forfeit::Protocol,
                    format!("no move: '{}'", res.line),
                );
            }
            break;
        };
        let Some(mv) = res.mv.clone() else {
            rec.forfeit(
                variant,
                side,
                Forfeit::Protocol,
                format!("unparsable move in '{}'", res.line),
            );
            engine.mark_for_restart();
            break;
        };
        let Some(canonical) = board.legal(&mv) else {
            let mut detail = format!(
                "illegal move '{raw}' (ply {}, fen {})",
                board.moves().len() + 1,
                board.fen()
            );
            if let Some(alt) = engine.other_dialect(&raw) {
                if board.legal(&alt).is_some() {
                    detail.push_str(&format!(
                        "; it would be legal with ranks={}: check the engine's rank numbering",
                        1 - engine.rank_base()
                    ));
                }
            }
            rec.forfeit(variant, side, Forfeit::Illegal, detail);
            break;
        };
        let clock_after = match tc.limit {
            Limit::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let i = idx(side);
                clocks[i] = clocks[i] - elapsed + inc_ms as f64;
                moves_made[i] += 1;
                if let Some(m) = moves {
                    if moves_made[i] % m == 0 {
                        clocks[i] += base_ms as f64;
                    }
                }
                Some(clocks[i])
            }
            _ => None,
        };
        board.push(&canonical);
        let resigned = cfg.honour_resign && res.flags.iter().any(|f| f == "resign");
        rec.moves.push(MoveRecord {
            mv: Some(canonical),
            side,
            elapsed_ms: elapsed,
            info: res.info,
            clock_ms: clock_after,
            flags: res.flags,
        });
        if resigned {
            match board.end(cfg.no_capture_plies) {
                Some(end) => rec.finish(end),
                None => rec.forfeit(
                    variant,
                    side,
                    Forfeit::Resign,
                    format!("engine resigned with 'bestmove {raw} resign'"),
                ),
            }
            break;
        }
    }
    rec.final_fen = board.fen();
    if matches!(tc.limit, Limit::Clock { .. }) {
        rec.clock_left_ms = Some(clocks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_read_as_xqmatch_reads_them() {
        let clock = |t: &str| TimeControl::parse_clock(t);
        assert_eq!(
            clock("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10000,
                inc_ms: 100,
                moves: None
            })
        );
        assert_eq!(
            clock("1:00+1"),
            Ok(Limit::Clock {
                base_ms: 60000,
                inc_ms: 1000,
                moves: None
            })
        );
        assert_eq!(
            clock("40/60"),
            Ok(Limit::Clock {
                base_ms: 60000,
                inc_ms: 0,
                moves: Some(40)
            })
        );
        for bad in ["0+1", "x", "10+-1", "0/10", "+1"] {
            assert!(clock(bad).is_err(), "{bad}");
        }
        let tc = TimeControl {
            limit: clock("10+0.1").unwrap(),
            max_move_ms: 10000,
            margin_ms: 200,
        };
        assert_eq!(
            (tc.describe(), tc.pgn_tag()),
            ("10+0.1".into(), "10+0.1".into())
        );
        let tc = TimeControl {
            limit: Limit::MoveTime(200),
            ..tc
        };
        assert_eq!(tc.pgn_tag(), "0.2/move");
    }
}
