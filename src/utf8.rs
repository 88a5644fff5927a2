//! The engines' two kinds of UTF-8: 4.x's strict reader, and 3.x's loose reader and writers.
//!
//! 3.x holds a String as 32-bit `wchar_t` units (Linux builds) and `String::parse_utf8`
//! (`core/ustring.cpp`) reads far more than UTF-8: surrogates, values past U+10FFFF, 5- and 6-byte
//! forms up to 0x7FFFFFFF and many overlong forms, each kept as the unit it spells. Its
//! `String::utf8` writes each unit back in the shortest form of 1 to 6 bytes; from 3.4 on it first
//! joins a high and a low surrogate into one code point and writes any other surrogate as a space.

use crate::string::{MAX_UNIT, Text};

/// How an engine reads a string's bytes and writes its units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Utf8Rules {
    /// 4.x: valid UTF-8 only, so strings are always Unicode text.
    Strict,
    /// 3.0 to 3.3 (verified on 3.2): the loose reader; the writer writes every unit as it is.
    Loose,
    /// 3.4 to 3.6 (verified on 3.6): the loose reader; the writer joins surrogate pairs and
    /// writes a lone surrogate as a space.
    LoosePairs,
}

/// The sequence length a lead byte announces (`parse_utf8`'s table), or `None` for a byte that
/// cannot lead: a continuation byte, `FE` or `FF`.
fn sequence_len(lead: u8) -> Option<usize> {
    Some(match lead.leading_ones() {
        0 => 1,
        n @ 2..=6 => n as usize,
        _ => return None,
    })
}

/// Reads `bytes` (already cut at the first NUL, byte-order mark skipped) the way 3.x's
/// `String::parse_utf8` does; `Err(i)` names the byte that makes it fail.
pub fn decode_loose(bytes: &[u8]) -> Result<Text, usize> {
    let mut units = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        let len = sequence_len(lead).ok_or(i)?;
        // Only the 2-byte overlongs (C0, C1) are refused by the lead byte.
        if len == 2 && lead & 0x1E == 0 {
            return Err(i);
        }
        // A sequence cut short by the end (the NUL) fails: the first pass counts too few bytes.
        let seq = bytes.get(i..i + len).ok_or(bytes.len())?;
        let mut unit = match len {
            1 => u32::from(lead),
            _ => u32::from(lead) & (0xFF >> (len + 1)),
        };
        for (k, &b) in seq.iter().enumerate().skip(1) {
            if b & 0xC0 != 0x80 {
                return Err(i + k);
            }
            // parse_utf8's one overlong test, made at the third byte only: when the units so far
            // are all zero and the third byte's top bits that a shorter form would need are
            // zero too. So E0 80 AF (an overlong "/") passes while E0 80 80 (NUL) fails, and
            // F0 81 80 80 passes, the units being non-zero already.
            if unit == 0 && k == 2 && (b & 0x7F) >> (7 - len) == 0 {
                return Err(i + k);
            }
            unit = (unit << 6) | u32::from(b & 0x3F);
        }
        units.push(unit);
        i += len;
    }
    Ok(Text::from_units(units))
}

/// Writes `units` the way `String::utf8` of an engine with these rules does; `Err(i)` names the
/// first unit it cannot write.
pub fn encode_units(units: &[u32], rules: Utf8Rules, out: &mut Vec<u8>) -> Result<(), usize> {
    let mut i = 0;
    while i < units.len() {
        let mut c = units[i];
        match rules {
            Utf8Rules::Strict => {
                // 4.x Strings hold scalar values only (4.6's `String::chr` and `utf8` replace
                // anything else with U+FFFD), so such a unit names no 4.x value.
                if !crate::string::is_scalar(c) {
                    return Err(i);
                }
            }
            Utf8Rules::Loose => {}
            Utf8Rules::LoosePairs => {
                if (0xD800..0xDC00).contains(&c)
                    && let Some(&low) = units.get(i + 1)
                    && (0xDC00..0xE000).contains(&low)
                {
                    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                    i += 1;
                } else if (0xD800..0xE000).contains(&c) {
                    c = u32::from(b' ');
                }
            }
        }
        if c > MAX_UNIT {
            return Err(i);
        }
        push_unit(c, out);
        i += 1;
    }
    Ok(())
}

