//! Every input path of decode, inspect, encode and check-vectors ends by itself on endless or
//! oversized input, in little memory, with one error line of bounded length that says what is
//! wrong and where. The endless inputs are `/dev/zero` and sparse files the tests make; runs are
//! under an address-space limit far below what keeping the input would take.
#![cfg(unix)]

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{Group, gdmarshal_command, limit_address_space};

const MIB: u64 = 1024 * 1024;

/// Address space for a run: far less than the gibibyte `--max-input` lets through by default.
const LIMIT: u64 = 192 * MIB;

/// The longest error line: `gdmarshal: ` and at most 1,024 bytes of message.
const MAX_LINE: usize = "gdmarshal: ".len() + 1024;

/// Runs `gdmarshal args` with `stdin` as its input under [`LIMIT`]: its exit code and stderr.
fn run(args: &[&str], stdin: &Path) -> (Option<i32>, String) {
    let mut cmd = gdmarshal_command();
    cmd.args(args)
        .stdin(Stdio::from(File::open(stdin).expect("input")))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    limit_address_space(&mut cmd, LIMIT);
    let out = Group::spawn(&mut cmd).wait_with_output();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    for line in stderr.lines() {
        assert!(
            line.len() <= MAX_LINE,
            "{} bytes: {}",
            line.len(),
            &line[..200]
        );
    }
    (out.status.code(), stderr)
}

/// A sparse file: `head`, then zeros to `len` bytes, none of them written.
fn sparse(dir: &Path, name: &str, head: &[u8], len: u64) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, head).expect("written");
    File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(len))
        .expect("extended");
    path
}

#[test]
fn endless_input_is_refused_at_the_cap_in_little_memory() {
    let zero = Path::new("/dev/zero");
    for command in ["decode", "inspect"] {
        // As a file and as stdin, read to the default cap of 1 GiB and no further.
        for args in [
            vec![command, "--godot", "4.6", "/dev/zero"],
            vec![command, "--godot", "4.6"],
        ] {
            let (code, stderr) = run(&args, zero);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains("longer than 1073741824 bytes, the --max-input limit: refused at byte 1073741824"),
                "{args:?}: {stderr}"
            );
        }
    }
    // Bytes refused whatever follows end the read there: an unknown type id before 2 GiB of
    // zeros, past the cap, is the error, not the length.
    let dir = tempfile::tempdir().expect("temp dir");
    let unknown = sparse(dir.path(), "unknown", &[200, 0, 0, 0], 2048 * MIB);
    let (code, stderr) = run(
        &["decode", "--godot", "4.6", unknown.to_str().unwrap()],
        zero,
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "gdmarshal: Godot 4.6 rejects this input: at byte 0: unknown type id 200"
    );
    // A smaller cap stops sooner, with its own figure.
    let (code, stderr) = run(&["decode", "--godot", "3.6", "--max-input", "3M"], zero);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("refused at byte 3145728"), "{stderr}");
}

#[test]
fn hex_input_stops_at_its_first_character_that_is_not_hex() {
    let zero = Path::new("/dev/zero");
    for command in ["decode", "inspect"] {
        let (code, stderr) = run(&[command, "--godot", "4.6", "--hex"], zero);
        assert_eq!(code, Some(1), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            "gdmarshal: stdin: hex input: character 0 ('\\0') is not a hex digit"
        );
    }
    // Far into a file: the offset is the character's, and nothing after it is read.
    let dir = tempfile::tempdir().expect("temp dir");
    let text = sparse(
        dir.path(),
        "bad.hex",
        b"1c000000 0100 0000 0000 00zz",
        512 * MIB,
    );
    let (code, stderr) = run(
        &["decode", "--godot", "4.6", "--hex", text.to_str().unwrap()],
        zero,
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.ends_with("hex input: character 26 ('z') is not a hex digit\n"),
        "{stderr}"
    );
}

#[test]
fn encode_reads_its_text_as_it_parses_and_stops_at_the_first_error() {
    let zero = Path::new("/dev/zero");
    let (code, stderr) = run(&["encode", "--godot", "4.6"], zero);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.starts_with("gdmarshal: stdin:1:1: invalid JSON"),
        "{stderr}"
    );
    // Text that could still become JSON (whitespace without end) is read to the cap.
    let dir = tempfile::tempdir().expect("temp dir");
    let spaces = dir.path().join("spaces.json");
    std::fs::write(&spaces, vec![b' '; 3 * MIB as usize]).expect("written");
    let (code, stderr) = run(&["encode", "--godot", "4.6", "--max-input", "1M"], &spaces);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("stdin: the input is longer than 1048576 bytes, the --max-input limit: refused at byte 1048576"),
        "{stderr}"
    );
}

