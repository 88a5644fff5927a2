//! What a typed container does with each element it is given while decoding.
//!
//! The engine fills a decoded typed Array with `push_back` and a typed Dictionary with
//! `d[key] = value`, and both check the element (for a Dictionary, the key only: the value is
//! assigned through the returned reference unchecked) with `ContainerTypeValidate::validate`
//! (`core/variant/container_type_validate.h`). In Godot 4.6 that keeps an element of the
//! container's type, lets null into object containers, converts an element whose type
//! `Variant::can_convert_strict` allows by constructing the container's type from it
//! (`Variant::construct`, which casts through `Variant`'s conversion operators), and drops anything
//! else with an error print while the decode still succeeds.
//!
//! [`CONVERSIONS`] states which element types each type converts from, as the engine showed them;
//! [`admit`] applies it. Every conversion was checked against Godot 4.6.3; the inputs that show
//! each rule are corpus cases (`decode/rules/*`), whose records `tests/engine_rules.rs` holds the
//! codec to. A few conversions depend on things the bytes do not carry (the live objects of the
//! engine process) or that were measured only on single-precision builds (the rotation check of
//! Quaternion from Basis, the NaN payloads of Basis from Quaternion): for those [`admit`] answers
//! [`Unmodelled`] rather than guess, and the decoder reports it as an error.

use crate::convert::{
    self, BLACK, Real, basis_from_quaternion, cast_i32, cast_i64, color_from_text, color_hex,
};
use crate::profile::Profile;
use crate::rotation;
use crate::stringify::stringify;
use crate::to_float::string_to_float;
use crate::types::VariantType;
use crate::value::{
    Array, Components, ContainerType, ENCODED_OBJECT_AS_ID, I32s, Object, Reals, Variant,
};

use VariantType as T;

/// For each element type, the other types the engine converts into it (Godot 4.6.3: a typed
/// container of the first type given an element of one of these keeps the element converted; any
/// other type is dropped). Null goes into object containers unconverted.
pub const CONVERSIONS: &[(VariantType, &[VariantType])] = &[
    (T::Bool, &[T::Int, T::Float]),
    (T::Int, &[T::Bool, T::Float]),
    (T::Float, &[T::Bool, T::Int]),
    (T::String, &[T::StringName, T::NodePath]),
    (T::Vector2, &[T::Vector2i]),
    (T::Vector2i, &[T::Vector2]),
    (T::Rect2, &[T::Rect2i]),
    (T::Rect2i, &[T::Rect2]),
    (T::Vector3, &[T::Vector3i]),
    (T::Vector3i, &[T::Vector3]),
    (T::Transform2D, &[T::Transform3D]),
    (T::Vector4, &[T::Vector4i]),
    (T::Vector4i, &[T::Vector4]),
    (T::Quaternion, &[T::Basis]),
    (T::Basis, &[T::Quaternion]),
    (
        T::Transform3D,
        &[T::Transform2D, T::Quaternion, T::Basis, T::Projection],
    ),
    (T::Projection, &[T::Transform3D]),
    (T::Color, &[T::String, T::Int]),
    (T::StringName, &[T::String]),
    (T::NodePath, &[T::String]),
    (T::Rid, &[T::Object]),
    (T::Object, &[T::Nil]),
    (
        T::Array,
        &[
            T::PackedByteArray,
            T::PackedInt32Array,
            T::PackedInt64Array,
            T::PackedFloat32Array,
            T::PackedFloat64Array,
            T::PackedStringArray,
            T::PackedVector2Array,
            T::PackedVector3Array,
            T::PackedColorArray,
            T::PackedVector4Array,
        ],
    ),
    (T::PackedByteArray, &[T::Array]),
    (T::PackedInt32Array, &[T::Array]),
    (T::PackedInt64Array, &[T::Array]),
    (T::PackedFloat32Array, &[T::Array]),
    (T::PackedFloat64Array, &[T::Array]),
    (T::PackedStringArray, &[T::Array]),
    (T::PackedVector2Array, &[T::Array]),
    (T::PackedVector3Array, &[T::Array]),
    (T::PackedColorArray, &[T::Array]),
    (T::PackedVector4Array, &[T::Array]),
];

