//! Deterministic campaign cases: case `index` of seed `seed` is the same on every run.
//!
//! Each case draws its own random stream from `(seed, index)` (SplitMix64), so any case can be
//! rebuilt alone. A case is one of: a random structured value for the engine to encode; its
//! encoding for the engine to decode; or a byte-level mutation of a corpus input or of such an
//! encoding (bit flips, byte sets, 32-bit field sets, header flag bits, truncation, splices).

use arbitrary::Unstructured;

use crate::corpus::Case;
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::profile::Profile;

/// The case generator's generation: bumped whenever a change gives some seed other cases, so that
/// the run log ([`super::log`]) can tell which seeds' cases were the same.
pub const GENERATION: u32 = 1;

/// SplitMix64: small, fast, and the same everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream of case `index` of `seed`.
    pub fn for_case(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
        r.next_u64();
        r
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `n` random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Decode inputs to mutate: the corpus's decode inputs for a profile, small ones only (deep
/// nesting inputs are left out: they only rediscover the 3.2 stack overflow, slowly).
pub fn mutation_sources(profile: Profile) -> Vec<Vec<u8>> {
    // The corpus cases include values nested 50,000 deep: build (and drop) them on a thread with
    // room for that.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            crate::corpus::all_cases(profile)
                .into_iter()
                .filter_map(|c| match c {
                    Case::Decode { name, input, .. }
                        if input.len() <= 256 && !name.starts_with("decode/depth/") =>
                    {
                        Some(input)
                    }
                    _ => None,
                })
                .collect()
        })
        .expect("thread starts")
        .join()
        .expect("corpus cases build")
}

fn gen_options(profile: Profile) -> GenOptions {
    GenOptions {
        max_depth: 3,
        max_len: 6,
        ..GenOptions::new(profile)
    }
}

/// A random value the profile's codec can encode, with its encoding.
fn value_and_bytes(rng: &mut Rng, profile: Profile) -> Option<(gdmarshal::Variant, Vec<u8>)> {
    let data = rng.bytes(1024);
    let mut u = Unstructured::new(&data);
    let v = canonical_value(&mut u, &gen_options(profile)).ok()?;
    let b = encode(&v, profile, EncodeOptions::default()).ok()?;
    Some((v, b))
}

const INTERESTING_U32: [u32; 9] = [
    0,
    1,
    2,
    0x7F,
    0xFF,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x0001_0000,
];

/// Applies one random mutation.
pub fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    let len = input.len();
    match rng.below(8) {
        0 | 1 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        2 if len > 0 => {
            let i = rng.below(len);
            input[i] = [0x00, 0x01, 0x7F, 0x80, 0xFF, rng.next_u64() as u8][rng.below(6)];
        }
        3 if len >= 4 => {
            let i = rng.below(len / 4) * 4;
            let v = INTERESTING_U32[rng.below(INTERESTING_U32.len())];
            input[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        4 if len >= 4 => {
            // A header flag bit (bits 8..31) of the top-level or an aligned inner word.
            let i = if rng.below(2) == 0 {
                0
            } else {
                rng.below(len / 4) * 4
            };
            let bit = 8 + rng.below(24);
            let mut w = u32::from_le_bytes(input[i..i + 4].try_into().expect("4 bytes"));
            w ^= 1 << bit;
            input[i..i + 4].copy_from_slice(&w.to_le_bytes());
        }
        5 if len > 0 => input.truncate(rng.below(len)),
        6 if !other.is_empty() => {
            // Splice: a piece of another input at an aligned offset.
            let from = rng.below(other.len());
            let n = 1 + rng.below((other.len() - from).min(32));
            let at = if len == 0 {
                0
            } else {
                rng.below(len / 4 + 1) * 4
            };
            let at = at.min(len);
            input.splice(at..at, other[from..from + n].iter().copied());
        }
        _ => {
            // The top-level type id.
            if len >= 1 {
                input[0] = rng.below(40) as u8;
            }
        }
    }
}

/// Case `index` of campaign `seed` for an engine of `profile`.
pub fn make_case(seed: u64, index: u64, profile: Profile, sources: &[Vec<u8>]) -> Case {
    let mut rng = Rng::for_case(seed, index);
    let roll = rng.below(100);
    let name = |kind: &str| format!("campaign/{seed}/{index}/{kind}");
    if roll < 40 {
        if let Some((value, _)) = value_and_bytes(&mut rng, profile) {
            return Case::Encode {
                name: name("encode"),
                value,
                full_objects: false,
            };
        }
    } else if roll < 55
        && let Some((_, input)) = value_and_bytes(&mut rng, profile)
    {
        return Case::Decode {
            name: name("decode/valid"),
            allow_objects: rng.below(4) == 0,
            input,
        };
    }
    let pick = |rng: &mut Rng| -> Vec<u8> {
        if !sources.is_empty() && rng.below(10) < 7 {
            sources[rng.below(sources.len())].clone()
        } else {
            value_and_bytes(rng, profile)
                .map(|(_, b)| b)
                .unwrap_or_default()
        }
    };
    let mut input = pick(&mut rng);
    let other = pick(&mut rng);
    for _ in 0..1 + rng.below(3) {
        mutate(&mut rng, &mut input, &other);
    }
    Case::Decode {
        name: name("decode/mutated"),
        allow_objects: rng.below(4) == 0,
        input,
    }
}
