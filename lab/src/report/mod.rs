//! `docs/report.md`: what the engines do, version by version, where the documentation says
//! otherwise, and the engine defects that campaigns and the corpus found. Every row carries a
//! vector (hex) and the engines' answers; the documentation claims are checked by asking live
//! engines ([`CLAIMS`] is the data: each claim with its vector builder and its test).
//!
//! The report has this room to itself: its appendices ([`appendix`]), the sections for
//! implementers (`reference`) and double builds (`double`), how it classifies what it lists
//! ([`kinds`]), the claims ([`claims`]) and the corrected documentation pages ([`spec`]). It reads
//! the corpus, the campaigns' findings and run log ([`crate::campaign`], whose
//! [`causes`](crate::campaign::causes) it counts by) and the framing corpus; nothing else in the
//! lab reads it (`gdmarshal report` and the tests do).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::campaign::causes::{Cause, Kind};
use crate::campaign::log::{self, LogEntry, Totals, short_version};
use crate::campaign::{Class, FindingFile};
use crate::corpus::EngineCorpus;
use crate::corpus::generate::{Unanswered, run_once};
use crate::error::FileError;
use crate::model::answerer::EngineAnswerer;
use crate::model::{Case, Direction, Field, Record, Verdict};
use crate::shown::group_digits;
use gdmarshal::hex::hex;
use gdmarshal::profile::Profile;
use gdmarshal::types::{TYPES, VariantType};

pub mod appendix;
pub mod claims;
mod double;
mod framing;
pub mod kinds;
pub(crate) mod reference;
pub mod spec;

