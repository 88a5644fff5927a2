//! A decoded [`Variant`] as the package's Python value.

use gdmarshal::Variant;
use gdmarshal::float::widen;
use gdmarshal::types::VariantType;
use gdmarshal::value::{Components, ContainerType, Object, Reals, Text};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyList, PyString, PyTuple};

use crate::classes::Classes;

/// Builds Python values with the package's classes.
pub struct Out<'a, 'py> {
    py: Python<'py>,
    c: &'a Classes,
}

type R<'py> = PyResult<Bound<'py, PyAny>>;

impl<'a, 'py> Out<'a, 'py> {
    /// A builder of `py`'s values with the classes `c`.
    pub fn new(py: Python<'py>, c: &'a Classes) -> Self {
        Out { py, c }
    }

    /// The Python value of `v`.
    pub fn value(&self, v: &Variant) -> R<'py> {
        let py = self.py;
        let c = self.c;
        Ok(match v {
            Variant::Nil => py.None().into_bound(py),
            Variant::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Variant::Int(i) => i.into_bound_py_any(py)?,
            Variant::Float(f) => PyFloat::new(py, *f).into_any(),
            Variant::String(t) => self.text(t)?,
            Variant::StringName(t) => {
                let text = self.text(t)?;
                c.string_name.bind(py).call1((text,))?
            }
            Variant::Color(rgba) => self.math(v, rgba.iter().map(|&x| widen(x)))?,
            Variant::NodePath(np) => {
                let names = self.texts(&np.names)?;
                let subnames = self.texts(&np.subnames)?;
                c.node_path.bind(py).call1((names, subnames, np.absolute))?
            }
            Variant::Rid(id) => c.rid.bind(py).call1((*id,))?,
            Variant::Object(o) => match &**o {
                Object::Null => c.null_object.bind(py).call0()?,
                Object::Id(id) => c.object_id.bind(py).call1((*id,))?,
                Object::Full { class, properties } => {
                    let props = properties
                        .iter()
                        .map(|(name, value)| {
                            PyTuple::new(py, [name.into_bound_py_any(py)?, self.value(value)?])
                        })
                        .collect::<PyResult<Vec<_>>>()?;
                    c.object.bind(py).call1((class, PyList::new(py, props)?))?
                }
            },
            Variant::Callable => c.callable.bind(py).call0()?,
            Variant::Signal(s) => c.signal.bind(py).call1((&s.name, s.object_id))?,
            Variant::Array(a) => {
                let items = a
                    .items()
                    .iter()
                    .map(|item| self.value(item))
                    .collect::<PyResult<Vec<_>>>()?;
                let list = PyList::new(py, items)?;
                match a.element_type() {
                    ContainerType::None => list.into_any(),
                    t => c
                        .typed_array
                        .bind(py)
                        .call1((self.container_type(t)?, list))?,
                }
            }
            Variant::Dictionary(d) => self.dictionary(d)?,
            Variant::PackedByteArray(b) => PyBytes::new(py, b).into_any(),
            Variant::PackedInt32Array(v) => self.array("i", bytemuck::cast_slice(v))?,
            Variant::PackedInt64Array(v) => self.array("q", bytemuck::cast_slice(v))?,
            Variant::PackedFloat32Array(v) => self.array("f", bytemuck::cast_slice(v))?,
            Variant::PackedFloat64Array(v) => self.array("d", bytemuck::cast_slice(v))?,
            Variant::PackedStringArray(v) => {
                c.packed_strings.bind(py).call1((self.texts_list(v)?,))?
            }
            Variant::PackedVector2Array(r)
            | Variant::PackedVector3Array(r)
            | Variant::PackedVector4Array(r) => self.packed_vectors(v, r)?,
            Variant::PackedColorArray(colors) => {
                let cls = self.math_class(VariantType::Color)?;
                let items = colors
                    .iter()
                    .map(|rgba| cls.call1(PyTuple::new(py, rgba.iter().map(|&x| widen(x)))?))
                    .collect::<PyResult<Vec<_>>>()?;
                c.packed_colors.bind(py).call1((PyList::new(py, items)?,))?
            }
            _ => match (v.reals(), v.ints()) {
                (Some(r), _) => self.math(v, floats(r))?,
                (None, Some(ints)) => self.math(v, ints.iter().copied())?,
                // Every other type is matched above; a type the codec gained since is refused
                // rather than guessed.
                (None, None) => {
                    return Err(pyo3::exceptions::PyNotImplementedError::new_err(format!(
                        "{} has no Python form in this version of the package",
                        v.get_type()
                    )));
                }
            },
        })
    }

    /// A string: `str`, or `CodeUnits` for a Godot 3 string that is not all Unicode scalar values.
    fn text(&self, t: &Text) -> R<'py> {
        match t.as_str() {
            Some(s) => Ok(PyString::new(self.py, s).into_any()),
            None => {
                let units = PyTuple::new(self.py, t.units().collect::<Vec<_>>())?;
                self.c.code_units.bind(self.py).call1((units,))
            }
        }
    }

    /// Strings as a tuple.
    fn texts(&self, ts: &[Text]) -> PyResult<Bound<'py, PyTuple>> {
        let items = ts
            .iter()
            .map(|t| self.text(t))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(self.py, items)
    }

    /// Strings as a list.
    fn texts_list(&self, ts: &[Text]) -> PyResult<Bound<'py, PyList>> {
        let items = ts
            .iter()
            .map(|t| self.text(t))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(self.py, items)
    }

    /// The class of the math type `ty`.
    fn math_class(&self, ty: VariantType) -> PyResult<&Bound<'py, pyo3::types::PyType>> {
        match self.c.math(ty) {
            Some(cls) => Ok(cls.bind(self.py)),
            None => Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                "no class registered for {ty}"
            ))),
        }
    }

    /// A math type's value: its class called with the components.
    fn math<T: IntoPyObject<'py>>(
        &self,
        v: &Variant,
        components: impl IntoIterator<Item = T>,
    ) -> R<'py> {
        let args = PyTuple::new(self.py, components.into_iter().collect::<Vec<_>>())?;
        self.math_class(v.get_type())?.call1(args)
    }

    /// A packed array of vectors: a list of the vector type's values.
    fn packed_vectors(&self, v: &Variant, r: &Reals) -> R<'py> {
        let py = self.py;
        let (element, cls) = match v {
            Variant::PackedVector2Array(_) => (VariantType::Vector2, &self.c.packed_vectors[0]),
            Variant::PackedVector3Array(_) => (VariantType::Vector3, &self.c.packed_vectors[1]),
            _ => (VariantType::Vector4, &self.c.packed_vectors[2]),
        };
        let width = element.info().fields.len();
        let vector = self.math_class(element)?;
        let all: Vec<f64> = floats(r).collect();
        let items = all
            .chunks_exact(width)
            .map(|xs| vector.call1(PyTuple::new(py, xs)?))
            .collect::<PyResult<Vec<_>>>()?;
        cls.bind(py).call1((PyList::new(py, items)?,))
    }

    /// A dictionary: a `dict` when it is untyped and Python's `dict` holds every key apart, else
    /// the package's `Dictionary` of (key, value) pairs, so that no entry is lost (`1`, `1.0` and
    /// `True` are one key to Python and three to Godot; a list cannot be a `dict` key).
    fn dictionary(&self, d: &gdmarshal::value::Dictionary) -> R<'py> {
        let py = self.py;
        let mut pairs = Vec::with_capacity(d.entries().len());
        for (k, v) in d.entries() {
            pairs.push((self.value(k)?, self.value(v)?));
        }
        let untyped = matches!(
            (d.key_type(), d.value_type()),
            (ContainerType::None, ContainerType::None)
        );
        if untyped {
            let dict = PyDict::new(py);
            let apart = pairs.iter().all(|(k, v)| dict.set_item(k, v).is_ok());
            // A key equal to an earlier one in Python leaves the dict shorter than the pairs.
            if apart && dict.len() == pairs.len() {
                return Ok(dict.into_any());
            }
        }
        let entries = pairs
            .into_iter()
            .map(|(k, v)| PyTuple::new(py, [k, v]))
            .collect::<PyResult<Vec<_>>>()?;
        let key_type = self.container_type(d.key_type())?;
        let value_type = self.container_type(d.value_type())?;
        self.c
            .dictionary
            .bind(py)
            .call1((PyList::new(py, entries)?, key_type, value_type))
    }

    /// A container type: `None`, or `ContainerType(kind, name)`.
    fn container_type(&self, t: &ContainerType) -> R<'py> {
        let Some((kind, name)) = t.kind_and_name() else {
            return Ok(self.py.None().into_bound(self.py));
        };
        self.c.container_type.bind(self.py).call1((kind, name))
    }

    /// An `array.array` of `typecode` holding `bytes` (in the machine's order, as `array` keeps
    /// them).
    fn array(&self, typecode: &str, bytes: &[u8]) -> R<'py> {
        let a = self.c.array.bind(self.py).call1((typecode,))?;
        a.call_method1("frombytes", (PyBytes::new(self.py, bytes),))?;
        Ok(a)
    }
}

/// The components at f64, whatever their width (an f32 NaN keeps its payload: [`widen`]).
fn floats(r: &Reals) -> impl Iterator<Item = f64> + '_ {
    let (f32s, f64s) = match r.components() {
        Components::F32(v) => (v, &[][..]),
        Components::F64(v) => (&[][..], v),
    };
    f32s.iter().map(|&x| widen(x)).chain(f64s.iter().copied())
}
