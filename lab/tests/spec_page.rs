//! The generated pages (docs/spec/, written by `gdmarshal report`): every type id, every
//! fixed payload size and every matrix component order they state is checked against the profile
//! tables and against vectors the engines wrote (the corpus and corpus/framing/).

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
    spec::files(&inp.corpora, &inp.framing)
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

#[test]
fn the_framing_example_is_what_the_engines_wrote() {
    let inp = inputs();
    for (p, page) in pages() {
        let (_, records) = inp
            .framing
            .iter()
            .rev()
            .find(|(v, _)| v.starts_with(&p.to_string()))
            .unwrap();
        let bytes = records
            .iter()
            .find(|r| r.name == "write/file/int_7")
            .unwrap()
            .output
            .clone()
            .unwrap();
        assert!(
            page.contains(&format!("``store_var(7)`` writes ``{bytes}``")),
            "{p}"
        );
    }
}
