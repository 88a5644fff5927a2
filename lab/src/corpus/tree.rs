//! Reading tagged-JSON trees by their structure: the types a value involves.

use std::collections::BTreeSet;

use serde_json::Value;

/// Every `type` named in a tagged-JSON tree, as written there.
pub fn types_in(tree: &Value, out: &mut BTreeSet<String>) {
    match tree {
        Value::Object(m) => {
            if let Some(Value::String(t)) = m.get("type") {
                out.insert(t.clone());
            }
            m.values().for_each(|v| types_in(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| types_in(v, out)),
        _ => {}
    }
}

/// Whether a node of type `ty` is anywhere in a tagged-JSON tree.
pub fn mentions_type(tree: &Value, ty: &str) -> bool {
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
pub fn classes_in(tree: &Value, out: &mut BTreeSet<String>) {
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
        let mut types = BTreeSet::new();
        types_in(&t, &mut types);
        assert_eq!(
            types.into_iter().collect::<Vec<_>>(),
            ["Array", "NodePath", "String"]
        );
    }
}
