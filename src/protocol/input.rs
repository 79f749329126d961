//! Decoding an input line. GUIs send UTF-8, except Windows GUIs that write their ANSI
//! code page (GBK on a Chinese Windows: XQWizard's C pipes, VinXiangQi's .NET
//! `StandardInput` with the system's default encoding); then a path such as
//! `C:\象棋\book.jbk` arrives as bytes that are not UTF-8. On Windows such a line is read
//! in the ANSI code page, so the path still opens; elsewhere, and where that fails too,
//! invalid bytes become U+FFFD (never fatal).

use std::borrow::Cow;

/// The text of one input line.
pub fn decode_line(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => match ansi::decode(bytes) {
            Some(text) => Cow::Owned(text),
            None => String::from_utf8_lossy(bytes),
        },
    }
}

#[cfg(windows)]
mod ansi {
    /// `CP_ACP`: the system's ANSI code page.
    const CP_ACP: u32 = 0;
    /// `MB_ERR_INVALID_CHARS`: fail on bytes the code page does not define.
    const MB_ERR_INVALID_CHARS: u32 = 8;

    #[link(name = "kernel32")]
    extern "system" {
        // https://learn.microsoft.com/en-us/windows/win32/api/stringapiset/nf-stringapiset-multibytetowidechar
        fn MultiByteToWideChar(
            code_page: u32,
            flags: u32,
            multi_byte: *const u8,
            multi_byte_len: i32,
            wide: *mut u16,
            wide_len: i32,
        ) -> i32;
    }

    /// `bytes` read in the ANSI code page, if they are valid there.
    pub fn decode(bytes: &[u8]) -> Option<String> {
        let len = i32::try_from(bytes.len()).ok().filter(|&n| n > 0)?;
        let flags = MB_ERR_INVALID_CHARS;
        // SAFETY: the input pointer and length describe `bytes`; a null output with length
        // 0 asks only for the length needed.
        let needed = unsafe {
            MultiByteToWideChar(CP_ACP, flags, bytes.as_ptr(), len, std::ptr::null_mut(), 0)
        };
        let mut wide = vec![0u16; usize::try_from(needed).ok().filter(|&n| n > 0)?];
        // SAFETY: `wide` has room for the `needed` units the first call asked for.
        let written = unsafe {
            MultiByteToWideChar(
                CP_ACP,
                flags,
                bytes.as_ptr(),
                len,
                wide.as_mut_ptr(),
                needed,
            )
        };
        wide.truncate(usize::try_from(written).ok().filter(|&n| n > 0)?);
        String::from_utf16(&wide).ok()
    }
}

#[cfg(not(windows))]
mod ansi {
    /// No ANSI code page outside Windows: the caller replaces invalid bytes.
    pub fn decode(_bytes: &[u8]) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_read_as_is_and_garbage_never_fails() {
        assert_eq!(
            decode_line("setoption name BookFile value C:\\象棋\\b.jbk\r\n".as_bytes()),
            "setoption name BookFile value C:\\象棋\\b.jbk\r\n"
        );
        // GBK for 象棋 (not UTF-8): some text comes back whatever the platform.
        let gbk = b"bookfiles C:\\\xcf\xf3\xc6\xe5\\b.jbk";
        assert!(decode_line(gbk).starts_with("bookfiles C:\\"));
        assert!(decode_line(b"\xff\xfe\x80").chars().count() > 0);
    }
}
