//! What a corpus reader verifies before it trusts a file: the manifest's schema, each file's hash,
//! line count and invalid count, and each record's shape (docs/corpus.md, "What readers verify").
//!
//! Every failure is a [`CorpusError`] naming the file (and the line where one applies) and what
//! to do about it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::ManifestEntry;
use crate::model::{Direction, Record};

/// What to do when a committed file does not match its manifest entry.
const FIX: &str = "run `gdmarshal corpus generate` or restore the file";

/// Why a corpus folder cannot be trusted. Each message is one line naming the file, and the line
/// where one applies, as `file:line`.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line (of a corpus file) or the manifest is not the JSON it should be.
    #[error("{}:{line}: {message}; {FIX}", file.display())]
    Json {
        /// The file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// What the parser said.
        message: String,
    },
    /// A corpus file is not UTF-8.
    #[error("{}:{line}: not UTF-8; {FIX}", file.display())]
    Utf8 {
        /// The file.
        file: PathBuf,
        /// 1-based line of the first bad byte.
        line: usize,
    },
    /// The manifest's schema is not the one this reader knows.
    #[error(
        "{}: schema {found}, but this reader reads schema {expected}; run `gdmarshal corpus \
         generate` to rewrite the corpus, or use a gdmarshal that reads schema {found}",
        file.display()
    )]
    Schema {
        /// The manifest.
        file: PathBuf,
        /// The schema the manifest states (0 when it states none).
        found: u64,
        /// The schema this crate reads ([`super::SCHEMA`]).
        expected: u32,
    },
    /// A manifest entry is unusable: an unknown profile, a file outside the corpus folder, or a
    /// version or file listed twice.
    #[error("{}: engine {version}: {problem}; fix the entry or run `gdmarshal corpus generate`", file.display())]
    Entry {
        /// The manifest.
        file: PathBuf,
        /// The entry's `version`.
        version: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A corpus file has more or fewer lines than the manifest lists cases. The line named is
    /// where the file ends early, or the first line past the listed cases.
    #[error(
        "{}:{}: {}, but the manifest lists {manifest} cases; {FIX}",
        file.display(),
        count_line(*manifest, *actual),
        count_problem(*manifest, *actual)
    )]
    CountMismatch {
        /// The corpus file.
        file: PathBuf,
        /// Cases the manifest lists.
        manifest: usize,
        /// Lines the file has.
        actual: usize,
    },
    /// A corpus file's SHA-256 is not the one the manifest records: it changed after it was
    /// generated.
    #[error(
        "{}: SHA-256 is {actual}, but the manifest records {manifest}: the file changed after it \
         was generated; {FIX}",
        file.display()
    )]
    HashMismatch {
        /// The corpus file.
        file: PathBuf,
        /// The hash the manifest records.
        manifest: String,
        /// The file's hash.
        actual: String,
    },
    /// An engine's classes file (`classes/`) is not as recorded: its checksum or its contents.
    #[error("{}: {problem}; run `gdmarshal corpus classes` to record it again", file.display())]
    Classes {
        /// The classes file.
        file: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// A corpus file's invalid records (rejected, crashed, hung) are not as many as the manifest
    /// says.
    #[error(
        "{}: {actual} records are invalid (rejected, crashed or hung), but the manifest says \
         {manifest}; {FIX}",
        file.display()
    )]
    InvalidMismatch {
        /// The corpus file.
        file: PathBuf,
        /// Invalid records the manifest lists.
        manifest: usize,
        /// Invalid records in the file.
        actual: usize,
    },
    /// Two records of one file have the same name.
    #[error(
        "{}:{line}: case {name:?} already appears on line {first_line}; {FIX}",
        file.display()
    )]
    DuplicateName {
        /// The corpus file.
        file: PathBuf,
        /// 1-based line of the repeat.
        line: usize,
        /// 1-based line where the name first appears.
        first_line: usize,
        /// The repeated name.
        name: String,
    },
    /// A record's `direction` is neither `decode` nor `encode`.
    #[error(
        "{}:{line}: direction {direction:?} is neither \"decode\" nor \"encode\"; {FIX}",
        file.display()
    )]
    BadDirection {
        /// The corpus file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// The direction found.
        direction: String,
    },
    /// A record lacks a field its direction needs (decode: `input`, encode: `value`), or the
    /// field is malformed (`input` not hex).
    #[error("{}:{line}: {direction} record {problem}; {FIX}", file.display())]
    BadField {
        /// The corpus file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// The record's direction.
        direction: String,
        /// The field at fault.
        field: &'static str,
        /// What is wrong, e.g. `has no "input"`.
        problem: String,
    },
}

