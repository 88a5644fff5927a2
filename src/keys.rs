//! Dictionary key identity as the engines see it.
//!
//! A decoded Dictionary holds each key once: a later entry with an equal key replaces the value and
//! keeps the first entry's place. "Equal" is Godot's `hash_compare` (`core/variant/variant.cpp`):
//! same type, floats equal by value with every NaN equal to every NaN (so 0.0 and -0.0 are one key),
//! containers compared element by element; and in 4.x a String and a StringName with the same text
//! are one key (`StringLikeVariantComparator`, `core/variant/variant.h`). Each decoded full object
//! is a new instance, so it never equals another key.
//!
//! 3.x differs in three ways ([`KeyRules`]): a Dictionary key is compared by identity, a
//! PoolRealArray key is hashed by its bytes, and 3.2's comparison of PoolRealArray keys has no NaN
//! rule. From 4.1 on, a float inside a key (an Array's element, a Dictionary's value) is compared
//! by value alone, so a NaN there equals nothing.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

use crate::profile::{Family, Profile};
use crate::typed::Admitted;
use crate::value::{Components, Object, Reals, Variant};

/// How a version's `hash_compare` differs from 4.x's, for the keys it decodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyRules {
    /// Dictionaries are equal only when they are the same instance (3.x: `hash_compare` falls back
    /// to `operator==`, which compares the shared pointer), so no two decoded Dictionary keys are
    /// equal (3.2.3 and 3.6.2 keep `{{}: 1, {}: 2}` as two entries; 4.6.3 keeps one).
    pub dictionaries_by_identity: bool,
    /// A PoolRealArray key is hashed by its bytes (3.x `Variant::hash`: `hash_djb2_buffer` over
    /// the array), and keys of different hashes are never compared: `[0.0]` and `[-0.0]`, or NaNs
    /// of two payloads, are two keys (3.2.3 and 3.6.2, corpus cases
    /// `decode/keys/float32_array_keys_zero_signs` and `nan_payload_float32_array_keys`), while
    /// the same keys in a PoolVector2Array or PoolColorArray, hashed element by element, are one.
    pub real_arrays_by_bits: bool,
    /// A PoolRealArray holding a NaN equals nothing, not even itself: 3.2's `hash_compare` has no
    /// case for it and falls back to `==`. The engine cannot look such a key up again, so a later
    /// equal key never replaces it, and [`unfindable`] says how the encoder writes it.
    pub nan_reals_lost: bool,
    /// Inside a key, an Array's elements and a Dictionary's values that are floats are equal only
    /// when `==` says so: a NaN there equals nothing, not even itself (4.1 on: `Array::
    /// recursive_equal` and `Dictionary::recursive_equal` call `hash_compare(.., false)`, which
    /// drops the NaN rule for FLOAT; Godot PR #74588, after 4.0). So 4.6.3 keeps `{[NAN]: 1,
    /// [NAN]: 2}` and `{{1: NAN}: 1, {1: NAN}: 2}` as two entries (corpus cases
    /// `decode/keys/array_of_nan_float_keys`, `dictionary_of_nan_float_value_keys`), while 3.2.3
    /// and 3.6.2 merge the Array keys. Packed arrays, vectors and a nested Dictionary's keys keep
    /// the NaN rule.
    pub nan_floats_inside_differ: bool,
}

impl KeyRules {
    /// The rules of `profile`'s engine. Verified: 3.2.3 (identity, bits, NaN reals lost), 3.6.2
    /// (identity, bits), 4.6.3 (NaN floats inside differ). The NaN-reals rule is taken to hold up
    /// to 3.3, following 3.2, the nearest verified version; the NaN-floats-inside rule from 4.1,
    /// the first release with Godot PR #74588 (4.1 to 4.5 unverified).
    pub fn of(profile: Profile) -> KeyRules {
        let godot3 = profile.family == Family::Godot3;
        KeyRules {
            dictionaries_by_identity: godot3,
            real_arrays_by_bits: godot3,
            nan_reals_lost: godot3 && profile.minor <= 3,
            nan_floats_inside_differ: !godot3 && profile.minor >= 1,
        }
    }
}

/// Whether the engine cannot find key `k` in its own dictionary: then `encode_variant` writes it as
/// the String `"[Deleted Object]"` with a Nil value (`marshalls.cpp`, Dictionary case:
/// `encode_variant(v ? E->get() : Variant("[Deleted Object]"), ...)`, where `v = d.getptr(key)`).
/// Only [`KeyRules::nan_reals_lost`] makes a key unfindable; an Array is compared element by
/// element, so one holding such a key is unfindable too.
pub fn unfindable(k: &Variant, rules: KeyRules) -> bool {
    rules.nan_reals_lost
        && match k {
            Variant::PackedFloat32Array(x) => x.iter().any(|x| x.is_nan()),
            Variant::Array(a) => a.items().iter().any(|x| unfindable(x, rules)),
            _ => false,
        }
}

