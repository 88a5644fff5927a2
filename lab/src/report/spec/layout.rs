//! Each type's payload as the page's tables show it: rows of offset, size, encoding and field,
//! built from the type's shape and field names in the profile tables (`gdmarshal::types`), so
//! that the page states the same layout the codec reads and writes.

use gdmarshal::profile::Profile;
use gdmarshal::types::{Element, Shape, TypeInfo};

/// One table row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Byte offset from the start of the header (a number, or a formula for repeated parts).
    pub offset: String,
    /// Size in bytes (a number, or `n` / `…` for variable).
    pub size: String,
    /// How the bytes are read: `i32`, `u32`, `i64`, `f32`, `f64`, `u8`, `bytes`.
    pub encoding: &'static str,
    /// The field the bytes hold.
    pub field: String,
}

/// One part of a type's section: an optional sub-heading, text, a table, text.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Part {
    /// A sub-heading.
    pub title: Option<String>,
    /// Text before the table.
    pub before: String,
    /// The table's rows (none: no table).
    pub rows: Vec<Row>,
    /// Text after the table.
    pub after: String,
}

fn row(offset: usize, size: usize, encoding: &'static str, field: impl Into<String>) -> Row {
    Row {
        offset: offset.to_string(),
        size: size.to_string(),
        encoding,
        field: field.into(),
    }
}

fn var(offset: &str, size: &str, encoding: &'static str, field: impl Into<String>) -> Row {
    Row {
        offset: offset.into(),
        size: size.into(),
        encoding,
        field: field.into(),
    }
}

/// The encoding word of a fixed-size component.
pub(crate) fn encoding_of(element: Element) -> (usize, &'static str) {
    match element {
        Element::U8 => (1, "u8"),
        Element::I32 => (4, "i32"),
        Element::I64 => (8, "i64"),
        Element::F64 => (8, "f64"),
        Element::F32 | Element::Reals(_) | Element::Color => (4, "f32"),
    }
}

/// The component names of a packed array's element, in wire order.
fn element_fields(e: Element) -> &'static [&'static str] {
    match e {
        Element::Reals(2) => &["x", "y"],
        Element::Reals(3) => &["x", "y", "z"],
        Element::Reals(_) => &["x", "y", "z", "w"],
        Element::Color => &["r", "g", "b", "a"],
        _ => &[""],
    }
}

fn fixed(t: &TypeInfo, encoding: &'static str) -> Vec<Row> {
    t.fields
        .iter()
        .enumerate()
        .map(|(i, f)| row(4 + 4 * i, 4, encoding, format!("``{f}``")))
        .collect()
}

/// A string's two rows (its length, then its bytes and padding), starting at `offset`.
pub(crate) fn string_rows(offset: &str, what: &str) -> Vec<Row> {
    let after = match offset.parse::<usize>() {
        Ok(o) => (o + 4).to_string(),
        Err(_) => format!("{offset}+4"),
    };
    vec![
        var(
            offset,
            "4",
            "u32",
            format!("{what}: n, its length in UTF-8 bytes"),
        ),
        var(
            &after,
            "n + pad",
            "bytes",
            format!(
                "{what}: n bytes of UTF-8, then 0 to 3 zero bytes so that n + pad is a multiple of 4"
            ),
        ),
    ]
}

/// How the engines write a class or script element type, and how they read it (4.6.3: corpus
/// `encode/typed/class_array`, `encode/typed/script_array`, `decode/noncanonical/typed_class_name`;
/// an empty class name: tests/differential/codec-differs/4.6-09790fb95d3f9035.json).
const CLASS_KINDS: &str = "Unless full objects are written, every class or script type goes on the wire as kind 2 with the class name ``EncodedObjectAsID``, and a reader that does not allow objects takes any class name or script path as ``EncodedObjectAsID``; with full objects, kind 2 carries the class name and kind 3 the script's resource path. GDScript's ``Array[Object]`` is typed with the class ``Object``, so it is written as kind 2 as well; kind 1 with type id 24 (Object) appears only for a container typed with the built-in Object type and an empty class name, such as ``Array([], TYPE_OBJECT, &\"\", null)`` makes.";