use appendix::Appendix;
use claims::{CLAIMS, Probe};

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
    engine: &mut dyn EngineAnswerer,
    version: &str,
) -> Result<Vec<(usize, ClaimAnswer)>, Unanswered> {
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
        // Asked twice: a field that differs between runs (an object's fresh instance id) is
        // marked, so the report shows no bytes that would change on the next regeneration.
        let mut ask = || -> Result<Record, Unanswered> {
            run_once(engine, std::slice::from_ref(&case), &mut |_| {})
                .pop()
                .expect("one answer per case")
        };
        let mut record = ask()?;
        let again = ask()?;
        record.nondeterministic = record.differences(&again);
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

/// A record's answer in one table cell; long trees and bytes are clipped and kept whole in the
/// appendix under `label`. A field that differed between runs shows no bytes.
pub(crate) fn answer_cell(r: &Record, app: &mut Appendix, label: &str) -> String {
    let mut s = format!("{:?}", r.verdict).to_lowercase();
    if let Some(t) = &r.tree
        && r.direction == Direction::Decode
    {
        write!(
            s,
            " {}",
            app.code(&format!("{label}: tree"), &t.to_string())
        )
        .ok();
    }
    if let Some(c) = r.consumed {
        write!(s, ", {c} B").ok();
    }
    if let Some(o) = &r.output {
        if r.unsteady(Field::Output) {
            s.push_str(" → (bytes differ between runs)");
        } else {
            write!(s, " → {}", app.code(&format!("{label}: output"), o)).ok();
        }
    }
    if r.verdict == Verdict::Rejected || r.verdict == Verdict::Crashed || r.verdict == Verdict::Hung
    {
        let e = r.error.lines().next().unwrap_or("");
        if !e.is_empty() {
            write!(s, " ({})", app.plain(&format!("{label}: error"), e, 100)).ok();
        }
    }
    s
}

/// A record's case in one table cell: direction, objects, and the hex or value.
fn case_cell(r: &Record, app: &mut Appendix, label: &str) -> String {
    let objects = if r.objects { " (objects)" } else { "" };
    match (&r.input, &r.value) {
        (Some(h), _) => format!("decode{objects} {}", app.code(label, h)),
        (_, Some(v)) => format!("encode{objects} {}", app.code(label, &v.to_string())),
        _ => String::new(),
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
pub(crate) type EngineClaims = (String, Profile, Vec<(usize, ClaimAnswer)>);

/// Everything the report is made from.
pub struct Inputs<'a> {
    /// The committed corpus of single-precision engines, one entry per engine version.
    pub corpora: &'a [EngineCorpus],
    /// The committed corpus of double-precision builds (§11 only).
    pub double_corpora: &'a [EngineCorpus],
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
    /// The framing corpus (`corpus/framing/`): engine version and records, oldest first.
    pub framing: Vec<(String, Vec<crate::framing_corpus::FramingRecord>)>,
}

/// The report and the appendix files it links to.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// docs/report.md.
    pub report: String,
    /// The appendix files and the corrected pages: path relative to the report's folder
    /// (`report/…md`, `spec/…`) and text.
    pub files: Vec<(String, String)>,
    /// How many documented-spec discrepancies the engines confirm.
    pub confirmed: usize,
}

/// Renders docs/report.md and its appendices. Each section is written by its own function, in
/// report order. Fails when a §1 row's vector does not give the bytes shown for an engine.
pub fn render(inp: &Inputs) -> Result<Rendered, RenderError> {
    let mut md = String::new();
    let mut apps = [
        Appendix::new("s1-types", "§1 type ids: full vectors"),
        Appendix::new(
            "s2-versions",
            "§2 differences between engine versions: full vectors",
        ),
        Appendix::new(
            "s3-claims",
            "§3 documentation claims: full vectors and answers",
        ),
        Appendix::new(
            "s4-defects",
            "§4 defects and artefacts: full vectors and answers",
        ),
        Appendix::new(
            "s5-fixed",
            "§5 fixed codec differences: full vectors and answers",
        ),
        Appendix::new("s6-framing", "§6 framing: full vectors and answers"),
        Appendix::new("s8-vector4", "§8 the Vector4 family: full vectors"),
        Appendix::new(
            "s9-tolerance",
            "§9 what decoders tolerate: full vectors and answers",
        ),
        Appendix::new(
            "s10-3to4",
            "§10 3.x → 4.x behaviour: full vectors and answers",
        ),
        Appendix::new("s11-double", "§11 double-precision builds: full vectors"),
    ];
    intro(&mut md, inp);
    type_table(&mut md, inp, &mut apps[0])?;
    let version_rows = version_differences(&mut md, inp, &mut apps[1]);
    layouts_3_to_4(&mut md, inp, &mut apps[1]);
    let confirmed = documentation(&mut md, inp, &mut apps[2]);
    engine_defects(&mut md, inp, &version_rows, &mut apps[3]);
    campaigns_tried(&mut md, inp);
    fixed_findings(&mut md, inp, &mut apps[4]);
    framing::framing_section(&mut md, inp, &mut apps[5])?;
    reference::component_order(&mut md, inp);
    reference::vector4_family(&mut md, inp, &mut apps[6]);
    reference::tolerance(&mut md, inp, &mut apps[7]);
    reference::behaviour_3_to_4(&mut md, inp, &mut apps[8]);
    double::double_builds(&mut md, inp, &mut apps[9]);
    let mut files: Vec<(String, String)> =
        apps.iter().map(|a| (a.file.clone(), a.render())).collect();
    files.extend(spec::files(
        inp.corpora,
        inp.double_corpora,
        &inp.framing,
        &inp.claims,
    ));
    Ok(Rendered {
        report: md,
        files,
        confirmed,
    })
}

fn versions(inp: &Inputs) -> Vec<String> {
    inp.corpora
        .iter()
        .map(|c| short_version(&c.entry.version))
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
    md.push_str("corpus's terms (verdict, decoded tree, bytes consumed where the engine tells, → its re-encoding).\n");
    md.push_str("A cell too long for a table is cut with \"…\" and links to the section's appendix under `report/`,\n");
    md.push_str("where the vector or answer is written whole. The corrected documentation pages generated from the same\n");
    md.push_str("inputs are `spec/binary_serialization_api.4x.rst` and `spec/binary_serialization_api.3x.rst`, with the\n");
    md.push_str(
        "list of changes a docs maintainer can review line by line in `spec/changes.md`.\n\n",
    );
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
    let derived: Vec<String> = crate::versions::derived()
        .iter()
        .map(ToString::to_string)
        .collect();
    write!(
        md,
        "Format profiles {}: {}. {}: {} (`gdmarshal engines install` and `gdmarshal corpus \
         generate` record one).\n\n",
        crate::versions::status(crate::versions::all()[0].profile),
        crate::versions::verified_list(),
        capitalized(crate::versions::status(derived_profile())),
        derived.join(", ")
    )
    .ok();
}

/// A profile no engine verifies (the codec has many: Godot's minors before the verified ones).
fn derived_profile() -> gdmarshal::Profile {
    *crate::versions::derived()
        .first()
        .expect("the codec knows profiles no engine verifies")
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Case names preferred for a type's §1 row, best first: values whose bytes show the layout
/// (distinct components, a non-zero id, a short string).
const ROW_PREFERENCE: &[&str] = &[
    "counting", "rgba", "subnames", "one", "1", "true", "len2", "mixed", "paddings", "len1",
];

/// The corpus case an engine's §1 row shows for a type: an accepted encode without objects that
/// gave the same answer on every run, by [`ROW_PREFERENCE`], then the shortest.
fn row_case<'a>(c: &'a EngineCorpus, type_name: &str) -> Option<&'a Record> {
    let exact = format!("encode/{type_name}");
    let prefix = format!("{exact}/");
    let usable: Vec<&Record> = c
        .records
        .iter()
        .filter(|r| {
            (r.name == exact || r.name.starts_with(&prefix))
                && r.verdict == Verdict::Accepted
                && !r.objects
                && r.nondeterministic.is_empty()
        })
        .collect();
    let rank = |r: &Record| {
        let leaf = r.name.rsplit('/').next().unwrap_or("");
        ROW_PREFERENCE
            .iter()
            .position(|p| *p == leaf)
            .unwrap_or(ROW_PREFERENCE.len())
    };
    usable.into_iter().min_by_key(|r| {
        (
            rank(r),
            r.output.as_ref().map_or(usize::MAX, |o| o.len()),
            r.name.clone(),
        )
    })
}

