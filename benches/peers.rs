//! The side-by-side benchmark's Rust runners: gdmarshal, the published crate
//! `godot-binary-serialization` (a dev-dependency for this benchmark only) and a memcpy of the same
//! bytes, on one family of benches/support/families.rs in one format, in the loops of
//! support/loops.rs. scripts/bench-peers.sh runs every runner (these, Godot's GDScript loops and
//! the npm package `@gd-com/utils` under Node) in its own process and prints the table of
//! docs/benchmarks.md.
//!
//! ```text
//! cargo bench --bench peers -- --runner gdmarshal --format 4.6 --family strings
//! cargo bench --bench peers -- --write-bytes DIR   # every family's bytes, for the other runners
//! ```
//!
//! Each run prints one line: `GDMARSHAL_PEER runner=… format=… family=… bytes=N
//! decode_median_us=… encode_median_us=… decode_alone_median_us=… same_bytes=yes|no`, or
//! `… unsupported=REASON` when the runner cannot represent the family.

use std::hint::black_box;
use std::path::PathBuf;

use gdmarshal::decode::decode_reusing;
use gdmarshal::pool::BufferPool;
use gdmarshal::value::{Components, Text};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, VariantType, decode, encode};
use godot_binary_serialization::decoder::Decoder;
use godot_binary_serialization::encoder::Encoder;
use godot_binary_serialization::types::primitive::{
    GodotBool, GodotFloat, GodotInteger, GodotString,
};
use godot_binary_serialization::types::structures::{GodotDictionary, GodotVector2, GodotVector3};
use godot_binary_serialization::types::variant::GodotVariant;

#[path = "support/families.rs"]
#[allow(dead_code)] // the codec table's other families are not side by side
mod families;
#[path = "support/loops.rs"]
mod loops;

/// The version of godot-binary-serialization measured: Cargo.toml pins it (`=0.2.0`).
const PEER_VERSION: &str = "0.2.0";

/// The command line: `--runner R --format F --family NAME`, or `--write-bytes DIR`.
struct Args {
    runner: String,
    format: String,
    family: Option<String>,
    write_bytes: Option<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        runner: "gdmarshal".into(),
        format: "4.6".into(),
        family: None,
        write_bytes: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--runner" => a.runner = value(),
            "--format" => a.format = value(),
            "--family" => a.family = Some(value()),
            "--write-bytes" => a.write_bytes = Some(value().into()),
            // Passed by cargo.
            "--bench" => {}
            other => usage(&format!("unknown argument {other}")),
        }
    }
    a
}

fn usage(why: &str) -> ! {
    eprintln!(
        "peers: {why}\nusage: peers --runner gdmarshal|gdmarshal-reusing|godot-binary-serialization|memcpy|floor|walk \
         --format 4.6|3.6 --family NAME | --write-bytes DIR"
    );
    std::process::exit(2)
}

/// What godot-binary-serialization cannot represent (the benchmark's `unsupported=` words).
#[derive(Debug, thiserror::Error)]
enum NotInPeer {
    #[error("Godot 4 type ids only")]
    Godot3,
    #[error("a string that is not Unicode")]
    NotUnicode,
    #[error("double-precision vectors")]
    DoubleVector,
    #[error("a vector of another size")]
    VectorSize,
    #[error("no {0:?} type")]
    Type(VariantType),
}

/// `v` as godot-binary-serialization's value, in the forms that encode as Godot writes `v` (a
/// 32-bit int or float where the value fits), or why the crate cannot represent it.
fn to_peer(v: &Variant) -> Result<Box<dyn GodotVariant>, NotInPeer> {
    Ok(match v {
        Variant::Bool(b) => Box::new(GodotBool::new(*b)),
        Variant::Int(i) => Box::new(match i32::try_from(*i) {
            Ok(i) => GodotInteger::new_from_i32(i),
            Err(_) => GodotInteger::new_from_i64(*i),
        }),
        Variant::Float(x) if f64::from(*x as f32) == *x => {
            Box::new(GodotFloat::new_from_f32(*x as f32))
        }
        Variant::Float(x) => Box::new(GodotFloat::new_from_f64(*x)),
        Variant::String(s) => Box::new(GodotString::new(s.as_str().ok_or(NotInPeer::NotUnicode)?)),
        Variant::Vector2(r) | Variant::Vector3(r) => {
            let Components::F32(c) = r.components() else {
                return Err(NotInPeer::DoubleVector);
            };
            match *c {
                [x, y] => Box::new(GodotVector2::new(x, y)),
                [x, y, z] => Box::new(GodotVector3::new(x, y, z)),
                _ => return Err(NotInPeer::VectorSize),
            }
        }
        Variant::Dictionary(d) => {
            let mut out = GodotDictionary::new();
            for (k, v) in d.entries() {
                out.map.insert(to_peer(k)?, to_peer(v)?);
            }
            Box::new(out)
        }
        other => return Err(NotInPeer::Type(other.get_type())),
    })
}

