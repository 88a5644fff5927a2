//! Reading: tagged JSON straight into a [`Variant`], through serde's visitors.
//!
//! The same seeds read JSON text as it is parsed (no tree in between) and an existing
//! `serde_json::Value`. They keep the JSON path as a stack of segments in a shared [`Cx`], so a
//! path string is built only when an error is reported. Every JSON value is consumed by one of
//! them, and none reads a node nested deeper than the profile allows, so neither the stack nor the
//! memory grows past what the value itself needs, however deep the text nests.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::JsonError;
use crate::excerpt::{MAX_QUOTE, cut};
use crate::float::{self, Float};
use crate::hex::unhex;
use crate::stack;
use crate::types::{Element, Shape, VariantType};
use crate::value::{
    Array, ContainerType, Dictionary, I32s, NodePath, Object, Reals, Signal, Text, Variant,
};

/// One step of a JSON path.
enum Seg {
    /// A member of the schema.
    Member(&'static str),
    /// Any other member name.
    Name(Box<str>),
    /// An array element.
    Index(usize),
}

/// What the reader shares: widths, the nesting limit, the path of the node being read and the
/// first error found.
pub(super) struct Cx {
    double_reals: bool,
    /// Nesting past which a node is refused (`usize::MAX` for none).
    limit: usize,
    /// Nesting of the node being read (the root is at 0, its elements at 1).
    depth: usize,
    path: Vec<Seg>,
    error: Option<JsonError>,
}

impl Cx {
    pub(super) fn new(double_reals: bool, limit: usize) -> Cx {
        Cx {
            double_reals,
            limit,
            depth: 0,
            path: Vec::new(),
            error: None,
        }
    }

    /// The path of the node being read, as `$.value[2]`.
    pub(super) fn path(&self) -> String {
        let mut s = String::from("$");
        for seg in &self.path {
            match seg {
                Seg::Member(m) => {
                    s.push('.');
                    s.push_str(m);
                }
                Seg::Name(n) if is_identifier(n) => {
                    s.push('.');
                    s.push_str(n);
                }
                Seg::Name(n) => {
                    s.push('[');
                    s.push_str(&Value::from(&**n).to_string());
                    s.push(']');
                }
                Seg::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// The error found, if any.
    pub(super) fn take_error(&mut self) -> Option<JsonError> {
        self.error.take()
    }

    /// Records `message` at the current path (unless an error deeper in was recorded first) and
    /// returns the error that stops the parser.
    fn fail<E: de::Error>(&mut self, message: impl Into<String>) -> E {
        let message = bounded_message(message.into());
        let e = E::custom(&message);
        if self.error.is_none() {
            self.error = Some(JsonError {
                path: self.path(),
                message,
            });
        }
        e
    }

    /// [`Cx::fail`] one step further down the path.
    fn fail_at<E: de::Error>(&mut self, seg: Seg, message: impl Into<String>) -> E {
        self.path.push(seg);
        let e = self.fail(message);
        self.path.pop();
        e
    }

    fn wrong<E: de::Error>(&mut self, expected: &str, found: &str) -> E {
        self.fail(format!("expected {expected}, found {found}"))
    }

    fn too_deep<E: de::Error>(&mut self) -> E {
        let limit = self.limit;
        self.fail(format!("nesting deeper than {limit}"))
    }
}

/// `message` cut to twice [`MAX_QUOTE`] bytes: messages quote the input they refuse.
pub(super) fn bounded_message(message: String) -> String {
    match cut(&message, 2 * MAX_QUOTE) {
        Cow::Borrowed(_) => message,
        Cow::Owned(short) => short,
    }
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A JSON value as a visitor sees it; containers are not looked into.
#[derive(Clone, Copy)]
enum Found<'a> {
    Null,
    Bool(bool),
    I64(i64),
    U64(u64),
    F64(f64),
    Str(&'a str),
    Array,
    Object,
}

impl Found<'_> {
    fn kind(self) -> &'static str {
        match self {
            Found::Null => "null",
            Found::Bool(_) => "a boolean",
            Found::I64(_) | Found::U64(_) | Found::F64(_) => "a number",
            Found::Str(_) => "a string",
            Found::Array => "an array",
            Found::Object => "an object",
        }
    }

    /// The JSON text of a scalar; the kind of a container.
    fn show(self) -> String {
        match self {
            Found::Null => "null".into(),
            Found::Bool(b) => b.to_string(),
            Found::I64(i) => i.to_string(),
            Found::U64(u) => u.to_string(),
            Found::F64(x) => Number::from_f64(x).map_or_else(|| x.to_string(), |n| n.to_string()),
            Found::Str(s) => Value::from(s).to_string(),
            Found::Array | Found::Object => self.kind().into(),
        }
    }
}

/// How a scalar of the schema is read from what was found; the error says what is wrong.
type Conv<T> = for<'a> fn(Found<'a>) -> Result<T, Unfit>;

/// Why a JSON scalar does not convert to what the schema wants there.
#[derive(Debug, thiserror::Error)]
enum Unfit {
    /// Another kind of JSON value where a string belongs.
    #[error("expected a string, found {0}")]
    NotString(&'static str),
    /// Another kind of JSON value where a boolean belongs.
    #[error("expected true or false")]
    NotBoolean,
    /// A decimal string that is not an integer of the wanted range.
    #[error("{text:?} is not {range}")]
    NotDecimal {
        /// The string.
        text: String,
        /// "a 64-bit integer" or "an unsigned 64-bit integer".
        range: &'static str,
    },
    /// A JSON number that is not exactly an integer of the wanted sign.
    #[error("{shown} is not an exact {sign}integer")]
    Inexact {
        /// The number's JSON text.
        shown: String,
        /// "" or "unsigned ".
        sign: &'static str,
    },
    /// Another kind of JSON value where an integer as a decimal string belongs.
    #[error("expected {what} as a decimal string, found {found}")]
    NotInteger {
        /// "an integer" or "an unsigned integer".
        what: &'static str,
        /// The kind found.
        found: &'static str,
    },
    /// Something other than a JSON integer where a 32-bit one belongs.
    #[error("expected a 32-bit integer number, found {0}")]
    NotInt32(String),
    /// A JSON integer past 32 bits.
    #[error("{0} does not fit in 32 bits")]
    Past32Bits(i64),
    /// A string that is not a float token.
    #[error(transparent)]
    Float(#[from] float::FloatTokenError),
    /// A string that is not hex bytes.
    #[error(transparent)]
    Hex(#[from] crate::hex::HexError),
    /// Anything but null as an Object's value.
    #[error("an Object's value can only be null")]
    NotNull,
}

fn string(j: Found<'_>) -> Result<String, Unfit> {
    match j {
        Found::Str(s) => Ok(s.to_string()),
        _ => Err(Unfit::NotString(j.kind())),
    }
}

fn boolean(j: Found<'_>) -> Result<bool, Unfit> {
    match j {
        Found::Bool(b) => Ok(b),
        _ => Err(Unfit::NotBoolean),
    }
}

fn int64(j: Found<'_>) -> Result<i64, Unfit> {
    let inexact = |j: Found<'_>| Unfit::Inexact {
        shown: j.show(),
        sign: "",
    };
    match j {
        Found::Str(s) => s.parse().map_err(|_| Unfit::NotDecimal {
            text: s.to_string(),
            range: "a 64-bit integer",
        }),
        Found::I64(i) => Ok(i),
        Found::U64(u) => i64::try_from(u).map_err(|_| inexact(j)),
        Found::F64(_) => Err(inexact(j)),
        _ => Err(Unfit::NotInteger {
            what: "an integer",
            found: j.kind(),
        }),
    }
}

fn uint64(j: Found<'_>) -> Result<u64, Unfit> {
    match j {
        Found::Str(s) => s.parse().map_err(|_| Unfit::NotDecimal {
            text: s.to_string(),
            range: "an unsigned 64-bit integer",
        }),
        Found::U64(u) => Ok(u),
        Found::I64(_) | Found::F64(_) => Err(Unfit::Inexact {
            shown: j.show(),
            sign: "unsigned ",
        }),
        _ => Err(Unfit::NotInteger {
            what: "an unsigned integer",
            found: j.kind(),
        }),
    }
}

fn int32(j: Found<'_>) -> Result<i32, Unfit> {
    let v = match j {
        Found::I64(i) => i,
        Found::U64(u) if i64::try_from(u).is_ok() => u as i64,
        _ => return Err(Unfit::NotInt32(j.show())),
    };
    i32::try_from(v).map_err(|_| Unfit::Past32Bits(v))
}

fn token<F: Float>(j: Found<'_>) -> Result<F, Unfit> {
    match j {
        Found::Str(s) => Ok(float::parse(s)?),
        _ => Err(Unfit::NotString(j.kind())),
    }
}

fn null(j: Found<'_>) -> Result<(), Unfit> {
    match j {
        Found::Null => Ok(()),
        _ => Err(Unfit::NotNull),
    }
}

fn hex_bytes(j: Found<'_>) -> Result<Vec<u8>, Unfit> {
    match j {
        Found::Str(s) => Ok(unhex(s)?),
        _ => Err(Unfit::NotString(j.kind())),
    }
}

/// Visitor methods that refuse every scalar: "expected $what, found a string".
macro_rules! refuse_scalars {
    ($what:expr) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "null"))
        }
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "a boolean"))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "a number"))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "a number"))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "a number"))
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(self.cx.wrong($what, "a string"))
        }
    };
}

