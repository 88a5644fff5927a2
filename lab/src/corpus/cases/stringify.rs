//! The text 4.x makes of a value (`Variant::stringify`, `gdmarshal`'s `stringify` module): an
//! Array typed as PackedStringArray converts each element of an Array it is given to its text,
//! and a String property's setter takes the text of a value of another type (a bool property,
//! whether the value is its type's zero).

use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;
use gdmarshal::value::{Array, Dictionary, NodePath, Object, Signal, Variant};

use super::conversions::reals_of;
use super::{Ctx, le, s};

/// Doubles: the ends of each decimals range, ties, and the extremes; [`floats`] adds values
/// drawn from bit patterns and from every magnitude.
const FLOATS: [f64; 21] = [
    0.1,
    1.0 / 3.0,
    -0.0,
    1e14 + 0.5,
    123_456_789_012_345.6,
    1e15 + 0.5,
    999_999_999_999_999.5,
    99.999_999_999_999_99,
    9.999_999_999_999_999,
    10.000_000_000_000_002,
    0.000_000_000_000_025,
    0.000_030_517_578_125,
    5e-15,
    -1e-20,
    5e-324,
    9.223_372_036_854_776e18,
    -9.223_372_036_854_776e18,
    1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// Components: the same at the profile's width (six decimals in single precision); [`components`]
/// adds drawn ones.
const COMPONENTS: [f64; 15] = [
    0.1,
    1.0 / 3.0,
    12.345_678,
    123.031_25,
    1_234_567.9,
    5_000_000.5,
    5_000_001.5,
    12_345_678.9,
    99.999_999,
    -1e-7,
    0.000_001_5,
    0.000_000_5,
    3.4e38,
    f64::NAN,
    -0.0,
];

/// Inside a container a string is quoted with C escapes: every character the escapes know, and
/// some they leave alone.
const ESCAPES: [&str; 6] = [
    "q\"uote",
    "it's",
    "back\\slash",
    "\u{7}\u{8}\u{c}\n\r\t\u{b}",
    "\u{1}\u{1b}\u{7f}",
    "é✓😀\u{a0}",
];

/// Arrays and Dictionaries nested around the recursion limit: levels, whether Dictionaries, name.
const NESTED: [(usize, bool, &str); 4] = [
    (101, false, "arrays_101"),
    (102, false, "arrays_102"),
    (101, true, "dictionaries_101"),
    (102, true, "dictionaries_102"),
];

/// `decode/stringify/*`: numbers at every width and magnitude, a value of every type, strings
/// with every escape, nesting at the recursion limit; and `decode/objects/stored_text_*`: a
/// Resource's `resource_name` and `resource_local_to_scene` given values of other types.
pub(super) fn stringify(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    let profile = ctx.profile;
    let mut bits = splitmix(0x5eed_5719);
    // Drawn in this order (floats, then components), so that the cases stay the same.
    let floats = floats(&mut bits);
    let components = components(&mut bits);
    let mut cases: Vec<(String, Vec<Variant>)> = vec![
        (s("floats"), floats),
        (s("vectors"), vectors(profile, &components)),
        (s("quaternions_planes_colours"), fours(profile, &components)),
        (s("each_type"), each_type(profile)),
        (s("escapes"), escaped()),
    ];
    for (levels, dictionary, name) in NESTED {
        cases.push((s(name), vec![nested(levels, dictionary)]));
    }
    // Keys count too: Dictionaries nested as keys, past the limit.
    let mut key = Variant::Int(1);
    for _ in 0..102 {
        key = Variant::Dictionary(Dictionary::new(vec![(key, Variant::Int(0))]));
    }
    cases.push((s("dictionary_keys_102"), vec![key]));
    let strings = ctx.id(VariantType::PackedStringArray);
    let arr = ctx.id(VariantType::Array);
    for (name, items) in cases {
        let element = ctx.canonical(&array(items)).expect("encodable");
        let input = [le(&[arr | 1 << 16, strings, 1]), element].concat();
        ctx.decode(format!("decode/stringify/{name}"), input, false);
    }
    stored_text(ctx);
}

fn array(items: Vec<Variant>) -> Variant {
    Variant::Array(Array::new(items))
}

fn text(t: &str) -> Variant {
    Variant::String(t.into())
}

fn path(names: &[&str], subnames: &[&str], absolute: bool) -> Variant {
    Variant::node_path(NodePath {
        names: names.iter().map(|n| (*n).into()).collect(),
        subnames: subnames.iter().map(|n| (*n).into()).collect(),
        absolute,
    })
}

/// [`FLOATS`] and 120 drawn: every third from a bit pattern, the others from every magnitude.
fn floats(bits: &mut impl FnMut() -> u64) -> Vec<Variant> {
    let mut floats = FLOATS.to_vec();
    for k in 0..120 {
        let r = bits();
        floats.push(if k % 3 == 0 {
            f64::from_bits(r)
        } else {
            let unit = (r >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            unit * 10f64.powi((r % 40) as i32 - 20)
        });
    }
    floats.into_iter().map(Variant::Float).collect()
}

/// [`COMPONENTS`] and 60 drawn from every magnitude.
fn components(bits: &mut impl FnMut() -> u64) -> Vec<f64> {
    let mut components = COMPONENTS.to_vec();
    for _ in 0..60 {
        let r = bits();
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        components.push(unit * 10f64.powi((r % 20) as i32 - 10));
    }
    components
}

/// The components two at a time, as Vector2s.
fn vectors(profile: Profile, components: &[f64]) -> Vec<Variant> {
    components
        .chunks(2)
        .map(|c| Variant::Vector2(reals_of(profile, &[c[0], *c.get(1).unwrap_or(&0.0)])))
        .collect()
}

/// The components four at a time, as a Quaternion, a Plane and a Color each.
fn fours(profile: Profile, components: &[f64]) -> Vec<Variant> {
    components
        .chunks_exact(4)
        .flat_map(|c| {
            let c = [c[0], c[1], c[2], c[3]];
            [
                Variant::Quaternion(reals_of(profile, &c)),
                Variant::Plane(reals_of(profile, &c)),
                Variant::Color(c.map(|x| x as f32)),
            ]
        })
        .collect()
}

/// A value of every type.
fn each_type(profile: Profile) -> Vec<Variant> {
    use VariantType as T;
    let of =
        |ty: VariantType, v: &[f64]| Variant::from_reals(ty, reals_of(profile, v)).expect("size");
    let count = |n: usize| (0..n).map(|i| i as f64 * 1.25 - 2.5).collect::<Vec<_>>();
    let reals = |v: &[f64]| reals_of(profile, v);
    vec![
        Variant::Nil,
        Variant::Bool(true),
        Variant::Int(i64::MIN),
        Variant::Float(2.5),
        text("top \"level\"\n"),
        of(T::Vector2, &count(2)),
        Variant::Vector2i([1, -2].into_iter().collect()),
        of(T::Rect2, &count(4)),
        Variant::Rect2i([1, 2, 3, i32::MIN].into_iter().collect()),
        of(T::Vector3, &count(3)),
        Variant::Vector3i([1, 2, 3].into_iter().collect()),
        of(T::Transform2D, &count(6)),
        of(T::Vector4, &count(4)),
        Variant::Vector4i([1, 2, 3, 4].into_iter().collect()),
        of(T::Plane, &count(4)),
        of(T::Quaternion, &count(4)),
        of(T::Aabb, &count(6)),
        of(T::Basis, &count(9)),
        of(T::Transform3D, &count(12)),
        of(T::Projection, &count(16)),
        Variant::Color([0.25, -0.0, 1.0, 0.03125]),
        Variant::StringName("name".into()),
        path(&["a", "b"], &["c", "d"], true),
        Variant::Rid(u64::MAX),
        Variant::object(Object::Null),
        Variant::Callable,
        Variant::Signal(Box::new(Signal {
            name: s("changed"),
            object_id: 0x7fff_0000_0000_0001,
        })),
        Variant::Dictionary(Dictionary::new(vec![])),
        Variant::Dictionary(Dictionary::new(vec![
            (text("b"), Variant::Int(1)),
            (Variant::StringName("k".into()), path(&["p"], &[], false)),
            (
                of(T::Vector2, &[1.0, 2.0]),
                array(vec![Variant::Float(0.1)]),
            ),
            (Variant::Nil, array(vec![])),
        ])),
        array(vec![array(vec![Variant::Int(3)]), text("s")]),
        Variant::PackedByteArray(vec![0, 255]),
        Variant::PackedInt32Array(vec![-1, i32::MAX]),
        Variant::PackedInt64Array(vec![i64::MIN, 5]),
        Variant::PackedFloat32Array(vec![0.1, 1.0, f32::NAN, 123.456, 1e20]),
        Variant::PackedFloat64Array(vec![0.1, -0.0, f64::NEG_INFINITY, 5e-324]),
        Variant::PackedStringArray(vec!["a".into(), "b\"c".into(), "\n".into(), "".into()]),
        Variant::PackedVector2Array(reals(&[0.1, 2.0, -1e-7, 1.5])),
        Variant::PackedVector3Array(reals(&[1.0, 2.0, 3.25])),
        Variant::PackedColorArray(vec![[0.5, 0.25, 0.125, 0.0625]]),
        Variant::PackedVector4Array(reals(&[1.0, 2.0, 3.0, 0.1])),
    ]
}

/// [`ESCAPES`] as Strings, as StringNames, in a NodePath and as a Dictionary's keys and values.
fn escaped() -> Vec<Variant> {
    let escapes: Vec<Variant> = ESCAPES.into_iter().map(text).collect();
    vec![
        array(escapes.clone()),
        array(
            ESCAPES
                .into_iter()
                .map(|t| Variant::StringName(t.into()))
                .collect(),
        ),
        array(vec![path(&["a\"b", "c\\d"], &["e'f"], false)]),
        Variant::Dictionary(Dictionary::new(
            escapes.iter().map(|k| (k.clone(), k.clone())).collect(),
        )),
    ]
}

/// `levels` Arrays (or Dictionaries under the key "s") around the int 1: the typed array's one
/// element.
fn nested(levels: usize, dictionary: bool) -> Variant {
    let mut v = Variant::Int(1);
    for _ in 0..levels {
        v = if dictionary {
            Variant::Dictionary(Dictionary::new(vec![(text("s"), v)]))
        } else {
            array(vec![v])
        };
    }
    v
}

/// A Resource's String property given a value of each type that has a text of its own, and its
/// bool property given values at and beside their type's zero.
fn stored_text(ctx: &mut Ctx) {
    use VariantType as T;
    let profile = ctx.profile;
    let of = |ty: VariantType, v: &[f64]| Variant::from_reals(ty, reals_of(profile, v));
    let identity3 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let named = [
        ("color", Some(Variant::Color([1.0, 0.502, 0.0, 1.0]))),
        ("quaternion", of(T::Quaternion, &[0.0, 0.0, 0.0, 1.0])),
        ("plane", of(T::Plane, &[0.0, 1.0, 0.0, 0.5])),
        ("basis", of(T::Basis, &identity3)),
        (
            "dictionary",
            Some(Variant::Dictionary(Dictionary::new(vec![(
                Variant::String("k".into()),
                Variant::Float(0.1),
            )]))),
        ),
        (
            "packed_float32",
            Some(Variant::PackedFloat32Array(vec![0.1, 1e20])),
        ),
        ("nan", Some(Variant::Float(f64::NAN))),
    ];
    let local = [
        ("color_black", Some(Variant::Color([0.0, 0.0, 0.0, 1.0]))),
        ("color_clear", Some(Variant::Color([0.0; 4]))),
        (
            "quaternion_identity",
            of(T::Quaternion, &[0.0, 0.0, 0.0, 1.0]),
        ),
        ("quaternion_zero", of(T::Quaternion, &[0.0; 4])),
        ("basis_identity", of(T::Basis, &identity3)),
        ("transform2d_zero", of(T::Transform2D, &[0.0; 6])),
        ("vector2_negative_zero", of(T::Vector2, &[-0.0, 0.0])),
        ("nan", Some(Variant::Float(f64::NAN))),
        ("empty_array", Some(Variant::Array(Array::new(vec![])))),
        (
            "signal_of_an_id",
            Some(Variant::Signal(Box::new(Signal {
                name: String::new(),
                object_id: 1 << 40,
            }))),
        ),
        (
            "signal_named",
            Some(Variant::Signal(Box::new(Signal {
                name: s("changed"),
                object_id: 0,
            }))),
        ),
        ("rid", Some(Variant::Rid(5))),
        (
            "empty_packed_strings",
            Some(Variant::PackedStringArray(vec![])),
        ),
        (
            "empty_node_path",
            Some(Variant::node_path(NodePath {
                names: vec![],
                subnames: vec![],
                absolute: false,
            })),
        ),
    ];
    let cases = named
        .into_iter()
        .map(|(k, v)| (format!("name_from_{k}"), "resource_name", v))
        .chain(
            local
                .into_iter()
                .map(|(k, v)| (format!("local_from_{k}"), "resource_local_to_scene", v)),
        );
    let options = gdmarshal::EncodeOptions::new().full_objects(true);
    for (name, property, value) in cases {
        let resource = Variant::object(Object::Full {
            class: s("Resource"),
            properties: vec![(s(property), value.expect("size"))],
        });
        let input = gdmarshal::encode(&resource, profile, options).expect("encodable");
        ctx.decode(format!("decode/objects/stored_text_{name}"), input, true);
    }
}

/// Deterministic 64-bit values (rand_xoshiro's SplitMix64 from `state`), so that the cases
/// stay the same.
pub(super) fn splitmix(state: u64) -> impl FnMut() -> u64 {
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::SplitMix64::seed_from_u64(state);
    move || rng.next_u64()
}
