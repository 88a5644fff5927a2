//! UTF-8 text as UTF-16 units, the form JavaScript engines make strings from fastest.
//!
//! The text is already valid UTF-8 (the codec checked it), so nothing here validates. With
//! WebAssembly SIMD the bulk goes 16 bytes at a time ([`blocks`]); the rest one scalar value at a
//! time. No crate does this for wasm32: `encoding_rs`'s stable path measured slower here than the
//! scalar loop below, and simdutf is C++.

/// Appends `s` as UTF-16 units to `out` and returns how many.
pub fn utf16_into(s: &str, out: &mut Vec<u16>) -> usize {
    let bytes = s.as_bytes();
    let start = out.len();
    // A string has no more units than bytes; the blocks write up to 16 units past their last.
    // The room is written, not filled first: filling it cost as much as the transcoding.
    out.reserve(bytes.len() + SLACK);
    let room = &mut out.spare_capacity_mut()[..bytes.len() + SLACK];
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let (mut i, mut n) = blocks(bytes, room);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        let (units, len) = scalar_at(bytes, i);
        room[n].write(units[0]);
        if units[1] != 0 {
            room[n + 1].write(units[1]);
            n += 1;
        }
        n += 1;
        i += len;
    }
    // SAFETY: the blocks and the loop above wrote units `0..n` of the room, in order.
    unsafe { out.set_len(start + n) };
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

