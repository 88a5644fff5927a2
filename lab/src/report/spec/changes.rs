//! `changes.md`: every change of the generated pages against the published ones, one per line,
//! each with its evidence: the §3 claim's vector and an engine's answer, or a recorded case (the
//! corpus, the double build's corpus, the framing corpus, a saved reproducer).

use std::fmt::Write as _;

use super::super::EngineClaims;
use super::super::claims::{CLAIMS, Probe};
use crate::corpus::{Direction, EngineCorpus, Record};
use crate::framing::FramingRecord;
use gdmarshal::json::hex;

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
}

/// One change beyond the §3 claims: the pages it concerns, what changed, its evidence.
pub struct Change {
    /// Which pages, as in §3 ("4.x en", "3.x", …).
    pub pages: &'static str,
    /// What the published page says and what the generated page says instead.
    pub text: &'static str,
    /// The recorded cases that show it.
    pub evidence: &'static [Evidence],
}

/// The changes beyond the §3 claims (report section in parentheses).
pub const CHANGES: &[Change] = &[
    Change {
        pages: "4.x en",
        text: "Basis and Transform3D: the wire lists the basis row by row (x.x, y.x, z.x, x.y, …); the page's offsets 8-36 name the transpose. (§7)",
        evidence: &[Evidence::Case("4.6", "encode/Basis/counting")],
    },
    Change {
        pages: "4.x en",
        text: "The type table: every id from 6 on is re-numbered to the 4.x ids (Rect2 7, Vector3 9, …, PackedByteArray 29, PackedColorArray 37); the row \"29 max\" (not a type) is removed. (§8)",
        evidence: &[Evidence::Case("4.6", "encode/PackedByteArray/len1")],
    },
    Change {
        pages: "4.x en",
        text: "PackedFloat32Array and PackedFloat64Array: the elements' Type column said \"Integer\"; it says \"Float\". (§1)",
        evidence: &[Evidence::Case("4.6", "encode/PackedFloat32Array/len1")],
    },
    Change {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        text: "Array and Dictionary: the count's bit 31 was \"shared (bool)\"; it is ignored (an engine reads the count without it and writes it back clear). (§9)",
        evidence: &[Evidence::Case(
            "4.6",
            "decode/noncanonical/array_shared_bit",
        )],
    },
    Change {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        text: "NodePath: the sub-name count and the flags were at offsets 4 and 8, where the name count is; they are at 8 and 12. (§1)",
        evidence: &[Evidence::Case("4.6", "encode/NodePath/subnames")],
    },
    Change {
        pages: "4.x en",
        text: "Double-precision builds: the paragraph named only 8-byte \"Float\" fields; it now says that the header carries ENCODE_FLAG_64, which types have it, and that Color and PackedColorArray stay 4-byte floats. (§11)",
        evidence: &[
            Evidence::Double("4.6", "encode/Vector2/counting"),
            Evidence::Double("4.6", "encode/Color/rgba"),
        ],
    },
    Change {
        pages: "4.x en",
        text: "PackedVector3Array and PackedVector4Array: a note that with ENCODE_FLAG_64 each component is 8 bytes, as PackedVector2Array's. (§11)",
        evidence: &[Evidence::Double("4.6", "encode/PackedVector3Array/len8")],
    },
    Change {
        pages: "3.x old en, 3.x fr, 3.x uk",
        text: "Double-precision builds: the paragraph gave 8-byte \"Float\" fields; 3.x decoders read math types with 4-byte components whatever the flags say, and 3.x double builds are not described (their encoder writes no layout its decoder reads back; docs/format-notes.md). (§11)",
        evidence: &[Evidence::Reproducer(
            "tests/differential/codec-differs/3.6-2a292fb550934579.json",
            "decode `0500090000000000803f000002001b00000000c01c000200` → Vector2 of two 4-byte floats, 12 B",
        )],
    },
    Change {
        pages: "4.x en",
        text: "Color: the note \"typically 0..1, can be above 1 for overbright colors\" is dropped: the wire holds any 32-bit float. (§1)",
        evidence: &[Evidence::Case("4.6", "encode/Color/rgba")],
    },
    Change {
        pages: "4.x en",
        text: "Object: the note on PROPERTY_USAGE_STORAGE with its links to the class reference is one sentence without links. (§1)",
        evidence: &[Evidence::Case("4.6", "encode/Object/Resource_full")],
    },
];

