//! The engine's errors, typed up to the protocol, which alone turns them into text
//! (their `Display` is the one line a user is shown).

use crate::common::{FenError, MoveError};
use crate::options::OptionError;
use std::fmt;

/// Why a position could not be set up (`position`, `probe`, `perft` with a FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN is not one of this game.
    Fen(FenError),
    /// A move of the list is malformed or not legal where it is played.
    Move {
        /// Its place in the list, from 1.
        index: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "bad FEN: {e}"),
            SetupError::Move { index, error } => write!(f, "move {index} of the list: {error}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why an engine command changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No game of that name.
    UnknownVariant {
        /// The name asked for.
        name: String,
        /// The games jiang plays.
        known: &'static [&'static str],
    },
    /// A position that could not be set up.
    Setup(SetupError),
    /// An option that could not be set.
    Option(OptionError),
    /// Not even the smallest hash table could be had; the old one is kept.
    NoMemory {
        /// The size asked for, MiB.
        asked_mb: usize,
        /// The size in use, MiB.
        using_mb: usize,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownVariant { name, known } => {
                write!(
                    f,
                    "unknown variant '{name}' (jiang plays {})",
                    known.join(", ")
                )
            }
            EngineError::Setup(e) => e.fmt(f),
            EngineError::Option(e) => e.fmt(f),
            EngineError::NoMemory { asked_mb, using_mb } => write!(
                f,
                "no memory for a hash table of {asked_mb} MiB; using {using_mb} MiB"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<SetupError> for EngineError {
    fn from(e: SetupError) -> Self {
        EngineError::Setup(e)
    }
}

impl From<OptionError> for EngineError {
    fn from(e: OptionError) -> Self {
        EngineError::Option(e)
    }
}