fn eq32(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
}

fn eq64(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
}

/// Whether decoding `v` makes a new object each time: a full object, or an instance id (which
/// decodes to a new `EncodedObjectAsID`). Objects compare by identity, so such a key equals no
/// other key, not even one written the same.
fn is_new_object(v: &Variant) -> bool {
    matches!(v.as_object(), Some(Object::Full { .. } | Object::Id(_)))
}

/// Whether key `k` equals no key at all, itself included: then a dictionary needs no look-up to
/// keep it (and many such keys, which would share a hash, never cost a scan each).
fn equals_nothing(k: &Variant, rules: KeyRules) -> bool {
    match k {
        Variant::Dictionary(_) => rules.dictionaries_by_identity,
        Variant::Array(a) => a.items().iter().any(|x| equals_nothing(x, rules)),
        Variant::PackedFloat32Array(_) => unfindable(k, rules),
        _ => is_new_object(k),
    }
}

/// Whether two keys are the same dictionary key to an engine with `rules`.
pub fn same_key(a: &Variant, b: &Variant, rules: KeyRules) -> bool {
    same(a, b, rules, false)
}

/// [`same_key`] for `a` and `b` where they stand: a key, or (`inside`) an element or value within
/// one.
fn same(a: &Variant, b: &Variant, rules: KeyRules, inside: bool) -> bool {
    use Variant as V;
    match (a, b) {
        (V::String(x) | V::StringName(x), V::String(y) | V::StringName(y)) => x == y,
        // The common key types first, without the generic comparison below.
        (V::Int(x), V::Int(y)) => x == y,
        (V::Int(_) | V::String(_) | V::StringName(_), _)
        | (_, V::Int(_) | V::String(_) | V::StringName(_)) => false,
        (V::Float(x), V::Float(y)) if inside && rules.nan_floats_inside_differ => x == y,
        (V::Float(x), V::Float(y)) => eq64(&[*x], &[*y]),
        (V::Color(x), V::Color(y)) => eq32(x, y),
        (V::PackedFloat32Array(_), _) | (_, V::PackedFloat32Array(_))
            if unfindable(a, rules) || unfindable(b, rules) =>
        {
            false
        }
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) if rules.real_arrays_by_bits => {
            // Same bits: 3.6's NaN rule then makes equal NaNs one key, and 3.2's NaNs are
            // unfindable (above).
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits())
        }
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => eq32(x, y),
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => eq64(x, y),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(c, d)| eq32(c, d))
        }
        _ if is_new_object(a) || is_new_object(b) => false,
        (V::Array(x), V::Array(y)) => {
            x.items().len() == y.items().len()
                && x.items()
                    .iter()
                    .zip(y.items())
                    .all(|(p, q)| same(p, q, rules, true))
        }
        (V::Dictionary(_), V::Dictionary(_)) if rules.dictionaries_by_identity => false,
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.entries().len() == y.entries().len()
                && x.entries()
                    .iter()
                    .zip(y.entries())
                    .all(|((k, v), (l, w))| same_key(k, l, rules) && same(v, w, rules, true))
        }
        _ if a.get_type() != b.get_type() => false,
        _ => match (
            a.reals().map(Reals::components),
            b.reals().map(Reals::components),
        ) {
            (Some(Components::F32(x)), Some(Components::F32(y))) => eq32(x, y),
            (Some(Components::F64(x)), Some(Components::F64(y))) => eq64(x, y),
            (Some(_), Some(_)) => false,
            // Everything else has no float inside: plain equality is the engine's.
            _ => a == b,
        },
    }
}

