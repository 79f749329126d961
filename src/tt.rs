//! Transposition table shared by all search threads.
//!
//! Lock-free: each entry is two `AtomicU64` words, `check = key ^ data` and `data`. A torn
//! write (two threads storing at once) makes `check ^ data != key`, and the entry is simply
//! not found. Four entries make a 64-byte bucket, one cache line.
//!
//! Memory: the buckets live in one allocation of zeroed pages that the kernel hands out
//! lazily (nothing is written when the table is made, so even a 4 GiB table is ready at
//! once and pages are faulted in by the search as it uses them), aligned to 2 MiB and,
//! marked for transparent huge pages where the system has them (see [`crate::memory`]). Emptying a large table swaps in a fresh
//! allocation (see [`TranspositionTable::fresh`]) instead of writing zeros everywhere.
//!
//! `data` layout (bits):
//! ```text
//!  0..16  move (game's 16-bit code, 0 = none)
//! 16..32  score (i16, mate scores relative to the node, see `score_to_tt`)
//! 32..48  static eval (i16)
//! 48..56  depth + DEPTH_OFFSET (u8)
//! 56..58  bound (1 = upper, 2 = lower, 3 = exact)
//! 58..64  generation (age of the search that wrote it)
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

/// Kind of score stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No usable score.
    None = 0,
    /// The true value is at most `score` (fail-low).
    Upper = 1,
    /// The true value is at least `score` (fail-high).
    Lower = 2,
    /// Exact score (PV node).
    Exact = 3,
}

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// Move code (0 = none).
    pub mv: u16,
    /// Score, already adjusted to the probing node's ply.
    pub score: i32,
    /// Static evaluation stored with it.
    pub eval: i32,
    /// Search depth of the score.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored score settles a node searched with window (`alpha`, `beta`):
    /// exact, a lower bound at or above beta, or an upper bound at or below alpha.
    #[inline(always)]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
            Bound::None => false,
        }
    }
}

const DEPTH_OFFSET: i32 = 8;
const BUCKET: usize = 4;

#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; 2 * BUCKET],
}

/// The table.
pub struct TranspositionTable {
    memory: TableMemory,
    generation: AtomicU64,
}

/// Huge-page size: large tables are aligned to it.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Zeroed memory holding `len` buckets. Allocated as `u64`s (8-byte alignment, so the
/// system allocator takes them from `calloc`, which maps fresh zero pages for large sizes
/// instead of writing zeros), with the buckets placed at the first suitably aligned
/// address inside.
struct TableMemory {
    raw: *mut u64,
    raw_layout: std::alloc::Layout,
    buckets: *const Bucket,
    len: usize,
}

// SAFETY: the memory is owned by the table and only ever accessed through the
// `AtomicU64`s of the buckets, so sharing and sending it between threads is as safe as
// sharing `[Bucket]`.
unsafe impl Send for TableMemory {}
// SAFETY: as above.
unsafe impl Sync for TableMemory {}

impl TableMemory {
    /// `len` zeroed buckets, or `None` when the memory cannot be had.
    fn new(len: usize) -> Option<TableMemory> {
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let words = bytes.checked_add(align)? / 8;
        let raw_layout = std::alloc::Layout::array::<u64>(words).ok()?;
        // SAFETY: the layout has a non-zero size (at least one bucket plus alignment).
        let raw = unsafe { std::alloc::alloc_zeroed(raw_layout) }.cast::<u64>();
        if raw.is_null() {
            return None;
        }
        let offset = (raw as usize).next_multiple_of(align) - raw as usize;
        // SAFETY: `offset < align`, and the allocation has `bytes + align` bytes, so the
        // buckets lie inside it; the address is aligned for `Bucket`; all-zero bytes are
        // valid `AtomicU64`s.
        let buckets = unsafe { raw.cast::<u8>().add(offset) }.cast::<Bucket>();
        if bytes >= HUGE_PAGE {
            crate::memory::advise_huge_pages(buckets.cast(), bytes);
        }
        Some(TableMemory {
            raw,
            raw_layout,
            buckets,
            len,
        })
    }

    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `buckets` points to `len` initialised (zeroed) buckets inside the live
        // allocation; they are only accessed through atomics.
        unsafe { std::slice::from_raw_parts(self.buckets, self.len) }
    }
}

impl Drop for TableMemory {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated with `raw_layout` and is freed once.
        unsafe { std::alloc::dealloc(self.raw.cast(), self.raw_layout) }
    }
}

