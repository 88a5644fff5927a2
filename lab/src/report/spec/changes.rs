//! `changes.md`: every change of the generated pages against the published ones, one per line,
//! each with its evidence: the §3 claim's vector and an engine's answer, or a recorded case (the
//! corpus, the double build's corpus, the framing corpus, a saved reproducer).

use std::fmt::Write as _;

use super::super::EngineClaims;
use super::super::claims::{BASE_3X, CLAIMS, CURRENT, Claim, Probe};
use crate::corpus::EngineCorpus;
use crate::framing_corpus::FramingRecord;
use crate::model::{Direction, Record};
use gdmarshal::hex::hex;

/// An upstream page a generated page replaces.
pub struct Base {
    /// The major version the page is about.
    pub major: u32,
    /// The page's label in docs/report.md §3 (the claims name the pages they come from).
    pub label: &'static str,
    /// The file in godot-docs.
    pub path: &'static str,
    /// The godot-docs commit.
    pub commit: &'static str,
}

/// The bases: the newest revision of each page readable here.
pub const BASES: [Base; 2] = [
    Base {
        major: 4,
        label: "4.x en (current)",
        path: "tutorials/io/binary_serialization_api.rst",
        commit: CURRENT,
    },
    Base {
        major: 3,
        label: "3.x en (48faee9)",
        path: "tutorials/misc/binary_serialization_api.rst",
        commit: BASE_3X,
    },
];

/// Where a change's evidence is recorded.
#[derive(Clone, Copy, Debug)]
pub enum Evidence {
    /// A case of the corpus of the newest engine whose version starts with the prefix.
    Case(&'static str, &'static str),
    /// A case of a double-precision build's corpus.
    Double(&'static str, &'static str),
    /// A framing corpus case (`write/VIA/NAME`).
    Framing(&'static str, &'static str),
    /// A saved reproducer: its path and its vector, as the file holds them.
    Reproducer(&'static str, &'static str),
    /// Godot's source: where (a file or a pull request) and what it says there, for what no
    /// engine here can show (releases other than the ones installed).
    Source(&'static str, &'static str),
}

/// One change beyond the §3 claims: the page it concerns, what changed, its evidence.
pub struct Change {
    /// The major version of the page.
    pub major: u32,
    /// What the base says and what the generated page says instead, or what it adds.
    pub text: &'static str,
    /// The recorded cases that show it.
    pub evidence: &'static [Evidence],
}

const fn change(major: u32, text: &'static str, evidence: &'static [Evidence]) -> Change {
    Change {
        major,
        text,
        evidence,
    }
}

