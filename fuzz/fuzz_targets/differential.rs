#![no_main]
//! The codec against a live engine: see gdmarshal_lab::differential (src/differential.rs).
//!
//! GDMARSHAL_FUZZ_ENGINE names the engine (`cargo run -- engines` lists them, e.g. `4.6`). It is
//! started once per process and restarted by the oracle when an input crashes or hangs it.
//! Disagreements and incidents are saved to fuzz/findings/ENGINE/ (GDMARSHAL_FINDINGS_DIR
//! overrides) and fuzzing goes on; only a panic in the codec stops it. GDMARSHAL_FUZZ_VERBOSE=1
//! prints the outcome of every input (for replays).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use gdmarshal_lab::corpus::known::{self, Entry};
use gdmarshal_lab::differential::{Agreement, DiffInput, compare, save_finding};
use gdmarshal_lab::oracle::{self, Engine, EngineConfig, Oracle};
use libfuzzer_sys::fuzz_target;

/// Findings saved per class and process; the rest are counted, so one class cannot flood.
const SAVED_PER_CLASS: usize = 20;
/// Unanswered inputs in a row after which the engine is taken to be unusable.
const UNANSWERED_IN_A_ROW: usize = 20;

struct State {
    engine: Engine,
    known: Vec<Entry>,
    dir: PathBuf,
    classes: HashMap<String, usize>,
    verbose: bool,
    /// Inputs the engine could not answer, in all and since the last answered one.
    unanswered: usize,
    unanswered_in_a_row: usize,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn start() -> State {
    let name = std::env::var("GDMARSHAL_FUZZ_ENGINE")
        .expect("set GDMARSHAL_FUZZ_ENGINE to an engine of `gdmarshal engines`, e.g. 4.6");
    let spec = oracle::discover()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no engine named {name}: see `gdmarshal engines`"));
    let config = EngineConfig {
        timeout: Duration::from_secs(3),
        ..EngineConfig::default()
    };
    let engine = Engine::start(spec, config).expect("the engine starts");
    let known = known::read(&gdmarshal_lab::corpus::default_dir().join("known-differences.txt"))
        .expect("corpus/known-differences.txt reads");
    let dir = std::env::var_os("GDMARSHAL_FINDINGS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("findings"));
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
    let name = s.engine.name().to_string();
    let version = s.engine.info().version.clone();
    let outcome = compare(&mut s.engine, &version, &input, &s.known);
    s.engine.take_findings();
    for i in s.engine.take_incidents() {
        eprintln!("differential: incident: {i}");
    }
    if s.verbose {
        eprintln!("differential: {outcome:#?}");
    }
    // An input nobody could answer is neither a finding nor a pass: count it, say so, and stop
    // the run (exit 1) when the engine cannot answer anything any more.
    if let Agreement::Unanswered(why) = &outcome {
        s.unanswered += 1;
        s.unanswered_in_a_row += 1;
        eprintln!("differential: unanswered ({} so far): {why}", s.unanswered);
        if s.unanswered_in_a_row >= UNANSWERED_IN_A_ROW {
            eprintln!("differential: {UNANSWERED_IN_A_ROW} inputs in a row unanswered; stopping");
            std::process::exit(1);
        }
        return;
    }
    s.unanswered_in_a_row = 0;
    let (Agreement::Disagree(f) | Agreement::Incident(f)) = outcome else {
        return;
    };
    let n = s.classes.entry(f.class.clone()).or_default();
    *n += 1;
    if *n > SAVED_PER_CLASS {
        return;
    }
    match save_finding(&s.dir, data, &name, &version, &f) {
        Ok(path) if *n == 1 => eprintln!("differential: new class {}: {}", f.class, path.display()),
        Ok(_) => {}
        Err(e) => eprintln!("differential: cannot save a finding: {e}"),
    }
});
