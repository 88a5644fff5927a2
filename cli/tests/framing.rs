//! `gdmarshal decode/encode --framing`: the command line reads and writes the files and stream
//! bytes the engines themselves wrote (corpus/framing/), and refuses what their `get_var` refuses.

use std::path::Path;

use gdmarshal_lab::framing_corpus::{self, FramingRecord};

mod common;

use common::gdmarshal;

fn corpus() -> Vec<(String, Vec<FramingRecord>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/framing");
    framing_corpus::load(&dir).unwrap()
}

/// The `--framing` name for the bytes of a framing corpus API.
fn option(via: &str) -> &'static str {
    match via {
        "file" => "store-var",
        "stream" => "stream",
        "packet" | "tcp" => "packet-stream",
        "udp" => "none",
        other => panic!("no --framing name for the API {other:?}"),
    }
}

#[test]
fn engine_written_framed_values_decode_and_encode_back() {
    let mut n = 0;
    for (version, records) in corpus() {
        let godot = &version[..3];
        for r in records.iter().filter(|r| r.name.starts_with("write/")) {
            n += 1;
            let out = r.output.as_deref().unwrap();
            let framing = option(&r.via);
            let d = gdmarshal(
                &["decode", "--godot", godot, "--hex", "--framing", framing],
                out.as_bytes(),
            );
            assert!(
                d.status.success(),
                "{version} {}: {}",
                r.name,
                String::from_utf8_lossy(&d.stderr)
            );
            let value: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
            assert_eq!(Some(&value), r.value.as_ref(), "{version} {}", r.name);
            let e = gdmarshal(
                &["encode", "--godot", godot, "--hex", "--framing", framing],
                &d.stdout,
            );
            assert!(e.status.success(), "{version} {}", r.name);
            assert_eq!(
                String::from_utf8_lossy(&e.stdout).trim(),
                out,
                "{version} {}",
                r.name
            );
        }
    }
    assert!(n >= 30, "{n} write records");
}

#[test]
fn a_length_past_the_end_is_read_as_each_engine_reads_it() {
    for (version, records) in corpus() {
        let godot = &version[..3];
        for r in records
            .iter()
            .filter(|r| r.name.starts_with("read/") && r.name.ends_with("/length_past_end"))
        {
            let input = r.input.as_deref().unwrap();
            let d = gdmarshal(
                &[
                    "decode",
                    "--godot",
                    godot,
                    "--hex",
                    "--framing",
                    option(&r.via),
                ],
                input.as_bytes(),
            );
            // Exit 0 where the engine's get_var gave the value, 1 (bad input) where it failed.
            let expected = if r.read_ok() { 0 } else { 1 };
            assert_eq!(d.status.code(), Some(expected), "{version} {}", r.name);
        }
    }
}
