//! Opening books: jiang's own compact binary format, read in place.
//!
//! A book maps positions (by Zobrist key) to a few good moves with weights. Books are
//! made by jiang itself (`jiang-lab book build`, see `lab/src/book.rs`); the default
//! Xiangqi book is embedded in the binary (`crate::xiangqi::book`).
//!
//! # Format (version 1, all numbers little-endian)
//!
//! ```text
//! header, 32 bytes:
//!   0..8    magic  "JIANGBK\0"
//!   8..10   version (1)
//!   10..12  record size in bytes (16)
//!   12..16  number of records
//!   16..32  the game's protocol name ("xiangqi"), ASCII, NUL-padded
//! records, 16 bytes each, sorted by key (then by weight, largest first):
//!   0..8    key: the position's canonical Zobrist key (side to move included)
//!   8..10   move: the game's 16-bit move code (as its hash table stores moves),
//!           in the canonical position's orientation
//!   10..12  weight (0..65535; 0: known, never chosen)
//!   12..14  score: the search score of the move, side to move's view, in the
//!           game's evaluation units
//!   14      depth of the search that scored it
//!   15      reserved (0)
//! ```
//!
//! **Mirrored positions are merged**: for a game whose rules are symmetric left to
//! right (Xiangqi), a position and its mirror image are the same opening; the book keeps
//! the one with the smaller key (the *canonical* one) and its moves in that orientation,
//! and a probe from the other one mirrors the moves back ([`BookKey`]).
//!
//! A probe is a binary search over the records where they lie (the embedded bytes or a
//! file read once), so it allocates nothing.
//!
//! # Other engines' books
//!
//! [`Book::open`] also reads ElephantEye's `BOOK.DAT` (a file without jiang's magic whose
//! name ends in `.dat`, any case), a Xiangqi book many UCCI users already have: see
//! [`elephanteye`] for its layout and [`BookFormat`] for what differs (keys, move codes,
//! the mirror lookup); the game computes that format's keys (`Game::book_keys`).

pub mod elephanteye;

use std::borrow::Cow;
use std::fmt;

/// The first 8 bytes of a book.
pub const MAGIC: &[u8; 8] = b"JIANGBK\0";
/// The format version this module reads and writes.
pub const VERSION: u16 = 1;
/// Size of the header.
pub const HEADER_SIZE: usize = 32;
/// Size of one record.
pub const RECORD_SIZE: usize = 16;
/// Longest game name a header holds.
const GAME_NAME_SIZE: usize = 16;
/// Most moves of one position a choice considers (the builder keeps far fewer).
pub const MAX_MOVES_PER_POSITION: usize = 32;

/// How a book's bytes are laid out, and so how its positions and moves are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// jiang's own (this module's): the game's Zobrist keys and 16-bit move codes; a
    /// position and its mirror image stored once, under the smaller key.
    Jiang,
    /// ElephantEye's `BOOK.DAT` ([`elephanteye`]), Xiangqi only: ElephantEye's 32-bit
    /// Zobrist lock and its move codes; the position's own lock is looked up first, then
    /// its mirror image's. Its moves carry a weight but no score.
    ElephantEye,
}

/// One book move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The move's code in the book's format (jiang's: the game's 16-bit move code), in
    /// the orientation of the position stored.
    pub mv: u16,
    /// How often to choose it, relative to the position's other moves.
    pub weight: u16,
    /// Search score of the move (side to move's view, evaluation units).
    pub score: i16,
    /// Depth of the search that scored it; 0: not scored (a book of another format).
    pub depth: u8,
}

/// How a position is looked up: its canonical key, and whether the position is the
/// mirror image of the canonical one (then its moves are mirrored back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookKey {
    /// The smaller of the key and the mirrored key.
    pub key: u64,
    /// Whether the position is the mirror of the one stored.
    pub mirrored: bool,
}

impl BookKey {
    /// The canonical key of a position whose key is `key` and whose mirror image's key
    /// is `mirrored_key` (`None` for games without a mirror).
    pub fn new(key: u64, mirrored_key: Option<u64>) -> BookKey {
        match mirrored_key {
            Some(m) if m < key => BookKey {
                key: m,
                mirrored: true,
            },
            _ => BookKey {
                key,
                mirrored: false,
            },
        }
    }
}