/// Why the report would not render: a row or record it would show that the codec does not
/// reproduce (the report never pairs a value with bytes the codec does not produce).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// A §1 row.
    #[error("§1 row {case} on {version}: {problem}")]
    TypeRow {
        /// The corpus case.
        case: String,
        /// The engine version.
        version: String,
        /// What the codec does instead.
        problem: Box<RowProblem>,
    },
    /// A §6 framing record.
    #[error("§6 {version} {case}: {problem}")]
    Framing {
        /// The framing case.
        case: String,
        /// The engine version.
        version: String,
        /// What the codec does instead.
        problem: Box<crate::framing_corpus::FramingMismatch>,
    },
    /// A framing corpus file of a version no profile has.
    #[error("framing corpus of unknown version {0}")]
    FramingVersion(String),
}

/// How the codec parts from a §1 row.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RowProblem {
    /// An encode record holds no value.
    #[error("an encode record without a value")]
    NoValue,
    /// The value is not the profile's tagged JSON.
    #[error(transparent)]
    Value(#[from] gdmarshal::json::JsonError),
    /// The codec cannot encode it.
    #[error(transparent)]
    Encode(#[from] gdmarshal::EncodeError),
    /// The input is not hex.
    #[error(transparent)]
    Input(#[from] gdmarshal::hex::HexError),
    /// The codec rejects the input.
    #[error(transparent)]
    Decode(#[from] gdmarshal::DecodeError),
    /// The codec writes other bytes.
    #[error("the value encodes to {ours}, the engine wrote {}", .engine.as_deref().unwrap_or("nothing"))]
    Encodes {
        /// The codec's bytes, hex.
        ours: String,
        /// The engine's.
        engine: Option<String>,
    },
    /// The codec reads another value or length.
    #[error(
        "the bytes decode to {ours} ({consumed} B), the engine read {engine:?} ({engine_consumed:?} B)"
    )]
    Decodes {
        /// The codec's tree.
        ours: Box<serde_json::Value>,
        /// Bytes the codec consumed.
        consumed: usize,
        /// The engine's tree.
        engine: Box<Option<serde_json::Value>>,
        /// Bytes the engine consumed.
        engine_consumed: Option<usize>,
    },
}

/// A §1 row's error for record `r` of `version`.
fn row_error(r: &Record, version: &str) -> impl FnOnce(RowProblem) -> RenderError {
    let (case, version) = (r.name.clone(), version.to_string());
    move |problem| RenderError::TypeRow {
        case,
        version,
        problem: Box::new(problem),
    }
}

/// Checks that the codec encodes an encode record's value to the engine's bytes, so that a row
/// never pairs a value with bytes it does not produce.
fn check_encode_row(r: &Record, profile: Profile, version: &str) -> Result<(), RenderError> {
    encode_row(r, profile).map_err(row_error(r, version))
}

fn encode_row(r: &Record, profile: Profile) -> Result<(), RowProblem> {
    let value = r.value.as_ref().ok_or(RowProblem::NoValue)?;
    let v = gdmarshal::json::from_json(value, profile)?;
    let ours = gdmarshal::encode(&v, profile, gdmarshal::EncodeOptions::default())?;
    if Some(hex(&ours)) != r.output {
        return Err(RowProblem::Encodes {
            ours: hex(&ours),
            engine: r.output.clone(),
        });
    }
    Ok(())
}

/// Checks that the codec decodes a decode record's bytes to the engine's tree.
fn check_decode_row(r: &Record, profile: Profile, version: &str) -> Result<(), RenderError> {
    decode_row(r, profile).map_err(row_error(r, version))
}

fn decode_row(r: &Record, profile: Profile) -> Result<(), RowProblem> {
    let input = gdmarshal::hex::unhex(r.input.as_deref().unwrap_or(""))?;
    let d = gdmarshal::decode(
        &input,
        profile,
        gdmarshal::DecodeOptions::new().allow_objects(r.objects),
    )?;
    let tree = gdmarshal::json::to_json(&d.value, profile, gdmarshal::float::FloatStyle::Shortest);
    if Some(&tree) != r.tree.as_ref() || Some(d.consumed) != r.consumed {
        return Err(RowProblem::Decodes {
            ours: Box::new(tree),
            consumed: d.consumed,
            engine: Box::new(r.tree.clone()),
            engine_consumed: r.consumed,
        });
    }
    Ok(())
}

/// §1: the type ids per engine version, each with a value every engine encoded and its bytes;
/// the Object row is an Object id (EncodedObjectAsID) each engine decoded.
fn type_table(md: &mut String, inp: &Inputs, app: &mut Appendix) -> Result<(), RenderError> {
    let versions = versions(inp);
    md.push_str("## 1. Type ids per engine version\n\n");
    md.push_str("Ids from the profile tables (checked by the corpus); **bold** where 3.x and 4.x ids differ. Each row\n");
    md.push_str("is a corpus case per engine: the value the engine was asked to encode and the bytes it wrote. The\n");
    md.push_str("report refuses to render a row unless this crate's codec encodes that value to exactly those bytes\n");
    md.push_str("for that engine's profile. The Object row is a decode: an Object written as its instance id\n");
    md.push_str("(header flag bit 16, `ENCODE_FLAG_OBJECT_AS_ID`, then a 64-bit id), which every engine reads as an\n");
    md.push_str("`EncodedObjectAsID` holding that id; a null Object is written as a bare Nil header `00000000`\n");
    md.push_str(
        "(§3 row 8). 3.x writes a RID as its header alone (no id); 4.x writes a 64-bit id.\n\n",
    );
    write!(
        md,
        "| type | {} | vector (case: value) | engines' answers |\n|---|{}---|---|\n",
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
        // Per engine: (version, record); the Object row decodes an id instead.
        let mut rows: Vec<(String, &Record)> = Vec::new();
        for c in inp.corpora {
            let v = short_version(&c.entry.version);
            if t.ty == VariantType::Object {
                if let Some(r) = c
                    .records
                    .iter()
                    .find(|r| r.name == "decode/valid/Object/id")
                {
                    check_decode_row(r, c.profile, &v)?;
                    rows.push((v, r));
                }
            } else if let Some(r) = row_case(c, t.name) {
                check_encode_row(r, c.profile, &v)?;
                rows.push((v, r));
            }
        }
        let label = t.name;
        // One line per distinct vector, naming the engines it was put to.
        let mut vectors: Vec<(String, Vec<String>)> = Vec::new();
        let mut bytes = Vec::new();
        for (v, r) in &rows {
            let (vector, answer) = if r.direction == Direction::Decode {
                let input = app.code(
                    &format!("{label} {v} input"),
                    r.input.as_deref().unwrap_or(""),
                );
                let tree = r.tree.as_ref().map(|t| t.to_string()).unwrap_or_default();
                (
                    format!("`{}`: decode {input}", r.name),
                    format!(
                        "{v}: {}, {} B",
                        app.code(&format!("{label} {v} tree"), &tree),
                        r.consumed.unwrap_or(0)
                    ),
                )
            } else {
                let value = r.value.as_ref().map(|t| t.to_string()).unwrap_or_default();
                let out = r.output.as_deref().unwrap_or("");
                (
                    format!(
                        "`{}`: {}",
                        r.name,
                        app.code(&format!("{label} {v} value"), &value)
                    ),
                    format!("{v}: {}", app.code(&format!("{label} {v} bytes"), out)),
                )
            };
            bytes.push(answer);
            match vectors.iter_mut().find(|(c, _)| *c == vector) {
                Some((_, vs)) => vs.push(v.clone()),
                None => vectors.push((vector, vec![v.clone()])),
            }
        }
        let name = match t.name3 {
            Some(n3) if n3 != t.name => format!("{} (3.x {n3})", t.name),
            _ => t.name.to_string(),
        };
        let vectors: Vec<String> = if vectors.len() == 1 {
            vectors.into_iter().map(|(c, _)| c).collect()
        } else {
            vectors
                .into_iter()
                .map(|(c, vs)| format!("{}: {c}", vs.join(", ")))
                .collect()
        };
        writeln!(
            md,
            "| {name} | {} | {} | {} |",
            cells.join(" | "),
            vectors.join("<br>"),
            bytes.join("<br>")
        )
        .ok();
    }
    md.push('\n');
    Ok(())
}

/// One §2 row: the case, the two answers and the cause of the difference.
pub(crate) struct VersionRow {
    /// The older and the newer version.
    pub versions: (String, String),
    /// Why the answers differ.
    pub cause: Cause,
}

/// §2: corpus cases whose answers differ between minor versions of one major, each with its
/// cause; only rows of kind "version difference" are counted as such.
fn version_differences(md: &mut String, inp: &Inputs, app: &mut Appendix) -> Vec<VersionRow> {
    md.push_str("## 2. Differences between engine versions\n\n");
    md.push_str("Every corpus case two versions of one major answer differently, with the cause. A row is a version\n");
    md.push_str("difference only when the engines differ on purpose; rows caused by an engine defect (uninitialised\n");
    md.push_str(
        "bytes, a crash) or by the oracle are shown with that kind and counted with it in §4.\n\n",
    );
    let mut out = Vec::new();
    for w in inp.corpora.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.profile.major() != b.profile.major() {
            continue;
        }
        let (va, vb) = (
            short_version(&a.entry.version),
            short_version(&b.entry.version),
        );
        write!(md, "### {va} → {vb}: same case, different answer\n\n").ok();
        let by_name: BTreeMap<&str, &Record> =
            b.records.iter().map(|r| (r.name.as_str(), r)).collect();
        write!(
            md,
            "| case | vector | {va} | {vb} | kind | cause |\n|---|---|---|---|---|---|\n"
        )
        .ok();
        let mut rows = 0;
        for r in &a.records {
            let Some(o) = by_name.get(r.name.as_str()) else {
                continue;
            };
            if r.differences(o).is_empty() {
                continue;
            }
            rows += 1;
            let cause = kinds::version_row(&r.name, r, o);
            // Each engine decoded its own encoding: show both inputs when they differ.
            let case = if r.input.is_some() && r.input != o.input {
                format!(
                    "{va}: {}<br>{vb}: {}",
                    case_cell(r, app, &format!("{} {va}", r.name)),
                    case_cell(o, app, &format!("{} {vb}", r.name))
                )
            } else {
                case_cell(r, app, &r.name)
            };
            writeln!(
                md,
                "| `{}` | {} | {} | {} | {} | {} |",
                r.name,
                case,
                answer_cell(r, app, &format!("{} {va}", r.name)),
                answer_cell(o, app, &format!("{} {vb}", r.name)),
                cause.kind().name(),
                cause.text()
            )
            .ok();
            out.push(VersionRow {
                versions: (va.clone(), vb.clone()),
                cause,
            });
        }
        let n_version = out
            .iter()
            .filter(|r| r.versions.0 == va && r.cause.kind() == Kind::VersionDifference)
            .count();
        write!(
            md,
            "\n{rows} cases differ; {n_version} of them are version differences.\n\n"
        )
        .ok();
    }
    out
}

