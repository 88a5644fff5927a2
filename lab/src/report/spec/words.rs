//! Runs of words the pages share with upstream texts. The project publishes its own sentences:
//! a run of [`RUN`] or more words in common with an upstream page is a copied sentence (or table
//! wording), whatever the digits, case and punctuation around it.
//!
//! Upstream texts are not kept in the repository. What is kept is a fingerprint of every run of
//! [`RUN`] words in them (lab/tests/data/upstream-fingerprints.txt, written by
//! `cargo run -p gdmarshal-lab --example upstream_fingerprints`), which tells whether a run of a
//! page occurs upstream without holding a sentence of upstream's.

use std::collections::HashSet;
use std::hash::Hasher as _;

/// The length of a run, in words, from which a shared run counts as copied.
pub const RUN: usize = 10;

/// The words of a text: maximal runs of letters, lowercased. Digits, punctuation, markup and
/// table borders separate words and are not words themselves.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The fingerprint of a run of words: 64-bit FNV-1a of the words joined by single spaces.
pub fn fingerprint(run: &[String]) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(run.join(" ").as_bytes());
    h.finish()
}

/// The fingerprints of every run of [`RUN`] words in a text.
pub fn fingerprints(text: &str) -> HashSet<u64> {
    words(text).windows(RUN).map(fingerprint).collect()
}

/// The runs of `text` that occur in `upstream` (fingerprints of upstream runs), each as the
/// longest stretch of words whose every [`RUN`]-word window is upstream's, with the line of
/// the text it starts on.
pub fn shared_runs(text: &str, upstream: &HashSet<u64>) -> Vec<(usize, String)> {
    // Words with the line each starts on.
    let mut located: Vec<(usize, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        located.extend(words(line).into_iter().map(|w| (n + 1, w)));
    }
    let ws: Vec<String> = located.iter().map(|(_, w)| w.clone()).collect();
    let hit: Vec<bool> = ws
        .windows(RUN)
        .map(|run| upstream.contains(&fingerprint(run)))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < hit.len() {
        if !hit[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < hit.len() && hit[i] {
            i += 1;
        }
        // Windows start..i all shared: the words start..i - 1 + RUN.
        out.push((located[start].0, ws[start..i - 1 + RUN].join(" ")));
    }
    out
}

/// A line of the fingerprint file that is not a fingerprint.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("line {line}: {text:?} is not a 16-digit hex fingerprint")]
pub struct BadFingerprint {
    /// The line's number, from 1.
    pub line: usize,
    /// The line's text.
    pub text: String,
}

/// Parses the fingerprint file: one 16-digit hex fingerprint per line; `#` starts a comment.
pub fn parse_fingerprints(text: &str) -> Result<HashSet<u64>, BadFingerprint> {
    let mut out = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f = u64::from_str_radix(line, 16)
            .ok()
            .filter(|_| line.len() == 16)
            .ok_or_else(|| BadFingerprint {
                line: n + 1,
                text: line.to_string(),
            })?;
        out.insert(f);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_ignore_digits_case_and_markup() {
        assert_eq!(
            words("| 4 | Float | X coordinate of ``ENCODE_FLAG_64``, padded-to 4"),
            [
                "float",
                "x",
                "coordinate",
                "of",
                "encode",
                "flag",
                "padded",
                "to"
            ]
        );
    }

    #[test]
    fn a_shared_run_is_found_whole_and_an_unshared_one_is_not() {
        let upstream = fingerprints(
            "The quick brown fox jumps over the lazy dog and runs far away from 12 home.",
        );
        let ours = "Intro line.\nA QUICK brown fox jumps over the lazy dog, and runs far away \
                    from 3 home tonight.\nThe quick brown fox sleeps.";
        let runs = shared_runs(ours, &upstream);
        assert_eq!(
            runs,
            [(
                2,
                "quick brown fox jumps over the lazy dog and runs far away from home".to_string()
            )]
        );
        // Nine words in common are not a run.
        let nine = "brown fox jumps over the lazy dog and runs";
        assert!(shared_runs(nine, &upstream).is_empty());
    }

    #[test]
    fn the_fingerprint_file_reads_back_and_names_a_bad_line() {
        let f = fingerprint(&words("a b c"));
        let text = format!("# comment\n{f:016x}\n");
        assert_eq!(parse_fingerprints(&text).unwrap(), HashSet::from([f]));
        let bad = format!("{f:016x}\n0123\n");
        assert_eq!(
            parse_fingerprints(&bad).unwrap_err(),
            BadFingerprint {
                line: 2,
                text: "0123".into()
            }
        );
    }
}
