//! A decoded [`Variant`] as the package's JavaScript value, written as a tape that `values.js`
//! (`build`) reads into values. Building each value by a call across the module's boundary costs
//! more than the decoding itself; a tape crosses it once, as views of a few arrays in the
//! module's memory, which the next decode writes again.
//!
//! The tape: `ops` (u32: an op, then its small operands), `nums` (f64 components and floats),
//! `ints` (i64: ints, ids, NaN bits), `ascii` and `utf16` (every string, one after the other: the
//! ASCII ones as bytes, the others as UTF-16 units, which JavaScript engines turn into strings
//! several times faster than UTF-8; an op gives each one's length), `objs` (values made here
//! whole: packed arrays), and `long_ascii` and `long_utf16`, the same for strings of
//! [`LONG_BYTES`] or more, which values.js makes into strings a piece at a time. A Dictionary's short string keys are written once and named by index
//! where they come again (`KEPT`, `REPEAT`). `op` below names the ops; values.js reads the same
//! numbers.

use std::cell::RefCell;
use std::collections::HashMap;

use gdmarshal::Variant;
use gdmarshal::float::widen;
use gdmarshal::value::{Components, ContainerType, Object, Reals, Text};
use js_sys::{
    Array, BigInt64Array, Float32Array, Float64Array, Int32Array, Uint8Array, Uint16Array,
    Uint32Array,
};
use wasm_bindgen::prelude::*;

use crate::utf16::utf16_into;

/// The helpers of `values.js` that make packed arrays of vectors and colors.
#[wasm_bindgen(raw_module = "./values.js")]
extern "C" {
    #[wasm_bindgen(js_name = makePackedVectors)]
    fn make_packed_vectors(width: u32, data: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = makePackedColors)]
    fn make_packed_colors(data: &Float32Array) -> JsValue;
}

/// The ops of the tape.
mod op {
    pub const NIL: u32 = 0;
    pub const TRUE: u32 = 1;
    pub const FALSE: u32 = 2;
    /// ints: the value.
    pub const INT: u32 = 3;
    /// nums: the value.
    pub const FLOAT: u32 = 4;
    /// width; ints: the bits (a NaN other than JavaScript's own).
    pub const FLOAT_BITS: u32 = 5;
    /// length; ascii.
    pub const STRING: u32 = 6;
    /// count, then the units.
    pub const CODE_UNITS: u32 = 7;
    /// then a string.
    pub const STRING_NAME: u32 = 8;
    /// type index, count; nums: the components.
    pub const MATH: u32 = 9;
    /// type index, count, then each component as a float (FLOAT or FLOAT_BITS).
    pub const MATH_OF: u32 = 10;
    /// name count, subname count, absolute (0 or 1), then the strings.
    pub const NODE_PATH: u32 = 11;
    /// ints: the id.
    pub const RID: u32 = 12;
    pub const NULL_OBJECT: u32 = 13;
    /// ints: the id.
    pub const OBJECT_ID: u32 = 14;
    /// property count, then the class (a string) and each property's name (a string) and value.
    pub const OBJECT: u32 = 15;
    pub const CALLABLE: u32 = 16;
    /// then the name (a string); ints: the object id.
    pub const SIGNAL: u32 = 17;
    /// count, then the items.
    pub const ARRAY: u32 = 18;
    /// count, then the element type and the items.
    pub const TYPED_ARRAY: u32 = 19;
    /// count, then keys and values, alternating.
    pub const DICTIONARY: u32 = 20;
    /// count, then the key type, the value type, keys and values.
    pub const TYPED_DICTIONARY: u32 = 21;
    /// an untyped container's type.
    pub const NO_TYPE: u32 = 22;
    /// then the kind and the name (strings).
    pub const CONTAINER_TYPE: u32 = 23;
    /// index into objs.
    pub const OBJ: u32 = 24;
    /// count, then the strings.
    pub const PACKED_STRINGS: u32 = 25;
    /// length in UTF-16 units; utf16.
    pub const STRING16: u32 = 26;
    /// then a value (a Dictionary's key), which `REPEAT` names later by the order it came in.
    pub const KEPT: u32 = 27;
    /// the index of a `KEPT` value among them.
    pub const REPEAT: u32 = 28;
    /// length; long_ascii.
    pub const LONG_STRING: u32 = 29;
    /// length in UTF-16 units; long_utf16.
    pub const LONG_STRING16: u32 = 30;
}

/// Strings of this many bytes or more go to the long tables: values.js makes the short tables
/// into one string each and slices every short string from it, and makes the long tables into
/// pieces, so that text mostly of long strings is not one string of megabytes (see
/// `longStrings` there).
const LONG_BYTES: usize = 256;

