//! Baroque chess as UW CSE 473 plays it ("Allen School" rules, Tanimoto's starter code),
//! following the rule book in docs/games.md (its sections 1-12 and decisions D1–D16).
//!
//! * [`types`]: colours, pieces, squares, moves (with the imitated method);
//! * [`bitboard`]: square sets and line geometry;
//! * [`board`]: the placement as bitboards and the freezing rule;
//! * [`captures`]: the five capture methods and the "could be captured" test;
//! * [`position`]: mailbox + bitboards, Zobrist key, make/unmake;
//! * [`fen`], [`movegen`], [`rules`] (game end), [`see`], [`eval`], [`display`];
//! * [`xboard`]: how XBoard (CECP) is told the game and its moves.

pub mod bitboard;
pub mod board;
pub mod captures;
pub mod display;
pub mod eval;
pub mod fen;
mod game_impl;
pub mod movegen;
pub mod position;
pub mod rules;
pub mod see;
pub mod types;
pub mod xboard;
pub mod zobrist;

pub use fen::START_FEN;
pub use position::Position;
pub use types::{Color, Method, Move, Piece, PieceKind, Square};
