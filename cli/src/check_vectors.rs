//! `gdmarshal check-vectors`: the codec against vectors written by real engines.

use std::path::PathBuf;
use std::process::ExitCode;

use super::input::{MaxInputArg, Source};
use super::{EXIT_FOUND, fail};
use gdmarshal::vectors::{VectorFile, check, parse};

/// Options of `gdmarshal check-vectors`.
#[derive(clap::Args, Debug)]
pub struct CheckVectorsArgs {
    /// Vector files named godot-VERSION.txt (scripts/make-vectors.sh writes them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    max_input: MaxInputArg,
}

/// Reads a vector file under the input cap.
fn read(path: &PathBuf, max_input: &MaxInputArg) -> Result<VectorFile, String> {
    let bytes = Source::open(Some(path), false, max_input.max_input)
        .and_then(Source::read_all)
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: byte {} is not UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    parse(path, &text)
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
        let file = match read(path, &a.max_input) {
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
