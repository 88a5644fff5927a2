//! The value model: one [`Variant`] for every type of both type tables.
//!
//! Values keep exact bits. A float is kept at the width it has inside the engine (real_t components
//! as f32 or f64 [`Reals`], `Color` as f32, `float` as f64), so -0.0 and NaN payloads
//! survive. Dictionaries keep their entries in insertion order; decoding merges duplicate keys as
//! the engine does.

use smallvec::SmallVec;

use crate::types::VariantType;

/// A string held by a value: Unicode text (up to 24 bytes inline, so most keys and names allocate
/// nothing) or, for 3.x, code units that are not all Unicode scalar values.
pub use crate::string::Text;

/// The i32 components of an integer vector type (`Vector2i`, `Rect2i`, `Vector3i`, `Vector4i`),
/// held inline; a slice of them through `Deref`.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct I32s(SmallVec<[i32; 4]>);

impl I32s {
    /// No components.
    pub fn new() -> I32s {
        I32s(SmallVec::new())
    }

    /// The components of `ints`.
    pub fn from_slice(ints: &[i32]) -> I32s {
        I32s(SmallVec::from_slice(ints))
    }

    /// The components of `ints`.
    pub fn from_vec(ints: Vec<i32>) -> I32s {
        I32s(SmallVec::from_vec(ints))
    }

    /// Adds a component at the end.
    pub fn push(&mut self, int: i32) {
        self.0.push(int);
    }
}

impl std::ops::Deref for I32s {
    type Target = [i32];
    fn deref(&self) -> &[i32] {
        &self.0
    }
}

impl FromIterator<i32> for I32s {
    fn from_iter<I: IntoIterator<Item = i32>>(iter: I) -> I32s {
        I32s(iter.into_iter().collect())
    }
}

