//! Replays the fuzz seeds and every saved crash input (`fuzz/seeds/*/`, `fuzz/regressions/*/`)
//! through the fuzz targets' own checks (`gdmarshal_testkit::properties`), on stable and without the fuzzer.
//! With `GDMARSHAL_REPLAY_CORPUS=DIR` set, `DIR/decode/` and `DIR/roundtrip/` (a fuzzing corpus,
//! e.g. `fuzz/corpus`) are replayed too: scripts/coverage.sh measures coverage that way.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use gdmarshal::Profile;
use gdmarshal_testkit::properties as checks;

type Check = fn(&[u8]) -> Result<(), checks::PropertyFailure>;

const TARGETS: &[(&str, Check)] = &[
    ("decode", checks::check_decode),
    // Left out of the fuzz target for its rate (see the function), so replayed here.
    ("decode", checks::check_traced_agrees),
    ("roundtrip", checks::check_roundtrip),
];

/// The input files of one target under `fuzz/DIR/TARGET/` (or `DIR/TARGET/` for an absolute
/// `DIR`), skipping dotfiles and notes.
fn inputs(dir: &str, target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(dir)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !name.starts_with('.') && !name.ends_with(".md")
        })
        .collect();
    files.sort();
    files
}

fn replay(dir: &str) -> usize {
    let mut failures = Vec::new();
    let mut count = 0;
    for &(target, check) in TARGETS {
        for path in inputs(dir, target) {
            count += 1;
            let data = std::fs::read(&path).unwrap();
            match catch_unwind(AssertUnwindSafe(|| check(&data))) {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(format!("{}: {e}", path.display())),
                Err(_) => failures.push(format!("{}: panicked", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    count
}

#[test]
fn seeds_pass() {
    assert!(replay("seeds") > 0, "no seeds: run scripts/fuzz.sh seeds");
}

#[test]
fn regressions_pass() {
    assert!(
        replay("regressions") > 0,
        "no saved crash inputs under fuzz/regressions/"
    );
}

/// A fuzzing corpus of one's own, named by the variable (scripts/coverage.sh); without it, the
/// seeds again, read by absolute path as a named corpus is.
#[test]
fn given_corpus_passes() {
    let dir = std::env::var_os("GDMARSHAL_REPLAY_CORPUS").unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds")
            .into()
    });
    let dir = std::fs::canonicalize(dir).expect("the corpus to replay exists");
    assert!(
        replay(&dir.to_string_lossy()) > 0,
        "no inputs in {}",
        dir.display()
    );
}

/// `scripts/fuzz.sh seeds` writes selector byte 2 * (3.m: m, 4.m: 7 + m) + objects.
#[test]
fn seed_selectors_match_the_script() {
    for (version, byte) in [("3.2", 4), ("3.6", 12), ("4.6", 26)] {
        let p: Profile = version.parse().unwrap();
        assert_eq!(checks::selector(p, false), Some(byte), "{version}");
        assert_eq!(checks::selector(p, true), Some(byte + 1), "{version}");
        assert_eq!(checks::select(byte + 1), (p, true), "{version}");
    }
}
