//! `Variant::stringify` as Godot 4.x writes a value as text: what `str()` prints, what a
//! String property's setter makes of a value of another type, and what a typed
//! `PackedStringArray` holds for each element it converts.
//!
//! Numbers follow `String::num_real` and `String::num` (`core/string/ustring.cpp`): an integral
//! value is its integer and `.0`; any other is `printf("%.Nlf")` with N = 14 decimals for a double
//! and 6 for a single-precision component, less one for each power of ten above 10, and its
//! trailing zeros removed but one after the point. The rules were checked against Godot 4.6.3;
//! `tests/engine_rules.rs` holds the codec to the corpus's records of `decode/stringify/*`.

use crate::convert::{cast_i64, node_path_text};
use crate::value::{Components, Object, Reals, Variant};

/// Containers nested deeper than this print as `[...]` or `{ ... }` (`MAX_RECURSION`, counted by
/// Arrays and Dictionaries only, which share the count).
const MAX_RECURSION: u32 = 100;

/// `Variant::operator String()` of a 4.x value. Objects other than null are refused: their text
/// names the instance id of the object the engine made, which the bytes do not carry.
pub(crate) fn stringify(v: &Variant) -> Result<String, &'static str> {
    let mut out = String::new();
    write(&mut out, v, 0)?;
    Ok(out)
}

/// `Variant::booleanize()` of a 4.x value (`operator bool`, what a bool property's setter makes
/// of a value of another type): whether it differs from its type's zero (`Variant::is_zero`,
/// exact `==`, so NaN is never zero). The matrices' and Quaternion's zero is the identity,
/// Color's is opaque black; containers and paths are zero when empty, whatever they hold.
pub(crate) fn booleanize(v: &Variant) -> bool {
    use Variant as V;
    const IDENTITY_2D: [f64; 6] = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    const IDENTITY_3D: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    const IDENTITY_4D: [f64; 16] = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let is = |r: &Reals, zero: &[f64]| match r.components() {
        Components::F32(c) => c.iter().zip(zero).all(|(a, b)| f64::from(*a) == *b),
        Components::F64(c) => c.iter().zip(zero).all(|(a, b)| a == b),
    };
    let zero = match v {
        V::Nil => true,
        V::Bool(b) => !b,
        V::Int(i) => *i == 0,
        V::Float(f) => *f == 0.0,
        V::String(s) | V::StringName(s) => s.is_empty(),
        V::Vector2(r) | V::Vector3(r) | V::Vector4(r) | V::Rect2(r) | V::Aabb(r) | V::Plane(r) => {
            is(r, &[0.0; 6])
        }
        V::Vector2i(i) | V::Vector3i(i) | V::Vector4i(i) | V::Rect2i(i) => {
            i.iter().all(|x| *x == 0)
        }
        V::Transform2D(r) => is(r, &IDENTITY_2D),
        V::Basis(r) | V::Transform3D(r) => is(r, &IDENTITY_3D),
        V::Projection(r) => is(r, &IDENTITY_4D),
        V::Quaternion(r) => is(r, &[0.0, 0.0, 0.0, 1.0]),
        V::Color(c) => *c == [0.0, 0.0, 0.0, 1.0],
        V::NodePath(np) => np.names.is_empty() && np.subnames.is_empty() && !np.absolute,
        V::Rid(id) => *id == 0,
        V::Object(o) => matches!(**o, Object::Null),
        V::Callable => true,
        V::Signal(s) => s.object_id == 0 && s.name.is_empty(),
        V::Dictionary(d) => d.entries().is_empty(),
        V::Array(a) => a.items().is_empty(),
        V::PackedByteArray(v) => v.is_empty(),
        V::PackedInt32Array(v) => v.is_empty(),
        V::PackedInt64Array(v) => v.is_empty(),
        V::PackedFloat32Array(v) => v.is_empty(),
        V::PackedFloat64Array(v) => v.is_empty(),
        V::PackedStringArray(v) => v.is_empty(),
        V::PackedColorArray(v) => v.is_empty(),
        V::PackedVector2Array(r) | V::PackedVector3Array(r) | V::PackedVector4Array(r) => {
            r.is_empty()
        }
    };
    !zero
}

/// A math value whose components are not as many as its type has: only a value built by hand
/// can be so (the decoder reads each type's count).
const WRONG_SIZE: &str = "a value whose components are not as many as its type has";

