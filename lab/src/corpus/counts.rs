//! The corpus's case counts as the docs show them: a table generated from the manifest and the
//! stress file, between two marker lines in README.md and docs/conformance.md, so that no count
//! is typed by hand. `gdmarshal report` rewrites the tables; a test fails when one is stale.

use std::fmt::Write as _;

use super::EngineCorpus;
use super::stress::StressRecord;

/// The line before a generated table.
pub const BEGIN: &str =
    "<!-- corpus counts: generated from corpus/manifest.json by `gdmarshal report` -->";
/// The line after it.
pub(crate) const END: &str = "<!-- end of corpus counts -->";

/// The table of a corpus's engines and its stress records: per engine version, its cases, how
/// many the engine refused, and its stress cases.
pub fn table(corpora: &[EngineCorpus], stress: &[StressRecord]) -> String {
    let mut s = String::from(
        "| engine | format | cases | refused by the engine | of them stress cases |\n|---|---|---|---|---|\n",
    );
    for c in corpora {
        let (cases, large) = cases_of(&c.entry, stress);
        let _ = writeln!(
            s,
            "| Godot {} | {} | {} | {} | {} |",
            c.entry.version,
            c.profile,
            thousands(cases),
            thousands(c.entry.invalid),
            large
        );
    }
    s
}

/// A version's cases as the docs count them, and how many of them are stress cases: its
/// recorded cases (`entry`, from the manifest) and its generated stress cases.
pub fn cases_of(entry: &super::ManifestEntry, stress: &[StressRecord]) -> (usize, usize) {
    let large = stress.iter().filter(|r| r.engine == entry.version).count();
    (entry.cases + large, large)
}

/// `doc` with the text between its marker lines replaced by `table`; `None` when it has no
/// markers.
pub fn replace(doc: &str, table: &str) -> Option<String> {
    let start = doc.find(BEGIN)? + BEGIN.len();
    let end = start + doc[start..].find(END)?;
    Some(format!("{}\n{table}{}", &doc[..start], &doc[end..]))
}

/// `n` with a comma between thousands, as the docs write numbers.
pub fn thousands(n: usize) -> String {
    crate::shown::group_digits(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(1810), "1,810");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn replace_keeps_the_markers_and_the_text_around_them() {
        let doc = format!("a\n{BEGIN}\nold\n{END}\nb\n");
        assert_eq!(
            replace(&doc, "new\n").unwrap(),
            format!("a\n{BEGIN}\nnew\n{END}\nb\n")
        );
        assert_eq!(replace("no markers", "x"), None);
    }

    /// The committed docs show the embedded corpus's counts (`gdmarshal report` rewrites them).
    #[test]
    fn the_docs_counts_are_the_corpus() {
        let source = super::super::Source::Embedded;
        let corpora = super::super::load_from(&source).unwrap();
        let want = table(&corpora, &super::super::stress::read_from(&source).unwrap());
        let root = crate::repo_root();
        for doc in ["README.md", "docs/conformance.md"] {
            let text = std::fs::read_to_string(root.join(doc)).unwrap();
            let fresh =
                replace(&text, &want).unwrap_or_else(|| panic!("{doc} has no counts table"));
            assert!(
                fresh == text,
                "{doc}: the corpus counts are stale: run `gdmarshal report`"
            );
        }
    }
}
