//! The decoder: bytes to [`Variant`], as `bytes_to_var` / `bytes2var` read them ([example](crate)).
//!
//! One reader walks the input; each shape of [`crate::types::Shape`] has one read function here, and
//! every field it reads is reported to a [`Trace`]. Counts are checked against the bytes left before
//! anything is allocated, and nesting is bounded, so hostile input fails fast with the offset of the
//! problem.

use crate::error::{DecodeError, DecodeErrorKind as K};
use crate::header::{self, FLAG_64, FLAG_OBJECT_AS_ID, TYPE_MASK};
use crate::keys::{EntrySet, KeyRules};
use crate::packed;
use crate::pool::BufferPool;
use crate::profile::Profile;
use crate::reader::{Failure, Reader};
use crate::stack;
use crate::text::{PlainWindow, SHORT, decode_not_utf8, decode_utf8, padding};
use crate::trace::{NoTrace, Trace};
use crate::typed::{self, Admitted};
use crate::types::{Element, Shape, VariantType};
use crate::value::{
    Array, ContainerType, Dictionary, ENCODED_OBJECT_AS_ID, I32s, NodePath, Object, Reals, Signal,
    Text, Variant,
};

/// Decoding switches, matching the engine's API: `DecodeOptions::new()` (all off, as
/// `bytes_to_var`), then a method per switch. New switches can come without breaking callers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeOptions {
    /// Accept full objects, as `bytes_to_var_with_objects` / `bytes2var(b, true)` do.
    pub allow_objects: bool,
}

impl DecodeOptions {
    /// Every switch off: what `bytes_to_var` / `bytes2var(b)` do.
    pub const fn new() -> DecodeOptions {
        DecodeOptions {
            allow_objects: false,
        }
    }

    /// Accept full objects (`true`), as `bytes_to_var_with_objects` does, or refuse them.
    pub const fn allow_objects(self, allow: bool) -> DecodeOptions {
        DecodeOptions {
            allow_objects: allow,
        }
    }
}

/// A decoded value and how many bytes the engine counts as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The value.
    pub value: Variant,
    /// Bytes consumed, as the engine's `r_len` reports it. Bytes after these are ignored by
    /// `bytes_to_var`. This can exceed the input length by up to 3 when the input ends inside the
    /// padding of a trailing `PackedByteArray`, which the engines accept.
    pub consumed: usize,
    /// Elements of typed containers that were decoded and then dropped as the engine drops an
    /// element it does not convert (an Array's element, a Dictionary's entry by its key), where
    /// they hold a full object: the engine instantiated the object (and loaded its script) on
    /// the way, so a class or script it lacks fails the whole input even though the value
    /// keeps nothing of it. What an engine has is its own to know (`classes::ClassList`).
    pub dropped: Vec<Variant>,
}

/// Decodes one value from the start of `bytes`.
pub fn decode(bytes: &[u8], profile: Profile, opts: DecodeOptions) -> Result<Decoded, DecodeError> {
    decode_traced(bytes, profile, opts, &mut NoTrace)
}

/// Decodes one value as [`decode`] does, building its arrays and dictionaries in buffers kept in
/// `pool` (from values given to [`BufferPool::recycle`]) where it has ones of their size.
pub fn decode_reusing(
    bytes: &[u8],
    profile: Profile,
    opts: DecodeOptions,
    pool: &mut BufferPool,
) -> Result<Decoded, DecodeError> {
    run(bytes, profile, opts, &mut NoTrace, pool)
}

/// Decodes one value, reporting every field to `trace`.
pub fn decode_traced<T: Trace>(
    bytes: &[u8],
    profile: Profile,
    opts: DecodeOptions,
    trace: &mut T,
) -> Result<Decoded, DecodeError> {
    run(bytes, profile, opts, trace, &mut BufferPool::new())
}

fn run<T: Trace>(
    bytes: &[u8],
    profile: Profile,
    opts: DecodeOptions,
    trace: &mut T,
    pool: &mut BufferPool,
) -> Result<Decoded, DecodeError> {
    let mut d = Decoder {
        r: Reader::new(bytes),
        profile,
        opts,
        trace,
        pool,
        missing_padding: 0,
        reserve_budget: bytes.len(),
        dropped: Vec::new(),
    };
    let mut value = Variant::Nil;
    d.value(0, &mut value).map_err(|e| *e)?;
    Ok(Decoded {
        value,
        consumed: d.r.pos() + d.missing_padding,
        dropped: d.dropped,
    })
}

struct Decoder<'a, 't, T: Trace> {
    r: Reader<'a>,
    profile: Profile,
    opts: DecodeOptions,
    trace: &'t mut T,
    /// Where container buffers come from.
    pool: &'t mut BufferPool,
    /// Padding that the input lacked at its very end (see [`Decoded::consumed`]).
    missing_padding: usize,
    /// Input bytes that the containers still open may reserve room against before decoding their
    /// elements. Nested containers share the bytes they could be made of, so together the open
    /// reservations stay within what the input could hold (a 40-byte value per 4 bytes at most),
    /// however deep the containers that claim huge counts are nested.
    reserve_budget: usize,
    /// See [`Decoded::dropped`].
    dropped: Vec<Variant>,
}

type R<V> = Result<V, Failure>;

/// Whether `v` holds a full object.
fn holds_full_object(v: &Variant) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Variant::Object(o) if matches!(**o, Object::Full { .. }) => return true,
            Variant::Array(a) => stack.extend(a.items()),
            Variant::Dictionary(d) => stack.extend(d.entries().iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    false
}

