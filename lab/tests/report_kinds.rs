//! Every saved reproducer and every corpus record the report lists as a defect has a known cause,
//! so the report's counts of engine defects, version differences, oracle artefacts and codec
//! differences hold no unexplained row.

use std::path::Path;

use gdmarshal_lab::campaign::causes::{Cause, Kind};
use gdmarshal_lab::campaign::load_findings;
use gdmarshal_lab::report::kinds;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn every_open_reproducer_has_a_known_cause() {
    let findings = load_findings(&repo().join("findings"));
    assert!(!findings.is_empty());
    for (path, f) in &findings {
        let cause = kinds::finding(f);
        assert!(
            !matches!(cause, Cause::Unexplained(_)),
            "{}: no known cause",
            path.display()
        );
    }
}

#[test]
fn every_corpus_defect_record_has_a_known_cause() {
    let corpora = gdmarshal_lab::corpus::load(&repo().join("corpus")).unwrap();
    let mut n = 0;
    for c in &corpora {
        for r in c.records.iter().filter(|r| {
            !r.nondeterministic.is_empty() || r.verdict == gdmarshal_lab::model::Verdict::Crashed
        }) {
            n += 1;
            let cause = kinds::corpus_record(r);
            assert!(
                !matches!(cause, Cause::Unexplained(_)),
                "{} {}: no known cause",
                c.entry.version,
                r.name
            );
            assert_ne!(cause.kind(), Kind::CodecDifference);
        }
    }
    assert!(n > 0);
}
