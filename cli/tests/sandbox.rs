//! The sandbox of testees (docs/security.md, "The sandbox"): each guard is an attempt by a
//! testee running as root (tests/testees/hostile.py) that must fail under the default sandbox,
//! and the same attempt with `--sandbox off` shows that it is a real one (it succeeds there).

mod common;
#[path = "../../tests/testees/escape_targets.rs"]
mod escape_targets;

use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use common::{Group, gdmarshal_command, signal, text};
use escape_targets::Targets;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits inside the repository")
}

/// `gdmarshal conform` over the ten `encode/int` cases of 4.6 with a hostile testee.
fn conform(mode: &str, extra: &[&str]) -> Output {
    conform_cases(mode, "encode/int/*", extra)
}

/// `gdmarshal conform` over the cases of 4.6 that `glob` matches with a hostile testee.
fn conform_cases(mode: &str, glob: &str, extra: &[&str]) -> Output {
    Group::spawn(
        gdmarshal_command()
            .current_dir(root())
            .env("GDMARSHAL_TEST_SECRET", "s3cr3t-value")
            .args(["conform", "--godot", "4.6", "--run", glob])
            .arg("--testee")
            .arg(format!("python3 tests/testees/hostile.py {mode}"))
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .wait_with_output()
}

/// The processes whose command line contains `needle`, other than the runner (whose
/// `--testee` names it).
fn running(needle: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) && !cmdline.contains("--testee") {
            found.push(pid);
        }
    }
    found
}

/// Waits until a testee whose command line holds `needle` runs, then two seconds more: its
/// handshake is answered at once, and its first case hangs.
fn wait_for_hung(needle: &str) {
    let start = Instant::now();
    while running(needle).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(30), "no testee ran");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_secs(2));
}

/// An engine binary to attack: an installed engine's launcher, else this runner's own binary.
fn engine_binary() -> String {
    gdmarshal_lab::oracle::discover()
        .first()
        .map(|s| s.launcher.display().to_string())
        .unwrap_or_else(|| common::BIN.to_string())
}

#[test]
fn a_root_testee_cannot_reach_the_host_write_engines_or_read_secrets() {
    let targets = Targets::new(env!("CARGO_TARGET_TMPDIR"));
    let engine = engine_binary();
    let before = std::fs::read(&engine).unwrap();
    // A process of the host's to trace and to enter the namespaces and the root of.
    let mut host_process = Group::spawn(common::command("sleep").arg("600"));
    let pid = host_process.child().id();
    let mode = targets
        .args(pid, &engine, "GDMARSHAL_TEST_SECRET")
        .join(" ");
    let fenced = conform(&mode, &["--testee-network", "none"]);
    let said = text(&fenced);
    targets.assert_all_refused(&said);
    assert!(!said.contains("s3cr3t-value"), "{said}");
    assert_eq!(std::fs::read(&engine).unwrap(), before);

    // A variable named with --testee-env is passed.
    let passed = conform(
        &mode,
        &[
            "--testee-network",
            "none",
            "--testee-env",
            "GDMARSHAL_TEST_SECRET",
        ],
    );
    assert!(
        text(&passed).contains("var s3cr3t-value"),
        "{}",
        text(&passed)
    );

    // Without the sandbox every route is open to root (the engine binary is only opened).
    let open = conform(&mode, &["--testee-network", "none", "--sandbox", "off"]);
    let said = text(&open);
    for reached in [
        "setns ok",
        "ptrace ok",
        "unix ok",
        "write ok",
        "engine ok",
        "var s3cr3t-value",
        "nnp 0",
        "unshare ok",
    ] {
        assert!(said.contains(reached), "{reached}: {said}");
    }
    let (tcp, unix) = targets.reached();
    assert!(tcp >= 1 && unix >= 1, "{said}");
    assert!(!targets.file_intact());
    assert_eq!(std::fs::read(&engine).unwrap(), before);
}

#[test]
fn memory_held_by_children_or_shared_memory_counts_against_the_tree() {
    // 256 MiB for each process and for the whole tree.
    for (mode, held) in [
        ("children 3 150", "held 450 MiB in 3 children"),
        ("shm 400", "held 400 MiB of shared memory"),
    ] {
        let fenced = conform(mode, &["--testee-memory", "256"]);
        let said = text(&fenced);
        assert!(!said.contains(held), "{mode}: {said}");
        // Each case fails (4.6 has 13 encode/int cases) and the run goes on.
        assert!(said.contains("13 cases in"), "{mode}: {said}");
        assert!(said.contains("FAILED: 13 failing cases"), "{mode}: {said}");
        let open = conform(mode, &["--testee-memory", "256", "--sandbox", "off"]);
        assert!(text(&open).contains(held), "{mode}: {}", text(&open));
    }
}

#[test]
fn a_fork_loop_stops_below_1024_processes() {
    // One case: without the sandbox each case would add 1,100 more. Forking a thousand
    // processes takes seconds on a loaded machine: not a hang.
    let fenced = conform_cases("fork-loop 1100", "encode/int/0", &["--timeout", "60"]);
    let said = text(&fenced);
    let started: Vec<usize> = said
        .split("started ")
        .skip(1)
        .filter_map(|s| s.split(' ').next()?.parse().ok())
        .collect();
    assert!(!started.is_empty(), "{said}");
    assert!(started.iter().all(|&n| n < 1024), "{started:?}");
    let open = conform_cases(
        "fork-loop 1100",
        "encode/int/0",
        &["--timeout", "60", "--sandbox", "off"],
    );
    assert!(
        text(&open).contains("started 1100 children"),
        "{}",
        text(&open)
    );
}

