//! Every margin, depth limit and factor of the search, named once with what it does.
//!
//! Each is an integer (factors in hundredths where a fraction is needed). In a normal
//! build a parameter is a constant the compiler folds into the search, as a literal
//! would be. With the cargo feature `tune` (`cargo build --release --features tune`)
//! each becomes a UCI spin option of the same name (`setoption name rfp_margin value
//! 95`), read from an atomic at every use, so a tuner (`jiang-lab spsa`) can set them
//! from outside; that build is slower and is for tuning only.

/// One parameter as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name, also the UCI option's name in a `tune` build.
    pub name: &'static str,
    /// The value a normal build uses.
    pub default: i32,
    /// The smallest value that makes sense.
    pub min: i32,
    /// The largest value that makes sense.
    pub max: i32,
}

macro_rules! search_params {
    ($($(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal..=$max:literal;)+) => {
        /// Every parameter, in the order declared.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
        }),+];

        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        enum Index { $($name),+ }

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }
            $(#[doc = $doc])+
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                tuned::get(Index::$name as usize)
            }
        )+
    };
}

search_params! {
    /// Aspiration window: half-width of the first window around the previous score.
    aspiration_delta = 25, 5..=100;
    /// Aspiration window: the first depth searched with a window (shallower: full width).
    aspiration_min_depth = 4, 1..=10;
    /// Aspiration window: widening after a fail adds half the width and this much.
    aspiration_growth = 10, 0..=50;

    /// Late-move reductions: `lmr_base / 100 + ln(depth) · ln(move number) · 100 /
    /// lmr_divisor` plies.
    lmr_base = 80, 0..=200;
    /// See [`lmr_base`].
    lmr_divisor = 220, 100..=400;
    /// History score worth one ply less (or more) of reduction, and of pruning depth.
    lmr_history_divisor = 8000, 2000..=20000;
    /// Late quiet moves are reduced from this depth on (at the root and below) ...
    lmr_min_depth = 3, 2..=6;
    /// ... at the root, when at least this many moves came before them.
    root_lmr_min_moves = 3, 1..=8;

    /// Reverse futility: only at this depth or less ...
    rfp_max_depth = 7, 3..=12;
    /// ... a static eval this far above beta per ply of depth fails high ...
    rfp_margin = 90, 30..=200;
    /// ... by this much less when the position improves on two plies ago.
    rfp_improving = 60, 0..=150;

    /// Null move: tried from this depth on ...
    nmp_min_depth = 3, 1..=6;
    /// ... reduced by this many plies ...
    nmp_base_reduction = 4, 2..=6;
    /// ... plus one per this many plies of depth ...
    nmp_depth_divisor = 3, 2..=8;
    /// ... plus one per this much eval above beta ...
    nmp_eval_divisor = 200, 50..=500;
    /// ... at most this many for the eval.
    nmp_max_eval_reduction = 4, 0..=8;

    /// ProbCut: a capture must beat beta by this margin ...
    probcut_margin = 200, 50..=400;
    /// ... in a search this many plies shallower ...
    probcut_reduction = 4, 2..=6;
    /// ... tried from this depth on.
    probcut_min_depth = 5, 3..=10;

    /// Internal iterative reduction: a node without a TT move at this depth or more is
    /// searched one ply shallower.
    iir_min_depth = 4, 2..=10;

    /// Late-move pruning: quiet moves searched at a node before the rest are skipped,
    /// `lmp_base + depth²` (halved when not improving).
    lmp_base = 3, 1..=10;
    /// History pruning: a quiet move is skipped below this reduced depth ...
    history_prune_max_depth = 4, 1..=8;
    /// ... when its history is below minus this much per ply of depth.
    history_prune_margin = 3000, 500..=8000;
    /// Futility pruning: quiet moves at this reduced depth or less ...
    futility_max_depth = 7, 3..=12;
    /// ... whose eval plus this ...
    futility_base = 120, 30..=300;
    /// ... plus this per ply stays below alpha are skipped.
    futility_per_depth = 110, 30..=250;
    /// SEE pruning of quiet moves at this reduced depth or less ...
    see_quiet_max_depth = 7, 3..=12;
    /// ... that lose more than this times the square of the depth by exchange.
    see_quiet_margin = 20, 5..=80;
    /// SEE pruning of captures at this depth or less ...
    see_capture_max_depth = 6, 2..=12;
    /// ... that lose more than this per ply by exchange.
    see_capture_margin = 110, 30..=250;

    /// Singular extension: tried from this depth on ...
    singular_min_depth = 7, 4..=12;
    /// ... when the TT entry is at most this many plies shallower ...
    singular_tt_depth_margin = 3, 1..=6;
    /// ... and every other move fails below the TT score minus this per ply of depth.
    singular_margin = 2, 1..=8;

    /// Quiescence delta pruning: a capture that cannot lift the eval to alpha even with
    /// this much to spare is skipped.
    qsearch_delta_margin = 200, 50..=500;

    /// Chance events (Jieqi's reveals), decided in the tree by the game's own draw: a
    /// PV node within this many plies of the root (1: the root only) ...
    chance_plies = 2, 0..=8;
    /// ... checks a move the draw made worth this much or more over every outcome of
    /// the event, each outcome counted within plus or minus this (a mate as this).
    chance_win = 1500, 300..=30000;

    /// Time use on a clock (`timeman.rs`): the target grows by this many hundredths of
    /// itself for each recent change of the best move (changes fade by half an
    /// iteration).
    tm_instability = 150, 0..=400;
    /// ... by this many ten-thousandths of itself per centipawn the score fell since
    /// the previous move's search ...
    tm_falling_move = 80, 0..=300;
    /// ... and per centipawn it fell over the last three iterations (a rise shrinks it
    /// alike), the falling factor kept within 0.6 and 1.7 ...
    tm_falling_iteration = 40, 0..=200;
    /// ... and shrinks to this many hundredths once the best move has not changed for
    /// [`tm_settled_depths`] iterations.
    tm_settled_factor = 70, 30..=100;
    /// See [`tm_settled_factor`].
    tm_settled_depths = 8, 3..=16;
    /// No new iteration starts after this many hundredths of the target (the next one
    /// takes about as long as all before it: it would not finish).
    tm_next_iteration = 60, 30..=100;
}

