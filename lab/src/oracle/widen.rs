//! Values asked of a double-precision build in single-precision terms: a case recorded from a
//! single-precision engine holds f32 components, which a build with `precision=double` takes only
//! as f64 (its `real_t`). Each component is widened exactly, so the build is asked for the very
//! value the recorded engine was, and what it writes back shows how it stores it.

use std::borrow::Cow;

use gdmarshal::value::{Components, Object, Reals, Variant};

/// `value` with every f32 real_t component widened to f64 (the value itself when it has none).
/// Color and PackedColorArray are f32 in every build and stay so.
pub(crate) fn widened(value: &Variant) -> Cow<'_, Variant> {
    if has_f32_reals(value) {
        let mut v = value.clone();
        widen_in_place(&mut v);
        Cow::Owned(v)
    } else {
        Cow::Borrowed(value)
    }
}

fn has_f32_reals(v: &Variant) -> bool {
    if let Some(r) = v.reals() {
        return !r.is_f64();
    }
    match v {
        Variant::Array(a) => a.items().iter().any(has_f32_reals),
        Variant::Dictionary(d) => d
            .entries()
            .iter()
            .any(|(k, x)| has_f32_reals(k) || has_f32_reals(x)),
        Variant::Object(o) => match o.as_ref() {
            Object::Full { properties, .. } => properties.iter().any(|(_, x)| has_f32_reals(x)),
            _ => false,
        },
        _ => false,
    }
}

fn widen_in_place(v: &mut Variant) {
    if let Some(Components::F32(c)) = v.reals().map(Reals::components) {
        let wide: Reals = c.iter().map(|&x| widen(x)).collect();
        if let Some(w) = Variant::from_reals(v.get_type(), wide) {
            *v = w;
        }
        return;
    }
    match v {
        Variant::Array(a) => a.items_mut().iter_mut().for_each(widen_in_place),
        Variant::Dictionary(d) => d.entries_mut().iter_mut().for_each(|(k, x)| {
            widen_in_place(k);
            widen_in_place(x);
        }),
        Variant::Object(o) => {
            if let Object::Full { properties, .. } = o.as_mut() {
                properties.iter_mut().for_each(|(_, x)| widen_in_place(x));
            }
        }
        _ => {}
    }
}

/// The f64 of the same value; a NaN keeps its sign, payload and quiet bit (a conversion by the
/// processor would quiet a signalling one).
fn widen(x: f32) -> f64 {
    if x.is_nan() {
        let b = x.to_bits() as u64;
        f64::from_bits((b >> 31) << 63 | 0x7ff << 52 | (b & 0x7f_ffff) << 29)
    } else {
        f64::from(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdmarshal::value::Array;

    #[test]
    fn components_widen_exactly_and_colors_stay() {
        let v = Variant::Array(Array::new(vec![
            Variant::Vector2(Reals::from([-2.0f32, 0.1])),
            Variant::Color([0.1, 0.2, 0.3, 1.0]),
            Variant::Int(3),
        ]));
        let Cow::Owned(w) = widened(&v) else {
            panic!("f32 components left as they were")
        };
        let items = match &w {
            Variant::Array(a) => a.items(),
            other => panic!("not an array: {other:?}"),
        };
        assert_eq!(
            items[0],
            Variant::Vector2(Reals::from([-2.0f64, f64::from(0.1f32)]))
        );
        assert_eq!(items[1], Variant::Color([0.1, 0.2, 0.3, 1.0]));
        assert_eq!(items[2], Variant::Int(3));
        assert!(matches!(widened(&w), Cow::Borrowed(_)));
    }

    #[test]
    fn a_signalling_nan_stays_signalling() {
        // f32 sNaN 0x7f800001 (quiet bit 22 clear): f64 0x7ff0_0000_2000_0000, quiet bit 51 clear.
        assert_eq!(
            widen(f32::from_bits(0x7f80_0001)).to_bits(),
            0x7ff0_0000_2000_0000
        );
        assert_eq!(
            widen(f32::from_bits(0xffc0_0000)).to_bits(),
            0xfff8_0000_0000_0000
        );
        assert_eq!(widen(-0.0).to_bits(), (-0.0f64).to_bits());
    }
}
