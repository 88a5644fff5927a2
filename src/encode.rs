//! The encoder: [`Variant`] to bytes as `var_to_bytes` / `var2bytes` write them ([example](crate)).
//!
//! Godot's own choices are followed exactly (`encode_variant` in `core/io/marshalls.cpp`): an int
//! takes 64 bits only outside the i32 range; a float takes 64 bits when it does not survive a round
//! trip through f32 (so NaN always does, since NaN != NaN); strings are padded with zeros to 4 bytes;
//! strings inside a string array carry their NUL terminator in their length; a null object in 4.x is
//! written as Nil.

use crate::value::ENCODED_OBJECT_AS_ID;

/// What 3.x writes in place of a Dictionary key it cannot look up (a PoolRealArray with a NaN).
pub const DELETED_OBJECT: &str = "[Deleted Object]";
use crate::error::{EncodeError, EncodeErrorKind as K};
use crate::header::{self, FLAG_64, FLAG_OBJECT_AS_ID};
use crate::keys::{KeyRules, unfindable};
use crate::packed;
use crate::profile::{Family, Profile};
use crate::stack;
use crate::text::padding;
use crate::types::{Shape, VariantType};
use crate::utf8::{self, Utf8Rules};
use crate::value::{
    Array, Components, ContainerType, Dictionary, NodePath, Object, Reals, Text, Variant,
};

/// Why a string's code unit `u` cannot be written for `profile`.
fn unit_refused(u: u32, profile: Profile) -> String {
    match profile.utf8() {
        Utf8Rules::Strict => format!(
            "a string with code unit {u:#x}, which is not a Unicode scalar value: Godot \
             {profile} strings hold scalar values only (the engine replaces such a unit with U+FFFD)"
        ),
        Utf8Rules::Loose | Utf8Rules::LoosePairs => format!(
            "a string with code unit {u:#x}: Godot {profile} writes units up to 0x7fffffff only"
        ),
    }
}

/// Encoding switches, matching the engine's API: `EncodeOptions::new()` (all off, as
/// `var_to_bytes`), then a method per switch. New switches can come without breaking callers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct EncodeOptions {
    /// Write objects in full (`var_to_bytes_with_objects` / `var2bytes(v, true)`) instead of as ids.
    pub full_objects: bool,
}

impl EncodeOptions {
    /// Every switch off: what `var_to_bytes` / `var2bytes(v)` do.
    pub const fn new() -> EncodeOptions {
        EncodeOptions {
            full_objects: false,
        }
    }

    /// Write objects in full (`true`), as `var_to_bytes_with_objects` does, or as their ids.
    pub const fn full_objects(self, full: bool) -> EncodeOptions {
        EncodeOptions { full_objects: full }
    }
}

/// Encodes a value.
pub fn encode(v: &Variant, profile: Profile, opts: EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    encode_into(v, profile, opts, &mut out)?;
    Ok(out)
}

/// Encodes a value, appending to `out`. On error `out` may hold a partial encoding.
pub fn encode_into(
    v: &Variant,
    profile: Profile,
    opts: EncodeOptions,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    Encoder {
        profile,
        opts,
        out,
        leaf: LeafIds::of(profile),
    }
    .value(v, 0)
}

/// [`encode`] through the general path alone, without the shortcuts for common leaf values: the
/// properties check that both give the same bytes or the same error.
#[doc(hidden)]
pub fn encode_without_shortcuts(
    v: &Variant,
    profile: Profile,
    opts: EncodeOptions,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    Encoder {
        profile,
        opts,
        out: &mut out,
        leaf: LeafIds::NONE,
    }
    .value(v, 0)?;
    Ok(out)
}

struct Encoder<'o> {
    profile: Profile,
    opts: EncodeOptions,
    out: &'o mut Vec<u8>,
    /// The headers of the common leaf values, worked out once per encode.
    leaf: LeafIds,
}

