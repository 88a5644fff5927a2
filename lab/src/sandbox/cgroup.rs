//! A control group per sandboxed process tree: a memory limit and a process limit for the whole
//! tree (children, shared memory and `setsid` escapees included) and a kill that reaches every
//! process in it. Made only below the cgroups this process already belongs to. Two layouts:
//! cgroup v2 (`memory.max`, `pids.max`, `cgroup.kill`) and the v1 controllers mounted side by
//! side (`memory`, `pids`, `freezer`: freeze, SIGKILL every member, thaw).

use super::cgroup_kill::{kill_dirs, members, remove_dirs, write_file};

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where cgroup file systems are mounted.
const ROOT: &str = "/sys/fs/cgroup";

/// Why no cgroup could be made.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CgroupError {
    /// Neither a v2 hierarchy with the memory and pids controllers nor their v1 mounts.
    #[error("no cgroup hierarchy with the memory and pids controllers under {ROOT}")]
    NoControllers,
    /// The controllers are there but not delegated to this process's cgroup.
    #[error("cgroup {0}: the memory and pids controllers are not delegated to it")]
    NotDelegated(PathBuf),
    /// cgroup v2: the process's cgroup holds other processes, so no controller can be enabled
    /// below it.
    #[error("cgroup {0}: it holds other processes, so no controller can be enabled below it")]
    Crowded(PathBuf),
    /// A cgroup file could not be made or written.
    #[error("cgroup {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the kernel said.
        source: std::sync::Arc<io::Error>,
    },
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> CgroupError + '_ {
    move |source| CgroupError::Io {
        path: path.to_path_buf(),
        source: std::sync::Arc::new(source),
    }
}

/// The limits of one tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// Memory of the whole tree in bytes (its processes, their page cache and shared memory).
    pub memory: u64,
    /// Processes (and threads) of the whole tree at once.
    pub processes: u64,
}

/// Which layout this machine has.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Layout {
    /// cgroup v2: the folder of this process's cgroup, controllers enabled for its children.
    V2(PathBuf),
    /// cgroup v1: the folders of this process's memory, pids and freezer cgroups.
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        freezer: PathBuf,
    },
}

/// One tree's cgroup (one folder per hierarchy). Dropping it kills every process left in it and
/// removes it.
#[derive(Debug)]
pub struct Cgroup {
    layout: Layout,
    /// The tree's folders: v2 one, v1 memory, pids and freezer.
    dirs: Vec<PathBuf>,
    /// `cgroup.procs` of each folder, opened before the fork: the child writes `0` (itself) to each.
    procs: Vec<File>,
    /// The folders' place in the signal handler's list, from before they were made.
    _registered: super::interrupt::Registered,
}

