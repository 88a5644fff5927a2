//! How the report classifies what it lists: the [`Cause`] (and so the [`Kind`]) of a corpus record
//! listed as a defect, of a saved campaign or fuzz reproducer, and of a case two versions of one
//! major answer differently. The causes themselves, and the cause of an engine-nondeterministic
//! answer that campaigns log, are the campaign's (`crate::campaign::causes`).

use serde_json::Value;

use crate::campaign::causes::{Cause, Kind, mentions, nondeterministic};
use crate::campaign::{Class, FindingFile};
use crate::model::Field;
use crate::model::{Record, Verdict};

/// A String "[Deleted Object]" as 3.x writes it (hex, length 16 first).
const DELETED_OBJECT: &str = "100000005b44656c65746564204f626a6563745d";

/// Whether a tagged tree holds a string given as code units (`{"code_units": [...]}`).
fn has_code_units(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.contains_key("code_units") || o.values().any(has_code_units),
        Value::Array(a) => a.iter().any(has_code_units),
        _ => false,
    }
}

/// Whether a tagged tree holds a container typed as objects of no class (`{"class": ""}`).
fn has_class_of_no_name(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            ["element_type", "key_type", "value_type"].iter().any(|k| {
                o.get(*k)
                    .and_then(|t| t.get("class"))
                    .and_then(Value::as_str)
                    == Some("")
            }) || o.values().any(has_class_of_no_name)
        }
        Value::Array(a) => a.iter().any(has_class_of_no_name),
        _ => false,
    }
}

/// Whether a case is one of the corpus's nesting-depth cases (`decode/depth/…`).
fn is_depth_case(name: &str) -> bool {
    name.starts_with("decode/depth/") || name.starts_with("encode/depth/")
}

/// The cause of a corpus record listed as a defect (crashed, hung or nondeterministic).
pub fn corpus_record(r: &Record) -> Cause {
    match r.verdict {
        Verdict::Crashed if is_depth_case(&r.name) => Cause::DeepDecodeCrash,
        Verdict::Crashed | Verdict::Hung => Cause::Unexplained(Kind::EngineDefect),
        _ => nondeterministic(r),
    }
}

/// Sets the quiet bit of every f32 NaN token (`0x7f8…`/`0xff8…`) in a tree.
fn quieted(v: &Value) -> Value {
    match v {
        Value::String(s) => {
            let bits = s
                .strip_prefix("0x")
                .filter(|h| h.len() == 8)
                .and_then(|h| u32::from_str_radix(h, 16).ok());
            match bits {
                Some(b) if b & 0x7f80_0000 == 0x7f80_0000 && b & 0x007f_ffff != 0 => {
                    Value::String(format!("0x{:08x}", b | 0x0040_0000))
                }
                _ => v.clone(),
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(quieted).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), quieted(v))).collect()),
        _ => v.clone(),
    }
}

/// The cause of a saved campaign or fuzz reproducer.
pub fn finding(f: &FindingFile) -> Cause {
    let e = &f.engine_answer;
    match f.class {
        Class::CodecDiffers => {
            let codec_tree = f.codec_answer.get("tree");
            if let (Some(t), Some(c)) = (&e.tree, codec_tree)
                && t != c
                && *t == quieted(c)
            {
                return Cause::F32ThroughF64;
            }
            if e.output
                .as_deref()
                .is_some_and(|o| o.contains(DELETED_OBJECT))
            {
                return Cause::DeletedObjectKey;
            }
            if [&e.tree, &f.value]
                .into_iter()
                .flatten()
                .any(has_class_of_no_name)
            {
                return Cause::TypedContainerOfNoClass;
            }
            Cause::Unexplained(Kind::CodecDifference)
        }
        Class::EngineNondeterministic => nondeterministic(e),
        _ => Cause::Unexplained(Kind::EngineDefect),
    }
}

/// The cause of a case two versions of one major answer differently.
pub(crate) fn version_row(name: &str, a: &Record, b: &Record) -> Cause {
    let d = a.differences(b);
    if a.verdict == Verdict::Crashed || b.verdict == Verdict::Crashed {
        return if is_depth_case(name) {
            Cause::DeepDecodeCrash
        } else {
            Cause::Unexplained(Kind::EngineDefect)
        };
    }
    let units = |r: &Record| {
        [&r.tree, &r.value]
            .into_iter()
            .flatten()
            .any(has_code_units)
    };
    if units(a) || units(b) {
        return Cause::SurrogateWriting;
    }
    if d == [Field::Output] && mentions(a.tree.as_ref(), "NodePath") {
        return Cause::NodePathPadding;
    }
    if d == [Field::Consumed] && (a.consumed.is_none() || b.consumed.is_none()) {
        return Cause::ProbeNesting;
    }
    if is_depth_case(name) && (a.is_invalid() || b.is_invalid()) {
        return Cause::DepthLimitAdded;
    }
    let deleted = |r: &Record| {
        r.output
            .as_deref()
            .is_some_and(|o| o.contains(DELETED_OBJECT))
    };
    if deleted(a) != deleted(b) {
        return Cause::NanKeysLost;
    }
    Cause::Unexplained(Kind::VersionDifference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_quieted_signalling_nan_is_the_only_change() {
        let t = json!({"value": ["0x7f880000", "0x7fc00000", "0x3f800000"]});
        assert_eq!(
            quieted(&t),
            json!({"value": ["0x7fc80000", "0x7fc00000", "0x3f800000"]})
        );
    }
}
