//! The codec's properties as plain functions: the fuzz targets, the quickcheck tests and the replay
//! of saved crash inputs all call these, so an input replays through exactly the code that found it.
//!
//! Each takes raw bytes whose first byte selects the profile and the objects switch ([`select`]).

use arbitrary::Unstructured;
use gdmarshal::decode::Decoded;
use gdmarshal::decode::{decode_reusing, decode_traced};
use gdmarshal::encode::encode_without_shortcuts;
use gdmarshal::error::{DecodeError, EncodeError};
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::hex::hex;
use gdmarshal::pool::BufferPool;
use gdmarshal::profile::all_profiles;
use gdmarshal::trace::Trace;
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, decode, encode};

/// How an input failed a property: what the codec did and what the property expected, with the
/// input (hex in the words for people).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PropertyFailure {
    /// Bytes the decoder accepted do not encode again.
    #[error(
        "{profile} objects={objects}: accepted {} but cannot re-encode: {error}",
        hex(input)
    )]
    NotReencodable {
        /// The profile the selector chose.
        profile: Profile,
        /// Whether objects were on.
        objects: bool,
        /// The bytes after the selector.
        input: Vec<u8>,
        /// Why the decoded value did not encode.
        error: EncodeError,
    },
    /// Decoding and encoding again do not come to a fixed point within the rounds allowed, or a
    /// round gives more bytes than the one before.
    #[error(
        "{profile} objects={objects}: {} re-encodes to {}, then {last}",
        hex(input),
        rounds.iter().map(|r| hex(r)).collect::<Vec<_>>().join(", ")
    )]
    NoFixedPoint {
        /// The profile the selector chose.
        profile: Profile,
        /// Whether objects were on.
        objects: bool,
        /// The bytes after the selector.
        input: Vec<u8>,
        /// Each round's bytes, the first encoding first.
        rounds: Vec<Vec<u8>>,
        /// What the round after them gave.
        last: Round,
    },
    /// The encoder's shortcuts for common leaf values and its general path disagree.
    #[error("{profile}: {value:?} encodes to {fast:?} with the shortcuts but {general:?} without")]
    ShortcutsDiffer {
        /// The profile.
        profile: Profile,
        /// The value encoded.
        value: Box<Variant>,
        /// With the shortcuts.
        fast: Box<Result<Vec<u8>, EncodeError>>,
        /// Without them.
        general: Box<Result<Vec<u8>, EncodeError>>,
    },
    /// Decoding with a trace (field by field) and without one give different results, or the
    /// decode into recycled buffers differs from a fresh one.
    #[error(
        "{profile} objects={objects}: {} decodes to {fast:?} untraced but {other:?} {}",
        hex(input),
        if *recycled { "into recycled buffers" } else { "traced" }
    )]
    DecodesDiffer {
        /// The profile the selector chose.
        profile: Profile,
        /// Whether objects were on.
        objects: bool,
        /// The bytes after the selector.
        input: Vec<u8>,
        /// The plain decode.
        fast: Box<Result<Decoded, DecodeError>>,
        /// The traced decode, or the decode into recycled buffers.
        other: Box<Result<Decoded, DecodeError>>,
        /// Whether `other` is the decode into recycled buffers (else the traced one).
        recycled: bool,
    },
    /// A generated value does not survive encode then decode then encode.
    #[error("{profile}: {value:?} {what}")]
    NoRoundTrip {
        /// The profile the selector chose.
        profile: Profile,
        /// The generated value.
        value: Box<Variant>,
        /// What went wrong.
        what: RoundTrip,
    },
}

/// What a round of decoding and encoding again gave.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Round {
    /// Bytes.
    #[error("{}", hex(.0))]
    Bytes(Vec<u8>),
    /// The bytes of the round before did not decode.
    #[error("does not decode: {0}")]
    NoDecode(DecodeError),
    /// Their value did not encode.
    #[error("does not encode: {0}")]
    NoEncode(EncodeError),
}

