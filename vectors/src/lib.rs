//! Engine-written vector files (`tests/vectors/godot-VERSION.txt` in gdmarshal's repository) and
//! the check that the codec reproduces each vector exactly.
//!
//! A file starts with `#` comment lines, then one `NAME HEX` line per vector: the bytes a real engine
//! wrote for a named edge value. Names ending in `/full_objects` were written with full objects.

use std::path::{Path, PathBuf};

use gdmarshal::decode::{DecodeOptions, decode};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::error::{DecodeError, EncodeError};
use gdmarshal::hex::{HexError, hex, unhex};
use gdmarshal::profile::{Profile, UnknownVersion};

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

/// Why a vector file does not read: each error names the file, or the file and line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VectorFileError {
    /// The file could not be read.
    #[error("{}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file's name is not `godot-VERSION.txt`.
    #[error("{}: expected a file named godot-VERSION.txt", .path.display())]
    Name {
        /// The file.
        path: PathBuf,
    },
    /// The version in the name is not one the codec knows.
    #[error("{}: {error}", .path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Why.
        error: UnknownVersion,
    },
    /// A line that is not `NAME HEX`.
    #[error("{origin}: expected NAME HEX")]
    Line {
        /// `file:line`.
        origin: String,
    },
    /// A vector whose bytes are not hex.
    #[error("{origin}: {error}")]
    Hex {
        /// `file:line`.
        origin: String,
        /// What is wrong, and where in the hex.
        error: HexError,
    },
}

/// Reads a vector file named `godot-VERSION.txt`.
pub fn read(path: &Path) -> Result<VectorFile, VectorFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| VectorFileError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &text)
}

/// Reads the text of a vector file, read from `path` (whose name gives the engine version) by
/// the caller.
pub fn parse(path: &Path, text: &str) -> Result<VectorFile, VectorFileError> {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let engine = file
        .strip_prefix("godot-")
        .and_then(|f| f.strip_suffix(".txt"))
        .ok_or_else(|| VectorFileError::Name {
            path: path.to_path_buf(),
        })?
        .to_string();
    let minor = engine.split('.').take(2).collect::<Vec<_>>().join(".");
    let profile: Profile = minor.parse().map_err(|error| VectorFileError::Version {
        path: path.to_path_buf(),
        error,
    })?;
    let mut vectors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let origin = format!("{}:{}", path.display(), i + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let Some((name, h)) = line.rsplit_once(' ') else {
            return Err(VectorFileError::Line { origin });
        };
        let bytes = match unhex(h) {
            Ok(bytes) => bytes,
            Err(error) => return Err(VectorFileError::Hex { origin, error }),
        };
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

/// How a vector fails [`check`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VectorFailure {
    /// Its bytes do not decode.
    #[error("does not decode: {0}")]
    NoDecode(DecodeError),
    /// They decode, but not all of them are read.
    #[error("decodes only {consumed} of its {len} bytes")]
    Partly {
        /// Bytes read.
        consumed: usize,
        /// Bytes in the vector.
        len: usize,
    },
    /// The value decoded does not encode.
    #[error("decodes but does not re-encode: {0}")]
    NoEncode(EncodeError),
    /// It encodes to other bytes.
    #[error("re-encodes as {} instead of {}", hex(again), hex(bytes))]
    Reencoded {
        /// The bytes written.
        again: Vec<u8>,
        /// The vector's bytes.
        bytes: Vec<u8>,
    },
}

/// Checks one vector: it decodes whole, and re-encodes to the same bytes.
pub fn check(v: &Vector, profile: Profile) -> Result<(), VectorFailure> {
    let d = decode(
        &v.bytes,
        profile,
        DecodeOptions::new().allow_objects(v.full_objects),
    )
    .map_err(VectorFailure::NoDecode)?;
    if d.consumed != v.bytes.len() {
        return Err(VectorFailure::Partly {
            consumed: d.consumed,
            len: v.bytes.len(),
        });
    }
    let again = encode(
        &d.value,
        profile,
        EncodeOptions::new().full_objects(v.full_objects),
    )
    .map_err(VectorFailure::NoEncode)?;
    if again != v.bytes {
        return Err(VectorFailure::Reencoded {
            again,
            bytes: v.bytes.clone(),
        });
    }
    Ok(())
}
