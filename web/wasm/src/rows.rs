//! The decoder's trace as the page's two views: the nested values (the tree) and the fields they
//! are read from (the annotated table), each with its byte range, so either one can point at the
//! other.

use std::fmt;

use gdmarshal::trace::Trace;
use serde::Serialize;

/// A nested value: `[start, end, parent, label]`; node 0 is the whole value (parent 0). `end` is
/// where the decoder left it (for a value cut short by an error: the last byte read).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Node(pub usize, pub usize, pub usize, pub String);

/// A field: `[start, end, node, name, meaning]`, `node` the innermost value it belongs to.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Row(pub usize, pub usize, pub usize, pub String, pub String);

/// Collects nodes and rows; offsets are shifted by `base` (the framing's length field).
pub struct Collect {
    base: usize,
    open: Vec<usize>,
    /// The values, in the order they start.
    pub nodes: Vec<Node>,
    /// The fields, in the order they are read.
    pub rows: Vec<Row>,
}

impl Collect {
    /// An empty collection whose offsets start at `base`, with node 0 for the whole value.
    pub fn new(base: usize, label: &str) -> Collect {
        Collect {
            base,
            open: vec![0],
            nodes: vec![Node(base, base, 0, label.to_string())],
            rows: Vec::new(),
        }
    }

    /// Adds a field of the input itself (framing, trailing bytes) to node 0's outside.
    pub fn extra(&mut self, start: usize, end: usize, name: &str, meaning: String) {
        self.rows
            .push(Row(start, end, 0, name.to_string(), meaning));
    }

    /// The path of labels to the innermost open value: where a decode stopped.
    pub fn open_path(&self) -> String {
        let labels: Vec<&str> = self.open[1..]
            .iter()
            .map(|&n| self.nodes[n].3.as_str())
            .collect();
        if labels.is_empty() {
            self.nodes[0].3.clone()
        } else {
            format!("{} › {}", self.nodes[0].3, labels.join(" › "))
        }
    }

    fn stretch(&mut self, end: usize) {
        for &n in &self.open {
            let node = &mut self.nodes[n];
            node.1 = node.1.max(end);
        }
    }
}

impl Trace for Collect {
    const ACTIVE: bool = true;

    fn open(&mut self, offset: usize, label: fmt::Arguments<'_>) {
        let parent = *self.open.last().unwrap_or(&0);
        let at = self.base + offset;
        self.nodes.push(Node(at, at, parent, label.to_string()));
        self.open.push(self.nodes.len() - 1);
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let node = *self.open.last().unwrap_or(&0);
        let (start, end) = (self.base + start, self.base + end);
        self.rows
            .push(Row(start, end, node, name.to_string(), meaning.to_string()));
        self.stretch(end);
    }

    fn close(&mut self, offset: usize) {
        let end = self.base + offset;
        self.stretch(end);
        if self.open.len() > 1 {
            self.open.pop();
        }
    }
}