/// Wire ids of the leaf types [`Encoder::leaf`] writes without the general path: most values of
/// game data (keys, names, numbers, positions). `None` where the general path must decide (a type
/// the version lacks, or reals of another width than the values hold).
#[derive(Clone, Copy)]
struct LeafIds {
    bool: Option<u32>,
    int: Option<u32>,
    float: Option<u32>,
    string: Option<u32>,
    /// Vector2 and Vector3, when their components are written as the f32s a value holds.
    vector2: Option<u32>,
    vector3: Option<u32>,
}

impl LeafIds {
    /// No shortcut: every value through the general path.
    const NONE: LeafIds = LeafIds {
        bool: None,
        int: None,
        float: None,
        string: None,
        vector2: None,
        vector3: None,
    };

    fn of(profile: Profile) -> LeafIds {
        let f32_reals = !profile.double_reals;
        let id = |ty| profile.id_of(ty);
        LeafIds {
            bool: id(VariantType::Bool),
            int: id(VariantType::Int),
            float: id(VariantType::Float),
            string: id(VariantType::String),
            vector2: id(VariantType::Vector2).filter(|_| f32_reals),
            vector3: id(VariantType::Vector3).filter(|_| f32_reals),
        }
    }
}

type R = Result<(), EncodeError>;

/// A header and one 32-bit payload word, as bytes.
#[inline(always)]
fn word2(head: u32, payload: u32) -> [u8; 8] {
    (u64::from(head) | u64::from(payload) << 32).to_le_bytes()
}

/// `n` as a count field. The engines read counts as signed 32-bit ints (`int32_t count =
/// decode_uint32(buf)` in marshalls.cpp's `decode_variant`, which refuses a negative one), so no
/// more than `i32::MAX` items can be written: past that the count would read back negative, and
/// a NodePath's name count would run into its new-format flag, bit 31.
fn count(n: usize) -> Result<u32, EncodeError> {
    if n > i32::MAX as usize {
        return Err(err(K::TooLong { len: n }));
    }
    Ok(n as u32)
}

fn err(kind: K) -> EncodeError {
    EncodeError {
        path: "$".into(),
        kind,
    }
}

impl EncodeError {
    /// A value that cannot be written, for `what` reason, at the top (`$`): how a caller that
    /// builds values from its own (the Python and npm packages) says that one has no Godot form.
    pub fn unsupported(what: impl Into<String>) -> EncodeError {
        err(K::Unsupported { what: what.into() })
    }

    /// The same error, seen from a parent value: `segment` is prefixed to the path.
    ///
    /// ```
    /// use gdmarshal::EncodeError;
    ///
    /// let e = EncodeError::unsupported("a set has no Godot form").within("{value 0}").within("[1]");
    /// assert_eq!(e.path, "$[1]{value 0}");
    /// assert_eq!(e.to_string(), "at $[1]{value 0}: a set has no Godot form");
    /// ```
    pub fn within(mut self, segment: impl std::fmt::Display) -> EncodeError {
        self.path = format!("${segment}{}", &self.path[1..]);
        self
    }
}

