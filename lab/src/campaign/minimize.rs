//! Greedy minimization of a failing input while its classification stays the same.
//!
//! The predicate takes a whole batch of candidates at once, so that each round costs one
//! exchange with the engine.

use gdmarshal::value::{ContainerType, Variant};

/// Most rounds (batches) one minimization may use.
pub(crate) const MAX_ROUNDS: usize = 60;

/// Shrinks `input` while `keep` holds for the result: by taking what starts at an aligned offset
/// (a nested value alone, the latest offset first), then by deleting, then zeroing, ever smaller
/// chunks. `keep` answers one bool per candidate, in order.
pub(crate) fn minimize_bytes(
    input: &[u8],
    keep: &mut dyn FnMut(&[Vec<u8>]) -> Vec<bool>,
) -> Vec<u8> {
    let mut best = input.to_vec();
    let mut rounds = 0;
    let mut chunk = best.len().div_ceil(2).max(1);
    while rounds < MAX_ROUNDS && !best.is_empty() {
        let mut candidates: Vec<Vec<u8>> = (1..best.len().div_ceil(4))
            .rev()
            .map(|k| best[4 * k..].to_vec())
            .collect();
        for i in (0..best.len()).step_by(chunk) {
            let end = (i + chunk).min(best.len());
            let mut del = best.clone();
            del.drain(i..end);
            candidates.push(del);
        }
        for i in (0..best.len()).step_by(chunk) {
            let end = (i + chunk).min(best.len());
            if best[i..end].iter().any(|&b| b != 0) {
                let mut z = best.clone();
                z[i..end].iter_mut().for_each(|b| *b = 0);
                candidates.push(z);
            }
        }
        rounds += 1;
        let verdicts = keep(&candidates);
        match candidates.into_iter().zip(verdicts).find(|(_, k)| *k) {
            Some((c, _)) => {
                best = c;
                chunk = chunk.min(best.len().div_ceil(2)).max(1);
            }
            None if chunk == 1 => break,
            None => chunk = chunk.div_ceil(2),
        }
    }
    best
}

/// Smaller values than `v`: its children, `v` with one element fewer, and a typed container
/// with one type dropped.
pub(crate) fn shrink_candidates(v: &Variant) -> Vec<Variant> {
    let mut out = Vec::new();
    match v {
        Variant::Array(a) => {
            out.extend(a.items().iter().cloned());
            if *a.element_type() != ContainerType::None {
                let mut b = a.clone();
                b.set_element_type(ContainerType::None);
                out.push(Variant::Array(b));
            }
            for i in 0..a.items().len() {
                let mut b = a.clone();
                b.items_mut().remove(i);
                out.push(Variant::Array(b));
            }
            for (i, item) in a.items().iter().enumerate() {
                for s in shrink_candidates(item) {
                    let mut b = a.clone();
                    b.items_mut()[i] = s;
                    out.push(Variant::Array(b));
                }
            }
        }
        Variant::Dictionary(d) => {
            for (k, val) in d.entries() {
                out.push(k.clone());
                out.push(val.clone());
            }
            let (kt, vt) = (d.key_type().clone(), d.value_type().clone());
            for (k, v) in [
                (ContainerType::None, vt.clone()),
                (kt.clone(), ContainerType::None),
            ] {
                if (&k, &v) != (&kt, &vt) {
                    let mut b = d.clone();
                    b.set_types(k, v);
                    out.push(Variant::Dictionary(b));
                }
            }
            for i in 0..d.entries().len() {
                let mut b = d.clone();
                b.entries_mut().remove(i);
                out.push(Variant::Dictionary(b));
            }
        }
        Variant::String(s) if !s.is_empty() => {
            let units: Vec<u32> = s.units().collect();
            let half = gdmarshal::value::Text::from_units(units[..units.len() / 2].iter().copied());
            out.push(Variant::String(half));
        }
        Variant::PackedStringArray(a) if !a.is_empty() => {
            for i in 0..a.len() {
                let mut b = a.clone();
                b.remove(i);
                out.push(Variant::PackedStringArray(b));
            }
        }
        Variant::PackedByteArray(a) if !a.is_empty() => {
            out.push(Variant::PackedByteArray(a[..a.len() / 2].to_vec()));
        }
        _ => {}
    }
    out
}