/// Corrections beyond the §3 claims (report section in parentheses).
pub const CHANGES: &[Change] = &[
    change(
        4,
        "Basis and Transform3D: the base names the components `x.x, x.y, x.z, y.x, …` in wire order; with GDScript's `basis.x` (a column) the wire holds `x.x, y.x, z.x, x.y, …`, row by row. (§7)",
        &[Evidence::Case("4.6", "encode/Basis/counting")],
    ),
    change(
        4,
        "Double-precision builds: the base gives 8-byte \"Float\" fields and the offset formula only; the page adds that the header carries bit 16, which types have it, that Color and PackedColorArray stay 4-byte floats, and that before 4.2 Vector4 and Projection were written without the flag. (§11)",
        &[
            Evidence::Double("4.6", "encode/Vector2/counting"),
            Evidence::Double("4.6", "encode/Color/rgba"),
            Evidence::Source(
                "godotengine/godot pull request 83202 (4.2)",
                "adds Vector4 and Projection to the types encode_variant flags as 64-bit in double builds",
            ),
        ],
    ),
    change(
        4,
        "Header flags: the base uses the names `ENCODE_FLAG_64` and `ENCODE_FLAG_OBJECT_AS_ID`; the source calls them `HEADER_DATA_FLAG_64` and `HEADER_DATA_FLAG_OBJECT_AS_ID` from 4.3 on, and the page gives both.",
        &[Evidence::Source(
            "godotengine/godot core/io/marshalls.cpp (4.3 and later)",
            "#define HEADER_DATA_FLAG_64 (1 << 16)",
        )],
    ),
    change(
        4,
        "Color and PackedColorArray: \"typically 0..1, can be above 1 for overbright colors\" and \"Alpha (0..1)\" are dropped: a component is any 32-bit float, infinities included. (§1)",
        &[Evidence::Case("4.6", "encode/Color/all_inf")],
    ),
    change(
        3,
        "Array and Dictionary: the count's bit 31 was \"shared (bool)\"; it is ignored (an engine reads the count without it and writes it back clear). (§9)",
        &[Evidence::Case(
            "3.6",
            "decode/noncanonical/array_shared_bit",
        )],
    ),
    change(
        3,
        "NodePath: the subname count and the flags were given at offsets 4 and 8, where the name count is; they are at 8 and 12. (§1)",
        &[Evidence::Case("3.6", "encode/NodePath/subnames")],
    ),
    change(
        3,
        "Double-precision builds: the base gives 8-byte \"Float\" fields and the offset formula; 3.x readers read the math types with 4-byte components whatever the flags say, and 3.x double builds are left out (their encoder writes no layout its reader reads back; docs/format-notes.md). (§11)",
        &[Evidence::Reproducer(
            "tests/differential/codec-differs/3.6-2a292fb550934579.json",
            "decode `0500090000000000803f000002001b00000000c01c000200` → Vector2 of two 4-byte floats, 12 B",
        )],
    ),
    change(
        3,
        "PoolRealArray: the elements' Type column said \"Integer\"; they are 32-bit floats. (§1)",
        &[Evidence::Case("3.6", "encode/PackedFloat32Array/len1")],
    ),
    change(
        3,
        "Color and PoolColorArray: \"(0..1)\" is dropped: a component is any 32-bit float, infinities included. (§1)",
        &[Evidence::Case("3.6", "encode/Color/all_inf")],
    ),
    change(
        3,
        "The type table: the row \"27 max\" (the end of the table, not a type) is removed; the page says that a reader refuses an id of 27 or more. (§1)",
        &[Evidence::Case("3.6", "decode/unknown_type/27")],
    ),
];

