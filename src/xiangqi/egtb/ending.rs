//! Endings and their names: a king with one attacking piece (chariot, cannon, horse or
//! soldier) and any advisors and elephants against a king with any advisors and
//! elephants. The side with the attacker is the *strong* side; a table is built with it
//! as Red and read for either colour by turning the board (see `index.rs`).

use crate::xiangqi::types::PieceKind;
use std::fmt;

/// The attacking piece kinds a table can have, in slot order.
pub const ATTACKERS: [PieceKind; 4] = [
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Horse,
    PieceKind::Soldier,
];

/// Number of endings of the family (4 attackers, 0-2 advisors and 0-2 elephants each
/// side): the length of a table set's slot array.
pub const SLOTS: usize = 4 * 81;

/// One ending: the strong side's attacker and both sides' defenders.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Ending {
    /// The strong side's one attacking piece.
    pub attacker: PieceKind,
    /// Advisors and elephants of the strong side (each 0..=2).
    pub strong: Defenders,
    /// Advisors and elephants of the weak side (each 0..=2).
    pub weak: Defenders,
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
        let weak = Defenders::parse(weak)?;
        Some(Ending {
            attacker,
            strong,
            weak,
        })
    }

    /// Slot of the ending in a table set: `0..SLOTS`.
    pub fn slot(self) -> usize {
        let a = ATTACKERS
            .iter()
            .position(|&k| k == self.attacker)
            .unwrap_or(0);
        a * 81 + self.strong.slot() * 9 + self.weak.slot()
    }

    /// Every ending of the family, smallest first (fewest pieces, then the index size).
    pub fn all() -> Vec<Ending> {
        let mut all = Vec::with_capacity(SLOTS);
        for attacker in ATTACKERS {
            for s in Defenders::all() {
                for w in Defenders::all() {
                    all.push(Ending {
                        attacker,
                        strong: s,
                        weak: w,
                    });
                }
            }
        }
        all.sort_by_key(|e| (e.piece_count(), super::index::entries(*e), e.slot()));
        all
    }

    /// Pieces on the board, kings included.
    pub fn piece_count(self) -> u32 {
        3 + self.strong.count() + self.weak.count()
    }

    /// The endings a capture leads to that have a table: the weak side losing an advisor
    /// or an elephant (the attacker's capture). A capture of the attacker leaves no
    /// attacking piece, a draw by dead material; the strong side's defenders can never
    /// be taken (the weak side's pieces never cross the river).
    pub fn successors(self) -> Vec<Ending> {
        let mut out = Vec::new();
        if self.weak.advisors > 0 {
            out.push(Ending {
                weak: Defenders {
                    advisors: self.weak.advisors - 1,
                    ..self.weak
                },
                ..self
            });
        }
        if self.weak.elephants > 0 {
            out.push(Ending {
                weak: Defenders {
                    elephants: self.weak.elephants - 1,
                    ..self.weak
                },
                ..self
            });
        }
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
    /// The canonical name: `KRAKEE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "K{}{}K{}",
            self.attacker.wxf_letter(),
            self.strong,
            self.weak
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_slots_are_distinct() {
        let all = Ending::all();
        assert_eq!(all.len(), SLOTS);
        let mut slots: Vec<usize> = all.iter().map(|e| e.slot()).collect();
        slots.sort_unstable();
        slots.dedup();
        assert_eq!(slots.len(), SLOTS);
        for e in all {
            assert_eq!(Ending::parse(&e.to_string()), Some(e));
        }
        assert_eq!(
            Ending::parse("knkbb").map(|e| e.to_string()).as_deref(),
            Some("KHKEE")
        );
        assert_eq!(Ending::parse("KRRK"), None);
        assert_eq!(Ending::parse("KKR"), None);
        assert_eq!(Ending::parse("KRKAAA"), None);
    }
}
