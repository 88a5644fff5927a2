//! What a typed Array does with each element it is given while decoding.
//!
//! The engine fills a decoded typed Array with `push_back`, which validates through
//! `ContainerTypeValidate::validate`
//! (`core/variant/container_type_validate.h`): a matching element is kept, a few are converted
//! (StringName and String into each other, int into float), null is allowed
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
        _ => return None,
    })
}
