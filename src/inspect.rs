//! An annotated dump for people: offset, raw bytes, field, meaning, nesting.
//!
//! Built on the decoder's [`Trace`], so it shows exactly what the decoder read, and on bad input it
//! shows everything up to the problem and then the problem.

use std::fmt::{self, Write};

use crate::decode::{DecodeOptions, decode_traced};
use crate::error::DecodeError;
use crate::profile::Profile;
use crate::trace::Trace;

/// Raw bytes shown per field before eliding the rest.
const SHOWN_BYTES: usize = 16;

/// The dump's lines, and the error if the bytes do not decode.
pub struct Dump {
    /// One line per field or nested value.
    pub lines: Vec<String>,
    /// Why decoding stopped, if it did.
    pub error: Option<DecodeError>,
    /// Bytes consumed, when the decode succeeded.
    pub consumed: Option<usize>,
}

impl fmt::Display for Dump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<8} {:<50} {:<24} meaning", "offset", "bytes", "field")?;
        for l in &self.lines {
            writeln!(f, "{l}")?;
        }
        match (&self.error, self.consumed) {
            (Some(e), _) => writeln!(f, "error: {e}"),
            (None, Some(n)) => writeln!(f, "ok: {n} bytes consumed"),
            (None, None) => Ok(()),
        }
    }
}

/// Dumps the value at the start of `bytes`: every field the decoder reads, with its offset, its
/// bytes and what it means, and the error where decoding stops.
///
/// ```
/// use gdmarshal::inspect::inspect;
/// use gdmarshal::{DecodeOptions, Profile};
///
/// let godot46: Profile = "4.6".parse().unwrap();
/// let dump = inspect(&[2, 0, 0, 0, 7, 0, 0, 0], godot46, DecodeOptions::default());
/// assert_eq!(dump.consumed, Some(8));
/// assert!(dump.error.is_none());
/// // A line of column names, a line per field read, then the outcome.
/// assert!(dump.to_string().ends_with("ok: 8 bytes consumed\n"));
///
/// let cut = inspect(&[2, 0, 0, 0, 7], godot46, DecodeOptions::default());
/// assert_eq!(cut.error.unwrap().offset, 4);
/// ```
pub fn inspect(bytes: &[u8], profile: Profile, opts: DecodeOptions) -> Dump {
    let mut t = Lines {
        bytes,
        depth: 0,
        lines: Vec::new(),
    };
    let result = decode_traced(bytes, profile, opts, &mut t);
    let (error, consumed) = match result {
        Ok(d) => {
            if d.consumed < bytes.len() {
                t.lines.push(format!(
                    "{:08x} {:<50} {:<24} ignored by the engine",
                    d.consumed,
                    raw(&bytes[d.consumed..]),
                    "trailing bytes"
                ));
            }
            (None, Some(d.consumed))
        }
        Err(e) => (Some(e), None),
    };
    Dump {
        lines: t.lines,
        error,
        consumed,
    }
}

struct Lines<'a> {
    bytes: &'a [u8],
    depth: usize,
    lines: Vec<String>,
}

fn raw(bytes: &[u8]) -> String {
    let mut s = String::new();
    for b in bytes.iter().take(SHOWN_BYTES) {
        write!(s, "{b:02x} ").expect("writing to a String");
    }
    if bytes.len() > SHOWN_BYTES {
        write!(s, "… ({} bytes)", bytes.len()).expect("writing to a String");
    }
    s.trim_end().to_string()
}

impl Trace for Lines<'_> {
    const ACTIVE: bool = true;

    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
        let indent = "  ".repeat(self.depth);
        self.lines
            .push(format!("{offset:08x} {:<50} {indent}{label}", ""));
        self.depth += 1;
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let end = end.min(self.bytes.len());
        let indent = "  ".repeat(self.depth);
        let field = format!("{indent}{name}");
        self.lines.push(format!(
            "{start:08x} {:<50} {field:<24} {meaning}",
            raw(&self.bytes[start..end])
        ));
    }

    fn close(&mut self, _offset: usize) {
        self.depth = self.depth.saturating_sub(1);
    }
}
