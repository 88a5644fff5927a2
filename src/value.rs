//! The value model: one [`Variant`] for every type of both type tables.
//!
//! Values keep exact bits. A float is kept at the width it has inside the engine (real_t components
//! as [`Reals::F32`] or [`Reals::F64`], `Color` as f32, `float` as f64), so -0.0 and NaN payloads
//! survive. Dictionaries keep their entries in insertion order; decoding merges duplicate keys as
//! the engine does (see [`crate::keys`]).

use compact_str::CompactString;
use smallvec::SmallVec;

use crate::types::VariantType;

/// Text held by a value: up to 24 bytes inline, longer text on the heap. Dictionary keys and most
/// strings in game data are short, so decoding them allocates nothing.
pub type Text = CompactString;

/// Single-precision components; up to four (every math type but the matrices) stay inline.
pub type F32s = SmallVec<[f32; 4]>;

/// Double-precision components; up to two stay inline.
pub type F64s = SmallVec<[f64; 2]>;

/// The i32 components of an integer vector type, inline.
pub type I32s = SmallVec<[i32; 4]>;

/// real_t components: f32 in ordinary builds, f64 in double-precision builds.
///
/// Fixed-size math types hold exactly as many components as the type has fields (a `Vector2` two,
/// a `Transform3D` twelve); packed arrays of vectors hold them flattened.
#[derive(Clone, Debug)]
pub enum Reals {
    /// Single-precision components.
    F32(F32s),
    /// Double-precision components.
    F64(F64s),
}

impl Reals {
    /// How many components.
    pub fn len(&self) -> usize {
        match self {
            Reals::F32(v) => v.len(),
            Reals::F64(v) => v.len(),
        }
    }

    /// Whether there are no components.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the components are doubles.
    pub fn is_f64(&self) -> bool {
        matches!(self, Reals::F64(_))
    }
}

impl PartialEq for Reals {
    /// Bit-for-bit equality: -0.0 differs from 0.0, and a NaN equals the same NaN.
    fn eq(&self, other: &Reals) -> bool {
        match (self, other) {
            (Reals::F32(a), Reals::F32(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Reals::F64(a), Reals::F64(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            _ => false,
        }
    }
}

/// A `NodePath`: names, subnames and whether it is absolute.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NodePath {
    /// The node names (`a/b` has `a` and `b`).
    pub names: Vec<String>,
    /// The subnames, the property path after the first `:`.
    pub subnames: Vec<String>,
    /// Whether the path starts with `/`.
    pub absolute: bool,
}

/// An `Object` as the wire carries it.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// A null object.
    Null,
    /// An object written as its instance id (the default, without full objects).
    Id(u64),
    /// An object written in full: its class and its properties in order.
    Full {
        /// The class name, e.g. `Resource`.
        class: String,
        /// Property names and values, in the order written.
        properties: Vec<(String, Variant)>,
    },
}

/// The element type of a typed `Array`, or the key or value type of a typed `Dictionary`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ContainerType {
    /// Untyped.
    #[default]
    None,
    /// A built-in type, e.g. `Array[int]`.
    Builtin(VariantType),
    /// A native class, e.g. `Array[Node]`.
    ClassName(String),
    /// A script class, written as the script's resource path.
    Script(String),
}

/// An `Array`, with its element type.
///
/// The element type lives behind a pointer that untyped arrays (nearly all) leave empty, which
/// keeps [`Variant`] small.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Array {
    /// The elements.
    pub items: Vec<Variant>,
    element_type: Option<Box<ContainerType>>,
}

impl Array {
    /// An untyped array.
    pub fn new(items: Vec<Variant>) -> Array {
        Array {
            items,
            element_type: None,
        }
    }

    /// An array typed as `element_type` (4.x typed arrays).
    pub fn typed(element_type: ContainerType, items: Vec<Variant>) -> Array {
        let mut a = Array::new(items);
        a.set_element_type(element_type);
        a
    }

    /// The element type; [`ContainerType::None`] when untyped.
    pub fn element_type(&self) -> &ContainerType {
        self.element_type.as_deref().unwrap_or(&ContainerType::None)
    }

