//! Resource limits for engine processes: engines are fed hostile inputs by design (full-object
//! decodes among them), so each runs fenced: bounded address space, file size and open files,
//! and no core dumps. A request that runs into a limit makes the engine fail (usually a crash),
//! which the oracle treats like any crash: an incident, retried on a fresh engine.

use std::process::Command;

use rustix::process::Resource;

use crate::fence::{Limit, Network};

/// The limits an engine process runs under (`setrlimit`, applied in the child before `exec`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineLimits {
    /// Address space in bytes (`RLIMIT_AS`). Godot 4.6.3 reserves about 0.5 GB serving the
    /// oracle, 3.x about 0.3 GB.
    pub address_space: u64,
    /// Largest file the engine may write, in bytes (`RLIMIT_FSIZE`); it writes none but its
    /// user-data folder's few small files.
    pub file_size: u64,
    /// Open file descriptors (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

impl Default for EngineLimits {
    fn default() -> EngineLimits {
        EngineLimits {
            address_space: 4 << 30,
            file_size: 64 << 20,
            open_files: 256,
        }
    }
}

impl EngineLimits {
    /// Makes the command's process start under these limits, with core dumps off.
    pub fn apply(self, cmd: &mut Command) {
        crate::fence::apply(
            cmd,
            &[
                Limit {
                    resource: Resource::As,
                    value: self.address_space,
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
            Network::Host,
        );
    }
}
