//! The typed-container conversions of 4.x (`gdmarshal::typed::CONVERSIONS`): an Array typed as
//! one type holding elements of another, which the engine converts as it reads them.

use gdmarshal::header::FLAG_OBJECT_AS_ID;
use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;
use gdmarshal::value::{
    Array, ContainerType, Dictionary, I32s, NodePath, Object, Reals, Text, Variant,
};

use super::{Ctx, le, s};

/// Every conversion a 4.x typed Array makes (`gdmarshal::typed::CONVERSIONS`): for each pair, an
/// Array of the target type holding values of the source type, drawn from a fixed seed with a
/// few chosen ones (fractions, negatives and values out of the target's range; colour names and
/// codes). Inputs the codec refuses as a conversion it does not reproduce are left out: the
/// corpus pins what the codec models (`corpus/known-differences.txt`, `unmodelled-conversion`).
pub(super) fn typed_conversions(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    let profile = ctx.profile;
    let options = gdmarshal::generate::GenOptions::new(ctx.profile);
    let mut inputs = Vec::new();
    for (to, froms) in gdmarshal::typed::CONVERSIONS {
        let Some(to_id) = ctx.profile.id_of(*to) else {
            continue;
        };
        for &from in froms.iter() {
            if ctx.profile.id_of(from).is_none()
                || matches!(from, VariantType::Nil | VariantType::Object)
            {
                continue;
            }
            // Drawn from bytes that depend on the pair alone, so the cases stay the same.
            let seed: Vec<u8> = (0..512u32)
                .map(|i| {
                    (i.wrapping_mul(2654435761) ^ (to_id << 8 | ctx.id(from)).wrapping_mul(40503))
                        as u8
                })
                .collect();
            let mut u = arbitrary::Unstructured::new(&seed);
            let mut values = chosen_to_convert(profile, from);
            values.extend((0..2).filter_map(|_| {
                gdmarshal::generate::canonical_value_of(&mut u, &options, from).ok()
            }));
            if let Some(input) = typed_array_as_recorded(ctx, *to, &values) {
                inputs.push((format!("{}_from_{}", to.name(), from.name()), input));
            }
        }
    }
    for (k, input) in inputs {
        ctx.decode(format!("decode/typed_conversions/{k}"), input, false);
    }
}

/// The conversions' rules at their edges, one case per rule and source: `String::to_int` around
/// `INT64_MAX` and its digit count (the 19th and 20th digit, leading zeros, signs, `.`), every
/// colour code form and its invalid neighbours, NodePath texts with empty names and subnames,
/// float-to-int casts at ±2^63, NaN and infinity, each type a packed array's operator takes or
/// gives zero for, quaternions holding NaN, object ids in an RID array, and nil where the type
/// is not Object (refused). Kept apart from [`typed_conversions`] so that its cases stay as
/// recorded.
pub(super) fn conversion_edges(ctx: &mut Ctx) {
    if !ctx.profile.typed_arrays() {
        return;
    }
    for (name, to, values) in edge_cases(ctx.profile) {
        if let Some(input) = typed_array_as_recorded(ctx, to, &values) {
            ctx.decode(format!("decode/typed_conversions/{name}"), input, false);
        }
    }
    null_objects(ctx);
    dropped_objects(ctx);
    nil_elements(ctx);
}

/// Colour codes of every form and their invalid neighbours, and names.
const COLOUR_FORMS: [&str; 16] = [
    "#f80",
    "F8A",
    "#f80a",
    "F80A",
    "#ff8800",
    "12345678",
    "#12345678",
    "#abcdef",
    "#12345",
    "#ff80zz",
    "ff8",
    "Dark Green",
    "dark-green",
    "",
    "0",
    "nope",
];

/// Colour codes with every digit other than 0, so that each one's place shows.
const COLOUR_DIGITS: [&str; 8] = [
    "#f8a",
    "#f8a5",
    "F8A5",
    "#ff8a5c",
    "#9abcdef1",
    "123",
    "1234",
    "123456",
];

