//! `gdmarshal check-vectors`: the codec against vectors written by real engines.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use super::input::{MaxInputArg, Source};
use super::{EXIT_FOUND, fail};
use gdmarshal_vectors::{VectorFile, check, parse};

/// Options of `gdmarshal check-vectors`.
#[derive(clap::Args, Debug)]
pub struct CheckVectorsArgs {
    /// Vector files named godot-VERSION.txt (scripts/make-vectors.sh writes them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    max_input: MaxInputArg,
}

/// A vector file's line at most: the engines' longest vector, as hex, is under 1 KiB.
const MAX_LINE: u64 = 1 << 20;

/// Reads a vector file under the input cap, a line at a time, each at most [`MAX_LINE`] bytes.
fn read(path: &PathBuf, max_input: &MaxInputArg) -> Result<VectorFile, String> {
    let source = Source::open(Some(path), false, max_input.max_input).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(source);
    let (mut text, mut line) = (String::new(), Vec::new());
    for number in 1.. {
        line.clear();
        let got = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| e.to_string())?;
        if got == 0 {
            break;
        }
        let at = format!("{}:{number}", path.display());
        if got as u64 > MAX_LINE {
            return Err(format!("{at}: the line is longer than {MAX_LINE} bytes"));
        }
        let line = std::str::from_utf8(&line)
            .map_err(|e| format!("{at}: byte {} of the line is not UTF-8", e.valid_up_to()))?;
        text.push_str(line);
    }
    parse(path, &text).map_err(|e| e.to_string())
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
