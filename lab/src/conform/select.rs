//! Which cases a run asks: `--run`, `--skip` and `--direction`.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::case::Direction;
use crate::corpus::{EngineCorpus, Record};

use super::Options;

/// Checks a case-name glob (for `--run` / `--skip`), so that a bad one is refused before any
/// testee starts.
pub fn check_glob(pattern: &str) -> Result<String, String> {
    Glob::new(pattern)
        .map(|_| pattern.to_string())
        .map_err(|e| e.to_string())
}

fn globs(patterns: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).map_err(|e| format!("{p:?}: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// The records `--run`, `--skip` and `--direction` select, in corpus order; an error naming the
/// first `--run` glob that matches no case of the corpus at all.
pub(super) fn select<'c>(corpus: &'c EngineCorpus, o: &Options) -> Result<Vec<&'c Record>, String> {
    let run_set = globs(&o.run)?;
    let skip_set = globs(&o.skip)?;
    for pattern in &o.run {
        let one = globs(std::slice::from_ref(pattern))?;
        if !corpus.records.iter().any(|r| one.is_match(&r.name)) {
            return Err(format!(
                "--run {pattern:?} matches no case of Godot {} (case names: docs/corpus.md)",
                corpus.entry.version
            ));
        }
    }
    let selected: Vec<&Record> = corpus
        .records
        .iter()
        .filter(|r| {
            (o.run.is_empty() || run_set.is_match(&r.name))
                && !skip_set.is_match(&r.name)
                && o.directions.contains(&r.direction)
        })
        .collect();
    if selected.is_empty() && !o.run.is_empty() {
        return Err(format!(
            "--run, --skip and --direction leave no case of Godot {} to run",
            corpus.entry.version
        ));
    }
    Ok(selected)
}

/// Whether `--run`, `--skip` and `--direction` select a case name (without checking the
/// globs against a corpus): for building only the stress cases a run needs.
pub fn selects(o: &Options) -> Result<impl Fn(&str) -> bool + '_, String> {
    let run_set = globs(&o.run)?;
    let skip_set = globs(&o.skip)?;
    Ok(move |name: &str| {
        let direction = match name.split('/').next() {
            Some("decode") => Some(Direction::Decode),
            Some("encode") => Some(Direction::Encode),
            _ => None,
        };
        (o.run.is_empty() || run_set.is_match(name))
            && !skip_set.is_match(name)
            && direction.is_none_or(|d| o.directions.contains(&d))
    })
}
