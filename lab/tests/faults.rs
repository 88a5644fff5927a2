//! How faults become verdicts, driven by the scripted fake engine (`gdmarshal-fake-engine`), so
//! every rule is checked in milliseconds without Godot: a crash or hang is only an engine defect
//! when a fresh engine does it again; a kill from outside is an incident; a case nobody can answer
//! is unanswered, counted, and never written into a corpus or passed off as a finding.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use gdmarshal::Variant;
use gdmarshal_lab::campaign::{Class, classify_batch};
use gdmarshal_lab::corpus::generate::generate;
use gdmarshal_lab::model::{Case, Resolution};
use gdmarshal_lab::oracle::{
    DecodeRequest, Engine, EngineConfig, EngineSpec, EngineVerdict, IncidentSummary, SUSPECT_TRIES,
    Source,
};

const FAKE: &str = env!("CARGO_BIN_EXE_gdmarshal-fake-engine");

/// A fake 4.6.3 engine running this fault script (written into `dir`), with a short timeout.
fn engine(dir: &Path, script: &str) -> Engine {
    let config = EngineConfig {
        timeout: Duration::from_millis(400),
        start_timeout: Duration::from_secs(10),
        ..EngineConfig::default()
    };
    engine_with(dir, script, config)
}

/// A fake 4.6.3 engine running this fault script (written into `dir`) under `config`.
fn engine_with(dir: &Path, script: &str, mut config: EngineConfig) -> Engine {
    // The fault script and the state its rules keep across processes.
    config.writable.push(dir.to_path_buf());
    let path = dir.join("faults.txt");
    std::fs::write(&path, script).unwrap();
    let spec = EngineSpec {
        name: "fake".into(),
        launcher: PathBuf::from(FAKE),
        args: vec![
            "--version=4.6.3".into(),
            format!("--script={}", path.display()),
        ],
        source: Source::Path("gdmarshal-fake-engine".into()),
        recorded_version: None,
        in_all: true,
        built_from: None,
        exit_grace: std::time::Duration::ZERO,
    };
    Engine::start(spec, config).expect("the fake engine starts")
}

fn int_bytes(i: i32) -> Vec<u8> {
    let mut b = vec![2, 0, 0, 0];
    b.extend_from_slice(&i.to_le_bytes());
    b
}

/// Decodes ints 0..n, with `special` at position `at`; returns the verdicts.
fn decode_around(e: &mut Engine, special: &[u8], at: usize, n: usize) -> Vec<EngineVerdict> {
    let mut inputs: Vec<Vec<u8>> = (0..n as i32).map(int_bytes).collect();
    inputs[at] = special.to_vec();
    let requests: Vec<DecodeRequest> = inputs
        .iter()
        .map(|bytes| DecodeRequest {
            bytes,
            allow_objects: false,
        })
        .collect();
    e.decode_batch(&requests)
        .into_iter()
        .map(|r| r.verdict)
        .collect()
}

/// The input the scripts single out: an int whose value no other request has.
const SPECIAL: [u8; 8] = [2, 0, 0, 0, 0x5a, 0x5a, 0x5a, 0x5a];
const RULE: &str = "input:020000005a5a5a5a";

fn others_accepted(v: &[EngineVerdict], at: usize) {
    for (i, v) in v.iter().enumerate().filter(|(i, _)| *i != at) {
        assert_eq!(v, &EngineVerdict::Accepted, "request {i}");
    }
}

/// Decodes `n` inputs with the special one at `at`: every one is answered and accepted, and no
/// finding is kept.
fn answered_on_retry(e: &mut Engine, at: usize, n: usize) {
    let v = decode_around(e, &SPECIAL, at, n);
    assert_eq!(v[at], EngineVerdict::Accepted);
    others_accepted(&v, at);
    assert!(e.findings().is_empty());
}

#[test]
fn a_crash_that_repeats_on_a_fresh_engine_is_an_engine_defect() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} segv\n"));
    let v = decode_around(&mut e, &SPECIAL, 5, 20);
    let EngineVerdict::Crashed(incident) = &v[5] else {
        panic!("{:?}", v[5])
    };
    assert_eq!(incident.signal, Some(11));
    assert!(!incident.from_outside());
    others_accepted(&v, 5);
    assert_eq!(e.findings().len(), 1);
    assert_eq!(e.incidents().len(), 1);
    assert_eq!(e.incidents()[0].resolution, Resolution::Reproduced);
}

#[test]
fn a_crash_that_does_not_repeat_is_an_incident_and_the_fresh_answer_stands() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} segv-once\n"));
    answered_on_retry(&mut e, 5, 20);
    let i = &e.incidents()[0];
    assert_eq!(i.resolution, Resolution::AnsweredOnRetry);
    assert_eq!(i.incident.signal, Some(11));
}

