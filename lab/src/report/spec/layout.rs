//! Each type's payload as the page's tables show it: rows of offset, length, kind and meaning,
//! built from the type's shape in the profile tables and, for the matrix types, the component
//! order the engines showed (docs/report.md §7).

use gdmarshal::profile::Profile;
use gdmarshal::types::{Element, Shape, TypeInfo, VariantType};

/// One table row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Byte offset from the start of the header (a number, or a formula for repeated parts).
    pub offset: String,
    /// Length in bytes (a number, or `X` for variable).
    pub len: String,
    /// `Integer`, `Float`, `Bytes`, …
    pub kind: &'static str,
    /// What the bytes hold.
    pub what: String,
}

/// One part of a type's section: an optional sub-heading, text, a table, text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// A sub-heading (e.g. "If ENCODE_FLAG_64 is set").
    pub title: Option<String>,
    /// Text before the table.
    pub before: String,
    /// The table's rows (none: no table).
    pub rows: Vec<Row>,
    /// Text after the table.
    pub after: String,
}

fn row(offset: usize, len: usize, kind: &'static str, what: impl Into<String>) -> Row {
    Row {
        offset: offset.to_string(),
        len: len.to_string(),
        kind,
        what: what.into(),
    }
}

fn var(offset: &str, len: &str, kind: &'static str, what: impl Into<String>) -> Row {
    Row {
        offset: offset.into(),
        len: len.into(),
        kind,
        what: what.into(),
    }
}

const AXES: [&str; 4] = ["X", "Y", "Z", "W"];

/// What component `i` of a fixed-size math type is, in the wire order the engines write.
pub fn component(ty: VariantType, i: usize) -> String {
    let col = |axis: &str, c: usize, a: usize| {
        format!(
            "The {} component of the {axis} vector, accessed via [{a}][{c}]",
            AXES[c]
        )
    };
    match ty {
        // Row by row: element i is component i / 3 of axis (column) i % 3 (report §7).
        VariantType::Basis => col(&format!("{} column", AXES[i % 3]), i / 3, i % 3),
        VariantType::Transform3D if i < 9 => col(&format!("{} column", AXES[i % 3]), i / 3, i % 3),
        VariantType::Transform3D => col("origin", i - 9, 3),
        // Column by column: x axis, y axis, origin (report §7).
        VariantType::Transform2D if i < 4 => col(&format!("{} column", AXES[i / 2]), i % 2, i / 2),
        VariantType::Transform2D => col("origin", i % 2, 2),
        VariantType::Projection => col(&format!("{} column", AXES[i / 4]), i % 4, i / 4),
        VariantType::Rect2 | VariantType::Rect2i => {
            ["X coordinate", "Y coordinate", "X size", "Y size"][i].into()
        }
        VariantType::Aabb => [
            "X coordinate",
            "Y coordinate",
            "Z coordinate",
            "X size",
            "Y size",
            "Z size",
        ][i]
            .into(),
        VariantType::Plane => ["Normal X", "Normal Y", "Normal Z", "Distance"][i].into(),
        VariantType::Quaternion => {
            ["Imaginary X", "Imaginary Y", "Imaginary Z", "Real W"][i].into()
        }
        VariantType::Color => ["Red", "Green", "Blue", "Alpha"][i].into(),
        _ => format!("{} coordinate", AXES[i]),
    }
}

fn fixed(t: &TypeInfo, n: usize, kind: &'static str) -> Vec<Row> {
    (0..n)
        .map(|i| row(4 + 4 * i, 4, kind, component(t.ty, i)))
        .collect()
}

fn string_rows(offset: usize, what: &str) -> Vec<Row> {
    vec![
        row(offset, 4, "Integer", format!("{what} length (in bytes)")),
        var(
            &(offset + 4).to_string(),
            "X",
            "Bytes",
            format!("{what} (UTF-8), padded to 4 bytes"),
        ),
    ]
}

fn element(e: Element) -> (usize, &'static str, Vec<&'static str>) {
    match e {
        Element::U8 => (1, "Byte", vec!["Byte (0..255)"]),
        Element::I32 => (4, "Integer", vec!["32-bit signed integer"]),
        Element::I64 => (8, "Integer", vec!["64-bit signed integer"]),
        Element::F32 => (4, "Float", vec!["32-bit IEEE 754 single-precision float"]),
        Element::F64 => (8, "Float", vec!["64-bit IEEE 754 double-precision float"]),
        Element::Reals(n) => (
            4,
            "Float",
            AXES[..n]
                .iter()
                .map(|a| match *a {
                    "X" => "X coordinate",
                    "Y" => "Y coordinate",
                    "Z" => "Z coordinate",
                    _ => "W coordinate",
                })
                .collect(),
        ),
        Element::Color => (4, "Float", vec!["Red", "Green", "Blue", "Alpha"]),
    }
}

