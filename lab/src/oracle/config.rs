//! [`EngineConfig`]: how an engine is run (timeouts, its project, limits, network, sandbox),
//! shared by the process that starts it and the [`Engine`](super::Engine) that serves it.

use std::path::PathBuf;
use std::time::Duration;

use super::engine_limits::EngineLimits;

/// How an engine is run.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The longest one request may take (measured from the engine starting it) before the
    /// engine counts as hung and is killed.
    pub timeout: Duration,
    /// The longest an engine may take to start and answer the handshake.
    pub start_timeout: Duration,
    /// The oracle's Godot project (a scratch copy of it is what the engine opens).
    pub project: PathBuf,
    /// The resource limits the engine process runs under.
    pub limits: EngineLimits,
    /// The network the engine sees: by default a namespace of its own with only the link to
    /// the host ([`crate::fence::NetNamespace`]); where none can be made, the host's.
    pub network: crate::fence::Network,
    /// How much of the sandbox the engine must run in (`--sandbox`; [`crate::sandbox`]).
    pub sandbox: crate::sandbox::Mode,
    /// Folders the engine may write besides its scratch folder: none for Godot; a test engine's
    /// fault script and the state it keeps across processes.
    pub writable: Vec<PathBuf>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            timeout: Duration::from_secs(10),
            start_timeout: Duration::from_secs(60),
            project: default_project(),
            limits: EngineLimits::default(),
            network: crate::fence::Network::None,
            sandbox: crate::sandbox::Mode::default(),
            writable: Vec::new(),
        }
    }
}

/// The oracle's Godot project: `GDMARSHAL_ORACLE_PROJECT` if set, else `godot_project/` in this
/// crate's source tree.
pub(crate) fn default_project() -> PathBuf {
    match std::env::var_os("GDMARSHAL_ORACLE_PROJECT") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::repo_root().join("godot_project"),
    }
}
