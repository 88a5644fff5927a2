//! Where two tagged-JSON trees first differ **as values**, not as text.
//!
//! Tagged JSON spells one float in several ways (`0.1`, `1e-1`, `0x3fb999999999999a`; `10` and
//! `1e1`), and one 64-bit integer as `"10"` or `10`. Whether two typed nodes are the same value is
//! decided by this crate's codec (both read with [`from_json`] and compared bit for bit: `-0`
//! differs from `0`, a NaN equals only a NaN with the same bits, `nan` being the canonical quiet
//! NaN of its width); where they differ, the first component that differs by value is named, with
//! both sides' spelling and, for floats, both bit patterns.

use std::fmt;

use serde_json::Value;

use gdmarshal::float;
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;

/// The first node where two trees differ as values.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDiff {
    /// Its path, e.g. `$.value[2].value[0]`.
    pub path: String,
    /// The engine's side of it, as written (a whole node, a component, or `(absent)`).
    pub expected: String,
    /// The implementation's side, as written.
    pub got: String,
    /// For a float component: both bit patterns (`0x…`), engine's first.
    pub bits: Option<(String, String)>,
}

impl fmt::Display for NodeDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: engine {}, got {}",
            self.path, self.expected, self.got
        )?;
        if let Some((e, g)) = &self.bits {
            write!(f, " (bits {e} vs {g})")?;
        }
        Ok(())
    }
}

/// The longest spelling of one side kept in a [`NodeDiff`].
const SHOWN: usize = 200;

fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.len() <= SHOWN {
        return s;
    }
    let cut = (0..=SHOWN)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes)", &s[..cut], s.len())
}

fn type_of(v: &Value) -> Option<&str> {
    v.as_object()?.get("type")?.as_str()
}

fn canonical(t: &str) -> String {
    VariantType::from_name(t)
        .map(|t| t.name().to_string())
        .unwrap_or_else(|| t.to_string())
}

/// Whether a node holds further typed nodes (a container, a full object): those are compared
/// node by node; the others as one value.
fn holds_nodes(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.values().any(|c| type_of(c).is_some() || holds_nodes(c)),
        Value::Array(a) => a.iter().any(|c| type_of(c).is_some() || holds_nodes(c)),
        _ => false,
    }
}

/// The width in bytes of the floats a leaf type's components are, as the profile writes them;
/// `None` for a type whose components are not floats (ints, bools, strings): their differences
/// are shown as the numbers or text they are, with no bit patterns.
fn float_width(ty: &str, profile: Profile) -> Option<usize> {
    use gdmarshal::types::{Element, Shape};
    let real = if profile.wide_reals() { 8 } else { 4 };
    match VariantType::from_name(ty)?.shape() {
        // A float is written as an f64 when it needs it; tagged JSON holds it as one.
        Shape::Float | Shape::Packed(Element::F64) => Some(8),
        Shape::Color | Shape::Packed(Element::Color | Element::F32) => Some(4),
        Shape::Reals(_) | Shape::Packed(Element::Reals(_)) => Some(real),
        _ => None,
    }
}

/// The bits of a float token of `width` bytes (a `0x` token gives its own width).
fn bits(token: &str, width: usize) -> Option<(u64, usize)> {
    let width = match token.strip_prefix("0x") {
        Some(h) if h.len() == 8 => 4,
        Some(h) if h.len() == 16 => 8,
        _ => width,
    };
    if width == 4 {
        float::parse::<f32>(token)
            .ok()
            .map(|f| (f.to_bits() as u64, 4))
    } else {
        float::parse::<f64>(token).ok().map(|f| (f.to_bits(), 8))
    }
}

fn spelled_bits((b, width): (u64, usize)) -> String {
    format!("0x{b:0w$x}", w = width * 2)
}

/// Two components of a leaf node: equal as numbers (floats by bits, integers by value)?
fn same_component(a: &Value, b: &Value, width: Option<usize>) -> bool {
    if a == b {
        return true;
    }
    let int = |v: &Value| match v {
        Value::String(s) => s.parse::<i128>().ok(),
        Value::Number(n) => n.as_i64().map(i128::from),
        _ => None,
    };
    if let (Some(x), Some(y)) = (int(a), int(b)) {
        return x == y;
    }
    match (float_bits(a, width), float_bits(b, width)) {
        (Some(x), Some(y)) => x.0 == y.0 && x.1 == y.1,
        _ => false,
    }
}

