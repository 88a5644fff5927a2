//! The two timing loops every implementation runs in the side-by-side benchmarks, in Rust here and
//! in the same shape in GDScript (benches/godot/) and JavaScript (benches/peers/gd-com.js):
//! `ROUNDS` rounds of decode (the result freed outside the timed part) then encode, then `ROUNDS`
//! decodes alone; medians.
//!
//! In the first loop each decode follows the free of an encoder's output buffer, which changes how
//! glibc's allocator treats the decoder's memory (see docs/benchmarks.md); the second loop
//! measures decoding without that.

use std::hint::black_box;
use std::time::Instant;

/// Rounds of each loop, as in the GDScript and JavaScript loops.
pub const ROUNDS: usize = 15;

/// Medians of one implementation on one input, in microseconds.
pub struct Medians {
    /// Decode, in the loop that alternates with encoding.
    pub decode_us: u128,
    /// Encode, in the same loop.
    pub encode_us: u128,
    /// Decode, in the loop of decodes alone.
    pub decode_alone_us: u128,
}

fn median(mut v: Vec<u128>) -> u128 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// The rounds to run: `ROUNDS` under `cargo bench` (which passes `--bench`), one under
/// `cargo test --benches`, where running once shows the benchmark still works.
pub fn rounds() -> usize {
    if std::env::args().any(|a| a == "--bench") {
        ROUNDS
    } else {
        1
    }
}

/// Runs both loops; returns the medians and the last encoder output (to compare with the input).
pub fn run<V>(
    rounds: usize,
    decode: impl FnMut() -> V,
    encode: impl FnMut() -> Vec<u8>,
) -> (Medians, Vec<u8>) {
    run_freeing(rounds, decode, drop, encode)
}

/// [`run`], with each decoded value given to `free` (outside the timed part) instead of dropped.
pub fn run_freeing<V>(
    rounds: usize,
    mut decode: impl FnMut() -> V,
    mut free: impl FnMut(V),
    mut encode: impl FnMut() -> Vec<u8>,
) -> (Medians, Vec<u8>) {
    let mut timed_decode = |out: &mut Vec<u128>| {
        let t = Instant::now();
        let v = decode();
        out.push(t.elapsed().as_micros());
        free(black_box(v));
    };
    let (mut decode_us, mut encode_us, mut alone_us) = (Vec::new(), Vec::new(), Vec::new());
    let mut again = Vec::new();
    for r in 0..rounds {
        timed_decode(&mut decode_us);
        let t = Instant::now();
        let out = encode();
        encode_us.push(t.elapsed().as_micros());
        // Freed before the next decode (as the scripts' loop-local result is), but the last.
        if r + 1 == rounds {
            again = out;
        }
    }
    for _ in 0..rounds {
        timed_decode(&mut alone_us);
    }
    let m = Medians {
        decode_us: median(decode_us),
        encode_us: median(encode_us),
        decode_alone_us: median(alone_us),
    };
    (m, again)
}
