//! The corrected documentation pages (`docs/spec/`): the binary serialization page in the
//! documentation's own reStructuredText, one for 4.x and one for 3.x, generated from the profile
//! tables (`gdmarshal::types`) and the behaviour the engines showed (the corpus, the framing
//! corpus and its `axes` record); and `changes.md`, the list of changes a docs maintainer can
//! review line by line. `gdmarshal report` writes them; `lab/tests/spec_page.rs` checks every id,
//! size and component order in them against the profiles and the engines' vectors.

pub mod changes;
pub mod layout;
pub mod rst;

use std::fmt::Write as _;

use super::EngineClaims;
use super::reference::RULES;
use crate::corpus::EngineCorpus;
use crate::framing::FramingRecord;
use gdmarshal::profile::Profile;
use gdmarshal::types::{TYPES, TypeInfo};

use layout::{Row, rows_of};
use rst::{grid, heading};

/// The page files, relative to the docs folder.
pub const PAGE_4X: &str = "spec/binary_serialization_api.4x.rst";
/// The 3.x page.
pub const PAGE_3X: &str = "spec/binary_serialization_api.3x.rst";
/// The review list.
pub const CHANGES: &str = "spec/changes.md";

/// The type's name on a page of this major version.
pub fn page_name(t: &TypeInfo, major: u32) -> &'static str {
    if major == 3 {
        t.name3.unwrap_or(t.name)
    } else {
        t.name
    }
}

/// The section heading of a type: `ID: :ref:`Name<class_Name>``.
pub fn type_heading(id: u32, name: &str) -> String {
    format!("{id}: :ref:`{name}<class_{name}>`")
}

fn table(rows: &[Row]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.offset.clone(),
                r.len.clone(),
                r.kind.to_string(),
                r.what.clone(),
            ]
        })
        .collect();
    grid(&["Offset", "Len", "Type", "Description"], &cells)
}

fn header_section(p: Profile, md: &mut String) {
    md.push_str(&heading("Packet specification", '-'));
    md.push_str("The packet is designed to be always padded to 4 bytes. All values are little-endian-encoded.\n");
    md.push_str("All packets have a 4-byte header representing an integer, specifying the type of data. The\n");
    md.push_str("lowest byte is the type; the decoders ignore bits 8 to 15 (a header ``0x0102`` reads as an\n");
    md.push_str("integer); bits 16 and up are flags (below)::\n\n");
    md.push_str("    base_type = val & 0xFF;\n    flags = val >> 16;\n\n");
    let rows: Vec<Vec<String>> = TYPES
        .iter()
        .filter_map(|t| {
            let id = p.id_of(t.ty)?;
            Some(vec![id.to_string(), page_name(t, p.major()).to_string()])
        })
        .collect();
    let mut rows = rows;
    rows.sort_by_key(|r| r[0].parse::<u32>().unwrap_or(0));
    md.push_str(&grid(&["Type", "Value"], &rows));
    // The current upstream page has a "Header Flags" section here (report §3).
    md.push_str(&heading("Header flags", '^'));
    md.push_str("Flag bit 16 is ``ENCODE_FLAG_64`` for integers, floats");
    if p.major() == 4 {
        md.push_str(", math types and packed vector arrays");
    }
    md.push_str(", and\n``ENCODE_FLAG_OBJECT_AS_ID`` for objects.");
    if p.major() == 4 {
        md.push_str(" Arrays (since 4.3) use bits 16-17 and dictionaries (since 4.4)\nbits 16-19 for their element types.");
    }
    md.push_str(" Other flag bits are ignored.\n\n");
    md.push_str(
        "Following this is the actual packet contents, which varies for each type of packet.\n\n",
    );
    double_paragraph(p, md);
}

