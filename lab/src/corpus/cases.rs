//! The corpus cases: what to ask every engine, named hierarchically and stably.
//!
//! Two directions. `encode/...` cases are values the engine builds and encodes. `decode/...` cases
//! are byte strings the engine decodes: valid encodings of every edge value, and invalid or odd
//! inputs (truncations, unknown ids and flags, hostile lengths, bad UTF-8, nesting around the depth
//! limit, trailing bytes, non-canonical forms). The same generator serves both families; values
//! come from [`gdmarshal::types::TYPES`], so a new type gets cases without new code here.

use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::header::{FLAG_64, FLAG_OBJECT_AS_ID, TYPE_MASK};
use gdmarshal::profile::Profile;
use gdmarshal::types::{Element, Shape, TYPES, TypeInfo, VariantType};
use gdmarshal::value::{
    Array, ContainerType, Dictionary, NodePath, Object, Reals, Signal, Text, Variant,
};

use crate::model::case::Case;

mod conversions;
mod measured;
mod rules;
mod scripted;
mod stringify;
mod windows;

use conversions::{conversion_edges, typed_conversions};
use measured::measured_conversions;
use rules::engine_rules;
use scripted::scripted_objects;
use stringify::stringify;
use windows::string_windows;

const INTS: &[i64] = &[
    0,
    1,
    -1,
    255,
    -255,
    2147483647,
    -2147483648,
    2147483648,
    -2147483649,
    // The unsigned 32-bit range's edges, which take 64 bits as any int past i32 does.
    4294967295,
    4294967296,
    i64::MAX,
    i64::MIN,
];

/// 3.x strings whose code units are not all Unicode scalar values: what each engine writes for
/// them (3.2 each unit as it is, 3.6 joining surrogate pairs and making lone ones spaces; 4.x
/// Strings cannot hold them).
const UNIT_STRINGS: &[(&str, &[u32])] = &[
    ("units_lone_high", &[0xD800]),
    ("units_lone_low", &[0xDC00]),
    ("units_pair", &[0xD83D, 0xDCA9]),
    ("units_reversed_pair", &[0xDCA9, 0xD83D]),
    ("units_high_then_pair", &[0xD800, 0xD800, 0xDC00]),
    ("units_beyond_10ffff", &[0x11_0000]),
    ("units_five_byte", &[0x20_0000]),
    ("units_max", &[0x7FFF_FFFF]),
    ("units_mixed", &[0x61, 0xD800, 0x62]),
];

fn units(u: &[u32]) -> Text {
    Text::from_units(u.iter().copied())
}

/// Float bit patterns worth asking about, with names.
const FLOATS: &[(&str, u64)] = &[
    ("zero", 0),
    ("neg_zero", 0x8000_0000_0000_0000),
    ("one", 0x3ff0_0000_0000_0000),
    ("tenth", 0x3fb9_9999_9999_999a),
    ("f32_max", 0x47ef_ffff_e000_0000),
    ("beyond_f32", 0x47f0_0000_0000_0000),
    ("f32_min_subnormal", 0x36a0_0000_0000_0000),
    ("f64_min_subnormal", 1),
    ("f64_max", 0x7fef_ffff_ffff_ffff),
    ("inf", 0x7ff0_0000_0000_0000),
    ("neg_inf", 0xfff0_0000_0000_0000),
    ("nan", 0x7ff8_0000_0000_0000),
    ("nan_payload", 0x7ff8_0000_0000_0001),
    ("neg_nan", 0xfff8_0000_0000_0000),
    ("snan", 0x7ff0_0000_0000_0001),
];

/// f32 bit patterns for real_t and Color components.
const REALS32: &[(&str, u32)] = &[
    ("zero", 0),
    ("neg_zero", 0x8000_0000),
    ("one", 0x3f80_0000),
    ("tenth", 0x3dcc_cccd),
    ("max", 0x7f7f_ffff),
    ("min_subnormal", 1),
    ("inf", 0x7f80_0000),
    ("neg_inf", 0xff80_0000),
    ("nan", 0x7fc0_0000),
    ("nan_payload", 0x7fc0_0001),
    ("snan", 0x7f80_0001),
];

const STRINGS: &[(&str, &str)] = &[
    ("empty", ""),
    ("len1", "a"),
    ("len2", "ab"),
    ("len3", "abc"),
    ("len4", "abcd"),
    ("len5", "abcde"),
    ("len7", "abcdefg"),
    ("len8", "abcdefgh"),
    ("two_byte", "é"),
    ("three_byte", "€"),
    ("four_byte", "𝄞"),
    ("mixed", "héllo wörld €𝄞"),
    ("cjk", "日本語テキスト"),
    ("bom_inside", "a\u{feff}b"),
    ("max_scalar", "\u{10ffff}"),
    ("spaces", "  two  "),
    ("newlines", "a\nb\r\nc"),
];

/// Plain strings about the length of the decoder's fixed window (23 bytes and its last byte): each
/// side of each edge, alone and in a PackedStringArray.
const WINDOW_STRINGS: &[(&str, usize)] = &[
    ("len15", 15),
    ("len16", 16),
    ("len17", 17),
    ("len22", 22),
    ("len23", 23),
    ("len24", 24),
    ("len25", 25),
];

/// The first `n` letters and digits, for [`WINDOW_STRINGS`].
fn window_string(n: usize) -> &'static str {
    &"abcdefghijklmnopqrstuvwxyz0123456789"[..n]
}

/// Every case for a profile (the same list for every engine of its family).
pub fn all_cases(profile: Profile) -> Vec<Case> {
    let mut out = Vec::new();
    let values = edge_values(profile);
    for (name, v, full) in &values {
        out.push(Case::Encode {
            name: format!("encode/{name}"),
            value: v.clone(),
            full_objects: *full,
        });
    }
    for (name, v, full) in &values {
        if let Ok(bytes) = encode(v, profile, EncodeOptions::new().full_objects(*full)) {
            out.push(Case::Decode {
                name: format!("decode/valid/{name}"),
                input: bytes,
                allow_objects: *full,
            });
        }
    }
    let mut ctx = Ctx {
        profile,
        values: &values,
        out: &mut out,
    };
    for family in INVALID_FAMILIES.iter().chain(KEY_FAMILIES) {
        (family.cases)(&mut ctx);
    }
    encode_limit_cases(profile, &mut out);
    engine_rules(&mut Ctx {
        profile,
        values: &values,
        out: &mut out,
    });
    out
}

/// Values at the nesting limit and past it (the engines that limit nesting count from 0 at the
/// top and refuse a value deeper than 1024), nested through each kind of container; arrays typed
/// as object classes; and a full object written with exactly the properties the engine stores,
/// so it reads back as written.
fn encode_limit_cases(profile: Profile, out: &mut Vec<Case>) {
    let as_value: fn(Variant) -> Variant =
        |v| Variant::Dictionary(Dictionary::new(vec![(Variant::Int(0), v)]));
    let as_key: fn(Variant) -> Variant =
        |v| Variant::Dictionary(Dictionary::new(vec![(v, Variant::Int(0))]));
    let empty = || Variant::Array(Array::new(vec![]));
    let cases = [
        ("empty_array_at_1024", around(1024, empty(), in_array)),
        ("int_at_1025", nest(1025)),
        (
            "dictionary_values_empty_array_at_1024",
            around(1024, empty(), as_value),
        ),
        (
            "dictionary_values_int_at_1025",
            around(1025, Variant::Int(7), as_value),
        ),
        (
            "dictionary_keys_int_at_1025",
            around(1025, Variant::Int(7), as_key),
        ),
    ];
    for (name, value) in cases {
        out.push(Case::Encode {
            name: format!("encode/depth/{name}"),
            value,
            full_objects: false,
        });
    }
    // Through a full object's properties: 3.x stores an object's metadata as its `__meta__`
    // property (a Dictionary), so a Reference with metadata {"x": arrays} holds the int at
    // 2 + the number of arrays. (4.x's oracle cannot read requests this deep.)
    if profile.major() == 3 {
        for (name, arrays) in [
            ("object_meta_int_at_1024", 1022),
            ("object_meta_int_at_1025", 1023),
        ] {
            let meta = Dictionary::new(vec![(Variant::String(Text::from("x")), nest(arrays))]);
            out.push(Case::Encode {
                name: format!("encode/depth/{name}"),
                value: Variant::object(Object::Full {
                    class: s("Reference"),
                    properties: vec![
                        (s("script"), Variant::Nil),
                        (s("__meta__"), Variant::Dictionary(meta)),
                    ],
                }),
                full_objects: true,
            });
        }
    }
    // Empty arrays typed as a class and as a script, without full objects (the engine names the
    // class its objects decode to, EncodedObjectAsID) and with them (4.x only); typed as the class
    // Object (GDScript's `Array[Object]`) and as the built-in Object with no class name, which the
    // reference page tells apart (the latter is what `Array([], TYPE_OBJECT, &"", null)` makes).
    if profile.typed_arrays() {
        for (name, t) in [
            ("class", ContainerType::ClassName(s("Resource"))),
            ("script", ContainerType::Script(s("res://fixtures/item.gd"))),
            ("object_class", ContainerType::ClassName(s("Object"))),
            (
                "builtin_object",
                ContainerType::Builtin(VariantType::Object),
            ),
        ] {
            for (suffix, full_objects) in [("", false), ("_full", true)] {
                out.push(Case::Encode {
                    name: format!("encode/typed/{name}_array{suffix}"),
                    value: Variant::Array(Array::typed(t.clone(), vec![])),
                    full_objects,
                });
            }
        }
    }
    out.push(Case::Encode {
        name: s("encode/objects/resource_stored_properties"),
        value: Variant::object(Object::Full {
            class: s("Resource"),
            properties: vec![
                (s("resource_local_to_scene"), Variant::Bool(false)),
                (s("resource_name"), Variant::String(Text::from("named"))),
                (s("script"), Variant::Nil),
            ],
        }),
        full_objects: true,
    });
}

/// What a family of decode cases works from: the profile, the edge values (for the families
/// derived from valid encodings), and the list the cases go to.
struct Ctx<'a> {
    profile: Profile,
    values: &'a [(String, Variant, bool)],
    out: &'a mut Vec<Case>,
}

