//! `jiang-lab match`: the project's own match runner, in the manner of cutechess-cli. Two
//! engines play over UCI or UCCI from a list of openings (each played twice, colours
//! swapped), at fixed nodes, depth or time per move or on a Fischer clock, one game per
//! thread; every move is refereed by jiang's own rules library; time losses, illegal
//! moves, crashes, hangs and garbage replies are counted per engine and forfeited; SPRT,
//! Elo with its error, LOS; PGN and a JSON summary.
//!
//! It plays what the independent runner `xqmatch` (a Python testing aid with a pyffish
//! referee, outside this repository) plays: the same games from the same openings at
//! fixed nodes, move for move (`tools/match/compare_xqmatch.py`), with the same forfeits.
//!
//! The modules, bottom up:
//! * [`process`]: an engine process, its pipes and the ways it ends;
//! * [`protocol`]: what UCI and UCCI say and how (`go`, `info`, `bestmove`, options);
//! * [`engine`]: an engine of the match: its settings, handshake, new game, search;
//! * [`referee`]: the game's rules (jiang's `Position`s) and the move notation;
//! * [`game`]: one game: clocks, limits, forfeits, adjudication ([`game::play_game`],
//!   the library entry point the tuner uses);
//! * [`schedule`]: openings and pairs; [`stats`]: Elo, LOS, SPRT;
//! * [`pgn`], [`report`]: the PGN, the JSON summary and the printed summary;
//! * [`runner`]: the match (workers, tallies, progress); [`cli`]: the command line;
//! * [`openings`]: `jiang-lab openings`, balanced random start positions.

pub mod cli;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod process;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
