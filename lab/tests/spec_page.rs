//! The generated pages (docs/spec/, written by `gdmarshal report`): every type id, every
//! fixed payload size and every matrix component order they state is checked against the profile
//! tables and against vectors the engines wrote (the corpus and corpus/framing/); every layout
//! they state is read out of an engine's bytes and compared with what the codec reads there;
//! every transport and get_var sentence is checked against corpus/framing/; and every change
//! listed in docs/spec/changes.md has its evidence recorded.

use std::path::Path;

use gdmarshal::json::unhex;
use gdmarshal::profile::Profile;
use gdmarshal::types::{Element, Shape, TYPES, TypeInfo, VariantType};
use gdmarshal_lab::corpus::{EngineCorpus, Verdict};
use gdmarshal_lab::framing::FramingRecord;
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
        framing: gdmarshal_lab::framing::load(&repo().join("corpus/framing")).unwrap(),
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
        // The type table in the header section lists the same ids.
        let table_start = page.find("| Type |").unwrap();
        let rows =
            parse_rows(&page[table_start..table_start + page[table_start..].find("\n\n").unwrap()]);
        for r in rows.iter().skip(1) {
            let t = type_by_page_name(&r[1], p.major()).unwrap();
            assert_eq!(
                p.id_of(t.ty).map(|i| i.to_string()),
                Some(r[0].clone()),
                "{p}: {r:?}"
            );
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

/// The value a row names, from the engines' own Basis (1,2,3)/(4,5,6)/(7,8,9), origin
/// (10,11,12), Transform2D columns (1,2)/(3,4)/(5,6) and Projection columns 1..16.
fn named(ty: VariantType, what: &str) -> f32 {
    let axis_of = |w: &str| ["X", "Y", "Z", "W"].iter().position(|a| w.starts_with(a));
    let comp = axis_of(what.trim_start_matches("The ")).unwrap();
    let of = what.split(" component of the ").nth(1).unwrap();
    let (n, col) = match ty {
        VariantType::Transform2D => (
            2,
            if of.starts_with("origin") {
                2
            } else {
                axis_of(of).unwrap()
            },
        ),
        VariantType::Projection => (4, axis_of(of).unwrap()),
        _ => (
            3,
            if of.starts_with("origin") {
                3
            } else {
                axis_of(of).unwrap()
            },
        ),
    };
    (col * n + comp + 1) as f32
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
        ("Float", 4) => format!("0x{:08x}", u32::from_le_bytes(bytes.try_into().unwrap())),
        ("Float", 8) => format!("0x{:016x}", u64::from_le_bytes(bytes.try_into().unwrap())),
        ("Integer", 4) => i32::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        ("Integer", 8) => i64::from_le_bytes(bytes.try_into().unwrap()).to_string(),
        other => panic!("no field of kind and length {other:?}"),
    }
}

/// An engine's bytes for a type: the `counting` case (distinct components) when recorded.
fn layout_vector(inp: &Inputs, t: &TypeInfo, major: u32, case: &str) -> Option<Vec<u8>> {
    let name = format!("encode/{}/{case}", t.name);
    inp.corpora
        .iter()
        .filter(|c| c.profile.major() == major && !c.profile.double_reals)
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
            let framing = if line.contains("the length, then the value") {
                gdmarshal::framing::Framing::StoreVar
            } else {
                assert!(line.contains("the value alone, no length"), "{p}: {line}");
                gdmarshal::framing::Framing::None
            };
            assert_eq!(
                gdmarshal::json::hex(&gdmarshal::framing::frame(&seven, framing)),
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
        says(
            "- A length shorter than the value makes the read fail; the reader has moved past the length and\n  that many bytes.",
        );
        for via in ["file", "stream"] {
            let r = read(&format!("read/{via}/length_short"));
            assert!(!r.read_ok() && r.position == Some(8), "{p} {via}");
        }
        says(
            "- A length longer than the value, with the bytes present, reads the value and skips the rest.",
        );
        for via in ["file", "stream", "packet", "tcp"] {
            let r = read(&format!("read/{via}/length_long_bytes_present"));
            assert!(r.read_ok(), "{p} {via}");
            if via == "file" || via == "stream" {
                assert_eq!(r.position, Some(16), "{p} {via}");
            }
        }
        if p.major() == 3 {
            says(
                "- A length past the end of the file: 3.2 reads the bytes there are and decodes them; 3.6 refuses.",
            );
            let older = framing_of(&inp, "3.2".parse().unwrap());
            assert!(framing_record(older, "read/file/length_past_end").read_ok());
            assert!(!read("read/file/length_past_end").read_ok(), "{p}");
        } else {
            says("- A length past the end of the file is refused.");
            assert!(!read("read/file/length_past_end").read_ok(), "{p}");
        }
        says(
            "- ``StreamPeer.get_var`` refuses a length past the end of the data; ``PacketPeerStream.get_var``\n  reads a packet only once all of it has arrived.",
        );
        for via in ["stream", "packet", "tcp"] {
            assert!(
                !read(&format!("read/{via}/length_past_end")).read_ok(),
                "{p} {via}"
            );
        }
        // A datagram is the bare value: get_var reads a bare encoding and not a framed one.
        says("are the bare value, as");
        assert!(read("read/udp/bare").read_ok(), "{p}");
        assert!(!read("read/udp/framed").read_ok(), "{p}");
    }
}

#[test]
fn every_change_has_its_evidence_recorded() {
    let inp = inputs();
    for c in spec::changes::CHANGES {
        for e in c.evidence {
            assert!(
                spec::changes::evidence_text(e, &inp.corpora, &inp.corpora, &inp.framing).is_some(),
                "no record for {e:?} ({})",
                c.text
            );
        }
    }
    // The committed list (written with the engines' claim answers): every numbered change
    // names a vector.
    let committed = std::fs::read_to_string(repo().join("docs").join(spec::CHANGES)).unwrap();
    let numbered: Vec<&str> = committed
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .collect();
    assert!(numbered.len() > 30, "{} changes", numbered.len());
    for l in numbered {
        let evidence = l.split_once("Evidence: ").map_or("", |(_, e)| e);
        let vector = evidence.split('`').skip(1).step_by(2).any(|code| {
            code.len() >= 8
                && code
                    .trim_end_matches('…')
                    .chars()
                    .all(|c| c.is_ascii_hexdigit())
        });
        assert!(vector, "no vector: {l}");
    }
}