#[test]
fn bytes_after_the_value_are_counted_not_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trailing = 512 * MIB;
    // A Nil, then half a gibibyte of zeros: keeping them would take far more than the limit.
    let nil = sparse(dir.path(), "nil", &[0, 0, 0, 0], 4 + trailing);
    let path = nil.to_str().unwrap();
    let (code, stderr) = run(&["decode", "--godot", "4.6", path], &nil);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "gdmarshal: note: {trailing} trailing bytes from byte 4 are ignored, as bytes_to_var ignores them"
        )
    );
    // inspect shows them in its last row, by count.
    let mut cmd = gdmarshal_command();
    cmd.args(["inspect", "--godot", "4.6", path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    limit_address_space(&mut cmd, LIMIT);
    let out = Group::spawn(&mut cmd).wait_with_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 … ({trailing} bytes) trailing bytes"
        )),
        "{stdout}"
    );
    // A frame: what follows it is counted the same way.
    let framed = sparse(
        dir.path(),
        "framed",
        &[8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0],
        12 + trailing,
    );
    let (code, stderr) = run(
        &[
            "decode",
            "--godot",
            "4.6",
            "--framing",
            "store-var",
            framed.to_str().unwrap(),
        ],
        &framed,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "gdmarshal: note: {trailing} bytes after the framed value (from byte 12) are not read"
        )
    );
}

#[test]
fn the_cap_is_exact() {
    let dir = tempfile::tempdir().expect("temp dir");
    // An Array of 22 Nils: 96 bytes.
    let mut bytes = vec![28, 0, 0, 0, 22, 0, 0, 0];
    bytes.resize(96, 0);
    let input = dir.path().join("nils");
    std::fs::write(&input, &bytes).expect("written");
    let (code, stderr) = run(&["decode", "--godot", "4.6", "--max-input", "96"], &input);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = run(&["decode", "--godot", "4.6", "--max-input", "95"], &input);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("refused at byte 95"), "{stderr}");
    // check-vectors reads its files under the same cap.
    let vectors = dir.path().join("godot-4.6.3.stable.txt");
    std::fs::write(&vectors, "nil 00000000\n".repeat(100)).expect("written");
    let out = common::gdmarshal(
        &[
            "check-vectors",
            "--max-input",
            "1K",
            vectors.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("refused at byte 1024"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An endless line is refused at the line cap, in little memory (beside the gibibyte of
    // stack every command but decode, encode and inspect reserves).
    let mut cmd = gdmarshal_command();
    cmd.args(["check-vectors", "/dev/zero"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    limit_address_space(&mut cmd, 1024 * MIB + LIMIT);
    let out = Group::spawn(&mut cmd).wait_with_output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gdmarshal: /dev/zero:1: the line is longer than 1048576 bytes\n"
    );
    for bad in ["0", "1.5G", "lots"] {
        let out = common::gdmarshal(&["decode", "--godot", "4.6", "--max-input", bad], b"");
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn error_lines_quote_at_most_a_bounded_length_of_the_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mega = "9".repeat(MIB as usize);
    let deep = format!(
        "{}{{\"type\":\"Nil\"}}{}",
        r#"{"type":"Array","value":["#.repeat(1_000_000),
        "]}".repeat(1_000_000)
    );
    for (name, text) in [
        ("literal", format!(r#"{{"type":"int","value":"{mega}"}}"#)),
        ("type", format!(r#"{{"type":"{mega}"}}"#)),
        ("member", format!(r#"{{"type":"Nil","{mega}":1}}"#)),
        ("deep", deep),
    ] {
        let input = dir.path().join(name);
        std::fs::write(&input, &text).expect("written");
        // `run` checks every line against the bound.
        let (code, stderr) = run(&["encode", "--godot", "4.6"], &input);
        assert_eq!(
            code,
            Some(1),
            "{name}: {}",
            &stderr[..stderr.len().min(300)]
        );
        assert_eq!(stderr.lines().count(), 1, "{name}");
        assert!(stderr.contains("bytes cut]"), "{name}: {stderr}");
    }
    // `gdmarshal testee` refusing an endless request line quotes its start, escaped, within the
    // same bound (it reserves the lab's stack: its limit is larger).
    let mut cmd = gdmarshal_command();
    cmd.arg("testee")
        .stdin(Stdio::from(File::open("/dev/zero").expect("/dev/zero")))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    limit_address_space(&mut cmd, 1024 * MIB + LIMIT);
    let out = Group::spawn(&mut cmd).wait_with_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.trim_end().len() <= MAX_LINE,
        "{} bytes",
        stderr.len()
    );
}
