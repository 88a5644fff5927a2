//! docs/report.md, its appendices (docs/report/) and the corrected pages (docs/spec/) are what `gdmarshal report` writes from the
//! committed inputs and the live engines: regenerated into a temporary folder, every file must
//! match the committed one byte for byte. A stale report fails here.

use std::path::Path;

mod common;

use common::{Group, gdmarshal_command};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// Whether every engine the report asks is installed (on CI a missing one fails).
fn engines_installed() -> bool {
    gdmarshal_testkit::engines::all_ci().is_some()
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_committed_report_is_what_gdmarshal_report_writes() {
    if !engines_installed() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.md");
    let run = Group::spawn(
        gdmarshal_command()
            .current_dir(repo())
            .args(["report", "--output"])
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    assert!(
        run.status.success(),
        "gdmarshal report failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let docs = repo().join("docs");
    let fresh = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string(docs.join("report.md")).unwrap();
    assert!(
        fresh == committed,
        "docs/report.md is stale: regenerate it with `gdmarshal report`"
    );
    for sub in ["report", "spec"] {
        let (a, b) = (dir.path().join(sub), docs.join(sub));
        assert_eq!(
            files(&a),
            files(&b),
            "docs/{sub}/ holds other files than the report writes"
        );
        for name in files(&a) {
            let fresh = std::fs::read(a.join(&name)).unwrap();
            let committed = std::fs::read(b.join(&name)).unwrap();
            assert!(
                fresh == committed,
                "docs/{sub}/{name} is stale: regenerate it with `gdmarshal report`"
            );
        }
    }
}
