//! `inspect`: the codec's fields of the input as the package's rows.

use gdmarshal::inspect::fields;
use gdmarshal::{DecodeOptions, Profile};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::classes::Classes;

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
    let opts = DecodeOptions::new().allow_objects(objects);
    let found = fields(payload, profile, opts);
    let row = c.row.bind(py);
    let mut rows = Vec::with_capacity(found.fields.len());
    for f in &found.fields {
        let bytes = payload
            .get(f.start..f.end.min(payload.len()))
            .unwrap_or(&[]);
        rows.push(row.call1((
            before + f.start,
            PyBytes::new(py, bytes),
            f.path.as_str(),
            f.name.as_str(),
            f.meaning.as_str(),
        ))?);
    }
    let rows = PyList::new(py, rows)?;
    let (consumed, error) = match found.outcome {
        Ok(n) => (Some(before + n), None),
        Err(e) => {
            let err = c.decode_error(py, &e.kind.to_string(), before + e.offset, e.kind.name());
            (None, Some(err.into_value(py)))
        }
    };
    c.inspection.bind(py).call1((rows, consumed, error))
}
