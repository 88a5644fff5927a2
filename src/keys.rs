//! Dictionary key identity as the engines see it.
//!
//! A decoded Dictionary holds each key once: a later entry with an equal key replaces the value and
//! keeps the first entry's place. "Equal" is Godot's `hash_compare` (`core/variant/variant.cpp`):
//! same type, floats equal by value with every NaN equal to every NaN (so 0.0 and -0.0 are one key),
//! containers compared element by element; and in 4.x a String and a StringName with the same text
//! are one key (`StringLikeVariantComparator`, `core/variant/variant.h`). Each decoded full object
//! is a new instance, so it never equals another key.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::value::{Object, Reals, Variant};

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

/// Whether two keys are the same dictionary key.
pub fn same_key(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    match (a, b) {
        (V::String(x) | V::StringName(x), V::String(y) | V::StringName(y)) => x == y,
        (V::Float(x), V::Float(y)) => eq64(&[*x], &[*y]),
        (V::Color(x), V::Color(y)) => eq32(x, y),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => eq32(x, y),
        (V::PackedFloat64Array(x), V::PackedFloat64Array(y)) => eq64(x, y),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(c, d)| eq32(c, d))
        }
        (V::Object(Object::Full { .. }), _) | (_, V::Object(Object::Full { .. })) => false,
        (V::Array(x), V::Array(y)) => {
            x.items.len() == y.items.len()
                && x.items.iter().zip(&y.items).all(|(p, q)| same_key(p, q))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.entries.len() == y.entries.len()
                && x.entries
                    .iter()
                    .zip(&y.entries)
                    .all(|((k, v), (l, w))| same_key(k, l) && same_key(v, w))
        }
        _ if a.get_type() != b.get_type() => false,
        _ => match (a.reals(), b.reals()) {
            (Some(Reals::F32(x)), Some(Reals::F32(y))) => eq32(x, y),
            (Some(Reals::F64(x)), Some(Reals::F64(y))) => eq64(x, y),
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
        V::Array(a) => a.items.iter().for_each(|x| hash_key(x, h)),
        V::Dictionary(d) => d.entries.len().hash(h),
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
                match r {
                    Reals::F32(x) => x.iter().for_each(|x| f32h(*x, h)),
                    Reals::F64(x) => x.iter().for_each(|x| f64h(*x, h)),
                }
            }
        }
    }
}

/// Entries up to which a linear scan beats hashing.
const SCAN: usize = 8;

/// Collects entries as the engine's `d[key] = value` does: later duplicates overwrite in place.
#[derive(Default)]
pub struct EntrySet {
    entries: Vec<(Variant, Variant)>,
    /// First entry index per key hash, once there are more than [`SCAN`] entries.
    index: HashMap<u64, usize>,
}

impl EntrySet {
    /// An empty set with room for `n` entries.
    pub fn with_capacity(n: usize) -> EntrySet {
        EntrySet {
            entries: Vec::with_capacity(n),
            index: HashMap::new(),
        }
    }

    fn hash(k: &Variant) -> u64 {
        let mut h = DefaultHasher::new();
        hash_key(k, &mut h);
        h.finish()
    }

    fn find(&mut self, k: &Variant) -> Option<usize> {
        if self.entries.len() <= SCAN {
            return self.entries.iter().position(|(e, _)| same_key(e, k));
        }
        if self.index.is_empty() {
            for (i, (e, _)) in self.entries.iter().enumerate() {
                self.index.entry(Self::hash(e)).or_insert(i);
            }
        }
        match self.index.get(&Self::hash(k)) {
            Some(&i) if same_key(&self.entries[i].0, k) => Some(i),
            // A hash shared by different keys: rare, so a scan settles it.
            Some(_) => self.entries.iter().position(|(e, _)| same_key(e, k)),
            None => None,
        }
    }

    /// Inserts or overwrites.
    pub fn insert(&mut self, k: Variant, v: Variant) {
        match self.find(&k) {
            Some(i) => self.entries[i].1 = v,
            None => {
                if !self.index.is_empty() {
                    self.index
                        .entry(Self::hash(&k))
                        .or_insert(self.entries.len());
                }
                self.entries.push((k, v));
            }
        }
    }

    /// The entries in order.
    pub fn into_entries(self) -> Vec<(Variant, Variant)> {
        self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn godot_key_identity() {
        assert!(same_key(&Variant::Float(0.0), &Variant::Float(-0.0)));
        assert!(same_key(
            &Variant::Float(f64::NAN),
            &Variant::Float(-f64::NAN)
        ));
        assert!(!same_key(&Variant::Int(1), &Variant::Float(1.0)));
        assert!(same_key(
            &Variant::String("a".into()),
            &Variant::StringName("a".into())
        ));
        assert!(!same_key(
            &Variant::String("ab".into()),
            &Variant::String("a".into())
        ));
        let full = Variant::Object(Object::Full {
            class: "Resource".into(),
            properties: vec![],
        });
        assert!(!same_key(&full, &full.clone()));
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
}
