//! How an implementation's answer parts from the engine's record, as data.
//!
//! [`crate::judge::judge`] returns a [`Mismatch`]; campaigns, the differential check and the
//! conformance runner classify it by variant and by the [`RejectKind`] of a rejection, never by
//! its text. [`Mismatch`]'s `Display` is the message people read.

use std::fmt;

use serde_json::Value;

use super::rejection_kind::RejectionKind;
use crate::EngineRejection;
use crate::tree_diff::NodeDiff;
use gdmarshal::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use gdmarshal::hex::hex;
use gdmarshal::json::JsonError;

/// Why an implementation refused an input or a value.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    /// What went wrong, when the implementation says so in a form this crate reads: this
    /// crate's codec always does; a testee's free text never does.
    pub kind: Option<RejectKind>,
    /// The implementation's own words.
    pub message: String,
}

/// A rejection by this crate's codec, by its error type.
#[derive(Clone, Debug, PartialEq)]
pub enum RejectKind {
    /// The decoder refused the bytes.
    Decode(DecodeErrorKind),
    /// The encoder refused the value.
    Encode(EncodeErrorKind),
    /// The tagged JSON is no value of the profile.
    Json,
    /// An engine refused the input, for a reason [`crate::engine_rejection()`] reads from
    /// its error output.
    Engine(EngineRejection),
    /// A testee refused it and stated the kind (`"kind"` in its answer).
    Stated(RejectionKind),
}

impl Rejection {
    /// A rejection known only by its text (a testee's `error`).
    pub fn text(message: impl Into<String>) -> Rejection {
        Rejection {
            kind: None,
            message: message.into(),
        }
    }

    /// Whether the decoder or the encoder refused nesting past its limit.
    pub fn is_too_deep(&self) -> bool {
        matches!(
            self.kind,
            Some(RejectKind::Decode(DecodeErrorKind::TooDeep { .. }))
                | Some(RejectKind::Encode(EncodeErrorKind::TooDeep { .. }))
        )
    }
}

impl From<&DecodeError> for Rejection {
    fn from(e: &DecodeError) -> Rejection {
        Rejection {
            kind: Some(RejectKind::Decode(e.kind.clone())),
            message: e.to_string(),
        }
    }
}

impl From<&EncodeError> for Rejection {
    fn from(e: &EncodeError) -> Rejection {
        Rejection {
            kind: Some(RejectKind::Encode(e.kind.clone())),
            message: e.to_string(),
        }
    }
}

impl From<&JsonError> for Rejection {
    fn from(e: &JsonError) -> Rejection {
        Rejection {
            kind: Some(RejectKind::Json),
            message: e.to_string(),
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Two byte strings around their first differing byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteDiff {
    /// Offset of the first differing byte (the shorter length when one is a prefix of the other).
    pub offset: usize,
    /// Length of the engine's bytes.
    pub expected_len: usize,
    /// Length of the implementation's bytes.
    pub got_len: usize,
    /// The engine's bytes from 8 before `offset` to 8 after.
    pub expected: Vec<u8>,
    /// The implementation's bytes over the same range.
    pub got: Vec<u8>,
}

impl ByteDiff {
    /// Where `got` first parts from `expected`.
    pub fn new(expected: &[u8], got: &[u8]) -> ByteDiff {
        let at = expected
            .iter()
            .zip(got)
            .position(|(a, b)| a != b)
            .unwrap_or(expected.len().min(got.len()));
        let from = at.saturating_sub(8);
        let window = |b: &[u8]| b[from.min(b.len())..(at + 8).min(b.len())].to_vec();
        ByteDiff {
            offset: at,
            expected_len: expected.len(),
            got_len: got.len(),
            expected: window(expected),
            got: window(got),
        }
    }
}

impl fmt::Display for ByteDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "first differing byte at offset {} (lengths {} and {}): expected …{}… got …{}…",
            self.offset,
            self.expected_len,
            self.got_len,
            hex(&self.expected),
            hex(&self.got)
        )
    }
}

