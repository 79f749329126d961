//! Text encodings of record files: UTF-8, UTF-16 (ChessBridge), GBK/GB18030 (XQF and
//! most Chinese PGN files) and Big5 (traditional-character PGN files from Taiwan and Hong
//! Kong), and the full-width forms of letters and digits.
//!
//! GB18030 and Big5 need tables of some 20 000 characters; they come from the `encoding_rs`
//! crate behind the cargo feature `gbk` (on in `jiang-lab` and `jiang-web`; the engine itself
//! reads records only through them). Without it such text is read with replacement
//! characters and a warning.

use super::error::{ErrorKind, Place, RecordError};

/// Decodes a text file: a UTF-8 or UTF-16 byte-order mark is followed; otherwise UTF-8
/// when the bytes are valid UTF-8, else GB18030 or Big5 ([`decode_legacy`]). The warning
/// says when characters had to be replaced.
pub fn decode_text(bytes: &[u8]) -> (String, Option<RecordError>) {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return utf8_or_legacy(rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return (decode_utf16(rest, false), None);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return (decode_utf16(rest, true), None);
    }
    utf8_or_legacy(bytes)
}

fn utf8_or_legacy(bytes: &[u8]) -> (String, Option<RecordError>) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), None),
        Err(_) => {
            let (s, clean) = decode_legacy(bytes);
            let warning = (!clean).then(|| {
                RecordError::new(
                    Place::Nowhere,
                    ErrorKind::Encoding(
                        "the text is neither UTF-8, GB18030 nor Big5; unknown characters were replaced"
                            .into(),
                    ),
                )
            });
            (s, warning)
        }
    }
}

/// The characters of move text in Chinese notation (pieces, directions, Red's file
/// numbers, simplified and traditional): what tells GB18030 text from Big5 text, as the
/// same bytes read in the wrong one of the two are other characters (Big5's pairs are
/// nearly all valid GBK pairs too).
#[cfg(feature = "gbk")]
const NOTATION_CHARS: &str = "车車马馬傌炮砲包相象仕士帅帥将將兵卒进進退平前后後一二三四五六七八九";

/// Decodes text that is not UTF-8: as GB18030 and as Big5, and keeps the reading with
/// more characters of Chinese notation (GB18030 when they tie, and whichever decodes
/// without replacement when only one does); `false` when characters had to be replaced.
pub fn decode_legacy(bytes: &[u8]) -> (String, bool) {
    let (gbk, gbk_clean) = decode_gbk(bytes);
    #[cfg(feature = "gbk")]
    {
        if !bytes.is_ascii() {
            let (big5, _, big5_errors) = encoding_rs::BIG5.decode(bytes);
            let score = |s: &str| s.chars().filter(|c| NOTATION_CHARS.contains(*c)).count();
            let big5_better = if gbk_clean == big5_errors {
                // Only one of the two decodes cleanly.
                !big5_errors
            } else {
                score(&big5) > score(&gbk)
            };
            if big5_better {
                return (big5.into_owned(), !big5_errors);
            }
        }
    }
    (gbk, gbk_clean)
}

/// Decodes GBK/GB18030 bytes (ASCII passes through); `false` when characters had to be
/// replaced (or the `gbk` feature is off and the bytes are not ASCII).
pub fn decode_gbk(bytes: &[u8]) -> (String, bool) {
    if bytes.is_ascii() {
        return (String::from_utf8_lossy(bytes).into_owned(), true);
    }
    #[cfg(feature = "gbk")]
    {
        let (s, _, had_errors) = encoding_rs::GB18030.decode(bytes);
        (s.into_owned(), !had_errors)
    }
    #[cfg(not(feature = "gbk"))]
    {
        (String::from_utf8_lossy(bytes).into_owned(), false)
    }
}

/// Encodes text as GB18030 (used by tests and tools that build XQF files); `None` without
/// the `gbk` feature when the text is not ASCII.
pub fn encode_gbk(text: &str) -> Option<Vec<u8>> {
    if text.is_ascii() {
        return Some(text.as_bytes().to_vec());
    }
    #[cfg(feature = "gbk")]
    {
        let (bytes, _, _) = encoding_rs::GB18030.encode(text);
        Some(bytes.into_owned())
    }
    #[cfg(not(feature = "gbk"))]
    {
        None
    }
}

/// Decodes UTF-16 (little- or big-endian) code units; an odd last byte is dropped, lone
/// surrogates become U+FFFD.
pub fn decode_utf16(bytes: &[u8], big_endian: bool) -> String {
    let units = bytes.chunks_exact(2).map(|c| {
        if big_endian {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_le_bytes([c[0], c[1]])
        }
    });
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// A full-width letter, digit or sign (U+FF01..U+FF5E) as its ASCII form, the
/// ideographic space as a space; other characters unchanged.
pub fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// The full-width form of an ASCII digit (Black's file numbers in Chinese notation).
pub fn wide_digit(d: u8) -> char {
    char::from_u32(0xFF10 + u32::from(d % 10)).unwrap_or('?')
}
