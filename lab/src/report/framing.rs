//! §6: what each transport's `put_var` / `store_var` writes around a value and what its
//! `get_var` reads back, per engine, from the framing corpus (`corpus/framing/`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::appendix::Appendix;
use super::{Inputs, RenderError};
use crate::campaign::log::short_version as short;
use crate::framing_corpus::{self, FramingRecord};
use gdmarshal::Profile;
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, to_json};

/// The transports of the framing corpus, as §6 names them.
const TRANSPORTS: &[(&str, &str)] = &[
    (
        "file",
        "`FileAccess` (3.x `File`) `store_var` / `get_var`, through a file",
    ),
    (
        "stream",
        "`StreamPeer.put_var` / `get_var` on a `StreamPeerBuffer`",
    ),
    (
        "packet",
        "`PacketPeerStream.put_var` / `get_var` over a `StreamPeerBuffer`",
    ),
    (
        "tcp",
        "`PacketPeerStream.put_var` / `get_var` over a `StreamPeerTCP` on loopback",
    ),
    (
        "udp",
        "`PacketPeerUDP.put_var` / `get_var`, one datagram on loopback",
    ),
];

fn profile_of(version: &str) -> Result<Profile, RenderError> {
    version
        .get(..3)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| RenderError::FramingVersion(version.to_string()))
}

/// A tree as the codec writes it for this profile (the engines order keys differently: 4.x's
/// JSON sorts them), or as recorded when the codec does not read it.
fn tree_text(t: Option<&Value>, p: Profile) -> String {
    let Some(t) = t else { return String::new() };
    from_json(t, p)
        .map(|v| to_json(&v, p, FloatStyle::Shortest))
        .unwrap_or_else(|_| t.clone())
        .to_string()
}

/// §6: what `store_var` / `put_var` write and what `get_var` reads back, per engine and
/// transport. Fails when the codec's framing does not reproduce a record.
pub(super) fn framing_section(
    md: &mut String,
    inp: &Inputs,
    app: &mut Appendix,
) -> Result<(), RenderError> {
    md.push_str("\n## 6. Framing: store_var, put_var and get_var\n\n");
    if inp.framing.is_empty() {
        md.push_str("No framing corpus (`corpus/framing/`) was given.\n");
        return Ok(());
    }
    md.push_str("Files, stream peers and `PacketPeerStream` write a 4-byte little-endian length of the encoded value,\n");
    md.push_str("then the value exactly as `var_to_bytes` writes it (padding included). Any other packet peer's\n");
    md.push_str("`put_var` hands the bare encoding to `put_packet`: a `PacketPeerUDP` datagram (and an ENet or\n");
    md.push_str("WebSocket packet) is the value alone, with no length. `full_objects` is passed to the encoder and\n");
    md.push_str("changes nothing for a value without objects. Recorded from each engine by `gdmarshal corpus framing`\n");
    md.push_str("(`corpus/framing/`) through each transport:\n\n");
    for (via, what) in TRANSPORTS {
        writeln!(md, "- `{via}`: {what}").ok();
    }
    md.push_str("\nThe report refuses to render unless `gdmarshal::framing` writes and reads every one of these byte\n");
    md.push_str("strings as the engine did. `gdmarshal decode/encode --framing store-var|stream|packet-stream` read\n");
    md.push_str("and write the framed ones, `--framing none` (the default) a datagram.\n\n");
    for (version, records) in &inp.framing {
        let p = profile_of(version)?;
        for r in records {
            framing_corpus::check(r, p).map_err(|problem| RenderError::Framing {
                case: r.name.clone(),
                version: version.clone(),
                problem: Box::new(problem),
            })?;
        }
    }
    md.push_str("### What they write\n\n");
    let versions: Vec<String> = inp.framing.iter().map(|(v, _)| short(v)).collect();
    write_table(md, inp, app, &versions)?;
    read_table(md, inp, app, &versions)?;
    md.push('\n');
    Ok(())
}

/// The framing records whose name starts with `prefix`, keyed by the case name without the API
/// (every transport side by side), one column of records per engine.
fn by_case<'a>(inp: &'a Inputs, prefix: &str) -> BTreeMap<String, Vec<Vec<&'a FramingRecord>>> {
    let mut rows: BTreeMap<String, Vec<Vec<&FramingRecord>>> = BTreeMap::new();
    for (i, (_, records)) in inp.framing.iter().enumerate() {
        for r in records {
            let Some(rest) = r.name.strip_prefix(prefix) else {
                continue;
            };
            let key = rest.split_once('/').map_or(rest, |(_, k)| k).to_string();
            let cols = rows
                .entry(key)
                .or_insert_with(|| vec![Vec::new(); inp.framing.len()]);
            cols[i].push(r);
        }
    }
    rows
}

/// Texts grouped by equal text, in first-seen order, each with the labels that share it.
fn grouped(items: Vec<(String, String)>) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (label, text) in items {
        match out.iter_mut().find(|(t, _)| *t == text) {
            Some((_, ls)) => ls.push(label),
            None => out.push((text, vec![label])),
        }
    }
    out
}

