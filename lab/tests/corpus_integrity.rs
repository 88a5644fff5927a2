//! The corpus reader trusts nothing: each test copies the committed corpus to a temporary folder,
//! damages it the way a bad merge, a cut download or a hand edit would, and checks that `load`
//! refuses it with the right `CorpusError`, naming the file and the line.

use std::path::{Path, PathBuf};

use gdmarshal_lab::corpus::{
    CorpusError, Manifest, SCHEMA, default_dir, load, records_text, save, sha256_hex,
};

/// The file every test damages (the other engines' files stay as committed).
const FILE: &str = "godot-4.6.3.stable.jsonl";

/// A copy of the committed corpus folder.
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for entry in std::fs::read_dir(default_dir()).expect("corpus folder") {
        let path = entry.expect("folder entry").path();
        if path.is_file() {
            std::fs::copy(
                &path,
                dir.path().join(path.file_name().expect("a file name")),
            )
            .expect("copy");
        }
    }
    dir
}

fn lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join(FILE))
        .expect("corpus file")
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(dir: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(dir.join(FILE), text).expect("write");
}

fn manifest(dir: &Path) -> Manifest {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"))
        .expect("manifest parses")
}

fn write_manifest(dir: &Path, m: &Manifest) {
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(m).expect("serializes"),
    )
    .expect("write");
}

/// Changes the damaged file's manifest entry.
fn edit_entry(dir: &Path, f: impl FnOnce(&mut gdmarshal_lab::corpus::ManifestEntry)) {
    let mut m = manifest(dir);
    let e = m
        .engines
        .iter_mut()
        .find(|e| e.file == FILE)
        .expect("entry for the file");
    f(e);
    write_manifest(dir, &m);
}

/// Loads the folder, which must fail; returns the error and its message.
fn refused(dir: &Path) -> (CorpusError, String) {
    let e = load(dir).expect_err("a damaged corpus must not load");
    let message = e.to_string();
    assert_eq!(message.lines().count(), 1, "one line: {message}");
    (e, message)
}

fn file_path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// The 1-based line of the first record with this direction.
fn first(lines: &[String], direction: &str) -> usize {
    1 + lines
        .iter()
        .position(|l| l.contains(&format!("\"direction\":\"{direction}\"")))
        .expect("such a record")
}

#[test]
fn the_committed_corpus_loads_and_is_what_save_writes() {
    let dir = default_dir();
    let corpora = load(&dir).expect("the committed corpus loads");
    assert_eq!(corpora.len(), 4, "3.2.3, 3.6.2, 4.6.3 and 4.6.3-double");
    for c in &corpora {
        let bytes = std::fs::read(dir.join(&c.entry.file)).expect("file");
        assert_eq!(c.entry.sha256, sha256_hex(&bytes), "{}", c.entry.file);
        assert_eq!(c.entry.cases, c.records.len());
        // Bytes identical to what `save` would write, so regenerating the same answers changes
        // neither the files nor the hashes.
        assert!(
            records_text(&c.records).as_bytes() == bytes.as_slice(),
            "{}: save would write other bytes",
            c.entry.file
        );
    }
}

#[test]
fn a_file_cut_to_its_first_100_lines_is_a_count_mismatch_at_line_100() {
    let dir = copy();
    let mut l = lines(dir.path());
    let total = l.len();
    l.truncate(100);
    write_lines(dir.path(), &l);
    let (e, message) = refused(dir.path());
    match e {
        CorpusError::CountMismatch {
            file,
            manifest,
            actual,
        } => {
            assert_eq!(file, file_path(dir.path()));
            assert_eq!((manifest, actual), (total, 100));
        }
        other => panic!("not a count mismatch: {other:?}"),
    }
    assert!(message.contains(&format!("{FILE}:100:")), "{message}");
    assert!(message.contains("gdmarshal corpus generate"), "{message}");
}

