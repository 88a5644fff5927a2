//! Random values from a byte source, for property tests, fuzzers and differential campaigns.
//!
//! [`canonical_value`] draws any value of any type a profile has, driven by [`TYPES`], with exact
//! float bits, and keeps to values that survive an encode/decode round trip unchanged: no null
//! objects (the engines write them as Nil), no NUL or leading byte-order mark in strings, no
//! duplicate dictionary keys, typed containers holding only their type.

use arbitrary::{Result, Unstructured};

use crate::profile::Profile;
use crate::types::{Element, Shape, TYPES, VariantType};
use crate::utf8::Utf8Rules;
use crate::value::{
    Array, ContainerType, Dictionary, NodePath, Object, Reals, Signal, Text, Variant,
};

/// How values are drawn.
#[derive(Clone, Copy, Debug)]
pub struct GenOptions {
    /// The version whose types and widths to use.
    pub profile: Profile,
    /// Whether objects are written in full (draws full objects instead of ids).
    pub full_objects: bool,
    /// Deepest container nesting to draw.
    pub max_depth: usize,
    /// Most elements in one container or packed array.
    pub max_len: usize,
}

impl GenOptions {
    /// Small values for a profile: nesting up to 4, up to 8 elements.
    pub fn new(profile: Profile) -> GenOptions {
        GenOptions {
            profile,
            full_objects: false,
            max_depth: 4,
            max_len: 8,
        }
    }
}

/// Draws a value that encodes and decodes back to itself under `o.profile`.
pub fn canonical_value(u: &mut Unstructured, o: &GenOptions) -> Result<Variant> {
    value(u, o, 0)
}

/// Draws a value of type `ty` (what it holds drawn as [`canonical_value`] draws it); `ty` must
/// be a type of `o.profile`.
pub fn canonical_value_of(
    u: &mut Unstructured,
    o: &GenOptions,
    ty: VariantType,
) -> Result<Variant> {
    of_type(u, o, ty, 0)
}

/// The types a profile has, in [`TYPES`] order: what [`canonical_value_of`] draws.
pub fn profile_types(profile: Profile) -> Vec<VariantType> {
    TYPES
        .iter()
        .map(|t| t.ty)
        .filter(|&t| profile.id_of(t).is_some())
        .collect()
}

fn types_of(o: &GenOptions, depth: usize) -> Vec<VariantType> {
    TYPES
        .iter()
        .map(|t| t.ty)
        .filter(|&t| o.profile.id_of(t).is_some())
        .filter(|&t| {
            depth < o.max_depth
                || !matches!(
                    t,
                    VariantType::Array | VariantType::Dictionary | VariantType::Object
                )
        })
        .collect()
}

fn value(u: &mut Unstructured, o: &GenOptions, depth: usize) -> Result<Variant> {
    let types = types_of(o, depth);
    let ty = *u.choose(&types)?;
    of_type(u, o, ty, depth)
}

fn len(u: &mut Unstructured, o: &GenOptions) -> Result<usize> {
    u.int_in_range(0..=o.max_len)
}

/// A string the engine reads back unchanged: no NUL (it ends the string) and no leading U+FEFF
/// (read as a byte-order mark and dropped).
fn string(u: &mut Unstructured, o: &GenOptions) -> Result<String> {
    let n = len(u, o)?;
    let mut s = String::new();
    for _ in 0..n {
        // Mostly ASCII, sometimes any scalar value, to cover every UTF-8 length and padding.
        let c = if u.ratio(3, 4)? {
            u.int_in_range(0x20u8..=0x7e)? as char
        } else {
            u.arbitrary::<char>()?
        };
        if c != '\0' && !(s.is_empty() && c == '\u{feff}') {
            s.push(c);
        }
    }
    Ok(s)
}

