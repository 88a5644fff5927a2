//! The stored properties an engine writes for an object. Decoding a full object, the engine
//! instantiates its class and calls `set()` with each property read (`marshalls.cpp`); encoding
//! one, it writes every property whose usage has `PROPERTY_USAGE_STORAGE`, in the order of
//! `get_property_list`. So what the engine holds, and writes back, is the class's stored
//! properties with their defaults, each replaced by the value set. [`ClassDefaults`] is one
//! class's list as an engine writes it for a fresh object; [`ClassList::fill_stored`] completes
//! a value's objects with them where the result is certain, and says where it is not.

use std::collections::HashSet;

use super::places::{Places, Step};
use super::setters::{Setter, set_as};
use super::{ClassError, ClassList, Path};
use crate::value::{Object, Variant};

/// One class's stored properties with their defaults, in the order the engine writes them (its
/// encoding of a fresh object), and the names of its other properties.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassDefaults {
    stored: Vec<(String, Variant)>,
    unstored: HashSet<String>,
}

impl ClassDefaults {
    /// The stored properties with their defaults, in the engine's order, and the names of the
    /// properties it does not store.
    pub fn new(
        stored: Vec<(String, Variant)>,
        unstored: impl IntoIterator<Item = String>,
    ) -> ClassDefaults {
        ClassDefaults {
            stored,
            unstored: unstored.into_iter().collect(),
        }
    }

    /// The stored properties with their defaults, in the engine's order.
    pub fn stored(&self) -> &[(String, Variant)] {
        &self.stored
    }

    /// The names of the stored properties, in the engine's order.
    pub fn stored_names(&self) -> impl Iterator<Item = &str> {
        self.stored.iter().map(|(n, _)| n.as_str())
    }

    /// Whether the class has a property of this name that the engine does not store.
    pub fn is_unstored(&self, name: &str) -> bool {
        self.unstored.contains(name)
    }
}

/// Why a property set on an object leaves a result the codec does not reproduce.
const CONVERTED: &str = "of another type than its default: the engine's setter converts it";
const UNSTORED: &str = "not stored: its setter may change stored properties";
const METADATA: &str = "metadata, which engines keep or drop by version";

impl ClassList {
    /// The same list, with the stored properties and defaults of `class`.
    pub fn with_defaults(mut self, class: impl Into<String>, d: ClassDefaults) -> ClassList {
        self.defaults.insert(class.into(), d);
        self
    }

    /// The stored properties and defaults of `class`, where known.
    pub fn defaults(&self, class: &str) -> Option<&ClassDefaults> {
        self.defaults.get(class)
    }

    /// The same list, with the stored properties and defaults of an object of `class` given the
    /// project's script at `script` (its `script` property holding the path): 4.x decoders load
    /// the script a full object names and set it, and the object then holds the script's stored
    /// variables too.
    pub fn with_scripted_defaults(
        mut self,
        class: impl Into<String>,
        script: impl Into<String>,
        d: ClassDefaults,
    ) -> ClassList {
        self.scripted.insert((class.into(), script.into()), d);
        self
    }

    /// The stored properties and defaults of `class` given the script at `script`, where known.
    pub fn scripted_defaults(&self, class: &str, script: &str) -> Option<&ClassDefaults> {
        self.scripted.get(&(class.to_string(), script.to_string()))
    }