#[test]
fn a_kill_from_outside_is_never_blamed_on_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} kill-once\n"));
    answered_on_retry(&mut e, 3, 10);
    let i = &e.incidents()[0];
    assert!(i.incident.from_outside());
    let text = i.to_string();
    assert!(
        text.contains("SIGKILL") && text.contains("not by this input"),
        "{text}"
    );
}

#[test]
fn kills_that_never_stop_leave_the_case_unanswered_not_crashed() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} kill\n"));
    let v = decode_around(&mut e, &SPECIAL, 2, 8);
    assert!(matches!(v[2], EngineVerdict::Unanswered(_)), "{:?}", v[2]);
    others_accepted(&v, 2);
    assert!(e.findings().is_empty(), "a kill from outside is no finding");
    let s = IncidentSummary::of(e.incidents());
    assert_eq!((s.total, s.unanswered), (1, 1), "{s}");
    assert_eq!(e.restarts(), SUSPECT_TRIES, "one engine per try");
}

#[test]
fn a_hang_is_only_a_defect_when_it_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} stop-once\n"));
    let v = decode_around(&mut e, &SPECIAL, 1, 6);
    assert_eq!(
        v[1],
        EngineVerdict::Accepted,
        "a stopped engine is not the input's fault"
    );
    let i = &e.incidents()[0];
    assert!(i.hung);
    assert_eq!(i.resolution, Resolution::AnsweredOnRetry);

    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} hang\n"));
    let v = decode_around(&mut e, &SPECIAL, 1, 6);
    assert!(matches!(v[1], EngineVerdict::Hung(_)), "{:?}", v[1]);
    others_accepted(&v, 1);
    assert_eq!(e.findings().len(), 1);
}

#[test]
fn an_engine_that_cannot_restart_leaves_the_rest_unanswered() {
    let dir = tempfile::tempdir().unwrap();
    // The first engine dies on the special input (the first request); the script each engine
    // reads at its start then changes so that every later engine refuses to start.
    let mut e = engine(dir.path(), &format!("{RULE} segv\n"));
    std::fs::write(dir.path().join("faults.txt"), "start refuse-start\n").unwrap();
    let v = decode_around(&mut e, &SPECIAL, 0, 6);
    assert!(
        v.iter().all(EngineVerdict::is_unanswered),
        "nobody could answer any of them: {v:?}"
    );
    assert!(e.findings().is_empty());
}

fn cases(n: i32) -> Vec<Case> {
    (0..n)
        .map(|i| Case::Decode {
            name: format!("t/{i}"),
            input: if i == 4 {
                SPECIAL.to_vec()
            } else {
                int_bytes(i)
            },
            allow_objects: false,
        })
        .chain([Case::Encode {
            name: "t/encode".into(),
            value: Variant::Int(7),
            full_objects: false,
        }])
        .collect()
}

#[test]
fn corpus_generation_refuses_to_write_unanswered_cases() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} kill\n"));
    let err = generate(&mut e, &cases(10), &mut |_| {}).unwrap_err();
    assert_eq!(err.cases, 11);
    assert_eq!(err.unanswered.len(), 1);
    assert_eq!(err.unanswered[0].name, "t/4");
    assert!(
        err.to_string().starts_with("1 of 11 cases unanswered"),
        "{err}"
    );

    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} kill-once\n"));
    let records = generate(&mut e, &cases(10), &mut |_| {}).expect("all answered");
    assert_eq!(records.len(), 11);
    assert!(records.iter().all(|r| !r.is_invalid()), "{records:?}");
}

#[test]
fn a_campaign_counts_unanswered_cases_apart_from_findings() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} kill\n"));
    let judged = classify_batch(&mut e, &cases(10), &[]);
    let classes: Vec<Class> = judged.iter().map(|j| j.class).collect();
    assert_eq!(classes[4], Class::Unanswered);
    assert!(!Class::Unanswered.is_finding());
    for (i, c) in classes.iter().enumerate().filter(|(i, _)| *i != 4) {
        assert_eq!(*c, Class::Agree, "case {i}: {:?}", judged[i].detail);
    }
    let incidents = e.take_incidents();
    assert_eq!(incidents.len(), 1);
    assert_eq!(incidents[0].resolution, Resolution::Unanswered);
}

