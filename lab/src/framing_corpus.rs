//! The framing corpus (`corpus/framing/godot-VERSION.jsonl`): what each engine's `store_var`
//! and `put_var` write around a value, what its `get_var` reads from framed bytes (right and
//! wrong lengths), and its own Basis axes. Kept apart from the main corpus, with its own
//! checksums (`corpus/framing/SHA256SUMS`); `gdmarshal corpus framing` records it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::corpus::sums;
use crate::error::{FileError, LineError};
use crate::oracle::{AskError, Engine, Via};
use gdmarshal::float::FloatStyle;
use gdmarshal::framing::{Framing, frame, unframe};
use gdmarshal::hex::{hex, unhex};
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;
use gdmarshal::{DecodeOptions, EncodeOptions, decode, encode};

/// The checksum file: `SHA256  FILE` per corpus file.
pub const SUMS: &str = "SHA256SUMS";

/// How the framing corpus's engine files end.
const EXT: &str = ".jsonl";

/// The framing corpus folder.
pub fn default_dir() -> PathBuf {
    crate::corpus::default_dir().join("framing")
}

/// One framing case and one engine's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FramingRecord {
    /// Stable name, e.g. `write/file/int_7` or `read/packet/length_past_end`.
    pub name: String,
    /// `file`, `stream`, `packet` (over a `StreamPeerBuffer`), `tcp` (a `PacketPeerStream`
    /// over loopback TCP) or `udp` (a loopback datagram); empty for the `axes` record.
    pub via: String,
    /// `full_objects` / `allow_objects`.
    pub objects: bool,
    /// Write: the value, tagged JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Write: the bytes the engine wrote (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Read: the bytes given to `get_var` (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Read: what `get_var` returned (a Nil tree when it failed; no read case holds a Nil).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Value>,
    /// Read: how many bytes the reader moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    /// The `axes` record: the engine's answer as it gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
}

impl FramingRecord {
    /// Whether `get_var` gave a value (a read case holds no Nil, so Nil means it failed).
    pub fn read_ok(&self) -> bool {
        self.tree
            .as_ref()
            .is_some_and(|t| t.get("type").and_then(Value::as_str) != Some("Nil"))
    }
}

fn values() -> Vec<(&'static str, Variant)> {
    vec![
        ("int_7", Variant::Int(7)),
        ("String_ab", Variant::String("ab".into())),
        (
            "PackedByteArray_len3",
            Variant::PackedByteArray(vec![1, 2, 3]),
        ),
        (
            "Array_int_String",
            Variant::Array(gdmarshal::value::Array::new(vec![
                Variant::Int(1),
                Variant::String("hi".into()),
            ])),
        ),
    ]
}

fn le(n: u32) -> [u8; 4] {
    n.to_le_bytes()
}

/// A Resource as full object, with the properties each major's engine writes for it (the main
/// corpus's `encode/Object/Resource_full`).
fn resource(p: Profile) -> Variant {
    let script = if p.major() == 3 {
        json!({"type": "Object", "value": null})
    } else {
        json!({"type": "Nil"})
    };
    let tree = json!({"type": "Object", "class": "Resource", "properties": [
        ["resource_local_to_scene", {"type": "bool", "value": false}],
        ["resource_name", {"type": "String", "value": "named"}],
        ["script", script],
    ]});
    from_json(&tree, p).expect("the Resource tree reads")
}

/// An empty NodePath whose flags say absolute, as a 4.x or 3.x header writes it.
fn nodepath_empty_absolute(p: Profile) -> Vec<u8> {
    let id = p
        .id_of(gdmarshal::VariantType::NodePath)
        .expect("every profile has NodePath");
    [le(id), le(0x8000_0000), le(0), le(1)].concat()
}

