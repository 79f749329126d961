//! The table file: a versioned header, values compressed in blocks that are read on
//! their own, and a checksum. The layout is documented in `docs/tablebases.md`; in
//! short (little-endian):
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `JIANGTB` and 0x1a |
//! | 8 | 2 | format version ([`VERSION`]) |
//! | 10 | 2 | flags ([`FLAG_RULE_DRAWS`]) |
//! | 12 | 16 | ending name, ASCII, NUL padded (`KRKAA`) |
//! | 28 | 1 | index scheme ([`INDEX_SCHEME`]) |
//! | 29 | 1 | value encoding ([`VALUE_ENCODING`]) |
//! | 30 | 2 | values per block ([`BLOCK_VALUES`]) |
//! | 32 | 8 | entries (index values) |
//! | 40 | 4 | blocks |
//! | 44 | 2 | longest distance to mate in the table, plies |
//! | 46 | 2 | length of the notes |
//! | 48 | n | notes: UTF-8 text for people (pieces, rules, counts) |
//! | | 4 (blocks+1) | block offsets, from the start of the data |
//! | | | data: the blocks, run-length coded |
//! | end-8 | 8 | FNV-1a 64 of every byte before it |
//!
//! A value is one byte: 0 a draw that both sides hold under the Asian rules, `d + 1` the
//! distance `d` plies to mate (odd: the side to move mates, even: it is mated), 251 to
//! 253 a draw when repetitions are drawn that the side to move (251), the other side
//! (252) or neither side (253) is proved to hold without checking or chasing
//! perpetually, 255 no position. A block codes up to
//! [`BLOCK_VALUES`] values as tokens: a byte `c < 128` and the `c + 1` literal values
//! after it, or a byte `c >= 128` and one value repeated `c - 125` times (3 to 130).

use super::ending::Ending;
use std::fmt;

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"JIANGTB\x1a";
/// The format version this code writes and reads.
pub const VERSION: u16 = 2;
/// The index scheme of `index.rs` (turned board, mirror on the kings' files).
pub const INDEX_SCHEME: u8 = 1;
/// The one-byte value encoding above.
pub const VALUE_ENCODING: u8 = 2;
/// Values per block.
pub const BLOCK_VALUES: usize = 4096;
/// Flag: some draw of the table is one that a side is not proved to hold under the
/// Asian rules (bytes 251 to 253; see `docs/tablebases.md`). Wins and losses are exact
/// either way.
pub const FLAG_RULE_DRAWS: u16 = 1;
/// Byte of a draw both sides hold.
pub const DRAW: u8 = 0;

/// Byte of an index value that is no position.
pub const NO_POSITION: u8 = 255;
/// Longest distance to mate a byte can hold.
pub const MAX_DTM: u16 = 249;

const HEADER: usize = 48;

/// The value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TbValue {
    /// It mates in this many plies (odd).
    Win(u16),
    /// A draw with best play that both sides hold without breaking the repetition rules.
    Draw,
    /// A draw if every repetition were drawn, but a side is not proved to hold it under
    /// the Asian rules: its every hold may need a perpetual check or chase, which loses.
    /// The flags say whose hold is proved; at least one is not.
    RuleDraw {
        /// The side to move can hold without a perpetual check or chase.
        mover_holds: bool,
        /// The other side can.
        other_holds: bool,
    },
    /// It is mated in this many plies (even; 0: mated or stalemated now).
    Loss(u16),
}

impl TbValue {
    /// The value of a byte; `None` for no position.
    #[inline(always)]
    pub fn from_byte(b: u8) -> Option<TbValue> {
        match b {
            DRAW => Some(TbValue::Draw),
            251 => Some(TbValue::RuleDraw {
                mover_holds: false,
                other_holds: true,
            }),
            252 => Some(TbValue::RuleDraw {
                mover_holds: true,
                other_holds: false,
            }),
            253 => Some(TbValue::RuleDraw {
                mover_holds: false,
                other_holds: false,
            }),
            1..=250 => {
                let d = u16::from(b) - 1;
                Some(if d % 2 == 1 {
                    TbValue::Win(d)
                } else {
                    TbValue::Loss(d)
                })
            }
            _ => None,
        }
    }