/// The container type data a typed Array or Dictionary carries, per kind.
const KINDS: &str = "A kind is a 2-bit number: 0, untyped (no type data); 1, a built-in type (type data: its type id as a u32, which a reader refuses unless it is a type id of the table above; id 0, Nil, reads as untyped, and id 24, Object, reads as the class ``EncodedObjectAsID`` unless objects are allowed); 2, a class (type data: the class name, as a String payload); 3, a script (type data: the script's resource path, as a String payload; with objects allowed, a reader fails unless the path starts with ``res://`` and names a script that loads, and the encoder fails for a script without such a path).";

/// The parts of a type's section on the page of profile `p`.
pub(crate) fn rows_of(t: &TypeInfo, p: Profile) -> Vec<Part> {
    let four = p.major() == 4;
    let table = |rows: Vec<Row>| Part {
        rows,
        ..Part::default()
    };
    match t.shape {
        Shape::Empty => vec![Part {
            before: "There is no payload: the value is its header, ``00000000``.".into(),
            ..Part::default()
        }],
        Shape::Bool => vec![Part {
            rows: vec![row(4, 4, "u32", "1 for true, 0 for false")],
            after: "A reader takes any non-zero word as true.".into(),
            ..Part::default()
        }],
        Shape::Int => vec![
            Part {
                before: "Header bit 16 clear:".into(),
                rows: vec![row(4, 4, "i32", "``value``")],
                ..Part::default()
            },
            Part {
                before: "Header bit 16 set:".into(),
                rows: vec![row(4, 8, "i64", "``value``")],
                after: "The encoder picks the short form whenever the value lies in the i32 range, so that 2147483647 takes 8 bytes and 2147483648 takes 12. A reader accepts either form for any value.".into(),
                ..Part::default()
            },
        ],
        Shape::Float => vec![
            Part {
                before: "Header bit 16 clear:".into(),
                rows: vec![row(4, 4, "f32", "``value``")],
                ..Part::default()
            },
            Part {
                before: "Header bit 16 set:".into(),
                rows: vec![row(4, 8, "f64", "``value``")],
                after: "The type is a 64-bit float in every build. The encoder picks the short form when converting the value to f32 and back gives a value equal to it, and the long form otherwise: 0.5 takes 8 bytes, 0.1 takes 12. NaN is never equal to itself, so a NaN always takes 12 bytes, while the infinities and -0.0 take 8. A reader keeps a long NaN's payload bits as they are.".into(),
                ..Part::default()
            },
        ],
        Shape::String => vec![Part {
            rows: string_rows("4", "text"),
            after: string_notes(four),
            ..Part::default()
        }],
        Shape::Reals(_) => vec![table(fixed(t, "f32"))],
        Shape::Ints(_) => vec![table(fixed(t, "i32"))],
        Shape::Color => vec![Part {
            rows: fixed(t, "f32"),
            after: if four {
                "Components are f32 in every build, and the header has no bit 16; a reader ignores it.".into()
            } else {
                "Components are f32 in every build.".into()
            },
            ..Part::default()
        }],
        Shape::NodePath => node_path_parts(four),
        Shape::Rid if four => vec![table(vec![row(4, 8, "u64", "the RID's id")])],
        Shape::Rid => vec![Part {
            before: "There is no payload: the RID's id is not written.".into(),
            ..Part::default()
        }],
        Shape::Object => object_parts(p),
        Shape::Callable => vec![Part {
            before: "There is no payload: a Callable is not written, only its header, and it reads back as an empty Callable.".into(),
            ..Part::default()
        }],
        Shape::Signal => vec![Part {
            rows: {
                let mut rows = string_rows("4", "signal name");
                rows.push(var("8+n+pad", "8", "u64", "instance id of the object that has the signal"));
                rows
            },
            ..Part::default()
        }],
        Shape::Dictionary => {
            let mut parts = vec![Part {
                rows: vec![row(4, 4, "u32", "count: the number of entries (bit 31 is ignored and written as 0)")],
                after: "Each entry follows as two complete values, key then value, in the order the entries were inserted; a reader keeps the last value of a key that occurs twice.".into(),
                ..Part::default()
            }];
            if four {
                parts.push(Part {
                    title: Some("Typed dictionaries (4.4 and later)".into()),
                    before: format!("Header bits 16-17 hold the kind of the key type and bits 18-19 the kind of the value type. The key type's data, then the value type's, come between the header and the count. A reader converts each key to the key type as it converts an array's elements (below): from Godot pull request 114808 on where Godot can convert it strictly (an empty String becomes a black Color), before it only between String and StringName and from int to float; an entry whose key does not convert is dropped. {KINDS} {CLASS_KINDS}"),
                    ..Part::default()
                });
            }
            parts
        }
        Shape::Array => {
            let mut parts = vec![Part {
                rows: vec![row(4, 4, "u32", "count: the number of elements (bit 31 is ignored and written as 0)")],
                after: "Each element follows as a complete value.".into(),
                ..Part::default()
            }];
            if four {
                parts.push(Part {
                    title: Some("Typed arrays (4.3 and later)".into()),
                    before: format!("Header bits 16-17 hold the kind of the element type, and the type's data comes between the header and the count. A reader converts each element to the type where Godot can convert it strictly (an int to a float, a String to a NodePath, a Vector2 to a Vector2i) and drops the others; releases before Godot pull request 114808 (early 2026) convert only between String and StringName and from int to float, and drop any other mismatch. {KINDS} {CLASS_KINDS}"),
                    ..Part::default()
                });
            }
            parts
        }
        Shape::PackedStrings => vec![Part {
            rows: vec![row(4, 4, "u32", "count: the number of strings")],
            after: "Each string follows as a u32 length, the UTF-8 bytes, one zero byte, and 0 to 3 zero bytes up to a multiple of 4; the length counts the terminating zero byte (\"abc\" has length 4). A reader also takes a string whose length does not count a terminating zero byte, and reads a count of 2^31 or more as an empty array.".into(),
            ..Part::default()
        }],
        Shape::Packed(e) => packed_parts(e, four),
    }
}