/// Additions: what the bases do not have.
pub const ADDED: &[Change] = &[
    change(
        4,
        "Typed containers: which kind a class type is written with: a class type (GDScript's `Array[Object]` included) is kind 2, named `EncodedObjectAsID` without full objects; kind 1 with id 24 appears only for the built-in Object with an empty class name. (§3)",
        &[
            Evidence::Case("4.6", "encode/typed/object_class_array"),
            Evidence::Case("4.6", "encode/typed/object_class_array_full"),
            Evidence::Case("4.6", "encode/typed/builtin_object_array"),
        ],
    ),
    change(
        4,
        "Files and packets, per transport: files, stream peers and PacketPeerStream write a 4-byte length before the value, a PacketPeerUDP (ENet, WebSocket) packet is the bare value; and what a wrong length does. (§6)",
        &[
            Evidence::Framing("4.6", "write/file/int_7"),
            Evidence::Framing("4.6", "write/tcp/int_7"),
            Evidence::Framing("4.6", "write/udp/int_7"),
        ],
    ),
    change(
        3,
        "Files and packets, per transport, as on the 4.x page. (§6)",
        &[
            Evidence::Framing("3.6", "write/packet/int_7"),
            Evidence::Framing("3.6", "write/udp/int_7"),
        ],
    ),
    change(
        4,
        "Reading rules: what the readers accept beyond the layouts and what they refuse before reading, each decided from the engines' answers. (§9)",
        &[Evidence::Case("4.6", "decode/trailing/garbage")],
    ),
    change(
        3,
        "Reading rules, naming 3.2 or 3.6 where only one follows a rule. (§9)",
        &[Evidence::Case("3.6", "decode/trailing/garbage")],
    ),
    change(
        4,
        "int and float: which form the encoder picks (an int outside the 32-bit range, a float not equal to itself as a 32-bit float: NaN takes 12 bytes, infinities and -0.0 take 8). (§1)",
        &[
            Evidence::Case("4.6", "encode/int/2147483648"),
            Evidence::Case("4.6", "encode/float/nan"),
            Evidence::Case("4.6", "encode/float/neg_zero"),
        ],
    ),
    change(
        3,
        "int and float: both forms, the header flag, and which form the encoder picks, as on the 4.x page. (§3)",
        &[
            Evidence::Case("3.6", "encode/int/2147483648"),
            Evidence::Case("3.6", "encode/float/nan"),
        ],
    ),
    change(
        4,
        "String: a leading UTF-8 BOM is dropped, the padding's content is ignored, and bytes that are not UTF-8 make the read fail. (§9)",
        &[
            Evidence::Case("4.6", "decode/string_bytes/bom_then_text"),
            Evidence::Case("4.6", "decode/noncanonical/string_nonzero_padding"),
            Evidence::Case("4.6", "decode/string_bytes/lone_continuation"),
        ],
    ),
    change(
        3,
        "String: a leading UTF-8 BOM is dropped, the padding's content is ignored, and which bytes that are not UTF-8 make the read fail. (§9)",
        &[
            Evidence::Case("3.6", "decode/string_bytes/bom_then_text"),
            Evidence::Case("3.6", "decode/string_bytes/bad_lead_ff"),
        ],
    ),
    change(
        4,
        "PackedStringArray and PackedByteArray: a string without its terminating zero is read too; at the end of the input a byte array's padding may be missing. (§9)",
        &[
            Evidence::Case("4.6", "decode/noncanonical/string_array_without_nul"),
            Evidence::Case("4.6", "decode/noncanonical/byte_array_missing_padding"),
        ],
    ),
    change(
        3,
        "PoolStringArray and PoolByteArray: the same two tolerances as on the 4.x page. (§9)",
        &[
            Evidence::Case("3.6", "decode/noncanonical/string_array_without_nul"),
            Evidence::Case("3.6", "decode/noncanonical/byte_array_missing_padding"),
        ],
    ),
    change(
        4,
        "Dictionary: entries are written in insertion order, and a key written twice keeps its last value. (§9)",
        &[
            Evidence::Case("4.6", "encode/Dictionary/mixed"),
            Evidence::Case("4.6", "decode/noncanonical/dictionary_duplicate_keys"),
        ],
    ),
    change(
        3,
        "Dictionary: insertion order and duplicate keys, as on the 4.x page. (§9)",
        &[
            Evidence::Case("3.6", "encode/Dictionary/mixed"),
            Evidence::Case("3.6", "decode/noncanonical/dictionary_duplicate_keys"),
        ],
    ),
    change(
        4,
        "Nesting: how depth is counted (the outermost value at 0), and a value deeper than 1024 refused when encoding and when reading. (§9)",
        &[
            Evidence::Case("4.6", "decode/depth/arrays_1025"),
            Evidence::Case("4.6", "decode/valid/Array/depth_1024"),
            Evidence::Source(
                "godotengine/godot core/io/marshalls.cpp, encode_variant",
                "ERR_FAIL_COND_V_MSG(p_depth > Variant::MAX_RECURSION_DEPTH, ERR_OUT_OF_MEMORY, \"Potential infinite recursion detected. Bailing.\")",
            ),
        ],
    ),
    change(
        3,
        "Nesting: 3.6 refuses more than 1024 levels when encoding and when reading; 3.2 has no limit. (§9)",
        &[
            Evidence::Case("3.6", "encode/depth/int_at_1025"),
            Evidence::Case("3.6", "decode/depth/arrays_1025"),
            Evidence::Case("3.2", "decode/depth/arrays_1025"),
        ],
    ),
    change(
        4,
        "NodePath: the readers add the counts (and flag bit 1) in 32 bits; encoders before 4.6.3 leave the padding after each name uninitialised. (§4, §9)",
        &[
            Evidence::Case("4.6", "decode/noncanonical/nodepath_count_wraps_to_zero"),
            Evidence::Source(
                "godotengine/godot pull request 116105 (4.6.3)",
                "zeroes the padding after NodePath names in encode_variant",
            ),
        ],
    ),
    change(
        3,
        "NodePath: flag bit 1 adds a subname, and a warning that 3.x encoders leave the padding after each name uninitialised, so two encodings of one path differ. (§4)",
        &[
            Evidence::Case("3.6", "decode/noncanonical/nodepath_property_flag"),
            Evidence::Reproducer(
                "findings/engine-nondeterministic/3.2-6fa9ca6147bbf68c.json",
                "decode `0f00000001000080000000000200000001000000610000000100000062000000` → re-encoded bytes differ between runs",
            ),
        ],
    ),
    change(
        4,
        "Type ids: PackedVector4Array (38) exists from 4.3, and earlier releases refuse id 38; typed arrays date from 4.3 and typed dictionaries from 4.4. (§8)",
        &[
            Evidence::Case("4.6", "encode/PackedVector4Array/len1"),
            Evidence::Source(
                "godotengine/godot core/io/marshalls.cpp, decode_variant (4.0 to 4.2)",
                "ERR_FAIL_COND_V((type & ENCODE_MASK) >= Variant::VARIANT_MAX, ERR_INVALID_DATA); with VARIANT_MAX 38",
            ),
        ],
    ),
    change(
        4,
        "Objects: an id reads back as an EncodedObjectAsID; the script property is written as a path from 4.3 on (earlier releases write the script as an object). (§1)",
        &[
            Evidence::Case("4.6", "decode/valid/Object/id"),
            Evidence::Case("4.6", "decode/objects/full_script_path"),
        ],
    ),
    change(
        3,
        "Objects: an instance id (flag bit 16, a 64-bit id; 0 reads as null) or the whole object (class name and stored properties), and which argument chooses. (§3)",
        &[
            Evidence::Case("3.6", "decode/valid/Object/id"),
            Evidence::Case("3.6", "decode/noncanonical/object_id_zero"),
            Evidence::Case("3.6", "encode/objects/resource_stored_properties"),
        ],
    ),
    change(
        4,
        "Lengths and counts: readers take them as signed 32-bit numbers, so one of 2^31 or more is refused, except the Array and Dictionary counts (bit 31 ignored) and a PackedStringArray count (read as empty). (§9)",
        &[
            Evidence::Case("4.6", "decode/hostile_count/String/0x80000000"),
            Evidence::Case("4.6", "decode/hostile_count/PackedStringArray/0x80000000"),
        ],
    ),
    change(
        3,
        "Lengths and counts: read as signed 32-bit numbers, as on the 4.x page. (§9)",
        &[Evidence::Case(
            "3.6",
            "decode/hostile_count/String/0x80000000",
        )],
    ),
    change(
        4,
        "Full objects: the encoder fails for a class it cannot instantiate; a reader refuses such a class and reads an empty class name as null; from 4.3 the `script` property is Nil or a `res://` path that must name an existing script, else the read fails. (§1)",
        &[
            Evidence::Case("4.6", "decode/objects/full_script_user_path"),
            Evidence::Case("4.6", "decode/objects/script_property_not_a_path"),
            Evidence::Source(
                "godotengine/godot core/io/marshalls.cpp, encode_variant",
                "ERR_FAIL_COND_V(!ClassDB::can_instantiate(obj->get_class()), ERR_INVALID_PARAMETER);",
            ),
        ],
    ),
    change(
        3,
        "Null objects: 3.6 writes a null Object as Nil; by its source, the 3.2 encoder writes the Object header with id 0 (or, for full objects, an empty class name), and readers take each as null. The `script` property is written as an object like any other property. (§1)",
        &[
            Evidence::Case("3.2", "decode/noncanonical/object_id_zero"),
            Evidence::Source(
                "godotengine/godot core/io/marshalls.cpp at 03e4640e (3.2), encode_variant",
                "ObjectID id = 0; if (obj && ObjectDB::instance_validate(obj)) { id = obj->get_instance_id(); } encode_uint64(id, buf);",
            ),
        ],
    ),
    change(
        4,
        "Typed containers: a built-in element type id outside the type table makes the read fail; id 0 reads as untyped, id 24 as the class `EncodedObjectAsID` without objects allowed; with objects allowed a script path must start with `res://` and load. (§9)",
        &[
            Evidence::Case("4.6", "decode/noncanonical/typed_bad_builtin"),
            Evidence::Case("4.6", "decode/noncanonical/typed_nil"),
            Evidence::Case("4.6", "decode/noncanonical/typed_builtin_object"),
            Evidence::Case("4.6", "decode/objects/typed_script_not_res_path"),
        ],
    ),
    change(
        4,
        "Objects: a freed object is written as Nil like a null one; a full object's property count of 2^31 or more reads as no properties. (§1)",
        &[Evidence::Source(
            "godotengine/godot core/io/marshalls.cpp, decode_variant",
            "int32_t count = decode_uint32(buf); ... for (int i = 0; i < count; i++)",
        )],
    ),
    change(
        3,
        "Objects: a full object's property count of 2^31 or more reads as no properties; the encoder has no check that the class can be instantiated. (§1)",
        &[Evidence::Source(
            "godotengine/godot core/io/marshalls.cpp at 1e8e8a07 (3.x), decode_variant",
            "int32_t count = decode_uint32(buf); ... for (int i = 0; i < count; i++)",
        )],
    ),
    change(
        4,
        "Files and packets: the length is big-endian on a file or stream peer set to big-endian (PacketPeerStream always writes it little-endian); a StreamPeerTCP waits for missing bytes; packet peers refuse values past `encode_buffer_max_size` and PacketPeerStream packets past its buffers. (§6)",
        &[
            Evidence::Source(
                "godotengine/godot core/io/stream_peer.cpp, put_32",
                "if (big_endian) { p_val = BSWAP32(p_val); }",
            ),
            Evidence::Source(
                "godotengine/godot core/io/packet_peer.cpp, put_var",
                "ERR_FAIL_COND_V_MSG(len > encode_buffer_max_size, ERR_OUT_OF_MEMORY, ...)",
            ),
        ],
    ),
    change(
        3,
        "Files and packets: the big-endian length, the waiting StreamPeerTCP and the packet size limits, as on the 4.x page. (§6)",
        &[Evidence::Source(
            "godotengine/godot core/io/stream_peer.cpp (3.x), put_32",
            "if (big_endian) { p_val = BSWAP32(p_val); }",
        )],
    ),
    change(
        4,
        "Typed containers when read: which elements an Array converts (strictly convertible ones from Godot pull request 114808 on, String/StringName and int to float before it) and drops, and which Dictionary keys convert or drop their entry. (§9)",
        &[
            Evidence::Case("4.6", "decode/typed_conversions/Vector2i_from_Vector2"),
            Evidence::Case("4.6", "decode/noncanonical/typed_int_holding_string"),
            Evidence::Case(
                "4.6",
                "decode/noncanonical/typed_dict_int_keys_holding_string",
            ),
            Evidence::Case(
                "4.6",
                "decode/noncanonical/typed_dict_color_key_from_empty_string",
            ),
        ],
    ),
    change(
        4,
        "String: the padding must be present even when the string ends the input (only a PackedByteArray may lack it). (§9)",
        &[Evidence::Case(
            "4.6",
            "decode/string_bytes/bom_then_text/unpadded",
        )],
    ),
    change(
        3,
        "String: the padding must be present even when the string ends the input (only a PoolByteArray may lack it). (§9)",
        &[Evidence::Case(
            "3.6",
            "decode/string_bytes/bom_then_text/unpadded",
        )],
    ),
    change(
        4,
        "Full objects: the properties' order (the class's, then `script`, then the script's variables and the metadata), which a reader depends on. (§1)",
        &[
            Evidence::Case("4.6", "decode/objects/scripted_name_before_script"),
            Evidence::Source(
                "godotengine/godot core/object/object.cpp, get_property_list",
                "the class's properties, then script, then the script instance's properties, then metadata/*",
            ),
        ],
    ),
    change(
        3,
        "Full objects: the properties' order (the class's, then `script`, then the script's variables and `__meta__`), which a reader depends on; 3.6 writes a freed object as Nil, 3.2 as id 0. (§1)",
        &[Evidence::Source(
            "godotengine/godot core/object.cpp (3.x), get_property_list",
            "the class's properties, then script, then the script instance's properties, then __meta__",
        )],
    ),
];

