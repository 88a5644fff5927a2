//! Installing engines into the engine cache: Godot's official release builds (fetched from a
//! base URL or folder laid out as `BASE/<tag>/<file>`, checked against the release's
//! `SHA512-SUMS.txt` before anything is unpacked) and any other Godot binary (a maintainer's
//! build of a branch or pull request). Each is started once to ask its version before it is
//! listed in the manifest; a refused install leaves the cache as it was (an interrupted
//! download stays as a `.part` file that the next try resumes).

mod cache;
#[cfg(feature = "download")]
mod fetch;
#[cfg(feature = "download")]
mod official;
mod release;
#[cfg(feature = "download")]
mod sums;
#[cfg(feature = "download")]
mod unpack;

use std::path::{Path, PathBuf};

#[cfg(feature = "download")]
pub use fetch::Base;
#[cfg(feature = "download")]
pub use official::{Official, base_from, install_official};
pub use release::{DEFAULT_BASE, Release};

use super::{Engine, EngineConfig, EngineSpec, OracleError, Source};
use cache::Cache;

/// The environment variable that names the releases' base instead of [`DEFAULT_BASE`].
pub const RELEASES_VAR: &str = "GDMARSHAL_RELEASES_URL";

/// Why an engine was not installed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    /// The version asked for is not one of Godot's release versions.
    #[error("{0:?} is not a Godot release version (e.g. 4.3, 4.6.3, 3.5.3-stable, 4.4-rc1)")]
    BadVersion(String),
    /// The engine name cannot be a folder of the cache.
    #[error(
        "{0:?} cannot name an engine: letters, digits, '.', '_' and '-', not starting with '.'"
    )]
    BadName(String),
    /// Another engine of that name is installed.
    #[error(
        "an engine named {0} is installed already from elsewhere (pass --force to replace it, or --name)"
    )]
    NameTaken(String),
    /// A line of the checksum file is not `SHA512  FILE`.
    #[error("SHA512-SUMS.txt line {line} is not a SHA-512 and a file name: {text:?}")]
    BadSums {
        /// 1-based line.
        line: usize,
        /// The line's start.
        text: String,
    },
    /// The checksum file lists no Linux x86_64 build the oracle can run.
    #[error("SHA512-SUMS.txt of {tag} lists none of {}", .candidates.join(", "))]
    NotInSums {
        /// The release tag.
        tag: String,
        /// The files looked for.
        candidates: Vec<String>,
    },
    /// The archive's SHA-512 is not the one the release publishes.
    #[error("{file}: SHA-512 {got} is not the {expected} of SHA512-SUMS.txt; nothing was unpacked")]
    ChecksumMismatch {
        /// The archive.
        file: String,
        /// The published digest.
        expected: String,
        /// The archive's digest.
        got: String,
    },
    /// The server could not be reached or the transfer failed to start.
    #[error("cannot fetch {url}: {reason}")]
    Fetch {
        /// What was fetched.
        url: String,
        /// Why it failed.
        reason: String,
    },
    /// The server answered with an error status.
    #[error("{url}: HTTP status {status}")]
    Status {
        /// What was fetched.
        url: String,
        /// The status.
        status: u16,
    },
    /// A download ended before its end; what arrived is kept to be resumed.
    #[error("download of {url} interrupted ({reason}); run the command again to resume it")]
    Interrupted {
        /// What was fetched.
        url: String,
        /// Why it ended.
        reason: String,
    },
    /// The archive is not a complete zip file.
    #[error("{file} is not a complete zip archive: {reason}")]
    BadArchive {
        /// The archive.
        file: String,
        /// What the zip reader found.
        reason: String,
    },
    /// The archive holds no engine binary.
    #[error("{file} holds no engine binary {wanted}")]
    NoBinary {
        /// The archive.
        file: String,
        /// The binary looked for.
        wanted: String,
    },
    /// A binary to register does not exist.
    #[error("{0}: no such file")]
    NotFound(PathBuf),
    /// The engine did not start and report its version.
    #[error("the engine does not run: {0}")]
    Probe(#[source] OracleError),
    /// The engine reports another version than the one asked for.
    #[error("the engine reports Godot {reported}, not the {asked} asked for; not installed")]
    WrongVersion {
        /// The version asked for (`4.3.0.stable`).
        asked: String,
        /// The version it reports.
        reported: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl InstallError {
    fn io(path: impl AsRef<Path>, source: std::io::Error) -> InstallError {
        InstallError::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }
}

/// Told how a download goes (the command line draws a progress bar).
pub trait Progress {
    /// A download of `file` starts: `total` bytes if the server says, `already` of them kept
    /// from an interrupted try.
    fn start(&mut self, file: &str, total: Option<u64>, already: u64);
    /// `bytes` more arrived.
    fn advance(&mut self, bytes: u64);
    /// The download ended.
    fn finish(&mut self);
}

/// An engine now in the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// Its name (`gdmarshal engines`, `--engine`).
    pub name: String,
    /// The version it reports (`4.3.0.stable`).
    pub version: String,
    /// Its full version string.
    pub version_string: String,
    /// Its launcher.
    pub launcher: PathBuf,
    /// Where it came from: the archive's URL or path, or the registered binary.
    pub from: String,
    /// The archive's SHA-512 (none for a registered binary).
    pub sha512: Option<String>,
    /// Whether it was installed already and nothing was done.
    pub already: bool,
}

/// Registers the Godot binary `binary` as engine `name`: started once with `--headless` to ask
/// its version, then listed in the manifest (outside "every engine": a build made to be
/// compared is named with `--engine`).
pub fn add_custom(
    cache_dir: &Path,
    name: &str,
    binary: &Path,
    force: bool,
    config: &EngineConfig,
) -> Result<Installed, InstallError> {
    check_name(name)?;
    let binary =
        std::fs::canonicalize(binary).map_err(|_| InstallError::NotFound(binary.to_path_buf()))?;
    let from = binary.display().to_string();
    if let Some(old) = cache::installed(cache_dir, name) {
        let same = old["source"]["binary"].as_str() == Some(from.as_str());
        if !same && !force {
            return Err(InstallError::NameTaken(name.to_string()));
        }
    }
    let flags = vec!["--headless".to_string()];
    // Asked before the cache is touched: a binary that does not run leaves it as it was.
    let info = probe(&binary, &flags, name, config)?;
    let cache = Cache::lock(cache_dir)?;
    let staged = tempfile::Builder::new()
        .prefix(".add-")
        .tempdir_in(&cache.dir)
        .map_err(|e| InstallError::io(&cache.dir, e))?;
    let launcher = cache.launcher(name);
    let json = serde_json::json!({
        "name": name, "version": info.version, "version_string": info.version_string,
        "launcher": launcher.display().to_string(), "launcher_flags": flags, "in_all": false,
        "source": {"kind": "custom", "binary": from},
    });
    let body = cache::launcher_script(&binary, &flags, &from);
    let staged = staged.keep();
    if let Err(e) = cache.commit(&staged, name, &body, &json) {
        let _ = cache::remove_dir(&staged);
        return Err(e);
    }
    Ok(Installed {
        name: name.to_string(),
        version: info.version,
        version_string: info.version_string,
        launcher,
        from,
        sha512: None,
        already: false,
    })
}

pub(super) fn check_name(name: &str) -> Result<(), InstallError> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok {
        Ok(())
    } else {
        Err(InstallError::BadName(name.to_string()))
    }
}

/// Starts the binary once; its handshake says its version.
pub(super) fn probe(
    binary: &Path,
    flags: &[String],
    name: &str,
    config: &EngineConfig,
) -> Result<super::EngineInfo, InstallError> {
    let spec = EngineSpec {
        name: name.to_string(),
        launcher: binary.to_path_buf(),
        args: flags.to_vec(),
        source: Source::Path(binary.display().to_string()),
        recorded_version: None,
        in_all: false,
        built_from: None,
        exit_grace: std::time::Duration::ZERO,
    };
    let engine = Engine::start(spec, config.clone()).map_err(InstallError::Probe)?;
    Ok(engine.info().clone())
}
