//! Expected differences: cases where an implementation is known to part from the engines, each
//! with its reason. The list is strict: an entry that matches no failing case is stale and is an
//! error, so the list never hides a fix.
//!
//! Format: one entry per line, `ENGINE-GLOB CASE-GLOB REASON...`; `#` starts a comment. A reason
//! that starts with `flaky:` marks a difference that comes and goes with the engine's run (it
//! writes uninitialised memory there); such an entry may match passing cases and is never stale.
//! Example: `3.* decode/noncanonical/object_full_not_allowed  3.x bytes2var differs`.

use std::path::Path;

use globset::{Glob, GlobMatcher};

/// One entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where it was written: `file:line`.
    pub origin: String,
    engine: GlobMatcher,
    case: GlobMatcher,
    case_text: String,
    /// Why the difference is expected.
    pub reason: String,
}

impl Entry {
    /// Whether the difference comes and goes between runs.
    pub fn flaky(&self) -> bool {
        self.reason.starts_with("flaky:")
    }

    /// The case glob as written.
    pub fn case_pattern(&self) -> &str {
        &self.case_text
    }

    /// Whether the entry's engine glob covers an engine version.
    pub fn matches_engine(&self, engine: &str) -> bool {
        self.engine.is_match(engine)
    }

    /// Whether the entry covers a case of an engine version.
    pub fn matches(&self, engine: &str, case: &str) -> bool {
        self.engine.is_match(engine) && self.case.is_match(case)
    }

    /// Whether the entry is about an engine version at all.
    pub fn engine_glob_matches(&self, engine: &str) -> bool {
        self.engine.is_match(engine)
    }

    /// The engine glob as written.
    pub fn engine_glob(&self) -> &str {
        self.engine.glob().glob()
    }

    /// The case glob as written.
    pub fn case_glob(&self) -> &str {
        self.case.glob().glob()
    }
}

/// Reads a list; a missing file is an empty list. Errors name the file and line.
pub fn read(path: &Path) -> Result<Vec<Entry>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Parses a list; `source` names it in origins and errors (`source:line`).
pub fn parse(text: &str, source: &str) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{source}:{}", i + 1);
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.splitn(3, char::is_whitespace);
        let (Some(e), Some(c)) = (parts.next(), parts.next()) else {
            return Err(format!("{origin}: expected ENGINE-GLOB CASE-GLOB REASON"));
        };
        let glob = |g: &str| {
            Glob::new(g)
                .map(|g| g.compile_matcher())
                .map_err(|err| format!("{origin}: {err}"))
        };
        out.push(Entry {
            origin: origin.clone(),
            engine: glob(e)?,
            case: glob(c)?,
            case_text: c.to_string(),
            reason: parts.next().unwrap_or("").trim().to_string(),
        });
    }
    Ok(out)
}
