//! Classifying the engine's and the codec's answers to campaign cases.

use std::collections::HashMap;

pub use super::class::Class;
use super::reasons::Reason;
use super::{causes, from_bytes};
use crate::corpus::condition::Condition;
use crate::corpus::generate::{Answered, run_once, run_once_checking_own};
use crate::corpus::known::Entry;
use crate::corpus::run::judge_records;
use crate::corpus::tree::{classes_in, scripted_in, scripted_in_input};
use crate::model::Field;
use crate::model::answer::Answer;
use crate::model::answerer::Wanted;
use crate::model::answerer::{Answerer, EngineAnswerer};
use crate::model::judge::Outcome;
use crate::model::{Case, Record, Rejection, Unsupported, Verdict};
use crate::this_codec::ThisCodec;
use gdmarshal::hex::unhex;
use gdmarshal::profile::Profile;

/// One case's classification.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The class.
    pub class: Class,
    /// The engine's answer (first run).
    pub record: Record,
    /// Why: the codec's difference, the fields that changed between runs, the engine's error.
    pub detail: String,
    /// Why the case was not compared byte for byte (unsupported, known difference, engine
    /// nondeterministic); `None` for the other classes.
    pub reason: Option<Reason>,
    /// Whether the engine built the value from the codec's bytes, where no script could
    /// ([`from_bytes`]).
    pub built_from_bytes: bool,
}

/// The engine's answers that matter for the first classification step, before the codec is
/// asked: a crash or hang, or the engine refusing its own output (`own_output`: its answer to
/// decoding the bytes it wrote).
pub(crate) fn engine_class(record: &Record, own_output: Option<&Answer>) -> Option<Class> {
    match record.verdict {
        Verdict::Crashed => return Some(Class::EngineCrash),
        Verdict::Hung => return Some(Class::EngineHang),
        _ => {}
    }
    match own_output {
        Some(Answer::Rejected(_)) => Some(Class::EngineRejectsOwnOutput),
        Some(Answer::Crashed(_)) => Some(Class::EngineCrash),
        Some(Answer::Hung(_)) => Some(Class::EngineHang),
        Some(Answer::Unanswered(_)) => Some(Class::Unanswered),
        _ => None,
    }
}

/// Classifies the codec's comparison with an engine record whose engine-side checks passed; a
/// mismatch an entry of the known differences covers is a known difference (its reason first).
/// Returns the class, the detail and, for a case not compared, why.
pub(crate) fn codec_class(
    version: &str,
    r: &Record,
    outcome: &Outcome,
    profile: Profile,
    known: &[Entry],
) -> (Class, String, Option<Reason>) {
    match outcome {
        Outcome::Pass => (Class::Agree, String::new(), None),
        Outcome::Skip(why) => (
            Class::Unsupported,
            why.to_string(),
            Some(Reason::of_skip(why, r.unbuildable)),
        ),
        // 3.x leaves NodePath padding uninitialised: compared with those bytes masked.
        Outcome::Fail(m)
            if profile.major() == 3 && Condition::NodePathPadding.holds(r, m, profile) =>
        {
            (
                Class::Agree,
                "equal outside the NodePath padding the engine leaves uninitialised".to_string(),
                None,
            )
        }
        Outcome::Fail(m) => match known.iter().find(|k| k.covers(version, r, m, profile)) {
            Some(k) => (
                Class::KnownDifference,
                format!("{}: {m}", k.reason),
                Some(Reason::of_condition(k.when)),
            ),
            None => (Class::CodecDiffers, m.to_string(), None),
        },
    }
}

/// Runs `cases` on the engine and classifies each: asks the engine to decode its own output,
/// compares the codec, and asks again where the codec differs to tell engine nondeterminism.
/// The three steps, [`engine_side_of`], [`EngineSide::judge`] and [`recheck`], can also be run
/// apart: a campaign judges one batch with the codec while the engine answers the next.
pub fn classify_batch(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    known: &[Entry],
) -> Vec<Judged> {
    let judged = engine_side_of(engine, cases).judge(known);
    recheck(engine, cases, judged)
}

/// A batch after the engine's answers: the cases they classify, and the records the codec
/// still has to judge, with the codec that judges them (it holds the engine's classes).
pub struct EngineSide {
    version: String,
    profile: Profile,
    steps: Vec<Step>,
    built: Vec<usize>,
    codec: ThisCodec,
}