    /// The byte of a value.
    pub fn to_byte(self) -> u8 {
        match self {
            TbValue::Draw => DRAW,
            TbValue::RuleDraw {
                mover_holds: true,
                other_holds: true,
            } => DRAW,
            TbValue::RuleDraw {
                mover_holds,
                other_holds,
            } => match (mover_holds, other_holds) {
                (false, true) => 251,
                (true, false) => 252,
                _ => 253,
            },
            TbValue::Win(d) | TbValue::Loss(d) => (d.min(MAX_DTM) + 1) as u8,
        }
    }
}

impl fmt::Display for TbValue {
    /// `win in 7 plies`, `draw`, `loss in 6 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbValue::Win(d) => write!(f, "win in {d} plies"),
            TbValue::Draw => f.write_str("draw"),
            TbValue::RuleDraw { .. } => {
                f.write_str("draw if repetitions are drawn (the repetition rules may decide)")
            }
            TbValue::Loss(d) => write!(f, "loss in {d} plies"),
        }
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Run-length codes one block.
fn compress_block(values: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    let mut literal_start = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        let mut s = from;
        while s < to {
            let n = (to - s).min(128);
            out.push((n - 1) as u8);
            out.extend_from_slice(&values[s..s + n]);
            s += n;
        }
    };
    while i < values.len() {
        let v = values[i];
        let mut run = 1;
        while i + run < values.len() && values[i + run] == v && run < 130 {
            run += 1;
        }
        if run >= 3 {
            flush(out, literal_start, i);
            out.push((run + 125) as u8);
            out.push(v);
            i += run;
            literal_start = i;
        } else {
            i += run;
        }
    }
    flush(out, literal_start, values.len());
}

/// What a table's header says, besides its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The ending.
    pub ending: Ending,
    /// [`FLAG_RULE_DRAWS`] and future flags.
    pub flags: u16,
    /// Longest distance to mate, plies.
    pub max_dtm: u16,
    /// Text for people.
    pub notes: String,
}

