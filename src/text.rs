//! How the engines turn string bytes into text, and text into string bytes.
//!
//! Godot reads a string field with `String::parse_utf8(bytes, len)`, which stops at the first NUL
//! byte (`core/string/ustring.cpp`), so bytes after a NUL inside the declared length are ignored.
//! A leading byte-order mark is skipped. Invalid UTF-8 makes the decode fail (`_decode_string` in
//! `core/io/marshalls.cpp` checks the result).

/// Decodes a string field's bytes the way the engine does; `Err(i)` names the first bad byte.
/// The text is borrowed from `bytes`, so the caller chooses where (and whether) to copy it.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, usize> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    // A leading byte-order mark is skipped, not kept.
    let start = if bytes[..end].starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    match std::str::from_utf8(&bytes[start..end]) {
        Ok(s) => Ok(s),
        Err(e) => Err(start + e.valid_up_to()),
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Zero bytes that pad `len` up to a multiple of 4.
pub fn padding(len: usize) -> usize {
    (4 - len % 4) % 4
}
