//! The decoder's trace as the page's two views: the nested values (the tree) and the fields they
//! are read from (the annotated table), each with its byte range, so either one can point at the
//! other. Both are flat tables of numbers, their texts in one UTF-8 buffer: the page reads the
//! numbers of every row at once and the text of only the rows it draws, so a 50,000-entry
//! Dictionary's 200,000 rows cost no JSON to parse.

use std::fmt::{self, Write};

use gdmarshal::trace::Trace;

/// Numbers per node: start, end, parent, label offset, label length. Node 0 is the whole value
/// (its own parent); `end` is where the decoder left the value (for a value cut short by an
/// error: the last byte it read).
pub const NODE_CELLS: usize = 5;
/// Numbers per row: start, end, node, field offset, field length, meaning offset, meaning
/// length; `node` is the innermost value the field is read in.
pub const ROW_CELLS: usize = 7;

/// Collects nodes and rows; offsets are shifted by `base` (the framing's length field).
pub struct Collect {
    base: usize,
    len: usize,
    open: Vec<usize>,
    /// The values, [`NODE_CELLS`] numbers each, in the order they start.
    pub nodes: Vec<u32>,
    /// The fields, [`ROW_CELLS`] numbers each, in the order they are read.
    pub rows: Vec<u32>,
    /// The labels, field names and meanings the tables point into.
    pub text: String,
}

/// An offset or length as the tables hold it: wasm32's usize is 32 bits wide.
fn cell(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Collect {
    /// An empty collection for an input of `len` bytes whose value starts at `base`, with node 0
    /// for the whole value.
    pub fn new(base: usize, len: usize, label: &str) -> Collect {
        let mut c = Collect {
            base,
            len,
            open: vec![0],
            nodes: Vec::new(),
            rows: Vec::new(),
            text: String::new(),
        };
        let (at, len) = c.put(format_args!("{label}"));
        c.nodes.extend([cell(base), cell(base), 0, at, len]);
        c
    }

    /// Appends `text`; its offset and length.
    fn put(&mut self, text: fmt::Arguments<'_>) -> (u32, u32) {
        let at = self.text.len();
        // Writing to a String cannot fail.
        let _ = self.text.write_fmt(text);
        (cell(at), cell(self.text.len() - at))
    }

    /// Adds a field of the input itself (framing, trailing bytes), outside the value.
    pub fn extra(&mut self, start: usize, end: usize, name: &str, meaning: &str) {
        let (n, nl) = self.put(format_args!("{name}"));
        let (m, ml) = self.put(format_args!("{meaning}"));
        self.rows.extend([cell(start), cell(end), 0, n, nl, m, ml]);
    }

    /// A node's label.
    pub fn label(&self, node: usize) -> &str {
        let at = node * NODE_CELLS;
        let (off, len) = (self.nodes[at + 3] as usize, self.nodes[at + 4] as usize);
        &self.text[off..off + len]
    }

    /// The path of labels to the innermost open value: where a decode stopped.
    pub fn open_path(&self) -> String {
        let mut path = self.label(0).to_string();
        for &n in &self.open[1..] {
            path.push_str(" › ");
            path.push_str(self.label(n));
        }
        path
    }

    /// Every open value reaches at least to `end`.
    fn stretch(&mut self, end: u32) {
        for &n in &self.open {
            let e = &mut self.nodes[n * NODE_CELLS + 1];
            *e = (*e).max(end);
        }
    }
}

impl Trace for Collect {
    const ACTIVE: bool = true;

    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
        let parent = *self.open.last().unwrap_or(&0);
        let at = cell(self.base + offset);
        let (l, ll) = self.put(label);
        self.nodes.extend([at, at, cell(parent), l, ll]);
        self.open.push(self.nodes.len() / NODE_CELLS - 1);
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let node = cell(*self.open.last().unwrap_or(&0));
        // A trailing PackedByteArray's padding may lie past the input's end, which the engines
        // accept: the row ends with the input.
        let end = (self.base + end).min(self.len.max(self.base + start));
        let (start, end) = (cell(self.base + start), cell(end));
        let (n, nl) = self.put(format_args!("{name}"));
        let (m, ml) = self.put(meaning);
        self.rows.extend([start, end, node, n, nl, m, ml]);
        self.stretch(end);
    }

    fn close(&mut self, offset: usize) {
        self.stretch(cell(self.base + offset));
        if self.open.len() > 1 {
            self.open.pop();
        }
    }
}
