//! The generated pages (docs/spec/, written by `gdmarshal report`): every type id, every
//! fixed payload size and every matrix component order they state is checked against the profile
//! tables and against vectors the engines wrote (the corpus and corpus/framing/); every layout
//! they state is read out of an engine's bytes and compared with what the codec reads there;
//! every transport and get_var sentence is checked against corpus/framing/; and every change
//! listed in docs/spec/changes.md has its evidence recorded.

use std::path::Path;

use gdmarshal::hex::unhex;
use gdmarshal::profile::Profile;
use gdmarshal::types::{Element, Shape, TYPES, TypeInfo, VariantType};
use gdmarshal_lab::corpus::EngineCorpus;
use gdmarshal_lab::framing_corpus::FramingRecord;
use gdmarshal_lab::model::Verdict;
use gdmarshal_lab::report::spec::{self, rst::parse_rows};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

struct Inputs {
    corpora: Vec<EngineCorpus>,
    framing: Vec<(String, Vec<FramingRecord>)>,
}

fn inputs() -> Inputs {
    Inputs {
        corpora: gdmarshal_lab::corpus::load(&repo().join("corpus")).unwrap(),
        framing: gdmarshal_lab::framing_corpus::load(&repo().join("corpus/framing")).unwrap(),
    }
}

/// The page's type sections: (id, name, the section's text up to the next heading).
fn sections(page: &str) -> Vec<(u32, String, String)> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out: Vec<(u32, String, String)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let is_heading = lines
            .get(i + 1)
            .is_some_and(|u| !u.is_empty() && u.chars().all(|c| "^-=".contains(c)));
        if is_heading {
            let parsed = l.split_once(": :ref:`").and_then(|(id, rest)| {
                Some((id.parse::<u32>().ok()?, rest.split('<').next()?.to_string()))
            });
            match parsed {
                Some((id, name)) => out.push((id, name, String::new())),
                None if lines[i + 1].starts_with('-') || lines[i + 1].starts_with('=') => {
                    // A section heading ends the type sections' text.
                    if let Some(last) = out.last_mut() {
                        last.2.push('\u{0}');
                    }
                }
                None => {}
            }
        } else if let Some(last) = out.last_mut()
            && !last.2.contains('\u{0}')
        {
            last.2.push_str(l);
            last.2.push('\n');
        }
    }
    out
}

/// The rows of the first table in a section (without its header row).
fn first_table(text: &str) -> Vec<Vec<String>> {
    let start = text.find("+-").unwrap_or(text.len());
    let end = text[start..].find("\n\n").map_or(text.len(), |e| start + e);
    parse_rows(&text[start..end]).into_iter().skip(1).collect()
}

fn type_by_page_name(name: &str, major: u32) -> Option<&'static TypeInfo> {
    TYPES.iter().find(|t| spec::page_name(t, major) == name)
}

/// An accepted encode case of this type without header flags, from an engine of this major.
fn engine_vector(inp: &Inputs, t: &TypeInfo, major: u32) -> Option<Vec<u8>> {
    let prefix = format!("encode/{}/", t.name);
    inp.corpora
        .iter()
        .filter(|c| c.profile.major() == major)
        .flat_map(|c| &c.records)
        .filter(|r| r.name.starts_with(&prefix) && r.verdict == Verdict::Accepted && !r.objects)
        .filter_map(|r| unhex(r.output.as_deref()?).ok())
        .filter(|b| b.len() >= 4 && b[2] == 0 && b[3] == 0)
        .min_by_key(|b| b.len())
}

fn pages() -> Vec<(Profile, String)> {
    let inp = inputs();
    spec::files(&inp.corpora, &[], &inp.framing, &[])
        .into_iter()
        .filter_map(|(name, text)| {
            let p = if name == spec::PAGE_4X {
                "4.6"
            } else if name == spec::PAGE_3X {
                "3.6"
            } else {
                return None;
            };
            Some((p.parse().unwrap(), text))
        })
        .collect()
}