/// The read cases for a profile: (name, bytes, allow_objects).
fn reads(p: Profile) -> Vec<(&'static str, Vec<u8>, bool)> {
    let enc = |v: &Variant| encode(v, p, EncodeOptions::default()).expect("plain values encode");
    let seven = enc(&Variant::Int(7));
    let ab = enc(&Variant::String("ab".into()));
    let mut two = frame(&seven, Framing::StoreVar);
    two.extend(frame(&ab, Framing::StoreVar));
    let cat = |parts: &[&[u8]]| parts.concat();
    // A PackedByteArray of 3 bytes without its padding byte, last in the input.
    let mut bytes3 = enc(&Variant::PackedByteArray(vec![1, 2, 3]));
    bytes3.pop();
    let full = encode(&resource(p), p, EncodeOptions::new().full_objects(true))
        .expect("a Resource encodes in full");
    let full = frame(&full, Framing::StoreVar);
    vec![
        ("exact", frame(&seven, Framing::StoreVar), false),
        ("two_values", two, false),
        ("string_padded", frame(&ab, Framing::StoreVar), false),
        ("length_past_end", cat(&[&le(100), &seven]), false),
        ("length_short", cat(&[&le(4), &seven]), false),
        (
            "length_long_bytes_present",
            cat(&[&le(12), &seven, &le(0xffff_ffff)]),
            false,
        ),
        ("length_zero", le(0).to_vec(), false),
        ("no_length", vec![8, 0], false),
        (
            "unpadded_bytes_at_end",
            frame(&bytes3, Framing::StoreVar),
            false,
        ),
        ("full_object_not_allowed", full.clone(), false),
        ("full_object_allowed", full, true),
        // get_var decodes the payload as bytes_to_var does: an empty NodePath with the
        // absolute flag (names 0 with bit 31, subnames 0, flags 1).
        (
            "nodepath_empty_absolute",
            frame(&nodepath_empty_absolute(p), Framing::StoreVar),
            false,
        ),
    ]
}

