//! Endings and their names: a king with one attacking piece (chariot, cannon, horse or
//! soldier) and any advisors and elephants against a king with any advisors and
//! elephants, with or without one attacking piece of its own. The side with the attacker
//! (with two: the stronger attacker, then more defenders) is the *strong* side; a table
//! is built with it as Red and read for either colour by turning the board (see
//! `index.rs`). Two equal sides (`KHKH`) are one ending, read with the side to move as
//! the strong side.

use crate::xiangqi::types::PieceKind;
use std::fmt;

/// The attacking piece kinds a table can have, in slot order.
pub const ATTACKERS: [PieceKind; 4] = [
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Horse,
    PieceKind::Soldier,
];

/// Slots of the endings with one attacker (4 attackers, 0-2 advisors and 0-2 elephants
/// each side).
const ONE_ATTACKER_SLOTS: usize = 4 * 81;

/// Number of slots of a table set: the endings with one attacker, then those with one on
/// each side (a slot for every pair of kinds, canonical or not).
pub const SLOTS: usize = ONE_ATTACKER_SLOTS + 16 * 81;

/// One ending: the strong side's attacker, the weak side's (if it has one) and both
/// sides' defenders.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Ending {
    /// The strong side's one attacking piece.
    pub attacker: PieceKind,
    /// Advisors and elephants of the strong side (each 0..=2).
    pub strong: Defenders,
    /// Advisors and elephants of the weak side (each 0..=2).
    pub weak: Defenders,
    /// The weak side's attacking piece, if it has one (never stronger than `attacker`).
    pub weak_attacker: Option<PieceKind>,
}

/// Rank of an attacker kind: lower is stronger (the order of [`ATTACKERS`]).
fn rank(kind: PieceKind) -> usize {
    ATTACKERS
        .iter()
        .position(|&k| k == kind)
        .unwrap_or(ATTACKERS.len())
}

/// Which of two sides, each an attacker and its defenders, is the strong one:
/// `Ordering::Greater` when the first. The stronger attacker, then more defenders, then
/// more advisors; `Equal` for two equal sides.
pub fn compare_sides(a: (PieceKind, Defenders), b: (PieceKind, Defenders)) -> std::cmp::Ordering {
    let key = |(k, d): (PieceKind, Defenders)| {
        (
            std::cmp::Reverse(rank(k)),
            d.advisors + d.elephants,
            d.advisors,
        )
    };
    key(a).cmp(&key(b))
}

/// A side's advisors and elephants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Defenders {
    /// Advisors, 0..=2.
    pub advisors: u8,
    /// Elephants, 0..=2.
    pub elephants: u8,
}

impl Ending {
    /// Reads a name such as `KRKAA`, `KCAEKEE` or `KPK` (also `N` for the horse and `B`
    /// for the elephant, any case); `None` for anything outside the family.
    pub fn parse(name: &str) -> Option<Ending> {
        let upper = name.trim().to_ascii_uppercase();
        let rest = upper.strip_prefix('K')?;
        let (strong, weak) = rest.split_once('K')?;
        let mut chars = strong.chars();
        let attacker = match PieceKind::from_letter(chars.next()?)? {
            k if ATTACKERS.contains(&k) => k,
            _ => return None,
        };
        let strong = Defenders::parse(chars.as_str())?;
        let mut weak_chars = weak.chars();
        let (weak_attacker, weak) = match weak_chars.next().and_then(PieceKind::from_letter) {
            Some(k) if ATTACKERS.contains(&k) => (Some(k), weak_chars.as_str()),
            _ => (None, weak),
        };
        let weak = Defenders::parse(weak)?;
        Some(match weak_attacker {
            None => Ending::one(attacker, strong, weak),
            Some(w) => Ending::two((attacker, strong), (w, weak)),
        })
    }

    /// The ending of one attacker with these defenders.
    pub fn one(attacker: PieceKind, strong: Defenders, weak: Defenders) -> Ending {
        Ending {
            attacker,
            strong,
            weak,
            weak_attacker: None,
        }
    }

    /// The ending of two sides with an attacker each, the strong one first whichever
    /// order they are given in.
    pub fn two(a: (PieceKind, Defenders), b: (PieceKind, Defenders)) -> Ending {
        let (s, w) = if compare_sides(a, b).is_lt() {
            (b, a)
        } else {
            (a, b)
        };
        Ending {
            attacker: s.0,
            strong: s.1,
            weak: w.1,
            weak_attacker: Some(w.0),
        }
    }

    /// Whether both sides are the same (`KHKH`, `KCAKCA`): either may be the strong one.
    pub fn is_symmetric(self) -> bool {
        self.weak_attacker
            .is_some_and(|w| compare_sides((self.attacker, self.strong), (w, self.weak)).is_eq())
    }

    /// Slot of the ending in a table set: `0..SLOTS`.
    pub fn slot(self) -> usize {
        let a = rank(self.attacker).min(3);
        let defenders = self.strong.slot() * 9 + self.weak.slot();
        match self.weak_attacker {
            None => a * 81 + defenders,
            Some(w) => ONE_ATTACKER_SLOTS + (a * 4 + rank(w).min(3)) * 81 + defenders,
        }
    }

