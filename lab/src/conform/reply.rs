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

/// An answer line: each member the runner reads, as the JSON text the testee wrote.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Reply {
    /// The id of the request it answers.
    pub id: Member,
    /// `true` for an answer, `false` for a refusal.
    pub ok: Member,
    /// A refusal's reason (free text).
    pub error: Member,
    /// A refusal's kind, from the vocabulary of `RejectionKind`.
    pub kind: Member,
    /// Why the testee does not answer the case (free text).
    pub skipped: Member,
    /// An encode's bytes, as hex.
    pub output: Member,
    /// A decode's count of input bytes read.
    pub consumed: Member,
    /// A decode's value, as tagged JSON: the one member read as a tree.
    pub value: Member,
}

/// A member as the testee wrote it, `null` included (serde's `Option` would read `null` as
/// missing); empty when it is missing.
#[derive(Debug, Default)]
pub(super) struct Member(Option<Box<RawValue>>);

impl Member {
    /// The member's JSON text, if it is there.
    pub fn raw(&self) -> Option<&RawValue> {
        self.0.as_deref()
    }
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Member, D::Error> {
        Box::<RawValue>::deserialize(d).map(|raw| Member(Some(raw)))
    }
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
        assert_eq!(r.id.raw().and_then(whole), Some(7));
        assert_eq!(r.ok.raw().map(RawValue::get), Some("true"));
        assert_eq!(r.error.raw().map(RawValue::get), Some("null"));
        assert_eq!(r.value.raw().map(RawValue::get), Some(r#"{"type": "Nil"}"#));
        assert!(r.skipped.raw().is_none() && r.kind.raw().is_none() && r.output.raw().is_none());
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