/// §2, last part: ids and payload layouts of the newest 3.x against the 4.x engine.
fn layouts_3_to_4(md: &mut String, inp: &Inputs, app: &mut Appendix) {
    if let (Some(a), Some(b)) = (
        inp.corpora.iter().rev().find(|c| c.profile.major() == 3),
        inp.corpora.iter().find(|c| c.profile.major() == 4),
    ) {
        let (va, vb) = (
            short_version(&a.entry.version),
            short_version(&b.entry.version),
        );
        write!(md, "### {va} → {vb}: ids and layouts\n\n").ok();
        md.push_str("For each type both have: the same value encoded by each engine (shortest common corpus case). \"same layout\"\n");
        md.push_str("means the bytes after the 4-byte header are identical.\n\n");
        write!(md, "| type | id {va} | id {vb} | case | {va} bytes | {vb} bytes | payload |\n|---|---|---|---|---|---|---|\n").ok();
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
            // A case written as another type (a null Object is a Nil header) shows no layout.
            let (h3, h4) = (
                format!("{:02x}", t.id3.unwrap()),
                format!("{:02x}", t.id4.unwrap()),
            );
            let headed =
                |out: &Option<String>, h: &str| out.as_deref().is_some_and(|o| o.starts_with(h));
            if !headed(&r.output, &h3) || !headed(&o.output, &h4) {
                continue;
            }
            let (x, y) = (
                r.output.as_deref().unwrap_or(""),
                o.output.as_deref().unwrap_or(""),
            );
            let same = x.get(8..) == y.get(8..);
            writeln!(
                md,
                "| {} | {} | {} | `{}` | {} | {} | {} |",
                t.name,
                t.id3.unwrap(),
                t.id4.unwrap(),
                r.name,
                app.code(&format!("{} {va}", r.name), x),
                app.code(&format!("{} {vb}", r.name), y),
                if same { "same layout" } else { "**differs**" }
            )
            .ok();
        }
        md.push('\n');
    }
}