/// Changes of form, per page: what is not a fact of the format.
const EDITORIAL: &[(u32, &str)] = &[
    (
        4,
        "Every sentence and table cell is the project's own: no run of ten or more words is shared with an upstream text (lab/tests/spec_words.rs).",
    ),
    (
        4,
        "Layout tables have the columns Offset, Size, Encoding (`u32`, `i32`, `f32`, …) and Field, the field named as GDScript names it; the type id table gives the id in hex, the payload in short and the first 4.x release with the type.",
    ),
    (
        4,
        "Links to the class reference inside tables and notes are dropped; the section headings keep theirs.",
    ),
    (
        3,
        "Every sentence and table cell is the project's own, as on the 4.x page.",
    ),
    (
        3,
        "Layout tables as on the 4.x page; the matrix components are named `x.y` rather than `[0][1]`.",
    ),
    (
        3,
        "The 4.x type names the earlier 3.x pages used (PackedByteArray, PackedStringArray) are the 3.x ones (PoolByteArray, PoolStringArray).",
    ),
];

fn clip(s: &str) -> String {
    if s.chars().count() <= 80 {
        return s.to_string();
    }
    format!("{}…", s.chars().take(80).collect::<String>())
}

fn record_text(r: &Record, version: &str) -> String {
    let verdict = format!("{:?}", r.verdict).to_lowercase();
    match r.direction {
        Direction::Encode => format!(
            "`{}` on {version}: encode `{}` → `{}`",
            r.name,
            clip(&r.value.as_ref().map(|v| v.to_string()).unwrap_or_default()),
            clip(r.output.as_deref().unwrap_or(""))
        ),
        Direction::Decode => format!(
            "`{}` on {version}: decode `{}` → {verdict} `{}`",
            r.name,
            clip(r.input.as_deref().unwrap_or("")),
            clip(&r.tree.as_ref().map(|t| t.to_string()).unwrap_or_default())
        ),
    }
}

