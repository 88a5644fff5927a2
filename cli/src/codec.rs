//! `gdmarshal decode`, `encode` and `inspect`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{VersionArg, fail, read_input, write_stdout};
use gdmarshal::decode::{DecodeOptions, decode as decode_bytes};
use gdmarshal::encode::{EncodeOptions, encode as encode_value};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, hex, to_json, unhex};

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
    /// Input file; stdin when omitted or -.
    file: Option<PathBuf>,
}

/// Options of `gdmarshal encode`.
#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    #[command(flatten)]
    version: VersionArg,
    /// Write objects in full (var_to_bytes_with_objects / var2bytes(value, true)).
    #[arg(long)]
    full_objects: bool,
    /// Write hex text instead of raw bytes.
    #[arg(long)]
    hex: bool,
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

/// Reads the byte input of decode and inspect.
fn read_bytes(file: Option<&PathBuf>, is_hex: bool) -> Result<Vec<u8>, String> {
    let raw = read_input(file)?;
    if !is_hex {
        return Ok(raw);
    }
    let text = String::from_utf8(raw).map_err(|e| {
        format!(
            "hex input is not text: byte {} is not UTF-8",
            e.utf8_error().valid_up_to()
        )
    })?;
    unhex(&text).map_err(|e| format!("hex input: {e}"))
}

/// `gdmarshal decode`.
pub fn decode(a: &DecodeArgs) -> ExitCode {
    let bytes = match read_bytes(a.file.as_ref(), a.hex) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let profile = a.version.profile;
    let decoded = match decode_bytes(
        &bytes,
        profile,
        DecodeOptions {
            allow_objects: a.objects,
        },
    ) {
        Ok(d) => d,
        Err(e) => return fail(format!("Godot {profile} rejects this input: {e}")),
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
    let j = to_json(&decoded.value, profile, style);
    let mut text = if a.pretty {
        serde_json::to_string_pretty(&j)
    } else {
        serde_json::to_string(&j)
    }
    .expect("a JSON value always serializes");
    text.push('\n');
    write_stdout(text.as_bytes())
}

/// `gdmarshal encode`.
pub fn encode(a: &EncodeArgs) -> ExitCode {
    let name = a
        .file
        .as_ref()
        .map_or("stdin".to_string(), |p| p.display().to_string());
    let raw = match read_input(a.file.as_ref()) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let text = match std::str::from_utf8(&raw) {
        Ok(t) => t,
        Err(e) => return fail(format!("{name}: byte {} is not UTF-8", e.valid_up_to())),
    };
    let j: serde_json::Value = match gdmarshal::json::parse_deep(text) {
        Ok(j) => j,
        Err(e) => {
            return fail(format!(
                "{name}:{}:{}: invalid JSON: {e}",
                e.line(),
                e.column()
            ));
        }
    };
    let profile = a.version.profile;
    let value = match from_json(&j, profile) {
        Ok(v) => v,
        Err(e) => return fail(format!("{name}: {e}")),
    };
    match encode_value(
        &value,
        profile,
        EncodeOptions {
            full_objects: a.full_objects,
        },
    ) {
        Ok(bytes) if a.hex => write_stdout(format!("{}\n", hex(&bytes)).as_bytes()),
        Ok(bytes) => write_stdout(&bytes),
        Err(e) => fail(format!("{name}: cannot encode for Godot {profile}: {e}")),
    }
}

/// `gdmarshal inspect`.
pub fn inspect(a: &InspectArgs) -> ExitCode {
    let bytes = match read_bytes(a.file.as_ref(), a.hex) {
        Ok(b) => b,
        Err(e) => return fail(e),
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
        ExitCode::from(super::EXIT_BAD_INPUT)
    } else {
        code
    }
}
