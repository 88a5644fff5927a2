//! A decoded [`Variant`] as the package's JavaScript value.

use gdmarshal::Variant;
use gdmarshal::float::widen;
use gdmarshal::value::{Components, ContainerType, Object, Reals, Text};
use js_sys::{Array, BigInt64Array, Float32Array, Float64Array, Int32Array, Uint8Array};
use wasm_bindgen::prelude::*;

/// The helpers of `values.js` that build values.
#[wasm_bindgen(raw_module = "./values.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeMath)]
    fn make_math(index: u32, components: &[f64]) -> JsValue;
    #[wasm_bindgen(js_name = makeMathOf)]
    fn make_math_of(index: u32, components: &Array) -> JsValue;
    #[wasm_bindgen(js_name = makeFloatBits)]
    fn make_float_bits(bits: u64, width: u32) -> JsValue;
    #[wasm_bindgen(js_name = makeStringName)]
    fn make_string_name(s: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = makeCodeUnits)]
    fn make_code_units(units: &[u32]) -> JsValue;
    #[wasm_bindgen(js_name = makeNodePath)]
    fn make_node_path(names: &Array, subnames: &Array, absolute: bool) -> JsValue;
    #[wasm_bindgen(js_name = makeRid)]
    fn make_rid(id: u64) -> JsValue;
    #[wasm_bindgen(js_name = makeObject)]
    fn make_object(class: &str, properties: &Array) -> JsValue;
    #[wasm_bindgen(js_name = makeObjectId)]
    fn make_object_id(id: u64) -> JsValue;
    #[wasm_bindgen(js_name = makeNullObject)]
    fn make_null_object() -> JsValue;
    #[wasm_bindgen(js_name = makeCallable)]
    fn make_callable() -> JsValue;
    #[wasm_bindgen(js_name = makeSignal)]
    fn make_signal(name: &str, id: u64) -> JsValue;
    #[wasm_bindgen(js_name = makeContainerType)]
    fn make_container_type(kind: &str, name: &str) -> JsValue;
    #[wasm_bindgen(js_name = makeTypedArray)]
    fn make_typed_array(element_type: &JsValue, items: &Array) -> JsValue;
    #[wasm_bindgen(js_name = makeDictionary)]
    fn make_dictionary(flat: &Array, key_type: &JsValue, value_type: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = makePackedStrings)]
    fn make_packed_strings(items: &Array) -> JsValue;
    #[wasm_bindgen(js_name = makePackedVectors)]
    fn make_packed_vectors(width: u32, data: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = makePackedColors)]
    fn make_packed_colors(data: &Float32Array) -> JsValue;
}

/// The JavaScript value of `v`.
pub fn value(v: &Variant) -> JsValue {
    match v {
        Variant::Nil => JsValue::NULL,
        Variant::Bool(b) => JsValue::from_bool(*b),
        Variant::Int(i) => JsValue::from(*i),
        Variant::Float(f) => float(*f),
        Variant::String(t) => text(t),
        Variant::StringName(t) => make_string_name(&text(t)),
        Variant::Color(rgba) => math32(v, rgba),
        Variant::NodePath(np) => {
            make_node_path(&texts(&np.names), &texts(&np.subnames), np.absolute)
        }
        Variant::Rid(id) => make_rid(*id),
        Variant::Object(o) => match &**o {
            Object::Null => make_null_object(),
            Object::Id(id) => make_object_id(*id),
            Object::Full { class, properties } => {
                let props: Array = properties
                    .iter()
                    .map(|(name, value)| {
                        JsValue::from(Array::of2(&JsValue::from_str(name), &self::value(value)))
                    })
                    .collect();
                make_object(class, &props)
            }
        },
        Variant::Callable => make_callable(),
        Variant::Signal(s) => make_signal(&s.name, s.object_id),
        Variant::Array(a) => {
            let items = Array::new_with_length(a.items().len() as u32);
            for (i, item) in a.items().iter().enumerate() {
                items.set(i as u32, value(item));
            }
            match a.element_type() {
                ContainerType::None => items.into(),
                t => make_typed_array(&container_type(t), &items),
            }
        }
        Variant::Dictionary(d) => {
            let flat = Array::new_with_length(2 * d.entries().len() as u32);
            for (i, (k, x)) in d.entries().iter().enumerate() {
                flat.set(2 * i as u32, value(k));
                flat.set(2 * i as u32 + 1, value(x));
            }
            make_dictionary(
                &flat,
                &container_type(d.key_type()),
                &container_type(d.value_type()),
            )
        }
        Variant::PackedByteArray(b) => Uint8Array::from(&b[..]).into(),
        Variant::PackedInt32Array(x) => Int32Array::from(&x[..]).into(),
        Variant::PackedInt64Array(x) => BigInt64Array::from(&x[..]).into(),
        Variant::PackedFloat32Array(x) => Float32Array::from(&x[..]).into(),
        Variant::PackedFloat64Array(x) => Float64Array::from(&x[..]).into(),
        Variant::PackedStringArray(x) => make_packed_strings(&texts(x)),
        Variant::PackedVector2Array(r) => make_packed_vectors(2, &flat(r)),
        Variant::PackedVector3Array(r) => make_packed_vectors(3, &flat(r)),
        Variant::PackedVector4Array(r) => make_packed_vectors(4, &flat(r)),
        Variant::PackedColorArray(colors) => {
            make_packed_colors(&Float32Array::from(colors.as_flattened()))
        }
        _ => match (v.reals(), v.ints()) {
            (Some(r), _) => match r.components() {
                Components::F32(c) => math32(v, c),
                Components::F64(c) => math64(v, c),
            },
            (None, Some(ints)) => math(v, ints.iter().map(|&x| f64::from(x))),
            // Every other type is matched above.
            (None, None) => unreachable!("{} has no JavaScript form", v.get_type()),
        },
    }
}