impl Ctx<'_> {
    /// The profile's id of a type it has.
    fn id(&self, ty: VariantType) -> u32 {
        self.profile.id_of(ty).expect("type in profile")
    }

    /// The encoding of `v` without full objects, if the profile can write it.
    fn canonical(&self, v: &Variant) -> Option<Vec<u8>> {
        encode(v, self.profile, EncodeOptions::default()).ok()
    }

    /// A decode case named `name` in full.
    fn decode(&mut self, name: String, input: Vec<u8>, allow_objects: bool) {
        self.out.push(Case::Decode {
            name,
            input,
            allow_objects,
        });
    }

    /// `decode/{name}`, objects not allowed.
    fn add(&mut self, name: String, input: Vec<u8>) {
        self.decode(format!("decode/{name}"), input, false);
    }

    /// `decode/noncanonical/{name}` for each input.
    fn noncanonical(&mut self, inputs: Vec<(&str, Vec<u8>)>) {
        for (k, b) in inputs {
            self.add(format!("noncanonical/{k}"), b);
        }
    }

    /// `decode/keys/{name}` for each value the profile's encoder writes, with full objects or not.
    fn keys(&mut self, full_objects: bool, cases: Vec<(&str, Variant)>) {
        for (name, v) in cases {
            if let Ok(input) = encode(
                &v,
                self.profile,
                EncodeOptions::new().full_objects(full_objects),
            ) {
                self.decode(format!("decode/keys/{name}"), input, full_objects);
            }
        }
    }
}

/// A named family of cases: what it probes is on its function.
struct Family {
    /// A short label (not part of any case name).
    #[cfg_attr(not(test), allow(dead_code))]
    name: &'static str,
    /// Adds the family's cases, in order.
    cases: fn(&mut Ctx),
}

/// Dictionaries whose two keys are alike in some way and different in another, to pin down when
/// an engine takes two keys for one (the last value wins) and when it keeps both: floats, empty
/// and equal-by-value containers, NaN elements (3.2 compares float arrays by value, so a NaN never
/// finds itself), and full objects (each decoded object is a new instance). In this order.
const KEY_FAMILIES: &[Family] = &[
    Family {
        name: "reals_and_containers",
        cases: real_and_container_keys,
    },
    Family {
        name: "bit_differences",
        cases: bit_difference_keys,
    },
    Family {
        name: "nan_inside",
        cases: nan_inside_keys,
    },
    Family {
        name: "plain_equality",
        cases: plain_equality_keys,
    },
    Family {
        name: "objects_by_id",
        cases: object_id_keys,
    },
    Family {
        name: "alike_components",
        cases: alike_component_keys,
    },
    Family {
        name: "after_nine",
        cases: after_nine_keys,
    },
    Family {
        name: "full_object_keys",
        cases: full_object_keys,
    },
    Family {
        name: "encoded_nan_keys",
        cases: encoded_nan_keys,
    },
    Family {
        name: "keys_as_bytes",
        cases: keys_as_bytes,
    },
];

/// A Dictionary of `a: 1, b: 2`.
fn pair(a: Variant, b: Variant) -> Variant {
    dict(vec![(a, Variant::Int(1)), (b, Variant::Int(2))])
}

/// The same key twice.
fn twice(k: Variant) -> Variant {
    pair(k.clone(), k)
}

/// Nine entries of Int keys 100..108 first, then `a` and `b`.
fn after_nine(a: Variant, b: Variant) -> Variant {
    let mut entries: Vec<(Variant, Variant)> = (100..109)
        .map(|i| (Variant::Int(i), Variant::Int(i)))
        .collect();
    entries.extend([(a, Variant::Int(1)), (b, Variant::Int(2))]);
    dict(entries)
}

fn arr(items: Vec<Variant>) -> Variant {
    Variant::Array(Array::new(items))
}

fn dict(entries: Vec<(Variant, Variant)>) -> Variant {
    Variant::Dictionary(Dictionary::new(entries))
}

fn f32s(v: Vec<f32>) -> Variant {
    Variant::PackedFloat32Array(v)
}

/// A Vector2 with both components of the f32 `bits`.
fn vec2(profile: Profile, bits: u32) -> Variant {
    Variant::Vector2(reals(profile, 2, bits))
}

/// Floats, empty and equal-by-value containers, and NaN elements of float arrays.
fn real_and_container_keys(ctx: &mut Ctx) {
    let profile = ctx.profile;
    let vec2 = |bits| vec2(profile, bits);
    ctx.keys(
        false,
        vec![
            (
                "float_keys_differ",
                pair(Variant::Float(1.5), Variant::Float(2.5)),
            ),
            (
                "nan_and_number_float_keys",
                pair(Variant::Float(f64::NAN), Variant::Float(1.5)),
            ),
            (
                "nan_and_number_vector2_keys",
                pair(vec2(0x7fc0_0000), vec2(0x3f80_0000)),
            ),
            (
                "float_keys_zero_signs",
                pair(Variant::Float(0.0), Variant::Float(-0.0)),
            ),
            ("empty_dictionary_keys", twice(dict(vec![]))),
            ("empty_array_keys", twice(arr(vec![]))),
            (
                "array_keys_differ",
                pair(arr(vec![Variant::Int(1)]), arr(vec![Variant::Int(2)])),
            ),
            (
                "array_keys_zero_signs",
                pair(
                    arr(vec![Variant::Float(0.0)]),
                    arr(vec![Variant::Float(-0.0)]),
                ),
            ),
            (
                "dictionary_keys_differ",
                pair(
                    dict(vec![(Variant::Int(1), Variant::Int(1))]),
                    dict(vec![(Variant::Int(1), Variant::Int(2))]),
                ),
            ),
            ("vector2_keys_zero_signs", pair(vec2(0), vec2(0x8000_0000))),
            (
                "float32_array_keys_differ",
                pair(f32s(vec![1.0]), f32s(vec![2.0])),
            ),
            ("nan_float32_array_keys", twice(f32s(vec![f32::NAN]))),
            (
                "array_of_nan_float32_array_keys",
                twice(arr(vec![f32s(vec![f32::NAN])])),
            ),
        ],
    );
}

/// Keys alike by value, different in their bits: NaNs of two payloads, 0.0 and -0.0, inside
/// packed arrays and alone.
fn bit_difference_keys(ctx: &mut Ctx) {
    let profile = ctx.profile;
    let vec2 = |bits| vec2(profile, bits);
    ctx.keys(
        false,
        vec![
            (
                "nan_payload_float32_array_keys",
                pair(
                    f32s(vec![f32::from_bits(0x7fc0_8000)]),
                    f32s(vec![f32::from_bits(0x7fc0_0000)]),
                ),
            ),
            (
                "float32_array_keys_zero_signs",
                pair(f32s(vec![0.0]), f32s(vec![-0.0])),
            ),
            (
                "nan_payload_float_keys",
                pair(
                    Variant::Float(f64s(0x7ff8_0000_0000_0001)),
                    Variant::Float(f64s(0x7ff8_0000_0000_0000)),
                ),
            ),
            (
                "vector2_keys_nan_payloads",
                pair(vec2(0x7fc0_8000), vec2(0x7fc0_0000)),
            ),
            (
                "vector2_array_keys_zero_signs",
                pair(
                    Variant::PackedVector2Array(reals(profile, 2, 0)),
                    Variant::PackedVector2Array(reals(profile, 2, 0x8000_0000)),
                ),
            ),
            (
                "color_keys_zero_signs",
                pair(Variant::Color([0.0; 4]), Variant::Color([-0.0; 4])),
            ),
            (
                "color_array_keys_zero_signs",
                pair(
                    Variant::PackedColorArray(vec![[0.0; 4]]),
                    Variant::PackedColorArray(vec![[-0.0; 4]]),
                ),
            ),
            (
                "float64_array_keys_zero_signs",
                pair(
                    Variant::PackedFloat64Array(vec![0.0]),
                    Variant::PackedFloat64Array(vec![-0.0]),
                ),
            ),
            (
                "nan_payload_float64_array_keys",
                pair(
                    Variant::PackedFloat64Array(vec![f64s(0x7ff8_0000_0000_0001)]),
                    Variant::PackedFloat64Array(vec![f64s(0x7ff8_0000_0000_0000)]),
                ),
            ),
        ],
    );
}

/// A NaN float inside a key: 4.1 on compares it by value (it equals nothing), while vectors and
/// packed arrays inside, and a nested Dictionary's keys, keep the NaN rule.
fn nan_inside_keys(ctx: &mut Ctx) {
    let nan = || Variant::Float(f64::NAN);
    let vec2 = vec2(ctx.profile, 0x7fc0_0000);
    ctx.keys(
        false,
        vec![
            ("array_of_nan_float_keys", twice(arr(vec![nan()]))),
            (
                "nested_array_of_nan_float_keys",
                twice(arr(vec![arr(vec![nan()])])),
            ),
            (
                "dictionary_of_nan_float_value_keys",
                twice(dict(vec![(Variant::Int(1), nan())])),
            ),
            (
                "dictionary_of_nan_float_key_keys",
                twice(dict(vec![(nan(), Variant::Int(1))])),
            ),
            ("array_of_nan_vector2_keys", twice(arr(vec![vec2]))),
        ],
    );
}

