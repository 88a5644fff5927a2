//! A JavaScript value as a [`Variant`] to encode, with the path of whatever has no Godot form.

use gdmarshal::float::narrow;
use gdmarshal::types::{Shape, TYPES, VariantType};
use gdmarshal::value::{
    Array, ContainerType, Dictionary, I32s, NodePath, Object, Reals, Signal, Text,
};
use gdmarshal::{EncodeError, Profile, Variant};
use js_sys::{
    BigInt64Array, Float32Array, Float64Array, Int32Array, JsString, Reflect, Uint8Array,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The helpers of `values.js` that read values.
#[wasm_bindgen(raw_module = "./values.js")]
extern "C" {
    #[wasm_bindgen(js_name = kindOf)]
    fn kind_of(v: &JsValue) -> u32;
    #[wasm_bindgen(js_name = mathComponents)]
    fn math_components(v: &JsValue, out: &mut [f64]);
    #[wasm_bindgen(js_name = entriesOf)]
    fn entries_of(v: &JsValue) -> js_sys::Array;
    fn describe(v: &JsValue) -> String;
    #[wasm_bindgen(js_name = isWellFormedString)]
    fn is_well_formed_string(s: &JsString) -> bool;
    #[wasm_bindgen(js_name = makeEncodeError)]
    fn make_encode_error(message: &str, path: &str) -> JsValue;
    // A number or a BigInt that `kindOf` said is one, handed over as a plain f64 or i64: the
    // glue's `as_f64` and `TryFrom` return theirs through memory, at several times the cost.
    #[wasm_bindgen(js_name = numberOf)]
    fn number_of(v: &JsValue) -> f64;
    #[wasm_bindgen(js_name = int64Of)]
    fn int64_of(v: &JsValue) -> i64;
}

/// What `kindOf` says a value is (values.js states the same numbers).
mod kind {
    pub const NULL: u32 = 0;
    pub const BOOLEAN: u32 = 1;
    /// A BigInt in the 64-bit range of Godot's int.
    pub const BIGINT: u32 = 2;
    pub const NUMBER: u32 = 3;
    pub const STRING: u32 = 4;
    pub const ARRAY: u32 = 5;
    pub const PLAIN_OBJECT: u32 = 6;
    /// A BigInt outside that range.
    pub const BIGINT_OUT_OF_RANGE: u32 = 7;
    pub const STRING_NAME: u32 = 20;
    pub const CODE_UNITS: u32 = 21;
    pub const NODE_PATH: u32 = 22;
    pub const RID: u32 = 23;
    pub const OBJECT: u32 = 24;
    pub const OBJECT_ID: u32 = 25;
    pub const NULL_OBJECT: u32 = 26;
    pub const CALLABLE: u32 = 27;
    pub const SIGNAL: u32 = 28;
    pub const TYPED_ARRAY: u32 = 29;
    pub const DICTIONARY: u32 = 30;
    pub const PACKED_STRINGS: u32 = 31;
    pub const PACKED_VECTOR2: u32 = 32;
    pub const PACKED_VECTOR3: u32 = 33;
    pub const PACKED_VECTOR4: u32 = 34;
    pub const PACKED_COLORS: u32 = 35;
    pub const FLOAT_BITS: u32 = 36;
    pub const UINT8: u32 = 40;
    pub const INT32: u32 = 41;
    pub const BIGINT64: u32 = 42;
    pub const FLOAT32: u32 = 43;
    pub const FLOAT64: u32 = 44;
    pub const MAP: u32 = 50;
    pub const MATH: u32 = 100;
    pub const UNDEFINED: u32 = 254;
}

/// Why a value cannot be encoded, and where: the codec's own error, whose path follows `$`
/// (`[3]`, `{key 0}`, `.name`), so that these read as the codec's encode errors do.
struct Bad(EncodeError);

impl Bad {
    fn new(message: impl Into<String>) -> Bad {
        Bad(EncodeError::unsupported(message))
    }

    fn within(self, segment: impl std::fmt::Display) -> Bad {
        Bad(self.0.within(segment))
    }
}

type R<T> = Result<T, Bad>;

/// The value of `v` for `profile`, or an `EncodeError` with the path of what has no Godot form.
pub fn value(v: &JsValue, profile: Profile) -> Result<Variant, JsValue> {
    In { profile }
        .at(v, 0)
        .map_err(|Bad(e)| make_encode_error(&e.kind.to_string(), &e.path))
}

struct In {
    profile: Profile,
}

/// A property of one of the package's objects.
fn get(v: &JsValue, name: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// An unsigned 64-bit number given as a BigInt (or a safe integer).
fn u64_of(v: &JsValue, what: &str) -> R<u64> {
    if let Ok(x) = u64::try_from(v.clone()) {
        return Ok(x);
    }
    match v.as_f64() {
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 9_007_199_254_740_992.0 => Ok(x as u64),
        _ => Err(Bad::new(format!(
            "{what} must be a BigInt from 0n to 2n ** 64n - 1n"
        ))),
    }
}

/// The f64 bits of a `FloatBits` (an f32's widened as [`gdmarshal::float::widen`] does).
fn float_bits(v: &JsValue) -> R<u64> {
    let bits = u64::try_from(get(v, "bits"))
        .map_err(|_| Bad::new("a FloatBits's bits are a BigInt from 0n to 2n ** 64n - 1n"))?;
    match get(v, "width").as_f64() {
        Some(64.0) => Ok(bits),
        Some(32.0) => match u32::try_from(bits) {
            Ok(b) => Ok(gdmarshal::float::widen(f32::from_bits(b)).to_bits()),
            Err(_) => Err(Bad::new("a 32-bit FloatBits's bits fit in 32 bits")),
        },
        _ => Err(Bad::new("a FloatBits's width is 32 or 64")),
    }
}

/// A string; one with lone surrogates (which JavaScript strings may hold) as its code units.
/// Whether it has any is asked of JavaScript in one call (`JsString::is_valid_utf16` would cross
/// the boundary once per code unit).
fn text(v: &JsValue) -> R<Text> {
    let s: &JsString = v.unchecked_ref();
    if is_well_formed_string(s) {
        return Ok(Text::from(String::from(s)));
    }
    let units: Vec<u16> = s.iter().collect();
    Ok(Text::from_units(char::decode_utf16(units).map(|c| {
        c.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from)
    })))
}

impl In {
    fn at(&self, v: &JsValue, depth: usize) -> R<Variant> {
        // One level past the engines' limit, so that the codec refuses a value nested just too
        // deep as the engine does; an array that holds itself stops here too.
        if depth > self.profile.max_depth() + 1 {
            return Err(Bad::new(format!(
                "nesting deeper than {} levels (a container that holds itself?)",
                self.profile.max_depth() + 1
            )));
        }
        let k = kind_of(v);
        Ok(match k {
            kind::NULL => Variant::Nil,
            kind::BOOLEAN => Variant::Bool(v.as_bool().unwrap_or(false)),
            kind::BIGINT => Variant::Int(int64_of(v)),
            kind::BIGINT_OUT_OF_RANGE => {
                return Err(Bad::new(
                    "the BigInt is outside the 64-bit range of Godot's int",
                ));
            }
            kind::NUMBER => Variant::Float(number_of(v)),
            kind::FLOAT_BITS => Variant::Float(f64::from_bits(float_bits(v)?)),
            kind::STRING => Variant::String(text(v)?),
            kind::ARRAY => Variant::Array(Array::new(self.items(v, depth)?)),
            kind::PLAIN_OBJECT | kind::MAP => {
                Variant::Dictionary(Dictionary::new(self.entries(&entries_of(v), depth)?))
            }
            kind::STRING_NAME => Variant::StringName(text(&get(v, "value"))?),
            kind::CODE_UNITS => {
                let units: Vec<u32> = js_sys::Array::from(&get(v, "units"))
                    .iter()
                    .map(|u| {
                        u.as_f64()
                            .filter(|u| *u >= 0.0 && *u <= 2_147_483_647.0 && u.fract() == 0.0)
                            .map(|u| u as u32)
                    })
                    .collect::<Option<_>>()
                    .ok_or_else(|| Bad::new("code units are integers from 0 to 2147483647"))?;
                Variant::String(Text::from_units(units))
            }
            kind::NODE_PATH => Variant::node_path(NodePath {
                names: self
                    .texts(&get(v, "names"))
                    .map_err(|b| b.within(".names"))?,
                subnames: self
                    .texts(&get(v, "subnames"))
                    .map_err(|b| b.within(".subnames"))?,
                absolute: get(v, "absolute").is_truthy(),
            }),
            kind::RID => Variant::Rid(u64_of(&get(v, "id"), "an RID's id")?),
            kind::OBJECT_ID => Variant::object(Object::Id(u64_of(&get(v, "id"), "an object id")?)),
            kind::NULL_OBJECT => Variant::object(Object::Null),
            kind::OBJECT => {
                let class = get(v, "className")
                    .as_string()
                    .ok_or_else(|| Bad::new("className must be a string").within(".className"))?;
                let mut properties = Vec::new();
                for pair in js_sys::Array::from(&get(v, "properties")).iter() {
                    let pair = js_sys::Array::from(&pair);
                    let name = pair.get(0).as_string().ok_or_else(|| {
                        Bad::new("a property is a [name, value] pair").within(".properties")
                    })?;
                    let value = self
                        .at(&pair.get(1), depth + 1)
                        .map_err(|b| b.within(format_args!(".{name}")))?;
                    properties.push((name, value));
                }
                Variant::object(Object::Full { class, properties })
            }
            kind::CALLABLE => Variant::Callable,
            kind::SIGNAL => Variant::Signal(Box::new(Signal {
                name: get(v, "name")
                    .as_string()
                    .ok_or_else(|| Bad::new("a signal's name must be a string"))?,
                object_id: u64_of(&get(v, "objectId"), "a signal's object id")?,
            })),
            kind::TYPED_ARRAY => {
                let element = self.container_type(&get(v, "elementType"))?;
                Variant::Array(Array::typed(element, self.items(&get(v, "items"), depth)?))
            }
            kind::DICTIONARY => {
                let key_type = self.container_type(&get(v, "keyType"))?;
                let value_type = self.container_type(&get(v, "valueType"))?;
                let flat = js_sys::Array::new();
                for pair in js_sys::Array::from(&get(v, "entries")).iter() {
                    let pair = js_sys::Array::from(&pair);
                    flat.push(&pair.get(0));
                    flat.push(&pair.get(1));
                }
                Variant::Dictionary(Dictionary::typed(
                    key_type,
                    value_type,
                    self.entries(&flat, depth)?,
                ))
            }
            kind::PACKED_STRINGS => Variant::PackedStringArray(self.texts(&get(v, "items"))?),
            kind::PACKED_VECTOR2 | kind::PACKED_VECTOR3 | kind::PACKED_VECTOR4 => {
                let (ty, width) = match k {
                    kind::PACKED_VECTOR2 => (VariantType::PackedVector2Array, 2),
                    kind::PACKED_VECTOR3 => (VariantType::PackedVector3Array, 3),
                    _ => (VariantType::PackedVector4Array, 4),
                };
                let data = get(v, "data");
                let reals = self.reals_of(&data).map_err(|b| b.within(".data"))?;
                if !reals.len().is_multiple_of(width) {
                    return Err(Bad::new(format!(
                        "{} components are no whole number of {width}-vectors",
                        reals.len()
                    ))
                    .within(".data"));
                }
                Variant::from_reals(ty, reals).expect("a packed vector array")
            }
            kind::PACKED_COLORS => {
                let data = get(v, "data");
                let floats: Vec<f32> = match data.dyn_ref::<Float32Array>() {
                    Some(a) => a.to_vec(),
                    None => {
                        return Err(
                            Bad::new("a PackedColorArray's data is a Float32Array").within(".data")
                        );
                    }
                };
                if !floats.len().is_multiple_of(4) {
                    return Err(
                        Bad::new("a PackedColorArray's data holds 4 numbers per color")
                            .within(".data"),
                    );
                }
                Variant::PackedColorArray(
                    floats
                        .chunks_exact(4)
                        .map(|c| [c[0], c[1], c[2], c[3]])
                        .collect(),
                )
            }
            kind::UINT8 => Variant::PackedByteArray(v.unchecked_ref::<Uint8Array>().to_vec()),
            kind::INT32 => Variant::PackedInt32Array(v.unchecked_ref::<Int32Array>().to_vec()),
            kind::BIGINT64 => {
                Variant::PackedInt64Array(v.unchecked_ref::<BigInt64Array>().to_vec())
            }
            kind::FLOAT32 => {
                Variant::PackedFloat32Array(v.unchecked_ref::<Float32Array>().to_vec())
            }
            kind::FLOAT64 => {
                Variant::PackedFloat64Array(v.unchecked_ref::<Float64Array>().to_vec())
            }
            k if (kind::MATH..kind::MATH + TYPES.len() as u32).contains(&k) => {
                self.math(v, TYPES[(k - kind::MATH) as usize].ty)?
            }
            kind::UNDEFINED => return Err(Bad::new("undefined has no Godot form (null is Nil)")),
            _ => {
                return Err(Bad::new(format!(
                    "a value of type {} has no Godot form",
                    describe(v)
                )));
            }
        })
    }

    /// The items of an array, each at its index.
    fn items(&self, v: &JsValue, depth: usize) -> R<Vec<Variant>> {
        let array: &js_sys::Array = v.dyn_ref().ok_or_else(|| Bad::new("expected an array"))?;
        let mut items = Vec::with_capacity(array.length() as usize);
        for (i, item) in array.iter().enumerate() {
            items.push(
                self.at(&item, depth + 1)
                    .map_err(|b| b.within(format_args!("[{i}]")))?,
            );
        }
        Ok(items)
    }

    /// Dictionary entries from a flat array of keys and values.
    fn entries(&self, flat: &js_sys::Array, depth: usize) -> R<Vec<(Variant, Variant)>> {
        let n = flat.length() / 2;
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let key = self
                .at(&flat.get(2 * i), depth + 1)
                .map_err(|b| b.within(format_args!("{{key {i}}}")))?;
            let value = self
                .at(&flat.get(2 * i + 1), depth + 1)
                .map_err(|b| b.within(format_args!("{{value {i}}}")))?;
            out.push((key, value));
        }
        Ok(out)
    }

    /// Strings of an array (`CodeUnits` among them).
    fn texts(&self, v: &JsValue) -> R<Vec<Text>> {
        let array: &js_sys::Array = v
            .dyn_ref()
            .ok_or_else(|| Bad::new("expected an array of strings"))?;
        let mut out = Vec::with_capacity(array.length() as usize);
        for (i, item) in array.iter().enumerate() {
            let t = match kind_of(&item) {
                kind::STRING => text(&item),
                kind::CODE_UNITS => match self.at(&item, 0)? {
                    Variant::String(t) => Ok(t),
                    _ => unreachable!("CodeUnits read as a String"),
                },
                _ => Err(Bad::new(format!(
                    "expected a string, found {}",
                    describe(&item)
                ))),
            };
            out.push(t.map_err(|b| b.within(format_args!("[{i}]")))?);
        }
        Ok(out)
    }

    /// A math value from its fields.
    fn math(&self, v: &JsValue, ty: VariantType) -> R<Variant> {
        let fields = ty.info().fields;
        let mut c = vec![0.0f64; fields.len()];
        math_components(v, &mut c);
        Ok(match ty.shape() {
            Shape::Ints(_) => {
                let mut ints = I32s::new();
                for (x, field) in c.iter().zip(fields) {
                    if x.fract() != 0.0 || *x < f64::from(i32::MIN) || *x > f64::from(i32::MAX) {
                        return Err(Bad::new(format!("{x} is no 32-bit integer"))
                            .within(format_args!(".{}", field.replace('.', "_"))));
                    }
                    ints.push(*x as i32);
                }
                Variant::from_ints(ty, ints).expect("an integer vector type")
            }
            Shape::Color => {
                Variant::Color([narrow(c[0]), narrow(c[1]), narrow(c[2]), narrow(c[3])])
            }
            _ => {
                let reals = if self.profile.double_reals() {
                    Reals::from(c)
                } else {
                    c.into_iter().map(narrow).collect()
                };
                Variant::from_reals(ty, reals).expect("a real_t math type")
            }
        })
    }

    /// real_t components from a Float32Array or Float64Array, at the profile's width.
    fn reals_of(&self, data: &JsValue) -> R<Reals> {
        let wide: Vec<f64> = if let Some(a) = data.dyn_ref::<Float32Array>() {
            if !self.profile.double_reals() {
                return Ok(Reals::from(a.to_vec()));
            }
            a.to_vec().into_iter().map(f64::from).collect()
        } else if let Some(a) = data.dyn_ref::<Float64Array>() {
            a.to_vec()
        } else {
            return Err(Bad::new("expected a Float32Array or a Float64Array"));
        };
        Ok(if self.profile.double_reals() {
            Reals::from(wide)
        } else {
            wide.into_iter().map(narrow).collect()
        })
    }

    /// A container type: null or a `ContainerType`.
    fn container_type(&self, v: &JsValue) -> R<ContainerType> {
        if v.is_null() || v.is_undefined() {
            return Ok(ContainerType::None);
        }
        let (kind, name) = (get(v, "kind").as_string(), get(v, "name").as_string());
        let (Some(kind), Some(name)) = (kind, name) else {
            return Err(Bad::new("a container type is null or a ContainerType"));
        };
        if !ContainerType::KINDS.contains(&kind.as_str()) {
            return Err(Bad::new(format!(
                "a container type's kind is \"builtin\", \"class\" or \"script\", not {kind:?}"
            )));
        }
        let unknown = format!("no built-in type is named {name:?}");
        ContainerType::from_kind(&kind, name).ok_or_else(|| Bad::new(unknown))
    }
}
