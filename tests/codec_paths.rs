//! Paths of the codec that the engine-written vectors, the corpus and the fuzz corpus do not
//! reach: values the engines cannot produce (so the encoder refuses them), malformed tagged JSON,
//! and the annotated dump. Expected bytes come from the engine-written vectors.

use gdmarshal::error::EncodeErrorKind as E;
use gdmarshal::hex::unhex;
use gdmarshal::inspect::inspect;
use gdmarshal::json::from_json;
use gdmarshal::value::{Array, ContainerType, Dictionary, Object, Reals};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, VariantType, encode};
use serde_json::json;

fn p(v: &str) -> Profile {
    v.parse().unwrap()
}

fn enc(v: &Variant, profile: &str) -> Result<Vec<u8>, E> {
    encode(v, p(profile), EncodeOptions::default()).map_err(|e| e.kind)
}

#[test]
fn encoder_refuses_what_the_version_cannot_write() {
    // Vector2i is a 4.x type.
    let v = Variant::Vector2i(gdmarshal::value::I32s::from_slice(&[1, 2]));
    assert!(matches!(enc(&v, "3.6"), Err(E::TypeNotInVersion { .. })));
    // Typed arrays are 4.3+, typed dictionaries 4.4+.
    let typed = Variant::Array(Array::typed(
        ContainerType::Builtin(VariantType::Int),
        vec![],
    ));
    assert!(matches!(enc(&typed, "4.2"), Err(E::Unsupported { .. })));
    let dict = Variant::Dictionary(Dictionary::typed(
        ContainerType::Builtin(VariantType::Int),
        ContainerType::None,
        vec![],
    ));
    assert!(matches!(enc(&dict, "4.3"), Err(E::Unsupported { .. })));
    // A full object needs full objects on.
    let obj = Variant::object(Object::Full {
        class: "Resource".into(),
        properties: vec![],
    });
    assert!(matches!(enc(&obj, "4.6"), Err(E::Unsupported { .. })));
}

#[test]
fn encoder_refuses_malformed_values() {
    let three = Variant::Vector2(Reals::from([1.0f32, 2.0, 3.0]));
    assert!(matches!(enc(&three, "4.6"), Err(E::WrongArity { .. })));
    let wide = Variant::Vector2(Reals::from([1.0f64, 2.0]));
    assert!(matches!(enc(&wide, "4.6"), Err(E::WrongRealWidth { .. })));
    let ints = Variant::Vector3i(gdmarshal::value::I32s::from_slice(&[1, 2]));
    assert!(matches!(enc(&ints, "4.6"), Err(E::WrongArity { .. })));
    let packed = Variant::PackedVector2Array(Reals::from([1.0f32, 2.0, 3.0]));
    assert!(matches!(enc(&packed, "4.6"), Err(E::WrongArity { .. })));
    // Deeper than the engines' 1024 levels.
    let mut deep = Variant::Nil;
    for _ in 0..1100 {
        deep = Variant::Array(Array::typed(ContainerType::None, vec![deep]));
    }
    let r = stacker::grow(64 << 20, || enc(&deep, "4.6"));
    assert!(matches!(r, Err(E::TooDeep { .. })));
}

/// The depth limit holds for leaf values too, as `encode_variant` checks `p_depth` before
/// anything else (`core/io/marshalls.cpp`): inside 1024 nested Arrays (depths 0 to 1023) a leaf
/// sits at depth 1024 and is written; inside 1025 it sits at 1025 and the encode fails. The
/// encoder's shortcut for leaf values keeps this.
#[test]
fn leaves_past_the_depth_limit_are_refused() {
    let leaves = [
        Variant::Int(1),
        Variant::Int(1 << 40),
        Variant::Float(0.1),
        Variant::Bool(true),
        Variant::String("leaf".into()),
        Variant::Vector2(Reals::from([1.0f32, 2.0])),
        Variant::Vector3(Reals::from([1.0f32, 2.0, 3.0])),
    ];
    for leaf in leaves {
        for (arrays, ok) in [(1024, true), (1025, false)] {
            let mut v = leaf.clone();
            for _ in 0..arrays {
                v = Variant::Array(Array::typed(ContainerType::None, vec![v]));
            }
            let r = stacker::grow(64 << 20, || enc(&v, "4.6"));
            assert_eq!(r.is_ok(), ok, "{leaf:?} inside {arrays} Arrays: {r:?}");
            if !ok {
                assert!(matches!(r, Err(E::TooDeep { limit: 1024 })), "{r:?}");
            }
        }
    }
}

