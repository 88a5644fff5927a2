//! The corpus: every case of [`cases`] with each real engine's answer, stored as plain JSON lines
//! that implementers in any language can read (docs/corpus.md).
//!
//! `corpus/godot-VERSION.jsonl` holds one [`Record`] per case for the engine of that version, and
//! `corpus/manifest.json` lists the files. [`generate`] asks live engines; [`load`] reads the
//! committed files; [`run::run`] checks an implementation against them.

pub mod cases;
pub mod codec;
pub mod generate;
pub mod known;
pub mod mismatch;
pub mod record;
pub mod run;
pub mod skip;
pub mod tree;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use cases::{Case, all_cases};
pub use mismatch::{ByteDiff, Mismatch, RecordDefect, RejectKind, Rejection};
pub use record::{Record, Verdict};
pub use skip::{SkipReason, Undeclared};

use gdmarshal::profile::Profile;

/// `corpus/manifest.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Format version of the corpus files.
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
    /// The file, relative to the corpus folder.
    pub file: String,
    /// Number of cases.
    pub cases: usize,
    /// Cases the engine refused, crashed or hung on.
    pub invalid: usize,
}

/// The schema version this crate writes and reads.
pub const SCHEMA: u32 = 1;

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

/// Reads the manifest and every engine's records; errors name the file and line.
pub fn load(dir: &Path) -> Result<Vec<EngineCorpus>, String> {
    let path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))?;
    if manifest.schema != SCHEMA {
        return Err(format!(
            "{}: schema {} is not {SCHEMA}",
            path.display(),
            manifest.schema
        ));
    }
    manifest
        .engines
        .into_iter()
        .map(|entry| {
            let file = dir.join(&entry.file);
            let profile: Profile = entry
                .profile
                .parse()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let records = text
                .lines()
                .enumerate()
                .map(|(i, l)| {
                    gdmarshal::json::parse_deep(l)
                        .map_err(|e| format!("{}:{}: {e}", file.display(), i + 1))
                })
                .collect::<Result<Vec<Record>, String>>()?;
            Ok(EngineCorpus {
                entry,
                profile,
                records,
            })
        })
        .collect()
}

/// Writes one engine's records and updates the manifest entry for its version.
pub fn save(dir: &Path, version: &str, profile: Profile, records: &[Record]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = format!("godot-{version}.jsonl");
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).expect("records serialize"));
        text.push('\n');
    }
    write_atomic(&dir.join(&file), &text)?;
    let path = dir.join("manifest.json");
    let mut manifest: Manifest = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    manifest.schema = SCHEMA;
    manifest.engines.retain(|e| e.version != version);
    manifest.engines.push(ManifestEntry {
        version: version.to_string(),
        profile: profile.to_string(),
        file,
        cases: records.len(),
        invalid: records.iter().filter(|r| r.is_invalid()).count(),
    });
    manifest.engines.sort_by(|a, b| a.version.cmp(&b.version));
    let mut text = serde_json::to_string_pretty(&manifest).expect("manifest serializes");
    text.push('\n');
    write_atomic(&path, &text)
}

/// Writes through a temporary file so that an interrupted run never leaves half a file.
fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}
