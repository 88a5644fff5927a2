//! The package's value classes and exceptions, handed over once at import (`_native.register`),
//! and the tags by which an encoded value's class is recognised.

use gdmarshal::types::{TYPES, VariantType};
use pyo3::exceptions::{PyKeyError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

/// What a value's class says it is, for the encoder: a math type by its row in [`TYPES`], or one
/// of the package's other classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// A math type (a fixed row of numbers): `Vector2`, `Color`, ….
    Math(VariantType),
    /// `StringName` (a `str` subclass).
    StringName,
    /// `CodeUnits`: a Godot 3 string that is not all Unicode scalar values.
    CodeUnits,
    /// `NodePath`.
    NodePath,
    /// `RID`.
    Rid,
    /// `Object`: a full object.
    Object,
    /// `ObjectID`: an object known by its instance id.
    ObjectId,
    /// `NullObject`.
    NullObject,
    /// `Callable`.
    Callable,
    /// `Signal`.
    Signal,
    /// `TypedArray`.
    TypedArray,
    /// `Dictionary`: a typed dictionary, or one whose keys a `dict` cannot hold.
    Dictionary,
    /// `PackedStringArray`.
    PackedStrings,
    /// `PackedVector2Array`, `PackedVector3Array` or `PackedVector4Array`.
    PackedVectors(VariantType),
    /// `PackedColorArray`.
    PackedColors,
}

/// The classes, by the names the package registers them under.
pub struct Classes {
    /// The math types' classes, by row of [`TYPES`] (`None` for the other rows).
    math: Vec<Option<Py<PyType>>>,
    pub string_name: Py<PyType>,
    pub code_units: Py<PyType>,
    pub node_path: Py<PyType>,
    pub rid: Py<PyType>,
    pub object: Py<PyType>,
    pub object_id: Py<PyType>,
    pub null_object: Py<PyType>,
    pub callable: Py<PyType>,
    pub signal: Py<PyType>,
    pub typed_array: Py<PyType>,
    pub dictionary: Py<PyType>,
    pub container_type: Py<PyType>,
    pub packed_strings: Py<PyType>,
    /// `PackedVector2Array`, `PackedVector3Array`, `PackedVector4Array`.
    pub packed_vectors: [Py<PyType>; 3],
    pub packed_colors: Py<PyType>,
    /// The standard library's `array.array`.
    pub array: Py<PyType>,
    pub row: Py<PyType>,
    pub inspection: Py<PyType>,
    decode_error: Py<PyType>,
    encode_error: Py<PyType>,
    /// Class → [`Tag`], as the index of [`Classes::tags`].
    by_class: Py<PyDict>,
    tags: Vec<Tag>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// The registered classes; an error if the package has not registered them.
pub fn get(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get(py).ok_or_else(|| {
        PyRuntimeError::new_err("gdmarshal._native is used without the gdmarshal package")
    })
}

/// Registers the classes in `given` (name → class); the first registration stands.
pub fn set(py: Python<'_>, given: &Bound<'_, PyDict>) -> PyResult<()> {
    let class = |name: &str| -> PyResult<Py<PyType>> {
        let found = given
            .get_item(name)?
            .ok_or_else(|| PyKeyError::new_err(format!("no class {name:?} registered")))?;
        Ok(found.cast_into::<PyType>()?.unbind())
    };
    let by_class = PyDict::new(py);
    let mut tags = Vec::new();
    let mut tag = |cls: &Py<PyType>, t: Tag| -> PyResult<()> {
        by_class.set_item(cls.bind(py), tags.len())?;
        tags.push(t);
        Ok(())
    };
    let mut math = Vec::with_capacity(TYPES.len());
    for t in &TYPES {
        math.push(match given.get_item(t.name)? {
            Some(cls) if t.shape.is_math() => {
                let cls = cls.cast_into::<PyType>()?.unbind();
                tag(&cls, Tag::Math(t.ty))?;
                Some(cls)
            }
            _ => None,
        });
    }
    let packed_vectors = [
        class("PackedVector2Array")?,
        class("PackedVector3Array")?,
        class("PackedVector4Array")?,
    ];
    for (cls, ty) in packed_vectors.iter().zip([
        VariantType::PackedVector2Array,
        VariantType::PackedVector3Array,
        VariantType::PackedVector4Array,
    ]) {
        tag(cls, Tag::PackedVectors(ty))?;
    }
    let c = Classes {
        string_name: class("StringName")?,
        code_units: class("CodeUnits")?,
        node_path: class("NodePath")?,
        rid: class("RID")?,
        object: class("Object")?,
        object_id: class("ObjectID")?,
        null_object: class("NullObject")?,
        callable: class("Callable")?,
        signal: class("Signal")?,
        typed_array: class("TypedArray")?,
        dictionary: class("Dictionary")?,
        container_type: class("ContainerType")?,
        packed_strings: class("PackedStringArray")?,
        packed_colors: class("PackedColorArray")?,
        array: class("array")?,
        row: class("Row")?,
        inspection: class("Inspection")?,
        decode_error: class("DecodeError")?,
        encode_error: class("EncodeError")?,
        packed_vectors,
        math,
        by_class: by_class.clone().unbind(),
        tags: Vec::new(),
    };
    for (cls, t) in [
        (&c.string_name, Tag::StringName),
        (&c.code_units, Tag::CodeUnits),
        (&c.node_path, Tag::NodePath),
        (&c.rid, Tag::Rid),
        (&c.object, Tag::Object),
        (&c.object_id, Tag::ObjectId),
        (&c.null_object, Tag::NullObject),
        (&c.callable, Tag::Callable),
        (&c.signal, Tag::Signal),
        (&c.typed_array, Tag::TypedArray),
        (&c.dictionary, Tag::Dictionary),
        (&c.packed_strings, Tag::PackedStrings),
        (&c.packed_colors, Tag::PackedColors),
    ] {
        tag(cls, t)?;
    }
    let c = Classes { tags, ..c };
    // A second registration (a reloaded package) keeps the first classes.
    let _ = CLASSES.set(py, c);
    Ok(())
}

impl Classes {
    /// The class of a math type, if `ty` is one.
    pub fn math(&self, ty: VariantType) -> Option<&Py<PyType>> {
        self.math.get(ty as usize).and_then(Option::as_ref)
    }

    /// The tag of an object's exact class, if it is one of the package's.
    pub fn tag_of(&self, value: &Bound<'_, PyAny>) -> PyResult<Option<Tag>> {
        let py = value.py();
        match self.by_class.bind(py).get_item(value.get_type())? {
            Some(i) => Ok(self.tags.get(i.extract::<usize>()?).copied()),
            None => Ok(None),
        }
    }

    /// A `DecodeError` to raise: `message`, at byte `offset`, of `kind`.
    pub fn decode_error(&self, py: Python<'_>, message: &str, offset: usize, kind: &str) -> PyErr {
        match self.decode_error.bind(py).call1((message, offset, kind)) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        }
    }

    /// An `EncodeError` to raise: `message`, at the value path `path`.
    pub fn encode_error(&self, py: Python<'_>, message: &str, path: &str) -> PyErr {
        match self.encode_error.bind(py).call1((message, path)) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        }
    }
}
