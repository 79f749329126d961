//! Why a text or a placement is not a Microchess position ([`MicrochessFenError`]).

use super::types::Side;
use std::fmt;

/// Why a FEN or a placement is not a Microchess position; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MicrochessFenError {
    /// Nothing to read.
    Empty,
    /// The board field does not have 4 ranks (how many).
    RankCount(usize),
    /// A digit that is not an empty-square count 1 to 4.
    EmptyCount {
        /// The digit.
        digit: char,
        /// Its rank, from 1.
        rank: i8,
    },
    /// A letter that is not a piece (`K R k r`).
    UnknownPiece(char),
    /// A piece twice on the board (its letter).
    Twice(char),
    /// A rank that does not describe 4 squares.
    RankLength {
        /// The rank, from 1.
        rank: i8,
        /// Its text.
        text: String,
    },
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// A castling or en-passant field that is not `-`.
    BadField(String),
    /// The plies since the last capture are not a number in `0..=max`.
    BadHalfmove {
        /// The field.
        text: String,
        /// The most a game has.
        max: u8,
    },
    /// The move number is not a positive number.
    BadFullmove(String),
    /// Text after the last field (its first word).
    TrailingText(String),
    /// More plies played than a game lasts.
    PastTheEnd {
        /// The move number, when read from a FEN.
        fullmove: Option<u32>,
        /// The side to move.
        side: Side,
        /// Plies played.
        plies: u64,
        /// The most a game has.
        max: u8,
    },
    /// Two pieces on one square (their letters).
    SameSquare(char, char),
    /// More plies since the last capture than plies played.
    HalfmoveAbovePlies {
        /// Plies since the last capture.
        halfmove: u8,
        /// Plies played.
        plies: u8,
    },
    /// A king is missing at the start of the game.
    KingMissingAtStart,
    /// The side that made the last move has neither king nor rook.
    LastMoverWithoutPieces(Side),
    /// A last rook move after a king capture, within the first two plies.
    LastRookMoveTooEarly,
}

impl fmt::Display for MicrochessFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use MicrochessFenError as E;
        match self {
            E::Empty => write!(f, "empty FEN"),
            E::RankCount(n) => write!(
                f,
                "the board has {n} ranks, expected 4 (Microchess is played on 4x4)"
            ),
            E::EmptyCount { digit, rank } => {
                write!(f, "'{digit}' in rank {rank} is not a count 1-4")
            }
            E::UnknownPiece(c) => write!(f, "'{c}' is not a Microchess piece (K R k r)"),
            E::Twice(c) => write!(f, "more than one '{c}' on the board"),
            E::RankLength { rank, text } => {
                write!(f, "rank {rank} ('{text}') does not describe 4 squares")
            }
            E::BadSide(s) => write!(f, "side to move '{s}' is not w or b"),
            E::BadField(s) => write!(f, "unexpected field '{s}', expected '-'"),
            E::BadHalfmove { text, max } => write!(
                f,
                "plies since the last capture '{text}' is not a number in 0..={max}"
            ),
            E::BadFullmove(s) => write!(f, "move number '{s}' is not a positive number"),
            E::TrailingText(s) => write!(f, "unexpected text after the FEN: '{s}'"),
            E::PastTheEnd {
                fullmove: Some(fullmove),
                side,
                plies,
                max,
            } => write!(
                f,
                "move {fullmove} with {} to move is {plies} plies played; the game ends after {max}",
                side.name()
            ),
            E::PastTheEnd {
                fullmove: None,
                plies,
                max,
                ..
            } => write!(f, "{plies} plies played: the game ends after {max}"),
            E::SameSquare(a, b) => write!(f, "'{a}' and '{b}' stand on the same square"),
            E::HalfmoveAbovePlies { halfmove, plies } => write!(
                f,
                "{halfmove} plies since the last capture but only {plies} played"
            ),
            E::KingMissingAtStart => {
                write!(f, "a king is missing but no ply has been played")
            }
            E::LastMoverWithoutPieces(side) => write!(
                f,
                "{} has no king and no rook, yet it made the last move",
                side.name()
            ),
            E::LastRookMoveTooEarly => {
                write!(f, "a last rook move after a king capture needs 2 plies")
            }
        }
    }
}

impl std::error::Error for MicrochessFenError {}