/// A string value: for 3.x sometimes code units that are not Unicode, which the 3.x engines read
/// and write back: units past U+10FFFF, and (where the writer keeps them: 3.0 to 3.3) surrogates,
/// alone or in pairs. 3.4+ writes surrogates as something else, so they would not read back.
fn text(u: &mut Unstructured, o: &GenOptions) -> Result<Text> {
    let rules = o.profile.utf8();
    if rules == Utf8Rules::Strict || !u.ratio(1, 8)? {
        return string(u, o).map(Text::from);
    }
    let surrogates = rules == Utf8Rules::Loose;
    let mut units = Vec::new();
    for _ in 0..len(u, o)?.max(1) {
        match u.int_in_range(0..=5)? {
            0 if surrogates => units.push(u.int_in_range(0xD800..=0xDFFF)?),
            1 if surrogates => units.extend([
                u.int_in_range(0xD800..=0xDBFF)?,
                u.int_in_range(0xDC00..=0xDFFF)?,
            ]),
            0..=2 => units.push(u.int_in_range(0x11_0000..=crate::string::MAX_UNIT)?),
            _ => units.push(u32::from(u.int_in_range(0x20u8..=0x7e)?)),
        }
    }
    Ok(Text::from_units(units))
}

fn real_bits32(u: &mut Unstructured) -> Result<f32> {
    // Half the time a "nice" value, otherwise raw bits (NaN payloads, subnormals, -0.0).
    Ok(if u.ratio(1, 2)? {
        u.int_in_range(-1000i32..=1000)? as f32 / 8.0
    } else {
        f32::from_bits(u.arbitrary()?)
    })
}

fn real_bits64(u: &mut Unstructured) -> Result<f64> {
    Ok(if u.ratio(1, 2)? {
        u.int_in_range(-1000i32..=1000)? as f64 / 8.0
    } else {
        f64::from_bits(u.arbitrary()?)
    })
}

fn reals(u: &mut Unstructured, o: &GenOptions, n: usize) -> Result<Reals> {
    if o.profile.double_reals {
        (0..n).map(|_| real_bits64(u)).collect()
    } else {
        (0..n).map(|_| real_bits32(u)).collect()
    }
}