/// What builds with double-precision reals write (docs/report.md §11, docs/format-notes.md).
fn double_paragraph(p: Profile, md: &mut String) {
    if p.major() == 4 {
        md.push_str("The tables show a build with single-precision reals, the default. A build with double-precision\n");
        md.push_str("reals (``precision=double``) sets ``ENCODE_FLAG_64`` in the header of Vector2, Rect2, Vector3,\n");
        md.push_str("Transform2D, Vector4, Plane, Quaternion, AABB, Basis, Transform3D, Projection, PackedVector2Array,\n");
        md.push_str("PackedVector3Array and PackedVector4Array, and writes each of their real components with 8 bytes:\n");
        md.push_str("a component at offset ``o`` of a fixed-size type is at ``(o - 4) * 2 + 4``; a packed array keeps its\n");
        md.push_str("4-byte count and each element is twice as long. The decoders follow the flag, not the build, so\n");
        md.push_str("every engine reads both forms. Color and PackedColorArray are always written with 4-byte floats\n");
        md.push_str("and without the flag, in every build.\n\n");
    } else {
        md.push_str("The tables show a build with single-precision reals, the default. The decoders read the math\n");
        md.push_str(
            "types with 4-byte components only, whatever the header's flag bits say. Builds with\n",
        );
        md.push_str("double-precision reals are not described here: their encoder writes Transform2D, Basis and\n");
        md.push_str("Transform with only half of each 8-byte component and PoolRealArray with 8-byte strides its\n");
        md.push_str(
            "decoder does not read, so their bytes are not a format another build reads back.\n\n",
        );
    }
    md.push_str("The ``float`` type does not depend on the build: it is written with 4 bytes when its value is exact\n");
    md.push_str("in single precision, and with 8 bytes and ``ENCODE_FLAG_64`` otherwise.\n\n");
}

fn type_section(t: &TypeInfo, p: Profile, md: &mut String) {
    let Some(id) = p.id_of(t.ty) else { return };
    md.push_str(&heading(&type_heading(id, page_name(t, p.major())), '^'));
    for part in rows_of(t, p) {
        if let Some(title) = &part.title {
            md.push_str(&heading(title, '"'));
        }
        if !part.before.is_empty() {
            writeln!(md, "{}\n", part.before).ok();
        }
        if !part.rows.is_empty() {
            md.push_str(&table(&part.rows));
        }
        if !part.after.is_empty() {
            writeln!(md, "{}\n", part.after).ok();
        }
    }
}

/// One transport the framing section states: the engine API, whether a 4-byte length comes
/// before the value, and the framing corpus's name for it (`via`), when it is recorded.
pub struct Transport {
    /// The API on a 4.x page.
    pub api4: &'static str,
    /// The API on a 3.x page.
    pub api3: &'static str,
    /// Whether the bytes start with the 4-byte length.
    pub length: bool,
    /// The framing corpus's `via` for it.
    pub via: Option<&'static str>,
}

/// The transports of the framing section, in page order.
pub const TRANSPORTS: &[Transport] = &[
    Transport {
        api4: "``FileAccess.store_var``",
        api3: "``File.store_var``",
        length: true,
        via: Some("file"),
    },
    Transport {
        api4: "``StreamPeer.put_var`` on a ``StreamPeerBuffer``",
        api3: "``StreamPeer.put_var`` on a ``StreamPeerBuffer``",
        length: true,
        via: Some("stream"),
    },
    Transport {
        api4: "``PacketPeerStream.put_var`` over a ``StreamPeerBuffer``",
        api3: "``PacketPeerStream.put_var`` over a ``StreamPeerBuffer``",
        length: true,
        via: Some("packet"),
    },
    Transport {
        api4: "``PacketPeerStream.put_var`` over a ``StreamPeerTCP``",
        api3: "``PacketPeerStream.put_var`` over a ``StreamPeerTCP``",
        length: true,
        via: Some("tcp"),
    },
    Transport {
        api4: "``PacketPeerUDP.put_var``",
        api3: "``PacketPeerUDP.put_var``",
        length: false,
        via: Some("udp"),
    },
];

