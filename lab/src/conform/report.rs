//! Reports of a conformance run: text for people, JSON for tools, JUnit XML for CI.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::corpus::run::{CaseResult, Settled};
use crate::model::Mismatch;
use crate::model::answer::Answer;
use crate::model::case::Direction;
use crate::model::tree_diff::first_value_difference;
use gdmarshal::decode::{DecodeOptions, decode, decode_traced};
use gdmarshal::float::FloatStyle;
use gdmarshal::hex::unhex;
use gdmarshal::json::to_json;
use gdmarshal::profile::Profile;
use gdmarshal::trace::Trace;

use super::hello::Declared;
use super::limits::escape_control;
use super::{Conformance, is_failure};

pub use super::junit::junit;
pub use super::report_json::json;
pub use super::report_json::{JsonReport, SCHEMA_VERSION};
pub use super::summary::{Counts, xml_text};
pub use super::summary::{families, probed, replay, shell_quote, totals};

/// What a report says of a settled case: the judge's message, the skip reason or the
/// expected-failure entry; empty for a pass.
pub fn message(s: &Settled) -> String {
    match s {
        Settled::Pass => String::new(),
        Settled::Fail(m) => m.to_string(),
        Settled::Skip(why) => why.to_string(),
        Settled::ExpectedFail(entry) => format!("expected failure ({entry})"),
        Settled::UnexpectedPass(entry) => {
            format!("passes, but is listed as an expected failure ({entry}): remove the entry")
        }
    }
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head}… ({} chars)", s.chars().count())
    }
}

