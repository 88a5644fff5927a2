//! The conformance runner's scoring and claims (docs/conformance.md): values compared by value
//! whatever their spelling, passes of accepted and rejected cases counted apart, rejection kinds
//! with `--strict-errors`, what a testee claims (versions, types, decode, encode, re-encode) and
//! `--probe-undeclared`, and the runner's sharp edges: `--run` matching nothing, `--output`,
//! JUnit times and errors, a hang's whole process group killed. The testees are the deliberately
//! wrong ones of tests/testees/wrong.py.

mod common;

use std::path::Path;
use std::process::Output;

use common::{BIN, Group, gdmarshal_command, python_check};
use serde_json::Value;

/// The stress cases take long in a debug build; tests/conform_stress.rs runs them.
const NO_STRESS: &str = "*/stress/**";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits inside the repository")
}

fn conform_env(testee: &str, version: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = gdmarshal_command();
    cmd.current_dir(root())
        .args(["conform", "--testee", testee, "--godot", version])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // The sandbox hands a testee only the variables named with --testee-env.
    for (k, v) in env {
        cmd.env(k, v).args(["--testee-env", k]);
    }
    Group::spawn(&mut cmd).wait_with_output()
}

fn conform(testee: &str, version: &str, extra: &[&str]) -> Output {
    conform_env(testee, version, extra, &[])
}

fn wrong(defect: &str) -> String {
    format!("python3 tests/testees/wrong.py {defect}")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_report(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(o), stderr(o)))
}

fn total(report: &Value, what: &str) -> u64 {
    report["totals"][what]
        .as_u64()
        .unwrap_or_else(|| panic!("no total {what}: {report:#}"))
}

#[test]
fn a_testee_declaring_only_4_run_against_3_6_is_skipped_with_a_clear_line() {
    // Nothing judged: the run shows nothing, and says so with exit status 2.
    let o = conform(&wrong("versions 4"), "3.6", &["--skip", NO_STRESS]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    let said = err.lines().last().unwrap_or_default();
    assert!(
        said.starts_with("gdmarshal: only 0 of the ")
            && said.ends_with(
                " not claimed by the testee (its handshake does not declare this Godot version), \
                 0 skipped by it; --allow-partial accepts such a run"
            ),
        "{err}"
    );
    // Accepted as partial, it passes with every case not claimed.
    let o = conform(
        &wrong("versions 4"),
        "3.6",
        &["--skip", NO_STRESS, "--allow-partial"],
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        err.contains("declares Godot 4, not 3.6: every case is skipped as not claimed"),
        "{err}"
    );
    // Every case of the 3.6 corpus (one record per line; the stress cases are skipped).
    let cases = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/godot-3.6.2.stable.jsonl"),
    )
    .unwrap()
    .lines()
    .count();
    assert!(
        out.contains(&format!(
            "the testee declares Godot 4 but not 3.6: its {cases} cases are not claimed"
        )),
        "{out}"
    );
    assert!(!format!("{out}{err}").contains("Some("), "{out}{err}");
    assert!(out.contains("0 accepted and equal"), "{out}");

    // Probed anyway, its 3.6 answers are reported apart and cannot fail the run.
    let o = conform(
        &wrong("versions 4"),
        "3.6",
        &[
            "--probe-undeclared",
            "--allow-partial",
            "--format",
            "json",
            "--skip",
            NO_STRESS,
        ],
    );
    let report = json_report(&o);
    assert_eq!(o.status.code(), Some(0), "{report:#}");
    assert_eq!(report["claims"]["version"], false);
    assert!(
        report["probed"]["pass"].as_u64().unwrap() > 200,
        "{report:#}"
    );
}

