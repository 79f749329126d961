//! The games jiang plays, by protocol name (`setoption name UCI_Variant value NAME`).
//!
//! Adding a game: its own folder (`src/<game>/`) implementing [`crate::game::Rules`] and
//! either [`crate::game::Game`] (then the generic search, [`AlphaBeta`], plays it) or a
//! [`crate::chooser::MoveChooser`] of its own, and one entry in [`GAMES`].

use super::session::{game_options, GameSession, PlayedGame};
use crate::game::{Rules, XboardVariant};
use crate::options::OptionSpec;
use crate::search::AlphaBeta;
use crate::{baroque, fairychess, jieqi, microchess, threechess, xiangqi};

/// One game of the list.
pub struct GameEntry {
    /// Its protocol name.
    pub name: &'static str,
    /// A fresh session at the game's start position.
    pub new_session: fn() -> Box<dyn GameSession>,
    /// The game's options (its rules', then its chooser's), as the session lists them.
    pub options: fn() -> Vec<OptionSpec>,
    /// How XBoard shows it, if it needs telling (see [`Rules::XBOARD`]).
    pub xboard: Option<XboardVariant>,
    /// Whether XBoard knows it by name (Xiangqi).
    pub xboard_native: bool,
}

/// Every game jiang plays, in the order the protocols list them; the first is the
/// default.
pub const GAMES: &[GameEntry] = &[
    entry::<xiangqi::Position, AlphaBeta<xiangqi::Position>>(true),
    entry::<microchess::Position, microchess::chooser::SolvedTable>(false),
    entry::<fairychess::Position, AlphaBeta<fairychess::Position>>(false),
    entry::<baroque::Position, AlphaBeta<baroque::Position>>(false),
    entry::<threechess::Board, threechess::chooser::ThreePlayerSearch>(false),
    entry::<jieqi::Position, AlphaBeta<jieqi::Position>>(false),
];

/// The entry of the game with rules `R` played by `C`.
const fn entry<R: Rules, C: crate::chooser::MoveChooser<R>>(xboard_native: bool) -> GameEntry {
    GameEntry {
        name: R::NAME,
        new_session: || Box::new(PlayedGame::<R, C>::new()),
        options: game_options::<R, C>,
        xboard: R::XBOARD,
        xboard_native,
    }
}

/// The opening book embedded for the game called `name`, if it has one.
pub fn default_book(name: &str) -> Option<std::sync::Arc<crate::book::Book>> {
    match name {
        "xiangqi" => xiangqi::book::default_book(),
        _ => None,
    }
}

/// The game a FEN that game `name` refuses may be of, for GUIs that send their own
/// game's FEN without naming the game: JieqiBox speaks UCI and never sends
/// `UCI_Variant`, and its FEN, with face-down pieces (`x`/`X`, letters no Xiangqi piece
/// has) and a pool of unseen pieces, is Jieqi's. Only a Xiangqi FEN with face-down pieces
/// is tried as Jieqi, so that any other FEN Xiangqi refuses (a mistyped one, an advisor
/// off its points, a move the house rules forbid) is refused as such and never starts
/// another game.
pub fn fallback_for_fen(name: &str, fen: &str) -> Option<&'static str> {
    let board = fen.split_whitespace().next().unwrap_or("");
    (name == xiangqi::Position::NAME && board.contains(['x', 'X'])).then_some(jieqi::Position::NAME)
}

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
