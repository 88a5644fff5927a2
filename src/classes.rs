//! An engine's classes, for the rules about objects that depend on them. Which classes an engine
//! has is not fixed by its version: an editor build has more than an export template, and
//! modules and GDExtensions add their own (Debian's 4.6.3 editor build reports 1,040 classes, a
//! 4.6.3 template built with this project's SCons options 550). So the codec holds no list of
//! its own and decodes and encodes objects of any class; a caller who knows its engine's classes
//! (the lab asks each engine it runs) holds a value against them with [`ClassList`]:
//!
//! - decoding a full object calls `ClassDB::instantiate` on its class and refuses the input when
//!   that makes nothing (`marshalls.cpp`, `ERR_UNAVAILABLE`): [`ClassList::check_decoded`];
//! - a container typed by a class holds only objects of that class or its descendants
//!   (`ContainerTypeValidate`), so none where the engine has no such class, and an object of a
//!   class the engine lacks cannot exist: [`ClassList::check_encodable`]; a typed Dictionary's
//!   values are the exception, assigned unchecked by the decoder;
//! - with objects, a 4.x decoder loads the script a typed container or a full object's `script`
//!   property names, and refuses the input when its project has no Script there (`marshalls.cpp`,
//!   "Invalid script path"): with the project's scripts known ([`ClassList::with_scripts`]),
//!   [`ClassList::check_decoded`] refuses so too;
//! - decoding a full object, the engine writes back every stored property of its class:
//!   [`ClassList::fill_stored`], with the class's defaults ([`ClassDefaults`]); each `script`
//!   given is set in turn (a later Nil clears a script; 3.x sets anything but an object as no
//!   script), and metadata (4.x's `metadata/` names, 3.x's `__meta__`) is refused as not
//!   modelled.

use std::collections::{HashMap, HashSet};

use crate::profile::Profile;
use crate::value::{ContainerType, Object, Variant};

mod places;
mod setters;
mod stored;

use places::{Places, Step};

/// A place in a value, written out only when needed.
type Path<'a> = &'a dyn Fn() -> String;

pub use stored::ClassDefaults;

/// An engine's classes: each one's parent and whether `ClassDB::instantiate` makes one, and for
/// some, their stored properties with defaults ([`ClassList::fill_stored`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassList {
    by_name: HashMap<String, (String, bool)>,
    defaults: HashMap<String, ClassDefaults>,
    /// The stored properties and defaults of a class given one of the project's scripts, by
    /// class and script path.
    scripted: HashMap<(String, String), ClassDefaults>,
    /// The res:// paths of the project's scripts, where known.
    scripts: Option<HashSet<String>>,
    /// The profile whose setters convert a property given a value of another type, where known.
    setters: Option<Profile>,
}

/// Why a value does not fit an engine's classes; each names where in the value, as the
/// encoder's errors do (`$`, `[i]`, `{key i}`, `{value i}`, `.property`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClassError {
    /// A full object of a class the engine cannot make (absent, abstract or editor-only).
    #[error("at {path}: the engine cannot make an object of class {class:?}")]
    NotInstantiable {
        /// Where in the value.
        path: String,
        /// The class.
        class: String,
    },
    /// An object of a class the engine does not have, or in a container typed by one.
    #[error("at {path}: the engine has no class {class:?}")]
    NoSuchClass {
        /// Where in the value.
        path: String,
        /// The class.
        class: String,
    },
    /// An object in a container typed by a class it does not inherit from.
    #[error("at {path}: an object of class {class:?} cannot be in a container of {container:?}")]
    NotOfClass {
        /// Where in the value.
        path: String,
        /// The object's class.
        class: String,
        /// The container's class.
        container: String,
    },
    /// A script the project does not have, named by a typed container or a `script` property.
    #[error("at {path}: the project has no script at {script:?}")]
    NoSuchScript {
        /// Where in the value.
        path: String,
        /// The script's path.
        script: String,
    },
    /// A full object of a class whose stored properties and defaults are not known.
    #[error("at {path}: the stored properties of class {class:?} are not known")]
    NoDefaults {
        /// Where in the value.
        path: String,
        /// The class.
        class: String,
    },
    /// A property whose effect on the object the codec does not reproduce.
    #[error("at {path}: property {property:?} is {why}")]
    UnmodelledProperty {
        /// Where in the value (the object).
        path: String,
        /// The property's name.
        property: String,
        /// What the result depends on.
        why: &'static str,
    },
}

