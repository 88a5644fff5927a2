//! Properties of the codec over random input, for every profile:
//! decode(encode(v)) == v bit for bit; encode(decode(b)) == b for canonical b; decoding arbitrary
//! bytes never panics, and whatever it accepts re-encodes to a fixed point.

use arbitrary::Unstructured;
use gdmarshal::error::EncodeErrorKind;
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::profile::all_profiles;
use gdmarshal::{DecodeOptions, EncodeOptions, decode, encode};
use quickcheck::{Gen, QuickCheck, TestResult};

/// Random bytes drive both the value generator and the raw-bytes tests.
fn check(prop: fn(Vec<u8>) -> TestResult) {
    QuickCheck::new()
        .rng(Gen::new(4096))
        .tests(1000)
        .quickcheck(prop);
}

fn roundtrip(seed: Vec<u8>) -> TestResult {
    for profile in all_profiles() {
        for full_objects in [false, true] {
            let mut u = Unstructured::new(&seed);
            let o = GenOptions {
                full_objects,
                ..GenOptions::new(profile)
            };
            let Ok(v) = canonical_value(&mut u, &o) else {
                return TestResult::discard();
            };
            let bytes = match encode(&v, profile, EncodeOptions { full_objects }) {
                Ok(b) => b,
                Err(e) => return TestResult::error(format!("{profile}: cannot encode {v:?}: {e}")),
            };
            let d = match decode(
                &bytes,
                profile,
                DecodeOptions {
                    allow_objects: full_objects,
                },
            ) {
                Ok(d) => d,
                Err(e) => {
                    return TestResult::error(format!(
                        "{profile}: {v:?} encoded but did not decode: {e}"
                    ));
                }
            };
            if d.value != v || d.consumed != bytes.len() {
                return TestResult::error(format!(
                    "{profile}: {v:?} came back as {:?} ({} of {} bytes)",
                    d.value,
                    d.consumed,
                    bytes.len()
                ));
            }
            if encode(&d.value, profile, EncodeOptions { full_objects }).as_ref() != Ok(&bytes) {
                return TestResult::error(format!(
                    "{profile}: re-encoding {v:?} changed its bytes"
                ));
            }
        }
    }
    TestResult::passed()
}

#[test]
fn encode_then_decode_is_the_identity() {
    check(roundtrip);
}

fn arbitrary_bytes(bytes: Vec<u8>) -> TestResult {
    for profile in all_profiles() {
        for objects in [false, true] {
            let Ok(d) = decode(
                &bytes,
                profile,
                DecodeOptions {
                    allow_objects: objects,
                },
            ) else {
                continue;
            };
            let opts = EncodeOptions {
                full_objects: objects,
            };
            let once = match encode(&d.value, profile, opts) {
                Ok(b) => b,
                // With objects on, an object read as an id cannot be written back in full.
                Err(e) if objects && matches!(e.kind, EncodeErrorKind::Unsupported { .. }) => {
                    continue;
                }
                Err(e) => {
                    return TestResult::error(format!(
                        "{profile}: accepted {bytes:02x?} but cannot re-encode: {e}"
                    ));
                }
            };
            let again = decode(
                &once,
                profile,
                DecodeOptions {
                    allow_objects: objects,
                },
            )
            .map_err(|e| e.to_string())
            .and_then(|d| encode(&d.value, profile, opts).map_err(|e| e.to_string()));
            if again.as_ref() != Ok(&once) {
                return TestResult::error(format!(
                    "{profile}: {bytes:02x?} re-encodes to {once:02x?}, then to {again:02x?}"
                ));
            }
        }
    }
    TestResult::passed()
}

#[test]
fn arbitrary_bytes_never_panic_and_reencode_to_a_fixed_point() {
    check(arbitrary_bytes);
}

/// Mutated valid encodings reach much deeper than random bytes.
fn mutated(seed: Vec<u8>) -> TestResult {
    let profile = "4.6".parse().unwrap();
    let mut u = Unstructured::new(&seed);
    let Ok(v) = canonical_value(&mut u, &GenOptions::new(profile)) else {
        return TestResult::discard();
    };
    let mut bytes = encode(&v, profile, EncodeOptions::default()).unwrap();
    if bytes.is_empty() {
        return TestResult::discard();
    }
    let Ok(flips) = u.int_in_range(1..=4) else {
        return TestResult::discard();
    };
    for _ in 0..flips {
        let i = u.choose_index(bytes.len()).unwrap_or(0);
        bytes[i] = u.arbitrary().unwrap_or(0xff);
    }
    let Ok(cut) = u.int_in_range(0..=bytes.len()) else {
        return TestResult::discard();
    };
    bytes.truncate(cut.max(1));
    arbitrary_bytes(bytes)
}

#[test]
fn mutated_encodings_never_panic() {
    check(mutated);
}