impl From<CorpusError> for String {
    fn from(e: CorpusError) -> String {
        e.to_string()
    }
}

/// The line a count mismatch points at: the last line of a short file, the first extra line of a
/// long one.
fn count_line(manifest: usize, actual: usize) -> usize {
    if actual < manifest {
        actual
    } else {
        manifest + 1
    }
}

fn count_problem(manifest: usize, actual: usize) -> String {
    if actual < manifest {
        format!("the file ends after {actual} lines")
    } else {
        format!("the file goes on past line {manifest} to {actual} lines")
    }
}

/// SHA-256 of `bytes`, lowercase hex (as `sha256sum` prints it).
pub fn sha256_hex(bytes: &[u8]) -> String {
    gdmarshal::hex::hex(&Sha256::digest(bytes))
}

/// The manifest's `schema`, read before anything else so that an older or newer manifest is
/// reported as such rather than as a missing field.
pub(crate) fn check_schema(path: &Path, text: &str, expected: u32) -> Result<(), CorpusError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| CorpusError::Json {
        file: path.to_path_buf(),
        line: e.line(),
        message: e.to_string(),
    })?;
    let found = value
        .get("schema")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(0);
    if found != u64::from(expected) {
        return Err(CorpusError::Schema {
            file: path.to_path_buf(),
            found,
            expected,
        });
    }
    Ok(())
}

/// Entries must name plain files inside the corpus folder, each version and file once.
pub(crate) fn check_entries(path: &Path, entries: &[ManifestEntry]) -> Result<(), CorpusError> {
    let entry_error = |e: &ManifestEntry, problem: String| CorpusError::Entry {
        file: path.to_path_buf(),
        version: e.version.clone(),
        problem,
    };
    for (i, e) in entries.iter().enumerate() {
        let plain =
            !e.file.is_empty() && !e.file.contains(['/', '\\']) && e.file != "." && e.file != "..";
        if !plain {
            return Err(entry_error(
                e,
                format!(
                    "file {:?} is not a plain file name in the corpus folder",
                    e.file
                ),
            ));
        }
        if let Some(d) = entries[..i]
            .iter()
            .find(|d| d.version == e.version || d.file == e.file)
        {
            return Err(entry_error(
                e,
                format!(
                    "listed twice (version {:?} / file {:?} again)",
                    d.version, d.file
                ),
            ));
        }
    }
    Ok(())
}

/// Parses one corpus file's bytes and checks them against its manifest entry, in this order:
/// each line (UTF-8, JSON, direction and its fields, name not seen before), then the line count,
/// the invalid count and finally the hash. Problems on a line come first because they say the
/// most; the hash catches whatever change the others do not.
pub(crate) fn check_file(
    file: &Path,
    entry: &ManifestEntry,
    bytes: &[u8],
) -> Result<Vec<Record>, CorpusError> {
    let text = std::str::from_utf8(bytes).map_err(|e| CorpusError::Utf8 {
        file: file.to_path_buf(),
        line: crate::bounded::line_of(bytes, e.valid_up_to()),
    })?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut records = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let record = parse_record(file, line, l)?;
        check_record(file, line, &record)?;
        if let Some(&first_line) = seen.get(&record.name) {
            return Err(CorpusError::DuplicateName {
                file: file.to_path_buf(),
                line,
                first_line,
                name: record.name,
            });
        }
        seen.insert(record.name.clone(), line);
        records.push(record);
    }
    if records.len() != entry.cases {
        return Err(CorpusError::CountMismatch {
            file: file.to_path_buf(),
            manifest: entry.cases,
            actual: records.len(),
        });
    }
    let invalid = records.iter().filter(|r| r.is_invalid()).count();
    if invalid != entry.invalid {
        return Err(CorpusError::InvalidMismatch {
            file: file.to_path_buf(),
            manifest: entry.invalid,
            actual: invalid,
        });
    }
    let actual = sha256_hex(bytes);
    if actual != entry.sha256.to_ascii_lowercase() {
        return Err(CorpusError::HashMismatch {
            file: file.to_path_buf(),
            manifest: entry.sha256.clone(),
            actual,
        });
    }
    Ok(records)
}

