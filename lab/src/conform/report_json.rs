//! The JSON report of a conformance run (`--format json`): a serialized structure whose shape is
//! stated here once, versioned by [`SCHEMA_VERSION`] for the tools that read it.

use serde::Serialize;

use super::hello::Capabilities;
use super::summary::{Counts, families, probed, replay, status, totals};
use super::{Conformance, is_failure};

/// The version of the report's shape. It changes when a member is removed or changes meaning;
/// members may be added without a change.
pub const SCHEMA_VERSION: u32 = 1;

/// The whole report.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Who was tested.
    pub testee: Testee<'a>,
    /// The engine whose answers judged it.
    pub engine: &'a str,
    /// The corpus the answers came from.
    pub corpus: &'a str,
    /// The format profile.
    pub profile: String,
    /// Whether the run passed ([`Conformance::passed`]).
    pub passed: bool,
    /// Wall time of the run.
    pub seconds: f64,
    /// How many testee processes were started.
    pub testee_starts: usize,
    /// What the handshake claims.
    pub claims: Claims<'a>,
    /// Counts over the cases the testee claims.
    pub totals: Counts,
    /// Counts over the unclaimed cases that were probed.
    pub probed: Counts,
    /// Counts per type family.
    pub families: Vec<Family>,
    /// Every case.
    pub cases: Vec<CaseEntry>,
    /// Stale expected-failure entries.
    pub stale: Vec<StaleEntry<'a>>,
    /// Why the run stopped early, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped<'a>>,
}

/// The testee.
#[derive(Debug, Serialize)]
pub struct Testee<'a> {
    /// The name its handshake gives.
    pub name: &'a str,
    /// The command that started it.
    pub command: &'a str,
}

/// What the testee's handshake claims.
#[derive(Debug, Serialize)]
pub struct Claims<'a> {
    /// Whether it claims the run's engine version.
    pub version: bool,
    /// The versions it claims, as it wrote them.
    pub versions: String,
    /// The capabilities it claims.
    pub capabilities: Vec<&'static str>,
    /// The capabilities it does not claim.
    pub not_claimed: Vec<&'static str>,
    /// The types it claims, as it wrote them.
    pub types: String,
    /// Type names this version does not have.
    pub unknown_types: &'a [String],
    /// The deepest JSON its reader takes, if it said.
    pub max_json_depth: Option<usize>,
}

/// Counts of one type family.
#[derive(Debug, Serialize)]
pub struct Family {
    /// The counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// The family's name.
    pub family: String,
}

/// One case.
#[derive(Debug, Serialize)]
pub struct CaseEntry {
    /// The case's name.
    pub name: String,
    /// Its type family.
    pub family: String,
    /// How it settled (`pass`, `fail`, …).
    pub status: &'static str,
    /// Its score.
    pub score: &'static str,
    /// Time spent on it.
    pub seconds: f64,
    /// `false` when the testee does not claim it (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed: Option<bool>,
    /// What went wrong, for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// `true` when the run stopped before the case (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_run: Option<bool>,
    /// For a failure: where the answers part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<String>>,
    /// For a failure: the command that runs the case alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

/// A stale expected-failure entry.
#[derive(Debug, Serialize)]
pub struct StaleEntry<'a> {
    /// Where the entry is.
    pub entry: &'a str,
    /// Why it is stale.
    pub why: &'a str,
}

/// Why the run stopped early.
#[derive(Debug, Serialize)]
pub struct Stopped<'a> {
    /// The reason.
    pub why: &'a str,
    /// Cases not run.
    pub not_run: usize,
}

/// The JSON report of `c`; `extra` are the flags each replay command repeats.
pub fn json<'a>(c: &'a Conformance, extra: &str) -> JsonReport<'a> {
    let h = &c.hello;
    JsonReport {
        schema_version: SCHEMA_VERSION,
        testee: Testee {
            name: &h.name,
            command: &c.command,
        },
        engine: &c.engine,
        corpus: &c.corpus,
        profile: c.profile.to_string(),
        passed: c.passed(),
        seconds: c.elapsed.as_secs_f64(),
        testee_starts: c.starts,
        claims: Claims {
            version: c.claims_version(),
            versions: h.versions.to_string(),
            capabilities: Capabilities::NAMES
                .into_iter()
                .filter(|n| h.capabilities.claims(n))
                .collect(),
            not_claimed: h.capabilities.unclaimed(),
            types: h.types.to_string(),
            unknown_types: &h.unknown_types,
            max_json_depth: h.max_json_depth,
        },
        totals: totals(c),
        probed: probed(c),
        families: families(c)
            .into_iter()
            .map(|(family, counts)| Family { counts, family })
            .collect(),
        cases: c
            .cases
            .iter()
            .map(|x| {
                let failed = is_failure(&x.result.settled);
                CaseEntry {
                    name: x.result.name.clone(),
                    family: x.family.clone(),
                    status: status(&x.result.settled),
                    score: x.score.name(),
                    seconds: x.elapsed.as_secs_f64(),
                    claimed: (!x.counts()).then_some(false),
                    message: (!x.message.is_empty()).then(|| x.message.clone()),
                    not_run: x.not_run.then_some(true),
                    details: failed.then(|| x.details.clone()),
                    replay: failed.then(|| replay(c, &x.result.name, extra)),
                }
            })
            .collect(),
        stale: c
            .stale
            .iter()
            .map(|s| StaleEntry {
                entry: &s.origin,
                why: &s.why,
            })
            .collect(),
        stopped: c.stopped.as_deref().map(|why| Stopped {
            why,
            not_run: c.cases.iter().filter(|x| x.not_run).count(),
        }),
    }
}
