//! The texts of the rows in view, written again: each row's value is decoded again on its own
//! from where it starts, its input cut just past the rows asked for, and the fields the decoder
//! reports there are the rows' (the decoder reports the same fields from the same bytes). A row
//! read after a nested value keeps its text ([`crate::rows::Collect::field`]), so the bytes read
//! again are the value's own fields and the rows asked for, never a whole large value.

use std::fmt;
use std::ops::Range;

use gdmarshal::Profile;
use gdmarshal::decode::DecodeOptions;

use crate::framed::{Rows, read_at};
use crate::rows::{Collect, Row, cell};

/// What a row shows: its offsets and value, how deep that value is, its field and meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Offsets and value.
    pub row: Row,
    /// How deep its value is nested.
    pub depth: usize,
    /// The field's name.
    pub field: String,
    /// What it means.
    pub meaning: String,
}

/// A decode's input and settings, and its rows.
pub struct Source<'a> {
    /// The whole input, framing included.
    pub bytes: &'a [u8],
    /// The version it was read as.
    pub profile: Profile,
    /// The options it was read with.
    pub opts: DecodeOptions,
    /// Where the value's bytes start and how many the framing gives it.
    pub payload: (usize, usize),
    /// The rows and values read.
    pub rows: &'a Collect,
}

/// Records the texts of the rows in `want`, numbering the rows told from `next`.
struct Window<'a> {
    next: usize,
    want: Range<usize>,
    got: &'a mut Vec<(usize, Row, String, String)>,
}

impl Rows for Window<'_> {
    fn row(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        if self.want.contains(&self.next) {
            let row = Row {
                start: cell(start),
                end: cell(end),
                node: 0,
            };
            self.got
                .push((self.next, row, name.to_string(), meaning.to_string()));
        }
        self.next += 1;
    }
}

impl Source<'_> {
    /// Rows `first..first + count` (those there are) with their texts.
    pub fn shown(&self, first: usize, count: usize) -> Vec<Shown> {
        let total = self.rows.rows.len();
        let last = first.saturating_add(count).min(total);
        let mut texts: Vec<Option<(String, String)>> = vec![None; last.saturating_sub(first)];
        let payload_end = self.payload.0 + self.payload.1;
        for r in first..last {
            if texts[r - first].is_some() {
                continue;
            }
            if let Some((f, m)) = self.rows.kept_text(r) {
                texts[r - first] = Some((f.to_string(), m.to_string()));
                continue;
            }
            let (Some(row), Some(after)) = (self.rows.row(r), self.rows.row(last.min(total - 1)))
            else {
                continue;
            };
            if let Some(node) = self.value_of(row.node as usize) {
                // Through the row after the last asked for: a length is checked against the
                // bytes it counts, the next field.
                let cut = (row.end.max(after.end) as usize).min(payload_end);
                let from = (node.start as usize).min(cut);
                self.fill(
                    &mut texts,
                    first,
                    from..cut,
                    node.first_row as usize,
                    r..last,
                );
            }
            if texts[r - first].is_none() {
                // Not as expected: read the whole value again, as the first time.
                let root = self.rows.node(0).map_or(0, |n| n.first_row as usize);
                self.fill(
                    &mut texts,
                    first,
                    self.payload.0..payload_end,
                    root,
                    r..last,
                );
            }
        }
        let rows = (first..last).filter_map(|r| self.rows.row(r));
        rows.zip(texts)
            .map(|(row, text)| {
                let (field, meaning) = text.unwrap_or_default();
                Shown {
                    row,
                    depth: self.rows.depth(row.node as usize),
                    field,
                    meaning,
                }
            })
            .collect()
    }

    /// The innermost value node `i` is or is in: what can be decoded again on its own.
    fn value_of(&self, mut i: usize) -> Option<crate::rows::Node> {
        loop {
            let n = self.rows.node(i)?;
            if n.value || i == 0 {
                return Some(n);
            }
            i = n.parent as usize;
        }
    }

    /// Decodes `input` (the value whose first row is `next`) and fills in the texts of the rows
    /// of `want` it reports where the first reading did.
    fn fill(
        &self,
        texts: &mut [Option<(String, String)>],
        first: usize,
        input: Range<usize>,
        next: usize,
        want: Range<usize>,
    ) {
        let Some(bytes) = self.bytes.get(input.clone()) else {
            return;
        };
        let mut got = Vec::new();
        let mut w = Window {
            next,
            want,
            got: &mut got,
        };
        // An error past the rows asked for (the input is cut) is expected and changes nothing.
        let _ = read_at(
            bytes,
            input.start,
            self.bytes.len(),
            self.profile,
            self.opts,
            &mut w,
        );
        for (i, row, field, meaning) in got {
            let same = self
                .rows
                .row(i)
                .is_some_and(|r| (r.start, r.end) == (row.start, row.end));
            if let (true, Some(slot)) = (same, texts.get_mut(i - first)) {
                *slot = Some((field, meaning));
            }
        }
    }
}
