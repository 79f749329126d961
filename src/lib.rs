//! jiang (将): a Xiangqi engine.
//!
//! * [`xiangqi`]: the rules — board, move generation, FEN.
//! * [`perft`]: move-generator verification.

#![warn(missing_docs)]

pub mod bench;
pub mod engine;
pub mod game;
pub mod movelist;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod threechess;
pub mod time;
pub mod tt;
pub mod tune;
pub mod xiangqi;
