//! Memory follows the data: `gdmarshal decode` and `encode` run under an address-space limit of 4×
//! the larger of their input and output plus 64 MiB (the target of docs/benchmarks.md, "Memory"),
//! on inputs of tens of megabytes. The address space bounds the resident set too, and more
//! strictly: memory reserved counts whether or not it is touched. (The peak resident set size
//! that wait4 reports would not do: it includes the test harness's own, copied into the child
//! before exec.) Bad input far into a big file fails with one line naming the byte offset or JSON
//! path, within the same limits; JSON nested a million levels is refused in under 100 MiB.
#![cfg(unix)]

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{Group, gdmarshal_command, limit_address_space};

use gdmarshal::float::FloatStyle;
use gdmarshal::value::Array;
use gdmarshal::{EncodeOptions, Profile, Variant};

const MIB: u64 = 1024 * 1024;

/// How a run ended.
struct Run {
    /// The exit code, `None` when a signal ended it.
    code: Option<i32>,
    /// Where its stdout went.
    stdout: PathBuf,
    /// Its stderr.
    stderr: String,
}

/// The bound on a run's memory: 4× the larger of input and output plus 64 MiB.
fn bound(input: u64, output: u64) -> u64 {
    4 * input.max(output) + 64 * MIB
}

fn len(path: &Path) -> u64 {
    std::fs::metadata(path).expect("file exists").len()
}

/// Runs `gdmarshal args` with `stdin` as its input, under an address-space limit of `limit` bytes.
fn run(dir: &Path, name: &str, args: &[&str], stdin: &Path, limit: u64) -> Run {
    let stdout = dir.join(format!("{name}.out"));
    let stderr = dir.join(format!("{name}.err"));
    let mut cmd = gdmarshal_command();
    cmd.args(args)
        .stdin(Stdio::from(File::open(stdin).expect("input")))
        .stdout(Stdio::from(File::create(&stdout).expect("stdout file")))
        .stderr(Stdio::from(File::create(&stderr).expect("stderr file")));
    limit_address_space(&mut cmd, limit);
    let status = Group::spawn(&mut cmd).wait_with_output().status.code();
    Run {
        code: status,
        stdout,
        stderr: std::fs::read_to_string(stderr).expect("stderr"),
    }
}

/// Asserts that a run succeeded (within its limit: past it, an allocation fails and it aborts).
fn succeeded(r: &Run, what: &str) {
    assert_eq!(r.code, Some(0), "{what}: {}", r.stderr);
}

/// Asserts that a run failed with exit code 1 and one error line; returns the line.
fn failed(r: &Run, what: &str) -> String {
    let head = &r.stderr[..r.stderr.len().min(300)];
    assert_eq!(r.code, Some(1), "{what}: {head}");
    assert_eq!(r.stderr.lines().count(), 1, "{what}: one line: {head}");
    r.stderr.trim_end().to_string()
}

fn godot46() -> Profile {
    "4.6".parse().expect("a version")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("input written");
    path
}

/// An Array of `n` Nil as Godot 4.6 writes it.
fn nils(n: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(8 + 4 * n);
    b.extend_from_slice(&28u32.to_le_bytes());
    b.extend_from_slice(&(n as u32).to_le_bytes());
    b.resize(8 + 4 * n, 0);
    b
}

/// Decodes the wire form of `value` to JSON and encodes the JSON back, each under the bound of
/// its input and output; both outputs must be exact. Returns the JSON.
fn round_trip(dir: &Path, name: &str, value: &Variant) -> Vec<u8> {
    let profile = godot46();
    let bytes = gdmarshal::encode(value, profile, EncodeOptions::default()).expect("encodes");
    let mut json = Vec::new();
    gdmarshal::json::write_json(&mut json, value, FloatStyle::Shortest, false).expect("JSON");
    json.push(b'\n');
    let wire = write(dir, &format!("{name}.bin"), &bytes);
    let limit = bound(bytes.len() as u64, json.len() as u64);
    let decoded = run(dir, name, &["decode", "--godot", "4.6"], &wire, limit);
    succeeded(&decoded, &format!("{name}: decode"));
    let out = std::fs::read(&decoded.stdout).expect("output");
    assert!(out == json, "{name}: decode wrote other JSON");
    let encoded = run(
        dir,
        &format!("{name}.back"),
        &["encode", "--godot", "4.6"],
        &decoded.stdout,
        limit,
    );
    succeeded(&encoded, &format!("{name}: encode"));
    let back = std::fs::read(&encoded.stdout).expect("output");
    assert!(back == bytes, "{name}: encode wrote other bytes");
    json
}

