//! The engine's own conversions between values, as Godot 4.6 makes them when a typed container
//! converts an element (`typed`): `NodePath` from and to `String`, `String::to_int`, `Color` from a
//! string or an int, C++ float-to-int casts and `Basis(Quaternion)`. Each was checked against
//! Godot 4.6.3 (the inputs are corpus cases, `decode/rules/*`; `tests/engine_rules.rs` holds the
//! codec to the engines' records of them).

use std::ops::{Add, Div, Mul, Sub};

use crate::value::{NodePath, Text};

/// `(int32_t)x` as the engines' x86-64 builds compile it (`cvttss2si` / `cvttsd2si`): toward zero,
/// and `INT32_MIN` for NaN and anything out of range. An f32 widens to f64 exactly, so one
/// function serves both widths.
pub(crate) fn cast_i32(x: f64) -> i32 {
    if x.is_nan() || x >= 2_147_483_648.0 || x <= -2_147_483_649.0 {
        i32::MIN
    } else {
        x as i32
    }
}

/// `(int64_t)x` as `cvttsd2si` computes it: toward zero, `INT64_MIN` for NaN and out of range.
pub(crate) fn cast_i64(x: f64) -> i64 {
    if x.is_finite() && x > -9_223_372_036_854_775_809.0 && x < 9_223_372_036_854_775_808.0 {
        x as i64
    } else {
        i64::MIN
    }
}

