//! A regression report for an engine build: every case of a recorded version's corpus asked of
//! the build (the drift check of [`super::drift`]), and what changed, per case with both answers
//! and the field that differs, as text or as Markdown fit for a pull-request comment.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::drift::{Changed, EngineDrift};
use crate::model::Field;
use crate::model::record::Record;

/// The report of one build against one recorded corpus.
#[derive(Clone, Debug)]
pub struct Regression {
    /// The build's engine name (`gdmarshal engines`).
    pub engine: String,
    /// The build's full version string.
    pub engine_version: String,
    /// The recorded version it is held against (`4.6.3.stable`).
    pub against: String,
    /// What the build answered.
    pub drift: EngineDrift,
}

/// The longest answer shown whole; longer ones are cut, with their length.
const SHOWN: usize = 160;

/// Cases the Markdown report details; the rest are counted (a pull-request comment holds 64 KiB).
const MARKDOWN_CASES: usize = 60;

impl Regression {
    /// Whether the build answered every case as recorded.
    pub fn clean(&self) -> bool {
        self.drift.clean()
    }

    fn summary(&self) -> String {
        format!(
            "{} cases asked, {} answered differently, {} unanswered",
            self.drift.asked,
            self.drift.changed.len(),
            self.drift.unanswered.len()
        )
    }

    /// The changed cases per family (the first two parts of their names), in name order.
    fn families(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for c in &self.drift.changed {
            let family: Vec<&str> = c.corpus.name.splitn(3, '/').take(2).collect();
            *out.entry(family.join("/")).or_insert(0) += 1;
        }
        out
    }

    /// The report as plain text: one `CHANGED` block per case, then the summary.
    pub fn text(&self) -> String {
        let mut out = format!(
            "engine {} ({}) against the recorded answers of Godot {}\n",
            self.engine, self.engine_version, self.against
        );
        for c in &self.drift.changed {
            let _ = writeln!(
                out,
                "CHANGED {}: {}",
                c.corpus.name,
                Field::names(&c.fields)
            );
            let _ = writeln!(out, "  {:<9} {}", "asked", shorten(&question(&c.corpus)));
            for &f in &c.fields {
                let _ = writeln!(
                    out,
                    "  {f:<9} recorded:   {}",
                    shorten(&field(&c.corpus, f))
                );
                let _ = writeln!(
                    out,
                    "  {:<9} this build: {}",
                    "",
                    shorten(&field(&c.now, f))
                );
            }
        }
        for u in &self.drift.unanswered {
            let _ = writeln!(out, "UNANSWERED {u}");
        }
        for (family, n) in self.families() {
            let _ = writeln!(out, "{family}: {n} changed");
        }
        if let Some(p) = &self.drift.problem {
            let _ = writeln!(out, "not checked: {p}");
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// The report as Markdown for a pull-request comment: the summary, the changed cases per
    /// family, and the first cases in detail with both answers of each differing field.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "### gdmarshal: Godot `{}` against the recorded answers of Godot {}\n\n",
            md_code(&self.engine_version),
            self.against
        );
        if let Some(p) = &self.drift.problem {
            let _ = writeln!(out, "**Not checked:** {p}\n");
            return out;
        }
        let verdict = if self.clean() {
            "No change: every case is answered as recorded."
        } else {
            "**The build answers differently.**"
        };
        let _ = writeln!(out, "{verdict} {}.\n", self.summary());
        if !self.drift.changed.is_empty() {
            out.push_str("| cases | changed |\n|---|---:|\n");
            for (family, n) in self.families() {
                let _ = writeln!(out, "| `{family}` | {n} |");
            }
            out.push('\n');
        }
        for c in self.drift.changed.iter().take(MARKDOWN_CASES) {
            case_markdown(&mut out, c, &self.against);
        }
        let more = self.drift.changed.len().saturating_sub(MARKDOWN_CASES);
        if more > 0 {
            let _ = writeln!(
                out,
                "… and {more} more changed cases (`gdmarshal corpus check --engine {} --against {} --format text` lists them all).\n",
                self.engine, self.against
            );
        }
        if !self.drift.unanswered.is_empty() {
            out.push_str("**Unanswered** (the build crashed or hung):\n\n");
            for u in &self.drift.unanswered {
                let _ = writeln!(out, "- `{}`: {}", md_code(&u.name), md_cell(&u.reason));
            }
            out.push('\n');
        }
        out
    }
}

