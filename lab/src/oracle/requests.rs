//! Request lines for the engine script, and its answers turned into results.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::result::{DecodeResult, EncodeResult, EngineVerdict};
use crate::model::{Unbuildable, Unsupported};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;

/// The `hello` request: the engine's version.
pub const HELLO: &str = r#"{"op":"hello"}"#;

/// What the oracle got for one request line.
#[derive(Debug)]
pub(crate) enum Reply {
    /// A result line from the engine.
    Line {
        /// The line's JSON, or why it could not be read.
        json: Result<Value, serde_json::Error>,
        /// Whether invalid UTF-8 in it was replaced.
        lossy: bool,
        /// Whether it nests deeper than serde_json reads.
        deep: bool,
        /// The engine's stderr while serving the request (up to its `m` marker).
        stderr: String,
    },
    /// No line: the request crashed or hung the engine, or could not be served.
    Verdict(EngineVerdict),
}

const LOSSY: &str = "the engine holds a string that is not valid Unicode (e.g. a lone surrogate); \
                     it was replaced by U+FFFD";

/// A decode request line.
pub(crate) fn decode_line(bytes: &[u8], allow_objects: bool) -> String {
    // Base64 needs no JSON escaping, and this is the hot path of a campaign.
    format!(
        r#"{{"op":"decode","objects":{allow_objects},"bytes":"{}"}}"#,
        BASE64.encode(bytes)
    )
}

/// An encode request line: the value as tagged JSON with exact float bits. A double-precision
/// build is asked with single-precision components widened ([`super::widen`]).
pub(crate) fn encode_line(value: &Variant, profile: Profile, stand_ins: bool) -> String {
    let value = if profile.double_reals() {
        super::widen::widened(value)
    } else {
        std::borrow::Cow::Borrowed(value)
    };
    let mut line = json!({"op": "encode", "tree": to_json(&value, profile, FloatStyle::Bits)});
    if stand_ins {
        super::node_bytes::add_node_bytes(&mut line["tree"], profile);
        line["stand_ins"] = json!(true);
    }
    line.to_string()
}

/// The same request asking, in the same round trip, whether the engine decodes the bytes it
/// writes in answer (`"own":true`; the result then holds `own_accepted`).
pub(crate) fn with_own_check(line: &str) -> String {
    format!("{{\"own\":true,{}", line.strip_prefix('{').unwrap_or(line))
}

/// The engine's verdict on decoding the bytes it wrote, when the request asked
/// ([`with_own_check`]) and the answer says.
pub fn own_accepted(reply: &Reply) -> Option<bool> {
    match reply {
        Reply::Line { json: Ok(j), .. } => j.get("own_accepted").and_then(Value::as_bool),
        _ => None,
    }
}

