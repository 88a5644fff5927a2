//! Helpers shared by the integration tests. Every process a test starts leads its own process
//! group and dies with the test: it gets SIGKILL when the thread that started it ends
//! (`PR_SET_PDEATHSIG`), and a [`Group`] kills its whole group when dropped, so that a failed
//! assertion or a hang leaves nothing running.
#![allow(dead_code)] // each test file uses some of these

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};

/// The `gdmarshal` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_gdmarshal");

/// A command for `program` that leads its own process group and dies with the test's thread.
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut cmd = Command::new(program);
    // No input unless a test gives one: a child never reads the test's own stdin.
    cmd.process_group(0).stdin(Stdio::null());
    // SAFETY: prctl is async-signal-safe, and the closure touches nothing else.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    cmd
}

/// A command for the `gdmarshal` binary (see [`command`]).
pub fn gdmarshal_command() -> Command {
    command(BIN)
}

/// The `gdmarshal` that judges in `gdmarshal conform` runs: this tree's, or the binary named by
/// `GDMARSHAL_CONFORM_RUNNER`. Mutation testing (scripts/mutants.sh corpus) names one built from
/// the unmutated tree, so that a mutant of the codec changes the testee's answers but not the judge.
pub fn conform_runner() -> Command {
    match std::env::var_os("GDMARSHAL_CONFORM_RUNNER") {
        Some(runner) => command(runner),
        None => gdmarshal_command(),
    }
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

/// Sends `signal` to the process `pid`.
pub fn signal(pid: u32, signal: i32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: sending a signal has no memory-safety preconditions.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// A started child whose whole process group is killed when this is dropped.
pub struct Group(Option<Child>);

impl Group {
    /// Starts `cmd` (made by [`command`], so that it leads its group).
    pub fn spawn(cmd: &mut Command) -> Group {
        Group(Some(cmd.spawn().expect("the process starts")))
    }

    /// The child.
    pub fn child(&mut self) -> &mut Child {
        self.0.as_mut().expect("not yet waited for")
    }

    /// Waits for the child and collects its output; whatever it left in its group is killed.
    pub fn wait_with_output(mut self) -> Output {
        let child = self.0.take().expect("not yet waited for");
        let pid = child.id();
        let out = child.wait_with_output().expect("the process finishes");
        kill_group(pid);
        out
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            kill_group(child.id());
            let _ = child.wait();
        }
    }
}

fn kill_group(leader: u32) {
    if let Ok(pid) = libc::pid_t::try_from(leader) {
        // SAFETY: as in `signal`; the group id is the leader's pid, a group of the test's own.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
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