/// Whether the engine converts an element of type `from` into a container of `to` elements.
pub fn converts(from: VariantType, to: VariantType) -> bool {
    CONVERSIONS
        .iter()
        .any(|(t, froms)| *t == to && froms.contains(&from))
}

/// An element the engine keeps, converted in a way this codec does not reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmodelled {
    /// The element's type.
    pub from: VariantType,
    /// The container's element type.
    pub to: VariantType,
    /// What the engine's conversion depends on.
    pub why: &'static str,
}

/// What a typed container does with an element.
#[derive(Clone, Debug, PartialEq)]
pub enum Admitted {
    /// The container stores this value (the element, converted where the types differ).
    Kept(Variant),
    /// The container drops the element, given back as it was read.
    Dropped(Variant),
}

impl Admitted {
    /// The value stored, if any.
    pub fn kept(self) -> Option<Variant> {
        match self {
            Admitted::Kept(v) => Some(v),
            Admitted::Dropped(_) => None,
        }
    }
}

/// The element as the container stores it, or dropped; [`Unmodelled`] if the engine keeps it
/// converted in a way the codec does not reproduce.
pub fn admit(t: &ContainerType, v: Variant, profile: Profile) -> Result<Admitted, Unmodelled> {
    let to = match t {
        ContainerType::None => return Ok(Admitted::Kept(v)),
        ContainerType::Builtin(ty) => *ty,
        ContainerType::ClassName(_) | ContainerType::Script(_) => T::Object,
    };
    if let Variant::Object(o) = &v
        && matches!(**o, Object::Id(_))
        && !holds_object_ids(t)
    {
        return Ok(Admitted::Dropped(v));
    }
    let from = v.get_type();
    if from == to || (to == T::Object && from == T::Nil) {
        return Ok(Admitted::Kept(v));
    }
    if !converts(from, to) {
        return Ok(Admitted::Dropped(v));
    }
    convert(to, v, profile.double_reals)
        .map(Admitted::Kept)
        .map_err(|why| Unmodelled { from, to, why })
}

/// Whether a container of this type keeps an object id, which decodes to an `EncodedObjectAsID`
/// placeholder (a `RefCounted`): only when it names no class or that class or one of its
/// ancestors; never when it names a script, which the placeholder lacks
/// (`ContainerTypeValidate::validate_object`, `core/variant/container_type_validate.h`: "which
/// does not inherit from").
fn holds_object_ids(t: &ContainerType) -> bool {
    match t {
        ContainerType::ClassName(c) => {
            matches!(c.as_str(), ENCODED_OBJECT_AS_ID | "RefCounted" | "Object")
        }
        ContainerType::Script(_) => false,
        _ => true,
    }
}

/// Components placed by a conversion between math types: one of the source's, or a constant.
#[derive(Clone, Copy)]
enum Part {
    At(usize),
    Zero,
    One,
}

use Part::{At, One, Zero};

const WRONG_SIZE: &str = "the value has the wrong number of components";

/// The components `parts` names, at the source's width.
fn pick(r: &Reals, len: usize, parts: &[Part]) -> Result<Reals, &'static str> {
    fn take<R: Copy>(v: &[R], parts: &[Part], zero: R, one: R) -> Vec<R> {
        parts
            .iter()
            .map(|p| match *p {
                At(i) => v[i],
                Zero => zero,
                One => one,
            })
            .collect()
    }
    if r.len() != len {
        return Err(WRONG_SIZE);
    }
    Ok(match r.components() {
        Components::F32(v) => take(v, parts, 0.0, 1.0).into(),
        Components::F64(v) => take(v, parts, 0.0, 1.0).into(),
    })
}

