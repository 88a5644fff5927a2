//! Differential checking of the codec against a live engine, one input at a time: what the
//! `differential` fuzz target runs, and what replays its findings.
//!
//! An input is a mode byte and a body ([`DiffInput::parse`]). In decode mode the body is bytes
//! for both the engine and the codec to decode; in encode mode the body drives
//! [`canonical_value`] and the value is encoded by both. The engine's answer becomes a corpus
//! [`Record`] and is judged exactly as the committed corpus is ([`judge`]); a difference that
//! the expected differences (`corpus/known-differences.txt`) cover is [`Agreement::Known`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use arbitrary::Unstructured;
use serde_json::{Value, json};

use crate::corpus::codec::{Outcome, ThisCodec, judge};
use crate::corpus::generate::{decode_record, encode_record};
use crate::corpus::known::Entry;
use crate::corpus::tree::types_in;
use crate::corpus::{Mismatch, Record};
use crate::oracle::{EngineRejection, Oracle, Verdict as OracleVerdict};
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::json::hex;
use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;

/// Mode byte bit 7: encode a generated value instead of decoding the body. Bit 0: objects.
/// The decode seeds' selector bytes (below 64) are decode mode, so they seed this target as is.
pub const ENCODE_BIT: u8 = 0x80;

/// One differential case.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffInput {
    /// Decode these bytes (with objects allowed or not).
    Decode {
        /// The bytes.
        bytes: Vec<u8>,
        /// `bytes_to_var_with_objects` instead of `bytes_to_var`.
        objects: bool,
    },
    /// Encode this value (with full objects or not).
    Encode {
        /// The value.
        value: Variant,
        /// `var_to_bytes_with_objects` instead of `var_to_bytes`.
        objects: bool,
    },
}

impl DiffInput {
    /// Reads a fuzz input for an engine of `profile`; `None` when it is empty or too short to
    /// draw a value from.
    pub fn parse(data: &[u8], profile: Profile) -> Option<DiffInput> {
        let (&mode, body) = data.split_first()?;
        let objects = mode & 1 == 1;
        if mode & ENCODE_BIT == 0 {
            return Some(DiffInput::Decode {
                bytes: body.to_vec(),
                objects,
            });
        }
        let o = GenOptions {
            full_objects: objects,
            ..GenOptions::new(profile)
        };
        let value = canonical_value(&mut Unstructured::new(body), &o).ok()?;
        Some(DiffInput::Encode { value, objects })
    }
}

/// How the codec and the engine compared on one input.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Same verdict, value, bytes consumed and re-encoding (or encoding).
    Agree,
    /// Not compared (the engine cannot build the value, or the oracle failed); the reason.
    Skip(String),
    /// A difference an entry of the expected differences covers: its origin and reason.
    Known(String),
    /// A difference nobody expects.
    Disagree(Finding),
    /// The engine crashed or hung on the input, and again on a fresh engine.
    Incident(Finding),
    /// Nobody could answer: the engine would not start, or died in ways the input did not
    /// cause; the reason. Not a finding, but counted, and it fails the run.
    Unanswered(String),
}

/// A disagreement or engine incident, as saved under `fuzz/findings/ENGINE/`.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// A short class for grouping, e.g. `decode/value` or `engine/crashed`.
    pub class: String,
    /// What differs, in words.
    pub detail: String,
    /// The engine's answer as a corpus record.
    pub engine: Record,
}

/// Compares the codec with the engine on one input.
pub fn compare(
    oracle: &mut dyn Oracle,
    version: &str,
    input: &DiffInput,
    known: &[Entry],
) -> Agreement {
    let profile = oracle.profile();
    let record = match input {
        DiffInput::Decode { bytes, objects } => {
            let r = oracle.decode(bytes, *objects);
            if let Some(a) = not_compared(&r.verdict) {
                return a;
            }
            decode_record("fuzz", bytes, *objects, &r, profile)
        }
        DiffInput::Encode { value, objects } => {
            let r = oracle.encode(value, *objects);
            if let Some(a) = not_compared(&r.verdict) {
                return a;
            }
            encode_record("fuzz", value, *objects, &r, profile)
        }
    };
    let record = match record {
        Ok(r) => r,
        Err(u) => return Agreement::Unanswered(u.reason),
    };
    if record.is_invalid()
        && matches!(
            record.verdict,
            crate::corpus::Verdict::Crashed | crate::corpus::Verdict::Hung
        )
    {
        let class = format!("engine/{}", format!("{:?}", record.verdict).to_lowercase());
        return Agreement::Incident(Finding {
            class,
            detail: record.error.clone(),
            engine: record,
        });
    }
    let mismatch = match judge(&mut ThisCodec, &record, profile) {
        Outcome::Pass => return Agreement::Agree,
        Outcome::Skip(why) => return Agreement::Skip(why.to_string()),
        Outcome::Fail(m) => m,
    };
    if let Some(k) = known_entry(known, version, &record, &mismatch) {
        return Agreement::Known(format!("{}: {}", k.origin, k.reason));
    }
    Agreement::Disagree(Finding {
        class: classify(&record.direction, &mismatch),
        detail: mismatch.to_string(),
        engine: record,
    })
}

