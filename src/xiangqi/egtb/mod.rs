//! Endgame tablebases of jiang's own: exact values (win, draw or loss, and the distance
//! to mate) of the endings with one attacking piece, built offline by `jiang-lab egtb
//! build` and read by the search (`docs/tablebases.md`).
//!
//! * [`ending`]: the endings and their names (`KRKAA`);
//! * [`index`]: a position as a number, with the board's symmetries;
//! * [`format`](mod@format): the file (header, blocks, checksum) and reading one value;
//! * [`solve`]: the retrograde solver (used by `jiang-lab` and the tests), and `rules`:
//!   which draws each side holds under the repetition rules;
//! * [`verify`]: a built table checked against the engine's own moves.
//!
//! The tables a process has loaded ([`load_paths`]) are shared by all its searches:
//! they are facts about positions, not settings of one game. With none loaded, a probe
//! costs one relaxed atomic load.

pub mod ending;
pub mod format;
pub mod index;
mod rules;
pub mod solve;
mod unmove;
pub mod verify;

pub use ending::Ending;
pub use format::{Table, TbValue};

use super::position::Position;
use super::types::Color;
use index::{locate, Placement};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::RwLock;

/// File name extension of a table.
pub const EXTENSION: &str = "jtb";

/// The file name of an ending's table: `KRKAA.jtb`.
pub fn file_name(e: Ending) -> String {
    format!("{e}.{EXTENSION}")
}

/// The loaded tables, one slot per ending of the family.
struct TableSet {
    slots: Vec<Option<Table>>,
}

static TABLES: RwLock<Option<TableSet>> = RwLock::new(None);
/// Most pieces of a loaded table's positions; 0 when none is loaded (the probe's first,
/// and usually last, test).
static MAX_PIECES: AtomicU32 = AtomicU32::new(0);

/// What loading a path list did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// The endings loaded, in slot order.
    pub loaded: Vec<String>,
    /// Paths refused, each with its reason in a few words.
    pub refused: Vec<(String, String)>,
    /// How many tables were loaded before (now replaced).
    pub previous: usize,
}

impl LoadReport {
    /// Whether there is nothing to tell: no path given, and no table there was unloaded.
    pub fn is_silent(&self) -> bool {
        self.loaded.is_empty() && self.refused.is_empty() && self.previous == 0
    }
}

/// Splits a path list: `;` everywhere, and `:` too where paths cannot contain it
/// (not on Windows).
fn split_paths(list: &str) -> Vec<PathBuf> {
    list.split(|c| c == ';' || (c == ':' && !cfg!(windows)))
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "<empty>")
        .map(PathBuf::from)
        .collect()
}

/// Why a table file could not be used.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Its contents are not a table this code reads.
    Format(format::FormatError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Format(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads one table file, checked.
pub fn read_table(path: &Path) -> Result<Table, ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    Table::from_bytes(bytes).map_err(ReadError::Format)
}

/// Replaces the loaded tables with those found in `list` (directories, whose `*.jtb`
/// files are read, or files). Each file is checked (magic, version, checksum, layout);
/// one that fails is refused and the others are used. An empty list unloads all.
pub fn load_paths(list: &str) -> LoadReport {
    let mut report = LoadReport::default();
    let mut slots: Vec<Option<Table>> = (0..ending::SLOTS).map(|_| None).collect();
    for path in split_paths(list) {
        let files: Vec<PathBuf> = if path.is_dir() {
            match std::fs::read_dir(&path) {
                Ok(dir) => {
                    let mut files: Vec<PathBuf> = dir
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
                        .collect();
                    files.sort();
                    files
                }
                Err(e) => {
                    report
                        .refused
                        .push((path.display().to_string(), e.to_string()));
                    continue;
                }
            }
        } else {
            vec![path]
        };
        for file in files {
            match read_table(&file) {
                Ok(t) => {
                    let slot = t.ending().slot();
                    if let Some(s) = slots.get_mut(slot) {
                        *s = Some(t);
                    }
                }
                Err(e) => report
                    .refused
                    .push((file.display().to_string(), e.to_string())),
            }
        }
    }
    let mut max = 0;
    for t in slots.iter().flatten() {
        report.loaded.push(t.ending().to_string());
        max = max.max(t.ending().piece_count());
    }
    let any = max > 0;
    let mut guard = TABLES
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    report.previous = guard
        .as_ref()
        .map_or(0, |set| set.slots.iter().flatten().count());
    *guard = any.then_some(TableSet { slots });
    drop(guard);
    MAX_PIECES.store(max, Ordering::Release);
    report
}

/// The placement of `pos` if it has few enough pieces for the family.
#[inline]
fn placement_of(pos: &Position) -> Option<Placement> {
    let occ = pos.occupied();
    if occ.count() as usize > index::MAX_PIECES {
        return None;
    }
    let mut p = Placement::new(pos.side_to_move());
    for sq in occ {
        p.push(pos.piece_at(sq)?, sq);
    }
    Some(p)
}

/// The value of `pos` for the side to move from a loaded table, if one knows it.
/// Allocates nothing.
#[inline]
pub fn probe(pos: &Position) -> Option<TbValue> {
    let max = MAX_PIECES.load(Ordering::Relaxed);
    if max == 0 || pos.occupied().count() > max {
        return None;
    }
    let p = placement_of(pos)?;
    let (e, i) = locate(&p)?;
    let guard = TABLES.read().ok()?;
    guard.as_ref()?.slots.get(e.slot())?.as_ref()?.value(i)
}

/// The line `d` and `eval` show when a table knows the position: `tablebase: win in 7
/// plies (KRKA)`.
pub fn describe(pos: &Position) -> Option<String> {
    let (v, e) = verdict(pos)?;
    let side = match pos.side_to_move() {
        Color::Red => "red",
        Color::Black => "black",
    };
    Some(format!("tablebase: {v} for {side} to move ({e})"))
}

/// The value of `pos` from a loaded table and the table's ending.
pub fn verdict(pos: &Position) -> Option<(TbValue, Ending)> {
    let v = probe(pos)?;
    Some((v, locate(&placement_of(pos)?)?.0))
}

/// The placement of `pos`, for the generator's and the tests' checks.
pub fn placement_of_position(pos: &Position) -> Option<Placement> {
    placement_of(pos)
}