    /// Sets the element type.
    pub fn set_element_type(&mut self, t: ContainerType) {
        self.element_type = (t != ContainerType::None).then(|| Box::new(t));
    }
}

// Dropping a value recurses once per nesting level, like building it; values nest 1024 levels
// deep, more than a small thread's stack holds in unoptimized builds. Containers and objects drop
// their contents where the stack has room, growing it if need be (one look per container).
impl Drop for Array {
    fn drop(&mut self) {
        crate::stack::drop_with_room(&mut self.items);
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if let Object::Full { properties, .. } = self {
            crate::stack::drop_with_room(properties);
        }
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        crate::stack::drop_with_room(&mut self.entries);
    }
}

/// A `Dictionary`: entries in order, with key and value types.
///
/// Like [`Array`]'s element type, the key and value types live behind a pointer left empty when
/// the dictionary is untyped.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Dictionary {
    /// The entries, in the order written.
    pub entries: Vec<(Variant, Variant)>,
    types: Option<Box<[ContainerType; 2]>>,
}

impl Dictionary {
    /// An untyped dictionary.
    pub fn new(entries: Vec<(Variant, Variant)>) -> Dictionary {
        Dictionary {
            entries,
            types: None,
        }
    }

    /// A dictionary typed as `key_type` to `value_type` (4.4+ typed dictionaries).
    pub fn typed(
        key_type: ContainerType,
        value_type: ContainerType,
        entries: Vec<(Variant, Variant)>,
    ) -> Dictionary {
        let mut d = Dictionary::new(entries);
        d.set_types(key_type, value_type);
        d
    }

    /// The key type; [`ContainerType::None`] when keys are untyped.
    pub fn key_type(&self) -> &ContainerType {
        self.types.as_ref().map_or(&ContainerType::None, |t| &t[0])
    }

    /// The value type; [`ContainerType::None`] when values are untyped.
    pub fn value_type(&self) -> &ContainerType {
        self.types.as_ref().map_or(&ContainerType::None, |t| &t[1])
    }

    /// Sets the key and value types.
    pub fn set_types(&mut self, key_type: ContainerType, value_type: ContainerType) {
        self.types = (key_type != ContainerType::None || value_type != ContainerType::None)
            .then(|| Box::new([key_type, value_type]));
    }
}

/// A `Signal`: a signal name on an object.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Signal {
    /// The signal's name.
    pub name: String,
    /// The instance id of the object that owns it.
    pub object_id: u64,
}

/// Any Godot value of either type table.
///
/// Equality is bit-for-bit for floats (see [`Reals`]).
#[derive(Clone, Debug)]
// One case per Godot type, documented by VariantType rather than here.
// A full-width tag: the decoder writes values in place, and a byte-wide tag made it copy them with
// partial-width stores that stalled the loads after them (scalar arrays decoded ~30% slower).
#[allow(missing_docs)]
#[repr(u64)]
pub enum Variant {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(Text),
    Vector2(Reals),
    Vector2i(I32s),
    Rect2(Reals),
    Rect2i(I32s),
    Vector3(Reals),
    Vector3i(I32s),
    Transform2D(Reals),
    Vector4(Reals),
    Vector4i(I32s),
    Plane(Reals),
    Quaternion(Reals),
    Aabb(Reals),
    Basis(Reals),
    Transform3D(Reals),
    Projection(Reals),
    Color([f32; 4]),
    StringName(Text),
    NodePath(Box<NodePath>),
    Rid(u64),
    Object(Box<Object>),
    Callable,
    Signal(Signal),
    Dictionary(Dictionary),
    Array(Array),
    PackedByteArray(Vec<u8>),
    PackedInt32Array(Vec<i32>),
    PackedInt64Array(Vec<i64>),
    PackedFloat32Array(Vec<f32>),
    PackedFloat64Array(Vec<f64>),
    PackedStringArray(Vec<Text>),
    PackedVector2Array(Reals),
    PackedVector3Array(Reals),
    PackedColorArray(Vec<[f32; 4]>),
    PackedVector4Array(Reals),
}

