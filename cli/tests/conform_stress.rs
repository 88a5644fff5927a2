//! The stress cases (corpus/stress.jsonl: arrays and dictionaries past 65,535 elements, a 1 MiB
//! string, a megabyte of bytes, recorded from the engines as recipes and hashes): this crate's
//! codec and the Python example pass them, and a testee that caps containers at 65,535
//! elements fails exactly the cases past that.

mod common;

use std::path::Path;
use std::process::Output;

use common::{BIN, Group, gdmarshal_command};

fn conform(testee: &str, version: &str, extra: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    Group::spawn(
        gdmarshal_command()
            .current_dir(root)
            .args(["conform", "--testee", testee, "--godot", version])
            .args(["--run", "*/stress/**", "--format", "json"])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output()
}

fn report(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn the_codec_and_the_python_example_pass_the_stress_cases() {
    let o = conform(&format!("{BIN} testee"), "4.6", &[]);
    let r = report(&o);
    assert!(o.status.success(), "{r:#}");
    assert_eq!(r["totals"]["accepted_equal"], 14, "{r:#}");

    // Another format version, and a testee in another language.
    let o = conform("python3 testees/python/gdmarshal_testee.py", "3.2", &[]);
    let r = report(&o);
    assert!(o.status.success(), "{r:#}");
    // PackedInt32Array is not declared by the example.
    assert_eq!(r["totals"]["accepted_equal"], 12, "{r:#}");
    assert_eq!(r["totals"]["unclaimed"], 2, "{r:#}");
}

#[test]
fn a_testee_that_caps_containers_at_65535_elements_fails_the_cases_past_it() {
    let o = conform(
        "python3 tests/testees/wrong.py cap-65535",
        "3.6",
        &[
            "--skip",
            "*/stress/String/*",
            "--skip",
            "*/stress/Packed*/*",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let r = report(&o);
    let mut failed: Vec<&str> = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["score"] == "wrong")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    failed.sort();
    assert_eq!(
        failed,
        [
            "decode/stress/Array/100000_nils",
            "decode/stress/Array/65536_ints",
            "decode/stress/Dictionary/65536_int_keys",
            "encode/stress/Array/100000_nils",
            "encode/stress/Array/65536_ints",
            "encode/stress/Dictionary/65536_int_keys",
        ],
        "{r:#}"
    );
    let cases = r["cases"].as_array().unwrap();
    let at_the_cap = cases
        .iter()
        .find(|c| c["name"] == "decode/stress/Array/65535_ints")
        .unwrap();
    assert_eq!(at_the_cap["score"], "accepted_equal", "{at_the_cap:#}");
    let message = cases
        .iter()
        .find(|c| c["name"] == "decode/stress/Array/65536_ints")
        .unwrap()["message"]
        .as_str()
        .unwrap();
    assert_eq!(
        message,
        "rejected input the engine accepts: more than 65,535 elements are not supported"
    );
}
