//! Encode and decode throughput per type family, each next to a memcpy of the same number of bytes
//! measured in the same run (the baseline the ratios in docs/benchmarks.md are computed against).
//!
//! `cargo bench --bench codec`, then `scripts/bench-table.py` prints the table.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gdmarshal::value::{Array, Dictionary, Reals};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, decode, encode};

/// Megabytes of each packed array.
const PACKED_BYTES: usize = 8 << 20;

fn families() -> Vec<(&'static str, Variant)> {
    let n4 = PACKED_BYTES / 4;
    let n8 = PACKED_BYTES / 8;
    let small_dict = |i: i64| {
        Variant::Dictionary(Dictionary::new(vec![
            (Variant::String("id".into()), Variant::Int(i)),
            (
                Variant::String("name".into()),
                Variant::String(format!("enemy {i}").into()),
            ),
            (Variant::String("hp".into()), Variant::Float(i as f64 * 0.5)),
            (
                Variant::String("pos".into()),
                Variant::Vector2(Reals::F32(smallvec::smallvec![i as f32, -1.5])),
            ),
        ]))
    };
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
            "nested_dictionaries",
            array((0..50_000).map(small_dict).collect()),
        ),
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
            Variant::PackedVector2Array(Reals::F32((0..n4).map(|i| i as f32).collect())),
        ),
        (
            "PackedVector3Array",
            Variant::PackedVector3Array(Reals::F32((0..n4 / 3 * 3).map(|i| i as f32).collect())),
        ),
        (
            "PackedVector4Array",
            Variant::PackedVector4Array(Reals::F32((0..n4).map(|i| i as f32).collect())),
        ),
        (
            "PackedColorArray",
            Variant::PackedColorArray((0..n4 / 4).map(|i| [i as f32, 0.5, 0.25, 1.0]).collect()),
        ),
    ]
}

/// Runs `f` `n` times and returns the time spent inside it. Each result is dropped outside the
/// timed region before the next call, so the allocator reuses its memory, as a program decoding
/// one message after another does; freeing is not counted, for the codec or the baseline.
fn timed<T>(n: u64, mut f: impl FnMut() -> T) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..n {
        let start = Instant::now();
        let out = f();
        total += start.elapsed();
        drop(black_box(out));
    }
    total
}

fn codec(c: &mut Criterion) {
    let p: Profile = "4.6".parse().unwrap();
    let mut g = c.benchmark_group("codec");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(2));
    g.warm_up_time(std::time::Duration::from_millis(500));
    for (name, v) in families() {
        let bytes = encode(&v, p, EncodeOptions::default()).unwrap();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::new("encode", name), &v, |b, v| {
            b.iter_custom(|n| {
                timed(n, || {
                    encode(black_box(v), p, EncodeOptions::default()).unwrap()
                })
            })
        });
        g.bench_with_input(BenchmarkId::new("decode", name), &bytes, |b, bytes| {
            b.iter_custom(|n| {
                timed(n, || {
                    decode(black_box(bytes), p, DecodeOptions::default()).unwrap()
                })
            })
        });
        // The baseline: copy the same number of bytes into a fresh buffer, as encode and decode
        // both produce fresh buffers.
        g.bench_with_input(BenchmarkId::new("memcpy", name), &bytes, |b, bytes| {
            b.iter_custom(|n| timed(n, || black_box(bytes).to_vec()))
        });
    }
    g.finish();
}

criterion_group!(benches, codec);
criterion_main!(benches);