#[test]
fn a_million_nils_decode_and_encode_within_the_bound() {
    // Before streaming, this decode took 562 MB (a serde_json tree of ~560 bytes per element).
    let dir = tempfile::tempdir().expect("temporary folder");
    let value = Variant::Array(Array::new(vec![Variant::Nil; 1 << 20]));
    let json = round_trip(dir.path(), "nils", &value);
    assert!(json.starts_with(br#"{"type":"Array","value":[{"type":"Nil"},{"type":"Nil"}"#));
    assert_eq!(json.len(), 25 + 15 * (1 << 20) + 2);
}

#[test]
fn deep_chains_near_the_limit_decode_and_encode_within_the_bound() {
    // 500 chains of 1000 nested one-element Arrays (the engines stop at 1024): 4 MB on the wire.
    let chain = || (0..1000).fold(Variant::Nil, |v, _| Variant::Array(Array::new(vec![v])));
    let value = Variant::Array(Array::new((0..500).map(|_| chain()).collect()));
    let dir = tempfile::tempdir().expect("temporary folder");
    round_trip(dir.path(), "deep", &value);
}

#[test]
fn hex_both_ways_within_the_bound() {
    // A 16 MiB PackedByteArray as 32 MiB of hex. Before, hex input took 16 bytes per digit.
    let n = 16 << 20;
    let mut wire = Vec::with_capacity(8 + n);
    wire.extend_from_slice(&29u32.to_le_bytes());
    wire.extend_from_slice(&(n as u32).to_le_bytes());
    wire.extend((0..n).map(|i| (i % 251) as u8));
    let text = format!("{}\n", gdmarshal::hex::Hex(&wire));
    drop(wire);
    let dir = tempfile::tempdir().expect("temporary folder");
    let hex = write(dir.path(), "bytes.hex", text.as_bytes());
    drop(text);
    let limit = bound(len(&hex), len(&hex) + 64);
    let decoded = run(
        dir.path(),
        "bytes",
        &["decode", "--godot", "4.6", "--hex"],
        &hex,
        limit,
    );
    succeeded(&decoded, "decode --hex");
    let encoded = run(
        dir.path(),
        "bytes.back",
        &["encode", "--godot", "4.6", "--hex"],
        &decoded.stdout,
        limit,
    );
    succeeded(&encoded, "encode --hex");
    let same = std::fs::read(&hex).expect("hex") == std::fs::read(&encoded.stdout).expect("back");
    assert!(
        same,
        "encode --hex of the decoded JSON differs from the input"
    );
}

#[test]
fn json_nested_a_million_levels_is_refused_with_its_path_in_under_100_mib() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let deep = 1_000_000;
    let limit = 100 * MIB;
    let nodes = r#"{"type":"Array","value":["#.repeat(deep);
    let bare = format!(r#"{{"type":"Array","value":{}"#, "[".repeat(deep));
    let early = r#"{"value":"#.repeat(deep);
    // The Nil inside 1024 Arrays is as deep as the engines go; one more is refused where it
    // starts. The line shows so long a path by its ends (`gdmarshal::excerpt`).
    let too_deep = format!("${}", ".value[0]".repeat(1025));
    for (name, text, path) in [
        ("nodes", nodes, too_deep.as_str()),
        ("bare", bare, "$.value[0]"),
        ("early", early, "$.value.value.value"),
    ] {
        let input = write(dir.path(), name, text.as_bytes());
        let r = run(
            dir.path(),
            name,
            &["encode", "--godot", "4.6"],
            &input,
            limit,
        );
        let line = failed(&r, name);
        let (_, error) = line.split_once(": at ").expect("a JSON path");
        let shown = gdmarshal::excerpt::cut(path, gdmarshal::excerpt::MAX_QUOTE);
        assert!(
            error.starts_with(&*shown),
            "{name}: {}",
            &line[..line.len().min(200)]
        );
        assert!(len(&r.stdout) == 0, "{name}: no output");
    }
}

#[test]
fn bad_input_far_into_big_files_names_where() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let n = 1 << 20;
    let wire = nils(n);

    // Hex: the offending character's offset in the text.
    let mut text = gdmarshal::hex::hex(&wire).into_bytes();
    text[7_000_001] = b'g';
    let hex = write(dir.path(), "bad.hex", &text);
    let limit = bound(len(&hex), 0);
    let r = run(
        dir.path(),
        "hex",
        &["decode", "--godot", "4.6", "--hex"],
        &hex,
        limit,
    );
    let line = failed(&r, "hex");
    assert!(
        line.contains("character 7000001 ('g') is not a hex digit"),
        "{line}"
    );

    // Bytes: the offset where the input ends early.
    let cut = write(dir.path(), "cut.bin", &wire[..wire.len() - 2]);
    let limit = bound(len(&cut), 0);
    let r = run(
        dir.path(),
        "cut",
        &["decode", "--godot", "4.6"],
        &cut,
        limit,
    );
    let line = failed(&r, "cut");
    assert!(
        line.contains(&format!("at byte {}", wire.len() - 4)),
        "{line}"
    );

    // JSON: the path of the bad node, and its line and column.
    let good = format!("{{\"type\":\"Array\",\"value\":[{}]}}", {
        let mut s = r#"{"type":"Nil"},"#.repeat(n);
        s.pop();
        s
    });
    let at = 700_000;
    let start = r#"{"type":"Array","value":["#.len() + at * r#"{"type":"Nil"},"#.len();
    let mut bad = good.clone();
    bad.insert_str(start + r#"{"type":"Nil""#.len(), r#","type":"Nil""#);
    let dup = write(dir.path(), "dup.json", bad.as_bytes());
    let limit = bound(len(&dup), 4 * n as u64);
    let r = run(
        dir.path(),
        "dup",
        &["encode", "--godot", "4.6"],
        &dup,
        limit,
    );
    let line = failed(&r, "dup");
    assert!(
        line.contains(&format!("at $.value[{at}].type: duplicate member \"type\"")),
        "{line}"
    );
    assert!(line.contains(":1:"), "{line}");

    let truncated = write(dir.path(), "cut.json", &good.as_bytes()[..start + 3]);
    let r = run(
        dir.path(),
        "cut-json",
        &["encode", "--godot", "4.6"],
        &truncated,
        limit,
    );
    let line = failed(&r, "cut-json");
    assert!(
        line.contains(&format!("invalid JSON in $.value[{at}]: EOF")),
        "{line}"
    );
}