/// §3: each claim of the documented spec put to the engines; returns how many they contradict.
fn documentation(md: &mut String, inp: &Inputs, app: &mut Appendix) -> usize {
    md.push_str("## 3. Where the documented spec disagrees with the engines\n\n");
    let at = |c: &str, path: &str| {
        format!(
            "[{}](https://github.com/godotengine/godot-docs/blob/{c}/{path})",
            &c[..7]
        )
    };
    let io = "tutorials/io/binary_serialization_api.rst";
    let misc = "tutorials/misc/binary_serialization_api.rst";
    writeln!(
        md,
        "Each claim of the published pages was turned into a vector and put to every engine it concerns; a row\n\
         is a discrepancy when the engine's answer contradicts the page (decided from the answer, see `CLAIMS`\n\
         in `lab/src/report/claims.rs`). The pages:\n\n\
         - \"4.x en (current)\": godot-docs `{io}` at commit {}, the current upstream page and the base of\n  \
         the corrected 4.x page (`docs/spec/changes.md` lists every change against it). It lists the 4.x\n  \
         types and documents typed containers, RID, Callable and Signal, but its type table puts Vector4\n  \
         at 11, Vector4i at 12 and Transform2D at 13, where the engines write Transform2D as 11 (row {});\n  \
         and it names the Basis and Transform3D components `x.x, x.y, x.z, y.x, …` in wire order, which\n  \
         with GDScript's meaning of `basis.x` (the x axis, a column) is the transpose of the wire (§7). Its\n  \
         claims are the rows naming it, agreements included.\n\
         - \"3.x en (48faee9)\": godot-docs `{misc}` at commit {}, the newest 3.x revision of the page\n  \
         readable here and the base of the corrected 3.x page.\n\
         - \"4.x en\": `{io}` at commit {}, the revision an earlier version of the corrected pages\n  \
         started from, which numbers the types as 3.x does; and three older 3.x pages (old English,\n  \
         French, Ukrainian).\n\n\
         docs/format-notes.md §7 lists what the earlier pages say and Godot's source for each claim.\n",
        at(claims::CURRENT, io),
        CLAIMS
            .iter()
            .position(|c| c.says.starts_with("the type table: 11 = Vector4"))
            .map_or(0, |i| i + 1),
        at(claims::BASE_3X, misc),
        at(claims::PUBLISHED, io),
    )
    .ok();
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
            .map(|(v, _, _)| short_version(v))
            .collect();
        if !yes.is_empty() {
            confirmed += 1;
        }
        // One line per distinct vector, naming the engines it was put to.
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for (v, p, a) in &answers {
            let cell = probe_cell(&a.probe, *p);
            match groups.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, vs)) => vs.push(short_version(v)),
                None => groups.push((cell, vec![short_version(v)])),
            }
        }
        let vectors: Vec<String> = groups
            .into_iter()
            .map(|(c, vs)| format!("{}: {c}", vs.join(", ")))
            .collect();
        let ans: Vec<String> = answers
            .iter()
            .map(|(v, _, a)| {
                format!(
                    "{}: {}",
                    short_version(v),
                    answer_cell(
                        &a.record,
                        app,
                        &format!("claim {} {}", i + 1, short_version(v))
                    )
                )
            })
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
    if inp.double_corpora.is_empty() {
        md.push_str("Not checked through the oracle: the double-precision notes (no double-precision engine's corpus).\n\n");
    } else {
        md.push_str("The page's sentence on double-precision builds is checked against a double build's corpus in §11.\n\n");
    }

    confirmed
}

