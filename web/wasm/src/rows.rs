//! The decoder's trace as the page's two views, kept compactly: the nested values (the tree) and
//! the fields they are read from (the annotated table), each with its byte range, so either one
//! can point at the other. A row keeps its offsets and its value and no text: its field name and
//! meaning are written again when the page shows it ([`crate::window`]). Only rows that cannot be
//! read again cheaply keep their text (see [`Collect::field`]).

use std::fmt::{self, Write};

use gdmarshal::trace::Trace;

use crate::chunks::Chunks;
use crate::framed::Sink;
use crate::label::{self, Code, Small};

/// A nested value. Node 0 is the whole value (its own parent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Where it starts in the input.
    pub start: u32,
    /// Where the decoder left it (for a value cut short by an error: the last byte it read).
    pub end: u32,
    /// The value it is read in.
    pub parent: u32,
    /// The first row read in it (its own or a nested value's).
    pub first_row: u32,
    /// The node after it and everything nested in it: its next sibling, if it has one.
    pub next: u32,
    /// Its label, as [`crate::label`] numbers it.
    pub label: u32,
    /// Whether it is a value of its own, read from its header (a PackedStringArray's strings
    /// are not: they can only be read again with their array).
    pub value: bool,
}

/// A field of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Where it starts in the input.
    pub start: u32,
    /// Where it ends.
    pub end: u32,
    /// The innermost value it is read in.
    pub node: u32,
}

/// A row that keeps its text: its index and where its field name and meaning are in the text.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// The row.
    pub row: u32,
    name: (u32, u32),
    meaning: (u32, u32),
}

/// A value being read: its node, whether a value nested in it has been read, and what its node
/// will hold once it closes.
#[derive(Clone, Copy, Debug)]
struct Open {
    node: u32,
    nested: bool,
    end: u32,
    first_row: u32,
    value: bool,
}

impl Open {
    fn new(node: u32, at: u32, first_row: u32) -> Open {
        Open {
            node,
            nested: false,
            end: at,
            first_row,
            value: true,
        }
    }
}

/// Collects nodes and rows; offsets are shifted by `base` (the framing's length field).
pub struct Collect {
    base: usize,
    len: usize,
    /// The values open, innermost last: written to `nodes` as they close.
    open: Vec<Open>,
    /// The values, in the order they start.
    pub nodes: Chunks<Node>,
    /// The fields, in the order they are read.
    pub rows: Chunks<Row>,
    /// The rows that keep their text, in order.
    pub kept: Vec<Kept>,
    /// Where each label kept as text starts in `text` (it ends where the next starts).
    labels: Vec<(u32, u32)>,
    /// The kept rows' texts and the labels that are not indexes.
    text: String,
}

