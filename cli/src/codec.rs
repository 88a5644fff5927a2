//! `gdmarshal decode`, `encode` and `inspect`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::input::{InputError, MaxInputArg, Prefix, Rest, Source};
use super::{VersionArg, fail, write_stdout};
use gdmarshal::decode::{DecodeOptions, decode as decode_bytes};
use gdmarshal::encode::{EncodeOptions, encode as encode_value};
use gdmarshal::float::FloatStyle;
use gdmarshal::framing::{Framing, frame, unframe};
use gdmarshal::hex::Hex;
use gdmarshal::inspect::inspect_to;
use gdmarshal::json::{read_json, write_json};
use gdmarshal::profile::Profile;

/// The framing around the value (`--framing`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum FramingArg {
    /// The bare value, as var_to_bytes writes it: also a packet of PacketPeerUDP, ENet or
    /// WebSocket, whose put_var writes no length.
    #[default]
    None,
    /// A 4-byte length first: FileAccess.store_var (3.x File.store_var).
    StoreVar,
    /// A 4-byte length first: StreamPeer.put_var (a length past the end is refused).
    Stream,
    /// A 4-byte length first: PacketPeerStream.put_var, a packet carried over a stream peer
    /// (read only when whole).
    #[value(name = "packet-stream", alias = "packet")]
    PacketStream,
}

impl From<FramingArg> for Framing {
    fn from(f: FramingArg) -> Framing {
        match f {
            FramingArg::None => Framing::None,
            FramingArg::StoreVar => Framing::StoreVar,
            FramingArg::Stream => Framing::Stream,
            FramingArg::PacketStream => Framing::Packet,
        }
    }
}

/// Options of `gdmarshal decode`.
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    #[command(flatten)]
    version: VersionArg,
    #[command(flatten)]
    max_input: MaxInputArg,
    /// Accept full objects (bytes_to_var_with_objects / bytes2var(bytes, true)).
    #[arg(long)]
    objects: bool,
    /// The input is hex text (whitespace ignored) instead of raw bytes.
    #[arg(long)]
    hex: bool,
    /// Write every float as its exact bits (0x...) instead of the shortest decimal.
    #[arg(long)]
    float_bits: bool,
    /// Indent the JSON.
    #[arg(long)]
    pretty: bool,
    /// The framing around the value: a file written by store_var, a stream peer's or a
    /// PacketPeerStream's bytes (a PacketPeerUDP datagram is the bare value: none).
    #[arg(long, value_enum, default_value_t)]
    framing: FramingArg,
    /// Input file; stdin when omitted or -.
    file: Option<PathBuf>,
}

/// Options of `gdmarshal encode`.
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    #[command(flatten)]
    version: VersionArg,
    #[command(flatten)]
    max_input: MaxInputArg,
    /// Write objects in full (var_to_bytes_with_objects / var2bytes(value, true)).
    #[arg(long, alias = "full-objects")]
    objects: bool,
    /// Write hex text instead of raw bytes.
    #[arg(long)]
    hex: bool,
    /// The framing to write around the value: as store_var, a stream peer's or a
    /// PacketPeerStream's put_var writes it (a PacketPeerUDP datagram is the bare value: none).
    #[arg(long, value_enum, default_value_t)]
    framing: FramingArg,
    /// Tagged JSON input file (docs/tagged-json.md); stdin when omitted or -.
    file: Option<PathBuf>,
}

/// Options of `gdmarshal inspect`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    #[command(flatten)]
    version: VersionArg,
    #[command(flatten)]
    max_input: MaxInputArg,
    /// Accept full objects.
    #[arg(long)]
    objects: bool,
    /// The input is hex text (whitespace ignored) instead of raw bytes.
    #[arg(long)]
    hex: bool,
    /// Input file; stdin when omitted or -.
    file: Option<PathBuf>,
}

/// Ends a command whose input could not be had: its line, and exit 1 for hex text that is not
/// hex (input rejected), 2 for anything else (could not run).
fn input_failed(e: InputError) -> ExitCode {
    if e.is_rejection() {
        super::found(e)
    } else {
        fail(e)
    }
}

/// Whether `bytes`, the start of an input, hold the whole value that `framing` frames, and what
/// then of the rest: the frame's length is there and its payload read (the rest is counted), or,
/// unframed, the value decodes (the rest is counted) or fails in a way no later byte could change
/// (the rest is left unread).
fn holds_the_value(
    bytes: &[u8],
    framing: Framing,
    profile: Profile,
    opts: DecodeOptions,
) -> Option<Rest> {
    if framing != Framing::None {
        let head = bytes.get(..4)?;
        let length = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        return (bytes.len() - 4 >= length as usize).then_some(Rest::Count);
    }
    match decode_bytes(bytes, profile, opts) {
        Ok(_) => Some(Rest::Count),
        Err(e) if e.kind.wants_more_input() => None,
        Err(_) => Some(Rest::Leave),
    }
}

/// Whether `text`, the start of a JSON input, is refused whatever follows: bytes that are not
/// UTF-8 before its end, or JSON that no more text can mend. A prefix that reads as a value is
/// not enough, since text after it would be refused.
fn refused_json(text: &[u8], profile: Profile) -> Option<Rest> {
    if std::str::from_utf8(text).is_err_and(|e| e.error_len().is_some()) {
        return Some(Rest::Leave);
    }
    match read_json(text, profile) {
        Err(e) if !e.wants_more_input() => Some(Rest::Leave),
        _ => None,
    }
}

