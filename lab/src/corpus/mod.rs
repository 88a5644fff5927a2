//! The corpus: every case of [`cases`] with each real engine's answer, stored as plain JSON lines
//! that implementers in any language can read (docs/corpus.md).
//!
//! `corpus/godot-VERSION.jsonl` holds one [`Record`] per case for the engine of that version, and
//! `corpus/manifest.json` lists the files. [`generate`] asks live engines; [`load`] reads the
//! committed files; [`run::run`] checks an implementation against them.

pub mod cases;
pub mod classes;
pub mod condition;
pub mod counts;
pub mod drift;
pub mod generate;
pub(crate) mod integrity;
pub mod known;
pub(crate) mod node_path_padding;
pub mod regression;
pub mod run;
pub mod source;
pub mod stress;
pub(crate) mod sums;
pub mod tree;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use cases::all_cases;
pub use integrity::{CorpusError, sha256_hex};
pub use source::Source;

use gdmarshal::profile::Profile;

use crate::model::Record;

/// `corpus/manifest.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Format version of the manifest and the corpus files ([`SCHEMA`]).
    pub schema: u32,
    /// One entry per engine version.
    pub engines: Vec<ManifestEntry>,
}

/// One engine's file in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// The version the engine reported, e.g. `4.6.3.stable`.
    pub version: String,
    /// The format profile, e.g. `4.6`.
    pub profile: String,
    /// The file, relative to the corpus folder: a plain file name.
    pub file: String,
    /// Number of cases: the file's line count.
    pub cases: usize,
    /// Cases the engine refused, crashed or hung on.
    pub invalid: usize,
    /// SHA-256 of the file's bytes, lowercase hex (what `sha256sum` prints).
    pub sha256: String,
}

impl ManifestEntry {
    /// The entry for `records` written as `file` by [`save`]: counts and the hash of the text
    /// [`records_text`] gives.
    pub fn for_records(version: &str, profile: Profile, file: &str, records: &[Record]) -> Self {
        ManifestEntry {
            version: version.to_string(),
            profile: profile.to_string(),
            file: file.to_string(),
            cases: records.len(),
            invalid: records.iter().filter(|r| r.is_invalid()).count(),
            sha256: sha256_hex(records_text(records).as_bytes()),
        }
    }
}

/// The schema version this crate writes and reads: 2 added `sha256` and the checks [`load`]
/// makes.
pub const SCHEMA: u32 = 2;

/// The corpus folder in this repository.
pub fn default_dir() -> PathBuf {
    crate::repo_root().join("corpus")
}

/// One engine's committed records.
#[derive(Clone, Debug)]
pub struct EngineCorpus {
    /// The manifest entry.
    pub entry: ManifestEntry,
    /// The profile to decode and encode with.
    pub profile: Profile,
    /// The records, in file order.
    pub records: Vec<Record>,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CorpusError + '_ {
    move |source| CorpusError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads the manifest and every engine's records of the folder `dir`, and verifies them: see
/// [`load_from`].
pub fn load(dir: &Path) -> Result<Vec<EngineCorpus>, CorpusError> {
    load_from(&Source::Dir(dir.to_path_buf()))
}

/// Reads the manifest and every engine's records, and verifies them: the manifest's schema, that
/// each entry names a plain file once, and per file that every line is a record of a known
/// direction with the fields it needs, that no case name repeats, that the line count is `cases`,
/// that the invalid records number `invalid` and that the bytes hash to `sha256`. The error names
/// the file, and the line where one applies.
pub fn load_from(source: &Source) -> Result<Vec<EngineCorpus>, CorpusError> {
    let path = source.path("manifest.json");
    let missing = |path: &Path| CorpusError::Io {
        path: path.to_path_buf(),
        source: std::io::ErrorKind::NotFound.into(),
    };
    let bytes = source
        .read("manifest.json")?
        .ok_or_else(|| missing(&path))?;
    let text = String::from_utf8(bytes).map_err(|e| CorpusError::Utf8 {
        file: path.clone(),
        line: crate::bounded::line_of(e.as_bytes(), e.utf8_error().valid_up_to()),
    })?;
    integrity::check_schema(&path, &text, SCHEMA)?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| CorpusError::Json {
        file: path.clone(),
        line: e.line(),
        message: e.to_string(),
    })?;
    integrity::check_entries(&path, &manifest.engines)?;
    manifest
        .engines
        .into_iter()
        .map(|entry| {
            let profile: Profile = entry.profile.parse().map_err(|e| CorpusError::Entry {
                file: path.clone(),
                version: entry.version.clone(),
                problem: format!("profile {:?}: {e}", entry.profile),
            })?;
            let file = source.path(&entry.file);
            let bytes = source.read(&entry.file)?.ok_or_else(|| missing(&file))?;
            let records = integrity::check_file(&file, &entry, &bytes)?;
            Ok(EngineCorpus {
                entry,
                profile,
                records,
            })
        })
        .collect()
}

