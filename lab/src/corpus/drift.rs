//! The drift check: every committed case asked again of a live engine of the same version, to
//! see whether the engine still answers as the corpus says.

use super::generate::{Unanswered, run_once};
use super::{EngineCorpus, all_cases};
use crate::model::Field;
use crate::model::IncidentRecord;
use crate::model::Record;
use crate::model::answerer::EngineAnswerer;

/// A case whose answer changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Changed {
    /// The committed record.
    pub corpus: Record,
    /// The engine's answer now.
    pub now: Record,
    /// The fields that differ.
    pub fields: Vec<Field>,
}

/// Why an engine's corpus could not be checked at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DriftProblem {
    /// The committed cases are not the cases this crate generates for the version.
    #[error(
        "the committed cases are not the cases this version generates: run `gdmarshal corpus generate`"
    )]
    CasesDiffer,
    /// No engine of the corpus's version is installed.
    #[error("no engine of version {0} is installed")]
    NoEngine(String),
}

/// One engine's drift check.
#[derive(Clone, Debug, Default)]
pub struct EngineDrift {
    /// The corpus's engine version.
    pub version: String,
    /// Cases asked again.
    pub asked: usize,
    /// Cases whose answer changed.
    pub changed: Vec<Changed>,
    /// Cases the engine could not answer this time.
    pub unanswered: Vec<Unanswered>,
    /// The engine's crashes and hangs during the check, with what the retries showed.
    pub incidents: Vec<IncidentRecord>,
    /// Why the check could not run, if it could not.
    pub problem: Option<DriftProblem>,
    /// Connections to the engine's port refused so far (not the engine's).
    pub refused: usize,
}

impl EngineDrift {
    /// Whether the engine answered every case as the corpus says.
    pub fn clean(&self) -> bool {
        self.changed.is_empty() && self.unanswered.is_empty() && self.problem.is_none()
    }
}

/// Asks `engine` every case of `corpus` again; `progress` is told how many cases are done.
pub fn check(
    corpus: &EngineCorpus,
    engine: &mut dyn EngineAnswerer,
    progress: &mut dyn FnMut(usize),
) -> EngineDrift {
    let mut out = EngineDrift {
        version: corpus.entry.version.clone(),
        ..EngineDrift::default()
    };
    let cases = all_cases(corpus.profile);
    let same_cases = cases.len() == corpus.records.len()
        && cases
            .iter()
            .zip(&corpus.records)
            .all(|(c, r)| c.name() == r.name);
    if !same_cases {
        out.problem = Some(DriftProblem::CasesDiffer);
        return out;
    }
    let fresh = run_once(engine, &cases, progress);
    out.asked = fresh.len();
    for (old, new) in corpus.records.iter().zip(fresh) {
        match new {
            Ok(new) => {
                let mut fields = old.differences(&new);
                // Bytes the engine never initialises or makes up afresh are not drift, even where
                // the two runs that recorded the corpus happened to agree on them.
                if fields == [Field::Output] && same_value_written(old, &new, corpus.profile) {
                    fields.clear();
                }
                if !fields.is_empty() {
                    out.changed.push(Changed {
                        corpus: old.clone(),
                        now: new,
                        fields,
                    });
                }
            }
            Err(u) => out.unanswered.push(u),
        }
    }
    out.incidents = engine.take_incidents();
    out.refused = engine.refused();
    out
}

/// Whether two engine outputs for the same case say the same thing where the format has meaning:
/// both decode (with this codec) to the same value and length, so they differ only in padding
/// (NodePath names), or the case is an object read as an id, whose re-encoding carries the id of
/// the placeholder object the engine made (a fresh one per process).
fn same_value_written(old: &Record, new: &Record, profile: gdmarshal::Profile) -> bool {
    let objects = old.objects;
    let is_object_id = !objects
        && old
            .tree
            .as_ref()
            .is_some_and(|t| super::tree::mentions_type(t, "Object"));
    if is_object_id {
        return true;
    }
    let read = |r: &Record| {
        let bytes = gdmarshal::hex::unhex(r.output.as_deref()?).ok()?;
        let opts = gdmarshal::DecodeOptions::new().allow_objects(objects);
        let d = gdmarshal::decode(&bytes, profile, opts).ok()?;
        Some((d.value, d.consumed, bytes.len()))
    };
    matches!((read(old), read(new)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Verdict;
    use gdmarshal::value::NodePath;
    use gdmarshal::{EncodeOptions, Variant, encode};

    fn record(output: &[u8], tree: serde_json::Value) -> Record {
        Record {
            name: "decode/valid/NodePath/x".into(),
            direction: crate::Direction::Decode,
            input: Some("00".into()),
            value: None,
            objects: false,
            verdict: Verdict::Accepted,
            consumed: Some(output.len()),
            tree: Some(tree),
            output: Some(gdmarshal::hex::hex(output)),
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn padding_and_placeholder_ids_are_not_drift_but_names_are() {
        let profile: gdmarshal::Profile = "3.6".parse().unwrap();
        let path = Variant::NodePath(Box::new(NodePath {
            names: vec!["a".into()],
            subnames: Vec::new(),
            absolute: false,
        }));
        let bytes = encode(&path, profile, EncodeOptions::default()).unwrap();
        let tree = serde_json::json!({"type": "NodePath"});
        let mut padded = bytes.clone();
        *padded.last_mut().unwrap() = 0x55; // a padding byte after the name "a"
        let mut renamed = bytes.clone();
        let at = bytes.iter().rposition(|&b| b == b'a').unwrap();
        renamed[at] = b'b';
        let old = record(&bytes, tree.clone());
        assert!(same_value_written(
            &old,
            &record(&padded, tree.clone()),
            profile
        ));
        assert!(!same_value_written(&old, &record(&renamed, tree), profile));
        let id = serde_json::json!({"type": "Object", "id": "12345"});
        assert!(same_value_written(
            &record(&[17, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0], id.clone()),
            &record(&[17, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0], id),
            profile
        ));
    }
}