/// Reads the byte input of decode and inspect up to the end of its value (`framing` around it,
/// full objects allowed or not), counting the bytes after it without keeping them.
fn read_value(
    file: Option<&PathBuf>,
    hex: bool,
    max_input: &MaxInputArg,
    framing: Framing,
    profile: Profile,
    allow_objects: bool,
) -> Result<(Prefix, DecodeOptions), ExitCode> {
    let opts = DecodeOptions::new().allow_objects(allow_objects);
    Source::open(file, hex, max_input.max_input)
        .and_then(|source| source.read_until(|b| holds_the_value(b, framing, profile, opts)))
        .map(|input| (input, opts))
        .map_err(input_failed)
}

/// Runs `write` on a buffered stdout and flushes it; a failed write ends the program as
/// `output` says (a closed pipe quietly with 141, anything else with one message and 2).
fn to_stdout(
    write: impl FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> ExitCode {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => super::output::fail(e),
    }
}

/// `gdmarshal decode`: the JSON is written straight from the decoded value.
pub fn decode(a: &DecodeArgs) -> ExitCode {
    let profile = a.version.profile;
    let read = read_value(
        a.file.as_ref(),
        a.hex,
        &a.max_input,
        a.framing.into(),
        profile,
        a.objects,
    );
    let (input, opts) = match read {
        Ok(read) => read,
        Err(code) => return code,
    };
    let (bytes, unread) = (&input.bytes, input.unread);
    let framed = match unframe(bytes, a.framing.into(), profile) {
        Ok(u) => u,
        Err(e) => {
            return super::found(format!("Godot {profile}'s get_var rejects this input: {e}"));
        }
    };
    // The bytes counted and not kept follow the frame, or, unframed, the value.
    let (after_frame_unkept, after_value_unkept) = match a.framing {
        FramingArg::None => (0, unread),
        _ => (unread, 0),
    };
    let after_frame = (bytes.len() - framed.consumed) as u64 + after_frame_unkept;
    if after_frame > 0 {
        eprintln!(
            "gdmarshal: note: {after_frame} bytes after the framed value (from byte {}) are not read",
            framed.consumed
        );
    }
    let payload = framed.payload;
    let decoded = match decode_bytes(payload, profile, opts) {
        Ok(d) => d,
        Err(e) => return super::found(format!("Godot {profile} rejects this input: {e}")),
    };
    let trailing =
        (payload.len() - decoded.consumed.min(payload.len())) as u64 + after_value_unkept;
    if trailing > 0 {
        eprintln!(
            "gdmarshal: note: {trailing} trailing bytes from byte {} are ignored, as bytes_to_var ignores them",
            decoded.consumed
        );
    }
    let style = if a.float_bits {
        FloatStyle::Bits
    } else {
        FloatStyle::Shortest
    };
    to_stdout(|out| {
        write_json(&mut *out, &decoded.value, style, a.pretty)?;
        out.write_all(b"\n")
    })
}

/// `gdmarshal encode`: the value is read straight from the JSON text, with nesting limited to
/// what the version's engines accept.
pub fn encode(a: &EncodeArgs) -> ExitCode {
    let profile = a.version.profile;
    // Read until the end, or until the text is refused whatever follows (text that is not JSON
    // stops the read at once, an endless input at the cap).
    let read = Source::open(a.file.as_ref(), false, a.max_input.max_input).and_then(|source| {
        let name = source.name().to_string();
        source
            .read_until(|text| refused_json(text, profile))
            .map(|input| (name, input.bytes))
    });
    let (name, raw) = match read {
        Ok(read) => read,
        Err(e) => return input_failed(e),
    };
    if let Err(e) = std::str::from_utf8(&raw) {
        return super::found(format!("{name}: byte {} is not UTF-8", e.valid_up_to()));
    }
    let value = match read_json(&raw, profile) {
        Ok(v) => v,
        Err(e) => return super::found(format!("{name}:{e}")),
    };
    drop(raw);
    let bytes = match encode_value(
        &value,
        profile,
        EncodeOptions::new().full_objects(a.objects),
    ) {
        Ok(bytes) => bytes,
        Err(e) => return super::found(format!("{name}: cannot encode for Godot {profile}: {e}")),
    };
    drop(value);
    let bytes = frame(&bytes, a.framing.into());
    if a.hex {
        to_stdout(|out| writeln!(out, "{}", Hex(&bytes)))
    } else {
        write_stdout(&bytes)
    }
}

/// `gdmarshal inspect`.
pub fn inspect(a: &InspectArgs) -> ExitCode {
    let profile = a.version.profile;
    let read = read_value(
        a.file.as_ref(),
        a.hex,
        &a.max_input,
        Framing::None,
        profile,
        a.objects,
    );
    let (input, opts) = match read {
        Ok(read) => read,
        Err(code) => return code,
    };
    let mut refused = false;
    let code = to_stdout(|out| {
        let end = inspect_to(out, &input.bytes, input.unread, profile, opts)?;
        refused = end.error.is_some();
        Ok(())
    });
    if refused && code == ExitCode::SUCCESS {
        ExitCode::from(super::EXIT_FOUND)
    } else {
        code
    }
}
