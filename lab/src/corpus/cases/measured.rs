//! Typed-container conversions whose rules were measured on the engine rather than read from
//! its source alone: `String::to_float` (a packed float array given texts), `Basis::get_quaternion`
//! with its rotation check (a Quaternion array given bases), and which NaN payload each element of
//! `Basis(Quaternion)` passes on (Basis and Transform3D arrays given quaternions holding NaNs of
//! several payloads). See `gdmarshal`'s `to_float` and `rotation` modules.

use gdmarshal::types::VariantType;
use gdmarshal::value::{Array, Variant};

use super::Ctx;
use super::conversions::{reals_of, typed_array};
use super::stringify::splitmix;

/// Texts at the edges of `String::to_float`: signs, points and exponents in every place, digits
/// past the 18th, exponents past the table and past an `int`, forms it does not know.
const FLOAT_TEXTS: &[&str] = &[
    "1.5",
    "0.1",
    "  3",
    "+2",
    "-0",
    "1e5",
    "1E-5",
    "1e400",
    "1e-400",
    ".5",
    "5.",
    "0x10",
    "inf",
    "nan",
    "1,5",
    "abc",
    "",
    "123456789012345678901234567890",
    "0.30000000000000004",
    "2.2250738585072011e-308",
    "4.9e-324",
    "1.7976931348623157e308",
    "9007199254740993",
    "1_000",
    " \t\n7",
    "1e",
    "1e+",
    "--1",
    "\u{661}\u{662}",
    "-",
    "-abc",
    "+",
    ".",
    "-.",
    "1.5e",
    "0.1e",
    "1.5e+",
    "1.5E3x",
    "0e400",
    "0e-400",
    "0e600",
    "1e600",
    "1e-600",
    "1e308",
    "1e309",
    "1.7976931348623159e308",
    "1e-308",
    "1e-307",
    "2.5e-308",
    "1e22",
    "1e23",
    "8.589973e9",
    "123456789012345678",
    "1234567890123456789",
    "12345678901234567890",
    "0.000000000000000000001",
    "3.14159265358979323846",
    "2.718281828459045",
    "0.2",
    "0.3",
    "0.7",
    "1.1",
    "100.001",
    "-1.5",
    "\r5",
    "\u{b}5",
    "\u{c}5",
    "5 ",
    "1e2.5",
    "1..2",
    "1.2.3",
    "Infinity",
    "-inf",
    "NaN",
    "1e+5",
    "1e-5",
    "  -  5",
    "- 5",
    "+-1",
    "1e99999999999",
    "1e2147483648",
    "1e4294967297",
    "0.1e1",
    "123.456e-2",
    "4.35",
    "1e-320",
    "5e-324",
    "0x1p3",
    "1d5",
    "\u{ff16}",
    "9999999999999999999",
    "0.1234567890123456789",
    "0.0000001",
    "1e-7",
    "3.4028235e38",
    "1.17549435e-38",
    "16777217",
    "0.1e-9",
    "-0.0",
    "7e-10",
    "1.0e23",
    "2e-1",
    "0.333333333333333333333",
    "1000000000000000000000000",
    "1e21",
    "5e-1",
    "123456.789e3",
    "1e0",
    "00000000000000000000001.5",
];

/// Bases about the rotation check: exact rotations, each element nudged by 1e-7 to 1e-3, scaled,
/// reflected, zero, NaN and infinite, as rows.
#[rustfmt::skip]
const BASES: &[[u32; 9]] = &[
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000],
    [0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000],
    [0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000],
    [0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000],
    [0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000],
    [0x3f43_3236, 0xbee9_fac6, 0x3eea_80a5, 0x3f1d_8dc8, 0x3f3b_0df5, 0xbe97_4e6d, 0xbe4c_66e7, 0x3f01_d897, 0x3f56_a082],
    [0x3d64_f990, 0xbd58_d180, 0x3f7f_3d7e, 0x3f7f_3d7e, 0x3d64_f990, 0xbd58_d180, 0xbd58_d180, 0x3f7f_3d7e, 0x3d64_f990],
    [0xbf7d_7026, 0xbe10_81c3, 0x0000_0000, 0x3e10_81c3, 0xbf7d_7026, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0xbf2c_2856, 0x3f3c_b5f4, 0x3d87_4bcc, 0xbe63_e140, 0xbe92_b436, 0x3f6e_8ed7, 0x3f34_b2fc, 0x3f1c_aa15, 0x3eb6_a5e1],
    [0x3f80_0000, 0x33d6_bf95, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x3586_37bd, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x3716_feb5, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x3727_c5ac, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x38d1_b717, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x3a83_126f, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0001, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0008, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_002a, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0054, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0347, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_20c5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_09d5],
    [0x3f80_0d1b, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0d1b, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0d1b],
    [0x3f7f_ec57, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f7f_ec57, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f7f_ec57],
    [0x4000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x4000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x4000_0000],
    [0x0000_0000, 0xbf80_09d5, 0x0000_0000, 0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_09d5],
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x4000_0000],
    [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000],
    [0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000],
    [0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x7fc0_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x7fc0_0001, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000, 0x7fc0_0000],
    [0x7f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x8000_0000, 0x8000_0000, 0x8000_0000, 0x3f80_0000, 0x8000_0000, 0x8000_0000, 0x8000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x0000_0001, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000],
    [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f7f_fff8, 0xba83_126e, 0x0000_0000, 0x3a83_126e, 0x3f7f_fff8],
];