/// NodePath texts with empty names and subnames.
const PATH_FORMS: [&str; 11] = [
    "a:b:", "a::b", "/", "", ":", ":x", "/a//b/:c", "a:b:c:", "//", "/:x", "a/",
];

/// Floats at the edges of the casts to int: ±2^63, NaN, infinities, fractions, ±2^31.
const EDGE_FLOATS: [f64; 12] = [
    9_223_372_036_854_775_808.0,
    -9_223_372_036_854_775_808.0,
    1e30,
    9.2e18,
    -9.2e18,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    0.999,
    2_147_483_648.0,
    -2_147_483_649.0,
];

/// Texts for `String::to_int` past its edges (leading zeros, signs, dots).
const INT_ODDITIES: [&str; 9] = [
    "00000000000000000000009",
    "000000000000000000000123456789",
    "5-3",
    "-0-5",
    "0-5",
    "--5",
    "1.5",
    "-",
    "",
];

/// The packed arrays whose operator is given each [`plain_elements`] alone, in this order.
const PLAIN_TARGETS: [VariantType; 9] = [
    VariantType::PackedByteArray,
    VariantType::PackedInt64Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedFloat64Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedVector4Array,
    VariantType::PackedColorArray,
];

fn texts(t: &[&str]) -> Vec<Variant> {
    t.iter().map(|t| Variant::String((*t).into())).collect()
}

fn path(names: &[&str], subnames: &[&str], absolute: bool) -> Variant {
    let texts = |t: &[&str]| t.iter().map(|&t| Text::from(t)).collect();
    Variant::node_path(NodePath {
        names: texts(names),
        subnames: texts(subnames),
        absolute,
    })
}

/// `INT64_MAX / 10` then each digit around its last, with either sign, after leading zeros that
/// put the last digit past the 19th or past the digit count's wrap at 256; powers of ten and
/// nines around the 19th digit; then [`INT_ODDITIES`].
fn int_texts() -> Vec<Variant> {
    let mut int_texts: Vec<String> = Vec::new();
    for sign in ["", "-"] {
        for zeros in [0, 1, 236, 237] {
            for last in ['7', '8', '9'] {
                for tail in ["", "5"] {
                    int_texts.push(format!(
                        "{sign}{}922337203685477580{last}{tail}",
                        "0".repeat(zeros)
                    ));
                }
            }
        }
        for n in 18..=20 {
            int_texts.push(format!("{sign}1{}", "0".repeat(n)));
            int_texts.push(format!("{sign}{}", "9".repeat(n)));
        }
    }
    int_texts.extend(INT_ODDITIES.map(String::from));
    int_texts
        .iter()
        .map(|t| Variant::String(t.as_str().into()))
        .collect()
}

/// One kind of element a packed array's operator meets.
fn plain_elements() -> Vec<Variant> {
    vec![
        Variant::Nil,
        Variant::Bool(true),
        Variant::Bool(false),
        Variant::Int(-3),
        Variant::Int(0x1_2345_6789),
        Variant::Float(2.75),
        Variant::String("s".into()),
        Variant::StringName("sn".into()),
        path(&["a", "b"], &["c"], true),
        path(&["a"], &[], false),
        Variant::Callable,
        Variant::Object(Box::new(Object::Null)),
        Variant::Color([0.25, 0.5, 0.75, 1.0]),
        Variant::Vector2i([3, -4].into_iter().collect()),
        Variant::Vector3i([3, -4, 5].into_iter().collect()),
        Variant::Vector4i([3, -4, 5, -6].into_iter().collect()),
    ]
}