/// Visitor methods of a reader of arrays: refuse scalars and objects.
macro_rules! arrays_only {
    () => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        refuse_scalars!("an array");
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(self.cx.wrong("an array", "an object"))
        }
    };
}

mod text;
use text::{TextList, TextSeed};

/// Room for the first elements of a container, one at a time (a one-element array, the most
/// common in deep values, then takes no more than it holds); doubling after that.
fn push<T>(items: &mut Vec<T>, x: T) {
    if items.len() == items.capacity() && items.len() < 4 {
        items.reserve_exact(1);
    }
    items.push(x);
}

/// A finished container, holding no more memory than its elements need.
fn finish<T>(mut items: Vec<T>) -> Vec<T> {
    if items.capacity() > items.len() {
        items.shrink_to_fit();
    }
    items
}

/// One scalar, converted by `conv`.
struct Leaf<'c, T> {
    cx: &'c mut Cx,
    conv: Conv<T>,
}

impl<'c, T> Leaf<'c, T> {
    fn new(cx: &'c mut Cx, conv: Conv<T>) -> Leaf<'c, T> {
        Leaf { cx, conv }
    }

    fn take<E: de::Error>(self, j: Found<'_>) -> Result<T, E> {
        (self.conv)(j).map_err(|m| self.cx.fail(m.to_string()))
    }
}

impl<'de, T> DeserializeSeed<'de> for Leaf<'_, T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T> Visitor<'de> for Leaf<'_, T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON scalar")
    }
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        self.take(Found::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        self.take(Found::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.take(Found::I64(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.take(Found::U64(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        self.take(Found::F64(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        self.take(Found::Str(v))
    }
    // The conversions accept scalars only: a container is refused before it is read.
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        self.take(Found::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        self.take(Found::Object)
    }
}

/// An array of scalars.
struct List<'c, T> {
    cx: &'c mut Cx,
    conv: Conv<T>,
}

impl<'de, T> DeserializeSeed<'de> for List<'_, T> {
    type Value = Vec<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T> Visitor<'de> for List<'_, T> {
    type Value = Vec<T>;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let (cx, conv) = (self.cx, self.conv);
        let mut items = Vec::new();
        loop {
            cx.path.push(Seg::Index(items.len()));
            let Some(x) = seq.next_element_seed(Leaf::new(cx, conv))? else {
                break;
            };
            cx.path.pop();
            items.push(x);
        }
        cx.path.pop();
        Ok(finish(items))
    }
}

/// An array of exactly `n` scalars, appended to `out`: the components of a `ty`.
struct Fixed<'c, 'o, T> {
    cx: &'c mut Cx,
    conv: Conv<T>,
    n: usize,
    ty: VariantType,
    out: &'o mut Vec<T>,
}

impl<'de, T> DeserializeSeed<'de> for Fixed<'_, '_, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T> Visitor<'de> for Fixed<'_, '_, T> {
    type Value = ();
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (cx, n) = (self.cx, self.n);
        let mut found = 0;
        while found < n {
            cx.path.push(Seg::Index(found));
            let Some(x) = seq.next_element_seed(Leaf::new(cx, self.conv))? else {
                cx.path.pop();
                break;
            };
            cx.path.pop();
            self.out.push(x);
            found += 1;
        }
        if found == n {
            // Count what is left for the error; skipping nests no deeper than the text does.
            while seq.next_element::<IgnoredAny>()?.is_some() {
                found += 1;
            }
        }
        if found != n {
            let ty = self.ty;
            return Err(cx.fail(format!("{ty} has {n} components, found {found}")));
        }
        Ok(())
    }
}

/// The components of a `ty` with `n` of them.
fn fixed<'de, D: Deserializer<'de>, T>(
    cx: &mut Cx,
    conv: Conv<T>,
    n: usize,
    ty: VariantType,
    d: D,
) -> Result<Vec<T>, D::Error> {
    let mut out = Vec::with_capacity(n);
    Fixed {
        cx,
        conv,
        n,
        ty,
        out: &mut out,
    }
    .deserialize(d)?;
    Ok(out)
}

/// Where the rows of a packed array of vectors or colors go.
trait RowSink<T> {
    fn take(&mut self, row: &[T]);
}

impl<T: Copy> RowSink<T> for Vec<T> {
    fn take(&mut self, row: &[T]) {
        self.extend_from_slice(row);
    }
}

impl RowSink<f32> for Vec<[f32; 4]> {
    fn take(&mut self, row: &[f32]) {
        if let [r, g, b, a] = *row {
            self.push([r, g, b, a]);
        }
    }
}

/// An array of rows of `n` scalars each: a packed array of vectors or colors.
struct Rows<'c, T, O> {
    cx: &'c mut Cx,
    conv: Conv<T>,
    n: usize,
    ty: VariantType,
    out: O,
}

impl<'de, T, O: RowSink<T>> DeserializeSeed<'de> for Rows<'_, T, O> {
    type Value = O;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<O, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T, O: RowSink<T>> Visitor<'de> for Rows<'_, T, O> {
    type Value = O;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<O, A::Error> {
        let Rows {
            cx,
            conv,
            n,
            ty,
            mut out,
        } = self;
        let mut row = Vec::with_capacity(n);
        let mut i = 0;
        loop {
            cx.path.push(Seg::Index(i));
            row.clear();
            let fixed = Fixed {
                cx: &mut *cx,
                conv,
                n,
                ty,
                out: &mut row,
            };
            if seq.next_element_seed(fixed)?.is_none() {
                break;
            }
            cx.path.pop();
            out.take(&row);
            i += 1;
        }
        cx.path.pop();
        Ok(out)
    }
}

/// The elements of an `Array`: nodes one level deeper.
struct Nodes<'c> {
    cx: &'c mut Cx,
}