/// The bits of a component of a float type (`width` given), spelled as a string token.
fn float_bits(v: &Value, width: Option<usize>) -> Option<(u64, usize)> {
    bits(v.as_str()?, width?)
}

/// Inside a leaf node known to differ: the first component that differs by value.
fn component(a: &Value, b: &Value, path: &str, width: Option<usize>) -> Option<NodeDiff> {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if let Some(d) = component(v, w, &format!("{path}[{i}]"), width) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| NodeDiff {
                path: format!("{path} (length {} vs {})", x.len(), y.len()),
                expected: shown(a),
                got: shown(b),
                bits: None,
            })
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let d = match y.get(k) {
                    Some(w) => component(v, w, &format!("{path}.{k}"), width),
                    None => Some(absent(&format!("{path}.{k}"), v, true)),
                };
                if d.is_some() {
                    return d;
                }
            }
            let (k, w) = y.iter().find(|(k, _)| !x.contains_key(*k))?;
            Some(absent(&format!("{path}.{k}"), w, false))
        }
        _ if same_component(a, b, width) => None,
        _ => {
            let both = (float_bits(a, width), float_bits(b, width));
            Some(NodeDiff {
                path: path.to_string(),
                expected: shown(a),
                got: shown(b),
                bits: match both {
                    (Some(x), Some(y)) => Some((spelled_bits(x), spelled_bits(y))),
                    _ => None,
                },
            })
        }
    }
}

fn absent(path: &str, v: &Value, engine_has_it: bool) -> NodeDiff {
    let (expected, got) = if engine_has_it {
        (shown(v), "(absent)".to_string())
    } else {
        ("(absent)".to_string(), shown(v))
    };
    NodeDiff {
        path: path.to_string(),
        expected,
        got,
        bits: None,
    }
}

/// The first node where `expected` (the engine's tree) and `got` differ as values of `profile`;
/// `None` when they are the same value, however spelled.
pub fn first_value_difference(expected: &Value, got: &Value, profile: Profile) -> Option<NodeDiff> {
    walk(expected, got, "$", profile)
}

