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

/// The budget for a move, or `None` when the clock gives no limit (depth, nodes or
/// infinite searches) — the cap then still applies through [`hard_cap`].
pub fn budget(clock: &Clock, settings: &TimeSettings) -> Option<Budget> {
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
    let mtg = clock.moves_to_go.unwrap_or(32).clamp(1, 50);
    // Keep a reserve so that the clock never runs out, even with lag on every move.
    let usable = at_least_1ms(left.saturating_sub(overhead).saturating_sub(left / 50));
    if mtg == 1 {
        // The last move before the time control: all of it is ours.
        let hard = at_least_1ms(usable.mul_f64(0.95)).min(cap);
        return Some(Budget { soft: None, hard });
    }
    let usable = at_least_1ms(usable.saturating_sub(overhead));
    let soft = usable / mtg + clock.increment.mul_f64(0.75);
    let hard_share = (0.25 + 0.5 / mtg as f64).min(0.5);
    let hard = at_least_1ms((soft * 4).min(usable.mul_f64(hard_share)));
    Some(Budget {
        soft: Some(soft.min(hard).min(cap)),
        hard: hard.min(cap),
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
        let b = budget(&clock, &TimeSettings::default()).unwrap();
        assert!(b.hard <= ms(9_700));
        assert_eq!(b.soft, None);
        let clock = Clock {
            time_left: Some(ms(600_000)),
            ..Clock::default()
        };
        let b = budget(&clock, &TimeSettings::default()).unwrap();
        assert!(b.hard <= ms(9_700));
        assert!(b.soft.unwrap() <= b.hard);
    }

    #[test]
    fn short_clock_leaves_reserve() {
        for left in [50, 200, 1_000, 3_000] {
            let clock = Clock {
                time_left: Some(ms(left)),
                increment: ms(100),
                ..Clock::default()
            };
            let b = budget(&clock, &TimeSettings::default()).unwrap();
            assert!(b.hard < ms(left / 2 + 1), "left {left}: {b:?}");
            assert!(b.soft.unwrap() <= b.hard);
        }
    }

    #[test]
    fn movetime_is_obeyed_and_capped() {
        let s = TimeSettings::default();
        let b = budget(
            &Clock {
                move_time: Some(ms(200)),
                ..Clock::default()
            },
            &s,
        )
        .unwrap();
        assert_eq!(b.hard, ms(200));
        let b = budget(
            &Clock {
                move_time: Some(ms(60_000)),
                ..Clock::default()
            },
            &s,
        )
        .unwrap();
        assert_eq!(b.hard, hard_cap(&s));
        assert!(budget(&Clock::default(), &s).is_none());
    }
}
