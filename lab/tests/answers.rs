//! A corpus record is a case and an engine's answer written down: every committed record reads
//! back as a case and an answer that write the very same record, so a testee is asked the value
//! exactly as recorded and the judge sees the engine's answer exactly as recorded.

use gdmarshal_lab::Answer;
use gdmarshal_lab::corpus::{default_dir, load};
use gdmarshal_lab::model::Record;

#[test]
fn every_committed_record_reads_back_as_its_case_and_answer() {
    // Deep values (1024 levels) need more stack than a test thread has in debug builds.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let mut incidents = 0;
            for c in load(&default_dir()).unwrap() {
                for r in &c.records {
                    let case = r
                        .case(c.profile)
                        .unwrap_or_else(|e| panic!("{}: {e}", r.name));
                    let answer = r.answer();
                    if let Answer::Crashed(i) | Answer::Hung(i) = &answer {
                        // A recorded incident keeps the engine's words only.
                        assert_eq!(i.status, r.error, "{}", r.name);
                        incidents += 1;
                        continue;
                    }
                    let again = Record::of(&case, &answer, c.profile)
                        .unwrap_or_else(|e| panic!("{}: {e}", r.name));
                    // Writing trims the engine's words again: a text that was cut at its length
                    // limit just after white space loses that white space.
                    let steady = Record {
                        nondeterministic: Vec::new(),
                        error: r.error.trim().to_string(),
                        ..r.clone()
                    };
                    assert_eq!(again, steady, "{}", r.name);
                }
            }
            assert_eq!(incidents, 1, "the committed corpora hold one crash");
        })
        .unwrap()
        .join()
        .unwrap();
}
