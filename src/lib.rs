//! jiang (将): a Xiangqi engine that also plays the four course games it grew out of
//! (fairychess, Microchess, Baroque, ThreeChess) and Jieqi, Xiangqi with hidden pieces.
//!
//! Layers, bottom to top; each imports only from the layers below it:
//! * shared pieces: [`common`] (colours, Zobrist keys, FEN helpers, typed FEN and move
//!   errors), [`movelist`], [`tt`], [`time`] (the clock and [`time::SearchControl`]),
//!   [`options`] (how an option is declared and read);
//! * [`game`]: what every game provides ([`game::Rules`]) and what the two-player search
//!   needs on top ([`game::Game`]); [`perft`], one perft for every game; [`request`],
//!   what a search is asked (one type from the protocol to the search); [`report`], what
//!   a search reports;
//! * the games, one folder each: [`xiangqi`], [`fairychess`], [`baroque`], [`jieqi`]
//!   (played by the generic search), [`microchess`] and [`threechess`] (each with its own move
//!   chooser, through [`chooser::MoveChooser`]);
//! * [`record`]: Xiangqi game records (PGN, XQF, CBR/CBF, DhtmlXQ, FEN and moves), read
//!   and written, the moves checked by the rules;
//! * [`search`]: the generic two-player search (PVS, quiescence, the transposition
//!   table, Lazy SMP) and its move chooser, [`search::AlphaBeta`];
//! * [`engine`]: one facade over whichever game is being played ([`games`] lists them),
//!   its options and the search thread, reporting structured events;
//! * [`protocol`]: UCCI, UCI, CECP and the terminal, formatting those events.
//!
//! Offline jobs (self-play data, training, tuning) are not here: they live in the
//! workspace member `jiang-lab` (`lab/`).

#![warn(missing_docs)]

pub mod baroque;
pub mod bench;
pub mod book;
pub mod chooser;
pub mod common;
pub mod engine;
pub mod fairychess;
pub mod game;
pub mod jieqi;
pub mod memory;
pub mod microchess;
pub mod movelist;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod record;
pub mod report;
pub mod request;
pub mod search;
pub mod threechess;
pub mod time;
pub mod tt;
pub mod xiangqi;

/// The list of games (kept at the crate root for its users: `jiang::games::VARIANTS`).
pub use engine::games;
