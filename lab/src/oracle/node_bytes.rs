//! The codec's bytes of the values in an encode request that no script can build: a NodePath
//! (whose names path text may not spell) and a Signal of an object known by its id alone. A
//! request with stand-ins carries them as `"bytes"` on those nodes, and the oracle decodes a
//! node from them where it cannot build it otherwise, using it only if it decodes to the node
//! asked for (godot_project/README.md, "stand_ins").

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;
use serde_json::{Map, Value};

/// Adds `"bytes"` to every NodePath node and every Signal node with an object in `tree`.
/// Iterative: a tree may nest thousands of levels.
pub(super) fn add_node_bytes(tree: &mut Value, profile: Profile) {
    let mut stack = vec![tree];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(node) => match node.get("type").and_then(Value::as_str) {
                Some("NodePath") => add_bytes(node, profile),
                Some("Signal") if node.get("object").and_then(Value::as_str) != Some("0") => {
                    add_bytes(node, profile)
                }
                _ => stack.extend(node.values_mut()),
            },
            _ => {}
        }
    }
}

fn add_bytes(node: &mut Map<String, Value>, profile: Profile) {
    let Ok(value) = from_json(&Value::Object(node.clone()), profile) else {
        return;
    };
    if let Ok(bytes) = encode(&value, profile, EncodeOptions::default()) {
        node.insert("bytes".into(), Value::String(BASE64.encode(bytes)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nodepaths_and_signals_of_objects_get_their_bytes_at_any_depth() {
        let p: Profile = "4.6".parse().unwrap();
        let path = json!({"type": "NodePath", "names": ["a/b"], "subnames": [], "absolute": false});
        let signal = |object: &str| json!({"type": "Signal", "name": "s", "object": object});
        let mut tree = json!({"type": "Array", "value": [
            {"type": "Array", "value": [path.clone(), signal("7")]},
            signal("0"),
            {"type": "int", "value": "1"},
        ]});
        add_node_bytes(&mut tree, p);
        let inner = &tree["value"][0]["value"];
        for (node, asked) in [(&inner[0], &path), (&inner[1], &signal("7"))] {
            let bytes = BASE64.decode(node["bytes"].as_str().unwrap()).unwrap();
            let value = from_json(asked, p).unwrap();
            assert_eq!(bytes, encode(&value, p, EncodeOptions::default()).unwrap());
        }
        // A Signal of no object is built by the script, and other nodes carry nothing.
        assert_eq!(tree["value"][1], signal("0"));
        assert_eq!(tree["value"][2], json!({"type": "int", "value": "1"}));
    }
}
