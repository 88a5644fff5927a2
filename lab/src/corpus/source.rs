//! Where a corpus is read from: a folder on disk (`--corpus DIR`), or the corpus embedded in the
//! binary ([`gdmarshal_corpus`]), the default, so that an installed runner needs no clone.
//!
//! Both are read through the same verifying readers ([`super::load_from`],
//! `stress::read_from`, [`super::known::read_from`]); an embedded file is named in
//! errors as `embedded corpus DIGEST/FILE`, so a build from a damaged tree is refused with the
//! file and line as a folder on disk is.

use std::fmt;
use std::path::{Path, PathBuf};

use super::CorpusError;

/// A corpus: a folder, or the one embedded in this build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A corpus folder on disk.
    Dir(PathBuf),
    /// The corpus embedded in the binary at build time.
    Embedded,
}

impl Source {
    /// `dir` if given, else the embedded corpus.
    pub fn dir_or_embedded(dir: Option<&Path>) -> Source {
        dir.map_or(Source::Embedded, |d| Source::Dir(d.to_path_buf()))
    }

    /// The file `name` (relative to the corpus folder, `/`-separated), or `None` when the corpus
    /// has no such file.
    pub fn read(&self, name: &str) -> Result<Option<Vec<u8>>, CorpusError> {
        let io = |source| CorpusError::Io {
            path: self.path(name),
            source,
        };
        match self {
            Source::Dir(dir) => match crate::bounded::read(&dir.join(name)) {
                Ok(b) => Ok(Some(b)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(io(e)),
            },
            Source::Embedded => gdmarshal_corpus::get(name)
                .map(|f| f.bytes().map_err(io))
                .transpose(),
        }
    }

    /// The file `name` as errors and reports name it: its path in the folder, or
    /// `embedded corpus DIGEST/NAME` (the digest's first 12 digits).
    pub fn path(&self, name: &str) -> PathBuf {
        match self {
            Source::Dir(dir) => dir.join(name),
            Source::Embedded => PathBuf::from(format!("{self}/{name}")),
        }
    }

    /// The corpus's digest ([`gdmarshal_corpus::digest_dir`]): the same files give the same
    /// digest, embedded or on disk.
    pub fn digest(&self) -> Result<String, CorpusError> {
        match self {
            Source::Dir(dir) => {
                gdmarshal_corpus::digest_dir(dir).map_err(|source| CorpusError::Io {
                    path: dir.clone(),
                    source,
                })
            }
            Source::Embedded => Ok(gdmarshal_corpus::DIGEST.to_string()),
        }
    }

    /// What reports print for the corpus used: `embedded corpus 1a2b3c4d5e6f` or
    /// `corpus DIR (1a2b3c4d5e6f)`, the digest's first 12 digits.
    pub fn describe(&self) -> String {
        match self {
            Source::Embedded => self.to_string(),
            Source::Dir(dir) => match self.digest() {
                Ok(d) => format!("corpus {} ({})", dir.display(), short(&d)),
                Err(_) => format!("corpus {}", dir.display()),
            },
        }
    }
}

/// The first 12 digits of a digest: enough to tell corpora apart in a report line.
pub fn short(digest: &str) -> &str {
    &digest[..digest.len().min(12)]
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Dir(dir) => write!(f, "{}", dir.display()),
            Source::Embedded => write!(f, "embedded corpus {}", short(gdmarshal_corpus::DIGEST)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_corpus_and_the_folder_it_was_built_from_agree() {
        let dir = Source::Dir(crate::corpus::default_dir());
        assert_eq!(Source::Embedded.digest().unwrap(), dir.digest().unwrap());
        for name in ["manifest.json", "stress.jsonl", "known-differences.txt"] {
            assert_eq!(
                Source::Embedded.read(name).unwrap(),
                dir.read(name).unwrap(),
                "{name}"
            );
        }
        assert_eq!(Source::Embedded.read("no-such-file").unwrap(), None);
        assert_eq!(dir.read("no-such-file").unwrap(), None);
    }

    /// What `load_from` does with an embedded file, on bytes damaged as a build from a damaged
    /// tree would embed them: refused with the embedded file's name and the line.
    #[test]
    fn a_damaged_embedded_file_is_refused_with_its_name_and_line() {
        let corpora = crate::corpus::load_from(&Source::Embedded).unwrap();
        let entry = &corpora
            .iter()
            .find(|c| c.entry.profile == "4.6")
            .unwrap()
            .entry;
        let bytes = Source::Embedded.read(&entry.file).unwrap().unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let cut: String = text.lines().take(100).map(|l| format!("{l}\n")).collect();
        let path = Source::Embedded.path(&entry.file);
        let e = crate::corpus::integrity::check_file(&path, entry, cut.as_bytes()).unwrap_err();
        let want = format!(
            "embedded corpus {}/{}:100:",
            short(gdmarshal_corpus::DIGEST),
            entry.file
        );
        assert!(e.to_string().starts_with(&want), "{e}");
    }

    #[test]
    fn embedded_files_are_named_by_the_digest() {
        let p = Source::Embedded.path("godot-4.6.3.stable.jsonl");
        let want = format!(
            "embedded corpus {}/godot-4.6.3.stable.jsonl",
            &gdmarshal_corpus::DIGEST[..12]
        );
        assert_eq!(p, PathBuf::from(want));
    }
}
