//! UTF-8 text as UTF-16 units, the form JavaScript engines make strings from fastest.
//!
//! The text is already valid UTF-8 (the codec checked it), so nothing here validates. With
//! WebAssembly SIMD the bulk goes 16 bytes at a time ([`blocks`]); the rest, and every block that
//! holds a four-byte sequence, one scalar value at a time. No crate does this for wasm32:
//! `encoding_rs`'s stable path measured slower here than the scalar loop below, and simdutf is C++.

/// Appends `s` as UTF-16 units to `out` and returns how many.
pub fn utf16_into(s: &str, out: &mut Vec<u16>) -> usize {
    let bytes = s.as_bytes();
    let start = out.len();
    // A string has no more units than bytes; the blocks write up to 8 units past their last.
    out.resize(start + bytes.len() + SLACK, 0);
    let room = &mut out[start..];
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let (mut i, mut n) = blocks(bytes, room);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        let (units, len) = scalar_at(bytes, i);
        room[n] = units[0];
        if units[1] != 0 {
            room[n + 1] = units[1];
            n += 1;
        }
        n += 1;
        i += len;
    }
    out.truncate(start + n);
    n
}

/// Units the block path may write past the last one it counts.
const SLACK: usize = 16;

/// The scalar value whose UTF-8 starts at `bytes[i]`: its one or two units (the second 0 for
/// one) and its length in bytes.
#[inline]
fn scalar_at(bytes: &[u8], i: usize) -> ([u16; 2], usize) {
    // Valid UTF-8: each leading byte has its continuation bytes after it.
    let cont = |k: usize| u32::from(bytes[k] & 0x3f);
    let b = u32::from(bytes[i]);
    let (c, len) = match b {
        0..0x80 => (b, 1),
        0xc0..0xe0 => ((b & 0x1f) << 6 | cont(i + 1), 2),
        0xe0..0xf0 => ((b & 0x0f) << 12 | cont(i + 1) << 6 | cont(i + 2), 3),
        _ => (
            (b & 0x07) << 18 | cont(i + 1) << 12 | cont(i + 2) << 6 | cont(i + 3),
            4,
        ),
    };
    if c < 0x1_0000 {
        ([c as u16, 0], len)
    } else {
        let c = c - 0x1_0000;
        (
            [0xd800 | (c >> 10) as u16, 0xdc00 | (c & 0x3ff) as u16],
            len,
        )
    }
}

/// A byte's payload bits by its high nibble: ASCII, continuation, then leading bytes of two,
/// three and four bytes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const PAYLOAD_BITS: core::arch::wasm32::v128 = core::arch::wasm32::u8x16(
    0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x3f, 0x3f, 0x3f, 0x3f, 0x1f, 0x1f, 0x0f, 0x07,
);

/// For each set of UTF-16 lanes (a bit per lane of eight), the byte shuffle that moves those
/// lanes to the front in order (the other output lanes are zeros).
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
const COMPRESS: [[u8; 16]; 256] = {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut out) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][2 * out] = 2 * lane as u8;
                table[mask][2 * out + 1] = 2 * lane as u8 + 1;
                out += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// Transcodes whole 16-byte blocks from the start of `bytes` into `room` while 17 bytes are left
