//! Processes started by tests: each leads its own process group and dies with the test. It gets
//! SIGKILL when the thread that started it ends (`PR_SET_PDEATHSIG`), and a [`Group`] kills its
//! whole group when dropped, so that a failed assertion or a hang leaves nothing running.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Output, Stdio};

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

/// Sends `signal` to the process `pid`.
pub fn signal(pid: u32, signal: i32) {
    if let Ok(pid) = libc::pid_t::try_from(pid) {
        // SAFETY: sending a signal has no memory-safety preconditions.
        unsafe {
            libc::kill(pid, signal);
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