impl<'de> Visitor<'de> for Nodes<'_> {
    type Value = Vec<Variant>;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Variant>, A::Error> {
        let cx = self.cx;
        cx.depth += 1;
        let mut items = Vec::new();
        loop {
            cx.path.push(Seg::Index(items.len()));
            let Some(v) = seq.next_element_seed(Node { cx: &mut *cx })? else {
                break;
            };
            cx.path.pop();
            push(&mut items, v);
        }
        cx.path.pop();
        cx.depth -= 1;
        Ok(finish(items))
    }
}

/// The entries of a `Dictionary`: `[key, value]` pairs of nodes one level deeper.
struct Entries<'c> {
    cx: &'c mut Cx,
}

impl<'de> Visitor<'de> for Entries<'_> {
    type Value = Vec<(Variant, Variant)>;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let cx = self.cx;
        cx.depth += 1;
        let mut entries = Vec::new();
        loop {
            cx.path.push(Seg::Index(entries.len()));
            let Some(kv) = seq.next_element_seed(Pair {
                cx: &mut *cx,
                first: KeyNode,
            })?
            else {
                break;
            };
            cx.path.pop();
            push(&mut entries, kv);
        }
        cx.path.pop();
        cx.depth -= 1;
        Ok(finish(entries))
    }
}

/// The properties of a full `Object`: `[name, value]` pairs, values one level deeper.
struct Properties<'c> {
    cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for Properties<'_> {
    type Value = Vec<(String, Variant)>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Properties<'_> {
    type Value = Vec<(String, Variant)>;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let cx = self.cx;
        cx.depth += 1;
        let mut properties = Vec::new();
        loop {
            cx.path.push(Seg::Index(properties.len()));
            let Some(p) = seq.next_element_seed(Pair {
                cx: &mut *cx,
                first: PropertyName,
            })?
            else {
                break;
            };
            cx.path.pop();
            push(&mut properties, p);
        }
        cx.path.pop();
        cx.depth -= 1;
        Ok(finish(properties))
    }
}

/// How the first item of a pair is read, and what the pair is called in errors.
trait First<'de>: Copy {
    type Value;
    const PAIR: &'static str;
    fn read<D: Deserializer<'de>>(self, cx: &mut Cx, d: D) -> Result<Self::Value, D::Error>;
}

/// Reads the key of a dictionary entry.
#[derive(Clone, Copy)]
struct KeyNode;

impl<'de> First<'de> for KeyNode {
    type Value = Variant;
    const PAIR: &'static str = "a [key, value] pair";
    fn read<D: Deserializer<'de>>(self, cx: &mut Cx, d: D) -> Result<Variant, D::Error> {
        Node { cx }.deserialize(d)
    }
}

/// Reads the name of an object property.
#[derive(Clone, Copy)]
struct PropertyName;

impl<'de> First<'de> for PropertyName {
    type Value = String;
    const PAIR: &'static str = "a [name, value] pair";
    fn read<D: Deserializer<'de>>(self, cx: &mut Cx, d: D) -> Result<String, D::Error> {
        Leaf::new(cx, string).deserialize(d)
    }
}

/// A two-element array: a first item read by `F`, then a node.
struct Pair<'c, F> {
    cx: &'c mut Cx,
    first: F,
}

impl<'de, F: First<'de>> DeserializeSeed<'de> for Pair<'_, F> {
    type Value = (F::Value, Variant);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A seed that hands its deserializer to a [`First`].
struct FirstSeed<'c, F> {
    cx: &'c mut Cx,
    first: F,
}

impl<'de, F: First<'de>> DeserializeSeed<'de> for FirstSeed<'_, F> {
    type Value = F::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<F::Value, D::Error> {
        self.first.read(self.cx, d)
    }
}

impl<'de, F: First<'de>> Visitor<'de> for Pair<'_, F> {
    type Value = (F::Value, Variant);
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(F::PAIR)
    }
    refuse_scalars!(F::PAIR);
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.cx.wrong(F::PAIR, "an object"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let cx = self.cx;
        let short =
            |cx: &mut Cx, n: usize| cx.fail(format!("expected {}, found {n} items", F::PAIR));
        cx.path.push(Seg::Index(0));
        let first = FirstSeed {
            cx: &mut *cx,
            first: self.first,
        };
        let Some(a) = seq.next_element_seed(first)? else {
            cx.path.pop();
            return Err(short(cx, 0));
        };
        cx.path.pop();
        cx.path.push(Seg::Index(1));
        let Some(b) = seq.next_element_seed(Node { cx: &mut *cx })? else {
            cx.path.pop();
            return Err(short(cx, 1));
        };
        cx.path.pop();
        let mut n = 2;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            n += 1;
        }
        if n != 2 {
            return Err(short(cx, n));
        }
        Ok((a, b))
    }
}

/// A container's element, key or value type: `{"builtin": "int"}`, `{"class": "Node"}` or
/// `{"script": "res://a.gd"}`.
struct Kind<'c> {
    cx: &'c mut Cx,
}

const KIND: &str = r#"an object like {"builtin": "int"}"#;
const ONE_KIND: &str = "expected exactly one of builtin, class, script";

impl<'de> DeserializeSeed<'de> for Kind<'_> {
    type Value = ContainerType;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ContainerType, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Kind<'_> {
    type Value = ContainerType;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(KIND)
    }
    refuse_scalars!(KIND);
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<ContainerType, A::Error> {
        Err(self.cx.wrong(KIND, "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContainerType, A::Error> {
        let cx = self.cx;
        let Some(k) = map.next_key_seed(Leaf::new(&mut *cx, string))? else {
            return Err(cx.fail(ONE_KIND));
        };
        if !ContainerType::KINDS.contains(&k.as_str()) {
            return Err(cx.fail(format!(
                "unknown container kind {:?}: expected builtin, class or script",
                k.as_str()
            )));
        }
        cx.path.push(Seg::Name(k.as_str().into()));
        let s = map.next_value_seed(Leaf::new(&mut *cx, string))?;
        cx.path.pop();
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(cx.fail(ONE_KIND));
        }
        let unknown = format!("unknown type {s:?}");
        ContainerType::from_kind(k.as_str(), s).ok_or_else(|| cx.fail(unknown))
    }
}

