//! Live mode: instead of the recorded corpus, values drawn at random are put to a live engine
//! (through the oracle) and the engine's answers become the cases the testee is judged on.

use arbitrary::Unstructured;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::LiveError;
use crate::corpus::generate::generate;
use crate::corpus::{EngineCorpus, ManifestEntry};
use crate::model::{Case, Verdict};
use crate::oracle::{self, Engine, EngineConfig};
use gdmarshal::float::FloatStyle;
use gdmarshal::generate::{GenOptions, canonical_value_of, profile_types};
use gdmarshal::hex::unhex;
use gdmarshal::json::to_json;
use gdmarshal::profile::Profile;

/// Starts the installed engine of a format version.
fn engine_for(profile: Profile, config: &EngineConfig) -> Result<Engine, LiveError> {
    let specs = oracle::discover();
    let wanted = profile.to_string();
    // Manifest engines are named by their version: try that one first, then any.
    let (named, others): (Vec<_>, Vec<_>) = specs.into_iter().partition(|s| s.name == wanted);
    // Engines that would not start are named in the error, should no other serve.
    let mut failed = Vec::new();
    for spec in named.into_iter().chain(others) {
        let name = spec.name.clone();
        match Engine::start(spec, config.clone()) {
            Ok(e) if e.info().profile == profile => return Ok(e),
            Ok(_) => {}
            Err(e) => failed.push((name, e)),
        }
    }
    Err(LiveError::NoEngine { profile, failed })
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
pub fn live_corpus(
    profile: Profile,
    count: usize,
    seed: u64,
    config: &EngineConfig,
) -> Result<EngineCorpus, LiveError> {
    let mut engine = engine_for(profile, config)?;
    // A deterministic stream (xoshiro256++, seeded as rand_xoshiro documents), so that a seed
    // names a set of cases.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let options = GenOptions::new(profile);
    let mut encode_cases = Vec::new();
    for ty in profile_types(profile) {
        for i in 0..count {
            let mut data = [0; 4096];
            rng.fill_bytes(&mut data);
            if let Ok(value) = canonical_value_of(&mut Unstructured::new(&data), &options, ty) {
                encode_cases.push(Case::Encode {
                    name: format!("live/encode/{}/{seed}/{i}", label(&value, profile)),
                    value,
                    full_objects: false,
                });
            }
        }
    }
    let mut records = generate(&mut engine, &encode_cases, &mut |_| {})?;
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
    records.extend(generate(&mut engine, &decode_cases, &mut |_| {})?);
    let info = engine.info().clone();
    Ok(EngineCorpus {
        entry: ManifestEntry::for_records(&info.version, profile, "(live)", &records),
        profile,
        records,
    })
}
