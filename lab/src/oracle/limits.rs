//! Resource limits for engine processes: engines are fed hostile inputs by design (full-object
//! decodes among them), so each runs fenced: bounded address space, file size and open files,
//! and no core dumps. A request that runs into a limit makes the engine fail (usually a crash),
//! which the oracle treats like any crash: an incident, retried on a fresh engine.

use std::process::Command;

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
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let limits = [
                (libc::RLIMIT_AS, self.address_space),
                (libc::RLIMIT_FSIZE, self.file_size),
                (libc::RLIMIT_NOFILE, self.open_files),
                (libc::RLIMIT_CORE, 0),
            ];
            // SAFETY: the closure runs in the forked child before exec and calls only
            // setrlimit, which is async-signal-safe; it touches no memory the parent shares.
            unsafe {
                cmd.pre_exec(move || {
                    for (resource, value) in limits {
                        let limit = libc::rlimit {
                            rlim_cur: value as libc::rlim_t,
                            rlim_max: value as libc::rlim_t,
                        };
                        if libc::setrlimit(resource, &limit) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    }
                    Ok(())
                });
            }
        }
        #[cfg(not(unix))]
        let _ = (self, cmd);
    }
}