#[test]
fn empty_class_container_is_written_as_object_typed() {
    // 4.6.3 writes Array[Object] as built-in kind 1, type 24 (tests/differential/4.6/).
    let v = Variant::Array(Array::typed(
        ContainerType::ClassName(String::new()),
        vec![],
    ));
    let b = encode(&v, p("4.6"), EncodeOptions::new().full_objects(true)).unwrap();
    assert_eq!(b, unhex("1c0001001800000000000000").unwrap());
}

#[test]
fn tagged_json_errors_name_the_path() {
    let bad = [
        json!({"type": "int", "value": 1.5}),
        json!({"type": "int", "value": true}),
        json!({"type": "RID", "value": -1}),
        json!({"type": "RID", "value": []}),
        json!({"type": "Vector2", "value": ["1"]}),
        json!({"type": "Array", "element_type": {"builtin": "int", "class": "X"}, "value": []}),
        json!({"type": "Array", "element_type": {"bogus": "int"}, "value": []}),
        json!({"type": "Dictionary", "value": [[{"type": "Nil"}]]}),
        json!({"type": "Object", "value": 3}),
        json!({"type": "Object", "class": "Resource", "properties": [["a"]]}),
        json!({"type": "PackedVector2Array", "value": [["1", "x"]]}),
    ];
    for j in bad {
        let e = from_json(&j, p("4.6")).expect_err(&j.to_string());
        assert!(e.path.starts_with('$'), "{j}: {e:?}");
    }
    assert!(unhex("abc").is_err());
}

#[test]
fn tagged_json_reads_numbers_and_double_reals() {
    assert_eq!(
        from_json(&json!({"type": "int", "value": 7}), p("4.6")).unwrap(),
        Variant::Int(7)
    );
    assert_eq!(
        from_json(&json!({"type": "RID", "value": 9}), p("4.6")).unwrap(),
        Variant::Rid(9)
    );
    let d = p("4.6-double");
    let v = from_json(&json!({"type": "Vector2", "value": ["1", "2"]}), d).unwrap();
    assert_eq!(v, Variant::Vector2(Reals::from([1.0f64, 2.0])));
    assert_eq!(
        gdmarshal::json::to_json(&v, d, gdmarshal::float::FloatStyle::Shortest),
        json!({"type": "Vector2", "value": ["1", "2"]})
    );
}

#[test]
fn inspect_annotates_every_field() {
    // a String and NodePath/relative as 4.6.3 writes them (tests/vectors/godot-4.6.3.stable.txt).
    for hex in ["040000000200000061620000", NODE_PATH] {
        let bytes = unhex(hex).unwrap();
        let d = inspect(&bytes, p("4.6"), DecodeOptions::default());
        assert!(d.error.is_none(), "{hex}");
        assert_eq!(d.consumed, Some(bytes.len()));
        assert!(d.lines.iter().any(|l| l.contains("header")));
    }
}

const NODE_PATH: &str = "1600000002000080000000000000000004000000616263640400000065666768";

#[test]
fn tagged_json_names_what_it_found() {
    for (value, found) in [
        (json!(null), "null"),
        (json!(1.5), "a number"),
        (json!([]), "an array"),
        (json!({}), "an object"),
    ] {
        let e = from_json(&json!({"type": "String", "value": value}), p("4.6")).unwrap_err();
        assert!(e.message.contains(found), "{e:?}");
    }
    let e = from_json(&json!({"type": "bool", "value": "yes"}), p("4.6")).unwrap_err();
    assert_eq!(e.message, "expected true or false");
    let e = from_json(&json!({"type": "Object"}), p("4.6")).unwrap_err();
    assert!(e.message.contains("class"), "{e:?}");
}

#[test]
fn profiles_say_what_is_verified_and_limited() {
    // Engines 3.2.3, 3.6.2, 4.6.3 and a double build of 4.6.3 have been checked; 3.4 added the
    // nesting limit.
    for v in ["3.2", "3.6", "4.6", "4.6-double"] {
        assert!(p(v).is_verified(), "{v}");
    }
    assert!(!p("4.5-double").is_verified());
    assert!(!p("4.1").is_verified());
    assert!(!p("3.3").engine_limits_depth());
    assert!(p("3.4").engine_limits_depth());
    assert!(p("4.0").engine_limits_depth());
}

/// 3.2.3 writes a top-level Dictionary's PoolRealArray key holding a NaN, which it cannot look up
/// again, as the String "[Deleted Object]" with a Nil value (its answer in
/// tests/differential/codec-differs/3.2-keys-nan-reals-encode.json).
#[test]
fn unfindable_keys_of_a_top_level_dictionary_are_written_as_deleted_objects() {
    let nan = Variant::PackedFloat32Array(vec![f32::from_bits(0x7fc0_0000)]);
    let v = Variant::Dictionary(Dictionary::new(vec![(nan, Variant::Int(5))]));
    let expected = "120000000100000004000000100000005b44656c65746564204f626a6563745d00000000";
    assert_eq!(enc(&v, "3.2"), Ok(unhex(expected).unwrap()));
}