/// What the engines write and read for a class or script element type (4.6.3: corpus
/// `encode/typed/class_array`, `encode/typed/script_array`, `decode/noncanonical/typed_class_name`;
/// an empty class name: tests/differential/codec-differs/4.6-09790fb95d3f9035.json).
const CLASS_NAMES: &str = "Without ``full_objects`` the encoder writes a class or a script type as kind 2 with the class name ``EncodedObjectAsID``, and a decoder that does not allow objects reads any class name or script as ``EncodedObjectAsID``; with ``full_objects`` a class is written as its name and a script as its resource path. An empty class name is the built-in type Object: kind 1 and type id 24.";

/// The parts of a type's section on the page of profile `p`.
pub fn rows_of(t: &TypeInfo, p: Profile) -> Vec<Part> {
    let four = p.major() == 4;
    let part = |rows: Vec<Row>| Part {
        rows,
        ..Part::default()
    };
    match t.shape {
        Shape::Empty => vec![Part { before: "Nothing follows the header.".into(), ..Part::default() }],
        Shape::Bool => vec![Part {
            rows: vec![row(4, 4, "Integer", "0 for False, any other value for True (written as 1)")],
            ..Part::default()
        }],
        Shape::Int => vec![
            Part {
                before: "If no flags are set, the integer is sent as a 32-bit integer (the engines do so when it fits):".into(),
                rows: vec![row(4, 4, "Integer", "32-bit signed integer")],
                ..Part::default()
            },
            Part {
                before: "If flag ``ENCODE_FLAG_64`` is set (``flags & 1 == 1``), the integer is sent as a 64-bit integer:".into(),
                rows: vec![row(4, 8, "Integer", "64-bit signed integer")],
                ..Part::default()
            },
        ],
        Shape::Float => vec![
            Part {
                before: "If no flags are set, the float is sent as a 32-bit single precision (the engines do so when the value is exact in it):".into(),
                rows: vec![row(4, 4, "Float", "IEEE 754 single-precision float")],
                ..Part::default()
            },
            Part {
                before: "If flag ``ENCODE_FLAG_64`` is set (``flags & 1 == 1``), the float is sent as a 64-bit double precision number (NaN payloads are kept bit for bit):".into(),
                rows: vec![row(4, 8, "Float", "IEEE 754 double-precision float")],
                ..Part::default()
            },
        ],
        Shape::String => vec![Part {
            rows: string_rows(4, "String"),
            after: "A NUL byte ends the string early; a leading UTF-8 BOM is dropped; the padding's content is ignored.".into(),
            ..Part::default()
        }],
        Shape::Reals(n) => {
            let mut parts = vec![part(fixed(t, n, "Float"))];
            if four {
                parts[0].after = "With ``ENCODE_FLAG_64`` each component is a 64-bit float (8 bytes); single-precision engines write 4 bytes.".into();
            }
            parts
        }
        Shape::Ints(n) => vec![part(fixed(t, n, "Integer"))],
        Shape::Color => vec![Part {
            rows: fixed(t, 4, "Float"),
            after: "Colors are always single precision.".into(),
            ..Part::default()
        }],
        Shape::NodePath => vec![Part {
            rows: vec![
                row(4, 4, "Integer", "Name count with bit 31 set (``val & 0x7FFFFFFF``); bit 31 clear (the old format) is rejected"),
                row(8, 4, "Integer", "Sub-name count"),
                row(12, 4, "Integer", "Flags (absolute: ``val & 1 != 0``)"),
            ],
            after: if four {
                "Then, for each name and sub-name, its length (4 bytes) and its UTF-8 bytes, padded to 4 bytes.".into()
            } else {
                "Then, for each name and sub-name, its length (4 bytes) and its UTF-8 bytes, padded to 4 bytes.\n\n.. warning::\n\n   3.x encoders leave the padding bytes after a name or sub-name uninitialised: two encodings of\n   one NodePath can differ there. A decoder must ignore them; do not compare encoded NodePaths\n   byte for byte.".into()
            },
            ..Part::default()
        }],
        Shape::Rid if four => vec![part(vec![row(4, 8, "Integer", "The RID's id (64-bit)")])],
        Shape::Rid => vec![Part { before: "Nothing follows the header: the id is not written.".into(), ..Part::default() }],
        Shape::Object => object_parts(),
        Shape::Callable => vec![Part { before: "Nothing follows the header (an empty Callable is read).".into(), ..Part::default() }],
        Shape::Signal => vec![Part {
            rows: vec![
                row(4, 4, "Integer", "Signal name (String length)"),
                var("8", "X", "Bytes", "Signal name (UTF-8), padded to 4 bytes"),
                var("X+8", "8", "Integer", "The Object's instance ID (64-bit)"),
            ],
            ..Part::default()
        }],
        Shape::Dictionary => {
            let mut parts = vec![Part {
                rows: vec![row(4, 4, "Integer", "val&0x7FFFFFFF = elements (bit 31 is ignored)")],
                after: "Then what follows is, for amount of \"elements\", pairs of key and value, one after the other, using this same format.".into(),
                ..Part::default()
            }];
            if four {
                parts.push(Part {
                    title: Some("Typed dictionaries (4.4+)".into()),
                    before: format!("Header bits 16-17 give the key type's kind and bits 18-19 the value type's (0 none, 1 built-in type: a 4-byte type id, 2 class name: a String, 3 script: a String path); the key's then the value's type data come before the count. {CLASS_NAMES}"),
                    ..Part::default()
                });
            }
            parts
        }
        Shape::Array => {
            let mut parts = vec![Part {
                rows: vec![row(4, 4, "Integer", "val&0x7FFFFFFF = elements (bit 31 is ignored)")],
                after: "Then what follows is, for amount of \"elements\", values one after the other, using this same format.".into(),
                ..Part::default()
            }];
            if four {
                parts.push(Part {
                    title: Some("Typed arrays (4.3+)".into()),
                    before: format!("Header bits 16-17 give the element type's kind (0 none, 1 built-in type: a 4-byte type id, 2 class name: a String, 3 script: a String path); its type data comes before the count. Elements are converted to the type as they are read. {CLASS_NAMES}"),
                    ..Part::default()
                });
            }
            parts
        }
        Shape::PackedStrings => vec![Part {
            rows: vec![row(4, 4, "Integer", "Array length (Strings)")],
            after: "For each string: its length including a NUL terminator (4 bytes), its UTF-8 bytes and the NUL, padded to 4 bytes. A string without the NUL is read too.".into(),
            ..Part::default()
        }],
        Shape::Packed(e) => packed_parts(e, four),
    }
}

