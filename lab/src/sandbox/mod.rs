//! One home for how any child process the lab feeds hostile input is started, limited, fenced
//! and killed: engines and testees (docs/security.md, "The sandbox"). A [`Sandbox`] turns a
//! [`Plan`] (program, scratch folder, environment) into a [`Jail`]: the command to spawn, inside
//! bubblewrap's namespaces and read-only view ([`bwrap`]) under a system-call filter
//! ([`seccomp`]), in a cgroup of its own ([`cgroup`]), with a reduced environment ([`env`](mod@env)).
//! Where the kernel refuses a layer, [`Mode::Auto`] names it once and goes on without it;
//! [`Mode::Strict`] makes that an error.

pub mod bwrap;
pub mod cgroup;
mod cgroup_kill;
pub mod env;
pub mod interrupt;
pub(crate) mod seccomp;
mod spawner;

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command};

pub use cgroup::TreeLimits;

pub use cgroup::{Cgroup, CgroupError};

/// How much of the sandbox a run insists on (`--sandbox`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mode {
    /// Every layer the kernel grants; a missing one is named once and the run goes on.
    #[default]
    Auto,
    /// Every layer, or the process is not started.
    Strict,
    /// None: the process starts as any child (the fences of `fence.rs` alone).
    Off,
}

/// A layer of the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layer {
    /// User, pid, mount, IPC and UTS namespaces, no capabilities, the read-only view and the
    /// system-call filter (bubblewrap).
    Namespaces,
    /// The cgroup of the tree: its memory and process limits and its kill.
    Cgroup,
    /// The system-call filter.
    Seccomp,
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Layer::Namespaces => "namespaces and read-only view",
            Layer::Cgroup => "cgroup (tree memory, process limit and kill)",
            Layer::Seccomp => "system-call filter",
        })
    }
}

/// A layer of the sandbox this machine refused, and why.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Refused {
    /// bubblewrap is missing or cannot make namespaces.
    #[error(transparent)]
    Namespaces(&'static bwrap::BwrapError),
    /// No cgroup could be made.
    #[error(transparent)]
    Cgroup(CgroupError),
    /// The system-call filter could not be built.
    #[error(transparent)]
    Seccomp(seccomp::SeccompError),
}

impl Refused {
    /// The layer refused.
    pub fn layer(&self) -> Layer {
        match self {
            Refused::Namespaces(_) => Layer::Namespaces,
            Refused::Cgroup(_) => Layer::Cgroup,
            Refused::Seccomp(_) => Layer::Seccomp,
        }
    }
}

/// Why a sandboxed process could not be prepared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// A layer the kernel refused, under `--sandbox strict`.
    #[error(
        "sandbox layer {layer} is not available: {0} (--sandbox auto goes on without it)",
        layer = .0.layer()
    )]
    Missing(Refused),
    /// The run was interrupted: nothing more is started.
    #[error("interrupted by {}: no process is started", interrupt::name(*.0))]
    Interrupted(i32),
    /// The scratch folder or a filter's file could not be made.
    #[error("sandbox: {0}")]
    Io(#[from] std::io::Error),
}

/// The sandbox of the processes of one kind (engines, testees).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// How much of it is required.
    pub mode: Mode,
    /// The limits of each process's whole tree.
    pub tree: TreeLimits,
}

impl Sandbox {
    /// Processes of a tree by default: 1,024 (a testee or engine needs a few dozen threads).
    pub const PROCESSES: u64 = 1024;
}

/// What to start.
pub struct Plan<'a> {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: &'a OsStr,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The writable folder (mode 0700).
    pub scratch: &'a Path,
    /// Further writable folders (none for engines and testees; a test engine's fault script).
    pub writable: &'a [std::path::PathBuf],
    /// The working folder.
    pub cwd: &'a Path,
    /// The whole environment, [`env::passed`] and the starter's own.
    pub env: Vec<(OsString, OsString)>,
    /// A network namespace of its own, with nothing but its loopback.
    pub own_network: bool,
}

/// A prepared command and what keeps its tree in bounds.
pub struct Jail {
    /// The command to start (add stdio, process group, rlimits; then [`Jail::spawn`]).
    pub command: Command,
    /// The tree's cgroup, when the kernel granted one.
    pub cgroup: Option<Cgroup>,
    /// Whether it runs under bubblewrap (whose exit status is 128 + N for a child killed by
    /// signal N).
    pub wrapped: bool,
    /// The filters' files: open until the command has been spawned.
    _seccomp: Vec<OwnedFd>,
}

impl Jail {
    /// Starts the command from a thread that lasts as long as the runner (`spawner.rs`), so that
    /// bubblewrap's parent-death signal fires when the runner ends, not the calling thread.
    pub fn spawn(&mut self) -> std::io::Result<Child> {
        let cmd = std::mem::replace(&mut self.command, Command::new(""));
        spawner::spawn(cmd)
    }
}