/// Any JSON value, kept as a `serde_json::Value` for later: the `value` of a node whose `type`
/// comes after it. `budget` is how many more levels of arrays and objects it may nest.
struct Capture<'c> {
    cx: &'c mut Cx,
    budget: usize,
}

impl Capture<'_> {
    /// The nesting a node's `value` may take: three JSON levels per level of values (a
    /// dictionary's `value`, its pair, the node) for each level left, and a few to spare.
    fn budget(cx: &Cx) -> usize {
        cx.limit
            .saturating_sub(cx.depth)
            .saturating_mul(3)
            .saturating_add(3)
    }
}

impl<'de> DeserializeSeed<'de> for Capture<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        stack::with_room(move || d.deserialize_any(self))
    }
}

impl<'de> Visitor<'de> for Capture<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let cx = self.cx;
        if self.budget == 0 {
            return Err(cx.too_deep());
        }
        let mut items = Vec::new();
        loop {
            cx.path.push(Seg::Index(items.len()));
            let inner = Capture {
                cx: &mut *cx,
                budget: self.budget - 1,
            };
            let Some(v) = seq.next_element_seed(inner)? else {
                break;
            };
            cx.path.pop();
            items.push(v);
        }
        cx.path.pop();
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let cx = self.cx;
        if self.budget == 0 {
            return Err(cx.too_deep());
        }
        let mut members = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if members.contains_key(&k) {
                let message = format!("duplicate member {k:?}");
                return Err(cx.fail_at(Seg::Name(k.into()), message));
            }
            cx.path.push(Seg::Name(k.as_str().into()));
            let v = map.next_value_seed(Capture {
                cx: &mut *cx,
                budget: self.budget - 1,
            })?;
            cx.path.pop();
            members.insert(k, v);
        }
        Ok(Value::Object(members))
    }
}

/// The members of a node, in the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    Type,
    Value,
    Names,
    Subnames,
    Absolute,
    Id,
    Class,
    Properties,
    Name,
    Object,
    ElementType,
    KeyType,
    ValueType,
}

const MEMBERS: [Member; 13] = [
    Member::Type,
    Member::Value,
    Member::Names,
    Member::Subnames,
    Member::Absolute,
    Member::Id,
    Member::Class,
    Member::Properties,
    Member::Name,
    Member::Object,
    Member::ElementType,
    Member::KeyType,
    Member::ValueType,
];

impl Member {
    fn name(self) -> &'static str {
        match self {
            Member::Type => "type",
            Member::Value => "value",
            Member::Names => "names",
            Member::Subnames => "subnames",
            Member::Absolute => "absolute",
            Member::Id => "id",
            Member::Class => "class",
            Member::Properties => "properties",
            Member::Name => "name",
            Member::Object => "object",
            Member::ElementType => "element_type",
            Member::KeyType => "key_type",
            Member::ValueType => "value_type",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// Whether a node of this shape has the member.
    fn belongs(self, shape: Shape) -> bool {
        match self {
            Member::Type => true,
            Member::Value => !matches!(
                shape,
                Shape::Empty | Shape::Callable | Shape::NodePath | Shape::Signal
            ),
            Member::Names | Member::Subnames | Member::Absolute => shape == Shape::NodePath,
            Member::Id | Member::Class | Member::Properties => shape == Shape::Object,
            Member::Name | Member::Object => shape == Shape::Signal,
            Member::ElementType => shape == Shape::Array,
            Member::KeyType | Member::ValueType => shape == Shape::Dictionary,
        }
    }

    /// The error for a member that `ty` does not have.
    fn foreign(self, ty: VariantType) -> String {
        let has: Vec<&str> = MEMBERS
            .iter()
            .filter(|m| m.belongs(ty.shape()))
            .map(|m| m.name())
            .collect();
        format!(
            "a node of type {ty} has no member {:?} (it has {})",
            self.name(),
            has.join(", ")
        )
    }
}

/// A member name; any other name is an error.
struct MemberName<'c> {
    cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for MemberName<'_> {
    type Value = Member;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Member, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for MemberName<'_> {
    type Value = Member;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member, E> {
        match MEMBERS.iter().find(|m| m.name() == v) {
            Some(m) => Ok(*m),
            None => Err(self
                .cx
                .fail_at(Seg::Name(v.into()), format!("unknown member {v:?}"))),
        }
    }
}

/// What a node's members held, before the node is put together.
#[derive(Default)]
struct Members {
    value: Option<Variant>,
    /// A `value` that came before `type`, to read once the type is known.
    early: Option<Value>,
    names: Option<Vec<Text>>,
    subnames: Option<Vec<Text>>,
    absolute: Option<bool>,
    id: Option<u64>,
    class: Option<String>,
    properties: Option<Vec<(String, Variant)>>,
    name: Option<String>,
    object: Option<u64>,
    element_type: Option<ContainerType>,
    key_type: Option<ContainerType>,
    value_type: Option<ContainerType>,
}

const OBJECT_FORMS: &str = r#""value": null, "id", or "class" and "properties""#;

impl Members {
    /// The node of type `ty` that these members make.
    fn build<E: de::Error>(self, cx: &mut Cx, ty: VariantType) -> Result<Variant, E> {
        fn need<T, E: de::Error>(cx: &mut Cx, v: Option<T>, name: &str) -> Result<T, E> {
            v.ok_or_else(|| cx.fail(format!("missing member {name:?}")))
        }
        Ok(match ty.shape() {
            Shape::Empty => Variant::Nil,
            Shape::Callable => Variant::Callable,
            Shape::NodePath => Variant::node_path(NodePath {
                names: need(cx, self.names, "names")?,
                subnames: need(cx, self.subnames, "subnames")?,
                absolute: need(cx, self.absolute, "absolute")?,
            }),
            Shape::Signal => Variant::Signal(Box::new(Signal {
                name: need(cx, self.name, "name")?,
                object_id: need(cx, self.object, "object")?,
            })),
            Shape::Object => match (self.value, self.id, self.class, self.properties) {
                (Some(null), None, None, None) => null,
                (None, Some(id), None, None) => Variant::object(Object::Id(id)),
                (None, None, Some(class), Some(properties)) => {
                    Variant::object(Object::Full { class, properties })
                }
                (None, None, Some(_), None) => need(cx, None, "properties")?,
                (None, None, None, Some(_)) => need(cx, None, "class")?,
                (None, None, None, None) => {
                    return Err(cx.fail(format!("an Object needs {OBJECT_FORMS}")));
                }
                _ => {
                    return Err(cx.fail(format!("an Object has one of {OBJECT_FORMS}, not more")));
                }
            },
            Shape::Array => match need(cx, self.value, "value")? {
                Variant::Array(mut a) => {
                    if let Some(t) = self.element_type {
                        a.set_element_type(t);
                    }
                    Variant::Array(a)
                }
                other => other,
            },
            Shape::Dictionary => match need(cx, self.value, "value")? {
                Variant::Dictionary(mut d) => {
                    if self.key_type.is_some() || self.value_type.is_some() {
                        d.set_types(
                            self.key_type.unwrap_or_default(),
                            self.value_type.unwrap_or_default(),
                        );
                    }
                    Variant::Dictionary(d)
                }
                other => other,
            },
            _ => need(cx, self.value, "value")?,
        })
    }
}