/// One unit in the shortest of the 1- to 6-byte forms (3.x `String::utf8`; valid UTF-8 for a
/// scalar value).
fn push_unit(c: u32, out: &mut Vec<u8>) {
    let len = match c {
        0..=0x7F => return out.push(c as u8),
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    };
    let lead_bits = 0xFFu8 << (8 - len);
    out.push(lead_bits | (c >> (6 * (len - 1))) as u8);
    for k in (0..len - 1).rev() {
        out.push(0x80 | ((c >> (6 * k)) & 0x3F) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(bytes: &[u8]) -> Result<Vec<u32>, usize> {
        decode_loose(bytes).map(|t| t.units().collect())
    }

    fn written(u: &[u32], rules: Utf8Rules) -> Vec<u8> {
        let mut out = Vec::new();
        encode_units(u, rules, &mut out).unwrap();
        out
    }

    // Expected units and bytes are 3.2.3's and 3.6.2's answers (corpus cases
    // `decode/string_bytes/*` and `encode/String/units_*`).
    #[test]
    fn loose_reader_keeps_what_3x_keeps() {
        assert_eq!(units(b"\xed\xa0\x80"), Ok(vec![0xD800])); // surrogate_high
        assert_eq!(units(b"@\xed\xa0\x80z"), Ok(vec![0x40, 0xD800, 0x7A]));
        assert_eq!(
            units(b"\xed\xa0\xbd\xed\xb2\xa9"), // surrogate_pair_cesu
            Ok(vec![0xD83D, 0xDCA9])
        );
        assert_eq!(units(b"\xf4\x90\x80\x80"), Ok(vec![0x11_0000])); // beyond_10ffff
        assert_eq!(units(b"\xf8\x88\x80\x80\x80"), Ok(vec![0x20_0000])); // five_byte
        assert_eq!(units(b"\xfc\x84\x80\x80\x80\x80"), Ok(vec![0x400_0000])); // six_byte
        assert_eq!(units(b"\xfd\xbf\xbf\xbf\xbf\xbf"), Ok(vec![MAX_UNIT])); // six_byte_max
        // Overlongs: accepted unless parse_utf8's third-byte test catches them.
        assert_eq!(units(b"\xe0\x80\xaf"), Ok(vec![0x2F])); // overlong_slash
        assert_eq!(units(b"\xe0\x81\x80"), Ok(vec![0x40])); // overlong3_40
        assert_eq!(units(b"\xe0\x80\x90"), Ok(vec![0x10])); // overlong3_10
        assert_eq!(units(b"\xe0\x80\x8f"), Err(2)); // overlong3_0f
        assert_eq!(units(b"\xf0\x80\x88\x80"), Ok(vec![0x200])); // overlong4_200
        assert_eq!(units(b"\xf0\x80\x87\x80"), Err(2)); // overlong4_1c0
        assert_eq!(units(b"\xf8\x80\x84\x80\x80"), Ok(vec![0x4000])); // overlong5_4000
        assert_eq!(units(b"\xf8\x80\x83\x80\x80"), Err(2)); // overlong5_3000
        assert_eq!(units(b"\xfc\x80\x82\x80\x80\x80"), Ok(vec![0x8_0000])); // overlong6
        assert_eq!(units(b"\xfc\x80\x81\x80\x80\x80"), Err(2)); // overlong6_40000
        // Refused: bad leads, 2-byte overlongs, bad continuations, cut-short sequences.
        assert_eq!(units(b"\x80"), Err(0));
        assert_eq!(units(b"\xfe"), Err(0));
        assert_eq!(units(b"\xff"), Err(0));
        assert_eq!(units(b"\xc0\x80"), Err(0));
        assert_eq!(units(b"caf\xe9"), Err(4));
        assert_eq!(units(b"ab\xf8\x88\x80"), Err(5)); // truncated_five_byte
        assert_eq!(units(b"\xc3a"), Err(1));
    }

    #[test]
    fn writers_of_3_2_and_3_6() {
        let both = |u: &[u32], b: &[u8]| {
            assert_eq!(written(u, Utf8Rules::Loose), b);
            assert_eq!(written(u, Utf8Rules::LoosePairs), b);
        };
        both(&[0x2F], b"/");
        both(&[0x11_0000], b"\xf4\x90\x80\x80");
        both(&[0x400_0000], b"\xfc\x84\x80\x80\x80\x80");
        both(&[MAX_UNIT], b"\xfd\xbf\xbf\xbf\xbf\xbf");
        // 3.2 writes surrogates as they are; 3.6 joins a pair and makes a lone one a space.
        let pair = [0xD83D, 0xDCA9];
        assert_eq!(
            written(&pair, Utf8Rules::Loose),
            b"\xed\xa0\xbd\xed\xb2\xa9"
        );
        assert_eq!(written(&pair, Utf8Rules::LoosePairs), "💩".as_bytes());
        assert_eq!(written(&[0xD800], Utf8Rules::LoosePairs), b" ");
        assert_eq!(written(&[0xDCA9, 0xD83D], Utf8Rules::LoosePairs), b"  ");
        assert_eq!(
            written(&[0xD800, 0xD800, 0xDC00], Utf8Rules::LoosePairs),
            b" \xf0\x90\x80\x80"
        );
        let mut out = Vec::new();
        assert_eq!(
            encode_units(&[0x61, 0xD800], Utf8Rules::Strict, &mut out),
            Err(1)
        );
        assert_eq!(
            encode_units(&[0x8000_0000], Utf8Rules::Loose, &mut out),
            Err(0)
        );
    }

    #[test]
    fn writer_inverts_reader_on_scalar_values() {
        for c in (0..0x11_0000u32).step_by(97).filter_map(char::from_u32) {
            let mut out = Vec::new();
            encode_units(&[c as u32], Utf8Rules::Loose, &mut out).unwrap();
            assert_eq!(out, c.to_string().as_bytes());
        }
    }
}