/// The text of a corpus file: one JSON line per record, each ending in a newline. Runs on a stack
/// of its own: serializing the deepest cases' trees recurses more than a thread's stack allows.
pub fn records_text(records: &[Record]) -> String {
    stacker::grow(256 << 20, || {
        let mut text = String::new();
        for r in records {
            text.push_str(&serde_json::to_string(r).expect("records serialize"));
            text.push('\n');
        }
        text
    })
}

/// Writes one engine's records and updates the manifest entry for its version (counts and
/// hash). Other engines' entries are kept; those of a schema 1 manifest, which had no hashes,
/// get the hash of their file as it is now.
pub fn save(
    dir: &Path,
    version: &str,
    profile: Profile,
    records: &[Record],
) -> Result<(), CorpusError> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let file = format!("godot-{version}.jsonl");
    let path = dir.join("manifest.json");
    let mut engines = existing_entries(dir, &path)?;
    write_atomic(&dir.join(&file), &records_text(records))?;
    engines.retain(|e| e.version != version && e.file != file);
    engines.push(ManifestEntry::for_records(version, profile, &file, records));
    engines.sort_by(|a, b| a.version.cmp(&b.version));
    let manifest = Manifest {
        schema: SCHEMA,
        engines,
    };
    let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serializes");
    text.push('\n');
    write_atomic(&path, &text)
}

/// The entries of the manifest at `path`, none if there is none. A schema 1 manifest's entries
/// get their files' current hashes; an unreadable manifest or an unknown schema is an error
/// rather than a reason to drop the other engines.
fn existing_entries(dir: &Path, path: &Path) -> Result<Vec<ManifestEntry>, CorpusError> {
    let text = match crate::bounded::read_text(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        r => r.map_err(io_error(path))?,
    };
    let json_error = |e: serde_json::Error| CorpusError::Json {
        file: path.to_path_buf(),
        line: e.line(),
        message: e.to_string(),
    };
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(json_error)?;
    if value.get("schema").and_then(serde_json::Value::as_u64) == Some(1) {
        let engines = value
            .get_mut("engines")
            .and_then(serde_json::Value::as_array_mut)
            .map(std::mem::take)
            .unwrap_or_default();
        let mut upgraded = Vec::new();
        for mut e in engines {
            let name = e.get("file").and_then(serde_json::Value::as_str);
            let Some(name) = name.map(str::to_string) else {
                continue;
            };
            let file = dir.join(&name);
            let bytes = match crate::bounded::read(&file) {
                // The file is gone: so is its entry.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                r => r.map_err(io_error(&file))?,
            };
            e["sha256"] = sha256_hex(&bytes).into();
            upgraded.push(e);
        }
        value = serde_json::json!({ "schema": SCHEMA, "engines": upgraded });
    }
    integrity::check_schema(path, &value.to_string(), SCHEMA)?;
    let manifest: Manifest = serde_json::from_value(value).map_err(json_error)?;
    Ok(manifest.engines)
}

/// Writes through a temporary file so that an interrupted run never leaves half a file.
fn write_atomic(path: &Path, text: &str) -> Result<(), CorpusError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(io_error(path))
}

/// The largest share of an engine's cases that may hold no comparable answer (see
/// [`Record::comparable`]) before the corpus is refused: a check that passes because most cases
/// were skipped says nothing. The committed corpora stand at 0.4% to 1.0%.
pub(crate) const MAX_UNCOMPARABLE_SHARE: f64 = 0.03;

/// An engine's corpus with too few comparable answers to check anything on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{file}: {uncomparable} of {cases} cases hold no answer to compare with (crashed, hung, unsupported or unsteady), more than {share}% allowed: regenerate the corpus with `gdmarshal corpus generate`",
    share = MAX_UNCOMPARABLE_SHARE * 100.0
)]
pub struct TooFewAnswers {
    /// The corpus file.
    pub file: String,
    /// Its cases.
    pub cases: usize,
    /// Those without a comparable answer.
    pub uncomparable: usize,
}

impl EngineCorpus {
    /// Fails when more than [`MAX_UNCOMPARABLE_SHARE`] of the cases hold no comparable answer.
    pub fn enough_answers(&self) -> Result<(), TooFewAnswers> {
        let cases = self.records.len();
        let uncomparable = self.records.iter().filter(|r| !r.comparable()).count();
        if uncomparable as f64 > cases as f64 * MAX_UNCOMPARABLE_SHARE {
            Err(TooFewAnswers {
                file: self.entry.file.clone(),
                cases,
                uncomparable,
            })
        } else {
            Ok(())
        }
    }
}