/// The f64 bits of JavaScript's NaN; f32's NaN widens to it.
const JS_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A float: a number, or `FloatBits` for a NaN other than JavaScript's own, whose bits a
/// JavaScript engine may rewrite.
fn float(x: f64) -> JsValue {
    if x.is_nan() && x.to_bits() != JS_NAN {
        make_float_bits(x.to_bits(), 64)
    } else {
        JsValue::from_f64(x)
    }
}

/// An f32 component: a number, or `FloatBits` for a NaN other than JavaScript's own.
fn float32(x: f32) -> JsValue {
    if x.is_nan() && widen(x).to_bits() != JS_NAN {
        make_float_bits(u64::from(x.to_bits()), 32)
    } else {
        JsValue::from_f64(f64::from(x))
    }
}

/// A math value of f32 components.
fn math32(v: &Variant, c: &[f32]) -> JsValue {
    if c.iter().any(|x| x.is_nan()) {
        return make_math_of(
            v.get_type() as u32,
            &c.iter().map(|&x| float32(x)).collect(),
        );
    }
    math(v, c.iter().map(|&x| f64::from(x)))
}

/// A math value of f64 components.
fn math64(v: &Variant, c: &[f64]) -> JsValue {
    if c.iter().any(|x| x.is_nan()) {
        return make_math_of(v.get_type() as u32, &c.iter().map(|&x| float(x)).collect());
    }
    math(v, c.iter().copied())
}

/// A math value: its class made with the components.
fn math(v: &Variant, components: impl IntoIterator<Item = f64>) -> JsValue {
    let c: Vec<f64> = components.into_iter().collect();
    make_math(v.get_type() as u32, &c)
}

/// Components at their width, in a typed array.
fn flat(r: &Reals) -> JsValue {
    match r.components() {
        Components::F32(c) => Float32Array::from(c).into(),
        Components::F64(c) => Float64Array::from(c).into(),
    }
}

/// A string, or `CodeUnits` for a Godot 3 string that is not all Unicode scalar values.
fn text(t: &Text) -> JsValue {
    match t.as_str() {
        Some(s) => JsValue::from_str(s),
        None => make_code_units(&t.units().collect::<Vec<_>>()),
    }
}

fn texts(ts: &[Text]) -> Array {
    ts.iter().map(text).collect()
}

/// A container type: null, or a `ContainerType`.
fn container_type(t: &ContainerType) -> JsValue {
    match t {
        ContainerType::None => JsValue::NULL,
        ContainerType::Builtin(ty) => make_container_type("builtin", ty.name()),
        ContainerType::ClassName(n) => make_container_type("class", n),
        ContainerType::Script(p) => make_container_type("script", p),
    }
}
