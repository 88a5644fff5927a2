//! The oracle's real `Engine` (start, handshake, batches, crashes, hangs, restarts) against the
//! scripted fake engine (`gdmarshal-fake-engine`), which speaks the engine protocol and answers
//! with this crate's codec. No Godot needed; every test takes well under a second or two.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gdmarshal::value::{Array, Dictionary};
use gdmarshal::{EncodeOptions, Profile, Variant};
use gdmarshal_lab::Answerer;
use gdmarshal_lab::oracle::{
    DecodeRequest, EncodeRequest, Engine, EngineConfig, EngineSpec, EngineVerdict, Request,
    Response, Source,
};

const FAKE: &str = env!("CARGO_BIN_EXE_gdmarshal-fake-engine");

/// A fake engine of this version, with this fault script (written into `dir`) if any.
fn fake(dir: &Path, version: &str, script: Option<&str>) -> EngineSpec {
    let mut args = vec![format!("--version={version}")];
    if let Some(text) = script {
        let path = dir.join("faults.txt");
        std::fs::write(&path, text).unwrap();
        args.push(format!("--script={}", path.display()));
    }
    EngineSpec {
        name: format!("fake-{version}"),
        launcher: PathBuf::from(FAKE),
        args,
        source: Source::Path("gdmarshal-fake-engine".into()),
        recorded_version: None,
        in_all: true,
        built_from: None,
        exit_grace: std::time::Duration::ZERO,
    }
}

/// Short timeouts: the fake engine starts and answers in milliseconds.
fn config(dir: &Path, timeout: Duration) -> EngineConfig {
    EngineConfig {
        timeout,
        start_timeout: Duration::from_secs(10),
        // The fault script and the state its rules keep across processes.
        writable: vec![dir.to_path_buf()],
        ..EngineConfig::default()
    }
}

fn start(dir: &Path, script: Option<&str>) -> Engine {
    Engine::start(
        fake(dir, "4.6.3", script),
        config(dir, Duration::from_secs(5)),
    )
    .expect("the fake engine starts")
}

fn int_bytes(i: i32) -> Vec<u8> {
    let mut b = vec![2, 0, 0, 0];
    b.extend_from_slice(&i.to_le_bytes());
    b
}

fn decode_requests(inputs: &[Vec<u8>]) -> Vec<DecodeRequest<'_>> {
    inputs
        .iter()
        .map(|bytes| DecodeRequest {
            bytes,
            allow_objects: false,
        })
        .collect()
}

fn s(text: &str) -> Variant {
    Variant::String(text.into())
}

#[test]
fn handshake_reports_the_scripted_version_and_its_profile() {
    let dir = tempfile::tempdir().unwrap();
    let engine = start(dir.path(), None);
    let info = engine.info();
    assert_eq!(info.version, "4.6.3.stable");
    assert_eq!((info.major, info.minor), (4, 6));
    assert_eq!(info.profile, "4.6".parse::<Profile>().unwrap());
    assert!(info.profile_exact && !info.double_reals);
    assert!(engine.pid().is_some());

    let old = Engine::start(
        fake(dir.path(), "3.6.2", None),
        config(dir.path(), Duration::from_secs(5)),
    )
    .expect("a 3.6 fake starts");
    assert_eq!(old.info().version, "3.6.2.stable");
    assert_eq!(old.profile(), "3.6".parse::<Profile>().unwrap());
}

