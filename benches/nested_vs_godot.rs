//! This codec in the loops that benches/godot/nested_dictionaries.gd runs inside Godot 4.6, on the
//! same data: 15 rounds of decode (the result freed before the next step) then encode, then 15
//! decodes alone; medians printed in the same line format. scripts/bench-godot.sh runs both and
//! prints the ratios. The workload is `nested_dictionaries`, or `large_dictionaries` when that
//! word is among the arguments (`cargo bench --bench nested_vs_godot -- large_dictionaries`).
//!
//! In the first loop each decode follows the free of an encoder's output buffer, which changes
//! how glibc's allocator treats the decoder's memory (see docs/benchmarks.md); the second loop
//! measures decoding without that.

use std::hint::black_box;
use std::time::Instant;

use gdmarshal::{DecodeOptions, EncodeOptions, Profile, decode, encode};

#[path = "support/families.rs"]
#[allow(dead_code)] // this benchmark uses the two dictionary workloads
mod families;

/// As many rounds as the Godot script.
const ROUNDS: usize = 15;

fn median_us(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and then one round is enough
    // to show the benchmark still runs.
    let rounds = if std::env::args().any(|a| a == "--bench") {
        ROUNDS
    } else {
        1
    };
    let p: Profile = "4.6".parse().expect("profile");
    // The workload: `nested_dictionaries` unless the arguments name `large_dictionaries`.
    let items = if std::env::args().any(|a| a == "large_dictionaries") {
        families::large_dictionaries()
    } else {
        families::nested_dictionaries()
    };
    let bytes = encode(&items, p, EncodeOptions::default()).expect("encode");
    // One timed decode; the value is freed outside the timed part, as the script's `v = null`.
    let timed_decode = |out: &mut Vec<u128>| {
        let t = Instant::now();
        let v = decode(black_box(&bytes), p, DecodeOptions::default()).expect("decode");
        out.push(t.elapsed().as_micros());
        drop(v);
    };
    let (mut decode_us, mut encode_us) = (Vec::new(), Vec::new());
    let mut again = Vec::new();
    for _ in 0..rounds {
        timed_decode(&mut decode_us);
        let t = Instant::now();
        again = encode(black_box(&items), p, EncodeOptions::default()).expect("encode");
        encode_us.push(t.elapsed().as_micros());
    }
    assert_eq!(again, bytes);
    drop(again);
    let mut alone_us = Vec::new();
    for _ in 0..rounds {
        timed_decode(&mut alone_us);
    }
    println!(
        "GDMARSHAL_BENCH bytes={} decode_median_us={} encode_median_us={} decode_alone_median_us={}",
        bytes.len(),
        median_us(decode_us),
        median_us(encode_us),
        median_us(alone_us)
    );
}
