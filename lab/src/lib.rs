//! jiang-lab: the offline jobs around the jiang engine, kept out of the engine crate so
//! that the engine builds only what it runs. One module per game, as in the engine:
//!
//! * [`xiangqi`]: self-play training data ([`xiangqi::datagen`]), the network trainer
//!   ([`xiangqi::train`]), the Texel tuning of the hand-written evaluation
//!   ([`xiangqi::tune`]) and the opening book builder ([`xiangqi::book`]);
//! * [`fairychess`]: self-play, matches between weights and the fit of the evaluation
//!   weights ([`fairychess::tune`], driven by [`fairychess::cli`]);
//! * [`baroque`]: self-play, matches between weights and the material fit
//!   ([`baroque::tune`], driven by [`baroque::cli`]);
//! * [`jieqi`]: a shallow expectimax player to measure jiang's Jieqi against
//!   ([`jieqi::baseline`], `jiang-lab jieqi-baseline`, over UCI);
//! * [`microchess`]: the census of the solved game ([`microchess::census`]);
//! * [`threechess`]: the reference's random and greedy agents and the three-player
//!   match runner;
//! * [`matches`](mod@matches): the match runner (`jiang-lab match`: engines over UCI/UCCI, refereed by
//!   jiang's rules) and [`spsa`], the parameter tuner that plays its games;
//! * [`flags`]: the one argument parser of every subcommand (arguments, `--name value`
//!   options, `--name` switches, `--help`).
//!
//! The binary `jiang-lab` has one subcommand per job (`jiang-lab --help`).

#![warn(missing_docs)]

pub mod flags;
pub mod matches;
pub mod spsa;

/// Xiangqi: training data, the network trainer, the evaluation tuner, the book builder,
/// the endgame tables.
pub mod xiangqi {
    pub mod book;
    pub mod datagen;
    pub mod egtb;
    pub mod eleeye_book;
    pub mod records;
    pub mod review;
    pub mod train;
    pub mod tune;
}

/// Fairy chess: self-play and the fit of the evaluation weights.
pub mod fairychess {
    pub mod cli;
    pub mod tune;
}

/// Baroque chess: self-play, weight matches and the material fit.
pub mod baroque {
    pub mod cli;
    pub mod tune;
}

/// Microchess: counting the starts and board positions of the solved game.
pub mod microchess {
    pub mod census;
    pub mod models;
}

/// Jieqi: the shallow expectimax player jiang is measured against.
pub mod jieqi {
    pub mod baseline;
}

/// ThreeChess: sample agents and the match runner.
pub mod threechess {
    pub mod agents;
    pub mod match_runner;
}