impl<'a, T: Trace> Decoder<'a, '_, T> {
    /// Keeps what a typed container dropped where it holds a full object ([`Decoded::dropped`]).
    /// Each dropped value is walked once, as it leaves the value decoded.
    fn keep_dropped<const N: usize>(&mut self, values: [Variant; N]) {
        if values.iter().any(holds_full_object) {
            self.dropped.extend(values);
        }
    }

    fn u32(&mut self, name: &'static str) -> R<u32> {
        let start = self.r.pos();
        let v = self.r.u32(name)?;
        self.trace
            .field(start, start + 4, name, format_args!("{v}"));
        Ok(v)
    }

    /// A signed 32-bit field (an integer vector's component), traced as the number it is.
    fn i32(&mut self, name: &'static str) -> R<i32> {
        let start = self.r.pos();
        let v = self.r.u32(name)? as i32;
        self.trace
            .field(start, start + 4, name, format_args!("{v}"));
        Ok(v)
    }

    /// A count word read as it is written (its high bit, where a format sets it, included).
    fn count_word(&mut self, name: &'static str) -> R<u32> {
        let start = self.r.pos();
        let v = self.r.u32(name)?;
        self.trace.count(start, name, v);
        Ok(v)
    }

    /// The capacity to start a container claiming `n` elements of at least `min_size` input
    /// bytes each with, and the budget it takes. The capacity is no more than the bytes left and
    /// the budget of the containers open allow, and at least one element when there is any: the
    /// header just read pays for that one, which spares each level of an exhausted budget the
    /// allocator's minimum of four. Hand the budget back with [`Decoder::give_back`] once the
    /// container is decoded.
    fn reserve(&mut self, n: usize, min_size: usize) -> (usize, usize) {
        let r = n.min(self.r.left().min(self.reserve_budget) / min_size);
        self.reserve_budget -= r * min_size;
        (r.max(n.min(1)), r * min_size)
    }

    fn give_back(&mut self, taken: usize) {
        self.reserve_budget += taken;
    }

    /// A u32 count that must not exceed what `left / min_size` elements could fill.
    fn count(&mut self, name: &'static str, min_size: usize) -> R<usize> {
        let start = self.r.pos();
        let v = self.r.u32(name)?;
        let n = v as i32;
        if n < 0 || (n as usize).saturating_mul(min_size) > self.r.left() {
            return Err(self.r.error_at(
                start,
                K::BadLength {
                    what: name,
                    value: v,
                    left: self.r.left(),
                },
            ));
        }
        self.trace.count(start, name, v);
        Ok(n as usize)
    }

    /// Decodes one value into `out`. Values are written where they end up (an array's slot, a
    /// dictionary's entry) rather than returned: moving them up through every call costs more
    /// than reading most of them.
    #[inline(always)]
    fn value(&mut self, depth: usize, out: &mut Variant) -> R<()> {
        let start = self.r.pos();
        let head = self.r.u32("type header")?;
        let id = head & TYPE_MASK;
        let ty = self
            .profile
            .type_of(id)
            .ok_or_else(|| self.r.error_at(start, K::UnknownType { id }))?;
        if T::ACTIVE {
            self.trace.header(start, ty, id, head & !TYPE_MASK);
        }
        // Strings and ints are most keys and many values: read here, they skip the call below.
        // (Each arm writes into `out` itself: see `payload`.)
        if !T::ACTIVE {
            match ty {
                VariantType::String => {
                    if let Some(plain) = self.plain_window() {
                        put(out, Variant::String(Text::default()));
                        if let Variant::String(t) = out {
                            t.set_plain_window(plain);
                        }
                    } else {
                        put(out, Variant::String(self.text_field("string")?));
                    }
                    return Ok(());
                }
                VariantType::Int => {
                    put(out, Variant::Int(self.int(head & FLAG_64 != 0)?));
                    return Ok(());
                }
                _ => {}
            }
        }
        self.payload(ty, head, depth, out)
    }

    #[inline(always)]
    fn child(&mut self, depth: usize, label: Label<'_>, out: &mut Variant) -> R<()> {
        let limit = self.profile.max_depth();
        if depth > limit {
            return Err(self.r.error(K::TooDeep { limit }));
        }
        match label {
            Label::Element(i) => self.trace.open_element(self.r.pos(), i),
            Label::Text(text) => self.trace.open(self.r.pos(), text),
        }
        // 1024 levels need more stack than a small thread has: grow it on demand. Written out
        // rather than through `stack::nested`, so that the common branch inlines the value's
        // decoding instead of calling a closure.
        if stack::looks_at(depth) {
            stack::with_room(|| self.value(depth, out))?;
        } else {
            self.value(depth, out)?;
        }
        self.trace.close(self.r.pos());
        Ok(())
    }

    /// A nested value, returned.
    fn child_value(&mut self, depth: usize, label: std::fmt::Arguments<'_>) -> R<Variant> {
        let mut v = Variant::Nil;
        self.child(depth, Label::Text(label), &mut v)?;
        Ok(v)
    }

    fn payload(&mut self, ty: VariantType, head: u32, depth: usize, out: &mut Variant) -> R<()> {
        let wide = head & FLAG_64 != 0;
        // 3.x reads real_t components as 32-bit whatever the flag says (no 64-bit path for math
        // types or Pool Vector arrays in 3.x marshalls.cpp); 4.x follows the flag. Worked out only
        // by the arms that need it: most values do not.
        let wide_reals = || wide && self.profile.major() >= 4;
        // Each arm writes its value straight into `out`: built in a temporary first, a value is
        // stored piecewise and then copied with wider loads, which stalls on the stores.
        match ty.shape() {
            Shape::Empty => put(out, Variant::Nil),
            Shape::Bool => put(out, Variant::Bool(self.u32("value")? != 0)),
            Shape::Int => put(out, Variant::Int(self.int(wide)?)),
            Shape::Float => put(out, Variant::Float(self.float(wide)?)),
            Shape::String => {
                let s = self.text("string")?;
                if ty == VariantType::StringName {
                    put(out, Variant::StringName(s))
                } else {
                    put(out, Variant::String(s))
                }
            }
            Shape::Reals(_) => {
                let reals = self.reals(ty, wide_reals())?;
                put(
                    out,
                    Variant::from_reals(ty, reals).expect("Reals shape has a Reals variant"),
                )
            }
            Shape::Ints(_) => {
                let mut v = I32s::new();
                for name in ty.info().fields {
                    v.push(self.i32(name)?);
                }
                put(
                    out,
                    Variant::from_ints(ty, v).expect("Ints shape has an ints variant"),
                )
            }
            Shape::Color => put(out, Variant::Color(self.color()?)),
            Shape::NodePath => put(out, Variant::node_path(self.node_path()?)),
            Shape::Rid if self.profile.major() == 3 => put(out, Variant::Rid(0)),
            Shape::Rid => put(out, Variant::Rid(self.u64("id")?)),
            Shape::Object => put(out, Variant::object(self.object(head, depth)?)),
            Shape::Callable => put(out, Variant::Callable),
            Shape::Signal => {
                let name = self.string("name")?;
                let object_id = self.u64("object id")?;
                put(out, Variant::Signal(Box::new(Signal { name, object_id })))
            }
            Shape::Dictionary => put(out, Variant::Dictionary(self.dictionary(head, depth)?)),
            Shape::Array => put(out, Variant::Array(self.array(head, depth)?)),
            Shape::Packed(e) => {
                let wide_reals = wide_reals();
                put(out, self.packed(ty, e, wide_reals)?)
            }
            Shape::PackedStrings => put(out, Variant::PackedStringArray(self.packed_strings()?)),
        }
        Ok(())
    }

    fn u64(&mut self, name: &'static str) -> R<u64> {
        let start = self.r.pos();
        let v = self.r.u64(name)?;
        self.trace
            .field(start, start + 8, name, format_args!("{v}"));
        Ok(v)
    }

    fn int(&mut self, wide: bool) -> R<i64> {
        let start = self.r.pos();
        let v = if wide {
            self.r.u64("int64")? as i64
        } else {
            self.r.u32("int32")? as i32 as i64
        };
        self.trace
            .field(start, self.r.pos(), "value", format_args!("{v}"));
        Ok(v)
    }

    fn float(&mut self, wide: bool) -> R<f64> {
        let start = self.r.pos();
        let v = if wide {
            self.r.f64("double")?
        } else {
            self.r.f32("float")? as f64
        };
        self.trace
            .field(start, self.r.pos(), "value", format_args!("{v:?}"));
        Ok(v)
    }

    fn color(&mut self) -> R<[f32; 4]> {
        let mut c = [0f32; 4];
        for (slot, name) in c.iter_mut().zip(VariantType::Color.info().fields) {
            let start = self.r.pos();
            *slot = self.r.f32(name)?;
            self.trace
                .field(start, start + 4, name, format_args!("{:?}", *slot));
        }
        Ok(c)
    }

    /// real_t components: 64-bit on the wire when the flag says so, stored at the build's real_t
    /// width as the engine stores them (`marshalls.cpp`: decoding follows the flag, the value follows
    /// the build). Same-width values are kept bit for bit; f64 narrows to f32 with rounding.
    fn reals(&mut self, ty: VariantType, wide: bool) -> R<Reals> {
        let names = ty.info().fields;
        // The common case in one read: 32-bit on the wire and in the build, nobody tracing, and
        // every component there (else the loop below names the one that is missing).
        if !T::ACTIVE && !wide && !self.profile.double_reals && self.r.left() >= 4 * names.len() {
            let bytes = self.r.take(4 * names.len(), "components")?;
            let c = |i: usize| {
                let at = 4 * i;
                f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
            };
            // Built in place, one component at a time: collecting makes a call that returns the
            // vector through memory, and a copy loop compiles to a call as well.
            let inline = match names.len() {
                2 => [c(0), c(1), 0.0, 0.0],
                3 => [c(0), c(1), c(2), 0.0],
                4 => [c(0), c(1), c(2), c(3)],
                _ => return Ok(packed::get_reals(bytes, false, false)),
            };
            return Ok(Reals::short32(inline, names.len()));
        }
        // Otherwise each component is read on its own, for the trace and so that the error names
        // the one that is missing, and then converted as a packed array's are.
        let start = self.r.pos();
        for name in names {
            let at = self.r.pos();
            if wide {
                let v = self.r.f64(name)?;
                self.trace
                    .field(at, self.r.pos(), name, format_args!("{v:?}"));
            } else {
                let v = self.r.f32(name)?;
                self.trace
                    .field(at, self.r.pos(), name, format_args!("{v:?}"));
            }
        }
        Ok(packed::get_reals(
            self.r.since(start),
            wide,
            self.profile.double_reals,
        ))
    }

    /// A string field's bytes, borrowed from the input (they start 4 bytes after the field).
    fn string_bytes(&mut self, name: &'static str) -> R<&'a [u8]> {
        let start = self.r.pos();
        let len = self.r.u32("string length")?;
        let n = len as i32;
        let pad = if n >= 0 { padding(n as usize) } else { 0 };
        if n < 0 || n as usize + pad > self.r.left() {
            return Err(self.r.error_at(
                start,
                K::BadLength {
                    what: "string length",
                    value: len,
                    left: self.r.left(),
                },
            ));
        }
        // Text and padding in one step: the check above made sure both are there.
        Ok(&self.r.take(n as usize + pad, name)?[..n as usize])
    }

    /// A string field as the engine reads it (under the profile's UTF-8 rules).
    // Inlined: a `Text` returned from a call is copied piecewise and decodes strings slower.
    #[inline(always)]
    fn text_field(&mut self, name: &'static str) -> R<Text> {
        // Only the bytes come back (in registers): the offsets follow from where the field starts.
        let start = self.r.pos();
        let bytes_at = start + 4;
        let bytes = self.string_bytes(name)?;
        let s = match decode_utf8(bytes) {
            Ok(s) => Text::from(s),
            Err(at) => decode_not_utf8(bytes, at, self.profile.utf8())
                .map_err(|at| self.r.error_at(bytes_at + at, K::BadUtf8 { at }))?,
        };
        if T::ACTIVE {
            // The length word was read as a u32: its value fits.
            self.trace.count(start, "length", bytes.len() as u32);
            self.trace.text(bytes_at, self.r.pos(), name, &s);
        }
        Ok(s)
    }

    /// A string field as text held by a value (inline when short).
    #[inline(always)]
    fn text(&mut self, name: &'static str) -> R<Text> {
        if !T::ACTIVE
            && let Some(t) = self.short_text()
        {
            return Ok(t);
        }
        self.text_field(name)
    }

    /// The common string field (keys, names: short plain ASCII) read from one fixed window of
    /// the input; `None`, having read nothing, when it is not that or the input ends within the
    /// window, and [`Decoder::text_field`] then reads it field by field and names any problem.
    #[inline(always)]
    fn short_text(&mut self) -> Option<Text> {
        self.plain_window().map(Text::from_plain_window)
    }

    /// The next string field's window and its length, without reading them; `None` when the
    /// input ends within the window. The window is used where it is, in the input: copied out,
    /// it is stored in pieces that the copy into a text then reads across, which stalls.
    #[inline(always)]
    fn peek_window(&self) -> Option<(&'a [u8; SHORT], usize)> {
        let field: &'a [u8; 4 + SHORT] = self.r.peek_ref()?;
        window_of(field)
    }

    /// The window of a short plain string field and its length; the field read (see
    /// [`Decoder::short_text`]).
    #[inline(always)]
    fn plain_window(&mut self) -> Option<PlainWindow<'a>> {
        let (window, n) = self.peek_window()?;
        let plain = PlainWindow::new(window, n)?;
        // The text and its padding fit in the window: it is at most 23 bytes.
        self.r.skip(4 + n + padding(n));
        Some(plain)
    }

    /// [`Decoder::plain_window`] for a whole String value whose header is `head` (its type id,
    /// no flags): the window after the header; `None`, having read nothing, when the value is
    /// not that.
    #[inline(always)]
    fn plain_string_value(&mut self, head: u32) -> Option<PlainWindow<'a>> {
        let value: &'a [u8; 8 + SHORT] = self.r.peek_ref()?;
        let (found, field) = value.split_first_chunk::<4>()?;
        let (window, n) = window_of(field)?;
        if u32::from_le_bytes(*found) != head {
            return None;
        }
        let plain = PlainWindow::new(window, n)?;
        self.r.skip(8 + n + padding(n));
        Some(plain)
    }

    /// [`Decoder::plain_window`] for an element of a `PackedStringArray`, which ends in the NUL
    /// its length counts (the engine writes it; the text stops there either way).
    #[inline(always)]
    fn plain_element(&mut self) -> Option<PlainWindow<'a>> {
        let (window, n) = self.peek_window()?;
        if n == 0 || window.get(n - 1) != Some(&0) {
            return None;
        }
        let plain = PlainWindow::new(window, n - 1)?;
        self.r.skip(4 + n + padding(n));
        Some(plain)
    }

    /// A string field that names something (a class, a property, a signal, a script): Unicode
    /// text. A 3.x engine reads other units too, but no class, property or resource path has
    /// such a name, so the value it makes cannot be written back as read.
    fn string(&mut self, name: &'static str) -> R<String> {
        let at = self.r.pos() + 4;
        let t = self.text_field(name)?;
        match t.as_str() {
            Some(s) => Ok(s.to_owned()),
            None => Err(self.r.error_at(at, K::NameNotText { what: name })),
        }
    }

    /// The error for an element at `at` that the engine converts in a way the codec does not
    /// reproduce.
    #[cold]
    fn unmodelled(&self, at: usize, u: typed::Unmodelled) -> Failure {
        self.r.error_at(
            at,
            K::UnmodelledConversion {
                from: u.from,
                to: u.to,
                why: u.why,
            },
        )
    }

    fn node_path(&mut self) -> R<NodePath> {
        let start = self.r.pos();
        let first = self.count_word("name count | 0x80000000")?;
        if first & 0x8000_0000 == 0 {
            return Err(self.r.error_at(start, K::OldNodePath));
        }
        let names = first & 0x7FFF_FFFF;
        let mut subnames = self.count_word("subname count")?;
        let flags = self.u32("flags (1 absolute, 2 old property)")?;
        // Flag 2 marks the pre-3.1 layout where the property was stored after the subnames.
        // Every engine counts in `uint32_t` and wraps: `subnamecount++` and
        // `total = namecount + subnamecount` are taken modulo 2^32, so a huge subname count can
        // cancel the name count (4.6: 1600000001000080ffffffff00000000 is the empty NodePath,
        // 16 bytes; 1600000002000080ffffffff0000000000000000 reads one string, a name, as string
        // `i` is a name while `i < namecount`). The other flag bits are ignored.
        if flags & 2 != 0 {
            subnames = subnames.wrapping_add(1);
        }
        let total = names.wrapping_add(subnames) as usize;
        let names = names as usize;
        let mut np = NodePath {
            absolute: flags & 1 != 0,
            ..NodePath::default()
        };
        if total.saturating_mul(4) > self.r.left() {
            return Err(self.r.error_at(
                start,
                K::BadLength {
                    what: "name + subname count",
                    value: total as u32,
                    left: self.r.left(),
                },
            ));
        }
        for i in 0..total {
            let s = self.text_field(if i < names { "name" } else { "subname" })?;
            if i < names {
                np.names.push(s)
            } else {
                np.subnames.push(s)
            }
        }
        // 3.x builds `NodePath(names, subnames, absolute)`, which stays the empty path (never
        // absolute) when both lists are empty; 4.x keeps the flag.
        if self.profile.major() == 3 && np.names.is_empty() && np.subnames.is_empty() {
            np.absolute = false;
        }
        Ok(np)
    }

    fn object(&mut self, head: u32, depth: usize) -> R<Object> {
        if head & FLAG_OBJECT_AS_ID != 0 {
            let id = self.u64("instance id")?;
            return Ok(if id == 0 {
                Object::Null
            } else {
                Object::Id(id)
            });
        }
        if !self.opts.allow_objects {
            return Err(self.r.error(K::ObjectsNotAllowed));
        }
        let class = self.string("class name")?;
        if class.is_empty() {
            return Ok(Object::Null);
        }
        let n = self.count_word("property count")? as i32;
        let n = n.max(0) as usize;
        let (capacity, taken) = self.reserve(n, 8);
        let mut properties = Vec::with_capacity(capacity);
        for _ in 0..n {
            let name = self.string("property name")?;
            let at = self.r.pos();
            let v = self.child_value(depth + 1, format_args!(".{name}"))?;
            // 4.3+ sets a full object's script from a resource path and refuses anything else
            // (`marshalls.cpp`: "Invalid value for \"script\" property"). Whether the path exists
            // is the engine's to know; a value that is no `res://` path never is.
            if self.profile.typed_arrays() && name == "script" && !matches!(v, Variant::Nil) {
                match &v {
                    Variant::String(p) if p.as_str().is_some_and(is_resource_path) => {}
                    _ => {
                        return Err(self.r.error_at(at, K::ScriptPropertyNotPath));
                    }
                }
            }
            properties.push((name, v));
        }
        self.give_back(taken);
        Ok(Object::Full { class, properties })
    }

    /// An element, key or value type. Without objects allowed, every object-typed container comes
    /// out typed as `EncodedObjectAsID`, which is what its elements decode to (`marshalls.cpp`, 4.3+).
    fn container_type(&mut self, kind: u32) -> R<ContainerType> {
        let encoded_as_id = || ContainerType::ClassName(ENCODED_OBJECT_AS_ID.into());
        Ok(match kind {
            header::kind::BUILTIN => {
                let start = self.r.pos();
                let id = self.r.u32("element type")?;
                // The engine checks against its own table's size (`ERR_FAIL_INDEX_V(bt, VARIANT_MAX)`).
                let ty = self
                    .profile
                    .type_of(id)
                    .ok_or_else(|| self.r.error_at(start, K::BadContainerType { value: id }))?;
                self.trace.element_type(start, ty);
                match ty {
                    // Typed as Nil is untyped.
                    VariantType::Nil => ContainerType::None,
                    VariantType::Object if !self.opts.allow_objects => encoded_as_id(),
                    _ => ContainerType::Builtin(ty),
                }
            }
            header::kind::CLASS_NAME => {
                let class = self.string("class name")?;
                if self.opts.allow_objects {
                    ContainerType::class_named(class)
                } else {
                    encoded_as_id()
                }
            }
            header::kind::SCRIPT => {
                let at = self.r.pos();
                let path = self.string("script path")?;
                // With objects allowed the engine loads the script, and refuses a path that is
                // empty, not under res:// or names no Script resource in its project
                // (`marshalls.cpp`, "Invalid script path"). The last depends on the project, which
                // the bytes do not carry: such paths are accepted (known difference
                // `script-not-in-project`; 4.6 refuses `res://N` in the oracle's project).
                if self.opts.allow_objects && !is_resource_path(&path) {
                    return Err(self.r.error_at(at, K::ScriptPathNotResource { path }));
                }
                if self.opts.allow_objects {
                    ContainerType::Script(path)
                } else {
                    encoded_as_id()
                }
            }
            _ => ContainerType::None,
        })
    }

    #[inline(never)]
    fn array(&mut self, head: u32, depth: usize) -> R<Array> {
        let kind = header::container_kind(head, header::ARRAY_TYPE_SHIFT);
        let element_type = if self.profile.typed_arrays() && kind != header::kind::NONE {
            self.container_type(kind)?
        } else {
            ContainerType::None
        };
        let start = self.r.pos();
        let n = self.r.u32("element count")? & 0x7FFF_FFFF;
        self.trace.count(start, "element count", n);
        let n = n as usize;
        let (capacity, taken) = self.reserve(n, 4);
        // A trace that does not keep the value holds one element at a time.
        let mut items = self.pool.array(if T::KEEPS_VALUES { capacity } else { 1 });
        let typed = element_type != ContainerType::None;
        // Untraced, an untyped array's elements that are short plain strings (a string array's
        // every element) are read here: through `child`, each pays for the checks and the type
        // lookup that a string's header, equal to the String type id, makes needless.
        let plain_strings = (!T::ACTIVE && !typed && depth < self.profile.max_depth())
            .then(|| self.profile.id_of(VariantType::String))
            .flatten();
        let mut i = 0;
        while i < n {
            if let Some(head) = plain_strings
                && self.r.peek_ref() == Some(&head.to_le_bytes())
            {
                i += self.plain_strings(head, &mut items, n - i);
                if i == n {
                    break;
                }
            }
            if items.len() == items.capacity() && self.r.left() < 4 {
                // The room reserved is used up with no bytes left for an element (each takes 4
                // or more): the input ends inside this one. Room for it alone, rather than twice
                // the elements so far.
                items.reserve_exact(1);
            }
            let at = self.r.pos();
            let slot = push_blank(&mut items, &NIL);
            self.child(depth + 1, Label::Element(i), slot)?;
            if typed {
                let item = items.pop().expect("just pushed");
                match typed::admit(&element_type, item, self.profile)
                    .map_err(|u| self.unmodelled(at, u))?
                {
                    Admitted::Kept(item) => items.push(item),
                    Admitted::Dropped(item) => self.keep_dropped([item]),
                }
            }
            if !T::KEEPS_VALUES {
                items.clear();
            }
            i += 1;
        }
        self.give_back(taken);
        Ok(Array::typed(element_type, items))
    }

    /// A PackedStringArray's strings. Out of line, as `array`, for the same reason as
    /// [`Decoder::plain_strings`].
    #[inline(never)]
    fn packed_strings(&mut self) -> R<Vec<Text>> {
        let n = self.count_word("count")? as i32;
        // A negative count reads as an empty array: the engine loops `for (i = 0; i < count; ...)`.
        let n = n.max(0) as usize;
        let (capacity, taken) = self.reserve(n, 4);
        let mut v = self.pool.strings(capacity);
        let mut i = 0;
        while i < n {
            // Traced, each field is read on its own.
            if !T::ACTIVE {
                while i < n
                    && let Some(plain) = self.plain_element()
                {
                    push_blank(&mut v, &EMPTY_TEXT).set_plain_window(plain);
                    i += 1;
                }
                if i == n {
                    break;
                }
            }
            self.trace.open_element(self.r.pos(), i);
            let slot = push_blank(&mut v, &EMPTY_TEXT);
            *slot = self.text_field("string")?;
            self.trace.close(self.r.pos());
            i += 1;
        }
        self.give_back(taken);
        Ok(v)
    }

    /// The short plain String values (header `head`: no flags) that come next, at most `n`,
    /// each pushed onto `items`; how many. Out of line, the loop keeps its few values in
    /// registers, where inside `array` they are spilled and reloaded for every element.
    #[inline(never)]
    fn plain_strings(&mut self, head: u32, items: &mut Vec<Variant>, n: usize) -> usize {
        let mut done = 0;
        while done < n
            && let Some(plain) = self.plain_string_value(head)
        {
            if let Variant::String(t) = push_blank(items, &EMPTY_STRING) {
                t.set_plain_window(plain);
            }
            done += 1;
        }
        done
    }

    // Out of line, as `array`: inlined, containers grow the frame of `payload`, which every value
    // passes through (≈ 10% of decoding nested dictionaries).
    #[inline(never)]
    fn dictionary(&mut self, head: u32, depth: usize) -> R<Dictionary> {
        let key_kind = header::container_kind(head, header::DICT_KEY_TYPE_SHIFT);
        let value_kind = header::container_kind(head, header::DICT_VALUE_TYPE_SHIFT);
        let typed = key_kind != header::kind::NONE || value_kind != header::kind::NONE;
        let (key_type, value_type) = if self.profile.typed_dictionaries() && typed {
            let key_type = self.container_type(key_kind)?;
            (key_type, self.container_type(value_kind)?)
        } else {
            (ContainerType::None, ContainerType::None)
        };
        let start = self.r.pos();
        let n = self.r.u32("entry count")? & 0x7FFF_FFFF;
        self.trace.count(start, "entry count", n);
        let n = n as usize;
        let (capacity, taken) = self.reserve(n, 8);
        let keys_typed = key_type != ContainerType::None;
        // A trace that does not keep the value holds one entry at a time, and builds no set of
        // keys.
        let room = if T::KEEPS_VALUES { capacity } else { 1 };
        let mut entries =
            EntrySet::in_buffer(self.pool.dictionary(room), KeyRules::of(self.profile));
        for i in 0..n {
            if entries.is_full() && self.r.left() < 8 {
                // As for arrays: the input ends inside this entry.
                entries.reserve_exact(1);
            }
            let at = self.r.pos();
            let (k, v) = entries.push_blank();
            self.child(depth + 1, Label::Text(format_args!("key {i}")), k)?;
            self.child(depth + 1, Label::Text(format_args!("value {i}")), v)?;
            // `d[key] = value` checks the key's type but not the value's: the engine converts or
            // drops a key of another type and keeps any value (seen in 4.6.3).
            if keys_typed {
                let profile = self.profile;
                let dropped = entries
                    .admit_last(|k| typed::admit(&key_type, k, profile))
                    .map_err(|u| self.unmodelled(at, u))?;
                if let Some((k, v)) = dropped {
                    self.keep_dropped([k, v]);
                }
            } else if T::KEEPS_VALUES {
                entries.settle_last();
            }
            if !T::KEEPS_VALUES {
                entries.clear();
            }
        }
        self.give_back(taken);
        let entries = entries.into_entries();
        // Untyped (nearly all) without building and dropping the types.
        Ok(if typed {
            Dictionary::typed(key_type, value_type, entries)
        } else {
            Dictionary::new(entries)
        })
    }

    /// A packed array; `wide_reals` is whether real_t elements are 64-bit on the wire (the caller
    /// has applied the version's rule for the flag).
    fn packed(&mut self, ty: VariantType, e: Element, wide_reals: bool) -> R<Variant> {
        let double = matches!(e, Element::Reals(_)) && wide_reals;
        let size = e.size(double);
        let n = self.count("count", size)?;
        let data_at = self.r.pos();
        let bytes = self.r.take(n * size, "elements")?;
        if T::ACTIVE {
            self.trace.field(
                data_at,
                self.r.pos(),
                "elements",
                format_args!("{n} × {size} bytes"),
            );
        }
        Ok(match e {
            Element::U8 => {
                // The engines count the padding as read but do not check that it is there.
                let pad = padding(n);
                let had = pad.min(self.r.left());
                self.r.skip_at_most(pad);
                self.missing_padding = pad - had;
                Variant::PackedByteArray(bytes.to_vec())
            }
            Element::I32 => Variant::PackedInt32Array(packed::get_i32s(bytes)),
            Element::I64 => Variant::PackedInt64Array(packed::get_i64s(bytes)),
            Element::F32 => Variant::PackedFloat32Array(packed::get_f32s(bytes)),
            Element::F64 => Variant::PackedFloat64Array(packed::get_f64s(bytes)),
            Element::Color => Variant::PackedColorArray(packed::get_colors(bytes)),
            Element::Reals(_) => {
                let reals = packed::get_reals(bytes, double, self.profile.double_reals);
                Variant::from_reals(ty, reals).expect("packed vector type")
            }
        })
    }
}

