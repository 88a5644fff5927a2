//! Installing engines into the engine cache: Godot's official release builds (fetched from a
//! base URL or folder laid out as `BASE/<tag>/<file>`, checked against the release's
//! `SHA512-SUMS.txt` before anything is unpacked) and any other Godot binary (a maintainer's
//! build of a branch or pull request). Each is started once to ask its version before it is
//! listed in the manifest; a refused install leaves the cache as it was (an interrupted
//! download stays as a `.part` file that the next try resumes).

mod cache;
mod fetch;
mod release;
mod unpack;

use std::path::{Path, PathBuf};

pub use fetch::Base;
pub use release::{DEFAULT_BASE, Release, SUMS_FILE};

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

/// What to install from an official release.
#[derive(Clone, Debug)]
pub struct Official {
    /// The release.
    pub release: Release,
    /// The engine's name in the cache ([`Release::default_name`] unless given).
    pub name: String,
    /// Where the releases are.
    pub base: Base,
    /// Replace an engine of the same name that came from elsewhere.
    pub force: bool,
}

/// The base a user chose: `--from`, else [`RELEASES_VAR`], else the official releases.
pub fn base_from(flag: Option<&str>) -> Base {
    let env = std::env::var(RELEASES_VAR).ok().filter(|v| !v.is_empty());
    Base::parse(flag.or(env.as_deref()).unwrap_or(DEFAULT_BASE))
}

/// Installs an official release build into the cache folder `cache_dir`.
pub fn install_official(
    cache_dir: &Path,
    want: &Official,
    config: &EngineConfig,
    progress: &mut dyn Progress,
) -> Result<Installed, InstallError> {
    check_name(&want.name)?;
    let r = &want.release;
    let sums = release::parse_sums(&String::from_utf8_lossy(&fetch::read_small(
        &want.base, &r.tag, SUMS_FILE,
    )?))?;
    let candidates = r.candidates();
    let (file, digest) = candidates
        .iter()
        .find_map(|c| sums.iter().find(|(n, _)| n == c))
        .ok_or_else(|| InstallError::NotInSums {
            tag: r.tag.clone(),
            candidates: candidates.clone(),
        })?;
    let expected = gdmarshal::json::hex(digest);
    let url = want.base.locate(&r.tag, file);
    if let Some(done) = already(cache_dir, &want.name, &expected, want.force)? {
        return Ok(done);
    }
    let created = Created::before(cache_dir, &r.tag);
    let downloads = cache_dir.join(".downloads").join(&r.tag);
    let (archive, fresh) = fetch::archive(&want.base, &r.tag, file, &downloads, progress)?;
    let result = verify_and_unpack(cache_dir, want, &archive, &expected, &url, config);
    if result.is_err() && fresh {
        let _ = std::fs::remove_file(&archive);
        created.undo();
    }
    result
}

fn verify_and_unpack(
    cache_dir: &Path,
    want: &Official,
    archive: &Path,
    expected: &str,
    url: &str,
    config: &EngineConfig,
) -> Result<Installed, InstallError> {
    let got = gdmarshal::json::hex(&unpack::sha512(archive)?);
    if got != expected {
        return Err(InstallError::ChecksumMismatch {
            file: archive.display().to_string(),
            expected: expected.to_string(),
            got,
        });
    }
    let cache = Cache::lock(cache_dir)?;
    let staged = cache.dir.join(format!(".install-{}", want.name));
    cache::remove_dir(&staged)?;
    let outcome = (|| {
        let binary = unpack::unzip(archive, &staged.join("root"))?;
        let flags = want.release.flags();
        let info = probe(&binary, &flags, &want.name, config)?;
        let asked = want.release.engine_version();
        if info.version != asked {
            return Err(InstallError::WrongVersion {
                asked,
                reported: info.version,
            });
        }
        let final_root = cache.engine_dir(&want.name).join("root");
        let final_binary =
            final_root.join(binary.strip_prefix(staged.join("root")).unwrap_or(&binary));
        let launcher = cache.launcher(&want.name);
        let json = serde_json::json!({
            "name": want.name, "version": info.version, "version_string": info.version_string,
            "launcher": launcher.display().to_string(), "root": final_root.display().to_string(),
            "launcher_flags": flags,
            "source": {"kind": "official", "tag": want.release.tag, "url": url, "sha512": expected},
        });
        let body = cache::launcher_script(&final_binary, &flags, url);
        cache.commit(&staged, &want.name, &body, &json)?;
        Ok(Installed {
            name: want.name.clone(),
            version: info.version,
            version_string: info.version_string,
            launcher,
            from: url.to_string(),
            sha512: Some(expected.to_string()),
            already: false,
        })
    })();
    if outcome.is_err() {
        let _ = cache::remove_dir(&staged);
    }
    outcome
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

/// The installed engine `name` if it is this very archive; an error if the name is taken by
/// another engine and `force` is not given.
fn already(
    cache_dir: &Path,
    name: &str,
    sha512: &str,
    force: bool,
) -> Result<Option<Installed>, InstallError> {
    let Some(json) = cache::installed(cache_dir, name) else {
        return Ok(None);
    };
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    if json["source"]["sha512"].as_str() == Some(sha512) && !force {
        return Ok(Some(Installed {
            name: name.to_string(),
            version: text(&json["version"]),
            version_string: text(&json["version_string"]),
            launcher: PathBuf::from(text(&json["launcher"])),
            from: text(&json["source"]["url"]),
            sha512: Some(sha512.to_string()),
            already: true,
        }));
    }
    if json["source"]["kind"].as_str() != Some("official") && !force {
        return Err(InstallError::NameTaken(name.to_string()));
    }
    Ok(None)
}

fn check_name(name: &str) -> Result<(), InstallError> {
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
fn probe(
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

/// The folders a download may create, and which of them existed before it: a refused archive
/// is removed with the folders made for it, so the cache is left as it was.
struct Created {
    dirs: Vec<(PathBuf, bool)>,
}

impl Created {
    fn before(cache_dir: &Path, tag: &str) -> Created {
        let downloads = cache_dir.join(".downloads");
        let dirs = [downloads.join(tag), downloads, cache_dir.to_path_buf()]
            .into_iter()
            .map(|d| {
                let existed = d.exists();
                (d, existed)
            })
            .collect();
        Created { dirs }
    }

    fn undo(&self) {
        for (dir, existed) in &self.dirs {
            if !existed {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}