/// The objects and containers left to visit, each with the container type of its slot and its
/// place.
type Stack<'v> = Vec<(&'v Variant, Option<&'v ContainerType>, usize)>;

/// Pushes `v` if it is an object or a container (nothing else can break a rule), giving it a
/// place only then.
fn push<'v>(
    stack: &mut Stack<'v>,
    places: &mut Places,
    v: &'v Variant,
    slot: Option<&'v ContainerType>,
    (parent, step): (usize, impl FnOnce() -> Step),
) {
    if matches!(
        v,
        Variant::Object(_) | Variant::Array(_) | Variant::Dictionary(_)
    ) {
        let at = places.below(parent, step());
        stack.push((v, slot, at));
    }
}

/// Which rules a walk holds objects to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    Decoded,
    Encodable,
}

impl ClassList {
    /// The list of `(name, parent, instantiable)` triples; the parent of `Object` is empty.
    pub fn new(classes: impl IntoIterator<Item = (String, String, bool)>) -> ClassList {
        ClassList {
            by_name: classes.into_iter().map(|(n, p, i)| (n, (p, i))).collect(),
            defaults: HashMap::new(),
            scripted: HashMap::new(),
            scripts: None,
            setters: None,
        }
    }

    /// The same list, completing full objects as `profile`'s engines set a property given a
    /// value of another type than its default ([`ClassList::fill_stored`]); without it such a
    /// value is refused.
    pub fn with_setters_of(self, profile: Profile) -> ClassList {
        ClassList {
            setters: Some(profile),
            ..self
        }
    }

    /// The same list, knowing the project's scripts: the res:// paths at which it has a Script
    /// resource, as the engine's `ResourceLoader` names them.
    pub fn with_scripts(self, scripts: impl IntoIterator<Item = String>) -> ClassList {
        ClassList {
            scripts: Some(scripts.into_iter().collect()),
            ..self
        }
    }

    /// The res:// paths of the project's scripts, where the list knows them (4.x engines).
    pub fn scripts(&self) -> Option<&HashSet<String>> {
        self.scripts.as_ref()
    }

    /// Whether decoding finds a Script at this path: always where the project's scripts are not
    /// known.
    pub fn has_script(&self, path: &str) -> bool {
        self.scripts.as_ref().is_none_or(|s| s.contains(path))
    }

    /// How many classes.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Whether the engine has a class of this name.
    pub fn has(&self, class: &str) -> bool {
        self.by_name.contains_key(class)
    }

    /// Whether `ClassDB::instantiate` makes an object of this class.
    pub fn instantiable(&self, class: &str) -> bool {
        self.by_name.get(class).is_some_and(|(_, i)| *i)
    }

    /// Whether `class` is `ancestor` or inherits from it.
    pub fn inherits(&self, class: &str, ancestor: &str) -> bool {
        let mut c = class;
        // A list from an engine has no cycles; the bound keeps a broken one from looping.
        for _ in 0..=self.by_name.len() {
            if c == ancestor {
                return true;
            }
            match self.by_name.get(c) {
                Some((parent, _)) if !parent.is_empty() => c = parent,
                _ => return false,
            }
        }
        false
    }

    /// Whether a value decoded with objects allowed is one the engine's decoder makes: every full
    /// object's class instantiable.
    pub fn check_decoded(&self, v: &Variant) -> Result<(), ClassError> {
        self.walk(v, Rules::Decoded)
    }

