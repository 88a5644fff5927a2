//! Why an engine could not be started.

use std::io;
use std::time::Duration;

/// An engine that could not be started or did not complete its handshake.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// The scratch directory (project copy, HOME) could not be made.
    #[error("cannot prepare the engine's scratch directory: {0}")]
    Scratch(io::Error),
    /// The launcher could not be run.
    #[error("cannot run {launcher}: {source}")]
    Spawn {
        /// The program.
        launcher: String,
        /// Why.
        source: io::Error,
    },
    /// The engine ended before connecting.
    #[error("the engine ended before connecting ({status}){}", stderr_part(.stderr))]
    ExitedEarly {
        /// How it ended.
        status: String,
        /// What it printed.
        stderr: String,
    },
    /// The engine did not connect in time.
    #[error("the engine did not connect within {timeout:?}{}", stderr_part(.stderr))]
    NoConnection {
        /// How long it was given.
        timeout: Duration,
        /// What it printed.
        stderr: String,
    },
    /// The `hello` request failed.
    #[error("handshake failed: {0}")]
    Handshake(String),
    /// The engine is of a major version this crate has no format for.
    #[error("the engine reports Godot {0}, whose format this crate does not know")]
    UnknownVersion(String),
    /// The sandbox refused to start it (`--sandbox strict` and a layer missing, or the run was
    /// interrupted).
    #[error("{0}")]
    Sandbox(crate::sandbox::SandboxError),
    /// A socket error.
    #[error("{0}")]
    Io(io::Error),
}

fn stderr_part(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr:\n{}", stderr.trim_end())
    }
}