#[test]
fn a_campaign_without_godot_agrees_and_keeps_a_reproduced_crash_as_a_finding() {
    use gdmarshal_lab::campaign::{self, Config, cases, load_findings};
    let profile: gdmarshal::Profile = "4.6".parse().unwrap();
    let sources = cases::mutation_sources(profile);
    // The first decode case of seed 3 crashes the engine, every time.
    let (index, input) = (0..200)
        .find_map(|i| match cases::make_case(3, i, profile, &sources) {
            Case::Decode { input, .. } if input.len() >= 8 => Some((i, input)),
            _ => None,
        })
        .unwrap();
    let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("input:{hex} segv\n"));
    let findings = tempfile::tempdir().unwrap();
    let cfg = Config {
        seed: 3,
        cases: 200,
        findings_dir: Some(findings.path().to_path_buf()),
        max_saved_per_class: 2,
        known: Vec::new(),
        gate: None,
    };
    let version = e.info().version.clone();
    let run =
        campaign::run_engine(&mut e, &version, &cfg, 0, &|_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(run.counts.values().sum::<u64>(), 200);
    assert_eq!(run.unanswered(), 0);
    let crashes = run.counts.get(&Class::EngineCrash).copied().unwrap_or(0);
    assert!(crashes >= 1, "{:?}", run.counts);
    // The fake answers with the codec: apart from the crashes, everything agrees or cannot be
    // compared (values the codec itself refuses to encode).
    let agree = run.counts.get(&Class::Agree).copied().unwrap_or(0);
    let unsupported = run.counts.get(&Class::Unsupported).copied().unwrap_or(0);
    assert_eq!(agree + unsupported + crashes, 200, "{:?}", run.counts);
    let saved = load_findings(findings.path());
    assert_eq!(saved.len(), 1, "one reproducer for the crash");
    let (path, f) = &saved[0];
    assert_eq!(f.class, Class::EngineCrash);
    assert!(path.starts_with(findings.path().join("engine-crash")));
    assert_eq!((f.seed, f.index), (Some(3), Some(index)));
    assert_eq!(
        f.replay,
        format!("gdmarshal diff --replay {}", path.display())
    );
}

#[test]
fn the_report_is_rendered_without_godot_and_the_same_inputs_give_the_same_bytes() {
    // The corpus holds values nested 1024 deep: give rendering a stack like the binary's.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(render_the_report)
        .unwrap()
        .join()
        .unwrap();
}

fn render_the_report() {
    use gdmarshal_lab::campaign::load_findings;
    use gdmarshal_lab::report::{Inputs, ask_claims, render};
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (double_corpora, corpora): (Vec<_>, Vec<_>) =
        gdmarshal_lab::corpus::load(&repo.join("corpus"))
            .unwrap()
            .into_iter()
            .partition(|c| c.profile.double_reals());
    // The fake engine answers the documentation's claims as this codec would.
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), "");
    let version = e.info().version.clone();
    let claims = ask_claims(&mut e, &version).unwrap();
    assert!(!claims.is_empty());
    let fixed: Vec<(String, _)> = load_findings(&repo.join("tests/differential"))
        .into_iter()
        .map(|(p, f)| (p.display().to_string(), f))
        .collect();
    let inputs = || Inputs {
        corpora: &corpora,
        double_corpora: &double_corpora,
        claims: vec![(version.clone(), e.info().profile, claims.clone())],
        findings: Vec::new(),
        campaign: None,
        log: Vec::new(),
        fixed_findings: fixed.clone(),
        framing: gdmarshal_lab::framing_corpus::load(&repo.join("corpus/framing")).unwrap(),
    };
    let first = render(&inputs()).unwrap();
    let second = render(&inputs()).unwrap();
    assert_eq!(first, second, "the same inputs give the same bytes");
    let (a, confirmed) = (first.report, first.confirmed);
    for heading in [
        "## 1. Type ids per engine version",
        "## 2. Differences between engine versions",
        "## 3. Where the documented spec disagrees with the engines",
        "## 4. Engine defects, oracle artefacts and codec differences found by campaigns and the corpus",
        "## 5. Codec differences found against live engines, now fixed",
    ] {
        assert!(a.contains(heading), "{heading}");
    }
    assert!(a.contains(&format!(
        "{confirmed} documented-spec discrepancies confirmed by the engines"
    )));
    assert!(a.contains(&format!("{} fixed findings listed.", fixed.len())));
}

#[test]
fn an_engine_past_its_memory_limit_is_a_crash_not_a_hang_of_the_suite() {
    use gdmarshal_lab::oracle::EngineLimits;
    let dir = tempfile::tempdir().unwrap();
    // The special input makes the engine allocate 4 GiB; its limit is 2 GiB.
    let config = EngineConfig {
        timeout: Duration::from_secs(30),
        start_timeout: Duration::from_secs(10),
        limits: EngineLimits {
            address_space: 2 << 30,
            ..EngineLimits::default()
        },
        ..EngineConfig::default()
    };
    let mut e = engine_with(dir.path(), &format!("{RULE} alloc:4096\n"), config);
    let started = std::time::Instant::now();
    let v = decode_around(&mut e, &SPECIAL, 2, 6);
    assert!(matches!(v[2], EngineVerdict::Crashed(_)), "{:?}", v[2]);
    others_accepted(&v, 2);
    assert_eq!(e.incidents()[0].resolution, Resolution::Reproduced);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "no timeout was waited for"
    );
}