// As a list, the way the components read everywhere else.
impl std::fmt::Debug for I32s {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

/// real_t components: f32 in ordinary builds, f64 in double-precision builds.
///
/// Fixed-size math types hold exactly as many components as the type has fields (a `Vector2` two,
/// a `Transform3D` twelve); packed arrays of vectors hold them flattened. Up to 16 bytes of
/// components (four f32 or two f64: every single-precision math type but the matrices) are held
/// inline, more on the heap; 24 bytes in all, which keeps [`Variant`] at 32.
#[derive(Clone)]
pub struct Reals(RealsRepr);

// Hand-made rather than a small-vector crate's: those take 24 bytes for the vector alone, and the
// width then needs a tag of its own.
#[derive(Clone)]
enum RealsRepr {
    Short32(u8, [f32; 4]),
    Short64(u8, [f64; 2]),
    Long32(Box<[f32]>),
    Long64(Box<[f64]>),
}

/// A borrowed view of [`Reals`]: the components at their width.
#[derive(Clone, Copy, Debug)]
pub enum Components<'a> {
    /// Single-precision components.
    F32(&'a [f32]),
    /// Double-precision components.
    F64(&'a [f64]),
}

impl Reals {
    /// The components at their width.
    #[inline]
    pub fn components(&self) -> Components<'_> {
        match &self.0 {
            RealsRepr::Short32(n, v) => Components::F32(&v[..*n as usize]),
            RealsRepr::Short64(n, v) => Components::F64(&v[..*n as usize]),
            RealsRepr::Long32(v) => Components::F32(v),
            RealsRepr::Long64(v) => Components::F64(v),
        }
    }

    /// Up to four f32 components, the first `n` of `v`: the decoder's common case, built without
    /// a copy loop.
    #[inline]
    pub(crate) fn short32(v: [f32; 4], n: usize) -> Reals {
        debug_assert!(n <= 4);
        Reals(RealsRepr::Short32(n as u8, v))
    }

    /// How many components.
    pub fn len(&self) -> usize {
        match self.components() {
            Components::F32(v) => v.len(),
            Components::F64(v) => v.len(),
        }
    }

    /// Whether there are no components.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the components are doubles.
    pub fn is_f64(&self) -> bool {
        matches!(self.components(), Components::F64(_))
    }
}

/// The first `N` items inline with their count, or all of them on the heap when there are more:
/// how [`Reals`] holds components of either width, without a vector in between for short ones.
fn gather<T: Copy + Default, const N: usize>(
    items: impl IntoIterator<Item = T>,
) -> Result<(u8, [T; N]), Box<[T]>> {
    let mut rest = items.into_iter();
    let mut inline = [T::default(); N];
    for (n, slot) in inline.iter_mut().enumerate() {
        match rest.next() {
            Some(x) => *slot = x,
            None => return Ok((n as u8, inline)),
        }
    }
    match rest.next() {
        None => Ok((N as u8, inline)),
        Some(x) => Err(inline.into_iter().chain([x]).chain(rest).collect()),
    }
}

impl FromIterator<f32> for Reals {
    /// Single-precision components.
    fn from_iter<I: IntoIterator<Item = f32>>(items: I) -> Reals {
        Reals(match gather(items) {
            Ok((n, inline)) => RealsRepr::Short32(n, inline),
            Err(heap) => RealsRepr::Long32(heap),
        })
    }
}

impl FromIterator<f64> for Reals {
    /// Double-precision components.
    fn from_iter<I: IntoIterator<Item = f64>>(items: I) -> Reals {
        Reals(match gather(items) {
            Ok((n, inline)) => RealsRepr::Short64(n, inline),
            Err(heap) => RealsRepr::Long64(heap),
        })
    }
}

impl From<Vec<f32>> for Reals {
    /// Single-precision components; the vector's memory is kept when they do not fit inline.
    fn from(v: Vec<f32>) -> Reals {
        match v.len() {
            0..=4 => v.into_iter().collect(),
            _ => Reals(RealsRepr::Long32(v.into_boxed_slice())),
        }
    }
}

impl From<Vec<f64>> for Reals {
    /// Double-precision components; the vector's memory is kept when they do not fit inline.
    fn from(v: Vec<f64>) -> Reals {
        match v.len() {
            0..=2 => v.into_iter().collect(),
            _ => Reals(RealsRepr::Long64(v.into_boxed_slice())),
        }
    }
}

impl From<&[f32]> for Reals {
    /// Single-precision components, copied.
    fn from(v: &[f32]) -> Reals {
        v.iter().copied().collect()
    }
}

impl From<&[f64]> for Reals {
    /// Double-precision components, copied.
    fn from(v: &[f64]) -> Reals {
        v.iter().copied().collect()
    }
}

impl<const N: usize> From<[f32; N]> for Reals {
    /// Single-precision components.
    fn from(v: [f32; N]) -> Reals {
        v.into_iter().collect()
    }
}

impl<const N: usize> From<[f64; N]> for Reals {
    /// Double-precision components.
    fn from(v: [f64; N]) -> Reals {
        v.into_iter().collect()
    }
}

impl std::fmt::Debug for Reals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.components() {
            Components::F32(v) => f.debug_tuple("F32").field(&v).finish(),
            Components::F64(v) => f.debug_tuple("F64").field(&v).finish(),
        }
    }
}

impl PartialEq for Reals {
    /// Bit-for-bit equality: -0.0 differs from 0.0, and a NaN equals the same NaN.
    fn eq(&self, other: &Reals) -> bool {
        match (self.components(), other.components()) {
            (Components::F32(a), Components::F32(b)) => same_f32s(a, b),
            (Components::F64(a), Components::F64(b)) => same_f64s(a, b),
            _ => false,
        }
    }
}

/// A `NodePath`: names, subnames and whether it is absolute.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct NodePath {
    /// The node names (`a/b` has `a` and `b`).
    pub names: Vec<Text>,
    /// The subnames, the property path after the first `:`.
    pub subnames: Vec<Text>,
    /// Whether the path starts with `/`.
    pub absolute: bool,
}