fn string_notes(four: bool) -> String {
    let utf8 = if four {
        "Bytes that are not valid UTF-8 (a lone continuation byte such as 0x80, an overlong form, an encoded surrogate) make the read fail."
    } else {
        "Some bytes that are not valid UTF-8 make the read fail (a lone continuation byte such as 0x80, the bytes 0xFE and 0xFF); others are read (see the reading rules below)."
    };
    format!(
        "The length counts no terminator. When reading, a zero byte inside the length ends the text there, a UTF-8 byte order mark at the start is dropped, and the padding bytes may hold anything but must be there, even when the string ends the input. {utf8}"
    )
}

fn node_path_parts(four: bool) -> Vec<Part> {
    let padding = if four {
        "The padding bytes after each name are written as zeros from 4.6.3 on; earlier 4.x encoders leave them as whatever the buffer held, so two encodings of one path can differ there."
    } else {
        "3.x encoders leave the padding after each name as whatever the buffer held: two encodings of one path can differ in those bytes, so compare NodePaths by value, not by their bytes."
    };
    vec![Part {
        rows: vec![
            row(
                4,
                4,
                "u32",
                "name count, with bit 31 set; a count without bit 31 (an older format) is refused",
            ),
            row(8, 4, "u32", "subname count"),
            row(
                12,
                4,
                "u32",
                "flags: bit 0, the path is absolute; bit 1, one subname more follows than the count says",
            ),
        ],
        after: format!(
            "The names, then the subnames, follow, each as a String payload (length, bytes, padding) without a header. The reader adds the two counts (and bit 1 of the flags) in 32 bits. {padding}"
        ),
        ..Part::default()
    }]
}