#[test]
fn an_engine_flooding_stderr_is_answered_with_a_capped_error_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), &format!("{RULE} flood:64\n"));
    let inputs = [SPECIAL.to_vec(), int_bytes(1)];
    let requests: Vec<DecodeRequest> = inputs
        .iter()
        .map(|bytes| DecodeRequest {
            bytes,
            allow_objects: false,
        })
        .collect();
    let r = e.decode_batch(&requests);
    // Flooding may outlast the short timeout (then it is a hang, reproduced) or not; either way
    // the host holds at most a capped text, and the next request is answered.
    assert!(
        r[0].error_text.len() <= 65 << 10,
        "{} bytes of error text kept",
        r[0].error_text.len()
    );
    assert_eq!(r[1].verdict, EngineVerdict::Accepted);
}

#[test]
fn a_cancelled_campaign_stops_at_a_batch_boundary_and_resumes_where_it_stopped() {
    use gdmarshal_lab::campaign::log::{self, LogEntry, Totals};
    use gdmarshal_lab::campaign::{self, BATCH, Config, RunEnd};
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(dir.path(), "");
    let version = e.info().version.clone();
    let cfg = |cases| Config {
        seed: 11,
        cases,
        findings_dir: None,
        max_saved_per_class: 0,
        known: Vec::new(),
        gate: None,
    };
    let cancel = AtomicBool::new(false);
    // Told to stop once 2 batches are done (as a Ctrl-C between batches is): the run finishes
    // the batch the engine had already answered (the third) and ends there.
    let stop_after = 2 * BATCH as u64;
    let stopped_at = 3 * BATCH as u64;
    let part = campaign::run_engine(
        &mut e,
        &version,
        &cfg(5 * BATCH as u64),
        0,
        &|p| {
            assert_eq!(p.counts.values().sum::<u64>(), p.done);
            if p.done >= stop_after {
                cancel.store(true, Ordering::SeqCst);
            }
        },
        &cancel,
    )
    .unwrap();
    assert_eq!(part.end, RunEnd::Interrupted);
    assert_eq!(part.done, stopped_at);
    assert_eq!(part.next(), stopped_at);
    assert_eq!(part.counts.values().sum::<u64>(), part.done);
    // The rest, resumed from where it stopped, makes up the whole campaign.
    let not_cancelled = AtomicBool::new(false);
    let rest = campaign::run_engine(
        &mut e,
        &version,
        &cfg(2 * BATCH as u64),
        part.next(),
        &|_| {},
        &not_cancelled,
    )
    .unwrap();
    assert_eq!(rest.end, RunEnd::Completed);
    assert_eq!((rest.from, rest.done), (stopped_at, 2 * BATCH as u64));
    let whole = campaign::run_engine(
        &mut e,
        &version,
        &cfg(5 * BATCH as u64),
        0,
        &|_| {},
        &not_cancelled,
    )
    .unwrap();
    let mut joined = part.counts.clone();
    for (c, n) in &rest.counts {
        *joined.entry(*c).or_default() += n;
    }
    assert_eq!(joined, whole.counts);
    // A run told to stop before it starts runs nothing.
    let none = campaign::run_engine(&mut e, &version, &cfg(10), 0, &|_| {}, &cancel).unwrap();
    assert_eq!((none.end, none.done), (RunEnd::Interrupted, 0));

    // Each part is one line of the run log, and the log reads back as written.
    let findings = tempfile::tempdir().unwrap();
    let path = findings.path().join(log::LOG_FILE);
    let entries = [
        LogEntry::of(
            log::utc_now(),
            11,
            0,
            5 * BATCH as u64,
            part.secs,
            std::slice::from_ref(&part),
        ),
        LogEntry::of(
            log::utc_now(),
            11,
            part.next(),
            2 * BATCH as u64,
            rest.secs,
            std::slice::from_ref(&rest),
        ),
    ];
    for entry in &entries {
        log::append(&path, entry).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in [
            "date",
            "gdmarshal",
            "seed",
            "from",
            "cases",
            "wall_secs",
            "interrupted",
            "engines",
        ] {
            assert!(v.get(key).is_some(), "{key} in {line}");
        }
        assert!(v["engines"][0]["counts"]["agree"].as_u64().unwrap() > 0);
    }
    let back = log::read(&path).unwrap();
    assert_eq!(back, entries);
    assert!(back[0].interrupted && !back[1].interrupted);
    let totals = Totals::of(&back);
    assert_eq!(totals.cases(), 5 * BATCH as u64);
    assert_eq!(totals.engines[&version].counts, whole.counts);
}