/// An `Object` as the wire carries it.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// A null object.
    Null,
    /// An object known by its instance id: written as the id without full objects (the
    /// default); with them, as the engines write the `EncodedObjectAsID` placeholder they decode
    /// an id to (its class, `object_id` as an int, a nil `script`).
    Id(u64),
    /// An object written in full: its class and its properties in order.
    Full {
        /// The class name, e.g. `Resource`.
        class: String,
        /// Property names and values, in the order written.
        properties: Vec<(String, Variant)>,
    },
}

/// The class Godot gives objects that were decoded from instance ids.
pub const ENCODED_OBJECT_AS_ID: &str = "EncodedObjectAsID";

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

impl ContainerType {
    /// Objects of the named native class. No class name is the built-in `Object` type: the engine
    /// keeps a container type as (built-in type, class name, script), and `Object` with no class
    /// name is what `Array[Object]` is, so 4.6.3 writes it with the built-in kind and reads it back
    /// as such (differential campaigns, case generation 2). [`ContainerType::ClassName`] never
    /// holds an empty name when built here.
    pub fn class_named(name: impl Into<String>) -> ContainerType {
        let name = name.into();
        if name.is_empty() {
            ContainerType::Builtin(VariantType::Object)
        } else {
            ContainerType::ClassName(name)
        }
    }

    /// The kinds of a container type, as the tagged JSON (`{"builtin": "int"}`) and the Python
    /// and npm packages (`ContainerType("builtin", "int")`) name them.
    pub const KINDS: [&'static str; 3] = ["builtin", "class", "script"];

    /// Its kind (one of [`ContainerType::KINDS`]) and name; `None` when untyped.
    ///
    /// ```
    /// use gdmarshal::types::VariantType;
    /// use gdmarshal::value::ContainerType;
    ///
    /// let int = ContainerType::Builtin(VariantType::Int);
    /// assert_eq!(int.kind_and_name(), Some(("builtin", "int")));
    /// assert_eq!(ContainerType::from_kind("builtin", "int".into()), Some(int));
    /// assert_eq!(ContainerType::from_kind("builtin", "Bogus".into()), None);
    /// ```
    pub fn kind_and_name(&self) -> Option<(&'static str, &str)> {
        match self {
            ContainerType::None => None,
            ContainerType::Builtin(ty) => Some(("builtin", ty.name())),
            ContainerType::ClassName(c) => Some(("class", c)),
            ContainerType::Script(s) => Some(("script", s)),
        }
    }

    /// The container type of this kind and name; `None` for a kind not in
    /// [`ContainerType::KINDS`] or a built-in type of no such name.
    pub fn from_kind(kind: &str, name: String) -> Option<ContainerType> {
        match kind {
            "builtin" => VariantType::from_name(&name).map(ContainerType::Builtin),
            "class" => Some(ContainerType::class_named(name)),
            "script" => Some(ContainerType::Script(name)),
            _ => None,
        }
    }
}

/// A container's contents and, when it is typed, its types. Untyped containers (nearly all) hold
/// the vector alone; a typed one holds both behind one pointer. Either way it takes 24 bytes,
/// which keeps [`Variant`] at 32.
#[derive(Clone, Debug, PartialEq)]
enum Contents<T, K> {
    Plain(Vec<T>),
    Typed(Box<(Vec<T>, K)>),
}

impl<T, K> Contents<T, K> {
    fn items(&self) -> &[T] {
        match self {
            Contents::Plain(v) => v,
            Contents::Typed(b) => &b.0,
        }
    }

    fn items_mut(&mut self) -> &mut Vec<T> {
        match self {
            Contents::Plain(v) => v,
            Contents::Typed(b) => &mut b.0,
        }
    }

    fn types(&self) -> Option<&K> {
        match self {
            Contents::Plain(_) => None,
            Contents::Typed(b) => Some(&b.1),
        }
    }

