//! What a typed Array does with each element it is given while decoding.
//!
//! The engine fills a decoded typed Array with `push_back`, which validates through
//! `ContainerTypeValidate::validate`
//! (`core/variant/container_type_validate.h`): a matching element is kept, a few are converted
//! (StringName and String into each other, bool, int and float into each other), null is allowed
//! where objects are, and anything else is dropped with an error print while the decode still
//! succeeds. A typed Dictionary applies the same rule to keys only (`d[key] = value` checks the key;
//! the value is assigned through the returned reference unchecked).

use crate::types::VariantType;
use crate::value::{ContainerType, Variant};

/// The element as the container stores it, or `None` if the container drops it.
pub fn admit(t: &ContainerType, v: Variant) -> Option<Variant> {
    let ty = match t {
        ContainerType::None => return Some(v),
        ContainerType::Builtin(ty) => *ty,
        ContainerType::ClassName(_) | ContainerType::Script(_) => VariantType::Object,
    };
    Some(match (ty, v) {
        (ty, v) if v.get_type() == ty => v,
        (VariantType::Object, Variant::Nil) => Variant::Nil,
        (VariantType::String, Variant::StringName(s)) => Variant::String(s),
        (VariantType::StringName, Variant::String(s)) => Variant::StringName(s),
        // An int element of a float array is converted to the double nearest to it (Godot 4.6
        // keeps 33554435 exact: no narrowing through a C++ float).
        (VariantType::Float, Variant::Int(i)) => Variant::Float(i as f64),
        // `Variant::can_convert_strict` also lets bool into int and float, and float into int
        // (C++ truncation; NaN and out-of-range values become INT64_MIN on the engines' x86-64
        // builds). Checked against Godot 4.6.3; other strict conversions (e.g. Vector2i into
        // Vector2) exist in the engine but are not modelled: such elements are dropped here.
        (VariantType::Float, Variant::Bool(b)) => Variant::Float(if b { 1.0 } else { 0.0 }),
        (VariantType::Int, Variant::Bool(b)) => Variant::Int(b as i64),
        (VariantType::Bool, Variant::Int(i)) => Variant::Bool(i != 0),
        (VariantType::Bool, Variant::Float(f)) => Variant::Bool(f != 0.0),
        (VariantType::Int, Variant::Float(f)) => Variant::Int(
            if f.is_finite() && f > -9_223_372_036_854_775_809.0 && f < 9_223_372_036_854_775_808.0
            {
                f as i64
            } else {
                i64::MIN
            },
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_conversions_as_godot_4_6_makes_them() {
        let t = |ty| ContainerType::Builtin(ty);
        assert_eq!(
            admit(&t(VariantType::Float), Variant::Int(33554435)),
            Some(Variant::Float(33554435.0))
        );
        assert_eq!(
            admit(&t(VariantType::Int), Variant::Bool(true)),
            Some(Variant::Int(1))
        );
        assert_eq!(
            admit(&t(VariantType::Int), Variant::Float(-1.5)),
            Some(Variant::Int(-1))
        );
        assert_eq!(
            admit(&t(VariantType::Int), Variant::Float(f64::NAN)),
            Some(Variant::Int(i64::MIN))
        );
        assert_eq!(
            admit(&t(VariantType::Int), Variant::Float(-9.5e30)),
            Some(Variant::Int(i64::MIN))
        );
        assert_eq!(
            admit(&t(VariantType::Bool), Variant::Float(f64::NAN)),
            Some(Variant::Bool(true))
        );
        assert_eq!(
            admit(&t(VariantType::Bool), Variant::Float(-0.0)),
            Some(Variant::Bool(false))
        );
        assert_eq!(
            admit(&t(VariantType::Float), Variant::Bool(true)),
            Some(Variant::Float(1.0))
        );
        assert_eq!(
            admit(&t(VariantType::Int), Variant::String("1".into())),
            None
        );
        assert_eq!(admit(&t(VariantType::Int), Variant::Nil), None);
    }
}
