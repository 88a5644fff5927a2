//! How the engines turn string bytes into text, and text into string bytes.
//!
//! Godot reads a string field with `String::parse_utf8(bytes, len)`, which stops at the first NUL
//! byte (`core/string/ustring.cpp`), so bytes after a NUL inside the declared length are ignored.
//! A leading byte-order mark is skipped. What else it accepts depends on the version (see
//! [`crate::utf8`]); what it refuses makes the decode fail (`_decode_string` in
//! `core/io/marshalls.cpp` checks the result).

use crate::utf8::{Utf8Rules, decode_loose};
use crate::value::Text;

/// Decodes string field bytes that are not UTF-8 (where [`decode_utf8`] failed at `at`) under
/// `rules`: 4.x refuses them, 3.x reads them loosely. `Err(i)` names the first bad byte. Valid
/// UTF-8 reads the same under both readers, so the common case never comes here.
#[cold]
pub fn decode_not_utf8(bytes: &[u8], at: usize, rules: Utf8Rules) -> Result<Text, usize> {
    if rules == Utf8Rules::Strict {
        return Err(at);
    }
    let (start, body) = body(bytes);
    decode_loose(body).map_err(|i| start + i)
}

/// The bytes the engine reads (up to the first NUL, after a leading byte-order mark) and where
/// they start.
fn body(bytes: &[u8]) -> (usize, &[u8]) {
    let end = memchr::memchr(0, bytes).unwrap_or(bytes.len());
    let start = if bytes[..end].starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    (start, &bytes[start..end])
}

/// Decodes a string field's bytes the way the engine does; `Err(i)` names the first bad byte.
/// The text is borrowed from `bytes`, so the caller chooses where (and whether) to copy it.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, usize> {
    // PackedStringArray elements end in the NUL they count in their length.
    let text = match bytes.split_last() {
        Some((0, text)) => text,
        _ => bytes,
    };
    if let Some(s) = plain_ascii(text) {
        return Ok(s);
    }
    // A leading byte-order mark is skipped, not kept.
    let (start, body) = body(bytes);
    // A vectorized validator: the standard library's runs at a tenth of its speed on text that
    // is not ASCII (docs/benchmarks.md, `unicode_strings`). Its `compat` flavour says where the
    // text stops being valid, as the standard library's does.
    match simdutf8::compat::from_utf8(body) {
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

/// The window a short string field is read from: the inline room of a [`Text`].
pub const SHORT: usize = 24;

/// The longest text [`plain_window`] takes: the window but its last byte, where an inline
/// [`Text`] keeps its length.
pub const SHORT_TEXT: usize = SHORT - 1;

/// The first `len` (at most [`SHORT_TEXT`]) bytes of `window` as text, when every one of them is
/// ASCII other than NUL (then [`decode_utf8`] would give the same text); `None` sends the caller
/// to [`decode_utf8`].
// The decoder takes the two steps apart; the tests state what they make together.
#[cfg(test)]
pub fn short_plain(window: &[u8; SHORT], len: usize) -> Option<Text> {
    PlainWindow::new(window, len).map(Text::from_plain_window)
}

/// The high bit of each of the first `len` bytes of the window's two words: loads, where a shift
/// of a u128 by a variable amount is a dozen instructions.
const HIGH_BITS: [(u128, u64); SHORT_TEXT + 1] = {
    const HIGH: u128 = u128::from_le_bytes([0x80; 16]);
    let mut high = [(0u128, 0u64); SHORT_TEXT + 1];
    let mut len = 1;
    while len <= SHORT_TEXT {
        high[len] = if len <= 16 {
            (HIGH & (u128::MAX >> (8 * (16 - len))), 0)
        } else {
            (HIGH, HIGH as u64 & (u64::MAX >> (8 * (SHORT - len))))
        };
        len += 1;
    }
    high
};

/// Whether a text's inline storage holds a whole window, which [`Text::set_plain_window`] copies.
const INLINE_HOLDS_WINDOW: bool = std::mem::size_of::<compact_str::CompactString>() >= SHORT;

/// Whether `len` is at most [`SHORT_TEXT`] and the first `len` bytes of `window` are ASCII other
/// than NUL: the common string field, for [`Text::set_plain_window`]. The test works on the whole
/// window at once (a 128-bit and a 64-bit word), where a loop over `len` bytes costs several times
/// more for short strings.
#[inline(always)]
pub fn plain_window(window: &[u8; SHORT], len: usize) -> bool {
    const ONES: u128 = u128::from_le_bytes([1; 16]);
    // The copy writes the whole window into a text's inline storage: 24 bytes on 64-bit targets,
    // 12 on 32-bit ones (wasm32), where every string is read field by field instead.
    if !INLINE_HOLDS_WINDOW {
        return false;
    }
    let Some(&(high_lo, high_hi)) = HIGH_BITS.get(len) else {
        return false;
    };
    let (lo, hi) = window.split_at(16);
    let lo = u128::from_le_bytes(lo.try_into().expect("16 bytes"));
    let hi = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
    // A byte of 0x80 or more has its high bit set; a zero byte borrows in the subtraction and
    // sets it there. A borrow only starts at a zero byte and only moves up, into later bytes: so
    // with the first `len` bytes all in 1..=0x7F, none of their high bits is set, whatever the
    // bytes after them hold, and the masks look at those bits alone.
    let bad_lo = (lo | lo.wrapping_sub(ONES)) & high_lo;
    let bad_hi = (hi | hi.wrapping_sub(ONES as u64)) & high_hi;
    bad_lo | u128::from(bad_hi) == 0
}

/// A window that [`plain_window`] passed: its first `len` bytes, at most [`SHORT_TEXT`], are
/// ASCII other than NUL, and a text's inline storage holds the whole window. [`PlainWindow::new`]
/// is the only way to make one, so [`Text::set_plain_window`] can rely on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainWindow<'a> {
    window: &'a [u8; SHORT],
    len: usize,
}