/// Keys and values of a Dictionary are one level deeper than it (`encode_variant`,
/// `core/io/marshalls.cpp`, Dictionary case: `p_depth + 1` for both), so the 1024-level limit
/// counts nested Dictionaries as it counts Arrays (`leaves_past_the_depth_limit_are_refused`).
#[test]
fn dictionaries_count_toward_the_depth_limit() {
    for (dicts, ok) in [(1024, true), (1025, false)] {
        let mut v = Variant::Int(1);
        for _ in 0..dicts {
            v = Variant::Dictionary(Dictionary::new(vec![(Variant::Int(0), v)]));
        }
        let r = stacker::grow(64 << 20, || encode(&v, p("4.6"), EncodeOptions::default()));
        assert_eq!(r.is_ok(), ok, "inside {dicts} Dictionaries: {r:?}");
        if let Err(e) = r {
            assert_eq!(e.kind, E::TooDeep { limit: 1024 });
            // The key is written before its value, so it is the first value past the limit.
            assert!(e.path.ends_with("{value 0}{key 0}"), "{}", e.path);
        }
    }
}

/// A packed vector array whose components do not fill its last vector is refused, naming the
/// components a whole number of vectors needs: 4 components of Vector3s need 6.
#[test]
fn malformed_packed_vector_arrays_name_the_components_needed() {
    let v = Variant::PackedVector3Array(Reals::from([1.0f32, 2.0, 3.0, 4.0]));
    assert_eq!(
        enc(&v, "4.6"),
        Err(E::WrongArity {
            ty: VariantType::PackedVector3Array,
            expected: 6,
            found: 4,
        })
    );
}

/// A full object's property values are one level deeper than it (`encode_variant`,
/// `core/io/marshalls.cpp`, Object case: `p_depth + 1`), so nested objects count toward the
/// 1024-level limit as Arrays do.
#[test]
fn full_objects_count_toward_the_depth_limit() {
    let full = EncodeOptions::new().full_objects(true);
    for (objects, ok) in [(1024, true), (1025, false)] {
        let mut v = Variant::Int(1);
        for _ in 0..objects {
            v = Variant::object(Object::Full {
                class: "Object".into(),
                properties: vec![("p".into(), v)],
            });
        }
        let r = stacker::grow(64 << 20, || encode(&v, p("4.6"), full).map_err(|e| e.kind));
        assert_eq!(r.is_ok(), ok, "inside {objects} objects: {r:?}");
        if !ok {
            assert!(matches!(r, Err(E::TooDeep { limit: 1024 })), "{r:?}");
        }
    }
}

/// The limit is on depth, whatever the value: values that take the general path (Nil, an empty
/// Array) are written at depth 1024 and refused at 1025, as leaves are
/// (`leaves_past_the_depth_limit_are_refused`; `encode_variant` fails only when `p_depth >
/// MAX_RECURSION_DEPTH`, 1024, `core/io/marshalls.cpp`).
#[test]
fn other_values_at_the_depth_limit_are_written() {
    for inner in [Variant::Nil, Variant::Array(Array::default())] {
        for (arrays, ok) in [(1024, true), (1025, false)] {
            let mut v = inner.clone();
            for _ in 0..arrays {
                v = Variant::Array(Array::new(vec![v]));
            }
            let r = stacker::grow(64 << 20, || enc(&v, "4.6"));
            assert_eq!(r.is_ok(), ok, "{inner:?} inside {arrays} Arrays: {r:?}");
        }
    }
}

/// A double-precision build sets the 64-bit flag on real_t values alone: 4.6.3 double writes Nil,
/// Color (f32 in every build) and Vector2i without it and Vector2 with it (corpus
/// `godot-4.6.3.stable-double.jsonl`, `encode/Nil`, `encode/Color/all_one`,
/// `encode/Vector2i/counting`, `encode/Vector2/counting`).
#[test]
fn double_builds_flag_real_t_values_alone() {
    let cases = [
        (Variant::Nil, "00000000"),
        (
            Variant::Color([1.0; 4]),
            "140000000000803f0000803f0000803f0000803f",
        ),
        (
            Variant::Vector2i(gdmarshal::value::I32s::from_slice(&[1, 2])),
            "060000000100000002000000",
        ),
        (
            Variant::Vector2(Reals::from([-2.0f64, -0.5])),
            "0500010000000000000000c0000000000000e0bf",
        ),
    ];
    for (v, bytes) in cases {
        assert_eq!(enc(&v, "4.6-double"), Ok(unhex(bytes).unwrap()), "{v:?}");
    }
}