/// Keys of the types compared by plain equality: equal keys (one entry each), then the same types
/// with two different keys (two entries each).
fn plain_equality_keys(ctx: &mut Ctx) {
    let vector2i = |y| Variant::Vector2i(gdmarshal::value::I32s::from_slice(&[1, y]));
    ctx.keys(
        false,
        vec![
            ("bool_keys", twice(Variant::Bool(true))),
            (
                "node_path_keys",
                twice(Variant::node_path(NodePath {
                    names: vec![Text::from("abcd")],
                    subnames: vec![],
                    absolute: false,
                })),
            ),
            (
                "byte_array_keys",
                twice(Variant::PackedByteArray(vec![1, 2])),
            ),
            (
                "int32_array_keys",
                twice(Variant::PackedInt32Array(vec![1])),
            ),
            (
                "int64_array_keys",
                twice(Variant::PackedInt64Array(vec![1])),
            ),
            (
                "string_array_keys",
                twice(Variant::PackedStringArray(vec![Text::from("abc")])),
            ),
            ("vector2i_keys", twice(vector2i(2))),
            (
                "bool_keys_differ",
                pair(Variant::Bool(true), Variant::Bool(false)),
            ),
            ("vector2i_keys_differ", pair(vector2i(2), vector2i(3))),
            ("rid_keys", twice(Variant::Rid(5))),
            ("rid_keys_differ", pair(Variant::Rid(5), Variant::Rid(6))),
            ("nil_keys", twice(Variant::Nil)),
            ("callable_keys", twice(Variant::Callable)),
            ("signal_keys", twice(signal("changed", 7))),
            (
                "signal_keys_differ",
                pair(signal("changed", 7), signal("changed", 8)),
            ),
        ],
    );
}

/// Each object decoded from an instance id is a new EncodedObjectAsID: two keys, also where the
/// objects are inside keys compared by content (4.x dictionaries).
fn object_id_keys(ctx: &mut Ctx) {
    let object = || Variant::object(Object::Id(12345));
    ctx.keys(
        false,
        vec![
            ("object_id_keys", twice(object())),
            (
                "dictionary_of_object_id_keys",
                twice(dict(vec![(Variant::Int(1), object())])),
            ),
        ],
    );
}

/// Values of two types with the same components, in Arrays (two keys); two different colors; a
/// String and a StringName of the same text (4.x: one key).
fn alike_component_keys(ctx: &mut Ctx) {
    let profile = ctx.profile;
    let ones = |ty: VariantType| {
        arr(vec![
            Variant::from_reals(ty, reals(profile, 4, 0x3f80_0000)).expect("4 reals"),
        ])
    };
    ctx.keys(
        false,
        vec![
            (
                "array_keys_of_alike_reals",
                pair(ones(VariantType::Rect2), ones(VariantType::Plane)),
            ),
            (
                "color_array_keys_differ",
                pair(
                    Variant::PackedColorArray(vec![[1.0, 0.0, 0.0, 1.0]]),
                    Variant::PackedColorArray(vec![[0.0, 1.0, 0.0, 1.0]]),
                ),
            ),
            (
                "string_and_string_name_keys",
                pair(
                    Variant::String(Text::from("ab")),
                    Variant::StringName(Text::from("ab")),
                ),
            ),
        ],
    );
}

/// Past the first entries a decoder may look keys up another way (by hash, as the engines do):
/// the same questions after nine other keys.
fn after_nine_keys(ctx: &mut Ctx) {
    let profile = ctx.profile;
    let vec2 = |bits| vec2(profile, bits);
    let key = || Variant::String(Text::from("key"));
    ctx.keys(
        false,
        vec![
            (
                "after_nine/float_keys_zero_signs",
                after_nine(Variant::Float(0.0), Variant::Float(-0.0)),
            ),
            (
                "after_nine/vector2_keys_zero_signs",
                after_nine(vec2(0), vec2(0x8000_0000)),
            ),
            (
                "after_nine/color_keys_zero_signs",
                after_nine(Variant::Color([0.0; 4]), Variant::Color([-0.0; 4])),
            ),
            (
                "after_nine/float32_array_keys_differ",
                after_nine(f32s(vec![1.0]), f32s(vec![2.0])),
            ),
            (
                "after_nine/dictionary_keys_differ",
                after_nine(
                    dict(vec![(Variant::Int(1), Variant::Int(1))]),
                    dict(vec![(Variant::Int(1), Variant::Int(2))]),
                ),
            ),
            (
                "after_nine/int_keys",
                after_nine(Variant::Int(3), Variant::Int(3)),
            ),
            ("after_nine/string_keys", after_nine(key(), key())),
        ],
    );
}

/// Full objects as keys: each decoded object is a new instance, so two keys. A plain Object's
/// properties round-trip exactly (it stores only `script`); 4.x only, as 3.x reads the Nil
/// `script` back as a null Object.
fn full_object_keys(ctx: &mut Ctx) {
    ctx.keys(true, vec![("full_object_keys", twice(resource()))]);
    if ctx.profile.major() == 4 {
        let plain = Variant::object(Object::Full {
            class: s("Object"),
            properties: vec![(s("script"), Variant::Nil)],
        });
        ctx.keys(true, vec![("plain_object_keys", twice(plain))]);
    }
}

/// Keys that 3.2 cannot look up again (a NaN in a float array compares unequal to itself):
/// written by the engine as a "[Deleted Object]" String with a Nil value, by later versions as
/// they are.
fn encoded_nan_keys(ctx: &mut Ctx) {
    let nan_key = f32s(vec![f32::NAN]);
    for (name, key) in [
        ("nan_float32_array_key", nan_key.clone()),
        ("array_of_nan_float32_array_key", arr(vec![nan_key])),
    ] {
        ctx.out.push(Case::Encode {
            name: format!("encode/keys/{name}"),
            value: dict(vec![(key, Variant::Int(1))]),
            full_objects: false,
        });
    }
}

/// Keys as bytes the encoder would not write: two NaN float arrays (which 3.2 keeps as two
/// entries), two null objects (instance id 0, which the encoder writes as Nil instead; one
/// key), and one string spelled two ways.
fn keys_as_bytes(ctx: &mut Ctx) {
    let (d, f, i) = (
        ctx.id(VariantType::Dictionary),
        ctx.id(VariantType::PackedFloat32Array),
        ctx.id(VariantType::Int),
    );
    let nan = f32::NAN.to_bits();
    ctx.add(
        s("keys/nan_float32_array_keys_as_bytes"),
        le(&[d, 2, f, 1, nan, i, 1, f, 1, nan, i, 2]),
    );
    let null = ctx.id(VariantType::Object) | FLAG_OBJECT_AS_ID;
    ctx.add(
        s("keys/null_object_keys_as_bytes"),
        le(&[d, 2, null, 0, 0, i, 1, null, 0, 0, i, 2]),
    );
    // `/` and its overlong three-byte spelling, which 3.x reads as the same character.
    let string = ctx.id(VariantType::String);
    let mut b = le(&[d, 2, string, 1]);
    b.extend(b"/\0\0\0");
    b.extend(le(&[i, 1, string, 3]));
    b.extend(b"\xe0\x80\xaf\0");
    b.extend(le(&[i, 2]));
    ctx.add(s("keys/overlong_spelling_same_key"), b);
}

fn signal(name: &str, object_id: u64) -> Variant {
    Variant::Signal(Box::new(Signal {
        name: s(name),
        object_id,
    }))
}

fn f64s(bits: u64) -> f64 {
    f64::from_bits(bits)
}

fn reals(profile: Profile, n: usize, bits: u32) -> Reals {
    let v = f32::from_bits(bits);
    if profile.double_reals() {
        Reals::from(vec![v as f64; n])
    } else {
        Reals::from(vec![v; n])
    }
}

/// Components counting up from -2 in steps of 1.5; `descending` counts down to -2.
fn counting_reals(profile: Profile, n: usize, descending: bool) -> Reals {
    let step = |i: usize| i as f32 * 1.5 - 2.0;
    if descending {
        reals_of(profile, (0..n).rev().map(step).collect())
    } else {
        reals_of(profile, (0..n).map(step).collect())
    }
}

/// Components as the profile's reals are wide.
fn reals_of(profile: Profile, v: Vec<f32>) -> Reals {
    if profile.double_reals() {
        v.into_iter().map(f64::from).collect()
    } else {
        Reals::from(v)
    }
}

fn s(x: &str) -> String {
    x.to_string()
}

/// Edge values as they are gathered: the profile and the named values so far.
struct Values {
    profile: Profile,
    out: Vec<(String, Variant, bool)>,
}

impl Values {
    /// A value written without full objects.
    fn add(&mut self, name: String, v: Variant) {
        self.out.push((name, v, false));
    }
}

/// Named edge values of every type the profile has; the bool says "write objects in full". Each
/// shape of type has its family of values, in the order of [`TYPES`].
pub(crate) fn edge_values(profile: Profile) -> Vec<(String, Variant, bool)> {
    let mut values = Values {
        profile,
        out: Vec::new(),
    };
    let v = &mut values;
    for t in TYPES.iter().filter(|t| profile.id_of(t.ty).is_some()) {
        match t.shape {
            Shape::Empty => v.add(s("Nil"), Variant::Nil),
            Shape::Callable => v.add(s("Callable/empty"), Variant::Callable),
            Shape::Bool => {
                v.add(s("bool/true"), Variant::Bool(true));
                v.add(s("bool/false"), Variant::Bool(false));
            }
            Shape::Int => INTS
                .iter()
                .for_each(|i| v.add(format!("int/{i}"), Variant::Int(*i))),
            Shape::Float => FLOATS
                .iter()
                .for_each(|(k, b)| v.add(format!("float/{k}"), Variant::Float(f64s(*b)))),
            Shape::String => string_values(v, t),
            Shape::Reals(_) => real_values(v, t),
            Shape::Ints(_) => int_vector_values(v, t),
            Shape::Color => color_values(v),
            Shape::NodePath => node_path_values(v),
            Shape::Rid => rid_values(v),
            Shape::Object => {
                v.add(s("Object/id"), Variant::object(Object::Id(12345)));
                v.add(s("Object/null"), Variant::object(Object::Null));
            }
            Shape::Signal => v.add(s("Signal/empty"), Variant::Signal(Default::default())),
            Shape::Array => array_values(v),
            Shape::Dictionary => dictionary_values(v),
            Shape::PackedStrings => packed_string_values(v, t),
            Shape::Packed(e) => {
                for len in [0usize, 1, 2, 3, 4, 5, 8] {
                    let p = packed(profile, t.ty, e, len, t.fields.len());
                    v.add(format!("{}/len{len}", t.name), p);
                }
            }
        }
    }
    values
        .out
        .push((s("Object/Resource_full"), resource(), true));
    values.out
}

