//! The Godot Variant types and their wire layouts, stated once.
//!
//! [`TYPES`] is the one table of every type that either engine family knows: its name, its id in the
//! 3.x and 4.x type tables, the first 4.x minor that has it, and its [`Shape`] (how its payload is laid
//! out on the wire). Encoding, decoding, inspection, JSON and value generation all read this table;
//! none of them restates a type's layout.

use std::fmt;

/// One Godot Variant type, named as Godot 4 names it.
///
/// Godot 3 names map onto these: `REAL` is [`Float`](VariantType::Float), `QUAT` is
/// [`Quaternion`](VariantType::Quaternion), `TRANSFORM` is [`Transform3D`](VariantType::Transform3D),
/// `_RID` is [`Rid`](VariantType::Rid) and the `Pool*Array` types are the matching `Packed*Array`
/// (`PoolIntArray` is [`PackedInt32Array`](VariantType::PackedInt32Array), `PoolRealArray` is
/// [`PackedFloat32Array`](VariantType::PackedFloat32Array)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // the names are Godot's own; TYPES documents each one
#[non_exhaustive]
pub enum VariantType {
    Nil,
    Bool,
    Int,
    Float,
    String,
    Vector2,
    Vector2i,
    Rect2,
    Rect2i,
    Vector3,
    Vector3i,
    Transform2D,
    Vector4,
    Vector4i,
    Plane,
    Quaternion,
    Aabb,
    Basis,
    Transform3D,
    Projection,
    Color,
    StringName,
    NodePath,
    Rid,
    Object,
    Callable,
    Signal,
    Dictionary,
    Array,
    PackedByteArray,
    PackedInt32Array,
    PackedInt64Array,
    PackedFloat32Array,
    PackedFloat64Array,
    PackedStringArray,
    PackedVector2Array,
    PackedVector3Array,
    PackedColorArray,
    PackedVector4Array,
}

/// How a type's payload (everything after the 4-byte header) is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No payload.
    Empty,
    /// One u32, 0 or 1.
    Bool,
    /// An i32, or an i64 when the 64-bit flag is set.
    Int,
    /// An f32, or an f64 when the 64-bit flag is set.
    Float,
    /// A length-prefixed UTF-8 string padded to 4 bytes.
    String,
    /// `n` real_t components (f32, or f64 when the 64-bit flag is set or in double builds).
    Reals(usize),
    /// `n` i32 components.
    Ints(usize),
    /// Four f32 components: red, green, blue, alpha.
    Color,
    /// Name and subname counts, flags, then the names and subnames as strings.
    NodePath,
    /// A u64 id in 4.x; nothing in 3.x.
    Rid,
    /// A null object, an instance id, or a class name with its properties.
    Object,
    /// 4.x only: encoded with no payload.
    Callable,
    /// 4.x only: the signal's name as a string, then the object's instance id.
    Signal,
    /// An element count (with an optional element type in 4.x), then key and value variants.
    Dictionary,
    /// An element count (with an optional element type in 4.x), then the element variants.
    Array,
    /// A packed array of fixed-size elements: a u32 count, then the elements, padded to 4 bytes.
    Packed(Element),
    /// A u32 count, then that many strings.
    PackedStrings,
}

impl Shape {
    /// Whether the payload is a fixed row of numbers named by the type's fields (`Vector2`,
    /// `Rect2i`, `Transform3D`, `Color`, …): the math types, which the Python and npm packages
    /// hold as small classes of those fields.
    pub fn is_math(self) -> bool {
        matches!(self, Shape::Reals(_) | Shape::Ints(_) | Shape::Color)
    }
}

/// The element of a packed array of fixed-size elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// One byte.
    U8,
    /// One little-endian i32.
    I32,
    /// One little-endian i64.
    I64,
    /// One little-endian f32.
    F32,
    /// One little-endian f64.
    F64,
    /// `n` real_t components: f32, or f64 in double builds.
    Reals(usize),
    /// Four f32 components.
    Color,
}