/// Dictionary keys longer than this (in bytes) are written out each time: keys that repeat are
/// short names, and a long key costs more to hash than to write.
const KEPT_KEY_BYTES: usize = 64;

/// At most this many distinct keys are kept, so that keys that never repeat (ids written as
/// strings) stop costing a hash table insertion each.
const KEPT_KEYS: usize = 4096;

/// Writes `s` to a table: as bytes with the op `ascii.0` to `ascii.1` if it is ASCII, else as
/// UTF-16 units with the op `utf16.0` to `utf16.1`.
#[inline(always)]
fn string_into(
    ops: &mut Vec<u32>,
    s: &str,
    ascii: (u32, &mut Vec<u8>),
    utf16: (u32, &mut Vec<u16>),
) {
    if s.is_ascii() {
        ops.extend([ascii.0, s.len() as u32]);
        ascii.1.extend_from_slice(s.as_bytes());
    } else {
        let units = utf16_into(s, utf16.1);
        ops.extend([utf16.0, units as u32]);
    }
}

/// The f64 bits of JavaScript's NaN; f32's NaN widens to it.
const JS_NAN: u64 = 0x7ff8_0000_0000_0000;

/// The tape's arrays, kept from one decode to the next: a decode reuses the room the last one
/// grew, and JavaScript reads them in place (`Tape::into_js`).
#[derive(Default)]
struct Arrays {
    ops: Vec<u32>,
    nums: Vec<f64>,
    ints: Vec<i64>,
    ascii: Vec<u8>,
    utf16: Vec<u16>,
    long_ascii: Vec<u8>,
    long_utf16: Vec<u16>,
}

impl Arrays {
    /// Empties them, keeping their room.
    fn clear(&mut self) {
        self.ops.clear();
        self.nums.clear();
        self.ints.clear();
        self.ascii.clear();
        self.utf16.clear();
        self.long_ascii.clear();
        self.long_utf16.clear();
    }
}

thread_local! {
    /// The last tape's arrays (the module is single-threaded: one per instance).
    static KEPT_ARRAYS: RefCell<Arrays> = RefCell::default();
}

