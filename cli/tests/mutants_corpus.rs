//! The corpus as a gate for other implementations, used by mutation testing (scripts/mutants.sh
//! corpus, docs/mutation.md): the `gdmarshal` binary built from this tree serves the codec as a
//! testee, and `gdmarshal conform` runs the committed corpus of every engine version against it. A
//! mutant of the codec that this test does not catch is a bug that another implementation could
//! have and still pass the corpus.
//!
//! Ignored by default: the unmutated codec passes the same runs in tests/conform.rs, so this is
//! only worth its time under a mutant. The runner is the binary named by `GDMARSHAL_CONFORM_RUNNER`
//! (scripts/mutants.sh builds it once from the unmutated tree, so that a mutant cannot change the
//! judge as well as the answers), or this tree's own binary when that is unset.

mod common;

use common::{BIN, command};

#[test]
#[ignore = "run by scripts/mutants.sh corpus, under each mutant"]
fn mutated_testee_passes_the_corpus_of_every_engine() {
    let runner = std::env::var("GDMARSHAL_CONFORM_RUNNER").unwrap_or_else(|_| BIN.to_owned());
    let testee = format!("'{BIN}' testee");
    for version in ["3.2", "3.6", "4.6"] {
        let output = command(&runner)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["conform", "--testee", &testee, "--godot", version])
            .output()
            .expect("the runner starts");
        assert!(
            output.status.success(),
            "conform --godot {version} failed:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
