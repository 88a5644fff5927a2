//! Inputs and the library baseline for scripts/bench-memory.sh (docs/benchmarks.md, "Memory").
//!
//! ```text
//! memory gen FAMILY BYTES OUT   # writes a value of FAMILY about BYTES long on the wire (Godot 4.6)
//! memory decode FILE            # decodes FILE with the library alone, prints its peak RSS in KiB
//! ```
//!
//! Families: `nil-array` (an Array of Nil), `bytes` (a PackedByteArray), `string-dict` (a
//! Dictionary of 8-character String keys and values), `deep` (an Array of chains of Arrays nested
//! 1000 levels, near the engines' 1024).

use std::process::ExitCode;

use gdmarshal::value::{Array, Dictionary, Text};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, decode, encode};

/// Levels of each chain of the `deep` family.
const CHAIN: usize = 1000;

fn profile() -> Profile {
    "4.6".parse().expect("a known version")
}

/// A value of `family` taking about `bytes` on the wire.
fn generate(family: &str, bytes: usize) -> Option<Variant> {
    let body = bytes.saturating_sub(8);
    Some(match family {
        "nil-array" => Variant::Array(Array::new(vec![Variant::Nil; body / 4])),
        "bytes" => Variant::PackedByteArray((0..body).map(|i| (i * 31 % 251) as u8).collect()),
        "string-dict" => {
            // Each entry: two Strings of 8 bytes, 16 bytes each on the wire.
            let text = |c: char, i: usize| Variant::String(Text::from(format!("{c}{i:07}")));
            let entries = (0..body / 32).map(|i| (text('k', i), text('v', i)));
            Variant::Dictionary(Dictionary::new(entries.collect()))
        }
        "deep" => {
            // Each level of a chain: a header and a count, 8 bytes.
            let chain = || {
                (0..CHAIN).fold(Variant::Nil, |inner, _| {
                    Variant::Array(Array::new(vec![inner]))
                })
            };
            Variant::Array(Array::new(
                (0..body / (8 * CHAIN)).map(|_| chain()).collect(),
            ))
        }
        _ => return None,
    })
}

/// This process's peak resident set size in KiB (`VmHWM`).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn run(args: &[String]) -> Result<(), String> {
    match args {
        [cmd, family, bytes, out] if cmd == "gen" => {
            let n: usize = bytes
                .parse()
                .map_err(|_| format!("{bytes:?} is not a size"))?;
            let v = generate(family, n).ok_or_else(|| format!("unknown family {family:?}"))?;
            let wire =
                encode(&v, profile(), EncodeOptions::default()).map_err(|e| e.to_string())?;
            std::fs::write(out, wire).map_err(|e| format!("{out}: {e}"))
        }
        [cmd, file] if cmd == "decode" => {
            let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            let d =
                decode(&bytes, profile(), DecodeOptions::default()).map_err(|e| e.to_string())?;
            drop(d);
            let peak = peak_rss_kib().ok_or("no VmHWM in /proc/self/status")?;
            println!("{peak}");
            Ok(())
        }
        _ => Err("usage: memory gen FAMILY BYTES OUT | memory decode FILE".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("memory: {e}");
            ExitCode::FAILURE
        }
    }
}
