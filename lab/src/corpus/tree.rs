//! Reading tagged-JSON trees by their structure: the types a value involves.

use std::collections::BTreeSet;

use serde_json::Value;

/// Whether a node of type `ty` is anywhere in a tagged-JSON tree.
pub(crate) fn mentions_type(tree: &Value, ty: &str) -> bool {
    match tree {
        Value::Object(m) => {
            m.get("type").and_then(Value::as_str) == Some(ty)
                || m.values().any(|v| mentions_type(v, ty))
        }
        Value::Array(a) => a.iter().any(|v| mentions_type(v, ty)),
        _ => false,
    }
}

/// Adds the class of every full object in a tagged-JSON tree to `out`.
pub(crate) fn classes_in(tree: &Value, out: &mut BTreeSet<String>) {
    match tree {
        Value::Object(m) => {
            if m.get("type").and_then(Value::as_str) == Some("Object")
                && let Some(c) = m.get("class").and_then(Value::as_str)
            {
                out.insert(c.to_string());
            }
            m.values().for_each(|v| classes_in(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| classes_in(v, out)),
        _ => {}
    }
}

/// Every (class, script path) of a full object in a tagged-JSON tree whose `script` property is
/// a String (the path a 4.x decoder loads), at any depth.
pub(crate) fn scripted_in(tree: &Value, out: &mut BTreeSet<(String, String)>) {
    match tree {
        Value::Object(m) => {
            if m.get("type").and_then(Value::as_str) == Some("Object")
                && let Some(c) = m.get("class").and_then(Value::as_str)
                && let Some(props) = m.get("properties").and_then(Value::as_array)
            {
                for p in props {
                    if let Some([name, v]) = p.as_array().map(Vec::as_slice)
                        && name.as_str() == Some("script")
                        && v.get("type").and_then(Value::as_str) == Some("String")
                        && let Some(path) = v.get("value").and_then(Value::as_str)
                    {
                        out.insert((c.to_string(), path.to_string()));
                    }
                }
            }
            m.values().for_each(|v| scripted_in(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| scripted_in(v, out)),
        _ => {}
    }
}

/// Every (class, script path) of a full object in what `input` decodes to with objects, in
/// `profile`: the scripts the engine's decoder loads, which the engine's answer does not show
/// where it could not set one (a script of another base class).
pub(crate) fn scripted_in_input(
    input: &[u8],
    profile: gdmarshal::Profile,
    out: &mut BTreeSet<(String, String)>,
) {
    // A `script` property names itself in the bytes: most inputs are passed over undecoded.
    if !input.windows(6).any(|w| w == b"script") {
        return;
    }
    let options = gdmarshal::DecodeOptions::new().allow_objects(true);
    let Ok(d) = gdmarshal::decode(input, profile, options) else {
        return;
    };
    let mut stack: Vec<&gdmarshal::Variant> = vec![&d.value];
    while let Some(v) = stack.pop() {
        match v {
            gdmarshal::Variant::Object(o) => {
                if let gdmarshal::value::Object::Full { class, properties } = &**o {
                    for (name, p) in properties {
                        if let (true, gdmarshal::Variant::String(path)) = (name == "script", p) {
                            out.insert((class.clone(), path.to_string_lossy().into_owned()));
                        }
                        stack.push(p);
                    }
                }
            }
            gdmarshal::Variant::Array(a) => stack.extend(a.items()),
            gdmarshal::Variant::Dictionary(d) => {
                stack.extend(d.entries().iter().flat_map(|(k, v)| [k, v]));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_found_at_any_depth() {
        let t = serde_json::json!({"type": "Array", "value": [
            {"type": "NodePath", "value": "a"},
            {"type": "String", "value": "{\"type\":\"Object\"}"},
        ]});
        assert!(mentions_type(&t, "NodePath"));
        assert!(
            !mentions_type(&t, "Object"),
            "text inside a string is no node"
        );
    }
}