/// The window and the length of the string field that `field` starts with (its length, then
/// at least [`SHORT`] bytes).
#[inline(always)]
fn window_of(field: &[u8]) -> Option<(&[u8; SHORT], usize)> {
    let (len, rest) = field.split_first_chunk::<4>()?;
    Some((rest.first_chunk()?, u32::from_le_bytes(*len) as usize))
}

/// The blank of an array's slot.
static NIL: Variant = Variant::Nil;
/// The blank of an array's slot that a short string is read into.
static EMPTY_STRING: Variant = Variant::String(Text::const_new(""));
/// The blank of a string array's slot.
static EMPTY_TEXT: Text = Text::const_new("");

/// Appends `blank` to `items` and returns it, to be decoded into. Written in place, a blank Nil
/// or empty text is a store or two; `push` copies it from a temporary with wide loads that stall
/// on the narrower stores other values left in that stack slot (nearly half the time of the
/// array loop on strings).
#[inline(always)]
fn push_blank<'a, T>(items: &'a mut Vec<T>, blank: &'static T) -> &'a mut T {
    let n = items.len();
    items.reserve(1);
    // SAFETY: the room at `n` is reserved; the blank holds nothing to free (a Nil, an empty
    // text), so a bitwise copy of it owns nothing twice.
    unsafe { std::ptr::copy_nonoverlapping(blank, items.spare_capacity_mut()[0].as_mut_ptr(), 1) };
    // SAFETY: `reserve` made room at `n`, and the element there was just written.
    unsafe { items.set_len(n + 1) };
    &mut items[n]
}

