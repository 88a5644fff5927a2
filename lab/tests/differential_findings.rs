//! Differential fuzzing findings that were fixed: each file under `tests/differential/ENGINE/` is
//! a finding as `scripts/fuzz.sh differential` saved it (the fuzz input and the engine's recorded
//! answer), and the codec must now agree with that answer exactly as the corpus check judges it.
//! `GDMARSHAL_JUDGE_FINDINGS=fuzz/findings` judges another folder of the same layout instead (to
//! see which saved findings a codec change settles).

use std::path::Path;

use gdmarshal::Profile;
use gdmarshal_lab::corpus::Record;
use gdmarshal_lab::corpus::codec::{Outcome, ThisCodec, judge};

#[test]
fn fixed_findings_agree_with_the_engine() {
    let root = match std::env::var_os("GDMARSHAL_JUDGE_FINDINGS") {
        Some(dir) => Path::new(&dir).to_path_buf(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/differential"),
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for engine in std::fs::read_dir(&root).unwrap() {
        let engine = engine.unwrap().path();
        let profile: Profile = engine
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        for file in std::fs::read_dir(&engine).unwrap() {
            let file = file.unwrap().path();
            let finding: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let record: Record = serde_json::from_value(finding["engine_answer"].clone()).unwrap();
            match judge(&mut ThisCodec, &record, profile) {
                Outcome::Pass => {}
                other => failures.push(format!("{}: {other:?}", file.display())),
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no findings under {}", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
