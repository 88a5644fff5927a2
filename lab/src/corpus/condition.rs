//! Conditions of expected differences: the typed cause a `when:NAME` entry of
//! `corpus/known-differences.txt` stands for, decided from the codec's [`Mismatch`] and the
//! engine's record, never from message text. The file says which engines each applies to and
//! why; this is only how each cause is recognised in an answer.

use gdmarshal::decode::{DecodeOptions, decode};
use gdmarshal::error::DecodeErrorKind;
use gdmarshal::json::{from_json, unhex};
use gdmarshal::profile::Profile;

use super::tree::mentions_type;
use super::{Mismatch, Record, RejectKind, Rejection, Verdict};
use crate::oracle::EngineRejection;

/// A cause of a difference, recognised in the answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `too-deep`: the codec rejects nesting the engine decodes.
    TooDeep,
    /// `float-readout`: the decoded trees differ, but the engine's own re-encoding decodes to
    /// the same value as the input (the oracle's read-out of the tree changed it).
    FloatReadout,
    /// `unknown-class`: a full object the engine refuses because it has no such class.
    UnknownClass,
    /// `full-object`: a value holding a full object (the engine writes every stored property).
    FullObject,
    /// `nodepath-padding`: NodePath bytes that differ only where the format ignores them.
    NodePathPadding,
    /// `object-id`: the re-encoding of a decoded object id differs (the engine writes the id of
    /// the placeholder object it made while decoding, a fresh one per engine process).
    ObjectId,
    /// `script-not-in-project`: with objects, the engine refuses a `res://` script path the codec
    /// accepts (whether a Script resource is there is the engine's project's to know).
    ScriptNotInProject,
    /// `unmodelled-conversion`: the codec refuses, as one it does not reproduce, a typed
    /// container's conversion of an element the engine accepts.
    UnmodelledConversion,
}

impl Condition {
    /// Every condition, with its name in the file.
    pub const ALL: [(Condition, &'static str); 8] = [
        (Condition::TooDeep, "too-deep"),
        (Condition::FloatReadout, "float-readout"),
        (Condition::UnknownClass, "unknown-class"),
        (Condition::FullObject, "full-object"),
        (Condition::NodePathPadding, "nodepath-padding"),
        (Condition::ObjectId, "object-id"),
        (Condition::ScriptNotInProject, "script-not-in-project"),
        (Condition::UnmodelledConversion, "unmodelled-conversion"),
    ];

    /// The condition of this name.
    pub fn parse(name: &str) -> Option<Condition> {
        Condition::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(c, _)| *c)
    }

    /// Its name in the file.
    pub fn name(self) -> &'static str {
        Condition::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("", |(_, n)| n)
    }

    /// Whether the codec's mismatch `m` with the engine's record `r` has this cause.
    pub fn holds(self, r: &Record, m: &Mismatch, profile: Profile) -> bool {
        let tree = r.tree.as_ref().or(r.value.as_ref());
        let mentions = |ty: &str| tree.is_some_and(|t| mentions_type(t, ty));
        match self {
            Condition::TooDeep => m.rejection().is_some_and(Rejection::is_too_deep),
            Condition::FloatReadout => {
                matches!(m, Mismatch::Value { .. }) && same_bytes_back(r, profile)
            }
            Condition::UnknownClass => {
                r.objects
                    && matches!(
                        m,
                        Mismatch::AcceptsRejected {
                            engine_rejection: Some(EngineRejection::UnknownClass),
                            ..
                        }
                    )
            }
            Condition::FullObject => r.objects && mentions("Object"),
            Condition::NodePathPadding => {
                mentions("NodePath")
                    && matches!(m, Mismatch::Reencoding { .. } | Mismatch::Bytes { .. })
                    && same_but_padding(r, profile)
            }
            Condition::ObjectId => {
                !r.objects && matches!(m, Mismatch::Reencoding { .. }) && mentions("Object")
            }
            Condition::ScriptNotInProject => {
                r.objects
                    && matches!(
                        m,
                        Mismatch::AcceptsRejected {
                            engine_rejection: Some(EngineRejection::InvalidScriptPath),
                            ..
                        }
                    )
            }
            Condition::UnmodelledConversion => {
                r.verdict == Verdict::Accepted
                    && matches!(
                        m,
                        Mismatch::RejectsAccepted {
                            rejection: Rejection {
                                kind: Some(RejectKind::Decode(
                                    DecodeErrorKind::UnmodelledConversion { .. }
                                )),
                                ..
                            }
                        }
                    )
            }
        }
    }
}

/// Whether the engine's re-encoding decodes (with the codec) to what the codec decodes from the
/// input: then the engine kept the value and only the tree it reported differs.
fn same_bytes_back(r: &Record, profile: Profile) -> bool {
    let (Some(out), Some(input)) = (&r.output, &r.input) else {
        return false;
    };
    let (Ok(out), Ok(input)) = (unhex(out), unhex(input)) else {
        return false;
    };
    let opts = DecodeOptions {
        allow_objects: r.objects,
    };
    match (decode(&out, profile, opts), decode(&input, profile, opts)) {
        (Ok(a), Ok(b)) => a.value == b.value,
        _ => false,
    }
}

/// Whether the engine's output decodes (with the codec) to the value the engine meant: then the
/// codec's bytes differ from the engine's only where the format ignores the bytes (padding).
fn same_but_padding(r: &Record, profile: Profile) -> bool {
    let (Some(out), Some(tree)) = (&r.output, r.tree.as_ref().or(r.value.as_ref())) else {
        return false;
    };
    let Ok(bytes) = unhex(out) else { return false };
    let Ok(want) = from_json(tree, profile) else {
        return false;
    };
    let opts = DecodeOptions {
        allow_objects: r.objects,
    };
    match decode(&bytes, profile, opts) {
        Ok(d) => d.value == want && d.consumed == bytes.len(),
        Err(_) => false,
    }
}
