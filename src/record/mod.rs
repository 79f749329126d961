//! Xiangqi game records: the files players keep their games in, read and written.
//!
//! A record is a [`Game`]: tags (event, players, result, …), the start position, and a
//! [`GameTree`] of moves with variations and comments. Every format reads into it and
//! writes from it:
//!
//! | format | module | read | write |
//! |---|---|---|---|
//! | PGN, moves in ICCS, WXF or Chinese notation | [`pgn`] | yes | yes (any of the three) |
//! | XQF (XiangQi Wizard, 象棋演播室), every version and its encryption | [`xqf`] | yes | no |
//! | CBR / CBL (象棋桥 ChessBridge, binary) | [`cbr`] | yes | no |
//! | CBF (象棋桥 ChessBridge, XML) | [`cbf`] | yes | no |
//! | DhtmlXQ / UBB (forums, web pages) | [`dhtmlxq`] | yes | yes |
//! | a FEN and a list of ICCS moves | [`fen_moves`] | yes | yes |
//!
//! [`review`] holds the rules a game review judges moves by (marks, accuracy), for every
//! review to share.
//!
//! The moves of a record are checked against the Xiangqi rules as they are read (the
//! [`crate::xiangqi`] move generator): an illegal move ends the line it is in, with a
//! warning naming where it was ([`Loaded::warnings`]); what was read before it is kept.
//! A file that cannot be read at all is an [`RecordError`] naming the byte offset or the
//! line and column at fault. No input makes a reader panic (`tests/record_fuzz.rs`).
//!
//! This module sits above the rules ([`crate::xiangqi`]) and below the search: it does
//! not know the engine or the protocols.

pub mod cbf;
pub mod cbr;
pub mod dhtmlxq;
mod error;
pub mod fen_moves;
pub mod notation;
pub mod pgn;
mod raw;
pub mod review;
pub mod text;
mod tree;
pub mod xqf;

pub use error::{ErrorKind, Place, RecordError};
pub use notation::Notation;
pub use tree::{GameTree, Nag, Node, NodeId};

use crate::xiangqi::{Position, START_FEN};
use std::path::Path;

/// Most moves a record may hold, all lines together (a guard against files that would
/// take all memory, far above any real game's).
pub const MAX_NODES: usize = 200_000;
/// Deepest nesting of variations inside variations a record may have.
pub const MAX_NESTING: usize = 64;
/// Most plies of one line.
pub const MAX_LINE_PLIES: usize = 2_000;

/// One game: its tags, start position and move tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// Tags in the order they were read, PGN names (`Event`, `Site`, `Date`, `Round`,
    /// `Red`, `Black`, `Result`, …). `FEN` is not among them: see [`Game::start_fen`].
    pub tags: Vec<(String, String)>,
    /// The start position, as a canonical FEN (written by [`Position::to_fen`]).
    pub start_fen: String,
    /// The moves: the main line, its variations and the comments.
    pub tree: GameTree,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(START_FEN.to_string())
    }
}

impl Game {
    /// An empty game from `start_fen` (taken as given: readers pass canonical FENs).
    pub fn new(start_fen: String) -> Game {
        Game {
            tags: Vec::new(),
            start_fen,
            tree: GameTree::new(),
        }
    }

    /// The start position.
    pub fn start_position(&self) -> Position {
        Position::from_fen(&self.start_fen).unwrap_or_else(|_| Position::startpos())
    }

    /// Whether the game starts from the standard start position.
    pub fn from_start_position(&self) -> bool {
        self.start_fen == START_FEN
    }

    /// The value of a tag (names compared without case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing one of the same name (without case).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(entry) => entry.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn result(&self) -> &str {
        match self.tag("Result") {
            Some(r @ ("1-0" | "0-1" | "1/2-1/2")) => r,
            _ => "*",
        }
    }

    /// The main line's moves in ICCS (`h2e2`).
    pub fn main_line_iccs(&self) -> Vec<String> {
        self.tree
            .main_line()
            .iter()
            .filter_map(|&id| self.tree.node(id).mv.map(|m| m.to_string()))
            .collect()
    }
}

/// What a reader gives back: the game, and the problems that did not stop it (an illegal
/// move that ended a line, a text that could not be decoded, …), each naming its place.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The game as far as it could be read.
    pub game: Game,
    /// The problems met, in reading order.
    pub warnings: Vec<RecordError>,
}

impl Loaded {
    /// A game read without a problem.
    pub fn clean(game: Game) -> Loaded {
        Loaded {
            game,
            warnings: Vec::new(),
        }
    }
}

/// The record formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN; the notation of its moves is chosen when writing.
    Pgn(Notation),
    /// XQF (read only).
    Xqf,
    /// CBR, one ChessBridge game (read only).
    Cbr,
    /// CBL, a ChessBridge library of games (read only).
    Cbl,
    /// CBF, ChessBridge's XML (read only).
    Cbf,
    /// DhtmlXQ / UBB.
    DhtmlXq,
    /// A FEN and ICCS moves (`position fen … moves …`).
    FenMoves,
}