/// A hash consistent with [`same_key`]: equal keys hash alike.
fn hash_key<H: Hasher>(v: &Variant, h: &mut H) {
    use Variant as V;
    let f32h = |x: f32, h: &mut H| {
        if x.is_nan() {
            1u32.hash(h)
        } else {
            (x + 0.0).to_bits().hash(h)
        }
    };
    let f64h = |x: f64, h: &mut H| {
        if x.is_nan() {
            1u64.hash(h)
        } else {
            (x + 0.0).to_bits().hash(h)
        }
    };
    match v {
        V::String(s) | V::StringName(s) => s.hash(h),
        _ => (v.get_type() as u8).hash(h),
    }
    match v {
        V::Bool(b) => b.hash(h),
        V::Int(i) => i.hash(h),
        V::Rid(i) => i.hash(h),
        V::Float(x) => f64h(*x, h),
        V::Color(c) => c.iter().for_each(|x| f32h(*x, h)),
        V::NodePath(np) => np.hash(h),
        V::Array(a) => a.items().iter().for_each(|x| hash_key(x, h)),
        V::Dictionary(d) => d.entries().len().hash(h),
        V::PackedByteArray(b) => b.hash(h),
        V::PackedInt32Array(a) => a.hash(h),
        V::PackedInt64Array(a) => a.hash(h),
        V::PackedStringArray(a) => a.hash(h),
        V::PackedFloat32Array(a) => a.len().hash(h),
        V::PackedFloat64Array(a) => a.len().hash(h),
        V::PackedColorArray(a) => a.len().hash(h),
        _ => {
            if let Some(i) = v.ints() {
                i.hash(h);
            } else if let Some(r) = v.reals() {
                match r.components() {
                    Components::F32(x) => x.iter().for_each(|x| f32h(*x, h)),
                    Components::F64(x) => x.iter().for_each(|x| f64h(*x, h)),
                }
            }
        }
    }
}

/// The index of a large dictionary's keys: each key hash, keyed at random so that input cannot
/// choose collisions, with the first entry that has it.
struct Index {
    first: HashMap<u64, usize, BuildHasherDefault<Prehashed>>,
    keys: RandomState,
}

impl Index {
    fn hash(&self, k: &Variant) -> u64 {
        let mut h = self.keys.build_hasher();
        hash_key(k, &mut h);
        h.finish()
    }
}

/// Passes on a key that is a hash already: hashing it again would double the cost of a look-up.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; this keeps any other input meaningful all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Entries up to which a linear scan beats hashing.
const SCAN: usize = 8;

/// Collects entries as the engine's `d[key] = value` does: later duplicates overwrite in place.
///
/// The decoder fills each entry where it will stay ([`EntrySet::push_blank`]), then settles it.
pub struct EntrySet {
    entries: Vec<(Variant, Variant)>,
    /// First entry index per key hash, built once there are more than [`SCAN`] entries (so small
    /// dictionaries never pay for a map).
    index: Option<Index>,
    /// [`fingerprint`] of each of the first entries' keys: the scan of a small dictionary compares
    /// these and calls [`same_key`] only where they match.
    fingerprints: [u64; SCAN + 1],
    /// Which keys the engine takes as equal.
    rules: KeyRules,
}

/// A cheap summary of a key: keys that [`same_key`] finds equal have equal fingerprints.
fn fingerprint(k: &Variant) -> u64 {
    match k {
        // The text alone, so that a String and a StringName with the same text match.
        Variant::String(s) | Variant::StringName(s) => {
            // Length, first, middle and last byte: cheap, and enough to tell most keys apart.
            // (Equal strings have the same form, so units are compared with units.)
            let Some(text) = s.as_str() else {
                let u = s.non_unicode_units().unwrap_or_default();
                return u.len() as u64 | u64::from(u.first().copied().unwrap_or(0)) << 32;
            };
            let b = text.as_bytes();
            let at = |i: usize| b.get(i).copied().unwrap_or(0) as u64;
            b.len() as u64 | at(0) << 32 | at(b.len() / 2) << 40 | at(b.len().wrapping_sub(1)) << 48
        }
        Variant::Int(i) => *i as u64,
        // Keys of other types are equal only to keys of the same type.
        _ => k.get_type() as u64,
    }
}

impl Default for EntrySet {
    fn default() -> EntrySet {
        EntrySet::with_capacity(0, KeyRules::default())
    }
}

impl EntrySet {
    /// An empty set with room for `n` entries, whose keys are equal as `rules` says.
    pub fn with_capacity(n: usize, rules: KeyRules) -> EntrySet {
        EntrySet::in_buffer(Vec::with_capacity(n), rules)
    }

    /// An empty set whose entries go in `buffer`, which is empty (a pool's).
    #[inline(always)]
    pub(crate) fn in_buffer(buffer: Vec<(Variant, Variant)>, rules: KeyRules) -> EntrySet {
        debug_assert!(buffer.is_empty());
        EntrySet {
            entries: buffer,
            index: None,
            fingerprints: [0; SCAN + 1],
            rules,
        }
    }

