//! What the decoder tells an observer as it reads: the basis of `inspect`.
//!
//! The decoder reports every field it reads through a [`Trace`]. Plain decoding uses [`NoTrace`],
//! whose methods do nothing and compile away, so the annotated dump costs nothing when unused and
//! never restates a layout.

use std::fmt;

use crate::types::VariantType;
use crate::value::Text;

/// Receives the structure of the bytes as the decoder reads them.
pub trait Trace {
    /// Whether this trace records anything. When it doesn't, the decoder skips building labels and
    /// reads common fields (short strings, ints) by shortcuts that report no fields of their own;
    /// the testkit's `properties::check_traced_agrees` checks that both ways decode alike.
    const ACTIVE: bool;

    /// Whether the caller keeps the value decoded. A trace that only watches the bytes (the rows
    /// of [`crate::inspect`]) says `false`: each element of an Array and each entry of a
    /// Dictionary is then dropped once it has been traced, so the value returned holds its
    /// containers empty, and a huge one costs the memory of one element rather than of all.
    const KEEPS_VALUES: bool = true;

    /// A nested value starts at `offset`; `label` says what it is to its parent (`[3]`, `key`, ...).
    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>);

    /// Bytes `start..end` hold the field `name`, meaning `meaning`.
    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>);

    /// The innermost open value ends at `offset`.
    fn close(&mut self, offset: usize);

    /// A nested value starts at `offset`, element `index` of its parent: [`Trace::open`] with the
    /// label `[index]`, which a trace that writes rows may write without formatting.
    #[inline(always)]
    fn open_element(&mut self, offset: usize, index: usize) {
        self.open(offset, format_args!("[{index}]"));
    }

    /// Bytes `start..end` hold the string field `name`, whose text is `text`: [`Trace::field`]
    /// with the text quoted as `{:?}` quotes it, which a trace that writes rows may quote without
    /// formatting.
    #[inline(always)]
    fn text(&mut self, start: usize, end: usize, name: &str, text: &Text) {
        self.field(start, end, name, format_args!("{text:?}"));
    }

    /// Bytes `start..start + 4` hold the count or length word `name` (of elements, entries,
    /// names, properties or a string's bytes), `n` as written: [`Trace::field`] with the number
    /// as its meaning. A trace that looks for these words overrides this rather than matching
    /// names.
    #[inline(always)]
    fn count(&mut self, start: usize, name: &str, n: u32) {
        self.field(start, start + 4, name, format_args!("{n}"));
    }

    /// Bytes `start..start + 4` hold a typed container's element, key or value type word, read
    /// as `ty`: [`Trace::field`] named `element type`.
    #[inline(always)]
    fn element_type(&mut self, start: usize, ty: VariantType) {
        self.field(start, start + 4, "element type", format_args!("{ty}"));
    }

    /// Bytes `start..start + 4` hold a value's type header: [`Trace::field`] named `header`, with
    /// the type, its id and the header's flags as its meaning, which a trace that writes rows may
    /// write without formatting.
    #[inline(always)]
    fn header(&mut self, start: usize, ty: VariantType, id: u32, flags: u32) {
        self.field(
            start,
            start + 4,
            "header",
            format_args!("{ty} (id {id}), flags {flags:#x}"),
        );
    }
}

/// A trace that records nothing.
pub struct NoTrace;

impl Trace for NoTrace {
    const ACTIVE: bool = false;

    #[inline(always)]
    fn open(&mut self, _: usize, _: fmt::Arguments<'_>) {}

    #[inline(always)]
    fn field(&mut self, _: usize, _: usize, _: &str, _: fmt::Arguments<'_>) {}

    #[inline(always)]
    fn close(&mut self, _: usize) {}
}
