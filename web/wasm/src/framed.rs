//! One decode as the page runs it: the framing's length, then the value, then what trails it,
//! each field told to a [`Sink`].

use std::fmt;

use gdmarshal::decode::{DecodeOptions, decode_traced};
use gdmarshal::framing::{Framing, unframe};
use gdmarshal::trace::Trace;
use gdmarshal::{Profile, Variant};

use crate::rows::span;
use serde::Serialize;

/// A trace that also takes the input's own fields (the framing's length, trailing bytes).
pub trait Sink: Trace {
    /// Bytes `start..end` of the input, outside the value, are `name`, meaning `meaning`.
    fn extra(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>);
    /// The value's fields come next.
    fn start_value(&mut self) {}
    /// The path of labels to the value being read, for an error.
    fn open_path(&self) -> String {
        "value".into()
    }
    /// The node of the value being read and how deep it is nested, for an error's row.
    fn open_node(&self) -> (u32, u32) {
        (0, 0)
    }
}

/// Where and why the bytes do not read: `offset` in the input, the value being read (`where`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct Failure {
    /// Byte offset in the input, framing included.
    pub offset: usize,
    /// What is wrong, naming the version.
    pub message: String,
    /// The labels from the whole value to the one being read.
    #[serde(rename = "where")]
    pub at: String,
    /// The node of the value being read (0: the whole value), which the error's row belongs to.
    pub node: u32,
    /// How deep that node is nested.
    pub depth: u32,
}

/// What a decode came to.
pub struct Outcome {
    /// Bytes the engine's reader moves past (framing and value), on success.
    pub consumed: Option<usize>,
    /// Why it stopped, on failure.
    pub error: Option<Failure>,
    /// The value, on success.
    pub value: Option<Variant>,
    /// Where the value's bytes start in the input and how many the framing gives it.
    pub payload: (usize, usize),
}

/// Decodes `bytes` framed as `framing`, telling `sink` every field.
pub fn run<S: Sink>(
    bytes: &[u8],
    profile: Profile,
    framing: Framing,
    opts: DecodeOptions,
    sink: &mut S,
) -> Outcome {
    let base = if framing == Framing::None { 0 } else { 4 };
    let mut out = Outcome {
        consumed: None,
        error: None,
        value: None,
        payload: (base, 0),
    };
    let framed = match unframe(bytes, framing, profile) {
        Ok(f) => f,
        Err(e) => {
            out.error = Some(Failure {
                offset: 0,
                message: format!("Godot {profile}'s get_var rejects this input: {e}"),
                at: "length".into(),
                ..Failure::default()
            });
            return out;
        }
    };
    out.payload.1 = framed.payload.len();
    if let Some(length) = bytes.first_chunk::<4>().filter(|_| base == 4) {
        let length = u32::from_le_bytes(*length);
        sink.extra(
            0,
            4,
            "length",
            format_args!("{length} bytes of value follow"),
        );
    }
    sink.start_value();
    match decode_traced(framed.payload, profile, opts, sink) {
        Ok(d) => {
            let end = base + d.consumed.min(framed.payload.len());
            if end < bytes.len() {
                let what = if framing == Framing::None {
                    "not read (bytes_to_var reads one value and ignores what follows)"
                } else if end < framed.consumed {
                    "ignored by the engine (inside the framed length)"
                } else {
                    "not read (after the framed value)"
                };
                sink.extra(end, bytes.len(), "trailing bytes", format_args!("{what}"));
            }
            out.consumed = Some(if base == 0 {
                d.consumed
            } else {
                framed.consumed
            });
            out.value = Some(d.value);
        }
        Err(e) => {
            out.error = Some(Failure {
                offset: base + e.offset,
                message: format!("Godot {profile} rejects this input: {}", e.kind),
                at: sink.open_path(),
                node: sink.open_node().0,
                depth: sink.open_node().1,
            });
        }
    }
    out
}

/// What a sink is told of each row, with offsets in the input.
pub trait Rows {
    /// Bytes `start..end` are the field `name`, meaning `meaning`.
    fn row(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>);
}

/// Turns a [`Rows`] into a [`Sink`]: offsets shifted by the framing, cut as the table cuts them.
/// One kind of sink for every [`Rows`]: the decoder is compiled once for them all.
struct Framed<'a> {
    base: usize,
    len: usize,
    rows: &'a mut dyn Rows,
}

impl Trace for Framed<'_> {
    const ACTIVE: bool = true;

    fn open(&mut self, _: usize, _: fmt::Arguments<'_>) {}

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let (s, e) = span(self.base, self.len, start, end);
        self.rows.row(s as usize, e as usize, name, meaning);
    }

    fn close(&mut self, _: usize) {}
}

impl Sink for Framed<'_> {
    fn extra(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        self.rows.row(start, end, name, meaning);
    }
}

/// Reads `bytes` as `profile` reads them, telling `rows` each row.
pub fn read(
    bytes: &[u8],
    profile: Profile,
    framing: Framing,
    opts: DecodeOptions,
    rows: &mut dyn Rows,
) -> Outcome {
    let base = if framing == Framing::None { 0 } else { 4 };
    let mut sink = Framed {
        base,
        len: bytes.len(),
        rows,
    };
    run(bytes, profile, framing, opts, &mut sink)
}

/// Decodes `input`, the bytes at `origin` of an input of `len` bytes, telling `rows` each row
/// (with offsets in that input).
pub fn read_at(
    input: &[u8],
    origin: usize,
    len: usize,
    profile: Profile,
    opts: DecodeOptions,
    rows: &mut dyn Rows,
) -> Result<gdmarshal::Decoded, gdmarshal::DecodeError> {
    let mut sink = Framed {
        base: origin,
        len,
        rows,
    };
    decode_traced(input, profile, opts, &mut sink)
}
