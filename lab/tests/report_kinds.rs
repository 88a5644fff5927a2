//! Every saved reproducer and every corpus record the report lists as a defect has a known cause,
//! so the report's counts of engine defects, version differences, oracle artefacts and codec
//! differences hold no unexplained row.

use std::collections::BTreeSet;
use std::path::Path;

use gdmarshal_lab::campaign::Class;
use gdmarshal_lab::campaign::load_findings;
use gdmarshal_lab::campaign::report::kinds::{self, Cause, Kind};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn every_open_reproducer_has_a_known_cause() {
    let findings = load_findings(&repo().join("findings"));
    assert!(!findings.is_empty());
    let mut causes_32 = BTreeSet::new();
    for (path, f) in &findings {
        let cause = kinds::finding(f);
        assert!(
            !matches!(cause, Cause::Unexplained(_)),
            "{}: no known cause",
            path.display()
        );
        if f.class == Class::CodecDiffers && f.engine == "3.2" {
            causes_32.insert(cause);
        }
    }
    // The 3.2 codec-differs reproducers are of two causes, neither a codec difference.
    assert_eq!(
        causes_32,
        BTreeSet::from([Cause::F32ThroughF64, Cause::DeletedObjectKey])
    );
}

#[test]
fn every_corpus_defect_record_has_a_known_cause() {
    let corpora = gdmarshal_lab::corpus::load(&repo().join("corpus")).unwrap();
    let mut n = 0;
    for c in &corpora {
        for r in c.records.iter().filter(|r| {
            !r.nondeterministic.is_empty() || r.verdict == gdmarshal_lab::corpus::Verdict::Crashed
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
