//! Expected differences: cases where an implementation is known to part from the engines, each
//! with its reason. The list is strict: an entry that matches no failing case is stale and is an
//! error, so the list never hides a fix.
//!
//! Format: one entry per line, `ENGINE-GLOB CASE-GLOB [when:CONDITION] REASON...`; `#` starts a
//! comment. A reason that starts with `flaky:` marks a difference that comes and goes with the
//! engine's run (it writes uninitialised memory there); such an entry may match passing cases and
//! is never stale. Example: `3.* decode/noncanonical/object_full_not_allowed  3.x bytes2var
//! differs`.
//!
//! An entry with `when:CONDITION` ([`Condition`]) covers only differences of that typed cause,
//! and covers them in any case its globs match: that is how one list serves the corpus, the
//! campaigns and the differential fuzz target, whose cases have no corpus names. Such an entry
//! describes a kind of difference that a run may or may not meet, so it is never stale either.

use std::path::Path;

use gdmarshal::profile::Profile;
use globset::{Glob, GlobMatcher};

use super::Source;
use super::condition::Condition;
use crate::error::{FileError, LineError};
use crate::model::{Mismatch, Record};

/// One entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where it was written: `file:line`.
    pub origin: String,
    engine: GlobMatcher,
    case: GlobMatcher,
    /// The cause the entry is restricted to, if any.
    pub when: Option<Condition>,
    /// Why the difference is expected.
    pub reason: String,
}

impl Entry {
    /// Whether the difference comes and goes between runs.
    pub(crate) fn flaky(&self) -> bool {
        self.reason.starts_with("flaky:")
    }

    /// Whether the entry covers only a typed cause (`when:`), so that it cannot be matched by
    /// case name alone and is never stale.
    pub(crate) fn conditional(&self) -> bool {
        self.when.is_some()
    }

    /// Whether the entry covers the codec's mismatch `m` with the record `r` of an engine
    /// version: the globs match and, for a conditional entry, the cause is there.
    pub fn covers(&self, engine: &str, r: &Record, m: &Mismatch, profile: Profile) -> bool {
        self.engine.is_match(engine)
            && self.case.is_match(&r.name)
            && self.when.is_none_or(|c| c.holds(r, m, profile))
    }

    /// Whether the entry covers a case of an engine version by name (a conditional entry never
    /// does: it needs the mismatch, see [`Entry::covers`]).
    pub fn matches(&self, engine: &str, case: &str) -> bool {
        self.when.is_none() && self.engine.is_match(engine) && self.case.is_match(case)
    }

    /// Whether the entry is about an engine version at all.
    pub(crate) fn engine_glob_matches(&self, engine: &str) -> bool {
        self.engine.is_match(engine)
    }

    /// The engine glob as written.
    pub(crate) fn engine_glob(&self) -> &str {
        self.engine.glob().glob()
    }

    /// The case glob as written.
    pub(crate) fn case_glob(&self) -> &str {
        self.case.glob().glob()
    }
}

/// The list's file name in a corpus folder.
pub const FILE: &str = "known-differences.txt";

/// Why a list of known differences could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KnownError {
    /// The corpus folder or embedded corpus could not give the file.
    #[error(transparent)]
    Corpus(#[from] super::CorpusError),
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line is not an entry (or the file is not UTF-8 there).
    #[error(transparent)]
    Line(#[from] LineError),
}

/// A corpus's own list of known differences (none when it has no list). Errors name the file
/// and line.
pub fn read_from(source: &Source) -> Result<Vec<Entry>, KnownError> {
    parse(&text_of(source)?, &source.path(FILE).display().to_string())
}

/// The text of a corpus's list of known differences (empty when it has no list).
pub(crate) fn text_of(source: &Source) -> Result<String, KnownError> {
    let path = source.path(FILE);
    let bytes = source.read(FILE)?;
    String::from_utf8(bytes.unwrap_or_default()).map_err(|e| {
        let line = crate::bounded::line_of(e.as_bytes(), e.utf8_error().valid_up_to());
        LineError {
            path,
            line,
            message: "not UTF-8".into(),
        }
        .into()
    })
}

/// Reads a list; a missing file is an empty list. Errors name the file and line.
pub fn read(path: &Path) -> Result<Vec<Entry>, KnownError> {
    match crate::bounded::read_text(path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(FileError::at(path)(e).into()),
    }
}

/// A part of a line echoed in an error, cut as a refused answer line is (with its length).
fn shown(text: &str) -> String {
    use crate::shown::{SHOWN_LINE_START, truncate};
    truncate(text, SHOWN_LINE_START)
}

/// Parses a list; `source` names it in origins and errors (`source:line`).
pub fn parse(text: &str, source: &str) -> Result<Vec<Entry>, KnownError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{source}:{}", i + 1);
        let bad = |message: String| LineError {
            path: source.into(),
            line: i + 1,
            message,
        };
        if let Some(why) = crate::bounded::line_too_long(line) {
            return Err(bad(why).into());
        }
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // Fields are separated by runs of white space (the file aligns them).
        let Some((e, rest)) = line.split_once(char::is_whitespace) else {
            return Err(bad("expected ENGINE-GLOB CASE-GLOB REASON".into()).into());
        };
        let rest = rest.trim_start();
        let (c, reason) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let mut reason = reason.trim();
        let mut when = None;
        if let Some(rest) = reason.strip_prefix("when:") {
            let (name, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            when = Some(Condition::parse(name).ok_or_else(|| {
                let known: Vec<&str> = Condition::ALL.iter().map(|(_, n)| *n).collect();
                bad(format!(
                    "unknown condition when:{} (known: {})",
                    shown(name),
                    known.join(", ")
                ))
            })?);
            reason = after.trim();
        }
        let glob = |g: &str| {
            Glob::new(g)
                .map(|g| g.compile_matcher())
                .map_err(|err| bad(shown(&err.to_string())))
        };
        out.push(Entry {
            origin: origin.clone(),
            engine: glob(e)?,
            case: glob(c)?,
            when,
            reason: reason.to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_separated_by_runs_of_white_space() {
        let k = parse(
            "3.*      *   when:too-deep    3.2 has no nesting limit\n* encode/x  plain  reason",
            "t",
        )
        .unwrap();
        assert_eq!(k[0].when, Some(Condition::TooDeep));
        assert_eq!(k[0].case_glob(), "*");
        assert_eq!(k[0].reason, "3.2 has no nesting limit");
        assert!(k[0].conditional() && !k[0].matches("3.6.2.stable", "decode/x"));
        assert_eq!(k[1].when, None);
        assert_eq!(k[1].reason, "plain  reason");
        assert!(k[1].matches("4.6.3.stable", "encode/x"));
    }

    #[test]
    fn an_unknown_condition_names_its_line_and_the_known_ones() {
        let e = parse("# c\n* * when:nonsense why", "list.txt").unwrap_err();
        assert!(
            matches!(&e, KnownError::Line(LineError { line: 2, .. })),
            "{e}"
        );
        let e = e.to_string();
        assert!(
            e.starts_with("list.txt:2: unknown condition when:nonsense"),
            "{e}"
        );
        assert!(e.contains("too-deep"), "{e}");
    }

    #[test]
    fn every_committed_entry_parses() {
        let k = read_from(&Source::Embedded).unwrap();
        // One `when:` entry per condition: a condition no entry uses is dead code.
        assert_eq!(
            k.iter().filter(|e| e.conditional()).count(),
            crate::corpus::condition::Condition::ALL.len()
        );
        assert!(k.iter().all(|e| !e.case_glob().is_empty()));
    }
}