/// How much variety the book's choice has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Variety {
    /// Always the move of the largest weight.
    Best,
    /// Each move with a chance proportional to its weight.
    #[default]
    Weighted,
    /// Every move the book keeps (weight above 0) equally likely: the builder keeps only
    /// moves close to the best, so all are sound.
    Wide,
}

impl Variety {
    /// The names, as the option lists them.
    pub const NAMES: &'static [&'static str] = &["best", "weighted", "wide"];

    /// Reads one of [`Variety::NAMES`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Variety> {
        match name.to_ascii_lowercase().as_str() {
            "best" => Some(Variety::Best),
            "weighted" => Some(Variety::Weighted),
            "wide" => Some(Variety::Wide),
            _ => None,
        }
    }

    /// The weight a move counts with when choosing.
    fn effective_weight(self, weight: u16) -> u64 {
        match (self, weight) {
            (_, 0) => 0,
            (Variety::Wide, _) => 1,
            _ => u64::from(weight),
        }
    }
}

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read (its path and the system's reason).
    Io(String),
    /// Not jiang's format.
    Format(FormatError),
    /// A `.dat` file without jiang's magic that is not an ElephantEye book either.
    ElephantEye(elephanteye::ElephantEyeError),
}

/// Why bytes are not a book of jiang's format ([`BookError::Format`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than the header.
    Short,
    /// Not jiang's magic.
    WrongMagic,
    /// Not jiang's magic, and not named `*.dat` (so not read as ElephantEye's).
    WrongMagicNotDat,
    /// Another version of the format (the file's).
    Version(u16),
    /// Records of another size.
    RecordSize,
    /// The length does not match the number of records.
    Length,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Short => write!(f, "shorter than its header"),
            FormatError::WrongMagic => write!(f, "wrong magic"),
            FormatError::WrongMagicNotDat => write!(
                f,
                "wrong magic (an ElephantEye BOOK.DAT is read only from a file named *.dat)"
            ),
            FormatError::Version(v) => write!(f, "version {v}, this jiang reads {VERSION}"),
            FormatError::RecordSize => write!(f, "unexpected record size"),
            FormatError::Length => write!(f, "its length does not match its number of records"),
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read the book: {e}"),
            BookError::Format(e) => write!(f, "not a jiang book: {e}"),
            BookError::ElephantEye(e) => write!(f, "not an ElephantEye book (BOOK.DAT): {e}"),
        }
    }
}

impl std::error::Error for BookError {}

fn read_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// An opening book, checked when loaded and read in place.
#[derive(Clone)]
pub struct Book {
    data: Cow<'static, [u8]>,
    count: usize,
    format: BookFormat,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({}, {} moves)", self.game(), self.count)
    }
}

impl Book {
    /// Reads a book from bytes (embedded or read from a file), checking its header and
    /// length. Records are trusted to be sorted (an unsorted book only misses probes).
    pub fn from_bytes(data: Cow<'static, [u8]>) -> Result<Book, BookError> {
        let bad = |why| Err(BookError::Format(why));
        if data.len() < HEADER_SIZE {
            return bad(FormatError::Short);
        }
        if &data[..8] != MAGIC {
            return bad(FormatError::WrongMagic);
        }
        let version = read_u16(&data, 8);
        if version != VERSION {
            return bad(FormatError::Version(version));
        }
        if usize::from(read_u16(&data, 10)) != RECORD_SIZE {
            return bad(FormatError::RecordSize);
        }
        let count = u32::from_le_bytes([data[12], data[13], data[14], data[15]]) as usize;
        let expected = count
            .checked_mul(RECORD_SIZE)
            .and_then(|n| n.checked_add(HEADER_SIZE));
        if expected != Some(data.len()) {
            return bad(FormatError::Length);
        }
        Ok(Book {
            data,
            count,
            format: BookFormat::Jiang,
        })
    }

    /// Reads an ElephantEye book (`BOOK.DAT`) from bytes, checking its length, its order
    /// and its move codes ([`elephanteye::check`]).
    pub fn from_elephanteye_bytes(data: Cow<'static, [u8]>) -> Result<Book, BookError> {
        let count = elephanteye::check(&data).map_err(BookError::ElephantEye)?;
        Ok(Book {
            data,
            count,
            format: BookFormat::ElephantEye,
        })
    }

