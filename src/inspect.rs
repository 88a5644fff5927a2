//! An annotated dump for people: offset, raw bytes, field, meaning, nesting.
//!
//! Built on the decoder's [`Trace`], so it shows exactly what the decoder read, and on bad input it
//! shows everything up to the problem and then the problem. [`inspect_to`] writes each row as the
//! decoder reads its field, so a dump is never held whole: its memory is the decoder's, whatever
//! the number of rows (a 4-byte Nil is two of them). [`fields`] gives the same fields as data.

use std::fmt;
use std::io::{self, Write};

mod fields;
pub use fields::{Field, Fields, fields};

use crate::decode::{DecodeOptions, decode_traced};
use crate::error::DecodeError;
use crate::profile::Profile;
use crate::trace::Trace;
use crate::types::VariantType;
use crate::value::Text;

/// Raw bytes shown per field before eliding the rest.
const SHOWN_BYTES: usize = 16;
/// Width of the bytes column, in characters.
const BYTES_WIDTH: usize = 50;
/// Width of the field column (indent and name), in characters.
const FIELD_WIDTH: usize = 24;

/// The dump's lines, and the error if the bytes do not decode.
pub struct Dump {
    /// One line per field or nested value.
    pub lines: Vec<String>,
    /// Why decoding stopped, if it did.
    pub error: Option<DecodeError>,
    /// Bytes consumed, when the decode succeeded.
    pub consumed: Option<usize>,
}

/// How a dump written by [`inspect_to`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspected {
    /// Why decoding stopped, if it did.
    pub error: Option<DecodeError>,
    /// Bytes consumed, when the decode succeeded.
    pub consumed: Option<usize>,
}

impl fmt::Display for Dump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&header())?;
        for l in &self.lines {
            writeln!(f, "{l}")?;
        }
        f.write_str(&outcome(&self.error, self.consumed))
    }
}

/// The line of column names.
fn header() -> String {
    format!(
        "{:<8} {:<BYTES_WIDTH$} {:<FIELD_WIDTH$} meaning\n",
        "offset", "bytes", "field"
    )
}

/// The closing line: the error, or the bytes consumed.
fn outcome(error: &Option<DecodeError>, consumed: Option<usize>) -> String {
    match (error, consumed) {
        (Some(e), _) => format!("error: {e}\n"),
        (None, Some(n)) => format!("ok: {n} bytes consumed\n"),
        (None, None) => String::new(),
    }
}

/// Dumps the value at the start of `bytes`: every field the decoder reads, with its offset, its
/// bytes and what it means, and the error where decoding stops. The dump is held in memory:
/// [`inspect_to`] writes it as it goes.
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
    let mut lines = Lines(Vec::new());
    let end = match write_rows(&mut lines, bytes, 0, profile, opts) {
        Ok(end) => end,
        Err(e) => match e {},
    };
    Dump {
        lines: lines.0,
        error: end.error,
        consumed: end.consumed,
    }
}

/// Writes the dump of the value at the start of `bytes` to `out` as the decoder reads it: the
/// line of column names, a line per field or nested value, and the outcome, as [`Dump`] shows
/// them. `unread` bytes of the input follow `bytes` without being given (a reader that counted
/// the trailing bytes rather than keep them): they are counted in the trailing bytes' line. Give
/// it a buffered writer; the dump ends at the first write that fails, with that error.
///
/// ```
/// use gdmarshal::inspect::inspect_to;
/// use gdmarshal::{DecodeOptions, Profile};
///
/// let godot46: Profile = "4.6".parse().unwrap();
/// let mut out = Vec::new();
/// let end = inspect_to(&mut out, &[0, 0, 0, 0, 9], 1000, godot46, DecodeOptions::default())?;
/// assert_eq!(end.consumed, Some(4));
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("09 … (1001 bytes)"), "{text}");
/// assert!(text.ends_with("ok: 4 bytes consumed\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn inspect_to<W: Write>(
    out: &mut W,
    bytes: &[u8],
    unread: u64,
    profile: Profile,
    opts: DecodeOptions,
) -> io::Result<Inspected> {
    out.write_all(header().as_bytes())?;
    let end = write_rows(&mut Out(&mut *out), bytes, unread, profile, opts)?;
    out.write_all(outcome(&end.error, end.consumed).as_bytes())?;
    Ok(end)
}