/// A node: `{"type": ..., ...}`, at nesting `cx.depth`.
pub(super) struct Node<'c> {
    pub(super) cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Variant;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        if self.cx.depth > self.cx.limit {
            return Err(self.cx.too_deep());
        }
        stack::with_room(move || d.deserialize_any(self))
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Variant;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a node object")
    }
    refuse_scalars!("a node object");
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Variant, A::Error> {
        Err(self.cx.wrong("a node object", "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        let cx = self.cx;
        let mut ty: Option<VariantType> = None;
        let mut seen = 0u16;
        let mut m = Members::default();
        while let Some(member) = map.next_key_seed(MemberName { cx: &mut *cx })? {
            let seg = Seg::Member(member.name());
            if seen & member.bit() != 0 {
                let message = format!("duplicate member {:?}", member.name());
                return Err(cx.fail_at(seg, message));
            }
            seen |= member.bit();
            if let Some(t) = ty.filter(|t| !member.belongs(t.shape())) {
                return Err(cx.fail_at(seg, member.foreign(t)));
            }
            cx.path.push(seg);
            match member {
                Member::Type => {
                    let name = map.next_value_seed(Leaf::new(&mut *cx, string))?;
                    cx.path.pop();
                    let Some(t) = VariantType::from_name(&name) else {
                        return Err(cx.fail(format!("unknown type {:?}", name.as_str())));
                    };
                    // Members that came first must belong to the type.
                    let foreign = MEMBERS
                        .iter()
                        .find(|x| seen & x.bit() != 0 && !x.belongs(t.shape()));
                    if let Some(&x) = foreign {
                        return Err(cx.fail_at(Seg::Member(x.name()), x.foreign(t)));
                    }
                    ty = Some(t);
                    continue;
                }
                Member::Value => match ty {
                    Some(ty) => m.value = Some(map.next_value_seed(Payload { cx: &mut *cx, ty })?),
                    None => {
                        let budget = Capture::budget(cx);
                        m.early = Some(map.next_value_seed(Capture {
                            cx: &mut *cx,
                            budget,
                        })?);
                    }
                },
                Member::Names => m.names = Some(map.next_value_seed(TextList { cx: &mut *cx })?),
                Member::Subnames => {
                    m.subnames = Some(map.next_value_seed(TextList { cx: &mut *cx })?)
                }
                Member::Absolute => {
                    m.absolute = Some(map.next_value_seed(Leaf::new(&mut *cx, boolean))?)
                }
                Member::Id => m.id = Some(map.next_value_seed(Leaf::new(&mut *cx, uint64))?),
                Member::Class => m.class = Some(map.next_value_seed(Leaf::new(&mut *cx, string))?),
                Member::Properties => {
                    m.properties = Some(map.next_value_seed(Properties { cx: &mut *cx })?)
                }
                Member::Name => m.name = Some(map.next_value_seed(Leaf::new(&mut *cx, string))?),
                Member::Object => {
                    m.object = Some(map.next_value_seed(Leaf::new(&mut *cx, uint64))?)
                }
                Member::ElementType => {
                    m.element_type = Some(map.next_value_seed(Kind { cx: &mut *cx })?)
                }
                Member::KeyType => m.key_type = Some(map.next_value_seed(Kind { cx: &mut *cx })?),
                Member::ValueType => {
                    m.value_type = Some(map.next_value_seed(Kind { cx: &mut *cx })?)
                }
            }
            cx.path.pop();
        }
        let Some(ty) = ty else {
            return Err(cx.fail("missing member \"type\""));
        };
        if let Some(j) = m.early.take() {
            cx.path.push(Seg::Member("value"));
            let v = Payload { cx: &mut *cx, ty }
                .deserialize(&j)
                .map_err(de::Error::custom)?;
            cx.path.pop();
            m.value = Some(v);
        }
        m.build(cx, ty)
    }
}

/// The `value` member of a node of type `ty`.
struct Payload<'c> {
    cx: &'c mut Cx,
    ty: VariantType,
}

impl<'de> DeserializeSeed<'de> for Payload<'_> {
    type Value = Variant;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        let Payload { cx, ty } = self;
        Ok(match ty.shape() {
            Shape::Bool => Variant::Bool(Leaf::new(cx, boolean).deserialize(d)?),
            Shape::Int => Variant::Int(Leaf::new(cx, int64).deserialize(d)?),
            Shape::Float => Variant::Float(Leaf::new(cx, token::<f64>).deserialize(d)?),
            Shape::String => {
                let s = TextSeed { cx }.deserialize(d)?;
                if ty == VariantType::StringName {
                    Variant::StringName(s)
                } else {
                    Variant::String(s)
                }
            }
            Shape::Reals(n) => {
                let r = if cx.double_reals {
                    Reals::from(fixed(cx, token::<f64>, n, ty, d)?)
                } else {
                    Reals::from(fixed(cx, token::<f32>, n, ty, d)?)
                };
                from_reals(cx, ty, r)?
            }
            Shape::Ints(n) => {
                let ints = I32s::from_vec(fixed(cx, int32, n, ty, d)?);
                Variant::from_ints(ty, ints)
                    .ok_or_else(|| cx.fail(format!("{ty} has no integer components")))?
            }
            Shape::Color => match fixed(cx, token::<f32>, 4, ty, d)?[..] {
                [r, g, b, a] => Variant::Color([r, g, b, a]),
                _ => return Err(cx.fail("a Color has 4 components")),
            },
            Shape::Rid => Variant::Rid(Leaf::new(cx, uint64).deserialize(d)?),
            Shape::Object => {
                Leaf::new(cx, null).deserialize(d)?;
                Variant::object(Object::Null)
            }
            Shape::Array => Variant::Array(Array::new(d.deserialize_any(Nodes { cx })?)),
            Shape::Dictionary => {
                Variant::Dictionary(Dictionary::new(d.deserialize_any(Entries { cx })?))
            }
            Shape::PackedStrings => {
                Variant::PackedStringArray(TextList { cx: &mut *cx }.deserialize(d)?)
            }
            Shape::Packed(e) => match e {
                Element::U8 => Variant::PackedByteArray(Leaf::new(cx, hex_bytes).deserialize(d)?),
                Element::I32 => Variant::PackedInt32Array(
                    List {
                        cx: &mut *cx,
                        conv: int32,
                    }
                    .deserialize(d)?,
                ),
                Element::I64 => Variant::PackedInt64Array(
                    List {
                        cx: &mut *cx,
                        conv: int64,
                    }
                    .deserialize(d)?,
                ),
                Element::F32 => Variant::PackedFloat32Array(
                    List {
                        cx: &mut *cx,
                        conv: token,
                    }
                    .deserialize(d)?,
                ),
                Element::F64 => Variant::PackedFloat64Array(
                    List {
                        cx: &mut *cx,
                        conv: token,
                    }
                    .deserialize(d)?,
                ),
                Element::Color => {
                    let rows = Rows {
                        cx,
                        conv: token::<f32>,
                        n: 4,
                        ty,
                        out: Vec::<[f32; 4]>::new(),
                    };
                    Variant::PackedColorArray(finish(rows.deserialize(d)?))
                }
                Element::Reals(n) => {
                    let r = if cx.double_reals {
                        let rows = Rows {
                            cx: &mut *cx,
                            conv: token::<f64>,
                            n,
                            ty,
                            out: Vec::<f64>::new(),
                        };
                        Reals::from(finish(rows.deserialize(d)?))
                    } else {
                        let rows = Rows {
                            cx: &mut *cx,
                            conv: token::<f32>,
                            n,
                            ty,
                            out: Vec::<f32>::new(),
                        };
                        Reals::from(finish(rows.deserialize(d)?))
                    };
                    from_reals(cx, ty, r)?
                }
            },
            // `value` is not a member of these (see `Member::belongs`).
            Shape::Empty | Shape::Callable | Shape::NodePath | Shape::Signal => {
                return Err(cx.fail(Member::Value.foreign(ty)));
            }
        })
    }
}

