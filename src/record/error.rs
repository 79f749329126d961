//! What goes wrong reading a record, and where.

use crate::common::FenError;
use std::fmt;

/// Where in a file a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A byte offset from the start of a binary file.
    Byte(usize),
    /// A line and column (both from 1, columns in characters) of a text file.
    Line {
        /// The line, from 1.
        line: usize,
        /// The column, from 1, in characters.
        column: usize,
    },
    /// Not a place in the file (a limit, a missing part).
    Nowhere,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Byte(b) => write!(f, "byte {b} (0x{b:x})"),
            Place::Line { line, column } => write!(f, "line {line}:{column}"),
            Place::Nowhere => write!(f, "file"),
        }
    }
}

/// The kinds of problems.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// The file is not of the format (its magic or its shape is wrong).
    NotThisFormat {
        /// The format expected.
        format: &'static str,
        /// What was found instead.
        found: String,
    },
    /// The file ends inside a part that needs more bytes.
    Truncated {
        /// The part being read.
        what: &'static str,
    },
    /// A part of the file that does not follow the format.
    Malformed(String),
    /// The start position is not a legal Xiangqi position.
    Position(FenError),
    /// A move that cannot be understood or is not legal where it stands; the line it was
    /// in ends before it.
    Move {
        /// The move as written (or its squares for binary formats).
        text: String,
        /// Why it was refused.
        reason: String,
    },
    /// Text that is not in the encoding expected; it was read with replacement characters.
    Encoding(String),
    /// The record is larger than jiang reads (see [`super::MAX_NODES`]).
    TooLarge(String),
    /// Nothing to read: the file holds no game.
    NoGame,
    /// An operation the format does not offer.
    Unsupported(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NotThisFormat { format, found } => {
                write!(f, "not a {format} file ({found})")
            }
            ErrorKind::Truncated { what } => write!(f, "the file ends inside {what}"),
            ErrorKind::Malformed(m) => write!(f, "{m}"),
            ErrorKind::Position(e) => write!(f, "bad start position: {e}"),
            ErrorKind::Move { text, reason } => write!(f, "move '{text}': {reason}"),
            ErrorKind::Encoding(m) => write!(f, "{m}"),
            ErrorKind::TooLarge(m) => write!(f, "too large: {m}"),
            ErrorKind::NoGame => write!(f, "no game in the file"),
            ErrorKind::Unsupported(m) => write!(f, "{m}"),
        }
    }
}

/// A problem reading a record: what, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordError {
    /// Where it is.
    pub place: Place,
    /// What it is.
    pub kind: ErrorKind,
}

impl RecordError {
    /// A problem at a place.
    pub fn new(place: Place, kind: ErrorKind) -> RecordError {
        RecordError { place, kind }
    }

    /// A malformed part at a place.
    pub fn malformed(place: Place, message: impl Into<String>) -> RecordError {
        RecordError::new(place, ErrorKind::Malformed(message.into()))
    }

    /// A refused move at a place.
    pub fn bad_move(place: Place, text: impl Into<String>, reason: impl Into<String>) -> Self {
        RecordError::new(
            place,
            ErrorKind::Move {
                text: text.into(),
                reason: reason.into(),
            },
        )
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Place::Nowhere => write!(f, "{}", self.kind),
            place => write!(f, "{place}: {}", self.kind),
        }
    }
}

impl std::error::Error for RecordError {}
