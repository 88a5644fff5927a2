//! Vectors written by real engines (tests/vectors/godot-VERSION.txt, made by
//! scripts/make-vectors.sh): each decodes, and re-encodes to the engine's exact bytes, directly, via
//! tagged JSON, and through the `gdmarshal decode | gdmarshal encode` command line.

use std::path::Path;

use gdmarshal::float::FloatStyle;
use gdmarshal::hex::hex;
use gdmarshal::json::{from_json, to_json};
use gdmarshal::{DecodeOptions, decode};
use gdmarshal_vectors::{VectorFile, check, read};

fn files() -> Vec<VectorFile> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let files: Vec<VectorFile> = std::fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .map(|e| read(&e.unwrap().path()).unwrap())
        .collect();
    let engines: Vec<&str> = files.iter().map(|f| f.engine.as_str()).collect();
    for wanted in ["3.2.", "3.6.", "4.6."] {
        assert!(
            engines.iter().any(|e| e.starts_with(wanted)),
            "no vectors from Godot {wanted}x in {}",
            dir.display()
        );
    }
    files
}

#[test]
fn every_engine_vector_decodes_and_reencodes_exactly() {
    let mut failures = Vec::new();
    for f in files() {
        for v in &f.vectors {
            if let Err(e) = check(v, f.profile) {
                failures.push(format!("{} {}: {e}", v.origin, v.name));
                continue;
            }
            let d = decode(
                &v.bytes,
                f.profile,
                DecodeOptions::new().allow_objects(v.full_objects),
            )
            .unwrap();
            for style in [FloatStyle::Shortest, FloatStyle::Bits] {
                let j = to_json(&d.value, f.profile, style);
                match from_json(&j, f.profile) {
                    Ok(back) if back == d.value => {}
                    other => failures.push(format!(
                        "{} {}: JSON {j} read back as {other:?}",
                        v.origin, v.name
                    )),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

mod common;

fn run(args: &[&str], input: &[u8]) -> (bool, Vec<u8>, String) {
    let out = common::gdmarshal(args, input);
    (
        out.status.success(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_decode_then_encode_reproduces_every_engine_vector() {
    let mut failures = Vec::new();
    for (f, v) in files()
        .iter()
        .flat_map(|f| f.vectors.iter().map(move |v| (f, v)))
    {
        let version = f.profile.to_string();
        let mut dec = vec!["decode", "--godot", &version, "--hex"];
        let mut enc = vec!["encode", "--godot", &version, "--hex"];
        if v.full_objects {
            dec.push("--objects");
            enc.push("--objects");
        }
        let input = hex(&v.bytes);
        let (ok, json, err) = run(&dec, input.as_bytes());
        if !ok {
            failures.push(format!("{} {}: decode failed: {err}", v.origin, v.name));
            continue;
        }
        let (ok, out, err) = run(&enc, &json);
        let out = String::from_utf8_lossy(&out);
        if !ok || out.trim() != input {
            failures.push(format!(
                "{} {}: {input} -> {} -> {out} {err}",
                v.origin,
                v.name,
                String::from_utf8_lossy(&json)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
