//! A command's input, read in pieces under `--max-input`: what is needed is kept, what follows it
//! is only counted, and an input longer than the cap is refused at the byte where it passes it,
//! so an endless input (`/dev/zero`, a pipe that never closes) ends the command by itself.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use gdmarshal::hex::{HexError, Unhex};

/// Bytes read at a time.
const PIECE: usize = 1 << 16;

/// The first prefix a [`Source::read_until`] caller is asked about; each next one is
/// [`LOOK_GROWTH`] times as long, so that asking (decoding the prefix) costs a seventh more than
/// decoding the whole, and at most that many times the value's length is read past its end.
const FIRST_LOOK: usize = 1 << 16;
/// See [`FIRST_LOOK`].
const LOOK_GROWTH: usize = 8;
/// A regular file up to this length is read whole before [`Source::read_until`] asks about it.
const WHOLE_FILE: u64 = 64 << 20;

/// Why a command's input could not be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file could not be opened.
    #[error("{name}: {source}")]
    Open {
        /// The file as given.
        name: String,
        /// Why.
        source: io::Error,
    },
    /// Reading failed part way.
    #[error("{name}: at byte {offset}: {source}")]
    Read {
        /// The file as given, or `stdin`.
        name: String,
        /// Bytes read before the failure.
        offset: u64,
        /// Why.
        source: io::Error,
    },
    /// The input goes on past the cap.
    #[error(
        "{name}: the input is longer than {cap} bytes, the --max-input limit: refused at byte {cap} \
         (give a larger --max-input to read it)"
    )]
    TooLong {
        /// The file as given, or `stdin`.
        name: String,
        /// The cap.
        cap: u64,
    },
    /// Hex text that is not hex.
    #[error("{name}: hex input: {error}")]
    Hex {
        /// The file as given, or `stdin`.
        name: String,
        /// What is wrong, and where in the text.
        error: HexError,
    },
}

impl InputError {
    /// Whether the input itself is refused (exit 1, as other input the format rejects), rather
    /// than unreadable or past the cap (exit 2, could not run).
    pub fn is_rejection(&self) -> bool {
        matches!(self, InputError::Hex { .. })
    }
}

/// The start of an input, as much as was needed, and how many bytes followed it unkept.
#[derive(Debug)]
pub struct Prefix {
    /// The bytes kept.
    pub bytes: Vec<u8>,
    /// Bytes of the input after `bytes`, counted and not kept (0 when they were left unread).
    pub unread: u64,
}

/// A file or stdin, raw or hex text, read under a cap on its length.
pub struct Source {
    name: String,
    reader: Box<dyn Read>,
    /// Hex text is turned into bytes as it is read.
    hex: Option<Unhex>,
    /// Bytes of input (text, for hex) read so far.
    read: u64,
    cap: u64,
    /// The length of a regular file of raw bytes, when known: such a file of at most
    /// [`WHOLE_FILE`] bytes is read whole before it is asked about.
    file_len: Option<u64>,
}

impl Source {
    /// The file at `path`, or stdin when `path` is `None` or `-`.
    pub fn open(path: Option<&PathBuf>, hex: bool, cap: u64) -> Result<Source, InputError> {
        let (name, reader, file_len): (String, Box<dyn Read>, _) = match path {
            Some(p) if p.as_os_str() != "-" => {
                let name = p.display().to_string();
                match File::open(p) {
                    Ok(f) => {
                        let len = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                        (name, Box::new(f), len)
                    }
                    Err(source) => return Err(InputError::Open { name, source }),
                }
            }
            _ => ("stdin".into(), Box::new(io::stdin().lock()), None),
        };
        Ok(Source {
            name,
            reader,
            hex: hex.then(Unhex::default),
            read: 0,
            cap,
            file_len: file_len.filter(|_| !hex),
        })
    }

    /// The error for an input longer than the cap.
    pub fn too_long(&self) -> InputError {
        InputError::TooLong {
            name: self.name.clone(),
            cap: self.cap,
        }
    }