/// `Variant::stringify(recursion_count)`.
fn write(out: &mut String, v: &Variant, depth: u32) -> Result<(), &'static str> {
    use Variant as V;
    let sized = match v {
        V::Vector2(r) => r.len() == 2,
        V::Vector3(r) => r.len() == 3,
        V::Vector4(r) | V::Quaternion(r) | V::Rect2(r) | V::Plane(r) => r.len() == 4,
        V::Aabb(r) | V::Transform2D(r) => r.len() == 6,
        V::Basis(r) => r.len() == 9,
        V::Transform3D(r) => r.len() == 12,
        V::Projection(r) => r.len() == 16,
        V::Rect2i(i) => i.len() == 4,
        _ => true,
    };
    if !sized {
        return Err(WRONG_SIZE);
    }
    match v {
        V::Nil => out.push_str("<null>"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => out.push_str(&i.to_string()),
        V::Float(f) => out.push_str(&num_real_f64(*f, true)),
        V::String(s) | V::StringName(s) => out.push_str(&s.to_string_lossy()),
        V::NodePath(np) => out.push_str(&node_path_text(np)),
        V::Vector2(r) | V::Vector3(r) | V::Vector4(r) => vector(out, r, 0, r.len(), true),
        V::Quaternion(r) => vector(out, r, 0, 4, false),
        V::Vector2i(i) | V::Vector3i(i) | V::Vector4i(i) => ints(out, i),
        V::Rect2(r) => labelled(out, r, &[("P", 0, 2), ("S", 2, 2)]),
        V::Rect2i(i) => {
            out.push_str("[P: ");
            ints(out, &i[..2]);
            out.push_str(", S: ");
            ints(out, &i[2..]);
            out.push(']');
        }
        V::Aabb(r) => labelled(out, r, &[("P", 0, 3), ("S", 3, 3)]),
        V::Transform2D(r) => labelled(out, r, &[("X", 0, 2), ("Y", 2, 2), ("O", 4, 2)]),
        V::Projection(r) => {
            labelled(
                out,
                r,
                &[("X", 0, 4), ("Y", 4, 4), ("Z", 8, 4), ("W", 12, 4)],
            );
        }
        // The wire holds a basis by rows; its text shows the columns.
        V::Basis(r) | V::Transform3D(r) => {
            out.push('[');
            for (k, label) in ["X", "Y", "Z"].into_iter().enumerate() {
                out.push_str(label);
                out.push_str(": (");
                for row in 0..3 {
                    if row > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&real(r, row * 3 + k, true));
                }
                out.push_str("), ");
            }
            if let V::Transform3D(_) = v {
                out.push_str("O: ");
                vector(out, r, 9, 3, true);
            } else {
                out.truncate(out.len() - 2);
            }
            out.push(']');
        }
        V::Plane(r) => {
            out.push_str("[N: ");
            vector(out, r, 0, 3, true);
            out.push_str(", D: ");
            out.push_str(&real(r, 3, false));
            out.push(']');
        }
        V::Color(c) => color(out, c),
        V::Rid(id) => out.push_str(&format!("RID({})", *id as i64)),
        V::Object(o) => match **o {
            Object::Null => out.push_str("<Object#null>"),
            _ => {
                return Err(
                    "the text of an object, which names the instance id the engine gave it",
                );
            }
        },
        V::Callable => out.push_str("null::null"),
        // The bytes name an object by id, which a fresh engine does not hold.
        V::Signal(s) => {
            out.push_str("null::[signal]");
            out.push_str(&s.name);
        }
        V::Array(a) => {
            if depth > MAX_RECURSION {
                out.push_str("[...]");
            } else {
                list(out, a.items(), |out, v| clean(out, v, depth + 1))?;
            }
        }
        V::Dictionary(d) => {
            if depth > MAX_RECURSION {
                out.push_str("{ ... }");
                return Ok(());
            }
            out.push_str("{ ");
            for (n, (k, v)) in d.entries().iter().enumerate() {
                if n > 0 {
                    out.push_str(", ");
                }
                clean(out, k, depth + 1)?;
                out.push_str(": ");
                clean(out, v, depth + 1)?;
            }
            out.push_str(" }");
        }
        V::PackedByteArray(b) => numbers(out, b.iter().map(|x| x.to_string())),
        V::PackedInt32Array(v) => numbers(out, v.iter().map(|x| x.to_string())),
        V::PackedInt64Array(v) => numbers(out, v.iter().map(|x| x.to_string())),
        // Each element is a `float` Variant: a double's text, however the array stores it.
        V::PackedFloat32Array(v) => {
            numbers(out, v.iter().map(|&x| num_real_f64(f64::from(x), true)));
        }
        V::PackedFloat64Array(v) => numbers(out, v.iter().map(|&x| num_real_f64(x, true))),
        V::PackedStringArray(v) => {
            numbers(out, v.iter().map(|s| quoted("", &s.to_string_lossy())));
        }
        V::PackedVector2Array(r) => packed_vectors(out, r, 2),
        V::PackedVector3Array(r) => packed_vectors(out, r, 3),
        V::PackedVector4Array(r) => packed_vectors(out, r, 4),
        V::PackedColorArray(v) => {
            numbers(
                out,
                v.iter().map(|c| {
                    let mut s = String::new();
                    color(&mut s, c);
                    s
                }),
            );
        }
    }
    Ok(())
}