    /// Reads a book file: jiang's format when it starts with jiang's magic, else
    /// ElephantEye's when its name ends in `.dat` (any case), else it is refused.
    pub fn open(path: &str) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Io(format!("{path}: {e}")))?;
        let dat = std::path::Path::new(path)
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("dat"));
        match (bytes.starts_with(MAGIC), dat) {
            (false, true) => Book::from_elephanteye_bytes(Cow::Owned(bytes)),
            (false, false) => Err(BookError::Format(FormatError::WrongMagicNotDat)),
            _ => Book::from_bytes(Cow::Owned(bytes)),
        }
    }

    /// The book's format.
    pub fn format(&self) -> BookFormat {
        self.format
    }

    /// The game the book is for (its protocol name).
    pub fn game(&self) -> &str {
        if self.format == BookFormat::ElephantEye {
            return "xiangqi";
        }
        let name = &self.data[16..16 + GAME_NAME_SIZE];
        let end = name.iter().position(|&b| b == 0).unwrap_or(GAME_NAME_SIZE);
        std::str::from_utf8(&name[..end]).unwrap_or("")
    }

    /// Number of records (moves over all positions).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the book has no record.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn key_at(&self, i: usize) -> u64 {
        match self.format {
            BookFormat::Jiang => read_u64(&self.data, HEADER_SIZE + i * RECORD_SIZE),
            BookFormat::ElephantEye => u64::from(elephanteye::record(&self.data, i).0),
        }
    }

    /// Record `i` as (key, entry).
    pub fn record(&self, i: usize) -> (u64, BookEntry) {
        if self.format == BookFormat::ElephantEye {
            let (lock, mv, weight) = elephanteye::record(&self.data, i);
            let entry = BookEntry {
                mv,
                weight,
                score: 0,
                depth: 0,
            };
            return (u64::from(lock), entry);
        }
        let at = HEADER_SIZE + i * RECORD_SIZE;
        let b = &self.data;
        (
            read_u64(b, at),
            BookEntry {
                mv: read_u16(b, at + 8),
                weight: read_u16(b, at + 10),
                score: read_u16(b, at + 12) as i16,
                depth: b[at + 14],
            },
        )
    }

    /// First record whose key is not below `key`: a binary search in place.
    fn lower_bound(&self, key: u64) -> usize {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.key_at(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Whether the book has a record of `key`.
    pub fn contains(&self, key: u64) -> bool {
        let i = self.lower_bound(key);
        i < self.count && self.key_at(i) == key
    }

    /// The key to look a position up under, given its key and its mirror image's (both
    /// in the book's format, see `Game::book_keys`): jiang's books store the smaller
    /// (the canonical key, [`BookKey::new`]); ElephantEye's look the position's own key
    /// up first and the mirror's only when the book has no record of it.
    pub fn lookup(&self, key: u64, mirrored_key: Option<u64>) -> BookKey {
        match (self.format, mirrored_key) {
            (BookFormat::ElephantEye, Some(m)) if !self.contains(key) => BookKey {
                key: m,
                mirrored: true,
            },
            (BookFormat::ElephantEye, _) => BookKey {
                key,
                mirrored: false,
            },
            (BookFormat::Jiang, _) => BookKey::new(key, mirrored_key),
        }
    }

    /// The moves stored for the key `key` (jiang's books: largest weight first;
    /// ElephantEye's: in the file's order).
    pub fn entries(&self, key: u64) -> impl Iterator<Item = BookEntry> + '_ {
        (self.lower_bound(key)..self.count)
            .map(move |i| self.record(i))
            .take_while(move |(k, _)| *k == key)
            .map(|(_, e)| e)
    }

    /// Chooses a move of the position `key`: among the moves `accept` lets through (the
    /// caller turns the code into a move of its position and checks it is legal,
    /// allowed and repeats nothing), by `variety`, using `random` for the draw. No
    /// allocation: at most [`MAX_MOVES_PER_POSITION`] moves are considered.
    pub fn choose(
        &self,
        key: u64,
        variety: Variety,
        random: u64,
        mut accept: impl FnMut(u16) -> bool,
    ) -> Option<BookEntry> {
        let mut kept = [None::<BookEntry>; MAX_MOVES_PER_POSITION];
        let mut n = 0;
        let mut total = 0u64;
        for e in self.entries(key).take(MAX_MOVES_PER_POSITION) {
            if e.weight > 0 && accept(e.mv) {
                total += variety.effective_weight(e.weight);
                kept[n] = Some(e);
                n += 1;
            }
        }
        let kept = kept[..n].iter().flatten();
        if variety == Variety::Best {
            // The first of the largest weights.
            return kept
                .copied()
                .reduce(|a, b| if b.weight > a.weight { b } else { a });
        }
        if total == 0 {
            return None;
        }
        let mut pick = random % total;
        for e in kept {
            let w = variety.effective_weight(e.weight);
            if pick < w {
                return Some(*e);
            }
            pick -= w;
        }
        None
    }
}

