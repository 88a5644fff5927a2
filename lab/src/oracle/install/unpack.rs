//! Checking an archive against its published SHA-512 and unpacking it into a staging folder.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha512};

use super::InstallError;

/// The SHA-512 of a file.
pub fn sha512(path: &Path) -> Result<[u8; 64], InstallError> {
    let mut f = File::open(path).map_err(|e| InstallError::io(path, e))?;
    let mut hasher = Sha512::new();
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = f.read(&mut buf).map_err(|e| InstallError::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().into())
}

/// Unpacks the zip `archive` into `dir` (which must not exist) and returns the engine binary
/// in it: the entry named as the archive without `.zip`, else its only file. The binary is
/// made executable (zip files made on other systems may not say it is).
pub(crate) fn unzip(archive: &Path, dir: &Path) -> Result<PathBuf, InstallError> {
    let name = file_name(archive);
    let bad = |reason: String| InstallError::BadArchive {
        file: name.clone(),
        reason,
    };
    let f = File::open(archive).map_err(|e| InstallError::io(archive, e))?;
    let mut zip = zip::ZipArchive::new(f).map_err(|e| bad(e.to_string()))?;
    fs::create_dir_all(dir).map_err(|e| InstallError::io(dir, e))?;
    zip.extract(dir).map_err(|e| bad(e.to_string()))?;
    let wanted = name.strip_suffix(".zip").unwrap_or(&name).to_string();
    let mut files = Vec::new();
    for i in 0..zip.len() {
        let entry = zip.by_index(i).map_err(|e| bad(e.to_string()))?;
        if entry.is_file()
            && let Some(path) = entry.enclosed_name()
        {
            files.push(path);
        }
    }
    let binary = files
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == wanted.as_str()))
        .or(if files.len() == 1 {
            files.first()
        } else {
            None
        })
        .ok_or_else(|| InstallError::NoBinary {
            file: name.clone(),
            wanted: wanted.clone(),
        })?;
    let binary = dir.join(binary);
    make_executable(&binary)?;
    Ok(binary)
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), InstallError> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(|e| InstallError::io(path, e))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), InstallError> {
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