/// Strings (and StringNames) of every padding and UTF-8 length; plain Strings also about the
/// decoder's window length, and 3.x code units that are not scalar values.
fn string_values(v: &mut Values, t: &TypeInfo) {
    let ty = t.name;
    for (k, x) in STRINGS {
        let value = if t.ty == VariantType::StringName {
            Variant::StringName(s(x).into())
        } else {
            Variant::String(s(x).into())
        };
        v.add(format!("{ty}/{k}"), value);
    }
    if t.ty == VariantType::String {
        for (k, n) in WINDOW_STRINGS {
            v.add(
                format!("{ty}/{k}"),
                Variant::String(window_string(*n).into()),
            );
        }
        for (k, u) in UNIT_STRINGS {
            v.add(format!("{ty}/{k}"), Variant::String(units(u)));
        }
    }
}

/// Types of reals: counting components up and down, the first component alone (each a value a
/// decoder or encoder that swaps components gets wrong), then every component the same edge f32.
fn real_values(v: &mut Values, t: &TypeInfo) {
    let (ty, n) = (t.name, t.fields.len());
    v.add(
        format!("{ty}/counting"),
        Variant::from_reals(t.ty, counting_reals(v.profile, n, false)).expect("reals"),
    );
    v.add(
        format!("{ty}/descending"),
        Variant::from_reals(t.ty, counting_reals(v.profile, n, true)).expect("reals"),
    );
    let first = (0..n).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect();
    v.add(
        format!("{ty}/first_only"),
        Variant::from_reals(t.ty, reals_of(v.profile, first)).expect("reals"),
    );
    for (k, b) in REALS32 {
        v.add(
            format!("{ty}/all_{k}"),
            Variant::from_reals(t.ty, reals(v.profile, n, *b)).expect("reals"),
        );
    }
}

/// Integer vectors: every component the same edge i32, then counting components.
fn int_vector_values(v: &mut Values, t: &TypeInfo) {
    let (ty, n) = (t.name, t.fields.len());
    for (k, i) in [
        ("zero", 0),
        ("max", i32::MAX),
        ("min", i32::MIN),
        ("minus_one", -1),
    ] {
        v.add(
            format!("{ty}/all_{k}"),
            Variant::from_ints(t.ty, gdmarshal::value::I32s::from_vec(vec![i; n])).expect("ints"),
        );
    }
    v.add(
        format!("{ty}/counting"),
        Variant::from_ints(t.ty, (1..=n as i32).collect()).expect("ints"),
    );
}

/// A plain Color, then every component the same edge f32.
fn color_values(v: &mut Values) {
    v.add(s("Color/rgba"), Variant::Color([0.1, 0.2, 0.3, 0.4]));
    for (k, b) in REALS32 {
        v.add(
            format!("Color/all_{k}"),
            Variant::Color([f32::from_bits(*b); 4]),
        );
    }
}

/// NodePaths empty, relative, absolute, with subnames, with names of every padding, and with 3.x
/// code units that are not scalar values.
fn node_path_values(v: &mut Values) {
    let np = |names: &[&str], subnames: &[&str], absolute| {
        Variant::node_path(NodePath {
            names: names.iter().map(|x| Text::from(*x)).collect(),
            subnames: subnames.iter().map(|x| Text::from(*x)).collect(),
            absolute,
        })
    };
    v.add(s("NodePath/empty"), np(&[], &[], false));
    v.add(s("NodePath/relative"), np(&["abcd", "efgh"], &[], false));
    v.add(s("NodePath/absolute"), np(&["root", "abcd"], &[], true));
    v.add(
        s("NodePath/subnames"),
        np(&["abcd"], &["efgh", "ijkl"], false),
    );
    v.add(
        s("NodePath/padded_names"),
        np(&["a", "bc", "def"], &["é"], true),
    );
    v.add(
        s("NodePath/only_subnames"),
        np(&[], &["position", "x"], false),
    );
    v.add(
        s("NodePath/units_names"),
        Variant::node_path(NodePath {
            names: vec![units(&[0x61, 0xD800])],
            subnames: vec![units(&[0x11_0000])],
            absolute: false,
        }),
    );
}

/// RIDs: zero, and (4.x, which writes all 64 bits) one and the largest.
fn rid_values(v: &mut Values) {
    v.add(s("RID/zero"), Variant::Rid(0));
    if v.profile.major() == 4 {
        v.add(s("RID/one"), Variant::Rid(1));
        v.add(s("RID/max"), Variant::Rid(u64::MAX));
    }
}

/// Arrays empty, mixed, nested (shallow and around the depth limit), the decoder's string runs,
/// and typed (where the profile has typed arrays).
fn array_values(v: &mut Values) {
    v.add(s("Array/empty"), arr(vec![]));
    v.add(
        s("Array/mixed"),
        arr(vec![
            Variant::Int(1),
            Variant::String("a".into()),
            Variant::Float(2.5),
            Variant::Nil,
        ]),
    );
    v.add(
        s("Array/nested"),
        arr(vec![arr(vec![arr(vec![Variant::Bool(true)])])]),
    );
    v.add(s("Array/string_runs"), string_runs());
    for depth in [100, 1023, 1024] {
        v.add(format!("Array/depth_{depth}"), nest(depth));
    }
    if v.profile.typed_arrays() {
        for (k, ty, items) in typed_samples() {
            let a = Array::typed(ContainerType::Builtin(ty), items);
            v.add(format!("Array/typed_{k}"), Variant::Array(a));
        }
    }
}

/// Short plain strings one after another, the decoder's runs: started at the first element and
/// later ones, stopped by another type, a string that is not ASCII or longer than the window, the
/// end of an inner Array or PackedStringArray with strings after it; values after all of them, so
/// that every window fits.
fn string_runs() -> Variant {
    let text = |t: &str| Variant::String(t.into());
    arr(vec![
        text("abc"),
        text("de"),
        text(""),
        text(window_string(23)),
        Variant::Int(7),
        text("fghij"),
        text("\u{e9}t\u{e9}"),
        text("k"),
        text(window_string(24)),
        text("lm"),
        arr(vec![Variant::Int(7), text("abc")]),
        text("de"),
        text("fg"),
        Variant::PackedStringArray(vec!["abc".into(), "".into()]),
        Variant::Int(7),
        text("x"),
        Variant::Int(1),
        Variant::Int(2),
        Variant::Int(3),
        Variant::Int(4),
    ])
}

/// Dictionaries empty, with keys of 3.x code units, mixed, with an int and a float key that are
/// equal by value, and typed (where the profile has typed dictionaries).
fn dictionary_values(v: &mut Values) {
    v.add(s("Dictionary/empty"), dict(vec![]));
    // Two keys the engine tells apart by their units, which 3.6 writes alike.
    v.add(
        s("Dictionary/units_keys"),
        dict(vec![
            (Variant::String(units(&[0xD83D, 0xDCA9])), Variant::Int(1)),
            (Variant::String("💩".into()), Variant::Int(2)),
            (Variant::String(units(&[0xD800])), Variant::Int(3)),
        ]),
    );
    v.add(
        s("Dictionary/mixed"),
        dict(vec![
            (Variant::Int(1), Variant::String("a".into())),
            (Variant::String("b".into()), Variant::Float(2.5)),
            (Variant::Nil, Variant::Array(Array::default())),
        ]),
    );
    v.add(
        s("Dictionary/int_and_float_keys"),
        dict(vec![
            (Variant::Int(1), Variant::Nil),
            (Variant::Float(1.0), Variant::Nil),
        ]),
    );
    if v.profile.typed_dictionaries() {
        for (k, ty, items) in typed_samples() {
            let d = Dictionary::typed(
                ContainerType::Builtin(ty),
                ContainerType::Builtin(VariantType::Int),
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, k)| (k, Variant::Int(i as i64)))
                    .collect(),
            );
            v.add(format!("Dictionary/typed_keys_{k}"), Variant::Dictionary(d));
        }
    }
}

/// PackedStringArrays: empty, every padding, the window lengths each before a non-ASCII string,
/// and 3.x code units.
fn packed_string_values(v: &mut Values, t: &TypeInfo) {
    let ty = t.name;
    v.add(format!("{ty}/empty"), Variant::PackedStringArray(vec![]));
    v.add(
        format!("{ty}/paddings"),
        Variant::PackedStringArray(STRINGS.iter().map(|(_, x)| Text::from(*x)).collect()),
    );
    v.add(
        format!("{ty}/window_lengths"),
        Variant::PackedStringArray(
            WINDOW_STRINGS
                .iter()
                .flat_map(|(_, n)| [window_string(*n), "é"])
                .map(Text::from)
                .collect(),
        ),
    );
    v.add(
        format!("{ty}/units"),
        Variant::PackedStringArray(
            [&[0x61][..], &[0xD800], &[0xD83D, 0xDCA9], &[0x11_0000]]
                .into_iter()
                .map(units)
                .collect(),
        ),
    );
}

fn resource() -> Variant {
    Variant::object(Object::Full {
        class: s("Resource"),
        properties: vec![(s("resource_name"), Variant::String("named".into()))],
    })
}

fn typed_samples() -> Vec<(&'static str, VariantType, Vec<Variant>)> {
    vec![
        (
            "int",
            VariantType::Int,
            vec![Variant::Int(1), Variant::Int(i64::MIN)],
        ),
        ("float", VariantType::Float, vec![Variant::Float(0.5)]),
        (
            "String",
            VariantType::String,
            vec![Variant::String("x".into())],
        ),
        ("empty_int", VariantType::Int, vec![]),
    ]
}

/// The int 7 inside `depth` nested one-element Arrays.
fn nest(depth: usize) -> Variant {
    around(depth, Variant::Int(7), in_array)
}

/// `inner` wrapped `depth` times by `wrap`.
fn around(depth: usize, inner: Variant, wrap: fn(Variant) -> Variant) -> Variant {
    (0..depth).fold(inner, |v, _| wrap(v))
}

fn in_array(v: Variant) -> Variant {
    Variant::Array(Array::new(vec![v]))
}

