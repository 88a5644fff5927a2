//! A Python value as a [`Variant`] to encode, with the path of whatever has no Godot form.

use gdmarshal::float::narrow;
use gdmarshal::types::{Shape, VariantType};
use gdmarshal::value::{
    Array, ContainerType, Dictionary, I32s, NodePath, Object, Reals, Signal, Text,
};
use gdmarshal::{EncodeError, Profile, Variant};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};

use crate::classes::{Classes, Tag};

/// Why a value cannot be encoded, and where: the codec's own error, whose path follows `$`
/// (`[3]`, `{key 0}`, `.name`), so that these read as the codec's encode errors do.
struct Bad(EncodeError);

impl Bad {
    fn new(message: impl Into<String>) -> Bad {
        Bad(EncodeError::unsupported(message))
    }

    fn within(self, segment: impl std::fmt::Display) -> Bad {
        Bad(self.0.within(segment))
    }
}

impl From<PyErr> for Bad {
    fn from(e: PyErr) -> Bad {
        Bad::new(e.to_string())
    }
}

impl From<pyo3::CastError<'_, '_>> for Bad {
    fn from(e: pyo3::CastError<'_, '_>) -> Bad {
        Bad::new(e.to_string())
    }
}

type R<T> = Result<T, Bad>;

/// Reads Python values into the codec's values for one profile.
pub struct In<'a, 'py> {
    py: Python<'py>,
    c: &'a Classes,
    profile: Profile,
}

impl<'a, 'py> In<'a, 'py> {
    /// A reader for `profile`, with the package's classes `c`.
    pub fn new(py: Python<'py>, c: &'a Classes, profile: Profile) -> Self {
        In { py, c, profile }
    }

    /// The value of `o`, or an `EncodeError` with the path of what has no Godot form.
    pub fn value(&self, o: &Bound<'py, PyAny>) -> PyResult<Variant> {
        self.at(o, 0)
            .map_err(|Bad(e)| self.c.encode_error(self.py, &e.kind.to_string(), &e.path))
    }

    fn at(&self, o: &Bound<'py, PyAny>, depth: usize) -> R<Variant> {
        // One level past the engines' limit, so that the codec refuses a value nested just too
        // deep as the engine does; a list that holds itself stops here too.
        if depth > self.profile.max_depth() + 1 {
            return Err(Bad::new(format!(
                "nesting deeper than {} levels (a container that holds itself?)",
                self.profile.max_depth() + 1
            )));
        }
        if o.is_none() {
            return Ok(Variant::Nil);
        }
        if let Some(tag) = self.c.tag_of(o)? {
            return self.tagged(o, tag, depth);
        }
        if let Ok(b) = o.cast::<PyBool>() {
            return Ok(Variant::Bool(b.is_true()));
        }
        if let Ok(i) = o.cast::<PyInt>() {
            return i.extract::<i64>().map(Variant::Int).map_err(|_| {
                Bad::new(format!(
                    "the int {i} is outside the 64-bit range of Godot's int"
                ))
            });
        }
        if let Ok(f) = o.cast::<PyFloat>() {
            return Ok(Variant::Float(f.value()));
        }
        if let Ok(s) = o.cast::<PyString>() {
            return Ok(Variant::String(text(s)?));
        }
        if let Ok(b) = o.cast::<PyBytes>() {
            return Ok(Variant::PackedByteArray(b.as_bytes().to_vec()));
        }
        if let Ok(b) = o.cast::<PyByteArray>() {
            return Ok(Variant::PackedByteArray(b.to_vec()));
        }
        if o.is_instance(self.c.array.bind(self.py))? {
            return packed_numbers(o);
        }
        if o.cast::<PyList>().is_ok() || o.cast::<PyTuple>().is_ok() {
            return Ok(Variant::Array(Array::new(self.items(o, depth)?)));
        }
        if let Ok(d) = o.cast::<PyDict>() {
            let mut entries = Vec::with_capacity(d.len());
            for (i, (k, v)) in d.iter().enumerate() {
                entries.push(self.entry(&k, &v, i, depth)?);
            }
            return Ok(Variant::Dictionary(Dictionary::new(entries)));
        }
        if let Ok(m) = o.cast::<pyo3::types::PyMemoryView>() {
            let bytes: Vec<u8> = m.call_method0("tobytes")?.extract()?;
            return Ok(Variant::PackedByteArray(bytes));
        }
        Err(Bad::new(format!(
            "a value of type {} has no Godot form",
            o.get_type().name()?
        )))
    }

    /// The items of a list, tuple or list subclass, each at its index.
    fn items(&self, o: &Bound<'py, PyAny>, depth: usize) -> R<Vec<Variant>> {
        let mut items = Vec::with_capacity(o.len().unwrap_or(0));
        for (i, item) in o.try_iter()?.enumerate() {
            items.push(
                self.at(&item?, depth + 1)
                    .map_err(|b| b.within(format_args!("[{i}]")))?,
            );
        }
        Ok(items)
    }

