//! The corrected documentation pages (`docs/spec/`): the binary serialization page in the
//! documentation's own reStructuredText, one for 4.x and one for 3.x, generated from the profile
//! tables (`gdmarshal::types`) and the behaviour the engines showed (the corpus, the framing
//! corpus and its `axes` record); and `changes.md`, the list of changes a docs maintainer can
//! review line by line. `gdmarshal report` writes them; `lab/tests/spec_page.rs` checks every id,
//! size and component order in them against the profiles and the engines' vectors.

pub mod layout;
pub mod rst;

use std::fmt::Write as _;

use super::claims::CLAIMS;
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
    md.push_str("integer); bits 16 and up are flags::\n\n");
    md.push_str("    base_type = val & 0xFF;\n    flags = val >> 16;\n\n");
    md.push_str("Flag bit 16 is ``ENCODE_FLAG_64`` for integers, floats");
    if p.major() == 4 {
        md.push_str(", math types and packed vector arrays");
    }
    md.push_str(", and\n``ENCODE_FLAG_OBJECT_AS_ID`` for objects.");
    if p.major() == 4 {
        md.push_str(" Arrays (since 4.3) use bits 16-17 and dictionaries (since 4.4)\nbits 16-19 for their element types.");
    }
    md.push_str(" Other flag bits are ignored.\n\n");
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
    md.push_str("Following this is the actual packet contents, which varies for each type of packet. Note that\n");
    md.push_str("this assumes Godot is compiled with single-precision floats, which is the default. If Godot was\n");
    md.push_str("compiled with double-precision floats, the length of \"Float\" fields within data structures\n");
    md.push_str("should be 8, and the offset should be ``(offset - 4) * 2 + 4``. The ``float`` type itself is\n");
    md.push_str(
        "written with 4 bytes when its value is exact in single precision, and with 8 bytes and\n",
    );
    md.push_str("``ENCODE_FLAG_64`` otherwise.\n\n");
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

fn framing_section(md: &mut String, p: Profile, framing: &[(String, Vec<FramingRecord>)]) {
    md.push_str(&heading("Files and packets: store_var and put_var", '-'));
    let (file, peer) = if p.major() == 3 {
        ("``File.store_var``", "``StreamPeer.put_var``")
    } else {
        ("``FileAccess.store_var``", "``StreamPeer.put_var``")
    };
    writeln!(
        md,
        "{file}, {peer} and ``PacketPeer.put_var`` write a 4-byte little-endian length of the\n\
         encoded value, then the value as above (padding included). ``get_var`` reads the length,\n\
         then decodes the value from that many bytes:\n"
    )
    .ok();
    let example = framing
        .iter()
        .rev()
        .find(|(v, _)| v.starts_with(&p.to_string()))
        .and_then(|(_, rs)| {
            rs.iter()
                .find(|r| r.name == "write/file/int_7")
                .and_then(|r| r.output.clone())
        });
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
    md.push_str(&grid(&["Offset", "Len", "Type", "Description"], &rows));
    if let Some(e) = example {
        writeln!(md, "For example ``store_var(7)`` writes ``{e}``.\n").ok();
    }
    md.push_str("- A length shorter than the value makes the read fail; the reader has moved past the length and\n  that many bytes.\n");
    md.push_str("- A length longer than the value, with the bytes present, reads the value and skips the rest.\n");
    if p.major() == 3 {
        md.push_str("- A length past the end of the file: 3.2 reads the bytes there are and decodes them; 3.6 refuses.\n");
    } else {
        md.push_str("- A length past the end of the file is refused.\n");
    }
    md.push_str("- ``StreamPeer.get_var`` refuses a length past the end of the data; ``PacketPeer.get_var`` reads a\n  packet only once all of it has arrived.\n");
    let (to, from) = if p.major() == 3 {
        ("var2bytes", "bytes2var")
    } else {
        ("var_to_bytes", "bytes_to_var")
    };
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

/// `changes.md`: every change of the generated pages against the published ones, one per line.
pub fn changes() -> String {
    let mut md = String::from("# Changes to the binary serialization page\n\n");
    md.push_str("Generated by `gdmarshal report` with `binary_serialization_api.4x.rst` and\n");
    md.push_str(
        "`binary_serialization_api.3x.rst`. Each line is one change against the published pages\n",
    );
    md.push_str("(4.x English; 3.x old English, French and Ukrainian); the engines' answers that justify it are in\n");
    md.push_str("`docs/report.md` (the section named on the line).\n\n");
    md.push_str("## Corrections (docs/report.md §3: confirmed by the engines)\n\n");
    for (i, c) in CLAIMS.iter().enumerate() {
        writeln!(
            md,
            "{}. [{}] was: {} — now: {}. (§3 row {})",
            i + 1,
            c.pages,
            c.says,
            c.instead,
            i + 1
        )
        .ok();
    }
    let n = CLAIMS.len();
    md.push_str("\n## Further corrections\n\n");
    let more = [
        "[4.x en] Basis and Transform3D: the wire lists the basis row by row (x.x, y.x, z.x, x.y, …); the page's offsets 8-36 name the transpose. (§7)",
        "[4.x en] The type table: every id from 6 on is re-numbered to the 4.x ids (Rect2 7, Vector3 9, …, PackedColorArray 37). (§8)",
    ];
    for (i, m) in more.iter().enumerate() {
        writeln!(md, "{}. {m}", n + i + 1).ok();
    }
    let n = n + more.len();
    md.push_str("\n## Additions\n\n");
    let added = [
        "[4.x] Sections for Vector2i, Rect2i, Vector3i, Vector4, Vector4i, Projection, StringName, Callable, Signal and PackedVector4Array. (§8)",
        "[4.x] Typed Array (4.3+) and typed Dictionary (4.4+) container type data. (§3 rows 14, 17)",
        "[4.x, 3.x] Files and packets: the 4-byte length store_var and put_var write, and what a wrong length does. (§6)",
        "[4.x, 3.x] What the decoders accept: one line per rule, with the engines that follow it. (§9)",
        "[4.x, 3.x] Object ids: decoding gives an EncodedObjectAsID holding the id. (§1)",
        "[3.x] Object as an instance id (flag bit 16 and a 64-bit id) and the 64-bit int form. (§3 rows 9, 10)",
    ];
    for (i, m) in added.iter().enumerate() {
        writeln!(md, "{}. {m}", n + i + 1).ok();
    }
    md
}

/// Every generated file: (path relative to the docs folder, text).
pub fn files(
    corpora: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
) -> Vec<(String, String)> {
    // Each page describes the newest engine of its major that the versions table verifies.
    let p4 = crate::versions::newest_verified(4).expect("the versions table has a 4.x engine");
    let p3 = crate::versions::newest_verified(3).expect("the versions table has a 3.x engine");
    vec![
        (PAGE_4X.to_string(), page(p4, corpora, framing)),
        (PAGE_3X.to_string(), page(p3, corpora, framing)),
        (CHANGES.to_string(), changes()),
    ]
}
