//! Time: the budget of one move under the reference's whole-game clock
//! ([`time_budget`]), and, while a search runs, when it must stop (stop command, node
//! limit, hard deadline; the deadline starts at the ponder-hit when pondering).

use super::Searcher;
use crate::time::{hard_cap, TimeSettings};
use std::time::Duration;

/// Moves the whole-game clock keeps a reserve of move overheads for.
const RESERVE_MOVES: u32 = 150;

/// The budget of one move under the reference's whole-game clock (each player has
/// `remaining` for the rest of the game, no increment), after `plies_played` plies of
/// the game: (soft, hard). No new iteration starts after `soft`; the search stops at
/// `hard`, which never exceeds the 10 s cap of `settings` nor an eighth of what is left
/// above a reserve for 150 more moves.
pub fn time_budget(
    remaining: Duration,
    plies_played: usize,
    settings: &TimeSettings,
) -> (Duration, Duration) {
    let cap = hard_cap(settings);
    let overhead = settings.move_overhead;
    // Keep a reserve against lag: 2 % of the clock, plus enough for 150 more moves that
    // cost only their overhead, so that even a game far longer than usual, every move
    // using its whole hard budget, never runs out.
    let reserve = remaining / 50 + (overhead + Duration::from_millis(1)) * RESERVE_MOVES;
    let usable = remaining.saturating_sub(reserve);
    // Expected moves still to play: games against weak players end within about 40 of
    // our moves; never plan for fewer than 20 more, so that the clock decays slowly
    // (a long game still has time for a hundred more moves).
    let own_moves = (plies_played / 3) as u32;
    let moves_left = 40u32.saturating_sub(own_moves / 2).max(20);
    let soft = usable / moves_left;
    let hard = (soft * 3).min(usable / 8).min(cap);
    let soft = soft.min(hard);
    let floor = Duration::from_millis(1);
    (soft.max(floor), hard.max(floor))
}

impl Searcher<'_> {
    /// Whether to stop now: polled every 256 nodes (a millisecond or two at most), and
    /// every 16 during the first 4096, which can be slow while a fresh hash table is
    /// faulted in (the self-play soak saw a `go movetime 50` answer after 270 ms).
    #[inline(always)]
    pub(super) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 255 == 0 || (self.nodes < 4096 && self.nodes & 15 == 0) {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.control.stopped() {
            self.stopped = true;
            return;
        }
        if self.request.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        let now = self.control.elapsed_ms();
        match self.clock_base {
            None => {
                if !self.control.pondering() {
                    self.clock_base = Some(now);
                }
            }
            Some(base) => {
                if let Some(hard) = self.request.budget.map(|b| b.hard) {
                    if now.saturating_sub(base) >= hard.as_millis() as u64 {
                        self.stopped = true;
                    }
                }
            }
        }
    }

    /// Milliseconds of our budget used (0 while pondering).
    pub(super) fn used_ms(&self) -> u64 {
        match self.clock_base {
            Some(base) => self.control.elapsed_ms().saturating_sub(base),
            None => 0,
        }
    }
}
