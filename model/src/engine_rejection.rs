//! What an engine's error output says about why it refused an input, read once so that
//! classification works on a type rather than on the engine's wording.

/// A reason an engine gives for refusing an input, as far as this crate tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineRejection {
    /// A full object of a class the engine does not have (`ClassDB` cannot instantiate it).
    UnknownClass,
    /// A script path (a typed container's script, or a full object's `script` property) that the
    /// engine refuses: 4.x prints `Invalid script path "…".` for a path that is empty, not under
    /// `res://`, or names no Script resource in the engine's project.
    InvalidScriptPath,
}

/// The reason in an engine's stderr, if it is one this crate knows.
///
/// Godot prints `ERROR: Cannot get class 'X'.` (3.2: `ERROR: instance: Cannot get class 'X'.`) and
/// `ERROR: Invalid script path "X".`; every line is read, since warnings (e.g. about the class
/// name's UTF-8) may come first.
pub fn engine_rejection(stderr: &str) -> Option<EngineRejection> {
    stderr.lines().find_map(|line| {
        let message = line.strip_prefix("ERROR: ")?;
        // 3.2 names the function first.
        let message = match message.split_once(": ") {
            Some((function, rest)) if is_identifier(function) => rest,
            _ => message,
        };
        if message.starts_with("Cannot get class '") {
            Some(EngineRejection::UnknownClass)
        } else if message.starts_with("Invalid script path \"") {
            Some(EngineRejection::InvalidScriptPath)
        } else {
            None
        }
    })
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_classes_are_read_from_any_version_and_line() {
        let v4 = "ERROR: Cannot get class 'Re'.\n   at: can_instantiate (core/object/class_db.cpp:810)\n\
                  ERROR: Condition \"!ClassDB::can_instantiate(str)\" is true.";
        assert_eq!(engine_rejection(v4), Some(EngineRejection::UnknownClass));
        let v32 = "ERROR: instance: Cannot get class 'X'.\n   At: core/class_db.cpp:540.";
        assert_eq!(engine_rejection(v32), Some(EngineRejection::UnknownClass));
        let after_warning = "Unicode parsing error: Invalid UTF-8 leading byte (ff)\n\
                             ERROR: Cannot get class '\u{fffd}'.";
        assert_eq!(
            engine_rejection(after_warning),
            Some(EngineRejection::UnknownClass)
        );
        let script = "ERROR: Invalid script path \"res://N\".\n   at: _decode_container_type (core/io/marshalls.cpp:172)";
        assert_eq!(
            engine_rejection(script),
            Some(EngineRejection::InvalidScriptPath)
        );
        let other = "ERROR: Condition \"count < 0 || count * 4 * 2 > len\" is true.";
        assert_eq!(engine_rejection(other), None);
        assert_eq!(engine_rejection(""), None);
    }
}
