#![no_main]
//! The codec against a live engine: see gdmarshal_lab::differential (src/differential.rs).
//!
//! GDMARSHAL_FUZZ_ENGINE names the engine (`cargo run --bin gdmarshal -- engines` lists them, e.g. `4.6`). It is
//! started once per process and restarted by the oracle when an input crashes or hangs it.
//! Without GDMARSHAL_FUZZ_ENGINE, the engine is the one beside the fuzzer: `differential-engine/`
//! in the fuzzer's folder, a manifest whose launcher path is relative to that folder (what
//! .clusterfuzzlite/build.sh puts in $OUT, so that a ClusterFuzzLite runner, with nothing but
//! $OUT, fuzzes against a real engine).
//! Each input is classified as a campaign case is, and findings are minimized and saved as
//! campaign reproducers to findings/<class>/ENGINE-HASH.json (GDMARSHAL_FINDINGS_DIR overrides;
//! with the engine beside the fuzzer, `differential-findings/` beside it),
//! replayed with `gdmarshal diff --replay FILE`; fuzzing goes on, and only a panic in the codec
//! stops it. GDMARSHAL_FUZZ_VERBOSE=1 prints the classification of every input.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use gdmarshal_lab::Answerer;
use gdmarshal_lab::campaign::{Class, Origin, keep_finding};
use gdmarshal_lab::corpus::known::{self, Entry};
use gdmarshal_lab::differential::{DiffInput, judge_input};
use gdmarshal_lab::oracle::{self, Engine, EngineConfig, EngineSpec};
use libfuzzer_sys::fuzz_target;

/// Findings saved per class and process; the rest are counted, so one class cannot flood.
const SAVED_PER_CLASS: usize = 20;
/// Unanswered inputs in a row after which the engine is taken to be unusable.
const UNANSWERED_IN_A_ROW: usize = 20;

struct State {
    engine: Engine,
    known: Vec<Entry>,
    dir: PathBuf,
    classes: HashMap<Class, usize>,
    verbose: bool,
    /// Inputs the engine could not answer, in all and since the last answered one.
    unanswered: usize,
    unanswered_in_a_row: usize,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// The folder beside the fuzzer that holds its engine (.clusterfuzzlite/build.sh).
const ENGINE_BESIDE: &str = "differential-engine";

/// An engine to fuzz against, and where its findings go by default.
struct Setup {
    spec: EngineSpec,
    config: EngineConfig,
    findings: PathBuf,
}

/// The engine beside the fuzzer executable: its launcher's path made absolute, the oracle's
/// Godot project taken from beside it too.
fn engine_beside(config: EngineConfig) -> Option<Setup> {
    let exe = std::env::current_exe().ok()?;
    let beside = exe.parent()?;
    let dir = beside.join(ENGINE_BESIDE);
    let mut spec = oracle::from_manifest(&dir.join("manifest.json"))
        .into_iter()
        .next()?;
    spec.launcher = dir.join(&spec.launcher);
    Some(Setup {
        spec,
        config: EngineConfig {
            project: dir.join("godot_project"),
            ..config
        },
        findings: beside.join("differential-findings"),
    })
}

fn start() -> State {
    let config = EngineConfig {
        timeout: Duration::from_secs(3),
        ..EngineConfig::default()
    };
    let setup = match std::env::var("GDMARSHAL_FUZZ_ENGINE") {
        Ok(name) => Setup {
            spec: oracle::discover()
                .into_iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("no engine named {name}: see `gdmarshal engines`")),
            config,
            findings: gdmarshal_lab::repo_root().join("findings"),
        },
        Err(_) => engine_beside(config).unwrap_or_else(|| {
            panic!(
                "set GDMARSHAL_FUZZ_ENGINE to an engine of `gdmarshal engines` (e.g. 4.6), \
                 or put one beside the fuzzer in {ENGINE_BESIDE}/ (.clusterfuzzlite/build.sh)"
            )
        }),
    };
    let engine = Engine::start(setup.spec, setup.config).expect("the engine starts");
    // The list embedded in the fuzzer: a runner with only $OUT has no checkout to read.
    let known = known::read_from(&gdmarshal_lab::corpus::Source::Embedded)
        .expect("the embedded corpus/known-differences.txt reads");
    let dir = std::env::var_os("GDMARSHAL_FINDINGS_DIR")
        .map(PathBuf::from)
        .unwrap_or(setup.findings);
    eprintln!(
        "differential: engine {} ({}), findings to {}",
        engine.name(),
        engine.info().version,
        dir.display()
    );
    State {
        engine,
        known,
        dir,
        classes: HashMap::new(),
        unanswered: 0,
        unanswered_in_a_row: 0,
        verbose: std::env::var("GDMARSHAL_FUZZ_VERBOSE").is_ok_and(|v| v == "1"),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let s = guard.get_or_insert_with(start);
    let Some(input) = DiffInput::parse(data, s.engine.profile()) else {
        return;
    };
    let judged = judge_input(&mut s.engine, &input, &s.known);
    s.engine.take_findings();
    for i in s.engine.take_incidents() {
        eprintln!("differential: incident: {i}");
    }
    if s.verbose {
        eprintln!("differential: {} {}", judged.class, judged.detail);
    }
    // An input nobody could answer is neither a finding nor a pass: count it, say so, and stop
    // the run (exit 1) when the engine cannot answer anything any more.
    if judged.class == Class::Unanswered {
        s.unanswered += 1;
        s.unanswered_in_a_row += 1;
        eprintln!(
            "differential: unanswered ({} so far): {}",
            s.unanswered, judged.detail
        );
        if s.unanswered_in_a_row >= UNANSWERED_IN_A_ROW {
            eprintln!("differential: {UNANSWERED_IN_A_ROW} inputs in a row unanswered; stopping");
            std::process::exit(1);
        }
        return;
    }
    s.unanswered_in_a_row = 0;
    if !judged.class.is_finding() {
        return;
    }
    let n = s.classes.entry(judged.class).or_default();
    *n += 1;
    if *n > SAVED_PER_CLASS {
        return;
    }
    let first = *n == 1;
    let origin = Origin::Fuzz {
        input: data.to_vec(),
    };
    match keep_finding(
        &mut s.engine,
        &s.known,
        &origin,
        &input.case(),
        &judged,
        Some(&s.dir),
    ) {
        Ok((Some(path), _)) if first => eprintln!(
            "differential: new class {}: gdmarshal diff --replay {}",
            judged.class,
            path.display()
        ),
        Ok(_) => {}
        Err(e) => eprintln!("differential: cannot save a finding: {e}"),
    }
});
