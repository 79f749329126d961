//! Clock management: turns the protocol's time information into a soft target (do not
//! start another iteration after it, scaled by the search's confidence) and a hard limit
//! (stop at once), both capped so that no move ever takes longer than `max_move_time`;
//! and [`SearchControl`], through which whoever runs a search (any game's move chooser)
//! stops it and watches those deadlines.

use crate::common::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The time information of one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on our clock.
    pub time_left: Option<Duration>,
    /// Our increment per move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: the whole game / sudden death).
    pub moves_to_go: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
}

/// Soft and hard budget of one move, measured from reading `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Target: no new iteration after (a multiple of) this. `None` for a fixed time per
    /// move, which is spent in full: saving it gains nothing.
    pub soft: Option<Duration>,
    /// Limit: stop searching at once.
    pub hard: Duration,
}

/// Engine settings that shape the budget.
#[derive(Clone, Copy, Debug)]
pub struct TimeSettings {
    /// Longest a move may ever take, from `go` to `bestmove` (default 10 s).
    pub max_move_time: Duration,
    /// Time lost per move to process, pipe and GUI overhead, kept back on a clock (a
    /// fixed `movetime` is spent in full).
    pub move_overhead: Duration,
}

impl Default for TimeSettings {
    fn default() -> Self {
        TimeSettings {
            max_move_time: Duration::from_millis(10_000),
            move_overhead: Duration::from_millis(10),
        }
    }
}

/// Margin kept below `max_move_time` for stopping the threads, printing and the pipe.
const CAP_MARGIN: Duration = Duration::from_millis(300);

/// Moves a clock without moves-to-go is planned for: what is left now plus this many
/// increments still to come is the pool each move takes its share of.
const PLANNED_MOVES: u32 = 50;
/// A move's share of the pool on a clock without moves-to-go: `SHARE_BASE + SHARE_PLY ·
/// (plies played + 3)^0.45`, so the middle game gets more than the first moves (where
/// the book and the opening's simplicity help) and the share grows as the pool shrinks:
/// the clock is spent, not left over at the end. The shape is Stockfish's, with shares
/// about 40 % larger because jiang does not start an iteration it expects not to finish
/// (it spends about 0.9 of its target, where Stockfish overshoots its own).
const SHARE_BASE: f64 = 0.017;
/// See [`SHARE_BASE`].
const SHARE_PLY: f64 = 0.005;
/// Kept back on the clock and never planned with: a move the operating system delays (a
/// busy machine, a GUI's lag) then costs the reserve, not the game. With an increment the
/// reserve is kept whole (below it jiang lives on the increment); without one it is at
/// most a quarter of what is left. Spending down to the last 0.2 s lost 12 games in 288 on time at 10 s + 0.1 s
/// on a loaded machine.
const RESERVE: Duration = Duration::from_millis(1000);
/// No single move's target exceeds this part of the time above the reserve (plus what
/// the increment brings) ...
const MAX_SHARE_OF_SPARE: f64 = 0.2;
/// ... and what the increment brings, less the overhead, counts this much: it can be
/// spent on every move for ever.
const INCREMENT_USE: f64 = 0.8;
/// The hard limit: at most this many targets ...
const HARD_PER_SOFT: f64 = 5.0;
/// ... and never more than this part of the time above the reserve (plus the increment).
const HARD_SHARE_OF_SPARE: f64 = 0.6;

