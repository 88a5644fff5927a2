//! `docs/report.md`: what the engines do, version by version, where the documentation says
//! otherwise, and the engine defects that campaigns and the corpus found. Every row carries a
//! vector (hex) and the engines' answers; the documentation claims are checked by asking live
//! engines ([`CLAIMS`] is the data: each claim with its vector builder and its test).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::answerer::Answerer;
use crate::corpus::generate::run_once;
use crate::corpus::{Case, Direction, EngineCorpus, Record, Verdict};
use gdmarshal::json::hex;
use gdmarshal::profile::Profile;
use gdmarshal::types::{TYPES, VariantType};
use gdmarshal::value::{Object, Variant};

use super::FindingFile;
use super::log::{self, LogEntry, Totals};

/// A vector for the engines: bytes to decode or a value to encode.
#[derive(Clone, Debug)]
pub enum Probe {
    /// Decode these bytes (objects not allowed).
    Decode(Vec<u8>),
    /// Build and encode this value (objects as ids).
    Encode(Variant),
}

/// One claim of the documented spec, and how to test it on an engine.
pub struct Claim {
    /// Which pages make the claim.
    pub pages: &'static str,
    /// What the pages say.
    pub says: &'static str,
    /// What an engine that contradicts the claim does (shown with its actual answer).
    pub instead: &'static str,
    /// Engine major versions the claim is about.
    pub majors: &'static [u32],
    /// The vector for an engine of this profile.
    pub vector: fn(Profile) -> Probe,
    /// Whether the engine's answer contradicts the claim.
    pub contradicts: fn(&Record) -> bool,
}

fn id(p: Profile, t: VariantType) -> u8 {
    p.id_of(t).expect("type exists in the profile") as u8
}