    /// Completes every full object in `v` as the engine holds it after decoding, and writes it:
    /// the class's stored properties in its order, each with the value set where one was given
    /// (the last one of that name), else its default; a property the class does not have is
    /// dropped, as `set()` ignores it. A value of another type than the default is set as the
    /// setters of the list's profile convert it ([`ClassList::with_setters_of`]). Refuses,
    /// leaving `v` part-way, where the result depends on what the codec does not know: a class
    /// without defaults, a value of another type whose conversion is not reproduced (or a list
    /// without a profile), a property that is not stored, or metadata.
    pub fn fill_stored(&self, v: &mut Variant) -> Result<(), ClassError> {
        // Without recursion: a value may nest thousands deep.
        let mut places = Places::new();
        let mut stack: Vec<(&mut Variant, usize)> = vec![(v, 0)];
        let nested = |v: &Variant| {
            matches!(
                v,
                Variant::Object(_) | Variant::Array(_) | Variant::Dictionary(_)
            )
        };
        while let Some((v, at)) = stack.pop() {
            match v {
                Variant::Object(o) => {
                    if let Object::Full { class, properties } = &mut **o {
                        let given = std::mem::take(properties);
                        *properties = self.filled(class, given, &|| places.path(at))?;
                        for (name, p) in properties.iter_mut().filter(|(_, p)| nested(p)) {
                            let place = places.below(at, Step::Property(name.clone()));
                            stack.push((p, place));
                        }
                    }
                }
                Variant::Array(a) => {
                    for (i, item) in a.items_mut().iter_mut().enumerate() {
                        if nested(item) {
                            stack.push((item, places.below(at, Step::Index(i))));
                        }
                    }
                }
                Variant::Dictionary(d) => {
                    for (i, (k, val)) in d.entries_mut().iter_mut().enumerate() {
                        if nested(k) {
                            stack.push((k, places.below(at, Step::Key(i))));
                        }
                        if nested(val) {
                            stack.push((val, places.below(at, Step::Value(i))));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether setting a property of this name sets the object's metadata: a `metadata/` entry
    /// (4.x; 3.x would drop it, refused all the same) or, but on 4.x, which has no such
    /// property, the whole `__meta__` Dictionary that 3.x objects store (Godot 3.6.2's answer
    /// to corpus `encode/depth/object_meta_int_at_1024`).
    fn is_metadata(&self, name: &str) -> bool {
        name.starts_with("metadata/")
            || (name == "__meta__" && self.setters.is_none_or(|p| p.major() == 3))
    }

    /// The stored properties of an object of `class` given `given`.
    fn filled(
        &self,
        class: &str,
        given: Vec<(String, Variant)>,
        path: Path,
    ) -> Result<Vec<(String, Variant)>, ClassError> {
        // The script the object ends up with: the decoder sets each `script` given in turn. A
        // 4.x decoder loads the one a path names; 3.x sets the value as a script, and anything
        // but an object sets none.
        let loads_scripts = self.setters.is_none_or(|p| p.major() >= 4);
        let script = given
            .iter()
            .rev()
            .find(|(n, _)| n == "script")
            .and_then(|(_, v)| match v {
                Variant::String(s) if loads_scripts => Some(s.to_string_lossy().into_owned()),
                _ => None,
            });
        let d = match &script {
            Some(script) => self.scripted_defaults(class, script),
            None => self.defaults.get(class),
        };
        let Some(d) = d else {
            return Err(ClassError::NoDefaults {
                path: path(),
                class: class.to_string(),
            });
        };
        let unmodelled = |property: &str, why: &'static str| ClassError::UnmodelledProperty {
            path: path(),
            property: property.to_string(),
            why,
        };
        let mut out = d.stored.clone();
        for (name, value) in given {
            // The defaults hold the script the object ends up with (none where the last
            // `script` given is Nil: setting it clears one set before).
            if name == "script" {
                continue;
            }
            if let Some((_, slot)) = out.iter_mut().find(|(n, _)| *n == name) {
                if same_kind(slot, &value) {
                    *slot = value;
                    continue;
                }
                match self.setters.map(|p| set_as(p, slot, &value)) {
                    Some(Setter::Set(v)) => *slot = v,
                    Some(Setter::Keep) => {}
                    Some(Setter::Unknown) | None => return Err(unmodelled(&name, CONVERTED)),
                }
            } else if self.is_metadata(&name) {
                return Err(unmodelled(&name, METADATA));
            } else if d.is_unstored(&name) {
                return Err(unmodelled(&name, UNSTORED));
            }
        }
        Ok(out)
    }
}

/// Whether the engine stores `given` in a property whose default is `default` unchanged: the same
/// type, the same container types, and for objects only null (a setter checks an object's class).
fn same_kind(default: &Variant, given: &Variant) -> bool {
    match (default, given) {
        (Variant::Array(d), Variant::Array(g)) => d.element_type() == g.element_type(),
        (Variant::Dictionary(d), Variant::Dictionary(g)) => {
            d.key_type() == g.key_type() && d.value_type() == g.value_type()
        }
        (Variant::Object(_), Variant::Object(g)) => matches!(**g, Object::Null),
        _ => default.get_type() == given.get_type(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{DecodeOptions, decode};
    use crate::encode::{EncodeOptions, encode};
    use crate::hex::unhex;
    use crate::profile::Profile;
    use crate::value::Array;

    fn profile() -> Profile {
        "4.6".parse().unwrap()
    }

    /// Resource as Godot 4.6.3 holds a fresh one (its oracle's `class_defaults` answer), with
    /// a few of its properties that are not stored.
    fn list() -> ClassList {
        let stored = resource_defaults(Variant::Nil);
        let unstored = [
            "RefCounted",
            "Resource",
            "resource_path",
            "resource_scene_unique_id",
        ];
        ClassList::new([("Resource".to_string(), "RefCounted".to_string(), true)]).with_defaults(
            "Resource",
            ClassDefaults::new(stored, unstored.map(str::to_string)),
        )
    }

    /// What the engine writes back for `input` (decoded with objects), as the codec completes it.
    fn written_back(input: &str) -> Result<String, ClassError> {
        let opts = DecodeOptions {
            allow_objects: true,
        };
        let mut v = decode(&unhex(input).unwrap(), profile(), opts)
            .unwrap()
            .value;
        list().fill_stored(&mut v)?;
        let bytes = encode(&v, profile(), EncodeOptions { full_objects: true }).unwrap();
        Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Godot 4.6.3's answers to decoding these inputs with objects and writing the value back
    /// (campaign records, and the last from a script that decoded and re-encoded it): the
    /// class's stored properties in its order, a misnamed property dropped, the last of two
    /// values of one property kept.
    #[test]
    fn objects_are_completed_with_the_stored_properties_as_the_engine_writes_them() {
        let named = "18000000080000005265736f7572636503000000170000007265736f757263655f6c6f63616c5f\
                     746f5f7363656e650001000000000000000d0000007265736f757263655f6e616d6500000004\
                     000000050000006e616d656400000006000000736372697074000000000000";
        let fresh = "18000000080000005265736f7572636503000000170000007265736f757263655f6c6f63616c5f\
                     746f5f7363656e650001000000000000000d0000007265736f757263655f6e616d6500000004\
                     0000000000000006000000736372697074000000000000";
        let b = "18000000080000005265736f7572636503000000170000007265736f757263655f6c6f63616c5f74\
                 6f5f7363656e650001000000000000000d0000007265736f757263655f6e616d65000000040000000\
                 10000006200000006000000736372697074000000000000";
        let cases = [
            (
                "18008000080000005265736f75726365010000000d0000007265736f757263655f6e616d650000\
                 0004000000050000006e616d6564000000",
                named,
            ),
            (
                "18010000080000005265736f75726365010000000d0000007265736f717263655f6e616d650000\
                 0004000000050000006e616d6564000000",
                fresh,
            ),
            (
                "18000000080000005265736f75726365020000000d0000007265736f757263655f6e616d650000\
                 000400000001000000610000000d0000007265736f757263655f6e616d6500000004000000010000\
                 0062000000",
                b,
            ),
        ];
        for (input, engine) in cases {
            assert_eq!(written_back(input).unwrap(), engine, "{input}");
        }
    }

    /// A fresh Resource's stored properties on Godot 4.6.3 (and 3.x, its `script` a null object
    /// there), with `script` as given.
    fn resource_defaults(script: Variant) -> Vec<(String, Variant)> {
        vec![
            ("resource_local_to_scene".to_string(), Variant::Bool(false)),
            ("resource_name".to_string(), Variant::String("".into())),
            ("script".to_string(), script),
        ]
    }

    /// A Resource as the engine holds it: its stored properties, with `resource_name` and
    /// `script` as given.
    fn held_resource(name: &str, script: Variant) -> Variant {
        resource(vec![
            ("resource_local_to_scene", Variant::Bool(false)),
            ("resource_name", Variant::String(name.into())),
            ("script", script),
        ])
    }

    fn resource(props: Vec<(&str, Variant)>) -> Variant {
        Variant::object(Object::Full {
            class: "Resource".into(),
            properties: props.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
        })
    }

    /// An object given one of the project's scripts holds the stored properties of its class
    /// with that script (Godot 4.6.3's `class_defaults` of Resource given
    /// res://fixtures/item.gd, and its answer to corpus `decode/objects/scripted_misnamed_property`:
    /// the misnamed property dropped, the defaults kept, the script written as its path).
    #[test]
    fn a_script_s_object_is_filled_from_the_defaults_with_that_script() {
        let item = || Variant::String("res://fixtures/item.gd".into());
        let defaults = ClassDefaults::new(resource_defaults(item()), ["hp".to_string()]);
        let with_script =
            list().with_scripted_defaults("Resource", "res://fixtures/item.gd", defaults);
        let given = || {
            resource(vec![
                ("resNurce_local_to_scene", Variant::Bool(true)),
                ("script", item()),
            ])
        };
        let mut v = given();
        with_script.fill_stored(&mut v).unwrap();
        assert_eq!(v, held_resource("", item()));
        // Without those defaults the object is refused.
        let mut v = given();
        assert!(matches!(
            list().fill_stored(&mut v),
            Err(ClassError::NoDefaults { .. })
        ));
    }

    /// A Nil `script` after a script's path clears the script: the object holds its class's
    /// stored properties, with what was set meanwhile on them and without the script's variable
    /// (Godot 4.6.3's answer to corpus `decode/objects/scripted_then_cleared`).
    #[test]
    fn a_script_cleared_by_a_later_nil_leaves_the_class_s_properties() {
        let item = || Variant::String("res://fixtures/item.gd".into());
        let defaults = ClassDefaults::new(resource_defaults(item()), ["hp".to_string()]);
        let with_script =
            list().with_scripted_defaults("Resource", "res://fixtures/item.gd", defaults);
        let mut v = resource(vec![
            ("script", item()),
            ("resource_name", Variant::String("n".into())),
            ("hp", Variant::Int(5)),
            ("script", Variant::Nil),
        ]);
        with_script.fill_stored(&mut v).unwrap();
        assert_eq!(v, held_resource("n", Variant::Nil));
    }

    /// A 3.x object's `__meta__` (its metadata as one Dictionary, which Godot 3.6.2 stores and
    /// writes back: corpus `encode/depth/object_meta_int_at_1024`) is refused as metadata, and a
    /// `script` of Nil leaves the default the engine writes (a null object: 3.6.2's fresh
    /// Reference); on 4.x, whose objects have no `__meta__` property (4.6.3's object.cpp sets
    /// metadata through `metadata/` names only), it is dropped as any other name the class lacks.
    #[test]
    fn a_3x_object_s_meta_is_refused_as_metadata() {
        let reference = |props: Vec<(&str, Variant)>| {
            Variant::object(Object::Full {
                class: "Reference".into(),
                properties: props.into_iter().map(|(n, v)| (n.to_string(), v)).collect(),
            })
        };
        let three = ClassList::new([("Reference".to_string(), "Object".to_string(), true)])
            .with_defaults(
                "Reference",
                ClassDefaults::new(
                    vec![("script".to_string(), Variant::object(Object::Null))],
                    ["Reference".to_string()],
                ),
            );
        let meta = || Variant::Dictionary(crate::value::Dictionary::default());
        let given = || reference(vec![("script", Variant::Nil), ("__meta__", meta())]);
        for list in [
            three.clone(),
            three.clone().with_setters_of("3.6".parse().unwrap()),
        ] {
            assert_eq!(
                list.fill_stored(&mut given()),
                Err(ClassError::UnmodelledProperty {
                    path: "$".into(),
                    property: "__meta__".into(),
                    why: METADATA,
                })
            );
        }
        let mut v = reference(vec![("script", Variant::Nil)]);
        three.fill_stored(&mut v).unwrap();
        assert_eq!(
            v,
            reference(vec![("script", Variant::object(Object::Null))])
        );
        let mut v = resource(vec![("__meta__", meta())]);
        list()
            .with_setters_of(profile())
            .fill_stored(&mut v)
            .unwrap();
        assert_eq!(v, held_resource("", Variant::Nil));
    }

    /// A 3.x decoder sets `script` as a script: a path or an int sets none, and the object holds
    /// its class's defaults (Godot 3.2.3's and 3.6.2's answers to the lab's campaign test
    /// `full_objects_and_script_paths_are_held_as_the_engine_holds_them`, cases `script-path`
    /// and `script-int`); a list without a profile takes a path as 4.x does.
    #[test]
    fn a_3x_script_that_is_not_an_object_sets_none() {
        let stored = resource_defaults(Variant::object(Object::Null));
        let three = ClassList::new([("Resource".to_string(), "Reference".to_string(), true)])
            .with_defaults("Resource", ClassDefaults::new(stored, []));
        let path = || Variant::String("res://fixtures/item.gd".into());
        for script in [path(), Variant::Int(5)] {
            let mut v = resource(vec![("script", script)]);
            three
                .clone()
                .with_setters_of("3.6".parse().unwrap())
                .fill_stored(&mut v)
                .unwrap();
            assert_eq!(v, held_resource("", Variant::object(Object::Null)));
        }
        assert!(matches!(
            three.fill_stored(&mut resource(vec![("script", path())])),
            Err(ClassError::NoDefaults { .. })
        ));
    }

    /// What depends on the engine's setters is refused, with where and why: Godot 4.6.3 sets
    /// `resource_name` from an int as its text ("5") and 3.6.2 keeps the default, setting
    /// `resource_path` names the resource, and metadata is kept by 4.x and dropped by 3.x.
    #[test]
    fn what_the_setters_decide_is_refused() {
        let cases = [
            ("resource_name", Variant::Int(5), CONVERTED),
            (
                "resource_path",
                Variant::String("res://x.tres".into()),
                UNSTORED,
            ),
            ("metadata/foo", Variant::Int(3), METADATA),
        ];
        for (name, value, why) in cases {
            let mut v = Variant::Array(Array::new(vec![resource(vec![(name, value)])]));
            assert_eq!(
                list().fill_stored(&mut v),
                Err(ClassError::UnmodelledProperty {
                    path: "$[0]".into(),
                    property: name.into(),
                    why,
                })
            );
        }
        let mut node = Variant::object(Object::Full {
            class: "Node".into(),
            properties: vec![],
        });
        assert_eq!(
            list().fill_stored(&mut node),
            Err(ClassError::NoDefaults {
                path: "$".into(),
                class: "Node".into()
            })
        );
        // A null object stays, and an object in a property is completed too.
        let inner = resource(vec![]);
        let mut outer = resource(vec![
            ("resource_name", Variant::String("o".into())),
            ("script", Variant::Nil),
        ]);
        if let Variant::Object(o) = &mut outer
            && let Object::Full { properties, .. } = &mut **o
        {
            properties.push(("resource_local_to_scene".into(), Variant::Bool(true)));
        }
        list().fill_stored(&mut outer).unwrap();
        let mut array = Variant::Array(Array::new(vec![Variant::object(Object::Null), inner]));
        list().fill_stored(&mut array).unwrap();
        let Variant::Array(a) = &array else { panic!() };
        assert_eq!(a.items()[0], Variant::object(Object::Null));
        assert_eq!(a.items()[1], held_resource("", Variant::Nil));
        assert_eq!(
            outer,
            resource(vec![
                ("resource_local_to_scene", Variant::Bool(true)),
                ("resource_name", Variant::String("o".into())),
                ("script", Variant::Nil),
            ])
        );
    }

    /// With a profile's setters, a value of another type is set as its engines set it, in the
    /// order given: Godot 4.6.3 sets `resource_name` from 5 as "5" and from nil then "b" as "b"
    /// (campaign seed 9101, case 225466); 3.6.2 keeps what the property held ("a", given 5
    /// after it); a conversion not reproduced (an object's text, which names its instance id) is
    /// still refused.
    #[test]
    fn the_profile_s_setters_decide_values_of_another_type() {
        let name = |given: Vec<Variant>| {
            resource(given.into_iter().map(|v| ("resource_name", v)).collect())
        };
        let named = |text: &str| {
            resource(vec![
                ("resource_local_to_scene", Variant::Bool(false)),
                ("resource_name", Variant::String(text.into())),
                ("script", Variant::Nil),
            ])
        };
        let four = list().with_setters_of(profile());
        let three = list().with_setters_of("3.6".parse().unwrap());
        let cases = [
            (&four, vec![Variant::Int(5)], named("5")),
            (
                &four,
                vec![Variant::Nil, Variant::String("b".into())],
                named("b"),
            ),
            (
                &three,
                vec![Variant::String("a".into()), Variant::Int(5)],
                named("a"),
            ),
        ];
        for (list, given, want) in cases {
            let mut v = name(given);
            list.fill_stored(&mut v).unwrap();
            assert_eq!(v, want);
        }
        let mut v = name(vec![Variant::object(Object::Id(5))]);
        assert_eq!(
            four.fill_stored(&mut v),
            Err(ClassError::UnmodelledProperty {
                path: "$".into(),
                property: "resource_name".into(),
                why: CONVERTED,
            })
        );
    }

    /// A value nested far deeper than any stack holds is walked without recursion.
    #[test]
    fn deep_values_are_walked_without_recursion() {
        let mut v = resource(vec![("resource_name", Variant::String("deep".into()))]);
        for _ in 0..200_000 {
            v = Variant::Array(Array::new(vec![v]));
        }
        list().fill_stored(&mut v).unwrap();
        let mut inner = &v;
        while let Variant::Array(a) = inner {
            inner = &a.items()[0];
        }
        let Some(Object::Full { properties, .. }) = inner.as_object() else {
            panic!()
        };
        assert_eq!(properties.len(), 3);
        // Dropped without recursion too (Variant's own drop).
        drop(v);
    }

    /// Container and object properties are set unchanged only from a value of the same container
    /// types, or a null object; anything else goes through the setter's conversion. (A made-up
    /// class: what is checked is which values the codec leaves to the engine's setters.)
    #[test]
    fn containers_and_objects_are_set_only_as_they_are() {
        use crate::types::VariantType;
        use crate::value::{ContainerType, Dictionary};
        let ints = ContainerType::Builtin(VariantType::Int);
        let stored = vec![
            (
                "items".into(),
                Variant::Array(Array::typed(ints.clone(), vec![])),
            ),
            ("table".into(), Variant::Dictionary(Dictionary::new(vec![]))),
            ("target".into(), Variant::object(Object::Null)),
        ];
        let c = list().with_defaults("Holder", ClassDefaults::new(stored, []));
        assert_eq!(c.defaults("Holder").unwrap().stored().len(), 3);
        let names: Vec<&str> = c.defaults("Resource").unwrap().stored_names().collect();
        assert_eq!(
            names,
            ["resource_local_to_scene", "resource_name", "script"]
        );
        assert!(c.defaults("Node").is_none());
        let holder = |name: &str, v: Variant| {
            Variant::object(Object::Full {
                class: "Holder".into(),
                properties: vec![(name.into(), v)],
            })
        };
        let typed_table = Dictionary::typed(ints.clone(), ContainerType::None, vec![]);
        let refused = [
            ("items", Variant::Array(Array::new(vec![]))),
            ("table", Variant::Dictionary(typed_table)),
            ("target", resource(vec![])),
        ];
        for (name, v) in refused {
            let mut v = holder(name, v);
            assert!(
                matches!(c.fill_stored(&mut v), Err(ClassError::UnmodelledProperty { why, .. }) if why == CONVERTED),
                "{name}"
            );
        }
        let table = Dictionary::new(vec![(Variant::Int(1), resource(vec![]))]);
        let kept = [
            (
                "items",
                Variant::Array(Array::typed(ints, vec![Variant::Int(1)])),
            ),
            ("table", Variant::Dictionary(table)),
            ("target", Variant::object(Object::Null)),
        ];
        for (name, v) in kept {
            let mut v = holder(name, v);
            c.fill_stored(&mut v).unwrap();
            let Some(Object::Full { properties, .. }) = v.as_object() else {
                panic!()
            };
            assert_eq!(properties.len(), 3, "{name}");
        }
        // The Resource in the table is completed as well.
        let mut v = holder(
            "table",
            Variant::Dictionary(Dictionary::new(vec![(resource(vec![]), resource(vec![]))])),
        );
        c.fill_stored(&mut v).unwrap();
        let Some(Object::Full { properties, .. }) = v.as_object() else {
            panic!()
        };
        let Variant::Dictionary(d) = &properties[1].1 else {
            panic!()
        };
        let full = held_resource("", Variant::Nil);
        assert_eq!(d.entries()[0], (full.clone(), full));
    }
}
