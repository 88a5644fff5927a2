//! The `classes` request: every class of the engine's ClassDB, its parent, and whether
//! `ClassDB::instantiate` makes one (godot_project/README.md). Campaigns judge the codec with
//! the classes of the engine they run ([`gdmarshal::classes`]).

use gdmarshal::classes::ClassList;
use serde_json::Value;

use super::engine::Engine;
use super::framing::AskError;

impl Engine {
    /// Asks the engine for its classes.
    pub fn classes(&mut self) -> Result<ClassList, AskError> {
        let j = self.ask_one(r#"{"op":"classes"}"#.to_string())?;
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
        let list = j.get("classes").and_then(Value::as_array);
        let classes: Option<Vec<_>> = list.and_then(|l| l.iter().map(read).collect());
        classes.map(ClassList::new).ok_or(AskError::NoClasses(j))
    }
}
