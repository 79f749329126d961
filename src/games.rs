//! The games jiang plays, by protocol name (`setoption name UCI_Variant value NAME`).
//!
//! Adding a game: its own module (`src/<game>/`) implementing [`crate::game::Rules`] and
//! either [`crate::game::Game`] (played by the generic search, through
//! [`SearchSession`]) or a session of its own (`src/engine/`), and one entry in
//! [`GAMES`].

use crate::engine::microchess::MicrochessSession;
use crate::engine::session::{GameSession, SearchSession};
use crate::game::{Rules, XboardVariant};

/// One game of the list.
pub struct GameEntry {
    /// Its protocol name.
    pub name: &'static str,
    /// A fresh session at the game's start position.
    pub new_session: fn() -> Box<dyn GameSession>,
    /// How XBoard shows it, if it needs telling (see [`Rules::XBOARD`]).
    pub xboard: Option<XboardVariant>,
    /// Whether XBoard knows it by name (Xiangqi).
    pub xboard_native: bool,
}

/// Every game jiang plays, in the order the protocols list them; the first is the
/// default.
pub const GAMES: &[GameEntry] = &[
    GameEntry {
        name: "xiangqi",
        new_session: || Box::new(SearchSession::<crate::xiangqi::Position>::new()),
        xboard: <crate::xiangqi::Position as Rules>::XBOARD,
        xboard_native: true,
    },
    GameEntry {
        name: "microchess",
        new_session: || Box::new(MicrochessSession::new()),
        xboard: <crate::microchess::Position as Rules>::XBOARD,
        xboard_native: false,
    },
];

/// The game a new engine plays.
pub const DEFAULT_VARIANT: &str = GAMES[0].name;

const NAMES: [&str; GAMES.len()] = {
    let mut names = [""; GAMES.len()];
    let mut i = 0;
    while i < GAMES.len() {
        names[i] = GAMES[i].name;
        i += 1;
    }
    names
};

/// The names of every game jiang plays, in the order of [`GAMES`].
pub const VARIANTS: &[&str] = &NAMES;

/// The game called `name` (case-insensitive).
pub fn find(name: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|g| g.name.eq_ignore_ascii_case(name))
}

/// A fresh session of the game called `name` (case-insensitive), at its start position.
pub fn new_session(name: &str) -> Option<Box<dyn GameSession>> {
    find(name).map(|g| (g.new_session)())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_makes_its_own_game() {
        for g in GAMES {
            let s = (g.new_session)();
            assert_eq!(s.name(), g.name);
            assert_eq!(s.xboard().is_some(), g.xboard.is_some());
            assert!(new_session(&g.name.to_uppercase()).is_some());
        }
        assert!(new_session("chess").is_none());
        assert_eq!(VARIANTS.len(), GAMES.len());
    }
}