/// Where rows go.
trait Sink {
    /// Why rows could not be taken.
    type Error;
    /// Bytes of rows gathered before they are given, each row whole: 0 gives each row alone.
    const BATCH: usize;
    /// Takes rows, each with its line end.
    fn put(&mut self, rows: &[u8]) -> Result<(), Self::Error>;
}

/// Rows kept as lines, for [`Dump`].
struct Lines(Vec<String>);

impl Sink for Lines {
    type Error = std::convert::Infallible;
    const BATCH: usize = 0;
    fn put(&mut self, row: &[u8]) -> Result<(), Self::Error> {
        let row = row.strip_suffix(b"\n").unwrap_or(row);
        self.0.push(String::from_utf8_lossy(row).into_owned());
        Ok(())
    }
}

/// Rows written out as they come, some kilobytes at a time.
struct Out<'a, W: Write>(&'a mut W);

impl<W: Write> Sink for Out<'_, W> {
    type Error = io::Error;
    // Rows go out in pieces larger than a 64 KiB buffered writer, which writes such pieces
    // through rather than copying them.
    const BATCH: usize = 64 << 10;
    fn put(&mut self, rows: &[u8]) -> io::Result<()> {
        self.0.write_all(rows)
    }
}

/// The rows of [`inspect_to`], without the column names and the outcome.
fn write_rows<S: Sink>(
    out: &mut S,
    bytes: &[u8],
    unread: u64,
    profile: Profile,
    opts: DecodeOptions,
) -> Result<Inspected, S::Error> {
    let mut rows = Rows {
        out,
        bytes,
        depth: 0,
        line: Vec::with_capacity(S::BATCH + 4096),
        failed: None,
        last_header: (None, HeaderText::default()),
        index: Counter::default(),
    };
    let result = decode_traced(bytes, profile, opts, &mut rows);
    rows.flush();
    if let Some(e) = rows.failed {
        return Err(e);
    }
    Ok(match result {
        Ok(d) => {
            let left = bytes.len() - d.consumed.min(bytes.len());
            if left > 0 || unread > 0 {
                let total = left as u64 + unread;
                let shown = &bytes[d.consumed.min(bytes.len())..];
                rows.field_row(d.consumed, shown, total, "trailing bytes", |line| {
                    line.extend_from_slice(b"ignored by the engine");
                });
                rows.flush();
                if let Some(e) = rows.failed {
                    return Err(e);
                }
            }
            Inspected {
                error: None,
                consumed: Some(d.consumed),
            }
        }
        Err(e) => Inspected {
            error: Some(e),
            consumed: None,
        },
    })
}

/// A trace that makes a row for each field and nested value.
struct Rows<'a, S: Sink> {
    out: &'a mut S,
    bytes: &'a [u8],
    depth: usize,
    /// The rows made and not yet given to the sink, the last one perhaps still being made.
    line: Vec<u8>,
    /// The first row the sink did not take; no row is made after it.
    failed: Option<S::Error>,
    /// The last header row's bytes (as a little-endian word) and depth, and its text after the
    /// offset.
    last_header: (Option<(u32, usize)>, HeaderText),
    /// The last element index written, in decimal: the next is nearly always one more.
    index: Counter,
}

/// A header row's text after its offset, kept in a block of fixed size for [`push_cut`].
struct HeaderText {
    block: [u8; HEADER_BLOCK],
    len: usize,
}

/// The longest header row text kept (the widest, a typed container's at some depth, is ~100).
const HEADER_BLOCK: usize = 128;

impl Default for HeaderText {
    fn default() -> HeaderText {
        HeaderText {
            block: [b' '; HEADER_BLOCK],
            len: 0,
        }
    }
}

impl HeaderText {
    /// Keeps `text`; `false` when it is too long to keep.
    fn set(&mut self, text: &[u8]) -> bool {
        let Some(to) = self.block.get_mut(..text.len()) else {
            return false;
        };
        to.copy_from_slice(text);
        self.len = text.len();
        true
    }

    #[inline]
    fn append_to(&self, line: &mut Vec<u8>) {
        push_cut(line, &self.block, self.len);
    }
}