impl Encoder<'_> {
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn len(&mut self, n: usize) -> R {
        let n = count(n)?;
        self.u32(n);
        Ok(())
    }

    #[inline]
    fn id(&self, ty: VariantType) -> Result<u32, EncodeError> {
        match self.profile.id_of(ty) {
            Some(id) => Ok(id),
            None => Err(self.not_in_version(ty)),
        }
    }

    #[cold]
    fn not_in_version(&self, ty: VariantType) -> EncodeError {
        err(K::TypeNotInVersion {
            ty,
            version: self.profile.to_string(),
        })
    }

    /// Writes `v` at once, header and payload, if it is one of the common leaf values
    /// ([`LeafIds`]); `false`, having written nothing, for anything else. The bytes are those of
    /// the general path ([`Encoder::flags`], [`Encoder::payload`]); a property test compares the
    /// two over generated values.
    #[inline(always)]
    fn leaf(&mut self, v: &Variant) -> bool {
        let ids = self.leaf;
        match (v, ids) {
            (Variant::Int(i), LeafIds { int: Some(id), .. }) => match i32::try_from(*i) {
                Ok(small) => self.put(word2(id, small as u32)),
                Err(_) => {
                    let mut b = [0; 12];
                    b[..4].copy_from_slice(&(id | FLAG_64).to_le_bytes());
                    b[4..].copy_from_slice(&i.to_le_bytes());
                    self.put(b)
                }
            },
            #[allow(clippy::float_cmp)] // Godot's own test: `if (double(f) != d)`
            (
                Variant::Float(d),
                LeafIds {
                    float: Some(id), ..
                },
            ) => {
                if (*d as f32) as f64 == *d {
                    self.put(word2(id, (*d as f32).to_bits()))
                } else {
                    let mut b = [0; 12];
                    b[..4].copy_from_slice(&(id | FLAG_64).to_le_bytes());
                    b[4..].copy_from_slice(&d.to_le_bytes());
                    self.put(b)
                }
            }
            (Variant::Bool(b), LeafIds { bool: Some(id), .. }) => self.put(word2(id, *b as u32)),
            (
                Variant::String(t),
                LeafIds {
                    string: Some(id), ..
                },
            ) => {
                let Some(s) = t.as_str() else { return false };
                let n = s.len();
                // A string too long for the format takes the general path and its error.
                let Ok(len) = i32::try_from(n) else {
                    return false;
                };
                // Header, length, text and up to three bytes of padding: four zero bytes are
                // written after the text and the buffer cut back to the padded length, which
                // costs less than a copy of a variable number of bytes.
                let end = self.out.len() + 8 + n + padding(n);
                self.out.reserve(8 + n + 4);
                self.out.extend_from_slice(&word2(id, len as u32));
                self.out.extend_from_slice(s.as_bytes());
                self.out.extend_from_slice(&[0; 4]);
                self.out.truncate(end);
            }
            (
                Variant::Vector2(r),
                LeafIds {
                    vector2: Some(id), ..
                },
            ) => {
                let Components::F32(&[x, y]) = r.components() else {
                    return false;
                };
                let mut b = [0; 12];
                b[..4].copy_from_slice(&id.to_le_bytes());
                b[4..8].copy_from_slice(&x.to_le_bytes());
                b[8..].copy_from_slice(&y.to_le_bytes());
                self.put(b)
            }
            (
                Variant::Vector3(r),
                LeafIds {
                    vector3: Some(id), ..
                },
            ) => {
                let Components::F32(&[x, y, z]) = r.components() else {
                    return false;
                };
                let mut b = [0; 16];
                b[..4].copy_from_slice(&id.to_le_bytes());
                b[4..8].copy_from_slice(&x.to_le_bytes());
                b[8..12].copy_from_slice(&y.to_le_bytes());
                b[12..].copy_from_slice(&z.to_le_bytes());
                self.put(b)
            }
            _ => return false,
        }
        true
    }

    /// Appends a fixed number of bytes: one capacity check and one store.
    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.out.extend_from_slice(&bytes);
    }

    fn value(&mut self, v: &Variant, depth: usize) -> R {
        let limit = self.profile.max_depth();
        if depth <= limit && self.leaf(v) {
            return Ok(());
        }
        if depth > limit {
            return Err(err(K::TooDeep { limit }));
        }
        let ty = v.get_type();
        // A null object is written as Nil (`encode_variant`: "send a nullptr instead"). The
        // engines do so from 3.2 on, though 3.2's source reads as if it wrote an Object header.
        if v.as_object() == Some(&Object::Null) {
            self.u32(self.id(VariantType::Nil)?);
            return Ok(());
        }
        let head = self.id(ty)? | self.flags(v)?;
        self.u32(head);
        stack::nested(depth, || self.payload(v, depth))
    }

    /// The header flags Godot sets for a value.
    fn flags(&self, v: &Variant) -> Result<u32, EncodeError> {
        Ok(match v {
            Variant::Int(i) if i32::try_from(*i).is_err() => FLAG_64,
            #[allow(clippy::float_cmp)] // Godot's own test: `if (double(f) != d)`
            Variant::Float(d) if (*d as f32) as f64 != *d => FLAG_64,
            Variant::Object(_) if !self.opts.full_objects => FLAG_OBJECT_AS_ID,
            Variant::Array(a) => {
                self.container_kind(a.element_type(), "typed Array")? << header::ARRAY_TYPE_SHIFT
            }
            Variant::Dictionary(d) => {
                let key = self.dict_kind(d.key_type())?;
                let value = self.dict_kind(d.value_type())?;
                key << header::DICT_KEY_TYPE_SHIFT | value << header::DICT_VALUE_TYPE_SHIFT
            }
            _ if v.reals().is_some() && self.profile.wide_reals() => FLAG_64,
            _ => 0,
        })
    }

    fn container_kind(&self, t: &ContainerType, what: &str) -> Result<u32, EncodeError> {
        if *t != ContainerType::None && !self.profile.typed_arrays() {
            return Err(err(K::Unsupported {
                what: format!("Godot {} cannot write a {what}", self.profile),
            }));
        }
        Ok(match t {
            ContainerType::None => header::kind::NONE,
            ContainerType::Builtin(_) => header::kind::BUILTIN,
            // Objects of no class are the built-in Object type (`ContainerType::class_named`),
            // with or without full objects (4.6.3, findings of case generation 2).
            ContainerType::ClassName(c) if c.is_empty() => header::kind::BUILTIN,
            ContainerType::ClassName(_) => header::kind::CLASS_NAME,
            ContainerType::Script(_) if self.opts.full_objects => header::kind::SCRIPT,
            ContainerType::Script(_) => header::kind::CLASS_NAME,
        })
    }

    fn dict_kind(&self, t: &ContainerType) -> Result<u32, EncodeError> {
        if *t != ContainerType::None && !self.profile.typed_dictionaries() {
            return Err(err(K::Unsupported {
                what: format!(
                    "Godot {} cannot write a typed Dictionary (4.4 and later can)",
                    self.profile
                ),
            }));
        }
        self.container_kind(t, "typed Dictionary")
    }

    fn container_type(&mut self, t: &ContainerType) -> R {
        match t {
            ContainerType::None => {}
            ContainerType::Builtin(ty) => {
                let id = self.id(*ty)?;
                self.u32(id);
            }
            ContainerType::ClassName(c) if c.is_empty() => {
                let id = self.id(VariantType::Object)?;
                self.u32(id);
            }
            // Without full objects the engine names the class its objects will decode to.
            ContainerType::ClassName(_) | ContainerType::Script(_) if !self.opts.full_objects => {
                self.string(ENCODED_OBJECT_AS_ID)?
            }
            ContainerType::ClassName(s) | ContainerType::Script(s) => self.string(s)?,
        }
        Ok(())
    }

    fn string(&mut self, s: &str) -> R {
        self.len(s.len())?;
        self.out.extend_from_slice(s.as_bytes());
        self.pad(s.len());
        Ok(())
    }

    /// A string held by a value; `nul` adds the terminator a string array's element carries in
    /// its length.
    #[inline]
    fn text(&mut self, t: &Text, nul: bool) -> R {
        match t.as_str() {
            // Unicode text is the same UTF-8 under every version's rules.
            Some(s) => self.string_bytes(s.as_bytes(), nul),
            None => self.units(t.non_unicode_units().unwrap_or_default(), nul),
        }
    }

    /// A string of code units that are not all Unicode scalar values, as the version writes it.
    #[cold]
    fn units(&mut self, units: &[u32], nul: bool) -> R {
        let mut bytes = Vec::with_capacity(units.len() * 3);
        utf8::encode_units(units, self.profile.utf8(), &mut bytes).map_err(|i| {
            err(K::Unsupported {
                what: unit_refused(units[i], self.profile),
            })
        })?;
        self.string_bytes(&bytes, nul)
    }

    #[inline]
    fn string_bytes(&mut self, bytes: &[u8], nul: bool) -> R {
        let len = bytes.len() + nul as usize;
        self.len(len)?;
        self.out.extend_from_slice(bytes);
        if nul {
            self.out.push(0);
        }
        self.pad(len);
        Ok(())
    }

    #[inline]
    fn pad(&mut self, len: usize) {
        self.out.extend_from_slice(&[0; 3][..padding(len)]);
    }

    fn reals(&mut self, ty: VariantType, r: &Reals, fixed: bool) -> R {
        if fixed {
            let expected = ty.info().fields.len();
            if r.len() != expected {
                return Err(err(K::WrongArity {
                    ty,
                    expected,
                    found: r.len(),
                }));
            }
        }
        let real_bits = if self.profile.double_reals { 64 } else { 32 };
        match (r.components(), self.profile.double_reals) {
            (Components::F32(v), false) => packed::put_f32s(self.out, v),
            (Components::F64(v), true) => packed::put_f64s(self.out, v),
            _ => {
                return Err(err(K::WrongRealWidth {
                    ty,
                    expected: real_bits,
                }));
            }
        }
        Ok(())
    }

    fn payload(&mut self, v: &Variant, depth: usize) -> R {
        let ty = v.get_type();
        match (ty.shape(), v) {
            (_, Variant::Nil | Variant::Callable) => {}
            (_, Variant::Bool(b)) => self.u32(*b as u32),
            (_, Variant::Int(i)) => match i32::try_from(*i) {
                Ok(small) => self.u32(small as u32),
                Err(_) => self.u64(*i as u64),
            },
            #[allow(clippy::float_cmp)]
            (_, Variant::Float(d)) => {
                if (*d as f32) as f64 == *d {
                    self.out.extend_from_slice(&(*d as f32).to_le_bytes());
                } else {
                    self.out.extend_from_slice(&d.to_le_bytes());
                }
            }
            (_, Variant::String(s) | Variant::StringName(s)) => self.text(s, false)?,
            (Shape::Reals(_), _) => self.reals(ty, v.reals().expect("Reals shape"), true)?,
            (Shape::Ints(n), _) => {
                let ints = v.ints().expect("Ints shape");
                if ints.len() != n {
                    return Err(err(K::WrongArity {
                        ty,
                        expected: n,
                        found: ints.len(),
                    }));
                }
                ints.iter().for_each(|i| self.u32(*i as u32));
            }
            (_, Variant::Color(c)) => packed::put_f32s(self.out, c),
            (_, Variant::NodePath(np)) => self.node_path(np)?,
            (_, Variant::Rid(id)) => {
                if self.profile.family == Family::Godot4 {
                    self.u64(*id);
                }
            }
            (_, Variant::Object(o)) => self.object(o, depth)?,
            (_, Variant::Signal(s)) => {
                self.string(&s.name)?;
                self.u64(s.object_id);
            }
            (_, Variant::Dictionary(d)) => self.dictionary(d, depth)?,
            (_, Variant::Array(a)) => self.array(a, depth)?,
            (_, Variant::PackedByteArray(b)) => {
                self.len(b.len())?;
                self.out.extend_from_slice(b);
                self.pad(b.len());
            }
            (_, Variant::PackedInt32Array(a)) => {
                self.len(a.len())?;
                packed::put_i32s(self.out, a);
            }
            (_, Variant::PackedInt64Array(a)) => {
                self.len(a.len())?;
                packed::put_i64s(self.out, a);
            }
            (_, Variant::PackedFloat32Array(a)) => {
                self.len(a.len())?;
                packed::put_f32s(self.out, a);
            }
            (_, Variant::PackedFloat64Array(a)) => {
                self.len(a.len())?;
                packed::put_f64s(self.out, a);
            }
            (_, Variant::PackedStringArray(a)) => {
                self.len(a.len())?;
                for (i, s) in a.iter().enumerate() {
                    // Unlike a lone String, each element carries its NUL terminator in its length.
                    self.text(s, true)
                        .map_err(|e| e.within(format_args!("[{i}]")))?;
                }
            }
            (_, Variant::PackedColorArray(a)) => {
                self.len(a.len())?;
                packed::put_colors(self.out, a);
            }
            (Shape::Packed(_), _) => {
                let r = v.reals().expect("packed vector array");
                let per = ty.info().fields.len();
                if !r.len().is_multiple_of(per) {
                    return Err(err(K::WrongArity {
                        ty,
                        expected: r.len().div_ceil(per) * per,
                        found: r.len(),
                    }));
                }
                self.len(r.len() / per)?;
                self.reals(ty, r, false)?;
            }
            (shape, _) => unreachable!("{ty} has shape {shape:?}"),
        }
        Ok(())
    }

    fn node_path(&mut self, np: &NodePath) -> R {
        self.u32(count(np.names.len())? | 0x8000_0000);
        self.len(np.subnames.len())?;
        self.u32(np.absolute as u32);
        for s in np.names.iter().chain(&np.subnames) {
            self.text(s, false)?;
        }
        Ok(())
    }

    fn object(&mut self, o: &Object, depth: usize) -> R {
        match (o, self.opts.full_objects) {
            (Object::Null, _) => unreachable!("a null object is written as Nil"),
            (Object::Id(id), false) => self.u64(*id),
            // The engine decodes an id to an `EncodedObjectAsID` placeholder and writes that in
            // full: its one stored property, then the `script` that `Object::get_property_list`
            // appends (3.2.3, 3.6.2 and 4.6.3 alike). The id is an int property: its bits as i64.
            (Object::Id(id), true) => self.full_object(
                ENCODED_OBJECT_AS_ID,
                [
                    ("object_id", &Variant::Int(*id as i64)),
                    ("script", &Variant::Nil),
                ]
                .into_iter(),
                depth,
            )?,
            (Object::Full { .. }, false) => {
                return Err(err(K::Unsupported {
                    what: "a full object is written as its instance id unless full objects are on"
                        .into(),
                }));
            }
            (Object::Full { class, properties }, true) => {
                let properties = properties.iter().map(|(n, v)| (n.as_str(), v));
                self.full_object(class, properties, depth)?;
            }
        }
        Ok(())
    }

    fn full_object<'v>(
        &mut self,
        class: &str,
        properties: impl ExactSizeIterator<Item = (&'v str, &'v Variant)>,
        depth: usize,
    ) -> R {
        self.string(class)?;
        self.len(properties.len())?;
        for (name, value) in properties {
            self.string(name)?;
            self.value(value, depth + 1)
                .map_err(|e| e.within(format_args!(".{name}")))?;
        }
        Ok(())
    }

    fn array(&mut self, a: &Array, depth: usize) -> R {
        self.container_type(a.element_type())?;
        self.len(a.items().len())?;
        for (i, item) in a.items().iter().enumerate() {
            self.value(item, depth + 1)
                .map_err(|e| e.within(format_args!("[{i}]")))?;
        }
        Ok(())
    }

    fn dictionary(&mut self, d: &Dictionary, depth: usize) -> R {
        self.container_type(d.key_type())?;
        self.container_type(d.value_type())?;
        self.len(d.entries().len())?;
        let rules = KeyRules::of(self.profile);
        for (i, (k, v)) in d.entries().iter().enumerate() {
            // A key the engine cannot look up again is written as this String, with no value.
            if unfindable(k, rules) {
                self.value(&Variant::String(DELETED_OBJECT.into()), depth + 1)?;
                self.value(&Variant::Nil, depth + 1)?;
                continue;
            }
            self.value(k, depth + 1)
                .map_err(|e| e.within(format_args!("{{key {i}}}")))?;
            self.value(v, depth + 1)
                .map_err(|e| e.within(format_args!("{{value {i}}}")))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts up to `i32::MAX` are written, one more is refused: the limit itself, checked on the
    /// number alone (a value that long would take gigabytes).
    #[test]
    fn counts_stop_at_i32_max() {
        assert_eq!(count(0).ok(), Some(0));
        assert_eq!(count(i32::MAX as usize).ok(), Some(0x7fff_ffff));
        let past = i32::MAX as usize + 1;
        assert!(matches!(
            count(past).map_err(|e| e.kind),
            Err(K::TooLong { len }) if len == past
        ));
    }
}