/// Shrinks a value greedily while `keep` holds (one bool per candidate).
pub(crate) fn minimize_value(
    v: &Variant,
    keep: &mut dyn FnMut(&[Variant]) -> Vec<bool>,
) -> Variant {
    let mut best = v.clone();
    for _ in 0..MAX_ROUNDS {
        let mut candidates = shrink_candidates(&best);
        candidates.truncate(200);
        if candidates.is_empty() {
            break;
        }
        let verdicts = keep(&candidates);
        match candidates.into_iter().zip(verdicts).find(|(_, k)| *k) {
            Some((c, _)) => best = c,
            None => break,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdmarshal::value::Array;

    #[test]
    fn bytes_shrink_to_the_needed_core() {
        // Holds while the input contains 0xAB followed later by 0xCD.
        let pred = |b: &[u8]| {
            b.iter()
                .position(|&x| x == 0xAB)
                .is_some_and(|i| b[i..].contains(&0xCD))
        };
        let input: Vec<u8> = (0..64u8)
            .map(|i| match i {
                10 => 0xAB,
                50 => 0xCD,
                _ => i,
            })
            .collect();
        let mut calls = 0;
        let out = minimize_bytes(&input, &mut |cs| {
            calls += 1;
            cs.iter().map(|c| pred(c)).collect()
        });
        assert_eq!(out, vec![0xAB, 0xCD]);
        assert!(calls <= MAX_ROUNDS);
    }

    #[test]
    fn values_shrink_to_the_offending_element() {
        let v = Variant::Array(Array::new(vec![
            Variant::Int(1),
            Variant::Array(Array::new(vec![
                Variant::Bool(true),
                Variant::String("needle".into()),
            ])),
        ]));
        let pred = |v: &Variant| format!("{v:?}").contains("needle");
        let out = minimize_value(&v, &mut |cs| cs.iter().map(pred).collect());
        assert_eq!(out, Variant::String("needle".into()));
    }

    #[test]
    fn a_nested_value_is_taken_alone() {
        // Holds while the input holds the word 0x0001001c (a typed Array header) followed by 24:
        // the Array around it goes, whatever its size.
        let inner = [0x1c, 0, 1, 0, 0x18, 0, 0, 0, 0, 0, 0, 0];
        let mut input = vec![0x1c, 0, 0, 0, 1, 0, 0, 0];
        input.extend(inner);
        let pred = |b: &[u8]| b.len() >= 12 && b[..8] == inner[..8];
        let out = minimize_bytes(&input, &mut |cs| cs.iter().map(|c| pred(c)).collect());
        assert_eq!(out[..8], inner[..8]);
        assert!(out.len() <= 12, "{out:?}");
    }

    #[test]
    fn container_types_that_do_not_matter_are_dropped() {
        use gdmarshal::value::Dictionary;
        let d = Variant::Dictionary(Dictionary::typed(
            ContainerType::ClassName("Node".into()),
            ContainerType::Script("res://a.gd".into()),
            Vec::new(),
        ));
        // Holds while the key type is the class Node.
        let pred = |v: &Variant| match v {
            Variant::Dictionary(d) => *d.key_type() == ContainerType::ClassName("Node".into()),
            _ => false,
        };
        let out = minimize_value(&d, &mut |cs| cs.iter().map(pred).collect());
        let Variant::Dictionary(out) = out else {
            panic!("{out:?}")
        };
        assert_eq!(*out.value_type(), ContainerType::None);
    }
}
