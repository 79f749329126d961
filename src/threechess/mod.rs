//! ThreeChess as UWA CITS3001 plays it (the reference code `drtnf/threeChess`): three
//! players (Blue, Green, Red, in that order) on a 96-square board of three sections, king
//! capture ends the game. See docs/games.md, "ThreeChess", for the rules; the modules:
//!
//! * [`types`]: players, pieces, squares (`BE2`), moves (`BE2BE4`).
//! * [`geometry`]: unit steps, the mirrored continuation across the centre, the move
//!   tables (built at compile time).
//! * [`board`]: the position, make/unmake, Zobrist key.
//! * [`movegen`]: legal moves (perft is `crate::perft`, over [`crate::game::Rules`]).
//! * [`fen`]: jiang's FEN for ThreeChess (documented there).
//! * [`rules`]: the end of the game and the front end's `Rules`.
//! * [`display`]: the `d` diagram.
//! * [`eval`]: evaluation per player.
//! * [`search`]: the three-player search and the whole-game clock.
//! * [`chooser`]: the move chooser the engine plays it with (the search, its clock).

pub mod board;
pub mod chooser;
pub mod display;
pub mod eval;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod rules;
pub mod search;
pub mod types;
mod zobrist;

pub use board::{Board, Status};
pub use fen::START_FEN;
pub use movegen::Gen;
pub use rules::Ending;
pub use types::{Kind, Move, Piece, Player, Square};
