//! Helpers shared by the integration tests. Every process a test starts leads its own process
//! group and dies with the test: it gets SIGKILL when the thread that started it ends
//! (`PR_SET_PDEATHSIG`), and a [`Group`] kills its whole group when dropped, so that a failed
//! assertion or a hang leaves nothing running.
#![allow(dead_code, unused_imports)] // each test file uses some of these

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};

pub use gdmarshal_testkit::{Group, command, signal};

/// The `gdmarshal` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_gdmarshal");

/// A command for the `gdmarshal` binary (see [`command`]).
pub fn gdmarshal_command() -> Command {
    command(BIN)
}

/// Limits the address space of the command's process to `bytes`.
pub fn limit_address_space(cmd: &mut Command, bytes: u64) {
    let rlimit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit is async-signal-safe, and the closure touches nothing else.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &rlimit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

/// A process's stdout then its stderr, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs the `gdmarshal` binary with `args`, feeding `input` on stdin.
pub fn gdmarshal(args: &[&str], input: &[u8]) -> Output {
    let mut group = Group::spawn(
        gdmarshal_command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    group
        .child()
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("stdin takes the input");
    group.wait_with_output()
}

/// Runs `gdmarshal ARGS` in the folder `dir`: its exit code, stdout and stderr.
pub fn gdmarshal_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Group::spawn(
        gdmarshal_command()
            .current_dir(dir)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .wait_with_output();
    outcome(out)
}

/// Runs a Python check `script` on `file` (its `sys.argv[1]`), fails the test with the script's
/// stderr unless it succeeds, and returns its output.
pub fn python_check(script: &str, file: &std::path::Path) -> std::process::Output {
    let check = command("python3")
        .arg("-c")
        .arg(script)
        .arg(file)
        .output()
        .expect("python3 runs");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    check
}

/// A finished run as the tests read it: its exit code (-1 when killed), stdout and stderr.
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