/// §4: every defect, artefact and open codec difference from the campaigns' reproducers and the
/// corpus, each with its kind and cause; then the counts of each kind, §2's rows included.
fn engine_defects(md: &mut String, inp: &Inputs, version_rows: &[VersionRow], app: &mut Appendix) {
    md.push_str("## 4. Engine defects, oracle artefacts and codec differences found by campaigns and the corpus\n\n");
    if let Some(c) = &inp.campaign {
        write!(md, "{c}\n\n").ok();
    }
    md.push_str("The run log counts each class as a whole; it does not record a cause per case. The saved reproducers\n");
    md.push_str("(one per kind of difference and engine) and the corpus records below each carry their cause.\n\n");
    md.push_str("| source | engine | class | kind | cause | vector | engine's answer | replay |\n|---|---|---|---|---|---|---|---|\n");
    let mut causes: BTreeMap<(Kind, Cause), Vec<String>> = BTreeMap::new();
    for (path, f) in &inp.findings {
        let cause = kinds::finding(f);
        let label = path.rsplit('/').next().unwrap_or(path);
        let mut e = f.engine_answer.clone();
        if f.class == Class::EngineNondeterministic {
            // The reproducer holds one run's bytes; the next run writes others.
            e.nondeterministic = vec![Field::Output];
        }
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | `gdmarshal diff --replay {}` |",
            app.plain(&format!("{label} source"), &f.source(), 60),
            short_version(&f.version),
            f.class,
            cause.kind().name(),
            cause.name(),
            case_cell(&e, app, label),
            answer_cell(&e, app, label),
            path
        )
        .ok();
        causes
            .entry((cause.kind(), cause))
            .or_default()
            .push(format!("{} reproducer", short_version(&f.version)));
    }
    for c in inp.corpora {
        let v = short_version(&c.entry.version);
        for r in &c.records {
            let class = match (&r.verdict, r.nondeterministic.is_empty()) {
                (Verdict::Crashed, _) => "engine-crash",
                (Verdict::Hung, _) => "engine-hang",
                (_, false) => "engine-nondeterministic",
                _ => continue,
            };
            let cause = kinds::corpus_record(r);
            let label = format!("{} {v}", r.name);
            writeln!(
                md,
                "| corpus `{}` | {v} | {class} | {} | {} | {} | {} | `gdmarshal diff --engine {} --corpus-case {}` |",
                r.name,
                cause.kind().name(),
                cause.name(),
                case_cell(r, app, &label),
                answer_cell(r, app, &label),
                c.profile,
                r.name
            )
            .ok();
            causes
                .entry((cause.kind(), cause))
                .or_default()
                .push(format!("{v} corpus"));
        }
    }
    for r in version_rows {
        causes
            .entry((r.cause.kind(), r.cause))
            .or_default()
            .push(format!("{} → {} §2", r.versions.0, r.versions.1));
    }
    md.push_str("\n### Counts by kind and cause\n\n");
    md.push_str("Rows of the table above and of §2, counted by what they are. Engine defects are the engine's own\n");
    md.push_str("wrong behaviour; version differences are deliberate changes between versions; oracle artefacts come\n");
    md.push_str("from how the oracle's GDScript reads or re-encodes a value (the engine itself is right); codec\n");
    md.push_str("differences are open differences of this crate's codec.\n\n");
    md.push_str("| kind | cause | rows | where | why |\n|---|---|---|---|---|\n");
    for ((kind, cause), wheres) in &causes {
        let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
        for w in wheres {
            *tally.entry(w.as_str()).or_default() += 1;
        }
        let at: Vec<String> = tally.iter().map(|(w, n)| format!("{w} ×{n}")).collect();
        writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            kind.name(),
            cause.name(),
            wheres.len(),
            at.join(", "),
            cause.text()
        )
        .ok();
    }
    md.push('\n');
    let totals: Vec<String> = Kind::ALL
        .iter()
        .map(|k| {
            let n: usize = causes
                .iter()
                .filter(|((kk, _), _)| kk == k)
                .map(|(_, w)| w.len())
                .sum();
            format!("{n} {}", k.name())
        })
        .collect();
    writeln!(md, "In all: {}.", totals.join(", ")).ok();
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
        group_digits(t.cases())
    )
    .ok();
    md.push_str("| engine | campaigns | cases | engine time | cases/s | codec-differs | cases with engine findings |\n|---|---|---|---|---|---|---|\n");
    for (version, e) in &t.engines {
        let defects: u64 = e
            .counts
            .iter()
            .filter(|(c, _)| c.is_finding() && **c != Class::CodecDiffers)
            .map(|(_, n)| n)
            .sum();
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} |",
            short_version(version),
            e.campaigns,
            group_digits(e.cases),
            log::duration_text(e.secs),
            group_digits(e.rate().round() as u64),
            group_digits(e.counts.get(&Class::CodecDiffers).copied().unwrap_or(0)),
            group_digits(defects)
        )
        .ok();
    }
    nondeterministic_causes(md, &t);
}