/// Why the framing corpus could not be recorded, written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FramingError {
    /// The engine gave no usable answer.
    #[error(transparent)]
    Ask(#[from] AskError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line of a corpus file is not a record.
    #[error(transparent)]
    Parse(#[from] LineError),
    /// The files are not the ones their checksum file names.
    #[error("{}: the files do not match their checksums in {SUMS}", .0.display())]
    Sums(PathBuf),
}

/// Where the codec parts from a framing record, as [`check`] finds it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FramingMismatch {
    /// The record's value is not the profile's tagged JSON.
    #[error(transparent)]
    Value(#[from] gdmarshal::json::JsonError),
    /// The codec cannot encode the record's value.
    #[error(transparent)]
    Encode(#[from] gdmarshal::EncodeError),
    /// The record's input is not hex.
    #[error(transparent)]
    Input(#[from] gdmarshal::hex::HexError),
    /// The codec writes other bytes.
    #[error("wrote {ours}, the engine {engine}")]
    Wrote {
        /// The codec's bytes, hex.
        ours: String,
        /// The engine's, hex.
        engine: String,
    },
    /// The codec reads another value.
    #[error("read {ours}, the engine {engine:?}")]
    Read {
        /// The codec's tree.
        ours: Box<Value>,
        /// The engine's.
        engine: Box<Option<Value>>,
    },
    /// The codec's reader moves another distance.
    #[error("moved {ours} bytes, the engine {engine:?}")]
    Moved {
        /// Bytes the codec consumed.
        ours: usize,
        /// The engine's position.
        engine: Option<u64>,
    },
    /// The codec reads a value where the engine's get_var failed.
    #[error("read {0}; the engine's get_var failed")]
    ReadWhereEngineFailed(Box<Value>),
    /// The codec fails where the engine read a value.
    #[error("failed ({error}); the engine read {engine:?}")]
    FailedWhereEngineRead {
        /// The codec's error.
        error: String,
        /// The engine's tree.
        engine: Box<Option<Value>>,
    },
}

/// The read cases for a datagram: bare encodings, as a packet carries them, and a framed one.
fn packet_reads(p: Profile) -> Vec<(&'static str, Vec<u8>, bool)> {
    let enc = |v: &Variant| encode(v, p, EncodeOptions::default()).expect("plain values encode");
    let seven = enc(&Variant::Int(7));
    let full = encode(&resource(p), p, EncodeOptions::new().full_objects(true))
        .expect("a Resource encodes in full");
    vec![
        ("bare", seven.clone(), false),
        ("bare_string", enc(&Variant::String("ab".into())), false),
        ("framed", frame(&seven, Framing::StoreVar), false),
        ("full_object_not_allowed", full.clone(), false),
        ("full_object_allowed", full, true),
    ]
}

fn write_record(
    name: String,
    via: Via,
    objects: bool,
    v: &Variant,
    p: Profile,
    bytes: &[u8],
) -> FramingRecord {
    FramingRecord {
        name,
        via: via.name().into(),
        objects,
        value: Some(to_json(v, p, FloatStyle::Shortest)),
        output: Some(hex(bytes)),
        input: None,
        tree: None,
        position: None,
        answer: None,
    }
}

/// Every case through one API: the writes, then the reads.
fn record_via(engine: &mut Engine, via: Via, out: &mut Vec<FramingRecord>) -> Result<(), AskError> {
    let p = engine.info().profile;
    for (name, v) in values() {
        let bytes = engine.frame(&v, via, false)?;
        out.push(write_record(
            format!("write/{}/{name}", via.name()),
            via,
            false,
            &v,
            p,
            &bytes,
        ));
    }
    // full_objects changes nothing for a value without objects.
    let v = Variant::Int(7);
    let bytes = engine.frame(&v, via, true)?;
    out.push(write_record(
        format!("write/{}/int_7_full_objects", via.name()),
        via,
        true,
        &v,
        p,
        &bytes,
    ));
    let reads = if via == Via::Udp {
        packet_reads(p)
    } else {
        reads(p)
    };
    for (name, b, objects) in reads {
        let u = engine.unframe(&b, via, objects)?;
        out.push(FramingRecord {
            name: format!("read/{}/{name}", via.name()),
            via: via.name().into(),
            objects,
            value: None,
            output: None,
            input: Some(hex(&b)),
            tree: Some(u.tree),
            position: Some(u.position),
            answer: None,
        });
    }
    Ok(())
}

/// Asks an engine every framing case; the records in a stable order (the in-memory APIs, the
/// `axes` record, then the loopback sockets).
pub fn record(engine: &mut Engine) -> Result<Vec<FramingRecord>, AskError> {
    let mut out = Vec::new();
    for via in Via::ALL {
        record_via(engine, via, &mut out)?;
    }
    out.push(FramingRecord {
        name: "axes".into(),
        via: String::new(),
        objects: false,
        value: None,
        output: None,
        input: None,
        tree: None,
        position: None,
        answer: Some(axes_record(engine.axes()?)),
    });
    for via in Via::NET {
        record_via(engine, via, &mut out)?;
    }
    Ok(out)
}

fn file_name(version: &str) -> String {
    format!("godot-{version}.jsonl")
}

/// Writes one engine's records and rewrites the checksum file.
pub fn save(dir: &Path, version: &str, records: &[FramingRecord]) -> Result<(), FileError> {
    std::fs::create_dir_all(dir).map_err(FileError::at(dir))?;
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r).expect("framing records serialize"));
        text.push('\n');
    }
    let path = dir.join(file_name(version));
    std::fs::write(&path, text).map_err(FileError::at(&path))?;
    sums::write(dir, EXT)
}

/// The committed framing corpus, by engine version, after checking every file's checksum.
pub fn load(dir: &Path) -> Result<Vec<(String, Vec<FramingRecord>)>, FramingError> {
    let sums_path = dir.join(SUMS);
    let recorded = crate::bounded::read_text(&sums_path).map_err(FileError::at(&sums_path))?;
    if recorded != sums::text(dir, EXT)? {
        return Err(FramingError::Sums(dir.to_path_buf()));
    }
    let mut out = Vec::new();
    for n in sums::engine_files(dir, EXT)? {
        let path = dir.join(&n);
        let text = crate::bounded::read_text(&path).map_err(FileError::at(&path))?;
        let records: Vec<FramingRecord> = crate::error::json_lines(&path, &text)?;
        let version = n
            .trim_start_matches("godot-")
            .trim_end_matches(".jsonl")
            .to_string();
        out.push((version, records));
    }
    Ok(out)
}

