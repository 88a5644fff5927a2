//! Asking a live engine every case, twice, to build its corpus records.
//!
//! Each case runs twice; a field that differs between the runs (an instance id the engine made up,
//! padding bytes it never initialised) is marked nondeterministic rather than recorded as truth.

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

fn verdict(v: &OracleVerdict) -> Result<Verdict, String> {
    Ok(match v {
        OracleVerdict::Accepted => Verdict::Accepted,
        OracleVerdict::Rejected => Verdict::Rejected,
        // A value the oracle could not hand to the engine (e.g. a u64 beyond GDScript's int) is
        // as unbuildable as one the engine refuses to build; the reason is kept in `error`.
        OracleVerdict::Unsupported(_) | OracleVerdict::Failed(_) => Verdict::Unsupported,
        OracleVerdict::Crashed(_) => Verdict::Crashed,
        OracleVerdict::Hung(_) => Verdict::Hung,
    })
}

fn error_text(text: &str, v: &OracleVerdict) -> String {
    let text = match v {
        OracleVerdict::Crashed(i) | OracleVerdict::Hung(i) => format!("{}: {}", i.status, i.stderr),
        OracleVerdict::Unsupported(why) | OracleVerdict::Failed(why) => why.clone(),
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
) -> Result<Record, String> {
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
        verdict: verdict(&r.verdict).map_err(|e| format!("{name}: {e}"))?,
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
) -> Result<Record, String> {
    Ok(Record {
        name: name.to_string(),
        direction: "encode".into(),
        input: None,
        value: Some(to_json(value, profile, FloatStyle::Shortest)),
        objects,
        verdict: verdict(&r.verdict).map_err(|e| format!("{name}: {e}"))?,
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

/// Runs every case once against the engine, one record per case in order; `progress` is told how many cases are done.
pub fn run_once(
    engine: &mut dyn Oracle,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Record>, String> {
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
                ) => decode_record(name, input, *allow_objects, &r, profile)?,
                (
                    Case::Encode {
                        name,
                        value,
                        full_objects,
                    },
                    Response::Encode(r),
                ) => encode_record(name, value, *full_objects, &r, profile)?,
                (c, r) => return Err(format!("{}: the engine answered {r:?}", c.name())),
            });
        }
        progress(out.len());
    }
    Ok(out)
}

/// Asks the engine every case twice and returns one record per case, with fields that changed
/// between the runs marked nondeterministic.
pub fn generate(
    engine: &mut dyn Oracle,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Record>, String> {
    let n = cases.len();
    let first = run_once(engine, cases, &mut |done| progress(done / 2))?;
    let second = run_once(engine, cases, &mut |done| progress(n / 2 + done / 2))?;
    Ok(first
        .into_iter()
        .zip(second)
        .map(|(mut a, b)| {
            a.nondeterministic = a
                .differences(&b)
                .into_iter()
                .filter(|f| *f != "verdict")
                .map(String::from)
                .collect();
            if a.verdict != b.verdict {
                a.nondeterministic.push("verdict".into());
            }
            a
        })
        .collect())
}
