//! Microchess (Waterloo CO 456, 2017): White king and rook against Black king and rook on
//! a 4x4 board, king capture, one last rook move for the victim, 30 plies at most, and
//! payoffs 3/0 (a win), 2/2 (both kings captured: a tie), 1/1 (a draw). Not zero-sum, so
//! the two-player search does not play it: it is solved by backward induction over every
//! state (computed at first use), and jiang plays by the solution ([`choose`]).
//!
//! * [`types`]: squares, sides, pieces, moves (`a2b2`).
//! * [`position`]: the position, move generation, the end of the game and payoffs.
//! * [`fen`]: `2R1/3r/Kk2/4 w - - 0 1` in and out, validated; [`error`], why a FEN or a
//!   placement is refused.
//! * [`table`]: a value per state and backward induction.
//! * [`solve`]: the solution and the move chooser ([`choose`], [`value`]).
//! * [`opponents`]: models of the opponent (random, capturing, the course's rational
//!   players), jiang's best response to each and their weights given observed moves.
//! * `rules_impl`: [`crate::game::Rules`] for the front end.
//! * [`chooser`]: the move chooser the engine plays it with (answers from the table).

pub mod chooser;
pub mod error;
pub mod fen;
pub mod opponents;
pub mod position;
mod rules_impl;
pub mod solve;
pub mod table;
pub mod types;

pub use error::MicrochessFenError;
pub use fen::HANDOUT_FEN;
pub use position::{starts, Ending, Position, Status, MAX_PLIES};
pub use rules_impl::{diagram, eval_report, game_end};
pub use solve::{choose, solution, value, Choice, Solution, Value};
pub use types::{Kind, Move, Piece, Side, Square};
