//! What the three report formats share: the counts of a run per family and in all, each case's
//! status word and replay line, and text safe for XML.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::corpus::run::Settled;

use super::Conformance;
use super::score::Score;

/// Quotes a word for a POSIX shell (shlex: only when it must be, in a form bash, zsh and dash
/// read alike).
pub fn shell_quote(s: &str) -> String {
    // Allowing a NUL leaves no error to handle; no word that reaches here holds one.
    shlex::Quoter::new()
        .allow_nul(true)
        .quote(s)
        .map_or_else(|_| s.to_string(), |q| q.into_owned())
}

/// The command that replays one case; `extra` are further options to repeat (e.g. `--corpus`).
/// The variables the run passed to the testee are set in its command (`NAME=value CMD`), so the
/// replay needs no environment of its own.
pub fn replay(c: &Conformance, name: &str, extra: &str) -> String {
    let mut testee = String::new();
    for (k, v) in &c.testee_env {
        testee.push_str(&format!("{k}={} ", shell_quote(v)));
    }
    testee.push_str(&c.command);
    format!(
        "gdmarshal conform --testee {} --godot {}{extra} --run {}",
        shell_quote(&testee),
        c.profile,
        shell_quote(&globset::escape(name))
    )
}

pub(super) fn status(s: &Settled) -> &'static str {
    match s {
        Settled::Pass => "pass",
        Settled::Fail(_) => "fail",
        Settled::ExpectedFail(_) => "expected-fail",
        Settled::UnexpectedPass(_) => "unexpected-pass",
        Settled::Skip(_) => "skip",
    }
}

/// How many cases of a report's row count which way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(into = "CountsJson")]
pub struct Counts {
    /// Cases in the row.
    pub cases: usize,
    /// The engine accepted, the testee answered the same.
    pub accepted_equal: usize,
    /// The engine rejected, and so did the testee.
    pub rejected_as_expected: usize,
    /// Answered otherwise than the engine (or an unexpected pass).
    pub wrong: usize,
    /// No answer: crashed, hung, broke the protocol, or not run.
    pub errors: usize,
    /// Failed as expected.
    pub expected_fail: usize,
    /// Not compared (skipped by the testee, or no engine answer).
    pub skipped: usize,
    /// Outside what the testee claims (skipped, or probed with `--probe-undeclared`).
    pub unclaimed: usize,
}

impl Counts {
    fn add(&mut self, score: Score) {
        self.cases += 1;
        match score {
            Score::AcceptedEqual => self.accepted_equal += 1,
            Score::RejectedAsExpected => self.rejected_as_expected += 1,
            Score::Wrong => self.wrong += 1,
            Score::Error => self.errors += 1,
            Score::ExpectedFail => self.expected_fail += 1,
            Score::Skipped => self.skipped += 1,
            Score::Unclaimed => self.unclaimed += 1,
        }
    }

    /// Cases that pass: accepted and equal, or rejected as expected.
    pub fn pass(&self) -> usize {
        self.accepted_equal + self.rejected_as_expected
    }

    /// Cases that fail: wrong, or no answer.
    pub fn fail(&self) -> usize {
        self.wrong + self.errors
    }
}

/// [`Counts`] as the JSON report writes them: with the pass and fail sums, under the names of
/// the scores' columns.
#[derive(serde::Serialize)]
struct CountsJson {
    cases: usize,
    accepted_equal: usize,
    rejected_as_expected: usize,
    wrong: usize,
    error: usize,
    expected_fail: usize,
    skip: usize,
    unclaimed: usize,
    pass: usize,
    fail: usize,
}

impl From<Counts> for CountsJson {
    fn from(c: Counts) -> Self {
        CountsJson {
            cases: c.cases,
            accepted_equal: c.accepted_equal,
            rejected_as_expected: c.rejected_as_expected,
            wrong: c.wrong,
            error: c.errors,
            expected_fail: c.expected_fail,
            skip: c.skipped,
            unclaimed: c.unclaimed,
            pass: c.pass(),
            fail: c.fail(),
        }
    }
}

/// Counts per type family. A case outside what the testee claims counts as unclaimed, however
/// it went when probed ([`probed`] counts those).
pub fn families(c: &Conformance) -> BTreeMap<String, Counts> {
    let mut m: BTreeMap<String, Counts> = BTreeMap::new();
    for x in &c.cases {
        let score = if x.counts() {
            x.score
        } else {
            Score::Unclaimed
        };
        m.entry(x.family.clone()).or_default().add(score);
    }
    m
}

/// Counts over every family.
pub fn totals(c: &Conformance) -> Counts {
    let mut t = Counts::default();
    for x in &c.cases {
        t.add(if x.counts() {
            x.score
        } else {
            Score::Unclaimed
        });
    }
    t
}

/// Counts of the cases outside the testee's claims that were sent anyway
/// (`--probe-undeclared`) and answered.
pub fn probed(c: &Conformance) -> Counts {
    let mut t = Counts::default();
    for x in c.cases.iter().filter(|x| !x.counts()) {
        if !matches!(x.score, Score::Unclaimed | Score::Skipped) {
            t.add(x.score);
        }
    }
    t
}

/// Text for the JUnit report, whose markup quick-junit escapes: control characters (which
/// XML 1.0 forbids or discourages) but tab, newline and carriage return, and U+FFFE and U+FFFF,
/// as `\u{..}` text. quick-junit would drop them (it strips ANSI escapes and control characters),
/// and a report should show a testee's words as they were.
pub fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\t' | '\n' | '\r' => out.push(ch),
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
