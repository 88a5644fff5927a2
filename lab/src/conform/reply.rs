//! The runner's requests and a testee's answers as they cross the protocol (docs/conformance.md).
//!
//! An answer is read into [`Reply`]: each member the runner reads is kept as the JSON text the
//! testee wrote and members it does not know are skipped unparsed, so that the only part of an
//! answer that becomes a tree is a decoded value ([`Reply::value`]), the one the judge compares.
//! A line of a few MiB of small JSON objects would otherwise cost a hundred times its size.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// A request to a testee; `id` is set when it is sent.
#[derive(Debug, Serialize)]
pub(super) struct Request<'a> {
    /// Its id (the answer must carry it back).
    pub id: u64,
    /// `decode` or `encode`.
    pub op: &'static str,
    /// The format version.
    pub godot: String,
    /// Whether objects are allowed (decode) or written in full (encode).
    pub objects: bool,
    /// A decode's input, as hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// An encode's value, as tagged JSON (borrowed: a decoded tree sent back is not copied).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'a Value>,
}

/// An answer line: each member the runner reads, as the JSON text the testee wrote (`null`
/// included); `None` when it is missing.
#[derive(Debug, Default, Deserialize)]
pub(super) struct Reply {
    /// The id of the request it answers.
    #[serde(default, deserialize_with = "present")]
    pub id: Option<Box<RawValue>>,
    /// `true` for an answer, `false` for a refusal.
    #[serde(default, deserialize_with = "present")]
    pub ok: Option<Box<RawValue>>,
    /// A refusal's reason (free text).
    #[serde(default, deserialize_with = "present")]
    pub error: Option<Box<RawValue>>,
    /// A refusal's kind, from the vocabulary of `RejectionKind`.
    #[serde(default, deserialize_with = "present")]
    pub kind: Option<Box<RawValue>>,
    /// Why the testee does not answer the case (free text).
    #[serde(default, deserialize_with = "present")]
    pub skipped: Option<Box<RawValue>>,
    /// An encode's bytes, as hex.
    #[serde(default, deserialize_with = "present")]
    pub output: Option<Box<RawValue>>,
    /// A decode's count of input bytes read.
    #[serde(default, deserialize_with = "present")]
    pub consumed: Option<Box<RawValue>>,
    /// A decode's value, as tagged JSON: the one member read as a tree.
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Box<RawValue>>,
}

/// A member that is there, `null` included (serde's `Option` would read `null` as missing).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
}

impl Reply {
    /// An answer line's members. Skipped and kept members are read without recursion, so any
    /// nesting within the runner's depth limit is read.
    pub fn parse(text: &str) -> Result<Reply, serde_json::Error> {
        // Serde would also read a struct from an array, member by member.
        if text.trim_start().starts_with('[') {
            return Err(serde::de::Error::custom("an array, not an object"));
        }
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit();
        let reply = Reply::deserialize(&mut de)?;
        de.end()?;
        Ok(reply)
    }
}

/// A member as a string, when it is one.
pub(super) fn string(raw: &RawValue) -> Option<String> {
    serde_json::from_str(raw.get()).ok()
}

/// A member as a whole number from 0 to 2^64 - 1, when it is one.
pub(super) fn whole(raw: &RawValue) -> Option<u64> {
    serde_json::from_str(raw.get()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_kept_as_written_and_unknown_ones_skipped() {
        let r = Reply::parse(
            r#"{"id": 7, "ok": true, "pad": [{"a": [[[]]]}, 1], "error": null, "value": {"type": "Nil"}}"#,
        )
        .unwrap();
        assert_eq!(r.id.as_deref().and_then(whole), Some(7));
        assert_eq!(r.ok.as_deref().map(RawValue::get), Some("true"));
        assert_eq!(r.error.as_deref().map(RawValue::get), Some("null"));
        assert_eq!(
            r.value.as_deref().map(RawValue::get),
            Some(r#"{"type": "Nil"}"#)
        );
        assert!(r.skipped.is_none() && r.kind.is_none() && r.output.is_none());
        assert_eq!(
            string(&RawValue::from_string(r#""a\nb""#.into()).unwrap()).as_deref(),
            Some("a\nb")
        );
        assert!(Reply::parse(r#"[1]"#).is_err());
        assert!(Reply::parse(r#"{"id": 1} x"#).is_err());
    }

    #[test]
    fn a_request_borrows_its_value() {
        let value = serde_json::json!({"type": "Nil"});
        let r = Request {
            id: 3,
            op: "encode",
            godot: "4.6".into(),
            objects: false,
            input: None,
            value: Some(&value),
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"id":3,"op":"encode","godot":"4.6","objects":false,"value":{"type":"Nil"}}"#
        );
    }
}
