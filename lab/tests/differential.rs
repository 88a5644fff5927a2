//! Differential tests against the live engines: every corpus case (every type with edge values,
//! invalid and odd inputs, both directions) is asked of each installed engine, twice, and the codec
//! must answer as the engine did — byte for byte and tree for tree — apart from the listed expected
//! differences. Cases whose answer changes between runs are named as nondeterministic, and an
//! engine that refuses its own output is named too. On CI a missing engine fails the test.

use gdmarshal::hex::unhex;
use gdmarshal_lab::corpus::generate::generate;
use gdmarshal_lab::corpus::run::{Settled, run};
use gdmarshal_lab::corpus::{EngineCorpus, ManifestEntry, all_cases, default_dir, known};
use gdmarshal_lab::model::Verdict;
use gdmarshal_lab::oracle::{DecodeRequest, EngineVerdict, start_all};
use gdmarshal_lab::{Direction, ThisCodec};

#[test]
fn codec_agrees_with_every_live_engine_on_every_case() {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(check_all_engines)
        .unwrap()
        .join()
        .unwrap();
}

fn check_all_engines() {
    let specs = gdmarshal_testkit::engines::ci();
    let known = known::read(&default_dir().join("known-differences.txt")).unwrap();
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    for (spec, engine) in start_all(specs, &Default::default()) {
        let mut engine =
            engine.unwrap_or_else(|e| panic!("engine {} does not start: {e}", spec.name));
        let info = engine.info().clone();
        let cases = all_cases(info.profile);
        let records = generate(&mut engine, &cases, &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", info.version));
        for r in records.iter().filter(|r| !r.nondeterministic.is_empty()) {
            notes.push(format!(
                "{} {}: nondeterministic {:?}",
                info.version, r.name, r.nondeterministic
            ));
        }
        // Settled exactly as `gdmarshal corpus check` settles the committed records.
        let entry = ManifestEntry::for_records(&info.version, info.profile, "", &records);
        let fresh = EngineCorpus {
            entry,
            profile: info.profile,
            records: records.clone(),
        };
        let mut codec = ThisCodec::new(info.profile);
        for r in run(&mut codec, &fresh, &known, &|_, _| true, &mut || {}) {
            let why = match &r.settled {
                Settled::Fail(m) => m.to_string(),
                Settled::UnexpectedPass(entry) => entry.clone(),
                _ => continue,
            };
            failures.push(format!("{} {}: {why}", r.engine, r.name));
        }
        // The engine must accept every re-encoding it wrote itself.
        let own: Vec<(String, Vec<u8>, bool)> = records
            .iter()
            .filter(|r| r.direction == Direction::Decode && r.verdict == Verdict::Accepted)
            .filter_map(|r| Some((r.name.clone(), unhex(r.output.as_deref()?).ok()?, r.objects)))
            .collect();
        let requests: Vec<DecodeRequest> = own
            .iter()
            .map(|(_, b, o)| DecodeRequest {
                bytes: b,
                allow_objects: *o,
            })
            .collect();
        for ((name, bytes, _), answer) in own.iter().zip(engine.decode_batch(&requests)) {
            if answer.verdict != EngineVerdict::Accepted {
                notes.push(format!(
                    "{} {name}: the engine rejects its own output {}",
                    info.version,
                    gdmarshal::hex::hex(bytes)
                ));
            }
        }
        assert!(
            records.len() >= 1000,
            "{}: only {} cases",
            info.version,
            records.len()
        );
    }
    notes.iter().for_each(|n| eprintln!("note: {n}"));
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