fn packed(profile: Profile, ty: VariantType, e: Element, len: usize, fields: usize) -> Variant {
    let i = |k: usize| k as i64 * 0x0101_0101 - 3;
    match e {
        Element::U8 => Variant::PackedByteArray((0..len).map(|k| (k * 37 + 1) as u8).collect()),
        Element::I32 => Variant::PackedInt32Array((0..len).map(|k| i(k) as i32).collect()),
        Element::I64 => Variant::PackedInt64Array((0..len).map(|k| i(k) * 0x1_0000_0001).collect()),
        Element::F32 => Variant::PackedFloat32Array(
            (0..len)
                .map(|k| f32::from_bits(REALS32[k % REALS32.len()].1))
                .collect(),
        ),
        Element::F64 => Variant::PackedFloat64Array(
            (0..len).map(|k| f64s(FLOATS[k % FLOATS.len()].1)).collect(),
        ),
        Element::Color => {
            Variant::PackedColorArray((0..len).map(|k| [k as f32, 0.5, -0.0, 1.0]).collect())
        }
        Element::Reals(_) => Variant::from_reals(ty, counting_reals(profile, len * fields, false))
            .expect("packed vector"),
    }
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Invalid and odd inputs, derived from the valid encodings or built word by word, in this order.
const INVALID_FAMILIES: &[Family] = &[
    Family {
        name: "truncated",
        cases: truncated,
    },
    Family {
        name: "unknown_type",
        cases: unknown_types,
    },
    Family {
        name: "flag_bits",
        cases: flag_bits,
    },
    Family {
        name: "hostile_count",
        cases: hostile_counts,
    },
    Family {
        name: "string_bytes",
        cases: string_bytes,
    },
    Family {
        name: "string_bytes_in_containers",
        cases: string_bytes_in_containers,
    },
    Family {
        name: "depth_arrays",
        cases: depth_arrays,
    },
    Family {
        name: "depth_around_strings",
        cases: depth_around_strings,
    },
    Family {
        name: "depth_dictionaries",
        cases: depth_dictionaries,
    },
    Family {
        name: "trailing",
        cases: trailing,
    },
    Family {
        name: "noncanonical_scalars",
        cases: noncanonical_scalars,
    },
    Family {
        name: "noncanonical_containers",
        cases: noncanonical_containers,
    },
    Family {
        name: "noncanonical_node_paths",
        cases: noncanonical_node_paths,
    },
    Family {
        name: "noncanonical_strings",
        cases: noncanonical_strings,
    },
    Family {
        name: "noncanonical_headers",
        cases: noncanonical_headers,
    },
    Family {
        name: "typed_arrays",
        cases: typed_arrays,
    },
    Family {
        name: "reals_as_64bit",
        cases: reals_as_64bit,
    },
    Family {
        name: "signal_truncated",
        cases: signal_truncated,
    },
    Family {
        name: "typed_dictionaries",
        cases: typed_dictionaries,
    },
    Family {
        name: "script_paths",
        cases: script_paths,
    },
    Family {
        name: "full_objects",
        cases: full_objects,
    },
    Family {
        name: "object_ids_in_typed_containers",
        cases: object_ids_in_typed_containers,
    },
    Family {
        name: "object_ids_written_in_full",
        cases: object_ids_written_in_full,
    },
    Family {
        name: "stored_properties",
        cases: stored_properties,
    },
    Family {
        name: "typed_conversions",
        cases: typed_conversions,
    },
    Family {
        name: "conversion_edges",
        cases: conversion_edges,
    },
    Family {
        name: "string_windows",
        cases: string_windows,
    },
    Family {
        name: "stringify",
        cases: stringify,
    },
    Family {
        name: "measured_conversions",
        cases: measured_conversions,
    },
    Family {
        name: "scripted_objects",
        cases: scripted_objects,
    },
];

/// Truncated at every offset of one sample per type (shortest non-trivial value of the type).
fn truncated(ctx: &mut Ctx) {
    let mut seen = std::collections::HashSet::new();
    for (name, v, full) in ctx.values {
        let Some(bytes) = (!full).then(|| ctx.canonical(v)).flatten() else {
            continue;
        };
        if bytes.len() > 64 || !seen.insert(v.get_type()) || bytes.len() <= 4 {
            continue;
        }
        for cut in 0..bytes.len() {
            ctx.add(format!("truncated/{name}/at_{cut}"), bytes[..cut].to_vec());
        }
    }
}

/// Every type id past the table, and a few far beyond.
fn unknown_types(ctx: &mut Ctx) {
    let max = TYPES
        .iter()
        .filter_map(|t| ctx.profile.id_of(t.ty))
        .max()
        .unwrap_or(0);
    for bad in (max + 1..=max + 4).chain([64, 127, 128, 255]) {
        ctx.add(format!("unknown_type/{bad}"), le(&[bad, 0, 0, 0]));
    }
}

/// Flag bits on each type: bits 8-15 are never read; bits above 16 depend on the type.
fn flag_bits(ctx: &mut Ctx) {
    for (name, v, _) in ctx.values.iter().filter(|(n, _, f)| {
        !f && (n.ends_with("/len1")
            || n.ends_with("/counting")
            || n.ends_with("/len3")
            || n.starts_with("int/1")
            || n.ends_with("/true")
            || n.ends_with("/mixed")
            || n.ends_with("/relative"))
    }) {
        let Some(bytes) = ctx.canonical(v) else {
            continue;
        };
        for bit in [8u32, 15, 17, 18, 20, 24, 31] {
            let mut b = bytes.clone();
            let head = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) | (1 << bit);
            b[..4].copy_from_slice(&head.to_le_bytes());
            ctx.add(format!("flag_bit_{bit}/{name}"), b);
        }
    }
}

/// Counts and lengths that cannot fit.
fn hostile_counts(ctx: &mut Ctx) {
    let counted = [
        VariantType::String,
        VariantType::Array,
        VariantType::Dictionary,
        VariantType::PackedByteArray,
        VariantType::PackedInt32Array,
        VariantType::PackedFloat32Array,
        VariantType::PackedStringArray,
        VariantType::PackedVector2Array,
        VariantType::PackedColorArray,
    ];
    for ty in counted {
        for count in [
            1u32,
            2,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x4000_0001,
            0x2000_0001,
        ] {
            ctx.add(
                format!("hostile_count/{}/{count:#x}", ty.name()),
                le(&[ctx.id(ty), count, 0]),
            );
        }
    }
}

/// String bytes the engine must judge: invalid UTF-8, byte-order marks, NULs.
const STRING_BYTES: &[(&str, &[u8])] = &[
    ("lone_continuation", b"\x80"),
    ("bad_lead_fe", b"\xfe"),
    ("bad_lead_ff", b"\xff"),
    ("truncated_two_byte", b"a\xc3"),
    ("truncated_three_byte", b"\xe2\x82"),
    ("overlong_nul", b"\xc0\x80"),
    ("overlong_slash", b"\xe0\x80\xaf"),
    ("surrogate_high", b"\xed\xa0\x80"),
    ("surrogate_pair_cesu", b"\xed\xa0\xbd\xed\xb2\xa9"),
    ("beyond_10ffff", b"\xf4\x90\x80\x80"),
    ("five_byte", b"\xf8\x88\x80\x80\x80"),
    ("six_byte", b"\xfc\x84\x80\x80\x80\x80"),
    ("six_byte_max", b"\xfd\xbf\xbf\xbf\xbf\xbf"),
    ("truncated_five_byte", b"ab\xf8\x88\x80"),
    ("truncated_six_byte", b"\xfc\x84\x80\x80\x80"),
    ("surrogate_low", b"\xed\xb0\x80"),
    ("surrogate_pair_reversed", b"\xed\xb2\xa9\xed\xa0\xbd"),
    (
        "surrogate_then_pair",
        b"\xed\xa0\x80\xed\xa0\x80\xed\xb0\x80",
    ),
    // Overlong forms of each length: 3.x refuses one only when its bits so far are zero at
    // the third byte and that byte's would-be lead bits are zero too (parse_utf8).
    ("overlong3_10", b"\xe0\x80\x90"),
    ("overlong3_0f", b"\xe0\x80\x8f"),
    ("overlong3_40", b"\xe0\x81\x80"),
    ("overlong4_200", b"\xf0\x80\x88\x80"),
    ("overlong4_1ff", b"\xf0\x80\x87\xbf"),
    ("overlong4_1000", b"\xf0\x81\x80\x80"),
    ("overlong5_4000", b"\xf8\x80\x84\x80\x80"),
    ("overlong5_3fff", b"\xf8\x80\x83\xbf\xbf"),
    ("overlong5_nul", b"\xf8\x80\x80\x80\x80"),
    ("overlong6_80000", b"\xfc\x80\x82\x80\x80\x80"),
    ("overlong6_7ffff", b"\xfc\x80\x81\xbf\xbf\xbf"),
    ("overlong6_nul", b"\xfc\x80\x80\x80\x80\x80"),
    ("overlong2_c1", b"\xc1\xbf"),
    ("nul_inside_sequence", b"\xe2\x00\x82"),
    ("bad_continuation_in_six", b"\xfc\x84\x80\x41\x80\x80"),
    ("bom_only", b"\xef\xbb\xbf"),
    ("bom_then_text", b"\xef\xbb\xbfabc"),
    ("double_bom", b"\xef\xbb\xbf\xef\xbb\xbfx"),
    ("nul_inside", b"ab\x00cd"),
    ("nul_first", b"\x00abc"),
    ("latin1", b"caf\xe9"),
    // A two-byte character before a lone surrogate: 3.x keeps both and writes each back.
    ("two_byte_then_surrogate", b"\xc3\xa9\xed\xa0\x80"),
];

/// Each of [`STRING_BYTES`] as a String, padded and (where it needs padding) without it.
fn string_bytes(ctx: &mut Ctx) {
    let string = ctx.id(VariantType::String);
    for (k, raw) in STRING_BYTES {
        let mut b = le(&[string, raw.len() as u32]);
        b.extend_from_slice(raw);
        b.resize(b.len().next_multiple_of(4), 0);
        ctx.add(format!("string_bytes/{k}"), b.clone());
        // The same bytes without their padding.
        if raw.len() % 4 != 0 {
            ctx.add(
                format!("string_bytes/{k}/unpadded"),
                b[..8 + raw.len()].to_vec(),
            );
        }
    }
}