fn find<'a>(
    corpora: &'a [EngineCorpus],
    double: bool,
    prefix: &str,
    name: &str,
) -> Option<(&'a Record, &'a str)> {
    corpora
        .iter()
        .rev()
        .filter(|c| c.profile.double_reals() == double)
        .filter(|c| c.entry.version.starts_with(&format!("{prefix}.")))
        .find_map(|c| {
            c.records
                .iter()
                .find(|r| r.name == name)
                .map(|r| (r, c.entry.version.as_str()))
        })
}

/// The evidence's text, or `None` when nothing is recorded for it. Single-precision cases are
/// looked up in `corpora`, double-precision ones in `double` (either may hold both).
pub fn evidence_text(
    e: &Evidence,
    corpora: &[EngineCorpus],
    double: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
) -> Option<String> {
    match *e {
        Evidence::Case(v, name) => {
            find(corpora, false, v, name).map(|(r, ver)| record_text(r, ver))
        }
        Evidence::Double(v, name) => {
            find(double, true, v, name).map(|(r, ver)| record_text(r, &format!("{ver} (double)")))
        }
        Evidence::Framing(v, name) => framing
            .iter()
            .rev()
            .filter(|(ver, _)| ver.starts_with(&format!("{v}.")))
            .find_map(|(ver, rs)| {
                rs.iter().find(|r| r.name == name).map(|r| {
                    format!(
                        "`{name}` on {ver}: `{}`",
                        clip(r.output.as_deref().unwrap_or(""))
                    )
                })
            }),
        Evidence::Reproducer(path, vector) => Some(format!("`{path}`: {vector}")),
        Evidence::Source(at, what) => Some(format!("Godot's source, {at}: `{what}`")),
    }
}

