//! # gdmarshal-corpus
//!
//! The answers of real headless Godot engines (3.2.3, 3.6.2, 4.6.3 and a double-precision 4.6.3)
//! to the cases of gdmarshal's conformance corpus, embedded in the crate and compressed: the
//! `gdmarshal` runner carries its corpus this way, so it works from any directory without a clone
//! of the repository. The files are the ones of the repository's `corpus/` folder, byte for byte;
//! their layout is described in the repository's `docs/corpus.md`.
//!
//! ```
//! let manifest = gdmarshal_corpus::get("manifest.json").unwrap().bytes().unwrap();
//! assert!(manifest.starts_with(b"{"));
//! assert_eq!(gdmarshal_corpus::DIGEST.len(), 64);
//! ```
//!
//! Nothing here checks the files: a reader verifies them against the manifest (the
//! `gdmarshal-lab` crate's `corpus::load` does), so a corpus built from a damaged tree is refused
//! with the file and line, as one on disk is.

#![deny(missing_docs)]

use std::io::Read as _;
use std::path::Path;

mod files;

pub use files::is_corpus_file;

/// One embedded file: its name in the corpus folder and its gzip stream.
#[derive(Debug)]
pub struct Packed {
    name: &'static str,
    len: usize,
    gzip: &'static [u8],
}

impl Packed {
    /// The file's path relative to the corpus folder, with `/` separators
    /// (`godot-4.6.3.stable.jsonl`, `framing/SHA256SUMS`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The file's length, uncompressed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file's length compressed, as embedded.
    pub fn compressed_len(&self) -> usize {
        self.gzip.len()
    }

    /// The file's bytes. Fails only if the embedded stream is damaged or not the length recorded
    /// at build time (never more than that length is allocated).
    pub fn bytes(&self) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.len);
        flate2::read::GzDecoder::new(self.gzip)
            .take(self.len as u64 + 1)
            .read_to_end(&mut out)?;
        if out.len() != self.len {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "embedded {}: {} bytes, {} recorded",
                    self.name,
                    out.len(),
                    self.len
                ),
            ));
        }
        Ok(out)
    }
}

static FILES: &[Packed] = include!(concat!(env!("OUT_DIR"), "/files.rs"));

/// The digest of the embedded corpus (see [`digest_dir`]), lowercase hex.
pub const DIGEST: &str = include_str!(concat!(env!("OUT_DIR"), "/digest.txt"));

/// Every embedded file, sorted by name.
pub fn files() -> &'static [Packed] {
    FILES
}

/// The embedded file of that name, if there is one.
pub fn get(name: &str) -> Option<&'static Packed> {
    FILES.iter().find(|f| f.name == name)
}

/// The digest of a corpus folder on disk, computed as the embedded corpus's [`DIGEST`] is:
/// SHA-256 over each corpus file's name, a NUL, its length (8 bytes, little endian) and its
/// bytes, in name order. Two corpora with the same digest hold the same files.
pub fn digest_dir(dir: &Path) -> std::io::Result<String> {
    let names = files::list(dir)?;
    let mut contents = Vec::with_capacity(names.len());
    for name in &names {
        contents.push(std::fs::read(dir.join(name))?);
    }
    Ok(files::digest(
        names
            .iter()
            .map(String::as_str)
            .zip(contents.iter().map(Vec::as_slice)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_are_the_folders_byte_for_byte() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let names: Vec<&str> = files().iter().map(Packed::name).collect();
        assert_eq!(names, files::list(dir).unwrap());
        assert!(names.contains(&"manifest.json") && names.contains(&"framing/SHA256SUMS"));
        for f in files() {
            assert_eq!(
                f.bytes().unwrap(),
                std::fs::read(dir.join(f.name)).unwrap(),
                "{}",
                f.name
            );
        }
        assert_eq!(DIGEST, digest_dir(dir).unwrap());
    }

    #[test]
    fn the_digest_changes_with_any_byte_or_name() {
        let base = files::digest([("a", &b"xy"[..])]);
        assert_ne!(base, files::digest([("a", &b"xz"[..])]));
        assert_ne!(base, files::digest([("b", &b"xy"[..])]));
        // The length keeps file boundaries apart: "a"+"xy" is not "a"+"x" followed by "y".
        assert_ne!(base, files::digest([("a", &b"x"[..]), ("y", &b""[..])]));
    }

    #[test]
    fn a_damaged_stream_is_an_error_not_a_panic() {
        let f = &files()[0];
        let mut gzip = f.gzip.to_vec();
        let mid = gzip.len() / 2;
        gzip[mid] ^= 0xff;
        let damaged = Packed {
            name: f.name,
            len: f.len,
            gzip: Box::leak(gzip.into_boxed_slice()),
        };
        assert!(damaged.bytes().is_err());
        let short = Packed {
            len: f.len - 1,
            ..*f
        };
        assert!(short.bytes().is_err());
    }

    #[test]
    fn only_corpus_files_count() {
        for yes in [
            "manifest.json",
            "godot-4.6.3.stable.jsonl",
            "framing/SHA256SUMS",
            "framing/godot-3.2.3.stable.jsonl",
            "classes/SHA256SUMS",
            "classes/godot-4.6.3.stable.json",
            "known-differences.txt",
        ] {
            assert!(is_corpus_file(yes), "{yes}");
        }
        for no in [
            "Cargo.toml",
            "build.rs",
            "src/lib.rs",
            "LICENSE-MIT",
            "README.md",
            "framing/x/y.jsonl",
            "framing/godot-3.2.3.stable.json",
            "classes/godot-4.6.3.stable.jsonl",
            "notes.txt",
        ] {
            assert!(!is_corpus_file(no), "{no}");
        }
    }
}
