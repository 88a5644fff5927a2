//! The page's opening sections: what the format is for, how objects are written, and the parts
//! every value shares (byte order, the header, the type ids, the header flags, real width).

use std::fmt::Write as _;

use gdmarshal::profile::Profile;
use gdmarshal::types::{Shape, TYPES};

use super::page_name;
use super::rst::{grid, heading};

/// The script functions of a major version: (encode, decode, decode with objects allowed).
fn functions(p: Profile) -> (&'static str, &'static str, &'static str) {
    if p.major() == 4 {
        (
            "var_to_bytes()",
            "bytes_to_var()",
            "``bytes_to_var_with_objects()``",
        )
    } else {
        ("var2bytes()", "bytes2var()", "``bytes2var(bytes, true)``")
    }
}

/// What the format is, where Godot uses it, and what the page covers.
pub(crate) fn introduction(p: Profile, md: &mut String) {
    let (to, from, _) = functions(p);
    let file = if p.major() == 4 { "FileAccess" } else { "File" };
    writeln!(
        md,
        "Any Variant can be turned into bytes and back: in scripts ``{to}`` writes them and\n\
         ``{from}`` reads them. The same bytes are what ``{file}.store_var()`` puts in a file and\n\
         ``get_var()`` reads back, and what ``put_var()`` sends through a ``StreamPeer`` or a\n\
         ``PacketPeer``; `Files and packets`_ below says what each of those adds around the value.\n\
         Binary scenes and resources (``.scn``, ``.res``) are stored in a different format, which this page\n\
         does not describe.\n"
    )
    .ok();
    if p.major() == 4 {
        md.push_str(
            "The page describes the format byte by byte, for programs that read or write it without the\n\
             engine. It covers Godot 4: where a 4.x release reads or writes something differently, the\n\
             release is named. Godot 3 numbers most types differently; its format has a page of its own.\n\n",
        );
    } else {
        md.push_str(
            "The page describes the format byte by byte, for programs that read or write it without the\n\
             engine. It covers Godot 3 (3.2 to 3.6): where releases differ, the release is named. Godot 4\n\
             numbers most types differently; its format has a page of its own.\n\n",
        );
    }
}

/// Instance ids against full objects.
pub fn objects(p: Profile, md: &mut String) {
    let (to, _, with_objects) = functions(p);
    md.push_str(&heading("Objects: an id or the whole object", '-'));
    let full = if p.major() == 4 {
        "``var_to_bytes_with_objects()``, or ``full_objects`` set to true in ``store_var()`` and ``put_var()``"
    } else {
        "``var2bytes(value, true)``, or ``full_objects`` set to true in ``store_var()`` and ``put_var()``"
    };
    writeln!(
        md,
        "By default an Object inside a value is written as its instance id alone, as ``{to}`` does.\n\
         Asked for full objects ({full}),\n\
         the encoder writes the object's class and stored properties instead, and does the same for\n\
         every object it meets inside them.\n"
    )
    .ok();
    writeln!(
        md,
        "Reading an id back gives an ``EncodedObjectAsID`` holding the number, not the object. Reading a\n\
         full object back creates an instance of its class and sets its properties, which can run code\n\
         (a ``script`` property attaches a script); readers therefore refuse full objects unless the\n\
         caller allows them with {with_objects}, or ``allow_objects`` set to true in ``get_var()``.\n"
    )
    .ok();
}

