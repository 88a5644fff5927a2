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

use gdmarshal::{DecodeOptions, EncodeOptions, Profile, decode, encode};

#[path = "support/families.rs"]
#[allow(dead_code)] // this benchmark uses the two dictionary workloads
mod families;
#[path = "support/loops.rs"]
mod loops;

fn main() {
    let p: Profile = "4.6".parse().expect("profile");
    // The workload: `nested_dictionaries` unless the arguments name `large_dictionaries`.
    let items = if std::env::args().any(|a| a == "large_dictionaries") {
        families::large_dictionaries()
    } else {
        families::nested_dictionaries()
    };
    let bytes = encode(&items, p, EncodeOptions::default()).expect("encode");
    let (m, again) = loops::run(
        loops::rounds(),
        || decode(black_box(&bytes), p, DecodeOptions::default()).expect("decode"),
        || encode(black_box(&items), p, EncodeOptions::default()).expect("encode"),
    );
    assert_eq!(again, bytes);
    println!(
        "GDMARSHAL_BENCH bytes={} decode_median_us={} encode_median_us={} decode_alone_median_us={}",
        bytes.len(),
        m.decode_us,
        m.encode_us,
        m.decode_alone_us
    );
}