/// The decoded strings of [`floor_decode`], held only to be freed as a decoded value is.
#[allow(dead_code)]
enum Floor {
    Variants(Vec<Variant>),
    Texts(Vec<Text>),
}

/// The least a decoder must do that holds each string as this codec does (a 32-byte `Variant`
/// in an Array of strings, a 24-byte `Text` in a `PackedStringArray`): read each length, write
/// each slot (an empty string) in place, step over the bytes. No check and no copy of the text:
/// a floor to measure the codec against, not a decoder. `None` for other families.
fn floor_decode(bytes: &[u8], family: &str) -> Option<Floor> {
    let n = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize & 0x7FFF_FFFF;
    Some(match family {
        // Each string after its type header; written as the codec writes it: a Nil slot first,
        // then the string over it (a whole value copied into the slot stalls on its stores).
        "strings" => Floor::Variants(floor_walk(
            bytes,
            n,
            4,
            || Variant::Nil,
            |slot| std::mem::forget(std::mem::replace(slot, Variant::String(Text::default()))),
        )),
        "PackedStringArray" => Floor::Texts(floor_walk(bytes, n, 0, Text::default, |_| {})),
        _ => return None,
    })
}

/// `n` empty strings, one for each string field of `bytes` after the first 8 bytes, each
/// `header` bytes after the one before: a `blank` written in place, then `fill`ed.
#[inline(always)]
fn floor_walk<T>(
    bytes: &[u8],
    n: usize,
    header: usize,
    blank: impl Fn() -> T,
    fill: impl Fn(&mut T),
) -> Vec<T> {
    let mut out = Vec::with_capacity(n);
    let mut at = 8 + header;
    for i in 0..n {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        out.spare_capacity_mut()[0].write(blank());
        // SAFETY: the capacity is `n`, and the element at `i` was just written.
        unsafe { out.set_len(i + 1) };
        fill(&mut out[i]);
        at += 4 + len + (4 - len % 4) % 4 + header;
    }
    out
}

/// Less than a floor: each string field's length read and the field stepped over, nothing
/// checked or stored. The format says where an element starts only through the length before
/// it, so each step waits for the load of the length it adds: no decoder that reads every
/// element in order is faster. The end offset, `None` for families other than the strings.
fn walk_lengths(bytes: &[u8], family: &str) -> Option<usize> {
    let header = match family {
        "strings" => 4,
        "PackedStringArray" => 0,
        _ => return None,
    };
    let n = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize & 0x7FFF_FFFF;
    let mut at = 8 + header;
    for _ in 0..n {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        at += 4 + len + (4 - len % 4) % 4 + header;
    }
    Some(at)
}

/// A runner that only decodes (the string floors): its result line, or the line saying it does
/// not measure this family when `decode` gives `None`.
fn decode_only<V>(head: &str, rounds: usize, decode: impl Fn() -> Option<V>) -> Option<bool> {
    if decode().is_none() {
        println!("{head} unsupported=\"a floor of string decoding only\"");
        return None;
    }
    let (m, _) = loops::run(rounds, &decode, Vec::new);
    println!(
        "{head} decode_median_us={} decode_alone_median_us={} same_bytes=yes",
        m.decode_us, m.decode_alone_us
    );
    Some(true)
}