    /// The input's name in messages: the path as given, or `stdin`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Reads the next piece into `buf` (bytes, for hex text) and returns whether there was one.
    /// Reading stops at the end, at the first character that is not hex, or past the cap.
    fn piece(&mut self, buf: &mut Vec<u8>) -> Result<bool, InputError> {
        let mut text = [0u8; PIECE];
        // One byte past the cap is asked for, to tell an input of exactly the cap from a longer one.
        let room = (self.cap + 1 - self.read.min(self.cap + 1)).min(PIECE as u64) as usize;
        let n = loop {
            match self.reader.read(&mut text[..room]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(InputError::Read {
                        name: self.name.clone(),
                        offset: self.read,
                        source,
                    });
                }
            }
        };
        self.read += n as u64;
        if self.read > self.cap {
            return Err(self.too_long());
        }
        match &mut self.hex {
            None => buf.extend_from_slice(&text[..n]),
            Some(unhex) => {
                unhex.feed(&text[..n]);
                buf.append(&mut unhex.take_bytes());
                if unhex.failed() {
                    // Refused whatever follows: the error is the first character that is not hex.
                    self.end()?;
                }
            }
        }
        Ok(n > 0)
    }

    /// Checks the end of hex text: the first character that is not hex, or an odd number of
    /// digits, is an error.
    fn end(&mut self) -> Result<(), InputError> {
        match self.hex.take() {
            Some(unhex) => match unhex.finish() {
                Ok(_) => Ok(()),
                Err(error) => Err(InputError::Hex {
                    name: self.name.clone(),
                    error,
                }),
            },
            None => Ok(()),
        }
    }

    /// Reads until `enough` says the bytes so far hold what is wanted (it is asked about prefixes
    /// of 64 KiB, then of [`LOOK_GROWTH`] times the length each time), then counts the rest of
    /// the input without keeping it, or leaves it unread, as `enough` says. At the end of the
    /// input the bytes are returned whatever `enough` says.
    pub fn read_until(
        mut self,
        mut enough: impl FnMut(&[u8]) -> Option<Rest>,
    ) -> Result<Prefix, InputError> {
        // A small file's bytes are read into room made for them at once.
        let mut buf = match self.file_len {
            Some(len) if len <= WHOLE_FILE => Vec::with_capacity(len as usize + 1),
            _ => Vec::new(),
        };
        // A small file is asked about once it is read, rather than decoding its first parts on
        // the way; a longer one (perhaps sparse, or growing) as any other input.
        let mut look = match self.file_len {
            Some(len) if len <= WHOLE_FILE => (len as usize).saturating_add(1).max(FIRST_LOOK),
            _ => FIRST_LOOK,
        };
        let rest = loop {
            if !self.piece(&mut buf)? {
                self.end()?;
                return Ok(Prefix {
                    bytes: buf,
                    unread: 0,
                });
            }
            if buf.len() >= look {
                look = buf.len().saturating_mul(LOOK_GROWTH);
                if let Some(rest) = enough(&buf) {
                    break rest;
                }
            }
        };
        let mut unread = 0u64;
        if rest == Rest::Count {
            let mut scratch = Vec::with_capacity(PIECE);
            loop {
                scratch.clear();
                let more = self.piece(&mut scratch)?;
                unread += scratch.len() as u64;
                if !more {
                    self.end()?;
                    break;
                }
            }
        }
        Ok(Prefix { bytes: buf, unread })
    }
}

/// What [`Source::read_until`] does with the input after the bytes that were enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    /// Reads it to its end, counting it (under the cap).
    Count,
    /// Leaves it unread: what was read already decides the outcome.
    Leave,
}

/// Raw input as a reader (for a reader of lines), under the same cap: past it, a read fails with
/// [`InputError::TooLong`] as its error.
impl Read for Source {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let room = (self.cap + 1 - self.read.min(self.cap + 1)).min(out.len() as u64) as usize;
        let n = self.reader.read(&mut out[..room])?;
        self.read += n as u64;
        if self.read > self.cap {
            return Err(io::Error::other(self.too_long()));
        }
        Ok(n)
    }
}

/// `--max-input`, the cap on a command's input. Its default, 1 GiB, is past what Godot makes: a
/// value is framed with a 32-bit length by `store_var` and `put_var` and counted in a 32-bit int
/// by `encode_variant`, and a real save or packet is far smaller.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct MaxInputArg {
    /// Refuse an input longer than this: a number of bytes, or of KiB, MiB or GiB with K, M or G
    /// after it. Hex text counts as read, two characters a byte. Bytes after a value are
    /// counted, not kept, and count toward it.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = size)]
    pub max_input: u64,
}

/// A size in bytes: digits, and K, M or G for KiB, MiB or GiB.
fn size(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().last() {
        Some((i, 'K' | 'k')) => (&text[..i], 1 << 10),
        Some((i, 'M' | 'm')) => (&text[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{text:?}: give a number of bytes above 0, with K, M or G after it for KiB, MiB or GiB"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(size("1G"), Ok(1 << 30));
        assert_eq!(size("64k"), Ok(65_536));
        assert_eq!(size("3M"), Ok(3 << 20));
        assert_eq!(size("17"), Ok(17));
        for bad in ["", "0", "G", "1.5M", "-1", "99999999999999999999G"] {
            assert!(size(bad).is_err(), "{bad}");
        }
    }
}