/// The bytes an engine of this page's version recorded for `put_var(7)` through `via`.
pub fn recorded_seven<'a>(
    framing: &'a [(String, Vec<FramingRecord>)],
    p: Profile,
    via: &str,
) -> Option<&'a str> {
    let name = format!("write/{via}/int_7");
    framing
        .iter()
        .rev()
        .find(|(v, _)| v.starts_with(&format!("{p}.")))
        .and_then(|(_, rs)| rs.iter().find(|r| r.name == name))
        .and_then(|r| r.output.as_deref())
}

fn framing_section(md: &mut String, p: Profile, framing: &[(String, Vec<FramingRecord>)]) {
    md.push_str(&heading("Files and packets: store_var and put_var", '-'));
    md.push_str("Files and stream peers write a 4-byte little-endian length of the encoded value, then the value\n");
    md.push_str("as above (padding included); ``get_var`` reads the length, then decodes the value from that many\n");
    md.push_str("bytes. A packet peer's ``put_var`` hands the encoded value to ``put_packet`` as one packet: only\n");
    md.push_str("``PacketPeerStream``, which carries packets over a stream, writes the length before each packet;\n");
    let (to, from) = if p.major() == 3 {
        ("var2bytes", "bytes2var")
    } else {
        ("var_to_bytes", "bytes_to_var")
    };
    writeln!(
        md,
        "the packets of other packet peers (``PacketPeerUDP``, ENet, WebSocket) are the bare value, as\n\
         ``{to}`` writes it, with no length. What each transport puts on the wire for ``7``:\n"
    )
    .ok();
    for t in TRANSPORTS {
        let api = if p.major() == 3 { t.api3 } else { t.api4 };
        let what = if t.length {
            "the length, then the value"
        } else {
            "the value alone, no length"
        };
        let seen = t
            .via
            .and_then(|v| recorded_seven(framing, p, v))
            .map(|b| format!(": ``{b}``"))
            .unwrap_or_default();
        writeln!(md, "- {api}: {what}{seen}").ok();
    }
    md.push('\n');
    let rows = vec![
        vec![
            "0".into(),
            "4".into(),
            "Integer".into(),
            "Length of the encoded value in bytes".into(),
        ],
        vec![
            "4".into(),
            "X".into(),
            "Bytes".into(),
            "The value, as above".into(),
        ],
    ];
    md.push_str("The bytes of a file, a stream peer or a ``PacketPeerStream``:\n\n");
    md.push_str(&grid(&["Offset", "Len", "Type", "Description"], &rows));
    md.push_str("- A length shorter than the value makes the read fail; the reader has moved past the length and\n  that many bytes.\n");
    md.push_str("- A length longer than the value, with the bytes present, reads the value and skips the rest.\n");
    if p.major() == 3 {
        md.push_str("- A length past the end of the file: 3.2 reads the bytes there are and decodes them; 3.6 refuses.\n");
    } else {
        md.push_str("- A length past the end of the file is refused.\n");
    }
    md.push_str("- ``StreamPeer.get_var`` refuses a length past the end of the data; ``PacketPeerStream.get_var``\n  reads a packet only once all of it has arrived.\n");
    writeln!(
        md,
        "- ``full_objects`` / ``allow_objects`` are passed to the encoder and decoder as for\n  ``{to}`` / ``{from}``.\n"
    )
    .ok();
}

