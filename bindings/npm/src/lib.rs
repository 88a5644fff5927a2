//! The WebAssembly module of the npm package `gdmarshal`. The package's `values.js` defines the
//! value classes; this module converts between them and the codec's [`Variant`], calls the codec
//! and throws its errors as the package's. README.md documents the values.

mod from_js;
#[cfg(target_arch = "wasm32")]
mod region;
mod to_js;
mod utf16;

/// Builds on hosts (lints): the system allocator alone.
#[cfg(not(target_arch = "wasm32"))]
mod region {
    /// `make`'s value, as the module's `region::build` returns it.
    pub fn build<T>(make: impl FnOnce() -> T) -> Box<T> {
        Box::new(make())
    }
}

/// Decoded trees are built in a region given up whole (src/region.rs).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: region::Allocator = region::Allocator;

use gdmarshal::framing::{self, Framing};
use gdmarshal::inspect::fields;
use gdmarshal::types::TYPES;
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant};
use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;

/// The helpers of `values.js` (see there).
#[wasm_bindgen(raw_module = "./values.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeDecodeError)]
    fn make_decode_error(message: &str, offset: f64, kind: &str) -> JsValue;
    #[wasm_bindgen(js_name = makeEncodeError)]
    fn make_encode_error(message: &str, path: &str) -> JsValue;
}

/// A decode error to throw.
fn decode_error(message: &str, offset: usize, kind: &str) -> JsValue {
    make_decode_error(message, offset as f64, kind)
}

/// The profile named by `godot`, or a RangeError naming it.
fn profile(godot: &str) -> Result<Profile, JsValue> {
    godot
        .parse()
        .map_err(|e| js_sys::RangeError::new(&format!("godot: {godot:?}: {e}")).into())
}

/// The framing of this name, or a RangeError naming the ones there are.
fn framing(name: Option<String>) -> Result<Framing, JsValue> {
    let name = name.unwrap_or_else(|| "none".into());
    Framing::from_name(&name).ok_or_else(|| {
        let names: Vec<&str> = Framing::NAMED.iter().map(|(n, _)| *n).collect();
        js_sys::RangeError::new(&format!("framing: {name:?}: expected one of {names:?}")).into()
    })
}

/// The profile, and the value's bytes inside `data` with where they start.
fn input<'a>(
    data: &'a [u8],
    godot: &str,
    framing: Option<String>,
) -> Result<(Profile, &'a [u8], usize), JsValue> {
    let profile = profile(godot)?;
    match framing::unframe(data, self::framing(framing)?, profile) {
        Ok(u) => Ok((profile, u.payload, u.consumed - u.payload.len())),
        Err(e) => Err(decode_error(&e.to_string(), 0, "framing")),
    }
}

/// `[tape, consumed]`: the value at the start of `data`, as the tape that values.js's `build`
/// reads, and the bytes read, framing included.
#[wasm_bindgen(js_name = decodePrefix)]
pub fn decode_prefix(
    data: &[u8],
    godot: &str,
    framing: Option<String>,
    objects: bool,
) -> Result<Array, JsValue> {
    let (profile, payload, before) = input(data, godot, framing)?;
    let opts = DecodeOptions::new().allow_objects(objects);
    // The tree is built in the region and given up whole once its tape is written.
    let built = region::build(|| gdmarshal::decode(payload, profile, opts));
    let decoded = match &*built {
        Ok(d) => d,
        Err(e) => {
            return Err(decode_error(
                &e.kind.to_string(),
                before + e.offset,
                e.kind.name(),
            ));
        }
    };
    let tape = to_js::Tape::of(&decoded.value).into_js();
    Ok(Array::of2(
        &tape,
        &JsValue::from_f64((before + decoded.consumed) as f64),
    ))
}

/// The bytes of `value`, framed as `framing`.
#[wasm_bindgen]
pub fn encode(
    value: JsValue,
    godot: &str,
    framing: Option<String>,
    objects: bool,
) -> Result<Uint8Array, JsValue> {
    let profile = profile(godot)?;
    let framing = self::framing(framing)?;
    let variant: Variant = from_js::value(&value, profile)?;
    let opts = EncodeOptions::new().full_objects(objects);
    let bytes = gdmarshal::encode(&variant, profile, opts)
        .map_err(|e| make_encode_error(&e.kind.to_string(), &e.path))?;
    Ok(Uint8Array::from(&framing::frame(&bytes, framing)[..]))
}

/// `[rows, consumed, error]`: each row `[offset, bytes, path, field, meaning]`, the bytes consumed
/// (null on an error) and the DecodeError where decoding stopped (null if it did not).
#[wasm_bindgen]
pub fn inspect(
    data: &[u8],
    godot: &str,
    framing: Option<String>,
    objects: bool,
) -> Result<Array, JsValue> {
    let (profile, payload, before) = input(data, godot, framing)?;
    let opts = DecodeOptions::new().allow_objects(objects);
    let found = fields(payload, profile, opts);
    let rows = Array::new();
    for f in &found.fields {
        let bytes = payload
            .get(f.start..f.end.min(payload.len()))
            .unwrap_or(&[]);
        let row = Array::of5(
            &JsValue::from_f64((before + f.start) as f64),
            &Uint8Array::from(bytes),
            &JsValue::from_str(&f.path),
            &JsValue::from_str(&f.name),
            &JsValue::from_str(&f.meaning),
        );
        rows.push(&row);
    }
    let (consumed, error) = match found.outcome {
        Ok(n) => (JsValue::from_f64((before + n) as f64), JsValue::NULL),
        Err(e) => (
            JsValue::NULL,
            decode_error(&e.kind.to_string(), before + e.offset, e.kind.name()),
        ),
    };
    Ok(Array::of3(&rows, &consumed, &error))
}

/// The math types' layouts from the codec's type table: `[index, name, fields]` of every type
/// whose payload is a fixed row of numbers.
#[wasm_bindgen]
pub fn layouts() -> Array {
    let out = Array::new();
    for (index, t) in TYPES.iter().enumerate() {
        if t.shape.is_math() {
            let fields: Array = t.fields.iter().map(|f| JsValue::from_str(f)).collect();
            out.push(&Array::of3(
                &JsValue::from_f64(index as f64),
                &JsValue::from_str(t.name),
                &fields,
            ));
        }
    }
    out
}

/// The codec's version.
#[wasm_bindgen(js_name = codecVersion)]
pub fn codec_version() -> String {
    env!("CARGO_PKG_VERSION").into()
}
