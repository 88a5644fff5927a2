//! Writes lab/tests/data/upstream-fingerprints.txt: the fingerprint of every run of ten words in the
//! upstream texts named on the command line (the published pages and the bases named in
//! docs/spec/changes.md), so that `lab/tests/spec_words.rs` can tell a copied run without the
//! repository holding upstream's text.
//!
//! Usage: cargo run -p gdmarshal-lab --example upstream_fingerprints -- FILE... > lab/tests/data/upstream-fingerprints.txt

use std::collections::BTreeSet;
use std::process::ExitCode;

use gdmarshal_lab::report::spec::words::{RUN, fingerprints};
use sha2::{Digest, Sha256};

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: upstream_fingerprints FILE...");
        return ExitCode::from(2);
    }
    let mut all = BTreeSet::new();
    println!(
        "# Fingerprints (FNV-1a 64 of the words joined by spaces) of every run of {RUN} words"
    );
    println!("# in these upstream texts; written by lab/examples/upstream_fingerprints.rs.");
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let name = std::path::Path::new(f)
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        let sha = Sha256::digest(text.as_bytes());
        let hex: String = sha.iter().map(|b| format!("{b:02x}")).collect();
        println!("# {name} sha256 {hex}");
        all.extend(fingerprints(&text));
    }
    for f in all {
        println!("{f:016x}");
    }
    ExitCode::SUCCESS
}