#[test]
fn a_setsid_survivor_does_not_outlive_the_run() {
    let fenced = conform("setsid 611.25", &[]);
    assert!(
        text(&fenced).contains("left sleep 611.25"),
        "{}",
        text(&fenced)
    );
    assert_eq!(running("sleep 611.25"), Vec::<i32>::new());
    // Without the sandbox it escapes its process group and stays.
    let open = conform("setsid 612.25", &["--sandbox", "off"]);
    let left = running("sleep 612.25");
    for pid in &left {
        signal(u32::try_from(*pid).unwrap(), libc::SIGKILL);
    }
    assert!(!left.is_empty(), "{}", text(&open));
}

#[test]
fn a_signal_with_a_hung_testee_kills_it_writes_the_report_and_exits_128_plus_n() {
    for (sig, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("report.json");
        let mut run = Group::spawn(
            gdmarshal_command()
                .current_dir(root())
                .args(["conform", "--godot", "4.6", "--run", "encode/int/*"])
                .args(["--testee", "python3 tests/testees/hostile.py hang once"])
                .args(["--timeout", "60", "--format", "json", "--output"])
                .arg(&report)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        );
        wait_for_hung("tests/testees/hostile.py hang once");
        let asked = Instant::now();
        signal(run.child().id(), sig);
        let out = run.wait_with_output();
        assert!(asked.elapsed() < Duration::from_secs(10), "{}", text(&out));
        assert_eq!(out.status.code(), Some(code), "{}", text(&out));
        assert_eq!(
            running("tests/testees/hostile.py hang once"),
            Vec::<i32>::new()
        );
        let mut json = String::new();
        std::fs::File::open(&report)
            .unwrap()
            .read_to_string(&mut json)
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let cases = v["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 13, "{json}");
        assert!(cases.iter().all(|c| c["not_run"] == true), "{json}");
        assert_eq!(v["stopped"]["not_run"], 13, "{json}");
        assert!(
            v["stopped"]["why"]
                .as_str()
                .unwrap()
                .starts_with("interrupted by SIG"),
            "{json}"
        );
    }
}

/// A second signal exits at once: after the first has killed the hung testee, the run writes its
/// JUnit report of every case to a stdout nobody reads, and blocks once the pipe is full; the
/// second SIGINT ends it with status 130, nothing of the testee left. (`twice` and `once`
/// set its testees apart from the other test's, which may run at the same time.)
#[test]
fn a_second_signal_exits_at_once_while_the_report_is_being_written() {
    let mut run = Group::spawn(
        gdmarshal_command()
            .current_dir(root())
            .args(["conform", "--godot", "4.6", "--format", "junit"])
            .args(["--testee", "python3 tests/testees/hostile.py hang twice"])
            .args(["--timeout", "60"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    wait_for_hung("tests/testees/hostile.py hang twice");
    let pid = run.child().id();
    signal(pid, libc::SIGINT);
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        running("tests/testees/hostile.py hang twice"),
        Vec::<i32>::new()
    );
    assert!(
        run.child().try_wait().unwrap().is_none(),
        "the report fitted in the pipe: the run ended after one signal"
    );
    let asked = Instant::now();
    signal(pid, libc::SIGINT);
    // The pipe is read only once the run has ended: reading it sooner lets the blocked report
    // go on, and finish, in the moment before the second signal is handled.
    let status = loop {
        if let Some(status) = run.child().try_wait().unwrap() {
            break status;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "the second signal did not end the run"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut stdout_pipe, mut stderr_pipe) = (
        run.child().stdout.take().unwrap(),
        run.child().stderr.take().unwrap(),
    );
    // Whatever the run left in its group goes with it, so that the pipes end.
    drop(run);
    let mut out = Output {
        status,
        stdout: Vec::new(),
        stderr: Vec::new(),
    };
    stdout_pipe.read_to_end(&mut out.stdout).unwrap();
    stderr_pipe.read_to_end(&mut out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out));
    // What reached the pipe is the start of the report (64 KiB on Linux), not all of it.
    assert!(out.stdout.starts_with(b"<?xml"), "{}", text(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("</testsuites>"));
}

/// Where a layer is missing (here bubblewrap, absent from the `PATH`), `--sandbox auto` names it
/// once and the run goes on; `--sandbox strict` refuses to start the testee, naming the layer
/// and why, with exit status 2.
#[test]
fn a_missing_layer_is_named_once_and_strict_makes_it_an_error() {
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.path().join("sh")).unwrap();
    let testee = concat!(env!("CARGO_BIN_EXE_gdmarshal"), " testee");
    let run = |mode: &str| {
        Group::spawn(
            gdmarshal_command()
                .current_dir(root())
                .env("PATH", bin.path())
                .args(["conform", "--godot", "4.6", "--run", "encode/int/*"])
                .args(["--testee", testee, "--sandbox", mode])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .wait_with_output()
    };
    let missing = "sandbox layer namespaces and read-only view";
    let why = "bubblewrap (bwrap) is not installed";
    let auto = run("auto");
    let err = String::from_utf8_lossy(&auto.stderr);
    assert_eq!(auto.status.code(), Some(0), "{}", text(&auto));
    assert_eq!(
        err.matches(&format!("note: {missing} is missing: {why}"))
            .count(),
        1,
        "{}",
        text(&auto)
    );
    let strict = run("strict");
    assert_eq!(strict.status.code(), Some(2), "{}", text(&strict));
    assert!(
        String::from_utf8_lossy(&strict.stderr)
            .contains(&format!("{missing} is not available: {why}")),
        "{}",
        text(&strict)
    );
}
