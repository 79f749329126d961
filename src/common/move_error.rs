//! Why a move given as text cannot be played: the error of
//! [`Rules::parse_legal_move`](crate::game::Rules::parse_legal_move) in every game.

use std::fmt;

/// A move from outside (a protocol, a test) that cannot be played; `Display` gives one
/// line naming the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in the game's notation.
    Malformed {
        /// The text as given.
        text: String,
        /// The game's name as its messages write it: `xiangqi`, `Microchess`.
        game: &'static str,
        /// How the game writes moves, e.g. `four characters like h2e2, files a-i, ranks 0-9`.
        expected: &'static str,
    },
    /// Well-formed but not legal in the position (the move text).
    Illegal(String),
    /// Well-formed but not legal, with the game's explanation of why.
    IllegalBecause {
        /// The move text.
        text: String,
        /// Why, e.g. `no piece on e2`.
        reason: String,
    },
    /// The game is already over: no move is legal.
    GameOver {
        /// The move text.
        text: String,
        /// How the game ended, as the game record writes it.
        end: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed {
                text,
                game,
                expected,
            } => write!(f, "'{text}' is not a {game} move (expected {expected})"),
            MoveError::Illegal(text) => write!(f, "move '{text}' is not legal in this position"),
            MoveError::IllegalBecause { text, reason } => {
                write!(f, "illegal move {text}: {reason}")
            }
            MoveError::GameOver { end, .. } => write!(f, "the game is over: {end}"),
        }
    }
}

impl std::error::Error for MoveError {}