/// Loose 3.x string bytes inside other places that hold strings: a PackedStringArray, NodePath
/// names, Dictionary keys.
fn string_bytes_in_containers(ctx: &mut Ctx) {
    if ctx.profile.major() != 3 {
        return;
    }
    let surrogate = b"\xed\xa0\x80\x00";
    let mut b = le(&[ctx.id(VariantType::PackedStringArray), 1, 4]);
    b.extend_from_slice(surrogate);
    ctx.add(s("string_bytes/in_packed_string_array"), b);
    let mut b = le(&[ctx.id(VariantType::NodePath), 0x8000_0001, 1, 0, 3]);
    b.extend_from_slice(surrogate);
    b.extend_from_slice(&le(&[4]));
    b.extend_from_slice(b"\xf4\x90\x80\x80");
    ctx.add(s("string_bytes/in_nodepath_names"), b);
    let (string, int) = (ctx.id(VariantType::String), ctx.id(VariantType::Int));
    let mut b = le(&[ctx.id(VariantType::Dictionary), 2, string, 6]);
    b.extend_from_slice(b"\xed\xa0\xbd\xed\xb2\xa9\x00\x00");
    b.extend_from_slice(&le(&[int, 1, string, 4]));
    b.extend_from_slice("💩".as_bytes());
    b.extend_from_slice(&le(&[int, 2]));
    ctx.add(s("string_bytes/in_dictionary_keys"), b);
}

/// Nesting around the depth limit, built directly (encoding refuses past the limit).
fn depth_arrays(ctx: &mut Ctx) {
    for depth in [1025usize, 1026, 4096, 50_000] {
        let mut words = Vec::new();
        for _ in 0..depth {
            words.extend([ctx.id(VariantType::Array), 1]);
        }
        words.extend([ctx.id(VariantType::Int), 7]);
        ctx.add(format!("depth/arrays_{depth}"), le(&words));
    }
}

/// Around two short strings alone, with ints after the whole value so that the decoder's window
/// of a short string fits: a string is a value at its depth like any other.
fn depth_around_strings(ctx: &mut Ctx) {
    let mut words = Vec::new();
    for depth in 1..=1025 {
        words.extend([
            ctx.id(VariantType::Array),
            if depth == 1025 { 2 } else { 1 },
        ]);
    }
    let string = ctx.id(VariantType::String);
    words.extend([
        string,
        3,
        u32::from_le_bytes(*b"abc\0"),
        string,
        1,
        u32::from_le_bytes(*b"d\0\0\0"),
    ]);
    words.extend([ctx.id(VariantType::Int), 7].repeat(5));
    ctx.add(s("depth/arrays_1025_around_strings"), le(&words));
}

/// The depth limit through dictionary values and through dictionary keys: 1025 dictionaries
/// around an int, {0: {0: ... 7}} and {{... 7: 0}: 0}.
fn depth_dictionaries(ctx: &mut Ctx) {
    let (dict, int) = (ctx.id(VariantType::Dictionary), ctx.id(VariantType::Int));
    let mut words = Vec::new();
    for _ in 0..1025 {
        words.extend([dict, 1, int, 0]);
    }
    words.extend([int, 7]);
    ctx.add(s("depth/dictionary_values_1025"), le(&words));
    let mut words = Vec::new();
    for _ in 0..1025 {
        words.extend([dict, 1]);
    }
    words.extend([int, 7]);
    for _ in 0..1025 {
        words.extend([int, 0]);
    }
    ctx.add(s("depth/dictionary_keys_1025"), le(&words));
}

/// Trailing bytes after a whole value.
fn trailing(ctx: &mut Ctx) {
    let int = ctx.id(VariantType::Int);
    for (k, extra) in [
        ("one_byte", vec![0u8]),
        ("a_whole_int", le(&[int, 5])),
        ("garbage", vec![0xff; 7]),
    ] {
        let mut b = le(&[int, 1]);
        b.extend(extra);
        ctx.add(format!("trailing/{k}"), b);
    }
}

/// Numbers and bools in forms the encoder never writes but a decoder may accept: small ints and
/// a float widened to 64 bits, NaNs as 32 bits, bools other than 0 and 1.
fn noncanonical_scalars(ctx: &mut Ctx) {
    let (int, float) = (ctx.id(VariantType::Int), ctx.id(VariantType::Float));
    let bool_id = ctx.id(VariantType::Bool);
    ctx.noncanonical(vec![
        ("int_small_as_64bit", le(&[int | FLAG_64, 1, 0])),
        (
            "int_negative_as_64bit",
            le(&[int | FLAG_64, 0xffff_ffff, 0xffff_ffff]),
        ),
        ("float_half_as_64bit", {
            let mut b = le(&[float | FLAG_64]);
            b.extend(0.5f64.to_le_bytes());
            b
        }),
        ("float_nan_as_32bit", le(&[float, 0x7fc0_0000])),
        ("float_snan_as_32bit", le(&[float, 0x7f80_0001])),
        ("bool_two", le(&[bool_id, 2])),
        ("bool_all_ones", le(&[bool_id, 0xffff_ffff])),
        ("bool_256", le(&[bool_id, 0x100])),
    ]);
}

/// Containers with the shared bit on their count, and a Dictionary with a key twice.
fn noncanonical_containers(ctx: &mut Ctx) {
    let int = ctx.id(VariantType::Int);
    let dict = ctx.id(VariantType::Dictionary);
    ctx.noncanonical(vec![
        (
            "array_shared_bit",
            le(&[ctx.id(VariantType::Array), 0x8000_0001, int, 3]),
        ),
        (
            "dictionary_shared_bit",
            le(&[dict, 0x8000_0001, int, 3, int, 4]),
        ),
        (
            "dictionary_duplicate_keys",
            le(&[dict, 2, int, 3, int, 4, int, 3, int, 5]),
        ),
    ]);
}

/// NodePaths in the old form, with the property flag, with counts that wrap, with padding that
/// is not zero, and absolute with and without names.
fn noncanonical_node_paths(ctx: &mut Ctx) {
    let np = ctx.id(VariantType::NodePath);
    ctx.noncanonical(vec![
        ("nodepath_old_format", {
            let mut b = le(&[np, 4]);
            b.extend(b"abcd");
            b
        }),
        ("nodepath_property_flag", {
            let mut b = le(&[np, 0x8000_0001, 0, 2, 1]);
            b.extend(b"a\0\0\0");
            b.extend(le(&[1]));
            b.extend(b"b\0\0\0");
            b
        }),
        // The engines count names + subnames in uint32_t, which wraps: 1 + 0xffffffff strings
        // is none, 2 + 0xffffffff is one (a name).
        (
            "nodepath_count_wraps_to_zero",
            le(&[np, 0x8000_0001, 0xffff_ffff, 0]),
        ),
        (
            "nodepath_count_wraps_to_one_name",
            le(&[np, 0x8000_0002, 0xffff_ffff, 0, 0]),
        ),
        ("nodepath_nonzero_padding", {
            let mut b = le(&[np, 0x8000_0001, 0, 0, 1]);
            b.extend(b"a\xff\xff\xff");
            b
        }),
        // The old form (no 0x80000000 flag) is refused even where the words after it would
        // read as an empty path.
        ("nodepath_old_format_empty", le(&[np, 0, 0, 0])),
        // An absolute path with no names: 4.x keeps the flag, 3.x makes the empty path.
        ("nodepath_absolute_empty", le(&[np, 0x8000_0000, 0, 1])),
        ("nodepath_absolute_name", {
            let mut b = le(&[np, 0x8000_0001, 0, 1, 1]);
            b.extend(b"a\0\0\0");
            b
        }),
    ]);
}

/// Strings and string arrays whose bytes the encoder would not write: padding that is not zero,
/// elements without their NUL or with one inside, look-alikes among the decoder's string runs, a
/// negative count; and a byte array without its padding.
fn noncanonical_strings(ctx: &mut Ctx) {
    let (int, string) = (ctx.id(VariantType::Int), ctx.id(VariantType::String));
    let strings = ctx.id(VariantType::PackedStringArray);
    ctx.noncanonical(vec![
        ("string_nonzero_padding", {
            let mut b = le(&[string, 1]);
            b.extend(b"a\xff\xff\xff");
            b
        }),
        ("string_array_without_nul", {
            let mut b = le(&[strings, 1, 3]);
            b.extend(b"abc\0");
            b
        }),
        // The same where the decoder's window (4 + 24 bytes) fits: an element may end without
        // its NUL, or hold one inside, before others.
        ("string_array_without_nul_then_more", {
            let mut b = le(&[strings, 3, 3]);
            b.extend(b"abc\0");
            b.extend(le(&[3]));
            b.extend(b"ab\0\0");
            b.extend(le(&[24]));
            b.extend(b"abcdefghijklmnopqrstuvw\0");
            b
        }),
        // Without its NUL before an empty element: the byte after the padding is zero.
        ("string_array_without_nul_then_empty", {
            let mut b = le(&[strings, 3, 3]);
            b.extend(b"abc\0");
            b.extend(le(&[0, 24]));
            b.extend(b"abcdefghijklmnopqrstuvw\0");
            b
        }),
        ("string_array_nul_inside_then_more", {
            let mut b = le(&[strings, 2, 4]);
            b.extend(b"a\0b\0");
            b.extend(le(&[24]));
            b.extend(b"abcdefghijklmnopqrstuvw\0");
            b
        }),
        // In an Array, among short plain strings (the decoder's runs): a String header with a
        // flag bit, and a Vector2 whose bytes after its header read as a plain string field (x's
        // bits as the length 3, y's as "ABC" and a byte more); ints after them, so that every
        // window fits.
        ("array_string_runs_with_look_alikes", {
            let mut b = le(&[ctx.id(VariantType::Array), 6, string, 3]);
            b.extend(b"abc\0");
            b.extend(le(&[string | 0x1_0000, 4]));
            b.extend(b"flag");
            b.extend(le(&[string, 2]));
            b.extend(b"de\0\0");
            b.extend(le(&[
                ctx.id(VariantType::Vector2),
                3,
                0x4443_4241,
                string,
                1,
            ]));
            b.extend(b"x\0\0\0");
            b.extend(le(&[int, 7, int, 1, int, 2, int, 3, int, 4]));
            b
        }),
        ("string_array_negative_count", le(&[strings, 0xffff_ffff])),
        (
            "byte_array_missing_padding",
            le(&[ctx.id(VariantType::PackedByteArray), 1])
                .into_iter()
                .chain([0xab])
                .collect(),
        ),
    ]);
}

