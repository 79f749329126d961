//! jiang (将): a Xiangqi engine that also plays the games it grew out of.
//!
//! Layers, bottom to top:
//! * the games: [`xiangqi`], [`microchess`] (one module per game), each implementing [`game::Rules`] and,
//!   for two-player games the generic search plays, [`game::Game`];
//! * [`search`]: the generic two-player search (PVS, quiescence, [`tt`], [`time`]);
//! * [`engine`]: one facade over whichever game is being played ([`games`] lists them),
//!   reporting structured events;
//! * [`protocol`]: UCCI, UCI, CECP and the terminal, formatting those events.

#![warn(missing_docs)]

pub mod baroque;
pub mod bench;
pub mod chooser;
pub mod common;
pub mod engine;
pub mod fairychess;
pub mod game;
pub mod microchess;
pub mod movelist;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod report;
pub mod search;
pub mod threechess;
pub mod time;
pub mod tt;
pub mod xiangqi;

/// The list of games (kept at the crate root for its users: `jiang::games::VARIANTS`).
pub use engine::games;
