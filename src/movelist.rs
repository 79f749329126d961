//! A fixed-capacity move list on the stack: move generation never allocates.

use std::mem::MaybeUninit;

/// The most moves a list holds. A Xiangqi side has at most 2·17 chariot + 2·17 cannon +
/// 2·8 horse + 2·4 elephant + 2·4 advisor + 4 king + 5·3 soldier = 119 moves; the 8x8 and
/// three-player games can have more (a fairy-chess army of rooks and bishops, Baroque's
/// queen-moving pieces, ThreeChess with promoted queens). Positions with more moves than
/// this are contrived; their surplus moves are dropped, never written out of bounds.
pub const MAX_MOVES: usize = 256;

/// A move type usable in a [`MoveList`]: small, copyable, with a filler value for unused
/// slots (never read back).
pub trait ListMove: Copy + Eq + std::fmt::Debug {
    /// Placeholder for unused slots.
    const FILLER: Self;
}

/// A list of up to [`MAX_MOVES`] moves. The slots past `len` are never read, so they are
/// left uninitialised: a new list costs nothing to set up.
pub struct MoveList<M: ListMove> {
    moves: [MaybeUninit<M>; MAX_MOVES],
    len: usize,
}

impl<M: ListMove> Clone for MoveList<M> {
    fn clone(&self) -> Self {
        let mut c = Self::new();
        for &m in self.iter() {
            c.push(m);
        }
        c
    }
}

impl<M: ListMove> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: ListMove> MoveList<M> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The generator never produces more than [`MAX_MOVES`]; a debug
    /// build asserts it, a release build drops the excess rather than panicking.
    #[inline(always)]
    pub fn push(&mut self, m: M) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: the first `len` slots were written by `push` (and `M: Copy` has no drop
        // glue); `MaybeUninit<M>` has the layout of `M`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<M>(), self.len) }
    }

    /// The moves as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<M>(), self.len) }
    }

    /// Iterates over the moves.
    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: M) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a, M: ListMove> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
