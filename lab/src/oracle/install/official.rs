//! Installing an official release build (behind the `download` feature, with the code that
//! fetches and unpacks it): the release's checksum file first, then the archive, checked against
//! it before anything is unpacked; an archive refused is removed with the folders made for it.

use std::path::{Path, PathBuf};

use super::cache::{self, Cache};
use super::fetch::{self, Base};
use super::release::{DEFAULT_BASE, Release, SUMS_FILE};
use super::sums;
use super::{InstallError, Installed, Progress, RELEASES_VAR, check_name, probe, unpack};
use crate::oracle::EngineConfig;

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
    let sums = sums::parse_sums(&String::from_utf8_lossy(&fetch::read_small(
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
    let expected = gdmarshal::hex::hex(digest);
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
    let got = gdmarshal::hex::hex(&unpack::sha512(archive)?);
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
