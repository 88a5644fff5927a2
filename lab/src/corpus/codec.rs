//! Checking an implementation of the format against the engines' recorded answers.
//!
//! An [`Implementation`] decodes bytes to tagged JSON and encodes tagged JSON to bytes; this
//! crate's own codec is one ([`ThisCodec`]), a conformance testee process is another. [`judge`]
//! compares its answers with a [`Record`] and says precisely where they part, as a [`Mismatch`].

use serde_json::Value;

use gdmarshal::decode::{DecodeOptions, decode};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, to_json, unhex};
use gdmarshal::profile::Profile;

use super::mismatch::{ByteDiff, Mismatch, RecordDefect, Rejection};
use super::record::{Record, Verdict};
use super::skip::SkipReason;
use crate::oracle::engine_rejection;

/// What an implementation answers to a decode.
#[derive(Clone, Debug, PartialEq)]
pub enum DecodeAnswer {
    /// The value as tagged JSON, and the bytes consumed if the implementation reports them.
    Accepted {
        /// The decoded value.
        tree: Value,
        /// Bytes consumed.
        consumed: Option<usize>,
    },
    /// The input was refused, with the implementation's reason.
    Rejected(Rejection),
    /// The implementation does not handle this case.
    Skipped(String),
    /// The implementation gave no answer at all (a testee process crashed, hung or broke the
    /// protocol): always a failure, whatever the engine answered.
    NoAnswer(String),
}

/// What an implementation answers to an encode.
#[derive(Clone, Debug, PartialEq)]
pub enum EncodeAnswer {
    /// The bytes.
    Bytes(Vec<u8>),
    /// The value was refused, with the reason.
    Rejected(Rejection),
    /// The implementation does not handle this case.
    Skipped(String),
    /// The implementation gave no answer at all (crashed, hung, broke the protocol).
    NoAnswer(String),
}

/// An implementation of the format under test.
pub trait Implementation {
    /// Decodes `input` as the profile's engine would.
    fn decode(&mut self, input: &[u8], profile: Profile, objects: bool) -> DecodeAnswer;
    /// Encodes a tagged-JSON value as the profile's engine would.
    fn encode(&mut self, value: &Value, profile: Profile, objects: bool) -> EncodeAnswer;
}

/// This crate's codec, in process.
pub struct ThisCodec;

impl Implementation for ThisCodec {
    fn decode(&mut self, input: &[u8], profile: Profile, objects: bool) -> DecodeAnswer {
        match decode(
            input,
            profile,
            DecodeOptions {
                allow_objects: objects,
            },
        ) {
            Ok(d) => DecodeAnswer::Accepted {
                tree: to_json(&d.value, profile, FloatStyle::Shortest),
                consumed: Some(d.consumed),
            },
            Err(e) => DecodeAnswer::Rejected(Rejection::from(&e)),
        }
    }

    fn encode(&mut self, value: &Value, profile: Profile, objects: bool) -> EncodeAnswer {
        let v = match from_json(value, profile) {
            Ok(v) => v,
            Err(e) => return EncodeAnswer::Rejected(Rejection::from(&e)),
        };
        match encode(
            &v,
            profile,
            EncodeOptions {
                full_objects: objects,
            },
        ) {
            Ok(b) => EncodeAnswer::Bytes(b),
            Err(e) => EncodeAnswer::Rejected(Rejection::from(&e)),
        }
    }
}

/// How one case went.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The implementation answered as the engine did.
    Pass,
    /// It did not; where and how.
    Fail(Mismatch),
    /// Not compared: the implementation skipped it, or the engine gave no answer to compare with
    /// (it crashed or hung, or cannot build the value).
    Skip(SkipReason),
}

/// The path of the first difference between two JSON trees, e.g. `$.value[2].value`.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(p) = first_difference(v, w, &format!("{path}.{k}")) {
                            return Some(p);
                        }
                    }
                    None => return Some(format!("{path}.{k}")),
                }
            }
            y.keys()
                .find(|k| !x.contains_key(*k))
                .map(|k| format!("{path}.{k}"))
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if let Some(p) = first_difference(v, w, &format!("{path}[{i}]")) {
                    return Some(p);
                }
            }
            (x.len() != y.len()).then(|| format!("{path} (length {} vs {})", x.len(), y.len()))
        }
        _ => (a != b).then(|| path.to_string()),
    }
}

