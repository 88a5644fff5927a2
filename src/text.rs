//! How the engines turn string bytes into text, and text into string bytes.
//!
//! Godot reads a string field with `String::parse_utf8(bytes, len)`, which stops at the first NUL
//! byte (`core/string/ustring.cpp`), so bytes after a NUL inside the declared length are ignored.
//! A leading byte-order mark is skipped. Invalid UTF-8 makes the decode fail (`_decode_string` in
//! `core/io/marshalls.cpp` checks the result).

/// Decodes a string field's bytes the way the engine does; `Err(i)` names the first bad byte.
/// The text is borrowed from `bytes`, so the caller chooses where (and whether) to copy it.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, usize> {
    // PackedStringArray elements end in the NUL they count in their length.
    let body = match bytes.split_last() {
        Some((0, body)) => body,
        _ => bytes,
    };
    if let Some(s) = plain_ascii(body) {
        return Ok(s);
    }
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

/// `bytes` as text when every byte is ASCII other than NUL: most strings in game data (keys, names),
/// and a case that needs neither the NUL search nor full UTF-8 validation, which is most of the
/// cost of decoding a short string.
#[inline]
fn plain_ascii(bytes: &[u8]) -> Option<&str> {
    // One branch-free pass (it vectorizes): every byte in 1..=0x7F.
    let plain = bytes
        .iter()
        .fold(true, |ok, &b| ok & (b.wrapping_sub(1) < 0x7F));
    // SAFETY: every byte is below 0x80, and a sequence of ASCII bytes is valid UTF-8.
    plain.then(|| unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Zero bytes that pad `len` up to a multiple of 4.
pub fn padding(len: usize) -> usize {
    (4 - len % 4) % 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_rules_on_both_paths() {
        // Plain ASCII, up to the last ASCII byte.
        assert_eq!(decode_utf8(b"abc\x7f"), Ok("abc\x7f"));
        // Text stops at the first NUL (`String::parse_utf8` in ustring.cpp).
        assert_eq!(decode_utf8(b"a\0b"), Ok("a"));
        assert_eq!(decode_utf8(b"\0"), Ok(""));
        assert_eq!(decode_utf8(b"ab\0"), Ok("ab"));
        assert_eq!(decode_utf8(b"a\0b\0"), Ok("a"));
        // A leading byte-order mark is skipped.
        assert_eq!(decode_utf8(b"\xEF\xBB\xBFx"), Ok("x"));
        // Multibyte text, and the offset of the first byte that is not UTF-8.
        assert_eq!(decode_utf8("é\0z".as_bytes()), Ok("é"));
        assert_eq!(decode_utf8(b"ab\xff"), Err(2));
        assert_eq!(decode_utf8(b"\x80"), Err(0));
    }
}