/// Quaternions holding a quiet NaN, and a signalling and a quiet NaN with payloads, at the
/// profile's width.
fn nan_quaternions(profile: Profile) -> Vec<Variant> {
    if profile.double_reals() {
        let (s, q) = (
            f64::from_bits(0x7FF0_0000_0000_0001),
            f64::from_bits(0x7FF8_0000_0000_0001),
        );
        vec![
            Variant::Quaternion(Reals::from(vec![f64::NAN, 0.0, 0.0, 1.0])),
            Variant::Quaternion(Reals::from(vec![s, q, 0.0, 1.0])),
        ]
    } else {
        let (s, q) = (f32::from_bits(0x7F80_0001), f32::from_bits(0x7FC0_0001));
        vec![
            Variant::Quaternion(Reals::from(vec![f32::NAN, 0.0, 0.0, 1.0])),
            Variant::Quaternion(Reals::from(vec![s, q, 0.0, 1.0])),
        ]
    }
}

/// The edge cases as (name, target type, the typed Array's elements).
fn edge_cases(profile: Profile) -> Vec<(String, VariantType, Vec<Variant>)> {
    use VariantType as T;
    let floats: Vec<Variant> = EDGE_FLOATS.into_iter().map(Variant::Float).collect();
    let (ints, colours) = (int_texts(), texts(&COLOUR_FORMS));
    // Each kind of element alone in an Array of its own, so that an element the codec does not
    // model (a float as text, say) leaves the others in.
    let alone = |items: &[Variant]| -> Vec<Variant> {
        items
            .iter()
            .map(|v| Variant::Array(Array::new(vec![v.clone()])))
            .collect()
    };
    let all = |items: &[Variant]| vec![Variant::Array(Array::new(items.to_vec()))];
    let mut cases: Vec<(String, T, Vec<Variant>)> = vec![
        (s("int_from_float_bounds"), T::Int, floats.clone()),
        (s("Color_from_String_forms"), T::Color, colours.clone()),
        (
            s("Color_from_String_digits"),
            T::Color,
            texts(&COLOUR_DIGITS),
        ),
        (
            s("NodePath_from_String_forms"),
            T::NodePath,
            texts(&PATH_FORMS),
        ),
    ];
    for (to, what, items) in [
        (T::PackedInt64Array, "texts", &ints),
        (T::PackedInt32Array, "texts", &ints),
        (T::PackedInt64Array, "floats", &floats),
        (T::PackedInt32Array, "floats", &floats),
        (T::PackedColorArray, "texts", &colours),
    ] {
        cases.push((format!("{}_from_Array_{what}", to.name()), to, all(items)));
    }
    let plain = plain_elements();
    for to in PLAIN_TARGETS {
        cases.push((format!("{}_from_Array_plain", to.name()), to, alone(&plain)));
    }
    let nan = nan_quaternions(profile);
    cases.extend([
        (s("Basis_from_Quaternion_nan"), T::Basis, nan.clone()),
        (s("Transform3D_from_Quaternion_nan"), T::Transform3D, nan),
        (
            s("RID_from_Object"),
            T::Rid,
            vec![
                Variant::Object(Box::new(Object::Null)),
                Variant::Object(Box::new(Object::Id(5))),
            ],
        ),
        (
            s("Transform2D_from_Transform3D_fractions"),
            T::Transform2D,
            Variant::from_reals(
                T::Transform3D,
                reals_of(
                    profile,
                    &[
                        0.1, -2.5, 1e-7, 3.5, 1e20, -0.0, 7.0, 8.0, 9.0, 10.5, -11.5, 12.25,
                    ],
                ),
            )
            .into_iter()
            .collect(),
        ),
    ]);
    cases
}

/// A null object as the wire has it (an id of 0; the encoder writes a null object as nil),
/// inside an Array that becomes a PackedStringArray, and alone in an RID array.
fn null_objects(ctx: &mut Ctx) {
    use VariantType as T;
    let (array, object) = (ctx.id(T::Array), ctx.id(T::Object) | FLAG_OBJECT_AS_ID);
    let null = le(&[object, 0, 0]);
    let (strings, rid) = (ctx.id(T::PackedStringArray), ctx.id(T::Rid));
    let typed =
        |to: u32, element: &[u8]| [le(&[array | 1 << 16, to, 1]), element.to_vec()].concat();
    ctx.decode(
        s("decode/typed_conversions/PackedStringArray_from_Array_null_object"),
        typed(strings, &[le(&[array, 1]), null.clone()].concat()),
        false,
    );
    ctx.decode(
        s("decode/typed_conversions/RID_from_null_object"),
        typed(rid, &null),
        false,
    );
}

