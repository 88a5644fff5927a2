//! The committed corpus of every verified engine version, and the stress cases, against the codec
//! behind the Rust adapter kit (testees/rust), judged by `gdmarshal conform`: the corpus as a gate,
//! as an implementer runs it. Mutation score 2 (scripts/mutants.sh corpus, docs/mutation.md) runs
//! this test for each mutant of the codec, with the judge built from the unmutated tree and named
//! in `GDMARSHAL_CONFORM_RUNNER`, so that a mutant changes the testee's answers but not their check.

use std::path::{Path, PathBuf};

use gdmarshal_testkit::{Group, command};

/// The kit's binary, built from the codec of this tree.
const KIT: &str = env!("CARGO_BIN_EXE_gdmarshal-testee-kit");

/// The judge: `GDMARSHAL_CONFORM_RUNNER`, or the workspace's own `gdmarshal` beside the kit (a
/// workspace `cargo test` builds it for the cli package's tests).
fn runner() -> PathBuf {
    if let Some(runner) = std::env::var_os("GDMARSHAL_CONFORM_RUNNER") {
        return runner.into();
    }
    let beside = Path::new(KIT).with_file_name("gdmarshal");
    assert!(
        beside.exists(),
        "no judge at {}: build it (cargo build --bin gdmarshal) or name one in \
         GDMARSHAL_CONFORM_RUNNER",
        beside.display()
    );
    beside
}

/// Runs the corpus of `version` against the kit; panics with the report unless every case
/// passes, and returns the counts of (accepted and equal, rejected as the engine does).
fn conform(version: &str, select: &[&str]) -> (u64, u64) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Group::spawn(
        command(runner())
            .current_dir(&root)
            .args([
                "conform", "--testee", KIT, "--godot", version, "--format", "json",
            ])
            // As the kits are held (scripts/kits.sh): a refusal must also be of the engine's kind.
            .arg("--strict-errors")
            // The corpus of the tree under test (a mutation run's copy holds its own), not the
            // one the judge was built beside, which may change while a run goes on.
            .arg("--corpus")
            .arg(root.join("corpus"))
            .args(select)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "Godot {version}: the report is not JSON ({e}); stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let totals = &report["totals"];
    assert!(
        out.status.success() && report["passed"] == true,
        "Godot {version}: the corpus fails the codec: {}",
        failures(&report)
    );
    assert_eq!(totals["fail"], 0, "Godot {version}: {totals}");
    let count = |key: &str| totals[key].as_u64().unwrap_or(0);
    (count("accepted_equal"), count("rejected_as_expected"))
}

/// The failing cases of a report, a line each.
fn failures(report: &serde_json::Value) -> String {
    let mut lines = Vec::new();
    for case in report["cases"].as_array().into_iter().flatten() {
        if case["score"] == "wrong" || case["score"] == "error" {
            lines.push(format!("\n  {} {}", case["score"], case["name"]));
        }
    }
    lines.truncate(20);
    format!("{}\ntotals: {}", lines.concat(), report["totals"])
}

/// One test, not two running side by side: a mutant that the corpus catches fails in a second or
/// two, before the stress cases (most of the time of a run that passes) start.
#[test]
fn the_codec_passes_the_corpus_of_every_version_then_the_stress_cases() {
    for version in ["4.6", "4.6-double", "3.6", "3.2"] {
        let (equal, rejected) = conform(version, &["--skip", "*/stress/**"]);
        // A run that skipped everything would pass too: the corpus has over 600 valid and 300
        // invalid cases per version, each of which must have been answered.
        assert!(
            equal > 600,
            "Godot {version}: only {equal} accepted and equal"
        );
        assert!(rejected > 300, "Godot {version}: only {rejected} rejected");
    }
    let (equal, _) = conform("4.6", &["--run", "*/stress/**"]);
    assert_eq!(equal, 14, "every stress case is accepted and equal");
}
