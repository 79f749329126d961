//! Small things every game needs once: Zobrist key tables, FEN reading and writing
//! helpers, the typed errors at the game boundary, the two-player colour type, and what
//! the Asian rules say about a repetition.
//!
//! This is the bottom layer: it knows no game and imports nothing from the rest of jiang.

pub mod asian_rules;
pub mod clock;
pub mod color;
pub mod fen;
pub mod move_error;
pub mod zobrist;

pub(crate) use color::two_player_color;
pub use fen::{FenError, FenFields};
pub use move_error::MoveError;
pub use zobrist::KeyStream;
