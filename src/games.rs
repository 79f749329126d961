//! The games jiang plays, by protocol name (`setoption name UCI_Variant value NAME`).
//!
//! Adding a game: its own module (`src/<game>/`) implementing [`crate::game::Rules`] and
//! either [`crate::game::Game`] (played by the generic search) or its own session
//! (`src/engine/`), and one line in [`new_session`] and [`VARIANTS`].

use crate::engine::session::{GameSession, SearchSession};

/// The game a new engine plays.
pub const DEFAULT_VARIANT: &str = "xiangqi";

/// Every game jiang plays, in the order the protocols list them.
pub const VARIANTS: &[&str] = &["xiangqi"];

/// A fresh session of the game called `name` (case-insensitive), at its start position.
pub fn new_session(name: &str) -> Option<Box<dyn GameSession>> {
    match name.to_ascii_lowercase().as_str() {
        "xiangqi" => Some(Box::new(SearchSession::<crate::xiangqi::Position>::new())),
        _ => None,
    }
}
