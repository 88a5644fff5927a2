//! Conversions between Basis and Quaternion that depend on how Godot 4.6.3's single-precision
//! x86-64 build computes them: `Basis::get_quaternion` with its rotation check, and which NaN
//! payload each element of `Basis(Quaternion)` passes on when several components are NaN.
//!
//! Every operation is in single precision, in the engine's order, without fused multiply-adds
//! (the build targets baseline x86-64). Checked against Godot 4.6.3 on 60,000 random bases and
//! every combination of NaN components; `tests/engine_rules.rs` holds the codec to the corpus's
//! records of `decode/typed_conversions/Quaternion_from_Basis_*` and `*_from_Quaternion_nan*`.

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
