//! Files the lab reads whole (corpus files, expected-failure lists, campaign logs, findings),
//! read within one cap per file and one per line, so that a hostile or endless file (a FIFO,
//! /dev/zero, a 10 GB line) is refused once it passes a cap instead of filling the memory.
//! Errors name the file, and the line where there is one (docs/security.md, "Limits").
//!
//! The caps are generous for real files: the corpus's largest file is 3.0 MB, its longest line
//! 0.8 MB (Godot 4.6's), the campaign log 0.1 MB.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes a file read whole may hold: 32 MiB, ten times the corpus's largest file.
pub const MAX_FILE: u64 = 32 << 20;

/// The longest line of a JSON-lines or list file: 4 MiB, five times the corpus's longest line;
/// a testee's answer line has the same cap (`conform::limits::MAX_ANSWER_LINE`).
pub const MAX_LINE: usize = 4 << 20;

/// A file longer than [`MAX_FILE`].
#[derive(Debug, thiserror::Error)]
#[error("longer than {} MiB (the limit for a file read whole); read no further", MAX_FILE >> 20)]
pub(crate) struct TooLarge;

/// The bytes of the file at `path`, read no further than [`MAX_FILE`]: a longer or endless file
/// is an error of kind [`io::ErrorKind::FileTooLarge`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    // A regular file says its size; a FIFO or device says 0 and grows its buffer as it reads.
    let hint = file.metadata().map_or(0, |m| m.len()).min(MAX_FILE + 1);
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(io::Error::new(io::ErrorKind::FileTooLarge, TooLarge));
    }
    Ok(bytes)
}

/// The text of the file at `path`, as [`read`] reads it; text that is not UTF-8 is an error of
/// kind [`io::ErrorKind::InvalidData`] naming the line and byte of the first invalid byte.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = line_of(e.as_bytes(), at);
        let message = format!("line {line} (byte {at}) is not UTF-8");
        io::Error::new(io::ErrorKind::InvalidData, message)
    })
}

/// The 1-based line of byte `offset` in `bytes`.
pub(crate) fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count()
}

/// Why a line is refused for its length, if it is longer than [`MAX_LINE`].
pub(crate) fn line_too_long(line: &str) -> Option<String> {
    (line.len() > MAX_LINE).then(|| {
        format!(
            "a line of {} bytes, longer than {} MiB (the limit)",
            line.len(),
            MAX_LINE >> 20
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_read_no_further_than_the_cap() {
        let e = read(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "longer than 32 MiB (the limit for a file read whole); read no further"
        );
    }

    #[test]
    fn text_that_is_not_utf8_names_its_line_and_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"ok\nok\xff\n").unwrap();
        let e = read_text(&path).unwrap_err();
        assert_eq!(e.to_string(), "line 2 (byte 5) is not UTF-8");
        std::fs::write(&path, b"fine\n").unwrap();
        assert_eq!(read_text(&path).unwrap(), "fine\n");
    }

    #[test]
    fn a_line_past_the_cap_is_named_with_its_length() {
        assert_eq!(line_too_long("short"), None);
        let long = "x".repeat(MAX_LINE + 1);
        assert_eq!(
            line_too_long(&long).unwrap(),
            "a line of 4194305 bytes, longer than 4 MiB (the limit)"
        );
    }
}