impl Sandbox {
    /// The command for `plan` in this sandbox.
    pub fn prepare(&self, plan: Plan<'_>) -> Result<Jail, SandboxError> {
        if let Some(sig) = interrupt::received() {
            return Err(SandboxError::Interrupted(sig));
        }
        // `clear`: the plan's environment alone; else the runner's with the plan's on top.
        let plain = |clear: bool| {
            let mut c = Command::new(plan.program);
            c.args(&plan.args).current_dir(plan.cwd).process_group(0);
            if clear {
                c.env_clear();
            }
            c.envs(plan.env.iter().map(|(k, v)| (k, v)));
            c
        };
        if self.mode == Mode::Off {
            return Ok(Jail {
                command: plain(false),
                cgroup: None,
                wrapped: false,
                _seccomp: Vec::new(),
            });
        }
        let cgroup = match Cgroup::create(self.tree) {
            Ok(c) => Some(c),
            Err(e) => {
                self.missing(Refused::Cgroup(e))?;
                None
            }
        };
        let (mut command, wrapped, seccomp) = match bwrap::available() {
            Ok(bwrap) => {
                let seccomp = match seccomp::files() {
                    Ok(files) => files,
                    Err(e) => {
                        self.missing(Refused::Seccomp(e))?;
                        Vec::new()
                    }
                };
                let fds: Vec<i32> = seccomp.iter().map(AsRawFd::as_raw_fd).collect();
                let view = bwrap::View {
                    scratch: plan.scratch,
                    writable: plan.writable,
                    cwd: plan.cwd,
                    own_network: plan.own_network,
                    seccomp: &fds,
                };
                let mut c = Command::new(bwrap);
                // The environment is bubblewrap's own, which it hands on: a secret given to it
                // as `--setenv` would show on its command line.
                c.args(bwrap::args(&view, plan.program, &plan.args))
                    .env_clear()
                    .envs(plan.env.iter().map(|(k, v)| (k, v)));
                inherit(&mut c, fds);
                (c, true, seccomp)
            }
            Err(why) => {
                self.missing(Refused::Namespaces(why))?;
                (plain(true), false, Vec::new())
            }
        };
        no_new_privs(&mut command);
        // Every sandboxed tree leads a process group of its own, which `Tree` kills whole.
        command.process_group(0);
        if let Some(c) = &cgroup {
            c.join_on(&mut command);
        }
        Ok(Jail {
            command,
            cgroup,
            wrapped,
            _seccomp: seccomp,
        })
    }

    /// Under [`Mode::Strict`], the error for a missing layer; else says once per layer and process
    /// that it is missing.
    fn missing(&self, why: Refused) -> Result<(), SandboxError> {
        let layer = why.layer();
        if self.mode == Mode::Strict {
            return Err(SandboxError::Missing(why));
        }
        static SAID: std::sync::Mutex<Vec<Layer>> = std::sync::Mutex::new(Vec::new());
        if let Ok(mut said) = SAID.lock()
            && !said.contains(&layer)
        {
            said.push(layer);
            eprintln!(
                "gdmarshal: note: sandbox layer {layer} is missing: {why}; --sandbox strict makes this an error"
            );
        }
        Ok(())
    }
}

/// Makes the filters' descriptors survive the `exec` of bubblewrap (they are made close-on-exec,
/// so that no other child started meanwhile gets them).
fn inherit(cmd: &mut Command, fds: Vec<i32>) {
    // SAFETY: the closure runs in the forked child before exec and makes only fcntl system calls
    // on descriptors the Jail keeps open until the command has been spawned.
    unsafe {
        cmd.pre_exec(move || {
            for &fd in &fds {
                let fd = std::os::fd::BorrowedFd::borrow_raw(fd);
                rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::empty())?;
            }
            Ok(())
        });
    }
}

/// Sets `no_new_privs` in the child before `exec`: nothing it runs gains privileges (set-uid
/// programs and file capabilities do nothing).
fn no_new_privs(cmd: &mut Command) {
    // SAFETY: one prctl system call in the forked child before exec.
    unsafe {
        cmd.pre_exec(|| Ok(rustix::thread::set_no_new_privs(true)?));
    }
}

/// A spawned tree: its main process's group, its cgroup, and its place in the interrupt handler's
/// list. [`Tree::kill`] ends every process in it.
#[derive(Debug)]
pub struct Tree {
    cgroup: Option<Cgroup>,
    wrapped: bool,
    _registered: interrupt::Registered,
}

impl Tree {
    /// The tree of `child`, spawned from `jail` as the leader of its own process group.
    pub fn of(child: &Child, jail: Jail) -> Tree {
        // The cgroup registered its folders itself when it made them.
        let group = i32::try_from(child.id()).ok();
        Tree {
            cgroup: jail.cgroup,
            wrapped: jail.wrapped,
            _registered: interrupt::Registered::group(group),
        }
    }

    /// Kills the child's process group and every process of its cgroup (`setsid` escapees
    /// included).
    pub fn kill(&self, child: &mut Child) {
        crate::group::kill_group(child);
        if let Some(c) = &self.cgroup {
            c.kill();
        }
    }

    /// The cgroup, if the kernel granted one.
    pub fn cgroup(&self) -> Option<&Cgroup> {
        self.cgroup.as_ref()
    }

    /// The signal that ended the main process: its own, or under bubblewrap the one its exit
    /// status (128 + N) stands for.
    pub(crate) fn signal_of(&self, status: std::process::ExitStatus) -> Option<i32> {
        use std::os::unix::process::ExitStatusExt;
        status
            .signal()
            .or_else(|| signal_in_exit_code(status).filter(|_| self.wrapped))
    }
}

/// The signal N an exit status of 128 + N stands for: how a parent that outlives its child
/// reports the child's death by a signal (bubblewrap, a shell running a command).
pub(crate) fn signal_in_exit_code(status: std::process::ExitStatus) -> Option<i32> {
    let code = status.code()?;
    (129..=128 + 64).contains(&code).then_some(code - 128)
}

/// Makes a scratch folder (mode 0700) named `prefix…` in the temporary folder.
pub fn scratch(prefix: &str) -> std::io::Result<tempfile::TempDir> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()?;
    Ok(dir)
}