    /// The earlier entry with the same key as entry `last`, which is the newest.
    #[inline]
    fn find_before(&mut self, last: usize) -> Option<usize> {
        if equals_nothing(&self.entries[last].0, self.rules) {
            return None;
        }
        if last > SCAN {
            return self.look_up(last);
        }
        let (earlier, newest) = self.entries.split_at(last);
        let k = &newest[0].0;
        let f = fingerprint(k);
        self.fingerprints[last] = f;
        let rules = self.rules;
        earlier
            .iter()
            .zip(&self.fingerprints[..last])
            .position(|((e, _), &g)| g == f && same_key(e, k, rules))
    }

    /// [`EntrySet::find_before`] past the first entries: through the index, built on first use.
    /// Kept out of line so that the scan of small dictionaries stays small.
    #[inline(never)]
    fn look_up(&mut self, last: usize) -> Option<usize> {
        let (earlier, newest) = self.entries.split_at(last);
        let k = &newest[0].0;
        let rules = self.rules;
        let index = self.index.get_or_insert_with(|| {
            let mut index = Index {
                // Room for the entries the dictionary reserved (no more than its input can
                // hold, and at least those so far), so that the index does not grow step by step
                // as they come.
                first: HashMap::with_capacity_and_hasher(
                    self.entries.capacity(),
                    Default::default(),
                ),
                keys: RandomState::new(),
            };
            for (i, (e, _)) in earlier.iter().enumerate() {
                let h = index.hash(e);
                index.first.entry(h).or_insert(i);
            }
            index
        });
        let h = index.hash(k);
        let index = &mut index.first;
        match index.get(&h) {
            Some(&i) if same_key(&earlier[i].0, k, rules) => Some(i),
            // A hash shared by different keys: rare, so a scan settles it.
            Some(_) => earlier.iter().position(|(e, _)| same_key(e, k, rules)),
            None => {
                index.insert(h, last);
                None
            }
        }
    }

    /// Settles the newest entry: if an earlier entry has the same key, the newest value replaces
    /// that entry's value and the newest entry goes.
    #[inline]
    fn settle_newest(&mut self) {
        let last = self.entries.len() - 1;
        if let Some(i) = self.find_before(last) {
            let (_, v) = self.entries.pop().expect("newest entry");
            self.entries[i].1 = v;
        }
    }

    /// Inserts or overwrites.
    pub fn insert(&mut self, k: Variant, v: Variant) {
        self.entries.push((k, v));
        self.settle_newest();
    }