fn case_markdown(out: &mut String, c: &Changed, against: &str) {
    let _ = writeln!(
        out,
        "<details><summary><code>{}</code>: {}</summary>\n",
        html(&c.corpus.name),
        Field::names(&c.fields)
    );
    let _ = writeln!(
        out,
        "asked: `{}`\n",
        md_code(&shorten(&question(&c.corpus)))
    );
    let _ = writeln!(
        out,
        "| field | Godot {against} (recorded) | this build |\n|---|---|---|"
    );
    for &f in &c.fields {
        let _ = writeln!(
            out,
            "| {f} | `{}` | `{}` |",
            md_code(&shorten(&field(&c.corpus, f))),
            md_code(&shorten(&field(&c.now, f)))
        );
    }
    out.push_str("\n</details>\n\n");
}

/// The recorded corpus `against` names: its version (`4.6.3.stable`, `4.6.3.stable-double`),
/// that version without `.stable` (`4.6.3`, `4.6.3-double`), or its profile (`4.6`, `4.6-double`).
pub fn pick<'a>(
    corpora: &'a [super::EngineCorpus],
    against: &str,
) -> Option<&'a super::EngineCorpus> {
    corpora.iter().find(|c| {
        let v = &c.entry.version;
        v == against || v.replacen(".stable", "", 1) == against || c.profile.to_string() == against
    })
}

/// What the case asks: decode these bytes, or encode this value.
fn question(r: &Record) -> String {
    let objects = if r.objects { " (objects allowed)" } else { "" };
    match (&r.input, &r.value) {
        (Some(hex), _) => format!("decode {hex}{objects}"),
        (None, Some(v)) => format!("encode {v}{objects}"),
        (None, None) => String::new(),
    }
}

/// One field of an answer as text.
fn field(r: &Record, name: Field) -> String {
    let or_none = |s: Option<String>| s.unwrap_or_else(|| "(none)".into());
    match name {
        Field::Verdict => serde_json::to_value(&r.verdict)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        Field::Consumed => or_none(r.consumed.map(|c| c.to_string())),
        Field::Tree => or_none(r.tree.as_ref().map(|t| t.to_string())),
        Field::Output => or_none(r.output.clone()),
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= SHOWN {
        return s.to_string();
    }
    let head: String = s.chars().take(SHOWN).collect();
    format!("{head}… ({} characters)", s.chars().count())
}

/// Text for inside a Markdown code span in a table cell.
fn md_code(s: &str) -> String {
    s.replace('|', "\\|").replace('`', "'").replace('\n', " ")
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::record::Verdict;

    fn answer(verdict: Verdict, tree: Option<serde_json::Value>) -> Record {
        Record {
            name: "decode/valid/Vector2/x".into(),
            direction: crate::Direction::Decode,
            input: Some("05000000".into()),
            value: None,
            objects: false,
            verdict,
            consumed: Some(12),
            tree,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn both_answers_of_each_differing_field_are_shown() {
        let old = answer(Verdict::Accepted, Some(serde_json::json!({"x": 1})));
        let new = answer(Verdict::Rejected, None);
        let fields = old.differences(&new);
        let r = Regression {
            engine: "pr-1234".into(),
            engine_version: "4.6.3-stable (custom_build)".into(),
            against: "4.6.3.stable".into(),
            drift: EngineDrift {
                version: "4.6.3.stable".into(),
                asked: 1,
                changed: vec![Changed {
                    corpus: old,
                    now: new,
                    fields,
                }],
                ..EngineDrift::default()
            },
        };
        assert!(!r.clean());
        let text = r.text();
        assert!(
            text.contains("CHANGED decode/valid/Vector2/x: verdict, tree"),
            "{text}"
        );
        assert!(text.contains("recorded:   accepted") && text.contains("this build: rejected"));
        assert!(text.contains("this build: (none)") && text.contains("decode/valid: 1 changed"));
        let md = r.markdown();
        assert!(md.contains("| verdict | `accepted` | `rejected` |"), "{md}");
        assert!(md.contains("| tree | `{\"x\":1}` | `(none)` |"), "{md}");
        assert!(md.contains("1 cases asked, 1 answered differently, 0 unanswered"));
    }

    #[test]
    fn long_answers_are_cut_and_table_cells_escaped() {
        let long = "ab".repeat(200);
        assert!(shorten(&long).ends_with("… (400 characters)"));
        assert_eq!(md_code("a|b`c"), "a\\|b'c");
    }
}
