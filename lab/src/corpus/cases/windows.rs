//! Strings read through the decoder's look-ahead window: a string field with at least 28 bytes
//! of input from its length field is judged plain or not on the window's bytes at once (the
//! codec's shortcut for short ASCII strings), so the corpus needs strings there whose bytes at
//! the window's edges are not plain.

use gdmarshal::types::VariantType;

use super::{Ctx, le};

/// Strings of 15 to 24 bytes, each with a byte at the edge of what the window judges (the last
/// of 15 or 16, the 17th to 23rd, the first and the 17th together) that is NUL, not ASCII or not
/// UTF-8, inside an Array and followed by three ints, so that the window is read, and those of 17
/// or more bytes again as an Array's last value followed by letters outside it; then the same as
/// StringNames where the profile has them, and plain ones as a control.
pub(super) fn string_windows(ctx: &mut Ctx) {
    let letters = |n: usize| -> Vec<u8> { (b'a'..=b'z').cycle().take(n).collect() };
    let with = |n: usize, at: usize, bytes: &[u8]| -> Vec<u8> {
        let mut s = letters(n);
        s[at..at + bytes.len()].copy_from_slice(bytes);
        s
    };
    let strings: Vec<(&str, Vec<u8>)> = vec![
        ("len15_nul_last", with(15, 14, b"\0")),
        ("len16_nul_last", with(16, 15, b"\0")),
        ("len15_ff_last", with(15, 14, b"\xff")),
        ("len16_latin1_last", with(16, 15, b"\xe9")),
        ("len16_two_byte_last", with(16, 14, "é".as_bytes())),
        ("len17_nul_at_16", with(17, 16, b"\0")),
        ("len20_ff_at_18", with(20, 18, b"\xff")),
        ("len23_surrogate_at_16", with(23, 16, b"\xed\xa0\x80")),
        ("len23_nul_last", with(23, 22, b"\0")),
        ("len17_ff_first_and_at_16", {
            let mut s = with(17, 16, b"\xff");
            s[0] = 0xFF;
            s
        }),
        ("len23_ascii", letters(23)),
        ("len24_ascii", letters(24)),
    ];
    let (array, int) = (ctx.id(VariantType::Array), ctx.id(VariantType::Int));
    let kinds = [VariantType::String, VariantType::StringName];
    for ty in kinds {
        let Some(id) = ctx.profile.id_of(ty) else {
            continue;
        };
        for (k, raw) in &strings {
            let mut b = le(&[array, 4, id, raw.len() as u32]);
            b.extend_from_slice(raw);
            b.resize(b.len().next_multiple_of(4), 0);
            b.extend(le(&[int, 1, int, 2, int, 3]));
            ctx.add(format!("string_windows/{}/{k}", ty.name()), b);
        }
        // The last value, with letters after it that are not part of it: the window's bytes past
        // a string of 17 or more are then plain, where a value's header would have zero bytes.
        for (k, raw) in strings
            .iter()
            .filter(|(_, raw)| (17..24).contains(&raw.len()))
        {
            let mut b = le(&[array, 1, id, raw.len() as u32]);
            b.extend_from_slice(raw);
            b.resize(b.len().next_multiple_of(4), 0);
            b.extend_from_slice(b"zzzzzzzz");
            ctx.add(
                format!("string_windows/{}/{k}/before_letters", ty.name()),
                b,
            );
        }
    }
}