/// A claim's vector and the answer of the newest engine of `major` that contradicts it.
pub(crate) fn claim_evidence(i: usize, claims: &[EngineClaims], major: u32) -> Option<String> {
    let (version, profile, a) = claims
        .iter()
        .rev()
        .filter(|(_, p, _)| p.major() == major)
        .flat_map(|(v, p, a)| a.iter().map(move |(k, a)| (v, p, k, a)))
        .filter(|(_, _, k, a)| **k == i && a.contradicts)
        .map(|(v, p, _, a)| (v, p, a))
        .next()?;
    let vector = match &a.probe {
        Probe::Decode(b) => format!("decode `{}`", hex(b)),
        Probe::Encode(v) => format!(
            "encode `{}`",
            gdmarshal::json::to_json(v, *profile, gdmarshal::float::FloatStyle::Shortest)
        ),
    };
    let r = &a.record;
    let mut answer = format!("{:?}", r.verdict).to_lowercase();
    if let Some(t) = &r.tree {
        write!(answer, " `{}`", clip(&t.to_string())).ok();
    }
    if let Some(c) = r.consumed {
        write!(answer, ", {c} B").ok();
    }
    if let Some(o) = &r.output
        && r.nondeterministic.is_empty()
    {
        write!(answer, " → `{}`", clip(o)).ok();
    }
    Some(format!("{vector} → {version}: {answer}"))
}

