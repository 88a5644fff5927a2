//! Asking a live engine every case, twice, to build its corpus records.
//!
//! Each case runs twice; a field that differs between the runs (an instance id the engine made up,
//! padding bytes it never initialised) is marked nondeterministic rather than recorded as truth.
//! A case the engine could not answer ([`Unanswered`]) is never written as a record: a corpus
//! holds engine answers only, and [`generate`] fails when any case went unanswered.

use crate::answerer::Answerer;
use crate::case::Case;

use super::record::Record;

/// Cases sent to the engine per batch.
const BATCH: usize = 256;

/// A case nobody could answer: the engine would not start, or kept dying in ways the case did
/// not cause (see [`crate::Answer::Unanswered`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: unanswered: {reason}")]
pub struct Unanswered {
    /// The case.
    pub name: String,
    /// Why there is no answer.
    pub reason: String,
}

/// One case's record, or why nobody could answer it.
pub type Answered = Result<Record, Unanswered>;

/// Runs every case once against the engine, one answer per case in order; `progress` is told how
/// many cases are done.
pub fn run_once(
    engine: &mut dyn Answerer,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Vec<Answered> {
    run_chunks(engine, cases, BATCH, false, progress)
        .into_iter()
        .map(|(a, _)| a)
        .collect()
}

/// [`run_once`], each answer with the engine's verdict on decoding the bytes it wrote where it
/// gives one in the same request ([`Answerer::answer_checking_own`]). For campaigns: such answers
/// leave out the encoding with full objects, which a corpus record keeps. The cases go in one
/// request frame (a campaign's batch): fewer round trips, in which the engine waits for the host,
/// made a campaign a fifth faster than frames of `BATCH`.
pub fn run_once_checking_own(
    engine: &mut dyn Answerer,
    cases: &[Case],
) -> Vec<(Answered, Option<bool>)> {
    run_chunks(engine, cases, cases.len().max(1), true, &mut |_| {})
}

fn run_chunks(
    engine: &mut dyn Answerer,
    cases: &[Case],
    frame: usize,
    own: bool,
    progress: &mut dyn FnMut(usize),
) -> Vec<(Answered, Option<bool>)> {
    let profile = engine.profile();
    let mut out = Vec::with_capacity(cases.len());
    for chunk in cases.chunks(frame) {
        let answers = if own {
            engine.answer_checking_own(chunk)
        } else {
            engine
                .answer(chunk)
                .into_iter()
                .map(|a| (a, None))
                .collect()
        };
        for (c, (a, told)) in chunk.iter().zip(answers) {
            let record = Record::of(c, &a, profile).map_err(|no| Unanswered {
                name: c.name().to_string(),
                reason: no.to_string(),
            });
            out.push((record, told));
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

impl std::error::Error for GenerateFailed {}

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
    engine: &mut dyn Answerer,
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
