//! The benchmark gate of CI (`scripts/bench-peers.sh --gate`, floors in benches/floors.tsv) judged
//! on the result lines of a recorded run of it (benches/fixtures/gate-run.txt): the committed
//! floors pass, and a floor raised above its measured ratio, a runner that did not run, or a
//! malformed floor each make the gate fail with the floor's file and line.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::{Group, command, text};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The gate on `results` against `floors`, in a process group of its own that dies with the test.
fn gate(results: &Path, floors: &Path) -> Output {
    Group::spawn(
        command("python3")
            .arg(root().join("scripts/bench-peers.py"))
            .arg("gate")
            .args([results, floors])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .wait_with_output()
}

fn recorded() -> PathBuf {
    root().join("benches/fixtures/gate-run.txt")
}

/// Floors written to a temporary file.
fn floors(lines: &str) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(f.path(), lines).unwrap();
    f
}

#[test]
fn the_committed_floors_pass_on_the_recorded_run() {
    let o = gate(&recorded(), &root().join("benches/floors.tsv"));
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(", 0 below their floor or missing"), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
}

#[test]
fn a_ratio_below_its_floor_fails_the_gate() {
    // The recorded run has gdmarshal a few times faster than the crate on this family; a floor
    // of 1000 times is broken on purpose.
    let f = floors("4.6\tkeyed_dictionaries\tdecode\tgodot-binary-serialization\t1000\n");
    let o = gate(&recorded(), f.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL 4.6 keyed_dictionaries decode"), "{out}");
    assert!(out.contains(&format!("{}:1", f.path().display())), "{out}");
    assert!(out.contains("1 below their floor or missing"), "{out}");
}

#[test]
fn a_floor_whose_runner_did_not_run_fails_the_gate() {
    let f = floors("4.6\tstrings\tdecode\tgodot-binary-serialization\t1.0\n");
    let o = gate(&recorded(), f.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("no figure for 4.6 strings decode"), "{out}");
}

#[test]
fn a_malformed_floor_is_a_usage_error() {
    let f = floors("4.6 strings decode\n");
    let o = gate(&recorded(), f.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains(":1: expected FORMAT FAMILY MEASURE RUNNER FLOOR"),
        "{out}"
    );
}
