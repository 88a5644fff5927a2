//! The fuzzers' decode property (`gdmarshal_testkit::properties::check_decode`) without a fuzzer: checks a
//! second over a directory of inputs, next to plain decoding of the same inputs in the same run.
//! What libFuzzer adds on top is in docs/fuzzing.md.
//!
//! `cargo bench --bench decode_property [-- DIR]`; DIR defaults to fuzz/corpus/decode when a fuzz
//! run has built one, else to the committed seeds in fuzz/seeds/decode.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gdmarshal::DecodeOptions;
use gdmarshal_testkit::properties::{check_decode, select};

/// Time spent on each measurement.
const BUDGET: Duration = Duration::from_secs(3);

fn inputs(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// Runs `f` over every input until the budget is spent; returns calls a second.
fn rate(inputs: &[Vec<u8>], budget: Duration, mut f: impl FnMut(&[u8])) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget {
        for i in inputs {
            f(black_box(i));
        }
        calls += inputs.len() as u64;
    }
    calls as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bench = std::env::args().any(|a| a == "--bench");
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let corpus = root.join("fuzz/corpus/decode");
            if corpus.is_dir() {
                corpus
            } else {
                root.join("fuzz/seeds/decode")
            }
        });
    let inputs = inputs(&dir);
    assert!(!inputs.is_empty(), "{}: no inputs", dir.display());
    // Under `cargo test --benches` one pass shows the benchmark still runs.
    let budget = if bench { BUDGET } else { Duration::ZERO };
    let mean = inputs.iter().map(Vec::len).sum::<usize>() / inputs.len();
    let decode_only = rate(&inputs, budget, |data| {
        if let Some((&sel, bytes)) = data.split_first() {
            let (profile, allow_objects) = select(sel);
            let _ = black_box(gdmarshal::decode(
                bytes,
                profile,
                DecodeOptions::new().allow_objects(allow_objects),
            ));
        }
    });
    let property = rate(&inputs, budget, |data| {
        if let Err(e) = check_decode(data) {
            panic!("the decode property fails: {e}");
        }
    });
    println!(
        "{} inputs from {}, mean {mean} bytes",
        inputs.len(),
        dir.display()
    );
    println!("| what | per second | vs decode alone |");
    println!("|---|---:|---:|");
    println!("| decode alone | {decode_only:.0} | 1.00 |");
    println!(
        "| decode property (check_decode) | {property:.0} | {:.2} |",
        property / decode_only
    );
}
