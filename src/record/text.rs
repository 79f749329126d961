//! Text encodings of record files: UTF-8, UTF-16 (ChessBridge) and GBK/GB18030 (XQF and
//! most Chinese PGN files), and the full-width forms of letters and digits.
//!
//! GB18030 needs a table of some 20 000 characters; it comes from the `encoding_rs` crate
//! behind the cargo feature `gbk` (on in `jiang-lab` and `jiang-web`; the engine itself
//! reads records only through them). Without it such text is read with replacement
//! characters and a warning.

use super::error::{ErrorKind, Place, RecordError};

/// Decodes a text file: a UTF-8 or UTF-16 byte-order mark is followed; otherwise UTF-8
/// when the bytes are valid UTF-8, else GB18030. The warning says when characters had to
/// be replaced.
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
            let (s, clean) = decode_gbk(bytes);
            let warning = (!clean).then(|| {
                RecordError::new(
                    Place::Nowhere,
                    ErrorKind::Encoding(
                        "the text is neither UTF-8 nor GB18030; unknown characters were replaced"
                            .into(),
                    ),
                )
            });
            (s, warning)
        }
    }
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
