//! `gdmarshal decode`, `encode` and `inspect`.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{VersionArg, fail, read_input, write_stdout};
use gdmarshal::decode::{DecodeOptions, decode as decode_bytes};
use gdmarshal::encode::{EncodeOptions, encode as encode_value};
use gdmarshal::float::FloatStyle;
use gdmarshal::framing::{Framing, frame, unframe};
use gdmarshal::json::{Hex, Unhex, read_json, write_json};

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
    /// Accept full objects.
    #[arg(long)]
    objects: bool,
    /// The input is hex text (whitespace ignored) instead of raw bytes.
    #[arg(long)]
    hex: bool,
    /// Input file; stdin when omitted or -.
    file: Option<PathBuf>,
}

/// Reads the byte input of decode and inspect: raw, or hex text turned into bytes as it is read
/// (one byte per two digits, never the text whole). An unreadable file could not be read
/// (exit 2); text that is not hex is input rejected (exit 1): the error is the exit code, its
/// line already printed.
fn read_bytes(file: Option<&PathBuf>, is_hex: bool) -> Result<Vec<u8>, ExitCode> {
    if !is_hex {
        return read_input(file).map_err(fail);
    }
    let (name, input, len): (String, Box<dyn Read>, u64) = match file {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::open(p).map_err(|e| fail(format!("{}: {e}", p.display())))?;
            let len = f.metadata().map_or(0, |m| m.len());
            (p.display().to_string(), Box::new(f), len)
        }
        _ => ("stdin".into(), Box::new(io::stdin().lock()), 0),
    };
    let mut unhex = Unhex::with_capacity(usize::try_from(len).unwrap_or(0));
    let mut piece = vec![0; 1 << 16];
    let mut input = input;
    loop {
        match input.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => unhex.feed(&piece[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(fail(format!("{name}: {e}"))),
        }
    }
    unhex
        .finish()
        .map_err(|e| super::found(format!("hex input: {e}")))
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
    let bytes = match read_bytes(a.file.as_ref(), a.hex) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let profile = a.version.profile;
    let framed = match unframe(&bytes, a.framing.into(), profile) {
        Ok(u) => u,
        Err(e) => {
            return super::found(format!("Godot {profile}'s get_var rejects this input: {e}"));
        }
    };
    if framed.consumed < bytes.len() {
        eprintln!(
            "gdmarshal: note: {} bytes after the framed value (from byte {}) are not read",
            bytes.len() - framed.consumed,
            framed.consumed
        );
    }
    let bytes = framed.payload;
    let decoded = match decode_bytes(
        bytes,
        profile,
        DecodeOptions {
            allow_objects: a.objects,
        },
    ) {
        Ok(d) => d,
        Err(e) => return super::found(format!("Godot {profile} rejects this input: {e}")),
    };
    if decoded.consumed < bytes.len() {
        eprintln!(
            "gdmarshal: note: {} trailing bytes from byte {} are ignored, as bytes_to_var ignores them",
            bytes.len() - decoded.consumed,
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
    let name = a
        .file
        .as_ref()
        .map_or("stdin".to_string(), |p| p.display().to_string());
    let raw = match read_input(a.file.as_ref()) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    if let Err(e) = std::str::from_utf8(&raw) {
        return super::found(format!("{name}: byte {} is not UTF-8", e.valid_up_to()));
    }
    let profile = a.version.profile;
    let value = match read_json(&raw, profile) {
        Ok(v) => v,
        Err(e) => return super::found(format!("{name}:{e}")),
    };
    drop(raw);
    let bytes = match encode_value(
        &value,
        profile,
        EncodeOptions {
            full_objects: a.objects,
        },
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
    let bytes = match read_bytes(a.file.as_ref(), a.hex) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let dump = gdmarshal::inspect::inspect(
        &bytes,
        a.version.profile,
        DecodeOptions {
            allow_objects: a.objects,
        },
    );
    let code = write_stdout(dump.to_string().as_bytes());
    if dump.error.is_some() {
        ExitCode::from(super::EXIT_FOUND)
    } else {
        code
    }
}
