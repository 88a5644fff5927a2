//! Process groups: every process the lab starts (engines, testees) leads a group of its own, so
//! that killing it kills whatever it started too, and so that no job-control signal meant for
//! the terminal's group (or sent when a group is orphaned, like SIGCONT) reaches it by accident.

use std::process::{Child, Command};

/// Makes the command's process the leader of a new process group.
pub fn own_group(cmd: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd
}

/// Kills the child's whole process group (the child and everything it started), then the child
/// itself in case it has left its group.
pub fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: sending a signal has no memory-safety preconditions; the group id is the
        // child's own pid (it leads its group, see `own_group`), so no unrelated group is hit.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}