    /// Whether a value can exist in the engine, to be encoded: every full object's class one it
    /// has, and every object in a container typed by a class one of that class (an object known
    /// by its id only where the engine has the class).
    pub fn check_encodable(&self, v: &Variant) -> Result<(), ClassError> {
        self.walk(v, Rules::Encodable)
    }

    /// Visits every object and container without recursion (a value may nest thousands deep);
    /// only those are pushed, each with its place.
    fn walk(&self, root: &Variant, rules: Rules) -> Result<(), ClassError> {
        let mut places = Places::new();
        let mut stack: Stack<'_> = vec![(root, None, 0)];
        while let Some((v, slot, at)) = stack.pop() {
            let path = || places.path(at);
            match v {
                Variant::Object(o) => {
                    self.object(o, slot, rules, &path)?;
                    if let Object::Full { properties, .. } = &**o {
                        for (name, p) in properties {
                            let step = || Step::Property(name.clone());
                            push(&mut stack, &mut places, p, None, (at, step));
                        }
                    }
                }
                Variant::Array(a) => {
                    self.script_of(a.element_type(), rules, &path)?;
                    let slot = Some(a.element_type());
                    for (i, item) in a.items().iter().enumerate() {
                        push(&mut stack, &mut places, item, slot, (at, || Step::Index(i)));
                    }
                }
                Variant::Dictionary(d) => {
                    self.script_of(d.key_type(), rules, &path)?;
                    self.script_of(d.value_type(), rules, &path)?;
                    // Only keys are checked against their type: the decoder assigns a value
                    // through the reference `d[key]` returns, unchecked, so a 4.x engine holds
                    // (and writes) any object as a value whatever the value type names.
                    let kt = Some(d.key_type());
                    for (i, (k, val)) in d.entries().iter().enumerate() {
                        push(&mut stack, &mut places, k, kt, (at, || Step::Key(i)));
                        push(&mut stack, &mut places, val, None, (at, || Step::Value(i)));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Refuses, in a decoded value, a container typed by a script the project lacks.
    fn script_of(&self, t: &ContainerType, rules: Rules, path: Path) -> Result<(), ClassError> {
        match t {
            ContainerType::Script(script) if rules == Rules::Decoded => {
                self.script_at(script, path)
            }
            _ => Ok(()),
        }
    }

    fn script_at(&self, script: &str, path: Path) -> Result<(), ClassError> {
        if self.has_script(script) {
            return Ok(());
        }
        Err(ClassError::NoSuchScript {
            path: path(),
            script: script.to_string(),
        })
    }

    fn object(
        &self,
        o: &Object,
        slot: Option<&ContainerType>,
        rules: Rules,
        path: Path,
    ) -> Result<(), ClassError> {
        let at = path;
        if let Object::Full { class, properties } = o {
            if rules == Rules::Decoded && !self.instantiable(class) {
                return Err(ClassError::NotInstantiable {
                    path: at(),
                    class: class.clone(),
                });
            }
            // The decoder refuses any other `script` value than a path (`decode`).
            for (name, v) in properties.iter().filter(|_| rules == Rules::Decoded) {
                if let (true, Variant::String(script)) = (name == "script", v)
                    && let Some(script) = script.as_str()
                {
                    self.script_at(script, &|| format!("{}.script", path()))?;
                }
            }
            if rules == Rules::Encodable && !self.has(class) {
                return Err(ClassError::NoSuchClass {
                    path: at(),
                    class: class.clone(),
                });
            }
        }
        // The decoder applies the container rules itself (`typed::admit`).
        let Some(ContainerType::ClassName(container)) = slot else {
            return Ok(());
        };
        if rules == Rules::Decoded || container.is_empty() || matches!(o, Object::Null) {
            return Ok(());
        }
        if !self.has(container) {
            return Err(ClassError::NoSuchClass {
                path: at(),
                class: container.clone(),
            });
        }
        match o {
            Object::Full { class, .. } if !self.inherits(class, container) => {
                Err(ClassError::NotOfClass {
                    path: at(),
                    class: class.clone(),
                    container: container.clone(),
                })
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Array, Dictionary};

    /// A few classes as 4.6.3 reports them (its `classes` answer, godot_project/README.md).
    fn list() -> ClassList {
        ClassList::new(
            [
                ("Object", "", true),
                ("RefCounted", "Object", true),
                ("EncodedObjectAsID", "RefCounted", true),
                ("Resource", "RefCounted", true),
                ("Node", "Object", true),
                ("CanvasItem", "Node", false),
                ("Node2D", "CanvasItem", true),
            ]
            .map(|(n, p, i)| (n.to_string(), p.to_string(), i)),
        )
    }

    fn full(class: &str) -> Variant {
        Variant::object(Object::Full {
            class: class.into(),
            properties: vec![],
        })
    }

    #[test]
    fn decoded_full_objects_need_a_class_the_engine_makes() {
        let c = list();
        assert_eq!((c.len(), c.is_empty()), (7, false));
        assert!(ClassList::default().is_empty());
        assert!(c.inherits("Node2D", "Node") && !c.inherits("Node", "Node2D"));
        // `Object` has no parent, not one named "".
        assert!(!c.inherits("Node", ""));
        assert_eq!(c.check_decoded(&full("Node2D")), Ok(()));
        let nested = Variant::Array(Array::new(vec![Variant::Nil, full("CanvasItem")]));
        assert_eq!(
            c.check_decoded(&nested),
            Err(ClassError::NotInstantiable {
                path: "$[1]".into(),
                class: "CanvasItem".into()
            })
        );
        let inner = Variant::object(Object::Full {
            class: "Resource".into(),
            properties: vec![("p".into(), full("Nope"))],
        });
        assert!(matches!(
            c.check_decoded(&inner),
            Err(ClassError::NotInstantiable { path, .. }) if path == "$.p"
        ));
    }

    /// Godot 4.6.3 decodes a Dictionary whose value type names a class it lacks, holding an
    /// object id as a value, and writes it back: values are assigned unchecked (corpus
    /// `decode/objects/typed_dictionary_value_class_missing`). Keys are checked.
    #[test]
    fn a_typed_dictionary_s_values_are_not_checked_against_their_class() {
        let c = list();
        let id = Variant::object(Object::Id(12345));
        let typed = |key: ContainerType, value: ContainerType, entry: (Variant, Variant)| {
            Variant::Dictionary(Dictionary::typed(key, value, vec![entry]))
        };
        let missing = ContainerType::ClassName("\u{1b}".into());
        let as_value = typed(
            ContainerType::Builtin(crate::VariantType::Int),
            missing.clone(),
            (Variant::Int(1), id.clone()),
        );
        assert_eq!(c.check_encodable(&as_value), Ok(()));
        let as_key = typed(missing, ContainerType::None, (id, Variant::Int(1)));
        assert!(matches!(
            c.check_encodable(&as_key),
            Err(ClassError::NoSuchClass { path, .. }) if path == "${key 0}"
        ));
    }

    #[test]
    fn objects_to_encode_need_classes_the_engine_has() {
        let c = list();
        let id = Variant::object(Object::Id(5));
        let typed = |class: &str, v: Variant| {
            Variant::Array(Array::typed(
                ContainerType::ClassName(class.into()),
                vec![v],
            ))
        };
        assert_eq!(c.check_encodable(&typed("Node", id.clone())), Ok(()));
        assert_eq!(c.check_encodable(&typed("Node", full("Node2D"))), Ok(()));
        // Nulls fit any class; abstract classes can be held by their descendants; a class of
        // no name is no class (the built-in Object type).
        assert_eq!(
            c.check_encodable(&typed("NoSuchClass", Variant::Nil)),
            Ok(())
        );
        let null = Variant::object(Object::Null);
        assert_eq!(c.check_encodable(&typed("NoSuchClass", null)), Ok(()));
        assert_eq!(c.check_encodable(&typed("", id.clone())), Ok(()));
        assert_eq!(
            c.check_encodable(&full("Nope")),
            Err(ClassError::NoSuchClass {
                path: "$".into(),
                class: "Nope".into()
            })
        );
        assert_eq!(c.check_encodable(&full("CanvasItem")), Ok(()));
        assert_eq!(
            c.check_encodable(&typed("NoSuchClass", id.clone())),
            Err(ClassError::NoSuchClass {
                path: "$[0]".into(),
                class: "NoSuchClass".into()
            })
        );
        assert!(matches!(
            c.check_encodable(&typed("Node", full("Resource"))),
            Err(ClassError::NotOfClass { .. })
        ));
        let keys = Variant::Dictionary(Dictionary::typed(
            ContainerType::ClassName("Nope".into()),
            ContainerType::None,
            vec![(id, Variant::Nil)],
        ));
        assert!(matches!(
            c.check_encodable(&keys),
            Err(ClassError::NoSuchClass { path, .. }) if path == "${key 0}"
        ));
        // The decoder applies container rules itself.
        assert_eq!(c.check_decoded(&typed("NoSuchClass", full("Node"))), Ok(()));
    }

    /// Godot 4.6.3, decoding with objects, refuses a container typed by `res://none.gd` and a
    /// full object whose `script` names it, which its project lacks (the corpus case
    /// `decode/objects/typed_script_not_in_project`, and the lab's campaign test of both), and
    /// accepts its project's `res://fixtures/item.gd`.
    #[test]
    fn decoded_scripts_need_the_project_to_have_them() {
        let c = list().with_scripts(["res://fixtures/item.gd".to_string()]);
        let typed = |script: &str| {
            let t = ContainerType::Script(script.into());
            let inner = Variant::Array(Array::typed(t.clone(), vec![]));
            let dict = Dictionary::typed(ContainerType::None, t, vec![(Variant::Nil, inner)]);
            Variant::Dictionary(dict)
        };
        assert_eq!(c.check_decoded(&typed("res://fixtures/item.gd")), Ok(()));
        assert_eq!(
            c.check_decoded(&typed("res://none.gd")),
            Err(ClassError::NoSuchScript {
                path: "$".into(),
                script: "res://none.gd".into()
            })
        );
        let scripted = |script: &str| {
            let props = vec![
                ("name".into(), Variant::String("res://none.gd".into())),
                ("script".into(), Variant::String(script.into())),
            ];
            let o = Variant::object(Object::Full {
                class: "Resource".into(),
                properties: props,
            });
            Variant::Array(Array::new(vec![o]))
        };
        assert_eq!(c.check_decoded(&scripted("res://fixtures/item.gd")), Ok(()));
        assert_eq!(
            c.check_decoded(&scripted("res://none.gd")),
            Err(ClassError::NoSuchScript {
                path: "$[0].script".into(),
                script: "res://none.gd".into()
            })
        );
        // Encoding builds no script from its path (the oracle makes one where asked), and
        // without the project's scripts every path is taken as there.
        assert_eq!(c.check_encodable(&typed("res://none.gd")), Ok(()));
        assert!(list().has_script("res://none.gd") && !c.has_script("res://none.gd"));
        assert_eq!(list().check_decoded(&scripted("res://none.gd")), Ok(()));
        // The list says which scripts it knows, and that it knows none when not told.
        let known: HashSet<String> = ["res://fixtures/item.gd".to_string()].into();
        assert_eq!(c.scripts(), Some(&known));
        assert_eq!(list().scripts(), None);
    }
}
