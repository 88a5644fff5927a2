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

/// The 3.x engines' loose UTF-8 (surrogates, CESU-8 pairs, units past U+10FFFF, 5- and 6-byte
/// forms, overlongs), held out from the expected differences: for each case on 3.2.3 and 3.6.2
/// the codec accepts exactly what the engine accepts, its value is the engine's tree and its
/// re-encoding is the engine's bytes. Judged with no known-difference list, so none can hide one.
#[test]
fn loose_3x_strings_match_the_engines_with_nothing_excused() {
    let dir = default_dir();
    let corpora = load(&dir).unwrap();
    let held_out = |name: &str| {
        let rest = name
            .strip_prefix("decode/string_bytes/")
            .or_else(|| name.strip_prefix("encode/String/"))
            .or_else(|| name.strip_prefix("decode/valid/String/"));
        rest.is_some_and(|r| {
            [
                "surrogate",
                "five_byte",
                "six_byte",
                "beyond_10ffff",
                "overlong",
                "units_",
                "in_",
            ]
            .iter()
            .any(|k| r.starts_with(k))
        })
    };
    for version in ["3.2.", "3.6."] {
        let c = corpora
            .iter()
            .find(|c| c.entry.version.starts_with(version))
            .unwrap();
        let mut codec = ThisCodec::new(c.profile);
        let results = run(&mut codec, c, &[], &|_, name| held_out(name), &mut || {});
        let accepted = c
            .records
            .iter()
            .filter(|r| held_out(&r.name) && r.verdict == gdmarshal_lab::model::Verdict::Accepted)
            .count();
        // 9 encodings of code units, and the accepted string_bytes cases (each form once).
        assert!(accepted >= 30, "{version}: only {accepted} accepted cases");
        assert!(
            results.len() >= 60,
            "{version}: only {} cases",
            results.len()
        );
        for r in &results {
            assert_eq!(r.settled, Settled::Pass, "{} {}", r.engine, r.name);
        }
    }
}