#[test]
fn every_type_id_on_the_pages_is_the_profiles() {
    for (p, page) in pages() {
        let secs = sections(&page);
        let expected = TYPES.iter().filter(|t| p.id_of(t.ty).is_some()).count();
        assert_eq!(secs.len(), expected, "{p}: one section per type");
        for (id, name, _) in &secs {
            let t = type_by_page_name(name, p.major()).unwrap_or_else(|| panic!("{p}: {name}"));
            assert_eq!(p.id_of(t.ty), Some(*id), "{p}: {name}");
        }
        // The type id table lists the same ids, in decimal and in hex.
        let table_start = page.find("| Id ").unwrap();
        let rows =
            parse_rows(&page[table_start..table_start + page[table_start..].find("\n\n").unwrap()]);
        assert_eq!(rows.len() - 1, expected, "{p}: one type id row per type");
        for r in rows.iter().skip(1) {
            let t = type_by_page_name(&r[2], p.major()).unwrap();
            let id = p.id_of(t.ty).unwrap();
            assert_eq!(r[0], id.to_string(), "{p}: {r:?}");
            assert_eq!(r[1], format!("0x{id:02x}"), "{p}: {r:?}");
        }
    }
}

fn fixed_size(shape: Shape, major: u32) -> bool {
    matches!(
        shape,
        Shape::Bool | Shape::Int | Shape::Float | Shape::Reals(_) | Shape::Ints(_) | Shape::Color
    ) || (shape == Shape::Rid && major == 4)
}

