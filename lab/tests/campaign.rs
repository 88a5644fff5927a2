//! Differential campaigns: case generation is deterministic, and a small live campaign runs
//! against every real engine (a missing engine is skipped locally and fails when `CI` is set).

use gdmarshal::{Profile, VariantType};
use gdmarshal_lab::campaign::{self, Class, Config, cases};
use gdmarshal_lab::model::Case;
use gdmarshal_lab::oracle::{EngineConfig, start_all};

use gdmarshal_testkit::engines::ci as ci_engine_specs;

/// The committed known differences.
fn known_differences() -> Vec<gdmarshal_lab::corpus::known::Entry> {
    gdmarshal_lab::corpus::known::read(
        &gdmarshal_lab::corpus::default_dir().join("known-differences.txt"),
    )
    .unwrap()
}

/// That the engine and the codec agree on `case`, or what they said.
fn assert_agree(engine: &str, case: &Case, j: &campaign::Judged) {
    assert_eq!(
        j.class,
        Class::Agree,
        "{engine}: {}: {}",
        describe(case),
        j.detail
    );
}

fn describe(c: &Case) -> String {
    match c {
        Case::Decode {
            name,
            input,
            allow_objects,
        } => format!("{name} {input:?} {allow_objects}"),
        Case::Encode {
            name,
            value,
            full_objects,
        } => format!("{name} {value:?} {full_objects}"),
    }
}

#[test]
fn same_seed_same_cases() {
    for p in ["3.2", "4.6"] {
        let profile: Profile = p.parse().unwrap();
        let sources = cases::mutation_sources(profile);
        let a: Vec<String> = (0..300)
            .map(|i| describe(&cases::make_case(42, i, profile, &sources)))
            .collect();
        let b: Vec<String> = (0..300)
            .map(|i| describe(&cases::make_case(42, i, profile, &sources)))
            .collect();
        assert_eq!(a, b);
        let c: Vec<String> = (0..300)
            .map(|i| describe(&cases::make_case(43, i, profile, &sources)))
            .collect();
        assert_ne!(a, c, "another seed gives other cases");
        // Both directions and every kind of case occur; typed containers by class or script
        // only where the format has them.
        for kind in [
            "/encode ",
            "/decode/valid ",
            "/decode/mutated ",
            "/decode/high-bit-count ",
            "/decode/type-or-flag ",
            "/encode/typed-class ",
            "/decode/typed-class ",
        ] {
            let typed = kind.contains("typed-class");
            let found = a.iter().any(|d| d.contains(kind));
            assert_eq!(found, !typed || profile.typed_arrays(), "{p}: {kind}");
        }
    }
}

/// The steered kinds do what they say: a count with the high bit set, a typed container whose
/// type is a class or a script.
#[test]
fn steered_cases_hold_what_their_kind_says() {
    use gdmarshal::value::{ContainerType, Variant};
    let profile: Profile = "4.6".parse().unwrap();
    let sources = cases::mutation_sources(profile);
    let (mut high_bit, mut typed) = (0, 0);
    for i in 0..2000 {
        match cases::make_case(7, i, profile, &sources) {
            Case::Decode { name, input, .. } if name.ends_with("/high-bit-count") => {
                high_bit += 1;
                assert!(
                    input
                        .chunks_exact(4)
                        .any(|w| u32::from_le_bytes(w.try_into().unwrap()) & 0x8000_0000 != 0),
                    "{name}: {input:02x?}"
                );
            }
            Case::Encode { name, value, .. } if name.ends_with("/typed-class") => {
                typed += 1;
                let by_class = |t: &ContainerType| {
                    matches!(t, ContainerType::ClassName(_) | ContainerType::Script(_))
                };
                let holds = |v: &Variant| match v {
                    Variant::Array(a) => by_class(a.element_type()),
                    Variant::Dictionary(d) => by_class(d.key_type()) || by_class(d.value_type()),
                    _ => false,
                };
                let ok = holds(&value)
                    || matches!(&value, Variant::Array(a) if a.items().iter().any(holds));
                assert!(ok, "{name}: {value:?}");
            }
            _ => {}
        }
    }
    // About a tenth each (the rest of the typed ones are decode cases).
    assert!(high_bit > 100 && typed > 50, "{high_bit} {typed}");
}