    /// `items` with `types`, or untyped with `None`.
    #[inline]
    fn with_types(items: Vec<T>, types: Option<K>) -> Contents<T, K> {
        match types {
            None => Contents::Plain(items),
            Some(t) => Contents::Typed(Box::new((items, t))),
        }
    }
}

/// An `Array`, with its element type.
#[derive(Clone, Debug, PartialEq)]
pub struct Array(Contents<Variant, ContainerType>);

impl Default for Array {
    fn default() -> Array {
        Array::new(Vec::new())
    }
}

impl Array {
    /// An untyped array.
    pub fn new(items: Vec<Variant>) -> Array {
        Array(Contents::Plain(items))
    }

    /// An array typed as `element_type` (4.x typed arrays).
    #[inline]
    pub fn typed(element_type: ContainerType, items: Vec<Variant>) -> Array {
        let typed = element_type != ContainerType::None;
        Array(Contents::with_types(items, typed.then_some(element_type)))
    }

    /// The elements.
    pub fn items(&self) -> &[Variant] {
        self.0.items()
    }

    /// The elements, to change.
    pub fn items_mut(&mut self) -> &mut Vec<Variant> {
        self.0.items_mut()
    }

    /// The element type; [`ContainerType::None`] when untyped.
    pub fn element_type(&self) -> &ContainerType {
        self.0.types().unwrap_or(&ContainerType::None)
    }

    /// Sets the element type.
    pub fn set_element_type(&mut self, t: ContainerType) {
        *self = Array::typed(t, std::mem::take(self.items_mut()));
    }
}

// Dropping a value recurses once per nesting level, like building it; values nest 1024 levels
// deep, more than a small thread's stack holds in unoptimized builds. Containers and objects drop
// their contents where the stack has room, growing it if need be (one look per container).
impl Drop for Array {
    fn drop(&mut self) {
        crate::stack::drop_with_room(self.items_mut());
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
        crate::stack::drop_with_room(self.entries_mut());
    }
}

/// A `Dictionary`: entries in order, with key and value types.
#[derive(Clone, Debug, PartialEq)]
pub struct Dictionary(Contents<(Variant, Variant), [ContainerType; 2]>);

impl Default for Dictionary {
    fn default() -> Dictionary {
        Dictionary::new(Vec::new())
    }
}

impl Dictionary {
    /// An untyped dictionary.
    pub fn new(entries: Vec<(Variant, Variant)>) -> Dictionary {
        Dictionary(Contents::Plain(entries))
    }

    /// A dictionary typed as `key_type` to `value_type` (4.4+ typed dictionaries).
    pub fn typed(
        key_type: ContainerType,
        value_type: ContainerType,
        entries: Vec<(Variant, Variant)>,
    ) -> Dictionary {
        let typed = key_type != ContainerType::None || value_type != ContainerType::None;
        Dictionary(Contents::with_types(
            entries,
            typed.then_some([key_type, value_type]),
        ))
    }

    /// The entries, in the order written.
    pub fn entries(&self) -> &[(Variant, Variant)] {
        self.0.items()
    }

    /// The entries, to change.
    pub fn entries_mut(&mut self) -> &mut Vec<(Variant, Variant)> {
        self.0.items_mut()
    }

    /// The key type; [`ContainerType::None`] when keys are untyped.
    pub fn key_type(&self) -> &ContainerType {
        self.0.types().map_or(&ContainerType::None, |t| &t[0])
    }

    /// The value type; [`ContainerType::None`] when values are untyped.
    pub fn value_type(&self) -> &ContainerType {
        self.0.types().map_or(&ContainerType::None, |t| &t[1])
    }

    /// Sets the key and value types.
    pub fn set_types(&mut self, key_type: ContainerType, value_type: ContainerType) {
        *self = Dictionary::typed(key_type, value_type, std::mem::take(self.entries_mut()));
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
#[non_exhaustive]
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
    Signal(Box<Signal>),
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
            Variant::Vector2(Reals::from([1.0f32, 2.0])),
            Variant::Vector2(Reals::from([1.0f64, 2.0]))
        );
        assert_ne!(
            Variant::Vector2(Reals::from([1.0f32, 2.0])),
            Variant::PackedVector2Array(Reals::from([1.0f32, 2.0]))
        );
        assert_ne!(
            Variant::Vector2i(crate::value::I32s::from_slice(&[1, 2])),
            Variant::Rect2i(crate::value::I32s::from_slice(&[1, 2]))
        );
    }

