//! Which cases a run asks: `--run`, `--skip` and `--direction`.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::corpus::EngineCorpus;
use crate::model::Record;
use crate::model::case::Direction;

use super::{Options, SelectError};

/// The `--run` glob that selects the case named `name` and no other.
pub fn exactly(name: &str) -> String {
    globset::escape(name)
}

/// Checks a case-name glob (for `--run` / `--skip`), so that a bad one is refused before any
/// testee starts.
pub fn check_glob(pattern: &str) -> Result<String, SelectError> {
    Glob::new(pattern)
        .map(|_| pattern.to_string())
        .map_err(|e| SelectError::Glob {
            pattern: pattern.to_string(),
            message: e.kind().to_string(),
        })
}

fn globs(patterns: &[String]) -> Result<GlobSet, SelectError> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).map_err(|e| SelectError::Glob {
            pattern: p.clone(),
            message: e.kind().to_string(),
        })?);
    }
    b.build().map_err(|e| SelectError::Glob {
        pattern: e.glob().unwrap_or_default().to_string(),
        message: e.kind().to_string(),
    })
}

/// The records `--run`, `--skip` and `--direction` select, in corpus order; an error naming the
/// first `--run` glob that matches no case of the corpus at all.
pub(super) fn select<'c>(
    corpus: &'c EngineCorpus,
    o: &Options,
) -> Result<Vec<&'c Record>, SelectError> {
    let run_set = globs(&o.run)?;
    let skip_set = globs(&o.skip)?;
    for pattern in &o.run {
        let one = globs(std::slice::from_ref(pattern))?;
        if !corpus.records.iter().any(|r| one.is_match(&r.name)) {
            return Err(SelectError::RunMatchesNothing {
                pattern: pattern.clone(),
                version: corpus.entry.version.clone(),
            });
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
        return Err(SelectError::NothingSelected {
            version: corpus.entry.version.clone(),
        });
    }
    Ok(selected)
}

/// Whether `--run`, `--skip` and `--direction` select a case name (without checking the
/// globs against a corpus): for building only the stress cases a run needs.
pub fn selects(o: &Options) -> Result<impl Fn(&str) -> bool + '_, SelectError> {
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
