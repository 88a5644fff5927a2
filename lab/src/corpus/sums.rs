//! Checksum files of the corpus's sub-folders (`framing/SHA256SUMS`, `classes/SHA256SUMS`): one
//! `SHA256  FILE` line per engine file of the folder, in name order, as `sha256sum` prints them.

use std::path::Path;

use super::integrity::sha256_hex;
use crate::error::FileError;

/// The engine files of `dir` (`godot-*` ending in `ext`), sorted by name.
pub(crate) fn engine_files(dir: &Path, ext: &str) -> Result<Vec<String>, FileError> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(FileError::at(dir))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("godot-") && n.ends_with(ext))
        .collect();
    names.sort();
    Ok(names)
}

/// The checksum text of the engine files of `dir` as they are now.
pub(crate) fn text(dir: &Path, ext: &str) -> Result<String, FileError> {
    let mut text = String::new();
    for n in engine_files(dir, ext)? {
        let path = dir.join(&n);
        let b = crate::bounded::read(&path).map_err(FileError::at(&path))?;
        text.push_str(&format!("{}  {n}\n", sha256_hex(&b)));
    }
    Ok(text)
}

/// Rewrites `dir/SHA256SUMS` from the engine files of `dir`.
pub(crate) fn write(dir: &Path, ext: &str) -> Result<(), FileError> {
    let text = text(dir, ext)?;
    let path = dir.join("SHA256SUMS");
    std::fs::write(&path, text).map_err(FileError::at(&path))
}