/// `Basis(Quaternion)` at the quaternion's width, followed by `tail` zero components (an origin).
fn basis_of(q: &Reals, tail: usize) -> Result<Reals, &'static str> {
    fn run<R: Real>(v: &[R], tail: usize, zero: R) -> Vec<R> {
        let b = basis_from_quaternion([v[0], v[1], v[2], v[3]]);
        b.into_iter()
            .chain(std::iter::repeat_n(zero, tail))
            .collect()
    }
    if q.len() != 4 {
        return Err(WRONG_SIZE);
    }
    Ok(match q.components() {
        // Where NaNs of two payloads meet, which one an operation passes on follows the operand
        // order the engine's compiler chose (x86 keeps the first operand's), as measured.
        Components::F32(v) => match rotation::basis_of_nan_quaternion([v[0], v[1], v[2], v[3]]) {
            Some(b) => b
                .into_iter()
                .chain(std::iter::repeat_n(0.0, tail))
                .collect(),
            None => run(v, tail, 0.0).into(),
        },
        Components::F64(v) => {
            // With at most one payload (quieted) every result is that NaN or the default one,
            // as computed here; the order of a double-precision build was not measured.
            let payloads: Vec<u64> = v
                .iter()
                .filter(|x| x.is_nan())
                .map(|x| x.to_bits() | 1 << 51)
                .collect();
            if payloads.iter().any(|p| *p != payloads[0]) {
                return Err(
                    "which of two NaN payloads the engine's compiled operand order passes on",
                );
            }
            run(v, tail, 0.0).into()
        }
    })
}

/// Integer components as real_t: `(real_t)i`, rounded to nearest.
fn ints_to_reals(v: &[i32], wide: bool) -> Reals {
    if wide {
        v.iter().map(|&i| f64::from(i)).collect()
    } else {
        v.iter().map(|&i| i as f32).collect()
    }
}

/// Real components as `int32_t` casts (`Vector2i(Vector2)` and the like).
fn reals_to_ints(r: &Reals) -> I32s {
    match r.components() {
        Components::F32(v) => v.iter().map(|&x| cast_i32(f64::from(x))).collect(),
        Components::F64(v) => v.iter().map(|&x| cast_i32(x)).collect(),
    }
}