fn from_reals<E: de::Error>(cx: &mut Cx, ty: VariantType, r: Reals) -> Result<Variant, E> {
    Variant::from_reals(ty, r).ok_or_else(|| cx.fail(format!("{ty} has no real_t components")))
}

#[cfg(test)]
mod tests {
    //! What the reader refuses, and where: docs/tagged-json.md names each node's members and the
    //! JSON form of each (decimal strings for 64-bit integers, JSON numbers for 32-bit ones, float
    //! tokens as strings, `[key, value]` pairs, `{"builtin": ...}` kinds), and says that input
    //! that is not in that form "is refused with its JSON path". Each case is read both ways, as
    //! text (as it is parsed) and as a tree, which must agree.
    use crate::json::{JsonError, ReadError, from_json, parse_deep, read_json};
    use crate::value::{Array, ContainerType, Dictionary, Object};
    use crate::{Profile, Variant, VariantType};

    fn godot(version: &str) -> Profile {
        version.parse().unwrap()
    }

    fn read(text: &str) -> Result<Variant, JsonError> {
        read_both(text, godot("4.6"))
    }

    /// Reads `text` as text and as a tree, which must agree; a refusal is a schema error.
    pub(super) fn read_both(text: &str, p: Profile) -> Result<Variant, JsonError> {
        let tree = from_json(&parse_deep(text).unwrap(), p);
        let streamed = match read_json(text.as_bytes(), p) {
            Ok(v) => Ok(v),
            Err(ReadError::Schema { error, .. }) => Err(error),
            Err(other) => panic!("{text}: {other}"),
        };
        assert_eq!(tree, streamed, "{text}");
        streamed
    }

    fn check_refused(cases: &[(&str, &str, &str)]) {
        for &(text, path, message) in cases {
            let e = read(text).expect_err(text);
            assert_eq!(
                (e.path.as_str(), e.message.as_str()),
                (path, message),
                "{text}"
            );
        }
    }