/// The fake engine answers with this codec, so what this checks is the way between the host and
/// an engine: requests and answers (-0.0, NaN payloads, non-ASCII text, containers, refusals)
/// cross the oracle protocol unchanged. The codec itself is checked against real engines' answers
/// elsewhere (the corpus, campaigns).
#[test]
fn values_and_bytes_cross_the_protocol_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(dir.path(), None);
    let profile = engine.profile();

    let one = [2, 0, 0, 0, 1, 0, 0, 0];
    let d = engine.decode(&one, false);
    assert_eq!(d.verdict, EngineVerdict::Accepted);
    assert_eq!(d.value, Some(Variant::Int(1)));
    assert_eq!(d.consumed, Some(8));
    assert_eq!(d.reencoded.as_deref(), Some(&one[..]));
    assert_eq!(d.reencoded_full.as_deref(), Some(&one[..]));
    assert!(d.error_text.is_empty(), "{}", d.error_text);

    let truncated = engine.decode(&one[..5], false);
    assert_eq!(truncated.verdict, EngineVerdict::Rejected);
    assert!(
        truncated.error_text.contains("fake engine rejects"),
        "{:?}",
        truncated.error_text
    );

    let values = [
        Variant::Int(1),
        Variant::Int(i64::MIN),
        s("héllo"),
        Variant::Float(-0.0),
        Variant::Float(f64::from_bits(0x7ff8_0000_0000_0001)),
        Variant::Float(f64::from_bits(0x7ff0_0000_0000_0001)),
        Variant::PackedFloat32Array(vec![0.5, f32::from_bits(0x7fa0_0000)]),
        Variant::Array(Array::new(vec![Variant::Int(1), s(""), Variant::Nil])),
        Variant::Dictionary(Dictionary::new(vec![
            (s("k"), Variant::Int(7)),
            (Variant::Int(1), Variant::Array(Array::default())),
        ])),
    ];
    for v in &values {
        let e = engine.encode(v, false);
        assert_eq!(e.verdict, EngineVerdict::Accepted, "{v:?}: {e:?}");
        let want = gdmarshal::encode(v, profile, EncodeOptions::default()).unwrap();
        assert_eq!(e.bytes(), Some(&want[..]), "{v:?}");
        assert_eq!(e.value.as_ref(), Some(v), "{v:?}");
        let d = engine.decode(&want, false);
        assert_eq!(d.value.as_ref(), Some(v), "{v:?}");
    }
    assert_eq!(engine.restarts(), 0);
}

#[test]
fn a_value_nested_past_the_limit_is_refused_with_the_reason() {
    // The request's JSON is 2,000 levels deep: room for it in unoptimised builds.
    let run = || {
        let dir = tempfile::tempdir().unwrap();
        let mut engine = start(dir.path(), None);
        let deep = (0..1025).fold(Variant::Int(7), |v, _| Variant::Array(Array::new(vec![v])));
        let e = engine.encode(&deep, false);
        assert_eq!(e.verdict, EngineVerdict::Rejected, "{e:?}");
        let why = &e.error_text;
        assert!(
            why.starts_with("ERROR: fake engine refuses to encode: at $[0][0]"),
            "{why}"
        );
        assert!(why.ends_with(": nesting deeper than 1024\n"), "{why}");
        assert_eq!(e.bytes(), None);
        assert_eq!(engine.restarts(), 0);
    };
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_mixed_batch_of_300_requests_is_answered_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(dir.path(), None);
    let inputs: Vec<Vec<u8>> = (0..300).map(int_bytes).collect();
    let values: Vec<Variant> = (0..300).map(|i| s(&format!("v{i}"))).collect();
    let requests: Vec<Request> = (0..300)
        .map(|i| match i % 3 {
            0 => Request::Decode(DecodeRequest {
                bytes: &inputs[i],
                allow_objects: i % 2 == 0,
            }),
            1 => Request::Encode(EncodeRequest {
                value: &values[i],
                full_objects: false,
            }),
            _ => Request::Sleep(Duration::ZERO),
        })
        .collect();
    let responses = engine.run(&requests);
    assert_eq!(responses.len(), 300);
    for (i, r) in responses.iter().enumerate() {
        match r {
            Response::Decode(d) => assert_eq!(d.value, Some(Variant::Int(i as i64)), "{i}"),
            Response::Encode(e) => assert_eq!(e.value.as_ref(), Some(&values[i]), "{i}"),
            Response::Sleep(v) => assert_eq!(v, &EngineVerdict::Accepted, "{i}"),
        }
    }
    assert_eq!(engine.restarts(), 0);
}

#[test]
fn a_crashing_input_is_answered_crashed_and_the_rest_of_the_batch_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(dir.path(), Some("input:0200000007000000 segv\n"));
    let inputs: Vec<Vec<u8>> = [1, 7, 2].into_iter().map(int_bytes).collect();
    let r = engine.decode_batch(&decode_requests(&inputs));
    assert_eq!(r[0].value, Some(Variant::Int(1)));
    assert_eq!(r[2].value, Some(Variant::Int(2)));
    let EngineVerdict::Crashed(incident) = &r[1].verdict else {
        panic!("{:?}", r[1]);
    };
    assert!(incident.status.contains("SIGSEGV"), "{}", incident.status);
    assert!(
        incident.stderr.contains("handle_crash"),
        "{:?}",
        incident.stderr
    );
    assert!(engine.restarts() >= 1);
    assert!(
        engine
            .findings()
            .iter()
            .all(|f| matches!(f.verdict, EngineVerdict::Crashed(_)))
    );
    assert!(!engine.findings().is_empty());
    // The engine serves on after the crash.
    assert_eq!(
        engine.decode(&int_bytes(3), false).value,
        Some(Variant::Int(3))
    );
}