/// `Variant::construct(to, v)` for a pair [`CONVERSIONS`] lists.
fn convert(to: VariantType, v: Variant, wide: bool) -> Result<Variant, &'static str> {
    use Variant as V;
    Ok(match (to, v) {
        // An int element of a float array is converted to the double nearest to it (Godot 4.6
        // keeps 33554435 exact: no narrowing through a C++ float).
        (T::Float, V::Int(i)) => V::Float(i as f64),
        (T::Float, V::Bool(b)) => V::Float(if b { 1.0 } else { 0.0 }),
        (T::Int, V::Bool(b)) => V::Int(b as i64),
        (T::Bool, V::Int(i)) => V::Bool(i != 0),
        (T::Bool, V::Float(f)) => V::Bool(f != 0.0),
        // C++ truncation; NaN and out-of-range values become INT64_MIN on x86-64.
        (T::Int, V::Float(f)) => V::Int(cast_i64(f)),
        (T::String, V::StringName(s)) => V::String(s),
        (T::String, V::NodePath(np)) => V::String(convert::node_path_text(&np).into()),
        (T::StringName, V::String(s)) => V::StringName(s),
        (T::NodePath, V::String(s)) => V::node_path(convert::parse_node_path(&s.to_string_lossy())),
        (T::Color, V::String(s)) => V::Color(color_from_text(&s.to_string_lossy())),
        // `Color::hex(operator int())`: the int's low 32 bits as RRGGBBAA.
        (T::Color, V::Int(i)) => V::Color(color_hex(i as u32)),
        (T::Vector2i, V::Vector2(r)) => V::Vector2i(reals_to_ints(&r)),
        (T::Rect2i, V::Rect2(r)) => V::Rect2i(reals_to_ints(&r)),
        (T::Vector3i, V::Vector3(r)) => V::Vector3i(reals_to_ints(&r)),
        (T::Vector4i, V::Vector4(r)) => V::Vector4i(reals_to_ints(&r)),
        (T::Vector2, V::Vector2i(i)) => V::Vector2(ints_to_reals(&i, wide)),
        (T::Rect2, V::Rect2i(i)) => V::Rect2(ints_to_reals(&i, wide)),
        (T::Vector3, V::Vector3i(i)) => V::Vector3(ints_to_reals(&i, wide)),
        (T::Vector4, V::Vector4i(i)) => V::Vector4(ints_to_reals(&i, wide)),
        // Wire orders: Transform2D columns (x, y, origin), Basis and Transform3D rows then origin,
        // Projection columns. Transform2D keeps the 2D part of the basis and origin.
        (T::Transform2D, V::Transform3D(r)) => {
            V::Transform2D(pick(&r, 12, &[At(0), At(3), At(1), At(4), At(9), At(10)])?)
        }
        (T::Transform3D, V::Transform2D(r)) => V::Transform3D(pick(
            &r,
            6,
            &[
                At(0),
                At(2),
                Zero,
                At(1),
                At(3),
                Zero,
                Zero,
                Zero,
                One,
                At(4),
                At(5),
                Zero,
            ],
        )?),
        (T::Transform3D, V::Basis(r)) => V::Transform3D(pick(
            &r,
            9,
            &[
                At(0),
                At(1),
                At(2),
                At(3),
                At(4),
                At(5),
                At(6),
                At(7),
                At(8),
                Zero,
                Zero,
                Zero,
            ],
        )?),
        (T::Transform3D, V::Projection(r)) => V::Transform3D(pick(
            &r,
            16,
            &[
                At(0),
                At(4),
                At(8),
                At(1),
                At(5),
                At(9),
                At(2),
                At(6),
                At(10),
                At(12),
                At(13),
                At(14),
            ],
        )?),
        (T::Projection, V::Transform3D(r)) => V::Projection(pick(
            &r,
            12,
            &[
                At(0),
                At(3),
                At(6),
                Zero,
                At(1),
                At(4),
                At(7),
                Zero,
                At(2),
                At(5),
                At(8),
                Zero,
                At(9),
                At(10),
                At(11),
                One,
            ],
        )?),
        (T::Basis, V::Quaternion(q)) => V::Basis(basis_of(&q, 0)?),
        (T::Transform3D, V::Quaternion(q)) => V::Transform3D(basis_of(&q, 3)?),
        // `Basis::get_quaternion` first checks `is_rotation()` with approximate comparisons and
        // gives the identity (with an error print) when it fails; measured in single precision.
        (T::Quaternion, V::Basis(r)) => match r.components() {
            Components::F32(v) if v.len() == 9 => V::Quaternion(
                rotation::quaternion_from_basis(std::array::from_fn(|i| v[i]))
                    .into_iter()
                    .collect(),
            ),
            Components::F32(_) => return Err(WRONG_SIZE),
            Components::F64(_) => {
                return Err(
                    "Basis::get_quaternion's approximate rotation check in double precision",
                );
            }
        },
        // A null object and an object id's placeholder (`EncodedObjectAsID`, which has no
        // `get_rid`) both give `RID()`; a full object answers its own `get_rid()`.
        (T::Rid, V::Object(o)) => match *o {
            Object::Null | Object::Id(_) => V::Rid(0),
            Object::Full { .. } => return Err("the get_rid() of the object the engine made"),
        },
        (T::Array, v) => V::Array(Array::new(packed_items(v)?)),
        (to, V::Array(a)) => packed_from(to, a.items(), wide)?,
        _ => return Err("no conversion is known for this pair"),
    })
}

/// `Array(Packed*Array)`: one element per item, real components at their width.
fn packed_items(v: Variant) -> Result<Vec<Variant>, &'static str> {
    use Variant as V;
    fn chunks(r: &Reals, n: usize, ty: VariantType) -> Result<Vec<Variant>, &'static str> {
        if !r.len().is_multiple_of(n) {
            return Err(WRONG_SIZE);
        }
        let one = |c: Reals| Variant::from_reals(ty, c).ok_or(WRONG_SIZE);
        match r.components() {
            Components::F32(v) => v.chunks(n).map(|c| one(c.into())).collect(),
            Components::F64(v) => v.chunks(n).map(|c| one(c.into())).collect(),
        }
    }
    Ok(match v {
        V::PackedByteArray(b) => b.into_iter().map(|x| V::Int(x.into())).collect(),
        V::PackedInt32Array(v) => v.into_iter().map(|x| V::Int(x.into())).collect(),
        V::PackedInt64Array(v) => v.into_iter().map(V::Int).collect(),
        // f32 to double as the engine widens it (a signalling NaN comes out quiet).
        V::PackedFloat32Array(v) => v.into_iter().map(|x| V::Float(f64::from(x))).collect(),
        V::PackedFloat64Array(v) => v.into_iter().map(V::Float).collect(),
        V::PackedStringArray(v) => v.into_iter().map(V::String).collect(),
        V::PackedVector2Array(r) => chunks(&r, 2, T::Vector2)?,
        V::PackedVector3Array(r) => chunks(&r, 3, T::Vector3)?,
        V::PackedVector4Array(r) => chunks(&r, 4, T::Vector4)?,
        V::PackedColorArray(v) => v.into_iter().map(V::Color).collect(),
        _ => return Err("no conversion is known for this pair"),
    })
}

