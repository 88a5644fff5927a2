//! `gdmarshal check-vectors`: the codec against vectors written by real engines.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{EXIT_FOUND, fail};
use gdmarshal::vectors::{check, read};

/// Options of `gdmarshal check-vectors`.
#[derive(clap::Args, Debug)]
pub struct CheckVectorsArgs {
    /// Vector files named godot-VERSION.txt (scripts/make-vectors.sh writes them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Prints a line per engine and every failing vector; exit 1 if any fails.
pub fn run(a: &CheckVectorsArgs) -> ExitCode {
    let mut failed = 0;
    outln!(
        "{:<20} {:>8} {:>8} {:>8}",
        "engine",
        "vectors",
        "pass",
        "fail"
    );
    for path in &a.files {
        let file = match read(path) {
            Ok(f) => f,
            Err(e) => return fail(e),
        };
        let failures: Vec<String> = file
            .vectors
            .iter()
            .filter_map(|v| {
                check(v, file.profile)
                    .err()
                    .map(|e| format!("  {} {}: {e}", v.origin, v.name))
            })
            .collect();
        let n = file.vectors.len();
        outln!(
            "{:<20} {:>8} {:>8} {:>8}",
            file.engine,
            n,
            n - failures.len(),
            failures.len()
        );
        failures.iter().for_each(|f| outln!("{f}"));
        failed += failures.len();
    }
    if failed > 0 {
        ExitCode::from(EXIT_FOUND)
    } else {
        ExitCode::SUCCESS
    }
}