/// A batch the codec has judged: each case's class so far, and the cases to ask the engine
/// again (a codec difference or a known difference may be the engine answering otherwise).
pub struct CodecSide {
    out: Vec<Judged>,
    again: Vec<usize>,
}

/// The engine's answers to `cases` (with its verdict on decoding its own output, values built
/// from the codec's bytes where no script can build them, and the classes of their full
/// objects): everything the codec's judging needs from the engine.
pub(crate) fn engine_side_of(engine: &mut dyn EngineAnswerer, cases: &[Case]) -> EngineSide {
    let profile = engine.profile();
    let version = engine.version().to_string();
    engine.compare_object_ids_as_read();
    let (mut answered, mut own_told): (Vec<Answered>, Vec<Option<bool>>) =
        run_once_checking_own(engine, cases).into_iter().unzip();
    let built = from_bytes::build_unsupported(engine, cases, &mut answered, &mut own_told);
    let unanswered: Vec<Option<String>> = answered
        .iter()
        .map(|a| a.as_ref().err().map(|u| u.reason.clone()))
        .collect();
    // An unanswered case keeps its place with a stand-in record (never saved: the class says
    // what happened).
    let records: Vec<Record> = answered
        .into_iter()
        .zip(cases)
        .map(|(a, c)| a.unwrap_or_else(|u| stand_in(c, profile, &u.reason)))
        .collect();
    let own = own_output(engine, cases, &records, &own_told);
    // Engine-side classes first; the rest wait for the codec's answer.
    let steps: Vec<Step> = records
        .into_iter()
        .zip(unanswered)
        .zip(&own)
        .map(|((r, unanswered), own)| engine_side(r, unanswered, own.as_ref()))
        .collect();
    // The classes of the full objects to judge, whose stored properties the codec needs.
    let mut wanted = Wanted::default();
    for s in &steps {
        let Step::ToCodec(r) = s else { continue };
        if !r.objects {
            continue;
        }
        if let Some(t) = r.tree.as_ref().or(r.value.as_ref()) {
            classes_in(t, &mut wanted.classes);
            scripted_in(t, &mut wanted.scripted);
        }
        if let Some(input) = r.input.as_deref().and_then(|h| unhex(h).ok()) {
            scripted_in_input(&input, profile, &mut wanted.scripted);
        }
    }
    let codec = ThisCodec::new(profile).with_classes(engine.classes_with_defaults(&wanted));
    EngineSide {
        version,
        profile,
        steps,
        built,
        codec,
    }
}

impl EngineSide {
    /// The codec's answers to the records the engine left to it, classified against the
    /// engine's (`known`: the expected differences). Asks no engine.
    pub fn judge(mut self, known: &[Entry]) -> CodecSide {
        let profile = self.profile;
        // The codec answers the cases the engine-side checks left, as recorded.
        let pending: Vec<&Record> = self
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::ToCodec(r) => Some(r),
                Step::Judged(_) => None,
            })
            .collect();
        let outcomes: Vec<Outcome> = judge_records(&mut self.codec, &pending, profile, &mut || {})
            .into_iter()
            .map(|(outcome, _)| outcome)
            .collect();
        let mut outcomes = outcomes.into_iter();
        let mut out: Vec<Judged> = Vec::with_capacity(self.steps.len());
        let mut again = Vec::new();
        for (i, step) in self.steps.into_iter().enumerate() {
            let r = match step {
                Step::Judged(j) => {
                    out.push(j);
                    continue;
                }
                Step::ToCodec(r) => r,
            };
            let outcome = outcomes.next().expect("one outcome per pending record");
            let (class, detail, reason) = codec_class(&self.version, &r, &outcome, profile, known);
            if matches!(class, Class::CodecDiffers | Class::KnownDifference) {
                again.push(i);
            }
            out.push(Judged {
                class,
                record: r,
                detail,
                reason,
                built_from_bytes: false,
            });
        }
        for i in self.built {
            out[i].built_from_bytes = true;
        }
        CodecSide { out, again }
    }
}

