//! The error parts every room shares: a file that could not be read or written, and a line of
//! a file that does not parse. Each room's own error enum wraps them with what else can go wrong
//! there.

use std::io;
use std::path::{Path, PathBuf};

/// A file or folder that could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct FileError {
    /// The file or folder.
    pub path: PathBuf,
    /// What the system said.
    #[source]
    pub source: io::Error,
}

impl FileError {
    /// A `map_err` adapter naming `path`.
    pub fn at(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
        move |source| FileError {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A line of a file that is not what it should be.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}:{line}: {message}", path.display())]
pub struct LineError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The records of a JSON-lines text read from `path`, one per line that is not blank; an error
/// names the first line that is not a record, or that is longer than
/// [`crate::bounded::MAX_LINE`].
pub(crate) fn json_lines<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<Vec<T>, LineError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let bad = |message| LineError {
                path: path.to_path_buf(),
                line: i + 1,
                message,
            };
            if let Some(why) = crate::bounded::line_too_long(l) {
                return Err(bad(why));
            }
            serde_json::from_str(l).map_err(|e| bad(e.to_string()))
        })
        .collect()
}