/// The tape of a value.
pub struct Tape<'a> {
    arrays: Arrays,
    objs: Vec<JsValue>,
    /// The string keys written so far (`KEPT`), by their index: records decoded by the thousand
    /// share their keys, and a key made once in JavaScript is one string fewer to make and collect.
    kept: HashMap<&'a str, u32, foldhash::fast::RandomState>,
    /// The kept key last written at each of a Dictionary's first [`RECENT`] places, with its
    /// index: records of one shape have the same key at the same place, found here without
    /// hashing.
    recent: [Option<(&'a str, u32)>; RECENT],
}

/// A Dictionary's places whose last kept key is remembered (`Tape::recent`).
const RECENT: usize = 8;

impl<'a> Tape<'a> {
    /// The tape of `v`, in the arrays the last tape left.
    pub fn of(v: &'a Variant) -> Tape<'a> {
        let mut arrays = KEPT_ARRAYS.take();
        arrays.clear();
        let mut t = Tape {
            arrays,
            objs: Vec::new(),
            kept: HashMap::default(),
            recent: [None; RECENT],
        };
        t.value(v);
        t
    }

    /// `[ops, nums, ints, ascii, utf16, objs, long_ascii, long_utf16]`, as values.js's `build`
    /// takes them: all but `objs` are views of the module's memory, valid until the module is
    /// next called (its memory may then grow, or the arrays be written again). `build` reads
    /// them before that.
    pub fn into_js(self) -> Array {
        let parts = Array::new_with_length(8);
        parts.set(5, self.objs.into_iter().collect::<Array>().into());
        KEPT_ARRAYS.with_borrow_mut(|a| {
            *a = self.arrays;
            // SAFETY: nothing below allocates in the module's memory, so it does not grow while
            // the views are made; the arrays stay where they are until the next decode takes
            // them.
            unsafe {
                parts.set(0, Uint32Array::view(&a.ops).into());
                parts.set(1, Float64Array::view(&a.nums).into());
                parts.set(2, BigInt64Array::view(&a.ints).into());
                parts.set(3, Uint8Array::view(&a.ascii).into());
                parts.set(4, Uint16Array::view(&a.utf16).into());
                parts.set(6, Uint8Array::view(&a.long_ascii).into());
                parts.set(7, Uint16Array::view(&a.long_utf16).into());
            }
        });
        parts
    }

    fn obj(&mut self, v: JsValue) {
        self.arrays.ops.extend([op::OBJ, self.objs.len() as u32]);
        self.objs.push(v);
    }

    /// The key at place `at` of a Dictionary: a short string key already written is named by
    /// its index.
    fn key(&mut self, k: &'a Variant, at: usize) {
        if let Variant::String(t) = k
            && let Some(s) = t.as_str()
            && s.len() <= KEPT_KEY_BYTES
        {
            let place = self.recent.get_mut(at);
            let seen = match place.as_deref() {
                Some(Some((r, i))) if *r == s => Some(*i),
                _ => self.kept.get(s).copied(),
            };
            let i = match seen {
                Some(i) => {
                    self.arrays.ops.extend([op::REPEAT, i]);
                    i
                }
                None if self.kept.len() < KEPT_KEYS => {
                    let i = self.kept.len() as u32;
                    self.kept.insert(s, i);
                    self.arrays.ops.push(op::KEPT);
                    i
                }
                None => return self.value(k),
            };
            if let Some(place) = place {
                *place = Some((s, i));
            }
            if seen.is_some() {
                return;
            }
        }
        self.value(k);
    }

    fn value(&mut self, v: &'a Variant) {
        match v {
            Variant::Nil => self.arrays.ops.push(op::NIL),
            Variant::Bool(b) => self.arrays.ops.push(if *b { op::TRUE } else { op::FALSE }),
            Variant::Int(i) => {
                self.arrays.ops.push(op::INT);
                self.arrays.ints.push(*i);
            }
            Variant::Float(f) => self.float(*f),
            Variant::String(t) => self.text(t),
            Variant::StringName(t) => {
                self.arrays.ops.push(op::STRING_NAME);
                self.text(t);
            }
            Variant::Color(rgba) => self.math32(v, rgba),
            Variant::NodePath(np) => {
                self.arrays.ops.extend([
                    op::NODE_PATH,
                    np.names.len() as u32,
                    np.subnames.len() as u32,
                ]);
                self.arrays.ops.push(u32::from(np.absolute));
                np.names
                    .iter()
                    .chain(&np.subnames)
                    .for_each(|t| self.text(t));
            }
            Variant::Rid(id) => {
                self.arrays.ops.push(op::RID);
                self.arrays.ints.push(*id as i64);
            }
            Variant::Object(o) => match &**o {
                Object::Null => self.arrays.ops.push(op::NULL_OBJECT),
                Object::Id(id) => {
                    self.arrays.ops.push(op::OBJECT_ID);
                    self.arrays.ints.push(*id as i64);
                }
                Object::Full { class, properties } => {
                    self.arrays
                        .ops
                        .extend([op::OBJECT, properties.len() as u32]);
                    self.str(class);
                    for (name, value) in properties {
                        self.str(name);
                        self.value(value);
                    }
                }
            },
            Variant::Callable => self.arrays.ops.push(op::CALLABLE),
            Variant::Signal(s) => {
                self.arrays.ops.push(op::SIGNAL);
                self.str(&s.name);
                self.arrays.ints.push(s.object_id as i64);
            }
            Variant::Array(a) => {
                let n = a.items().len() as u32;
                match a.element_type() {
                    ContainerType::None => self.arrays.ops.extend([op::ARRAY, n]),
                    t => {
                        self.arrays.ops.extend([op::TYPED_ARRAY, n]);
                        self.container_type(t);
                    }
                }
                a.items().iter().for_each(|item| self.value(item));
            }
            Variant::Dictionary(d) => {
                let n = d.entries().len() as u32;
                match (d.key_type(), d.value_type()) {
                    (ContainerType::None, ContainerType::None) => {
                        self.arrays.ops.extend([op::DICTIONARY, n])
                    }
                    (k, x) => {
                        self.arrays.ops.extend([op::TYPED_DICTIONARY, n]);
                        self.container_type(k);
                        self.container_type(x);
                    }
                }
                for (at, (k, x)) in d.entries().iter().enumerate() {
                    self.key(k, at);
                    self.value(x);
                }
            }
            Variant::PackedByteArray(b) => self.obj(Uint8Array::from(&b[..]).into()),
            Variant::PackedInt32Array(x) => self.obj(Int32Array::from(&x[..]).into()),
            Variant::PackedInt64Array(x) => self.obj(BigInt64Array::from(&x[..]).into()),
            Variant::PackedFloat32Array(x) => self.obj(Float32Array::from(&x[..]).into()),
            Variant::PackedFloat64Array(x) => self.obj(Float64Array::from(&x[..]).into()),
            Variant::PackedStringArray(x) => {
                self.arrays.ops.extend([op::PACKED_STRINGS, x.len() as u32]);
                x.iter().for_each(|t| self.text(t));
            }
            Variant::PackedVector2Array(r) => self.obj(make_packed_vectors(2, &flat(r))),
            Variant::PackedVector3Array(r) => self.obj(make_packed_vectors(3, &flat(r))),
            Variant::PackedVector4Array(r) => self.obj(make_packed_vectors(4, &flat(r))),
            Variant::PackedColorArray(colors) => self.obj(make_packed_colors(&Float32Array::from(
                colors.as_flattened(),
            ))),
            _ => match (v.reals(), v.ints()) {
                (Some(r), _) => match r.components() {
                    Components::F32(c) => self.math32(v, c),
                    Components::F64(c) => self.math64(v, c),
                },
                (None, Some(ints)) => {
                    self.arrays
                        .ops
                        .extend([op::MATH, v.get_type() as u32, ints.len() as u32]);
                    self.arrays.nums.extend(ints.iter().map(|&x| f64::from(x)));
                }
                // Every other type is matched above.
                (None, None) => unreachable!("{} has no JavaScript form", v.get_type()),
            },
        }
    }

    /// A float: a number, or `FloatBits` for a NaN other than JavaScript's own, whose bits a
    /// JavaScript engine may rewrite.
    fn float(&mut self, x: f64) {
        if x.is_nan() && x.to_bits() != JS_NAN {
            self.arrays.ops.extend([op::FLOAT_BITS, 64]);
            self.arrays.ints.push(x.to_bits() as i64);
        } else {
            self.arrays.ops.push(op::FLOAT);
            self.arrays.nums.push(x);
        }
    }

    /// An f32 component: a number, or `FloatBits` for a NaN other than JavaScript's own.
    fn float32(&mut self, x: f32) {
        if x.is_nan() && widen(x).to_bits() != JS_NAN {
            self.arrays.ops.extend([op::FLOAT_BITS, 32]);
            self.arrays.ints.push(i64::from(x.to_bits()));
        } else {
            self.arrays.ops.push(op::FLOAT);
            self.arrays.nums.push(f64::from(x));
        }
    }

    /// A math value of f32 components.
    fn math32(&mut self, v: &Variant, c: &[f32]) {
        let head = [v.get_type() as u32, c.len() as u32];
        if c.iter().any(|x| x.is_nan()) {
            self.arrays.ops.push(op::MATH_OF);
            self.arrays.ops.extend(head);
            c.iter().for_each(|&x| self.float32(x));
        } else {
            self.arrays.ops.push(op::MATH);
            self.arrays.ops.extend(head);
            self.arrays.nums.extend(c.iter().map(|&x| f64::from(x)));
        }
    }

    /// A math value of f64 components.
    fn math64(&mut self, v: &Variant, c: &[f64]) {
        let head = [v.get_type() as u32, c.len() as u32];
        if c.iter().any(|x| x.is_nan()) {
            self.arrays.ops.push(op::MATH_OF);
            self.arrays.ops.extend(head);
            c.iter().for_each(|&x| self.float(x));
        } else {
            self.arrays.ops.push(op::MATH);
            self.arrays.ops.extend(head);
            self.arrays.nums.extend_from_slice(c);
        }
    }

    /// A string, or `CodeUnits` for a Godot 3 string that is not all Unicode scalar values.
    fn text(&mut self, t: &Text) {
        match t.as_str() {
            Some(s) => self.str(s),
            None => {
                let at = self.arrays.ops.len();
                self.arrays.ops.extend([op::CODE_UNITS, 0]);
                self.arrays.ops.extend(t.units());
                self.arrays.ops[at + 1] = (self.arrays.ops.len() - at - 2) as u32;
            }
        }
    }

    fn str(&mut self, s: &str) {
        if s.len() >= LONG_BYTES {
            return self.long_str(s);
        }
        let a = &mut self.arrays;
        string_into(
            &mut a.ops,
            s,
            (op::STRING, &mut a.ascii),
            (op::STRING16, &mut a.utf16),
        );
    }

    /// A string of [`LONG_BYTES`] or more, to the long tables.
    #[inline(never)]
    fn long_str(&mut self, s: &str) {
        let a = &mut self.arrays;
        string_into(
            &mut a.ops,
            s,
            (op::LONG_STRING, &mut a.long_ascii),
            (op::LONG_STRING16, &mut a.long_utf16),
        );
    }

    fn container_type(&mut self, t: &ContainerType) {
        match t.kind_and_name() {
            None => self.arrays.ops.push(op::NO_TYPE),
            Some((kind, name)) => {
                self.arrays.ops.push(op::CONTAINER_TYPE);
                self.str(kind);
                self.str(name);
            }
        }
    }
}

/// Components at their width, in a typed array.
fn flat(r: &Reals) -> JsValue {
    match r.components() {
        Components::F32(c) => Float32Array::from(c).into(),
        Components::F64(c) => Float64Array::from(c).into(),
    }
}
