//! jiang (将): a Xiangqi engine.
//!
//! * [`xiangqi`]: the rules — board, move generation, FEN.
//! * [`perft`]: move-generator verification.

#![warn(missing_docs)]

pub mod movelist;
pub mod perft;
pub mod xiangqi;