/// `Packed*Array(Array)`: each element through the `Variant` conversion operator of the packed
/// array's element type (`_convert_array_from_variant`, `core/variant/variant.cpp`).
fn packed_from(to: VariantType, items: &[Variant], wide: bool) -> Result<Variant, &'static str> {
    use Variant as V;
    let ints = |cast: fn(f64) -> i64| -> Result<Vec<i64>, &'static str> {
        items.iter().map(|v| to_int(v, cast)).collect()
    };
    let narrow = |f: f64| i64::from(cast_i32(f));
    Ok(match to {
        T::PackedInt64Array => V::PackedInt64Array(ints(cast_i64)?),
        // The 32- and 8-bit operators cast a float with `cvttsd2si` to 32 bits, and keep the low
        // bits of an int.
        T::PackedInt32Array => {
            V::PackedInt32Array(ints(narrow)?.into_iter().map(|i| i as i32).collect())
        }
        T::PackedByteArray => {
            V::PackedByteArray(ints(narrow)?.into_iter().map(|i| i as u8).collect())
        }
        T::PackedFloat64Array => V::PackedFloat64Array(
            items
                .iter()
                .map(|v| to_float(v, |i| i as f64, |f| f))
                .collect(),
        ),
        T::PackedFloat32Array => V::PackedFloat32Array(
            items
                .iter()
                .map(|v| to_float(v, |i| i as f32, |f| f as f32))
                .collect(),
        ),
        T::PackedStringArray => V::PackedStringArray(
            items
                .iter()
                .map(|v| stringify(v).map(Into::into))
                .collect::<Result<_, _>>()?,
        ),
        T::PackedVector2Array => V::PackedVector2Array(to_vectors(items, 2, wide)?),
        T::PackedVector3Array => V::PackedVector3Array(to_vectors(items, 3, wide)?),
        T::PackedVector4Array => V::PackedVector4Array(to_vectors(items, 4, wide)?),
        T::PackedColorArray => V::PackedColorArray(
            items
                .iter()
                .map(|v| match v {
                    V::Color(c) => *c,
                    V::String(s) => color_from_text(&s.to_string_lossy()),
                    V::Int(i) => color_hex(*i as u32),
                    _ => BLACK,
                })
                .collect(),
        ),
        _ => return Err("no conversion is known for this pair"),
    })
}

/// `Variant::operator int64_t()` and its narrower kin: `cast` is the float cast of the target
/// width; a String goes through `String::to_int`; types without an int value give 0.
fn to_int(v: &Variant, cast: fn(f64) -> i64) -> Result<i64, &'static str> {
    Ok(match v {
        Variant::Bool(b) => *b as i64,
        Variant::Int(i) => *i,
        Variant::Float(f) => cast(*f),
        Variant::String(s) => convert::string_to_int(&s.to_string_lossy()),
        _ => 0,
    })
}

/// `Variant::operator float()` / `operator double()`: a String through `String::to_float`
/// (a double, rounded to a float for the narrower operator); types without a number give 0.
fn to_float<F: Default>(v: &Variant, from_int: fn(i64) -> F, from_float: fn(f64) -> F) -> F {
    match v {
        Variant::Bool(b) => from_int(*b as i64),
        Variant::Int(i) => from_int(*i),
        Variant::Float(f) => from_float(*f),
        Variant::String(s) => from_float(string_to_float(&s.to_string_lossy())),
        _ => F::default(),
    }
}