/// An element's label `[n]` in a block of fixed size for [`push_cut`] (the rest unused), whose
/// digits counting up by one changes in place.
struct Counter {
    value: Option<u64>,
    /// `[`, the digits, `]`.
    block: [u8; 22],
    /// How many digits.
    len: usize,
}

impl Default for Counter {
    fn default() -> Counter {
        Counter {
            value: None,
            block: [b' '; 22],
            len: 0,
        }
    }
}

impl Counter {
    /// The block holding `[n]` at its start, and the label's length.
    #[inline]
    fn label(&mut self, n: u64) -> (&[u8; 22], usize) {
        if !(self.value.is_some_and(|v| v.checked_add(1) == Some(n)) && self.step()) {
            let mut buffer = itoa::Buffer::new();
            let text = buffer.format(n).as_bytes();
            self.len = text.len();
            self.block[0] = b'[';
            self.block[1..=self.len].copy_from_slice(text);
            self.block[self.len + 1] = b']';
        }
        self.value = Some(n);
        (&self.block, self.len + 2)
    }

    /// Adds one to the digits; `false` when that would need a new digit (the caller writes
    /// them anew).
    #[inline]
    fn step(&mut self) -> bool {
        for d in self.block[1..=self.len].iter_mut().rev() {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                return true;
            }
        }
        false
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Each byte's two hex digits, byte `b` at `2 * b`.
static HEX_PAIRS: [u8; 512] = {
    let mut pairs = [0; 512];
    let mut b = 0;
    while b < 256 {
        pairs[2 * b] = HEX[b >> 4];
        pairs[2 * b + 1] = HEX[b & 15];
        b += 1;
    }
    pairs
};

impl<S: Sink> Rows<'_, S> {
    /// Starts a row with its offset, as 8 hex digits or more.
    #[inline]
    fn row_start(&mut self, offset: usize) {
        match u32::try_from(offset) {
            Ok(o) => {
                // Eight digits and the space, appended at once, two digits a byte.
                let mut digits = [b' '; 9];
                for (i, b) in o.to_be_bytes().into_iter().enumerate() {
                    let pair = &HEX_PAIRS[2 * usize::from(b)..][..2];
                    digits[2 * i..2 * i + 2].copy_from_slice(pair);
                }
                self.line.extend_from_slice(&digits);
            }
            Err(_) => push_args(&mut self.line, format_args!("{offset:08x} ")),
        }
    }

    fn indent(&mut self) {
        pad(&mut self.line, 0, 2 * self.depth);
    }

    /// A row for a nested value: its offset, and its label (what `label` appends) indented.
    #[inline]
    fn open_row(&mut self, offset: usize, label: impl FnOnce(&mut Vec<u8>)) {
        if self.failed.is_none() {
            self.row_start(offset);
            // The empty bytes column, its space and the indent at once.
            pad(&mut self.line, 0, BYTES_WIDTH + 1 + 2 * self.depth);
            label(&mut self.line);
            self.finish_row();
        }
        self.depth += 1;
    }

    #[inline]
    fn finish_row(&mut self) {
        self.line.push(b'\n');
        if self.line.len() > S::BATCH {
            self.flush();
        }
    }

    /// Gives the rows made so far to the sink.
    fn flush(&mut self) {
        if self.failed.is_none()
            && !self.line.is_empty()
            && let Err(e) = self.out.put(&self.line)
        {
            self.failed = Some(e);
        }
        self.line.clear();
    }

    /// A row for a field: its offset, its first bytes (of `total`), its name indented, and what
    /// `meaning` appends.
    fn field_row(
        &mut self,
        start: usize,
        shown: &[u8],
        total: u64,
        name: &str,
        meaning: impl FnOnce(&mut Vec<u8>),
    ) {
        if self.failed.is_some() {
            return;
        }
        self.row_start(start);
        let used = raw(&mut self.line, shown, total);
        pad(&mut self.line, used, BYTES_WIDTH);
        self.line.push(b' ');
        self.indent();
        self.line.extend_from_slice(name.as_bytes());
        pad(&mut self.line, 2 * self.depth + width(name), FIELD_WIDTH);
        self.line.push(b' ');
        meaning(&mut self.line);
        self.finish_row();
    }
}

/// Appends `args`, without formatting when it is a plain string.
fn push_args(line: &mut Vec<u8>, args: fmt::Arguments<'_>) {
    match args.as_str() {
        Some(s) => line.extend_from_slice(s.as_bytes()),
        None => {
            let _ = fmt::write(&mut RowText(line), args);
        }
    }
}