/// With full objects, a container typed with a script writes kind 3 and the script's path, and
/// one typed with a class writes kind 2 and the class name; without them, both write kind 2 and
/// `EncodedObjectAsID` (`_encode_container_type_header` and `_encode_container_type`,
/// `core/io/marshalls.cpp`; the name is a string, u32 length then bytes padded to 4). 4.6.3's
/// bytes for the case without objects: corpus `decode/noncanonical/typed_class_name`.
#[test]
fn class_and_script_typed_containers_name_their_type_with_full_objects() {
    let full = EncodeOptions::new().full_objects(true);
    let typed = |t: ContainerType| Variant::Array(Array::typed(t, vec![]));
    let script = typed(ContainerType::Script("res://a.gd".into()));
    let class = typed(ContainerType::ClassName("Node".into()));
    let with_objects = |v: &Variant| encode(v, p("4.6"), full).unwrap();
    assert_eq!(
        with_objects(&script),
        unhex("1c0003000a0000007265733a2f2f612e6764000000000000").unwrap()
    );
    assert_eq!(
        with_objects(&class),
        unhex("1c000200040000004e6f646500000000").unwrap()
    );
    let as_id = unhex("1c00020011000000456e636f6465644f626a6563744173494400000000000000");
    assert_eq!(enc(&script, "4.6"), Ok(as_id.clone().unwrap()));
    assert_eq!(enc(&class, "4.6"), Ok(as_id.unwrap()));
}

#[test]
fn a_refusal_quotes_at_most_twice_the_quote_limit() {
    // A type name of 2,000 characters: the refusal quotes its start, cut at 320 bytes (twice
    // excerpt::MAX_QUOTE) with a marker, not the whole name and not less than that.
    let name = "x".repeat(2000);
    let err = from_json(&json!({"type": name, "value": null}), p("4.6")).unwrap_err();
    let quoted = err.message.matches('x').count();
    assert!(
        (300..=320).contains(&quoted),
        "{quoted} characters quoted: {}",
        err.message
    );
}

#[test]
fn a_refusal_of_cut_json_text_wants_more_input_and_others_do_not() {
    use gdmarshal::json::read_json;
    let four = p("4.6");
    assert!(
        read_json(br#"{"type":"Ni"#, four)
            .unwrap_err()
            .wants_more_input()
    );
    assert!(
        !read_json(br#"{"type":"Nul"}"#, four)
            .unwrap_err()
            .wants_more_input()
    );
    assert!(!read_json(b"\0", four).unwrap_err().wants_more_input());
}

#[test]
fn hex_fed_in_pieces_says_when_it_has_failed() {
    let mut h = gdmarshal::hex::Unhex::with_capacity(8);
    h.feed(b"0a 1");
    assert!(!h.failed(), "digits and spaces so far");
    h.feed(b"b");
    assert!(!h.failed());
    h.feed(b"zz");
    assert!(h.failed(), "a character that is not a hex digit");
    assert!(h.finish().is_err());
}

#[test]
fn math_shapes_are_the_component_types() {
    use gdmarshal::types::Shape;
    for (ty, math) in [
        (VariantType::Vector2, true),
        (VariantType::Vector3i, true),
        (VariantType::Color, true),
        (VariantType::Int, false),
        (VariantType::String, false),
        (VariantType::NodePath, false),
        (VariantType::PackedVector2Array, false),
    ] {
        assert_eq!(ty.shape().is_math(), math, "{ty:?}");
    }
    assert!(matches!(VariantType::Vector2.shape(), Shape::Reals(2)));
}

/// With objects, a container typed by a script whose path is not under `res://` is refused where
/// the path's length word starts (4.6.3 refuses `user://` paths: tests/engine_rules.rs); the
/// refusal is its own kind, named for the bindings.
#[test]
fn a_script_path_outside_res_is_a_kind_of_its_own() {
    use gdmarshal::decode;
    use gdmarshal::error::DecodeErrorKind;
    let input = unhex("1c00030008000000757365723a2f2f7800000000").unwrap();
    let objects = DecodeOptions::new().allow_objects(true);
    let e = decode(&input, p("4.6"), objects).unwrap_err();
    assert_eq!(e.offset, 4);
    assert_eq!(
        e.kind,
        DecodeErrorKind::ScriptPathNotResource {
            path: "user://x".into()
        }
    );
    assert_eq!(e.kind.name(), "script-path-not-resource");
    assert_eq!(
        e.to_string(),
        "at byte 4: invalid script path: \"user://x\" is not a res:// path"
    );
    // Without objects the path is not loaded: the container is typed as an object id's.
    assert!(decode(&input, p("4.6"), DecodeOptions::new()).is_ok());
}
