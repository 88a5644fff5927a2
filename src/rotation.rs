//! Conversions between Basis and Quaternion that depend on how Godot 4.6.3's single-precision
//! x86-64 build computes them: `Basis::get_quaternion` with its rotation check, and which NaN
//! payload each element of `Basis(Quaternion)` passes on when several components are NaN.
//!
//! Every operation is in single precision, in the engine's order, without fused multiply-adds
//! (the build targets baseline x86-64). Checked against Godot 4.6.3 on 60,000 random bases and
//! every combination of NaN components (the corpus's
//! `decode/typed_conversions/Quaternion_from_Basis_*` and `*_from_Quaternion_nan_payloads`).

/// `CMP_EPSILON` as the float comparisons take it.
const CMP_EPSILON: f32 = 1e-5;

/// `UNIT_EPSILON`: how far from 1 a rotation's determinant may be.
const UNIT_EPSILON: f32 = 0.001;

/// `Quaternion(Basis)` of a basis given by rows, as the wire writes it: `Basis::get_quaternion`,
/// which in the engine's debug-enabled builds (every verified 4.x engine) first checks
/// `is_rotation()` and gives the identity, with an error print, for a basis that fails it.
pub(crate) fn quaternion_from_basis(rows: [f32; 9]) -> [f32; 4] {
    let m = |r: usize, c: usize| rows[r * 3 + c];
    if !is_rotation(&rows) {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let trace = m(0, 0) + m(1, 1) + m(2, 2);
    let mut q = [0.0f32; 4];
    if trace > 0.0 {
        let s = (trace + 1.0).sqrt();
        q[3] = s * 0.5;
        let s = 0.5 / s;
        q[0] = (m(2, 1) - m(1, 2)) * s;
        q[1] = (m(0, 2) - m(2, 0)) * s;
        q[2] = (m(1, 0) - m(0, 1)) * s;
    } else {
        // The largest diagonal element leads.
        let i = if m(0, 0) < m(1, 1) {
            if m(1, 1) < m(2, 2) { 2 } else { 1 }
        } else if m(0, 0) < m(2, 2) {
            2
        } else {
            0
        };
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let s = (m(i, i) - m(j, j) - m(k, k) + 1.0).sqrt();
        q[i] = s * 0.5;
        let s = 0.5 / s;
        q[3] = (m(k, j) - m(j, k)) * s;
        q[j] = (m(j, i) + m(i, j)) * s;
        q[k] = (m(k, i) + m(i, k)) * s;
    }
    q
}

/// `Basis::is_rotation`: the columns conformal (equal squared lengths, each pair's dot product
/// near zero) and the determinant within `UNIT_EPSILON` of 1. NaN fails every comparison.
fn is_rotation(rows: &[f32; 9]) -> bool {
    let column = |c: usize| [rows[c], rows[3 + c], rows[6 + c]];
    let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let (x, y, z) = (column(0), column(1), column(2));
    let length = dot(x, x);
    let conformal = is_equal_approx(length, dot(y, y))
        && is_equal_approx(length, dot(z, z))
        && dot(x, y).abs() < CMP_EPSILON
        && dot(x, z).abs() < CMP_EPSILON
        && dot(y, z).abs() < CMP_EPSILON;
    let m = |r: usize, c: usize| rows[r * 3 + c];
    let determinant = m(0, 0) * (m(1, 1) * m(2, 2) - m(2, 1) * m(1, 2))
        - m(1, 0) * (m(0, 1) * m(2, 2) - m(2, 1) * m(0, 2))
        + m(2, 0) * (m(0, 1) * m(1, 2) - m(1, 1) * m(0, 2));
    conformal && (determinant == 1.0 || (determinant - 1.0).abs() < UNIT_EPSILON)
}

/// `Math::is_equal_approx(a, b)`: equal, or closer than `CMP_EPSILON` relative to `a` (at least
/// `CMP_EPSILON`). An infinite `a` makes the tolerance infinite, which nothing is below.
fn is_equal_approx(a: f32, b: f32) -> bool {
    a == b || (a - b).abs() < (CMP_EPSILON * a.abs()).max(CMP_EPSILON)
}

/// For each element of `Basis(Quaternion)` (rows first), the order in which the components
/// (x, y, z, w) pass their NaN on: the first NaN component in the list gives the element its
/// payload. Any NaN component makes all nine elements NaN; which payload each takes follows the
/// operand order the engine's compiler chose, measured on Godot 4.6.3.
const NAN_ORDER: [[usize; 4]; 9] = [
    [0, 1, 2, 3],
    [0, 1, 2, 3],
    [0, 1, 2, 3],
    [3, 0, 1, 2],
    [0, 1, 2, 3],
    [1, 0, 2, 3],
    [0, 1, 2, 3],
    [0, 1, 2, 3],
    [0, 1, 2, 3],
];

/// `Basis(Quaternion)` of a quaternion with a NaN component, or `None` if it has none: each
/// element the payload (quieted, sign kept) of the component [`NAN_ORDER`] picks.
pub(crate) fn basis_of_nan_quaternion(q: [f32; 4]) -> Option<[f32; 9]> {
    if !q.iter().any(|c| c.is_nan()) {
        return None;
    }
    Some(NAN_ORDER.map(|order| {
        let winner = order.iter().map(|&i| q[i]).find(|c| c.is_nan());
        // Some component is NaN, so one is found.
        f32::from_bits(winner.map_or(0, f32::to_bits) | 1 << 22)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Godot 4.6.3's answers (`Array([basis], TYPE_QUATERNION, "", null)`), as bits: rows of
    /// the basis, then the quaternion (x, y, z, w). A basis that fails the rotation check gives
    /// the identity.
    #[test]
    fn quaternions_from_bases_as_godot_4_6_makes_them() {
        #[rustfmt::skip]
        let cases: [([u32; 9], [u32; 4]); 16] = [
            // rotX180 diag(1,-1,-1)
            ([0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000], [0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
            // rotY180 diag(-1,1,-1)
            ([0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000], [0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000]),
            // rotZ180 diag(-1,-1,1)
            ([0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000]),
            // axis (0,0,1) angle 3.0
            ([0xbf7d_7026, 0xbe10_81c3, 0x0000_0000, 0x3e10_81c3, 0xbf7d_7026, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x3f7f_5bd5, 0x3d90_deaa]),
            // rotX90 exact
            ([0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0xbf80_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000], [0x3f35_04f3, 0x0000_0000, 0x0000_0000, 0x3f35_04f3]),
            // from_euler(0.3,0.5,0.7)
            ([0x3f43_3236, 0xbee9_fac6, 0x3eea_80a5, 0x3f1d_8dc8, 0x3f3b_0df5, 0xbe97_4e6d, 0xbe4c_66e7, 0x3f01_d897, 0x3f56_a082], [0x3e61_2c5b, 0x3e38_7828, 0x3e96_69f6, 0x3f69_a1ef]),
            // axis (1,2,3)n angle -2.5
            ([0xbf2c_2856, 0x3f3c_b5f4, 0x3d87_4bcc, 0xbe63_e140, 0xbe92_b436, 0x3f6e_8ed7, 0x3f34_b2fc, 0x3f1c_aa15, 0x3eb6_a5e1], [0x3e81_db60, 0x3f01_db60, 0x3f42_c90f, 0xbea1_71ee]),
            // identity rows[0][1]=0.0000001
            ([0x3f80_0000, 0x33d6_bf95, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0xb2d6_bf95, 0x3f80_0000]),
            // identity rows[0][1]=0.00001
            ([0x3f80_0000, 0x3727_c5ac, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000]),
            // identity rows[0][0]=1+0.000001
            ([0x3f80_0008, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0001]),
            // uniform scale 1.0003
            ([0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_09d5, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_09d5], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_03b0]),
            // uniform scale 1.0004
            ([0x3f80_0d1b, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0d1b, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0d1b], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000]),
            // reflection diag(-1,1,1)
            ([0xbf80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000]),
            // NaN at rows[0][0]
            ([0x7fc0_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000]),
            // -0.0 off-diagonals identity
            ([0x3f80_0000, 0x8000_0000, 0x8000_0000, 0x8000_0000, 0x3f80_0000, 0x8000_0000, 0x8000_0000, 0x8000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000]),
            // denormal rows[0][1]=1e-45
            ([0x3f80_0000, 0x0000_0001, 0x0000_0000, 0x0000_0000, 0x3f80_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000, 0x3f80_0000], [0x0000_0000, 0x0000_0000, 0x8000_0000, 0x3f80_0000]),
        ];
        for (rows, want) in cases {
            let got = quaternion_from_basis(rows.map(f32::from_bits));
            assert_eq!(got.map(f32::to_bits), want, "{rows:x?}");
        }
        // At the comparisons' edges (corpus `decode/typed_conversions/Quaternion_from_Basis_ties*`):
        // a dot product of exactly 1e-5 fails the check; of two equal smaller diagonal elements
        // the first leads, which decides the sign.
        let h = f32::from_bits(0x3f35_04f3);
        for (rows, want) in [
            (
                [1.0, 0.0, 1e-5, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                [0.0, 0.0, 0.0, 1.0],
            ),
            (
                [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1e-5, 1.0],
                [0.0, 0.0, 0.0, 1.0],
            ),
            (
                [-1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0],
                [0.0, h, -h, 0.0],
            ),
            (
                [-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0],
                [0.0, h, h, 0.0],
            ),
            (
                [0.0, 0.0, -1.0, 0.0, -1.0, 0.0, -1.0, 0.0, 0.0],
                [h, 0.0, -h, 0.0],
            ),
            // `Quaternion_from_Basis_trace_zero`: a trace of exactly 0 takes the diagonal branch.
            (
                [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
                [0.5, 0.5, 0.5, 0.5],
            ),
            (
                [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0],
                [0.5, 0.5, 0.5, -0.5],
            ),
            // `Quaternion_from_Basis_stretched`: a determinant of 1, columns of other lengths.
            (
                [2.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0],
                [0.0, 0.0, 0.0, 1.0],
            ),
            (
                [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.5],
                [0.0, 0.0, 0.0, 1.0],
            ),
            // `Quaternion_from_Basis_ties_xy`: the first two diagonal elements equal.
            (
                [0.0, -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
                [h, -h, 0.0, 0.0],
            ),
            (
                [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0],
                [h, h, 0.0, 0.0],
            ),
        ] {
            let got = quaternion_from_basis(rows);
            assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "{rows:?}");
        }
    }

    /// Godot 4.6.3's answers to quaternions holding NaNs of several payloads.
    #[test]
    fn nan_payloads_follow_the_engines_operand_order() {
        let nan = |p: u32| f32::from_bits(0x7fc0_0000 | p);
        // x and y NaN: every element takes x's payload but rows[1][2], which takes y's.
        let got = basis_of_nan_quaternion([nan(1), nan(2), 0.5, 0.5]).unwrap();
        let want = [1, 1, 1, 1, 1, 2, 1, 1, 1].map(nan);
        assert_eq!(bits(&got), bits(&want));
        // x and w: rows[1][0] takes w's.
        let got = basis_of_nan_quaternion([nan(1), 0.5, 0.5, nan(4)]).unwrap();
        let want = [1, 1, 1, 4, 1, 1, 1, 1, 1].map(nan);
        assert_eq!(bits(&got), bits(&want));
        // A signalling NaN comes out quiet.
        let got = basis_of_nan_quaternion([0.5, f32::from_bits(0x7f80_0001), 0.5, 0.5]).unwrap();
        assert!(got.iter().all(|x| x.to_bits() == 0x7fc0_0001));
        assert_eq!(basis_of_nan_quaternion([0.5; 4]), None);
    }
}
