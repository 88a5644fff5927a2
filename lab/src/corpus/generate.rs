//! Asking a live engine every case, twice, to build its corpus records.
//!
//! Each case runs twice; a field that differs between the runs (an instance id the engine made up,
//! padding bytes it never initialised) is marked nondeterministic rather than recorded as truth.
//! A case the engine could not answer ([`Unanswered`]) is never written as a record: a corpus
//! holds engine answers only, and [`generate`] fails when any case went unanswered.

use crate::oracle::{
    DecodeRequest, DecodeResult, EncodeRequest, EncodeResult, Oracle, Request, Response,
    Verdict as OracleVerdict,
};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{hex, to_json};
use gdmarshal::profile::Profile;

use super::cases::Case;
use super::record::{Record, Verdict};

/// Cases sent to the engine per batch.
const BATCH: usize = 256;

/// Longest error text kept per record.
const ERROR_CHARS: usize = 600;

/// A case nobody could answer: the engine would not start, or kept dying in ways the case did
/// not cause (see [`OracleVerdict::Unanswered`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unanswered {
    /// The case.
    pub name: String,
    /// Why there is no answer.
    pub reason: String,
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: unanswered: {}", self.name, self.reason)
    }
}

/// One case's record, or why nobody could answer it.
pub type Answered = Result<Record, Unanswered>;

fn verdict(name: &str, v: &OracleVerdict) -> Result<Verdict, Unanswered> {
    Ok(match v {
        OracleVerdict::Accepted => Verdict::Accepted,
        OracleVerdict::Rejected => Verdict::Rejected,
        // A value the oracle could not hand to the engine (e.g. a u64 beyond GDScript's int) is
        // as unbuildable as one the engine refuses to build; the reason is kept in `error`.
        OracleVerdict::Unsupported(_) => Verdict::Unsupported,
        OracleVerdict::Crashed(_) => Verdict::Crashed,
        OracleVerdict::Hung(_) => Verdict::Hung,
        OracleVerdict::Unanswered(why) => {
            return Err(Unanswered {
                name: name.to_string(),
                reason: why.clone(),
            });
        }
    })
}

fn error_text(text: &str, v: &OracleVerdict) -> String {
    let text = match v {
        OracleVerdict::Crashed(i) | OracleVerdict::Hung(i) => format!("{}: {}", i.status, i.stderr),
        OracleVerdict::Unsupported(why) | OracleVerdict::Unanswered(why) => why.clone(),
        _ => text.to_string(),
    };
    text.trim().chars().take(ERROR_CHARS).collect()
}

pub(crate) fn decode_record(
    name: &str,
    input: &[u8],
    objects: bool,
    r: &DecodeResult,
    profile: Profile,
) -> Answered {
    let accepted = r.verdict == OracleVerdict::Accepted;
    let tree = match (&r.value, &r.tree) {
        (Some(v), _) => Some(to_json(v, profile, FloatStyle::Shortest)),
        (None, t) => t.clone(),
    };
    let output = if objects {
        &r.reencoded_full
    } else {
        &r.reencoded
    };
    Ok(Record {
        name: name.to_string(),
        direction: "decode".into(),
        input: Some(hex(input)),
        value: None,
        objects,
        verdict: verdict(name, &r.verdict)?,
        consumed: if accepted { r.consumed } else { None },
        tree: if accepted { tree } else { None },
        output: if accepted {
            output.as_deref().map(hex)
        } else {
            None
        },
        nondeterministic: Vec::new(),
        error: error_text(&r.error_text, &r.verdict),
    })
}

pub(crate) fn encode_record(
    name: &str,
    value: &gdmarshal::Variant,
    objects: bool,
    r: &EncodeResult,
    profile: Profile,
) -> Answered {
    Ok(Record {
        name: name.to_string(),
        direction: "encode".into(),
        input: None,
        value: Some(to_json(value, profile, FloatStyle::Shortest)),
        objects,
        verdict: verdict(name, &r.verdict)?,
        consumed: None,
        tree: r
            .value
            .as_ref()
            .map(|v| to_json(v, profile, FloatStyle::Shortest)),
        output: r.bytes().map(hex),
        nondeterministic: Vec::new(),
        error: error_text(&r.error_text, &r.verdict),
    })
}

/// Runs every case once against the engine, one answer per case in order; `progress` is told how
/// many cases are done.
pub fn run_once(
    engine: &mut dyn Oracle,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Vec<Answered> {
    let profile = engine.profile();
    let mut out = Vec::with_capacity(cases.len());
    for chunk in cases.chunks(BATCH) {
        let requests: Vec<Request> = chunk
            .iter()
            .map(|c| match c {
                Case::Decode {
                    input,
                    allow_objects,
                    ..
                } => Request::Decode(DecodeRequest {
                    bytes: input,
                    allow_objects: *allow_objects,
                }),
                Case::Encode {
                    value,
                    full_objects,
                    ..
                } => Request::Encode(EncodeRequest {
                    value,
                    full_objects: *full_objects,
                }),
            })
            .collect();
        for (c, r) in chunk.iter().zip(engine.run(&requests)) {
            out.push(match (c, r) {
                (
                    Case::Decode {
                        name,
                        input,
                        allow_objects,
                    },
                    Response::Decode(r),
                ) => decode_record(name, input, *allow_objects, &r, profile),
                (
                    Case::Encode {
                        name,
                        value,
                        full_objects,
                    },
                    Response::Encode(r),
                ) => encode_record(name, value, *full_objects, &r, profile),
                (c, r) => Err(Unanswered {
                    name: c.name().to_string(),
                    reason: format!("the oracle answered another kind of request: {r:?}"),
                }),
            });
        }
        progress(out.len());
    }
    out
}

/// Why [`generate`] wrote nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateFailed {
    /// Every case nobody could answer (on either run).
    pub unanswered: Vec<Unanswered>,
    /// How many cases there were.
    pub cases: usize,
}

impl std::fmt::Display for GenerateFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} cases unanswered",
            self.unanswered.len(),
            self.cases
        )?;
        if let Some(first) = self.unanswered.first() {
            write!(f, " (first: {first})")?;
        }
        Ok(())
    }
}

/// Asks the engine every case twice and returns one record per case, with fields that changed
/// between the runs marked nondeterministic; fails, with every unanswered case, if the engine
/// could not answer any case on either run.
pub fn generate(
    engine: &mut dyn Oracle,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Record>, GenerateFailed> {
    let n = cases.len();
    let first = run_once(engine, cases, &mut |done| progress(done / 2));
    let second = run_once(engine, cases, &mut |done| progress(n / 2 + done / 2));
    let mut records = Vec::with_capacity(n);
    let mut unanswered = Vec::new();
    for (a, b) in first.into_iter().zip(second) {
        match (a, b) {
            (Ok(mut a), Ok(b)) => {
                a.nondeterministic = a
                    .differences(&b)
                    .into_iter()
                    .filter(|f| *f != "verdict")
                    .map(String::from)
                    .collect();
                if a.verdict != b.verdict {
                    a.nondeterministic.push("verdict".into());
                }
                records.push(a);
            }
            (Err(u), _) | (_, Err(u)) => unanswered.push(u),
        }
    }
    if unanswered.is_empty() {
        Ok(records)
    } else {
        Err(GenerateFailed {
            unanswered,
            cases: n,
        })
    }
}