#[test]
fn every_fixed_payload_size_is_what_the_engines_write() {
    let inp = inputs();
    let mut checked = 0;
    for (p, page) in pages() {
        for (_, name, text) in sections(&page) {
            let t = type_by_page_name(&name, p.major()).unwrap();
            if !fixed_size(t.shape, p.major()) {
                continue;
            }
            let rows = first_table(&text);
            let size: usize = rows.iter().map(|r| r[1].parse::<usize>().unwrap()).sum();
            let v = engine_vector(&inp, t, p.major())
                .unwrap_or_else(|| panic!("{p}: no engine vector of {name}"));
            assert_eq!(4 + size, v.len(), "{p} {name}: page size vs engine bytes");
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn every_packed_element_size_is_what_the_engines_write() {
    let inp = inputs();
    for (p, page) in pages() {
        for (_, name, text) in sections(&page) {
            let t = type_by_page_name(&name, p.major()).unwrap();
            let Shape::Packed(e) = t.shape else { continue };
            let rows = first_table(&text);
            let element: usize = rows
                .iter()
                .skip(1)
                .map(|r| r[1].parse::<usize>().unwrap())
                .sum();
            let case = format!("encode/{}/len1", t.name);
            let out = inp
                .corpora
                .iter()
                .filter(|c| c.profile.major() == p.major())
                .flat_map(|c| &c.records)
                .find(|r| r.name == case)
                .and_then(|r| unhex(r.output.as_deref()?).ok())
                .unwrap_or_else(|| panic!("{p}: no {case}"));
            let padded = if e == Element::U8 { 4 } else { element };
            assert_eq!(out.len(), 8 + padded, "{p} {name}");
        }
    }
}

/// The value a row names (its field, as the type table names it: ``x.y`` is component y of the
/// column x), from the engines' own Basis (1,2,3)/(4,5,6)/(7,8,9), origin (10,11,12),
/// Transform2D columns (1,2)/(3,4)/(5,6) and Projection columns 1..16.
fn named(ty: VariantType, field: &str) -> f32 {
    let field = field.trim_matches('`');
    let field = field.strip_prefix("basis.").unwrap_or(field);
    let (col, comp) = field.split_once('.').unwrap();
    let axis = |w: &str| ["x", "y", "z", "w"].iter().position(|a| *a == w);
    let (n, last) = match ty {
        VariantType::Transform2D => (2, 2),
        VariantType::Projection => (4, 4),
        _ => (3, 3),
    };
    let col = if col == "origin" {
        last
    } else {
        axis(col).unwrap()
    };
    (col * n + axis(comp).unwrap() + 1) as f32
}

#[test]
fn every_matrix_component_is_where_the_engines_write_it() {
    let inp = inputs();
    let mut checked = 0;
    for (p, page) in pages() {
        for (version, records) in inp
            .framing
            .iter()
            .filter(|(v, _)| v.starts_with(&p.major().to_string()))
        {
            let a = records
                .iter()
                .find(|r| r.name == "axes")
                .and_then(|r| r.answer.clone())
                .unwrap();
            for (_, name, text) in sections(&page) {
                let t = type_by_page_name(&name, p.major()).unwrap();
                let key = match t.ty {
                    VariantType::Basis => "basis",
                    VariantType::Transform3D => "transform",
                    VariantType::Transform2D => "transform2d",
                    VariantType::Projection => "projection",
                    _ => continue,
                };
                let bytes = unhex(a[key].as_str().unwrap()).unwrap();
                for r in first_table(&text) {
                    let at: usize = r[0].parse().unwrap();
                    let got = f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
                    assert_eq!(
                        got,
                        named(t.ty, &r[3]),
                        "{version} {name} offset {at}: {}",
                        r[3]
                    );
                    checked += 1;
                }
            }
        }
    }
    // Basis 9 + Transform3D 12 + Transform2D 6 on three engines, Projection 16 on one.
    assert_eq!(checked, 27 * 3 + 16);
}

/// A component as the codec's tagged JSON writes it with exact float bits.
fn component_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.to_lowercase(),
        other => other.to_string(),
    }
}

/// What `len` bytes of kind `kind` hold, as the codec's tagged JSON writes such a component.
fn field_text(bytes: &[u8], kind: &str) -> String {
    match (kind, bytes.len()) {
        ("f32", 4) => format!("0x{:08x}", u32::from_le_bytes(bytes.try_into().unwrap())),
        ("f64", 8) => format!("0x{:016x}", u64::from_le_bytes(bytes.try_into().unwrap())),
        ("i32", 4) => i32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        ("i64", 8) => i64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        other => panic!("no field of kind and length {other:?}"),
    }
}

/// An engine's bytes for a type: the `counting` case (distinct components) when recorded.
fn layout_vector(inp: &Inputs, t: &TypeInfo, major: u32, case: &str) -> Option<Vec<u8>> {
    let name = format!("encode/{}/{case}", t.name);
    inp.corpora
        .iter()
        .filter(|c| c.profile.major() == major && !c.profile.double_reals())
        .flat_map(|c| &c.records)
        .find(|r| r.name == name && r.verdict == Verdict::Accepted)
        .and_then(|r| unhex(r.output.as_deref()?).ok())
}

/// The codec reads the engine's bytes, writes them back byte for byte, and each component it
/// reads is where, how long and of what kind the page's row says.
fn check_rows(p: Profile, name: &str, bytes: &[u8], rows: &[(usize, usize, String)]) -> usize {
    let d = gdmarshal::decode(bytes, p, gdmarshal::DecodeOptions::default()).unwrap();
    let again = gdmarshal::encode(&d.value, p, gdmarshal::EncodeOptions::default()).unwrap();
    assert_eq!(
        again, bytes,
        "{p} {name}: the codec writes the engine's bytes back"
    );
    let tree = gdmarshal::json::to_json(&d.value, p, gdmarshal::float::FloatStyle::Bits);
    let comps: Vec<String> = match &tree["value"] {
        serde_json::Value::Array(xs) => xs
            .iter()
            .flat_map(|x| match x {
                serde_json::Value::Array(inner) => inner.iter().map(component_text).collect(),
                other => vec![component_text(other)],
            })
            .collect(),
        other => panic!("{p} {name}: no components in {other}"),
    };
    assert_eq!(comps.len(), rows.len(), "{p} {name}: one row per component");
    for ((at, len, kind), want) in rows.iter().zip(&comps) {
        let field = bytes
            .get(*at..at + len)
            .unwrap_or_else(|| panic!("{p} {name}: offset {at} past the engine's bytes"));
        assert_eq!(
            &field_text(field, kind),
            want,
            "{p} {name} offset {at} ({kind})"
        );
    }
    rows.len()
}

#[test]
fn every_stated_layout_reads_the_engines_bytes_with_the_codec() {
    let inp = inputs();
    let mut checked = 0;
    for (p, page) in pages() {
        for (_, name, text) in sections(&page) {
            let t = type_by_page_name(&name, p.major()).unwrap();
            let table = first_table(&text);
            match t.shape {
                Shape::Reals(_) | Shape::Ints(_) | Shape::Color => {
                    let bytes = layout_vector(&inp, t, p.major(), "counting")
                        .or_else(|| layout_vector(&inp, t, p.major(), "rgba"))
                        .unwrap_or_else(|| panic!("{p}: no engine vector of {name}"));
                    let rows: Vec<(usize, usize, String)> = table
                        .iter()
                        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap(), r[2].clone()))
                        .collect();
                    checked += check_rows(p, &name, &bytes, &rows);
                }
                Shape::Packed(e) if e != Element::U8 => {
                    let bytes = layout_vector(&inp, t, p.major(), "len3")
                        .unwrap_or_else(|| panic!("{p}: no engine vector of {name}"));
                    let n = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
                    // The element rows' offsets are `8+K+i*STRIDE`.
                    let mut rows = Vec::new();
                    for i in 0..n {
                        for r in table.iter().skip(1) {
                            let (k, stride) = r[0]
                                .strip_prefix("8+")
                                .and_then(|x| x.split_once("+i*"))
                                .unwrap_or_else(|| panic!("{p} {name}: offset {}", r[0]));
                            let at = 8
                                + k.parse::<usize>().unwrap()
                                + i * stride.parse::<usize>().unwrap();
                            rows.push((at, r[1].parse().unwrap(), r[2].clone()));
                        }
                    }
                    checked += check_rows(p, &name, &bytes, &rows);
                }
                _ => {}
            }
        }
    }
    assert!(checked > 200, "{checked} components checked");
}