impl Variant {
    /// The value's type.
    pub fn get_type(&self) -> VariantType {
        use VariantType as T;
        match self {
            Variant::Nil => T::Nil,
            Variant::Bool(_) => T::Bool,
            Variant::Int(_) => T::Int,
            Variant::Float(_) => T::Float,
            Variant::String(_) => T::String,
            Variant::Vector2(_) => T::Vector2,
            Variant::Vector2i(_) => T::Vector2i,
            Variant::Rect2(_) => T::Rect2,
            Variant::Rect2i(_) => T::Rect2i,
            Variant::Vector3(_) => T::Vector3,
            Variant::Vector3i(_) => T::Vector3i,
            Variant::Transform2D(_) => T::Transform2D,
            Variant::Vector4(_) => T::Vector4,
            Variant::Vector4i(_) => T::Vector4i,
            Variant::Plane(_) => T::Plane,
            Variant::Quaternion(_) => T::Quaternion,
            Variant::Aabb(_) => T::Aabb,
            Variant::Basis(_) => T::Basis,
            Variant::Transform3D(_) => T::Transform3D,
            Variant::Projection(_) => T::Projection,
            Variant::Color(_) => T::Color,
            Variant::StringName(_) => T::StringName,
            Variant::NodePath(_) => T::NodePath,
            Variant::Rid(_) => T::Rid,
            Variant::Object(_) => T::Object,
            Variant::Callable => T::Callable,
            Variant::Signal(_) => T::Signal,
            Variant::Dictionary(_) => T::Dictionary,
            Variant::Array(_) => T::Array,
            Variant::PackedByteArray(_) => T::PackedByteArray,
            Variant::PackedInt32Array(_) => T::PackedInt32Array,
            Variant::PackedInt64Array(_) => T::PackedInt64Array,
            Variant::PackedFloat32Array(_) => T::PackedFloat32Array,
            Variant::PackedFloat64Array(_) => T::PackedFloat64Array,
            Variant::PackedStringArray(_) => T::PackedStringArray,
            Variant::PackedVector2Array(_) => T::PackedVector2Array,
            Variant::PackedVector3Array(_) => T::PackedVector3Array,
            Variant::PackedColorArray(_) => T::PackedColorArray,
            Variant::PackedVector4Array(_) => T::PackedVector4Array,
        }
    }

    /// An `Object` value.
    pub fn object(o: Object) -> Variant {
        Variant::Object(Box::new(o))
    }

