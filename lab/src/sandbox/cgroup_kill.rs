//! Killing a tree's cgroups and removing their folders, by path: what a [`super::Cgroup`] does
//! when it is dropped, and what the signal handler ([`super::interrupt`]) does to every tree at
//! once.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Removes a killed tree's cgroup folders (best effort: a folder still holding a process stays).
pub(crate) fn remove_dirs(dirs: &[PathBuf]) {
    for d in dirs {
        let _ = fs::remove_dir(d);
    }
}

/// Kills every process in the cgroup folders `dirs` (one tree's, as [`Cgroup::dirs`](super::Cgroup::dirs) gives them)
/// and waits up to five seconds until none is left. v2: `cgroup.kill`; v1 (no `cgroup.kill`):
/// the freezer folder is frozen so that nothing forks meanwhile, every member gets SIGKILL, and
/// it is thawed so that the signals are delivered.
pub(crate) fn kill_dirs(dirs: &[PathBuf]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    for d in dirs {
        let kill = d.join("cgroup.kill");
        if kill.exists() {
            let _ = write_file(&kill, "1");
        }
    }
    let freezer = dirs.iter().find(|d| d.join("freezer.state").exists());
    loop {
        let members: Vec<i32> = dirs.iter().flat_map(|d| members(d)).collect();
        if members.is_empty() || Instant::now() > deadline {
            return;
        }
        if let Some(f) = freezer {
            let _ = write_file(&f.join("freezer.state"), "FROZEN");
        }
        for pid in members {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        if let Some(f) = freezer {
            let _ = write_file(&f.join("freezer.state"), "THAWED");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The processes in a cgroup folder.
pub(crate) fn members(dir: &Path) -> Vec<i32> {
    fs::read_to_string(dir.join("cgroup.procs"))
        .map(|t| t.lines().filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_default()
}

/// Writes `text` to a cgroup file (opened for writing only: cgroup files cannot be truncated).
pub(crate) fn write_file(path: &Path, text: &str) -> io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
}