#[test]
fn an_exit_is_a_crash_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(dir.path(), Some("op:encode exit:3\n"));
    let e = engine.encode(&Variant::Int(1), false);
    let EngineVerdict::Crashed(incident) = &e.verdict else {
        panic!("{e:?}");
    };
    assert_eq!(incident.status, "exited with status 3");
    assert_eq!(
        engine.decode(&int_bytes(4), false).value,
        Some(Variant::Int(4))
    );
}

#[test]
fn a_hanging_input_is_answered_hung_after_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fake(dir.path(), "4.6.3", Some("input:0200000007000000 hang\n"));
    let mut engine = Engine::start(spec, config(dir.path(), Duration::from_millis(500))).unwrap();
    let inputs: Vec<Vec<u8>> = [1, 7, 2].into_iter().map(int_bytes).collect();
    let r = engine.decode_batch(&decode_requests(&inputs));
    assert_eq!(r[0].value, Some(Variant::Int(1)));
    assert_eq!(r[2].value, Some(Variant::Int(2)));
    let EngineVerdict::Hung(incident) = &r[1].verdict else {
        panic!("{:?}", r[1]);
    };
    assert!(
        incident.after >= Duration::from_millis(500) && incident.after < Duration::from_secs(5),
        "{incident:?}"
    );
}

#[test]
fn a_slow_rule_delays_the_answer_but_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(dir.path(), Some("op:decode slow:200\n"));
    let t = Instant::now();
    assert_eq!(
        engine.decode(&int_bytes(5), false).value,
        Some(Variant::Int(5))
    );
    assert!(t.elapsed() >= Duration::from_millis(200));
}

#[test]
fn a_once_rule_fires_once_across_processes() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = start(
        dir.path(),
        Some("# killed once\ninput:02000000 kill-once\n"),
    );
    // Whether the first answer is the crash or a retry's, the rule has fired and the marker
    // file records it; from then on the input is answered normally.
    let first = engine.decode(&int_bytes(6), false);
    assert!(
        first.verdict == EngineVerdict::Accepted
            || matches!(first.verdict, EngineVerdict::Crashed(_)),
        "{first:?}"
    );
    assert!(dir.path().join("faults.txt.state/2.0").exists());
    let again = engine.decode(&int_bytes(6), false);
    assert_eq!(again.value, Some(Variant::Int(6)));
    drop(engine);
    let mut fresh = start(
        dir.path(),
        Some("# killed once\ninput:02000000 kill-once\n"),
    );
    assert_eq!(
        fresh.decode(&int_bytes(6), false).value,
        Some(Variant::Int(6))
    );
    assert_eq!(fresh.restarts(), 0);
}

#[test]
fn a_refused_start_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fake(dir.path(), "4.6.3", Some("start refuse-start\n"));
    let e = Engine::start(spec, config(dir.path(), Duration::from_secs(5)))
        .err()
        .expect("the engine refuses to start");
    assert!(e.to_string().contains("refusing to start"), "{e}");
}

#[test]
fn a_bad_script_stops_the_engine_before_it_connects() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fake(dir.path(), "4.6.3", Some("input:02 segv\nany explode\n"));
    let e = Engine::start(spec, config(dir.path(), Duration::from_secs(5)))
        .err()
        .expect("a bad script is fatal");
    let text = e.to_string();
    assert!(
        text.contains("status 2") && text.contains("line 2"),
        "{text}"
    );

    let mut missing = fake(dir.path(), "4.6.3", None);
    missing.args.push("--script=/nonexistent/faults.txt".into());
    let e = Engine::start(missing, config(dir.path(), Duration::from_secs(5)))
        .err()
        .expect("a missing script is fatal");
    assert!(e.to_string().contains("cannot read script"), "{e}");
}

#[test]
fn a_stopped_engine_counts_as_hung_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fake(dir.path(), "4.6.3", Some("op:decode stop-once\n"));
    let mut engine = Engine::start(spec, config(dir.path(), Duration::from_millis(300))).unwrap();
    let first = engine.decode(&int_bytes(8), false);
    // Hung today; answered by a fresh engine where a retry finds the rule spent.
    assert!(
        first.verdict == EngineVerdict::Accepted || matches!(first.verdict, EngineVerdict::Hung(_)),
        "{first:?}"
    );
    assert_eq!(
        engine.decode(&int_bytes(9), false).value,
        Some(Variant::Int(9))
    );
    assert!(engine.restarts() >= 1);
}
