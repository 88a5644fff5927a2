//! The command line's contract: exit codes (0 ok; 1 the answer is no: differences found or input
//! rejected; 2 could not run: usage, unreadable files) and error lines that say what is wrong and
//! where (byte offset, JSON path, file and line).

mod common;

fn gdmarshal(args: &[&str], input: &str) -> (i32, String, String) {
    let out = common::gdmarshal(args, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn decode_prints_tagged_json() {
    // var_to_bytes([1, "hi"]) in Godot 4.6 (the Array/mixed vectors in tests/vectors show the layout).
    let (code, out, _) = gdmarshal(
        &["decode", "--godot", "4.6", "--hex"],
        "1c000000 02000000 02000000 01000000 04000000 02000000 68690000",
    );
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        r#"{"type":"Array","value":[{"type":"int","value":"1"},{"type":"String","value":"hi"}]}"#
    );
}

#[test]
fn exit_codes_mean_one_thing_and_every_help_says_them() {
    // Rejected input is an answer (1); a file that cannot be read or a bad flag is not (2).
    let (code, _, _) = gdmarshal(&["decode", "--godot", "4.6", "--hex"], "04000000");
    assert_eq!(code, 1);
    let (code, _, err) = gdmarshal(
        &["encode", "--godot", "4.6"],
        r#"{"type":"int","value":"x"}"#,
    );
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = gdmarshal(&["decode", "--godot", "4.6", "/nonexistent/input"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = gdmarshal(&["decode", "--godot", "4.6", "--no-such-flag"], "");
    assert_eq!(code, 2, "{err}");
    for command in [
        &["--help"][..],
        &["decode", "--help"],
        &["conform", "--help"],
        &["diff", "--help"],
        &["corpus", "--help"],
    ] {
        let (code, out, _) = gdmarshal(command, "");
        assert_eq!(code, 0);
        assert!(
            out.contains("Exit status: 0 ok; 1 the answer is no")
                && out.contains("2 could not run"),
            "{command:?}: {out}"
        );
    }
}

#[test]
fn truncated_input_names_the_offset() {
    let (code, out, err) = gdmarshal(
        &["decode", "--godot", "4.6", "--hex"],
        "04000000 05000000 6869",
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("at byte 4") && err.contains("string length 5"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one error line: {err}");
}

#[test]
fn trailing_bytes_are_noted_not_rejected() {
    let (code, out, err) = gdmarshal(
        &["decode", "--godot", "3.2", "--hex"],
        "02000000 07000000 ff",
    );
    assert_eq!(code, 0);
    assert!(out.contains(r#""value":"7""#));
    assert!(err.contains("1 trailing bytes from byte 8"), "{err}");
}

#[test]
fn bad_hex_names_the_character() {
    let (code, _, err) = gdmarshal(&["decode", "--godot", "4", "--hex"], "02 00 0g 00");
    assert_eq!(code, 1);
    assert!(err.contains("character 7"), "{err}");
}

#[test]
fn invalid_json_names_line_and_column() {
    let (code, _, err) = gdmarshal(
        &["encode", "--godot", "4.6", "--hex"],
        "{\"type\":\n  \"int\",,}",
    );
    assert_eq!(code, 1);
    assert!(err.contains("stdin:2:"), "{err}");
}

#[test]
fn bad_node_names_the_json_path() {
    let input =
        r#"{"type":"Array","value":[{"type":"int","value":"1"},{"type":"Vector2","value":["1"]}]}"#;
    let (code, _, err) = gdmarshal(&["encode", "--godot", "4.6", "--hex"], input);
    assert_eq!(code, 1);
    assert!(
        err.contains("$.value[1].value") && err.contains("Vector2 has 2 components"),
        "{err}"
    );
}

#[test]
fn a_type_the_version_lacks_names_the_value_path() {
    let input = r#"{"type":"Array","value":[{"type":"Vector2i","value":[1,2]}]}"#;
    let (code, _, err) = gdmarshal(&["encode", "--godot", "3.6", "--hex"], input);
    assert_eq!(code, 1);
    assert!(
        err.contains("$[0]") && err.contains("Godot 3.6 has no type Vector2i"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(gdmarshal(&["decode", "--godot", "5.0"], "").0, 2);
    assert_eq!(gdmarshal(&["decode"], "").0, 2);
    assert_eq!(gdmarshal(&["frobnicate"], "").0, 2);
}

#[test]
fn a_bad_seed_range_is_a_usage_error() {
    // Refused while the command line is read, before any engine starts.
    for (range, says) in [
        ("5..1", "is empty"),
        ("a..b", "is not a seed"),
        ("1..", "is not a seed"),
        ("7", "is not a range of seeds"),
    ] {
        let (code, _, err) = gdmarshal(&["diff", "--seeds", range], "");
        assert_eq!(code, 2, "{range}: {err}");
        assert!(err.contains(says), "{range}: {err}");
    }
    let (code, _, err) = gdmarshal(&["diff", "--seed", "3", "--seeds", "1..2"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = gdmarshal(&["diff", "--fail-on", "codec-differ"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("codec-differs"), "{err}");
}

#[test]
fn encode_writes_the_bytes() {
    let (code, out, _) = gdmarshal(
        &["encode", "--godot", "4.6", "--hex"],
        r#"{"type":"float","value":"0.1"}"#,
    );
    assert_eq!(code, 0);
    // 0.1 does not survive f32, so it takes 64 bits (Godot's rule; tests/vectors/godot-4.6.3.stable.txt float/tenth).
    assert_eq!(out.trim(), "030001009a9999999999b93f");
}

#[test]
fn inspect_annotates_every_field_and_fails_on_bad_input() {
    let (code, out, _) = gdmarshal(
        &["inspect", "--godot", "4.6", "--hex"],
        "1c000000 01000000 02000000 07000000",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("Array (id 28)")
            && out.contains("element count")
            && out.contains("[0]")
            && out.contains("int (id 2)"),
        "{out}"
    );
    assert!(out.contains("ok: 16 bytes consumed"), "{out}");
    let (code, out, _) = gdmarshal(
        &["inspect", "--godot", "4.6", "--hex"],
        "1c000000 01000000 02000000",
    );
    assert_eq!(code, 1);
    assert!(out.contains("error: at byte 12"), "{out}");
}

#[test]
fn a_truncated_corpus_is_refused_with_one_line_naming_the_file() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let dir = tempfile::tempdir().expect("temporary folder");
    for entry in std::fs::read_dir(&corpus).expect("corpus folder") {
        let path = entry.expect("folder entry").path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    let file = "godot-4.6.3.stable.jsonl";
    let text = std::fs::read_to_string(dir.path().join(file)).expect("corpus file");
    let cut: String = text.lines().take(100).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.path().join(file), cut).expect("write");
    let dir_arg = dir.path().to_str().expect("a UTF-8 path");
    let testee = format!("{} testee", env!("CARGO_BIN_EXE_gdmarshal"));
    for args in [
        vec!["corpus", "check", "--no-engines", "--corpus", dir_arg],
        vec![
            "conform", "--testee", &testee, "--godot", "4.6", "--corpus", dir_arg,
        ],
    ] {
        let (code, out, err) = gdmarshal(&args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one error line: {err}");
        assert!(err.contains(&format!("{file}:100:")), "{args:?}: {err}");
    }
}

#[test]
fn engine_limits_out_of_range_are_usage_errors() {
    let (code, _, err) = gdmarshal(&["diff", "--engine-memory", "10"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--engine-memory"), "{err}");
    let (code, _, err) = gdmarshal(&["corpus", "check", "--engine-open-files", "x"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn engine_flags_belong_to_the_commands_that_start_engines() {
    for command in ["decode", "encode", "inspect"] {
        let (code, _, err) = gdmarshal(&[command, "--godot", "4.6", "--engine-memory", "4096"], "");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(
            err.contains("unexpected argument '--engine-memory'"),
            "{command}: {err}"
        );
        let (_, help, _) = gdmarshal(&[command, "--help"], "");
        assert!(!help.contains("--engine-"), "{command} --help: {help}");
    }
    for command in [
        &["diff"][..],
        &["engines"],
        &["report"],
        &["corpus", "check"],
        &["corpus", "generate"],
        &["conform"],
    ] {
        let (_, help, _) = gdmarshal(&[command, &["--help"]].concat(), "");
        assert!(
            help.contains("--engine-memory"),
            "{command:?} --help: {help}"
        );
    }
}

#[test]
fn old_flag_spellings_still_work() {
    // encode --full-objects is now --objects, as decode has it.
    let value = r#"{"type":"int","value":"1"}"#;
    let (code, new, err) = gdmarshal(&["encode", "--godot", "4.6", "--hex", "--objects"], value);
    assert_eq!(code, 0, "{err}");
    let (code, old, err) = gdmarshal(
        &["encode", "--godot", "4.6", "--hex", "--full-objects"],
        value,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(new, old);
    let (_, help, _) = gdmarshal(&["encode", "--help"], "");
    assert!(!help.contains("--full-objects"), "{help}");
    // corpus check --dir is now --corpus, as conform and report have it.
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    for flag in ["--corpus", "--dir"] {
        let (code, out, err) = gdmarshal(&["corpus", "check", "--no-engines", flag, corpus], "");
        assert_eq!(code, 0, "{flag}: {out}{err}");
    }
}

/// Runs the binary with its stdout on `stdout`; returns the status and stderr.
fn with_stdout(args: &[&str], stdout: std::process::Stdio) -> (i32, String) {
    let out = common::Group::spawn(
        common::gdmarshal_command()
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(args)
            .stdout(stdout)
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_full_disk_is_one_message_and_status_2() {
    for args in [
        &["corpus", "check", "--no-engines"][..],
        &["check-vectors", "tests/vectors/godot-4.6.3.stable.txt"][..],
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let (code, err) = with_stdout(args, full.into());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{err}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_141() {
    let mut group = common::Group::spawn(
        common::gdmarshal_command()
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["corpus", "check", "--no-engines"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    );
    // The reader goes away before the first line is written (the corpus takes a while to load).
    drop(group.child().stdout.take());
    let out = group.wait_with_output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn conform_flag_values_out_of_range_are_usage_errors() {
    let testee = concat!(env!("CARGO_BIN_EXE_gdmarshal"), " testee");
    for bad in [
        &["--timeout", "1e30"][..],
        &["--timeout", "0"][..],
        &["--timeout", "nan"][..],
        &["--handshake-timeout", "0"][..],
        &["--handshake-timeout", "-1"][..],
        &["--max-failures-in-a-row", "-1"][..],
        &["--jobs", "0"][..],
        &["--jobs", "1000"][..],
        &["--run", "["][..],
        &["--skip", "a[b"][..],
    ] {
        let mut args = vec!["conform", "--testee", testee, "--godot", "4.6"];
        args.extend_from_slice(bad);
        let (code, _, err) = gdmarshal(&args, "");
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
}