/// The parts every value shares.
pub fn encoding(p: Profile, md: &mut String) {
    md.push_str(&heading("Layout of a value", '-'));
    md.push_str(
        "Every number is little-endian (the only exception is the length that ``store_var`` and\n\
         ``put_var`` put before a value on a file or stream peer set to big-endian; see `Files and\n\
         packets`_). A value starts with a 4-byte header that says its type; the payload after it\n\
         depends on the type and is described below, with offsets counted from the first byte of the\n\
         header. A value always takes a multiple of 4 bytes: text and byte arrays are followed by padding\n\
         up to the next multiple of 4, zero bytes except after NodePath names (see there). The elements of a container are\n\
         complete values, each with its own header. Lengths and counts are written as u32, but readers\n\
         take them as signed: one of 2^31 or more is refused unless the type's section says otherwise.\n\n",
    );
    md.push_str(&heading("The header", '^'));
    let rows = vec![
        vec!["0-7".into(), "The type id (table below).".into()],
        vec![
            "8-15".into(),
            "Not used. Encoders write zeros; readers ignore these bits, so ``0x0102`` is an int.".into(),
        ],
        vec![
            "16-31".into(),
            "Flags, whose meaning depends on the type (`Header flags`_). Bits a type does not use are ignored.".into(),
        ],
    ];
    md.push_str(&grid(&["Bits", "Meaning"], &rows));
    md.push_str(
        ".. code-block:: c\n\n    uint32_t type_id = header & 0xFF;\n    uint32_t flags = header >> 16;\n\n",
    );
    type_ids(p, md);
    flags(p, md);
    reals(p, md);
    md.push_str(&heading("Nesting", '^'));
    if p.major() == 4 {
        md.push_str(
            "The outermost value is at depth 0, and an element of an array, a key or value of a dictionary\n\
             and a property value of a full object are one deeper than their container. A value deeper than\n\
             1024 is refused by the encoder and by the reader alike: an empty array at depth 1024 is read, an\n\
             int at depth 1025 is not.\n\n",
        );
    } else {
        md.push_str(
            "Godot 3.6 counts depth as 4.x does (the outermost value at 0, each element, key, value or\n\
             property value one deeper than its container) and refuses a value deeper than 1024, when\n\
             encoding and when reading. Godot 3.2 has no limit: its reader follows the\n\
             nesting until the stack runs out, which crashes the engine. Releases in between gained the\n\
             limit in steps: the encoder's in 3.4, the reader's in 3.3.5, 3.4.3 and 3.5.\n\n",
        );
    }
}

/// A short account of a type's payload, for the type id table.
fn payload_summary(shape: Shape, four: bool) -> String {
    match shape {
        Shape::Empty => "none".into(),
        Shape::Bool => "u32".into(),
        Shape::Int => "i32, or i64 with bit 16".into(),
        Shape::Float => "f32, or f64 with bit 16".into(),
        Shape::String => "length and UTF-8 bytes".into(),
        Shape::Reals(n) => format!("{n} reals"),
        Shape::Ints(n) => format!("{n} × i32"),
        Shape::Color => "4 × f32".into(),
        Shape::NodePath => "counts, flags, names".into(),
        Shape::Rid if four => "u64 id".into(),
        Shape::Rid => "none".into(),
        Shape::Object => "id, or class and properties".into(),
        Shape::Callable => "none".into(),
        Shape::Signal => "name and object id".into(),
        Shape::Dictionary => "count, then keys and values".into(),
        Shape::Array => "count, then elements".into(),
        Shape::Packed(_) | Shape::PackedStrings => "count, then elements".into(),
    }
}

fn type_ids(p: Profile, md: &mut String) {
    md.push_str(&heading("Type ids", '^'));
    let four = p.major() == 4;
    let mut rows: Vec<(u32, Vec<String>)> = TYPES
        .iter()
        .filter_map(|t| {
            let id = p.id_of(t.ty)?;
            let mut r = vec![
                id.to_string(),
                format!("0x{id:02x}"),
                page_name(t, p.major()).to_string(),
                payload_summary(t.shape, four),
            ];
            if four {
                r.push(format!("4.{}", t.since4));
            }
            Some((id, r))
        })
        .collect();
    rows.sort_by_key(|(id, _)| *id);
    let rows: Vec<Vec<String>> = rows.into_iter().map(|(_, r)| r).collect();
    let header: &[&str] = if four {
        &["Id", "Hex", "Type", "Payload", "Since"]
    } else {
        &["Id", "Hex", "Type", "Payload"]
    };
    md.push_str(&grid(header, &rows));
    let end = TYPES.iter().filter(|t| p.id_of(t.ty).is_some()).count();
    if four {
        writeln!(
            md,
            "A reader refuses a type id of {end} or more. Releases before 4.3 end the table at 38 and refuse\n\
             id 38 (PackedVector4Array).\n"
        )
        .ok();
    } else {
        writeln!(md, "A reader refuses a type id of {end} or more.\n").ok();
    }
}