#[test]
fn a_manifest_claiming_99999_cases_is_a_count_mismatch() {
    let dir = copy();
    let total = lines(dir.path()).len();
    edit_entry(dir.path(), |e| e.cases = 99_999);
    let (e, message) = refused(dir.path());
    assert!(
        matches!(e, CorpusError::CountMismatch { manifest: 99_999, actual, .. } if actual == total),
        "{e:?}"
    );
    assert!(message.contains(&format!("{FILE}:{total}:")), "{message}");
    assert!(message.contains("99999"), "{message}");
}

#[test]
fn one_changed_byte_is_a_hash_mismatch() {
    let dir = copy();
    let mut bytes = std::fs::read(dir.path().join(FILE)).expect("file");
    let before = sha256_hex(&bytes);
    // A hex digit of the first "output": still valid JSON, same counts, other bytes.
    let at = bytes
        .windows(10)
        .position(|w| w == b"\"output\":\"")
        .expect("an output field")
        + 10;
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(dir.path().join(FILE), &bytes).expect("write");
    let (e, message) = refused(dir.path());
    match e {
        CorpusError::HashMismatch {
            file,
            manifest,
            actual,
        } => {
            assert_eq!(file, file_path(dir.path()));
            assert_eq!(manifest, before);
            assert_eq!(actual, sha256_hex(&bytes));
        }
        other => panic!("not a hash mismatch: {other:?}"),
    }
    assert!(
        message.contains(FILE) && message.contains(&before),
        "{message}"
    );
}

#[test]
fn a_duplicated_line_is_a_duplicate_name_at_that_line() {
    for fix_counts in [false, true] {
        let dir = copy();
        let mut l = lines(dir.path());
        let copied = l[4].clone();
        l.insert(5, copied.clone());
        write_lines(dir.path(), &l);
        if fix_counts {
            // The manifest made to agree on the count: the duplicate itself is what is refused.
            let invalid = copied.contains("\"verdict\":\"rejected\"")
                || copied.contains("\"verdict\":\"crashed\"")
                || copied.contains("\"verdict\":\"hung\"");
            edit_entry(dir.path(), |e| {
                e.cases += 1;
                e.invalid += usize::from(invalid);
            });
        }
        let (e, message) = refused(dir.path());
        match e {
            CorpusError::DuplicateName {
                file,
                line,
                first_line,
                name,
            } => {
                assert_eq!(file, file_path(dir.path()));
                assert_eq!((line, first_line), (6, 5));
                assert!(copied.contains(&format!("\"name\":\"{name}\"")), "{name}");
            }
            other => panic!("counts fixed {fix_counts}: not a duplicate name: {other:?}"),
        }
        assert!(message.contains(&format!("{FILE}:6:")), "{message}");
        assert!(message.contains("line 5"), "{message}");
    }
}

#[test]
fn a_sideways_record_is_a_bad_direction_at_its_line() {
    let dir = copy();
    let mut l = lines(dir.path());
    let n = first(&l, "decode");
    l[n - 1] = l[n - 1].replace("\"direction\":\"decode\"", "\"direction\":\"sideways\"");
    write_lines(dir.path(), &l);
    let (e, message) = refused(dir.path());
    match e {
        CorpusError::BadDirection {
            file,
            line,
            direction,
        } => {
            assert_eq!(file, file_path(dir.path()));
            assert_eq!(line, n);
            assert_eq!(direction, "sideways");
        }
        other => panic!("not a bad direction: {other:?}"),
    }
    assert!(message.contains(&format!("{FILE}:{n}:")), "{message}");
    assert!(message.contains("sideways"), "{message}");
}

#[test]
fn a_record_without_the_field_its_direction_needs_is_refused_at_its_line() {
    let record_missing = |direction: &str, field: &'static str| {
        let dir = copy();
        let mut l = lines(dir.path());
        let n = first(&l, direction);
        let mut v: serde_json::Value = serde_json::from_str(&l[n - 1]).expect("record");
        v.as_object_mut().expect("object").remove(field);
        l[n - 1] = v.to_string();
        write_lines(dir.path(), &l);
        let (e, message) = refused(dir.path());
        assert!(
            matches!(&e, CorpusError::BadField { line, field: f, .. } if *line == n && *f == field),
            "{e:?}"
        );
        assert!(message.contains(&format!("{FILE}:{n}:")), "{message}");
        assert!(message.contains(field), "{message}");
    };
    record_missing("decode", "input");
    record_missing("encode", "value");

    let dir = copy();
    let mut l = lines(dir.path());
    let n = first(&l, "decode");
    let mut v: serde_json::Value = serde_json::from_str(&l[n - 1]).expect("record");
    v["input"] = "0g".into();
    l[n - 1] = v.to_string();
    write_lines(dir.path(), &l);
    let (e, _) = refused(dir.path());
    assert!(
        matches!(&e, CorpusError::BadField { line, field: "input", .. } if *line == n),
        "{e:?}"
    );
}

