//! Fairy chess, the NUS CS3243 game (`UCI_Variant fairychess`): an 8x8 board, kings,
//! rooks, bishops, knights, squires (FD) and combatants (mWcF), won by capturing the
//! enemy king. Rules, notation and decisions: docs/games.md, "Fairy chess (NUS CS3243)"
//! (the course's public material: `awpbash/CS3243`).
//!
//! * [`types`]: colours, pieces, squares, moves; [`attacks`]: leaper tables and magic
//!   slider lookups; [`position`]: the board, make/unmake, the end-of-game rules;
//! * [`fen`], [`movegen`], [`see`], [`eval`] (weights in [`weights`]), [`display`];
//! * [`endgame`]: exact tables of a king and one piece against a bare king, which the
//!   search reads instead of searching those positions;
//! * the [`crate::game::Rules`] and [`crate::game::Game`] implementations (`game_impl`);
//! * self-play games and the fitting of the evaluation weights to them live in the
//!   `jiang-lab` crate (`jiang-lab tune fairychess`).

pub mod attacks;
pub mod display;
pub mod endgame;
pub mod eval;
pub mod fen;
mod game_impl;
pub mod movegen;
pub mod position;
pub mod see;
pub mod types;
pub mod weights;
pub mod zobrist;

pub use fen::START_FEN;
pub use game_impl::{end_reason, game_end_of};
pub use position::{End, Position, PLY_LIMIT};
pub use types::{Color, Move, Piece, PieceKind, Square};