    #[test]
    fn reals_keep_width_length_and_bits_inline_and_on_the_heap() {
        for n in 0..8 {
            // -0.0 first: its bits must survive either way.
            // Each way in: from a vector (kept when long), from a slice and from an iterator
            // (gathered inline when short).
            let f32s: Vec<f32> = (0..n).map(|i| -0.5 * i as f32).collect();
            for r in [
                Reals::from(f32s.clone()),
                Reals::from(&f32s[..]),
                f32s.iter().copied().collect(),
            ] {
                assert!(matches!(r.components(), Components::F32(v) if same_f32s(v, &f32s)));
                assert_eq!((r.len(), r.is_f64()), (n, false));
            }
            let f64s: Vec<f64> = f32s.iter().map(|&x| f64::from(x)).collect();
            for r in [
                Reals::from(f64s.clone()),
                Reals::from(&f64s[..]),
                f64s.iter().copied().collect(),
            ] {
                assert!(matches!(r.components(), Components::F64(v) if same_f64s(v, &f64s)));
                assert_eq!((r.len(), r.is_f64()), (n, true));
            }
        }
        assert_eq!(
            Reals::short32([1.0, 2.0, 9.0, 9.0], 2),
            Reals::from([1.0f32, 2.0])
        );
    }

    #[test]
    fn clearing_a_container_type_gives_the_untyped_container() {
        let mut a = Array::typed(
            ContainerType::Builtin(VariantType::Int),
            vec![Variant::Int(1)],
        );
        assert_eq!(*a.element_type(), ContainerType::Builtin(VariantType::Int));
        a.set_element_type(ContainerType::None);
        assert_eq!(a, Array::new(vec![Variant::Int(1)]));
        let entries = vec![(Variant::Nil, Variant::Int(2))];
        let mut d = Dictionary::typed(
            ContainerType::None,
            ContainerType::Script("res://a.gd".into()),
            entries.clone(),
        );
        assert_eq!(*d.value_type(), ContainerType::Script("res://a.gd".into()));
        d.set_types(ContainerType::None, ContainerType::None);
        assert_eq!(d, Dictionary::new(entries));
    }

    #[test]
    fn variant_stays_small() {
        // Decoding writes every value into a fresh buffer, so its size is decode speed: rare
        // payloads are boxed to keep the common ones at this size.
        assert_eq!(std::mem::size_of::<Variant>(), 32);
    }

    #[test]
    fn color_arrays_compare_bit_for_bit() {
        // As every float of a value: equal bits are equal, other colours or zero signs are not.
        let colors = |x: f32| Variant::PackedColorArray(vec![[x; 4]]);
        assert_eq!(colors(1.0), colors(1.0));
        assert_ne!(colors(1.0), colors(2.0));
        assert_ne!(colors(0.0), colors(-0.0));
    }