impl<'a> PlainWindow<'a> {
    /// The window, when its first `len` bytes pass [`plain_window`].
    #[inline(always)]
    pub(crate) fn new(window: &'a [u8; SHORT], len: usize) -> Option<PlainWindow<'a>> {
        plain_window(window, len).then_some(PlainWindow { window, len })
    }

    /// The whole window (the text and whatever follows it).
    #[inline(always)]
    pub(crate) fn window(self) -> &'a [u8; SHORT] {
        self.window
    }

    /// How many bytes of the window are the text.
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        self.len
    }
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

    #[test]
    fn a_bad_byte_after_a_byte_order_mark_is_named_at_its_offset_in_the_field() {
        // The mark is skipped, but the offset of the byte that makes the read fail counts from the
        // field's first byte, on both paths.
        assert_eq!(decode_utf8(b"\xEF\xBB\xBFa\xff"), Err(4));
        assert_eq!(
            decode_not_utf8(b"\xEF\xBB\xBFa\x80", 4, Utf8Rules::Loose),
            Err(4)
        );
        // A surrogate: 3.x reads it loosely, 4.x refuses it (corpus case
        // decode/string_bytes/surrogate_high).
        let surrogate = b"\xed\xa0\x80";
        assert!(decode_not_utf8(surrogate, 0, Utf8Rules::Loose).is_ok());
        assert_eq!(decode_not_utf8(surrogate, 0, Utf8Rules::Strict), Err(0));
    }

    #[test]
    fn bad_bytes_in_both_words_of_the_window_are_found() {
        // The same bad byte at the same place in both words must not cancel out.
        for (a, b) in [(0, 16), (3, 19), (15, 22), (7, 16)] {
            for bad in [0u8, 0x80, 0xFF] {
                let mut window = [b'a'; SHORT];
                window[a] = bad;
                window[b] = bad;
                assert!(!plain_window(&window, SHORT_TEXT), "{window:x?}");
                assert_eq!(short_plain(&window, SHORT_TEXT), None);
            }
        }
    }

    #[test]
    fn short_plain_takes_exactly_the_plain_ascii_text() {
        // 0xD8 and 0xD9 are what a text's last byte holds when it is on the heap or static.
        let probes = [0u8, 1, b'a', 0x7F, 0x80, 0xC3, 0xD8, 0xD9, 0xEF, 0xFF];
        for len in 0..=SHORT {
            for at in 0..SHORT {
                for &probe in &probes {
                    // One probe byte in a window of 'a', and the bytes past the text set to
                    // each probe in turn: only the text's own bytes may decide.
                    for &beyond in &probes {
                        let mut window = [b'a'; SHORT];
                        window[len..].fill(beyond);
                        window[at] = probe;
                        let text = &window[..len];
                        let plain =
                            len <= SHORT_TEXT && text.iter().all(|b| (1..=0x7F).contains(b));
                        let got = short_plain(&window, len);
                        assert_eq!(got.is_some(), plain, "{window:x?} len {len}");
                        if let Some(t) = got {
                            assert_eq!(t.as_str().ok_or(0), decode_utf8(text));
                            assert_eq!(t.as_str().map(str::len), Some(len));
                        }
                    }
                }
            }
        }
        assert_eq!(short_plain(&[b'a'; SHORT], SHORT_TEXT + 1), None);
    }
}