    #[test]
    fn integers_take_their_documented_forms() {
        for (text, want) in [
            (r#"{"type":"int","value":"-7"}"#, Variant::Int(-7)),
            (r#"{"type":"int","value":-7}"#, Variant::Int(-7)),
            (r#"{"type":"int","value":7}"#, Variant::Int(7)),
            (
                r#"{"type":"RID","value":"18446744073709551615"}"#,
                Variant::Rid(u64::MAX),
            ),
            (
                r#"{"type":"Vector2i","value":[-2147483648,2147483647]}"#,
                Variant::Vector2i(crate::value::I32s::from_slice(&[i32::MIN, i32::MAX])),
            ),
            (
                r#"{"type":"Object","id":"9"}"#,
                Variant::object(Object::Id(9)),
            ),
            (
                r#"{"type":"Object","id":9}"#,
                Variant::object(Object::Id(9)),
            ),
        ] {
            assert_eq!(read(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn integers_in_other_forms_are_refused_saying_what_was_found() {
        check_refused(&[
            (
                r#"{"type":"int","value":"x"}"#,
                "$.value",
                r#""x" is not a 64-bit integer"#,
            ),
            (
                r#"{"type":"int","value":1.5}"#,
                "$.value",
                "1.5 is not an exact integer",
            ),
            (
                r#"{"type":"int","value":9223372036854775808}"#,
                "$.value",
                "9223372036854775808 is not an exact integer",
            ),
            (
                r#"{"type":"int","value":null}"#,
                "$.value",
                "expected an integer as a decimal string, found null",
            ),
            (
                r#"{"type":"int","value":[]}"#,
                "$.value",
                "expected an integer as a decimal string, found an array",
            ),
            (
                r#"{"type":"RID","value":"-1"}"#,
                "$.value",
                r#""-1" is not an unsigned 64-bit integer"#,
            ),
            (
                r#"{"type":"RID","value":-1}"#,
                "$.value",
                "-1 is not an exact unsigned integer",
            ),
            (
                r#"{"type":"RID","value":2.5}"#,
                "$.value",
                "2.5 is not an exact unsigned integer",
            ),
            (
                r#"{"type":"RID","value":true}"#,
                "$.value",
                "expected an unsigned integer as a decimal string, found a boolean",
            ),
            (
                r#"{"type":"Signal","name":"s","object":{}}"#,
                "$.object",
                "expected an unsigned integer as a decimal string, found an object",
            ),
            (
                r#"{"type":"Vector2i","value":[1,"2"]}"#,
                "$.value[1]",
                r#"expected a 32-bit integer number, found "2""#,
            ),
            (
                r#"{"type":"Vector2i","value":[1,2147483648]}"#,
                "$.value[1]",
                "2147483648 does not fit in 32 bits",
            ),
            (
                r#"{"type":"Vector2i","value":[-2147483649,1]}"#,
                "$.value[0]",
                "-2147483649 does not fit in 32 bits",
            ),
            (
                r#"{"type":"Vector2i","value":[1,18446744073709551615]}"#,
                "$.value[1]",
                "expected a 32-bit integer number, found 18446744073709551615",
            ),
            (
                r#"{"type":"PackedInt32Array","value":[1,0.5]}"#,
                "$.value[1]",
                "expected a 32-bit integer number, found 0.5",
            ),
            (
                r#"{"type":"PackedInt32Array","value":[true]}"#,
                "$.value[0]",
                "expected a 32-bit integer number, found true",
            ),
            (
                r#"{"type":"PackedInt32Array","value":[null]}"#,
                "$.value[0]",
                "expected a 32-bit integer number, found null",
            ),
            (
                r#"{"type":"PackedInt32Array","value":[[]]}"#,
                "$.value[0]",
                "expected a 32-bit integer number, found an array",
            ),
            (
                r#"{"type":"PackedInt32Array","value":[{}]}"#,
                "$.value[0]",
                "expected a 32-bit integer number, found an object",
            ),
            (
                r#"{"type":"PackedInt64Array","value":["1",false]}"#,
                "$.value[1]",
                "expected an integer as a decimal string, found a boolean",
            ),
        ]);
    }

    #[test]
    fn other_scalars_in_other_forms_are_refused_saying_what_was_found() {
        check_refused(&[
            (
                r#"{"type":"float","value":1.5}"#,
                "$.value",
                "expected a string, found a number",
            ),
            (
                r#"{"type":"PackedFloat64Array","value":["1",true]}"#,
                "$.value[1]",
                "expected a string, found a boolean",
            ),
            (
                r#"{"type":"PackedByteArray","value":[]}"#,
                "$.value",
                "expected a string, found an array",
            ),
            (
                r#"{"type":"Signal","name":{},"object":"1"}"#,
                "$.name",
                "expected a string, found an object",
            ),
            (
                r#"{"type":"Object","value":3}"#,
                "$.value",
                "an Object's value can only be null",
            ),
            (
                r#"{"type":"bool","value":null}"#,
                "$.value",
                "expected true or false",
            ),
        ]);
    }

    #[test]
    fn components_are_counted() {
        check_refused(&[
            (
                r#"{"type":"Vector2","value":["1"]}"#,
                "$.value",
                "Vector2 has 2 components, found 1",
            ),
            (
                r#"{"type":"Vector2","value":["1","2","3","4"]}"#,
                "$.value",
                "Vector2 has 2 components, found 4",
            ),
            (
                r#"{"type":"Color","value":["1","0","0"]}"#,
                "$.value",
                "Color has 4 components, found 3",
            ),
            (
                r#"{"type":"PackedVector2Array","value":[["1","2"],["3","4"],["5"]]}"#,
                "$.value[2]",
                "PackedVector2Array has 2 components, found 1",
            ),
            (
                r#"{"type":"PackedColorArray","value":[["1","0","0","1","0"]]}"#,
                "$.value[0]",
                "PackedColorArray has 4 components, found 5",
            ),
            (
                r#"{"type":"Vector2","value":{}}"#,
                "$.value",
                "expected an array, found an object",
            ),
        ]);
    }

    #[test]
    fn pairs_hold_two_items() {
        check_refused(&[
            (
                r#"{"type":"Dictionary","value":[[]]}"#,
                "$.value[0]",
                "expected a [key, value] pair, found 0 items",
            ),
            (
                r#"{"type":"Dictionary","value":[[{"type":"Nil"}]]}"#,
                "$.value[0]",
                "expected a [key, value] pair, found 1 items",
            ),
            (
                r#"{"type":"Dictionary","value":[[{"type":"Nil"},{"type":"Nil"},1,2]]}"#,
                "$.value[0]",
                "expected a [key, value] pair, found 4 items",
            ),
            (
                r#"{"type":"Dictionary","value":[{}]}"#,
                "$.value[0]",
                "expected a [key, value] pair, found an object",
            ),
            (
                r#"{"type":"Object","class":"Resource","properties":[["a"]]}"#,
                "$.properties[0]",
                "expected a [name, value] pair, found 1 items",
            ),
            (
                r#"{"type":"Object","class":"Resource","properties":[[1,{"type":"Nil"}]]}"#,
                "$.properties[0][0]",
                "expected a string, found a number",
            ),
            (
                r#"{"type":"Object","class":"Resource","properties":[["a",{"type":"Nil"}],{}]}"#,
                "$.properties[1]",
                "expected a [name, value] pair, found an object",
            ),
        ]);
        let full = read(
            r#"{"type":"Object","class":"Resource","properties":[["a",{"type":"int","value":"1"}]]}"#,
        );
        assert_eq!(
            full,
            Ok(Variant::object(Object::Full {
                class: "Resource".into(),
                properties: vec![("a".into(), Variant::Int(1))],
            }))
        );
    }

    #[test]
    fn container_types_name_one_kind() {
        let one = "expected exactly one of builtin, class, script";
        check_refused(&[
            (
                r#"{"type":"Array","element_type":{},"value":[]}"#,
                "$.element_type",
                one,
            ),
            (
                r#"{"type":"Array","element_type":{"builtin":"int","class":"X"},"value":[]}"#,
                "$.element_type",
                one,
            ),
            (
                r#"{"type":"Array","element_type":{"bogus":"int"},"value":[]}"#,
                "$.element_type",
                r#"unknown container kind "bogus": expected builtin, class or script"#,
            ),
            (
                r#"{"type":"Array","element_type":{"builtin":"Bogus"},"value":[]}"#,
                "$.element_type",
                r#"unknown type "Bogus""#,
            ),
            (
                r#"{"type":"Array","element_type":{"builtin":1},"value":[]}"#,
                "$.element_type.builtin",
                "expected a string, found a number",
            ),
            (
                r#"{"type":"Array","element_type":[],"value":[]}"#,
                "$.element_type",
                r#"expected an object like {"builtin": "int"}, found an array"#,
            ),
        ]);
        let int = ContainerType::Builtin(VariantType::Int);
        for (text, want) in [
            (
                r#"{"type":"Array","element_type":{"class":"Node"},"value":[]}"#,
                Variant::Array(Array::typed(ContainerType::class_named("Node"), vec![])),
            ),
            (
                r#"{"type":"Array","element_type":{"script":"res://a.gd"},"value":[]}"#,
                Variant::Array(Array::typed(
                    ContainerType::Script("res://a.gd".into()),
                    vec![],
                )),
            ),
            (
                r#"{"type":"Dictionary","key_type":{"builtin":"int"},"value":[]}"#,
                Variant::Dictionary(Dictionary::typed(int.clone(), ContainerType::None, vec![])),
            ),
            (
                r#"{"type":"Dictionary","value_type":{"builtin":"int"},"value":[]}"#,
                Variant::Dictionary(Dictionary::typed(ContainerType::None, int, vec![])),
            ),
        ] {
            assert_eq!(read(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn nodes_need_their_members() {
        check_refused(&[
            (r#"{"value":"1"}"#, "$", r#"missing member "type""#),
            (r#"{"type":"Bogus"}"#, "$", r#"unknown type "Bogus""#),
            (r#"{"type":"int"}"#, "$", r#"missing member "value""#),
            (r#"{"type":"Array"}"#, "$", r#"missing member "value""#),
            (r#"{"type":"Dictionary"}"#, "$", r#"missing member "value""#),
            (
                r#"{"type":"NodePath","subnames":[],"absolute":true}"#,
                "$",
                r#"missing member "names""#,
            ),
            (
                r#"{"type":"NodePath","names":[],"absolute":true}"#,
                "$",
                r#"missing member "subnames""#,
            ),
            (
                r#"{"type":"NodePath","names":[],"subnames":[]}"#,
                "$",
                r#"missing member "absolute""#,
            ),
            (
                r#"{"type":"Signal","object":"1"}"#,
                "$",
                r#"missing member "name""#,
            ),
            (
                r#"{"type":"Signal","name":"s"}"#,
                "$",
                r#"missing member "object""#,
            ),
            (
                r#"{"type":"Object","class":"Node"}"#,
                "$",
                r#"missing member "properties""#,
            ),
            (
                r#"{"type":"Object","properties":[]}"#,
                "$",
                r#"missing member "class""#,
            ),
            (
                r#"{"type":"Object"}"#,
                "$",
                r#"an Object needs "value": null, "id", or "class" and "properties""#,
            ),
            (
                r#"{"type":"Object","id":"1","class":"Node"}"#,
                "$",
                r#"an Object has one of "value": null, "id", or "class" and "properties", not more"#,
            ),
            (r#"{"type":"Nil","":1}"#, r#"$[""]"#, r#"unknown member """#),
            (
                r#"{"type":"Nil","a_1":1}"#,
                "$.a_1",
                r#"unknown member "a_1""#,
            ),
            (r#"[]"#, "$", "expected a node object, found an array"),
            (
                r#"{"type":"Array","value":[{"type":"Nil"},[]]}"#,
                "$.value[1]",
                "expected a node object, found an array",
            ),
        ]);
        let signal = read(r#"{"type":"Signal","name":"s","object":"5"}"#).unwrap();
        let Variant::Signal(s) = signal else {
            panic!("{signal:?}")
        };
        assert_eq!((s.name.as_str(), s.object_id), ("s", 5));
    }

    #[test]
    fn members_belong_to_their_types() {
        // Each member on a type without it, after the type and before it.
        for (member, value, ty, has) in [
            ("names", "[]", "int", "type, value"),
            ("subnames", "[]", "Array", "type, value, element_type"),
            ("absolute", "true", "Signal", "type, name, object"),
            ("id", r#""1""#, "Nil", "type"),
            (
                "class",
                r#""Node""#,
                "Dictionary",
                "type, value, key_type, value_type",
            ),
            (
                "properties",
                "[]",
                "NodePath",
                "type, names, subnames, absolute",
            ),
            (
                "name",
                r#""s""#,
                "Object",
                "type, value, id, class, properties",
            ),
            ("object", r#""1""#, "Callable", "type"),
            (
                "element_type",
                r#"{"builtin":"int"}"#,
                "Dictionary",
                "type, value, key_type, value_type",
            ),
            (
                "key_type",
                r#"{"builtin":"int"}"#,
                "Array",
                "type, value, element_type",
            ),
            (
                "value_type",
                r#"{"builtin":"int"}"#,
                "PackedInt32Array",
                "type, value",
            ),
        ] {
            let message = format!(r#"a node of type {ty} has no member "{member}" (it has {has})"#);
            let path = format!("$.{member}");
            for text in [
                format!(r#"{{"type":"{ty}","{member}":{value}}}"#),
                format!(r#"{{"{member}":{value},"type":"{ty}"}}"#),
            ] {
                check_refused(&[(&text, &path, &message)]);
            }
        }
    }

    #[test]
    fn a_value_before_its_type_reads_as_after_it() {
        for (value, ty, want) in [
            ("true", "bool", Variant::Bool(true)),
            ("-3", "int", Variant::Int(-3)),
            ("3", "int", Variant::Int(3)),
            (r#""3""#, "int", Variant::Int(3)),
            ("null", "Object", Variant::object(Object::Null)),
            (
                r#"[{"type":"int","value":"1"}]"#,
                "Array",
                Variant::Array(Array::new(vec![Variant::Int(1)])),
            ),
            (
                r#"{"code_units":[104,105]}"#,
                "String",
                Variant::String("hi".into()),
            ),
        ] {
            let text = format!(r#"{{"value":{value},"type":"{ty}"}}"#);
            assert_eq!(read(&text), Ok(want), "{text}");
        }
        check_refused(&[
            (
                r#"{"value":1.5,"type":"int"}"#,
                "$.value",
                "1.5 is not an exact integer",
            ),
            (
                r#"{"value":"x","type":"int"}"#,
                "$.value",
                r#""x" is not a 64-bit integer"#,
            ),
            (
                r#"{"value":[1,[]],"type":"Array"}"#,
                "$.value[0]",
                "expected a node object, found a number",
            ),
        ]);
    }

    /// `[` `levels` times and the closing brackets: bare arrays, no nodes.
    fn bare_arrays(levels: usize) -> String {
        format!("{}{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn nesting_counts_each_level_once() {
        let p = godot("4.6");
        let limit = p.max_depth();
        // Two arrays side by side, each holding a Nil at the limit: reading the first leaves
        // the depth as it was for the second.
        let chain = |levels: usize| {
            let mut s = r#"{"type":"Array","value":["#.repeat(levels);
            s.push_str(r#"{"type":"Nil"}"#);
            s.push_str(&"]}".repeat(levels));
            s
        };
        let inner = chain(limit - 1);
        let pair = format!(r#"{{"type":"Array","value":[{inner},{inner}]}}"#);
        assert!(read_json(pair.as_bytes(), p).is_ok());
        // Two dictionaries and two full objects side by side, each holding a Nil at the limit
        // in its entry or property: the same.
        let inner = chain(limit - 2);
        let dict = format!(r#"{{"type":"Dictionary","value":[[{{"type":"Nil"}},{inner}]]}}"#);
        let object = format!(r#"{{"type":"Object","class":"R","properties":[["a",{inner}]]}}"#);
        for node in [dict, object] {
            let pair = format!(r#"{{"type":"Array","value":[{node},{node}]}}"#);
            assert!(read_json(pair.as_bytes(), p).is_ok());
        }
        // A property's value is one level deeper than its object, as an element is.
        let object = format!(
            r#"{{"type":"Object","class":"R","properties":[["a",{}]]}}"#,
            chain(limit)
        );
        match read_json(object.as_bytes(), p) {
            Err(ReadError::Schema { error, .. }) => assert_eq!(
                (error.path, error.message),
                (
                    format!("$.properties[0][1]{}", ".value[0]".repeat(limit)),
                    format!("nesting deeper than {limit}")
                )
            ),
            other => panic!("{other:?}"),
        }
        // A value held until its type is known may nest three JSON levels per level of values
        // left, and three more: deeper is refused before it is read.
        let budget = 3 * limit + 3;
        let held = format!(r#"{{"value":{},"type":"Array"}}"#, bare_arrays(budget + 1));
        match read_json(held.as_bytes(), p) {
            Err(ReadError::Schema { error, .. }) => {
                assert_eq!(error.message, format!("nesting deeper than {limit}"));
                assert_eq!(error.path, format!("$.value{}", "[0]".repeat(budget)));
            }
            other => panic!("{other:?}"),
        }
        let held = format!(r#"{{"value":{},"type":"Array"}}"#, bare_arrays(budget));
        match read_json(held.as_bytes(), p) {
            Err(ReadError::Schema { error, .. }) => assert_eq!(
                (error.path.as_str(), error.message.as_str()),
                ("$.value[0]", "expected a node object, found an array")
            ),
            other => panic!("{other:?}"),
        }
    }
}