#[test]
fn a_case_is_rebuilt_alone() {
    let profile: Profile = "4.6".parse().unwrap();
    let sources = cases::mutation_sources(profile);
    let all: Vec<String> = (0..50)
        .map(|i| describe(&cases::make_case(9, i, profile, &sources)))
        .collect();
    assert_eq!(
        describe(&cases::make_case(9, 37, profile, &sources)),
        all[37]
    );
    let _ = VariantType::Nil;
}

#[test]
fn live_campaign_on_every_engine() {
    let specs = ci_engine_specs();
    let dir = tempfile::tempdir().unwrap();
    let cfg = Config {
        seed: 5,
        cases: 300,
        findings_dir: Some(dir.path().to_path_buf()),
        max_saved_per_class: 2,
        known: gdmarshal_lab::corpus::known::read(
            &gdmarshal_lab::corpus::default_dir().join("known-differences.txt"),
        )
        .unwrap(),
        // Codec differences of the kinds still open (findings/codec-differs/) are known; any
        // other kind is a regression.
        gate: Some(campaign::Gate {
            classes: vec![Class::CodecDiffers],
            open: campaign::OpenKinds::of(
                campaign::load_findings(&gdmarshal_lab::repo_root().join("findings"))
                    .iter()
                    .map(|(_, f)| f),
            ),
        }),
    };
    for (spec, engine) in start_all(specs, &EngineConfig::default()) {
        let mut engine =
            engine.unwrap_or_else(|e| panic!("engine {} does not start: {e}", spec.name));
        let version = engine.info().version.clone();
        let run = campaign::run_engine(
            &mut engine,
            &version,
            &cfg,
            0,
            &|_| {},
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
        let total: u64 = run.counts.values().sum();
        assert_eq!(total, 300);
        assert!(
            run.counts.get(&Class::Agree).copied().unwrap_or(0) > 250,
            "{:?}",
            run.counts
        );
        assert_eq!(
            run.uncovered.get(&Class::CodecDiffers),
            None,
            "{version}: codec differences of a kind not open: {:?}",
            run.findings
        );
        // Every saved reproducer reads back and names its replay command.
        for (path, f) in &run.findings {
            let path = path.as_ref().unwrap();
            let back = campaign::load_finding(path).unwrap();
            assert_eq!(back.class, f.class);
            assert!(back.replay.starts_with("gdmarshal diff --replay "));
            back.case().unwrap();
        }
    }
}

/// Values no script can build are built in the engine from the codec's bytes and compared byte
/// for byte: an object that exists only by its id, a NodePath name path text cannot spell, an id
/// past GDScript's signed int (4.x builds the first two with stand-ins instead).
#[test]
fn values_no_script_builds_are_built_from_bytes_and_compared() {
    use gdmarshal::Variant;
    use gdmarshal::value::{NodePath, Object};
    let specs = ci_engine_specs();
    let encode = |value: Variant| Case::Encode {
        name: "from-bytes".into(),
        value,
        full_objects: false,
    };
    let cases = vec![
        encode(Variant::object(Object::Id(5))),
        encode(Variant::object(Object::Id(u64::MAX - 1))),
        encode(Variant::node_path(NodePath {
            names: vec!["a/b".into()],
            subnames: vec![],
            absolute: false,
        })),
    ];
    let known = known_differences();
    for (spec, engine) in start_all(specs, &EngineConfig::default()) {
        let mut engine =
            engine.unwrap_or_else(|e| panic!("engine {} does not start: {e}", spec.name));
        for (case, j) in cases
            .iter()
            .zip(campaign::classify_batch(&mut engine, &cases, &known))
        {
            // 4.x builds an object known by its id alone as a stand-in object instead, and a
            // NodePath from the bytes of that node alone (godot_project/README.md, "stand_ins").
            let stand_in = !spec.name.starts_with('3')
                && matches!(
                    case,
                    Case::Encode {
                        value: Variant::Object(_) | Variant::NodePath(_),
                        ..
                    }
                );
            assert_eq!(
                j.built_from_bytes,
                !stand_in,
                "{}: {}",
                spec.name,
                describe(case)
            );
            // 3.x leaves NodePath padding uninitialised: the bytes may differ between runs.
            let padding = spec.name.starts_with('3')
                && matches!(
                    case,
                    Case::Encode {
                        value: Variant::NodePath(_),
                        ..
                    }
                );
            assert!(
                j.class == Class::Agree
                    || (padding
                        && matches!(
                            j.class,
                            Class::KnownDifference | Class::EngineNondeterministic
                        )),
                "{}: {}: {} {}",
                spec.name,
                describe(case),
                j.class,
                j.detail
            );
        }
    }
}

/// With the classes of the engine it runs, the codec refuses what that engine cannot hold, as
/// the engine does: a full object of a class it cannot make (decoding with objects), an object in
/// a container typed by a class it does not have (encoding; 4.x, whose oracle says so with
/// stand-ins). Both were differences before the campaign knew the engine's classes.
#[test]
fn values_an_engine_cannot_hold_are_refused_by_both() {
    use gdmarshal::Variant;
    use gdmarshal::value::{Array, ContainerType, Object};
    let specs = ci_engine_specs();
    let known = known_differences();
    for (spec, engine) in start_all(specs, &EngineConfig::default()) {
        let mut engine =
            engine.unwrap_or_else(|e| panic!("engine {} does not start: {e}", spec.name));
        let profile = engine.info().profile;
        let object = profile.id_of(gdmarshal::VariantType::Object).unwrap();
        // A full object of class "Nope": its class name, no properties.
        let mut nope = object.to_le_bytes().to_vec();
        nope.extend(4u32.to_le_bytes());
        nope.extend(b"Nope");
        nope.extend(0u32.to_le_bytes());
        let mut cases = vec![Case::Decode {
            name: "no-such-class".into(),
            input: nope,
            allow_objects: true,
        }];
        if profile.typed_arrays() {
            cases.push(Case::Encode {
                name: "no-such-class".into(),
                value: Variant::Array(Array::typed(
                    ContainerType::ClassName("NoSuchClass".into()),
                    vec![Variant::object(Object::Id(7))],
                )),
                full_objects: false,
            });
        }
        for (case, j) in cases
            .iter()
            .zip(campaign::classify_batch(&mut engine, &cases, &known))
        {
            assert_eq!(j.record.verdict, gdmarshal_lab::model::Verdict::Rejected);
            assert_agree(&spec.name, case, &j);
        }
        // The engine's classes, as its ClassDB reports them.
        let classes = engine.classes().unwrap();
        assert!(
            classes.len() > 300,
            "{}: {} classes",
            spec.name,
            classes.len()
        );
        assert!(classes.instantiable("EncodedObjectAsID") && classes.inherits("Node2D", "Node"));
        assert!(!classes.has("NoSuchClass") && !classes.has("Nope"));
    }
}

/// With the stored properties and defaults of the classes it meets (each asked of the engine
/// once) and, on 4.x, the project's scripts, the codec holds full objects as the engine does:
/// it completes an object given some properties with the class's others, drops a property the
/// class lacks, and refuses a script path the project lacks. Each case was a known difference
/// (`full-object`, `script-not-in-project`) before. A property of another type than its default
/// is set as the engine's setter converts it (4.6 turns an int into its text, 3.x keeps what the
/// property held); one whose conversion the codec does not reproduce (a Vector2 property given an
/// int in 4.6, a `script` given an int in 3.x) stays a known difference. On 4.x an object given
/// the project's script is held with the defaults of its class given that script.
#[test]
fn full_objects_and_script_paths_are_held_as_the_engine_holds_them() {
    use gdmarshal::encode::{EncodeOptions, encode};
    use gdmarshal::json::from_json;
    use gdmarshal_lab::model::answerer::EngineAnswerer;
    use serde_json::json;
    let known = known_differences();
    for (spec, engine) in start_all(ci_engine_specs(), &EngineConfig::default()) {
        let mut engine =
            engine.unwrap_or_else(|e| panic!("engine {} does not start: {e}", spec.name));
        let profile = engine.info().profile;
        let value = |t: serde_json::Value| from_json(&t, profile).unwrap();
        let full = |class: &str, props: serde_json::Value| {
            value(json!({"type": "Object", "class": class, "properties": props}))
        };
        let bytes = |v: &gdmarshal::Variant| {
            encode(v, profile, EncodeOptions::new().full_objects(true)).unwrap()
        };
        let named = full(
            "Resource",
            json!([["resource_name", {"type": "String", "value": "named"}]]),
        );
        let misnamed = full(
            "Resource",
            json!([["resoqrce_name", {"type": "String", "value": "named"}]]),
        );
        let converted = full(
            "Resource",
            json!([["resource_name", {"type": "int", "value": "5"}]]),
        );
        // What a setter makes of a value given to a property neither String nor bool is not
        // reproduced (a Vector2 `position` given an int).
        let unmodelled = full(
            "Node2D",
            json!([["position", {"type": "int", "value": "5"}]]),
        );
        let decode = |name: &str, input: Vec<u8>| Case::Decode {
            name: name.into(),
            input,
            allow_objects: true,
        };
        let mut agreed = vec![
            decode("named", bytes(&named)),
            decode("misnamed", bytes(&misnamed)),
            decode("bare", bytes(&full("Object", json!([])))),
            decode("converted", bytes(&converted)),
            // 3.x sets any `script` that is not a Script as none; 4.x refuses an int and loads
            // the script a path names.
            decode(
                "script-int",
                bytes(&full(
                    "Resource",
                    json!([["script", {"type": "int", "value": "5"}]]),
                )),
            ),
            decode(
                "script-path",
                bytes(&full(
                    "Resource",
                    json!([["script", {"type": "String", "value": "res://fixtures/item.gd"}]]),
                )),
            ),
            Case::Encode {
                name: "named".into(),
                value: named.clone(),
                full_objects: true,
            },
            Case::Encode {
                name: "node".into(),
                value: full(
                    "Node2D",
                    json!([["position", {"type": "Vector2", "value": ["1", "2"]}]]),
                ),
                full_objects: true,
            },
        ];
        if profile.typed_arrays() {
            for script in ["res://fixtures/item.gd", "res://none.gd"] {
                let typed = value(json!({"type": "Array", "element_type": {"script": script},
                    "value": [{"type": "Nil"}]}));
                agreed.push(decode(script, bytes(&typed)));
            }
        }
        let judged = campaign::classify_batch(&mut engine, &agreed, &known);
        for (case, j) in agreed.iter().zip(&judged) {
            assert_agree(&spec.name, case, j);
        }
        if profile.typed_arrays() {
            let verdicts: Vec<_> = judged[judged.len() - 2..]
                .iter()
                .map(|j| j.record.verdict.clone())
                .collect();
            use gdmarshal_lab::model::Verdict::{Accepted, Rejected};
            assert_eq!(verdicts, [Accepted, Rejected], "{}", spec.name);
        }
        let left = [decode("unmodelled", bytes(&unmodelled))];
        let j = &campaign::classify_batch(&mut engine, &left, &known)[0];
        assert_eq!(
            j.class,
            Class::KnownDifference,
            "{}: {}",
            spec.name,
            j.detail
        );
        // The defaults, as the engine holds them in a fresh Resource.
        let wanted = gdmarshal_lab::model::answerer::Wanted {
            classes: ["Resource".to_string()].into_iter().collect(),
            ..Default::default()
        };
        let classes = engine.classes_with_defaults(&wanted).unwrap();
        let stored: Vec<&str> = classes
            .defaults("Resource")
            .unwrap()
            .stored_names()
            .collect();
        assert_eq!(
            stored,
            ["resource_local_to_scene", "resource_name", "script"],
            "{}",
            spec.name
        );
        if !profile.typed_arrays() {
            continue;
        }
        // 4.x: a Resource given the project's script holds the script's path; a misnamed
        // property beside it is dropped, so the codec agrees once it has those defaults.
        let item = "res://fixtures/item.gd";
        let wanted = gdmarshal_lab::model::answerer::Wanted {
            scripted: [("Resource".to_string(), item.to_string())].into(),
            ..Default::default()
        };
        let classes = engine.classes_with_defaults(&wanted).unwrap();
        let script = classes
            .scripted_defaults("Resource", item)
            .unwrap()
            .stored()
            .iter()
            .find(|(n, _)| n == "script")
            .map(|(_, v)| v.clone());
        assert_eq!(
            script,
            Some(gdmarshal::Variant::String(item.into())),
            "{}",
            spec.name
        );
        let scripted = full(
            "Resource",
            json!([["resourze_name", {"type": "String", "value": "x"}],
                   ["script", {"type": "String", "value": item}]]),
        );
        let case = [decode("scripted", bytes(&scripted))];
        let j = &campaign::classify_batch(&mut engine, &case, &known)[0];
        assert_agree(&spec.name, &case[0], j);
    }
}