/// One row of [`TYPES`].
#[derive(Clone, Copy, Debug)]
pub struct TypeInfo {
    /// The type.
    pub ty: VariantType,
    /// Godot 4's name for it, as the tagged JSON writes it.
    pub name: &'static str,
    /// Godot 3's name for it, if Godot 3 has the type.
    pub name3: Option<&'static str>,
    /// Its id in the Godot 3 type table.
    pub id3: Option<u32>,
    /// Its id in the Godot 4 type table.
    pub id4: Option<u32>,
    /// The first Godot 4 minor version that can encode it.
    pub since4: u32,
    /// Its payload layout.
    pub shape: Shape,
    /// Names of the payload fields, in wire order, for shapes with fixed fields (used by inspect and
    /// by error messages).
    pub fields: &'static [&'static str],
}

const XY: &[&str] = &["x", "y"];
const XYZ: &[&str] = &["x", "y", "z"];
const XYZW: &[&str] = &["x", "y", "z", "w"];
const RECT: &[&str] = &["position.x", "position.y", "size.x", "size.y"];
const T2D: &[&str] = &["x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"];
const PLANE: &[&str] = &["normal.x", "normal.y", "normal.z", "d"];
const AABB: &[&str] = &[
    "position.x",
    "position.y",
    "position.z",
    "size.x",
    "size.y",
    "size.z",
];
// Row by row (Godot's `rows[0..3]`), named by axis as GDScript's `b.x` (a column) names it:
// the engines write Basis(x, y, z) as x.x, y.x, z.x, … (docs/report.md §7).
const BASIS: &[&str] = &[
    "x.x", "y.x", "z.x", "x.y", "y.y", "z.y", "x.z", "y.z", "z.z",
];
const T3D: &[&str] = &[
    "basis.x.x",
    "basis.y.x",
    "basis.z.x",
    "basis.x.y",
    "basis.y.y",
    "basis.z.y",
    "basis.x.z",
    "basis.y.z",
    "basis.z.z",
    "origin.x",
    "origin.y",
    "origin.z",
];
const PROJ: &[&str] = &[
    "x.x", "x.y", "x.z", "x.w", "y.x", "y.y", "y.z", "y.w", "z.x", "z.y", "z.z", "z.w", "w.x",
    "w.y", "w.z", "w.w",
];
const RGBA: &[&str] = &["r", "g", "b", "a"];

macro_rules! row {
    ($ty:ident, $name:literal, $name3:expr, $id3:expr, $id4:expr, $since:literal, $shape:expr, $fields:expr) => {
        TypeInfo {
            ty: VariantType::$ty,
            name: $name,
            name3: $name3,
            id3: $id3,
            id4: $id4,
            since4: $since,
            shape: $shape,
            fields: $fields,
        }
    };
}

use Element as E;
use Shape as S;

