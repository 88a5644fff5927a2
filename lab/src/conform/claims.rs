//! What a testee claims (its handshake) against what a case needs: the types a case involves,
//! its type family, and what of it the handshake leaves out.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::model::{Record, Undeclared};
use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;

use super::hello::Hello;

pub(super) fn claims_version(hello: &Hello, profile: Profile) -> bool {
    hello
        .versions
        .covers(&profile.to_string(), &[&profile.major().to_string()])
}

/// The type a decode input's header names, if the profile knows the id.
fn header_type(r: &Record, profile: Profile) -> Option<VariantType> {
    let bytes = gdmarshal::hex::unhex(r.input.as_deref()?).ok()?;
    let id = *bytes.first()? as u32;
    profile.type_of(id)
}

fn node_type(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

/// The type family of a case: the type its name names (`encode/<T>/…`, `decode/valid/<T>/…`),
/// else the type of its value or of its input's header, else its name's second segment.
pub fn family(r: &Record, profile: Profile) -> String {
    let segs: Vec<&str> = r.name.split('/').collect();
    for s in segs.iter().skip(1).take(2) {
        if let Some(t) = VariantType::from_name(s) {
            return t.name().to_string();
        }
    }
    if let Some(t) = r.value.as_ref().or(r.tree.as_ref()).and_then(node_type) {
        return VariantType::from_name(t)
            .map(|t| t.name().to_string())
            .unwrap_or_else(|| t.to_string());
    }
    if let Some(t) = header_type(r, profile) {
        return t.name().to_string();
    }
    segs.get(1).unwrap_or(&"other").to_string()
}

pub(crate) fn collect_types(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(t) = m.get("type").and_then(Value::as_str) {
                out.insert(
                    VariantType::from_name(t)
                        .map(|t| t.name().to_string())
                        .unwrap_or_else(|| t.to_string()),
                );
            }
            for v in m.values() {
                collect_types(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_types(v, out)),
        _ => {}
    }
}

/// Every type a case involves: the types in its value and tree, and its input header's type.
pub(crate) fn case_types(r: &Record, profile: Profile) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for v in [&r.value, &r.tree].into_iter().flatten() {
        collect_types(v, &mut out);
    }
    if let Some(t) = header_type(r, profile) {
        out.insert(t.name().to_string());
    }
    out
}

/// What the testee's handshake leaves out that a case needs, if anything.
pub fn undeclared(hello: &Hello, r: &Record, profile: Profile) -> Option<Undeclared> {
    let version = profile.to_string();
    let major = profile.major().to_string();
    if !hello.versions.covers(&version, &[&major]) {
        return Some(Undeclared::Version(version));
    }
    if !hello.capabilities.claims(r.direction.as_str()) {
        return Some(Undeclared::Direction(r.direction.to_string()));
    }
    let missing: Vec<String> = case_types(r, profile)
        .into_iter()
        .filter(|t| !hello.types.covers(t, &[]))
        .collect();
    if !missing.is_empty() {
        return Some(Undeclared::Types(missing));
    }
    if let Some(max) = hello.max_json_depth {
        let needs = json_depth(r);
        if needs > max {
            return Some(Undeclared::JsonDepth { needs, max });
        }
    }
    None
}

/// The deepest JSON a case sends the testee or asks it to write: a request line is one level,
/// the value or decoded tree in it (an encode request, a decode answer and its re-encoding
/// request) as deep as its own objects and arrays go.
pub(crate) fn json_depth(r: &Record) -> usize {
    1 + [&r.value, &r.tree]
        .into_iter()
        .flatten()
        .map(value_depth)
        .max()
        .unwrap_or(0)
}

/// Levels of objects and arrays in `v`, counted without recursion (corpus trees nest 8,000
/// levels deep).
fn value_depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 1)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Object(m) => Box::new(m.values()),
            Value::Array(a) => Box::new(a.iter()),
            _ => continue,
        };
        deepest = deepest.max(depth);
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::case::Direction;

    fn record(name: &str, input: Option<&str>, tree: Option<Value>) -> Record {
        Record {
            name: name.into(),
            direction: Direction::Decode,
            input: input.map(str::to_string),
            value: None,
            objects: false,
            verdict: crate::model::Verdict::Rejected,
            consumed: None,
            tree,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn json_depth_counts_the_request_and_every_level_of_the_value() {
        let mut r = record("decode/valid/x", Some("00000000"), None);
        assert_eq!(json_depth(&r), 1);
        r.tree = Some(serde_json::json!({"type": "Nil"}));
        assert_eq!(json_depth(&r), 2);
        r.tree =
            Some(serde_json::json!({"type": "Array", "value": [{"type": "Array", "value": []}]}));
        assert_eq!(json_depth(&r), 5);
        let mut deep = serde_json::json!({"type": "Nil"});
        for _ in 0..5000 {
            // Built by hand: json! would serialize `deep` again, recursively, at every level.
            let mut array = serde_json::Map::new();
            array.insert("type".into(), "Array".into());
            array.insert("value".into(), Value::Array(vec![deep]));
            deep = Value::Object(array);
        }
        r.tree = Some(deep);
        assert_eq!(json_depth(&r), 1 + 2 * 5000 + 1);
        // Dropping a tree that deep recurses: leave it to a thread with room.
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || drop(r))
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn families_come_from_names_values_and_headers() {
        let p46: Profile = "4.6".parse().unwrap();
        let p36: Profile = "3.6".parse().unwrap();
        let f = |n: &str, i: Option<&str>, p| family(&record(n, i, None), p);
        assert_eq!(f("encode/float/one", None, p46), "float");
        assert_eq!(
            f("decode/valid/Vector2/x", Some("05000000"), p46),
            "Vector2"
        );
        assert_eq!(
            f("decode/truncated/Array/1/at_3", Some("1c00"), p46),
            "Array"
        );
        assert_eq!(f("decode/noncanonical/x", Some("1c000000"), p46), "Array");
        assert_eq!(f("decode/noncanonical/x", Some("13000000"), p36), "Array");
        assert_eq!(
            f("decode/unknown_type/64", Some("40000000"), p46),
            "unknown_type"
        );
        let types = case_types(
            &record(
                "decode/x",
                Some("1c000000"),
                Some(serde_json::json!({"type":"Array","value":[{"type":"float","value":"1"}]})),
            ),
            p46,
        );
        assert_eq!(types.into_iter().collect::<Vec<_>>(), ["Array", "float"]);
    }
}
