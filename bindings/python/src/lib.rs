//! `gdmarshal._native`: the codec for Python. The package around it (`python/gdmarshal`) defines
//! the value classes and hands them over once ([`register`]); this module only converts values
//! between Python and the codec's [`Variant`], calls the codec and raises its errors as the
//! package's exceptions. What Python value stands for which Godot type is documented in the
//! package's docstring and in docs/bindings.md.

mod classes;
mod from_py;
mod rows;
mod to_py;

use gdmarshal::framing::{self, Framing};
use gdmarshal::types::TYPES;
use gdmarshal::{DecodeOptions, EncodeOptions, Profile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use classes::Classes;

/// The profile named by `godot` (`"4.6"`, `"3.2"`, `"4.6-double"`), or a ValueError naming it.
fn profile(godot: &str) -> PyResult<Profile> {
    godot
        .parse()
        .map_err(|e| PyValueError::new_err(format!("godot={godot:?}: {e}")))
}

/// The framing named as `--framing` names it.
fn framing(name: Option<&str>) -> PyResult<Framing> {
    let name = name.unwrap_or("none");
    Framing::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Framing::NAMED.iter().map(|(n, _)| *n).collect();
        PyValueError::new_err(format!("framing={name:?}: expected one of {names:?}"))
    })
}

/// The profile, and the value's bytes inside `data` with where they start; a framing error is
/// a DecodeError at offset 0.
fn input<'a>(
    c: &Classes,
    py: Python<'_>,
    data: &'a [u8],
    godot: &str,
    framing: Option<&str>,
) -> PyResult<(Profile, &'a [u8], usize)> {
    let profile = profile(godot)?;
    match framing::unframe(data, self::framing(framing)?, profile) {
        Ok(u) => Ok((profile, u.payload, u.consumed - u.payload.len())),
        Err(e) => Err(c.decode_error(py, &e.to_string(), 0, "framing")),
    }
}

/// Decodes one value from the start of `data`; returns it with the bytes read (`consumed`, the
/// framing's length included).
#[pyfunction]
#[pyo3(signature = (data, *, godot, framing=None, objects=false))]
fn decode_prefix<'py>(
    py: Python<'py>,
    data: &[u8],
    godot: &str,
    framing: Option<&str>,
    objects: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let c = classes::get(py)?;
    let (profile, payload, before) = input(c, py, data, godot, framing)?;
    let opts = DecodeOptions::new().allow_objects(objects);
    let decoded = gdmarshal::decode(payload, profile, opts)
        .map_err(|e| c.decode_error(py, &e.kind.to_string(), before + e.offset, e.kind.name()))?;
    let value = to_py::Out::new(py, c).value(&decoded.value)?;
    PyTuple::new(
        py,
        [
            value,
            (before + decoded.consumed).into_pyobject(py)?.into_any(),
        ],
    )
}

/// Encodes `value`; returns the bytes, framed as `framing`.
#[pyfunction]
#[pyo3(signature = (value, *, godot, framing=None, objects=false))]
fn encode<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    godot: &str,
    framing: Option<&str>,
    objects: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = classes::get(py)?;
    let profile = profile(godot)?;
    let framing = self::framing(framing)?;
    let variant = from_py::In::new(py, c, profile).value(value)?;
    let opts = EncodeOptions::new().full_objects(objects);
    let bytes = gdmarshal::encode(&variant, profile, opts)
        .map_err(|e| c.encode_error(py, &e.kind.to_string(), &e.path))?;
    Ok(PyBytes::new(py, &framing::frame(&bytes, framing)))
}

/// Every field the decoder reads from the start of `data`, and how decoding ended.
#[pyfunction]
#[pyo3(signature = (data, *, godot, framing=None, objects=false))]
fn inspect<'py>(
    py: Python<'py>,
    data: &[u8],
    godot: &str,
    framing: Option<&str>,
    objects: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let c = classes::get(py)?;
    let (profile, payload, before) = input(c, py, data, godot, framing)?;
    rows::inspect(py, c, payload, before, profile, objects)
}

/// The math types' layouts, from the codec's type table: `(name, fields)` for every type whose
/// payload is a fixed row of numbers. The package makes its value classes from these, so a
/// layout is stated once.
#[pyfunction]
fn layouts(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let rows = TYPES
        .iter()
        .filter(|t| t.shape.is_math())
        .map(|t| (t.name, t.fields.to_vec()));
    PyList::new(py, rows)
}

/// Hands over the package's value classes and exceptions, once, at import.
#[pyfunction]
fn register(py: Python<'_>, classes: &Bound<'_, PyDict>) -> PyResult<()> {
    classes::set(py, classes)
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode_prefix, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(inspect, m)?)?;
    m.add_function(wrap_pyfunction!(layouts, m)?)?;
    m.add_function(wrap_pyfunction!(register, m)?)?;
    m.add("CODEC_VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
