//! Engine-written vector files (`tests/vectors/godot-VERSION.txt`) and the check that the codec
//! reproduces each vector exactly.
//!
//! A file starts with `#` comment lines, then one `NAME HEX` line per vector: the bytes a real engine
//! wrote for a named edge value. Names ending in `/full_objects` were written with full objects.

use std::path::Path;

use crate::decode::{DecodeOptions, decode};
use crate::encode::{EncodeOptions, encode};
use crate::json::{hex, unhex};
use crate::profile::Profile;

/// One engine-written vector.
#[derive(Clone, Debug)]
pub struct Vector {
    /// Where it was read: `file:line`.
    pub origin: String,
    /// Its name, e.g. `int/2147483648`.
    pub name: String,
    /// The bytes the engine wrote.
    pub bytes: Vec<u8>,
    /// Whether the engine wrote it with full objects.
    pub full_objects: bool,
}

/// A vector file: which engine wrote it, and its vectors.
#[derive(Clone, Debug)]
pub struct VectorFile {
    /// The engine version from the file name, e.g. `4.6.3.stable`.
    pub engine: String,
    /// The profile of that version.
    pub profile: Profile,
    /// The vectors, in file order.
    pub vectors: Vec<Vector>,
}

/// Reads a vector file named `godot-VERSION.txt`; errors name the file and line.
pub fn read(path: &Path) -> Result<VectorFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(path, &text)
}

/// Reads the text of a vector file, read from `path` (whose name gives the engine version) by
/// the caller; errors name the file and line.
pub fn parse(path: &Path, text: &str) -> Result<VectorFile, String> {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let engine = file
        .strip_prefix("godot-")
        .and_then(|f| f.strip_suffix(".txt"))
        .ok_or_else(|| {
            format!(
                "{}: expected a file named godot-VERSION.txt",
                path.display()
            )
        })?
        .to_string();
    let minor = engine.split('.').take(2).collect::<Vec<_>>().join(".");
    let profile: Profile = minor
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut vectors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{}:{}", path.display(), i + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (name, h) = line
            .rsplit_once(' ')
            .ok_or_else(|| format!("{origin}: expected NAME HEX"))?;
        let bytes = unhex(h).map_err(|e| format!("{origin}: {e}"))?;
        vectors.push(Vector {
            origin,
            name: name.to_string(),
            bytes,
            full_objects: name.ends_with("/full_objects"),
        });
    }
    Ok(VectorFile {
        engine,
        profile,
        vectors,
    })
}

/// Checks one vector: it decodes whole, and re-encodes to the same bytes. `Err` says how it fails.
pub fn check(v: &Vector, profile: Profile) -> Result<(), String> {
    let d = decode(
        &v.bytes,
        profile,
        DecodeOptions {
            allow_objects: v.full_objects,
        },
    )
    .map_err(|e| format!("does not decode: {e}"))?;
    if d.consumed != v.bytes.len() {
        return Err(format!(
            "decodes only {} of its {} bytes",
            d.consumed,
            v.bytes.len()
        ));
    }
    let again = encode(
        &d.value,
        profile,
        EncodeOptions {
            full_objects: v.full_objects,
        },
    )
    .map_err(|e| format!("decodes but does not re-encode: {e}"))?;
    if again != v.bytes {
        return Err(format!(
            "re-encodes as {} instead of {}",
            hex(&again),
            hex(&v.bytes)
        ));
    }
    Ok(())
}