/// §6's table of what each engine writes through each transport.
fn write_table(
    md: &mut String,
    inp: &Inputs,
    app: &mut Appendix,
    versions: &[String],
) -> Result<(), RenderError> {
    write!(
        md,
        "| value | full_objects | {} |\n|---|---|{}\n",
        versions.join(" | "),
        "---|".repeat(versions.len())
    )
    .ok();
    for (key, cols) in &by_case(inp, "write/") {
        let first = cols.iter().flatten().next();
        let p = profile_of(&inp.framing[0].0)?;
        let value = tree_text(first.and_then(|r| r.value.as_ref()), p);
        let objects = first.is_some_and(|r| r.objects);
        let cells: Vec<String> = cols
            .iter()
            .zip(versions)
            .map(|(rs, v)| {
                let outs = rs
                    .iter()
                    .map(|r| (r.via.clone(), r.output.clone().unwrap_or_default()))
                    .collect();
                grouped(outs)
                    .into_iter()
                    .map(|(o, vias)| {
                        let label = format!("write {key} {v} {}", vias.join(" "));
                        format!("{}: {}", vias.join(", "), app.code(&label, &o))
                    })
                    .collect::<Vec<_>>()
                    .join("<br>")
            })
            .collect();
        writeln!(
            md,
            "| {} | {} | {} |",
            app.code(&format!("write {key} value"), &value),
            objects,
            cells.join(" | ")
        )
        .ok();
    }
    Ok(())
}

/// §6's table of what each engine's get_var reads through each transport.
fn read_table(
    md: &mut String,
    inp: &Inputs,
    app: &mut Appendix,
    versions: &[String],
) -> Result<(), RenderError> {
    md.push_str("\n### What get_var reads\n\n");
    md.push_str("Each input given to `get_var` through each transport (a datagram's cases are bare encodings, the\n");
    md.push_str("others' framed ones); \"fails\" is a null result (no case holds a Nil), \"moved\" how far the file or\n");
    md.push_str("stream position went. A packet peer pulls every available byte into its buffer and a datagram is\n");
    md.push_str("read whole, so neither has a position to show.\n\n");
    write!(
        md,
        "| case | allow_objects | input | {} |\n|---|---|---|{}\n",
        versions.join(" | "),
        "---|".repeat(versions.len())
    )
    .ok();
    for (key, cols) in &by_case(inp, "read/") {
        let mut items = Vec::new();
        for (rs, v) in cols.iter().zip(versions) {
            for r in rs {
                items.push((
                    format!("{v} {}", r.via),
                    r.input.clone().unwrap_or_default(),
                ));
            }
        }
        let inputs: Vec<String> = grouped(items)
            .into_iter()
            .map(|(hex, labels)| {
                let label = compress(&labels, cols, versions);
                let cell = app.code(&format!("read {key} input {label}"), &hex);
                format!("{label}: {cell}")
            })
            .collect();
        let objects = cols.iter().flatten().next().is_some_and(|r| r.objects);
        let mut cells = Vec::new();
        for ((rs, v), (version, _)) in cols.iter().zip(versions).zip(&inp.framing) {
            let p = profile_of(version)?;
            let lines: Vec<String> = rs
                .iter()
                .map(|r| {
                    let got = if r.read_ok() {
                        app.code(
                            &format!("read {key} {v} {}", r.via),
                            &tree_text(r.tree.as_ref(), p),
                        )
                    } else {
                        "fails".into()
                    };
                    let moved = match (r.via.as_str(), r.position) {
                        ("packet" | "tcp" | "udp", _) | (_, None) => String::new(),
                        (_, Some(pos)) => format!(", moved {pos} B"),
                    };
                    format!("{}: {got}{moved}", r.via)
                })
                .collect();
            cells.push(lines.join("<br>"));
        }
        writeln!(
            md,
            "| `{key}` | {objects} | {} | {} |",
            inputs.join("<br>"),
            cells.join(" | ")
        )
        .ok();
    }
    Ok(())
}

/// Labels `version via` shortened: "every engine" when all records share the input, a version
/// alone when all of its transports do, else the version with its transports.
fn compress(labels: &[String], cols: &[Vec<&FramingRecord>], versions: &[String]) -> String {
    let total: usize = cols.iter().map(Vec::len).sum();
    if labels.len() == total {
        return "every engine".into();
    }
    let mut out = Vec::new();
    for (rs, v) in cols.iter().zip(versions) {
        let vias: Vec<&str> = labels
            .iter()
            .filter_map(|l| l.split_once(' '))
            .filter(|(lv, _)| lv == v)
            .map(|(_, via)| via)
            .collect();
        if vias.is_empty() {
            continue;
        }
        if vias.len() == rs.len() {
            out.push(v.clone());
        } else {
            out.push(format!("{v} ({})", vias.join(", ")));
        }
    }
    out.join(", ")
}