fn word(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

fn with_header(head: u32, payload: &[u8]) -> Vec<u8> {
    let mut b = word(head).to_vec();
    b.extend_from_slice(payload);
    b
}

fn accepted(r: &Record) -> bool {
    r.verdict == Verdict::Accepted
}

fn tree_type(r: &Record) -> Option<&str> {
    r.tree.as_ref()?.get("type")?.as_str()
}

fn output_bytes(r: &Record) -> Vec<u8> {
    r.output
        .as_deref()
        .and_then(|h| gdmarshal::json::unhex(h).ok())
        .unwrap_or_default()
}

/// The claims of the documented spec (/work/shared/spec: the 4.x English page and the 3.x
/// pages) that the engines are asked about. docs/format-notes.md §7 gives the source for each.
pub const CLAIMS: &[Claim] = &[
    Claim {
        pages: "4.x en, 3.x fr, 3.x uk",
        says: "`base_type = val & 0xFFFF`: the type is the low two bytes of the header",
        instead: "the type is the low byte only; byte 1 is ignored (a header 0x0102 reads as int)",
        majors: &[3, 4],
        vector: |p| with_header(id(p, VariantType::Int) as u32 | 0x0100, &word(5)).into(),
        contradicts: |r| accepted(r) && tree_type(r) == Some("int"),
    },
    Claim {
        pages: "4.x en",
        says: "type 18 is Dictionary (the page's table is the 3.x numbering)",
        instead: "4.x id 18 is Transform3D: an empty Dictionary in the page's numbering is not read as a Dictionary",
        majors: &[4],
        vector: |_| with_header(18, &word(0)).into(),
        contradicts: |r| tree_type(r) != Some("Dictionary"),
    },
    Claim {
        pages: "4.x en",
        says: "type 20 is PackedByteArray (\"20: PackedByteArray\" heading, 3.x numbering)",
        instead: "4.x id 20 is Color: a one-byte PackedByteArray in the page's numbering is not read as one",
        majors: &[4],
        vector: |_| with_header(20, &[1, 0, 0, 0, 7, 0, 0, 0]).into(),
        contradicts: |r| tree_type(r) != Some("PackedByteArray"),
    },
    Claim {
        pages: "4.x en, 3.x fr",
        says: "\"The 'float' type itself always uses double precision\"",
        instead: "a float that is exact in 32 bits is written with a 4-byte payload and no 64-bit flag",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::Float(0.15625)),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 8,
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        says: "bool: \"0 for False, 1 for True\"",
        instead: "any non-zero word reads as true (2 is accepted as true)",
        majors: &[3, 4],
        vector: |p| with_header(id(p, VariantType::Bool) as u32, &word(2)).into(),
        contradicts: |r| {
            accepted(r) && r.tree.as_ref().and_then(|t| t.get("value")) == Some(&Value::Bool(true))
        },
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        says: "NodePath \"old format\": bit 31 clear means a string length followed by the path string",
        instead: "the old format is rejected",
        majors: &[3, 4],
        vector: |p| {
            with_header(
                id(p, VariantType::NodePath) as u32,
                &[1, 0, 0, 0, b'a', 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| r.verdict == Verdict::Rejected,
    },
    Claim {
        pages: "4.x en",
        says: "\"16: RID (unsupported)\"",
        instead: "4.x reads and writes a RID as a 64-bit id (12 bytes in all)",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Rid) as u32, &[42, 0, 0, 0, 0, 0, 0, 0]).into(),
        contradicts: |r| accepted(r) && tree_type(r) == Some("RID") && r.consumed == Some(12),
    },
    Claim {
        pages: "4.x en",
        says: "a null Object is the Object header followed by a 4-byte zero",
        instead: "a null Object is written as a bare Nil header (`00000000`)",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::object(Object::Null)),
        contradicts: |r| accepted(r) && output_bytes(r) == [0, 0, 0, 0],
    },
    Claim {
        pages: "3.x old en, 3.x fr, 3.x uk",
        says: "\"17: Object (unsupported)\"",
        instead: "3.x reads an Object as an instance id (header flag bit 16 + 64-bit id)",
        majors: &[3],
        vector: |p| {
            with_header(
                id(p, VariantType::Object) as u32 | 1 << 16,
                &[42, 0, 0, 0, 0, 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| accepted(r) && tree_type(r) == Some("Object"),
    },
    Claim {
        pages: "3.x old en, 3.x uk",
        says: "int is a 32-bit signed integer (no 64-bit form shown)",
        instead: "with header bit 16 an int is 64-bit",
        majors: &[3],
        vector: |p| {
            with_header(
                id(p, VariantType::Int) as u32 | 1 << 16,
                &[0, 0, 0, 0, 1, 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| {
            accepted(r)
                && r.tree.as_ref().and_then(|t| t.get("value"))
                    == Some(&Value::String("4294967296".into()))
        },
    },
    Claim {
        pages: "4.x en",
        says: "PackedInt64Array: \"Array length\" is 8 bytes",
        instead: "the count is 4 bytes (a one-element array is 16 bytes, not 20)",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::PackedInt64Array(vec![5])),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 16,
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        says: "PackedStringArray: each string is its length and UTF-8 bytes, padded (as String)",
        instead: "each string's length counts a NUL terminator that is written after the bytes (\"abc\" has length 4)",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::PackedStringArray(vec!["abc".into()])),
        contradicts: |r| accepted(r) && output_bytes(r).get(8..12) == Some(&[4, 0, 0, 0][..]),
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk",
        says: "String: length, then that many UTF-8 bytes make the string",
        instead: "a NUL byte ends the string early: \"a\\0b\" reads as \"a\"",
        majors: &[3, 4],
        vector: |p| {
            with_header(
                id(p, VariantType::String) as u32,
                &[3, 0, 0, 0, b'a', 0, b'b', 0],
            )
            .into()
        },
        contradicts: |r| {
            accepted(r)
                && r.tree.as_ref().and_then(|t| t.get("value")) == Some(&Value::String("a".into()))
        },
    },
    Claim {
        pages: "4.x en",
        says: "Array: the word after the header is the element count (header flags only carry the 64-bit flag)",
        instead: "4.3+ header bits 16-17 mark a typed Array whose element type word comes before the count",
        majors: &[4],
        vector: |p| {
            with_header(
                id(p, VariantType::Array) as u32 | 1 << 16,
                &[2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| accepted(r) && r.consumed == Some(20),
    },
    Claim {
        pages: "4.x en",
        says: "PackedVector2Array elements are two 32-bit floats",
        instead: "with header bit 16 the elements are two 64-bit floats (24 bytes for one element)",
        majors: &[4],
        vector: |p| {
            let mut payload = vec![1, 0, 0, 0];
            payload.extend_from_slice(&1.0f64.to_le_bytes());
            payload.extend_from_slice(&2.0f64.to_le_bytes());
            with_header(
                id(p, VariantType::PackedVector2Array) as u32 | 1 << 16,
                &payload,
            )
            .into()
        },
        contradicts: |r| accepted(r) && r.consumed == Some(24),
    },
    Claim {
        pages: "4.x en",
        says: "type 25 is PackedStringArray (3.x numbering; Callable and Signal are not documented)",
        instead: "4.x id 25 is Callable, a bare header (4 bytes) that decodes to an empty Callable",
        majors: &[4],
        vector: |_| with_header(25, &[]).into(),
        contradicts: |r| accepted(r) && tree_type(r) == Some("Callable"),
    },
    Claim {
        pages: "4.x en",
        says: "no container type data: a Dictionary's header is followed by its count",
        instead: "4.4+ header bits 16-19 mark a typed Dictionary: key and value type words come before the count",
        majors: &[4],
        vector: |p| {
            with_header(
                id(p, VariantType::Dictionary) as u32 | 5 << 16,
                &[2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| accepted(r) && r.consumed == Some(16),
    },
];

impl From<Vec<u8>> for Probe {
    fn from(b: Vec<u8>) -> Probe {
        Probe::Decode(b)
    }
}

/// One engine's answer to a claim's vector.
#[derive(Clone, Debug)]
pub struct ClaimAnswer {
    /// The engine's version.
    pub version: String,
    /// The vector.
    pub probe: Probe,
    /// The engine's record.
    pub record: Record,
    /// Whether it contradicts the claim.
    pub contradicts: bool,
}

/// Asks an engine every claim that concerns its major version; answers by claim index.
pub fn ask_claims(
    engine: &mut dyn Answerer,
    version: &str,
) -> Result<Vec<(usize, ClaimAnswer)>, String> {
    let p = engine.profile();
    let mut out = Vec::new();
    for (i, c) in CLAIMS.iter().enumerate() {
        if !c.majors.contains(&p.major()) {
            continue;
        }
        let probe = (c.vector)(p);
        let case = match &probe {
            Probe::Decode(b) => Case::Decode {
                name: format!("claim/{i}"),
                input: b.clone(),
                allow_objects: false,
            },
            Probe::Encode(v) => Case::Encode {
                name: format!("claim/{i}"),
                value: v.clone(),
                full_objects: false,
            },
        };
        let record = run_once(engine, &[case], &mut |_| {})
            .pop()
            .ok_or("no answer")?
            .map_err(|u| u.to_string())?;
        out.push((
            i,
            ClaimAnswer {
                version: version.to_string(),
                contradicts: (c.contradicts)(&record),
                probe,
                record,
            },
        ));
    }
    Ok(out)
}

/// A record's answer in one table cell.
pub fn answer_cell(r: &Record) -> String {
    let mut s = format!("{:?}", r.verdict).to_lowercase();
    if let Some(t) = &r.tree
        && r.direction == Direction::Decode
    {
        let t = t.to_string();
        let t: String = t.chars().take(120).collect();
        write!(s, " `{t}`").ok();
    }
    if let Some(c) = r.consumed {
        write!(s, ", {c} B").ok();
    }
    if let Some(o) = &r.output {
        write!(s, " → `{}`", clip(o, 96)).ok();
    }
    if r.verdict == Verdict::Rejected || r.verdict == Verdict::Crashed || r.verdict == Verdict::Hung
    {
        let e = r.error.lines().next().unwrap_or("").replace('|', "\\|");
        if !e.is_empty() {
            write!(s, " ({})", clip(&e, 100)).ok();
        }
    }
    s
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

fn probe_cell(p: &Probe, profile: Profile) -> String {
    match p {
        Probe::Decode(b) => format!("decode `{}`", hex(b)),
        Probe::Encode(v) => format!(
            "encode `{}`",
            gdmarshal::json::to_json(v, profile, gdmarshal::float::FloatStyle::Shortest)
        ),
    }
}

/// One engine's answers to the claims: its version, its profile, and answers by claim index.
pub type EngineClaims = (String, Profile, Vec<(usize, ClaimAnswer)>);

/// Everything the report is made from.
pub struct Inputs<'a> {
    /// The committed corpus, one entry per engine version.
    pub corpora: &'a [EngineCorpus],
    /// Claim answers per engine version (version, profile, answers).
    pub claims: Vec<EngineClaims>,
    /// Saved campaign reproducers (path, file).
    pub findings: Vec<(String, FindingFile)>,
    /// A line on the campaign that produced the findings (command, time, counts), if known.
    pub campaign: Option<String>,
    /// The run log (`findings/campaigns.jsonl`): every campaign run, one entry each.
    pub log: Vec<LogEntry>,
    /// Reproducers of codec differences found against a live engine and since fixed, kept as
    /// regression inputs (path, file; `tests/differential/<class>/`).
    pub fixed_findings: Vec<(String, FindingFile)>,
}

fn short(version: &str) -> String {
    version.split('.').take(3).collect::<Vec<_>>().join(".")
}

/// Renders docs/report.md; returns the text and the number of confirmed spec discrepancies.
/// Each section is written by its own function, in report order.
pub fn render(inp: &Inputs) -> (String, usize) {
    let mut md = String::new();
    intro(&mut md, inp);
    type_table(&mut md, inp);
    let n_version = version_differences(&mut md, inp);
    layouts_3_to_4(&mut md, inp);
    let confirmed = documentation(&mut md, inp);
    engine_defects(&mut md, inp, n_version);
    campaigns_tried(&mut md, inp);
    fixed_findings(&mut md, inp);
    (md, confirmed)
}

fn versions(inp: &Inputs) -> Vec<String> {
    inp.corpora
        .iter()
        .map(|c| short(&c.entry.version))
        .collect()
}

/// The title, what the report is made from, and the engines.
fn intro(md: &mut String, inp: &Inputs) {
    md.push_str("# Godot's binary Variant format: what the engines do\n\n");
    md.push_str(
        "Generated by `gdmarshal report` from the committed corpus (`corpus/`), the campaign\n",
    );
    md.push_str("reproducers (`findings/`) and answers of live engines to the documentation's claims. Do not edit\n");
    md.push_str(
        "by hand: regenerate. Hex is the exact byte string; answers are the engines' own, in the\n",
    );
    md.push_str("corpus's terms (verdict, decoded tree, bytes consumed where the engine tells, → its re-encoding).\n\n");
    write!(
        md,
        "Engines: {}.\n\n",
        inp.corpora
            .iter()
            .map(|c| format!("Godot {}", c.entry.version))
            .collect::<Vec<_>>()
            .join(", ")
    )
    .ok();
}

/// §1: the type ids per engine version, each with the shortest value every engine encoded.
fn type_table(md: &mut String, inp: &Inputs) {
    let versions = versions(inp);
    md.push_str("## 1. Type ids per engine version\n\n");
    md.push_str("Ids from the profile tables (checked by the corpus); **bold** where 3.x and 4.x ids differ. The vector is the\n");
    md.push_str(
        "shortest value of the type each engine encoded in the corpus, with its bytes.\n\n",
    );
    write!(
        md,
        "| type | {} | vector (value) | engines' bytes |\n|---|{}---|---|\n",
        versions.join(" | "),
        "---|".repeat(versions.len())
    )
    .ok();
    for t in TYPES.iter() {
        let ids: Vec<Option<u32>> = inp.corpora.iter().map(|c| c.profile.id_of(t.ty)).collect();
        let differ = t.id3.is_some() && t.id4.is_some() && t.id3 != t.id4;
        let cells: Vec<String> = ids
            .iter()
            .map(|i| match (i, differ) {
                (Some(i), true) => format!("**{i}**"),
                (Some(i), false) => i.to_string(),
                (None, _) => "—".into(),
            })
            .collect();
        let mut value = String::new();
        let mut bytes = Vec::new();
        for c in inp.corpora {
            let prefix = format!("encode/{}/", t.name);
            let best = c
                .records
                .iter()
                .filter(|r| {
                    r.name.starts_with(&prefix) && r.verdict == Verdict::Accepted && !r.objects
                })
                .min_by_key(|r| {
                    (
                        r.output.as_ref().map_or(usize::MAX, |o| o.len()),
                        r.name.clone(),
                    )
                });
            if let Some(r) = best {
                if value.is_empty() {
                    value = r
                        .value
                        .as_ref()
                        .map(|v| clip(&v.to_string(), 60))
                        .unwrap_or_default();
                }
                bytes.push(format!(
                    "{}: `{}`",
                    short(&c.entry.version),
                    clip(r.output.as_deref().unwrap_or(""), 64)
                ));
            }
        }
        let name = match t.name3 {
            Some(n3) if n3 != t.name => format!("{} (3.x {n3})", t.name),
            _ => t.name.to_string(),
        };
        writeln!(
            md,
            "| {name} | {} | `{}` | {} |",
            cells.join(" | "),
            value,
            bytes.join("<br>")
        )
        .ok();
    }
    md.push('\n');
}

/// §2: corpus cases whose answers differ between minor versions of one major; returns how many.
fn version_differences(md: &mut String, inp: &Inputs) -> usize {
    md.push_str("## 2. Differences between engine versions\n\n");
    let mut n_version = 0;
    for w in inp.corpora.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.profile.major() != b.profile.major() {
            continue;
        }
        write!(
            md,
            "### {} → {}: same case, different answer\n\n",
            short(&a.entry.version),
            short(&b.entry.version)
        )
        .ok();
        let by_name: BTreeMap<&str, &Record> =
            b.records.iter().map(|r| (r.name.as_str(), r)).collect();
        write!(
            md,
            "| case | vector | {} | {} |\n|---|---|---|---|\n",
            short(&a.entry.version),
            short(&b.entry.version)
        )
        .ok();
        let mut rows = 0;
        for r in &a.records {
            let Some(o) = by_name.get(r.name.as_str()) else {
                continue;
            };
            let d = r.differences(o);
            if d.is_empty() {
                continue;
            }
            rows += 1;
            let vector = match (&r.input, &r.value) {
                (Some(h), _) => format!("decode `{}`", clip(h, 80)),
                (_, Some(v)) => format!("encode `{}`", clip(&v.to_string(), 80)),
                _ => String::new(),
            };
            writeln!(
                md,
                "| `{}` | {} | {} | {} |",
                r.name,
                vector,
                answer_cell(r),
                answer_cell(o)
            )
            .ok();
        }
        n_version += rows;
        write!(md, "\n{rows} cases differ.\n\n").ok();
    }
    n_version
}

/// §2, last part: ids and payload layouts of the newest 3.x against the 4.x engine.
fn layouts_3_to_4(md: &mut String, inp: &Inputs) {
    if let (Some(a), Some(b)) = (
        inp.corpora.iter().rev().find(|c| c.profile.major() == 3),
        inp.corpora.iter().find(|c| c.profile.major() == 4),
    ) {
        write!(
            md,
            "### {} → {}: ids and layouts\n\n",
            short(&a.entry.version),
            short(&b.entry.version)
        )
        .ok();
        md.push_str("For each type both have: the same value encoded by each engine (shortest common corpus case). \"same layout\"\n");
        md.push_str("means the bytes after the 4-byte header are identical.\n\n");
        write!(md, "| type | id {} | id {} | case | {} bytes | {} bytes | payload |\n|---|---|---|---|---|---|---|\n", short(&a.entry.version), short(&b.entry.version), short(&a.entry.version), short(&b.entry.version)).ok();
        let by_name: BTreeMap<&str, &Record> =
            b.records.iter().map(|r| (r.name.as_str(), r)).collect();
        for t in TYPES.iter().filter(|t| t.id3.is_some() && t.id4.is_some()) {
            let prefix = format!("encode/{}/", t.name);
            let pair = a
                .records
                .iter()
                .filter(|r| {
                    r.name.starts_with(&prefix)
                        && r.verdict == Verdict::Accepted
                        && !r.objects
                        && r.nondeterministic.is_empty()
                })
                .filter_map(|r| {
                    by_name
                        .get(r.name.as_str())
                        .filter(|o| o.verdict == Verdict::Accepted && o.nondeterministic.is_empty())
                        .map(|o| (r, *o))
                })
                .min_by_key(|(r, _)| (r.output.as_ref().map_or(0, |o| o.len()), r.name.clone()));
            let Some((r, o)) = pair else { continue };
            let (x, y) = (
                r.output.as_deref().unwrap_or(""),
                o.output.as_deref().unwrap_or(""),
            );
            let same = x.get(8..) == y.get(8..);
            writeln!(
                md,
                "| {} | {} | {} | `{}` | `{}` | `{}` | {} |",
                t.name,
                t.id3.unwrap(),
                t.id4.unwrap(),
                r.name,
                clip(x, 64),
                clip(y, 64),
                if same { "same layout" } else { "**differs**" }
            )
            .ok();
        }
        md.push('\n');
    }
}

/// §3: each claim of the documented spec put to the engines; returns how many they contradict.
fn documentation(md: &mut String, inp: &Inputs) -> usize {
    md.push_str("## 3. Where the documented spec disagrees with the engines\n\n");
    md.push_str("Each claim of the pages in `../shared/spec/` (4.x English page `binary_serialization_api.4x.en.rst.txt`; 3.x pages:\n");
    md.push_str("old English, French, Ukrainian) was turned into a vector and put to every engine it concerns; a row is a\n");
    md.push_str("discrepancy when the engine's answer contradicts the page (decided from the answer, see `CLAIMS` in\n");
    md.push_str("`lab/src/campaign/report.rs`). Sources for each: docs/format-notes.md §7.\n\n");
    md.push_str("| # | pages | the page says | the engines do | vector | engines' answers | confirmed by |\n|---|---|---|---|---|---|---|\n");
    let mut confirmed = 0;
    for (i, c) in CLAIMS.iter().enumerate() {
        let answers: Vec<(&String, Profile, &ClaimAnswer)> = inp
            .claims
            .iter()
            .flat_map(|(v, p, a)| {
                a.iter()
                    .filter(|(k, _)| *k == i)
                    .map(move |(_, a)| (v, *p, a))
            })
            .collect();
        if answers.is_empty() {
            continue;
        }
        let yes: Vec<String> = answers
            .iter()
            .filter(|(_, _, a)| a.contradicts)
            .map(|(v, _, _)| short(v))
            .collect();
        if !yes.is_empty() {
            confirmed += 1;
        }
        // One line per distinct vector, naming the engines it was put to.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for (v, p, a) in &answers {
            let cell = probe_cell(&a.probe, *p);
            match groups.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, vs)) => vs.push(short(v)),
                None => groups.push((cell, vec![short(v)])),
            }
        }
        let vectors: Vec<String> = groups
            .into_iter()
            .map(|(c, vs)| format!("{}: {c}", vs.join(", ")))
            .collect();
        let ans: Vec<String> = answers
            .iter()
            .map(|(v, _, a)| format!("{}: {}", short(v), answer_cell(&a.record)))
            .collect();
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            i + 1,
            c.pages,
            c.says,
            c.instead,
            vectors.join("<br>"),
            ans.join("<br>"),
            if yes.is_empty() {
                "none (the engines agree with the page)".into()
            } else {
                yes.join(", ")
            }
        )
        .ok();
    }
    write!(
        md,
        "\n{confirmed} documented-spec discrepancies confirmed by the engines.\n\n"
    )
    .ok();
    md.push_str("Not checked through the oracle: the Basis/Transform3D component order (the page says column-major, the\n");
    md.push_str("source writes rows; the oracle's trees carry components in wire order, so only the engines' axis accessors could\n");
    md.push_str(
        "tell), and the double-precision notes (no double-precision engine is installed).\n\n",
    );

    confirmed
}

/// A reproducer's case in one table cell: direction, objects, and the hex or value, clipped.
fn finding_vector(f: &FindingFile) -> String {
    match (&f.input, &f.value) {
        (Some(h), _) => format!(
            "decode{} `{}`",
            if f.objects { " (objects)" } else { "" },
            clip(h, 120)
        ),
        (_, Some(v)) => format!("encode `{}`", clip(&v.to_string(), 120)),
        _ => String::new(),
    }
}

/// §4: engine defects from the campaigns' reproducers and the corpus.
fn engine_defects(md: &mut String, inp: &Inputs, n_version: usize) {
    md.push_str("## 4. Engine defects found by campaigns and the corpus\n\n");
    if let Some(c) = &inp.campaign {
        write!(md, "{c}\n\n").ok();
    }
    md.push_str("Rows of class `codec-differs` are open differences of this crate's codec (not engine defects), listed so\n");
    md.push_str(
        "that they are fixed or explained; every other row is the engine's own behaviour.\n\n",
    );
    md.push_str("| source | engine | class | vector | engine's answer | detail | replay |\n|---|---|---|---|---|---|---|\n");
    let mut n_defects = 0;
    for (path, f) in &inp.findings {
        let vector = finding_vector(f);
        n_defects += 1;
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | `gdmarshal diff --replay {}` |",
            clip(&f.source(), 60),
            short(&f.version),
            f.class,
            vector,
            answer_cell(&f.engine_answer),
            clip(&f.detail.replace('|', "\\|").replace('\n', " "), 160),
            path
        )
        .ok();
    }
    for c in inp.corpora {
        for r in &c.records {
            let class = match (&r.verdict, r.nondeterministic.is_empty()) {
                (Verdict::Crashed, _) => "engine-crash",
                (Verdict::Hung, _) => "engine-hang",
                (_, false) => "engine-nondeterministic",
                _ => continue,
            };
            n_defects += 1;
            let vector = match (&r.input, &r.value) {
                (Some(h), _) => format!("decode `{}`", clip(h, 120)),
                (_, Some(v)) => format!("encode `{}`", clip(&v.to_string(), 120)),
                _ => String::new(),
            };
            let detail = if r.nondeterministic.is_empty() {
                clip(&r.error.replace('|', "\\|").replace('\n', " "), 160)
            } else {
                format!("differs between runs: {}", r.nondeterministic.join(", "))
            };
            writeln!(
                md,
                "| corpus `{}` | {} | {} | {} | {} | {} | `gdmarshal diff --engine {} --corpus-case {}` |",
                r.name,
                short(&c.entry.version),
                class,
                vector,
                answer_cell(r),
                detail,
                c.profile,
                r.name
            )
            .ok();
        }
    }
    write!(
        md,
        "\n{n_defects} defects listed; {n_version} version differences in §2.\n"
    )
    .ok();
}

/// §4, last part: how much the logged campaigns have tried in all (cases per engine, seeds,
/// time), from the run log.
fn campaigns_tried(md: &mut String, inp: &Inputs) {
    md.push_str("\n### What the campaigns have tried\n\n");
    let t = Totals::of(&inp.log);
    if t.campaigns == 0 {
        md.push_str("No campaign is logged in `findings/campaigns.jsonl` yet.\n");
        return;
    }
    let seeds: Vec<String> = t
        .seeds
        .iter()
        .map(|(g, s)| format!("{} (case generation {g})", log::seed_ranges(s)))
        .collect();
    write!(
        md,
        "From the run log `findings/campaigns.jsonl`: {} campaigns ({} interrupted), seeds {}, {} wall time; \
         {} cases answered and classified in all.\n\n",
        t.campaigns,
        t.interrupted,
        seeds.join("; "),
        log::duration_text(t.wall_secs),
        log::group_digits(t.cases())
    )
    .ok();
    md.push_str("| engine | campaigns | cases | engine time | cases/s | codec-differs | cases with engine findings |\n|---|---|---|---|---|---|---|\n");
    for (version, e) in &t.engines {
        let defects: u64 = e
            .counts
            .iter()
            .filter(|(c, _)| c.is_finding() && **c != super::Class::CodecDiffers)
            .map(|(_, n)| n)
            .sum();
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            short(version),
            e.campaigns,
            log::group_digits(e.cases),
            log::duration_text(e.secs),
            log::group_digits(e.rate().round() as u64),
            log::group_digits(
                e.counts
                    .get(&super::Class::CodecDiffers)
                    .copied()
                    .unwrap_or(0)
            ),
            log::group_digits(defects)
        )
        .ok();
    }
}

/// §5: codec differences found against live engines (by the differential fuzz target or a
/// campaign), now fixed.
fn fixed_findings(md: &mut String, inp: &Inputs) {
    md.push_str("\n## 5. Codec differences found against live engines, now fixed\n\n");
    md.push_str("Inputs on which the codec answered otherwise than a live engine (found by the `differential`\n");
    md.push_str("fuzz target, docs/fuzzing.md, or a campaign). Each is fixed; `cargo test` judges the codec\n");
    md.push_str("against the engine's recorded answer in each file (`lab/tests/differential_findings.rs`).\n\n");
    md.push_str("| engine | source | input | what differed | engine's answer | replay |\n|---|---|---|---|---|---|\n");
    for (path, f) in &inp.fixed_findings {
        let input = finding_vector(f);
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | `gdmarshal diff --replay {}` |",
            short(&f.version),
            clip(&f.source(), 60),
            input,
            clip(&f.detail.replace('|', "\\|").replace('\n', " "), 160),
            answer_cell(&f.engine_answer),
            path
        )
        .ok();
    }
    write!(
        md,
        "\n{} fixed findings listed.\n",
        inp.fixed_findings.len()
    )
    .ok();
}

/// Writes the report to `path`.
pub fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_claim_has_a_vector_for_its_versions() {
        for c in CLAIMS {
            for p in ["3.2", "3.6", "4.6"] {
                let p: Profile = p.parse().unwrap();
                if c.majors.contains(&p.major()) {
                    match (c.vector)(p) {
                        Probe::Decode(b) => assert!(b.len() >= 4, "{}", c.says),
                        Probe::Encode(_) => {}
                    }
                }
            }
        }
    }

    #[test]
    fn a_rejection_contradicts_only_the_claims_that_expect_one() {
        let r = Record {
            name: "x".into(),
            direction: Direction::Decode,
            input: Some("00".into()),
            value: None,
            objects: false,
            verdict: Verdict::Rejected,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            error: String::new(),
        };
        let hits: Vec<&str> = CLAIMS
            .iter()
            .filter(|c| (c.contradicts)(&r))
            .map(|c| c.says)
            .collect();
        // The old NodePath format and the 4.x page's 3.x ids (a rejection is not the documented type).
        assert_eq!(hits.len(), 3, "{hits:?}");
    }
}