/// Headers the encoder never writes: an object id of 0, a full object where objects are not
/// allowed, the type in the second byte, and bits 8-23 all set.
fn noncanonical_headers(ctx: &mut Ctx) {
    let (int, object) = (ctx.id(VariantType::Int), ctx.id(VariantType::Object));
    ctx.noncanonical(vec![
        ("object_id_zero", le(&[object | FLAG_64, 0, 0])),
        ("object_full_not_allowed", le(&[object, 0])),
        ("header_type_in_byte_1", le(&[int | 0x0100, 9])),
        ("type_byte_mask", le(&[(int & TYPE_MASK) | 0x00ff_ff00, 9])),
    ]);
}

/// 4.x typed arrays holding what their type does not allow, typed by unknown built-ins, classes
/// and missing scripts (without objects), and holding elements the engine converts.
fn typed_arrays(ctx: &mut Ctx) {
    if ctx.profile.major() != 4 {
        return;
    }
    let id = |ty: VariantType| ctx.id(ty);
    let (arr, int, string) = (
        id(VariantType::Array),
        id(VariantType::Int),
        id(VariantType::String),
    );
    let inputs = vec![
        ("typed_nil", le(&[arr | 1 << 16, 0, 1, int, 3])),
        ("typed_int_holding_string", {
            let mut b = le(&[arr | 1 << 16, int, 2, int, 3, string, 1]);
            b.extend(b"x\0\0\0");
            b
        }),
        // The same with more strings and ints after them, so that the decoder's window of a short
        // string fits: a typed array's strings are each checked against its type.
        ("typed_int_holding_strings_then_more", {
            let mut b = le(&[arr | 1 << 16, int, 4, int, 3, string, 1]);
            b.extend(b"x\0\0\0");
            b.extend(le(&[string, 2]));
            b.extend(b"yz\0\0");
            b.extend(le(&[int, 4, int, 5, int, 6, int, 7, int, 8]));
            b
        }),
        (
            "typed_float_holding_int",
            le(&[arr | 1 << 16, id(VariantType::Float), 1, int, 3]),
        ),
        ("typed_bad_builtin", le(&[arr | 1 << 16, 200, 0])),
        // Typed as the built-in Object: without objects, as EncodedObjectAsID.
        (
            "typed_builtin_object",
            le(&[arr | 1 << 16, id(VariantType::Object), 0]),
        ),
        ("typed_class_name", {
            let mut b = le(&[arr | 2 << 16, 4]);
            b.extend(b"Node");
            b.extend(le(&[0]));
            b
        }),
        ("typed_script_missing", {
            let mut b = le(&[arr | 3 << 16, 12]);
            b.extend(b"res://none.g");
            b.extend(le(&[0]));
            b
        }),
        // Elements of another type that the engine converts (src/typed.rs).
        ("typed_nodepath_from_string", {
            let mut b = le(&[arr | 1 << 16, id(VariantType::NodePath), 1, string, 5]);
            b.extend(b"a/b:c\0\0\0");
            b
        }),
        ("typed_color_from_named_string", {
            let mut b = le(&[arr | 1 << 16, id(VariantType::Color), 1, string, 10]);
            b.extend(b"Dark Green\0\0");
            b
        }),
        (
            "typed_vector2i_from_vector2",
            le(&[
                arr | 1 << 16,
                id(VariantType::Vector2i),
                1,
                id(VariantType::Vector2),
                (-1.5f32).to_bits(),
                f32::NAN.to_bits(),
            ]),
        ),
    ];
    ctx.noncanonical(inputs);
}

/// 4.x reals with the 64-bit flag (doubles 0.1, 1.1, 2.1, ...): every type whose reals the flag
/// widens (decode_variant reads each through its own branch: docs/engine-coverage.md).
fn reals_as_64bit(ctx: &mut Ctx) {
    if ctx.profile.major() != 4 {
        return;
    }
    let id = |ty: VariantType| ctx.id(ty);
    // A value of `ty` with the 64-bit flag: `n` doubles.
    let wide = |ty: VariantType, n: usize| {
        let mut b = le(&[id(ty) | FLAG_64]);
        (0..n).for_each(|i| b.extend((0.1 + i as f64).to_le_bytes()));
        b
    };
    // A packed array of `ty` with the 64-bit flag: two elements of `n` doubles.
    let wide_packed = |ty: VariantType, n: usize| {
        let mut b = le(&[id(ty) | FLAG_64, 2]);
        (0..2 * n).for_each(|i| b.extend((0.1 + i as f64).to_le_bytes()));
        b
    };
    let mut inputs = vec![
        ("vector2_as_64bit", {
            let mut b = le(&[id(VariantType::Vector2) | FLAG_64]);
            b.extend(0.1f64.to_le_bytes());
            b.extend(2.0f64.to_le_bytes());
            b
        }),
        ("packed_vector2_as_64bit", {
            let mut b = le(&[id(VariantType::PackedVector2Array) | FLAG_64, 1]);
            b.extend(0.1f64.to_le_bytes());
            b.extend(2.0f64.to_le_bytes());
            b
        }),
        ("rect2_as_64bit", wide(VariantType::Rect2, 4)),
        ("vector3_as_64bit", wide(VariantType::Vector3, 3)),
        ("transform2d_as_64bit", wide(VariantType::Transform2D, 6)),
        ("vector4_as_64bit", wide(VariantType::Vector4, 4)),
        ("plane_as_64bit", wide(VariantType::Plane, 4)),
        ("quaternion_as_64bit", wide(VariantType::Quaternion, 4)),
        ("aabb_as_64bit", wide(VariantType::Aabb, 6)),
        ("basis_as_64bit", wide(VariantType::Basis, 9)),
        ("transform3d_as_64bit", wide(VariantType::Transform3D, 12)),
        ("projection_as_64bit", wide(VariantType::Projection, 16)),
        (
            "packed_vector3_as_64bit",
            wide_packed(VariantType::PackedVector3Array, 3),
        ),
    ];
    // PackedVector4Array arrived in 4.3.
    if ctx.profile.id_of(VariantType::PackedVector4Array).is_some() {
        inputs.push((
            "packed_vector4_as_64bit",
            wide_packed(VariantType::PackedVector4Array, 4),
        ));
    }
    ctx.noncanonical(inputs);
}

/// A 4.x Signal whose object id stops short.
fn signal_truncated(ctx: &mut Ctx) {
    if ctx.profile.major() != 4 {
        return;
    }
    let mut b = le(&[ctx.id(VariantType::Signal), 1]);
    b.extend(b"s\0\0\0");
    b.extend([1, 2, 3]);
    ctx.noncanonical(vec![("signal_truncated_id", b)]);
}

/// 4.x typed dictionaries: Int keys holding a String, and a Color key made from the empty String
/// (opaque black; the entry is kept).
fn typed_dictionaries(ctx: &mut Ctx) {
    if ctx.profile.major() != 4 || !ctx.profile.typed_dictionaries() {
        return;
    }
    let (dict, int) = (ctx.id(VariantType::Dictionary), ctx.id(VariantType::Int));
    let string = ctx.id(VariantType::String);
    let mut holding_string = le(&[dict | 1 << 16, int, 1, string, 1]);
    holding_string.extend(b"x\0\0\0");
    holding_string.extend(le(&[int, 1]));
    let color = ctx.id(VariantType::Color);
    ctx.noncanonical(vec![
        ("typed_dict_int_keys_holding_string", holding_string),
        (
            "typed_dict_color_key_from_empty_string",
            le(&[dict | 1 << 16 | 1 << 18, color, 0, 1, string, 0, 0]),
        ),
    ]);
}

/// `decode/objects/{name}` for each input, objects allowed.
fn with_objects(ctx: &mut Ctx, inputs: Vec<(impl std::fmt::Display, Vec<u8>)>) {
    for (k, input) in inputs {
        ctx.decode(format!("decode/objects/{k}"), input, true);
    }
}

/// With objects allowed, script paths are loaded: anything but a res:// path in the engine's
/// project is refused.
fn script_paths(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    let arr = ctx.id(VariantType::Array);
    let script_typed = |path: &[u8]| {
        let mut b = le(&[arr | 3 << 16]);
        field(&mut b, path);
        b.extend(le(&[0]));
        b
    };
    with_objects(
        ctx,
        vec![
            ("typed_script_not_res_path", script_typed(b"abc")),
            // Another scheme, and a path longer than `res://` alone: refused all the same.
            ("typed_script_user_path", script_typed(b"user://item.gd")),
            // A res:// path with no Script resource in the engine's project (a known difference:
            // the codec cannot know the project).
            ("typed_script_not_in_project", script_typed(b"res://N")),
        ],
    );
}