/// The batch's classes once the engine has been asked again, in a request of their own, the
/// cases where the codec differed: a different second answer makes the case engine
/// nondeterministic.
pub fn recheck(engine: &mut dyn EngineAnswerer, cases: &[Case], judged: CodecSide) -> Vec<Judged> {
    let CodecSide { mut out, again } = judged;
    if !again.is_empty() {
        let cases2: Vec<Case> = again.iter().map(|&i| cases[i].clone()).collect();
        let mut second = run_once(engine, &cases2, &mut |_| {});
        let mut unused = vec![None; second.len()];
        from_bytes::build_unsupported(engine, &cases2, &mut second, &mut unused);
        for (&i, b) in again.iter().zip(second) {
            // No second answer: the first stands, as if the engine had repeated it.
            let Ok(b) = b else { continue };
            let fields = out[i].record.differences(&b);
            if !fields.is_empty() {
                out[i].class = Class::EngineNondeterministic;
                out[i].reason = Some(Reason::of_cause(causes::nondeterministic_in_campaign(
                    &out[i].record,
                )));
                out[i].detail = format!(
                    "fields that differed between two runs: {}; first run: {}; second run: {}",
                    Field::names(&fields),
                    out[i].record.output.as_deref().unwrap_or("-"),
                    b.output.as_deref().unwrap_or("-")
                );
            }
        }
    }
    out
}

/// The engine's answer to decoding the bytes it wrote, per accepted record: told in the same
/// request (`own_told`), or asked now. Bytes it has just decoded and accepted in this batch (a
/// decode case whose input it writes back unchanged, the most common answer) are not asked again,
/// and bytes written for several cases are asked once. `None` where nothing was asked.
fn own_output(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    records: &[Record],
    own_told: &[Option<bool>],
) -> Vec<Option<Answer>> {
    let mut asked: HashMap<(Vec<u8>, bool), usize> = HashMap::new();
    let mut own_cases: Vec<Case> = Vec::new();
    let mut own_at: Vec<(usize, usize)> = Vec::new();
    let mut own: Vec<Option<Answer>> = vec![None; records.len()];
    for (i, r) in records.iter().enumerate() {
        if r.verdict != Verdict::Accepted {
            continue;
        }
        match own_told[i] {
            Some(true) => continue,
            Some(false) => {
                own[i] = Some(Answer::Rejected(Rejection {
                    kind: None,
                    message: OWN_REFUSED.to_string(),
                }));
                continue;
            }
            None => {}
        }
        let Some(written) = r.output.as_deref().and_then(|o| unhex(o).ok()) else {
            continue;
        };
        let decoded_already = matches!(&cases[i], Case::Decode { input, allow_objects, .. }
            if *input == written && *allow_objects == r.objects);
        if written.is_empty() || decoded_already {
            continue;
        }
        let next = own_cases.len();
        let at = *asked
            .entry((written, r.objects))
            .or_insert_with_key(|(input, objects)| {
                own_cases.push(Case::Decode {
                    name: r.name.clone(),
                    input: input.clone(),
                    allow_objects: *objects,
                });
                next
            });
        own_at.push((i, at));
    }
    let own_answers = engine.answer(&own_cases);
    for (i, at) in own_at {
        own[i] = own_answers.get(at).cloned();
    }
    own
}

/// Why the engine's decode of its own output failed, when it was asked in the same request (its
/// error lines then go to its log, not to the case's error text).
const OWN_REFUSED: &str = "refused (asked in the same request as the case; replay the finding to \
                           see the engine's words)";

/// Where a case stands after the engine-side checks.
enum Step {
    /// Classified by the engine's answers alone.
    Judged(Judged),
    /// The codec's answer decides.
    ToCodec(Record),
}

/// The class a case gets from the engine's answers alone (`unanswered`: why nobody answered;
/// `own`: the engine decoding its own output), or the record when the codec decides.
fn engine_side(r: Record, unanswered: Option<String>, own: Option<&Answer>) -> Step {
    if let Some(reason) = unanswered {
        return Step::Judged(Judged {
            class: Class::Unanswered,
            record: r,
            detail: reason,
            reason: None,
            built_from_bytes: false,
        });
    }
    let Some(class) = engine_class(&r, own) else {
        return Step::ToCodec(r);
    };
    let detail = match own {
        Some(a) if matches!(class, Class::EngineRejectsOwnOutput) || a.is_incident() => {
            // Only a refusal comes with the engine's words; a crash or hang has none.
            let words = match a {
                Answer::Rejected(why) => why.message.trim(),
                _ => "",
            };
            format!(
                "decoding its own output {}: {words}",
                r.output.as_deref().unwrap_or("")
            )
        }
        _ => r.error.clone(),
    };
    Step::Judged(Judged {
        class,
        record: r,
        detail,
        reason: None,
        built_from_bytes: false,
    })
}