fn walk(a: &Value, b: &Value, path: &str, profile: Profile) -> Option<NodeDiff> {
    if let (Some(ta), Some(tb)) = (type_of(a), type_of(b)) {
        if canonical(ta) != canonical(tb) {
            return Some(NodeDiff {
                path: path.to_string(),
                expected: shown(a),
                got: shown(b),
                bits: None,
            });
        }
        if !holds_nodes(a) && !holds_nodes(b) {
            let same = match (from_json(a, profile), from_json(b, profile)) {
                (Ok(x), Ok(y)) => x == y,
                _ => a == b,
            };
            if same {
                return None;
            }
            let width = float_width(&canonical(ta), profile);
            return Some(component(a, b, path, width).unwrap_or_else(|| NodeDiff {
                path: path.to_string(),
                expected: shown(a),
                got: shown(b),
                bits: None,
            }));
        }
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let d = match y.get(k) {
                    Some(w) => walk(v, w, &format!("{path}.{k}"), profile),
                    None => Some(absent(&format!("{path}.{k}"), v, true)),
                };
                if d.is_some() {
                    return d;
                }
            }
            let (k, w) = y.iter().find(|(k, _)| !x.contains_key(*k))?;
            Some(absent(&format!("{path}.{k}"), w, false))
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if let Some(d) = walk(v, w, &format!("{path}[{i}]"), profile) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| NodeDiff {
                path: format!("{path} (length {} vs {})", x.len(), y.len()),
                expected: format!("{} items", x.len()),
                got: format!("{} items", y.len()),
                bits: None,
            })
        }
        _ if a == b => None,
        _ => Some(NodeDiff {
            path: path.to_string(),
            expected: shown(a),
            got: shown(b),
            bits: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p46() -> Profile {
        "4.6".parse().unwrap()
    }

    fn float(t: &str) -> Value {
        json!({"type": "float", "value": t})
    }

    #[test]
    fn floats_spelled_differently_are_the_same_value() {
        for (a, b) in [
            ("0.1", "0x3fb999999999999a"),
            ("10", "1e1"),
            ("nan", "0x7ff8000000000000"),
            ("inf", "0x7ff0000000000000"),
        ] {
            let tree =
                |t| json!({"type": "Array", "value": [float(t), {"type": "int", "value": "10"}]});
            assert_eq!(
                first_value_difference(&tree(a), &tree(b), p46()),
                None,
                "{a} {b}"
            );
        }
        let v = |x: Value| json!({"type": "Vector2", "value": [x, "1"]});
        assert_eq!(
            first_value_difference(&v(json!("0.5")), &v(json!("0x3f000000")), p46()),
            None
        );
        let i = |x: Value| json!({"type": "int", "value": x});
        assert_eq!(
            first_value_difference(&i(json!("10")), &i(json!(10)), p46()),
            None
        );
    }

    #[test]
    fn a_wrong_float_is_named_at_its_path_with_both_bit_patterns() {
        let deep = |t: &str| {
            json!({"type": "Array", "value": [
                {"type": "String", "value": "1e1"},
                {"type": "Dictionary", "value": [[
                    {"type": "String", "value": "k"},
                    {"type": "Array", "value": [float("0.5"), float(t)]}
                ]]}
            ]})
        };
        let d = first_value_difference(&deep("0.1"), &deep("0x3fb999999999999b"), p46()).unwrap();
        assert_eq!(d.path, "$.value[1].value[0][1].value[1].value");
        assert_eq!(d.expected, "\"0.1\"");
        assert_eq!(d.got, "\"0x3fb999999999999b\"");
        assert_eq!(
            d.bits,
            Some(("0x3fb999999999999a".into(), "0x3fb999999999999b".into()))
        );
        // -0 is not 0, and a NaN payload is not the canonical NaN.
        assert!(first_value_difference(&float("0"), &float("-0"), p46()).is_some());
        let nan = first_value_difference(&float("nan"), &float("0x7ff8000000000001"), p46());
        assert_eq!(nan.unwrap().bits.unwrap().0, "0x7ff8000000000000");
        // A real_t component is an f32 in a single-precision build.
        let v = |x: &str| json!({"type": "Vector2", "value": ["1", x]});
        let d = first_value_difference(&v("0.1"), &v("0.2"), p46()).unwrap();
        assert_eq!(d.path, "$.value[1]");
        assert_eq!(d.bits, Some(("0x3dcccccd".into(), "0x3e4ccccd".into())));
        // Strings are compared as text, even when they read as numbers.
        let s = |x: &str| json!({"type": "String", "value": x});
        assert!(first_value_difference(&s("10"), &s("1e1"), p46()).is_some());
        let long = first_value_difference(
            &json!({"type": "Array", "value": [float("1")]}),
            &json!({"type": "Array", "value": []}),
            p46(),
        )
        .unwrap();
        assert_eq!(long.path, "$.value (length 1 vs 0)");
    }

    #[test]
    fn a_wrong_int_is_shown_as_the_number_it_is_without_bits() {
        let i = |x: &str| json!({"type": "int", "value": x});
        for (a, b) in [("2147483648", "-2147483648"), ("2147483646", "2147483647")] {
            let d = first_value_difference(&i(a), &i(b), p46()).unwrap();
            assert_eq!(
                d.to_string(),
                format!("$.value: engine \"{a}\", got \"{b}\"")
            );
        }
        let v = |y: &str| json!({"type": "Vector2i", "value": ["1", y]});
        let d = first_value_difference(&v("-3"), &v("4294967293"), p46()).unwrap();
        assert_eq!((d.path.as_str(), d.bits), ("$.value[1]", None));
        let packed = |x: &str| json!({"type": "PackedInt64Array", "value": [x]});
        let d = first_value_difference(&packed("1"), &packed("2"), p46()).unwrap();
        assert_eq!(d.bits, None);
        // A float's components still carry their bits; a double build's real_t is 8 bytes.
        let c = |x: &str| json!({"type": "Color", "value": ["1", "1", "1", x]});
        let d = first_value_difference(&c("1"), &c("0.5"), p46()).unwrap();
        assert_eq!(d.bits, Some(("0x3f800000".into(), "0x3f000000".into())));
        let v = |x: &str| json!({"type": "Vector2", "value": ["1", x]});
        let double: Profile = "4.6-double".parse().unwrap();
        let d = first_value_difference(&v("1"), &v("0.5"), double).unwrap();
        assert_eq!(
            d.bits,
            Some(("0x3ff0000000000000".into(), "0x3fe0000000000000".into()))
        );
    }
}
