//! The namespaces and the file-system view, made by bubblewrap (Debian's `bubblewrap`): a user
//! namespace (the process is root inside it and has no capability outside, so it cannot enter
//! the host's namespaces), pid, mount, IPC, UTS and cgroup namespaces, every capability dropped,
//! a view of the host's file system read-only with private `/tmp`, `/var/tmp`, `/run`, `/dev`
//! and `/proc`, and one writable folder: the scratch folder.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};

/// The options that make the namespaces and drop the capabilities.
const NAMESPACES: &[&str] = &[
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // Killed when the runner ends (started from `spawner.rs`'s lasting thread).
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
];

/// Folders of the host hidden behind an empty private one: where other programs' Unix sockets
/// and temporary files live.
const PRIVATE: &[&str] = &["/tmp", "/var/tmp", "/run", "/dev/shm"];

/// Why bubblewrap cannot make the namespaces here.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BwrapError {
    /// No `bwrap` on the `PATH`.
    #[error("bubblewrap (bwrap) is not installed")]
    NotInstalled,
    /// No `true` on the `PATH` to try it with.
    #[error("`true` is not on the PATH, so bubblewrap cannot be tried")]
    NoTrue,
    /// `bwrap` could not be started.
    #[error("bwrap cannot be started: {0}")]
    Start(#[source] Arc<std::io::Error>),
    /// `bwrap` ran and failed; `said` is the last line it wrote.
    #[error("bwrap cannot make namespaces here: {said}")]
    Refused {
        /// Its last line on stderr (the kernel's refusal, as bwrap words it).
        said: String,
    },
}

/// bubblewrap's path, once it has been seen to make its namespaces here; else why not.
pub fn available() -> Result<&'static Path, &'static BwrapError> {
    static FOUND: OnceLock<Result<PathBuf, BwrapError>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let bwrap = which::which("bwrap").map_err(|_| BwrapError::NotInstalled)?;
            let truth = which::which("true").map_err(|_| BwrapError::NoTrue)?;
            let out = Command::new(&bwrap)
                .args(NAMESPACES)
                .args([
                    "--ro-bind",
                    "/",
                    "/",
                    "--proc",
                    "/proc",
                    "--dev",
                    "/dev",
                    "--",
                ])
                .arg(truth)
                .stdin(Stdio::null())
                // Its own group, as every process the lab starts (`crate::group`).
                .process_group(0)
                .output()
                .map_err(|e| BwrapError::Start(Arc::new(e)))?;
            if out.status.success() {
                Ok(bwrap)
            } else {
                let said = String::from_utf8_lossy(&out.stderr);
                Err(BwrapError::Refused {
                    said: gdmarshal::excerpt::cut(
                        said.trim().lines().last().unwrap_or("no reason given"),
                        400,
                    )
                    .into_owned(),
                })
            }
        })
        .as_ref()
        .map(PathBuf::as_path)
}

/// What runs inside, and where.
pub struct View<'a> {
    /// The writable folder.
    pub scratch: &'a Path,
    /// Further writable folders.
    pub writable: &'a [PathBuf],
    /// The working folder (read-only unless it is the scratch folder).
    pub cwd: &'a Path,
    /// A network namespace of its own (with only its loopback) made by bubblewrap; `false`
    /// keeps the one the process starts in.
    pub own_network: bool,
    /// The descriptors of the system-call filters.
    pub seccomp: &'a [i32],
}

/// bubblewrap's arguments for `program args` in `view`.
pub fn args(view: &View<'_>, program: &OsStr, args: &[OsString]) -> Vec<OsString> {
    let mut out: Vec<OsString> = NAMESPACES.iter().map(OsString::from).collect();
    if view.own_network {
        out.push("--unshare-net".into());
    }
    let mut push = |items: &[&OsStr]| out.extend(items.iter().map(|s| s.to_os_string()));
    push(&["--ro-bind".as_ref(), "/".as_ref(), "/".as_ref()]);
    push(&["--dev".as_ref(), "/dev".as_ref()]);
    push(&["--proc".as_ref(), "/proc".as_ref()]);
    for dir in PRIVATE {
        if Path::new(dir).is_dir() {
            push(&["--tmpfs".as_ref(), dir.as_ref()]);
        }
    }
    // The working folder, the program's folder and the engine cache stay in view, read-only,
    // where they lie under a private folder (a project or an engine cache below /tmp).
    let cache = crate::paths::engine_cache();
    for dir in [
        Some(view.cwd),
        Path::new(program).parent(),
        cache.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|d| d.is_absolute() && d.is_dir() && PRIVATE.iter().any(|p| d.starts_with(p)))
    {
        push(&["--ro-bind".as_ref(), dir.as_os_str(), dir.as_os_str()]);
    }
    for dir in std::iter::once(view.scratch).chain(view.writable.iter().map(PathBuf::as_path)) {
        push(&["--bind".as_ref(), dir.as_os_str(), dir.as_os_str()]);
    }
    push(&["--chdir".as_ref(), view.cwd.as_os_str()]);
    for fd in view.seccomp {
        out.push("--add-seccomp-fd".into());
        out.push(fd.to_string().into());
    }
    out.push("--".into());
    out.push(program.to_os_string());
    out.extend(args.iter().cloned());
    out
}