/// The framing records of the newest engine of the page's version.
fn framing_of(inp: &Inputs, p: Profile) -> &[FramingRecord] {
    &inp.framing
        .iter()
        .rev()
        .find(|(v, _)| v.starts_with(&format!("{p}.")))
        .unwrap()
        .1
}

fn framing_record<'a>(rs: &'a [FramingRecord], name: &str) -> &'a FramingRecord {
    rs.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no framing record {name}"))
}

#[test]
fn every_transport_sentence_is_what_the_engines_put_on_the_wire() {
    let inp = inputs();
    for (p, page) in pages() {
        let records = framing_of(&inp, p);
        let seven = gdmarshal::encode(&gdmarshal::Variant::Int(7), p, Default::default()).unwrap();
        for t in spec::TRANSPORTS {
            let api = if p.major() == 3 { t.api3 } else { t.api4 };
            let line = page
                .lines()
                .find(|l| l.starts_with(&format!("- {api}: ")))
                .unwrap_or_else(|| panic!("{p}: no sentence on {api}"));
            let bytes = line.rsplit("``").nth(1).unwrap();
            let via = t.via.unwrap();
            let engine = framing_record(records, &format!("write/{via}/int_7"));
            assert_eq!(Some(bytes), engine.output.as_deref(), "{p} {api}");
            let framing = if line.contains(spec::transports::WITH_LENGTH) {
                gdmarshal::framing::Framing::StoreVar
            } else {
                assert!(line.contains(spec::transports::BARE), "{p}: {line}");
                gdmarshal::framing::Framing::None
            };
            assert_eq!(
                gdmarshal::hex::hex(&gdmarshal::framing::frame(&seven, framing)),
                bytes,
                "{p}: {line}"
            );
        }
    }
}