    /// Every ending with one attacker, smallest first (fewest pieces, then the index
    /// size).
    pub fn all() -> Vec<Ending> {
        let mut all = Vec::with_capacity(ONE_ATTACKER_SLOTS);
        for attacker in ATTACKERS {
            for s in Defenders::all() {
                for w in Defenders::all() {
                    all.push(Ending::one(attacker, s, w));
                }
            }
        }
        all.sort_by_key(|e| (e.piece_count(), super::index::entries(*e), e.slot()));
        all
    }

    /// Every ending with an attacker on each side, each in its canonical orientation
    /// once, smallest first.
    pub fn all_two() -> Vec<Ending> {
        let mut all = Vec::new();
        for a in ATTACKERS {
            for s in Defenders::all() {
                for w in ATTACKERS {
                    for d in Defenders::all() {
                        if compare_sides((a, s), (w, d)).is_ge() {
                            all.push(Ending::two((a, s), (w, d)));
                        }
                    }
                }
            }
        }
        all.sort_by_key(|e| (e.piece_count(), super::index::entries(*e), e.slot()));
        all
    }

    /// Pieces on the board, kings included.
    pub fn piece_count(self) -> u32 {
        3 + u32::from(self.weak_attacker.is_some()) + self.strong.count() + self.weak.count()
    }

    /// The endings a capture leads to that have a table. With one attacker: the weak
    /// side losing an advisor or an elephant (a capture of the attacker leaves dead
    /// material, a draw; the strong side's defenders can never be taken, the weak side's
    /// pieces never cross the river). With two: either side losing a defender, or
    /// either attacker (the ending of the other one).
    pub fn successors(self) -> Vec<Ending> {
        let mut out = Vec::new();
        let fewer = |d: Defenders| {
            let mut v = Vec::new();
            if d.advisors > 0 {
                v.push(Defenders {
                    advisors: d.advisors - 1,
                    ..d
                });
            }
            if d.elephants > 0 {
                v.push(Defenders {
                    elephants: d.elephants - 1,
                    ..d
                });
            }
            v
        };
        match self.weak_attacker {
            None => {
                for w in fewer(self.weak) {
                    out.push(Ending::one(self.attacker, self.strong, w));
                }
            }
            Some(wa) => {
                let (s, w) = ((self.attacker, self.strong), (wa, self.weak));
                for d in fewer(self.strong) {
                    out.push(Ending::two((s.0, d), w));
                }
                for d in fewer(self.weak) {
                    out.push(Ending::two(s, (w.0, d)));
                }
                out.push(Ending::one(s.0, s.1, w.1));
                out.push(Ending::one(w.0, w.1, s.1));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

impl Defenders {
    fn parse(text: &str) -> Option<Defenders> {
        let mut d = Defenders::default();
        for c in text.chars() {
            match PieceKind::from_letter(c)? {
                PieceKind::Advisor => d.advisors += 1,
                PieceKind::Elephant => d.elephants += 1,
                _ => return None,
            }
        }
        (d.advisors <= 2 && d.elephants <= 2).then_some(d)
    }

    fn slot(self) -> usize {
        self.advisors as usize * 3 + self.elephants as usize
    }

    fn count(self) -> u32 {
        u32::from(self.advisors + self.elephants)
    }

    fn all() -> impl Iterator<Item = Defenders> {
        (0..3u8).flat_map(|a| {
            (0..3u8).map(move |e| Defenders {
                advisors: a,
                elephants: e,
            })
        })
    }
}

impl fmt::Display for Defenders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.advisors {
            f.write_str("A")?;
        }
        for _ in 0..self.elephants {
            f.write_str("E")?;
        }
        Ok(())
    }
}

impl fmt::Display for Ending {
    /// The canonical name: `KRAKEE`, `KRKHAA`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "K{}{}K", self.attacker.wxf_letter(), self.strong)?;
        if let Some(w) = self.weak_attacker {
            write!(f, "{}", w.wxf_letter())?;
        }
        write!(f, "{}", self.weak)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_slots_are_distinct() {
        let all = Ending::all();
        assert_eq!(all.len(), ONE_ATTACKER_SLOTS);
        let mut slots: Vec<usize> = all.iter().map(|e| e.slot()).collect();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), ONE_ATTACKER_SLOTS);
        for e in all {
            assert_eq!(Ending::parse(&e.to_string()), Some(e));
        }
        assert_eq!(
            Ending::parse("knkbb").map(|e| e.to_string()).as_deref(),
            Some("KHKEE")
        );
        assert_eq!(Ending::parse("KRRK"), None);
        let two = Ending::all_two();
        let mut slots: Vec<usize> = two.iter().map(|e| e.slot()).collect();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), two.len());
        assert!(slots
            .iter()
            .all(|&s| (ONE_ATTACKER_SLOTS..SLOTS).contains(&s)));
        for e in two {
            assert_eq!(Ending::parse(&e.to_string()), Some(e), "{e}");
        }
        // The strong side first, whichever order the name gives.
        assert_eq!(
            Ending::parse("KHAKR").map(|e| e.to_string()).as_deref(),
            Some("KRKHA")
        );
        assert_eq!(
            Ending::parse("KHKHA").map(|e| e.to_string()).as_deref(),
            Some("KHAKH")
        );
        assert!(Ending::parse("KHKH").is_some_and(|e| e.is_symmetric()));
        assert!(!Ending::parse("KHAKH").is_some_and(|e| e.is_symmetric()));
        assert_eq!(Ending::parse("KKR"), None);
        assert_eq!(Ending::parse("KRKAAA"), None);
    }
}
