//! Float tokens of the tagged JSON: exact text forms of f32 and f64 values.
//!
//! See docs/tagged-json.md. A token is a shortest round-trip decimal, `inf`, `-inf`, `nan` (the
//! canonical quiet NaN), or `0x` followed by the exact bits in hex.

/// How floats are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FloatStyle {
    /// The shortest decimal that reads back to the same bits (the `0x` form for non-canonical NaNs).
    #[default]
    Shortest,
    /// Always the `0x` form with the exact bits.
    Bits,
}

/// A float of either width, for formatting and parsing in one place.
pub trait Float: Copy + std::fmt::Display + std::fmt::LowerExp + std::str::FromStr {
    /// Hex digits of the `0x` form.
    const HEX_DIGITS: usize;
    /// The canonical quiet NaN's bits.
    const CANONICAL_NAN: u64;
    /// The bits, widened to u64.
    fn bits(self) -> u64;
    /// The value with these bits.
    fn from_bits64(bits: u64) -> Self;
    /// Whether the value is NaN.
    fn nan(self) -> bool;
    /// Whether the value is infinite.
    fn inf(self) -> bool;
    /// Whether the sign bit is set.
    fn negative(self) -> bool;
}

impl Float for f32 {
    const HEX_DIGITS: usize = 8;
    const CANONICAL_NAN: u64 = 0x7fc0_0000;
    fn bits(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_bits64(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn inf(self) -> bool {
        self.is_infinite()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}

impl Float for f64 {
    const HEX_DIGITS: usize = 16;
    const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn from_bits64(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn inf(self) -> bool {
        self.is_infinite()
    }
    fn negative(self) -> bool {
        self.is_sign_negative()
    }
}

/// Writes a float token.
pub fn format<F: Float>(v: F, style: FloatStyle) -> String {
    if style == FloatStyle::Bits || (v.nan() && v.bits() != F::CANONICAL_NAN) {
        return format!("0x{:0width$x}", v.bits(), width = F::HEX_DIGITS);
    }
    if v.nan() {
        return "nan".into();
    }
    if v.inf() {
        return if v.negative() {
            "-inf".into()
        } else {
            "inf".into()
        };
    }
    // Display is the shortest round-trip form but never uses an exponent; past a few digits the
    // exponent form is shorter and just as exact.
    let plain = v.to_string();
    if plain.len() <= 21 {
        plain
    } else {
        format!("{v:e}")
    }
}

/// Why a float token does not read as a float of its width.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FloatTokenError {
    /// `0x` bits with another number of digits than the width has.
    #[error("{token:?} needs exactly {digits} hex digits for this {}-bit float", digits * 4)]
    HexDigits {
        /// The token.
        token: String,
        /// The digits the width takes: 8 for f32, 16 for f64.
        digits: usize,
    },
    /// `0x` and then something that is not hex.
    #[error("{} is not hex", crate::excerpt::Quoted(token))]
    NotHex {
        /// The token.
        token: String,
    },
    /// Neither a plain decimal nor `inf`, `-inf`, `nan` or `0x` bits.
    #[error("{token:?} is not a float token (a decimal, inf, -inf, nan or 0x bits)")]
    NotToken {
        /// The token.
        token: String,
    },
}

/// Reads a float token of width `F`.
pub fn parse<F: Float>(s: &str) -> Result<F, FloatTokenError> {
    match s {
        "nan" => return Ok(F::from_bits64(F::CANONICAL_NAN)),
        "inf" | "+inf" => return Ok(F::from_bits64(F::CANONICAL_NAN).inf_signed(false)),
        "-inf" => return Ok(F::from_bits64(F::CANONICAL_NAN).inf_signed(true)),
        _ => {}
    }
    if let Some(hex) = s.strip_prefix("0x") {
        if hex.len() != F::HEX_DIGITS {
            return Err(FloatTokenError::HexDigits {
                token: s.to_string(),
                digits: F::HEX_DIGITS,
            });
        }
        return u64::from_str_radix(hex, 16)
            .map(F::from_bits64)
            .map_err(|_| FloatTokenError::NotHex {
                token: s.to_string(),
            });
    }
    // Only plain decimals: Rust's parser also takes words like "infinity" that the schema does not.
    let decimal = s
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    match s.parse::<F>() {
        Ok(v) if decimal && !s.is_empty() => Ok(v),
        _ => Err(FloatTokenError::NotToken {
            token: s.to_string(),
        }),
    }
}

trait Infinity {
    fn inf_signed(self, negative: bool) -> Self;
}

impl<F: Float> Infinity for F {
    fn inf_signed(self, negative: bool) -> F {
        // An infinity is the canonical NaN's exponent with a zero mantissa.
        let exp_bits = if F::HEX_DIGITS == 8 {
            0x7f80_0000u64
        } else {
            0x7ff0_0000_0000_0000
        };
        let sign = if negative {
            1u64 << (F::HEX_DIGITS * 4 - 1)
        } else {
            0
        };
        F::from_bits64(exp_bits | sign)
    }
}

/// An f32 as an f64 with the same value, NaNs included: a NaN keeps its sign and its payload in
/// the top bits of the f64's mantissa, quiet bit as it was. (A hardware conversion sets the quiet
/// bit, so a signalling NaN such as `0x7f800001`, which engines write, would not come back.) For
/// languages whose numbers are f64 (Python's float, JavaScript's number); [`narrow`] undoes it.
pub fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let bits = x.to_bits();
        let sign = u64::from(bits >> 31) << 63;
        let payload = u64::from(bits & 0x007f_ffff) << 29;
        f64::from_bits(sign | 0x7ff0_0000_0000_0000 | payload)
    } else {
        f64::from(x)
    }
}

/// An f64 as the nearest f32 (round to nearest, ties to even), and a NaN as the f32 NaN whose
/// payload is the top 23 bits of the f64's mantissa: the inverse of [`widen`]. A NaN whose
/// payload lies only in the lower bits, which no f32 holds, becomes a quiet NaN of its sign.
pub fn narrow(x: f64) -> f32 {
    if x.is_nan() {
        let bits = x.to_bits();
        let sign = ((bits >> 63) as u32) << 31;
        let mut payload = ((bits >> 29) & 0x007f_ffff) as u32;
        if payload == 0 {
            payload = 0x0040_0000;
        }
        f32::from_bits(sign | 0x7f80_0000 | payload)
    } else {
        x as f32
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn widen_then_narrow_keeps_every_nan_payload_and_value() {
        for bits in [
            0x7f80_0001u32, // signalling, as engines write it
            0xff80_0001,
            0x7fc0_0000,
            0xffc0_1234,
            0x7fbf_ffff,
            0x0000_0001,
            0x8000_0000,
            0x3f80_0000,
            0x7f80_0000,
        ] {
            let x = f32::from_bits(bits);
            let wide = super::widen(x);
            assert_eq!(wide.is_nan(), x.is_nan(), "{bits:#x}");
            if !x.is_nan() {
                assert_eq!(wide, f64::from(x), "{bits:#x}");
            }
            assert_eq!(super::narrow(wide).to_bits(), bits, "{bits:#x}");
        }
        assert_eq!(
            super::widen(f32::from_bits(0x7f80_0001)).to_bits(),
            0x7ff0_0000_2000_0000
        );
    }

    #[test]
    fn narrow_rounds_to_nearest_and_keeps_a_nan_a_nan() {
        assert_eq!(super::narrow(0.1), 0.1f32);
        assert_eq!(super::narrow(1e300), f32::INFINITY);
        // Payload only in the low 29 bits: still a NaN (quiet), never an infinity.
        assert_eq!(
            super::narrow(f64::from_bits(0x7ff0_0000_0000_0001)).to_bits(),
            0x7fc0_0000
        );
        assert_eq!(
            super::narrow(f64::from_bits(0xfff0_0000_0000_0001)).to_bits(),
            0xffc0_0000
        );
    }

    use super::*;

    #[test]
    fn tokens_round_trip_bits() {
        let f64s = [
            0.0,
            -0.0,
            0.1,
            1e-300,
            5e-324,
            f64::MAX,
            f64::INFINITY,
            -f64::INFINITY,
            f64::NAN,
        ];
        for v in f64s {
            for style in [FloatStyle::Shortest, FloatStyle::Bits] {
                let back: f64 = parse(&format(v, style)).unwrap();
                assert_eq!(
                    back.to_bits(),
                    v.to_bits(),
                    "{v:?} via {}",
                    format(v, style)
                );
            }
        }
        let payload = f32::from_bits(0xffc0_0001);
        assert_eq!(format(payload, FloatStyle::Shortest), "0xffc00001");
        let back: f32 = parse("0xffc00001").unwrap();
        assert_eq!(back.to_bits(), 0xffc0_0001);
        assert_eq!(format(-0.0f32, FloatStyle::Shortest), "-0");
        assert_eq!(format(1.0f32, FloatStyle::Bits), "0x3f800000");
    }

    #[test]
    fn decimals_round_to_the_token_width() {
        let v: f32 = parse("0.1").unwrap();
        assert_eq!(v.to_bits(), 0.1f32.to_bits());
        let inf: f32 = parse("-inf").unwrap();
        assert_eq!(inf, f32::NEG_INFINITY);
    }

    #[test]
    fn rejects_other_words() {
        for bad in [
            "",
            "NaN",
            "infinity",
            "0x3f80",
            "1,5",
            "0x3ff00000000000000",
        ] {
            assert!(parse::<f64>(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