/// Runs `runner`'s loops on `value` encoded for `format`, and prints the result line; returns
/// whether the runner wrote the same bytes (`None` when it cannot represent the value).
fn measure(
    runner: &str,
    format: &str,
    family: &str,
    value: &Variant,
    rounds: usize,
) -> Option<bool> {
    let profile: Profile = format.parse().unwrap_or_else(|_| usage("unknown format"));
    let bytes = encode(value, profile, EncodeOptions::default()).expect("encode");
    let mut head = format!(
        "GDMARSHAL_PEER runner={runner} format={format} family={family} bytes={}",
        bytes.len()
    );
    if runner == "godot-binary-serialization" {
        head.push_str(&format!(" version={PEER_VERSION}"));
    }
    let (m, again) = match runner {
        "gdmarshal" => loops::run(
            rounds,
            || decode(black_box(&bytes), profile, DecodeOptions::default()).expect("decode"),
            || encode(black_box(value), profile, EncodeOptions::default()).expect("encode"),
        ),
        // The same, with each decoded value recycled into a pool that the next decode takes its
        // containers' buffers from (gdmarshal::pool), as a program decoding message after
        // message can.
        "gdmarshal-reusing" => {
            let pool = std::cell::RefCell::new(BufferPool::new());
            loops::run_freeing(
                rounds,
                || {
                    let opts = DecodeOptions::default();
                    decode_reusing(black_box(&bytes), profile, opts, &mut pool.borrow_mut())
                        .expect("decode")
                },
                |d| pool.borrow_mut().recycle(d.value),
                || encode(black_box(value), profile, EncodeOptions::default()).expect("encode"),
            )
        }
        // The least work of any decoder that holds strings as this codec does (below).
        "floor" => return decode_only(&head, rounds, || floor_decode(black_box(&bytes), family)),
        // Lengths only (above).
        "walk" => return decode_only(&head, rounds, || walk_lengths(black_box(&bytes), family)),
        // The baseline: the same bytes copied into a fresh buffer, both ways.
        "memcpy" => loops::run(rounds, || black_box(&bytes).to_vec(), || bytes.to_vec()),
        "godot-binary-serialization" => {
            // The crate reads and writes Godot 4's type ids only.
            let peer = if profile.major() == 4 {
                to_peer(value)
            } else {
                Err(NotInPeer::Godot3)
            };
            let peer = match peer {
                Ok(p) => p,
                Err(why) => {
                    println!("{head} unsupported=\"{why}\"");
                    return None;
                }
            };
            loops::run(
                rounds,
                || Decoder::decode_variant(black_box(&bytes)).expect("peer decode"),
                || Encoder::encode_variant(black_box(&*peer)).expect("peer encode"),
            )
        }
        other => usage(&format!("unknown runner {other}")),
    };
    let same = again == bytes;
    println!(
        "{head} decode_median_us={} encode_median_us={} decode_alone_median_us={} same_bytes={}",
        m.decode_us,
        m.encode_us,
        m.decode_alone_us,
        if same { "yes" } else { "no" }
    );
    Some(same)
}

fn main() {
    let a = args();
    let families = families::peer_families();
    if let Some(dir) = a.write_bytes {
        let profile: Profile = a.format.parse().unwrap_or_else(|_| usage("unknown format"));
        std::fs::create_dir_all(&dir).expect("create the bytes directory");
        for (name, v) in &families {
            let bytes = encode(v, profile, EncodeOptions::default()).expect("encode");
            let path = dir.join(format!("{}-{name}.bin", a.format));
            std::fs::write(&path, bytes).expect("write the family's bytes");
        }
        return;
    }
    let Some(family) = a.family else {
        // No family: `cargo test --benches`, which shows that every runner still runs every
        // family once and that the crate still writes Godot's bytes where it can.
        for (name, v) in &families {
            for runner in [
                "gdmarshal",
                "gdmarshal-reusing",
                "memcpy",
                "floor",
                "walk",
                "godot-binary-serialization",
            ] {
                let same = measure(runner, "4.6", name, v, 1);
                assert_ne!(same, Some(false), "{runner} wrote other bytes for {name}");
            }
        }
        return;
    };
    let Some((_, value)) = families.iter().find(|(n, _)| *n == family) else {
        usage(&format!("no family {family}"))
    };
    measure(&a.runner, &a.format, &family, value, loops::rounds());
}
