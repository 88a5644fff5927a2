//! The codec's properties as plain functions: the fuzz targets, the quickcheck tests and the replay
//! of saved crash inputs all call these, so an input replays through exactly the code that found it.
//!
//! Each takes raw bytes whose first byte selects the profile and the objects switch ([`select`]).

use crate::decode::{decode_reusing, decode_traced};
use crate::encode::encode_without_shortcuts;
use crate::generate::{GenOptions, canonical_value};
use crate::json::hex;
use crate::pool::BufferPool;
use crate::profile::all_profiles;
use crate::trace::Trace;
use crate::{DecodeOptions, EncodeOptions, Profile, Variant, decode, encode};
use arbitrary::Unstructured;

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
pub fn check_decode(data: &[u8]) -> Result<(), String> {
    let Some((profile, objects, bytes)) = selected(data) else {
        return Ok(());
    };
    let dopts = DecodeOptions {
        allow_objects: objects,
    };
    let eopts = EncodeOptions {
        full_objects: objects,
    };
    let Ok(d) = decode(bytes, profile, dopts) else {
        return Ok(());
    };
    shortcuts_agree(&d.value, profile, eopts)?;
    let once = encode(&d.value, profile, eopts).map_err(|e| {
        format!(
            "{profile} objects={objects}: accepted {} but cannot re-encode: {e}",
            hex(bytes)
        )
    })?;
    let reencode = |b: &[u8]| {
        decode(b, profile, dopts)
            .map_err(|e| format!("does not decode: {e}"))
            .and_then(|d| {
                encode(&d.value, profile, eopts).map_err(|e| format!("does not encode: {e}"))
            })
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
        let next = reencode(last);
        match &next {
            Ok(b) if b == last => return Ok(()),
            Ok(b) if b.len() <= last.len() && rounds.len() < 2 + boms => {
                rounds.push(next.expect("matched Ok"));
            }
            _ => {
                let shown: Vec<String> = rounds.iter().map(|r| hex(r)).collect();
                return Err(format!(
                    "{profile} objects={objects}: {} re-encodes to {}, then {}",
                    hex(bytes),
                    shown.join(", "),
                    next.map_or_else(|e| e, |b| hex(&b))
                ));
            }
        }
    }
}

/// The encoder's shortcuts for common leaf values give the bytes (or the error) of its general
/// path.
fn shortcuts_agree(v: &Variant, profile: Profile, opts: EncodeOptions) -> Result<(), String> {
    let fast = encode(v, profile, opts);
    let general = encode_without_shortcuts(v, profile, opts);
    if fast != general {
        return Err(format!(
            "{profile}: {v:?} encodes to {fast:?} with the shortcuts but {general:?} without"
        ));
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
pub fn check_traced_agrees(data: &[u8]) -> Result<(), String> {
    let Some((profile, objects, bytes)) = selected(data) else {
        return Ok(());
    };
    let opts = DecodeOptions {
        allow_objects: objects,
    };
    let fast = decode(bytes, profile, opts);
    let traced = decode_traced(bytes, profile, opts, &mut Traced);
    if fast != traced {
        return Err(format!(
            "{profile} objects={objects}: {} decodes to {fast:?} untraced but {traced:?} traced",
            hex(bytes)
        ));
    }
    // Into the buffers of the same value, recycled: every container takes one back.
    let mut pool = BufferPool::new();
    if let Ok(d) = &fast {
        pool.recycle(d.value.clone());
    }
    let reused = decode_reusing(bytes, profile, opts, &mut pool);
    if fast != reused {
        return Err(format!(
            "{profile} objects={objects}: {} decodes to {fast:?} but {reused:?} into recycled \
             buffers",
            hex(bytes)
        ));
    }
    Ok(())
}

/// A generated canonical value: encode then decode is the identity, consumes every byte, and
/// re-encoding gives the same bytes.
pub fn check_roundtrip(data: &[u8]) -> Result<(), String> {
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
    let eopts = EncodeOptions { full_objects };
    shortcuts_agree(&v, profile, eopts)?;
    let bytes =
        encode(&v, profile, eopts).map_err(|e| format!("{profile}: cannot encode {v:?}: {e}"))?;
    let d = decode(
        &bytes,
        profile,
        DecodeOptions {
            allow_objects: full_objects,
        },
    )
    .map_err(|e| {
        format!(
            "{profile}: {v:?} encoded as {} but did not decode: {e}",
            hex(&bytes)
        )
    })?;
    if d.value != v || d.consumed != bytes.len() {
        return Err(format!(
            "{profile}: {v:?} encoded as {} came back as {:?} ({} of {} bytes)",
            hex(&bytes),
            d.value,
            d.consumed,
            bytes.len()
        ));
    }
    if encode(&d.value, profile, eopts).as_ref() != Ok(&bytes) {
        return Err(format!("{profile}: re-encoding {v:?} changed its bytes"));
    }
    let mut traced = data[..1].to_vec();
    traced.extend_from_slice(&bytes);
    check_traced_agrees(&traced)
}
