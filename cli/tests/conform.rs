//! The conformance runner (`gdmarshal conform`) against its shipped testees, against
//! deliberately wrong ones (tests/testees/wrong.py) and against hostile ones
//! (tests/testees/hostile.py): the right ones pass every case they declare, each wrong one fails
//! with a report that names the type and the first differing byte, each hostile one fails its
//! cases within the runner's limits, and the reports are well formed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

use common::{BIN, Group, gdmarshal_command, limit_address_space, python_check};

/// The repository root: the corpus and the example testees live there.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits inside the repository")
}

fn conform(testee: &str, version: &str, extra: &[&str]) -> Output {
    Group::spawn(
        gdmarshal_command()
            .current_dir(root())
            .args(["conform", "--testee", testee, "--godot", version])
            .args(extra)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn own_testee() -> String {
    format!("{BIN} testee")
}

fn wrong(defect: &str) -> String {
    format!("python3 tests/testees/wrong.py {defect}")
}

/// The report block of one failing case.
fn failure<'a>(report: &'a str, case: &str) -> &'a str {
    let start = report
        .find(&format!("FAIL {case} "))
        .unwrap_or_else(|| panic!("no failure for {case} in:\n{report}"));
    let rest = &report[start..];
    let end = rest.find("replay:").map(|i| i + 200).unwrap_or(rest.len());
    &rest[..end.min(rest.len())]
}

#[test]
fn own_codec_passes_every_version_through_a_persistent_testee() {
    for version in ["4.6", "4.6-double", "3.6", "3.2"] {
        // The stress cases (tests/conform_stress.rs) take longer.
        let o = conform(&own_testee(), version, &["--skip", "*/stress/**"]);
        let text = stdout(&o);
        assert!(o.status.success(), "Godot {version}:\n{text}");
        assert!(text.contains("ok: "), "{text}");
        assert!(text.contains("1 testee process start(s)"), "{text}");
        let counts: Vec<usize> = text
            .lines()
            .find_map(|l| l.strip_prefix("ok: "))
            .unwrap()
            .split(", ")
            .map(|part| part.split(' ').next().unwrap().parse().unwrap())
            .collect();
        let (equal, rejected) = (counts[0], counts[1]);
        assert!(
            equal > 600,
            "Godot {version}: only {equal} accepted and equal"
        );
        assert!(
            rejected > 300,
            "Godot {version}: only {rejected} rejected as expected"
        );
        assert!(equal + rejected > 1100, "Godot {version}: {counts:?}");
    }
}