fn flags(p: Profile, md: &mut String) {
    md.push_str(&heading("Header flags", '^'));
    let row = |types: &str, bits: &str, what: &str| vec![types.into(), bits.into(), what.into()];
    let mut rows: Vec<Vec<String>> = vec![
        row(
            "int, float",
            "16",
            "The payload is 8 bytes (i64, f64) instead of 4.",
        ),
        row(
            "Object",
            "16",
            "The payload is an instance id, not a full object.",
        ),
    ];
    if p.major() == 4 {
        rows.insert(
            1,
            row(
                "Math types with real components, packed vector arrays",
                "16",
                "Every real component is an f64 (`Real components`_ lists the types).",
            ),
        );
        rows.push(row(
            "Array (4.3 and later)",
            "16-17",
            "The kind of the element type (`28: Array`_).",
        ));
        rows.push(row(
            "Dictionary (4.4 and later)",
            "16-17, 18-19",
            "The kinds of the key type and of the value type (`27: Dictionary`_).",
        ));
    }
    md.push_str(&grid(&["Types", "Bits", "When set"], &rows));
    if p.major() == 4 {
        md.push_str(
            "Godot's source names bit 16 ``HEADER_DATA_FLAG_64`` and, for objects,\n\
             ``HEADER_DATA_FLAG_OBJECT_AS_ID``; releases before 4.3 call them ``ENCODE_FLAG_64`` and\n\
             ``ENCODE_FLAG_OBJECT_AS_ID``. Every other bit from 16 to 31 is ignored by the readers.\n\n",
        );
    } else {
        md.push_str(
            "Godot's source names bit 16 ``ENCODE_FLAG_64`` and, for objects, ``ENCODE_FLAG_OBJECT_AS_ID``.\n\
             Every other bit from 16 to 31 is ignored by the readers, bit 16 on the math types included.\n\n",
        );
    }
}

/// The width of real components: single-precision builds, double-precision builds.
fn reals(p: Profile, md: &mut String) {
    md.push_str(&heading("Real components", '^'));
    if p.major() == 4 {
        md.push_str(
            "The tables below give real components (``real_t``) as f32, which is what the engines\n\
             released by the Godot project write: they are built with single-precision reals. A build with\n\
             ``precision=double`` sets header bit 16 on Vector2, Rect2, Vector3, Transform2D, Vector4, Plane,\n\
             Quaternion, AABB, Basis, Transform3D, Projection and the PackedVector2Array, PackedVector3Array\n\
             and PackedVector4Array, and writes each real component as an f64. In a fixed-size type, the\n\
             component at offset ``o`` then sits at ``4 + 2 * (o - 4)``; a packed array keeps its 4-byte count\n\
             and each element doubles in size. Readers go by the flag, not by their own build. Before 4.2 a\n\
             double build wrote Vector4 and Projection with f64 components but without the flag (it was\n\
             added by Godot pull request 83202), so readers took them for f32 components.\n\
             Color and PackedColorArray stay f32, without the flag, in every build.\n\n",
        );
    } else {
        md.push_str(
            "The tables below give real components as f32. 3.x readers read the math types with 4-byte\n\
             components whatever the header's flags say. Builds with double-precision reals are left out\n\
             on purpose: their encoder writes the matrix of Transform2D, Basis and Transform (not the\n\
             origin of a Transform) with half of each 8-byte component, and PoolRealArray elements 8 bytes\n\
             apart, which their own reader does not read back, so those bytes are not a format two programs\n\
             can share.\n\n",
        );
    }
}
