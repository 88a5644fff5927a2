//! `String::to_float()` as Godot 4.6 reads a number (`built_in_strtod`, `core/string/ustring.cpp`):
//! what a typed packed float array makes of a String element.
//!
//! It is not a correctly rounded parser. At most 18 significant digits are kept (leading zeros
//! count), as two 9-digit integers joined in a double, which is then scaled once by a product of
//! powers of ten (10, 100, 1e4 … 1e256) picked by the exponent's bits. Results agree with a
//! correctly rounded parse only for up to 15 digits and decimal exponents within ±22; elsewhere
//! they are often a unit or two off in the last place, an exponent at or below -309 gives zero,
//! and `0e400` is 0 × inf, the default NaN. Only spaces, tabs and newlines are skipped first;
//! there is no `inf`, `nan` or hex form; reading stops without error at the first character that
//! does not fit. Checked against Godot 4.6.3 on 200,000 random texts (bit for bit) and the edge
//! texts the corpus holds (`decode/typed_conversions/*_from_Array_float_texts`).

/// Powers of ten by exponent bit.
const POWERS: [f64; 9] = [10.0, 100.0, 1e4, 1e8, 1e16, 1e32, 1e64, 1e128, 1e256];

/// The most digits read; any after them only move the decimal point.
const MAX_DIGITS: i32 = 18;

/// The exponent is clamped here (the table's bits reach 511).
const MAX_EXPONENT: i32 = 511;

/// The x86 default NaN (sign set), what `0 * inf` gives on the engines' builds.
const DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

/// `String::to_float()` of `text`.
pub(crate) fn string_to_float(text: &str) -> f64 {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut p = 0;
    while matches!(at(p), ' ' | '\t' | '\n') {
        p += 1;
    }
    let negative = at(p) == '-';
    if matches!(at(p), '-' | '+') {
        p += 1;
    }
    // The mantissa: digits with at most one point.
    let start = p;
    let mut point: Option<i32> = None;
    let mut size: i32 = 0;
    loop {
        let c = at(p);
        if !c.is_ascii_digit() {
            if c != '.' || point.is_some() {
                break;
            }
            point = Some(size);
        }
        p += 1;
        size += 1;
    }
    let exponent_at = p;
    let point = match point {
        Some(point) => {
            size -= 1;
            point
        }
        None => size,
    };
    let (used, fraction_exponent) = if size > MAX_DIGITS {
        (MAX_DIGITS, point - MAX_DIGITS)
    } else {
        (size, point - size)
    };
    let fraction = if used == 0 {
        0.0
    } else {
        let digits = chars[start..exponent_at]
            .iter()
            .filter(|c| c.is_ascii_digit())
            .map(|c| *c as i32 - '0' as i32)
            .take(used as usize);
        let (mut high, mut low, mut n) = (0i32, 0i32, used);
        for d in digits {
            if n > 9 {
                high = 10 * high + d;
            } else {
                low = 10 * low + d;
            }
            n -= 1;
        }
        let fraction = 1e9 * f64::from(high) + f64::from(low);
        scale(fraction, fraction_exponent, &chars[exponent_at..])
    };
    if negative { -fraction } else { fraction }
}

/// `fraction` scaled by ten to the written exponent (if `rest` starts with one) plus
/// `fraction_exponent`. An `e` without digits leaves the digits unscaled (`1.5e` reads 15).
fn scale(fraction: f64, fraction_exponent: i32, rest: &[char]) -> f64 {
    let at = |i: usize| rest.get(i).copied().unwrap_or('\0');
    let mut written: i32 = 0;
    let mut negative = false;
    if matches!(at(0), 'e' | 'E') {
        let mut p = 1;
        negative = at(p) == '-';
        if matches!(at(p), '-' | '+') {
            p += 1;
        }
        if !at(p).is_ascii_digit() {
            return fraction;
        }
        // An `int` that wraps, as the engine's does.
        while at(p).is_ascii_digit() {
            written = written
                .wrapping_mul(10)
                .wrapping_add(at(p) as i32 - '0' as i32);
            p += 1;
        }
    }
    let exponent = if negative {
        fraction_exponent.wrapping_sub(written)
    } else {
        fraction_exponent.wrapping_add(written)
    };
    let divide = exponent < 0;
    // `-INT_MIN` stays INT_MIN in the engine's build, which then divides by infinity.
    let factor = match exponent.checked_abs() {
        None => f64::INFINITY,
        Some(e) => {
            let e = e.min(MAX_EXPONENT) as u32;
            POWERS
                .iter()
                .enumerate()
                .filter(|(bit, _)| e >> bit & 1 == 1)
                .fold(1.0, |acc, (_, p)| acc * p)
        }
    };
    let scaled = if divide {
        fraction / factor
    } else {
        fraction * factor
    };
    // 0 × inf: the default NaN of the engines' x86 builds, whatever the host makes of it.
    if scaled.is_nan() {
        f64::from_bits(DEFAULT_NAN)
    } else {
        scaled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Godot 4.6.3's answers, as the bits of the double it read.
    #[test]
    fn texts_read_as_godot_4_6_reads_them() {
        for (text, bits) in [
            ("1.5", 0x3ff8_0000_0000_0000u64),
            ("0.1", 0x3fb9_9999_9999_999a),
            ("  3", 0x4008_0000_0000_0000),
            ("+2", 0x4000_0000_0000_0000),
            ("-0", 0x8000_0000_0000_0000),
            ("1e5", 0x40f8_6a00_0000_0000),
            (".5", 0x3fe0_0000_0000_0000),
            ("5.", 0x4014_0000_0000_0000),
            ("inf", 0),
            ("nan", 0),
            ("0x10", 0),
            ("1,5", 0x3ff0_0000_0000_0000),
            ("", 0),
            ("1.5e", 0x402e_0000_0000_0000),
            ("-", 0x8000_0000_0000_0000),
            ("1e400", 0x7ff0_0000_0000_0000),
            ("1e-400", 0),
            ("0e400", DEFAULT_NAN),
            ("4.9e-324", 0),
            // Not correctly rounded: one unit above, and zero for a normal number.
            ("1e-307", 0x0031_fa18_2c40_c60e),
            ("2.5e-308", 0),
            ("0.000000000000000000001", 0),
            // The exponent wraps as an `int`.
            ("1e2147483648", 0),
            ("1e4294967297", 0x4024_0000_0000_0000),
            // Digits past the 18th only move the point.
            ("9999999999999999999", 0x43e1_58e4_6091_3d00),
            ("123456789012345678901234567890", 0x45f8_ee90_ff6c_373e),
            (" \t\n7", 0x401c_0000_0000_0000),
            ("\r5", 0),
            ("1e2.5", 0x4059_0000_0000_0000),
            ("-inf", 0x8000_0000_0000_0000),
        ] {
            assert_eq!(string_to_float(text).to_bits(), bits, "{text:?}");
        }
    }
}
