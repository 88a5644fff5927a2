//! Judging an answer against an engine's recorded answer: a pure function of the two, saying
//! precisely where they part as a [`Mismatch`].
//!
//! The expected side is a corpus [`Record`] rather than a bare [`Answer`]: besides the engine's
//! answer it says which fields changed between two runs of the engine, and those are not
//! compared. [`before_asking`] is the part of the judgement that needs no answer, so that a
//! runner does not ask about cases it could not judge.

use serde_json::Value;

use gdmarshal::hex::unhex;
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;

use crate::answer::{Answer, Reencoded};
use crate::mismatch::{ByteDiff, Mismatch, RecordDefect, RejectKind};
use crate::record::{Field, Record, Verdict};
use crate::skip::SkipReason;
use crate::tree_diff::{NodeDiff, first_value_difference};
use crate::{Direction, Rejection};

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

/// Whether two trees are the same value (floats by bits, whatever their spelling).
fn same_value(a: &Value, b: &Value, profile: Profile) -> bool {
    match (from_json(a, profile), from_json(b, profile)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// What a record settles before its case is asked of anyone: a skip when it holds no answer to
/// compare with (the engine crashed, hung, could not build the value, or answered differently on
/// two runs), a failure when it cannot be judged against. `None`: ask, then [`judge`].
pub fn before_asking(expected: &Record) -> Option<Outcome> {
    match expected.verdict {
        Verdict::Crashed => return Some(Outcome::Skip(SkipReason::EngineCrashed)),
        Verdict::Hung => return Some(Outcome::Skip(SkipReason::EngineHung)),
        Verdict::Unsupported => return Some(Outcome::Skip(SkipReason::EngineUnsupported)),
        Verdict::Accepted | Verdict::Rejected => {}
    }
    if expected.unsteady(Field::Verdict) {
        return Some(Outcome::Skip(SkipReason::EngineVerdictNondeterministic));
    }
    let defect = |what| Some(Outcome::Fail(Mismatch::BadRecord { what }));
    match expected.direction {
        Direction::Decode => match expected.input.as_deref().map(unhex) {
            Some(Ok(_)) => None,
            _ => defect(RecordDefect::NoInput),
        },
        // A refusal to encode has no bytes; anything else needs the value and the bytes.
        Direction::Encode
            if expected.value.is_none()
                || (expected.output.is_none() && expected.verdict != Verdict::Rejected) =>
        {
            defect(RecordDefect::NoValueOrOutput)
        }
        Direction::Encode if expected.unsteady(Field::Output) => {
            Some(Outcome::Skip(SkipReason::EngineOutputNondeterministic))
        }
        Direction::Encode => None,
    }
}

/// Compares an answer to the record's case with the engine's recorded answer.
pub fn judge(expected: &Record, got: &Answer, profile: Profile) -> Outcome {
    if let Some(settled) = before_asking(expected) {
        return settled;
    }
    // Steady fields only: one that changed between the engine's runs is absent here.
    let want = expected.steady_answer();
    match expected.direction {
        Direction::Decode => judge_decode(&want, got, profile),
        Direction::Encode => judge_encode(&want, got),
    }
}

/// The answers that are no answer to compare: the same for both directions.
fn unanswered(got: &Answer) -> Option<Outcome> {
    let reason = match got {
        Answer::Skipped(why) => {
            return Some(Outcome::Skip(SkipReason::Implementation(why.clone())));
        }
        Answer::Unsupported(why) => {
            return Some(Outcome::Skip(SkipReason::Implementation(why.text.clone())));
        }
        Answer::Unanswered(reason) => reason.clone(),
        Answer::Crashed(i) => format!("crashed: {}", i.status),
        Answer::Hung(i) => format!("hung for {:.1} s", i.after.as_secs_f64()),
        Answer::Decoded { .. } | Answer::Encoded { .. } | Answer::Rejected(_) => return None,
    };
    Some(Outcome::Fail(Mismatch::NoAnswer { reason }))
}

fn engine_rejection(r: &Rejection) -> Option<crate::EngineRejection> {
    match r.kind {
        Some(RejectKind::Engine(k)) => Some(k),
        _ => None,
    }
}

fn judge_decode(want: &Answer, got: &Answer, profile: Profile) -> Outcome {
    if let Some(settled) = unanswered(got) {
        return settled;
    }
    let (tree, consumed, reencoded) = match got {
        Answer::Decoded {
            tree,
            consumed,
            reencoded,
            ..
        } => (tree, consumed, reencoded),
        Answer::Rejected(rejection) => {
            return match want {
                Answer::Rejected(_) => Outcome::Pass,
                _ => Outcome::Fail(Mismatch::RejectsAccepted {
                    rejection: rejection.clone(),
                }),
            };
        }
        _ => {
            return Outcome::Fail(Mismatch::NoAnswer {
                reason: "answered an encode to a decode case".into(),
            });
        }
    };
    let (want_tree, want_consumed, want_reencoded) = match want {
        Answer::Decoded {
            tree,
            consumed,
            reencoded,
            ..
        } => (tree, consumed, reencoded),
        engine => {
            let (engine_error, engine_rejection) = match engine {
                Answer::Rejected(r) => (r.message.clone(), engine_rejection(r)),
                _ => (String::new(), None),
            };
            return Outcome::Fail(Mismatch::AcceptsRejected {
                engine_error,
                engine_rejection,
                tree: tree.clone().unwrap_or(Value::Null),
            });
        }
    };
    if let Some(expected) = want_tree {
        let null = Value::Null;
        let got_tree = tree.as_ref().unwrap_or(&null);
        // The tree is copied into the mismatch only: a wide answer that passes is not copied.
        if !same_value(expected, got_tree, profile) {
            let at = first_value_difference(expected, got_tree, profile).unwrap_or(NodeDiff {
                path: "$".into(),
                expected: "(the whole tree)".into(),
                got: "(the whole tree)".into(),
                bits: None,
            });
            return Outcome::Fail(Mismatch::Value {
                at: Box::new(at),
                expected: expected.clone(),
                got: got_tree.clone(),
            });
        }
    }
    if let (Some(expected), Some(got)) = (want_consumed, consumed)
        && expected != got
    {
        return Outcome::Fail(Mismatch::Consumed {
            expected: *expected,
            got: *got,
        });
    }
    // The engine's re-encoding of what it decoded is the encoding of the decoded value.
    let Some(expected) = want_reencoded.bytes() else {
        return Outcome::Pass;
    };
    match reencoded {
        Reencoded::Bytes(b) if b == expected => Outcome::Pass,
        Reencoded::Bytes(b) => Outcome::Fail(Mismatch::Reencoding {
            diff: ByteDiff::new(expected, b),
        }),
        Reencoded::Refused(rejection) => Outcome::Fail(Mismatch::ReencodeRefused {
            rejection: rejection.clone(),
        }),
        Reencoded::Skipped(why) => Outcome::Skip(SkipReason::Reencoding(why.clone())),
        Reencoded::Unanswered(reason) => Outcome::Fail(Mismatch::ReencodeNoAnswer {
            reason: reason.clone(),
        }),
        Reencoded::NotClaimed => Outcome::Pass,
        Reencoded::Absent => Outcome::Fail(Mismatch::ReencodeNoAnswer {
            reason: "it gave no re-encoding".into(),
        }),
    }
}

fn judge_encode(want: &Answer, got: &Answer) -> Outcome {
    if let Some(settled) = unanswered(got) {
        return settled;
    }
    let expected = want.bytes().unwrap_or_default();
    match (want, got) {
        // The engine refused to encode (nested past its limit): so must the implementation.
        (Answer::Rejected(_), Answer::Rejected(_)) => Outcome::Pass,
        (Answer::Rejected(engine), Answer::Encoded { bytes, .. }) => {
            Outcome::Fail(Mismatch::EncodesRefused {
                engine_error: engine.message.clone(),
                len: bytes.len(),
            })
        }
        (_, Answer::Encoded { bytes, .. }) if bytes == expected => Outcome::Pass,
        (_, Answer::Encoded { bytes, .. }) => Outcome::Fail(Mismatch::Bytes {
            diff: ByteDiff::new(expected, bytes),
        }),
        (_, Answer::Rejected(rejection)) => Outcome::Fail(Mismatch::EncodeRefused {
            rejection: rejection.clone(),
        }),
        _ => Outcome::Fail(Mismatch::NoAnswer {
            reason: "answered a decode to an encode case".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineRejection;
    use serde_json::json;

    fn p46() -> Profile {
        "4.6".parse().unwrap()
    }

    /// The engine decoded `02000000 01000000` to int 1 and wrote it back.
    fn accepted_decode() -> Record {
        Record {
            name: "decode/x".into(),
            direction: Direction::Decode,
            input: Some("0200000001000000".into()),
            value: None,
            objects: false,
            verdict: Verdict::Accepted,
            consumed: Some(8),
            tree: Some(json!({"type": "int", "value": "1"})),
            output: Some("0200000001000000".into()),
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    fn decoded(value: &str, consumed: usize, reencoded: Reencoded) -> Answer {
        Answer::Decoded {
            tree: Some(json!({"type": "int", "value": value})),
            consumed: Some(consumed),
            reencoded,
            log: String::new(),
        }
    }

    fn bytes(b: &[u8]) -> Reencoded {
        Reencoded::Bytes(b.to_vec())
    }

    #[test]
    fn a_decode_is_judged_by_value_then_length_then_re_encoding() {
        let r = accepted_decode();
        let same = [2, 0, 0, 0, 1, 0, 0, 0];
        assert_eq!(
            judge(&r, &decoded("1", 8, bytes(&same)), p46()),
            Outcome::Pass
        );
        let other = judge(&r, &decoded("2", 9, bytes(&[9])), p46());
        assert!(
            matches!(other, Outcome::Fail(Mismatch::Value { ref at, .. }) if at.path == "$.value")
        );
        let longer = judge(&r, &decoded("1", 9, bytes(&[9])), p46());
        assert_eq!(
            longer,
            Outcome::Fail(Mismatch::Consumed {
                expected: 8,
                got: 9
            })
        );
        let reencoded = judge(&r, &decoded("1", 8, bytes(&[2, 0, 0, 0])), p46());
        assert!(matches!(
            reencoded,
            Outcome::Fail(Mismatch::Reencoding { .. })
        ));
        let decode_only = judge(&r, &decoded("1", 8, Reencoded::NotClaimed), p46());
        assert_eq!(decode_only, Outcome::Pass);
        let skipped = judge(&r, &decoded("1", 8, Reencoded::Skipped("no".into())), p46());
        assert_eq!(skipped, Outcome::Skip(SkipReason::Reencoding("no".into())));
        let refused = Reencoded::Refused(Rejection::text("no"));
        assert!(matches!(
            judge(&r, &decoded("1", 8, refused), p46()),
            Outcome::Fail(Mismatch::ReencodeRefused { .. })
        ));
    }

    #[test]
    fn fields_that_changed_between_runs_are_not_compared() {
        let mut r = accepted_decode();
        r.nondeterministic = vec![Field::Tree, Field::Consumed, Field::Output];
        assert_eq!(
            judge(&r, &decoded("2", 9, Reencoded::Absent), p46()),
            Outcome::Pass
        );
        r.nondeterministic = vec![Field::Verdict];
        assert_eq!(
            before_asking(&r),
            Some(Outcome::Skip(SkipReason::EngineVerdictNondeterministic))
        );
    }

    #[test]
    fn an_engine_refusal_keeps_its_kind_and_words() {
        let mut r = accepted_decode();
        r.verdict = Verdict::Rejected;
        r.error = "ERROR: Cannot get class 'Re'.".into();
        (r.tree, r.output, r.consumed) = (None, None, None);
        let got = decoded("1", 8, Reencoded::Absent);
        match judge(&r, &got, p46()) {
            Outcome::Fail(Mismatch::AcceptsRejected {
                engine_error,
                engine_rejection,
                ..
            }) => {
                assert_eq!(engine_error, r.error);
                assert_eq!(engine_rejection, Some(EngineRejection::UnknownClass));
            }
            other => panic!("{other:?}"),
        }
        let refused = Answer::Rejected(Rejection::text("bad"));
        assert_eq!(judge(&r, &refused, p46()), Outcome::Pass);
    }

    #[test]
    fn an_encode_is_judged_by_its_bytes_and_unsteady_bytes_are_never_asked() {
        let mut r = accepted_decode();
        r.direction = Direction::Encode;
        (r.input, r.value) = (None, r.tree.clone());
        let encoded = |b: &[u8]| Answer::Encoded {
            bytes: b.to_vec(),
            tree: None,
            log: String::new(),
        };
        assert_eq!(
            judge(&r, &encoded(&[2, 0, 0, 0, 1, 0, 0, 0]), p46()),
            Outcome::Pass
        );
        assert!(matches!(
            judge(&r, &encoded(&[2]), p46()),
            Outcome::Fail(Mismatch::Bytes { .. })
        ));
        let no = Answer::Unanswered("testee hung".into());
        assert_eq!(
            judge(&r, &no, p46()),
            Outcome::Fail(Mismatch::NoAnswer {
                reason: "testee hung".into()
            })
        );
        r.nondeterministic = vec![Field::Output];
        assert_eq!(
            before_asking(&r),
            Some(Outcome::Skip(SkipReason::EngineOutputNondeterministic))
        );
    }

    /// 3.6.2 refuses to encode a value nested past 1024 (corpus case encode/depth/int_at_1025):
    /// the record has the refusal and no bytes.
    #[test]
    fn an_encode_the_engine_refuses_passes_only_when_refused() {
        let mut r = accepted_decode();
        r.direction = Direction::Encode;
        (r.input, r.value, r.tree) = (None, r.tree.clone(), None);
        r.verdict = Verdict::Rejected;
        r.output = None;
        r.error = "ERROR: Potential infinite recursion detected. Bailing.".into();
        assert_eq!(before_asking(&r), None);
        let refused = Answer::Rejected(Rejection {
            kind: None,
            message: "nesting deeper than 1024".into(),
        });
        assert_eq!(judge(&r, &refused, p46()), Outcome::Pass);
        let encoded = Answer::Encoded {
            bytes: vec![2, 0, 0, 0, 1, 0, 0, 0],
            tree: None,
            log: String::new(),
        };
        let Outcome::Fail(m) = judge(&r, &encoded, p46()) else {
            panic!("an encoding of a refused value passed");
        };
        assert_eq!(
            m,
            Mismatch::EncodesRefused {
                engine_error: r.error.clone(),
                len: 8
            }
        );
        assert_eq!(
            m.to_string(),
            "encoded a value the engine refuses to encode (ERROR: Potential infinite recursion \
             detected. Bailing.), as 8 bytes"
        );
    }
}