/// Every type, in Godot 4 id order. Sources: `core/variant/variant.h` (4.x enum `Variant::Type`) and
/// `core/variant.h` (3.x), and each version's `core/io/marshalls.cpp` for the shapes.
pub const TYPES: [TypeInfo; 39] = [
    row!(Nil, "Nil", Some("Nil"), Some(0), Some(0), 0, S::Empty, &[]),
    row!(
        Bool,
        "bool",
        Some("bool"),
        Some(1),
        Some(1),
        0,
        S::Bool,
        &["value"]
    ),
    row!(
        Int,
        "int",
        Some("int"),
        Some(2),
        Some(2),
        0,
        S::Int,
        &["value"]
    ),
    row!(
        Float,
        "float",
        Some("float"),
        Some(3),
        Some(3),
        0,
        S::Float,
        &["value"]
    ),
    row!(
        String,
        "String",
        Some("String"),
        Some(4),
        Some(4),
        0,
        S::String,
        &[]
    ),
    row!(
        Vector2,
        "Vector2",
        Some("Vector2"),
        Some(5),
        Some(5),
        0,
        S::Reals(2),
        XY
    ),
    row!(Vector2i, "Vector2i", None, None, Some(6), 0, S::Ints(2), XY),
    row!(
        Rect2,
        "Rect2",
        Some("Rect2"),
        Some(6),
        Some(7),
        0,
        S::Reals(4),
        RECT
    ),
    row!(Rect2i, "Rect2i", None, None, Some(8), 0, S::Ints(4), RECT),
    row!(
        Vector3,
        "Vector3",
        Some("Vector3"),
        Some(7),
        Some(9),
        0,
        S::Reals(3),
        XYZ
    ),
    row!(
        Vector3i,
        "Vector3i",
        None,
        None,
        Some(10),
        0,
        S::Ints(3),
        XYZ
    ),
    row!(
        Transform2D,
        "Transform2D",
        Some("Transform2D"),
        Some(8),
        Some(11),
        0,
        S::Reals(6),
        T2D
    ),
    row!(
        Vector4,
        "Vector4",
        None,
        None,
        Some(12),
        0,
        S::Reals(4),
        XYZW
    ),
    row!(
        Vector4i,
        "Vector4i",
        None,
        None,
        Some(13),
        0,
        S::Ints(4),
        XYZW
    ),
    row!(
        Plane,
        "Plane",
        Some("Plane"),
        Some(9),
        Some(14),
        0,
        S::Reals(4),
        PLANE
    ),
    row!(
        Quaternion,
        "Quaternion",
        Some("Quat"),
        Some(10),
        Some(15),
        0,
        S::Reals(4),
        XYZW
    ),
    row!(
        Aabb,
        "AABB",
        Some("AABB"),
        Some(11),
        Some(16),
        0,
        S::Reals(6),
        AABB
    ),
    row!(
        Basis,
        "Basis",
        Some("Basis"),
        Some(12),
        Some(17),
        0,
        S::Reals(9),
        BASIS
    ),
    row!(
        Transform3D,
        "Transform3D",
        Some("Transform"),
        Some(13),
        Some(18),
        0,
        S::Reals(12),
        T3D
    ),
    row!(
        Projection,
        "Projection",
        None,
        None,
        Some(19),
        0,
        S::Reals(16),
        PROJ
    ),
    row!(
        Color,
        "Color",
        Some("Color"),
        Some(14),
        Some(20),
        0,
        S::Color,
        RGBA
    ),
    row!(
        StringName,
        "StringName",
        None,
        None,
        Some(21),
        0,
        S::String,
        &[]
    ),
    row!(
        NodePath,
        "NodePath",
        Some("NodePath"),
        Some(15),
        Some(22),
        0,
        S::NodePath,
        &[]
    ),
    row!(
        Rid,
        "RID",
        Some("RID"),
        Some(16),
        Some(23),
        0,
        S::Rid,
        &["id"]
    ),
    row!(
        Object,
        "Object",
        Some("Object"),
        Some(17),
        Some(24),
        0,
        S::Object,
        &[]
    ),
    row!(
        Callable,
        "Callable",
        None,
        None,
        Some(25),
        0,
        S::Callable,
        &[]
    ),
    row!(Signal, "Signal", None, None, Some(26), 0, S::Signal, &[]),
    row!(
        Dictionary,
        "Dictionary",
        Some("Dictionary"),
        Some(18),
        Some(27),
        0,
        S::Dictionary,
        &[]
    ),
    row!(
        Array,
        "Array",
        Some("Array"),
        Some(19),
        Some(28),
        0,
        S::Array,
        &[]
    ),
    row!(
        PackedByteArray,
        "PackedByteArray",
        Some("PoolByteArray"),
        Some(20),
        Some(29),
        0,
        S::Packed(E::U8),
        &[]
    ),
    row!(
        PackedInt32Array,
        "PackedInt32Array",
        Some("PoolIntArray"),
        Some(21),
        Some(30),
        0,
        S::Packed(E::I32),
        &[]
    ),
    row!(
        PackedInt64Array,
        "PackedInt64Array",
        None,
        None,
        Some(31),
        0,
        S::Packed(E::I64),
        &[]
    ),
    row!(
        PackedFloat32Array,
        "PackedFloat32Array",
        Some("PoolRealArray"),
        Some(22),
        Some(32),
        0,
        S::Packed(E::F32),
        &[]
    ),
    row!(
        PackedFloat64Array,
        "PackedFloat64Array",
        None,
        None,
        Some(33),
        0,
        S::Packed(E::F64),
        &[]
    ),
    row!(
        PackedStringArray,
        "PackedStringArray",
        Some("PoolStringArray"),
        Some(23),
        Some(34),
        0,
        S::PackedStrings,
        &[]
    ),
    row!(
        PackedVector2Array,
        "PackedVector2Array",
        Some("PoolVector2Array"),
        Some(24),
        Some(35),
        0,
        S::Packed(E::Reals(2)),
        XY
    ),
    row!(
        PackedVector3Array,
        "PackedVector3Array",
        Some("PoolVector3Array"),
        Some(25),
        Some(36),
        0,
        S::Packed(E::Reals(3)),
        XYZ
    ),
    row!(
        PackedColorArray,
        "PackedColorArray",
        Some("PoolColorArray"),
        Some(26),
        Some(37),
        0,
        S::Packed(E::Color),
        RGBA
    ),
    row!(
        PackedVector4Array,
        "PackedVector4Array",
        None,
        None,
        Some(38),
        3,
        S::Packed(E::Reals(4)),
        XYZW
    ),
];

