//! The runner carries its corpus: `conform` and `corpus check` use the corpus embedded at build
//! time from any directory, with the same totals as the folder it was built from, and name the
//! corpus they used; a testee's declared `max_json_depth` keeps deeper cases from being sent.

mod common;

use std::path::{Path, PathBuf};

use common::BIN;
use serde_json::Value;

fn repo_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

use common::gdmarshal_in as run_in;

/// The JSON report of the codec's own testee against `version`, run from `dir`.
fn own_report(dir: &Path, version: &str, extra: &[&str]) -> Value {
    let out = tempfile::NamedTempFile::new().unwrap();
    let testee = format!("{BIN} testee");
    let path = out.path().to_str().unwrap();
    let mut args = vec![
        "conform",
        "--testee",
        &testee,
        "--godot",
        version,
        "--skip",
        "*/stress/**",
        "--format",
        "json",
        "--output",
        path,
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run_in(dir, &args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    serde_json::from_slice(&std::fs::read(out.path()).unwrap()).unwrap()
}

#[test]
fn conform_from_any_directory_uses_the_embedded_corpus_with_the_same_totals() {
    let outside = tempfile::tempdir().unwrap();
    let corpus = repo_corpus();
    let digest = gdmarshal_corpus::digest_dir(&corpus).unwrap();
    for version in ["3.2", "4.6"] {
        let embedded = own_report(outside.path(), version, &[]);
        let folder = own_report(
            outside.path(),
            version,
            &["--corpus", corpus.to_str().unwrap()],
        );
        assert_eq!(embedded["totals"], folder["totals"], "{version}");
        assert!(
            embedded["totals"]["accepted_equal"].as_u64().unwrap() > 500,
            "{version}"
        );
        assert_eq!(
            embedded["corpus"],
            format!("embedded corpus {}", &digest[..12]),
            "{version}"
        );
        let named = folder["corpus"].as_str().unwrap();
        assert!(named.ends_with(&format!("({})", &digest[..12])), "{named}");
    }
}

#[test]
fn version_names_the_embedded_corpus_by_its_digest() {
    let digest = gdmarshal_corpus::digest_dir(&repo_corpus()).unwrap();
    let (code, out, _) = run_in(Path::new("/"), &["-V"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("embedded corpus {}", &digest[..12])),
        "{out}"
    );
    let (code, out, _) = run_in(Path::new("/"), &["--version"]);
    assert_eq!(code, 0);
    assert!(out.contains(&digest), "{out}");
    // Each version's case count is the one README.md's generated table shows (stress cases
    // included).
    let readme = std::fs::read_to_string(repo_corpus().join("../README.md")).unwrap();
    let rows: Vec<(&str, &str)> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| Godot "))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            (cells[0], cells[2])
        })
        .collect();
    assert_eq!(rows.len(), 4, "{readme}");
    for (version, cases) in rows {
        assert!(
            out.contains(&format!("{version} ({cases} cases, ")),
            "{version} {cases}: {out}"
        );
    }
}

#[test]
fn corpus_check_names_the_corpus_it_checked() {
    let (code, out, err) = run_in(Path::new("/"), &["corpus", "check", "--no-engines"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("embedded corpus "), "{out}");
}

#[test]
fn cases_deeper_than_the_declared_json_depth_are_not_sent() {
    // The testee crashes on any request nested deeper than it declares: the run passes only if
    // the runner sends none.
    let wrong = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/testees/wrong.py");
    let testee = format!("python3 {} json-depth 40", wrong.display());
    let (code, out, err) = run_in(
        Path::new("/"),
        &[
            "conform",
            "--testee",
            &testee,
            "--godot",
            "4.6",
            "--run",
            "*/depth/**",
            "--output",
            "/dev/null",
            // The deep cases are what this testee cannot take: none is judged, by design.
            "--allow-partial",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("max_json_depth 40: "))
        .unwrap_or_else(|| panic!("{out}"));
    let deeper: usize = line["max_json_depth 40: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(deeper > 0, "{line}");
    assert!(out.contains("ok: "), "{out}");
}

#[test]
fn a_bad_max_json_depth_fails_the_handshake() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("t.py");
    std::fs::write(
        &script,
        "import sys, json\nfor line in sys.stdin:\n    print(json.dumps({'name': 'x', 'protocol': 1, 'max_json_depth': -3}), flush=True)\n",
    )
    .unwrap();
    let testee = format!("python3 {}", script.display());
    let (code, out, err) = run_in(
        dir.path(),
        &[
            "conform",
            "--testee",
            &testee,
            "--godot",
            "4.6",
            "--run",
            "encode/int/*",
        ],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        format!("{out}{err}").contains(
            "hello: max_json_depth: invalid value: integer `-3`, expected a whole number of at least 2"
        ),
        "{out}{err}"
    );
}