/// Object ids in containers typed by a class or a script, objects allowed: an id decodes to an
/// `EncodedObjectAsID` placeholder (a RefCounted), which an Array or a Dictionary's keys keep only
/// when typed by no class, that class or one of its ancestors, and never when typed by a script.
/// The first input is the one a differential fuzzer found (its one-byte class name is no class).
fn object_ids_in_typed_containers(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    let (arr, object, int) = (
        ctx.id(VariantType::Array),
        ctx.id(VariantType::Object),
        ctx.id(VariantType::Int),
    );
    let as_id = |id: u64| {
        let mut b = le(&[object | 1 << 16]);
        b.extend(id.to_le_bytes());
        b
    };
    // An Array typed by class `class` (or by script, kind 3) holding the object of id `id`; bits
    // over 17 are set in the input found, and unused.
    let array = |kind: u32, class: &[u8], id: u64| {
        let mut b = le(&[arr | kind << 16]);
        field(&mut b, class);
        b.extend(le(&[1]));
        b.extend(as_id(id));
        b
    };
    // An id kept comes back from the engine written in full as an EncodedObjectAsID (see
    // `object_ids_written_in_full`); more of the rule is pinned by unit tests in src/decode.rs.
    let mut inputs = vec![
        (
            "id_in_array_of_encoded_object_as_id",
            array(2, b"EncodedObjectAsID", 12345),
        ),
        ("id_in_array_of_refcounted", array(2, b"RefCounted", 12345)),
        (
            "id_in_array_of_unknown_class",
            array(0x12, b"\x1c", 1 << 24),
        ),
        ("id_in_array_of_node", array(2, b"Node", 12345)),
        ("null_id_in_array_of_node", array(2, b"Node", 0)),
        (
            "id_in_array_of_script",
            array(3, b"res://fixtures/item.gd", 12345),
        ),
    ];
    if ctx.profile.typed_dictionaries() {
        // {id: 1} with keys typed by class Node (keys are checked as an array's elements).
        let dict = ctx.id(VariantType::Dictionary);
        let mut b = le(&[dict | 2 << 16]);
        field(&mut b, b"Node");
        b.extend(le(&[1]));
        b.extend(as_id(12345));
        b.extend(le(&[int, 1]));
        inputs.push(("id_key_in_dictionary_of_node", b));
    }
    with_objects(ctx, inputs);
}

/// Object ids read with objects allowed: the engine holds each as an `EncodedObjectAsID`
/// placeholder and, writing with full objects, writes that object in full (its `object_id` as an
/// int, 64-bit past int32 and negative past int64, then a nil `script`), in a container too.
fn object_ids_written_in_full(ctx: &mut Ctx) {
    let (arr, object) = (ctx.id(VariantType::Array), ctx.id(VariantType::Object));
    let as_id = |id: u64| {
        let mut b = le(&[object | 1 << 16]);
        b.extend(id.to_le_bytes());
        b
    };
    let mut in_array = le(&[arr, 2]);
    in_array.extend(as_id(7));
    in_array.extend(as_id(1 << 40));
    with_objects(
        ctx,
        vec![
            ("id_written_in_full", as_id(12345)),
            ("id_past_int32_written_in_full", as_id((1 << 32) + 5)),
            ("id_past_int64_written_in_full", as_id((1 << 63) + 7)),
            ("ids_in_array_written_in_full", in_array),
        ],
    );
}

/// Full objects given only some of their class's stored properties: the engine sets those given
/// (the last value of a name wins, a name the class lacks is dropped) and writes back every stored
/// property of the class, in its order, with the defaults of the rest
/// (`gdmarshal::classes::ClassList::fill_stored`, with the classes in corpus/classes/).
fn stored_properties(ctx: &mut Ctx) {
    let full = |class: &str, props: &[(&str, &str)]| {
        Variant::object(Object::Full {
            class: s(class),
            properties: props
                .iter()
                .map(|(n, v)| (s(n), Variant::String((*v).into())))
                .collect(),
        })
    };
    let values = [
        (
            "stored_misnamed_property",
            full("Resource", &[("resoqrce_name", "named")]),
        ),
        (
            "stored_later_value_wins",
            full(
                "Resource",
                &[("resource_name", "a"), ("resource_name", "b")],
            ),
        ),
        (
            "stored_in_array",
            Variant::Array(Array::new(vec![
                full("Resource", &[("resource_name", "named")]),
                full("Object", &[]),
            ])),
        ),
    ];
    let options = gdmarshal::EncodeOptions::new().full_objects(true);
    let mut inputs: Vec<(String, Vec<u8>)> = values
        .into_iter()
        .filter_map(|(k, v)| Some((s(k), gdmarshal::encode(&v, ctx.profile, options).ok()?)))
        .collect();
    // A Resource's String and bool properties given a value of each other kind: what the
    // setter makes of it (`gdmarshal::classes::ClassList::with_setters_of`).
    let resource = |props: Vec<(&str, Variant)>| {
        Variant::object(Object::Full {
            class: s("Resource"),
            properties: props.into_iter().map(|(n, v)| (s(n), v)).collect(),
        })
    };
    let path = Variant::node_path(NodePath {
        names: vec!["a".into()],
        subnames: vec![],
        absolute: true,
    });
    let others = [
        ("int", Variant::Int(5)),
        ("int0", Variant::Int(0)),
        ("nil", Variant::Nil),
        ("bool", Variant::Bool(true)),
        ("float", Variant::Float(2.5)),
        ("string", Variant::String("true".into())),
        ("string_name", Variant::StringName("sn".into())),
        ("node_path", path),
        ("array", Variant::Array(Array::new(vec![Variant::Int(1)]))),
        (
            "vector2",
            Variant::Vector2(reals(ctx.profile, 2, 0x3fc0_0000)),
        ),
    ];
    let mut other_type = Vec::new();
    for (property, own) in [("name", "string"), ("local", "bool")] {
        let full = if property == "name" {
            "resource_name"
        } else {
            "resource_local_to_scene"
        };
        for (kind, v) in others.iter().filter(|(k, _)| *k != own) {
            other_type.push((
                format!("stored_other_type_{property}_from_{kind}"),
                resource(vec![(full, v.clone())]),
            ));
        }
    }
    other_type.push((
        s("stored_other_type_name_after_text"),
        resource(vec![
            ("resource_name", Variant::String("a".into())),
            ("resource_name", Variant::Int(5)),
        ]),
    ));
    for (k, v) in other_type {
        if let Ok(b) = gdmarshal::encode(&v, ctx.profile, options) {
            inputs.push((k, b));
        }
    }
    with_objects(ctx, inputs);
}

/// A string field: length, bytes, padding to 4.
fn field(b: &mut Vec<u8>, text: &[u8]) {
    b.extend(le(&[text.len() as u32]));
    b.extend(text);
    b.resize(b.len().next_multiple_of(4), 0);
}

/// Full objects where objects are allowed: null, not RefCounted, typed arrays of the built-in
/// Object, scripts in and out of the project, a property nested past the depth limit, and a
/// script property that is not a path.
fn full_objects(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    let id = |ty: VariantType| ctx.id(ty);
    let (arr, object) = (id(VariantType::Array), id(VariantType::Object));
    let (string, bool_id) = (id(VariantType::String), id(VariantType::Bool));
    let int = id(VariantType::Int);
    // A full Resource with the script at `path` (the script's own variables are not stored
    // properties in 4.x, so the engine's Resource has these three).
    let resource_with_script = |path: &[u8]| {
        let mut b = le(&[object]);
        field(&mut b, b"Resource");
        b.extend(le(&[3]));
        field(&mut b, b"resource_local_to_scene");
        b.extend(le(&[bool_id, 0]));
        field(&mut b, b"resource_name");
        b.extend(le(&[string]));
        field(&mut b, b"");
        field(&mut b, b"script");
        b.extend(le(&[string]));
        field(&mut b, path);
        b
    };
    let inputs = vec![
        // A full object with no class name is a null Object (re-encoded as one: a 0 word).
        ("full_null", le(&[object, 0])),
        // A class that is not RefCounted: the decoder holds it by pointer, not by reference.
        ("full_plain_object", {
            let mut b = le(&[object]);
            field(&mut b, b"Object");
            b.extend(le(&[0]));
            b
        }),
        ("typed_builtin_object", le(&[arr | 1 << 16, object, 0])),
        // A full object whose script is a res:// path in the engine's project: its stored
        // properties in the engine's order, so that the engine's object reads back as written.
        (
            "full_script_path",
            resource_with_script(b"res://fixtures/item.gd"),
        ),
        // Script paths that no project holds: another scheme, and `res://` alone.
        (
            "full_script_user_path",
            resource_with_script(b"user://item.gd"),
        ),
        ("full_script_res_only", resource_with_script(b"res://")),
        // A full object's property holding 1024 nested arrays around an int: the int is 1025
        // levels down, counting the object.
        ("property_nested_1025", {
            let mut b = le(&[object, 8]);
            b.extend(b"Resource");
            b.extend(le(&[1, 1]));
            b.extend(b"x\0\0\0");
            for _ in 0..1024 {
                b.extend(le(&[arr, 1]));
            }
            b.extend(le(&[int, 7]));
            b
        }),
        ("script_property_not_a_path", {
            let mut b = le(&[object, 8]);
            b.extend(b"Resource");
            b.extend(le(&[1, 6]));
            b.extend(b"script\0\0");
            b.extend(le(&[string, 3]));
            b.extend(b"abc\0");
            b
        }),
    ];
    with_objects(ctx, inputs);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every profile the codec knows draws its cases, each family taking only the types the
    /// version has: a new engine's corpus starts there (`corpus generate`).
    #[test]
    fn every_profile_draws_its_cases() {
        for &profile in gdmarshal::profile::all_profiles() {
            let cases = std::panic::catch_unwind(|| all_cases(profile).len())
                .unwrap_or_else(|_| panic!("{profile}: drawing its cases panicked"));
            assert!(cases > 1000, "{profile}: {cases} cases");
        }
    }

    /// Every family adds cases for at least one profile the corpus has (none is dead), and no two
    /// families share a label.
    #[test]
    fn every_family_adds_cases() {
        let profiles: Vec<Profile> = ["3.2", "3.6", "4.6", "4.6-double"]
            .iter()
            .map(|p| p.parse().expect("profile"))
            .collect();
        let mut labels = std::collections::HashSet::new();
        for family in INVALID_FAMILIES.iter().chain(KEY_FAMILIES) {
            assert!(labels.insert(family.name), "{} twice", family.name);
            let added = profiles.iter().any(|&profile| {
                let values = edge_values(profile);
                let mut out = Vec::new();
                (family.cases)(&mut Ctx {
                    profile,
                    values: &values,
                    out: &mut out,
                });
                !out.is_empty()
            });
            assert!(added, "family {} adds no case", family.name);
        }
    }
}