/// An offset or length as the tables hold it: wasm32's usize is 32 bits wide.
pub fn cell(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A field's offsets in the input, read at `base`: cut at the input's `len` bytes, as a trailing
/// PackedByteArray's padding may lie past the input's end, which the engines accept.
pub fn span(base: usize, len: usize, start: usize, end: usize) -> (u32, u32) {
    let start = base + start;
    (cell(start), cell((base + end).min(len.max(start))))
}

impl Collect {
    /// An empty collection for an input of `len` bytes whose value starts at `base`, with node 0
    /// for the whole value.
    pub fn new(base: usize, len: usize, root: &str) -> Collect {
        let mut c = Collect {
            base,
            len,
            open: vec![Open::new(0, cell(base), 0)],
            nodes: Chunks::default(),
            rows: Chunks::default(),
            kept: Vec::new(),
            labels: Vec::new(),
            text: String::new(),
        };
        let label = c.keep_label(format_args!("{root}"));
        c.nodes.push(Node {
            start: cell(base),
            end: cell(base),
            parent: 0,
            first_row: 0,
            next: 1,
            label,
            value: true,
        });
        c
    }

    /// Appends `text`; its offset and length.
    fn put(&mut self, text: fmt::Arguments<'_>) -> (u32, u32) {
        let at = self.text.len();
        // Writing to a String cannot fail.
        let _ = self.text.write_fmt(text);
        (cell(at), cell(self.text.len() - at))
    }

    fn keep_label(&mut self, text: fmt::Arguments<'_>) -> u32 {
        let at = self.put(text);
        self.labels.push(at);
        label::text_code(self.labels.len() - 1)
    }

    /// Adds a row with its text kept.
    fn keep(&mut self, row: Row, name: &str, meaning: fmt::Arguments<'_>) {
        let name = self.put(format_args!("{name}"));
        let meaning = self.put(meaning);
        self.kept.push(Kept {
            row: cell(self.rows.len()),
            name,
            meaning,
        });
        self.rows.push(row);
    }

    /// Closes what the decoder left open (it stopped at an error, or at the whole value's end).
    pub fn finish(&mut self) {
        while !self.open.is_empty() {
            self.close_innermost();
        }
    }

    /// Node `i`, if there is one.
    pub fn node(&self, i: usize) -> Option<Node> {
        self.nodes.get(i).copied()
    }

    /// Row `i`, if there is one.
    pub fn row(&self, i: usize) -> Option<Row> {
        self.rows.get(i).copied()
    }

    /// The field name and meaning of row `i` if it keeps them.
    pub fn kept_text(&self, i: usize) -> Option<(&str, &str)> {
        let k = self.kept[self.kept.partition_point(|k| (k.row as usize) < i)..].first()?;
        let s = |(at, len): (u32, u32)| self.text.get(at as usize..(at + len) as usize);
        (k.row as usize == i).then(|| Some((s(k.name)?, s(k.meaning)?)))?
    }

    /// Node `i`'s label.
    pub fn label(&self, i: usize) -> String {
        let code = self.node(i).map_or(0, |n| n.label);
        let mut out = String::new();
        match label::text_index(code).and_then(|n| self.labels.get(n)) {
            Some(&(at, len)) => out.push_str(
                self.text
                    .get(at as usize..(at + len) as usize)
                    .unwrap_or(""),
            ),
            None => label::write_index(code, &mut out),
        }
        out
    }

    /// How deep node `i` is nested (node 0: 0).
    pub fn depth(&self, mut i: usize) -> usize {
        let mut d = 0;
        while let Some(n) = self.node(i).filter(|_| i != 0) {
            i = n.parent as usize;
            d += 1;
        }
        d
    }

    /// The innermost open value reaches at least to `end`.
    fn stretch(&mut self, end: u32) {
        if let Some(o) = self.open.last_mut() {
            o.end = o.end.max(end);
        }
    }

    /// Closes the innermost open value: its node is written, and its parent reaches as far.
    fn close_innermost(&mut self) {
        let Some(o) = self.open.pop() else {
            return;
        };
        let next = cell(self.nodes.len());
        if let Some(node) = self.nodes.get_mut(o.node as usize) {
            node.end = o.end;
            node.next = next;
            node.value = o.value;
        }
        self.stretch(o.end);
    }
}

impl Sink for Collect {
    fn extra(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let row = Row {
            start: cell(start),
            end: cell(end),
            node: 0,
        };
        self.keep(row, name, meaning);
    }

    fn start_value(&mut self) {
        let first = cell(self.rows.len());
        if let Some(root) = self.nodes.get_mut(0) {
            root.first_row = first;
        }
        if let Some(o) = self.open.first_mut() {
            o.first_row = first;
        }
    }

    /// Past [`PATH_ENDS`] labels at each end, the middle of the path is counted, not written: an
    /// error 2,000 levels down names a line, not a page, of labels.
    fn open_path(&self) -> String {
        let labels = self.open.len();
        let mut path = self.label(0);
        for (i, o) in self.open.iter().enumerate().skip(1) {
            if labels > 2 * PATH_ENDS + 1 && i == PATH_ENDS {
                let left_out = labels - 2 * PATH_ENDS;
                path.push_str(&format!(" › … {left_out} more …"));
            }
            if labels > 2 * PATH_ENDS + 1 && (PATH_ENDS..labels - PATH_ENDS).contains(&i) {
                continue;
            }
            path.push_str(" › ");
            path.push_str(&self.label(o.node as usize));
        }
        path
    }

    fn open_node(&self) -> (u32, u32) {
        let depth = self.open.len().saturating_sub(1);
        (self.open.last().map_or(0, |o| o.node), cell(depth))
    }
}

/// The labels an error's path writes at each end.
const PATH_ENDS: usize = 4;

impl Trace for Collect {
    const ACTIVE: bool = true;

    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
        let parent = match self.open.last_mut() {
            Some(o) => {
                o.nested = true;
                o.node
            }
            None => 0,
        };
        let at = cell(self.base + offset);
        let small = Small::of(label);
        let label = match small.text().map(label::code) {
            Some(Code::Index(code)) => code,
            _ => self.keep_label(label),
        };
        self.nodes.push(Node {
            start: at,
            end: at,
            parent,
            first_row: cell(self.rows.len()),
            next: 0,
            label,
            value: true,
        });
        let first_row = cell(self.rows.len());
        self.open
            .push(Open::new(cell(self.nodes.len() - 1), at, first_row));
    }

    /// A row read after a value nested in the same value (an object's property names) keeps its
    /// text: writing it again would mean reading every value before it again.
    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let (start, end) = span(self.base, self.len, start, end);
        let first = cell(self.rows.len());
        let Some(o) = self.open.last_mut() else {
            return;
        };
        if o.first_row == first {
            o.value = name == "header";
        }
        let row = Row {
            start,
            end,
            node: o.node,
        };
        if o.nested {
            self.keep(row, name, meaning);
        } else {
            self.rows.push(row);
        }
        self.stretch(row.end);
    }

    fn close(&mut self, offset: usize) {
        self.stretch(cell(self.base + offset));
        if self.open.len() > 1 {
            self.close_innermost();
        }
    }
}