/// (each block looks at the byte after it); returns the bytes read and the units written. Each
/// block starts at a scalar value and takes the values that end inside it: every byte's value
/// is computed as if the value ended there, from the byte and the two before it, and the lanes
/// where one does end are packed together.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn blocks(bytes: &[u8], room: &mut [u16]) -> (usize, usize) {
    use core::arch::wasm32::*;
    let (mut i, mut n) = (0, 0);
    while i + 17 <= bytes.len() && n + SLACK <= room.len() {
        // SAFETY: `i + 17 <= bytes.len()`, so both 16-byte loads are inside `bytes`.
        let (v, next) = unsafe {
            let p = bytes.as_ptr().add(i);
            (v128_load(p.cast()), v128_load(p.add(1).cast()))
        };
        let high = i8x16_bitmask(v) as u32;
        if high == 0 {
            // ASCII: each byte is a unit.
            // SAFETY: `n + SLACK <= room.len()`: 16 units fit.
            unsafe {
                let out = room.as_mut_ptr().add(n);
                v128_store(out.cast(), u16x8_extend_low_u8x16(v));
                v128_store(out.add(8).cast(), u16x8_extend_high_u8x16(v));
            }
            i += 16;
            n += 16;
            continue;
        }
        let four = i8x16_bitmask(u8x16_ge(v, u8x16_splat(0xf0))) as u32;
        // Continuation bytes are 0x80..=0xbf: below 0xc0 as signed bytes.
        let cont_bits = |x: v128| i8x16_lt(x, i8x16_splat(0xc0u8 as i8));
        let cont = cont_bits(v);
        // A value ends at each byte not followed by a continuation byte; a block with a four-byte
        // sequence keeps only what ends before it.
        let mut ends = !(i8x16_bitmask(cont_bits(next)) as u32) & 0xffff;
        if four != 0 {
            ends &= (1 << four.trailing_zeros()) - 1;
            if ends == 0 {
                let (units, len) = scalar_at(bytes, i);
                room[n] = units[0];
                room[n + 1] = units[1];
                n += 1 + usize::from(units[1] != 0);
                i += len;
                continue;
            }
        }
        // Each byte's payload bits, by its high nibble: 7 of ASCII, 6 of a continuation, 5, 4
        // or 3 of a leading byte.
        let bits = i8x16_swizzle(PAYLOAD_BITS, u8x16_shr(v, 4));
        let payload = v128_and(v, bits);
        // The byte before each (zero before the first: a block starts at a leading byte).
        let before = |x: v128| {
            i8x16_shuffle::<16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14>(x, u8x16_splat(0))
        };
        // The payload of the byte before a continuation, and of the one before that where
        // both are continuations: a value's bits 6-11 and 12-15 at the byte where it ends.
        let prev1 = v128_and(before(payload), cont);
        let prev2 = v128_and(before(prev1), cont);
        // Each unit's low byte and high byte, then the two interleaved.
        let low_bytes = v128_or(payload, v128_and(i16x8_shl(prev1, 6), u8x16_splat(0xc0)));
        let high_bytes = v128_or(
            v128_and(u16x8_shr(prev1, 2), u8x16_splat(0x3f)),
            v128_and(i16x8_shl(prev2, 4), u8x16_splat(0xf0)),
        );
        let low = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(
            low_bytes, high_bytes,
        );
        let high = i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
            low_bytes, high_bytes,
        );
        let (low_ends, high_ends) = ((ends & 0xff) as usize, (ends >> 8) as usize);
        // SAFETY: `n + SLACK <= room.len()`: each store writes 8 units, at most 8 apart.
        unsafe {
            let out = room.as_mut_ptr().add(n);
            let pack = |x: v128, m: usize| i8x16_swizzle(x, v128_load(COMPRESS[m].as_ptr().cast()));
            v128_store(out.cast(), pack(low, low_ends));
            let k = low_ends.count_ones() as usize;
            v128_store(out.add(k).cast(), pack(high, high_ends));
        }
        n += ends.count_ones() as usize;
        i += 32 - ends.leading_zeros() as usize;
    }
    (i, n)
}

#[cfg(test)]
mod tests {
    use super::{COMPRESS, utf16_into};

    #[test]
    fn utf16_units_are_those_of_encode_utf16() {
        // Every scalar value (so every UTF-8 length and both surrogate halves of each plane),
        // after units already on the tape. The block path runs in the package's own tests
        // (bindings/npm/tests), where the module is built with SIMD.
        let all: String = (0..=0x10_ffff).filter_map(char::from_u32).collect();
        for s in [all.as_str(), "é", "a✓😀b", ""] {
            let mut out = vec![7u16, 8];
            let n = utf16_into(s, &mut out);
            let want: Vec<u16> = [7, 8].into_iter().chain(s.encode_utf16()).collect();
            assert_eq!(n, want.len() - 2);
            assert!(out == want, "{}", s.chars().take(8).collect::<String>());
        }
    }

    #[test]
    fn compress_moves_the_chosen_lanes_to_the_front() {
        let lanes: Vec<u16> = (0..8).map(|l| 0x100 * l + 1).collect();
        for (mask, shuffle) in COMPRESS.iter().enumerate() {
            let bytes: Vec<u8> = lanes.iter().flat_map(|l| l.to_le_bytes()).collect();
            let out: Vec<u8> = shuffle
                .iter()
                .map(|&k| bytes.get(usize::from(k)).copied().unwrap_or(0))
                .collect();
            let chosen: Vec<u16> = (0..8)
                .filter(|l| mask & (1 << l) != 0)
                .map(|l| lanes[l])
                .collect();
            let got: Vec<u16> = out
                .chunks(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            assert_eq!(&got[..chosen.len()], &chosen[..], "mask {mask:08b}");
            assert!(
                got[chosen.len()..].iter().all(|&u| u == 0),
                "mask {mask:08b}"
            );
        }
    }
}
