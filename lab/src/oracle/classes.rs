//! The `classes` and `class_defaults` requests: every class of the engine's ClassDB, its parent,
//! whether `ClassDB::instantiate` makes one, the project's scripts (4.x), and for the classes
//! asked, the stored properties with their defaults as the engine holds them in a fresh object
//! (godot_project/README.md). Campaigns judge the codec with the classes of the engine they run
//! ([`gdmarshal::classes`]); the corpus records them (`crate::corpus::classes`).

use gdmarshal::classes::{ClassDefaults, ClassList};
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;
use gdmarshal::value::Object;
use serde_json::{Value, json};

use super::engine::Engine;
use super::framing::AskError;

impl Engine {
    /// Asks the engine for its classes (and a 4.x engine's project scripts).
    pub fn classes(&mut self) -> Result<ClassList, AskError> {
        let j = self.classes_answer()?;
        class_list(&j, self.info().profile).ok_or(AskError::NoClasses(j))
    }

    /// The engine's answer to the `classes` request, as it gave it.
    pub fn classes_answer(&mut self) -> Result<Value, AskError> {
        self.ask_one(r#"{"op":"classes"}"#.to_string())
    }

    /// Asks the engine for the stored properties and defaults of these classes: one entry for
    /// each that it can instantiate, read from its tree of a fresh object (as its decode answers
    /// give objects: a 3.x engine holds a null object where the bytes say nil).
    pub fn class_defaults(
        &mut self,
        classes: &[String],
    ) -> Result<Vec<(String, ClassDefaults)>, AskError> {
        let j = self.class_defaults_answer(classes)?;
        class_defaults(&j, self.info().profile).ok_or(AskError::NoDefaults(j))
    }

    /// The engine's answer to the `class_defaults` request for these classes, as it gave it.
    pub fn class_defaults_answer(&mut self, classes: &[String]) -> Result<Value, AskError> {
        self.ask_one(json!({"op": "class_defaults", "classes": classes}).to_string())
    }
}

/// The class list of a `classes` answer of an engine of `profile`, with the project's scripts
/// where it has them and the profile's setters; `None` if it holds no list of `[name, parent,
/// instantiable]`.
pub fn class_list(j: &Value, profile: Profile) -> Option<ClassList> {
    let read = |c: &Value| {
        let [name, parent, instantiable] = c.as_array()?.as_slice() else {
            return None;
        };
        Some((
            name.as_str()?.to_string(),
            parent.as_str()?.to_string(),
            instantiable.as_bool()?,
        ))
    };
    let list = j.get("classes").and_then(Value::as_array)?;
    let classes =
        ClassList::new(list.iter().map(read).collect::<Option<Vec<_>>>()?).with_setters_of(profile);
    // 4.x engines also tell the project's scripts, which their decoders load.
    let scripts = j.get("scripts").and_then(Value::as_array).map(|s| {
        s.iter()
            .filter_map(|p| p.as_str().map(str::to_string))
            .collect::<Vec<_>>()
    });
    Some(match scripts {
        Some(s) => classes.with_scripts(s),
        None => classes,
    })
}

/// The defaults of a `class_defaults` answer, read in `profile`; `None` if it holds none. A class
/// whose fresh object is not a full object of it (`EncodedObjectAsID` answers as an id) is left
/// out.
pub fn class_defaults(j: &Value, profile: Profile) -> Option<Vec<(String, ClassDefaults)>> {
    let read = |(class, d): (&String, &Value)| -> Option<(String, ClassDefaults)> {
        let value = from_json(d.get("tree")?, profile).ok()?;
        let Some(Object::Full {
            class: written,
            properties,
        }) = value.as_object()
        else {
            return None;
        };
        let unstored = d.get("unstored")?.as_array()?;
        let unstored: Vec<String> = unstored
            .iter()
            .map(|n| n.as_str().map(str::to_string))
            .collect::<Option<_>>()?;
        (written == class).then(|| {
            let d = ClassDefaults::new(properties.clone(), unstored);
            (class.clone(), d)
        })
    };
    let all = j.get("defaults").and_then(Value::as_object)?;
    Some(all.iter().filter_map(read).collect())
}