impl Cgroup {
    /// Makes a cgroup below this process's own, with `limits`.
    pub fn create(limits: TreeLimits) -> Result<Cgroup, CgroupError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let layout = layout()?;
        let name = format!(
            "gdmarshal-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let parents: Vec<&PathBuf> = match &layout {
            Layout::V2(own) => vec![own],
            Layout::V1 {
                memory,
                pids,
                freezer,
            } => vec![memory, pids, freezer],
        };
        let dirs: Vec<PathBuf> = parents.into_iter().map(|p| p.join(&name)).collect();
        // Made under the signal handler's lock, so that a signal now removes them too.
        let registered = super::interrupt::Registered::making(dirs.clone(), || {
            for dir in &dirs {
                if let Err(e) = fs::create_dir(dir) {
                    remove_dirs(&dirs);
                    return Err(io_at(dir)(e));
                }
            }
            Ok(())
        })?;
        let mut group = Cgroup {
            layout: layout.clone(),
            dirs,
            procs: Vec::new(),
            _registered: registered,
        };
        group.limit(limits)?;
        for dir in &group.dirs {
            let path = dir.join("cgroup.procs");
            let file = fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(io_at(&path))?;
            group.procs.push(file);
        }
        Ok(group)
    }

    fn limit(&self, limits: TreeLimits) -> Result<(), CgroupError> {
        let (memory, processes) = (limits.memory.to_string(), limits.processes.to_string());
        let d = &self.dirs[0];
        match &self.layout {
            Layout::V2(_) => {
                write(&d.join("memory.max"), &memory)?;
                // Swap would let a tree hold more than memory.max: none.
                let swap = d.join("memory.swap.max");
                if swap.exists() {
                    write(&swap, "0")?;
                }
                write(&d.join("pids.max"), &processes)
            }
            Layout::V1 { .. } => {
                write(&d.join("memory.limit_in_bytes"), &memory)?;
                // memory + swap, where the kernel accounts swap (set after the memory limit: it
                // may not be below it).
                let memsw = d.join("memory.memsw.limit_in_bytes");
                if memsw.exists() {
                    write(&memsw, &memory)?;
                }
                write(&self.dirs[1].join("pids.max"), &processes)
            }
        }
    }

    /// Makes the command's process join this cgroup before `exec`, so that everything it starts
    /// is in it from the first instruction.
    pub(crate) fn join_on(&self, cmd: &mut std::process::Command) {
        use std::os::fd::{AsRawFd, BorrowedFd};
        use std::os::unix::process::CommandExt;
        let fds: Vec<i32> = self.procs.iter().map(AsRawFd::as_raw_fd).collect();
        // SAFETY: the closure runs in the forked child before exec and makes only write system
        // calls on descriptors this value keeps open until the command has been spawned; `fds`
        // was built before the fork and is only read.
        unsafe {
            cmd.pre_exec(move || {
                for &fd in &fds {
                    // `0` is the writing process itself, in v1 and v2 alike.
                    rustix::io::write(BorrowedFd::borrow_raw(fd), b"0")?;
                }
                Ok(())
            });
        }
    }

    /// The folders, for [`kill_dirs`](super::cgroup_kill::kill_dirs).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Kills every process in the cgroup and waits (up to five seconds) until none is left.
    pub fn kill(&self) {
        kill_dirs(&self.dirs);
    }

    /// How many of the tree's processes the kernel killed for going past its memory limit
    /// (`oom_kill` in v2's `memory.events`, v1's `memory.oom_control`).
    pub fn oom_kills(&self) -> u64 {
        let file = match &self.layout {
            Layout::V2(_) => "memory.events",
            Layout::V1 { .. } => "memory.oom_control",
        };
        fs::read_to_string(self.dirs[0].join(file))
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("oom_kill ").and_then(|n| n.parse().ok()))
            })
            .unwrap_or(0)
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill();
        remove_dirs(&self.dirs);
    }
}

fn write(path: &Path, text: &str) -> Result<(), CgroupError> {
    write_file(path, text).map_err(io_at(path))
}

/// This machine's layout, worked out once.
fn layout() -> Result<Layout, CgroupError> {
    static LAYOUT: std::sync::OnceLock<Result<Layout, CgroupError>> = std::sync::OnceLock::new();
    let found = LAYOUT.get_or_init(|| {
        let own = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        find_layout(Path::new(ROOT), &own)
    });
    found.clone().and_then(|l| match l {
        Layout::V2(own) => delegate_v2(&own).map(|()| Layout::V2(own)),
        v1 => Ok(v1),
    })
}