/// The record that stands in for a case nobody answered: the case, with the reason as its error
/// (never saved: the class says what happened).
fn stand_in(case: &Case, profile: Profile, reason: &str) -> Record {
    let unanswered = Unsupported {
        why: None,
        text: reason.to_string(),
    };
    Record::of(case, &Answer::Unsupported(unanswered), profile)
        .expect("an unsupported answer fits either direction")
}

/// The codec's own answer to a case, as JSON, for reproducers.
pub fn codec_answer(case: &Case, profile: Profile) -> serde_json::Value {
    use gdmarshal::hex::hex;
    use serde_json::json;
    let answer = ThisCodec::new(profile)
        .answer(std::slice::from_ref(case))
        .pop()
        .expect("one answer per case");
    match answer {
        Answer::Decoded {
            tree,
            consumed,
            reencoded,
            ..
        } => {
            let output = reencoded.bytes().map(hex);
            json!({"verdict": "accepted", "tree": tree, "consumed": consumed, "output": output})
        }
        Answer::Encoded { bytes, .. } => json!({"verdict": "accepted", "output": hex(&bytes)}),
        Answer::Rejected(e) => json!({"verdict": "rejected", "error": e.message}),
        Answer::Unsupported(e) => json!({"verdict": "skipped", "error": e.text}),
        Answer::Skipped(e) | Answer::Unanswered(e) => {
            json!({"verdict": "skipped", "error": e})
        }
        Answer::Crashed(i) | Answer::Hung(i) => json!({"verdict": "skipped", "error": i.status}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EngineRejection;
    use crate::model::{Mismatch, RejectKind, Rejection, SkipReason};
    use gdmarshal::error::DecodeErrorKind;

    fn rec(verdict: Verdict) -> Record {
        Record {
            name: "t".into(),
            direction: crate::model::case::Direction::Decode,
            input: Some("02000000".into()),
            value: None,
            objects: false,
            verdict,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn engine_side_classes() {
        assert_eq!(
            engine_class(&rec(Verdict::Crashed), None),
            Some(Class::EngineCrash)
        );
        assert_eq!(
            engine_class(&rec(Verdict::Hung), None),
            Some(Class::EngineHang)
        );
        assert_eq!(
            engine_class(
                &rec(Verdict::Accepted),
                Some(&Answer::Rejected(Rejection::text("no")))
            ),
            Some(Class::EngineRejectsOwnOutput)
        );
        let decoded = Answer::Decoded {
            tree: None,
            consumed: None,
            reencoded: crate::model::answer::Reencoded::Absent,
            log: String::new(),
        };
        assert_eq!(engine_class(&rec(Verdict::Accepted), Some(&decoded)), None);
    }

    fn utf8_rejection() -> Mismatch {
        let e = gdmarshal::decode::decode(
            &[4, 0, 0, 0, 1, 0, 0, 0, 0xff, 0, 0, 0],
            "3.6".parse().unwrap(),
            gdmarshal::DecodeOptions::default(),
        )
        .unwrap_err();
        Mismatch::RejectsAccepted {
            rejection: Rejection::from(&e),
        }
    }

    /// The committed list of known differences.
    fn committed() -> Vec<Entry> {
        crate::corpus::known::read_from(&crate::corpus::Source::Embedded).unwrap()
    }

    /// The reason the committed list gives for a mismatch on an engine version, if any.
    fn cause(version: &str, r: &Record, m: &Mismatch) -> Option<String> {
        let profile: Profile = version[..3].parse().unwrap();
        let known = committed();
        match codec_class(version, r, &Outcome::Fail(m.clone()), profile, &known) {
            (Class::KnownDifference, detail, _) => {
                Some(detail.strip_suffix(&format!(": {m}")).unwrap().to_string())
            }
            _ => None,
        }
    }

    #[test]
    fn codec_side_classes() {
        let p36: Profile = "3.6".parse().unwrap();
        let known = committed();
        let r = rec(Verdict::Accepted);
        let class = |v: &str, o: &Outcome, p: Profile| codec_class(v, &r, o, p, &known).0;
        assert_eq!(class("3.6.2.stable", &Outcome::Pass, p36), Class::Agree);
        // A typed cause the file names for 3.2 only.
        let deep = Outcome::Fail(Mismatch::RejectsAccepted {
            rejection: Rejection {
                kind: Some(RejectKind::Decode(DecodeErrorKind::TooDeep { limit: 1024 })),
                message: "at byte 8200: nesting deeper than 1024".into(),
            },
        });
        let p32: Profile = "3.2".parse().unwrap();
        assert_eq!(class("3.2.3.stable", &deep, p32), Class::KnownDifference);
        assert_eq!(class("3.6.2.stable", &deep, p36), Class::CodecDiffers);
        // Bytes every engine refuses as UTF-8 are excused nowhere: the codec reads what 3.x reads.
        let utf8 = Outcome::Fail(utf8_rejection());
        assert_eq!(class("3.6.2.stable", &utf8, p36), Class::CodecDiffers);
        assert_eq!(
            class("4.6.3.stable", &utf8, "4.6".parse().unwrap()),
            Class::CodecDiffers
        );
        // The words alone are no rejection for bad UTF-8.
        let worded = Outcome::Fail(Mismatch::RejectsAccepted {
            rejection: Rejection::text("at byte 8: invalid UTF-8 at string byte 0"),
        });
        assert_eq!(class("3.6.2.stable", &worded, p36), Class::CodecDiffers);
        assert_eq!(
            class(
                "3.6.2.stable",
                &Outcome::Skip(SkipReason::EngineUnsupported),
                p36
            ),
            Class::Unsupported
        );
    }

    #[test]
    fn known_causes_come_from_the_file_and_follow_the_variant_and_kind() {
        let deep = Mismatch::RejectsAccepted {
            rejection: Rejection {
                kind: Some(RejectKind::Decode(DecodeErrorKind::TooDeep { limit: 1024 })),
                message: "at byte 8200: nesting deeper than 1024".into(),
            },
        };
        let r = rec(Verdict::Accepted);
        assert_eq!(
            cause("3.2.3.stable", &r, &deep).as_deref(),
            Some("3.2 has no nesting limit")
        );
        assert_eq!(cause("3.6.2.stable", &r, &deep), None);

        let mut objects = rec(Verdict::Rejected);
        objects.objects = true;
        let unknown = |engine_rejection| Mismatch::AcceptsRejected {
            engine_error: "ERROR: Cannot get class 'Re'.".into(),
            engine_rejection,
            tree: serde_json::json!({"type": "Nil"}),
        };
        assert_eq!(
            cause(
                "4.6.3.stable",
                &objects,
                &unknown(Some(EngineRejection::UnknownClass))
            )
            .as_deref(),
            Some("full objects: the codec does not know which classes the engine has")
        );
        assert_eq!(cause("4.6.3.stable", &objects, &unknown(None)), None);

        // A differing tree has no known cause, even where the engine's bytes decode to what the
        // input does (so a codec that reads a value wrongly is never excused by its re-encoding).
        let mut same = rec(Verdict::Accepted);
        same.input = Some("0200000001000000".into());
        same.output = same.input.clone();
        let value = Mismatch::Value {
            at: Box::new(crate::model::tree_diff::NodeDiff {
                path: "$.value".into(),
                expected: "\"1\"".into(),
                got: "\"2\"".into(),
                bits: None,
            }),
            expected: serde_json::json!({"type": "int", "value": "1"}),
            got: serde_json::json!({"type": "int", "value": "2"}),
        };
        for engine in ["3.2.3.stable", "3.6.2.stable", "4.6.3.stable"] {
            assert_eq!(cause(engine, &same, &value), None);
        }
        let reencoding = Mismatch::Reencoding {
            diff: crate::model::ByteDiff::new(&[2, 0, 0, 0], &[2, 0, 0, 1]),
        };
        assert_eq!(cause("3.6.2.stable", &same, &reencoding), None);
        assert_eq!(
            cause(
                "4.6.3.stable",
                &r,
                &unknown(Some(EngineRejection::UnknownClass))
            ),
            None,
            "only with objects"
        );
    }
}