/// A request that keeps the engine busy for `ms` milliseconds.
pub(crate) fn sleep_line(ms: u128) -> String {
    format!(r#"{{"op":"sleep","ms":{ms}}}"#)
}

/// The answer to a decode request.
pub(crate) fn decode_result(answer: Reply, profile: Profile) -> DecodeResult {
    let mut r = DecodeResult {
        verdict: EngineVerdict::Unanswered(String::new()),
        value: None,
        tree: None,
        consumed: None,
        reencoded: None,
        reencoded_full: None,
        placeholders: Vec::new(),
        error_text: String::new(),
        notes: Vec::new(),
    };
    let deep = matches!(answer, Reply::Line { deep: true, .. });
    let mut j = match open(answer, &mut r.error_text, &mut r.notes) {
        Ok(j) => j,
        // Any bytes make a decode request: a refusal to take one is the oracle failing.
        Err(EngineVerdict::Unsupported(why)) => {
            r.verdict = EngineVerdict::Unanswered(why.text);
            return r;
        }
        Err(v) => {
            r.verdict = v;
            return r;
        }
    };
    if let Some(why) = j.get("inconsistent").and_then(Value::as_str) {
        r.notes.push(why.to_string());
    }
    r.verdict = match j.get("accepted").and_then(Value::as_bool) {
        Some(true) => EngineVerdict::Accepted,
        Some(false) => EngineVerdict::Rejected,
        None => EngineVerdict::Unanswered("the answer has no verdict".into()),
    };
    if r.verdict != EngineVerdict::Accepted {
        return r;
    }
    // 3.x answers -1 when its probe finds no length.
    r.consumed = j
        .get("consumed")
        .and_then(Value::as_i64)
        .and_then(|n| usize::try_from(n).ok());
    r.reencoded = bytes_of(&j, "reencoded", &mut r.notes);
    r.placeholders = placeholders_of(&j, &mut r.notes);
    r.reencoded_full = bytes_of(&j, "reencoded_full", &mut r.notes);
    r.tree = j.as_object_mut().and_then(|o| o.remove("tree"));
    if let Some(why) = j.get("incomplete").and_then(Value::as_str) {
        // The tree stops early: it is not the decoded value.
        r.notes.push(why.to_string());
        return r;
    }
    r.value = tree_value(r.tree.as_ref(), profile, deep, &mut r.notes);
    r
}

/// The answer's placeholders (none when it names none), or a note that they are malformed.
fn placeholders_of(j: &Value, notes: &mut Vec<String>) -> Vec<(u64, u64)> {
    let Some(p) = j.get("placeholders") else {
        return Vec::new();
    };
    super::placeholders::of_answer(p).unwrap_or_else(|| {
        notes.push("the answer's placeholders are not id pairs".into());
        Vec::new()
    })
}

/// The answer to an encode request.
pub(crate) fn encode_result(answer: Reply, profile: Profile, full_objects: bool) -> EncodeResult {
    let mut r = EncodeResult {
        verdict: EngineVerdict::Unanswered(String::new()),
        full_objects,
        plain: None,
        full: None,
        value: None,
        placeholders: Vec::new(),
        error_text: String::new(),
        notes: Vec::new(),
    };
    let deep = matches!(answer, Reply::Line { deep: true, .. });
    let mut j = match open(answer, &mut r.error_text, &mut r.notes) {
        Ok(j) => j,
        Err(v) => {
            r.verdict = v;
            return r;
        }
    };
    // A value built with a stand-in the full encoding would show (godot_project/README.md).
    if j.get("unsupported_full").is_some() && full_objects {
        r.verdict = EngineVerdict::Unsupported(unsupported(
            &j,
            "unsupported_full",
            "unsupported_full_reason",
            None,
        ));
        return r;
    }
    if j.get("ok").and_then(Value::as_bool) != Some(true) {
        r.verdict = EngineVerdict::Unsupported(unsupported(&j, "unsupported", "reason", None));
        return r;
    }
    // The engine's own encoder refused the value it built (it nests past the engine's limit),
    // or refused only to write it with full objects, which can nest deeper than their ids.
    let refused = |key: &str| j.get(key).and_then(Value::as_bool) == Some(true);
    if refused("refused") || (full_objects && refused("refused_full")) {
        r.verdict = EngineVerdict::Rejected;
        return r;
    }
    r.verdict = EngineVerdict::Accepted;
    r.plain = bytes_of(&j, "bytes", &mut r.notes);
    r.full = bytes_of(&j, "bytes_full", &mut r.notes);
    r.placeholders = placeholders_of(&j, &mut r.notes);
    let tree = j.as_object_mut().and_then(|o| o.remove("tree"));
    r.value = tree_value(tree.as_ref(), profile, deep, &mut r.notes);
    r
}

/// The verdict of a request that returns nothing but success (`sleep`).
pub(crate) fn plain_verdict(answer: Reply) -> EngineVerdict {
    match open(answer, &mut String::new(), &mut Vec::new()) {
        Ok(_) => EngineVerdict::Accepted,
        Err(v) => v,
    }
}

/// The answer's JSON, or the verdict that stands instead of it: a request the script refused as
/// malformed (`{"error":...}`, e.g. a value GDScript cannot hold) is one it cannot pose,
/// [`EngineVerdict::Unsupported`]; no line, or an unreadable one, is [`EngineVerdict::Unanswered`].
pub(super) fn open(
    answer: Reply,
    error_text: &mut String,
    notes: &mut Vec<String>,
) -> Result<Value, EngineVerdict> {
    let (json, lossy, stderr) = match answer {
        Reply::Verdict(v) => return Err(v),
        Reply::Line {
            json,
            lossy,
            stderr,
            ..
        } => (json, lossy, stderr),
    };
    *error_text = stderr;
    if lossy {
        notes.push(LOSSY.to_string());
    }
    let j = json.map_err(|e| EngineVerdict::Unanswered(format!("unreadable result line: {e}")))?;
    if j.get("error").is_some() {
        let mut refused = unsupported(&j, "error", "reason", Some(Unbuildable::OracleRefused));
        refused.text = format!("the oracle refused the request: {}", refused.text);
        return Err(EngineVerdict::Unsupported(refused));
    }
    Ok(j)
}

/// Why the oracle could not build a value: the words under `key` and the code under `reason_key`;
/// `missing` when it gives no code this lab knows.
fn unsupported(
    j: &Value,
    key: &str,
    reason_key: &str,
    missing: Option<Unbuildable>,
) -> Unsupported {
    Unsupported {
        why: j
            .get(reason_key)
            .and_then(Value::as_str)
            .and_then(Unbuildable::from_code)
            .or(missing),
        text: j
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("no reason given")
            .to_string(),
    }
}

fn bytes_of(j: &Value, key: &str, notes: &mut Vec<String>) -> Option<Vec<u8>> {
    let text = j.get(key)?.as_str()?;
    let bytes = BASE64.decode(text).ok();
    if bytes.is_none() {
        notes.push(format!("{key} is not base64"));
    }
    bytes
}

/// The stack for reading a deeply nested tree: from_json recurses once or twice per level.
const DEEP_STACK: usize = 256 << 20;

fn tree_value(
    tree: Option<&Value>,
    profile: Profile,
    deep: bool,
    notes: &mut Vec<String>,
) -> Option<Variant> {
    let tree = tree?;
    let read = || from_json(tree, profile);
    match if deep {
        stacker::grow(DEEP_STACK, read)
    } else {
        read()
    } {
        Ok(v) => Some(v),
        Err(e) => {
            notes.push(format!("the engine's tree does not read as a value: {e}"));
            None
        }
    }
}