/// An Object's parts: null, as an instance id, and in full.
fn object_parts() -> Vec<Part> {
    vec![
        Part {
            title: Some("A null value".into()),
            before: "A null Object is written as a bare Nil header (type 0), with nothing after it.".into(),
            ..Part::default()
        },
        Part {
            title: Some("``full_objects`` disabled".into()),
            before: "The header has ``ENCODE_FLAG_OBJECT_AS_ID`` (bit 16) set:".into(),
            rows: vec![row(4, 8, "Integer", "The Object instance ID (64-bit)")],
            ..Part::default()
        },
        Part {
            title: Some("``full_objects`` enabled".into()),
            rows: vec![
                row(4, 4, "Integer", "Class name (String length)"),
                var("8", "X", "Bytes", "Class name (UTF-8 encoded string), padded to 4 bytes"),
                var("X+8", "4", "Integer", "The number of properties that are serialized"),
            ],
            after: "Then, for each property: its name (String length, UTF-8 bytes, padded) and its value in this same format. Only properties with ``PROPERTY_USAGE_STORAGE`` are written.".into(),
            ..Part::default()
        },
    ]
}

/// A packed array's parts: the count, then each element's components at their strides.
fn packed_parts(e: Element, four: bool) -> Vec<Part> {
    let (size, kind, parts_of) = element(e);
    let stride = size * parts_of.len();
    let mut rows = vec![row(4, 4, "Integer", "Array length (elements)")];
    for (k, what) in parts_of.iter().enumerate() {
        rows.push(var(
            &format!("8+{}+i*{stride}", k * size),
            &size.to_string(),
            kind,
            *what,
        ));
    }
    let mut after = String::new();
    if e == Element::U8 {
        after = "The array data is padded to 4 bytes; at the end of the input the padding may be missing.".into();
    } else if four && matches!(e, Element::Reals(_)) {
        after = "With ``ENCODE_FLAG_64`` each component is a 64-bit float (8 bytes).".into();
    }
    vec![Part {
        rows,
        after,
        ..Part::default()
    }]
}