#[test]
fn jobs_split_the_cases_between_testee_processes() {
    let o = conform(
        &own_testee(),
        "4.6",
        &["--jobs", "3", "--format", "json", "--skip", "*/stress/**"],
    );
    assert!(o.status.success(), "{}", stdout(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        report["schema_version"], 1,
        "the report's shape is versioned"
    );
    assert_eq!(report["passed"], true);
    assert_eq!(report["testee_starts"], 3);
    assert_eq!(report["totals"]["fail"], 0);
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(
        cases.len(),
        report["totals"]["cases"].as_u64().unwrap() as usize
    );
    assert_eq!(cases[0]["name"], "encode/Nil", "corpus order is kept");
}

#[test]
fn python_example_passes_what_it_declares_and_skips_the_rest() {
    for version in ["4.6", "3.6", "3.2"] {
        let o = conform(
            "python3 testees/python/gdmarshal_testee.py",
            version,
            &["--format", "json", "--skip", "*/stress/**"],
        );
        let report: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
        assert!(o.status.success(), "Godot {version}: {report:#}");
        assert!(report["totals"]["pass"].as_u64().unwrap() > 250, "{report}");
        assert!(
            report["totals"]["accepted_equal"].as_u64().unwrap() > 100,
            "{report}"
        );
        assert!(
            report["totals"]["unclaimed"].as_u64().unwrap() > 500,
            "{report}"
        );
        let families = report["families"].as_array().unwrap();
        let family = |f: &str| families.iter().find(|x| x["family"] == f).unwrap().clone();
        assert!(family("float")["pass"].as_u64().unwrap() > 30);
        assert!(
            family("Basis")["unclaimed"].as_u64().unwrap() > 10,
            "Basis is not declared"
        );
    }
}

#[test]
fn documented_type_table_is_caught_at_byte_zero() {
    let o = conform(&wrong("doc-type-table"), "4.6", &["--skip", "*/stress/**"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/Array/empty");
    assert!(f.contains("[type Array]"), "{f}");
    assert!(f.contains("first differing byte: offset 0"), "{f}");
    assert!(f.contains("engine bytes @0: [1c]"), "{f}");
    assert!(f.contains("testee bytes @0: [13]"), "{f}");
    assert!(
        f.contains("in the engine's bytes: header of $ (Array (id 28)"),
        "{f}"
    );
    assert!(
        f.contains("in the testee's bytes: header of $ (Projection (id 19)"),
        "{f}"
    );
    let f = failure(&text, "encode/PackedByteArray/len1");
    assert!(
        f.contains("[type PackedByteArray]") && f.contains("offset 0"),
        "{f}"
    );
    assert!(
        f.contains(
            "replay: gdmarshal conform --testee 'python3 tests/testees/wrong.py doc-type-table' --godot 4.6 --run encode/PackedByteArray/len1"
        ),
        "{f}"
    );
    // 3.x uses exactly these ids: the same testee passes there.
    let o = conform(&wrong("doc-type-table"), "3.6", &["--skip", "*/stress/**"]);
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn always_64_bit_floats_are_caught_at_the_flag_byte() {
    let o = conform(&wrong("float64"), "4.6", &["--skip", "*/stress/**"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/float/one");
    assert!(f.contains("[type float]"), "{f}");
    assert!(f.contains("first differing byte: offset 2"), "{f}");
    assert!(f.contains("engine bytes @0: 0300[00]000000803f"), "{f}");
    assert!(
        f.contains("testee bytes @0: 0300[01]00000000000000f03f"),
        "{f}"
    );
    // A float inside a container: the node path names where.
    let f = failure(&text, "encode/Array/mixed");
    assert!(
        f.contains(
            "byte 30 is, in the testee's bytes: header of $[2] (float (id 3), flags 0x10000)"
        ),
        "{f}"
    );
    // Floats that need 64 bits are right even so.
    assert!(!text.contains("FAIL encode/float/tenth "), "{text}");
    // The per-family summary counts them.
    let row = text
        .lines()
        .find(|l| l.starts_with("float "))
        .expect("a float row");
    assert!(!row.trim_end().ends_with(" 0"), "{row}");
}

#[test]
fn a_crashing_testee_is_restarted_and_the_run_goes_on() {
    let o = conform(
        &wrong("crash-on Vector2"),
        "4.6",
        &["--run", "encode/Vector2/*", "--run", "encode/int/*"],
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/Vector2/all_one");
    assert!(f.contains("[type Vector2]"), "{f}");
    assert!(f.contains("testee crashed (exit status: 3)"), "{f}");
    assert!(f.contains("about to crash on Vector2"), "{f}");
    assert!(!text.contains("FAIL encode/int/"), "{text}");
    let row = text.lines().find(|l| l.starts_with("int ")).unwrap();
    assert!(
        row.contains(" 0\n") || row.trim_end().ends_with(" 0"),
        "{row}"
    );
}

#[test]
fn a_hanging_testee_times_out_and_the_run_goes_on() {
    let o = conform(
        &wrong("hang-on Dictionary"),
        "4.6",
        &[
            "--timeout",
            "0.5",
            "--run",
            "encode/Dictionary/empty",
            "--run",
            "encode/int/*",
        ],
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/Dictionary/empty");
    assert!(f.contains("testee hung: no answer within 0.5 s"), "{f}");
    assert!(!text.contains("FAIL encode/int/"), "{text}");
}

fn hostile(mode: &str) -> String {
    format!("python3 tests/testees/hostile.py {mode}")
}

/// Runs `gdmarshal conform` under an address-space limit of `limit` bytes (which its testee
/// inherits).
#[cfg(unix)]
fn conform_within(testee: &str, extra: &[&str], limit: u64) -> Output {
    let mut cmd = gdmarshal_command();
    cmd.current_dir(root())
        .args(["conform", "--testee", testee, "--godot", "4.6"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    limit_address_space(&mut cmd, limit);
    Group::spawn(&mut cmd).wait_with_output()
}

#[cfg(unix)]
#[test]
fn a_gibibyte_answer_line_fails_its_case_and_the_runner_stays_within_its_memory() {
    // The address space bounds memory reserved, touched or not: 1 GiB of it is the stack the
    // binary reserves for its work (cli/src/main.rs, STACK), 256 MiB the runner thread's and
    // 64 MiB each thread's malloc arena, so 2 GiB leaves well under one of the testee's lines.
    // Reading a line whole would take past the limit, and the runner would abort (as it did
    // when it read lines whole: "memory allocation of 539033600 bytes failed").
    let started = Instant::now();
    let o = conform_within(
        &hostile("long-line"),
        &["--run", "encode/int/0", "--run", "encode/int/1"],
        2 << 30,
    );
    let text = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for case in ["encode/int/0", "encode/int/1"] {
        let f = failure(&text, case);
        assert!(
            f.contains(
                "testee broke the protocol: its answer is longer than 4 MiB (the limit), it begins: {\"id\": "
            ),
            "{f}"
        );
        assert!(f.contains("\"ok\": false, \"error\": \"xxxxxxxx"), "{f}");
        assert!(f.len() < 2000, "only the line's first bytes are shown: {f}");
    }
    // The testee is killed once the line passes the cap, not read to its end.
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn an_answer_nested_200k_levels_deep_is_a_protocol_failure() {
    let o = conform(&hostile("deep"), "4.6", &["--run", "encode/int/0"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/int/0");
    assert!(
        f.contains(
            "testee broke the protocol: its answer nests deeper than 16384 levels (the limit) at byte "
        ),
        "{f}"
    );
    assert!(text.contains("FAILED: 1 failing cases"), "{text}");
}

/// Processes that are still running (not zombies) in process group `pgid`.
#[cfg(target_os = "linux")]
fn live_members(pgid: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2) == Some(&pgid) && fields.first() != Some(&"Z") {
            out.push(stat);
        }
    }
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_testee_that_exits_leaving_children_on_its_pipes_has_crashed_and_its_group_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let testee = hostile(&format!("fork-exit {}", dir.path().display()));
    let started = Instant::now();
    let o = conform(
        &testee,
        "4.6",
        &[
            "--timeout",
            "60",
            "--run",
            "encode/int/0",
            "--run",
            "encode/int/1",
            // The process groups, as a run without the sandbox has them (the children report
            // into a folder of the host's; the sandbox's own kill: tests/sandbox.rs).
            "--sandbox",
            "off",
        ],
    );
    let took = started.elapsed();
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    for case in ["encode/int/0", "encode/int/1"] {
        let f = failure(&text, case);
        assert!(f.contains("testee crashed (exit status: 4)"), "{f}");
    }
    assert!(!text.contains("hung"), "{text}");
    // Its children hold its stdout: waiting for the end of it would take the 60 s timeout per
    // case (a wide timeout, so that a loaded machine cannot blur the two).
    assert!(took.as_secs_f64() < 60.0, "took {took:?}");
    let groups: std::collections::BTreeSet<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
        .collect();
    assert_eq!(groups.len(), 2, "one group per testee process: {groups:?}");
    for g in &groups {
        let left = live_members(g);
        assert!(left.is_empty(), "group {g} still runs: {left:?}");
    }
}

#[test]
fn a_testee_that_hangs_on_every_request_stops_the_run_after_n_in_a_row() {
    let o = conform(
        &hostile("hang"),
        "4.6",
        &[
            "--timeout",
            "0.5",
            "--handshake-timeout",
            "5",
            "--max-failures-in-a-row",
            "3",
            "--run",
            "encode/int/*",
        ],
    );
    let text = stdout(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert_eq!(
        text.matches("\n    testee hung: no answer within 0.5 s")
            .count(),
        3,
        "{text}"
    );
    let message = "stopped early: 3 crashes or hangs in a row (--max-failures-in-a-row 3), the last: testee hung: no answer within 0.5 s (--timeout SECS gives it longer); 10 cases not run, counted as failures";
    assert!(text.contains(message), "{text}");
    assert!(err.contains(message), "{err}");
    // The 13 encode/int cases of 4.6's corpus.
    assert!(text.contains("FAILED: 13 failing cases"), "{text}");

    // 0: never stop; the JSON report says how many were not run.
    let o = conform(
        &hostile("hang"),
        "4.6",
        &[
            "--timeout",
            "0.3",
            "--handshake-timeout",
            "5",
            "--max-failures-in-a-row",
            "2",
            "--run",
            "encode/int/*",
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["stopped"]["not_run"], 11, "{report:#}");
    assert_eq!(report["totals"]["fail"], 13);
    let not_run = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["not_run"] == true)
        .count();
    assert_eq!(not_run, 11);
    let o = conform(
        &hostile("hang"),
        "4.6",
        &[
            "--timeout",
            "0.2",
            "--handshake-timeout",
            "5",
            "--max-failures-in-a-row",
            "0",
            "--run",
            "encode/int/[01]",
        ],
    );
    let text = stdout(&o);
    assert_eq!(text.matches("testee hung").count(), 2, "{text}");
    assert!(!text.contains("stopped early"), "{text}");
}

#[test]
fn a_testee_that_stops_reading_its_input_times_out() {
    // The request (800 KB of hex) is larger than a pipe holds: writing it blocks until the
    // testee reads, which it never does. The runner must time out all the same.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut group = Group::spawn(
        gdmarshal_command()
            .current_dir(root())
            .args(["conform", "--testee", &hostile("deaf"), "--godot", "4.6"])
            .args(["--timeout", "1", "--run", "decode/depth/arrays_50000"])
            .stdout(std::fs::File::create(&out).unwrap()),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(s) = group.child().try_wait().unwrap() {
            break s;
        }
        if started.elapsed().as_secs() > 30 {
            // Dropping the group kills the runner and the testee it started.
            panic!("the runner is stuck writing to a testee that does not read");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(status.code(), Some(1), "{text}");
    let f = failure(&text, "decode/depth/arrays_50000");
    // 1 s, once more per MiB of the request (800 KB of hex).
    assert!(f.contains("testee hung: no answer within 1.8 s"), "{f}");
}

#[test]
fn a_handshake_that_never_comes_fails_within_the_timeout_and_names_its_flag() {
    // --timeout is for answers; the handshake has its own (30 s by default, for testees that
    // compile first).
    let flags = ["--timeout", "0.5", "--handshake-timeout", "1"];
    let started = Instant::now();
    let o = conform(&hostile("no-hello"), "4.6", &flags);
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "handshake: testee hung: no answer within 1.0 s (--handshake-timeout SECS gives it longer)"
        ),
        "{err}"
    );
    // Well within the 30 s default the flag replaces.
    assert!(took.as_secs_f64() < 25.0, "took {took:?}");
}

#[test]
fn control_bytes_from_a_testee_are_escaped_and_its_long_errors_cut() {
    let o = conform(&hostile("loud-error"), "4.6", &["--run", "encode/int/0"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "no control characters but newlines: {text:?}"
    );
    let f = failure(&text, "encode/int/0");
    assert!(
        f.contains(
            r"refused a value the engine encodes: bad \u{1b}[31mred\u{1b}[0m \u{7}bell \u{0}nul \u{d}\u{85}\u{9b}2J yyyy"
        ),
        "{f}"
    );
    // Kept: 4 KiB of the error, and its length.
    assert!(f.contains("yyyy… (cut: 1048612 bytes in all)"), "{f}");
    assert!(f.len() < 6000, "{}", f.len());

    // JUnit XML stays well formed.
    let o = conform(
        &hostile("loud-error"),
        "4.6",
        &["--run", "encode/int/0", "--format", "junit"],
    );
    let (_dir, path) = temp("junit.xml", &stdout(&o));
    python_check(
        r#"
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
failure = doc.getElementsByTagName("failure")[0]
text = failure.firstChild.data
assert "bad \\u{1b}[31mred" in text, text[:200]
print(len(text))
"#,
        &path,
    );
}

#[test]
fn a_crash_shows_the_panic_and_the_last_lines_of_stderr() {
    let o = conform(&hostile("panic"), "4.6", &["--run", "encode/int/0"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/int/0");
    assert!(
        f.contains("testee crashed (exit status: 101)\n    its stderr:\n"),
        "{f}"
    );
    assert!(
        f.contains(
            "      thread 'main' panicked at src/main.rs:3:5:\n      boom: the value is wrong\n"
        ),
        "the cause, from its first line: {f}"
    );
    assert!(f.contains("lines left out"), "{f}");
    assert!(
        f.contains("note: Some details are omitted, run with `RUST_BACKTRACE=full`.\n"),
        "the last line: {f}"
    );
    assert!(f.len() < 10_000, "{}", f.len());
}

fn temp(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn expected_failures_are_strict_and_the_runner_prints_the_list_that_passes() {
    let list = conform(
        &wrong("float64"),
        "4.6",
        &["--print-expect-fail", "--skip", "*/stress/**"],
    );
    // The list is written: the command did what it was asked, though the run failed.
    assert_eq!(list.status.code(), Some(0));
    let list = stdout(&list);
    assert!(list.contains("4.6.3.stable encode/float/one "), "{list}");
    let (_dir, path) = temp("expect.txt", &list);
    let path = path.to_str().unwrap();
    let o = conform(
        &wrong("float64"),
        "4.6",
        &["--expect-fail", path, "--skip", "*/stress/**"],
    );
    assert!(o.status.success(), "{}", stdout(&o));

    // An entry for a case that passes, and one that matches nothing, are errors.
    let stale = format!(
        "{list}4.* encode/int/0  passes really\n4.* encode/no/such/case  never was\n3.* encode/no/such/case  other engine: ignored\n"
    );
    let (_dir2, path2) = temp("stale.txt", &stale);
    let o = conform(
        &wrong("float64"),
        "4.6",
        &[
            "--expect-fail",
            path2.to_str().unwrap(),
            "--skip",
            "*/stress/**",
        ],
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL encode/int/0 [type int]\n    passes, but is listed"),
        "{text}"
    );
    assert!(text.contains("every case it matches now passes"), "{text}");
    assert!(
        text.contains("matches no case of Godot 4.6.3.stable"),
        "{text}"
    );
    assert_eq!(text.matches("FAIL stale").count(), 2, "{text}");
}

#[test]
fn junit_report_is_well_formed_and_counts_right() {
    let o = conform(
        &wrong("float64"),
        "4.6",
        &["--format", "junit", "--skip", "*/stress/**"],
    );
    assert_eq!(o.status.code(), Some(1));
    let (_dir, path) = temp("junit.xml", &stdout(&o));
    let check = python_check(
        r#"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("./testsuite/testcase")
failures = root.findall("./testsuite/testcase/failure")
skipped = root.findall("./testsuite/testcase/skipped")
assert int(root.get("tests")) == len(cases), (root.get("tests"), len(cases))
assert int(root.get("failures")) == len(failures) > 0
assert int(root.get("skipped")) == len(skipped)
for s in root.findall("testsuite"):
    assert int(s.get("tests")) == len(s.findall("testcase"))
    assert int(s.get("failures")) == len(s.findall("testcase/failure"))
for f in failures:
    assert f.get("message").startswith("[type "), f.get("message")
    assert "replay: gdmarshal conform" in f.text
one = [c for c in cases if c.get("name") == "encode/float/one"][0]
assert "first differing byte: offset 2" in one.find("failure").text
print(len(cases), len(failures), len(skipped))
"#,
        &path,
    );
    let counts = stdout(&check);
    let n: Vec<usize> = counts
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let cases = gdmarshal_lab::corpus::load(&gdmarshal_lab::corpus::default_dir())
        .unwrap()
        .into_iter()
        .find(|c| c.entry.version.starts_with("4.6."))
        .map(|c| c.records.len())
        .unwrap();
    assert_eq!(n[0], cases, "every 4.6 case is a test case");
}

#[test]
fn a_version_the_corpus_does_not_have_is_an_error() {
    let o = conform(
        "python3 testees/python/gdmarshal_testee.py",
        "4.5-double",
        &["--corpus", "corpus"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("no engine answers are recorded for Godot 4.5-double")
    );
    // Never judged with the codec's own answers: the verified versions and how to record one.
    let o = conform(&own_testee(), "4.3", &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!(
        "verified: {}.",
        gdmarshal_lab::versions::verified_list()
    )));
    assert!(err.contains(
        "`gdmarshal engines install 4.3`, then `gdmarshal corpus generate --engine 4.3 --corpus DIR`"
    ), "{err}");
}

#[test]
fn a_testee_that_does_not_start_is_an_error() {
    let o = conform("/nonexistent/testee", "4.6", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("handshake"));
}

#[test]
fn testee_speaks_the_protocol() {
    use std::io::Write;
    let mut group = Group::spawn(
        gdmarshal_command()
            .arg("testee")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped()),
    );
    group
        .child()
        .stdin
        .take()
        .unwrap()
        .write_all(
            concat!(
                r#"{"op":"hello","protocol":1}"#,
                "\n",
                r#"{"id":1,"op":"decode","godot":"4.6","objects":false,"input":"0200000001000000"}"#,
                "\n",
                r#"{"id":2,"op":"encode","godot":"3.6","objects":false,"value":{"type":"Array","value":[]}}"#,
                "\n",
                r#"{"id":3,"op":"decode","godot":"4.6","objects":false,"input":"02"}"#,
                "\n"
            )
            .as_bytes(),
        )
        .unwrap();
    let out = group.wait_with_output();
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["protocol"], 1);
    assert_eq!(
        lines[1],
        serde_json::json!({"id":1,"ok":true,"value":{"type":"int","value":"1"},"consumed":8})
    );
    assert_eq!(
        lines[2],
        serde_json::json!({"id":2,"ok":true,"output":"1300000000000000"})
    );
    assert_eq!(lines[3]["ok"], false);
    assert!(lines[3]["error"].as_str().unwrap().contains("byte 0"));
}

/// Whether the Godot engine of this manifest name is installed; on CI it must be.
fn engine_installed(name: &str) -> bool {
    gdmarshal_testkit::engines::named(name).is_some()
}

#[test]
fn live_mode_judges_the_testee_on_a_live_engines_answers() {
    if !engine_installed("4.6") {
        return;
    }
    // Three values of every type (N per type), each encoded and decoded.
    let o = conform(
        &own_testee(),
        "4.6",
        &["--live", "3", "--seed", "5", "--format", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(o.status.success(), "{report:#}");
    let names: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for ty in ["Vector2", "Basis", "PackedColorArray", "Dictionary"] {
        let n = names
            .iter()
            .filter(|n| n.starts_with(&format!("live/encode/{ty}/5/")))
            .count();
        assert!((1..=3).contains(&n), "{ty}: {n} cases in {names:?}");
    }
    let o = conform(&own_testee(), "4.6", &["--live", "3", "--seed", "5"]);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("ok: "), "{text}");

    let o = conform(
        &wrong("float64"),
        "4.6",
        &["--live", "3", "--seed", "5", "--format", "json"],
    );
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let failed: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "fail")
        .collect();
    assert!(!failed.is_empty(), "{report:#}");
    for c in failed {
        let name = c["name"].as_str().unwrap();
        assert!(name.starts_with("live/"), "{name}");
        let details = c["details"].to_string();
        assert!(details.contains("flags 0x10000"), "{name}: {details}");
        assert!(
            c["replay"]
                .as_str()
                .unwrap()
                .contains("--live 3 --seed 5 --run live/"),
            "{c}"
        );
    }
}

#[test]
fn a_testee_past_its_memory_limit_errs_on_that_case_and_the_run_goes_on() {
    let o = conform(
        &wrong("allocate-on Vector2"),
        "4.6",
        &["--run", "encode/Vector2/*", "--run", "encode/int/*"],
    );
    let text = stdout(&o);
    // The 8 GiB allocation fails under the default 4 GiB fence: those cases are errors, the
    // others pass, and the run completes with its report.
    assert_eq!(o.status.code(), Some(1), "{text}");
    let f = failure(&text, "encode/Vector2/all_one");
    assert!(f.contains("testee crashed"), "{f}");
    assert!(
        f.contains("bytes(8 << 30)") && f.contains("MemoryError"),
        "{f}"
    );
    assert!(!text.contains("FAIL encode/int/"), "{text}");
    // Under a fence wide enough, the same testee answers (the allocation is never touched, so
    // it costs no memory): the errors above were the fence's.
    let o = conform(
        &wrong("allocate-on Vector2"),
        "4.6",
        &[
            "--run",
            "encode/Vector2/all_one",
            "--testee-memory",
            "16384",
        ],
    );
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn a_testee_without_network_cannot_reach_the_host() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener
        .local_addr()
        .expect("its address")
        .port()
        .to_string();
    let testee = wrong(&format!("connect {port}"));
    let run = |network: &str| {
        conform(
            &testee,
            "4.6",
            &["--run", "encode/int/*", "--testee-network", network],
        )
    };
    let accepted = || {
        let mut n = 0;
        while listener.accept().is_ok() {
            n += 1;
        }
        n
    };
    let host = run("host");
    assert!(host.status.success(), "{}", stdout(&host));
    assert!(accepted() >= 1, "the host-network testee connected");
    let none = run("none");
    assert!(
        none.status.success(),
        "{}{}",
        stdout(&none),
        String::from_utf8_lossy(&none.stderr)
    );
    assert_eq!(
        accepted(),
        0,
        "a testee without network reached the host's loopback"
    );
}
