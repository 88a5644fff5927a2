//! A corpus whose answers are mostly skips is refused, not passed: `corpus check` and `conform`
//! say "ok" only when there were answers to compare with.

use std::path::Path;

use gdmarshal_lab::corpus;
use gdmarshal_lab::model::Verdict;

mod common;

use common::BIN;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// A copy of the committed corpus in which one engine's first `share` of cases became
/// `unsupported`, saved with a consistent manifest (counts and hashes match).
fn mostly_skipped(dir: &Path, share: f64) {
    // The files only: corpus/framing/ is a corpus of its own.
    for f in std::fs::read_dir(repo().join("corpus")).unwrap().flatten() {
        if f.path().is_file() {
            std::fs::copy(f.path(), dir.join(f.file_name())).unwrap();
        }
    }
    let mut corpora = corpus::load(dir).unwrap();
    let c = corpora
        .iter_mut()
        .find(|c| c.entry.version.starts_with("4.6"))
        .unwrap();
    let n = (c.records.len() as f64 * share) as usize;
    for r in &mut c.records[..n] {
        r.verdict = Verdict::Unsupported;
        (r.consumed, r.tree, r.output) = (None, None, None);
    }
    corpus::save(dir, &c.entry.version, c.profile, &c.records).unwrap();
}

fn run(args: &[&str]) -> (i32, String, String) {
    common::gdmarshal_in(repo(), args)
}

#[test]
fn a_corpus_of_skips_fails_corpus_check_and_conform() {
    let tmp = tempfile::tempdir().unwrap();
    mostly_skipped(tmp.path(), 0.85);
    let dir = tmp.path().to_str().unwrap();
    assert!(
        corpus::load(tmp.path()).is_ok(),
        "the damaged corpus is consistent"
    );

    let (code, out, err) = run(&["corpus", "check", "--no-engines", "--corpus", dir]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("godot-4.6.3.stable.jsonl") && err.contains("hold no answer to compare with"),
        "{err}"
    );

    let testee = format!("{BIN} testee");
    let (code, out, err) = run(&[
        "conform", "--testee", &testee, "--godot", "4.6", "--corpus", dir,
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("hold no answer to compare with"), "{err}");
}

#[test]
fn the_committed_corpus_has_enough_answers() {
    for c in corpus::load(&repo().join("corpus")).unwrap() {
        c.enough_answers().unwrap();
    }
}