    /// A `NodePath` value.
    pub fn node_path(np: NodePath) -> Variant {
        Variant::NodePath(Box::new(np))
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Variant::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The real_t components of a math type or a packed vector array.
    pub fn reals(&self) -> Option<&Reals> {
        match self {
            Variant::Vector2(r)
            | Variant::Rect2(r)
            | Variant::Vector3(r)
            | Variant::Transform2D(r)
            | Variant::Vector4(r)
            | Variant::Plane(r)
            | Variant::Quaternion(r)
            | Variant::Aabb(r)
            | Variant::Basis(r)
            | Variant::Transform3D(r)
            | Variant::Projection(r)
            | Variant::PackedVector2Array(r)
            | Variant::PackedVector3Array(r)
            | Variant::PackedVector4Array(r) => Some(r),
            _ => None,
        }
    }

    /// Builds a math type or packed vector array from its components.
    ///
    /// Returns `None` if `ty` holds no real_t components.
    #[inline]
    pub fn from_reals(ty: VariantType, r: Reals) -> Option<Variant> {
        use VariantType as T;
        Some(match ty {
            T::Vector2 => Variant::Vector2(r),
            T::Rect2 => Variant::Rect2(r),
            T::Vector3 => Variant::Vector3(r),
            T::Transform2D => Variant::Transform2D(r),
            T::Vector4 => Variant::Vector4(r),
            T::Plane => Variant::Plane(r),
            T::Quaternion => Variant::Quaternion(r),
            T::Aabb => Variant::Aabb(r),
            T::Basis => Variant::Basis(r),
            T::Transform3D => Variant::Transform3D(r),
            T::Projection => Variant::Projection(r),
            T::PackedVector2Array => Variant::PackedVector2Array(r),
            T::PackedVector3Array => Variant::PackedVector3Array(r),
            T::PackedVector4Array => Variant::PackedVector4Array(r),
            _ => return None,
        })
    }

    /// The i32 components of an integer vector type.
    pub fn ints(&self) -> Option<&[i32]> {
        match self {
            Variant::Vector2i(v)
            | Variant::Rect2i(v)
            | Variant::Vector3i(v)
            | Variant::Vector4i(v) => Some(v),
            _ => None,
        }
    }

    /// Builds an integer vector type from its components; `None` if `ty` is not one.
    #[inline]
    pub fn from_ints(ty: VariantType, v: I32s) -> Option<Variant> {
        use VariantType as T;
        Some(match ty {
            T::Vector2i => Variant::Vector2i(v),
            T::Rect2i => Variant::Rect2i(v),
            T::Vector3i => Variant::Vector3i(v),
            T::Vector4i => Variant::Vector4i(v),
            _ => return None,
        })
    }
}

fn same_f32s(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn same_f64s(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn same_colors(a: &[[f32; 4]], b: &[[f32; 4]]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_f32s(x, y))
}

impl PartialEq for Variant {
    /// Bit-for-bit: floats compare by their bits.
    fn eq(&self, other: &Variant) -> bool {
        use Variant as V;
        match (self, other) {
            (V::Float(a), V::Float(b)) => a.to_bits() == b.to_bits(),
            (V::Color(a), V::Color(b)) => same_f32s(a, b),
            (V::PackedFloat32Array(a), V::PackedFloat32Array(b)) => same_f32s(a, b),
            (V::PackedFloat64Array(a), V::PackedFloat64Array(b)) => same_f64s(a, b),
            (V::PackedColorArray(a), V::PackedColorArray(b)) => same_colors(a, b),
            (V::Nil, V::Nil) | (V::Callable, V::Callable) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Int(b)) => a == b,
            (V::String(a), V::String(b)) | (V::StringName(a), V::StringName(b)) => a == b,
            (V::NodePath(a), V::NodePath(b)) => a == b,
            (V::Rid(a), V::Rid(b)) => a == b,
            (V::Object(a), V::Object(b)) => a == b,
            (V::Signal(a), V::Signal(b)) => a == b,
            (V::Dictionary(a), V::Dictionary(b)) => a == b,
            (V::Array(a), V::Array(b)) => a == b,
            (V::PackedByteArray(a), V::PackedByteArray(b)) => a == b,
            (V::PackedInt32Array(a), V::PackedInt32Array(b)) => a == b,
            (V::PackedInt64Array(a), V::PackedInt64Array(b)) => a == b,
            (V::PackedStringArray(a), V::PackedStringArray(b)) => a == b,
            _ => match (self.reals(), other.reals(), self.ints(), other.ints()) {
                (Some(a), Some(b), _, _) => self.get_type() == other.get_type() && a == b,
                (_, _, Some(a), Some(b)) => self.get_type() == other.get_type() && a == b,
                _ => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_is_bitwise() {
        assert_ne!(Variant::Float(0.0), Variant::Float(-0.0));
        assert_eq!(Variant::Float(f64::NAN), Variant::Float(f64::NAN));
        assert_ne!(
            Variant::Vector2(Reals::F32(smallvec::smallvec![1.0, 2.0])),
            Variant::Vector2(Reals::F64(smallvec::smallvec![1.0, 2.0]))
        );
        assert_ne!(
            Variant::Vector2(Reals::F32(smallvec::smallvec![1.0, 2.0])),
            Variant::PackedVector2Array(Reals::F32(smallvec::smallvec![1.0, 2.0]))
        );
        assert_ne!(
            Variant::Vector2i(smallvec::smallvec![1, 2]),
            Variant::Rect2i(smallvec::smallvec![1, 2])
        );
    }

    #[test]
    fn variant_stays_small() {
        // Decoding writes every value into a fresh buffer, so its size is decode speed: rare
        // payloads are boxed to keep the common ones at this size.
        assert_eq!(std::mem::size_of::<Variant>(), 40);
    }
}
