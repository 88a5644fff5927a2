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
    pub(crate) fn classes_answer(&mut self) -> Result<Value, AskError> {
        self.ask_one(r#"{"op":"classes"}"#.to_string())
    }

    /// Asks the engine for the stored properties and defaults of these classes: one entry for
    /// each that it can instantiate, read from its tree of a fresh object (as its decode answers
    /// give objects: a 3.x engine holds a null object where the bytes say nil).
    pub(crate) fn class_defaults(
        &mut self,
        classes: &[String],
    ) -> Result<Vec<(String, ClassDefaults)>, AskError> {
        let j = self.class_defaults_answer(classes, &[])?;
        class_defaults(&j, self.info().profile).ok_or(AskError::NoDefaults(j))
    }

    /// The engine's answer to the `class_defaults` request for these classes, and (4.x) these
    /// classes given the project's scripts, as it gave it.
    pub(crate) fn class_defaults_answer(
        &mut self,
        classes: &[String],
        scripted: &[(String, String)],
    ) -> Result<Value, AskError> {
        let mut request = json!({"op": "class_defaults", "classes": classes});
        if !scripted.is_empty() {
            request["scripted"] = json!(scripted);
        }
        self.ask_one(request.to_string())
    }

    /// Asks a 4.x engine for the stored properties and defaults of each class given the
    /// project's script (class, script path): one entry for each pair it can make, read from its
    /// tree of a fresh object of the class with the script set.
    pub fn scripted_defaults(
        &mut self,
        pairs: &[(String, String)],
    ) -> Result<Vec<(String, String, ClassDefaults)>, AskError> {
        let j = self.class_defaults_answer(&[], pairs)?;
        scripted_defaults(&j, self.info().profile).ok_or(AskError::NoDefaults(j))
    }
}

/// Stored properties and defaults read from a tree of a fresh object of `class`; `None` where
/// the tree is not a full object of it (`EncodedObjectAsID` answers as an id).
fn defaults_of(class: &str, d: &Value, profile: Profile) -> Option<ClassDefaults> {
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
    (written == class).then(|| ClassDefaults::new(properties.clone(), unstored))
}

/// The defaults of the `scripted` entries of a `class_defaults` answer, read in `profile`;
/// `None` if it holds no such list.
pub fn scripted_defaults(
    j: &Value,
    profile: Profile,
) -> Option<Vec<(String, String, ClassDefaults)>> {
    let read = |e: &Value| {
        let [class, script, d] = e.as_array()?.as_slice() else {
            return None;
        };
        let (class, script) = (class.as_str()?, script.as_str()?);
        let d = defaults_of(class, d, profile)?;
        Some((class.to_string(), script.to_string(), d))
    };
    let all = j.get("scripted").and_then(Value::as_array)?;
    Some(all.iter().filter_map(read).collect())
}

/// The class list of a `classes` answer of an engine of `profile`, with the project's scripts
/// where it has them and the profile's setters; `None` if it holds no list of `[name, parent,
/// instantiable]`.
pub(crate) fn class_list(j: &Value, profile: Profile) -> Option<ClassList> {
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
pub(crate) fn class_defaults(j: &Value, profile: Profile) -> Option<Vec<(String, ClassDefaults)>> {
    let read = |(class, d): (&String, &Value)| -> Option<(String, ClassDefaults)> {
        Some((class.clone(), defaults_of(class, d, profile)?))
    };
    let all = j.get("defaults").and_then(Value::as_object)?;
    Some(all.iter().filter_map(read).collect())
}