/// A full object in a typed container that drops it (no conversion to the element or key type):
/// the engine instantiates it first, so a class it lacks fails the whole input, and one it has
/// leaves nothing behind.
fn dropped_objects(ctx: &mut Ctx) {
    use VariantType as T;
    let full = |class: &str| {
        Variant::object(Object::Full {
            class: class.into(),
            properties: vec![],
        })
    };
    let with_full = gdmarshal::EncodeOptions::new().full_objects(true);
    for (class, what) in [("Resource", "resource"), ("NoSuchClass", "unknown_class")] {
        let colours = ContainerType::Builtin(T::PackedColorArray);
        let array = Variant::Array(Array::typed(colours, vec![full(class)]));
        let mut dropped = vec![(format!("in_typed_array_{what}"), array)];
        if ctx.profile.typed_dictionaries() {
            let ints = ContainerType::Builtin(T::Int);
            let entries = vec![
                (full(class), Variant::Int(1)),
                (Variant::Int(2), full(class)),
            ];
            let d = Dictionary::typed(ints, ContainerType::None, entries);
            dropped.push((
                format!("key_of_typed_dictionary_{what}"),
                Variant::Dictionary(d),
            ));
        }
        for (name, v) in dropped {
            if let Ok(b) = gdmarshal::encode(&v, ctx.profile, with_full) {
                ctx.decode(format!("decode/objects/dropped_{name}"), b, true);
            }
        }
    }
}

/// Nil is no type's element but Object's: the engine refuses the Array (the codec must not keep
/// the nil).
fn nil_elements(ctx: &mut Ctx) {
    use VariantType as T;
    let nil = ctx.id(T::Nil);
    for to in [T::Int, T::Vector2, T::String, T::Array] {
        let input = [le(&[ctx.id(T::Array) | 1 << 16, ctx.id(to), 1]), le(&[nil])].concat();
        ctx.decode(
            format!("decode/typed_conversions/{}_from_Nil", to.name()),
            input,
            false,
        );
    }
}

/// Values of type `from` chosen for what conversions do with them: fractions, negatives, values
/// out of a narrower type's range, a rotation and a quaternion of another length, colour codes
/// and names, digits with signs and text after them, and Arrays mixing all of these.
fn chosen_to_convert(profile: Profile, from: VariantType) -> Vec<Variant> {
    use VariantType as T;
    let text = |t: &[&str]| t.iter().map(|t| Variant::String((*t).into())).collect();
    let reals = |v: &[f64]| reals_of(profile, v);
    let components = match from {
        T::Vector2 => 2,
        T::Vector3 => 3,
        T::Rect2 | T::Vector4 => 4,
        T::Transform2D => 6,
        T::Basis => 9,
        T::Transform3D => 12,
        T::Projection => 16,
        _ => 0,
    };
    match from {
        T::Float => vec![
            Variant::Float(2.75),
            Variant::Float(-1e30),
            Variant::Float(-0.5),
        ],
        T::Int => vec![
            Variant::Int(-3),
            Variant::Int(i64::MAX),
            Variant::Int(0x11223344),
        ],
        T::Bool => vec![Variant::Bool(true), Variant::Bool(false)],
        T::String => text(&[
            "#ff000080",
            "dark_green",
            "12",
            "0-5",
            "--5",
            " 42abc",
            "a/b:c",
        ]),
        T::Quaternion => [[0.5, 0.5, 0.5, 0.5], [1.0, 2.0, 3.0, 4.0], [0.0; 4]]
            .iter()
            .map(|q| Variant::Quaternion(reals(q)))
            .collect(),
        T::Vector2i | T::Rect2i | T::Vector3i | T::Vector4i => {
            let n = if from == T::Vector2i {
                2
            } else if from == T::Vector3i {
                3
            } else {
                4
            };
            let v: I32s = [3, -4, i32::MAX, i32::MIN][..n].iter().copied().collect();
            Variant::from_ints(from, v).into_iter().collect()
        }
        T::Array => {
            let mixed = vec![
                Variant::Bool(true),
                Variant::Int(-3),
                Variant::Float(2.75),
                Variant::Float(-1e30),
                Variant::String("12".into()),
                Variant::String("#ff000080".into()),
                Variant::Int(0x11223344),
                Variant::Nil,
                Variant::Vector2(reals(&[1.5, -2.5])),
                Variant::Vector3(reals(&[1.5, -2.5, 3.25])),
                Variant::Color([0.25, 0.5, 0.75, 1.0]),
            ];
            vec![Variant::Array(Array::new(mixed))]
        }
        _ if components > 0 => {
            let v: Vec<f64> = (0..components).map(|i| i as f64 * 1.5 - 2.25).collect();
            Variant::from_reals(from, reals(&v)).into_iter().collect()
        }
        _ => vec![],
    }
}