fn line(
    md: &mut String,
    n: usize,
    c: &Change,
    corpora: &[EngineCorpus],
    double: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
) {
    let ev: Vec<String> = c
        .evidence
        .iter()
        .filter_map(|e| evidence_text(e, corpora, double, framing))
        .collect();
    writeln!(md, "{n}. {} Evidence: {}.", c.text, ev.join("; ")).ok();
}

/// The §3 claims a base makes that the engines of its major version contradict: (row index,
/// claim, evidence).
pub(crate) fn base_claims<'a>(
    b: &'a Base,
    claims: &'a [EngineClaims],
) -> impl Iterator<Item = (usize, &'static Claim, String)> + 'a {
    CLAIMS
        .iter()
        .enumerate()
        .filter(|(_, c)| c.pages.split(", ").any(|p| p == b.label))
        .filter_map(|(i, c)| Some((i, c, claim_evidence(i, claims, b.major)?)))
}

/// The link to a base's file at its commit.
pub(crate) fn base_link(b: &Base) -> String {
    format!(
        "godot-docs `{}` at commit [{}](https://github.com/godotengine/godot-docs/blob/{}/{})",
        b.path,
        &b.commit[..7],
        b.commit,
        b.path
    )
}

/// `changes.md`.
pub fn changes(
    corpora: &[EngineCorpus],
    double: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
    claims: &[EngineClaims],
) -> String {
    let mut md = String::from("# Changes to the binary serialization pages\n\n");
    md.push_str(
        "Generated by `gdmarshal report`. `binary_serialization_api.4x.rst` and\n\
         `binary_serialization_api.3x.rst` are written to replace upstream's page; each has a base, the\n\
         newest revision of upstream's page readable here, and below is every difference in content\n\
         from its base, each with its evidence: a vector and an engine's answer, or, for releases no\n\
         engine here runs, the line of Godot's source. The section of `docs/report.md` named on a line\n\
         has every engine's answer.\n\n",
    );
    for b in &BASES {
        let page = if b.major == 4 {
            super::PAGE_4X
        } else {
            super::PAGE_3X
        };
        let page = page.trim_start_matches("spec/");
        writeln!(md, "## `{page}` against {}\n", base_link(b)).ok();
        writeln!(
            md,
            "### Corrections the engines confirm (docs/report.md §3, rows naming \"{}\")\n",
            b.label
        )
        .ok();
        let mut n = 0;
        for (i, c, ev) in base_claims(b, claims) {
            n += 1;
            writeln!(
                md,
                "{n}. was: {} — now: {}. (§3 row {}) Evidence: {ev}.",
                c.says,
                c.instead,
                i + 1
            )
            .ok();
        }
        md.push_str("\n### Other corrections\n\n");
        for c in CHANGES.iter().filter(|c| c.major == b.major) {
            n += 1;
            line(&mut md, n, c, corpora, double, framing);
        }
        md.push_str("\n### Additions\n\n");
        for c in ADDED.iter().filter(|c| c.major == b.major) {
            n += 1;
            line(&mut md, n, c, corpora, double, framing);
        }
        md.push_str("\n### Editorial\n\n");
        for (_, e) in EDITORIAL.iter().filter(|(m, _)| *m == b.major) {
            writeln!(md, "- {e}").ok();
        }
        md.push('\n');
    }
    md
}
