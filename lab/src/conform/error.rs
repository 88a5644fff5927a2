//! Why a conformance run could not be made: the selection, the testee, the live engine.

use super::testee::TesteeError;
use crate::corpus::generate::GenerateFailed;
use crate::oracle::OracleError;
use gdmarshal::profile::Profile;

/// Why a conformance run could not be made (a run that was made, however it went, is a
/// [`super::Conformance`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConformError {
    /// `--run`, `--skip` and `--direction` select nothing runnable.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// The testee could not be started or failed its handshake.
    #[error(transparent)]
    Testee(#[from] TesteeError),
    /// A runner thread could not be started.
    #[error("cannot start a runner thread: {0}")]
    Thread(std::io::Error),
    /// A runner thread panicked.
    #[error("a runner thread panicked")]
    ThreadPanicked,
}

/// What is wrong with `--run` / `--skip` / `--direction`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SelectError {
    /// A glob does not parse.
    #[error("{pattern:?}: {message}")]
    Glob {
        /// The glob.
        pattern: String,
        /// What the glob parser said.
        message: String,
    },
    /// A `--run` glob matches no case of the corpus (a typo must not turn a gate green).
    #[error("--run {pattern:?} matches no case of Godot {version} (case names: docs/corpus.md)")]
    RunMatchesNothing {
        /// The glob.
        pattern: String,
        /// The corpus's engine version.
        version: String,
    },
    /// Together they leave no case.
    #[error("--run, --skip and --direction leave no case of Godot {version} to run")]
    NothingSelected {
        /// The corpus's engine version.
        version: String,
    },
}

/// Why a live corpus (`--live`) could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LiveError {
    /// No installed engine of the version started.
    #[error(
        "live mode: no Godot {profile} engine is installed (see `gdmarshal engines`, scripts/install-engines.sh){}",
        .failed.iter().map(|(name, e)| format!("; engine {name} did not start: {e}")).collect::<String>()
    )]
    NoEngine {
        /// The version asked for.
        profile: Profile,
        /// Engines of it that would not start, and why.
        failed: Vec<(String, OracleError)>,
    },
    /// The engine could not answer the cases.
    #[error("live cases: {0}")]
    Cases(#[from] GenerateFailed),
}