/// Appends `n` in decimal, as `{}` writes it.
fn push_decimal(line: &mut Vec<u8>, n: u64) {
    line.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `n` in lowercase hex without leading zeros, as `{:x}` writes it.
fn push_hex(line: &mut Vec<u8>, n: u32) {
    let digits = (32 - n.leading_zeros()).div_ceil(4).max(1);
    for i in (0..digits).rev() {
        line.push(HEX[(n >> (4 * i)) as usize & 15]);
    }
}

/// A row as a `fmt::Write`, which formats into it without the error bookkeeping of `io::Write`.
struct RowText<'a>(&'a mut Vec<u8>);

impl fmt::Write for RowText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Appends the first bytes of a field as hex pairs (at most [`SHOWN_BYTES`]), and how many there
/// are in all when they are more than those shown; returns the characters appended.
fn raw(line: &mut Vec<u8>, bytes: &[u8], total: u64) -> usize {
    let shown = &bytes[..bytes.len().min(SHOWN_BYTES)];
    let mut pairs = [b' '; 3 * SHOWN_BYTES];
    for (i, b) in shown.iter().enumerate() {
        pairs[3 * i] = HEX[usize::from(b >> 4)];
        pairs[3 * i + 1] = HEX[usize::from(b & 15)];
    }
    let mut width = (3 * shown.len()).saturating_sub(1);
    line.extend_from_slice(&pairs[..width]);
    if total > shown.len() as u64 {
        let before = line.len();
        push_args(line, format_args!(" … ({total} bytes)"));
        // The ellipsis is one character of three bytes.
        width += line.len() - before - 2;
    }
    width
}

/// Appends spaces to make something `width` characters wide of which `used` are written.
#[inline]
fn pad(line: &mut Vec<u8>, used: usize, width: usize) {
    let n = width.saturating_sub(used);
    if n <= SPACES.len() {
        push_cut(line, &SPACES, n);
    } else {
        line.resize(line.len() + n, b' ');
    }
}

/// Appends the first `len` bytes of `block` (`len` at most `N`): the whole block is copied, a
/// size the compiler knows and copies without a call to `memcpy`, then the line is cut back.
/// Hot rows are made of such pieces.
#[inline]
fn push_cut<const N: usize>(line: &mut Vec<u8>, block: &[u8; N], len: usize) {
    debug_assert!(len <= N);
    let end = line.len() + len;
    line.extend_from_slice(block);
    line.truncate(end);
}

/// Spaces enough for the widest column and some indent, for [`push_cut`].
static SPACES: [u8; 64] = [b' '; 64];