/// `stringify_variant_clean`: a container's element, with strings, names and paths quoted.
fn clean(out: &mut String, v: &Variant, depth: u32) -> Result<(), &'static str> {
    match v {
        Variant::String(s) => out.push_str(&quoted("", &s.to_string_lossy())),
        Variant::StringName(s) => out.push_str(&quoted("&", &s.to_string_lossy())),
        Variant::NodePath(np) => out.push_str(&quoted("^", &node_path_text(np))),
        _ => write(out, v, depth)?,
    }
    Ok(())
}

/// `[a, b, ...]` with each item written by `each`.
fn list<T>(
    out: &mut String,
    items: &[T],
    mut each: impl FnMut(&mut String, &T) -> Result<(), &'static str>,
) -> Result<(), &'static str> {
    out.push('[');
    for (n, item) in items.iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        each(out, item)?;
    }
    out.push(']');
    Ok(())
}

/// `[a, b, ...]` of texts already made.
fn numbers(out: &mut String, texts: impl Iterator<Item = String>) {
    let texts: Vec<String> = texts.collect();
    let _ = list(out, &texts, |out, t| {
        out.push_str(t);
        Ok(())
    });
}

/// A packed array of vectors: each element a vector's text.
fn packed_vectors(out: &mut String, r: &Reals, n: usize) {
    let starts: Vec<usize> = (0..r.len() / n).map(|k| k * n).collect();
    let _ = list(out, &starts, |out, &at| {
        vector(out, r, at, n, true);
        Ok(())
    });
}

/// `prefix` + `"` + `String::c_escape(s)` + `"`.
fn quoted(prefix: &str, s: &str) -> String {
    let mut out = String::with_capacity(s.len() + prefix.len() + 2);
    out.push_str(prefix);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Component `at` of `r` as its math type writes it: `num_real` of the component's width.
fn real(r: &Reals, at: usize, trailing: bool) -> String {
    match r.components() {
        Components::F32(v) => num_real_f32(v[at], trailing),
        Components::F64(v) => num_real_f64(v[at], trailing),
    }
}

/// `(a, b, ...)`: `n` components of `r` from `at`.
fn vector(out: &mut String, r: &Reals, at: usize, n: usize, trailing: bool) {
    out.push('(');
    for k in at..at + n {
        if k > at {
            out.push_str(", ");
        }
        out.push_str(&real(r, k, trailing));
    }
    out.push(')');
}

/// `[L: (..), M: (..)]`: each label with the vector of `n` components from `at`.
fn labelled(out: &mut String, r: &Reals, parts: &[(&str, usize, usize)]) {
    out.push('[');
    for (k, (label, at, n)) in parts.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(label);
        out.push_str(": ");
        vector(out, r, *at, *n, true);
    }
    out.push(']');
}

/// `(r, g, b, a)`, each `String::num(component, 4)`: no integer test, so -0.0 keeps its sign.
fn color(out: &mut String, c: &[f32; 4]) {
    out.push('(');
    for (k, x) in c.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let x = f64::from(*x);
        if x.is_finite() {
            out.push_str(&num(x, 4));
        } else {
            out.push_str(&non_finite(x));
        }
    }
    out.push(')');
}

/// Vector-type components: `Vector2i(1, 2)` is `(1, 2)`.
fn ints(out: &mut String, v: &[i32]) {
    out.push('(');
    for (k, x) in v.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(&x.to_string());
    }
    out.push(')');
}

/// `String::num_real(double, trailing)`: a `float` Variant, and every real_t component of a
/// double-precision build. `trailing` writes `.0` after an integral value.
fn num_real_f64(x: f64, trailing: bool) -> String {
    if x.is_nan() || x.is_infinite() {
        return non_finite(x);
    }
    // `p_num == (double)(int64_t)p_num`, the cast as x86-64 makes it (INT64_MIN out of range).
    let whole = cast_i64(x);
    if x == whole as f64 {
        return integral(whole, trailing);
    }
    num(x, 14 - magnitude(x.abs(), x.abs().log10()))
}