/// §4, last part: the engine-nondeterministic cases of the campaigns that recorded their causes,
/// counted per cause.
fn nondeterministic_causes(md: &mut String, t: &Totals) {
    md.push_str("\n### Engine-nondeterministic campaign cases by cause\n\n");
    md.push_str("Campaigns record the cause of each engine-nondeterministic case (`campaign::causes`); campaigns logged\n");
    md.push_str("before causes were recorded count the class only, and are left out here.\n\n");
    md.push_str("| engine | campaigns with causes | nondeterministic cases in them | cause | cases | kind | why |\n|---|---|---|---|---|---|---|\n");
    let mut any = false;
    for (version, e) in &t.engines {
        if e.campaigns_with_causes == 0 {
            continue;
        }
        any = true;
        for (key, n) in &e.nondeterministic_causes {
            let cause = Cause::nondeterministic_by_key(key);
            writeln!(
                md,
                "| {} | {} of {} | {} | {} | {} | {} | {} |",
                short_version(version),
                e.campaigns_with_causes,
                e.campaigns,
                group_digits(e.nondeterministic_in_them),
                cause.map_or(key.as_str(), |c| c.name()),
                group_digits(*n),
                cause.map_or("", |c| c.kind().name()),
                cause.map_or("", |c| c.text())
            )
            .ok();
        }
    }
    if !any {
        md.push_str("| — | 0 | — | — | — | — | no logged campaign records causes yet |\n");
    }
}