/// A testee that claims only a few of the cases selected (ints, of every 4.6 case) judges too few
/// to say anything; one that claims most of them passes.
#[test]
fn a_run_judging_under_a_tenth_of_its_cases_exits_2_unless_allowed() {
    let env = [("GDMARSHAL_TESTEE_TYPES", "int")];
    let o = conform_env(
        &wrong("float-spelling"),
        "4.6",
        &["--skip", NO_STRESS],
        &env,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}{err}", stdout(&o));
    assert!(err.contains("% must be): "), "{err}");
    assert!(
        !err.contains("does not declare this Godot version"),
        "{err}"
    );
    let allowed = ["--skip", NO_STRESS, "--allow-partial"];
    let o = conform_env(&wrong("float-spelling"), "4.6", &allowed, &env);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = conform_env(
        &wrong("float-spelling"),
        "4.6",
        &["--run", "encode/int/*"],
        &env,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn run_matching_nothing_is_an_error() {
    let o = conform(
        &format!("{BIN} testee"),
        "4.6",
        &["--run", "encode/int/*", "--run", "encode/no-such-type/*"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o)
            .contains("--run \"encode/no-such-type/*\" matches no case of Godot 4.6.3.stable"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn unknown_type_names_in_the_handshake_fail_the_run() {
    let o = conform(
        &wrong("types Nil,int,Vectro2"),
        "4.6",
        &["--run", "encode/int/*"],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL handshake: unknown type names \"Vectro2\""),
        "{out}"
    );
    assert!(stderr(&o).contains("names unknown types: Vectro2"));
    // The cases it does claim still ran and passed.
    assert!(out.contains("FAILED: 0 failing cases"), "{out}");
    let junit = conform(
        &wrong("types Nil,int,Vectro2"),
        "4.6",
        &["--run", "encode/int/*", "--format", "junit"],
    );
    let xml = stdout(&junit);
    assert!(
        xml.contains("<failure message=\"unknown type names: Vectro2\" type=\"unknown-types\"/>"),
        "{xml}"
    );
}

#[test]
fn floats_in_other_spellings_are_no_failure() {
    let o = conform(
        &wrong("float-spelling"),
        "4.6",
        &["--format", "json", "--skip", NO_STRESS],
    );
    let report = json_report(&o);
    assert_eq!(o.status.code(), Some(0), "{report:#}");
    assert_eq!(total(&report, "wrong"), 0);
    assert!(total(&report, "accepted_equal") > 100, "{report:#}");
}

#[test]
fn one_wrong_nested_float_is_reported_at_its_path_with_both_bit_patterns() {
    let o = conform(&wrong("deep-float-off"), "4.6", &["--skip", NO_STRESS]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "FAIL decode/valid/Dictionary/mixed [type Dictionary]\n    decoded value differs at \
             $.value[1][1].value:\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "\n    first differing node: $.value[1][1].value: engine \"2.5\", got \
             \"0x4004000000000001\" (bits 0x4004000000000000 vs 0x4004000000000001)\n"
        ),
        "{out}"
    );
}

#[test]
fn a_testee_rejecting_everything_scores_no_accepted_and_equal_case() {
    let o = conform(
        &wrong("reject-all"),
        "4.6",
        &["--format", "json", "--skip", NO_STRESS],
    );
    let report = json_report(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(total(&report, "accepted_equal"), 0, "{report:#}");
    let rejected = total(&report, "rejected_as_expected");
    assert!(rejected > 100, "{report:#}");
    assert!(total(&report, "wrong") > 200, "{report:#}");

    // It says "truncated" of everything: held to the kind, only truncated inputs pass.
    let o = conform(
        &wrong("reject-all"),
        "4.6",
        &["--strict-errors", "--format", "json", "--skip", NO_STRESS],
    );
    let strict = json_report(&o);
    let kept = total(&strict, "rejected_as_expected");
    assert!(kept > 10 && kept < rejected, "{kept} of {rejected}");
    let cases = strict["cases"].as_array().unwrap();
    let by_name = |n: &str| cases.iter().find(|c| c["name"] == n).unwrap().clone();
    let bad_type = by_name("decode/unknown_type/64");
    assert_eq!(bad_type["score"], "wrong", "{bad_type:#}");
    assert!(
        bad_type["message"]
            .as_str()
            .unwrap()
            .starts_with("rejected as truncated, the engine's rejection is bad-type: rejected"),
        "{bad_type:#}"
    );
}

#[test]
fn strict_errors_pass_a_testee_that_states_the_kinds_and_fail_one_that_does_not() {
    let o = conform(
        &format!("{BIN} testee"),
        "4.6",
        &["--strict-errors", "--skip", NO_STRESS],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = conform(
        "python3 testees/python/gdmarshal_testee.py",
        "4.6",
        &["--strict-errors", "--run", "decode/truncated/int/**"],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("rejected without stating the kind (expected \"kind\":\"truncated\")"),
        "{out}"
    );
}

#[test]
fn a_decode_only_testee_passes_every_decode_case_it_claims() {
    let o = conform(
        &wrong("decode-only"),
        "4.6",
        &["--format", "json", "--skip", NO_STRESS],
    );
    let report = json_report(&o);
    assert_eq!(o.status.code(), Some(0), "{report:#}");
    assert_eq!(total(&report, "fail"), 0);
    assert!(total(&report, "accepted_equal") > 50, "{report:#}");
    assert_eq!(
        report["claims"]["not_claimed"],
        serde_json::json!(["encode", "reencode"])
    );
    let cases = report["cases"].as_array().unwrap();
    assert!(
        cases
            .iter()
            .filter(|c| c["name"].as_str().unwrap().starts_with("encode/"))
            .all(|c| c["score"] == "unclaimed"),
        "encode cases are not sent"
    );
    let text = stdout(&conform(
        &wrong("decode-only"),
        "4.6",
        &["--skip", NO_STRESS],
    ));
    assert!(
        text.contains(
            "not claimed: encode, reencode (decode cases are judged on the decoded value alone)"
        ),
        "{text}"
    );
}

#[test]
fn probed_undeclared_types_are_reported_apart() {
    // Floats written as 64 bits, but float not declared: skipped, and probed they are wrong
    // without failing the run.
    let env = [(
        "GDMARSHAL_TESTEE_TYPES",
        "Nil,bool,int,String,Vector2,Array,Dictionary,PackedByteArray",
    )];
    let o = conform_env(&wrong("float64"), "4.6", &["--run", "encode/**"], &env);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = conform_env(
        &wrong("float64"),
        "4.6",
        &["--run", "encode/**", "--probe-undeclared"],
        &env,
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("not claimed, but answered (--probe-undeclared): "))
        .unwrap_or_else(|| panic!("{out}"));
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let (answered, wrong_ones) = (numbers[0], numbers[1]);
    assert!(wrong_ones > 0 && wrong_ones < answered, "{line}");
    assert!(
        out.contains("WRONG (not claimed) encode/float/one [type float]"),
        "{out}"
    );
}

#[test]
fn output_file_gets_the_report_and_stdout_the_failing_cases_and_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    let o = conform(
        &wrong("float64"),
        "4.6",
        &[
            "--format",
            "json",
            "--output",
            file.to_str().unwrap(),
            "--skip",
            NO_STRESS,
        ],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let report: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let wrong = total(&report, "fail");
    assert!(wrong > 0);
    // Each failing case as one line and its replay line (at most 50), no report body.
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert_eq!(fails.len() as u64, wrong.min(50), "{out}");
    assert!(
        fails
            .iter()
            .any(|l| l.starts_with("FAIL encode/float/one: ")),
        "{out}"
    );
    let replays = out
        .lines()
        .filter(|l| l.starts_with("    replay: gdmarshal conform "));
    assert_eq!(replays.count(), fails.len(), "{out}");
    if wrong > 50 {
        assert!(
            out.contains(&format!(
                "... and {} more failing cases in the report",
                wrong - 50
            )),
            "{out}"
        );
    }
    assert!(!out.contains("type family"), "{out}");
    assert!(out.contains("FAILED: "), "{out}");
    assert!(
        out.contains(&format!("report: {}", file.display())),
        "{out}"
    );
    assert!(out.lines().count() < 2 * fails.len() + 9, "{out}");
}

#[test]
fn junit_gives_each_case_its_time_and_reports_crashes_and_hangs_as_errors() {
    let o = conform(
        &wrong("crash-on Vector2"),
        "4.6",
        &[
            "--run",
            "encode/Vector2/*",
            "--run",
            "encode/float/*",
            "--max-failures-in-a-row",
            "0",
            "--format",
            "junit",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junit.xml");
    std::fs::write(&path, &o.stdout).unwrap();
    python_check(
        r#"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
errors = root.findall("./testsuite/testcase/error")
failures = root.findall("./testsuite/testcase/failure")
assert int(root.get("errors")) == len(errors) > 0, root.attrib
assert int(root.get("failures")) == len(failures), root.attrib
for s in root.findall("testsuite"):
    assert int(s.get("errors")) == len(s.findall("testcase/error"))
for e in errors:
    assert "testee crashed" in e.get("message"), e.get("message")
    assert e.get("type") == "error"
times = [float(c.get("time")) for c in cases]
# Each case has its own time, not the average: a case that waits for a crashed testee's
# restart (a new process and handshake) takes longer than any answer.
assert len(set(times)) > 1, times
crashed = [float(c.get("time")) for c in cases if c.find("error") is not None]
answered = [float(c.get("time")) for c in cases if c.find("error") is None]
assert max(crashed) > max(answered), (crashed, answered)
assert abs(sum(times) - float(root.get("time"))) < float(root.get("time")), root.get("time")
props = {p.get("name"): int(p.get("value")) for p in root.find("testsuite[@name='godot-4.6.3.stable.float']/properties")}
assert props["accepted_equal"] > 0 and props["wrong"] == 0 and props["error"] == 0, props
vec = {p.get("name"): int(p.get("value")) for p in root.find("testsuite[@name='godot-4.6.3.stable.Vector2']/properties")}
assert vec["error"] == len(crashed), (vec, crashed)
print(len(errors))
"#,
        &path,
    );
}

/// Whether process `pid` is still running (not gone, not a zombie).
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z"),
        Err(_) => false,
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_hanging_testee_is_killed_with_what_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    // The testee is a shell that starts a background process and then becomes the testee.
    let testee = format!(
        "sh -c 'sleep 1000 & echo $! > {}; exec python3 tests/testees/wrong.py hang-on Dictionary'",
        pid_file.display()
    );
    // Without the sandbox, whose read-only view would keep the pid file from the folder the
    // test reads it in (cli/tests/sandbox.rs shows the sandbox's own cgroup kill).
    let o = conform(
        &testee,
        "4.6",
        &[
            "--timeout",
            "0.5",
            "--run",
            "encode/Dictionary/empty",
            "--sandbox",
            "off",
        ],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("testee hung: no answer within 0.5 s"), "{out}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    let gone = (0..50).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        !running(pid)
    });
    if !gone {
        // Leave nothing behind should the runner have.
        common::signal(pid.parse().unwrap(), libc::SIGKILL);
    }
    assert!(gone, "the testee's background process {pid} still runs");
}

/// `--testee` is run by `sh -c` as written: a variable set before the command and a `cd` first
/// work as in a shell.
#[test]
fn a_testee_command_may_set_variables_and_change_folder_first() {
    let o = conform(
        &format!("GDMARSHAL_TESTEE_TYPES=int {}", wrong("float-spelling")),
        "4.6",
        &["--run", "encode/int/*"],
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("types claimed: int\n"), "{out}");
    let o = conform(
        "cd tests/testees && python3 wrong.py float-spelling",
        "4.6",
        &["--run", "encode/int/*"],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// A failing case's replay line sets in its testee command the variables the run passed with
/// `--testee-env`, so that it fails again as the run did, in an environment without them.
#[test]
fn a_replay_line_carries_the_variables_passed_to_the_testee() {
    let env = [("GDMARSHAL_TESTEE_TYPES", "Nil,bool,int,float,String")];
    let o = conform_env(&wrong("float64"), "4.6", &["--run", "encode/float/*"], &env);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let replay = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("replay: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        replay.starts_with(
            "gdmarshal conform --testee \"GDMARSHAL_TESTEE_TYPES='Nil,bool,int,float,String' \
             python3 tests/testees/wrong.py float64\" --godot 4.6"
        ),
        "{replay}"
    );
    // Run as written, by a shell, with the variable gone from the environment.
    let bin = Path::new(common::BIN).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let again = Group::spawn(
        common::command("sh")
            .current_dir(root())
            .env_remove("GDMARSHAL_TESTEE_TYPES")
            .env("PATH", path)
            .args(["-c", replay])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    let out = stdout(&again);
    assert_eq!(again.status.code(), Some(1), "{out}{}", stderr(&again));
    assert!(
        out.contains("types claimed: Nil, bool, int, float, String\n"),
        "{out}"
    );
}
