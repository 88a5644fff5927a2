//! The committed corpus (corpus/, answers recorded from real engines): the codec answers every case
//! as the engine did, apart from the listed expected differences, and the list has no stale entry.
//! (`gdmarshal corpus check` also asks the live engines again; scripts/test.sh runs it.)

use gdmarshal_lab::ThisCodec;
use gdmarshal_lab::corpus::run::{Settled, run, stale_entries};
use gdmarshal_lab::corpus::{default_dir, known, load};

#[test]
fn codec_matches_every_engine_answer_in_the_corpus() {
    // Deep values (1024 levels) need more stack than a test thread has in debug builds.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let dir = default_dir();
            let corpora = load(&dir).unwrap();
            for version in ["3.2.", "3.6.", "4.6."] {
                let c = corpora
                    .iter()
                    .find(|c| c.entry.version.starts_with(version));
                let c = c.unwrap_or_else(|| panic!("no corpus for Godot {version}x"));
                assert!(
                    c.records.len() >= 1000,
                    "{}: {} cases",
                    c.entry.version,
                    c.records.len()
                );
                assert!(
                    c.entry.invalid * 10 >= c.records.len() * 3,
                    "{}: under 30% invalid",
                    c.entry.version
                );
            }
            let known = known::read(&dir.join("known-differences.txt")).unwrap();
            let results: Vec<_> = corpora
                .iter()
                .flat_map(|c| {
                    let mut codec = ThisCodec::new(c.profile);
                    run(&mut codec, c, &known, &|_, _| true, &mut || {})
                })
                .collect();
            let failures: Vec<String> = results
                .iter()
                .filter_map(|r| match &r.settled {
                    Settled::Fail(why) => Some(format!("{} {}: {why}", r.engine, r.name)),
                    Settled::UnexpectedPass(why) => Some(format!("{} {}: {why}", r.engine, r.name)),
                    _ => None,
                })
                .chain(
                    stale_entries(&known, &results)
                        .iter()
                        .map(|k| format!("stale entry {}", k.origin)),
                )
                .collect();
            assert!(
                failures.is_empty(),
                "{} failures:\n{}",
                failures.len(),
                failures.join("\n")
            );
            let passed = results
                .iter()
                .filter(|r| r.settled == Settled::Pass)
                .count();
            assert!(passed > 3500, "only {passed} cases passed");
        })
        .unwrap()
        .join()
        .unwrap();
}
