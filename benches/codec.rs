//! Encode and decode throughput per type family, each next to a memcpy of the same number of bytes
//! measured in the same run (the baseline the ratios in docs/benchmarks.md are computed against).
//!
//! `cargo bench --bench codec`, then `scripts/bench-table.py` prints the table.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, decode, encode};

#[path = "support/families.rs"]
#[allow(dead_code)] // `large_dictionaries` is for the Godot comparison only
mod families;
use families::families;

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
