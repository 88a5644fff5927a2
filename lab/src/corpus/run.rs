//! Running an implementation over the corpus and settling each case against the expected
//! differences.

use gdmarshal::profile::Profile;

use super::EngineCorpus;
use super::known::Entry;
use crate::model::answer::Answer;
use crate::model::answerer::Answerer;
use crate::model::judge::{Outcome, before_asking, judge};
use crate::model::mismatch::Mismatch;
use crate::model::record::Record;
use crate::model::skip::SkipReason;

/// Cases asked of an answerer at a time (progress is told after each batch).
const BATCH: usize = 64;

/// How one case ended, after the expected differences are applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Settled {
    /// Matched the engine.
    Pass,
    /// Did not match, and no entry expects it.
    Fail(Mismatch),
    /// Did not match, as an entry expects (its origin and reason).
    ExpectedFail(String),
    /// Matched, though an entry expects it not to: the entry is stale.
    UnexpectedPass(String),
    /// Not compared.
    Skip(SkipReason),
}

/// One case's result.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The engine version the record comes from.
    pub engine: String,
    /// The case name.
    pub name: String,
    /// Its input or value, for replay and reports.
    pub record: Record,
    /// What the implementation answered (none when it was not asked: the record settled the
    /// case alone).
    pub answer: Option<Answer>,
    /// How it ended.
    pub settled: Settled,
}

/// Asks `imp` (answering in `profile`) the case of every record that needs an answer, and judges
/// each: the outcome per record, in order, with the answer where one was asked for.
pub fn judge_records(
    imp: &mut dyn Answerer,
    records: &[&Record],
    profile: Profile,
    progress: &mut dyn FnMut(),
) -> Vec<(Outcome, Option<Answer>)> {
    let mut out = Vec::with_capacity(records.len());
    for chunk in records.chunks(BATCH) {
        let mut settled: Vec<Option<Outcome>> = Vec::with_capacity(chunk.len());
        let mut cases = Vec::new();
        for r in chunk {
            let case = match before_asking(r) {
                Some(o) => Err(o),
                None => r
                    .case(profile)
                    .map_err(|what| Outcome::Fail(Mismatch::BadRecord { what })),
            };
            match case {
                Ok(c) => {
                    settled.push(None);
                    cases.push(c);
                }
                Err(o) => settled.push(Some(o)),
            }
        }
        let mut answers = imp.answer(&cases).into_iter();
        for (r, s) in chunk.iter().zip(settled) {
            out.push(match s {
                Some(o) => (o, None),
                None => {
                    let a = answers.next().expect("one answer per case");
                    (judge(r, &a, profile), Some(a))
                }
            });
            progress();
        }
    }
    out
}

/// Judges every record of `corpus` accepted by `wanted` (engine version, case name) against the
/// answers of `imp`, which answers in the corpus's profile.
pub fn run(
    imp: &mut dyn Answerer,
    corpus: &EngineCorpus,
    known: &[Entry],
    wanted: &dyn Fn(&str, &str) -> bool,
    progress: &mut dyn FnMut(),
) -> Vec<CaseResult> {
    debug_assert_eq!(imp.profile(), corpus.profile, "the answerer's profile");
    let version = &corpus.entry.version;
    let records: Vec<&Record> = corpus
        .records
        .iter()
        .filter(|r| wanted(version, &r.name))
        .collect();
    let judged = judge_records(imp, &records, corpus.profile, progress);
    records
        .into_iter()
        .zip(judged)
        .map(|(r, (outcome, answer))| {
            let settled = match outcome {
                // A pass is unexpected only where an entry names the case.
                Outcome::Pass => match known.iter().find(|k| k.matches(version, &r.name)) {
                    Some(k) if !k.flaky() => {
                        Settled::UnexpectedPass(format!("{}: {}", k.origin, k.reason))
                    }
                    _ => Settled::Pass,
                },
                Outcome::Fail(m) => {
                    match known
                        .iter()
                        .find(|k| k.covers(version, r, &m, corpus.profile))
                    {
                        Some(k) => Settled::ExpectedFail(format!("{}: {}", k.origin, k.reason)),
                        None => Settled::Fail(m),
                    }
                }
                Outcome::Skip(why) => Settled::Skip(why),
            };
            CaseResult {
                engine: version.clone(),
                name: r.name.clone(),
                record: r.clone(),
                answer,
                settled,
            }
        })
        .collect()
}

/// Entries that matched no case that failed: stale, to be removed.
pub fn stale_entries<'k>(known: &'k [Entry], results: &[CaseResult]) -> Vec<&'k Entry> {
    known
        .iter()
        .filter(|k| {
            !k.flaky()
                && !k.conditional()
                && !results.iter().any(|r| {
                    matches!(r.settled, Settled::ExpectedFail(_)) && k.matches(&r.engine, &r.name)
                })
        })
        .collect()
}