/// Crashes and hangs are compared (they are findings); a case nobody answered is not.
fn not_compared(v: &OracleVerdict) -> Option<Agreement> {
    match v {
        OracleVerdict::Unanswered(why) => Some(Agreement::Unanswered(why.clone())),
        OracleVerdict::Unsupported(why) => Some(Agreement::Skip(format!(
            "the engine cannot build the value: {why}"
        ))),
        _ => None,
    }
}

/// The class of a [`judge`] failure, e.g. `decode/value`: the direction and the kind of mismatch.
pub fn classify(direction: &str, m: &Mismatch) -> String {
    let kind = match m {
        // The codec does not know Godot's classes: a full object of a class the engine does not
        // have is refused by the engine (`ClassDB` cannot instantiate it) and kept by the codec.
        Mismatch::AcceptsRejected {
            engine_rejection: Some(EngineRejection::UnknownClass),
            ..
        } => "codec-accepts-unknown-class",
        Mismatch::AcceptsRejected { .. } => "codec-accepts",
        Mismatch::RejectsAccepted { .. } => "codec-rejects",
        Mismatch::Value { .. } => "value",
        Mismatch::Consumed { .. } => "consumed",
        Mismatch::Reencoding { .. } => "reencoding",
        Mismatch::ReencodeRefused { .. } => "reencode-refused",
        Mismatch::Bytes { .. } => "bytes",
        Mismatch::EncodeRefused { .. } => "encode-refused",
        Mismatch::NoAnswer { .. }
        | Mismatch::ReencodeNoAnswer { .. }
        | Mismatch::BadRecord { .. } => "other",
    };
    format!("{direction}/{kind}")
}

/// The expected difference that covers a fuzz case, if any. Fuzz inputs have no case names, so
/// the names of the corpus cases that show each known class stand in for them:
/// `decode/valid/TYPE/…` and `encode/TYPE/…` for every type in the value (NodePath padding,
/// full objects of a class), `decode/string_bytes/…` for UTF-8 the codec refuses, and
/// `decode/depth/…` for nesting the codec refuses.
fn known_entry<'k>(
    known: &'k [Entry],
    version: &str,
    r: &Record,
    m: &Mismatch,
) -> Option<&'k Entry> {
    let mut types = BTreeSet::new();
    for tree in [&r.tree, &r.value].into_iter().flatten() {
        types_in(tree, &mut types);
    }
    let mut prefixes: Vec<String> = types
        .iter()
        .map(|t| match r.direction.as_str() {
            "decode" => format!("decode/valid/{t}/"),
            _ => format!("encode/{t}/"),
        })
        .collect();
    if let Mismatch::RejectsAccepted { rejection } = m {
        if rejection.is_bad_utf8() {
            prefixes.push("decode/string_bytes/".into());
        }
        if rejection.is_too_deep() {
            prefixes.push("decode/depth/".into());
        }
    }
    known.iter().find(|k| {
        k.matches_engine(version)
            && prefixes
                .iter()
                .any(|p| k.case_pattern().starts_with(p.as_str()))
    })
}

