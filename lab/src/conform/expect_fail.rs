//! Expected failures after a run: the entries that are out of date, and the list that would make
//! the run pass (`--print-expect-fail`).

use std::collections::BTreeSet;

use crate::corpus::EngineCorpus;
use crate::corpus::known::Entry;
use crate::corpus::run::Settled;

use super::{Conformance, ReportedCase, Stale, limits};

/// Entries for this engine that match no case at all, or match cases that were run and now all
/// pass. Entries whose cases were all skipped or not selected cannot be judged and are not stale;
/// `flaky:` entries never are.
pub(super) fn stale(
    known: &[Entry],
    corpus: &EngineCorpus,
    cases: &[ReportedCase],
    sample: bool,
) -> Vec<Stale> {
    let version = &corpus.entry.version;
    known
        .iter()
        .filter(|k| !k.flaky())
        .filter_map(|k| {
            if !corpus.records.iter().any(|r| k.matches(version, &r.name)) {
                let why = if k.engine_glob_matches(version) && !sample {
                    format!("matches no case of Godot {version}")
                } else {
                    return None;
                };
                return Some(Stale {
                    origin: k.origin.clone(),
                    why,
                });
            }
            let mine: Vec<&Settled> = cases
                .iter()
                .filter(|c| k.matches(version, &c.result.name))
                .map(|c| &c.result.settled)
                .collect();
            let now_passes = !mine.is_empty()
                && mine
                    .iter()
                    .all(|s| matches!(s, Settled::Pass | Settled::UnexpectedPass(_)));
            now_passes.then(|| Stale {
                origin: k.origin.clone(),
                why: "every case it matches now passes: remove it".into(),
            })
        })
        .collect()
}

/// The expected-failure list that would make this run pass: the entries still in use, and one
/// entry per new failure.
pub fn expect_fail_list(c: &Conformance) -> String {
    let mut out = String::from(
        "# Expected failures for `gdmarshal conform` (ENGINE-GLOB CASE-GLOB REASON).\n",
    );
    let stale: BTreeSet<&str> = c.stale.iter().map(|s| s.origin.as_str()).collect();
    for k in &c.known {
        if stale.contains(k.origin.as_str()) {
            continue;
        }
        if !k.engine_glob_matches(&c.engine) || k.flaky() {
            out.push_str(&format!(
                "{} {} {}\n",
                k.engine_glob(),
                k.case_glob(),
                k.reason
            ));
            continue;
        }
        let mine: Vec<&ReportedCase> = c
            .cases
            .iter()
            .filter(|x| k.matches(&c.engine, &x.result.name))
            .collect();
        if mine
            .iter()
            .any(|x| matches!(x.result.settled, Settled::UnexpectedPass(_)))
        {
            // Some of its cases pass now: narrow it to the ones that still fail.
            for x in mine {
                if matches!(x.result.settled, Settled::ExpectedFail(_)) {
                    out.push_str(&format!(
                        "{} {} {}\n",
                        globset::escape(&c.engine),
                        globset::escape(&x.result.name),
                        k.reason
                    ));
                }
            }
        } else {
            out.push_str(&format!(
                "{} {} {}\n",
                k.engine_glob(),
                k.case_glob(),
                k.reason
            ));
        }
    }
    for x in &c.cases {
        // A case not run is no difference to expect: the run stopped before it.
        if matches!(x.result.settled, Settled::Fail(_)) && !x.not_run {
            let reason = reason_of(&x.message);
            out.push_str(&format!(
                "{} {} {}\n",
                globset::escape(&c.engine),
                globset::escape(&x.result.name),
                limits::escape_control(&reason).replace('#', "")
            ));
        }
    }
    out
}

/// The longest reason written for a failing case, in characters.
const REASON_CHARS: usize = 120;

/// A failing case's reason: the first line of its message, cut to at most [`REASON_CHARS`]
/// characters at a space (never inside a number or a run of hex), with `…` where it was cut.
pub(super) fn reason_of(message: &str) -> String {
    let line = message.lines().next().unwrap_or("");
    if line.chars().count() <= REASON_CHARS {
        return line.to_string();
    }
    // Room for the ellipsis.
    let limit = line
        .char_indices()
        .nth(REASON_CHARS - 1)
        .map_or(line.len(), |(i, _)| i);
    let cut = line[..limit].rfind(' ').unwrap_or(limit);
    format!("{}…", line[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_reason_is_cut_at_a_space_and_says_so() {
        let hex = "0a".repeat(40);
        let message = format!("decode: engine bytes {hex}, got bytes {hex}\nsecond line");
        let reason = reason_of(&message);
        assert_eq!(reason, format!("decode: engine bytes {hex}, got bytes…"));
        assert!(reason.chars().count() <= REASON_CHARS);
        assert_eq!(reason_of("short\nmore"), "short");
        let exact = "x".repeat(REASON_CHARS);
        assert_eq!(reason_of(&exact), exact);
        // One word longer than the limit is cut inside it, as nothing else can be.
        let word = "y".repeat(REASON_CHARS + 5);
        assert_eq!(
            reason_of(&word),
            format!("{}…", "y".repeat(REASON_CHARS - 1))
        );
    }
}