impl Format {
    /// Every name [`Format::from_name`] takes, for messages.
    pub const NAMES: &'static str =
        "pgn (= pgn-iccs), pgn-wxf, pgn-chinese, xqf, cbr, cbl, cbf, dhtmlxq (= ubb), fen";

    /// The format of a name given on a command line (see [`Format::NAMES`]).
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "pgn" | "pgn-iccs" | "iccs" => Format::Pgn(Notation::Iccs),
            "pgn-wxf" | "wxf" => Format::Pgn(Notation::Wxf),
            "pgn-chinese" | "pgn-cn" | "chinese" => Format::Pgn(Notation::Chinese),
            "xqf" => Format::Xqf,
            "cbr" => Format::Cbr,
            "cbl" => Format::Cbl,
            "cbf" => Format::Cbf,
            "dhtmlxq" | "ubb" | "txt" => Format::DhtmlXq,
            "fen" | "fen-moves" => Format::FenMoves,
            _ => return None,
        })
    }

    /// The format a file name's extension names (`.pgn` is PGN with ICCS moves when
    /// writing; reading takes any notation).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?;
        match ext.to_ascii_lowercase().as_str() {
            "ubb" | "dhtmlxq" => Some(Format::DhtmlXq),
            "txt" => None,
            other => Format::from_name(other),
        }
    }

    /// Whether jiang can write this format.
    pub fn writable(self) -> bool {
        matches!(self, Format::Pgn(_) | Format::DhtmlXq | Format::FenMoves)
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn(Notation::Iccs) => "pgn",
            Format::Pgn(Notation::Wxf) => "pgn-wxf",
            Format::Pgn(Notation::Chinese) => "pgn-chinese",
            Format::Xqf => "xqf",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::Cbf => "cbf",
            Format::DhtmlXq => "dhtmlxq",
            Format::FenMoves => "fen",
        }
    }

    /// Guesses the format of a file from its first bytes.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"XQ") {
            return Some(Format::Xqf);
        }
        if bytes.starts_with(cbr::RECORD_MAGIC) {
            return Some(Format::Cbr);
        }
        if bytes.starts_with(cbr::LIBRARY_MAGIC) {
            return Some(Format::Cbl);
        }
        let head = text::decode_text(&bytes[..bytes.len().min(4096)]).0;
        let head = head.trim_start();
        if head.starts_with("<?xml") || head.contains("<ChineseChessRecord") {
            return Some(Format::Cbf);
        }
        if head.contains("[DhtmlXQ") {
            return Some(Format::DhtmlXq);
        }
        if head.starts_with('[') || head.starts_with('{') || head.starts_with("1.") {
            return Some(Format::Pgn(Notation::Iccs));
        }
        if fen_moves::looks_like(head) {
            return Some(Format::FenMoves);
        }
        None
    }
}

/// Reads every game of a file's bytes in `format` (PGN and CBL files may hold several).
/// An error stops only the game it is in; a file that is not of the format at all is a
/// single error.
pub fn read_all(bytes: &[u8], format: Format) -> Vec<Result<Loaded, RecordError>> {
    match format {
        Format::Pgn(_) => {
            let (text, warning) = text::decode_text(bytes);
            let mut games = pgn::read_games(&text);
            if let (Some(w), Some(Ok(first))) = (warning, games.first_mut()) {
                first.warnings.insert(0, w);
            }
            games
        }
        Format::Cbl => cbr::read_library(bytes),
        Format::Xqf => vec![xqf::read(bytes)],
        Format::Cbr => vec![cbr::read(bytes)],
        Format::Cbf => vec![with_text(bytes, cbf::read)],
        Format::DhtmlXq => vec![with_text(bytes, dhtmlxq::read)],
        Format::FenMoves => vec![with_text(bytes, fen_moves::read)],
    }
}

/// Reads the first game of a file's bytes.
pub fn read(bytes: &[u8], format: Format) -> Result<Loaded, RecordError> {
    read_all(bytes, format)
        .into_iter()
        .next()
        .unwrap_or_else(|| Err(RecordError::new(Place::Byte(0), ErrorKind::NoGame)))
}

fn with_text(
    bytes: &[u8],
    reader: fn(&str) -> Result<Loaded, RecordError>,
) -> Result<Loaded, RecordError> {
    let (text, warning) = text::decode_text(bytes);
    let mut loaded = reader(&text)?;
    if let Some(w) = warning {
        loaded.warnings.insert(0, w);
    }
    Ok(loaded)
}

/// Writes a game in `format`; `Err` names a format jiang only reads.
pub fn write(game: &Game, format: Format) -> Result<String, RecordError> {
    match format {
        Format::Pgn(notation) => Ok(pgn::write(game, notation)),
        Format::DhtmlXq => Ok(dhtmlxq::write(game)),
        Format::FenMoves => Ok(fen_moves::write(game)),
        other => Err(RecordError::new(
            Place::Nowhere,
            ErrorKind::Unsupported(format!(
                "{} is read only (jiang writes pgn, pgn-wxf, pgn-chinese, dhtmlxq, fen)",
                other.name()
            )),
        )),
    }
}