/// Writes `v` into `out`, a Nil slot: nothing to drop, so skip the drop call a plain assignment
/// makes.
#[inline(always)]
fn put(out: &mut Variant, v: Variant) {
    debug_assert!(matches!(out, Variant::Nil));
    std::mem::forget(std::mem::replace(out, v));
}

/// What a nested value is to its parent, for the trace.
#[derive(Clone, Copy)]
enum Label<'a> {
    /// Element `i` of an array.
    Element(usize),
    /// Anything else, as text.
    Text(std::fmt::Arguments<'a>),
}

/// Whether a script path is one some project could hold: under `res://` (case-sensitive, so
/// `uid://`, `user://` and `RES://` never are) with something after it. Godot 4.6 refuses every
/// other path whatever its project holds, and `res://` alone in any ordinary project
/// (`ResourceLoader::exists(path, "Script")`).
fn is_resource_path(path: &str) -> bool {
    path.len() > "res://".len() && path.starts_with("res://")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::unhex;
    use crate::inspect::inspect;
    use crate::text::SHORT_TEXT;

    fn p(v: &str) -> Profile {
        v.parse().unwrap()
    }

    /// A full object in a typed container that drops it is kept apart in `dropped` (with the
    /// value of its entry, for a Dictionary's key), since the engine instantiates it before
    /// dropping it: Godot 4.6.3 refuses these inputs with a class it lacks and drops a Resource
    /// (the corpus's `decode/objects/dropped_*` cases); without full objects nothing is kept.
    #[test]
    fn dropped_elements_with_full_objects_are_kept_apart() {
        let objects = DecodeOptions {
            allow_objects: true,
        };
        let full = |class: &str| {
            Variant::object(Object::Full {
                class: class.into(),
                properties: vec![],
            })
        };
        let decoded = |hex: &str, opts| decode(&unhex(hex).unwrap(), p("4.6"), opts).unwrap();
        let array = "1c0001002500000001000000180000000b0000004e6f53756368436c6173730000000000";
        let d = decoded(array, objects);
        assert_eq!(
            d.value,
            Variant::Array(Array::typed(
                ContainerType::Builtin(VariantType::PackedColorArray),
                vec![]
            ))
        );
        assert_eq!(d.dropped, [full("NoSuchClass")]);
        let dictionary = "1b000100020000000200000018000000080000005265736f75726365000000000200000001000000020000000200000018000000080000005265736f7572636500000000";
        let d = decoded(dictionary, objects);
        assert_eq!(d.dropped, [full("Resource"), Variant::Int(1)]);
        let Variant::Dictionary(kept) = &d.value else {
            panic!("{:?}", d.value)
        };
        assert_eq!(kept.entries(), [(Variant::Int(2), full("Resource"))]);
        // An element dropped with an object nested in it is kept, one with none is not.
        let written = |item: Variant, full_objects| {
            let typed = Array::typed(ContainerType::Builtin(VariantType::Int), vec![item]);
            let options = crate::encode::EncodeOptions { full_objects };
            crate::encode::encode(&Variant::Array(typed), p("4.6"), options).unwrap()
        };
        let ints = |item| written(item, true);
        let nested = Variant::Array(Array::new(vec![Variant::Array(Array::new(vec![full(
            "NoSuchClass",
        )]))]));
        let d = decode(&ints(nested.clone()), p("4.6"), objects).unwrap();
        assert_eq!(d.dropped, [nested]);
        let in_dictionary = Variant::Dictionary(crate::value::Dictionary::new(vec![(
            Variant::Int(1),
            full("NoSuchClass"),
        )]));
        let d = decode(&ints(in_dictionary.clone()), p("4.6"), objects).unwrap();
        assert_eq!(d.dropped, [in_dictionary]);
        // An object written as its id (a placeholder the decoder does not instantiate by class)
        // is not kept.
        let by_id = Variant::Array(Array::new(vec![Variant::object(Object::Id(5))]));
        let d = decode(&written(by_id, false), p("4.6"), objects).unwrap();
        assert_eq!(d.dropped, []);
        let plain = Variant::Array(Array::new(vec![Variant::Int(7)]));
        let d = decode(&ints(plain), p("4.6"), objects).unwrap();
        assert_eq!(d.dropped, []);
    }

    /// The error decoding `hex` under 4.6 (without objects) ends in: the input must be refused.
    fn refused_by_46(hex: &str) -> DecodeError {
        let bytes = unhex(hex).unwrap();
        decode(&bytes, p("4.6"), DecodeOptions::default()).unwrap_err()
    }

    /// Runs `f` on a decoder of `bytes` under 4.6, for the tests of its parts.
    fn with_decoder<V>(bytes: &[u8], f: impl FnOnce(&mut Decoder<'_, '_, NoTrace>) -> V) -> V {
        f(&mut Decoder {
            r: Reader::new(bytes),
            profile: p("4.6"),
            opts: DecodeOptions::default(),
            trace: &mut NoTrace,
            pool: &mut BufferPool::new(),
            missing_padding: 0,
            reserve_budget: bytes.len(),
            dropped: Vec::new(),
        })
    }

    /// A string field of `text` with `pad` zero bytes after it, then room for any window.
    fn field(len: usize, text: &[u8], pad: usize) -> Vec<u8> {
        let mut b = (len as u32).to_le_bytes().to_vec();
        b.extend(text);
        b.extend(std::iter::repeat_n(0, pad + 32));
        b
    }

    #[test]
    fn short_plain_fields_are_read_from_their_window() {
        let text = [b'a'; 24];
        for n in [0, 1, 16, 17, 23] {
            let bytes = field(n, &text[..n], padding(n));
            with_decoder(&bytes, |d| {
                let plain = d.plain_window().expect("a short plain field");
                assert_eq!((&plain.window()[..n], plain.len()), (&text[..n], n));
                assert_eq!(d.r.pos(), 4 + n + padding(n));
            });
            with_decoder(&bytes, |d| {
                let t = d.short_text().expect("a short plain field");
                assert_eq!(t.as_str().map(str::as_bytes), Some(&text[..n]));
                assert_eq!(d.r.pos(), 4 + n + padding(n));
            });
        }
        // Too long, not ASCII, or past the input: read field by field, so nothing is read here.
        for bytes in [
            field(24, &text, 0),
            field(2, "é".as_bytes(), 2),
            field(1, b"a", 3)[..8].to_vec(),
        ] {
            with_decoder(&bytes, |d| {
                assert_eq!(d.plain_window(), None);
                assert_eq!(d.r.pos(), 0);
            });
        }
    }

    #[test]
    fn short_string_array_elements_end_in_their_nul() {
        let text = [b'a'; 23];
        for n in [0, 1, 2, 23] {
            let mut element = text[..n].to_vec();
            element.push(0);
            let bytes = field(n + 1, &element, padding(n + 1));
            with_decoder(&bytes, |d| {
                let plain = d.plain_element().expect("a short plain element");
                assert_eq!((&plain.window()[..n], plain.len()), (&text[..n], n));
                assert_eq!(d.r.pos(), 4 + n + 1 + padding(n + 1));
            });
        }
        // Empty, without its NUL (the text is all of it), with a NUL inside, too long: read field
        // by field.
        for bytes in [
            field(0, b"", 0),
            field(3, b"abc", 1),
            field(4, b"a\0b\0", 0),
            field(25, &[b'a'; 25], 3),
        ] {
            with_decoder(&bytes, |d| {
                assert_eq!(d.plain_element(), None);
                assert_eq!(d.r.pos(), 0);
            });
        }
    }

    /// The annotated dump of `hex` under 4.6, each line's runs of spaces squeezed to one.
    fn dump(hex: &str) -> Vec<String> {
        let bytes = unhex(hex).unwrap();
        let d = inspect(&bytes, p("4.6"), DecodeOptions::default());
        assert!(d.error.is_none(), "{hex}: {:?}", d.error);
        d.lines
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    // The dump is `gdmarshal::inspect`'s output, which the trace builds: these catch mutants of
    // the decoder's trace calls. Inputs are engine-written (tests/vectors/godot-4.6.3.stable.txt);
    // each field's offset and width is its place in marshalls.cpp's layout.

    #[test]
    fn inspect_shows_header_flags_and_a_wide_int() {
        // int/2147483648: the 64-bit flag is shown, and the value takes 8 bytes.
        assert_eq!(
            dump("020001000000008000000000"),
            [
                "00000000 02 00 01 00 header int (id 2), flags 0x10000",
                "00000004 00 00 00 80 00 00 00 00 value 2147483648",
            ]
        );
    }

    #[test]
    fn inspect_shows_each_element_of_an_array() {
        // Array/mixed: [1, "a", 2.5, null, [true]]; the string is read field by field when
        // traced, as every element is (untraced, it is read in a run of plain strings).
        assert_eq!(
            dump(
                "1c0000000500000002000000010000000400000001000000610000000300000000002040000000001c000000010000000100000001000000"
            ),
            [
                "00000000 1c 00 00 00 header Array (id 28), flags 0x0",
                "00000004 05 00 00 00 element count 5",
                "00000008 [0]",
                "00000008 02 00 00 00 header int (id 2), flags 0x0",
                "0000000c 01 00 00 00 value 1",
                "00000010 [1]",
                "00000010 04 00 00 00 header String (id 4), flags 0x0",
                "00000014 01 00 00 00 length 1",
                "00000018 61 00 00 00 string \"a\"",
                "0000001c [2]",
                "0000001c 03 00 00 00 header float (id 3), flags 0x0",
                "00000020 00 00 20 40 value 2.5",
                "00000024 [3]",
                "00000024 00 00 00 00 header Nil (id 0), flags 0x0",
                "00000028 [4]",
                "00000028 1c 00 00 00 header Array (id 28), flags 0x0",
                "0000002c 01 00 00 00 element count 1",
                "00000030 [0]",
                "00000030 01 00 00 00 header bool (id 1), flags 0x0",
                "00000034 01 00 00 00 value 1",
            ]
        );
    }

    #[test]
    fn inspect_shows_each_element_of_a_string_array() {
        // PackedStringArray/paddings: traced, every element is read field by field (untraced,
        // the short plain ones are read in a run).
        assert_eq!(
            dump(
                "2200000007000000010000000000000002000000610000000300000061620000040000006162630005000000616263640000000003000000c3a9000005000000f09d849e00000000"
            ),
            [
                "00000000 22 00 00 00 header PackedStringArray (id 34), flags 0x0",
                "00000004 07 00 00 00 count 7",
                "00000008 [0]",
                "00000008 01 00 00 00 length 1",
                "0000000c 00 00 00 00 string \"\"",
                "00000010 [1]",
                "00000010 02 00 00 00 length 2",
                "00000014 61 00 00 00 string \"a\"",
                "00000018 [2]",
                "00000018 03 00 00 00 length 3",
                "0000001c 61 62 00 00 string \"ab\"",
                "00000020 [3]",
                "00000020 04 00 00 00 length 4",
                "00000024 61 62 63 00 string \"abc\"",
                "00000028 [4]",
                "00000028 05 00 00 00 length 5",
                "0000002c 61 62 63 64 00 00 00 00 string \"abcd\"",
                "00000034 [5]",
                "00000034 03 00 00 00 length 3",
                "00000038 c3 a9 00 00 string \"é\"",
                "0000003c [6]",
                "0000003c 05 00 00 00 length 5",
                "00000040 f0 9d 84 9e 00 00 00 00 string \"𝄞\"",
            ]
        );
    }

    #[test]
    fn inspect_shows_a_u64_field_before_trailing_bytes() {
        // corpus decode/valid/RID/one, then an int the engine ignores (as decode/trailing/a_whole_int).
        assert_eq!(
            dump("1700000001000000000000000200000005000000"),
            [
                "00000000 17 00 00 00 header RID (id 23), flags 0x0",
                "00000004 01 00 00 00 00 00 00 00 id 1",
                "0000000c 02 00 00 00 05 00 00 00 trailing bytes ignored by the engine",
            ]
        );
    }

    #[test]
    fn inspect_shows_color_and_vector_components() {
        // Color/basic and Vector2/basic: four and two 4-byte components.
        assert_eq!(
            dump("14000000cdcccc3dcdcc4c3e9a99993ecdcccc3e"),
            [
                "00000000 14 00 00 00 header Color (id 20), flags 0x0",
                "00000004 cd cc cc 3d r 0.1",
                "00000008 cd cc 4c 3e g 0.2",
                "0000000c 9a 99 99 3e b 0.3",
                "00000010 cd cc cc 3e a 0.4",
            ]
        );
        assert_eq!(
            dump("050000000000c03f000010c0"),
            [
                "00000000 05 00 00 00 header Vector2 (id 5), flags 0x0",
                "00000004 00 00 c0 3f x 1.5",
                "00000008 00 00 10 c0 y -2.25",
            ]
        );
    }

    #[test]
    fn inspect_shows_integer_vector_components_signed() {
        // Vector2i(3, -3) and Rect2i(-1, 0, 2, -2147483648): the components are int32 in
        // marshalls.cpp, and decode gives them signed; inspect's rows agree.
        assert_eq!(
            dump("0600000003000000fdffffff"),
            [
                "00000000 06 00 00 00 header Vector2i (id 6), flags 0x0",
                "00000004 03 00 00 00 x 3",
                "00000008 fd ff ff ff y -3",
            ]
        );
        assert_eq!(
            dump("08000000ffffffff000000000200000000000080"),
            [
                "00000000 08 00 00 00 header Rect2i (id 8), flags 0x0",
                "00000004 ff ff ff ff position.x -1",
                "00000008 00 00 00 00 position.y 0",
                "0000000c 02 00 00 00 size.x 2",
                "00000010 00 00 00 80 size.y -2147483648",
            ]
        );
    }

    #[test]
    fn inspect_shows_string_length_and_text() {
        // String "ab" (the vector of tests/codec_paths.rs): length, then text with its padding.
        assert_eq!(
            dump("040000000200000061620000"),
            [
                "00000000 04 00 00 00 header String (id 4), flags 0x0",
                "00000004 02 00 00 00 length 2",
                "00000008 61 62 00 00 string \"ab\"",
            ]
        );
    }

    #[test]
    fn inspect_names_node_path_names_and_subnames() {
        // NodePath/subnames: one name, then two subnames (marshalls.cpp: `i < namecount`).
        assert_eq!(
            dump(
                "160000000100008002000000000000000400000061626364040000006566676804000000696a6b6c"
            ),
            [
                "00000000 16 00 00 00 header NodePath (id 22), flags 0x0",
                "00000004 01 00 00 80 name count | 0x80000000 2147483649",
                "00000008 02 00 00 00 subname count 2",
                "0000000c 00 00 00 00 flags (1 absolute, 2 old property) 0",
                "00000010 04 00 00 00 length 4",
                "00000014 61 62 63 64 name \"abcd\"",
                "00000018 04 00 00 00 length 4",
                "0000001c 65 66 67 68 subname \"efgh\"",
                "00000020 04 00 00 00 length 4",
                "00000024 69 6a 6b 6c subname \"ijkl\"",
            ]
        );
    }

    #[test]
    fn inspect_shows_counts_and_container_types() {
        // PackedInt32Array/basic: a 4-byte count, then 5 × 4 bytes.
        assert_eq!(
            dump("1e000000050000000000000001000000ffffffffffffff7f00000080"),
            [
                "00000000 1e 00 00 00 header PackedInt32Array (id 30), flags 0x0",
                "00000004 05 00 00 00 count 5",
                "00000008 00 00 00 00 01 00 00 00 ff ff ff ff ff ff ff 7f … (20 bytes) elements 5 × 4 bytes",
            ]
        );
        // Array/typed_int: element type, count, then each element.
        assert_eq!(
            dump("1c0001000200000003000000020000000100000002000000020000000200000003000000"),
            [
                "00000000 1c 00 01 00 header Array (id 28), flags 0x10000",
                "00000004 02 00 00 00 element type int",
                "00000008 03 00 00 00 element count 3",
                "0000000c [0]",
                "0000000c 02 00 00 00 header int (id 2), flags 0x0",
                "00000010 01 00 00 00 value 1",
                "00000014 [1]",
                "00000014 02 00 00 00 header int (id 2), flags 0x0",
                "00000018 02 00 00 00 value 2",
                "0000001c [2]",
                "0000001c 02 00 00 00 header int (id 2), flags 0x0",
                "00000020 03 00 00 00 value 3",
            ]
        );
        // Dictionary/typed_int_String: key and value types, the entry count, then each entry;
        // its strings have 20 bytes or more after them, and are still shown field by field.
        assert_eq!(
            dump(
                "1b00050002000000040000000200000002000000010000000400000001000000610000000200000002000000040000000100000062000000"
            ),
            [
                "00000000 1b 00 05 00 header Dictionary (id 27), flags 0x50000",
                "00000004 02 00 00 00 element type int",
                "00000008 04 00 00 00 element type String",
                "0000000c 02 00 00 00 entry count 2",
                "00000010 key 0",
                "00000010 02 00 00 00 header int (id 2), flags 0x0",
                "00000014 01 00 00 00 value 1",
                "00000018 value 0",
                "00000018 04 00 00 00 header String (id 4), flags 0x0",
                "0000001c 01 00 00 00 length 1",
                "00000020 61 00 00 00 string \"a\"",
                "00000024 key 1",
                "00000024 02 00 00 00 header int (id 2), flags 0x0",
                "00000028 02 00 00 00 value 2",
                "0000002c value 1",
                "0000002c 04 00 00 00 header String (id 4), flags 0x0",
                "00000030 01 00 00 00 length 1",
                "00000034 62 00 00 00 string \"b\"",
            ]
        );
    }

    #[test]
    fn class_typed_containers_keep_object_ids_only_where_the_placeholder_fits() {
        // Inputs and answers of Godot 4.6.3, objects allowed (those dropped are corpus cases
        // decode/objects/id_*; those kept are not, as the codec cannot write the engine's answer):
        // an id decodes to an EncodedObjectAsID (a RefCounted), which a class-typed Array or
        // Dictionary key keeps only for that class or its ancestors, a script-typed one never,
        // and a Dictionary's values always.
        let kept = |hex: &str| {
            let d = decode(
                &unhex(hex).unwrap(),
                p("4.6"),
                DecodeOptions {
                    allow_objects: true,
                },
            )
            .unwrap();
            match d.value {
                Variant::Array(a) => a.items().len(),
                Variant::Dictionary(d) => d.entries().len(),
                other => panic!("{other:?}"),
            }
        };
        for (case, hex, n) in [
            (
                "unknown_class",
                "1c001200010000001c00000001000000180001000000000100000000",
                0,
            ),
            (
                "node",
                "1c000200040000004e6f646501000000180001003930000000000000",
                0,
            ),
            (
                "refcounted",
                "1c0002000a000000526566436f756e746564000001000000180001003930000000000000",
                1,
            ),
            (
                "encoded_object_as_id",
                "1c00020011000000456e636f6465644f626a6563744173494400000001000000180001003930000000000000",
                1,
            ),
            (
                "object",
                "1c000200060000004f626a656374000001000000180001003930000000000000",
                1,
            ),
            (
                "builtin Object",
                "1c0001001800000001000000180001003930000000000000",
                1,
            ),
            (
                "null id, node",
                "1c000200040000004e6f646501000000180001000000000000000000",
                1,
            ),
            (
                "script",
                "1c000300160000007265733a2f2f66697874757265732f6974656d2e6764000001000000180001003930000000000000",
                0,
            ),
            (
                "dictionary value, node",
                "1b000800040000004e6f6465010000000200000001000000180001003930000000000000",
                1,
            ),
            (
                "dictionary key, node",
                "1b000200040000004e6f6465010000001800010039300000000000000200000001000000",
                0,
            ),
            (
                "dictionary key, refcounted",
                "1b0002000a000000526566436f756e7465640000010000001800010039300000000000000200000001000000",
                1,
            ),
        ] {
            assert_eq!(kept(hex), n, "{case}");
        }
    }

    #[test]
    fn object_typed_arrays_without_objects_hold_encoded_ids() {
        // An empty Array typed as the builtin Object (kind 1, type 24). marshalls.cpp
        // `_decode_container_type`: `if (!p_allow_objects && r_type.builtin_type == Variant::OBJECT)
        // r_type.class_name = EncodedObjectAsID::get_class_static();` and with objects it stays Object.
        let bytes = unhex("1c0001001800000000000000").unwrap();
        let element_type = |allow_objects| {
            let d = decode(&bytes, p("4.6"), DecodeOptions { allow_objects }).unwrap();
            match d.value {
                Variant::Array(a) => a.element_type().clone(),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            element_type(false),
            ContainerType::ClassName(ENCODED_OBJECT_AS_ID.into())
        );
        assert_eq!(
            element_type(true),
            ContainerType::Builtin(VariantType::Object)
        );
    }

    #[test]
    fn a_full_objects_script_may_be_a_resource_path() {
        // corpus decode/objects/script_property_not_a_path with the script "res://fixtures/item.gd",
        // a script the oracle's project holds (corpus `decode/rules/script/res_fixtures_item_gd`).
        // marshalls.cpp refuses a `script` value only when it is no String, or the path is empty,
        // not under res:// or not an existing Script; this one it loads.
        let bytes = unhex(concat!(
            "18000000080000005265736f7572636501000000060000007363726970740000",
            "04000000160000007265733a2f2f66697874757265732f6974656d2e67640000",
        ))
        .unwrap();
        let opts = DecodeOptions {
            allow_objects: true,
        };
        let d = decode(&bytes, p("4.6"), opts).unwrap();
        assert_eq!(d.consumed, bytes.len());
    }

    #[test]
    fn missing_padding_of_a_trailing_byte_array_counts_as_read() {
        // corpus decode/noncanonical/byte_array_missing_padding: 4.6.3 consumed 12 of these 9 bytes.
        let bytes = unhex("1d00000001000000ab").unwrap();
        let d = decode(&bytes, p("4.6"), DecodeOptions::default()).unwrap();
        assert_eq!(d.value, Variant::PackedByteArray(vec![0xab]));
        assert_eq!(d.consumed, 12);
    }

    #[test]
    fn a_class_name_that_is_not_unicode_is_refused_at_its_bytes() {
        // A 3.x full Object (id 17) named "\u{D800}", which 3.x reads (corpus
        // decode/string_bytes/surrogate_high) but no class has (the engine fails
        // `ClassDB::can_instance`): the error points at the name's bytes, after header and length.
        let opts = DecodeOptions {
            allow_objects: true,
        };
        let bytes = unhex("1100000003000000eda08000").unwrap();
        let e = decode(&bytes, p("3.6"), opts).unwrap_err();
        assert!(
            matches!(e.kind, K::NameNotText { what: "class name" }),
            "{e:?}"
        );
        assert_eq!(e.offset, 8);
    }

    #[test]
    fn a_packed_count_past_the_input_is_refused_at_the_count() {
        // corpus decode/hostile_count/PackedInt32Array/0x2 (4.6.3 refuses it: marshalls.cpp
        // `count < 0 || count * 4 > len`): the count itself is named, not the missing elements.
        let e = refused_by_46("1e0000000200000000000000");
        let want = K::BadLength {
            what: "count",
            value: 2,
            left: 4,
        };
        assert_eq!((e.offset, e.kind), (4, want));
    }

    #[test]
    fn a_full_objects_script_that_is_no_path_is_refused() {
        // corpus decode/objects/script_property_not_a_path: 4.6.3 refuses the script "abc"
        // ("Invalid script path").
        let bytes = unhex(concat!(
            "18000000080000005265736f7572636501000000060000007363726970740000",
            "040000000300000061626300",
        ))
        .unwrap();
        let opts = DecodeOptions {
            allow_objects: true,
        };
        let e = decode(&bytes, p("4.6"), opts).unwrap_err();
        assert!(matches!(e.kind, K::ScriptPropertyNotPath), "{e:?}");
    }

    #[test]
    fn bad_utf8_is_refused_at_the_bad_byte() {
        // corpus decode/string_bytes/truncated_two_byte: 4.6.3 refuses "a\xc3"; the error names
        // the byte at text offset 1, input offset 8 + 1.
        let e = refused_by_46("040000000200000061c30000");
        assert_eq!((e.offset, e.kind), (9, K::BadUtf8 { at: 1 }));
    }

    #[test]
    fn a_trace_that_keeps_no_values_sees_every_element_and_gets_empty_containers() {
        // Array [5, 6, [7]] (4.x ids: Array 28, int 2).
        let words: [u32; 10] = [28, 3, 2, 5, 2, 6, 28, 1, 2, 7];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        struct Watch(Vec<usize>);
        impl Trace for Watch {
            const ACTIVE: bool = true;
            const KEEPS_VALUES: bool = false;
            fn open(&mut self, offset: usize, _: std::fmt::Arguments<'_>) {
                self.0.push(offset);
            }
            fn field(&mut self, _: usize, _: usize, _: &str, _: std::fmt::Arguments<'_>) {}
            fn close(&mut self, _: usize) {}
        }
        let mut watch = Watch(Vec::new());
        let opts = DecodeOptions::default();
        let watched = decode_traced(&bytes, p("4.6"), opts, &mut watch).unwrap();
        assert_eq!(watch.0, [8, 16, 24, 32]);
        assert_eq!(watched.consumed, 40);
        assert_eq!(watched.value, Variant::Array(Array::new(Vec::new())));
        let kept = decode(&bytes, p("4.6"), opts).unwrap();
        assert_eq!(
            kept.value,
            Variant::Array(Array::new(vec![
                Variant::Int(5),
                Variant::Int(6),
                Variant::Array(Array::new(vec![Variant::Int(7)])),
            ]))
        );
        // Dictionary {1: [2], 1: 3} (Dictionary 27): a repeated key, whose later value wins.
        let words: [u32; 12] = [27, 2, 2, 1, 28, 1, 2, 2, 2, 1, 2, 3];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut watch = Watch(Vec::new());
        let watched = decode_traced(&bytes, p("4.6"), opts, &mut watch).unwrap();
        assert_eq!(watch.0, [8, 16, 24, 32, 40]);
        assert_eq!(watched.consumed, 48);
        assert_eq!(
            watched.value,
            Variant::Dictionary(Dictionary::new(Vec::new()))
        );
        let kept = decode(&bytes, p("4.6"), opts).unwrap();
        assert_eq!(
            kept.value,
            Variant::Dictionary(Dictionary::new(vec![(Variant::Int(1), Variant::Int(3))]))
        );
    }

    #[test]
    fn dictionary_keys_and_values_both_count_as_nesting() {
        // marshalls.cpp decodes a Dictionary's keys and values at `p_depth + 1` and refuses
        // `p_depth > Variant::MAX_RECURSION_DEPTH` (1024), as tests/hostile.rs checks for arrays.
        let words = |depth: usize, by_key: bool| {
            // `depth` nested one-entry Dictionaries around the int 7, nested by key or by value.
            let mut w: Vec<u32> = Vec::new();
            for _ in 0..depth {
                w.extend(if by_key {
                    &[27, 1][..]
                } else {
                    &[27, 1, 2, 0][..]
                });
            }
            w.extend([2, 7]);
            for _ in 0..depth {
                w.extend(if by_key { &[2, 0][..] } else { &[][..] });
            }
            w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
        };
        for by_key in [false, true] {
            let at = |depth| decode(&words(depth, by_key), p("4.6"), DecodeOptions::default());
            assert!(at(1024).is_ok(), "by key: {by_key}");
            let e = at(1025).unwrap_err();
            assert_eq!(e.kind, K::TooDeep { limit: 1024 }, "by key: {by_key}");
        }
    }

    #[test]
    fn a_truncated_vector_names_the_missing_component() {
        // corpus decode/truncated/Vector2/counting/at_10 (4.6.3 refuses it): x is there, y is not.
        let e = refused_by_46("05000000000000c00000");
        let want = K::Truncated {
            what: "y",
            needed: 4,
            left: 2,
        };
        assert_eq!((e.offset, e.kind), (8, want));
    }

    #[test]
    fn a_string_length_past_the_input_is_refused_at_the_length() {
        // corpus decode/hostile_count/String/0x7fffffff (4.6.3 refuses it: marshalls.cpp
        // `_decode_string`, `strlen + pad > len`): the length itself is named.
        let e = refused_by_46("04000000ffffff7f00000000");
        let want = K::BadLength {
            what: "string length",
            value: 0x7fff_ffff,
            left: 4,
        };
        assert_eq!((e.offset, e.kind), (4, want));
    }

    #[test]
    fn object_properties_count_as_nesting() {
        // marshalls.cpp decodes a full object's property values at `p_depth + 1` and refuses
        // `p_depth > Variant::MAX_RECURSION_DEPTH` (1024): 1025 Objects, each holding the next
        // in its property "a", put the int inside at depth 1025.
        let mut w: Vec<u32> = Vec::new();
        for _ in 0..1025 {
            // Object, class "Object", one property "a".
            w.extend([
                0x18,
                6,
                u32::from_le_bytes(*b"Obje"),
                u32::from_le_bytes(*b"ct\0\0"),
            ]);
            w.extend([1, 1, u32::from_le_bytes(*b"a\0\0\0")]);
        }
        w.extend([2, 7]);
        let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let opts = DecodeOptions {
            allow_objects: true,
        };
        let e = decode(&bytes, p("4.6"), opts).unwrap_err();
        assert_eq!(e.kind, K::TooDeep { limit: 1024 });
    }

    #[test]
    fn containers_before_typed_ones_ignore_the_type_bits() {
        // corpus godot-3.6.2 decode/flag_bit_17/{Dictionary,Array}/mixed: 3.6.2 reads no
        // container type (typed containers are 4.3+ and 4.4+), consumes the whole value and
        // writes it back without the bit.
        for (input, consumed, output) in [
            (
                "120002000300000002000000010000000400000001000000610000000400000001000000620000000300000000002040000000001300000000000000",
                60,
                "120000000300000002000000010000000400000001000000610000000400000001000000620000000300000000002040000000001300000000000000",
            ),
            (
                "13000200040000000200000001000000040000000100000061000000030000000000204000000000",
                40,
                "13000000040000000200000001000000040000000100000061000000030000000000204000000000",
            ),
        ] {
            let bytes = unhex(input).unwrap();
            let d = decode(&bytes, p("3.6"), DecodeOptions::default()).unwrap();
            assert_eq!(d.consumed, consumed, "{input}");
            let again = crate::encode(&d.value, p("3.6"), Default::default()).unwrap();
            assert_eq!(crate::hex::hex(&again), output);
        }
    }

    #[test]
    fn the_old_node_path_format_is_refused() {
        // corpus decode/noncanonical/nodepath_old_format: 4.6.3 refuses a NodePath whose first
        // word lacks 0x80000000 (marshalls.cpp: "Old format, just a string", `ERR_FAIL_V`).
        let e = refused_by_46("160000000400000061626364");
        assert_eq!((e.offset, e.kind), (4, K::OldNodePath));
    }

    /// One string field: length, bytes, zero padding.
    fn padded(text: &[u8]) -> Vec<u8> {
        let mut b = (text.len() as u32).to_le_bytes().to_vec();
        b.extend(text);
        b.resize(b.len() + padding(text.len()), 0);
        b
    }

    /// One String value (type id 4 in every profile): header, then its field.
    fn string_value(text: &str) -> Vec<u8> {
        [&4u32.to_le_bytes()[..], &padded(text.as_bytes())].concat()
    }

    /// `n` ints, each 7.
    fn ints(n: usize) -> Vec<u8> {
        [2u32, 7]
            .repeat(n)
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    /// `items` in a container of type `ty` under `profile`: header, count, then the items.
    fn container(profile: Profile, ty: VariantType, items: &[Vec<u8>]) -> Vec<u8> {
        let mut b = profile.id_of(ty).unwrap().to_le_bytes().to_vec();
        b.extend((items.len() as u32).to_le_bytes());
        items.iter().for_each(|i| b.extend(i));
        b
    }

    /// Decoding `bytes` and every prefix of them gives what the field-by-field (traced) path
    /// and the path into recycled buffers give, errors and their offsets included.
    /// The testkit's properties are of the codec built as a library, whose `Profile` is another
    /// type than this test build's: the profile crosses by its name.
    fn agrees_cut_anywhere(profile: Profile, bytes: &[u8]) {
        use gdmarshal_testkit::properties::{check_traced_agrees, selector};
        let sel = selector(profile.to_string().parse().unwrap(), false).unwrap();
        for end in 0..=bytes.len() {
            let mut data = vec![sel];
            data.extend(&bytes[..end]);
            check_traced_agrees(&data).unwrap();
        }
    }

    #[test]
    fn runs_of_plain_strings_read_as_each_element_alone() {
        // `array` and `packed_strings` read runs of short plain strings in a loop of their own;
        // each of these ends a run: another type, a String header with a flag bit, a string too
        // long for the window, one not ASCII, one holding a NUL (and, in a PackedStringArray,
        // one without its closing NUL).
        let short = string_value;
        let long = "twenty-four bytes or more";
        for profile in ["3.2", "3.6", "4.6"].map(p) {
            let breakers = [
                ints(1),
                [&0x1_0004u32.to_le_bytes()[..], &padded(b"flag")].concat(),
                short(long),
                short("\u{e9}t\u{e9}"),
                [&4u32.to_le_bytes()[..], &padded(b"a\0b")].concat(),
                // A Vector2 whose bytes after its header read as a plain string field: x's bits
                // as the length 3, y's as "ABC" and a byte more.
                [5u32, 3, 0x4443_4241]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect(),
            ];
            for breaker in &breakers {
                for at in [0, 1, 3] {
                    let mut items = vec![short("abc"), short("de"), short(""), short("fghij")];
                    items.insert(at, breaker.clone());
                    agrees_cut_anywhere(profile, &container(profile, VariantType::Array, &items));
                }
            }
            let elements = [
                padded(long.as_bytes()),
                padded("\u{e9}t\u{e9}\0".as_bytes()),
                padded(b"no nul"),
                padded(b"a\0b\0"),
                padded(b""),
            ];
            for breaker in &elements {
                for at in [0, 1, 3] {
                    let mut items = vec![padded(b"abc\0"), padded(b"\0"), padded(b"de\0")];
                    items.insert(at, breaker.clone());
                    let b = container(profile, VariantType::PackedStringArray, &items);
                    agrees_cut_anywhere(profile, &b);
                }
            }
            // All in a run: the strings themselves (as corpus Array/string_runs records them).
            let items = [short("abc"), short(""), short(&"x".repeat(SHORT_TEXT))];
            let b = container(profile, VariantType::Array, &items);
            let v = decode(&b, profile, DecodeOptions::default()).unwrap().value;
            let texts = ["abc", "", &"x".repeat(SHORT_TEXT)].map(|t| Variant::String(t.into()));
            assert_eq!(v, Variant::Array(Array::new(texts.to_vec())));
        }
    }

    #[test]
    fn runs_of_plain_strings_stop_at_their_container_s_count() {
        // What follows a container can read as more of its strings: a String value after an
        // Array whose run of strings starts at its second element, an int after a
        // PackedStringArray (its header is a length of 2, its value 7 then a NUL: a plain
        // element). Trailing ints leave room for every window.
        let string = string_value;
        for profile in ["3.2", "3.6", "4.6"].map(p) {
            let inner = container(profile, VariantType::Array, &[ints(1), string("abc")]);
            let outer = [inner, string("de"), string("fg"), ints(1)];
            let mut b = container(profile, VariantType::Array, &outer);
            b.extend(ints(8));
            agrees_cut_anywhere(profile, &b);
            let inner = container(profile, VariantType::PackedStringArray, &[padded(b"abc\0")]);
            let outer = [inner, ints(2), string("x")];
            let mut b = container(profile, VariantType::Array, &outer);
            b.extend(ints(8));
            agrees_cut_anywhere(profile, &b);
        }
    }

    #[test]
    fn a_run_reads_the_plain_strings_up_to_its_count_and_the_first_other_value() {
        // The run itself (the array's results do not show whether it ran): it takes each short
        // plain String value in turn, and stops at its count or at the first other value.
        let values = [
            string_value("abc"),
            string_value("de"),
            string_value(""),
            ints(1),
        ];
        let mut b = values.concat();
        b.extend([0; 32]);
        for (n, read, at) in [(9, 3, 32), (2, 2, 24), (1, 1, 12)] {
            let mut items = Vec::new();
            let (done, pos) = with_decoder(&b, |d| (d.plain_strings(4, &mut items, n), d.r.pos()));
            assert_eq!((done, pos), (read, at), "at most {n}");
            let texts = ["abc", "de", ""].map(|t| Variant::String(t.into()));
            assert_eq!(items, texts[..read]);
        }
    }

    #[test]
    fn a_typed_array_s_strings_are_admitted_one_by_one() {
        // corpus decode/noncanonical/typed_int_holding_string: 4.6.3 reads the Array[int]
        // [3, "x"] as [3] (the string is refused by the typed array). Trailing bytes, which the
        // engine ignores (decode/trailing), give the string room for a run's window: a typed
        // array's elements are never read in one.
        let mut b =
            unhex("1c00010002000000020000000200000003000000040000000100000078000000").unwrap();
        b.extend([0; 32]);
        let v = decode(&b, p("4.6"), DecodeOptions::default())
            .unwrap()
            .value;
        let int = ContainerType::Builtin(VariantType::Int);
        assert_eq!(v, Variant::Array(Array::typed(int, vec![Variant::Int(3)])));
    }

    #[test]
    fn a_string_in_a_run_counts_toward_the_depth_limit() {
        // marshalls.cpp refuses `p_depth > Variant::MAX_RECURSION_DEPTH` (1024) for every value,
        // a string as well: the outermost Array is depth 0, its elements depth 1.
        // The innermost Array holds the string and an int after it: the window a short string
        // is read from reaches past the string's own bytes.
        let nested = |arrays: usize| {
            let mut b = Vec::new();
            for depth in 1..=arrays {
                let count = if depth == arrays { 2u32 } else { 1 };
                b.extend([28u32, count].iter().flat_map(|w| w.to_le_bytes()));
            }
            b.extend([4u32, 3].iter().flat_map(|w| w.to_le_bytes()));
            b.extend(b"abc\0");
            b.extend([2u32; 16].iter().flat_map(|w| w.to_le_bytes()));
            b
        };
        assert!(decode(&nested(1024), p("4.6"), DecodeOptions::default()).is_ok());
        let e = decode(&nested(1025), p("4.6"), DecodeOptions::default()).unwrap_err();
        assert_eq!((e.offset, e.kind), (1025 * 8, K::TooDeep { limit: 1024 }));
    }
}
