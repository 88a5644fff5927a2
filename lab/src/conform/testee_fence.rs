//! The fence a testee runs in: its own process group (see `testee.rs`), resource limits, the
//! sandbox ([`crate::sandbox`]: namespaces, read-only view, a cgroup for its whole tree, a
//! reduced environment), and optionally no network (docs/conformance.md, "Fences"). A testee is a third-party program fed
//! hostile bytes; one that allocates without end must not take the machine down with the run.
//! A testee that runs into a limit fails as it fails (usually a crash): that case is an error
//! and the run goes on with a fresh process.

use std::process::Command;

use rustix::process::Resource;

use crate::fence::{Limit, Network};
use crate::sandbox::{Mode, Sandbox, TreeLimits};

/// The limits each testee process (and what it starts) runs under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TesteeLimits {
    /// Private writable memory in bytes (`RLIMIT_DATA`: heap and anonymous mappings as they are
    /// made writable). Not the address space: runtimes such as V8, .NET and Go reserve far more
    /// address space than they use, and would not start under an `RLIMIT_AS` a test machine can
    /// spare.
    pub memory: u64,
    /// Largest file it may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: u64,
    /// Open file descriptors (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// The network it sees.
    pub network: Network,
    /// How much of the sandbox it must run in (`--sandbox`).
    pub sandbox: Mode,
    /// Processes of its whole tree at once (the sandbox's cgroup, `pids.max`).
    pub processes: u64,
    /// The host's variables it gets beyond [`crate::sandbox::env::PASSED`] (`--testee-env`).
    pub env: Vec<String>,
}

impl Default for TesteeLimits {
    /// 4 GiB of memory (the corpus's largest case, a 65,536-key Dictionary, takes the Python kit
    /// about 60 MB) for each process and for its whole tree, 1 GiB files, 1,024 open files, 1,024
    /// processes, the host's network, the sandbox where the kernel grants it.
    fn default() -> TesteeLimits {
        TesteeLimits {
            memory: 4 << 30,
            file_size: 1 << 30,
            open_files: 1024,
            network: Network::Host,
            sandbox: Mode::default(),
            processes: Sandbox::PROCESSES,
            env: Vec::new(),
        }
    }
}

impl TesteeLimits {
    /// The sandbox of each testee process.
    pub fn sandbox(&self) -> Sandbox {
        Sandbox {
            mode: self.sandbox,
            tree: TreeLimits {
                memory: self.memory,
                processes: self.processes,
            },
        }
    }

    /// Makes the command's process start under these limits; `network`: whether the fence
    /// still has to make its network namespace (the sandbox makes one of its own).
    pub fn apply(&self, cmd: &mut Command, network: Network) {
        crate::fence::apply(
            cmd,
            &[
                Limit {
                    resource: Resource::Data,
                    value: self.memory,
                },
                Limit {
                    resource: Resource::Fsize,
                    value: self.file_size,
                },
                Limit {
                    resource: Resource::Nofile,
                    value: self.open_files,
                },
            ],
            network,
        );
    }
}