/// The layout under `root` for a process whose `/proc/self/cgroup` reads `own`: the v1 memory,
/// pids and freezer controllers where all three are mounted, else the v2 hierarchy (at `root`,
/// or `root/unified` beside v1) when it has the memory and pids controllers.
fn find_layout(root: &Path, own: &str) -> Result<Layout, CgroupError> {
    let path_of = |controller: &str| {
        own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
            names
                .split(',')
                .any(|n| n == controller)
                .then(|| path.trim_start_matches('/').to_string())
        })
    };
    let v1 = |c: &str| {
        let mount = root.join(c);
        let path = path_of(c)?;
        mount
            .join("cgroup.procs")
            .exists()
            .then(|| mount.join(path))
    };
    if let (Some(memory), Some(pids), Some(freezer)) = (v1("memory"), v1("pids"), v1("freezer")) {
        return Ok(Layout::V1 {
            memory,
            pids,
            freezer,
        });
    }
    let Some(path) = path_of("") else {
        return Err(CgroupError::NoControllers);
    };
    for mount in [root.to_path_buf(), root.join("unified")] {
        let controllers = fs::read_to_string(mount.join("cgroup.controllers")).unwrap_or_default();
        let has = |c: &str| controllers.split_whitespace().any(|n| n == c);
        if has("memory") && has("pids") {
            return Ok(Layout::V2(mount.join(path)));
        }
    }
    Err(CgroupError::NoControllers)
}

/// Enables the memory and pids controllers for the children of `own` (v2), once. The kernel
/// refuses that while `own` holds processes; when the only one is this process, it moves into a
/// leaf of its own below `own` first (`gdmarshal-host-PID`), which keeps everything below the
/// cgroup it started in.
fn delegate_v2(own: &Path) -> Result<(), CgroupError> {
    static DONE: std::sync::OnceLock<Result<(), CgroupError>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let control = own.join("cgroup.subtree_control");
        let enabled = |c: &str| {
            fs::read_to_string(&control)
                .unwrap_or_default()
                .split_whitespace()
                .any(|n| n == c)
        };
        if enabled("memory") && enabled("pids") {
            return Ok(());
        }
        let available = fs::read_to_string(own.join("cgroup.controllers")).unwrap_or_default();
        if !["memory", "pids"]
            .iter()
            .all(|c| available.split_whitespace().any(|n| n == *c))
        {
            return Err(CgroupError::NotDelegated(own.to_path_buf()));
        }
        if write(&control, "+memory +pids").is_ok() {
            return Ok(());
        }
        let me = i32::try_from(std::process::id()).unwrap_or(0);
        if members(own) != [me] {
            return Err(CgroupError::Crowded(own.to_path_buf()));
        }
        let leaf = own.join(format!("gdmarshal-host-{me}"));
        fs::create_dir_all(&leaf)
            .map_err(io_at(&leaf))
            .and_then(|()| write(&leaf.join("cgroup.procs"), "0"))
            .and_then(|()| write(&control, "+memory +pids"))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_read_below_the_process_own_cgroups() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        // Hybrid (this project's machines): v1 controllers beside a controller-less v2.
        for c in ["memory", "pids", "freezer", "unified"] {
            fs::create_dir(r.join(c)).unwrap();
        }
        for c in ["memory", "pids", "freezer"] {
            fs::write(r.join(c).join("cgroup.procs"), "").unwrap();
        }
        fs::write(r.join("unified/cgroup.controllers"), "").unwrap();
        let own = "8:pids:/\n6:freezer:/\n4:memory:/process_api/abc\n1:cpu,cpuacct:/\n0::/\n";
        assert_eq!(
            find_layout(r, own).unwrap(),
            Layout::V1 {
                memory: r.join("memory/process_api/abc"),
                pids: r.join("pids/"),
                freezer: r.join("freezer/"),
            }
        );
        // Pure v2 (GitHub's runners): the process's own cgroup.
        let v2 = tempfile::tempdir().unwrap();
        fs::write(v2.path().join("cgroup.controllers"), "cpu io memory pids").unwrap();
        assert_eq!(
            find_layout(v2.path(), "0::/system.slice/job.scope\n").unwrap(),
            Layout::V2(v2.path().join("system.slice/job.scope"))
        );
        fs::write(v2.path().join("cgroup.controllers"), "cpu io").unwrap();
        assert!(matches!(
            find_layout(v2.path(), "0::/x\n"),
            Err(CgroupError::NoControllers)
        ));
    }
}
