//! The page's reading rules: what Godot's readers accept and refuse beyond the layouts, each
//! rule listed when the engines of the page's major version follow it (decided from their
//! recorded answers, `super::super::reference::RULES`), with the releases named only where
//! they differ.

use std::fmt::Write as _;

use gdmarshal::profile::Profile;

use super::super::reference::RULES;
use super::rst::heading;
use crate::corpus::EngineCorpus;
use crate::framing_corpus::FramingRecord;

fn minor(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// The releases of the page's major version whose corpus the rules are decided on (the
/// default, single-precision builds).
fn releases(corpora: &[EngineCorpus], p: Profile) -> Vec<String> {
    let mut out: Vec<String> = corpora
        .iter()
        .filter(|c| c.profile.major() == p.major() && !c.profile.double_reals())
        .map(|c| minor(&c.entry.version))
        .collect();
    out.dedup();
    out
}

fn and_list(xs: &[String]) -> String {
    match xs {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The section.
pub fn section(
    md: &mut String,
    corpora: &[EngineCorpus],
    framing: &[(String, Vec<FramingRecord>)],
    p: Profile,
) {
    md.push_str(&heading("Reading rules", '-'));
    let all = releases(corpora, p);
    writeln!(
        md,
        "Godot's readers accept more than the layouts above spell out, and refuse some inputs before\n\
         reading them. A reader that is to accept exactly what Godot accepts follows these rules. They\n\
         were observed on Godot {}; a rule that holds for only some of them names those.\n",
        and_list(&all)
    )
    .ok();
    for rule in RULES {
        let followed: Vec<String> = corpora
            .iter()
            .filter(|c| c.profile.major() == p.major() && !c.profile.double_reals())
            .filter_map(|c| {
                let r = c.records.iter().find(|r| r.name == rule.case)?;
                (rule.holds)(r).then(|| minor(&c.entry.version))
            })
            .collect();
        if followed.is_empty() {
            continue;
        }
        let only = if followed.len() < all.len() {
            format!(" Only {}.", and_list(&followed))
        } else {
            String::new()
        };
        writeln!(md, "- {}.{only}", capitalised(&in_names_of(rule.says, p))).ok();
    }
    // Read through get_var (corpus/framing/): the same reader as bytes_to_var.
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
        .map(|(v, _)| minor(v))
        .collect();
    if !dropped.is_empty() {
        let only = if dropped.len() < all.len() {
            format!(" Only {}.", and_list(&dropped))
        } else {
            String::new()
        };
        writeln!(
            md,
            "- A NodePath with no names and no subnames loses its absolute flag.{only}"
        )
        .ok();
    }
    md.push('\n');
}

/// The text with the 4.x type names it uses replaced by the page's (PackedByteArray is
/// PoolByteArray on a 3.x page).
fn in_names_of(text: &str, p: Profile) -> String {
    let mut out = text.to_string();
    for t in gdmarshal::types::TYPES.iter() {
        let name = super::page_name(t, p.major());
        if name == t.name {
            continue;
        }
        let mut replaced = String::new();
        let mut rest = out.as_str();
        while let Some(i) = rest.find(t.name) {
            let after = &rest[i + t.name.len()..];
            let bounded = !rest[..i].ends_with(|c: char| c.is_alphanumeric())
                && !after.starts_with(|c: char| c.is_alphanumeric());
            replaced.push_str(&rest[..i]);
            replaced.push_str(if bounded { name } else { t.name });
            rest = after;
        }
        replaced.push_str(rest);
        out = replaced;
    }
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
