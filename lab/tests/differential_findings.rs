//! Reproducers replayed without an engine, on every `cargo test`: each file holds the engine's
//! recorded answer, and the codec is judged against it exactly as the corpus check judges.
//!
//! - `tests/differential/<class>/`: codec differences found against a live engine (by the
//!   differential fuzz target or a campaign) and fixed. The codec must now agree.
//! - `findings/codec-differs/`: open codec differences. The codec must still differ, and in the
//!   same words (the kind `gdmarshal diff --fail-on` takes as open); a file that now agrees is
//!   fixed and belongs in `tests/differential/` (so the list never hides a fix).
//!
//! `GDMARSHAL_JUDGE_FINDINGS=DIR` judges another folder of the same layout as fixed findings (to
//! see which saved findings a codec change settles).

use std::path::{Path, PathBuf};

use gdmarshal::Profile;
use gdmarshal_lab::campaign::{Class, load_findings};
use gdmarshal_lab::corpus::run::judge_records;
use gdmarshal_lab::model::Record;
use gdmarshal_lab::{Outcome, ThisCodec};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The codec's answer to the record's case, judged against the record.
fn judge(record: &Record, profile: Profile) -> Outcome {
    let mut codec = ThisCodec::new(profile);
    let mut judged = judge_records(&mut codec, &[record], profile, &mut || {});
    judged.pop().expect("one outcome per record").0
}

fn judged(dir: &Path) -> Vec<(PathBuf, Outcome)> {
    load_findings(dir)
        .into_iter()
        .map(|(path, f)| {
            let profile: Profile = f.profile.parse().unwrap();
            f.case().expect("the finding rebuilds its case");
            let outcome = judge(&f.engine_answer, profile);
            (path, outcome)
        })
        .collect()
}

#[test]
fn fixed_findings_agree_with_the_engine() {
    let root = match std::env::var_os("GDMARSHAL_JUDGE_FINDINGS") {
        Some(dir) => PathBuf::from(dir),
        None => repo().join("tests/differential"),
    };
    let all = judged(&root);
    assert!(!all.is_empty(), "no findings under {}", root.display());
    let failures: Vec<String> = all
        .iter()
        .filter(|(_, o)| *o != Outcome::Pass)
        .map(|(p, o)| format!("{}: {o:?}", p.display()))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn open_codec_differences_still_differ() {
    let dir = repo().join("findings");
    let open: Vec<_> = load_findings(&dir)
        .into_iter()
        .filter(|(_, f)| f.class == Class::CodecDiffers)
        .collect();
    for (path, f) in open {
        let profile: Profile = f.profile.parse().unwrap();
        let outcome = judge(&f.engine_answer, profile);
        let Outcome::Fail(m) = outcome else {
            panic!(
                "{} now agrees with the engine: move it to tests/differential/codec-differs/",
                path.display()
            )
        };
        // The same way as when it was saved: its kind (`campaign::signature`, from this text) is
        // what `gdmarshal diff --fail-on codec-differs` takes as known and open.
        assert_eq!(
            m.to_string(),
            f.detail,
            "{} differs otherwise now: replay it (`gdmarshal diff --replay`) and save it again",
            path.display()
        );
    }
}

#[test]
fn every_saved_reproducer_reads_back_and_names_its_replay() {
    for dir in [repo().join("findings"), repo().join("tests/differential")] {
        for (path, f) in load_findings(&dir) {
            f.case()
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                f.replay.starts_with("gdmarshal diff --replay ")
                    || f.replay.starts_with("gdmarshal diff --engine "),
                "{}: {}",
                path.display(),
                f.replay
            );
        }
    }
}