/// `Variant::operator Vector2/3/4()` over `items`, flattened: vector elements of any size and
/// either kind are cut or padded with zeros, anything else is the zero vector.
fn to_vectors(items: &[Variant], n: usize, wide: bool) -> Result<Reals, &'static str> {
    let mut f32s: Vec<f32> = Vec::with_capacity(items.len() * n);
    let mut f64s: Vec<f64> = Vec::new();
    for v in items {
        let start = f32s.len().max(f64s.len());
        match v {
            Variant::Vector2(r) | Variant::Vector3(r) | Variant::Vector4(r) => {
                match r.components() {
                    Components::F32(c) if !wide => f32s.extend(c.iter().take(n)),
                    Components::F64(c) if wide => f64s.extend(c.iter().take(n)),
                    _ => return Err(WRONG_SIZE),
                }
            }
            Variant::Vector2i(i) | Variant::Vector3i(i) | Variant::Vector4i(i) => {
                if wide {
                    f64s.extend(i.iter().take(n).map(|&x| f64::from(x)));
                } else {
                    f32s.extend(i.iter().take(n).map(|&x| x as f32));
                }
            }
            _ => {}
        }
        let end = start + n;
        if wide {
            f64s.resize(end, 0.0);
        } else {
            f32s.resize(end, 0.0);
        }
    }
    Ok(if wide { f64s.into() } else { f32s.into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admit46(t: VariantType, v: Variant) -> Option<Variant> {
        admit(&ContainerType::Builtin(t), v, "4.6".parse().unwrap())
            .unwrap()
            .kept()
    }

    #[test]
    fn strict_conversions_as_godot_4_6_makes_them() {
        assert_eq!(
            admit46(T::Float, Variant::Int(33554435)),
            Some(Variant::Float(33554435.0))
        );
        assert_eq!(admit46(T::Int, Variant::Bool(true)), Some(Variant::Int(1)));
        assert_eq!(
            admit46(T::Int, Variant::Float(-1.5)),
            Some(Variant::Int(-1))
        );
        assert_eq!(
            admit46(T::Int, Variant::Float(f64::NAN)),
            Some(Variant::Int(i64::MIN))
        );
        assert_eq!(
            admit46(T::Int, Variant::Float(-9.5e30)),
            Some(Variant::Int(i64::MIN))
        );
        assert_eq!(
            admit46(T::Bool, Variant::Float(f64::NAN)),
            Some(Variant::Bool(true))
        );
        assert_eq!(
            admit46(T::Bool, Variant::Float(-0.0)),
            Some(Variant::Bool(false))
        );
        assert_eq!(
            admit46(T::Float, Variant::Bool(true)),
            Some(Variant::Float(1.0))
        );
        assert_eq!(admit46(T::Int, Variant::String("1".into())), None);
        assert_eq!(admit46(T::Int, Variant::Nil), None);
        assert_eq!(admit46(T::Color, Variant::StringName("red".into())), None);
    }

    /// A value of each type that some conversion starts from.
    fn sample(ty: VariantType) -> Variant {
        use Variant as V;
        let reals = |n: usize| Reals::from((1..=n).map(|i| i as f32).collect::<Vec<f32>>());
        match ty {
            T::Bool => V::Bool(true),
            T::Int => V::Int(-1),
            T::Float => V::Float(1.5),
            T::String => V::String("red".into()),
            T::StringName => V::StringName("n".into()),
            T::NodePath => V::node_path(convert::parse_node_path("/a:b")),
            T::Vector2i => V::Vector2i(I32s::from_slice(&[1, -2])),
            T::Rect2i => V::Rect2i(I32s::from_slice(&[1, -2, 3, 4])),
            T::Vector3i => V::Vector3i(I32s::from_slice(&[1, -2, 3])),
            T::Vector4i => V::Vector4i(I32s::from_slice(&[1, -2, 3, 4])),
            T::Object => V::Object(Box::new(Object::Null)),
            T::Array => V::Array(Array::new(vec![V::Int(1), V::String("x".into())])),
            T::PackedByteArray => V::PackedByteArray(vec![1]),
            T::PackedInt32Array => V::PackedInt32Array(vec![1]),
            T::PackedInt64Array => V::PackedInt64Array(vec![1]),
            T::PackedFloat32Array => V::PackedFloat32Array(vec![1.0]),
            T::PackedFloat64Array => V::PackedFloat64Array(vec![1.0]),
            T::PackedStringArray => V::PackedStringArray(vec!["x".into()]),
            T::PackedVector2Array => V::PackedVector2Array(reals(2)),
            T::PackedVector3Array => V::PackedVector3Array(reals(3)),
            T::PackedVector4Array => V::PackedVector4Array(reals(4)),
            T::PackedColorArray => V::PackedColorArray(vec![[1.0; 4]]),
            ty => V::from_reals(ty, reals(ty.info().fields.len())).expect("a math type"),
        }
    }

    #[test]
    fn every_listed_pair_has_a_conversion() {
        // Each pair of the table, with a value of the source type, converts or is declared
        // unmodelled; none falls through to "no conversion is known".
        for (to, froms) in CONVERSIONS {
            for from in *froms {
                if *from == T::Nil {
                    continue;
                }
                let v = sample(*from);
                assert_eq!(v.get_type(), *from);
                let r = convert(*to, v, false);
                assert_ne!(
                    r.as_ref().err(),
                    Some(&"no conversion is known for this pair"),
                    "{from:?} into {to:?}"
                );
                if let Ok(v) = r {
                    assert_eq!(v.get_type(), *to, "{from:?} into {to:?}");
                }
            }
        }
    }

    /// `admit` under the profile of a double-precision 4.6 build, whose real_t is double.
    fn admit46_double(t: VariantType, v: Variant) -> Option<Variant> {
        admit(&ContainerType::Builtin(t), v, "4.6-double".parse().unwrap())
            .unwrap()
            .kept()
    }

    #[test]
    fn one_nan_payload_comes_out_quieted_at_double_width() {
        // Godot 4.6.3 turns the quaternion (quiet NaN 1, signalling NaN 1, 1, 2) into a Basis whose
        // nine components are all 0x7fc00001, the one payload quieted (corpus
        // decode/rules/basis/from_quaternion_one_nan_payload_quiet_and_signalling). A double build
        // runs the same `Basis::set_quaternion` on doubles, and x86-64 arithmetic passes a NaN
        // operand's payload on, quieted, at either width: the two NaNs are one payload, not two.
        let quiet = f64::from_bits(0x7ff8_0000_0000_0001);
        let signalling = f64::from_bits(0x7ff0_0000_0000_0001);
        let q = Variant::Quaternion(vec![quiet, signalling, 1.0, 2.0].into());
        let Some(Variant::Basis(b)) = admit46_double(T::Basis, q) else {
            panic!("the quaternion is converted");
        };
        let Components::F64(c) = b.components() else {
            panic!("a double build's Basis holds doubles");
        };
        assert_eq!(c.len(), 9);
        assert!(c.iter().all(|x| x.to_bits() == quiet.to_bits()), "{c:?}");
    }

    #[test]
    fn a_hand_built_basis_of_the_wrong_size_is_refused_not_read_past_its_end() {
        // A decoded Basis always has nine components; one built by hand may not.
        let short = Variant::Basis(vec![1.0f32; 8].into());
        let t = ContainerType::Builtin(T::Quaternion);
        assert!(admit(&t, short, "4.6".parse().unwrap()).is_err());
    }

    #[test]
    fn vectors_into_a_packed_array_at_double_width() {
        // Godot 4.6.3's answer to decode/rules/packed_vector3/from_vectors (corpus): a Vector2 is
        // padded with 0, a Vector4i cut to three components, a String is the zero vector. A double
        // build runs the same `Variant::operator Vector3()` (core/variant/variant.cpp) with real_t
        // double, and every value here is exact at both widths.
        let items = vec![
            Variant::Vector2(vec![1.5f64, 2.5].into()),
            Variant::Vector4i(I32s::from_slice(&[1, 2, 3, 4])),
            Variant::String("x".into()),
        ];
        assert_eq!(
            admit46_double(T::PackedVector3Array, Variant::Array(Array::new(items))),
            Some(Variant::PackedVector3Array(
                vec![1.5f64, 2.5, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0].into()
            ))
        );
    }
}