/// Bases at the exact edges of get_quaternion's comparisons: a dot product of two columns of
/// exactly `CMP_EPSILON` (f32 1e-5) for each pair, and half turns whose two smaller diagonal
/// elements are equal (which one leads decides the quaternion's sign), as rows.
const TIES: &[[f32; 9]] = &[
    [1.0, 0.0, 1e-5, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1e-5, 1.0],
    [-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0],
    [-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, 0.0],
];

/// Half turns whose two larger diagonal elements, the first and the second, are equal.
const TIES_XY: &[[f32; 9]] = &[
    [0.0, -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
    [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
];

/// Bases whose determinant is 1 but whose columns have other lengths: not conformal.
const STRETCHED: &[[f32; 9]] = &[
    [2.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.5],
];

/// Turns of a third about (1, 1, 1), either way: a trace of exactly 0.
const TRACE_ZERO: &[[f32; 9]] = &[
    [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
];

/// `decode/typed_conversions/*_from_Array_float_texts`, `Quaternion_from_Basis_edges`,
/// `Quaternion_from_Basis_drawn`, `Quaternion_from_Basis_ties` and `*_from_Quaternion_nan_payloads`
/// (4.x).
pub(super) fn measured_conversions(ctx: &mut Ctx) {
    use VariantType as T;
    if !ctx.profile.typed_arrays() {
        return;
    }
    let profile = ctx.profile;
    let mut bits = splitmix(0x70_f10a7);
    let mut texts: Vec<String> = FLOAT_TEXTS.iter().map(|t| t.to_string()).collect();
    for _ in 0..150 {
        let r = bits();
        let digits = 1 + (r % 24) as usize;
        let mut t: String = (0..digits)
            .map(|k| char::from(b'0' + ((r >> (k * 2 % 60)) % 10) as u8))
            .collect();
        if r >> 40 & 1 == 1 {
            t.insert((r >> 41) as usize % (digits + 1), '.');
        }
        if r >> 50 & 1 == 1 {
            t.push_str(&format!("e{}", (r >> 51) as i64 % 700 - 350));
        }
        texts.push(t);
    }
    let strings = vec![Variant::Array(Array::new(
        texts
            .iter()
            .map(|t| Variant::String(t.as_str().into()))
            .collect(),
    ))];
    // Bases: the edges, then rotations drawn from quaternions, some nudged off by up to 1e-4.
    let basis = |rows: [f32; 9]| Variant::Basis(reals_of(profile, &rows.map(f64::from)));
    let edges: Vec<Variant> = BASES.iter().map(|b| basis(b.map(f32::from_bits))).collect();
    let mut drawn = Vec::new();
    for _ in 0..120 {
        let r = bits();
        let q: [f32; 4] =
            std::array::from_fn(|k| ((r >> (k * 16)) & 0xffff) as f32 / 32768.0 - 1.0);
        let n = q.iter().map(|x| x * x).sum::<f32>().sqrt();
        let [x, y, z, w] = q.map(|c| c / n);
        let mut rows = [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ];
        let nudge = bits();
        if nudge & 1 == 1 {
            rows[(nudge >> 1) as usize % 9] += 10f32.powi(-(((nudge >> 8) % 4) as i32) - 4);
        }
        drawn.push(basis(rows));
    }
    // Quaternions with NaNs of distinct payloads in every set of components, signed or not,
    // quiet or signalling.
    let mut nan_quaternions = Vec::new();
    for set in 1..16u32 {
        for variant in 0..3u32 {
            let q: [f64; 4] = std::array::from_fn(|k| {
                if set >> k & 1 == 0 {
                    return 0.5;
                }
                let payload = 1 + k as u32 + 4 * variant;
                let bits = match variant {
                    0 => 0x7fc0_0000 | payload,
                    1 => 0xffc0_0000 | payload,
                    _ => 0x7f80_0000 | payload,
                };
                f64::from(f32::from_bits(bits))
            });
            nan_quaternions.push(Variant::Quaternion(reals_of(profile, &q)));
        }
    }
    let cases = [
        (
            "PackedFloat64Array_from_Array_float_texts",
            T::PackedFloat64Array,
            strings.clone(),
        ),
        (
            "PackedFloat32Array_from_Array_float_texts",
            T::PackedFloat32Array,
            strings,
        ),
        ("Quaternion_from_Basis_edges", T::Quaternion, edges),
        ("Quaternion_from_Basis_drawn", T::Quaternion, drawn),
        (
            "Quaternion_from_Basis_ties",
            T::Quaternion,
            TIES.iter().map(|b| basis(*b)).collect(),
        ),
        (
            "Quaternion_from_Basis_ties_xy",
            T::Quaternion,
            TIES_XY.iter().map(|b| basis(*b)).collect(),
        ),
        (
            "Quaternion_from_Basis_stretched",
            T::Quaternion,
            STRETCHED.iter().map(|b| basis(*b)).collect(),
        ),
        (
            "Quaternion_from_Basis_trace_zero",
            T::Quaternion,
            TRACE_ZERO.iter().map(|b| basis(*b)).collect(),
        ),
        (
            "Basis_from_Quaternion_nan_payloads",
            T::Basis,
            nan_quaternions.clone(),
        ),
        (
            "Transform3D_from_Quaternion_nan_payloads",
            T::Transform3D,
            nan_quaternions,
        ),
    ];
    for (name, to, values) in cases {
        if let Some(input) = typed_array(ctx, to, &values) {
            ctx.decode(format!("decode/typed_conversions/{name}"), input, false);
        }
    }
}
