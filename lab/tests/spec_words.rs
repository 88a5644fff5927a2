//! The project's docs (the reference pages in docs/spec/, the report, every guide) are its own
//! words: no run of ten or more words
//! (digits, case and punctuation aside) in common with an upstream text. The upstream texts are
//! known by their fingerprints (lab/tests/data/upstream-fingerprints.txt); where the texts themselves
//! are on this machine (`../shared/spec` beside the repository, or the folders listed in
//! `GDMARSHAL_UPSTREAM_TEXTS`), the fingerprints are checked to cover them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use gdmarshal_lab::report::spec::words::{fingerprints, parse_fingerprints, shared_runs};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn upstream() -> HashSet<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/upstream-fingerprints.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    parse_fingerprints(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every text the project publishes as its own: the README, and each page under docs/ (the
/// reference pages, the report and its appendices, the guides).
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rst" || x == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![repo().join("README.md")];
    walk(&repo().join("docs"), &mut out);
    out.sort();
    out
}

#[test]
fn the_docs_share_no_run_of_ten_words_with_upstream() {
    let upstream = upstream();
    assert!(upstream.len() > 5000, "{} fingerprints", upstream.len());
    let pages = pages();
    assert!(
        pages.iter().any(|p| p.ends_with("docs/report.md")) && pages.len() > 20,
        "{pages:?}"
    );
    let mut shared = Vec::new();
    for p in &pages {
        let text = std::fs::read_to_string(p).unwrap();
        for (line, run) in shared_runs(&text, &upstream) {
            shared.push(format!(
                "{}:{line}: {} words: {run}",
                p.strip_prefix(repo()).unwrap().display(),
                run.split(' ').count()
            ));
        }
    }
    assert!(
        shared.is_empty(),
        "{} runs shared with upstream texts:\n{}",
        shared.len(),
        shared.join("\n")
    );
}

/// The folders holding upstream texts on this machine.
fn upstream_folders() -> Vec<PathBuf> {
    match std::env::var_os("GDMARSHAL_UPSTREAM_TEXTS") {
        Some(v) => std::env::split_paths(&v).collect(),
        None => vec![repo().join("../shared/spec")],
    }
}

#[test]
fn the_fingerprints_cover_every_upstream_text_on_this_machine() {
    let upstream = upstream();
    let mut read = 0;
    for dir in upstream_folders().iter().filter(|d| d.is_dir()) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let missing = fingerprints(&text).difference(&upstream).count();
            assert_eq!(
                missing,
                0,
                "{}: {missing} runs not in lab/tests/data/upstream-fingerprints.txt \
                 (regenerate it: see lab/examples/upstream_fingerprints.rs)",
                path.display()
            );
            read += 1;
        }
    }
    eprintln!("upstream texts checked against the fingerprints: {read}");
}
