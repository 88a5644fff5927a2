//! The runner and `gdmarshal testee` on endless and oversized input, within their documented
//! memory (docs/conformance.md, "Limits"): a testee whose every answer is 4 MiB of small JSON
//! objects, run with `--jobs 8`; `gdmarshal testee` fed /dev/zero, a FIFO that never ends a line,
//! and a request line past its cap after a good one. The inputs are made as the tests run.
#![cfg(target_os = "linux")]

mod common;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{Group, gdmarshal_command};

const MIB: u64 = 1 << 20;

/// The repository root: the corpus and the hostile testee live there.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits inside the repository")
}

/// How a run ended: its exit code (`None`: a signal ended it), stdout, stderr and peak resident
/// set size in bytes.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    peak: u64,
}

/// Runs `cmd` to its end with stdout and stderr in `dir`. The peak is what wait4 reports: the
/// larger of the process's own and its reaped children's, counting the pages of the test it was
/// forked from, so it errs high, never low.
fn run_measured(cmd: &mut Command, dir: &Path) -> Run {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    cmd.stdout(File::create(&out).expect("stdout file"))
        .stderr(File::create(&err).expect("stderr file"));
    let mut group = Group::spawn(cmd);
    let pid = libc::pid_t::try_from(group.child().id()).expect("a pid");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 writes it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "{}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        stdout: std::fs::read_to_string(out).expect("stdout"),
        stderr: std::fs::read_to_string(err).expect("stderr"),
        peak: u64::try_from(usage.ru_maxrss).expect("a size") * 1024,
    }
}

#[test]
fn eight_jobs_of_4_mib_answers_stay_within_the_runner_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Every answer is a line just under 4 MiB of 279,000 one-member objects, the widest JSON
    // the answer line holds, and each accepted decode is sent back for re-encoding.
    let mut cmd = gdmarshal_command();
    cmd.current_dir(root()).args([
        "conform",
        "--testee",
        "python3 tests/testees/hostile.py wide",
        "--godot",
        "4.6",
        "--jobs",
        "8",
        "--timeout",
        "120",
        "--run",
        "decode/valid/int/*",
    ]);
    let r = run_measured(&mut cmd, dir.path());
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    // Every case was answered and judged (4.6's 13 decode/valid/int cases): the testee's
    // Arrays are not the engines' values.
    assert!(
        r.stdout.contains("FAILED: 13 failing cases"),
        "{}",
        r.stdout
    );
    // docs/conformance.md, "Limits": the runner's budget for --jobs 8.
    assert!(
        r.peak < 800 * MIB,
        "peak {} MiB, over the 800 MiB budget",
        r.peak / MIB
    );
}

/// Runs `gdmarshal testee` with `stdin`.
fn testee(stdin: Stdio, dir: &Path) -> Run {
    let mut cmd = gdmarshal_command();
    cmd.arg("testee").stdin(stdin);
    run_measured(&mut cmd, dir)
}

/// Asserts that a run refused its input with one line that says so, within 64 MiB.
fn refused(r: &Run) -> &str {
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.peak < 64 * MIB, "peak {} MiB", r.peak / MIB);
    r.stderr.trim_end()
}

#[test]
fn the_testee_refuses_an_endless_request_line_from_dev_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let zero = File::open("/dev/zero").expect("/dev/zero");
    let r = testee(Stdio::from(zero), dir.path());
    let line = refused(&r);
    // The line's start, escaped, within 400 bytes: 80 NULs.
    let start = "\\u{0}".repeat(80);
    assert_eq!(
        line,
        format!(
            "gdmarshal: stdin line 1 (byte 0): a request longer than 8 MiB (the limit), it begins: {start}…"
        )
    );
}

#[test]
fn the_testee_refuses_a_line_a_fifo_never_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo");
    let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("a path");
    // SAFETY: `name` is a valid NUL-terminated path for the call's duration.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
    let path = fifo.clone();
    // The writer feeds the FIFO until the reader is gone.
    let writer = std::thread::spawn(move || {
        let mut f = File::options().write(true).open(path).expect("fifo");
        let chunk = vec![b'{'; 1 << 16];
        while f.write_all(&chunk).is_ok() {}
    });
    let reader = File::open(&fifo).expect("fifo");
    let r = testee(Stdio::from(reader), dir.path());
    writer.join().expect("writer");
    let line = refused(&r);
    assert!(
        line.starts_with(
            "gdmarshal: stdin line 1 (byte 0): a request longer than 8 MiB (the limit), it begins: {{{{"
        ),
        "{line}"
    );
}

#[test]
fn a_long_request_after_a_good_one_is_refused_with_its_line_and_offset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("input");
    let mut text = b"{\"op\":\"hello\",\"protocol\":1}\n\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 9 << 20));
    std::fs::write(&input, &text).expect("input");
    let r = testee(Stdio::from(File::open(&input).expect("input")), dir.path());
    assert!(
        r.stdout.starts_with("{\"name\":\"gdmarshal "),
        "{}",
        r.stdout
    );
    let line = refused(&r);
    assert!(
        line.starts_with(
            "gdmarshal: stdin line 3 (byte 29): a request longer than 8 MiB (the limit), it begins: xxxx"
        ),
        "{line}"
    );
}

#[test]
fn more_jobs_than_the_budget_holds_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    for jobs in ["17", "64"] {
        let mut cmd = gdmarshal_command();
        cmd.args([
            "conform", "--testee", "true", "--godot", "4.6", "--jobs", jobs,
        ]);
        let r = run_measured(&mut cmd, dir.path());
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "invalid value '{jobs}' for '--jobs <JOBS>': give 1 to 16 testee processes: \
                 the runner's memory budget holds 16 (docs/conformance.md, \"Limits\")"
            )),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn a_request_that_is_not_utf8_is_refused_with_its_line_offset_and_length() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("input");
    let mut text = b"{\"op\":\"hello\",\"protocol\":1}\nab\xffcd".to_vec();
    text.extend(std::iter::repeat_n(b'x', 300));
    std::fs::write(&input, &text).expect("input");
    let r = testee(Stdio::from(File::open(&input).expect("input")), dir.path());
    let line = refused(&r);
    let shown = format!("ab\u{fffd}cd{}", "x".repeat(195));
    assert_eq!(
        line,
        format!(
            "gdmarshal: stdin line 2 (byte 30): a request that is not UTF-8, it begins: {shown}… (cut: 305 bytes in all)"
        )
    );
}
