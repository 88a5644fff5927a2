//! Running an implementation over the corpus and settling each case against the expected
//! differences.

use super::EngineCorpus;
use super::codec::{Implementation, Outcome, judge};
use super::known::Entry;
use super::mismatch::Mismatch;
use super::skip::SkipReason;

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
    pub record: super::Record,
    /// How it ended.
    pub settled: Settled,
}

/// Judges every record accepted by `wanted` (engine version, case name).
pub fn run(
    imp: &mut dyn Implementation,
    corpora: &[EngineCorpus],
    known: &[Entry],
    wanted: &dyn Fn(&str, &str) -> bool,
    progress: &mut dyn FnMut(),
) -> Vec<CaseResult> {
    let mut out = Vec::new();
    for c in corpora {
        for r in c
            .records
            .iter()
            .filter(|r| wanted(&c.entry.version, &r.name))
        {
            let version = &c.entry.version;
            let settled = match judge(imp, r, c.profile) {
                // A pass is unexpected only where an entry names the case.
                Outcome::Pass => match known.iter().find(|k| k.matches(version, &r.name)) {
                    Some(k) if !k.flaky() => {
                        Settled::UnexpectedPass(format!("{}: {}", k.origin, k.reason))
                    }
                    _ => Settled::Pass,
                },
                Outcome::Fail(m) => {
                    match known.iter().find(|k| k.covers(version, r, &m, c.profile)) {
                        Some(k) => Settled::ExpectedFail(format!("{}: {}", k.origin, k.reason)),
                        None => Settled::Fail(m),
                    }
                }
                Outcome::Skip(why) => Settled::Skip(why),
            };
            out.push(CaseResult {
                engine: c.entry.version.clone(),
                name: r.name.clone(),
                record: r.clone(),
                settled,
            });
            progress();
        }
    }
    out
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
