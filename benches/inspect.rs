//! `inspect` against `decode` per type family, in the same run: the annotated dump written to a
//! sink as the decoder reads (`gdmarshal::inspect::inspect_to`, what `gdmarshal inspect` does),
//! beside the plain decode of the same bytes, its baseline. docs/benchmarks.md ("Inspect") gives
//! the ratios; scripts/bench-inspect.sh measures the commands' time and peak memory.
//!
//! `cargo bench --bench inspect`

use std::hint::black_box;
use std::io;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gdmarshal::inspect::inspect_to;
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, decode, encode};

#[path = "support/families.rs"]
#[allow(dead_code)] // `large_dictionaries` is for the Godot comparison only
mod families;
use families::families;

fn inspect(c: &mut Criterion) {
    let p: Profile = "4.6".parse().unwrap();
    let mut g = c.benchmark_group("inspect");
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(2));
    g.warm_up_time(std::time::Duration::from_millis(500));
    for (name, v) in families() {
        let bytes = encode(&v, p, EncodeOptions::default()).unwrap();
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_with_input(BenchmarkId::new("decode", name), &bytes, |b, bytes| {
            b.iter(|| decode(black_box(bytes), p, DecodeOptions::default()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("inspect", name), &bytes, |b, bytes| {
            b.iter(|| {
                let mut out = io::BufWriter::with_capacity(1 << 16, io::sink());
                inspect_to(&mut out, black_box(bytes), 0, p, DecodeOptions::default()).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, inspect);
criterion_main!(benches);