impl VariantType {
    /// This type's row in [`TYPES`].
    pub fn info(self) -> &'static TypeInfo {
        // TYPES is in enum order; a test checks it.
        &TYPES[self as usize]
    }

    /// Godot 4's name for the type.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The payload layout.
    pub fn shape(self) -> Shape {
        self.info().shape
    }

    /// Looks a type up by its Godot 4 name, or by its Godot 3 name.
    pub fn from_name(name: &str) -> Option<VariantType> {
        // Godot 3's enum spells float `REAL` (`TYPE_REAL`), though its type name is "float".
        if name == "Real" {
            return Some(VariantType::Float);
        }
        TYPES
            .iter()
            .find(|t| t.name == name || t.name3 == Some(name))
            .map(|t| t.ty)
    }
}

impl fmt::Display for VariantType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Element {
    /// Bytes per element, given the width of real_t.
    pub fn size(self, double_reals: bool) -> usize {
        let real = if double_reals { 8 } else { 4 };
        match self {
            Element::U8 => 1,
            Element::I32 | Element::F32 => 4,
            Element::I64 | Element::F64 => 8,
            Element::Reals(n) => n * real,
            Element::Color => 16,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn godot3_names_are_accepted() {
        assert_eq!(VariantType::from_name("Real"), Some(VariantType::Float));
        assert_eq!(
            VariantType::from_name("Quat"),
            Some(VariantType::Quaternion)
        );
        assert_eq!(
            VariantType::from_name("Transform"),
            Some(VariantType::Transform3D)
        );
        assert_eq!(
            VariantType::from_name("PoolIntArray"),
            Some(VariantType::PackedInt32Array)
        );
    }

    #[test]
    fn table_is_in_enum_order() {
        for (i, t) in TYPES.iter().enumerate() {
            assert_eq!(t.ty as usize, i, "{} is out of place", t.name);
        }
    }

    #[test]
    fn ids_are_unique_and_dense() {
        let mut ids3: Vec<u32> = TYPES.iter().filter_map(|t| t.id3).collect();
        ids3.sort();
        assert_eq!(ids3, (0..27).collect::<Vec<_>>());
        let ids4: Vec<u32> = TYPES.iter().filter_map(|t| t.id4).collect();
        assert_eq!(ids4, (0..39).collect::<Vec<_>>());
    }

    #[test]
    fn fixed_shapes_name_every_field() {
        for t in &TYPES {
            match t.shape {
                Shape::Reals(n) | Shape::Ints(n) => assert_eq!(t.fields.len(), n, "{}", t.name),
                Shape::Color => assert_eq!(t.fields.len(), 4),
                _ => {}
            }
        }
    }
}
