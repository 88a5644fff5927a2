//! What a stored property ends up holding when `set()` gives it a value of another type than its
//! default: the engine calls the property's setter, whose argument has the default's type.
//!
//! Probed on every verified engine with a Resource given each kind of value
//! (`decode/objects/stored_other_type_*` in the corpus). 4.x converts the value with `Variant`'s
//! operator of the argument's type: a String property takes the value's text
//! ([`crate::stringify`]: `resource_name` from 5 is "5", from nil `"<null>"`, from 2.5 "2.5", from
//! `[1]` "[1]"), a bool property whether the value is not its type's zero (`resource_local_to_scene`
//! from "true", 2, 0.5, a path, `[1]` or `Vector2(1.5, 1.5)` is true). 3.x's builds (debug
//! checks on, as every verified 3.x engine has them) call the setter only when
//! `Variant::can_convert_strict` allows the type, and otherwise leave the property as it was: a
//! String property takes a NodePath's text and nothing else, a bool property an int or a float.

use crate::convert::node_path_text;
use crate::profile::Profile;
use crate::stringify::{booleanize, stringify};
use crate::value::Variant;

/// What the setter makes of a value.
#[derive(Debug, PartialEq)]
pub(super) enum Setter {
    /// The property holds this value.
    Set(Variant),
    /// The setter is not called: the property keeps what it held.
    Keep,
    /// What the engine makes of it is not reproduced here (an object's text, which names its
    /// instance id; a property neither String nor bool).
    Unknown,
}

/// What setting `given` on a property whose default is `default` leaves in it, in `profile`'s
/// engines; `given` is of another type than `default`.
pub(super) fn set_as(profile: Profile, default: &Variant, given: &Variant) -> Setter {
    use Variant as V;
    let four = profile.major() >= 4;
    match (default, given) {
        (V::String(_), given) if four => {
            stringify(given).map_or(Setter::Unknown, |t| Setter::Set(V::String(t.into())))
        }
        (V::String(_), V::NodePath(np)) => {
            let unicode = np.names.iter().chain(&np.subnames).all(|t| t.is_unicode());
            if unicode {
                Setter::Set(V::String(node_path_text(np).into()))
            } else {
                Setter::Unknown
            }
        }
        (V::String(_), _) => Setter::Keep,
        (V::Bool(_), given) if four => Setter::Set(V::Bool(booleanize(given))),
        (V::Bool(_), V::Int(i)) => Setter::Set(V::Bool(*i != 0)),
        (V::Bool(_), V::Float(f)) => Setter::Set(V::Bool(*f != 0.0)),
        (V::Bool(_), _) => Setter::Keep,
        _ => Setter::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Array, NodePath, Text};

    fn profile(p: &str) -> Profile {
        p.parse().unwrap()
    }

    /// The engines' answers to the corpus's `decode/objects/stored_other_type_*` cases.
    #[test]
    fn setters_convert_as_the_engines_do() {
        let text = |s: &str| Variant::String(s.into());
        let path = Variant::node_path(NodePath {
            names: vec!["a".into()],
            subnames: vec![],
            absolute: true,
        });
        let array = Variant::Array(Array::new(vec![Variant::Int(1)]));
        let vector = Variant::Vector2(vec![1.5f32, 1.5].into());
        let name = text("");
        let local = Variant::Bool(false);
        let set = Setter::Set;
        for p in ["4.6", "4.6-double"] {
            let p = profile(p);
            let cases = [
                (&name, Variant::Int(5), set(text("5"))),
                (&name, Variant::Nil, set(text("<null>"))),
                (&name, Variant::Bool(true), set(text("true"))),
                (&name, Variant::StringName("sn".into()), set(text("sn"))),
                (&name, path.clone(), set(text("/a"))),
                (&name, Variant::Float(2.5), set(text("2.5"))),
                (&name, array.clone(), set(text("[1]"))),
                (&name, vector.clone(), set(text("(1.5, 1.5)"))),
                (&local, Variant::Int(2), set(Variant::Bool(true))),
                (&local, Variant::Int(0), set(Variant::Bool(false))),
                (&local, Variant::Float(0.5), set(Variant::Bool(true))),
                (&local, text("true"), set(Variant::Bool(true))),
                (&local, Variant::Nil, set(Variant::Bool(false))),
                (&local, path.clone(), set(Variant::Bool(true))),
                (&local, array.clone(), set(Variant::Bool(true))),
                (&local, vector.clone(), set(Variant::Bool(true))),
            ];
            for (default, given, want) in cases {
                assert_eq!(set_as(p, default, &given), want, "{p} {given:?}");
            }
        }
        for p in ["3.2", "3.6"] {
            let p = profile(p);
            let cases = [
                (&name, Variant::Int(5), Setter::Keep),
                (&name, Variant::Nil, Setter::Keep),
                (&name, Variant::Float(2.5), Setter::Keep),
                (&name, array.clone(), Setter::Keep),
                (&name, path.clone(), set(text("/a"))),
                (&local, Variant::Int(2), set(Variant::Bool(true))),
                (&local, Variant::Int(0), set(Variant::Bool(false))),
                (&local, Variant::Float(0.5), set(Variant::Bool(true))),
                (&local, text("true"), Setter::Keep),
                (&local, Variant::Nil, Setter::Keep),
                (&local, vector.clone(), Setter::Keep),
            ];
            for (default, given, want) in cases {
                assert_eq!(set_as(p, default, &given), want, "{p} {given:?}");
            }
        }
        // A 3.x path with a name that is not Unicode: its text is not reproduced.
        let loose = Variant::node_path(NodePath {
            names: vec![Text::from_units(vec![0xD800])],
            subnames: vec![],
            absolute: false,
        });
        assert_eq!(set_as(profile("3.6"), &name, &loose), Setter::Unknown);
        // A property of another type.
        assert_eq!(
            set_as(profile("4.6"), &Variant::Int(0), &text("1")),
            Setter::Unknown
        );
    }
}