/// [`typed_array`] of the families recorded before the codec modelled the text of numbers and
/// `String::to_float`: Arrays holding what it did not model then are left out as they were, so
/// that these cases stay as recorded (elements whose text needs the engine's number formatting in
/// a PackedStringArray, pinned by `decode/stringify/*`; strings in a packed float array, pinned by
/// `*_from_Array_float_texts`).
fn typed_array_as_recorded(ctx: &Ctx, to: VariantType, values: &[Variant]) -> Option<Vec<u8>> {
    let as_recorded = |v: &&Variant| {
        let Variant::Array(a) = v else { return true };
        a.items().iter().all(|item| match to {
            VariantType::PackedStringArray => {
                matches!(
                    item,
                    Variant::Nil
                        | Variant::Bool(_)
                        | Variant::Int(_)
                        | Variant::String(_)
                        | Variant::StringName(_)
                        | Variant::NodePath(_)
                        | Variant::Callable
                ) || matches!(item.as_object(), Some(Object::Null))
            }
            VariantType::PackedFloat32Array | VariantType::PackedFloat64Array => {
                !matches!(item, Variant::String(_))
            }
            _ => true,
        })
    };
    let kept: Vec<Variant> = values.iter().filter(as_recorded).cloned().collect();
    typed_array(ctx, to, &kept)
}

/// An Array typed as `to` holding those of `values` that the codec decodes in it on their own
/// (the others would be refused as conversions it does not model), or none if none is left.
pub(super) fn typed_array(ctx: &Ctx, to: VariantType, values: &[Variant]) -> Option<Vec<u8>> {
    let (arr, to_id) = (ctx.id(VariantType::Array), ctx.profile.id_of(to)?);
    let decodes =
        |b: &[u8]| gdmarshal::decode(b, ctx.profile, gdmarshal::DecodeOptions::default()).is_ok();
    let mut input = le(&[arr | 1 << 16, to_id, 0]);
    let mut n = 0u32;
    for v in values {
        let Some(b) = ctx.canonical(v) else { continue };
        let one = [le(&[arr | 1 << 16, to_id, 1]), b.clone()].concat();
        if decodes(&one) {
            input.extend(b);
            n += 1;
        }
    }
    input[8..12].copy_from_slice(&n.to_le_bytes());
    (n > 0).then_some(input)
}

/// Components of the profile's width.
pub(super) fn reals_of(profile: Profile, v: &[f64]) -> Reals {
    if profile.double_reals() {
        Reals::from(v.to_vec())
    } else {
        Reals::from(v.iter().map(|&x| x as f32).collect::<Vec<_>>())
    }
}