/// What is wrong with a record, so that nothing can be judged against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordDefect {
    /// A decode record without valid input hex.
    NoInput,
    /// An encode record without a value, or without the engine's bytes where it encoded.
    NoValueOrOutput,
    /// An encode record whose value is no value of the profile (the reason says why).
    UnreadableValue(String),
}

impl fmt::Display for RecordDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordDefect::NoInput => f.write_str("the record has no valid input hex"),
            RecordDefect::NoValueOrOutput => {
                f.write_str("the record lacks a value or the engine's bytes")
            }
            RecordDefect::UnreadableValue(why) => {
                write!(f, "the record's value is no value of this profile: {why}")
            }
        }
    }
}

/// One way an implementation's answer parts from the engine's record.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// The implementation gave no answer (a testee crashed, hung or broke the protocol).
    NoAnswer {
        /// What happened.
        reason: String,
    },
    /// It refused input the engine decodes.
    RejectsAccepted {
        /// Its reason.
        rejection: Rejection,
    },
    /// It decoded input the engine refuses.
    AcceptsRejected {
        /// The engine's error text (its stderr), whole.
        engine_error: String,
        /// What the engine's error says, where [`crate::engine_rejection()`] reads it.
        engine_rejection: Option<EngineRejection>,
        /// What the implementation decoded.
        tree: Value,
    },
    /// It decoded another value than the engine.
    Value {
        /// The first node that differs by value (e.g. `$.value[2].value`), with both sides'
        /// spelling and, for a float, both bit patterns.
        at: Box<NodeDiff>,
        /// The engine's tree.
        expected: Value,
        /// The implementation's tree.
        got: Value,
    },
    /// It consumed another number of bytes than the engine.
    Consumed {
        /// The engine's count.
        expected: usize,
        /// The implementation's count.
        got: usize,
    },
    /// Its encoding of the decoded value differs from the engine's re-encoding.
    Reencoding {
        /// Where.
        diff: ByteDiff,
    },
    /// It refused to encode the value it decoded.
    ReencodeRefused {
        /// Its reason.
        rejection: Rejection,
    },
    /// It gave no answer when asked to encode the value it decoded.
    ReencodeNoAnswer {
        /// What happened.
        reason: String,
    },
    /// Its encoding differs from the engine's bytes.
    Bytes {
        /// Where.
        diff: ByteDiff,
    },
    /// It refused a value the engine encodes.
    EncodeRefused {
        /// Its reason.
        rejection: Rejection,
    },
    /// It encoded a value the engine refuses to encode (e.g. nested past the engine's limit).
    EncodesRefused {
        /// The engine's error text (its stderr), whole.
        engine_error: String,
        /// How many bytes the implementation wrote.
        len: usize,
    },
    /// It rejected input the engine rejects, but not for the kind of reason the engine's (and
    /// this crate's codec's) rejection is (`--strict-errors`).
    RejectionKind {
        /// The kind expected.
        expected: RejectionKind,
        /// The kind it stated, if it stated one.
        got: Option<RejectionKind>,
        /// Its rejection.
        rejection: Rejection,
    },
    /// The record cannot be judged against.
    BadRecord {
        /// What is wrong with it.
        what: RecordDefect,
    },
}