/// Characters in `s`.
fn width(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

impl<S: Sink> Trace for Rows<'_, S> {
    const ACTIVE: bool = true;
    // The rows are all inspect makes: the value decoded is not kept.
    const KEEPS_VALUES: bool = false;

    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
        self.open_row(offset, |line| push_args(line, label));
    }

    fn open_element(&mut self, offset: usize, index: usize) {
        let (block, len) = self.index.label(index as u64);
        // Copied out (the borrow of the counter ends before the row is made).
        let label = *block;
        self.open_row(offset, |line| push_cut(line, &label, len));
    }

    fn text(&mut self, start: usize, end: usize, name: &str, text: &Text) {
        let bytes = self.bytes;
        let end = end.min(bytes.len());
        let shown = &bytes[start.min(end)..end];
        self.field_row(start, shown, shown.len() as u64, name, |line| {
            // Printable ASCII without quotes or backslashes is quoted as it is: `{:?}` would
            // escape nothing in it, and asks of each character whether it is printable.
            match text.as_str() {
                Some(s)
                    if s.bytes()
                        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\') =>
                {
                    line.push(b'"');
                    line.extend_from_slice(s.as_bytes());
                    line.push(b'"');
                }
                _ => push_args(line, format_args!("{text:?}")),
            }
        });
    }

    fn header(&mut self, start: usize, ty: VariantType, id: u32, flags: u32) {
        let bytes = self.bytes;
        let shown = &bytes[start.min(bytes.len())..(start + 4).min(bytes.len())];
        // A header row is the same as the last one but for its offset when its bytes and depth
        // are (the elements of an array of one type): its text is copied whole.
        let key = <[u8; 4]>::try_from(shown)
            .ok()
            .map(|four| (u32::from_le_bytes(four), self.depth));
        if self.failed.is_none() && key.is_some() && self.last_header.0 == key {
            self.row_start(start);
            self.last_header.1.append_to(&mut self.line);
            self.finish_row();
            return;
        }
        let row = self.line.len();
        self.field_row(start, shown, shown.len() as u64, "header", |line| {
            line.extend_from_slice(ty.name().as_bytes());
            line.extend_from_slice(b" (id ");
            push_decimal(line, u64::from(id));
            line.extend_from_slice(b"), flags 0x");
            push_hex(line, flags);
        });
        // The text after the offset (8 hex digits and a space), without the line end, when the
        // row is still in the buffer.
        if key.is_some() && start <= u32::MAX as usize && self.line.len() > row + 9 {
            let text = &self.line[row + 9..self.line.len() - 1];
            if self.last_header.1.set(text) {
                self.last_header.0 = key;
            }
        }
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let bytes = self.bytes;
        let end = end.min(bytes.len());
        let shown = &bytes[start.min(end)..end];
        self.field_row(start, shown, shown.len() as u64, name, |line| {
            push_args(line, meaning)
        });
    }

    fn close(&mut self, _offset: usize) {
        self.depth = self.depth.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::unhex;

    /// The rows as plain `format!` writes them: the reference the fast row writer must equal
    /// character for character.
    struct Plain<'a> {
        bytes: &'a [u8],
        depth: usize,
        lines: Vec<String>,
    }

    fn plain_raw(bytes: &[u8], total: u64) -> String {
        let mut s: String = bytes
            .iter()
            .take(SHOWN_BYTES)
            .map(|b| format!("{b:02x} "))
            .collect();
        if total > SHOWN_BYTES as u64 {
            s.push_str(&format!("… ({total} bytes)"));
        }
        s.trim_end().to_string()
    }

    impl Trace for Plain<'_> {
        const ACTIVE: bool = true;

        fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
            let indent = "  ".repeat(self.depth);
            self.lines
                .push(format!("{offset:08x} {:<50} {indent}{label}", ""));
            self.depth += 1;
        }

        fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
            let end = end.min(self.bytes.len());
            let field = format!("{}{name}", "  ".repeat(self.depth));
            let raw = &self.bytes[start..end];
            self.lines.push(format!(
                "{start:08x} {:<50} {field:<24} {meaning}",
                plain_raw(raw, raw.len() as u64)
            ));
        }

        fn close(&mut self, _offset: usize) {
            self.depth -= 1;
        }
    }

    /// Every engine-written vector, whole and cut short at each of its first bytes, under its
    /// engine's profile, with and without full objects.
    fn inputs() -> Vec<(Profile, Vec<u8>)> {
        let mut inputs = Vec::new();
        for (file, version) in [
            ("godot-3.2.3.stable.txt", "3.2"),
            ("godot-3.6.2.stable.txt", "3.6"),
            ("godot-4.6.3.stable.txt", "4.6"),
        ] {
            let path = format!("{}/tests/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            let profile: Profile = version.parse().unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let (_, hex) = line.rsplit_once(' ').unwrap();
                let bytes = unhex(hex).unwrap();
                for cut in (0..bytes.len().min(24)).chain([bytes.len()]) {
                    inputs.push((profile, bytes[..cut].to_vec()));
                }
                // Trailing bytes, more than a row shows.
                let mut long = bytes.clone();
                long.extend([0xab; 40]);
                inputs.push((profile, long));
            }
        }
        // Strings quoted as they are and strings that need escapes.
        let godot46: Profile = "4.6".parse().unwrap();
        for text in [
            "plain ~ text",
            "a\"b",
            "back\\slash",
            "new\nline",
            "tab\t",
            "é",
            "\u{7f}",
            "",
        ] {
            let v = crate::Variant::String(text.into());
            let bytes = crate::encode(&v, godot46, crate::EncodeOptions::default()).unwrap();
            inputs.push((godot46, bytes));
        }
        inputs
    }

    #[test]
    fn the_index_counter_writes_what_display_writes() {
        let mut c = Counter::default();
        let ns = (0..=10_010u64)
            .chain([7, 8, 99, 100, 5, u64::MAX - 1, u64::MAX, 0, 1])
            .chain(999_999..=1_000_001);
        for n in ns {
            let (block, len) = c.label(n);
            assert_eq!(&block[..len], format!("[{n}]").as_bytes(), "{n}");
        }
    }

    #[test]
    fn rows_are_written_as_plain_formatting_writes_them() {
        let mut compared = 0;
        for (profile, bytes) in inputs() {
            for allow_objects in [false, true] {
                let opts = DecodeOptions { allow_objects };
                let mut plain = Plain {
                    bytes: &bytes,
                    depth: 0,
                    lines: Vec::new(),
                };
                let result = decode_traced(&bytes, profile, opts, &mut plain);
                if let Ok(d) = &result
                    && d.consumed < bytes.len()
                {
                    let rest = &bytes[d.consumed..];
                    plain.lines.push(format!(
                        "{:08x} {:<50} {:<24} ignored by the engine",
                        d.consumed,
                        plain_raw(rest, rest.len() as u64),
                        "trailing bytes"
                    ));
                }
                let dump = inspect(&bytes, profile, opts);
                assert_eq!(dump.lines, plain.lines, "{profile} {bytes:02x?}");
                assert_eq!(dump.error, result.as_ref().err().cloned());
                compared += dump.lines.len();
            }
        }
        assert!(compared > 10_000, "{compared} rows");
    }

    #[test]
    fn the_streamed_dump_is_the_dump() {
        for (profile, bytes) in inputs() {
            let opts = DecodeOptions::default();
            let mut out = Vec::new();
            let end = inspect_to(&mut out, &bytes, 0, profile, opts).unwrap();
            let dump = inspect(&bytes, profile, opts);
            assert_eq!(String::from_utf8(out).unwrap(), dump.to_string());
            assert_eq!((end.error, end.consumed), (dump.error, dump.consumed));
        }
    }

    #[test]
    fn a_dump_of_many_pieces_is_the_dump() {
        // 100,000 Nils: some megabytes of rows, given to the writer in many pieces.
        let mut bytes = vec![28, 0, 0, 0, 0xa0, 0x86, 0x01, 0];
        bytes.resize(8 + 4 * 100_000, 0);
        bytes.extend([1, 2, 3]);
        let godot46: Profile = "4.6".parse().unwrap();
        let opts = DecodeOptions::default();
        let mut out = Vec::new();
        inspect_to(&mut out, &bytes, 0, godot46, opts).unwrap();
        let whole = inspect(&bytes, godot46, opts).to_string();
        assert!(whole.len() > 16 << 20);
        assert!(out == whole.as_bytes(), "the streamed dump differs");
        // Bytes counted and not given are counted with the trailing bytes shown.
        let mut out = Vec::new();
        inspect_to(&mut out, &bytes, 5, godot46, opts).unwrap();
        let text = String::from_utf8(out).unwrap();
        let last = format!(
            "00061a88 {:<50} {:<24} ignored by the engine\nok: 400008 bytes consumed\n",
            "01 02 03 … (8 bytes)", "trailing bytes"
        );
        assert!(text.ends_with(&last), "{}", &text[text.len() - 200..]);
    }

    /// A writer that fails after `left` bytes.
    struct Full {
        left: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if buf.len() > self.left {
                return Err(io::Error::other("full"));
            }
            self.left -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_ends_the_dump_with_its_error() {
        let bytes = [28, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let e = inspect_to(
            &mut Full { left: 300 },
            &bytes,
            0,
            "4.6".parse().unwrap(),
            DecodeOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "full");
    }

    #[test]
    fn numbers_are_written_as_format_writes_them() {
        for n in [
            0u64,
            7,
            10,
            99,
            100,
            4_999_998,
            u64::from(u32::MAX),
            u64::MAX,
        ] {
            let mut line = Vec::new();
            push_decimal(&mut line, n);
            assert_eq!(line, n.to_string().as_bytes());
        }
        for n in [0u32, 1, 0xf, 0x10, 0x1_0000, 0xdead_beef, u32::MAX] {
            let mut line = Vec::new();
            push_hex(&mut line, n);
            assert_eq!(line, format!("{n:x}").as_bytes());
        }
    }
}
