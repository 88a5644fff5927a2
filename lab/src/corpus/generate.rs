//! Asking a live engine every case, twice, to build its corpus records.
//!
//! Each case runs twice; a field that differs between the runs (an instance id the engine made up,
//! padding bytes it never initialised) is marked nondeterministic rather than recorded as truth.
//! A case the engine could not answer ([`Unanswered`]) is never written as a record: a corpus
//! holds engine answers only, and [`generate`] fails when any case went unanswered.

use crate::model::answerer::EngineAnswerer;
use crate::model::case::Case;

use crate::model::Field;
use crate::model::record::Record;

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
pub(crate) type Answered = Result<Record, Unanswered>;

/// Runs every case once against the engine, one answer per case in order; `progress` is told how
/// many cases are done.
pub(crate) fn run_once(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Vec<Answered> {
    run_chunks(engine, cases, BATCH, false, progress)
        .into_iter()
        .map(|(a, _)| a)
        .collect()
}

/// [`run_once`], each answer with the engine's verdict on decoding the bytes it wrote where it
/// gives one in the same request ([`EngineAnswerer::answer_checking_own`]). For campaigns: such answers
/// leave out the encoding with full objects, which a corpus record keeps. The cases go in one
/// request frame (a campaign's batch): fewer round trips, in which the engine waits for the host,
/// made a campaign a fifth faster than frames of `BATCH`.
pub(crate) fn run_once_checking_own(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
) -> Vec<(Answered, Option<bool>)> {
    run_chunks(engine, cases, cases.len().max(1), true, &mut |_| {})
}

fn run_chunks(
    engine: &mut dyn EngineAnswerer,
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
    engine: &mut dyn EngineAnswerer,
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
                    .filter(|&f| f != Field::Verdict)
                    .collect();
                if a.verdict != b.verdict {
                    a.nondeterministic.push(Field::Verdict);
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

/// [`generate`] for the cases that `recorded` does not answer as they are asked now
/// ([`Record::answers`]: a new name, or an input or value that changed); the others keep their
/// recorded answer as it is. Returns every case's record in the order of `cases`, and how many
/// were kept. Adding cases to a corpus this way leaves the earlier records byte for byte as they
/// were (the engine's own words in `error`, such as a backtrace's line numbers, would otherwise
/// change with the oracle's script); `gdmarshal corpus check` holds the kept answers to the
/// engines.
pub fn generate_keeping(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    recorded: &[Record],
    progress: &mut dyn FnMut(usize),
) -> Result<(Vec<Record>, usize), GenerateFailed> {
    let profile = engine.profile();
    let by_name: std::collections::HashMap<&str, &Record> =
        recorded.iter().map(|r| (r.name.as_str(), r)).collect();
    let kept: Vec<Option<&Record>> = cases
        .iter()
        .map(|c| {
            by_name
                .get(c.name())
                .copied()
                .filter(|r| r.answers(c, profile))
        })
        .collect();
    let ask: Vec<Case> = cases
        .iter()
        .zip(&kept)
        .filter(|(_, k)| k.is_none())
        .map(|(c, _)| c.clone())
        .collect();
    let mut asked = generate(engine, &ask, progress)?.into_iter();
    let n_kept = kept.iter().flatten().count();
    let records = kept
        .into_iter()
        .map(|k| match k {
            Some(r) => Some(r.clone()),
            None => asked.next(),
        })
        .collect::<Option<Vec<Record>>>()
        .expect("one record for each case asked");
    Ok((records, n_kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::all_cases;
    use crate::model::answerer::Answerer;
    use crate::this_codec::ThisCodec;

    /// An answerer that counts the cases it is asked.
    struct Counting {
        inner: ThisCodec,
        asked: Vec<String>,
    }

    impl Answerer for Counting {
        fn name(&self) -> &str {
            "counting"
        }
        fn version(&self) -> &str {
            "counting"
        }
        fn profile(&self) -> gdmarshal::profile::Profile {
            self.inner.profile()
        }
        fn answer(&mut self, cases: &[Case]) -> Vec<crate::Answer> {
            self.asked
                .extend(cases.iter().map(|c| c.name().to_string()));
            self.inner.answer(cases)
        }
    }

    /// An engine's stand-in: without an own check, as an engine asked about objects.
    impl EngineAnswerer for Counting {}

    #[test]
    fn only_new_and_changed_cases_are_asked_and_the_rest_kept_as_recorded() {
        let profile: gdmarshal::profile::Profile = "4.6".parse().unwrap();
        let cases: Vec<Case> = all_cases(profile).into_iter().take(40).collect();
        let mut engine = Counting {
            inner: ThisCodec::new(profile),
            asked: Vec::new(),
        };
        let full = generate(&mut engine, &cases, &mut |_| {}).unwrap();
        // Recorded: every case but the 4th, the 10th with another input, and words of its own
        // in the 20th's error text, which must survive.
        let mut recorded = full.clone();
        recorded[19].error = "as recorded".into();
        recorded[9].input = Some("00".into());
        recorded.remove(3);
        engine.asked.clear();
        let (records, kept) =
            generate_keeping(&mut engine, &cases, &recorded, &mut |_| {}).unwrap();
        assert_eq!(kept, 38);
        let names = |i: usize| cases[i].name().to_string();
        // Each case asked twice, as generate does.
        assert_eq!(engine.asked, [names(3), names(9), names(3), names(9)]);
        assert_eq!(records.len(), cases.len());
        for (r, c) in records.iter().zip(&cases) {
            assert_eq!(r.name, c.name());
        }
        assert_eq!(records[19].error, "as recorded");
        assert_eq!(records[9], full[9]);
        assert_eq!(records[3], full[3]);
    }
}
