//! `inspect`: the fields the decoder reads, as rows, from the decoder's own trace.

use std::fmt;

use gdmarshal::decode::decode_traced;
use gdmarshal::trace::Trace;
use gdmarshal::{DecodeOptions, Profile};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::classes::{self, Classes};

/// A field: where it is, the value it is read in, its name and what it means.
struct Field {
    start: usize,
    end: usize,
    path: String,
    name: String,
    meaning: String,
}

/// Collects the fields; the values themselves are not kept (only their rows are wanted).
struct Collect {
    /// The path of each open value, from the top.
    open: Vec<usize>,
    path: String,
    fields: Vec<Field>,
}

impl Trace for Collect {
    const ACTIVE: bool = true;
    const KEEPS_VALUES: bool = false;

    fn open(&mut self, _: usize, label: fmt::Arguments<'_>) {
        self.open.push(self.path.len());
        let label = label.to_string();
        // As encode errors name places: `[3]`, `{key 0}`, `.name`.
        if label.starts_with('[') {
            self.path.push_str(&label);
        } else if label.starts_with("key ") || label.starts_with("value ") {
            self.path.push_str(&format!("{{{label}}}"));
        } else {
            self.path.push_str(&format!(".{label}"));
        }
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        self.fields.push(Field {
            start,
            end,
            path: format!("${}", self.path),
            name: name.to_string(),
            meaning: meaning.to_string(),
        });
    }

    fn close(&mut self, _: usize) {
        if let Some(len) = self.open.pop() {
            self.path.truncate(len);
        }
    }
}

/// The rows of `payload` (which starts `before` bytes into the caller's input) and the outcome,
/// as the package's `Inspection`.
pub fn inspect<'py>(
    py: Python<'py>,
    c: &Classes,
    payload: &[u8],
    before: usize,
    profile: Profile,
    objects: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut trace = Collect {
        open: Vec::new(),
        path: String::new(),
        fields: Vec::new(),
    };
    let opts = DecodeOptions {
        allow_objects: objects,
    };
    let result = decode_traced(payload, profile, opts, &mut trace);
    let row = c.row.bind(py);
    let mut rows = Vec::with_capacity(trace.fields.len());
    for f in &trace.fields {
        let bytes = PyBytes::new(
            py,
            payload
                .get(f.start..f.end.min(payload.len()))
                .unwrap_or(&[]),
        );
        rows.push(row.call1((
            before + f.start,
            bytes,
            f.path.as_str(),
            f.name.as_str(),
            f.meaning.as_str(),
        ))?);
    }
    let rows = PyList::new(py, rows)?;
    let (consumed, error) = match result {
        Ok(d) => (Some(before + d.consumed), None),
        Err(e) => {
            let err = c.decode_error(
                py,
                &e.kind.to_string(),
                before + e.offset,
                classes::kind_name(&e.kind),
            );
            (None, Some(err.into_value(py)))
        }
    };
    c.inspection.bind(py).call1((rows, consumed, error))
}