/// The file name a finding is saved under: a hash of the input.
pub fn finding_id(data: &[u8]) -> String {
    // FNV-1a, 64 bits: stable across runs and builds, unlike std's hasher.
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// A finding as JSON: the fuzz input, the class, both answers, the engine and how to replay it.
pub fn finding_json(
    data: &[u8],
    engine_name: &str,
    engine_version: &str,
    f: &Finding,
    path: &Path,
) -> Value {
    json!({
        "class": f.class,
        "engine": engine_name,
        "engine_version": engine_version,
        "input": hex(data),
        "detail": f.detail,
        "engine_answer": f.engine,
        "replay": format!("scripts/fuzz.sh differential-replay {engine_name} {}", path.display()),
    })
}

/// Writes a finding to `dir/ENGINE/ID.json` unless it is there; returns its path.
pub fn save_finding(
    dir: &Path,
    data: &[u8],
    engine_name: &str,
    engine_version: &str,
    f: &Finding,
) -> std::io::Result<PathBuf> {
    let folder = dir.join(engine_name);
    std::fs::create_dir_all(&folder)?;
    let path = folder.join(format!("{}.json", finding_id(data)));
    let shown = Path::new("fuzz/findings")
        .join(engine_name)
        .join(path.file_name().unwrap_or_default());
    let text =
        serde_json::to_string_pretty(&finding_json(data, engine_name, engine_version, f, &shown))
            .expect("findings serialize");
    std::fs::write(&path, text + "\n")?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_seeds_are_decode_mode() {
        let p: Profile = "4.6".parse().unwrap();
        // 4.6 seeds start with selector 26 or 27.
        assert_eq!(
            DiffInput::parse(&[27, 2, 0, 0, 0], p),
            Some(DiffInput::Decode {
                bytes: vec![2, 0, 0, 0],
                objects: true
            })
        );
        assert!(matches!(
            DiffInput::parse(&[ENCODE_BIT, 3, 1, 4, 1, 5, 9, 2, 6], p),
            Some(DiffInput::Encode { objects: false, .. })
        ));
        assert_eq!(DiffInput::parse(&[], p), None);
    }

    #[test]
    fn classes_and_ids() {
        let value = Mismatch::Value {
            path: "$.value".into(),
            expected: json!({"type": "int", "value": "1"}),
            got: json!({"type": "int", "value": "2"}),
        };
        assert_eq!(classify("decode", &value), "decode/value");
        let bytes = Mismatch::Bytes {
            diff: crate::corpus::ByteDiff::new(&[1], &[2]),
        };
        assert_eq!(classify("encode", &bytes), "encode/bytes");
        let accepts = |engine_rejection| Mismatch::AcceptsRejected {
            engine_error: "ERROR: Cannot get class 'Re'.".into(),
            engine_rejection,
            tree: json!({"type": "Nil"}),
        };
        assert_eq!(
            classify("decode", &accepts(Some(EngineRejection::UnknownClass))),
            "decode/codec-accepts-unknown-class"
        );
        assert_eq!(classify("decode", &accepts(None)), "decode/codec-accepts");
        assert_eq!(finding_id(b""), "cbf29ce484222325");
    }

    #[test]
    fn known_entries_follow_the_rejection_kind() {
        use crate::corpus::{RejectKind, Rejection};
        use gdmarshal::error::DecodeErrorKind;
        let known = crate::corpus::known::parse(
            "3.2* decode/depth/* 3.2 has no nesting limit\n\
             3.* decode/string_bytes/* 3.x reads UTF-8 loosely\n",
            "known",
        )
        .unwrap();
        let r = Record {
            name: "fuzz".into(),
            direction: "decode".into(),
            input: Some("00".into()),
            value: None,
            objects: false,
            verdict: crate::corpus::Verdict::Accepted,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            error: String::new(),
        };
        let rejects = |kind, message: &str| Mismatch::RejectsAccepted {
            rejection: Rejection {
                kind,
                message: message.into(),
            },
        };
        let deep = rejects(
            Some(RejectKind::Decode(DecodeErrorKind::TooDeep { limit: 1024 })),
            "at byte 9: nesting deeper than 1024",
        );
        let utf8 = rejects(
            Some(RejectKind::Decode(DecodeErrorKind::BadUtf8 { at: 0 })),
            "at byte 8: invalid UTF-8 at string byte 0",
        );
        let reason =
            |v: &str, m: &Mismatch| known_entry(&known, v, &r, m).map(|k| k.reason.clone());
        assert_eq!(
            reason("3.2.3.stable", &deep).as_deref(),
            Some("3.2 has no nesting limit")
        );
        assert_eq!(reason("3.6.2.stable", &deep), None);
        assert_eq!(
            reason("3.6.2.stable", &utf8).as_deref(),
            Some("3.x reads UTF-8 loosely")
        );
        // A testee's words are not the codec's kind.
        let worded = rejects(None, "at byte 8: invalid UTF-8, nesting deeper");
        assert_eq!(reason("3.2.3.stable", &worded), None);
    }
}