/// One line as a record. A line that is JSON but names no known direction is a bad direction
/// rather than a JSON error: the direction is read alone to tell the two apart.
fn parse_record(file: &Path, line: usize, text: &str) -> Result<Record, CorpusError> {
    if let Some(message) = crate::bounded::line_too_long(text) {
        let file = file.to_path_buf();
        return Err(CorpusError::Json {
            file,
            line,
            message,
        });
    }
    gdmarshal::json::parse_deep::<Record>(text).map_err(|e| {
        #[derive(serde::Deserialize)]
        struct DirectionOnly {
            direction: String,
        }
        match gdmarshal::json::parse_deep::<DirectionOnly>(text) {
            Ok(d) if !matches!(d.direction.as_str(), "decode" | "encode") => {
                CorpusError::BadDirection {
                    file: file.to_path_buf(),
                    line,
                    direction: d.direction,
                }
            }
            _ => CorpusError::Json {
                file: file.to_path_buf(),
                line,
                message: e.to_string(),
            },
        }
    })
}

/// The fields a record's direction needs.
fn check_record(file: &Path, line: usize, r: &Record) -> Result<(), CorpusError> {
    let bad = |field: &'static str, problem: String| CorpusError::BadField {
        file: file.to_path_buf(),
        line,
        direction: r.direction.to_string(),
        field,
        problem,
    };
    match r.direction {
        Direction::Decode => match &r.input {
            None => Err(bad("input", "has no \"input\" (the bytes, hex)".into())),
            Some(hex) => gdmarshal::hex::unhex(hex)
                .map(|_| ())
                .map_err(|e| bad("input", format!("\"input\" is not hex: {e}"))),
        },
        Direction::Encode if r.value.is_none() => Err(bad(
            "value",
            "has no \"value\" (the value to encode, tagged JSON)".into(),
        )),
        Direction::Encode => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Verdict;

    fn record(
        direction: Direction,
        input: Option<&str>,
        value: Option<serde_json::Value>,
    ) -> Record {
        Record {
            name: "n".into(),
            direction,
            input: input.map(str::to_string),
            value,
            objects: false,
            verdict: Verdict::Accepted,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn sha256_is_the_standard_one_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_count_mismatch_points_at_the_end_or_the_first_extra_line() {
        let e = |manifest, actual| {
            CorpusError::CountMismatch {
                file: "c/f.jsonl".into(),
                manifest,
                actual,
            }
            .to_string()
        };
        assert!(e(10, 3).starts_with("c/f.jsonl:3: the file ends after 3 lines"));
        assert!(e(10, 12).starts_with("c/f.jsonl:11: the file goes on past line 10"));
    }

    #[test]
    fn records_need_a_known_direction_and_its_fields() {
        let f = Path::new("f.jsonl");
        let json = Some(serde_json::json!({"type": "Nil"}));
        let (decode, encode) = (Direction::Decode, Direction::Encode);
        assert!(check_record(f, 1, &record(decode, Some("00 01"), None)).is_ok());
        assert!(check_record(f, 1, &record(encode, None, json)).is_ok());
        let sideways = r#"{"name":"n","direction":"sideways","input":"00","objects":false,"verdict":"accepted"}"#;
        let e = parse_record(f, 7, sideways).unwrap_err();
        assert!(matches!(e, CorpusError::BadDirection { line: 7, .. }));
        assert!(
            e.to_string()
                .starts_with("f.jsonl:7: direction \"sideways\"")
        );
        let e = parse_record(f, 8, "{\"direction\":\"decode\"}").unwrap_err();
        assert!(matches!(e, CorpusError::Json { line: 8, .. }), "{e:?}");
        let e = check_record(f, 2, &record(decode, None, None)).unwrap_err();
        assert!(matches!(e, CorpusError::BadField { field: "input", .. }));
        let e = check_record(f, 2, &record(decode, Some("0x"), None)).unwrap_err();
        assert!(matches!(e, CorpusError::BadField { field: "input", .. }));
        let e = check_record(f, 3, &record(encode, None, None)).unwrap_err();
        assert!(matches!(
            e,
            CorpusError::BadField {
                field: "value",
                line: 3,
                ..
            }
        ));
    }

    #[test]
    fn a_file_that_is_not_utf8_names_the_line() {
        let entry = ManifestEntry {
            version: "v".into(),
            profile: "4.6".into(),
            file: "f.jsonl".into(),
            cases: 0,
            invalid: 0,
            sha256: String::new(),
        };
        let e = check_file(Path::new("f.jsonl"), &entry, b"{}\n{\"a\":\"\xff\"}\n").unwrap_err();
        assert!(matches!(e, CorpusError::Utf8 { line: 2, .. }), "{e:?}");
    }
}