/// The bytes of a table file of `values` (one byte per index value).
pub fn encode(header: &Header, values: &[u8]) -> Vec<u8> {
    let blocks = values.len().div_ceil(BLOCK_VALUES);
    let mut data = Vec::new();
    let mut offsets = Vec::with_capacity(blocks + 1);
    for chunk in values.chunks(BLOCK_VALUES) {
        offsets.push(data.len() as u32);
        compress_block(chunk, &mut data);
    }
    offsets.push(data.len() as u32);
    let notes = header.notes.as_bytes();
    let notes = &notes[..notes.len().min(u16::MAX as usize)];
    let mut out = Vec::with_capacity(HEADER + notes.len() + 4 * offsets.len() + data.len() + 8);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&header.flags.to_le_bytes());
    let mut name = [0u8; 16];
    for (d, s) in name.iter_mut().zip(header.ending.to_string().bytes()) {
        *d = s;
    }
    out.extend_from_slice(&name);
    out.push(INDEX_SCHEME);
    out.push(VALUE_ENCODING);
    out.extend_from_slice(&(BLOCK_VALUES as u16).to_le_bytes());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(blocks as u32).to_le_bytes());
    out.extend_from_slice(&header.max_dtm.to_le_bytes());
    out.extend_from_slice(&(notes.len() as u16).to_le_bytes());
    out.extend_from_slice(notes);
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&data);
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Why a file is not a table this code can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Shorter than its header and checksum, or than its header says.
    Truncated,
    /// The first bytes are not [`MAGIC`].
    BadMagic,
    /// A version this code does not read.
    Version(u16),
    /// The checksum does not match the contents.
    Checksum,
    /// The ending name is none of the family.
    Ending(String),
    /// An index scheme, value encoding or block size this code does not read.
    Scheme,
    /// The entries or blocks do not fit the ending, or a block does not decode to its
    /// length.
    Corrupt(&'static str),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Truncated => f.write_str("truncated"),
            FormatError::BadMagic => f.write_str("not a jiang tablebase (bad magic)"),
            FormatError::Version(v) => write!(f, "format version {v}, this engine reads {VERSION}"),
            FormatError::Checksum => f.write_str("checksum mismatch"),
            FormatError::Ending(n) => write!(f, "unknown ending '{n}'"),
            FormatError::Scheme => {
                f.write_str("unknown index scheme, value encoding or block size")
            }
            FormatError::Corrupt(what) => write!(f, "corrupt: {what}"),
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// A table in memory, checked: its compressed bytes, read a block at a time.
pub struct Table {
    header: Header,
    bytes: Vec<u8>,
    entries: usize,
    offsets_at: usize,
    data_at: usize,
    blocks: usize,
}

impl Table {
    /// Checks and takes a file's bytes: magic, version, checksum, ending, scheme, and
    /// that every block decodes to its length (so that a probe cannot fail).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Table, FormatError> {
        if bytes.len() < HEADER + 8 {
            return Err(FormatError::Truncated);
        }
        if bytes[..8] != MAGIC {
            return Err(FormatError::BadMagic);
        }
        let version = u16_at(&bytes, 8).ok_or(FormatError::Truncated)?;
        if version != VERSION {
            return Err(FormatError::Version(version));
        }
        let body = bytes.len() - 8;
        let sum = u64_at(&bytes, body).ok_or(FormatError::Truncated)?;
        if fnv1a64(&bytes[..body]) != sum {
            return Err(FormatError::Checksum);
        }
        let flags = u16_at(&bytes, 10).ok_or(FormatError::Truncated)?;
        let name: String = bytes[12..28]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| b as char)
            .collect();
        let ending = Ending::parse(&name).ok_or_else(|| FormatError::Ending(name.clone()))?;
        if bytes[28] != INDEX_SCHEME
            || bytes[29] != VALUE_ENCODING
            || u16_at(&bytes, 30) != Some(BLOCK_VALUES as u16)
        {
            return Err(FormatError::Scheme);
        }
        let entries = u64_at(&bytes, 32).ok_or(FormatError::Truncated)? as usize;
        if entries != super::index::entries(ending) {
            return Err(FormatError::Corrupt("entries do not fit the ending"));
        }
        let blocks = u32_at(&bytes, 40).ok_or(FormatError::Truncated)? as usize;
        if blocks != entries.div_ceil(BLOCK_VALUES) {
            return Err(FormatError::Corrupt("block count does not fit the entries"));
        }
        let max_dtm = u16_at(&bytes, 44).ok_or(FormatError::Truncated)?;
        let notes_len = u16_at(&bytes, 46).ok_or(FormatError::Truncated)? as usize;
        let notes = bytes
            .get(HEADER..HEADER + notes_len)
            .ok_or(FormatError::Truncated)?;
        let notes = String::from_utf8_lossy(notes).into_owned();
        let offsets_at = HEADER + notes_len;
        let data_at = offsets_at + 4 * (blocks + 1);
        if data_at > body {
            return Err(FormatError::Truncated);
        }
        let table = Table {
            header: Header {
                ending,
                flags,
                max_dtm,
                notes,
            },
            bytes,
            entries,
            offsets_at,
            data_at,
            blocks,
        };
        let data_len = body - data_at;
        let mut prev = 0usize;
        for b in 0..=blocks {
            let o =
                u32_at(&table.bytes, offsets_at + 4 * b).ok_or(FormatError::Truncated)? as usize;
            if o < prev || o > data_len || (b == 0 && o != 0) {
                return Err(FormatError::Corrupt("block offsets"));
            }
            prev = o;
        }
        if prev != data_len {
            return Err(FormatError::Corrupt("block offsets"));
        }
        for b in 0..blocks {
            let want = (entries - b * BLOCK_VALUES).min(BLOCK_VALUES);
            if table.block_len(b) != Some(want) {
                return Err(FormatError::Corrupt(
                    "a block does not decode to its length",
                ));
            }
        }
        Ok(table)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.header.ending
    }

    /// Size of the file in bytes.
    pub fn file_size(&self) -> usize {
        self.bytes.len()
    }

    /// The compressed bytes of block `b`.
    fn block(&self, b: usize) -> Option<&[u8]> {
        let start = u32_at(&self.bytes, self.offsets_at + 4 * b)? as usize;
        let end = u32_at(&self.bytes, self.offsets_at + 4 * (b + 1))? as usize;
        self.bytes.get(self.data_at + start..self.data_at + end)
    }

    /// Number of values block `b` decodes to, `None` if its tokens are cut short.
    fn block_len(&self, b: usize) -> Option<usize> {
        let data = self.block(b)?;
        let (mut p, mut n) = (0, 0);
        while p < data.len() {
            let c = data[p] as usize;
            if c < 128 {
                n += c + 1;
                p += c + 2;
            } else {
                n += c - 125;
                p += 2;
            }
        }
        (p == data.len()).then_some(n)
    }

    /// The byte of index value `index`: walks the tokens of its block, allocating
    /// nothing. `None` past the end (or on a block that would not decode, which
    /// [`Table::from_bytes`] already refused).
    #[inline]
    pub fn byte(&self, index: usize) -> Option<u8> {
        if index >= self.entries {
            return None;
        }
        let data = self.block(index / BLOCK_VALUES)?;
        let mut off = index % BLOCK_VALUES;
        let mut p = 0;
        while p < data.len() {
            let c = data[p] as usize;
            if c < 128 {
                if off <= c {
                    return data.get(p + 1 + off).copied();
                }
                off -= c + 1;
                p += c + 2;
            } else {
                if off < c - 125 {
                    return data.get(p + 1).copied();
                }
                off -= c - 125;
                p += 2;
            }
        }
        None
    }

    /// The value of index value `index`; `None` for no position.
    #[inline]
    pub fn value(&self, index: usize) -> Option<TbValue> {
        TbValue::from_byte(self.byte(index)?)
    }

    /// Every byte, decoded (tests and statistics).
    pub fn values(&self) -> Vec<u8> {
        (0..self.entries)
            .map(|i| self.byte(i).unwrap_or(NO_POSITION))
            .collect()
    }

    /// Blocks in the file.
    pub fn blocks(&self) -> usize {
        self.blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_and_damage_is_refused() {
        let ending = Ending::parse("KRK").unwrap();
        let n = super::super::index::entries(ending);
        // Runs, literals and a tail block shorter than the others.
        let values: Vec<u8> = (0..n)
            .map(|i| {
                if i % 1000 < 600 {
                    (i / 1000 % 7) as u8
                } else {
                    (i * 31 % 11) as u8
                }
            })
            .collect();
        let header = Header {
            ending,
            flags: 0,
            max_dtm: 10,
            notes: "test".into(),
        };
        let bytes = encode(&header, &values);
        assert_eq!(bytes, encode(&header, &values));
        let t = Table::from_bytes(bytes.clone()).unwrap();
        assert_eq!(t.values(), values);
        assert_eq!(t.header(), &header);
        let mut flipped = bytes.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x40;
        assert_eq!(
            Table::from_bytes(flipped).err(),
            Some(FormatError::Checksum)
        );
        let cut = bytes[..bytes.len() - 100].to_vec();
        assert!(Table::from_bytes(cut).is_err());
        let mut magic = bytes;
        magic[0] = b'X';
        assert_eq!(Table::from_bytes(magic).err(), Some(FormatError::BadMagic));
    }
}
