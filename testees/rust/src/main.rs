//! A testee for `gdmarshal conform` in Rust (docs/conformance.md): [`protocol`] speaks the testee
//! protocol on stdin and stdout; this file is where your implementation plugs in. Replace the
//! bodies of [`decode`] and [`encode`] with calls into your library (they call this repository's
//! codec as a stand-in), set [`HELLO`] to what it handles, and run:
//!
//! ```sh
//! cargo build --release --manifest-path testees/rust/Cargo.toml
//! gdmarshal conform --testee testees/rust/target/release/gdmarshal-testee-kit --godot 4.6
//! ```
//!
//! `GDMARSHAL_TESTEE_BROKEN=cap-65535` in its environment makes it a deliberately broken variant
//! that refuses arrays and dictionaries of more than 65,535 elements (a 16-bit count), which the
//! corpus's stress cases catch.
//!
//! This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it
//! freely.

mod protocol;

use serde_json::Value;

use gdmarshal::decode::DecodeOptions;
use gdmarshal::encode::EncodeOptions;
use gdmarshal::error::DecodeErrorKind;
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;

use protocol::{Hello, NotOk};

/// What the testee says of itself in the handshake.
const HELLO: Hello = Hello {
    name: "gdmarshal-testee-kit (Rust template)",
    versions: &[],     // empty: "all"; else e.g. &["4.6", "3"]
    capabilities: &[], // empty: "all"; else a subset of decode, encode, reencode
    types: &[],        // empty: "all"; else tagged JSON's type names
    expect_fail: include_str!("../expect-fail.txt"),
};

/// Decodes `input` as Godot `godot`'s `bytes_to_var` (`allow_objects` = `objects`) would: the
/// value as tagged JSON and the bytes consumed, or why not.
fn decode(godot: &str, input: &[u8], objects: bool) -> Result<(Value, usize), NotOk> {
    let profile = profile(godot)?;
    let options = DecodeOptions::new().allow_objects(objects);
    let decoded =
        gdmarshal::decode::decode(input, profile, options).map_err(|e| NotOk::Refused {
            message: e.to_string(),
            kind: kind(&e.kind),
        })?;
    let tree = to_json(&decoded.value, profile, FloatStyle::Shortest);
    broken_cap(&tree)?;
    Ok((tree, decoded.consumed))
}

/// Encodes `value` (tagged JSON) as Godot `godot`'s `var_to_bytes` (`full_objects` = `objects`)
/// would, or says why not.
fn encode(godot: &str, value: &Value, objects: bool) -> Result<Vec<u8>, NotOk> {
    let profile = profile(godot)?;
    broken_cap(value)?;
    let value = from_json(value, profile).map_err(|e| NotOk::Refused {
        message: e.to_string(),
        kind: None,
    })?;
    let options = EncodeOptions::new().full_objects(objects);
    gdmarshal::encode::encode(&value, profile, options).map_err(|e| NotOk::Refused {
        message: e.to_string(),
        kind: None,
    })
}

fn profile(godot: &str) -> Result<Profile, NotOk> {
    godot
        .parse()
        .map_err(|e| NotOk::Skipped(format!("Godot {godot}: {e}")))
}

/// The rejection kind of the protocol's vocabulary for a decode error (docs/conformance.md).
fn kind(k: &DecodeErrorKind) -> Option<&'static str> {
    Some(match k {
        DecodeErrorKind::Truncated { .. } => "truncated",
        DecodeErrorKind::UnknownType { .. } | DecodeErrorKind::BadContainerType { .. } => {
            "bad-type"
        }
        DecodeErrorKind::BadLength { .. } => "bad-count",
        DecodeErrorKind::BadUtf8 { .. } => "bad-utf8",
        DecodeErrorKind::TooDeep { .. } => "too-deep",
        DecodeErrorKind::ObjectsNotAllowed => "not-allowed-object",
        DecodeErrorKind::OldNodePath
        | DecodeErrorKind::NameNotText { .. }
        | DecodeErrorKind::ScriptPropertyNotPath
        | DecodeErrorKind::ScriptPathNotResource { .. }
        | DecodeErrorKind::Class(_) => "bad-value",
        _ => return None,
    })
}

/// The deliberately broken variant: containers of more than 65,535 elements are refused.
fn broken_cap(tree: &Value) -> Result<(), NotOk> {
    if std::env::var("GDMARSHAL_TESTEE_BROKEN").as_deref() != Ok("cap-65535") {
        return Ok(());
    }
    let mut stack = vec![tree];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                let container = matches!(
                    m.get("type").and_then(Value::as_str),
                    Some("Array" | "Dictionary")
                );
                if let (true, Some(Value::Array(items))) = (container, m.get("value"))
                    && items.len() > 65_535
                {
                    return Err(NotOk::Refused {
                        message: "more than 65,535 elements are not supported".into(),
                        kind: Some("bad-count"),
                    });
                }
                stack.extend(m.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    Ok(())
}

fn main() {
    protocol::serve(HELLO, decode, encode);
}
