//! The framing corpus (corpus/framing/, recorded from the engines by `gdmarshal corpus framing`):
//! its checksums hold, every engine is in it, the codec's framing answers every record as the
//! engine did, and the engines' own Basis axes fix the wire's component order.

use std::path::Path;

use gdmarshal::hex::unhex;
use gdmarshal::json::to_json;
use gdmarshal::profile::Profile;
use gdmarshal::{DecodeOptions, decode};
use gdmarshal_lab::framing_corpus::{self, FramingRecord};
use serde_json::json;

fn corpus() -> Vec<(String, Vec<FramingRecord>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/framing");
    framing_corpus::load(&dir).unwrap()
}

fn profile(version: &str) -> Profile {
    version[..3].parse().unwrap()
}

#[test]
fn every_engine_is_recorded_and_the_checksums_hold() {
    let versions: Vec<String> = corpus().into_iter().map(|(v, _)| v).collect();
    for wanted in ["3.2.", "3.6.", "4.6."] {
        assert!(
            versions.iter().any(|v| v.starts_with(wanted)),
            "{versions:?}"
        );
    }
}

#[test]
fn the_codec_frames_and_unframes_as_every_engine_does() {
    let mut failures = Vec::new();
    let mut n = 0;
    for (version, records) in corpus() {
        for r in &records {
            n += 1;
            if let Err(e) = framing_corpus::check(r, profile(&version)) {
                failures.push(format!("{version} {}: {e}", r.name));
            }
        }
    }
    assert!(n > 100, "{n} records");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_wire_lists_a_basis_by_rows_on_every_engine() {
    for (version, records) in corpus() {
        let a = records
            .iter()
            .find(|r| r.name == "axes")
            .and_then(|r| r.answer.clone())
            .expect("an axes record");
        // Basis(x, y, z) with these axes, as the engine itself reports them.
        assert_eq!(a["x"], json!([1.0, 2.0, 3.0]), "{version}");
        assert_eq!(a["y"], json!([4.0, 5.0, 6.0]), "{version}");
        assert_eq!(a["z"], json!([7.0, 8.0, 9.0]), "{version}");
        let p = profile(&version);
        let bytes = unhex(a["basis"].as_str().unwrap()).unwrap();
        let d = decode(&bytes, p, DecodeOptions::default()).unwrap();
        let t = to_json(&d.value, p, gdmarshal::float::FloatStyle::Shortest);
        // On the wire: x.x, y.x, z.x, then x.y, y.y, z.y, then x.z, y.z, z.z.
        assert_eq!(
            t["value"],
            json!(["1", "4", "7", "2", "5", "8", "3", "6", "9"]),
            "{version}"
        );
        // The codec's field names (inspect, errors) name each wire slot by the engine's axes.
        let basis_t = gdmarshal::types::TYPES
            .iter()
            .find(|t| t.ty == gdmarshal::VariantType::Basis)
            .unwrap();
        for (i, field) in basis_t.fields.iter().enumerate() {
            let (axis, comp) = field.split_once('.').unwrap();
            let c = ["x", "y", "z"].iter().position(|n| *n == comp).unwrap();
            let expected = a[axis][c].as_f64().unwrap() as f32;
            let at = 4 + 4 * i;
            let got = f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
            assert_eq!(got, expected, "{version}: field {field} at offset {at}");
        }
        // Transform2D(x, y, origin) and Projection(x, y, z, w) are written column by column.
        let floats = |key: &str| {
            let b = unhex(a[key].as_str().unwrap()).unwrap();
            let d = decode(&b, p, DecodeOptions::default()).unwrap();
            to_json(&d.value, p, gdmarshal::float::FloatStyle::Shortest)["value"].clone()
        };
        assert_eq!(
            floats("transform2d"),
            json!(["1", "2", "3", "4", "5", "6"]),
            "{version}"
        );
        if p.major() == 4 {
            let counting: Vec<String> = (1..=16).map(|i| i.to_string()).collect();
            assert_eq!(floats("projection"), json!(counting), "{version}");
        }
        let bytes = unhex(a["transform"].as_str().unwrap()).unwrap();
        assert_eq!(bytes.len(), 4 + 12 * 4, "{version}");
        assert_eq!(
            &bytes[4..40],
            &unhex(a["basis"].as_str().unwrap()).unwrap()[4..]
        );
    }
}

#[test]
fn the_installed_engines_still_answer_as_the_framing_corpus_says() {
    use gdmarshal_lab::oracle::{EngineConfig, start_all};
    let Some(found) = gdmarshal_testkit::engines::all_ci() else {
        return;
    };
    let committed = corpus();
    for (spec, engine) in start_all(found, &EngineConfig::default()) {
        let mut engine = engine.unwrap_or_else(|e| panic!("{} does not start: {e}", spec.name));
        let version = engine.info().version.clone();
        let now = framing_corpus::record(&mut engine).unwrap();
        let then = &committed
            .iter()
            .find(|(v, _)| *v == version)
            .unwrap_or_else(|| panic!("{version} is not in corpus/framing"))
            .1;
        assert_eq!(
            &now, then,
            "{version} answers otherwise: run `gdmarshal corpus framing`"
        );
    }
}