/// The budget for the move after `plies_played` plies of the game
/// ([`crate::game::Rules::plies_played`]), or `None` when the clock gives no limit (depth,
/// nodes or infinite searches) — the cap then still applies through [`hard_cap`].
pub fn budget(clock: &Clock, plies_played: usize, settings: &TimeSettings) -> Option<Budget> {
    let cap = hard_cap(settings);
    let overhead = settings.move_overhead;
    let at_least_1ms = |d: Duration| d.max(Duration::from_millis(1));
    if let Some(mt) = clock.move_time {
        // A fixed time per move is spent in full, as Stockfish and Pikafish do: the GUI
        // asked for this long and judges no clock, so the overhead (kept for clocks) is
        // not taken off it. The cap still holds.
        let hard = at_least_1ms(mt).min(cap);
        return Some(Budget { soft: None, hard });
    }
    let left = clock.time_left?;
    let per_move_s = clock.increment.saturating_sub(overhead).as_secs_f64() * INCREMENT_USE;
    let reserve = if per_move_s > 0.0 {
        RESERVE
    } else {
        RESERVE.min(left / 4)
    };
    // What is left above the reserve: all a plan may spend.
    let spare = left.saturating_sub(reserve);
    if clock.moves_to_go == Some(1) {
        // The last move before the time control: all of it is ours, but for the reserve
        // and the overhead.
        let hard = at_least_1ms(spare.saturating_sub(overhead)).min(cap);
        return Some(Budget { soft: None, hard });
    }
    let moves = clock
        .moves_to_go
        .map_or(PLANNED_MOVES, |m| m.clamp(2, PLANNED_MOVES));
    // What the rest of the game (or of this time control) has to spend: the time left
    // above the reserve, the increments to come, less the overhead of every move.
    let pool = (spare + clock.increment * (moves - 1)).saturating_sub(overhead * (moves + 2));
    let pool_s = pool.as_secs_f64().max(0.001);
    let spare_s = spare.as_secs_f64();
    let ply = plies_played as f64;
    let share = match clock.moves_to_go {
        None => SHARE_BASE + SHARE_PLY * (ply + 3.0).powf(0.45),
        // Repeating time controls: an even share of the moves to go, a little more as
        // the game goes on (a long game's later controls are played faster).
        Some(_) => (1.0 + ply / 120.0).min(1.5) / moves as f64,
    };
    let soft_s = (share * pool_s).min(MAX_SHARE_OF_SPARE * spare_s + per_move_s);
    let hard_s = (HARD_PER_SOFT * soft_s)
        .min(HARD_SHARE_OF_SPARE * spare_s + per_move_s)
        .max(0.001);
    let hard = at_least_1ms(Duration::from_secs_f64(hard_s)).min(cap);
    let soft = at_least_1ms(Duration::from_secs_f64(soft_s.max(0.0))).min(hard);
    Some(Budget {
        soft: Some(soft),
        hard,
    })
}

/// The absolute limit of any timed search: `max_move_time` minus a safety margin.
pub fn hard_cap(settings: &TimeSettings) -> Duration {
    settings
        .max_move_time
        .saturating_sub(CAP_MARGIN)
        .max(Duration::from_millis(10))
}

/// Shared, thread-safe control of a running search: stop flag, ponder state, deadlines.
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Instant,
    /// Milliseconds since `start` after which no new iteration should begin (scaled by
    /// the search), `u64::MAX` for none.
    soft_ms: AtomicU64,
    /// Milliseconds since `start` at which the search stops at once.
    hard_ms: AtomicU64,
}