fn of_type(u: &mut Unstructured, o: &GenOptions, ty: VariantType, depth: usize) -> Result<Variant> {
    let fields = ty.info().fields.len();
    Ok(match ty.shape() {
        Shape::Empty => Variant::Nil,
        Shape::Callable => Variant::Callable,
        Shape::Bool => Variant::Bool(u.arbitrary()?),
        Shape::Int => Variant::Int(if u.ratio(1, 2)? {
            u.int_in_range(-300i64..=300)?
        } else {
            u.arbitrary()?
        }),
        Shape::Float => Variant::Float(real_bits64(u)?),
        Shape::String if ty == VariantType::StringName => Variant::StringName(string(u, o)?.into()),
        Shape::String => Variant::String(text(u, o)?),
        Shape::Reals(n) => Variant::from_reals(ty, reals(u, o, n)?).expect("Reals shape"),
        Shape::Ints(n) => {
            Variant::from_ints(ty, (0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?)
                .expect("Ints shape")
        }
        Shape::Color => Variant::Color([
            real_bits32(u)?,
            real_bits32(u)?,
            real_bits32(u)?,
            real_bits32(u)?,
        ]),
        Shape::NodePath => {
            let names: Vec<Text> = (0..u.int_in_range(0..=3)?)
                .map(|_| text(u, o))
                .collect::<Result<_>>()?;
            let subnames: Vec<Text> = (0..u.int_in_range(0..=2)?)
                .map(|_| text(u, o))
                .collect::<Result<_>>()?;
            // In 3.x an empty path is never absolute (the engine's constructor keeps it empty).
            let empty3 = o.profile.major() == 3 && names.is_empty() && subnames.is_empty();
            let absolute = u.arbitrary::<bool>()? && !empty3;
            Variant::node_path(NodePath {
                names,
                subnames,
                absolute,
            })
        }
        // 3.x writes no RID payload: every RID reads back as 0.
        Shape::Rid if o.profile.major() == 3 => Variant::Rid(0),
        Shape::Rid => Variant::Rid(u.arbitrary()?),
        Shape::Object => Variant::object(object(u, o, depth)?),
        Shape::Signal => Variant::Signal(Box::new(Signal {
            name: string(u, o)?,
            object_id: u.arbitrary()?,
        })),
        Shape::Array => Variant::Array(array(u, o, depth)?),
        Shape::Dictionary => Variant::Dictionary(dictionary(u, o, depth)?),
        Shape::PackedStrings => {
            Variant::PackedStringArray((0..len(u, o)?).map(|_| text(u, o)).collect::<Result<_>>()?)
        }
        Shape::Packed(e) => {
            let n = len(u, o)?;
            match e {
                Element::U8 => {
                    Variant::PackedByteArray((0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?)
                }
                Element::I32 => {
                    Variant::PackedInt32Array((0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?)
                }
                Element::I64 => {
                    Variant::PackedInt64Array((0..n).map(|_| u.arbitrary()).collect::<Result<_>>()?)
                }
                Element::F32 => Variant::PackedFloat32Array(
                    (0..n).map(|_| real_bits32(u)).collect::<Result<_>>()?,
                ),
                Element::F64 => Variant::PackedFloat64Array(
                    (0..n).map(|_| real_bits64(u)).collect::<Result<_>>()?,
                ),
                Element::Color => Variant::PackedColorArray(
                    (0..n)
                        .map(|_| {
                            Ok([
                                real_bits32(u)?,
                                real_bits32(u)?,
                                real_bits32(u)?,
                                real_bits32(u)?,
                            ])
                        })
                        .collect::<Result<_>>()?,
                ),
                Element::Reals(_) => {
                    Variant::from_reals(ty, reals(u, o, n * fields)?).expect("packed vector")
                }
            }
        }
    })
}

fn object(u: &mut Unstructured, o: &GenOptions, depth: usize) -> Result<Object> {
    // No null objects: the engines write them as Nil, which reads back as Nil.
    if !o.full_objects {
        return Ok(Object::Id(u.int_in_range(1..=u64::MAX)?));
    }
    let class = format!("C{}", string(u, o)?);
    let n = u.int_in_range(0..=3)?;
    let properties = (0..n)
        .map(|_| Ok((string(u, o)?, value(u, o, depth + 1)?)))
        .collect::<Result<_>>()?;
    Ok(Object::Full { class, properties })
}

/// A built-in element type, or none, for a typed container.
fn container_type(u: &mut Unstructured, o: &GenOptions, allowed: bool) -> Result<ContainerType> {
    if !allowed || u.ratio(2, 3)? {
        return Ok(ContainerType::None);
    }
    // Nil-typed is untyped, and Object-typed containers carry class names: draw plain built-ins.
    let builtins: Vec<VariantType> = types_of(o, o.max_depth)
        .into_iter()
        .filter(|t| !matches!(t, VariantType::Nil | VariantType::Object))
        .collect();
    Ok(ContainerType::Builtin(*u.choose(&builtins)?))
}

fn element(
    u: &mut Unstructured,
    o: &GenOptions,
    t: &ContainerType,
    depth: usize,
) -> Result<Variant> {
    match t {
        ContainerType::Builtin(ty) => of_type(u, o, *ty, depth),
        _ => value(u, o, depth),
    }
}

fn array(u: &mut Unstructured, o: &GenOptions, depth: usize) -> Result<Array> {
    let element_type = container_type(u, o, o.profile.typed_arrays())?;
    let items = (0..len(u, o)?)
        .map(|_| element(u, o, &element_type, depth + 1))
        .collect::<Result<_>>()?;
    Ok(Array::typed(element_type, items))
}

fn dictionary(u: &mut Unstructured, o: &GenOptions, depth: usize) -> Result<Dictionary> {
    let typed = o.profile.typed_dictionaries();
    let key_type = container_type(u, o, typed)?;
    let value_type = container_type(u, o, typed)?;
    let mut entries: Vec<(Variant, Variant)> = Vec::new();
    let rules = crate::keys::KeyRules::of(o.profile);
    for _ in 0..len(u, o)? {
        let k = element(u, o, &key_type, depth + 1)?;
        // Equal keys collapse into one entry in the engine; keep the first. A key the engine
        // cannot look up is written as another value (`keys::unfindable`): it never reads back.
        if !crate::keys::unfindable(&k, rules)
            && entries
                .iter()
                .all(|(e, _)| !crate::keys::same_key(e, &k, rules))
        {
            let v = element(u, o, &value_type, depth + 1)?;
            entries.push((k, v));
        }
    }
    Ok(Dictionary::typed(key_type, value_type, entries))
}