/// How a generated value failed to round-trip.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RoundTrip {
    /// It did not encode.
    #[error("cannot be encoded: {0}")]
    NoEncode(EncodeError),
    /// Its bytes did not decode.
    #[error("encoded as {} but did not decode: {error}", hex(bytes))]
    NoDecode {
        /// Its bytes.
        bytes: Vec<u8>,
        /// Why they did not decode.
        error: DecodeError,
    },
    /// Its bytes decoded to another value, or not all of them were read.
    #[error("encoded as {} came back as {back:?} ({consumed} of {} bytes)", hex(bytes), bytes.len())]
    Changed {
        /// Its bytes.
        bytes: Vec<u8>,
        /// The value decoded.
        back: Box<Variant>,
        /// Bytes read.
        consumed: usize,
    },
    /// Encoding the decoded value gave other bytes.
    #[error("changed its bytes when encoded again")]
    Reencoded,
}

/// What the first input byte selects: bit 0 turns objects on, the rest indexes `all_profiles()`
/// (modulo its length, so every byte value means something).
pub fn select(byte: u8) -> (Profile, bool) {
    let profiles = all_profiles();
    (
        profiles[(byte >> 1) as usize % profiles.len()],
        byte & 1 == 1,
    )
}

/// What `data`'s first byte selects ([`select`]), and the bytes after it; `None` for no bytes.
fn selected(data: &[u8]) -> Option<(Profile, bool, &[u8])> {
    let (&sel, rest) = data.split_first()?;
    let (profile, objects) = select(sel);
    Some((profile, objects, rest))
}

/// The byte that [`select`] maps to `profile` with or without objects.
pub fn selector(profile: Profile, objects: bool) -> Option<u8> {
    let i = all_profiles().iter().position(|p| *p == profile)?;
    u8::try_from(i * 2 + objects as usize).ok()
}

/// Arbitrary bytes after the selector: decoding never panics, and whatever it accepts re-encodes,
/// and the re-encoding is a fixed point of decode-then-encode.
pub fn check_decode(data: &[u8]) -> Result<(), PropertyFailure> {
    let Some((profile, objects, bytes)) = selected(data) else {
        return Ok(());
    };
    let dopts = DecodeOptions::new().allow_objects(objects);
    let eopts = EncodeOptions::new().full_objects(objects);
    let Ok(d) = decode(bytes, profile, dopts) else {
        return Ok(());
    };
    shortcuts_agree(&d.value, profile, eopts)?;
    let once =
        encode(&d.value, profile, eopts).map_err(|error| PropertyFailure::NotReencodable {
            profile,
            objects,
            input: bytes.to_vec(),
            error,
        })?;
    let reencode = |b: &[u8]| match decode(b, profile, dopts) {
        Err(e) => Round::NoDecode(e),
        Ok(d) => match encode(&d.value, profile, eopts) {
            Ok(b) => Round::Bytes(b),
            Err(e) => Round::NoEncode(e),
        },
    };
    // Re-encoding converges: no round gives more bytes, and a fixed point comes soon.
    // Most inputs are there at once. Two things make a round shorter, as they do in the engine:
    // a null object decodes as an Object but is written as Nil, so a Dictionary with both a
    // null-object key and a Nil key has two entries until it is written once, then one; and a
    // string's leading byte-order mark is dropped as it is read, one per read, so a string that
    // begins with k of them takes k rounds (fuzz/regressions/decode/string-three-boms).
    // So an input gets two rounds past the first, and one more per byte-order mark it holds:
    // without one, a round that loses anything is caught at once.
    let boms = memchr::memmem::find_iter(bytes, b"\xEF\xBB\xBF").count();
    let mut rounds = vec![once];
    loop {
        let last = rounds.last().expect("one round at least");
        match reencode(last) {
            Round::Bytes(b) if &b == last => return Ok(()),
            Round::Bytes(b) if b.len() <= last.len() && rounds.len() < 2 + boms => rounds.push(b),
            last => {
                return Err(PropertyFailure::NoFixedPoint {
                    profile,
                    objects,
                    input: bytes.to_vec(),
                    rounds,
                    last,
                });
            }
        }
    }
}