#[test]
fn every_get_var_sentence_is_what_the_engines_read() {
    let inp = inputs();
    for (p, page) in pages() {
        let records = framing_of(&inp, p);
        let read = |name: &str| framing_record(records, name);
        let says = |s: &str| assert!(page.contains(s), "{p}: the page no longer says {s:?}");
        use spec::transports::{LONG, PAST_END_3, PAST_END_4, PEERS, SHORT};
        says(SHORT);
        for via in ["file", "stream"] {
            let r = read(&format!("read/{via}/length_short"));
            assert!(!r.read_ok() && r.position == Some(8), "{p} {via}");
        }
        says(LONG);
        for via in ["file", "stream", "packet", "tcp"] {
            let r = read(&format!("read/{via}/length_long_bytes_present"));
            assert!(r.read_ok(), "{p} {via}");
            if via == "file" || via == "stream" {
                assert_eq!(r.position, Some(16), "{p} {via}");
            }
        }
        if p.major() == 3 {
            says(PAST_END_3);
            let older = framing_of(&inp, "3.2".parse().unwrap());
            assert!(framing_record(older, "read/file/length_past_end").read_ok());
            assert!(!read("read/file/length_past_end").read_ok(), "{p}");
        } else {
            says(PAST_END_4);
            assert!(!read("read/file/length_past_end").read_ok(), "{p}");
        }
        says(PEERS);
        for via in ["stream", "packet", "tcp"] {
            assert!(
                !read(&format!("read/{via}/length_past_end")).read_ok(),
                "{p} {via}"
            );
        }
        // A datagram is the bare value: get_var reads a bare encoding and not a framed one.
        says("a packet is exactly what");
        assert!(read("read/udp/bare").read_ok(), "{p}");
        assert!(!read("read/udp/framed").read_ok(), "{p}");
    }
}

#[test]
fn every_change_has_its_evidence_recorded() {
    let inp = inputs();
    for c in spec::changes::CHANGES.iter().chain(spec::changes::ADDED) {
        for e in c.evidence {
            assert!(
                spec::changes::evidence_text(e, &inp.corpora, &inp.corpora, &inp.framing).is_some(),
                "no record for {e:?} ({})",
                c.text
            );
        }
    }
    // The committed list (written with the engines' claim answers): a section per base, naming
    // its commit, and every numbered change names a vector or a line of Godot's source.
    let committed = std::fs::read_to_string(repo().join("docs").join(spec::CHANGES)).unwrap();
    for b in &spec::changes::BASES {
        assert!(committed.contains(b.commit), "no section for {}", b.commit);
    }
    let numbered: Vec<&str> = committed
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect();
    assert!(numbered.len() > 40, "{} changes", numbered.len());
    for l in numbered {
        let evidence = l.split_once("Evidence: ").map_or("", |(_, e)| e);
        let vector = evidence.split('`').skip(1).step_by(2).any(|code| {
            code.len() >= 8
                && code
                    .trim_end_matches('…')
                    .chars()
                    .all(|c| c.is_ascii_hexdigit())
        });
        assert!(
            vector || evidence.starts_with("Godot's source, "),
            "no vector: {l}"
        );
    }
}

/// A fact a page states and the recorded engine answer that shows it.
struct Fact {
    /// The page's major version.
    major: u32,
    /// Words the page says.
    says: &'static str,
    /// The corpus case that shows it, and the engine versions (by prefix) whose answer does.
    case: &'static str,
    versions: &'static [&'static str],
    /// Whether the engine's answer shows the fact.
    holds: fn(&gdmarshal_lab::model::Record) -> bool,
}