/// The framing a record's API uses.
pub fn framing_of(via: &str) -> Option<Framing> {
    match via {
        "file" => Some(Framing::StoreVar),
        "stream" => Some(Framing::Stream),
        "packet" | "tcp" => Some(Framing::Packet),
        "udp" => Some(Framing::None),
        _ => None,
    }
}

/// Checks the codec against one record: a write gives the engine's bytes; a read gives the
/// engine's value, or fails where `get_var` failed, and moves as far as a file or stream
/// reader did. Returns why it does not, if it does not.
pub fn check(r: &FramingRecord, p: Profile) -> Result<(), FramingMismatch> {
    let Some(framing) = framing_of(&r.via) else {
        return Ok(());
    };
    if let (Some(v), Some(out)) = (&r.value, &r.output) {
        let v = from_json(v, p)?;
        let ours = frame(&encode(&v, p, EncodeOptions::default())?, framing);
        if hex(&ours) != *out {
            return Err(FramingMismatch::Wrote {
                ours: hex(&ours),
                engine: out.clone(),
            });
        }
        return Ok(());
    }
    let input = unhex(r.input.as_deref().unwrap_or(""))?;
    let ours = unframe(&input, framing, p)
        .map_err(|e| e.to_string())
        .and_then(|u| {
            let d = decode(u.payload, p, DecodeOptions::new().allow_objects(r.objects))
                .map_err(|e| e.to_string())?;
            Ok((to_json(&d.value, p, FloatStyle::Shortest), u.consumed))
        });
    match (ours, r.read_ok()) {
        (Ok((tree, consumed)), true) => {
            if Some(&tree) != r.tree.as_ref() && !same_on_the_wire(&tree, r, p) {
                return Err(FramingMismatch::Read {
                    ours: Box::new(tree),
                    engine: Box::new(r.tree.clone()),
                });
            }
            // A packet peer pulls everything the stream has into its buffer, and a datagram is
            // read whole: no position to match.
            let packet = matches!(framing, Framing::Packet | Framing::None);
            if !packet && Some(consumed as u64) != r.position {
                return Err(FramingMismatch::Moved {
                    ours: consumed,
                    engine: r.position,
                });
            }
            Ok(())
        }
        (Err(_), false) => Ok(()),
        (Ok((tree, _)), false) => Err(FramingMismatch::ReadWhereEngineFailed(Box::new(tree))),
        (Err(error), true) => Err(FramingMismatch::FailedWhereEngineRead {
            error,
            engine: Box::new(r.tree.clone()),
        }),
    }
}

/// Whether the codec's tree and the engine's encode to the same bytes: 3.x reports a property
/// typed Object that holds nothing as a null Object where the wire holds a Nil, which is
/// written back as the same Nil header.
fn same_on_the_wire(ours: &Value, r: &FramingRecord, p: Profile) -> bool {
    let opts = EncodeOptions::new().full_objects(true);
    let bytes = |t: &Value| from_json(t, p).ok().and_then(|v| encode(&v, p, opts).ok());
    match (bytes(ours), r.tree.as_ref().and_then(bytes)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The `axes` answer as recorded: components as numbers alike on every engine (3.x prints 1,
/// 4.x 1.0), bytes as hex.
fn axes_record(a: Value) -> Value {
    let nums = |k: &str| -> Value {
        let v: Vec<f64> = a
            .get(k)
            .and_then(Value::as_array)
            .map(|xs| xs.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        json!(v)
    };
    let bytes = |k: &str| -> Value {
        use base64::Engine as _;
        let b64 = a.get(k).and_then(Value::as_str).unwrap_or("");
        let b = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap_or_default();
        Value::String(hex(&b))
    };
    let mut out = json!({
        "x": nums("x"), "y": nums("y"), "z": nums("z"), "index0": nums("index0"),
        "basis": bytes("basis"), "transform": bytes("transform"),
        "transform2d": bytes("transform2d"),
    });
    // 3.x has no Projection.
    if a.get("projection").is_some() {
        out["projection"] = bytes("projection");
    }
    out
}