/// The encoder's shortcuts for common leaf values give the bytes (or the error) of its general
/// path.
fn shortcuts_agree(
    v: &Variant,
    profile: Profile,
    opts: EncodeOptions,
) -> Result<(), PropertyFailure> {
    let fast = encode(v, profile, opts);
    let general = encode_without_shortcuts(v, profile, opts);
    if fast != general {
        return Err(PropertyFailure::ShortcutsDiffer {
            profile,
            value: Box::new(v.clone()),
            fast: Box::new(fast),
            general: Box::new(general),
        });
    }
    Ok(())
}

/// A trace that is active, so the decoder takes its field-by-field paths, and keeps nothing.
struct Traced;

impl Trace for Traced {
    const ACTIVE: bool = true;
    fn open(&mut self, _: usize, _: std::fmt::Arguments<'_>) {}
    fn field(&mut self, _: usize, _: usize, _: &str, _: std::fmt::Arguments<'_>) {}
    fn close(&mut self, _: usize) {}
}

/// Arbitrary bytes after the selector: the decoder's shortcuts for common fields (taken only when
/// nothing traces the decode) give the same result as reading every field on its own, as `inspect`
/// does: the same value bit for bit and bytes consumed, or the same error at the same offset; and
/// the same as [`decode_reusing`] in the recycled buffers of the value.
///
/// The `decode` fuzz target leaves this out, for its rate: the quickcheck tests, the replay of
/// its corpus and [`check_roundtrip`] run it.
pub fn check_traced_agrees(data: &[u8]) -> Result<(), PropertyFailure> {
    let Some((profile, objects, bytes)) = selected(data) else {
        return Ok(());
    };
    let opts = DecodeOptions::new().allow_objects(objects);
    let fast = decode(bytes, profile, opts);
    let traced = decode_traced(bytes, profile, opts, &mut Traced);
    let differs = |other, recycled| PropertyFailure::DecodesDiffer {
        profile,
        objects,
        input: bytes.to_vec(),
        fast: Box::new(fast.clone()),
        other: Box::new(other),
        recycled,
    };
    if fast != traced {
        return Err(differs(traced, false));
    }
    // Into the buffers of the same value, recycled: every container takes one back.
    let mut pool = BufferPool::new();
    if let Ok(d) = &fast {
        pool.recycle(d.value.clone());
    }
    let reused = decode_reusing(bytes, profile, opts, &mut pool);
    if fast != reused {
        return Err(differs(reused, true));
    }
    Ok(())
}

/// A generated canonical value: encode then decode is the identity, consumes every byte, and
/// re-encoding gives the same bytes.
pub fn check_roundtrip(data: &[u8]) -> Result<(), PropertyFailure> {
    let Some((profile, full_objects, rest)) = selected(data) else {
        return Ok(());
    };
    let o = GenOptions {
        full_objects,
        ..GenOptions::new(profile)
    };
    // Too few bytes to draw a value is not a failure.
    let Ok(v) = canonical_value(&mut Unstructured::new(rest), &o) else {
        return Ok(());
    };
    let eopts = EncodeOptions::new().full_objects(full_objects);
    shortcuts_agree(&v, profile, eopts)?;
    let fail = |what| PropertyFailure::NoRoundTrip {
        profile,
        value: Box::new(v.clone()),
        what,
    };
    let bytes = encode(&v, profile, eopts).map_err(|e| fail(RoundTrip::NoEncode(e)))?;
    let dopts = DecodeOptions::new().allow_objects(full_objects);
    let d = decode(&bytes, profile, dopts).map_err(|error| {
        fail(RoundTrip::NoDecode {
            bytes: bytes.clone(),
            error,
        })
    })?;
    if d.value != v || d.consumed != bytes.len() {
        return Err(fail(RoundTrip::Changed {
            bytes: bytes.clone(),
            back: Box::new(d.value),
            consumed: d.consumed,
        }));
    }
    if encode(&d.value, profile, eopts).as_ref() != Ok(&bytes) {
        return Err(fail(RoundTrip::Reencoded));
    }
    let mut traced = data[..1].to_vec();
    traced.extend_from_slice(&bytes);
    check_traced_agrees(&traced)
}