/// Mate scores: a side mated at ply p scores `-(MATE - p)`.
pub const MATE: i32 = 32000;
/// Scores at or above this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// Converts a score relative to the root into one relative to the node (for storing).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back to one relative to the root.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket), or `None` when the memory
    /// cannot be had. Costs no time whatever the size: nothing is written.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let count = (mb.max(1).checked_mul(1024 * 1024)? / std::mem::size_of::<Bucket>()).max(1);
        Some(TranspositionTable {
            memory: TableMemory::new(count)?,
            generation: AtomicU64::new(0),
        })
    }

    /// A table of about `mb` mebibytes, for the engine's own fixed sizes (bench, tests).
    ///
    /// # Panics
    /// When the memory cannot be had; sizes that come from a user go through
    /// [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).unwrap_or_else(|| panic!("cannot allocate a {mb} MiB hash table"))
    }

    /// An empty table of the same size, in fresh memory (`None` if it cannot be had).
    /// For a large table this is much faster than [`TranspositionTable::clear`]: the new
    /// pages are zeroed by the kernel when first used, and the old ones can be freed on
    /// another thread.
    pub fn fresh(&self) -> Option<TranspositionTable> {
        Some(TranspositionTable {
            memory: TableMemory::new(self.memory.len)?,
            generation: AtomicU64::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mb(&self) -> usize {
        self.memory.len * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table in place (writes every word: for small tables; large ones are
    /// replaced by [`TranspositionTable::fresh`]).
    pub fn clear(&self) {
        for b in self.memory.buckets() {
            for w in &b.words {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn gen(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 0x3f
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.memory.buckets();
        let idx = ((key as u128 * buckets.len() as u128) >> 64) as usize;
        &buckets[idx]
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is only a hint; the pointer is to a live bucket.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; the score is converted to be relative to the root at `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        let b = self.bucket(key);
        for i in 0..BUCKET {
            let check = b.words[2 * i].load(Ordering::Relaxed);
            let data = b.words[2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    3 => Bound::Exact,
                    _ => Bound::None,
                };
                return Some(TtEntry {
                    mv: data as u16,
                    score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result. `score` is relative to the root at `ply`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let b = self.bucket(key);
        let gen = self.gen();
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        for i in 0..BUCKET {
            let check = b.words[2 * i].load(Ordering::Relaxed);
            let data = b.words[2 * i + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if data != 0 {
                    // Same position: keep a deeper exact result from this search, and
                    // keep the old move if the new result has none.
                    let old_depth = ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET;
                    let old_gen = data >> 58;
                    if bound != Bound::Exact && old_gen == gen && old_depth > depth + 3 {
                        return;
                    }
                    if mv == 0 {
                        return self.write(
                            b,
                            i,
                            key,
                            data as u16,
                            score,
                            eval,
                            depth,
                            bound,
                            ply,
                            gen,
                        );
                    }
                }
                break;
            }
            let age = ((gen + 64 - (data >> 58)) & 0x3f) as i32;
            let value = ((data >> 48) & 0xff) as i32 - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        self.write(b, victim, key, mv, score, eval, depth, bound, ply, gen);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn write(
        &self,
        b: &Bucket,
        i: usize,
        key: u64,
        mv: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
        gen: u64,
    ) {
        let score = score_to_tt(score, ply).clamp(-MATE, MATE) as i16 as u16 as u64;
        let eval = eval.clamp(-MATE, MATE) as i16 as u16 as u64;
        let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
        let data =
            mv as u64 | score << 16 | eval << 32 | depth << 48 | (bound as u64) << 56 | gen << 58;
        b.words[2 * i].store(key ^ data, Ordering::Relaxed);
        b.words[2 * i + 1].store(data, Ordering::Relaxed);
    }

    /// Per-mille of the first 1000 entries (250 buckets) written by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.gen();
        let buckets = self.memory.buckets();
        let n = buckets.len().min(250);
        let mut used = 0;
        for b in &buckets[..n] {
            for i in 0..BUCKET {
                let data = b.words[2 * i + 1].load(Ordering::Relaxed);
                if data != 0 && data >> 58 == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_ply_adjustment() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        // Mate in 5 plies from the root, found at ply 3: stored as mate in 2 from the node.
        tt.store(key, 3, 77, MATE - 5, 12, 4, Bound::Exact);
        let e = tt.probe(key, 3).unwrap();
        assert_eq!(e.score, MATE - 5);
        // Reached again at ply 7: still mate in 2 from there, so mate in 9 from the root.
        let e = tt.probe(key, 7).unwrap();
        assert_eq!(e.score, MATE - 9);
        assert_eq!((e.mv, e.eval, e.depth, e.bound), (77, 12, 4, Bound::Exact));
        tt.store(key ^ 1, 2, 0, -(MATE - 4), -3, 0, Bound::Upper);
        assert_eq!(tt.probe(key ^ 1, 6).unwrap().score, -(MATE - 8));
        assert!(tt.probe(key ^ 2, 0).is_none());
    }

    #[test]
    fn bounds_cut_only_outside_the_window() {
        let e = |score, bound| TtEntry {
            mv: 0,
            score,
            eval: 0,
            depth: 1,
            bound,
        };
        assert!(e(5, Bound::Exact).cuts(0, 10));
        assert!(e(10, Bound::Lower).cuts(0, 10));
        assert!(!e(9, Bound::Lower).cuts(0, 10));
        assert!(e(0, Bound::Upper).cuts(0, 10));
        assert!(!e(1, Bound::Upper).cuts(0, 10));
        assert!(!e(50, Bound::None).cuts(0, 10));
    }

    #[test]
    fn clear_empties_and_hashfull_counts() {
        let tt = TranspositionTable::new(1);
        tt.new_search();
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                0,
                1,
                0,
                0,
                1,
                Bound::Lower,
            );
        }
        assert!(tt.hashfull() > 500);
        let fresh = tt.fresh().unwrap();
        assert_eq!(fresh.size_mb(), tt.size_mb());
        assert_eq!(fresh.hashfull(), 0);
        assert!(fresh.probe(0x9e37_79b9_7f4a_7c15, 0).is_none());
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert!(tt.probe(0x9e37_79b9_7f4a_7c15, 0).is_none());
    }

    #[test]
    fn large_tables_are_aligned_and_usable_at_both_ends() {
        for mb in [3, 64] {
            let tt = TranspositionTable::try_new(mb).unwrap();
            let buckets = tt.memory.buckets();
            assert_eq!(buckets.as_ptr() as usize % HUGE_PAGE, 0, "{mb} MiB");
            assert_eq!(tt.size_mb(), mb);
            // Keys landing in the first and the last bucket.
            for key in [1u64, u64::MAX - 1] {
                tt.store(key, 0, 9, 5, 0, 3, Bound::Exact);
                assert_eq!(tt.probe(key, 0).unwrap().mv, 9);
            }
        }
        assert!(TranspositionTable::try_new(usize::MAX / 2).is_none());
    }
}
