//! Dictionary key identity as the engines see it.
//!
//! A decoded Dictionary holds each key once: a later entry with an equal key replaces the value and
//! keeps the first entry's place. "Equal" is Godot's `hash_compare` (`core/variant/variant.cpp`):
//! same type, floats equal by value with every NaN equal to every NaN (so 0.0 and -0.0 are one key),
//! containers compared element by element; and in 4.x a String and a StringName with the same text
//! are one key (`StringLikeVariantComparator`, `core/variant/variant.h`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::value::{Object, Reals, Variant};

/// Stands in for the engine's instance pointers: a fresh number per full object fingerprinted.
static NEXT_INSTANCE: AtomicU64 = AtomicU64::new(0);

/// Whether two keys are the same dictionary key.
pub fn same_key(a: &Variant, b: &Variant) -> bool {
    fingerprint(a) == fingerprint(b)
}

/// A canonical byte form of a key: equal exactly when [`same_key`] says so.
pub fn fingerprint(v: &Variant) -> Vec<u8> {
    let mut out = Vec::new();
    write(v, &mut out);
    out
}

fn f32n(x: f32) -> u32 {
    if x.is_nan() {
        0x7fc0_0000
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

fn f64n(x: f64) -> u64 {
    if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

fn bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u64).to_le_bytes());
    out.extend_from_slice(b);
}

fn write(v: &Variant, out: &mut Vec<u8>) {
    // String and StringName share one tag: they are the same key.
    let tag = match v {
        Variant::StringName(_) => crate::VariantType::String as u8,
        _ => v.get_type() as u8,
    };
    out.push(tag);
    match v {
        Variant::Nil | Variant::Callable => {}
        Variant::Bool(b) => out.push(*b as u8),
        Variant::Int(i) => out.extend_from_slice(&i.to_le_bytes()),
        Variant::Float(x) => out.extend_from_slice(&f64n(*x).to_le_bytes()),
        Variant::String(s) | Variant::StringName(s) => bytes(out, s.as_bytes()),
        Variant::Color(c) => c
            .iter()
            .for_each(|x| out.extend_from_slice(&f32n(*x).to_le_bytes())),
        Variant::NodePath(np) => {
            out.push(np.absolute as u8);
            out.extend_from_slice(&(np.names.len() as u64).to_le_bytes());
            np.names
                .iter()
                .chain(&np.subnames)
                .for_each(|s| bytes(out, s.as_bytes()));
        }
        Variant::Rid(id) => out.extend_from_slice(&id.to_le_bytes()),
        Variant::Object(o) => match o {
            Object::Null => out.push(0),
            Object::Id(id) => {
                out.push(1);
                out.extend_from_slice(&id.to_le_bytes());
            }
            // Each decoded object is a new instance, so it is never the same key as another.
            Object::Full { .. } => {
                out.push(2);
                out.extend_from_slice(&NEXT_INSTANCE.fetch_add(1, Ordering::Relaxed).to_le_bytes());
            }
        },
        Variant::Signal(s) => {
            bytes(out, s.name.as_bytes());
            out.extend_from_slice(&s.object_id.to_le_bytes());
        }
        Variant::Array(a) => {
            out.extend_from_slice(&(a.items.len() as u64).to_le_bytes());
            a.items.iter().for_each(|x| write(x, out));
        }
        Variant::Dictionary(d) => {
            out.extend_from_slice(&(d.entries.len() as u64).to_le_bytes());
            d.entries.iter().for_each(|(k, x)| {
                write(k, out);
                write(x, out);
            });
        }
        Variant::PackedByteArray(b) => bytes(out, b),
        Variant::PackedInt32Array(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Variant::PackedInt64Array(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes())),
        Variant::PackedFloat32Array(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&f32n(*x).to_le_bytes())),
        Variant::PackedFloat64Array(a) => a
            .iter()
            .for_each(|x| out.extend_from_slice(&f64n(*x).to_le_bytes())),
        Variant::PackedStringArray(a) => a.iter().for_each(|s| bytes(out, s.as_bytes())),
        Variant::PackedColorArray(a) => a
            .iter()
            .flatten()
            .for_each(|x| out.extend_from_slice(&f32n(*x).to_le_bytes())),
        _ => {
            if let Some(r) = v.reals() {
                match r {
                    Reals::F32(x) => x
                        .iter()
                        .for_each(|x| out.extend_from_slice(&f32n(*x).to_le_bytes())),
                    Reals::F64(x) => x
                        .iter()
                        .for_each(|x| out.extend_from_slice(&f64n(*x).to_le_bytes())),
                }
            } else if let Some(i) = v.ints() {
                i.iter()
                    .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
            }
        }
    }
    // Lengths of packed arrays are implied by their bytes only if the tag and a terminator fence them.
    out.push(0xff);
}

/// Collects entries as the engine's `d[key] = value` does: later duplicates overwrite in place.
#[derive(Default)]
pub struct EntrySet {
    entries: Vec<(Variant, Variant)>,
    index: HashMap<Vec<u8>, usize>,
}

impl EntrySet {
    /// An empty set with room for `n` entries.
    pub fn with_capacity(n: usize) -> EntrySet {
        EntrySet {
            entries: Vec::with_capacity(n),
            index: HashMap::with_capacity(n),
        }
    }

    /// Inserts or overwrites.
    pub fn insert(&mut self, k: Variant, v: Variant) {
        let f = fingerprint(&k);
        match self.index.get(&f) {
            Some(&i) => self.entries[i].1 = v,
            None => {
                self.index.insert(f, self.entries.len());
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
    }

    #[test]
    fn later_duplicates_overwrite_in_place() {
        let mut s = EntrySet::default();
        s.insert(Variant::Int(1), Variant::Int(10));
        s.insert(Variant::Int(2), Variant::Int(20));
        s.insert(Variant::Int(1), Variant::Int(11));
        assert_eq!(
            s.into_entries(),
            vec![
                (Variant::Int(1), Variant::Int(11)),
                (Variant::Int(2), Variant::Int(20))
            ]
        );
    }
}