fn tolerance_section(
    md: &mut String,
    corpora: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
    p: Profile,
) {
    md.push_str(&heading("What the decoders accept", '-'));
    md.push_str("Beyond the layouts above, a decoder that reads what Godot reads must:\n\n");
    for rule in RULES {
        // The pages describe the default, single-precision builds (the report's §11 the others).
        let followed = corpora
            .iter()
            .filter(|c| c.profile.major() == p.major() && !c.profile.double_reals)
            .filter_map(|c| {
                c.records
                    .iter()
                    .find(|r| r.name == rule.case)
                    .map(|r| (c, r))
            })
            .filter(|(_, r)| (rule.holds)(r))
            .map(|(c, _)| {
                c.entry
                    .version
                    .split('.')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(".")
            })
            .collect::<Vec<_>>();
        if followed.is_empty() {
            continue;
        }
        writeln!(md, "- {} ({}).", rule.says, followed.join(", ")).ok();
    }
    // Read through get_var (corpus/framing/): the same decoder as bytes_to_var.
    let dropped: Vec<String> = framing
        .iter()
        .filter(|(v, _)| v.starts_with(&format!("{}.", p.major())))
        .filter(|(_, rs)| {
            rs.iter().any(|r| {
                r.name == "read/file/nodepath_empty_absolute"
                    && r.tree.as_ref().and_then(|t| t.get("absolute"))
                        == Some(&serde_json::Value::Bool(false))
            })
        })
        .map(|(v, _)| v.split('.').take(2).collect::<Vec<_>>().join("."))
        .collect();
    if !dropped.is_empty() {
        writeln!(
            md,
            "- drop the absolute flag of a NodePath with no names and no sub-names ({}).",
            dropped.join(", ")
        )
        .ok();
    }
    md.push('\n');
}

/// The corrected page for one profile.
pub fn page(
    p: Profile,
    corpora: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
) -> String {
    let mut md = String::new();
    writeln!(
        md,
        ".. Generated by `gdmarshal report` from the gdmarshal profile tables and the answers of real\n   \
         Godot {} engines; corrections against the published page are listed in changes.md.\n",
        p.major()
    )
    .ok();
    md.push_str(".. _doc_binary_serialization_api:\n\n");
    md.push_str(&heading("Binary serialization API", '='));
    md.push_str(&heading("Introduction", '-'));
    let (to, from) = if p.major() == 3 {
        ("var2bytes", "bytes2var")
    } else {
        ("var_to_bytes", "bytes_to_var")
    };
    writeln!(
        md,
        "Godot has a serialization API based on Variant. It's used for converting data types to an array\n\
         of bytes efficiently. This API is exposed via the global ``{from}()`` and ``{to}()`` functions,\n\
         but it is also used in the ``get_var`` and ``store_var`` methods of files as well as the packet\n\
         APIs for ``PacketPeer`` (see \"Files and packets\" below). This format is *not* used for binary\n\
         scenes and resources.\n"
    )
    .ok();
    md.push_str(&heading("Full Objects vs Object instance IDs", '-'));
    md.push_str("If a variable is serialized with ``full_objects = true``, then any Objects contained in the\n");
    md.push_str("variable will be serialized and included in the result. This is recursive.\n\n");
    md.push_str("If ``full_objects = false``, then only the instance IDs will be serialized for any Objects\n");
    md.push_str("contained in the variable. Decoding one gives an ``EncodedObjectAsID`` holding the id.\n\n");
    header_section(p, &mut md);
    let mut types: Vec<&TypeInfo> = TYPES.iter().filter(|t| p.id_of(t.ty).is_some()).collect();
    types.sort_by_key(|t| p.id_of(t.ty));
    for t in types {
        type_section(t, p, &mut md);
    }
    framing_section(&mut md, p, framing);
    tolerance_section(&mut md, corpora, framing, p);
    md
}

/// Every generated file: (path relative to the docs folder, text).
pub fn files(
    corpora: &[EngineCorpus],
    double: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
    claims: &[EngineClaims],
) -> Vec<(String, String)> {
    // Each page describes the newest engine of its major that the versions table verifies.
    let p4 = crate::versions::newest_verified(4).expect("the versions table has a 4.x engine");
    let p3 = crate::versions::newest_verified(3).expect("the versions table has a 3.x engine");
    vec![
        (PAGE_4X.to_string(), page(p4, corpora, framing)),
        (PAGE_3X.to_string(), page(p3, corpora, framing)),
        (
            CHANGES.to_string(),
            changes::changes(corpora, double, framing, claims),
        ),
    ]
}