fn first_diff_byte(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// Hex of `bytes` from 16 bytes before `at` to 16 after, with the offset it starts at.
fn hex_around(bytes: &[u8], at: usize) -> String {
    let from = at.saturating_sub(16).min(bytes.len());
    let to = (at + 16).min(bytes.len());
    let mut s = format!("@{from}: ");
    if from > 0 {
        s.push('…');
    }
    for (i, b) in bytes[from..to].iter().enumerate() {
        if from + i == at {
            s.push('[');
        }
        let _ = write!(s, "{b:02x}");
        if from + i == at {
            s.push(']');
        }
    }
    if to < bytes.len() {
        s.push('…');
    }
    s
}

/// Finds the field that holds one byte offset, as the decoder reads the bytes.
struct Locate {
    at: usize,
    path: Vec<String>,
    found: Option<String>,
}

impl Trace for Locate {
    const ACTIVE: bool = true;

    fn open(&mut self, _offset: usize, label: std::fmt::Arguments<'_>) {
        let label = label.to_string();
        self.path
            .push(if label.starts_with('[') || label.starts_with('.') {
                label
            } else {
                format!(" {label}")
            });
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: std::fmt::Arguments<'_>) {
        if self.found.is_none() && (start..end.max(start + 1)).contains(&self.at) {
            self.found = Some(format!("{name} of ${} ({meaning})", self.path.concat()));
        }
    }

    fn close(&mut self, _offset: usize) {
        self.path.pop();
    }
}

/// What field byte `at` of `bytes` belongs to, as this crate's decoder reads them.
fn field_at(bytes: &[u8], at: usize, profile: Profile, objects: bool) -> String {
    if at >= bytes.len() {
        return format!("past the end ({} bytes)", bytes.len());
    }
    let mut t = Locate {
        at,
        path: Vec::new(),
        found: None,
    };
    let result = decode_traced(
        bytes,
        profile,
        DecodeOptions::new().allow_objects(objects),
        &mut t,
    );
    match (t.found, result) {
        (Some(f), _) => f,
        (None, Err(e)) => format!("unreadable: {e}"),
        (None, Ok(_)) => "trailing bytes".into(),
    }
}

/// The lines under a failure: both byte strings around the first differing byte and, decoded
/// with this crate's codec, the first differing node and both trees.
fn byte_details(
    profile: Profile,
    expected: &[u8],
    got: &[u8],
    objects: bool,
    out: &mut Vec<String>,
) {
    let at = first_diff_byte(expected, got);
    out.push(format!("first differing byte: offset {at}"));
    out.push(format!("engine bytes {}", hex_around(expected, at)));
    out.push(format!("testee bytes {}", hex_around(got, at)));
    out.push(format!(
        "byte {at} is, in the engine's bytes: {}",
        field_at(expected, at, profile, objects)
    ));
    out.push(format!(
        "byte {at} is, in the testee's bytes: {}",
        field_at(got, at, profile, objects)
    ));
    let tree = |b: &[u8]| {
        decode(b, profile, DecodeOptions::new().allow_objects(objects))
            .ok()
            .map(|d| to_json(&d.value, profile, FloatStyle::Shortest))
    };
    match (tree(expected), tree(got)) {
        (Some(e), Some(g)) => {
            let path = first_value_difference(&e, &g, profile)
                .map(|d| d.to_string())
                .unwrap_or_else(|| "none (same value, other bytes)".into());
            out.push(format!(
                "as values (read back by gdmarshal): first differing node {path}"
            ));
            out.push(format!("  engine: {}", clip(&e.to_string(), 400)));
            out.push(format!("  testee: {}", clip(&g.to_string(), 400)));
        }
        (Some(e), None) => {
            out.push(format!("engine value: {}", clip(&e.to_string(), 400)));
            out.push("testee bytes do not decode in this engine version".into());
        }
        _ => {}
    }
}

/// The detail lines of one failing case (beyond its judge message), from its answer: the
/// input or value, both trees and, where bytes differ, the first differing byte, the field it
/// belongs to in both and both values read back. [`super::ReportedCase::details`] keeps them.
pub fn details(profile: Profile, result: &CaseResult) -> Vec<String> {
    let r = &result.record;
    let mut out = Vec::new();
    let expected = r.output.as_deref().and_then(|h| unhex(h).ok());
    let answer = result.answer.as_ref();
    if r.direction == Direction::Decode {
        if let Some(input) = &r.input {
            out.push(format!("input: {}", clip(input, 200)));
        }
        let testee_tree = answer.and_then(Answer::tree);
        // A differing value's message shows both trees already; the node that differs, with
        // both spellings and bit patterns, comes first.
        let shown = match &result.settled {
            Settled::Fail(Mismatch::Value { at, .. }) => {
                out.insert(0, format!("first differing node: {at}"));
                true
            }
            _ => false,
        };
        match (&r.tree, testee_tree) {
            _ if shown => {}
            (Some(e), Some(g)) => {
                if let Some(d) = first_value_difference(e, g, profile) {
                    out.push(format!("first differing node: {d}"));
                }
                out.push(format!("engine tree: {}", clip(&e.to_string(), 400)));
                out.push(format!("testee tree: {}", clip(&g.to_string(), 400)));
            }
            (Some(e), None) => out.push(format!("engine tree: {}", clip(&e.to_string(), 400))),
            (None, Some(g)) => out.push(format!("testee tree: {}", clip(&g.to_string(), 400))),
            (None, None) => {}
        }
        // The re-encoding is shown where it is what failed.
        let reencoding_failed =
            matches!(result.settled, Settled::Fail(Mismatch::Reencoding { .. }));
        if let (Some(e), Some(g), true) =
            (&expected, answer.and_then(Answer::bytes), reencoding_failed)
            && e != g
        {
            out.push("re-encoding of the decoded value:".into());
            byte_details(profile, e, g, r.objects, &mut out);
        }
    } else {
        if let Some(v) = &r.value {
            out.push(format!("value: {}", clip(&v.to_string(), 400)));
        }
        if let (Some(e), Some(g)) = (&expected, answer.and_then(Answer::bytes)) {
            byte_details(profile, e, g, r.objects, &mut out);
        }
    }
    out
}

fn rate(c: &Conformance) -> f64 {
    c.cases.len() as f64 / c.elapsed.as_secs_f64().max(1e-9)
}

/// The line saying that the run stopped early, if it did.
pub fn stopped(c: &Conformance) -> Option<String> {
    let why = c.stopped.as_ref()?;
    let not_run = c.cases.iter().filter(|x| x.not_run).count();
    Some(format!(
        "stopped early: {why}; {not_run} cases not run, counted as failures"
    ))
}

/// The lines about what the testee's handshake does not claim: a version it does not declare,
/// what it does not do, unknown type names, and what probing found. Empty when it claims all.
pub fn claims(c: &Conformance) -> Vec<String> {
    let mut out = Vec::new();
    let h = &c.hello;
    let unclaimed = c.cases.iter().filter(|x| !x.counts()).count();
    if !c.claims_version() {
        out.push(format!(
            "the testee declares Godot {} but not {}: its {} cases are not claimed",
            h.versions,
            c.profile,
            c.cases.len()
        ));
    }
    let not = h.capabilities.unclaimed();
    if !not.is_empty() {
        let mut line = format!("not claimed: {}", not.join(", "));
        if !h.capabilities.reencode && h.capabilities.decode {
            line.push_str(" (decode cases are judged on the decoded value alone)");
        }
        out.push(line);
    }
    if let Declared::Some(types) = &h.types {
        let known: Vec<&String> = types
            .iter()
            .filter(|t| !h.unknown_types.contains(t))
            .collect();
        out.push(format!(
            "types claimed: {}",
            known
                .iter()
                .map(|t| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(max) = h.max_json_depth {
        let deeper = c
            .cases
            .iter()
            .filter(|x| {
                matches!(
                    x.unclaimed,
                    Some(crate::model::Undeclared::JsonDepth { .. })
                )
            })
            .count();
        out.push(format!(
            "max_json_depth {max}: {deeper} cases nest deeper and are not claimed"
        ));
    }
    if !h.unknown_types.is_empty() {
        out.push(format!(
            "FAIL handshake: unknown type names {} (type names are tagged JSON's: docs/tagged-json.md)",
            h.unknown_types
                .iter()
                .map(|t| format!("{t:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if unclaimed > 0 {
        let p = probed(c);
        if p.cases > 0 {
            out.push(format!(
                "not claimed, but answered (--probe-undeclared): {}; {} of {} wrong",
                p.cases,
                p.fail(),
                p.cases
            ));
        } else {
            out.push(format!("{unclaimed} cases not claimed, not sent"));
        }
    }
    out
}

fn failure_block(
    s: &mut String,
    c: &Conformance,
    x: &super::ReportedCase,
    extra: &str,
    label: &str,
) {
    let _ = writeln!(s, "{label} {} [type {}]", x.result.name, x.family);
    for line in x
        .message
        .lines()
        .chain(x.details.iter().map(String::as_str))
    {
        let _ = writeln!(s, "    {}", escape_control(line));
    }
    let _ = writeln!(s, "    replay: {}", replay(c, &x.result.name, extra));
}

/// The failing cases shown beside a report written to a file: at most this many.
pub(crate) const LISTED_FAILURES: usize = 50;

/// The first [`LISTED_FAILURES`] failing cases (those the testee claims, run and wrong or
/// unanswered), each as `FAIL name: reason` and its replay line, and how many more there are:
/// what a CI log shows when the report itself goes to a file.
pub fn failing(c: &Conformance, extra: &str) -> String {
    let mut s = String::new();
    let all: Vec<&super::ReportedCase> = c
        .cases
        .iter()
        .filter(|x| x.counts() && x.score.fails() && !x.not_run)
        .collect();
    for x in all.iter().take(LISTED_FAILURES) {
        let reason = escape_control(&super::expect_fail::reason_of(&x.message));
        let _ = writeln!(s, "FAIL {}: {reason}", x.result.name);
        let _ = writeln!(s, "    replay: {}", replay(c, &x.result.name, extra));
    }
    if all.len() > LISTED_FAILURES {
        let _ = writeln!(
            s,
            "... and {} more failing cases in the report",
            all.len() - LISTED_FAILURES
        );
    }
    s
}

/// The text report. Whatever came from the testee has its control characters escaped
/// ([`escape_control`]), so that the report cannot drive a terminal.
pub fn text(c: &Conformance, extra: &str) -> String {
    let mut s = String::new();
    for x in &c.cases {
        if !is_failure(&x.result.settled) || x.not_run {
            continue;
        }
        let label = if x.counts() {
            "FAIL"
        } else {
            "WRONG (not claimed)"
        };
        failure_block(&mut s, c, x, extra, label);
    }
    for x in &c.cases {
        if let Settled::ExpectedFail(entry) = &x.result.settled {
            let _ = writeln!(
                s,
                "expected failure {} [type {}]: {}",
                x.result.name,
                x.family,
                escape_control(entry)
            );
        }
    }
    for st in &c.stale {
        let _ = writeln!(
            s,
            "FAIL stale expected failure {}: {}",
            escape_control(&st.origin),
            escape_control(&st.why)
        );
    }
    let header = |s: &mut String| {
        let _ = writeln!(
            s,
            "\n{:<20} {:>6} {:>6} {:>9} {:>9} {:>6} {:>10} {:>6}",
            "type family", "cases", "equal", "rejected", "expected", "skip", "unclaimed", "WRONG"
        );
    };
    header(&mut s);
    let row = |s: &mut String, name: &str, r: &Counts| {
        let _ = writeln!(
            s,
            "{:<20} {:>6} {:>6} {:>9} {:>9} {:>6} {:>10} {:>6}",
            name,
            r.cases,
            r.accepted_equal,
            r.rejected_as_expected,
            r.expected_fail,
            r.skipped,
            r.unclaimed,
            r.fail()
        );
    };
    for (f, r) in families(c) {
        row(&mut s, &f, &r);
    }
    row(&mut s, "total", &totals(c));
    let mut skips: BTreeMap<String, usize> = BTreeMap::new();
    for x in &c.cases {
        if let Settled::Skip(why) = &x.result.settled {
            *skips.entry(why.to_string()).or_default() += 1;
        }
    }
    if !skips.is_empty() {
        let _ = writeln!(s, "\nskipped:");
        for (why, n) in skips {
            let _ = writeln!(s, "{n:>6}  {}", escape_control(&why));
        }
    }
    s.push('\n');
    s.push_str(&summary(c));
    s
}

/// The end of the text report, which is all stdout shows with `--output FILE`: what the testee
/// does not claim, the run's numbers and its result.
pub fn summary(c: &Conformance) -> String {
    let mut s = String::new();
    for line in claims(c) {
        let _ = writeln!(s, "{}", escape_control(&line));
    }
    let _ = writeln!(
        s,
        "testee {:?} ({}) against Godot {} (format {}{}): {} cases in {:.2} s ({:.0} cases/s), {} testee process start(s)",
        escape_control(&c.hello.name),
        escape_control(&c.command),
        c.engine,
        c.profile,
        if c.corpus.is_empty() {
            String::new()
        } else {
            format!(", {}", escape_control(&c.corpus))
        },
        c.cases.len(),
        c.elapsed.as_secs_f64(),
        rate(c),
        c.starts
    );
    if let Some(line) = stopped(c) {
        let _ = writeln!(s, "{line}");
    }
    let t = totals(c);
    let counts = format!(
        "{} accepted and equal, {} rejected as expected, {} wrong, {} errors, {} expected failures, {} skipped, {} not claimed",
        t.accepted_equal,
        t.rejected_as_expected,
        t.wrong,
        t.errors,
        t.expected_fail,
        t.skipped,
        t.unclaimed
    );
    if c.passed() {
        let _ = writeln!(s, "ok: {counts}");
    } else {
        let _ = writeln!(
            s,
            "FAILED: {} failing cases, {} stale expected-failure entries: {counts}",
            t.fail(),
            c.stale.len()
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_escaping() {
        assert_eq!(shell_quote("gdmarshal"), "gdmarshal");
        assert_eq!(shell_quote("a b'c"), r#""a b'c""#);
        assert_eq!(shell_quote("it's $HOME"), r#""it's "'$HOME'"#);
        assert_eq!(shell_quote(""), "''");
        assert_eq!(xml_text("<a\u{1b}[1m\n\u{9b}>"), "<a\\u{1b}[1m\n\\u{9b}>");
        assert_eq!(hex_around(&[0, 1, 2], 1), "@0: 00[01]02");
    }
}