/// An Object's parts: null, as an instance id, and in full.
fn object_parts(p: Profile) -> Vec<Part> {
    // What the two majors' full objects differ in: the metadata property, the class check, the
    // script property, and the call that allows objects.
    let (metadata, instantiable, script, objects_fn) = if p.major() == 4 {
        (
            " and the metadata (``metadata/…``)",
            " (from 4.3 on, since Godot pull request 84611, the encoder also fails for an object whose class cannot be instantiated)",
            " From 4.3 on, the property ``script`` holds the path of the attached script (``res://…``) as a String (not a StringName), or Nil when there is none; the encoder fails for a script whose path is empty or does not start with ``res://`` (a script made at run time; a script built into a scene has a path such as ``res://level.tscn::1`` and is written with it), and the reader fails unless the value is Nil or the path of a script that exists, which it loads and attaches. Earlier releases write the script as an object like any other property value.",
            "``bytes_to_var_with_objects()``",
        )
    } else {
        (
            " and the metadata (``__meta__``)",
            "",
            " The property ``script`` gets no special treatment: an attached script is written as an object, like any other property value.",
            "``bytes2var(bytes, true)``",
        )
    };
    vec![
        Part {
            title: Some("Null".into()),
            before: if p.major() == 4 {
                "A null Object, or one that has been freed, is written as a Nil value, ``00000000``: no Object header and no payload.".into()
            } else {
                "Godot 3.6 writes a null Object, or one that has been freed, as a Nil value, ``00000000``. The encoder of Godot 3.2, by its source, writes the Object header instead: with header bit 16 and the id 0 (12 bytes; a freed object too), or, for full objects, a class name of length 0 (8 bytes). A reader takes the first two as null, and the third as null when objects are allowed (it refuses it otherwise, as any full object).".into()
            },
            ..Part::default()
        },
        Part {
            title: Some("An instance id (header bit 16 set)".into()),
            rows: vec![row(4, 8, "u64", "the object's instance id")],
            after: "This is what the encoder writes unless it is asked for full objects. A reader gives back an ``EncodedObjectAsID`` holding the id; an id of 0 reads as null.".into(),
            ..Part::default()
        },
        Part {
            title: Some("A full object (header bit 16 clear)".into()),
            rows: {
                let mut rows = string_rows("4", "class name");
                rows.push(var("8+n+pad", "4", "u32", "count: the number of properties"));
                rows
            },
            after: format!(
                "Each property follows as its name (a String payload without a header) and its value (a complete value). The encoder writes the properties whose usage includes ``PROPERTY_USAGE_STORAGE``, in the order of the object's property list: the class's own, then ``script``, then the script's variables{metadata}{instantiable}. A reader sets them in the order it reads them, so ``script`` must come before the variables of its script, or their values are lost.{script} A reader refuses a full object unless objects are allowed ({objects_fn}, or ``allow_objects`` set to true), refuses a class it cannot instantiate, and reads an empty class name as null. Unlike other counts, a property count of 2^31 or more is not refused: it reads as no properties."
            ),
            ..Part::default()
        },
    ]
}

/// A packed array's parts: the count, then each element's components at their strides.
fn packed_parts(e: Element, four: bool) -> Vec<Part> {
    let (size, encoding) = encoding_of(e);
    let fields = element_fields(e);
    let stride = size * fields.len();
    let mut rows = vec![row(4, 4, "u32", "count: the number of elements")];
    for (k, f) in fields.iter().enumerate() {
        let field = if f.is_empty() {
            "element i".to_string()
        } else {
            format!("element i, ``{f}``")
        };
        rows.push(var(
            &format!("8+{}+i*{stride}", k * size),
            &size.to_string(),
            encoding,
            field,
        ));
    }
    let after = match e {
        Element::U8 => "The bytes are followed by 0 to 3 zero bytes up to a multiple of 4. A reader also accepts an array at the very end of the input whose padding is missing.".to_string(),
        Element::Reals(_) if four => "With header bit 16 set, each component is an f64 and an element takes twice the bytes.".to_string(),
        _ => String::new(),
    };
    vec![Part {
        rows,
        after,
        ..Part::default()
    }]
}
