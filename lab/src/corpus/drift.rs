//! The drift check: every committed case asked again of a live engine of the same version, to
//! see whether the engine still answers as the corpus says.

use super::generate::{Unanswered, run_once};
use super::{EngineCorpus, Record, all_cases};
use crate::answerer::Answerer;
use crate::oracle::IncidentRecord;

/// A case whose answer changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Changed {
    /// The committed record.
    pub corpus: Record,
    /// The engine's answer now.
    pub now: Record,
    /// The fields that differ.
    pub fields: Vec<&'static str>,
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
    engine: &mut dyn Answerer,
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
                let fields = old.differences(&new);
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