/// `NodePath(String)` (`core/string/node_path.cpp`): an optional leading `/` makes it absolute,
/// the part before the first `:` splits on `/` into names (empty ones skipped), the rest splits on
/// `:` into subnames. An empty subname anywhere but at the end is an error, after which the engine
/// leaves the path empty (`a::b` is the empty path), as it does for a path with nothing in it.
pub(crate) fn parse_node_path(text: &str) -> NodePath {
    let absolute = text.starts_with('/');
    let (path, subpath) = match text.find(':') {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let mut subnames = Vec::new();
    if let Some(subpath) = subpath {
        let parts: Vec<&str> = subpath.split(':').collect();
        for (i, part) in parts.iter().enumerate() {
            if part.is_empty() {
                if i + 1 == parts.len() {
                    continue; // "a:" ends in an allowed empty subname
                }
                return NodePath::default(); // "Invalid NodePath"
            }
            subnames.push(Text::from(*part));
        }
    }
    let from = usize::from(absolute && !path.is_empty());
    let names: Vec<Text> = path[from..]
        .split('/')
        .filter(|n| !n.is_empty())
        .map(Text::from)
        .collect();
    if names.is_empty() && subnames.is_empty() && !absolute {
        return NodePath::default();
    }
    NodePath {
        names,
        subnames,
        absolute,
    }
}

/// `String(NodePath)`: `/` when absolute, the names joined by `/`, then `:` and the subnames
/// joined by `:` unless that join is empty (so a lone empty subname vanishes).
pub(crate) fn node_path_text(np: &NodePath) -> String {
    let mut s = String::new();
    if np.absolute {
        s.push('/');
    }
    // Only 4.x converts paths to text, and its strings are Unicode.
    let join = |parts: &[Text], by: &str| {
        let parts: Vec<_> = parts.iter().map(Text::to_string_lossy).collect();
        parts.join(by)
    };
    s.push_str(&join(&np.names, "/"));
    let sub = join(&np.subnames, ":");
    if !sub.is_empty() {
        s.push(':');
        s.push_str(&sub);
    }
    s
}

/// `String::to_int()` (`core/string/ustring.cpp`, 4.6): the digits before the first `.` are read
/// and everything else skipped, a `-` seen while the value is still 0 flips the sign (`0-5` is -5,
/// `--5` is 5), and from the 20th digit on an overflow gives `INT64_MAX` / `INT64_MIN`. The count
/// of digits is a `uint8_t` that wraps, and the value is accumulated in a `uint64_t`; both are
/// kept, so that inputs with hundreds of leading zeros come out as the engine's do.
pub(crate) fn string_to_int(text: &str) -> i64 {
    let mut integer: u64 = 0;
    let mut digits: u8 = 0;
    let mut positive = true;
    for c in text.chars().take_while(|&c| c != '.') {
        if c.is_ascii_digit() {
            if digits > 18 {
                let overflow = integer > i64::MAX as u64 / 10
                    || (integer == i64::MAX as u64 / 10
                        && ((positive && c > '7') || (!positive && c > '8')));
                if overflow {
                    return if positive { i64::MAX } else { i64::MIN };
                }
            }
            integer = integer
                .wrapping_mul(10)
                .wrapping_add(u64::from(c as u8 - b'0'));
            digits = digits.wrapping_add(1);
        } else if integer == 0 && c == '-' {
            positive = !positive;
        }
    }
    if positive {
        integer as i64
    } else {
        integer.wrapping_neg() as i64
    }
}

/// `Color()`: opaque black.
pub(crate) const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// `Color::hex(rgba)`: each byte over 255.
pub(crate) fn color_hex(rgba: u32) -> [f32; 4] {
    let byte = |shift: u32| ((rgba >> shift) & 0xFF) as f32 / 255.0;
    [byte(24), byte(16), byte(8), byte(0)]
}

/// `Color(String)`: an HTML code when `Color::html_is_valid` says it is one (optional `#`, then 3,
/// 4, 6 or 8 ASCII hex digits: `rgb`, `rgba`, `rrggbb`, `rrggbbaa`), else a named color, else
/// (with an error print) `Color()`, opaque black: `""`, `"0"` and `"#12345"` all give black.
pub(crate) fn color_from_text(text: &str) -> [f32; 4] {
    let digits = text.strip_prefix('#').unwrap_or(text);
    let valid =
        matches!(digits.len(), 3 | 4 | 6 | 8) && digits.bytes().all(|b| b.is_ascii_hexdigit());
    if valid {
        let nibble =
            |i: usize| f32::from((digits.as_bytes()[i] as char).to_digit(16).unwrap_or(0) as u8);
        let byte = |i: usize| nibble(i) * 16.0 + nibble(i + 1);
        return match digits.len() {
            3 => [nibble(0) / 15.0, nibble(1) / 15.0, nibble(2) / 15.0, 1.0],
            4 => [
                nibble(0) / 15.0,
                nibble(1) / 15.0,
                nibble(2) / 15.0,
                nibble(3) / 15.0,
            ],
            6 => [byte(0) / 255.0, byte(2) / 255.0, byte(4) / 255.0, 1.0],
            _ => [
                byte(0) / 255.0,
                byte(2) / 255.0,
                byte(4) / 255.0,
                byte(6) / 255.0,
            ],
        };
    }
    named_color(text).map_or(BLACK, color_hex)
}

/// `Color::find_named_color`: the name without spaces, `-`, `_`, `'` and `.`, upper-cased
/// (`String::to_upper`, under which the only non-ASCII letters that become ASCII are `ı` and `ſ`),
/// against [`NAMED_COLORS`] without their underscores.
fn named_color(text: &str) -> Option<u32> {
    let key: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\'' | '.'))
        .map(|c| match c {
            'ı' => 'I',
            'ſ' => 'S',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    NAMED_COLORS
        .iter()
        .find(|(name, _)| name.bytes().filter(|&b| b != b'_').eq(key.bytes()))
        .map(|&(_, rgba)| rgba)
}

/// Godot 4.6's named colors (`core/math/color_names.inc`) as `Color::hex` codes; every name was
/// checked against the engine in six spellings (`DARK_GREEN`, `dark_green`, `Dark Green`,
/// `dark-green`, `darkgreen'.`, ` dark_green `).
pub(crate) const NAMED_COLORS: &[(&str, u32)] = &[
    ("ALICE_BLUE", 0xF0F8FFFF),
    ("ANTIQUE_WHITE", 0xFAEBD7FF),
    ("AQUA", 0x00FFFFFF),
    ("AQUAMARINE", 0x7FFFD4FF),
    ("AZURE", 0xF0FFFFFF),
    ("BEIGE", 0xF5F5DCFF),
    ("BISQUE", 0xFFE4C4FF),
    ("BLACK", 0x000000FF),
    ("BLANCHED_ALMOND", 0xFFEBCDFF),
    ("BLUE", 0x0000FFFF),
    ("BLUE_VIOLET", 0x8A2BE2FF),
    ("BROWN", 0xA52A2AFF),
    ("BURLYWOOD", 0xDEB887FF),
    ("CADET_BLUE", 0x5F9EA0FF),
    ("CHARTREUSE", 0x7FFF00FF),
    ("CHOCOLATE", 0xD2691EFF),
    ("CORAL", 0xFF7F50FF),
    ("CORNFLOWER_BLUE", 0x6495EDFF),
    ("CORNSILK", 0xFFF8DCFF),
    ("CRIMSON", 0xDC143CFF),
    ("CYAN", 0x00FFFFFF),
    ("DARK_BLUE", 0x00008BFF),
    ("DARK_CYAN", 0x008B8BFF),
    ("DARK_GOLDENROD", 0xB8860BFF),
    ("DARK_GRAY", 0xA9A9A9FF),
    ("DARK_GREEN", 0x006400FF),
    ("DARK_KHAKI", 0xBDB76BFF),
    ("DARK_MAGENTA", 0x8B008BFF),
    ("DARK_OLIVE_GREEN", 0x556B2FFF),
    ("DARK_ORANGE", 0xFF8C00FF),
    ("DARK_ORCHID", 0x9932CCFF),
    ("DARK_RED", 0x8B0000FF),
    ("DARK_SALMON", 0xE9967AFF),
    ("DARK_SEA_GREEN", 0x8FBC8FFF),
    ("DARK_SLATE_BLUE", 0x483D8BFF),
    ("DARK_SLATE_GRAY", 0x2F4F4FFF),
    ("DARK_TURQUOISE", 0x00CED1FF),
    ("DARK_VIOLET", 0x9400D3FF),
    ("DEEP_PINK", 0xFF1493FF),
    ("DEEP_SKY_BLUE", 0x00BFFFFF),
    ("DIM_GRAY", 0x696969FF),
    ("DODGER_BLUE", 0x1E90FFFF),
    ("FIREBRICK", 0xB22222FF),
    ("FLORAL_WHITE", 0xFFFAF0FF),
    ("FOREST_GREEN", 0x228B22FF),
    ("FUCHSIA", 0xFF00FFFF),
    ("GAINSBORO", 0xDCDCDCFF),
    ("GHOST_WHITE", 0xF8F8FFFF),
    ("GOLD", 0xFFD700FF),
    ("GOLDENROD", 0xDAA520FF),
    ("GRAY", 0xBEBEBEFF),
    ("GREEN", 0x00FF00FF),
    ("GREEN_YELLOW", 0xADFF2FFF),
    ("HONEYDEW", 0xF0FFF0FF),
    ("HOT_PINK", 0xFF69B4FF),
    ("INDIAN_RED", 0xCD5C5CFF),
    ("INDIGO", 0x4B0082FF),
    ("IVORY", 0xFFFFF0FF),
    ("KHAKI", 0xF0E68CFF),
    ("LAVENDER", 0xE6E6FAFF),
    ("LAVENDER_BLUSH", 0xFFF0F5FF),
    ("LAWN_GREEN", 0x7CFC00FF),
    ("LEMON_CHIFFON", 0xFFFACDFF),
    ("LIGHT_BLUE", 0xADD8E6FF),
    ("LIGHT_CORAL", 0xF08080FF),
    ("LIGHT_CYAN", 0xE0FFFFFF),
    ("LIGHT_GOLDENROD", 0xFAFAD2FF),
    ("LIGHT_GRAY", 0xD3D3D3FF),
    ("LIGHT_GREEN", 0x90EE90FF),
    ("LIGHT_PINK", 0xFFB6C1FF),
    ("LIGHT_SALMON", 0xFFA07AFF),
    ("LIGHT_SEA_GREEN", 0x20B2AAFF),
    ("LIGHT_SKY_BLUE", 0x87CEFAFF),
    ("LIGHT_SLATE_GRAY", 0x778899FF),
    ("LIGHT_STEEL_BLUE", 0xB0C4DEFF),
    ("LIGHT_YELLOW", 0xFFFFE0FF),
    ("LIME", 0x00FF00FF),
    ("LIME_GREEN", 0x32CD32FF),
    ("LINEN", 0xFAF0E6FF),
    ("MAGENTA", 0xFF00FFFF),
    ("MAROON", 0xB03060FF),
    ("MEDIUM_AQUAMARINE", 0x66CDAAFF),
    ("MEDIUM_BLUE", 0x0000CDFF),
    ("MEDIUM_ORCHID", 0xBA55D3FF),
    ("MEDIUM_PURPLE", 0x9370DBFF),
    ("MEDIUM_SEA_GREEN", 0x3CB371FF),
    ("MEDIUM_SLATE_BLUE", 0x7B68EEFF),
    ("MEDIUM_SPRING_GREEN", 0x00FA9AFF),
    ("MEDIUM_TURQUOISE", 0x48D1CCFF),
    ("MEDIUM_VIOLET_RED", 0xC71585FF),
    ("MIDNIGHT_BLUE", 0x191970FF),
    ("MINT_CREAM", 0xF5FFFAFF),
    ("MISTY_ROSE", 0xFFE4E1FF),
    ("MOCCASIN", 0xFFE4B5FF),
    ("NAVAJO_WHITE", 0xFFDEADFF),
    ("NAVY_BLUE", 0x000080FF),
    ("OLD_LACE", 0xFDF5E6FF),
    ("OLIVE", 0x808000FF),
    ("OLIVE_DRAB", 0x6B8E23FF),
    ("ORANGE", 0xFFA500FF),
    ("ORANGE_RED", 0xFF4500FF),
    ("ORCHID", 0xDA70D6FF),
    ("PALE_GOLDENROD", 0xEEE8AAFF),
    ("PALE_GREEN", 0x98FB98FF),
    ("PALE_TURQUOISE", 0xAFEEEEFF),
    ("PALE_VIOLET_RED", 0xDB7093FF),
    ("PAPAYA_WHIP", 0xFFEFD5FF),
    ("PEACH_PUFF", 0xFFDAB9FF),
    ("PERU", 0xCD853FFF),
    ("PINK", 0xFFC0CBFF),
    ("PLUM", 0xDDA0DDFF),
    ("POWDER_BLUE", 0xB0E0E6FF),
    ("PURPLE", 0xA020F0FF),
    ("REBECCA_PURPLE", 0x663399FF),
    ("RED", 0xFF0000FF),
    ("ROSY_BROWN", 0xBC8F8FFF),
    ("ROYAL_BLUE", 0x4169E1FF),
    ("SADDLE_BROWN", 0x8B4513FF),
    ("SALMON", 0xFA8072FF),
    ("SANDY_BROWN", 0xF4A460FF),
    ("SEA_GREEN", 0x2E8B57FF),
    ("SEASHELL", 0xFFF5EEFF),
    ("SIENNA", 0xA0522DFF),
    ("SILVER", 0xC0C0C0FF),
    ("SKY_BLUE", 0x87CEEBFF),
    ("SLATE_BLUE", 0x6A5ACDFF),
    ("SLATE_GRAY", 0x708090FF),
    ("SNOW", 0xFFFAFAFF),
    ("SPRING_GREEN", 0x00FF7FFF),
    ("STEEL_BLUE", 0x4682B4FF),
    ("TAN", 0xD2B48CFF),
    ("TEAL", 0x008080FF),
    ("THISTLE", 0xD8BFD8FF),
    ("TOMATO", 0xFF6347FF),
    ("TRANSPARENT", 0xFFFFFF00),
    ("TURQUOISE", 0x40E0D0FF),
    ("VIOLET", 0xEE82EEFF),
    ("WEB_GRAY", 0x808080FF),
    ("WEB_GREEN", 0x008000FF),
    ("WEB_MAROON", 0x800000FF),
    ("WEB_PURPLE", 0x800080FF),
    ("WHEAT", 0xF5DEB3FF),
    ("WHITE", 0xFFFFFFFF),
    ("WHITE_SMOKE", 0xF5F5F5FF),
    ("YELLOW", 0xFFFF00FF),
    ("YELLOW_GREEN", 0x9ACD32FF),
];

/// real_t arithmetic, f32 or f64 (double-precision builds).
pub(crate) trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// 1 in this width.
    const ONE: Self;
    /// 2 in this width.
    const TWO: Self;
}

