//! Live mode: instead of the recorded corpus, values drawn at random are put to a live engine
//! (through the oracle) and the engine's answers become the cases the testee is judged on.

use arbitrary::Unstructured;

use crate::corpus::generate::generate;
use crate::corpus::{Case, EngineCorpus, ManifestEntry, Verdict};
use crate::oracle::{self, Engine, EngineConfig};
use gdmarshal::float::FloatStyle;
use gdmarshal::generate::{GenOptions, canonical_value_of, profile_types};
use gdmarshal::json::{to_json, unhex};
use gdmarshal::profile::Profile;

/// Starts the installed engine of a format version.
fn engine_for(profile: Profile) -> Result<Engine, String> {
    let specs = oracle::discover();
    let wanted = profile.to_string();
    // Manifest engines are named by their version: try that one first, then any.
    let (named, others): (Vec<_>, Vec<_>) = specs.into_iter().partition(|s| s.name == wanted);
    // Engines that would not start are named in the error, should no other serve.
    let mut failed = String::new();
    for spec in named.into_iter().chain(others) {
        let name = spec.name.clone();
        match Engine::start(spec, EngineConfig::default()) {
            Ok(e) if e.info().profile == profile => return Ok(e),
            Ok(_) => {}
            Err(e) => failed.push_str(&format!("; engine {name} did not start: {e}")),
        }
    }
    Err(format!(
        "live mode: no Godot {profile} engine is installed (see `gdmarshal engines`, scripts/install-engines.sh){failed}"
    ))
}

/// A small deterministic byte source (xorshift64*), so that a seed names a set of cases.
fn bytes(state: &mut u64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        out.extend_from_slice(&state.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// The type segment of a live case's name: the value's type, with `+NodePath` when a NodePath is
/// nested inside (the engines write uninitialised memory into NodePath padding, so expected-failure
/// lists need to find those cases: `* live/*/*NodePath*/* flaky: ...`).
fn label(value: &gdmarshal::value::Variant, profile: Profile) -> String {
    let top = value.get_type().name();
    let mut types = std::collections::BTreeSet::new();
    super::collect_types(&to_json(value, profile, FloatStyle::Shortest), &mut types);
    if top != "NodePath" && types.contains("NodePath") {
        format!("{top}+NodePath")
    } else {
        top.to_string()
    }
}

/// `count` random values of each of the profile's types, each asked of the live engine as an encode case
/// (`live/encode/TYPE/SEED/I`) and its bytes then as a decode case (`live/decode/TYPE/SEED/I`); every case
/// is asked twice so that answers that change between runs are not compared.
pub fn live_corpus(profile: Profile, count: usize, seed: u64) -> Result<EngineCorpus, String> {
    let mut engine = engine_for(profile)?;
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let options = GenOptions::new(profile);
    let mut encode_cases = Vec::new();
    for ty in profile_types(profile) {
        for i in 0..count {
            let data = bytes(&mut state, 4096);
            if let Ok(value) = canonical_value_of(&mut Unstructured::new(&data), &options, ty) {
                encode_cases.push(Case::Encode {
                    name: format!("live/encode/{}/{seed}/{i}", label(&value, profile)),
                    value,
                    full_objects: false,
                });
            }
        }
    }
    let mut records = generate(&mut engine, &encode_cases, &mut |_| {})
        .map_err(|e| format!("live cases: {e}"))?;
    let decode_cases: Vec<Case> = records
        .iter()
        .filter(|r| r.verdict == Verdict::Accepted)
        .filter_map(|r| {
            let input = unhex(r.output.as_deref()?).ok()?;
            Some(Case::Decode {
                name: r.name.replacen("live/encode/", "live/decode/", 1),
                input,
                allow_objects: false,
            })
        })
        .collect();
    records.extend(
        generate(&mut engine, &decode_cases, &mut |_| {})
            .map_err(|e| format!("live cases: {e}"))?,
    );
    let info = engine.info().clone();
    Ok(EngineCorpus {
        entry: ManifestEntry::for_records(&info.version, profile, "(live)", &records),
        profile,
        records,
    })
}