/// §5: codec differences found against live engines (by the differential fuzz target or a
/// campaign), now fixed.
fn fixed_findings(md: &mut String, inp: &Inputs, app: &mut Appendix) {
    md.push_str("\n## 5. Codec differences found against live engines, now fixed\n\n");
    md.push_str("Inputs on which the codec answered otherwise than a live engine (found by the `differential`\n");
    md.push_str("fuzz target, docs/fuzzing.md, or a campaign). Each is fixed; `cargo test` judges the codec\n");
    md.push_str("against the engine's recorded answer in each file (`lab/tests/differential_findings.rs`).\n\n");
    md.push_str("| engine | source | input | what differed | engine's answer | replay |\n|---|---|---|---|---|---|\n");
    for (path, f) in &inp.fixed_findings {
        let label = path.rsplit('/').next().unwrap_or(path);
        writeln!(
            md,
            "| {} | {} | {} | {} | {} | `gdmarshal diff --replay {}` |",
            short_version(&f.version),
            app.plain(&format!("{label} source"), &f.source(), 60),
            case_cell(&f.engine_answer, app, label),
            app.plain(&format!("{label} detail"), differed(&f.detail), 160),
            answer_cell(&f.engine_answer, app, label),
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

/// What a finding's detail says differed, without the trees it quotes: the engine's tree as the
/// campaign first saw it may differ from the answer recorded on replay (the next column), which
/// is the one the row shows.
fn differed(detail: &str) -> &str {
    let first = detail.lines().next().unwrap_or("");
    first.strip_suffix(':').unwrap_or(first)
}

/// Writes the report to `path` and its other files beside it (`report/…md` and `spec/…` in the
/// same folder).
pub fn write(path: &Path, r: &Rendered) -> Result<(), FileError> {
    std::fs::write(path, &r.report).map_err(FileError::at(path))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    for (name, text) in &r.files {
        let p = dir.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(FileError::at(parent))?;
        }
        std::fs::write(&p, text).map_err(FileError::at(&p))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rid_record(value: &str, output: &str) -> Record {
        Record {
            name: "encode/RID/x".into(),
            direction: Direction::Encode,
            input: None,
            value: Some(serde_json::json!({"type": "RID", "value": value})),
            objects: false,
            verdict: Verdict::Accepted,
            consumed: None,
            tree: None,
            output: Some(output.into()),
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn a_type_row_whose_value_does_not_give_its_bytes_is_refused() {
        let p: Profile = "4.6".parse().unwrap();
        // The bytes 4.6.3 wrote for RID 1 (corpus encode/RID/one), paired with the value 0.
        let wrong = rid_record("0", "170000000100000000000000");
        assert!(check_encode_row(&wrong, p, "4.6.3").is_err());
        let right = rid_record("1", "170000000100000000000000");
        assert!(check_encode_row(&right, p, "4.6.3").is_ok());
    }
}