    /// Entry `i` of a dictionary.
    fn entry(
        &self,
        k: &Bound<'py, PyAny>,
        v: &Bound<'py, PyAny>,
        i: usize,
        depth: usize,
    ) -> R<(Variant, Variant)> {
        let key = self
            .at(k, depth + 1)
            .map_err(|b| b.within(format_args!("{{key {i}}}")))?;
        let value = self
            .at(v, depth + 1)
            .map_err(|b| b.within(format_args!("{{value {i}}}")))?;
        Ok((key, value))
    }

    fn tagged(&self, o: &Bound<'py, PyAny>, tag: Tag, depth: usize) -> R<Variant> {
        Ok(match tag {
            Tag::Math(ty) => self.math(o, ty)?,
            Tag::StringName => Variant::StringName(text(o.cast::<PyString>()?)?),
            Tag::CodeUnits => Variant::String(units(o)?),
            Tag::NodePath => {
                let names = self
                    .texts(&o.getattr("names")?)
                    .map_err(|b| b.within(".names"))?;
                let subnames = self
                    .texts(&o.getattr("subnames")?)
                    .map_err(|b| b.within(".subnames"))?;
                let absolute = o.getattr("absolute")?.is_truthy()?;
                Variant::node_path(NodePath {
                    names,
                    subnames,
                    absolute,
                })
            }
            Tag::Rid => Variant::Rid(u64_of(&o.getattr("id")?, "an RID's id")?),
            Tag::ObjectId => {
                Variant::object(Object::Id(u64_of(&o.getattr("id")?, "an object id")?))
            }
            Tag::NullObject => Variant::object(Object::Null),
            Tag::Object => {
                let class: String = o.getattr("class_name")?.extract()?;
                let mut properties = Vec::new();
                for pair in o.getattr("properties")?.try_iter()? {
                    let (name, value): (String, Bound<'py, PyAny>) = pair?.extract()?;
                    let v = self
                        .at(&value, depth + 1)
                        .map_err(|b| b.within(format_args!(".{name}")))?;
                    properties.push((name, v));
                }
                Variant::object(Object::Full { class, properties })
            }
            Tag::Callable => Variant::Callable,
            Tag::Signal => Variant::Signal(Box::new(Signal {
                name: o.getattr("name")?.extract()?,
                object_id: u64_of(&o.getattr("object_id")?, "a signal's object id")?,
            })),
            Tag::TypedArray => {
                let element = self.container_type(&o.getattr("element_type")?)?;
                Variant::Array(Array::typed(element, self.items(o, depth)?))
            }
            Tag::Dictionary => {
                let key_type = self.container_type(&o.getattr("key_type")?)?;
                let value_type = self.container_type(&o.getattr("value_type")?)?;
                let mut entries = Vec::new();
                for (i, pair) in o.getattr("entries")?.try_iter()?.enumerate() {
                    let (k, v): (Bound<'py, PyAny>, Bound<'py, PyAny>) = pair?.extract()?;
                    entries.push(self.entry(&k, &v, i, depth)?);
                }
                Variant::Dictionary(Dictionary::typed(key_type, value_type, entries))
            }
            Tag::PackedStrings => Variant::PackedStringArray(self.texts(o)?),
            Tag::PackedVectors(ty) => {
                let width = match ty {
                    VariantType::PackedVector2Array => 2,
                    VariantType::PackedVector3Array => 3,
                    _ => 4,
                };
                let mut all = Vec::new();
                for (i, v) in o.try_iter()?.enumerate() {
                    let v = v?;
                    let xs: Vec<f64> = v.extract().map_err(|_| {
                        Bad::new(format!("expected {width} numbers, found {v}"))
                            .within(format_args!("[{i}]"))
                    })?;
                    if xs.len() != width {
                        return Err(Bad::new(format!(
                            "expected {width} numbers, found {}",
                            xs.len()
                        ))
                        .within(format_args!("[{i}]")));
                    }
                    all.extend(xs);
                }
                Variant::from_reals(ty, self.reals(all)).expect("a packed vector array")
            }
            Tag::PackedColors => {
                let mut colors = Vec::new();
                for (i, v) in o.try_iter()?.enumerate() {
                    let (r, g, b, a): (f64, f64, f64, f64) = v?
                        .extract()
                        .map_err(|e| Bad::from(e).within(format_args!("[{i}]")))?;
                    colors.push([narrow(r), narrow(g), narrow(b), narrow(a)]);
                }
                Variant::PackedColorArray(colors)
            }
        })
    }

    /// A math type from its named tuple.
    fn math(&self, o: &Bound<'py, PyAny>, ty: VariantType) -> R<Variant> {
        let fields = ty.info().fields;
        let mut xs = Vec::with_capacity(fields.len());
        for (item, field) in o.try_iter()?.zip(fields) {
            xs.push((item?, *field));
        }
        if xs.len() != fields.len() {
            return Err(Bad::new(format!(
                "{ty} has {} components, this value {}",
                fields.len(),
                xs.len()
            )));
        }
        let at = |field: &str| format!(".{}", field.replace('.', "_"));
        Ok(match ty.shape() {
            Shape::Ints(_) => {
                let mut ints = I32s::new();
                for (x, field) in &xs {
                    ints.push(
                        x.extract::<i32>()
                            .map_err(|e| Bad::from(e).within(at(field)))?,
                    );
                }
                Variant::from_ints(ty, ints).expect("an integer vector type")
            }
            _ => {
                let mut floats = Vec::with_capacity(xs.len());
                for (x, field) in &xs {
                    floats.push(
                        x.extract::<f64>()
                            .map_err(|e| Bad::from(e).within(at(field)))?,
                    );
                }
                if ty == VariantType::Color {
                    let c = |i: usize| narrow(floats[i]);
                    Variant::Color([c(0), c(1), c(2), c(3)])
                } else {
                    Variant::from_reals(ty, self.reals(floats)).expect("a real_t math type")
                }
            }
        })
    }

    /// real_t components at the profile's width.
    fn reals(&self, xs: Vec<f64>) -> Reals {
        if self.profile.double_reals() {
            Reals::from(xs)
        } else {
            xs.into_iter().map(narrow).collect()
        }
    }

    /// Strings of a list or tuple.
    fn texts(&self, o: &Bound<'py, PyAny>) -> R<Vec<Text>> {
        let mut out = Vec::new();
        for (i, item) in o.try_iter()?.enumerate() {
            let item = item?;
            let t = match self.c.tag_of(&item)? {
                Some(Tag::CodeUnits) => units(&item),
                _ => match item.cast::<PyString>() {
                    Ok(s) => text(s),
                    Err(_) => Err(Bad::new(format!(
                        "expected a str, found {}",
                        item.get_type().name()?
                    ))),
                },
            };
            out.push(t.map_err(|b| b.within(format_args!("[{i}]")))?);
        }
        Ok(out)
    }

    /// A container type: `None` or `ContainerType(kind, name)`.
    fn container_type(&self, o: &Bound<'py, PyAny>) -> R<ContainerType> {
        if o.is_none() {
            return Ok(ContainerType::None);
        }
        let (kind, name): (String, String) = o.extract()?;
        container_type(&kind, name)
    }
}

/// The container type of `kind` and `name`, or why there is none.
fn container_type(kind: &str, name: String) -> R<ContainerType> {
    if !ContainerType::KINDS.contains(&kind) {
        return Err(Bad::new(format!(
            "a container type's kind is \"builtin\", \"class\" or \"script\", not {kind:?}"
        )));
    }
    let unknown = format!("no built-in type is named {name:?}");
    ContainerType::from_kind(kind, name).ok_or_else(|| Bad::new(unknown))
}

/// A `str` as text; one with lone surrogates (which Python strings may hold) as its code units.
fn text(s: &Bound<'_, PyString>) -> R<Text> {
    match s.to_cow() {
        Ok(s) => Ok(Text::from(&*s)),
        Err(_) => {
            let raw = s.call_method1("encode", ("utf-32-le", "surrogatepass"))?;
            let bytes = raw.cast::<PyBytes>()?.as_bytes();
            Ok(Text::from_units(
                bytes
                    .chunks_exact(4)
                    .map(|u| u32::from_le_bytes([u[0], u[1], u[2], u[3]])),
            ))
        }
    }
}

/// A `CodeUnits` tuple as text.
fn units(o: &Bound<'_, PyAny>) -> R<Text> {
    let units: Vec<u32> = o.extract()?;
    if let Some(u) = units.iter().find(|&&u| u > 0x7FFF_FFFF) {
        return Err(Bad::new(format!("the code unit {u} is past 2147483647")));
    }
    Ok(Text::from_units(units))
}

/// An unsigned 64-bit number.
fn u64_of(o: &Bound<'_, PyAny>, what: &str) -> R<u64> {
    o.extract::<u64>().map_err(|_| {
        Bad::new(format!(
            "{what} must be an int from 0 to 2**64 - 1, not {o}"
        ))
    })
}

/// An `array.array` as the packed array of its typecode.
fn packed_numbers(o: &Bound<'_, PyAny>) -> R<Variant> {
    let typecode: String = o.getattr("typecode")?.extract()?;
    let itemsize: usize = o.getattr("itemsize")?.extract()?;
    let raw = o.call_method0("tobytes")?;
    let bytes = raw.cast::<PyBytes>()?.as_bytes();
    fn read<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
        bytemuck::pod_collect_to_vec(bytes)
    }
    Ok(match (typecode.as_str(), itemsize) {
        ("B", 1) => Variant::PackedByteArray(bytes.to_vec()),
        ("i" | "l", 4) => Variant::PackedInt32Array(read(bytes)),
        ("q" | "l", 8) => Variant::PackedInt64Array(read(bytes)),
        ("f", 4) => Variant::PackedFloat32Array(read(bytes)),
        ("d", 8) => Variant::PackedFloat64Array(read(bytes)),
        _ => {
            return Err(Bad::new(format!(
                "an array.array of typecode {typecode:?} has no Godot form (\"B\", \"i\", \"q\", \"f\" and \"d\" have)"
            )));
        }
    })
}