impl SearchControl {
    /// A control whose clock starts now. `soft`/`hard` are budgets from now; `None` means
    /// no time limit. With `pondering`, the clock does not run until [`Self::ponderhit`].
    pub fn new(soft: Option<Duration>, hard: Option<Duration>, pondering: bool) -> Self {
        let ms = |d: Option<Duration>| d.map_or(u64::MAX, |d| d.as_millis() as u64);
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            soft_ms: AtomicU64::new(ms(soft)),
            hard_ms: AtomicU64::new(ms(hard)),
        }
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was requested.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the budgets now run from this moment.
    pub fn ponderhit(&self) {
        let now = self.elapsed_ms();
        for d in [&self.soft_ms, &self.hard_ms] {
            let v = d.load(Ordering::Relaxed);
            if v != u64::MAX {
                d.store(v.saturating_add(now), Ordering::Relaxed);
            }
        }
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is pondering (clock not running).
    #[inline(always)]
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Milliseconds since the search started.
    #[inline(always)]
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub(crate) fn soft_ms(&self) -> u64 {
        self.soft_ms.load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub(crate) fn hard_ms(&self) -> u64 {
        self.hard_ms.load(Ordering::Relaxed)
    }

    /// Whether any time limit is set.
    pub fn has_time_limit(&self) -> bool {
        self.hard_ms() != u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn ten_minute_clock_is_capped_below_ten_seconds() {
        let clock = Clock {
            time_left: Some(ms(600_000)),
            moves_to_go: Some(1),
            ..Clock::default()
        };
        let b = budget(&clock, 0, &TimeSettings::default()).unwrap();
        assert!(b.hard <= ms(9_700));
        assert_eq!(b.soft, None);
        let clock = Clock {
            time_left: Some(ms(600_000)),
            ..Clock::default()
        };
        let b = budget(&clock, 0, &TimeSettings::default()).unwrap();
        assert!(b.hard <= ms(9_700));
        assert!(b.soft.unwrap() <= b.hard);
    }

    #[test]
    fn spending_every_hard_limit_in_full_never_flags() {
        // The worst case: every move runs to its hard limit and loses the overhead on
        // top; with an increment above the overhead the clock never runs out.
        let settings = TimeSettings::default();
        for (start, inc) in [(10_000, 100), (1_000, 20), (60_000, 600), (300, 20)] {
            let mut left = ms(start);
            for ply in (0..600).step_by(2) {
                let clock = Clock {
                    time_left: Some(left),
                    increment: ms(inc),
                    ..Clock::default()
                };
                let b = budget(&clock, ply, &settings).unwrap();
                assert!(b.soft.unwrap() <= b.hard, "{clock:?}: {b:?}");
                let spent = b.hard + settings.move_overhead;
                assert!(spent < left, "ply {ply}, {clock:?}: {b:?}");
                left = left - spent + ms(inc);
            }
        }
    }

    #[test]
    fn the_clock_is_spent_and_more_of_it_in_the_middle_game() {
        // Spending about the target every move (what the search does, on average): by
        // move 60 of 10 s + 0.1 s less than 2.5 s are left, about the reserve, and the
        // middle game's moves
        // get more than the first and the last.
        let settings = TimeSettings::default();
        let mut left = ms(10_000);
        let mut spent = Vec::new();
        for ply in (0..120).step_by(2) {
            let clock = Clock {
                time_left: Some(left),
                increment: ms(100),
                ..Clock::default()
            };
            let soft = budget(&clock, ply, &settings).unwrap().soft.unwrap();
            spent.push(soft);
            left = left - soft - settings.move_overhead + ms(100);
        }
        assert!(left < ms(2_500), "left {left:?}");
        assert!(left > ms(800), "left {left:?}");
        let mean = |s: &[Duration]| s.iter().sum::<Duration>() / s.len() as u32;
        assert!(mean(&spent[8..20]) > mean(&spent[..4]), "{spent:?}");
        assert!(mean(&spent[8..20]) > mean(&spent[45..]) * 2, "{spent:?}");
    }

    #[test]
    fn moves_to_go_are_shared_evenly_and_the_last_gets_nearly_all() {
        let settings = TimeSettings::default();
        let clock = |mtg| Clock {
            time_left: Some(ms(60_000)),
            moves_to_go: Some(mtg),
            ..Clock::default()
        };
        let b = budget(&clock(30), 40, &settings).unwrap();
        assert!(
            b.soft.unwrap() > ms(1_700) && b.soft.unwrap() < ms(3_000),
            "{b:?}"
        );
        let last = budget(&clock(1), 40, &settings).unwrap();
        assert_eq!(last.soft, None);
        assert!(last.hard > ms(9_000) || last.hard == hard_cap(&settings));
    }

    #[test]
    fn movetime_is_obeyed_and_capped() {
        let s = TimeSettings::default();
        let b = budget(
            &Clock {
                move_time: Some(ms(200)),
                ..Clock::default()
            },
            0,
            &s,
        )
        .unwrap();
        assert_eq!(b.hard, ms(200));
        let b = budget(
            &Clock {
                move_time: Some(ms(60_000)),
                ..Clock::default()
            },
            0,
            &s,
        )
        .unwrap();
        assert_eq!(b.hard, hard_cap(&s));
        assert!(budget(&Clock::default(), 0, &s).is_none());
    }
}
