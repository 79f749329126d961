//! Search statistics for tuning: how often each pruning, reduction and extension fires,
//! and how many nodes each remaining depth takes. Compiled in only with the cargo feature
//! `search-stats` (`cargo build --release --features search-stats`); without it the
//! `stat!` macro expands to nothing, so normal builds pay nothing. `jiang bench` prints
//! the counters when the feature is on.

/// The counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Stat {
    Nodes,
    QNodes,
    TtHit,
    TtCut,
    Rfp,
    Razor,
    NullTry,
    NullCut,
    ProbCutTry,
    ProbCut,
    Futility,
    Lmp,
    HistPrune,
    SeeQuiet,
    SeeCapture,
    LmrSearch,
    LmrResearch,
    SingularTry,
    SingularExt,
    MultiCut,
    CheckExt,
    ChanceNode,
    FirstMoveCut,
    Cut,
    QDelta,
    QSee,
}

/// All counters, in print order.
pub const ALL: [Stat; 26] = [
    Stat::Nodes,
    Stat::QNodes,
    Stat::TtHit,
    Stat::TtCut,
    Stat::Rfp,
    Stat::Razor,
    Stat::NullTry,
    Stat::NullCut,
    Stat::ProbCutTry,
    Stat::ProbCut,
    Stat::Futility,
    Stat::Lmp,
    Stat::HistPrune,
    Stat::SeeQuiet,
    Stat::SeeCapture,
    Stat::LmrSearch,
    Stat::LmrResearch,
    Stat::SingularTry,
    Stat::SingularExt,
    Stat::MultiCut,
    Stat::CheckExt,
    Stat::ChanceNode,
    Stat::FirstMoveCut,
    Stat::Cut,
    Stat::QDelta,
    Stat::QSee,
];

#[cfg(feature = "search-stats")]
mod imp {
    use super::{Stat, ALL};
    use std::sync::atomic::{AtomicU64, Ordering};

    static COUNTS: [AtomicU64; 32] = [const { AtomicU64::new(0) }; 32];
    static DEPTH_NODES: [AtomicU64; 64] = [const { AtomicU64::new(0) }; 64];

    /// Adds one to a counter.
    #[inline(always)]
    pub fn bump(s: Stat) {
        COUNTS[s as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a full-width node of remaining depth `d`.
    #[inline(always)]
    pub fn depth_node(d: i32) {
        DEPTH_NODES[d.clamp(0, 63) as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The counters as text lines, and resets them.
    pub fn report() -> Vec<String> {
        let mut out = Vec::new();
        for s in ALL {
            let v = COUNTS[s as usize].swap(0, Ordering::Relaxed);
            out.push(format!("{s:?}: {v}"));
        }
        let mut line = String::from("nodes by remaining depth:");
        for (d, n) in DEPTH_NODES.iter().enumerate() {
            let v = n.swap(0, Ordering::Relaxed);
            if v > 0 {
                line.push_str(&format!(" {d}:{v}"));
            }
        }
        out.push(line);
        out
    }
}

#[cfg(feature = "search-stats")]
pub use imp::{bump, depth_node, report};

/// Without the feature there is nothing to report.
#[cfg(not(feature = "search-stats"))]
pub fn report() -> Vec<String> {
    Vec::new()
}

/// Counts an event when the `search-stats` feature is on; nothing otherwise.
macro_rules! stat {
    ($s:ident) => {
        #[cfg(feature = "search-stats")]
        $crate::search::stats::bump($crate::search::stats::Stat::$s);
    };
}
pub(crate) use stat;