/// Additions: what the published pages do not have.
const ADDED: &[Change] = &[
    Change {
        pages: "4.x",
        text: "Sections for Vector2i, Rect2i, Vector3i, Vector4, Vector4i, Projection, StringName, Callable, Signal and PackedVector4Array. (§8)",
        evidence: &[Evidence::Case("4.6", "encode/Vector4i/counting")],
    },
    Change {
        pages: "4.x, 3.x",
        text: "Files and packets, per transport (the published pages name the packet APIs of PacketPeer and say nothing of framing): files, stream peers and PacketPeerStream write a 4-byte length before the value, a PacketPeerUDP (ENet, WebSocket) packet is the bare value; and what a wrong length does. (§6)",
        evidence: &[
            Evidence::Framing("4.6", "write/file/int_7"),
            Evidence::Framing("4.6", "write/tcp/int_7"),
            Evidence::Framing("4.6", "write/udp/int_7"),
            Evidence::Framing("3.6", "write/packet/int_7"),
            Evidence::Framing("3.6", "write/udp/int_7"),
        ],
    },
    Change {
        pages: "4.x",
        text: "Typed Array and Dictionary: without full objects the type data of a class or a script is the class name `EncodedObjectAsID`; an empty class name is the built-in type Object (kind 1, id 24). (§3 rows 14, 17, 26; §5)",
        evidence: &[
            Evidence::Case("4.6", "encode/typed/class_array"),
            Evidence::Case("4.6", "encode/typed/script_array"),
            Evidence::Reproducer(
                "tests/differential/codec-differs/4.6-09790fb95d3f9035.json",
                "encode `{\"type\":\"Dictionary\",\"key_type\":{\"class\":\"\"},\"value\":[]}` → `1b0001001800000000000000`",
            ),
        ],
    },
    Change {
        pages: "3.x",
        text: "NodePath: a warning that 3.x encoders leave the padding of names uninitialised, so its bytes differ between runs. (§4)",
        evidence: &[Evidence::Reproducer(
            "findings/engine-nondeterministic/3.2-6fa9ca6147bbf68c.json",
            "decode `0f00000001000080000000000200000001000000610000000100000062000000` → re-encoded bytes differ between runs",
        )],
    },
    Change {
        pages: "4.x, 3.x",
        text: "Object ids: decoding gives an EncodedObjectAsID holding the id. (§1)",
        evidence: &[Evidence::Case("4.6", "decode/valid/Object/id")],
    },
    Change {
        pages: "3.x",
        text: "Object as an instance id (flag bit 16 and a 64-bit id) and the 64-bit int form. (§3 rows 9, 10)",
        evidence: &[Evidence::Case("3.6", "decode/valid/Object/id")],
    },
    Change {
        pages: "3.x",
        text: "RID: the header alone, its id is not written (the published pages say \"unsupported\"). (§1)",
        evidence: &[Evidence::Case("3.6", "encode/RID/zero")],
    },
    Change {
        pages: "4.x, 3.x",
        text: "String: a leading UTF-8 BOM is dropped and the padding's content is ignored. (§9)",
        evidence: &[
            Evidence::Case("4.6", "decode/string_bytes/bom_then_text"),
            Evidence::Case("4.6", "decode/noncanonical/string_nonzero_padding"),
        ],
    },
    Change {
        pages: "4.x, 3.x",
        text: "PackedStringArray: a string without its NUL terminator is read too. (§9)",
        evidence: &[Evidence::Case(
            "4.6",
            "decode/noncanonical/string_array_without_nul",
        )],
    },
    Change {
        pages: "4.x, 3.x",
        text: "PackedByteArray: at the end of the input the padding may be missing. (§9)",
        evidence: &[Evidence::Case(
            "4.6",
            "decode/noncanonical/byte_array_missing_padding",
        )],
    },
    Change {
        pages: "4.x, 3.x",
        text: "What the decoders accept: one line per rule, with the engines that follow it. (§9)",
        evidence: &[Evidence::Case("4.6", "decode/trailing/garbage")],
    },
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
        .filter(|c| c.profile.double_reals == double)
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
    }
}

fn claim_evidence(i: usize, claims: &[EngineClaims]) -> Option<String> {
    let (version, profile, a) = claims
        .iter()
        .rev()
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
    writeln!(
        md,
        "{n}. [{}] {} Evidence: {}.",
        c.pages,
        c.text,
        ev.join("; ")
    )
    .ok();
}

/// `changes.md`.
pub fn changes(
    corpora: &[EngineCorpus],
    double: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
    claims: &[EngineClaims],
) -> String {
    let mut md = String::from("# Changes to the binary serialization page\n\n");
    md.push_str("Generated by `gdmarshal report` with `binary_serialization_api.4x.rst` and\n");
    md.push_str("`binary_serialization_api.3x.rst`. Each line is one change against the published pages the\n");
    writeln!(
        md,
        "generated ones start from: godot-docs `tutorials/io/binary_serialization_api.rst` at commit\n\
         {} (4.x English), and the 3.x pages (old English, French, Ukrainian). Each\n\
         line gives its evidence: a vector and an engine's answer; the section of `docs/report.md` named on\n\
         the line has every engine's answer.\n",
        super::super::claims::PUBLISHED
    )
    .ok();
    md.push_str("## Corrections (docs/report.md §3: confirmed by the engines)\n\n");
    let mut n = 0;
    for (i, c) in CLAIMS.iter().enumerate() {
        if c.upstream.is_some() {
            continue;
        }
        n += 1;
        let ev = claim_evidence(i, claims).unwrap_or_default();
        writeln!(
            md,
            "{n}. [{}] was: {} — now: {}. (§3 row {}) Evidence: {ev}.",
            c.pages,
            c.says,
            c.instead,
            i + 1
        )
        .ok();
    }
    md.push_str("\n## Further corrections\n\n");
    for c in CHANGES {
        n += 1;
        line(&mut md, n, c, corpora, double, framing);
    }
    md.push_str("\n## Additions\n\n");
    for c in ADDED {
        n += 1;
        line(&mut md, n, c, corpora, double, framing);
    }
    md.push_str("\n## Editorial\n\n");
    md.push_str("- [4.x en] The `:article_outdated:` marker is dropped; the page is generated from the engines' answers.\n");
    md.push_str("- [4.x en, 3.x] Links to the class reference inside tables and notes are dropped; the section headings keep theirs.\n");
    md.push_str("- [4.x, 3.x] The header flags are a section of their own after the type table, where the current upstream page has them (report §3).\n");
    md
}