    /// Whether the room reserved is used up: the next entry grows it.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.entries.len() == self.entries.capacity()
    }

    /// Room for exactly `n` more entries, where growing by the usual doubling would reserve far
    /// more than the input can fill.
    pub fn reserve_exact(&mut self, n: usize) {
        self.entries.reserve_exact(n);
    }

    /// Appends an entry of two Nils for the caller to fill in, then to settle with
    /// [`EntrySet::settle_last`] or [`EntrySet::admit_last`]. Filling entries where they stay
    /// saves moving every decoded key and value.
    pub fn push_blank(&mut self) -> (&mut Variant, &mut Variant) {
        // Written in place, the blank entry is two tag stores. `push` builds it in a temporary and
        // copies it over with wide loads of those narrow stores, which stall (≈ 4% of decoding
        // nested dictionaries).
        let n = self.entries.len();
        self.entries.reserve(1);
        self.entries.spare_capacity_mut()[0].write((Variant::Nil, Variant::Nil));
        // SAFETY: `reserve` made room at `n`, and the entry there was just written.
        unsafe { self.entries.set_len(n + 1) };
        let (k, v) = &mut self.entries[n];
        (k, v)
    }

    /// Settles the entry [`EntrySet::push_blank`] added once it is filled in, as
    /// [`EntrySet::insert`] would have inserted it.
    #[inline]
    pub fn settle_last(&mut self) {
        if !self.entries.is_empty() {
            self.settle_newest();
        }
    }

    /// Like [`EntrySet::settle_last`], but the key first goes through `admit`, which may convert
    /// it, drop the entry (returned) or fail (the entry is then dropped and the error returned).
    pub fn admit_last<E>(
        &mut self,
        admit: impl FnOnce(Variant) -> Result<Admitted, E>,
    ) -> Result<Option<(Variant, Variant)>, E> {
        let Some((k, v)) = self.entries.pop() else {
            return Ok(None);
        };
        Ok(match admit(k)? {
            Admitted::Kept(k) => {
                self.insert(k, v);
                None
            }
            Admitted::Dropped(k) => Some((k, v)),
        })
    }

    /// Drops every entry: for a decoder that keeps no value and so holds at most one entry,
    /// which has built no index.
    #[inline]
    pub(crate) fn clear(&mut self) {
        debug_assert!(self.index.is_none());
        self.entries.clear();
    }

    /// The entries in order.
    pub fn into_entries(self) -> Vec<(Variant, Variant)> {
        self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Dictionary `{k: v}`.
    fn one_entry(k: Variant, v: Variant) -> Variant {
        Variant::Dictionary(crate::value::Dictionary::new(vec![(k, v)]))
    }

    const K4: KeyRules = KeyRules {
        dictionaries_by_identity: false,
        real_arrays_by_bits: false,
        nan_reals_lost: false,
        nan_floats_inside_differ: true,
    };

    #[test]
    fn godot_key_identity() {
        assert!(same_key(&Variant::Float(0.0), &Variant::Float(-0.0), K4));
        assert!(same_key(
            &Variant::Float(f64::NAN),
            &Variant::Float(-f64::NAN),
            K4
        ));
        assert!(!same_key(&Variant::Int(1), &Variant::Float(1.0), K4));
        assert!(same_key(
            &Variant::String("a".into()),
            &Variant::StringName("a".into()),
            K4
        ));
        assert!(!same_key(
            &Variant::String("ab".into()),
            &Variant::String("a".into()),
            K4
        ));
        let full = Variant::object(Object::Full {
            class: "Resource".into(),
            properties: vec![],
        });
        assert!(!same_key(&full, &full.clone(), K4));
        // Each instance id decodes to a new EncodedObjectAsID (3.2.3, 3.6.2 and 4.6.3 keep both
        // entries: corpus case decode/keys/object_id_keys); a null object is one object.
        let id = Variant::object(Object::Id(12345));
        assert!(!same_key(&id, &id.clone(), K4));
        assert!(!same_key(
            &id,
            &id.clone(),
            KeyRules::of(Profile::new(Family::Godot3, 2).unwrap())
        ));
        let null = Variant::object(Object::Null);
        assert!(same_key(&null, &null.clone(), K4));
    }

    #[test]
    fn text_keys_merge_by_text_alone() {
        let mut s = EntrySet::default();
        s.insert(Variant::String("a".into()), Variant::Int(1));
        s.insert(Variant::StringName("a".into()), Variant::Int(2));
        // The same first eight bytes, different text.
        s.insert(Variant::String("position_x".into()), Variant::Int(3));
        s.insert(Variant::String("position_y".into()), Variant::Int(4));
        s.insert(Variant::String("position_x".into()), Variant::Int(5));
        let e = s.into_entries();
        assert_eq!(
            e,
            vec![
                (Variant::String("a".into()), Variant::Int(2)),
                (Variant::String("position_x".into()), Variant::Int(5)),
                (Variant::String("position_y".into()), Variant::Int(4)),
            ]
        );
    }

    #[test]
    fn later_duplicates_overwrite_in_place() {
        for n in [3, 100] {
            let mut s = EntrySet::default();
            for i in 0..n {
                s.insert(Variant::Int(i), Variant::Int(i * 10));
            }
            s.insert(Variant::Int(1), Variant::Int(11));
            s.insert(Variant::Float(-0.0), Variant::Nil);
            s.insert(Variant::Float(0.0), Variant::Bool(true));
            let e = s.into_entries();
            assert_eq!(e.len(), n as usize + 1);
            assert_eq!(e[1], (Variant::Int(1), Variant::Int(11)));
            assert_eq!(e[n as usize], (Variant::Float(-0.0), Variant::Bool(true)));
        }
    }

    /// `hash_compare` (`core/variant/variant.cpp`) tells keys apart by value: floats by value (so
    /// different floats are different keys), containers element by element with the same rule
    /// (so `[0.0]` and `[-0.0]` are one key, and dictionaries of one entry with different values
    /// are two), and any other type by its components (so equal vectors are one key).
    #[test]
    fn keys_differ_by_value() {
        let array = |v: Variant| Variant::Array(crate::value::Array::new(vec![v]));
        let dict = |v: i64| one_entry(Variant::Int(1), Variant::Int(v));
        let vec2 = |x: f32| Variant::Vector2(crate::value::Reals::from(vec![x, 2.0]));
        assert!(!same_key(&Variant::Float(1.0), &Variant::Float(2.0), K4));
        assert!(same_key(
            &array(Variant::Float(0.0)),
            &array(Variant::Float(-0.0)),
            K4
        ));
        assert!(!same_key(
            &array(Variant::Int(1)),
            &array(Variant::Int(2)),
            K4
        ));
        assert!(same_key(&dict(1), &dict(1), K4));
        assert!(!same_key(&dict(1), &dict(2), K4));
        assert!(same_key(&vec2(1.0), &vec2(1.0), K4));
        assert!(!same_key(&vec2(1.0), &vec2(3.0), K4));
        assert!(same_key(&Variant::Bool(true), &Variant::Bool(true), K4));
    }

    /// An entry filled in place and settled replaces the earlier entry with the same key, as the
    /// engine's `d[key] = value` does.
    #[test]
    fn settled_blank_entries_overwrite() {
        let mut s = EntrySet::default();
        for v in [1, 2] {
            let (k, val) = s.push_blank();
            *k = Variant::Int(7);
            *val = Variant::Int(v);
            s.settle_last();
        }
        assert_eq!(s.into_entries(), vec![(Variant::Int(7), Variant::Int(2))]);
    }

    /// The rules of 3.2.3 and 3.6.2, as their engines showed them (reproducers in
    /// tests/differential/codec-differs/3.2-keys-* and 3.6-keys-*).
    #[test]
    fn godot3_keys() {
        let empty = || Variant::Dictionary(Default::default());
        let nan = || Variant::PackedFloat32Array(vec![f32::NAN]);
        let p32: Profile = "3.2".parse().unwrap();
        let p36: Profile = "3.6".parse().unwrap();
        let (k32, k36, k46) = (
            KeyRules::of(p32),
            KeyRules::of(p36),
            KeyRules::of("4.6".parse().unwrap()),
        );
        assert_eq!(k46, K4);
        for rules in [k32, k36] {
            assert!(!same_key(&empty(), &empty(), rules));
            let mut s = EntrySet::with_capacity(0, rules);
            s.insert(empty(), Variant::Int(1));
            s.insert(empty(), Variant::Int(2));
            assert_eq!(s.into_entries().len(), 2);
        }
        assert!(same_key(&empty(), &empty(), K4));
        assert!(!same_key(&nan(), &nan(), k32) && same_key(&nan(), &nan(), k36));
        let in_array = Variant::Array(crate::value::Array::new(vec![nan()]));
        assert!(unfindable(&in_array, k32) && !unfindable(&in_array, k36));
        assert!(!unfindable(&Variant::PackedFloat32Array(vec![1.0]), k32));
        // PoolRealArray keys are hashed by their bytes in 3.x: different bits, different keys.
        let reals = |x: f32| Variant::PackedFloat32Array(vec![x]);
        let payload = || reals(f32::from_bits(0x7fc0_8000));
        for rules in [k32, k36] {
            assert!(!same_key(&reals(0.0), &reals(-0.0), rules));
            assert!(!same_key(&payload(), &nan(), rules));
            assert!(same_key(&reals(1.5), &reals(1.5), rules));
        }
        assert!(same_key(&payload(), &payload(), k36));
        assert!(same_key(&reals(0.0), &reals(-0.0), K4) && same_key(&payload(), &nan(), K4));
    }

    /// PackedColorArray keys compare colour by colour, each component as a float key: every
    /// engine keeps one entry for `[Color(0, 0, 0, 0)]` and `[Color(-0, -0, -0, -0)]` (corpus
    /// `decode/keys/color_array_keys_zero_signs`, 3.2.3, 3.6.2 and 4.6.3), and colours that
    /// differ are different keys (`hash_compare_packed_array` with `hash_compare_color`,
    /// `core/variant/variant.cpp`: same size, then every element compared).
    #[test]
    fn color_array_keys_compare_by_value() {
        let colors = |x: f32| Variant::PackedColorArray(vec![[x; 4]]);
        for v in ["3.2", "3.6", "4.6"] {
            let rules = KeyRules::of(v.parse().unwrap());
            assert!(same_key(&colors(0.0), &colors(-0.0), rules), "{v}");
            assert!(!same_key(&colors(1.0), &colors(2.0), rules), "{v}");
        }
    }

    /// A NaN float key equals a NaN and nothing else: `hash_compare_scalar` is `a == b ||
    /// (is_nan(a) && is_nan(b))` (`core/variant/variant.cpp`; corpus
    /// `decode/keys/nan_payload_float_keys` shows two NaNs merged).
    #[test]
    fn nan_float_keys_equal_only_nans() {
        let (nan, one) = (Variant::Float(f64::NAN), Variant::Float(1.0));
        assert!(!same_key(&nan, &one, K4));
        assert!(!same_key(&one, &nan, K4));
    }

    /// 4.x compares Dictionary keys entry by entry, values with `hash_compare`
    /// (`Dictionary::recursive_equal`, `core/variant/dictionary.cpp`), where `0.0 == -0.0`;
    /// their hashes agree too, as 4.6.3 merges `[0.0]` and `[-0.0]` Array keys (corpus
    /// `decode/keys/array_keys_zero_signs`). So `{1: 0.0}` and `{1: -0.0}` are one key.
    #[test]
    fn dictionary_keys_compare_entries_by_value() {
        let dict = |x: f64| one_entry(Variant::Int(1), Variant::Float(x));
        assert!(same_key(&dict(0.0), &dict(-0.0), K4));
    }

    /// Double-precision builds compare vector keys by value too: 4.6.3 double keeps one entry for
    /// `Vector2(0, 0)` and `Vector2(-0, -0)` (corpus `godot-4.6.3.stable-double.jsonl`,
    /// `decode/keys/vector2_keys_zero_signs`).
    #[test]
    fn double_precision_vector_keys_compare_by_value() {
        let v = |x: f64| Variant::Vector2(Reals::from([x, x]));
        assert!(same_key(&v(0.0), &v(-0.0), K4));
    }

    /// Past the first entries a key is found through the index, by its hash, so f32 components
    /// of either zero sign must hash alike: every engine keeps one entry for `Vector2(0, 0)` and
    /// `Vector2(-0, -0)` (corpus `decode/keys/vector2_keys_zero_signs`), and the distinct int keys
    /// before them, which equal neither, do not bear on that.
    #[test]
    fn large_dictionaries_merge_vector_keys_of_either_zero_sign() {
        let v = |x: f32| Variant::Vector2(Reals::from([x, x]));
        let mut s = EntrySet::default();
        for i in 0..=SCAN as i64 {
            s.insert(Variant::Int(i), Variant::Nil);
        }
        s.insert(v(0.0), Variant::Int(1));
        s.insert(v(-0.0), Variant::Int(2));
        let e = s.into_entries();
        assert_eq!(e.len(), SCAN + 2);
        assert_eq!(e[SCAN + 1], (v(0.0), Variant::Int(2)));
    }

    /// A String and a StringName with the same text are one key in 4.x
    /// (`StringLikeVariantComparator::compare`, `core/variant/variant.cpp`, as in
    /// `text_keys_merge_by_text_alone`); the engine's map finds keys by hash at every size, so
    /// they hash alike, and past the scan's first entries so must they here.
    #[test]
    fn large_dictionaries_merge_string_and_string_name_keys() {
        let mut s = EntrySet::default();
        for i in 0..=SCAN as i64 {
            s.insert(Variant::Int(i), Variant::Nil);
        }
        s.insert(Variant::String("a".into()), Variant::Int(1));
        s.insert(Variant::StringName("a".into()), Variant::Int(2));
        let e = s.into_entries();
        assert_eq!(e.len(), SCAN + 2);
        assert_eq!(e[SCAN + 1], (Variant::String("a".into()), Variant::Int(2)));
    }

    /// Keys that differ but hash alike in the index (a Dictionary or PackedFloat32Array key hashes
    /// its length alone) stay two keys: every engine keeps `{1: 1}` and `{1: 2}` apart (corpus
    /// `decode/keys/dictionary_keys_differ`, 4.6.3), and `[1.0]` and `[2.0]` (corpus
    /// `decode/keys/float32_array_keys_differ`, 3.2.3, 3.6.2 and 4.6.3). The distinct int keys
    /// before them, which equal neither, only move them past the scan's first entries.
    #[test]
    fn large_dictionaries_keep_keys_that_share_a_hash() {
        let dict = |v: i64| one_entry(Variant::Int(1), Variant::Int(v));
        let reals = |x: f32| Variant::PackedFloat32Array(vec![x]);
        let mut s = EntrySet::default();
        for i in 0..=SCAN as i64 {
            s.insert(Variant::Int(i), Variant::Nil);
        }
        s.insert(dict(1), Variant::Int(1));
        s.insert(dict(2), Variant::Int(2));
        s.insert(reals(1.0), Variant::Int(1));
        s.insert(reals(2.0), Variant::Int(2));
        assert_eq!(s.into_entries().len(), SCAN + 5);
    }

    /// No 4.x key is unfindable: 4.x's `hash_compare` has a PACKED_FLOAT32_ARRAY case, element by
    /// element with the NaN rule (`hash_compare_packed_array` with `hash_compare_scalar`,
    /// `core/variant/variant.cpp` from 4.0 on), unlike 3.2's, which falls back to `==`.
    #[test]
    fn godot4_keeps_nan_real_array_keys_findable() {
        for minor in 0..=6 {
            let rules = KeyRules::of(format!("4.{minor}").parse().unwrap());
            assert!(!rules.nan_reals_lost, "4.{minor}");
        }
    }

    /// PackedFloat64Array keys compare element by element as float keys: 4.6.3 keeps one entry
    /// for `[0.0]` and `[-0.0]`, and one for NaNs of two payloads (corpus
    /// `decode/keys/float64_array_keys_zero_signs` and `nan_payload_float64_array_keys`).
    #[test]
    fn float64_array_keys_compare_by_value() {
        let f64s = |x: f64| Variant::PackedFloat64Array(vec![x]);
        assert!(same_key(&f64s(0.0), &f64s(-0.0), K4));
        let payload = f64s(f64::from_bits(0x7ff8_0000_0000_0001));
        assert!(same_key(&payload, &f64s(f64::NAN), K4));
        assert!(!same_key(&f64s(1.0), &f64s(2.0), K4));
    }

    /// Keys of two types are two keys, even with the same components (`hash_compare` answers
    /// false first thing when the types differ, `core/variant/variant.cpp`).
    #[test]
    fn keys_of_two_types_differ_whatever_their_components() {
        let v2 = Variant::Vector2(Reals::from([1.0f32, 2.0]));
        let packed = Variant::PackedVector2Array(Reals::from([1.0f32, 2.0]));
        assert!(!same_key(&v2, &packed, K4));
        let v4 = Variant::Vector4(Reals::from([1.0f32, 2.0, 3.0, 4.0]));
        let quaternion = Variant::Quaternion(Reals::from([1.0f32, 2.0, 3.0, 4.0]));
        assert!(!same_key(&v4, &quaternion, K4));
    }

    /// A NaN float inside a key equals nothing from 4.1 on (`hash_compare(.., false)` in
    /// `Array::recursive_equal` and `Dictionary::recursive_equal`, Godot PR #74588): 4.6.3 keeps
    /// two entries for `[NAN]`, `[[NAN]]` and `{1: NAN}` keys, one for `{NAN: 1}` and
    /// `[Vector2(NAN, NAN)]`; 3.2.3 and 3.6.2 keep one for the Arrays (corpus cases
    /// `decode/keys/array_of_nan_float_keys`, `nested_array_of_nan_float_keys`,
    /// `dictionary_of_nan_float_value_keys`, `dictionary_of_nan_float_key_keys`,
    /// `array_of_nan_vector2_keys`).
    #[test]
    fn nan_floats_inside_keys_equal_nothing_from_4_1() {
        let nan = Variant::Float(f64::NAN);
        let arr = |v: Variant| Variant::Array(crate::value::Array::new(vec![v]));
        let dict = one_entry;
        let vec2 = Variant::Vector2(Reals::from([f32::NAN, f32::NAN]));
        for v in ["4.1", "4.6"] {
            let r = KeyRules::of(v.parse().unwrap());
            assert!(!same_key(&arr(nan.clone()), &arr(nan.clone()), r), "{v}");
            assert!(
                !same_key(&arr(arr(nan.clone())), &arr(arr(nan.clone())), r),
                "{v}"
            );
            let by_value = dict(Variant::Int(1), nan.clone());
            assert!(!same_key(&by_value, &by_value, r), "{v}");
            let by_key = dict(nan.clone(), Variant::Int(1));
            assert!(same_key(&by_key, &by_key, r), "{v}");
            assert!(same_key(&arr(vec2.clone()), &arr(vec2.clone()), r), "{v}");
            assert!(
                same_key(&nan, &nan, r),
                "{v}: a NaN key alone keeps the NaN rule"
            );
        }
        for v in ["3.2", "3.6", "4.0"] {
            let r = KeyRules::of(v.parse().unwrap());
            assert!(same_key(&arr(nan.clone()), &arr(nan.clone()), r), "{v}");
        }
    }

    /// Color keys compare component by component with the NaN rule (`hash_compare_color`,
    /// core/variant/variant.cpp): every engine keeps one entry for `Color(0, 0, 0, 0)` and
    /// `Color(-0, -0, -0, -0)` (corpus `decode/keys/color_keys_zero_signs`, 3.2.3, 3.6.2 and
    /// 4.6.3), though the two differ bit for bit; a NaN component equals only a NaN
    /// (`hash_compare_scalar`: `a == b || (is_nan(a) && is_nan(b))`).
    #[test]
    fn color_keys_compare_components_by_value() {
        let color = |x: f32| Variant::Color([x; 4]);
        for v in ["3.2", "3.6", "4.6"] {
            let r = KeyRules::of(v.parse().unwrap());
            assert!(same_key(&color(0.0), &color(-0.0), r), "{v}");
            assert!(same_key(&color(f32::NAN), &color(f32::NAN), r), "{v}");
            assert!(!same_key(&color(f32::NAN), &color(1.0), r), "{v}");
            assert!(!same_key(&color(1.0), &color(f32::NAN), r), "{v}");
        }
    }
}
