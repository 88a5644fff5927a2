//! The values the benchmarks measure, shared by `codec` and `peers` (whose GDScript loops,
//! benches/godot/families.gd and families3.gd, build the same values inside Godot).

use gdmarshal::Variant;
use gdmarshal::value::{Array, Dictionary, Reals};

/// The `nested_dictionaries` family: 50,000 small dictionaries in an array. Godot 4.6.3 encodes the
/// same data (benches/godot/families.gd) to the same 5,199,608 bytes.
pub fn nested_dictionaries() -> Variant {
    Variant::Array(Array::new(
        (0..50_000)
            .map(|i| {
                let pos = Variant::Vector2(Reals::from([i as f32, -1.5]));
                enemy(i, pos, false)
            })
            .collect(),
    ))
}

/// The `large_dictionaries` workload of the Godot comparison: 200,000 dictionaries of six entries,
/// the scale of the engine notes' figure for Godot (200,000 small dictionaries, 31 MB). Godot 4.6.3
/// encodes the same data (benches/godot/families.gd) to the same 31,199,608 bytes.
pub fn large_dictionaries() -> Variant {
    Variant::Array(Array::new(
        (0..200_000)
            .map(|i| {
                let pos = Variant::Vector3(Reals::from([i as f32, -1.5, 2.0]));
                enemy(i, pos, true)
            })
            .collect(),
    ))
}

/// The `keyed_dictionaries` workload of the side-by-side benchmark: the 50,000 dictionaries of
/// `nested_dictionaries` in a Dictionary keyed by their id instead of an Array, for the
/// implementations that have no Array type.
pub fn keyed_dictionaries() -> Variant {
    Variant::Dictionary(Dictionary::new(
        (0..50_000)
            .map(|i| {
                let pos = Variant::Vector2(Reals::from([i as f32, -1.5]));
                (Variant::Int(i), enemy(i, pos, false))
            })
            .collect(),
    ))
}

/// The families of the side-by-side benchmark (benches/peers.rs), by name: those of every
/// implementation's interest that Godot 3.x and 4.x both have, with the packed arrays at 8 MiB.
pub fn peer_families() -> Vec<(&'static str, Variant)> {
    let mut all = families();
    all.retain(|(name, _)| {
        [
            "scalars",
            "strings",
            "unicode_strings",
            "nested_dictionaries",
            "PackedByteArray",
            "PackedInt32Array",
            "PackedFloat32Array",
            "PackedStringArray",
        ]
        .contains(name)
    });
    all.push(("large_dictionaries", large_dictionaries()));
    all.push(("keyed_dictionaries", keyed_dictionaries()));
    all
}

/// One dictionary of either workload, entries in the script's order: `id`, `name`, `hp`, `pos`,
/// then `alive` and `level` for the large one.
fn enemy(i: i64, pos: Variant, large: bool) -> Variant {
    let key = |k: &str| Variant::String(k.into());
    // Exact capacity, as the original value of each workload had: the encoder walks these.
    let mut entries = Vec::with_capacity(if large { 6 } else { 4 });
    entries.extend([
        (key("id"), Variant::Int(i)),
        (key("name"), Variant::String(format!("enemy {i}").into())),
        (key("hp"), Variant::Float(i as f64 * 0.5)),
        (key("pos"), pos),
    ]);
    if large {
        entries.push((key("alive"), Variant::Bool(i % 2 == 0)));
        entries.push((key("level"), Variant::Int(i % 100)));
    }
    Variant::Dictionary(Dictionary::new(entries))
}

/// About 1 KiB of text in several scripts (Latin with accents, Cyrillic, Japanese, emoji): where
/// validating UTF-8, not the number of strings, is the work of decoding.
fn unicode_text(i: i64) -> String {
    let mut t = format!("{i}: ");
    while t.len() < 1000 {
        t.push_str("Grüße, мир — こんにちは世界 🎮 ");
    }
    t
}

/// Megabytes of each packed array.
const PACKED_BYTES: usize = 8 << 20;

/// Every family, by name.
pub fn families() -> Vec<(&'static str, Variant)> {
    let n4 = PACKED_BYTES / 4;
    let n8 = PACKED_BYTES / 8;
    let array = |items: Vec<Variant>| Variant::Array(Array::new(items));
    vec![
        (
            "scalars",
            array(
                (0..200_000)
                    .map(|i| {
                        if i % 2 == 0 {
                            Variant::Int(i)
                        } else {
                            Variant::Float(i as f64 / 3.0)
                        }
                    })
                    .collect(),
            ),
        ),
        (
            "strings",
            array(
                (0..100_000)
                    .map(|i| Variant::String(format!("string number {i}").into()))
                    .collect(),
            ),
        ),
        (
            "unicode_strings",
            array(
                (0..2_000)
                    .map(|i| Variant::String(unicode_text(i).into()))
                    .collect(),
            ),
        ),
        ("nested_dictionaries", nested_dictionaries()),
        (
            "PackedByteArray",
            Variant::PackedByteArray((0..PACKED_BYTES).map(|i| i as u8).collect()),
        ),
        (
            "PackedInt32Array",
            Variant::PackedInt32Array((0..n4 as i32).collect()),
        ),
        (
            "PackedInt64Array",
            Variant::PackedInt64Array((0..n8 as i64).collect()),
        ),
        (
            "PackedFloat32Array",
            Variant::PackedFloat32Array((0..n4).map(|i| i as f32).collect()),
        ),
        (
            "PackedFloat64Array",
            Variant::PackedFloat64Array((0..n8).map(|i| i as f64).collect()),
        ),
        (
            "PackedStringArray",
            Variant::PackedStringArray((0..100_000).map(|i| format!("s{i}").into()).collect()),
        ),
        (
            "PackedVector2Array",
            Variant::PackedVector2Array(Reals::from((0..n4).map(|i| i as f32).collect::<Vec<_>>())),
        ),
        (
            "PackedVector3Array",
            Variant::PackedVector3Array(Reals::from(
                (0..n4 / 3 * 3).map(|i| i as f32).collect::<Vec<_>>(),
            )),
        ),
        (
            "PackedVector4Array",
            Variant::PackedVector4Array(Reals::from((0..n4).map(|i| i as f32).collect::<Vec<_>>())),
        ),
        (
            "PackedColorArray",
            Variant::PackedColorArray((0..n4 / 4).map(|i| [i as f32, 0.5, 0.25, 1.0]).collect()),
        ),
    ]
}