    /// Each container drops its contents where the stack has room (the `Drop` impls above), so
    /// a chain of one kind alone, far deeper than a small thread's stack holds when dropping
    /// recurses once per level, drops without overflowing it. (tests/hostile.rs drops a chain
    /// that mixes the three kinds, where one kind's check covers the others.)
    #[test]
    fn deep_chains_of_one_container_kind_drop_on_a_small_stack() {
        for kind in ["Array", "Dictionary", "Object"] {
            let dropped = std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let mut v = Variant::Nil;
                    for _ in 0..100_000 {
                        v = match kind {
                            "Array" => Variant::Array(Array::new(vec![v])),
                            "Dictionary" => {
                                Variant::Dictionary(Dictionary::new(vec![(Variant::Nil, v)]))
                            }
                            _ => Variant::object(Object::Full {
                                class: "Resource".into(),
                                properties: vec![("p".into(), v)],
                            }),
                        };
                    }
                    drop(v);
                })
                .unwrap()
                .join();
            assert!(dropped.is_ok(), "dropping a deep chain of {kind}");
        }
    }

    #[test]
    fn f64_components_compare_bit_for_bit() {
        // As every float of a value: zero signs differ, in packed arrays and in f64 reals alike.
        let f64s = |x: f64| Variant::PackedFloat64Array(vec![x]);
        assert_eq!(f64s(1.0), f64s(1.0));
        assert_ne!(f64s(0.0), f64s(-0.0));
        let v = |x: f64| Variant::Vector2(Reals::from([x, 1.0]));
        assert_eq!(v(1.0), v(1.0));
        assert_ne!(v(0.0), v(-0.0));
    }

    #[test]
    fn reals_say_whether_they_are_empty() {
        assert!(Reals::from(Vec::<f32>::new()).is_empty());
        assert!(!Reals::from([1.0f32]).is_empty());
        assert!(!Reals::from([1.0f64]).is_empty());
    }

    #[test]
    fn every_type_equals_its_copy_and_not_another_value() {
        // Equality by value for every type (bit for bit for floats): a value equals its copy and
        // differs from another value of its type.
        let signal = |id: u64| {
            Variant::Signal(Box::new(Signal {
                name: "s".into(),
                object_id: id,
            }))
        };
        let path = |name: &str| {
            Variant::node_path(NodePath {
                names: vec![name.into()],
                ..NodePath::default()
            })
        };
        let pairs = [
            (Variant::Bool(true), Variant::Bool(false)),
            (Variant::Int(1), Variant::Int(2)),
            (Variant::Float(1.0), Variant::Float(2.0)),
            (Variant::String("a".into()), Variant::String("b".into())),
            (
                Variant::StringName("a".into()),
                Variant::StringName("b".into()),
            ),
            (path("a"), path("b")),
            (Variant::Rid(1), Variant::Rid(2)),
            (
                Variant::object(Object::Id(1)),
                Variant::object(Object::Id(2)),
            ),
            (signal(1), signal(2)),
            (Variant::Color([1.0; 4]), Variant::Color([0.5; 4])),
            (
                Variant::Vector3(Reals::from([1.0f32, 2.0, 3.0])),
                Variant::Vector3(Reals::from([1.0f32, 2.0, 4.0])),
            ),
            (
                Variant::Vector2i(crate::value::I32s::from_slice(&[1, 2])),
                Variant::Vector2i(crate::value::I32s::from_slice(&[1, 3])),
            ),
            (
                Variant::Dictionary(Dictionary::new(vec![(Variant::Int(1), Variant::Nil)])),
                Variant::Dictionary(Dictionary::default()),
            ),
            (
                Variant::Array(Array::new(vec![Variant::Nil])),
                Variant::Array(Array::default()),
            ),
            (
                Variant::PackedByteArray(vec![1]),
                Variant::PackedByteArray(vec![2]),
            ),
            (
                Variant::PackedInt32Array(vec![1]),
                Variant::PackedInt32Array(vec![2]),
            ),
            (
                Variant::PackedInt64Array(vec![1]),
                Variant::PackedInt64Array(vec![2]),
            ),
            (
                Variant::PackedFloat32Array(vec![1.0]),
                Variant::PackedFloat32Array(vec![2.0]),
            ),
            (
                Variant::PackedStringArray(vec!["a".into()]),
                Variant::PackedStringArray(vec!["b".into()]),
            ),
        ];
        for (a, b) in pairs {
            assert_eq!(a, a.clone());
            assert_ne!(a, b);
            assert_ne!(b, a);
        }
        assert_eq!(Variant::Nil, Variant::Nil);
        assert_eq!(Variant::Callable, Variant::Callable);
        assert_ne!(Variant::Nil, Variant::Callable);
    }
}
