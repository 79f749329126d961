//! Zobrist keys, generated at compile time from a fixed seed so that keys (and therefore
//! bench signatures and book lookups) are the same in every build.
//!
//! Each game draws its tables from its own [`KeyStream`] in a fixed order; the order is
//! part of the keys, so a game must keep drawing its tables in the same sequence.

/// A SplitMix64 stream usable in `const` context.
#[derive(Clone, Copy, Debug)]
pub struct KeyStream {
    state: u64,
}

impl KeyStream {
    /// A stream from a seed (each game spells its name in the seed's bytes).
    pub const fn new(seed: u64) -> KeyStream {
        KeyStream { state: seed }
    }

    /// The next key.
    pub const fn next_key(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `N` keys in a row.
    pub const fn keys<const N: usize>(&mut self) -> [u64; N] {
        let mut keys = [0u64; N];
        let mut i = 0;
        while i < N {
            keys[i] = self.next_key();
            i += 1;
        }
        keys
    }

    /// A piece-square table: `PIECES` rows of `SQUARES` keys, row by row.
    pub const fn piece_square<const PIECES: usize, const SQUARES: usize>(
        &mut self,
    ) -> [[u64; SQUARES]; PIECES] {
        let mut table = [[0u64; SQUARES]; PIECES];
        let mut p = 0;
        while p < PIECES {
            table[p] = self.keys::<SQUARES>();
            p += 1;
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::KeyStream;

    #[test]
    fn splitmix64_reference_values() {
        // SplitMix64 from seed 0: the published first outputs.
        let mut s = KeyStream::new(0);
        assert_eq!(s.next_key(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(s.next_key(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn tables_are_drawn_in_order() {
        let mut a = KeyStream::new(7);
        let table = a.piece_square::<2, 3>();
        let mut b = KeyStream::new(7);
        let flat = b.keys::<6>();
        assert_eq!(table[1][0], flat[3]);
        assert_eq!(a.next_key(), b.next_key());
    }
}
