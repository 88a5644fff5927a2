//! Process groups: every process the lab starts (engines, testees) leads a group of its own, so
//! that killing it kills whatever it started too, and so that no job-control signal meant for
//! the terminal's group (or sent when a group is orphaned, like SIGCONT) reaches it by accident.
//! Each place that starts a process says `process_group(0)` itself, next to the command it
//! builds; this module kills and watches such groups.

use std::process::Child;

/// Kills the child's whole process group (the child and everything it started), then the child
/// itself in case it has left its group.
pub fn kill_group(child: &mut Child) {
    // The group id is the child's own pid (it leads its group: `process_group(0)` where it was
    // started), so no unrelated group is hit.
    #[cfg(unix)]
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_child(child),
        rustix::process::Signal::KILL,
    );
    let _ = child.kill();
}

/// Whether the child has ended (exited or been killed), without reaping it: while it is not
/// reaped its pid stays its own, so [`kill_group`] can still reach whatever it left running in
/// its group. A child already reaped counts as ended.
pub fn has_exited(child: &mut Child) -> bool {
    // std's `try_wait` reaps; `waitid` with WNOWAIT leaves the child waitable, so std's own wait
    // still reaps it later.
    #[cfg(unix)]
    {
        use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        if let Ok(status) = waitid(WaitId::Pid(Pid::from_child(child)), options) {
            return status.is_some();
        }
    }
    matches!(child.try_wait(), Ok(Some(_)))
}