fn output_len(r: &gdmarshal_lab::model::Record) -> usize {
    r.output.as_deref().map_or(0, |h| h.len() / 2)
}

fn tree(r: &gdmarshal_lab::model::Record) -> serde_json::Value {
    r.tree.clone().unwrap_or_default()
}

fn rejected(r: &gdmarshal_lab::model::Record) -> bool {
    r.verdict == Verdict::Rejected
}

const FACTS: &[Fact] = &[
    Fact {
        major: 4,
        says: "bit 1, one subname more follows than the count says",
        case: "decode/noncanonical/nodepath_property_flag",
        versions: &["4.6"],
        holds: |r| {
            tree(r)["names"] == serde_json::json!(["a"])
                && tree(r)["subnames"] == serde_json::json!(["b"])
        },
    },
    Fact {
        major: 3,
        says: "bit 1, one subname more follows than the count says",
        case: "decode/noncanonical/nodepath_property_flag",
        versions: &["3.2", "3.6"],
        holds: |r| {
            tree(r)["names"] == serde_json::json!(["a"])
                && tree(r)["subnames"] == serde_json::json!(["b"])
        },
    },
    Fact {
        major: 4,
        says: "an id of 0 reads as null",
        case: "decode/noncanonical/object_id_zero",
        versions: &["4.6"],
        holds: |r| tree(r) == serde_json::json!({"type": "Object", "value": null}),
    },
    Fact {
        major: 3,
        says: "an id of 0 reads as null",
        case: "decode/noncanonical/object_id_zero",
        versions: &["3.2", "3.6"],
        holds: |r| tree(r) == serde_json::json!({"type": "Object", "value": null}),
    },
    Fact {
        major: 4,
        says: "so a NaN always takes 12 bytes",
        case: "encode/float/nan",
        versions: &["4.6"],
        holds: |r| output_len(r) == 12,
    },
    Fact {
        major: 3,
        says: "so a NaN always takes 12 bytes",
        case: "encode/float/nan",
        versions: &["3.2", "3.6"],
        holds: |r| output_len(r) == 12,
    },
    Fact {
        major: 4,
        says: "the infinities and -0.0 take 8",
        case: "encode/float/neg_zero",
        versions: &["4.6"],
        holds: |r| output_len(r) == 8,
    },
    Fact {
        major: 4,
        says: "the infinities and -0.0 take 8",
        case: "encode/float/inf",
        versions: &["4.6"],
        holds: |r| output_len(r) == 8,
    },
    Fact {
        major: 4,
        says: "2147483647 takes 8 bytes and 2147483648 takes 12",
        case: "encode/int/2147483647",
        versions: &["4.6"],
        holds: |r| output_len(r) == 8,
    },
    Fact {
        major: 4,
        says: "2147483647 takes 8 bytes and 2147483648 takes 12",
        case: "encode/int/2147483648",
        versions: &["4.6"],
        holds: |r| output_len(r) == 12,
    },
    Fact {
        major: 4,
        says: "a lone continuation byte such as 0x80, an overlong form, an encoded surrogate",
        case: "decode/string_bytes/lone_continuation",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "a lone continuation byte such as 0x80, an overlong form, an encoded surrogate",
        case: "decode/string_bytes/overlong_slash",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "a lone continuation byte such as 0x80, an overlong form, an encoded surrogate",
        case: "decode/string_bytes/surrogate_high",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 3,
        says: "(a lone continuation byte such as 0x80, the bytes 0xFE and 0xFF)",
        case: "decode/string_bytes/lone_continuation",
        versions: &["3.2", "3.6"],
        holds: rejected,
    },
    Fact {
        major: 3,
        says: "(a lone continuation byte such as 0x80, the bytes 0xFE and 0xFF)",
        case: "decode/string_bytes/bad_lead_ff",
        versions: &["3.2", "3.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "in the order the entries were inserted",
        case: "encode/Dictionary/mixed",
        // Keys inserted as 1, "b", null: a null key (type 0) written last is not an order by type.
        versions: &["4.6"],
        holds: |r| r.tree.is_some() && tree(r)["value"][2][0]["type"] == "Nil",
    },
    // 4.x encoder: the oracle cannot carry a value this deep to a 4.x engine (its JSON reader
    // stops first); 3.6 shows the encoder's refusal.
    Fact {
        major: 3,
        says: "when encoding and when reading",
        case: "encode/depth/int_at_1025",
        versions: &["3.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "A value deeper than 1024 is refused by the encoder and by the reader alike",
        case: "decode/depth/arrays_1025",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 3,
        says: "and refuses a value deeper than 1024, when\nencoding and when reading",
        case: "decode/depth/arrays_1025",
        versions: &["3.6"],
        holds: rejected,
    },
    Fact {
        major: 3,
        says: "Godot 3.2 has no limit",
        case: "decode/depth/arrays_1025",
        versions: &["3.2"],
        holds: |r| r.verdict == Verdict::Accepted,
    },
    Fact {
        major: 4,
        says: "the property ``script`` holds the path of the attached script (``res://…``) as a String",
        case: "decode/objects/full_script_path",
        versions: &["4.6"],
        // The input holds the name "script" and then a String header (type 4) whose text starts
        // with res://, and the engine wrote it back unchanged.
        holds: |r| {
            let input = r.input.clone().unwrap_or_default();
            let script = gdmarshal::hex::hex(b"script");
            let path = gdmarshal::hex::hex(b"res://");
            input.split(&script).nth(1).is_some_and(|rest| {
                rest.starts_with("0000")
                    && rest[4..].starts_with("04000000")
                    && rest.contains(&path)
            }) && r.output.as_deref() == Some(&input)
        },
    },
    Fact {
        major: 4,
        says: "GDScript's ``Array[Object]`` is typed with the class ``Object``, so it is written as kind 2",
        case: "encode/typed/object_class_array",
        versions: &["4.6"],
        // Kind 2 (bits 16-17) and the class name EncodedObjectAsID.
        holds: |r| {
            r.output.as_deref().is_some_and(|o| {
                o.starts_with("1c000200") && o.contains(&gdmarshal::hex::hex(b"EncodedObjectAsID"))
            })
        },
    },
    Fact {
        major: 4,
        says: "kind 1 with type id 24 (Object) appears only for a container typed with the built-in Object type and an empty class name",
        case: "encode/typed/builtin_object_array",
        versions: &["4.6"],
        holds: |r| r.output.as_deref() == Some("1c0001001800000000000000"),
    },
    Fact {
        major: 4,
        says: "The encoder picks the short form whenever the value lies in the i32 range",
        case: "encode/int/-2147483649",
        versions: &["4.6"],
        holds: |r| output_len(r) == 12,
    },
    Fact {
        major: 4,
        says: "an empty array at depth 1024 is read, an int at depth 1025 is not",
        case: "decode/valid/Array/depth_1024",
        versions: &["4.6"],
        holds: |r| r.verdict == Verdict::Accepted,
    },
    Fact {
        major: 4,
        says: "one of 2^31 or more is refused unless the type's section says otherwise",
        case: "decode/hostile_count/String/0x80000000",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "reads a count of 2^31 or more as an empty array",
        case: "decode/hostile_count/PackedStringArray/0x80000000",
        versions: &["4.6"],
        holds: |r| tree(r)["value"] == serde_json::json!([]),
    },
    Fact {
        major: 4,
        says: "the reader fails unless the value is Nil or the path of a script that exists",
        case: "decode/objects/full_script_user_path",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "which a reader refuses unless it is a type id of the table above",
        case: "decode/noncanonical/typed_bad_builtin",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "are written as zeros from 4.6.3 on",
        case: "encode/NodePath/padded_names",
        versions: &["4.6"],
        // Names "a", "bc", "def" and the subname "é": the bytes after each are zero, and the
        // engine wrote the same bytes on both runs that recorded the corpus.
        holds: |r| {
            r.nondeterministic.is_empty()
                && r.output.as_deref()
                    == Some(
                        "1600000003000080010000000100000001000000610000000200000062630000030000006465660002000000c3a90000",
                    )
        },
    },
    Fact {
        major: 4,
        says: "id 0, Nil, reads as untyped",
        case: "decode/noncanonical/typed_nil",
        versions: &["4.6"],
        holds: |r| r.verdict == Verdict::Accepted && tree(r).get("element_type").is_none(),
    },
    Fact {
        major: 4,
        says: "id 24, Object, reads as the class ``EncodedObjectAsID`` unless objects are allowed",
        case: "decode/noncanonical/typed_builtin_object",
        versions: &["4.6"],
        holds: |r| {
            !r.objects
                && tree(r)["element_type"] == serde_json::json!({"class": "EncodedObjectAsID"})
        },
    },
    Fact {
        major: 4,
        says: "a reader fails unless the path starts with ``res://`` and names a script that loads",
        case: "decode/objects/typed_script_not_res_path",
        versions: &["4.6"],
        holds: |r| r.objects && rejected(r),
    },
    Fact {
        major: 4,
        says: "must be there, even when the string ends the input",
        case: "decode/string_bytes/bom_then_text/unpadded",
        versions: &["4.6"],
        holds: rejected,
    },
    Fact {
        major: 3,
        says: "must be there, even when the string ends the input",
        case: "decode/string_bytes/bom_then_text/unpadded",
        versions: &["3.2", "3.6"],
        holds: rejected,
    },
    Fact {
        major: 4,
        says: "an entry whose key does not convert is dropped",
        case: "decode/noncanonical/typed_dict_int_keys_holding_string",
        versions: &["4.6"],
        holds: |r| tree(r)["value"] == serde_json::json!([]),
    },
    Fact {
        major: 4,
        says: "(an empty String becomes a black Color)",
        case: "decode/noncanonical/typed_dict_color_key_from_empty_string",
        versions: &["4.6"],
        holds: |r| tree(r)["value"][0][0]["value"] == serde_json::json!(["0", "0", "0", "1"]),
    },
    Fact {
        major: 4,
        says: "a Vector2 to a Vector2i) and drops the others",
        case: "decode/typed_conversions/Vector2i_from_Vector2",
        versions: &["4.6"],
        holds: |r| r.verdict == Verdict::Accepted && tree(r)["value"][0]["type"] == "Vector2i",
    },
];

#[test]
fn every_added_fact_is_on_its_page_and_what_the_engines_do() {
    let inp = inputs();
    let pages = pages();
    for f in FACTS {
        let (_, page) = pages.iter().find(|(p, _)| p.major() == f.major).unwrap();
        // The page wraps lines: compare with single spaces.
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat(page).contains(&flat(f.says)),
            "the {}.x page does not say {:?}",
            f.major,
            f.says
        );
        for v in f.versions {
            let c = inp
                .corpora
                .iter()
                .find(|c| c.entry.version.starts_with(v) && !c.profile.double_reals())
                .unwrap_or_else(|| panic!("no corpus of {v}"));
            let r = c
                .records
                .iter()
                .find(|r| r.name == f.case)
                .unwrap_or_else(|| panic!("{v}: no case {}", f.case));
            assert!(
                (f.holds)(r),
                "{v} {}: the answer ({:?}, output {:?}) does not show {:?}",
                f.case,
                r.verdict,
                r.output.as_deref().map(|o| &o[..o.len().min(80)]),
                f.says
            );
        }
    }
}
