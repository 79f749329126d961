//! A fuzzer for the protocol front end, driving the real `jiang` binary over pipes.
//!
//! * [`games`]: sample positions and moves of every game in `jiang::games::VARIANTS`,
//!   made with the library (random games), plus FENs and moves of no game at all.
//! * [`grammar`]: lines of every real command of every dialect (UCCI, UCI with each
//!   `UCI_Variant`, CECP, the terminal commands), mostly well formed, some wrong.
//! * [`mutate`]: what goes wrong on a pipe: truncation, huge numbers, other games' FENs
//!   and moves, binary garbage, 100 KB lines, odd whitespace and Unicode.
//! * [`model`]: what the engine makes of each line (dialect, game, quit), computed the
//!   way the engine reads lines, so that the checks know what is allowed.
//! * [`check`]: what a protocol line looks like in each dialect; free text only in
//!   answer to terminal commands, and never anything that looks like a diagnostic.
//! * [`driver`]: sessions of batches; after each batch the engine must still answer
//!   `isready` (CECP: `ping`), must not have panicked, must not have exited before `quit`
//!   or end of input, and must have written protocol only. Sessions end with `quit` or
//!   with end of input at any point, even inside a line.
//!
//! Include it with `#[path = "common/fuzz/mod.rs"] mod fuzz;` next to `mod engine;` and
//! `mod rng;` (the harness and the seeded generator).

#![allow(dead_code)]

pub mod check;
pub mod driver;
pub mod games;
pub mod grammar;
pub mod model;
pub mod mutate;

pub use driver::{run, Config};

/// The dialect the engine speaks, as chosen by the last handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// No handshake yet (a person at a terminal).
    Terminal,
    /// UCI (after `uci`).
    Uci,
    /// UCCI (after `ucci`).
    Ucci,
    /// CECP (after `xboard`).
    Cecp,
}

/// Shows bytes for a report: printable ASCII as is, the rest escaped, long texts cut in
/// the middle.
pub fn show_bytes(b: &[u8]) -> String {
    let text = String::from_utf8_lossy(b);
    let escaped: String = text.escape_debug().collect();
    let n = escaped.chars().count();
    if n <= 240 {
        escaped
    } else {
        let head: String = escaped.chars().take(160).collect();
        let tail: String = escaped.chars().skip(n - 60).collect();
        format!("{head}…[{} bytes]…{tail}", b.len())
    }
}
