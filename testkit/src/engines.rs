//! The engine requirement policy: what a test does when a Godot engine it needs is missing.

use gdmarshal_lab::oracle::{EngineSpec, discover};
use gdmarshal_lab::versions::ci_engines;

/// Whether this run must have every engine: CI sets `CI`, and installs them all.
pub fn required() -> bool {
    std::env::var_os("CI").is_some()
}

/// Says that `what` is missing and that the test `skips` it; on CI, fails the test instead.
pub fn missing(what: &str, skips: &str) {
    assert!(
        !required(),
        "{what} is not installed (scripts/install-engines.sh); CI needs every one of {:?}",
        ci_engines()
    );
    eprintln!("note: {what} is not installed; {skips}");
}

/// The installed engine of this manifest name (`4.6`), under the policy.
pub fn named(name: &str) -> Option<EngineSpec> {
    let found = discover().into_iter().find(|s| s.name == name);
    if found.is_none() {
        missing(&format!("Godot engine {name}"), "skipped");
    }
    found
}

/// The installed engine that reports this Godot version (`4.6.3.stable`), under the policy.
pub fn of_version(version: &str) -> Option<EngineSpec> {
    let found = discover()
        .into_iter()
        .find(|s| s.recorded_version.as_deref() == Some(version));
    if found.is_none() {
        missing(&format!("an engine of Godot {version}"), "skipped");
    }
    found
}

/// The CI engines that are installed, in the versions table's order; each missing one is noted
/// under the policy.
pub fn ci() -> Vec<EngineSpec> {
    let found = discover();
    ci_engines()
        .into_iter()
        .filter_map(|name| {
            let s = found.iter().find(|s| s.name == name).cloned();
            if s.is_none() {
                missing(&format!("Godot engine {name}"), "not compared");
            }
            s
        })
        .collect()
}

/// Every CI engine, or `None` when one is missing (under the policy): for a test that compares
/// all of them at once or not at all.
pub fn all_ci() -> Option<Vec<EngineSpec>> {
    let specs = ci();
    (specs.len() == ci_engines().len()).then_some(specs)
}