impl Real for f32 {
    const ONE: f32 = 1.0;
    const TWO: f32 = 2.0;
}

impl Real for f64 {
    const ONE: f64 = 1.0;
    const TWO: f64 = 2.0;
}

/// `Basis(Quaternion)` (`Basis::set_quaternion`, `core/math/basis.cpp`) in the engine's order of
/// operations, rows first as the wire writes them. The quaternion is not normalized first: a zero
/// quaternion divides by zero and gives NaNs, one whose squared length overflows gives identity.
pub(crate) fn basis_from_quaternion<R: Real>([x, y, z, w]: [R; 4]) -> [R; 9] {
    let d = x * x + y * y + z * z + w * w;
    let s = R::TWO / d;
    let (xs, ys, zs) = (x * s, y * s, z * s);
    let (wx, wy, wz) = (w * xs, w * ys, w * zs);
    let (xx, xy, xz) = (x * xs, x * ys, x * zs);
    let (yy, yz, zz) = (y * ys, y * zs, z * zs);
    [
        R::ONE - (yy + zz),
        xy - wz,
        xz + wy,
        xy + wz,
        R::ONE - (xx + zz),
        yz - wx,
        xz - wy,
        yz + wx,
        R::ONE - (xx + yy),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_the_x86_instructions() {
        assert_eq!(cast_i32(-1.5), -1);
        assert_eq!(cast_i32(2147483520.0), 2147483520);
        assert_eq!(cast_i32(2147483648.0), i32::MIN);
        assert_eq!(cast_i32(-2147483648.0), i32::MIN);
        assert_eq!(cast_i32(-2147483648.9), i32::MIN);
        assert_eq!(cast_i32(f64::NAN), i32::MIN);
        assert_eq!(cast_i64(9.3e18), i64::MIN);
        assert_eq!(cast_i64(-1.5), -1);
    }

    #[test]
    fn to_int_reads_as_godot_does() {
        for (text, want) in [
            ("", 0),
            ("-", 0),
            ("0-5", -5),
            ("--5", 5),
            ("-0-5", 5),
            ("5-3", 53),
            ("1.2.3", 1),
            (".5", 0),
            ("12a34", 1234),
            ("(1, 2)", 12),
            ("0x1F", 1),
            ("9223372036854775807", i64::MAX),
            ("9223372036854775808", i64::MIN),
            ("-9223372036854775809", i64::MAX),
            ("99999999999999999999", i64::MAX),
            ("-18446744073709551616", i64::MIN),
        ] {
            assert_eq!(string_to_int(text), want, "{text:?}");
        }
    }
}
