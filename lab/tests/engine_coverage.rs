//! docs/engine-coverage.md is what a real run of scripts/engine-coverage.sh measured: it names the
//! engine build it ran on, its figures add up from the per-function data of the same run, the
//! campaign it states ran to the end, and every line of decode_variant / encode_variant that no
//! case reached carries a reason.

use std::path::Path;

use serde_json::Value;

fn docs() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs")
}

fn data() -> Value {
    let path = docs().join("engine-coverage.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/engine-coverage.sh)", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

#[test]
fn the_report_names_the_coverage_build_it_measured() {
    let d = data();
    let e = &d["engine"];
    assert_eq!(e["name"], "4.6-coverage");
    assert!(
        e["version_string"].as_str().unwrap().starts_with("4.6.3"),
        "{e}"
    );
    assert!(e["built_from"].as_str().unwrap().starts_with("godot_4.6.3"));
    let opts: Vec<&str> = e["scons_options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert!(opts.contains(&"use_coverage=yes"), "{opts:?}");
    let md = std::fs::read_to_string(docs().join("engine-coverage.md")).unwrap();
    assert!(md.contains(e["version_string"].as_str().unwrap()));
    assert!(md.contains(d["command"].as_str().unwrap()));
}

#[test]
fn the_figures_add_up_and_meet_the_target() {
    let d = data();
    let funcs = d["functions"].as_array().unwrap();
    let main: Vec<&Value> = funcs
        .iter()
        .filter(|f| f["name"] == "decode_variant" || f["name"] == "encode_variant")
        .collect();
    assert_eq!(main.len(), 2);
    for key in ["lines", "reached", "branches", "taken"] {
        let sum: u64 = main.iter().map(|f| u(f, key)).sum();
        assert_eq!(sum, u(&d["main"], key), "{key}");
        let all: u64 = funcs.iter().map(|f| u(f, key)).sum();
        assert_eq!(all, u(&d["all"], key), "{key}");
    }
    let (lines, reached) = (u(&d["main"], "lines"), u(&d["main"], "reached"));
    assert!(
        lines > 1000,
        "decode_variant and encode_variant have {lines} lines?"
    );
    let pct = 100.0 * reached as f64 / lines as f64;
    assert!(pct >= 98.0, "{pct:.2}% of the lines reached");
    let md = std::fs::read_to_string(docs().join("engine-coverage.md")).unwrap();
    assert!(
        md.contains(&format!("{pct:.2}% of lines ({reached} of {lines})")),
        "docs/engine-coverage.md does not state {pct:.2}%"
    );
    // Every line not reached is listed, and those of the two functions each have a reason.
    let unreached = d["unreached"].as_array().unwrap();
    let listed = unreached
        .iter()
        .filter(|l| l["function"] == "decode_variant" || l["function"] == "encode_variant")
        .count() as u64;
    assert_eq!(listed, lines - reached);
    for l in unreached {
        if l["function"] == "decode_variant" || l["function"] == "encode_variant" {
            assert!(l["reason"].is_string(), "line without a reason: {l}");
        }
    }
    assert_eq!(d["unexplained"], 0);
}

#[test]
fn the_campaign_it_states_ran_to_the_end() {
    let d = data();
    let run = &d["run"];
    let engines = run["campaign"]["engines"]
        .as_array()
        .expect("a campaign log");
    assert_eq!(engines.len(), 1);
    assert_eq!(engines[0]["engine"], "4.6-coverage");
    assert_eq!(u(&engines[0], "done"), u(run, "cases"));
    assert!(u(run, "cases") > 0);
}