/// Whether two trees are the same value (floats by bits, whatever their spelling).
fn same_value(a: &Value, b: &Value, profile: Profile) -> bool {
    match (from_json(a, profile), from_json(b, profile)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Compares an implementation's answer with the engine's record.
pub fn judge(imp: &mut dyn Implementation, r: &Record, profile: Profile) -> Outcome {
    match r.verdict {
        Verdict::Crashed => return Outcome::Skip(SkipReason::EngineCrashed),
        Verdict::Hung => return Outcome::Skip(SkipReason::EngineHung),
        Verdict::Unsupported => return Outcome::Skip(SkipReason::EngineUnsupported),
        Verdict::Accepted | Verdict::Rejected => {}
    }
    if r.nondeterministic.iter().any(|f| f == "verdict") {
        return Outcome::Skip(SkipReason::EngineVerdictNondeterministic);
    }
    match r.direction.as_str() {
        "decode" => judge_decode(imp, r, profile),
        "encode" => judge_encode(imp, r, profile),
        other => Outcome::Fail(Mismatch::BadRecord {
            what: RecordDefect::UnknownDirection(other.to_string()),
        }),
    }
}

fn judge_decode(imp: &mut dyn Implementation, r: &Record, profile: Profile) -> Outcome {
    let input = match r.input.as_deref().map(unhex) {
        Some(Ok(b)) => b,
        _ => {
            return Outcome::Fail(Mismatch::BadRecord {
                what: RecordDefect::NoInput,
            });
        }
    };
    let answer = imp.decode(&input, profile, r.objects);
    let (tree, consumed) = match (answer, &r.verdict) {
        (DecodeAnswer::Skipped(why), _) => return Outcome::Skip(SkipReason::Implementation(why)),
        (DecodeAnswer::NoAnswer(reason), _) => return Outcome::Fail(Mismatch::NoAnswer { reason }),
        (DecodeAnswer::Rejected(_), Verdict::Rejected) => return Outcome::Pass,
        (DecodeAnswer::Rejected(rejection), _) => {
            return Outcome::Fail(Mismatch::RejectsAccepted { rejection });
        }
        (DecodeAnswer::Accepted { tree, .. }, Verdict::Rejected) => {
            return Outcome::Fail(Mismatch::AcceptsRejected {
                engine_error: r.error.clone(),
                engine_rejection: engine_rejection(&r.error),
                tree,
            });
        }
        (DecodeAnswer::Accepted { tree, consumed }, _) => (tree, consumed),
    };
    let skip = |f: &str| r.nondeterministic.iter().any(|n| n == f);
    if let (Some(expected), false) = (&r.tree, skip("tree"))
        && !same_value(expected, &tree, profile)
    {
        return Outcome::Fail(Mismatch::Value {
            path: first_difference(expected, &tree, "$").unwrap_or_else(|| "$".into()),
            expected: expected.clone(),
            got: tree,
        });
    }
    if let (Some(expected), Some(got), false) = (r.consumed, consumed, skip("consumed"))
        && expected != got
    {
        return Outcome::Fail(Mismatch::Consumed { expected, got });
    }
    // The engine's re-encoding of what it decoded is the encoding of the decoded value.
    if let (Some(expected), false) = (&r.output, skip("output")) {
        let expected = unhex(expected).unwrap_or_default();
        match imp.encode(&tree, profile, r.objects) {
            EncodeAnswer::Bytes(b) if b == expected => {}
            EncodeAnswer::Bytes(b) => {
                return Outcome::Fail(Mismatch::Reencoding {
                    diff: ByteDiff::new(&expected, &b),
                });
            }
            EncodeAnswer::Rejected(rejection) => {
                return Outcome::Fail(Mismatch::ReencodeRefused { rejection });
            }
            EncodeAnswer::Skipped(why) => return Outcome::Skip(SkipReason::Reencoding(why)),
            EncodeAnswer::NoAnswer(reason) => {
                return Outcome::Fail(Mismatch::ReencodeNoAnswer { reason });
            }
        }
    }
    Outcome::Pass
}

fn judge_encode(imp: &mut dyn Implementation, r: &Record, profile: Profile) -> Outcome {
    let (Some(value), Some(expected)) = (&r.value, &r.output) else {
        return Outcome::Fail(Mismatch::BadRecord {
            what: RecordDefect::NoValueOrOutput,
        });
    };
    if r.nondeterministic.iter().any(|f| f == "output") {
        return Outcome::Skip(SkipReason::EngineOutputNondeterministic);
    }
    let expected = unhex(expected).unwrap_or_default();
    match imp.encode(value, profile, r.objects) {
        EncodeAnswer::Bytes(b) if b == expected => Outcome::Pass,
        EncodeAnswer::Bytes(b) => Outcome::Fail(Mismatch::Bytes {
            diff: ByteDiff::new(&expected, &b),
        }),
        EncodeAnswer::Rejected(rejection) => Outcome::Fail(Mismatch::EncodeRefused { rejection }),
        EncodeAnswer::Skipped(why) => Outcome::Skip(SkipReason::Implementation(why)),
        EncodeAnswer::NoAnswer(reason) => Outcome::Fail(Mismatch::NoAnswer { reason }),
    }
}