/// The late-move reduction of the `moves`-th move at `depth`, in plies (before the
/// adjustments of the node).
#[inline(always)]
pub fn lmr(depth: i32, moves: usize) -> i32 {
    lmr_table::get(depth, moves)
}

/// The reduction `lmr` gives at `(depth, moves)` by the formula of [`lmr_base`].
fn lmr_formula(depth: usize, moves: usize) -> u8 {
    let base = f64::from(lmr_base()) / 100.0;
    let divisor = f64::from(lmr_divisor()) / 100.0;
    (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as u8
}

#[cfg(not(feature = "tune"))]
mod lmr_table {
    use once_cell::sync::Lazy;

    /// `[depth][move number]`, in plies.
    static TABLE: Lazy<[[u8; 64]; 64]> = Lazy::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = super::lmr_formula(d, m);
            }
        }
        t
    });

    #[inline(always)]
    pub fn get(depth: i32, moves: usize) -> i32 {
        TABLE[(depth.max(0) as usize).min(63)][moves.min(63)] as i32
    }
}

#[cfg(feature = "tune")]
mod lmr_table {
    use once_cell::sync::Lazy;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// `[depth · 64 + move number]`, in plies; refilled when a parameter of the formula
    /// is set ([`fill`]).
    static TABLE: Lazy<Vec<AtomicU8>> = Lazy::new(|| {
        let t: Vec<AtomicU8> = (0..64 * 64).map(|_| AtomicU8::new(0)).collect();
        fill_into(&t);
        t
    });

    fn fill_into(t: &[AtomicU8]) {
        for d in 1..64 {
            for m in 1..64 {
                t[d * 64 + m].store(super::lmr_formula(d, m), Ordering::Relaxed);
            }
        }
    }

    /// Recomputes the table from the current parameters.
    pub fn fill() {
        fill_into(&TABLE);
    }

    #[inline(always)]
    pub fn get(depth: i32, moves: usize) -> i32 {
        let (d, m) = ((depth.max(0) as usize).min(63), moves.min(63));
        TABLE[d * 64 + m].load(Ordering::Relaxed) as i32
    }
}

/// Where a `tune` build keeps the values set from outside.
#[cfg(feature = "tune")]
pub mod tuned {
    use super::PARAMS;
    use once_cell::sync::Lazy;
    use std::sync::atomic::{AtomicI32, Ordering};

    static VALUES: Lazy<Vec<AtomicI32>> =
        Lazy::new(|| PARAMS.iter().map(|p| AtomicI32::new(p.default)).collect());

    /// The value of the `index`-th parameter.
    #[inline(always)]
    pub(super) fn get(index: usize) -> i32 {
        VALUES[index].load(Ordering::Relaxed)
    }

    /// Sets a parameter by name (clamped to its range); false when there is none.
    pub fn set(name: &str, value: i32) -> bool {
        match PARAMS
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
        {
            Some(i) => {
                let p = PARAMS[i];
                VALUES[i].store(value.clamp(p.min, p.max), Ordering::Relaxed);
                if p.name.starts_with("lmr_") {
                    super::lmr_table::fill();
                }
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_in_its_range_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(
                PARAMS[..i].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
        }
    }

    #[test]
    fn the_reduction_table_follows_its_formula() {
        // ln(d)·ln(m)/2.2 + 0.8: 0 at the first move, growing with depth and move number.
        assert_eq!(lmr(10, 1), 0);
        assert_eq!(lmr(1, 10), 0);
        assert_eq!(lmr(10, 10), (0.8 + 10f64.ln() * 10f64.ln() / 2.2) as i32);
        assert!(lmr(30, 40) > lmr(10, 10));
        assert_eq!(lmr(200, 200), lmr(63, 63));
    }
}