/// Writes a book: sorts `records` (key, then weight largest first) and lays them out
/// after the header. `game` is the game's protocol name (at most 16 bytes are kept).
pub fn encode(game: &str, records: &mut [(u64, BookEntry)]) -> Vec<u8> {
    records.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.weight.cmp(&a.1.weight)));
    let mut out = Vec::with_capacity(HEADER_SIZE + records.len() * RECORD_SIZE);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    let mut name = [0u8; GAME_NAME_SIZE];
    for (d, s) in name.iter_mut().zip(game.bytes()) {
        *d = s;
    }
    out.extend_from_slice(&name);
    for (key, e) in records.iter() {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&e.mv.to_le_bytes());
        out.extend_from_slice(&e.weight.to_le_bytes());
        out.extend_from_slice(&e.score.to_le_bytes());
        out.push(e.depth);
        out.push(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(mv: u16, weight: u16) -> BookEntry {
        BookEntry {
            mv,
            weight,
            score: -12,
            depth: 9,
        }
    }

    #[test]
    fn round_trip() {
        let mut records = vec![
            (30, entry(1, 5)),
            (10, entry(2, 1)),
            (30, entry(3, 50)),
            (20, entry(4, 7)),
        ];
        let bytes = encode("xiangqi", &mut records);
        assert_eq!(bytes.len(), HEADER_SIZE + 4 * RECORD_SIZE);
        let book = Book::from_bytes(Cow::Owned(bytes)).unwrap();
        assert_eq!(book.game(), "xiangqi");
        assert_eq!(book.len(), 4);
        let at30: Vec<BookEntry> = book.entries(30).collect();
        assert_eq!(at30, vec![entry(3, 50), entry(1, 5)]);
        assert_eq!(book.entries(10).collect::<Vec<_>>(), vec![entry(2, 1)]);
        assert_eq!(book.entries(15).count(), 0);
        assert_eq!(book.entries(31).count(), 0);
        assert_eq!(
            book.choose(30, Variety::Best, 7, |_| true),
            Some(entry(3, 50))
        );
        assert_eq!(
            book.choose(30, Variety::Best, 7, |m| m != 3),
            Some(entry(1, 5))
        );
        assert_eq!(book.choose(30, Variety::Weighted, 7, |_| false), None);
        // Weighted: draws 0..50 pick move 3, 50..55 move 1.
        assert_eq!(
            book.choose(30, Variety::Weighted, 52, |_| true).unwrap().mv,
            1
        );
        assert_eq!(book.choose(30, Variety::Wide, 1, |_| true).unwrap().mv, 1);
    }

    #[test]
    fn bad_bytes_are_refused() {
        let mut records = vec![(1, entry(1, 1))];
        let good = encode("xiangqi", &mut records);
        for bad in [
            &good[..10],
            &good[..good.len() - 1],
            &[b'X'; HEADER_SIZE][..],
        ] {
            assert!(Book::from_bytes(Cow::Owned(bad.to_vec())).is_err());
        }
        let mut wrong_version = good.clone();
        wrong_version[8] = 9;
        assert!(Book::from_bytes(Cow::Owned(wrong_version)).is_err());
    }

    #[test]
    fn canonical_keys() {
        assert_eq!(
            BookKey::new(9, Some(4)),
            BookKey {
                key: 4,
                mirrored: true
            }
        );
        assert!(!BookKey::new(4, Some(9)).mirrored);
        assert!(!BookKey::new(4, None).mirrored);
    }
}
