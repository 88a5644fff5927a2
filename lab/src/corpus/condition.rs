//! Conditions of expected differences: the typed cause a `when:NAME` entry of
//! `corpus/known-differences.txt` stands for, decided from the codec's [`Mismatch`] and the
//! engine's record, never from message text. The file says which engines each applies to and
//! why; this is only how each cause is recognised in an answer.

use gdmarshal::error::DecodeErrorKind;
use gdmarshal::profile::Profile;

use super::tree::mentions_type;
use crate::model::EngineRejection;
use crate::model::{Mismatch, Record, RejectKind, Rejection, Verdict};

/// A cause of a difference, recognised in the answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `too-deep`: the codec rejects nesting the engine decodes.
    TooDeep,
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
    pub(crate) const ALL: [(Condition, &'static str); 7] = [
        (Condition::TooDeep, "too-deep"),
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
                    && super::node_path_padding::record_equal_but_padding(r, profile)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ByteDiff;
    use gdmarshal::hex::unhex;

    #[test]
    fn nodepath_padding_holds_when_the_writer_changes_a_name() {
        // 3.6.2 read a NodePath named by a lone surrogate, kept the unit and wrote it back as a
        // space followed by uninitialised padding (campaign seed 5, engine 3.6.2).
        let mut r: Record = serde_json::from_str(
            r#"{"name":"x","direction":"decode","objects":false,"verdict":"accepted",
            "input":"0f00000001000080000000000000000003000000eda08000","consumed":24,
            "tree":{"type":"NodePath","names":[{"code_units":[55296]}],"subnames":[],"absolute":false},
            "output":"0f0000000100008000000000000000000100000020550000"}"#,
        )
        .unwrap();
        let engine = unhex("0f0000000100008000000000000000000100000020550000").unwrap();
        let codec = unhex("0f0000000100008000000000000000000100000020000000").unwrap();
        let m = Mismatch::Reencoding {
            diff: ByteDiff::new(&engine, &codec),
        };
        let p: Profile = "3.6".parse().unwrap();
        assert!(Condition::NodePathPadding.holds(&r, &m, p));
        // A different name is a real difference.
        r.output = Some("0f0000000100008000000000000000000100000021550000".into());
        assert!(!Condition::NodePathPadding.holds(&r, &m, p));
    }
}