#[test]
fn a_line_that_is_not_a_record_is_a_json_error_at_its_line() {
    let dir = copy();
    let mut l = lines(dir.path());
    l[41] = l[41][..l[41].len() / 2].to_string();
    write_lines(dir.path(), &l);
    let (e, message) = refused(dir.path());
    assert!(
        matches!(&e, CorpusError::Json { line: 42, file, .. } if *file == file_path(dir.path())),
        "{e:?}"
    );
    assert!(message.contains(&format!("{FILE}:42:")), "{message}");
}

#[test]
fn a_wrong_invalid_count_is_refused() {
    let dir = copy();
    let mut invalid = 0;
    edit_entry(dir.path(), |e| {
        invalid = e.invalid;
        e.invalid += 1;
    });
    let (e, message) = refused(dir.path());
    assert!(
        matches!(&e, CorpusError::InvalidMismatch { manifest, actual, .. }
            if *manifest == invalid + 1 && *actual == invalid),
        "{e:?}"
    );
    assert!(message.contains(FILE), "{message}");
}

#[test]
fn an_older_schema_is_refused_before_its_fields_are_read() {
    let dir = copy();
    let text = std::fs::read_to_string(default_dir().join("manifest.json")).expect("manifest");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["schema"] = 1.into();
    for e in v["engines"].as_array_mut().expect("engines") {
        e.as_object_mut().expect("entry").remove("sha256");
    }
    std::fs::write(dir.path().join("manifest.json"), v.to_string()).expect("write");
    let (e, message) = refused(dir.path());
    assert!(
        matches!(
            e,
            CorpusError::Schema {
                found: 1,
                expected: SCHEMA,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(message.contains("manifest.json"), "{message}");

    // `save` upgrades such a manifest: every other engine is kept, with its file's hash.
    let corpora = load(&default_dir()).expect("committed corpus");
    let c = corpora
        .iter()
        .find(|c| c.entry.file == FILE)
        .expect("the file's engine");
    save(dir.path(), &c.entry.version, c.profile, &c.records).expect("save");
    let again = load(dir.path()).expect("the saved corpus loads");
    let entries: Vec<_> = again.iter().map(|c| c.entry.clone()).collect();
    let committed: Vec<_> = corpora.iter().map(|c| c.entry.clone()).collect();
    assert_eq!(entries, committed);
}

#[test]
fn a_manifest_entry_outside_the_folder_or_listed_twice_is_refused() {
    let dir = copy();
    edit_entry(dir.path(), |e| e.file = format!("../{FILE}"));
    let (e, message) = refused(dir.path());
    assert!(matches!(e, CorpusError::Entry { .. }), "{e:?}");
    assert!(message.contains("manifest.json"), "{message}");

    let dir = copy();
    let mut m = manifest(dir.path());
    let twice = m.engines[0].clone();
    m.engines.push(twice);
    write_manifest(dir.path(), &m);
    let (e, _) = refused(dir.path());
    assert!(matches!(e, CorpusError::Entry { .. }), "{e:?}");
}

#[test]
fn errors_convert_to_strings_for_callers_that_report_text() {
    let dir = copy();
    std::fs::remove_file(dir.path().join(FILE)).expect("remove");
    let e = load(dir.path()).expect_err("a missing file");
    assert!(matches!(e, CorpusError::Io { .. }), "{e:?}");
    let s: String = e.into();
    assert!(s.contains(FILE), "{s}");
}
