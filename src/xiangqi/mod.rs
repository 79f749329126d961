//! Xiangqi: board representation, rules and move generation.

pub mod attacks;
pub mod bitboard;
pub mod book;
pub mod display;
pub mod egtb;
pub mod eleeye;
pub mod eval;
pub mod fen;
mod game_impl;
pub mod house_rules;
pub mod mirror;
pub mod movegen;
pub mod nnue;
pub mod position;
pub mod rules;
pub mod see;
pub mod types;
pub mod wdl;
pub mod weights;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::START_FEN;
pub use house_rules::RuleSet;
pub use movegen::GenType;
pub use position::Position;
pub use types::{Color, Move, Piece, PieceKind, Square};