/// Transcodes the 16-byte blocks of `bytes` while 17 bytes are left (each block looks at the byte
/// after it) into `room`; returns the bytes whose values are all written and the units written.
/// Every byte's unit is computed as if a value ended there, from the byte and the two before it
/// (of this block or the one before), and the lanes where one does end are packed together: a
/// value that spans two blocks is written by the second. A four-byte value is two units, the high
/// surrogate in the lane of its third byte and the low one in the lane of its fourth. The blocks
/// are a fixed 16 bytes apart, so that one block's work does not wait for the last one's.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn blocks(bytes: &[u8], room: &mut [std::mem::MaybeUninit<u16>]) -> (usize, usize) {
    use core::arch::wasm32::*;
    let zero = u8x16_splat(0);
    // Of the block before: its payloads, its `prev1`, and where its four-byte values start.
    let (mut last_payload, mut last_prev1, mut last_lead4) = (zero, zero, zero);
    // The bytes before `done` are written; `dangling`: the last block wrote a value's high
    // surrogate whose low one is in the next block.
    let (mut i, mut n, mut done, mut dangling) = (0, 0, 0, false);
    // `n <= i`, so room holds 16 more units than there are bytes before `i + 17`.
    while i + 17 <= bytes.len() {
        // SAFETY: `i + 17 <= bytes.len()`, so both 16-byte loads are inside `bytes`.
        let (v, next) = unsafe {
            let p = bytes.as_ptr().add(i);
            (v128_load(p.cast()), v128_load(p.add(1).cast()))
        };
        if !v128_any_true(v128_and(v, u8x16_splat(0x80))) {
            // ASCII (so no value of the block before continues here): each byte is a unit.
            // SAFETY: `n + 16 <= room.len()` (above).
            unsafe {
                let out = room.as_mut_ptr().add(n);
                v128_store(out.cast(), u16x8_extend_low_u8x16(v));
                v128_store(out.add(8).cast(), u16x8_extend_high_u8x16(v));
            }
            (last_payload, last_prev1, last_lead4) = (v, zero, zero);
            i += 16;
            n += 16;
            done = i;
            dangling = false;
            continue;
        }
        // The byte before each lane's, the first from the block before.
        let before = |x: v128, last: v128| {
            i8x16_shuffle::<15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30>(last, x)
        };
        // Continuation bytes are 0x80..=0xbf: below 0xc0 as signed bytes.
        let cont_bits = |x: v128| i8x16_lt(x, i8x16_splat(0xc0u8 as i8));
        let cont = cont_bits(v);
        // A value ends at each byte not followed by a continuation byte.
        let value_ends = !(i8x16_bitmask(cont_bits(next)) as u32) & 0xffff;
        // Each byte's payload bits, by its high nibble: 7 of ASCII, 6 of a continuation, 5, 4
        // or 3 of a leading byte.
        let payload = v128_and(v, i8x16_swizzle(PAYLOAD_BITS, u8x16_shr(v, 4)));
        // The payload of the byte before a continuation, and of the one before that where
        // both are continuations: a value's bits 6-11 and 12-15 at the byte where it ends.
        let prev1 = v128_and(before(payload, last_payload), cont);
        let prev2 = v128_and(before(prev1, last_prev1), cont);
        // Each unit's low byte and high byte, then the two interleaved.
        let mut low_bytes = v128_or(payload, v128_and(i16x8_shl(prev1, 6), u8x16_splat(0xc0)));
        let mut high_bytes = v128_or(
            v128_and(u16x8_shr(prev1, 2), u8x16_splat(0x3f)),
            v128_and(i16x8_shl(prev2, 4), u8x16_splat(0xf0)),
        );
        let lead4 = u8x16_ge(v, u8x16_splat(0xf0));
        let mut ends = value_ends;
        let mut third_last = false;
        if v128_any_true(v128_or(lead4, last_lead4)) {
            // The lanes two and three bytes after a four-byte value's leading byte.
            let third =
                i8x16_shuffle::<14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29>(
                    last_lead4, lead4,
                );
            let fourth =
                i8x16_shuffle::<13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28>(
                    last_lead4, lead4,
                );
            let third_bits = i8x16_bitmask(third) as u32;
            ends |= third_bits;
            third_last = third_bits & 0x8000 != 0;
            // At the third byte: prev2 holds the leading byte's 3 bits, prev1 the second byte's
            // 6, payload the third's. The high surrogate is 0xd800 | (plane - 1) << 6 | the
            // second byte's low 4 bits << 2 | the third's top 2, where plane (1 to 16) is the
            // leading byte's bits and the second byte's top 2.
            let plane = v128_or(
                v128_and(i16x8_shl(prev2, 2), u8x16_splat(0x1c)),
                v128_and(u16x8_shr(prev1, 4), u8x16_splat(0x03)),
            );
            let plane = i8x16_sub(plane, u8x16_splat(1));
            let high_low = v128_or(
                v128_or(
                    v128_and(i16x8_shl(plane, 6), u8x16_splat(0xc0)),
                    i16x8_shl(v128_and(prev1, u8x16_splat(0x0f)), 2),
                ),
                v128_and(u16x8_shr(payload, 4), u8x16_splat(0x03)),
            );
            let high_high = v128_or(
                u8x16_splat(0xd8),
                v128_and(u16x8_shr(plane, 2), u8x16_splat(0x03)),
            );
            // At the fourth byte the low byte is as computed above; the high one is 0xdc | the
            // third byte's bits 2 and 3.
            let low_high = v128_or(
                u8x16_splat(0xdc),
                v128_and(u16x8_shr(prev1, 2), u8x16_splat(0x03)),
            );
            low_bytes = v128_bitselect(high_low, low_bytes, third);
            high_bytes = v128_bitselect(
                high_high,
                v128_bitselect(low_high, high_bytes, fourth),
                third,
            );
        }
        let low = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(
            low_bytes, high_bytes,
        );
        let high = i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
            low_bytes, high_bytes,
        );
        let (low_ends, high_ends) = ((ends & 0xff) as usize, (ends >> 8) as usize);
        // SAFETY: `n + 16 <= room.len()` (above): each store writes 8 units, at most 8 apart.
        unsafe {
            let out = room.as_mut_ptr().add(n);
            let pack = |x: v128, m: usize| i8x16_swizzle(x, v128_load(COMPRESS[m].as_ptr().cast()));
            v128_store(out.cast(), pack(low, low_ends));
            let k = low_ends.count_ones() as usize;
            v128_store(out.add(k).cast(), pack(high, high_ends));
        }
        (last_payload, last_prev1, last_lead4) = (payload, prev1, lead4);
        n += ends.count_ones() as usize;
        // A block of 16 bytes holds the end of at least one value.
        done = i + 32 - value_ends.leading_zeros() as usize;
        dangling = third_last;
        i += 16;
    }
    // A high surrogate written without its low one: the scalar loop writes the value again.
    (done, n - usize::from(dangling))
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
