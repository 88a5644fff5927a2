//! Process groups: every process the lab starts (engines, testees) leads a group of its own, so
//! that killing it kills whatever it started too, and so that no job-control signal meant for
//! the terminal's group (or sent when a group is orphaned, like SIGCONT) reaches it by accident.
//! Each place that starts a process says `process_group(0)` itself, next to the command it
//! builds; this module kills and watches such groups.

use std::process::Child;

/// Kills the child's whole process group (the child and everything it started), then the child
/// itself in case it has left its group.
pub fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: sending a signal has no memory-safety preconditions; the group id is the
        // child's own pid (it leads its group: `process_group(0)` where it was started), so no unrelated group is hit.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

/// Whether the child has ended (exited or been killed), without reaping it: while it is not
/// reaped its pid stays its own, so [`kill_group`] can still reach whatever it left running in
/// its group. A child already reaped counts as ended.
pub fn has_exited(child: &mut Child) -> bool {
    #[cfg(unix)]
    {
        let pid: libc::id_t = child.id();
        // SAFETY: an all-zero siginfo_t is a valid value (a plain C struct); waitid writes into
        // it and reads nothing else. WNOWAIT leaves the child waitable, so std's own wait still
        // reaps it later.
        let (r, info) = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            (r, info)
        };
        if r == 0 {
            // SAFETY: si_pid reads the field waitid fills for an ended child (left zero
            // otherwise, as zeroed above).
            return unsafe { info.si_pid() } != 0;
        }
    }
    matches!(child.try_wait(), Ok(Some(_)))
}