impl Mismatch {
    /// The variant's name, stable for tools and for grouping failures of one kind (the
    /// implementations matrix lists one reproducer per kind and column).
    pub fn kind(&self) -> &'static str {
        match self {
            Mismatch::NoAnswer { .. } => "no_answer",
            Mismatch::RejectsAccepted { .. } => "rejects_accepted",
            Mismatch::AcceptsRejected { .. } => "accepts_rejected",
            Mismatch::Value { .. } => "value",
            Mismatch::Consumed { .. } => "consumed",
            Mismatch::Reencoding { .. } => "reencoding",
            Mismatch::ReencodeRefused { .. } => "reencode_refused",
            Mismatch::ReencodeNoAnswer { .. } => "reencode_no_answer",
            Mismatch::Bytes { .. } => "bytes",
            Mismatch::EncodeRefused { .. } => "encode_refused",
            Mismatch::EncodesRefused { .. } => "encodes_refused",
            Mismatch::RejectionKind { .. } => "rejection_kind",
            Mismatch::BadRecord { .. } => "bad_record",
        }
    }

    /// The implementation's rejection, for the variants that carry one.
    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            Mismatch::RejectsAccepted { rejection }
            | Mismatch::ReencodeRefused { rejection }
            | Mismatch::EncodeRefused { rejection } => Some(rejection),
            _ => None,
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::NoAnswer { reason } => f.write_str(reason),
            Mismatch::RejectsAccepted { rejection } => {
                write!(f, "rejected input the engine accepts: {rejection}")
            }
            Mismatch::AcceptsRejected {
                engine_error, tree, ..
            } => write!(
                f,
                "accepted input the engine rejects ({}), as {tree}",
                engine_error.lines().next().unwrap_or("")
            ),
            // The node's spellings and bits ([`NodeDiff`]'s own Display) are for reports that
            // show them on a line of their own; this text is what saved findings hold.
            Mismatch::Value { at, expected, got } => write!(
                f,
                "decoded value differs at {}:\n    engine: {expected}\n    got:    {got}",
                at.path
            ),
            Mismatch::Consumed { expected, got } => {
                write!(f, "consumed {got} bytes, the engine {expected}")
            }
            Mismatch::Reencoding { diff } => {
                write!(f, "re-encoding of the decoded value differs: {diff}")
            }
            Mismatch::ReencodeRefused { rejection } => {
                write!(f, "cannot re-encode the decoded value: {rejection}")
            }
            Mismatch::ReencodeNoAnswer { reason } => {
                write!(f, "re-encoding the decoded value: {reason}")
            }
            Mismatch::Bytes { diff } => write!(f, "bytes differ from the engine's: {diff}"),
            Mismatch::EncodeRefused { rejection } => {
                write!(f, "refused a value the engine encodes: {rejection}")
            }
            Mismatch::EncodesRefused { engine_error, len } => write!(
                f,
                "encoded a value the engine refuses to encode ({}), as {len} bytes",
                engine_error.lines().next().unwrap_or("")
            ),
            Mismatch::RejectionKind {
                expected,
                got: Some(got),
                rejection,
            } => write!(
                f,
                "rejected as {got}, the engine's rejection is {expected}: {rejection}"
            ),
            Mismatch::RejectionKind {
                expected,
                got: None,
                rejection,
            } => write!(
                f,
                "rejected without stating the kind (expected \"kind\":\"{expected}\"): {rejection}"
            ),
            Mismatch::BadRecord { what } => write!(f, "{what}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        let diff = ByteDiff::new(&[1, 2, 3, 4], &[1, 2, 9]);
        assert_eq!(
            Mismatch::Bytes { diff }.to_string(),
            "bytes differ from the engine's: first differing byte at offset 2 (lengths 4 and 3): \
             expected …01020304… got …010209…"
        );
        let m = Mismatch::AcceptsRejected {
            engine_error: "ERROR: Cannot get class 'Re'.\n   at: can_instantiate".into(),
            engine_rejection: Some(EngineRejection::UnknownClass),
            tree: serde_json::json!({"type": "Nil"}),
        };
        assert_eq!(
            m.to_string(),
            "accepted input the engine rejects (ERROR: Cannot get class 'Re'.), as {\"type\":\"Nil\"}"
        );
        let r = Rejection::text("no");
        assert_eq!(r.kind, None);
        assert_eq!(
            Mismatch::RejectsAccepted { rejection: r }.to_string(),
            "rejected input the engine accepts: no"
        );
        assert_eq!(
            Mismatch::Consumed {
                expected: 12,
                got: 20
            }
            .to_string(),
            "consumed 20 bytes, the engine 12"
        );
    }
}