/// `String::num_real(float, trailing)`: a real_t component of an ordinary (single-precision)
/// build. The magnitude is taken in single precision (`log10` of a float), the digits from the
/// value widened to a double.
fn num_real_f32(x: f32, trailing: bool) -> String {
    if x.is_nan() || x.is_infinite() {
        return non_finite(f64::from(x));
    }
    let whole = cast_i64(f64::from(x));
    if x == whole as f32 {
        return integral(whole, trailing);
    }
    num(
        f64::from(x),
        6 - magnitude(f64::from(x.abs()), f64::from(x.abs().log10())),
    )
}

/// An integral value's text; -0.0 has come through the cast as 0.
fn integral(whole: i64, trailing: bool) -> String {
    if trailing {
        format!("{whole}.0")
    } else {
        whole.to_string()
    }
}

/// How many decimals fewer than the default a number of `abs` takes: `floor(log10(abs))` for
/// numbers above 10, given the logarithm at the width the engine takes it.
fn magnitude(abs: f64, log10: f64) -> i32 {
    if abs > 10.0 { log10.floor() as i32 } else { 0 }
}

fn non_finite(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x < 0.0 {
        "-inf".into()
    } else {
        "inf".into()
    }
}

/// `String::num(p_num, decimals)` for a finite number: `%.{decimals}lf` (`%lf`, six decimals, when
/// `decimals` is negative), then trailing zeros removed, keeping one digit after the point.
fn num(x: f64, decimals: i32) -> String {
    let decimals = usize::try_from(decimals).unwrap_or(6);
    let mut s = format!("{x:.decimals$}");
    if s.contains('.') {
        let kept = s.trim_end_matches('0').len();
        s.truncate(kept);
        if s.ends_with('.') {
            s.push('0');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Array, Dictionary, NodePath, Signal};

    fn f32s(v: &[f32]) -> Reals {
        v.iter().copied().collect()
    }

    /// What the codec cannot write as the engine would: the engines' texts themselves are held by
    /// `tests/engine_rules.rs` (the corpus's `decode/stringify/*`).
    #[test]
    fn values_without_a_text_are_refused() {
        use Variant as V;
        // An object's text names the id the engine gave it.
        assert!(stringify(&V::object(Object::Id(5))).is_err());
        // A value built by hand with too few components is refused, not read past its end.
        for v in [
            V::Vector2(f32s(&[1.0])),
            V::Vector3(f32s(&[1.0, 2.0])),
            V::Quaternion(f32s(&[1.0])),
            V::Aabb(f32s(&[1.0])),
            V::Basis(f32s(&[1.0; 3])),
            V::Transform3D(f32s(&[1.0; 9])),
            V::Projection(f32s(&[1.0; 4])),
            V::Rect2i([1, 2].into_iter().collect()),
            V::Array(Array::new(vec![V::Plane(f32s(&[]))])),
        ] {
            assert_eq!(stringify(&v), Err(WRONG_SIZE), "{v:?}");
        }
    }

    /// A null object's text: `Variant::stringify`'s OBJECT case when it holds no object gives
    /// `<Object#null>` (core/variant/variant.cpp). The corpus's null objects decode as Nil
    /// (`<null>`); an object id 0 decodes to this one.
    #[test]
    fn a_null_object_is_written_as_godot_s_source_writes_it() {
        assert_eq!(
            stringify(&Variant::object(Object::Null)).unwrap(),
            "<Object#null>"
        );
    }

    #[test]
    fn booleans_as_godot_4_6_makes_them() {
        use Variant as V;
        let empty_path = |absolute| {
            V::node_path(NodePath {
                names: vec![],
                subnames: vec![],
                absolute,
            })
        };
        let path_a = V::node_path(NodePath {
            names: vec!["a".into()],
            subnames: vec![],
            absolute: false,
        });
        // `booleanize` is `!is_zero()` (core/variant/variant.cpp): each type's zero is its
        // default-constructed value under exact `==`, so the matrices' and Quaternion's is the
        // identity, Color's opaque black, a container's or path's being empty. Godot 4.6.3 gave
        // the same (`if v:`); the engine's records through a bool property are the corpus's
        // `decode/objects/stored_text_local_from_*`, which the corpus gate holds the codec to.
        let cases = [
            (V::Float(-0.0), false),
            (V::Float(f64::NAN), true),
            (V::String("false".into()), true),
            (V::Vector2(f32s(&[-0.0, 0.0])), false),
            (V::Vector2(f32s(&[f32::NAN, 0.0])), true),
            (V::Rect2(f32s(&[0.0, 0.0, 0.0, 1.0])), true),
            (V::Transform2D(f32s(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0])), false),
            (V::Transform2D(f32s(&[0.0; 6])), true),
            (V::Quaternion(f32s(&[0.0, 0.0, 0.0, 1.0])), false),
            (V::Quaternion(f32s(&[0.0; 4])), true),
            (V::Basis(f32s(&[0.0; 9])), true),
            (V::Plane(f32s(&[0.0, 0.0, 0.0, 1.0])), true),
            (V::Color([0.0, 0.0, 0.0, 1.0]), false),
            (V::Color([0.0; 4]), true),
            (V::StringName("".into()), false),
            (V::Rid(0), false),
            (V::object(Object::Null), false),
            (V::Callable, false),
            (V::Array(Array::new(vec![V::Nil])), true),
            (V::PackedFloat64Array(vec![0.0]), true),
            (V::PackedVector4Array(f32s(&[])), false),
            (V::Nil, false),
            (V::Bool(false), false),
            (V::Bool(true), true),
            (V::Int(0), false),
            (V::Int(-1), true),
            (V::Float(1e-300), true),
            (V::String("".into()), false),
            (V::StringName("a".into()), true),
            (empty_path(false), false),
            (path_a.clone(), true),
            (V::Rect2(f32s(&[0.0; 4])), false),
            (V::Vector2i([0, 1].into_iter().collect()), true),
            (V::Vector2i([0, 0].into_iter().collect()), false),
            (V::Aabb(f32s(&[0.0; 6])), false),
            (V::Plane(f32s(&[0.0; 4])), false),
            (V::Vector4(f32s(&[0.0, 0.0, 0.0, 1.0])), true),
            (
                V::Transform3D(f32s(&[
                    1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                ])),
                false,
            ),
            (
                V::Transform3D(f32s(&[
                    1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0,
                ])),
                true,
            ),
            (
                V::Basis(f32s(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])),
                false,
            ),
            (
                V::Projection(f32s(&[
                    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
                ])),
                false,
            ),
            (V::Projection(f32s(&[0.0; 16])), true),
            (V::Color([1.0, 1.0, 1.0, 0.0]), true),
            (V::Rid(0), false),
            (V::object(Object::Id(5)), true),
            (
                V::Signal(Box::new(Signal {
                    name: String::new(),
                    object_id: 0,
                })),
                false,
            ),
            (
                V::Signal(Box::new(Signal {
                    name: String::new(),
                    object_id: 1 << 40,
                })),
                true,
            ),
            (
                V::Signal(Box::new(Signal {
                    name: "changed".into(),
                    object_id: 0,
                })),
                true,
            ),
            (V::Rid(5), true),
            (V::Dictionary(Dictionary::new(vec![])), false),
            (
                V::Dictionary(Dictionary::new(vec![(V::Int(0), V::Int(0))])),
                true,
            ),
            (V::Array(Array::new(vec![])), false),
            (V::PackedByteArray(vec![]), false),
            (V::PackedByteArray(vec![0]), true),
            (V::PackedInt32Array(vec![]), false),
            (V::PackedInt64Array(vec![]), false),
            (V::PackedFloat32Array(vec![]), false),
            (V::PackedStringArray(vec![]), false),
            (V::PackedStringArray(vec!["".into()]), true),
            (V::PackedVector2Array(f32s(&[])), false),
            (V::PackedVector3Array(f32s(&[])), false),
            (V::PackedColorArray(vec![]), false),
            (V::PackedVector4Array(f32s(&[0.0; 4])), true),
        ];
        for (v, want) in cases {
            assert_eq!(booleanize(&v), want, "{v:?}");
        }
        // Double-precision components (Godot 4.6.3 built with `precision=double`, the corpus's
        // `decode/objects/stored_text_local_from_*`).
        let f64s = |v: &[f64]| -> Reals { v.iter().copied().collect() };
        for (v, want) in [
            (V::Vector2(f64s(&[-0.0, 0.0])), false),
            (V::Quaternion(f64s(&[0.0, 0.0, 0.0, 1.0])), false),
            (V::Quaternion(f64s(&[0.0; 4])), true),
            (V::Transform2D(f64s(&[0.0; 6])), true),
        ] {
            assert_eq!(booleanize(&v), want, "{v:?}");
        }
    }
}
