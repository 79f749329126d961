//! Xiangqi: board representation, rules and move generation.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN};
pub use movegen::{GenType, MoveError};
pub use position::Position;
pub use types::{Color, Move, MoveParseError, Piece, PieceKind, Square};
