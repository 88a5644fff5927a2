//! What the oracle answers for one request.

use std::time::Duration;

use gdmarshal::value::Variant;

/// How one request ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Decode: the engine accepted the bytes. Encode: the engine built the value and encoded it.
    Accepted,
    /// Decode: the engine rejected the bytes (`bytes_to_var` failed).
    Rejected,
    /// Encode: the value cannot be built inside this engine from GDScript (the reason says why,
    /// e.g. an object known only by its instance id).
    Unsupported(String),
    /// The engine process died while serving this request.
    Crashed(Incident),
    /// The engine made no progress on this request within the timeout and was killed.
    Hung(Incident),
    /// The oracle could not get an answer (a malformed request, a protocol error, or an engine
    /// that would not start).
    Failed(String),
}

impl Verdict {
    /// Whether the request crashed or hung the engine.
    pub fn is_incident(&self) -> bool {
        matches!(self, Verdict::Crashed(_) | Verdict::Hung(_))
    }
}

/// What is known about an engine crash or hang.
#[derive(Clone, Debug, PartialEq)]
pub struct Incident {
    /// How the process ended, e.g. `killed by signal 11 (SIGSEGV)`.
    pub status: String,
    /// The engine's stderr from the start of the request to its end (crash handler output
    /// included).
    pub stderr: String,
    /// Time from the start of the request to the crash, or the timeout that expired.
    pub after: Duration,
}

/// The answer to a decode request.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeResult {
    /// Accepted, rejected, or what went wrong.
    pub verdict: Verdict,
    /// The decoded value (accepted only), from the engine's tree.
    pub value: Option<Variant>,
    /// The decoded value as the engine wrote it (tagged JSON, floats as `0x` bits).
    pub tree: Option<serde_json::Value>,
    /// How many bytes the engine's decoder consumed (accepted only; `None` when 3.x gives no
    /// way to tell).
    pub consumed: Option<usize>,
    /// The engine encoding the decoded value again, without full objects.
    pub reencoded: Option<Vec<u8>>,
    /// The engine encoding the decoded value again, with full objects.
    pub reencoded_full: Option<Vec<u8>>,
    /// What the engine printed to stderr while decoding (its error messages).
    pub error_text: String,
    /// Anything odd about the answer (e.g. a tree that does not convert to a [`Variant`]).
    pub notes: Vec<String>,
}

/// The answer to an encode request.
#[derive(Clone, Debug, PartialEq)]
pub struct EncodeResult {
    /// Accepted (built and encoded), unsupported, or what went wrong.
    pub verdict: Verdict,
    /// Which encoding [`bytes`](EncodeResult::bytes) returns: the one asked for.
    pub full_objects: bool,
    /// `var_to_bytes` (3.x `var2bytes(v, false)`) of the value.
    pub plain: Option<Vec<u8>>,
    /// `var_to_bytes_with_objects` (3.x `var2bytes(v, true)`) of the value.
    pub full: Option<Vec<u8>>,
    /// The value the engine built, as the engine sees it (a dictionary with duplicate keys,
    /// for example, comes back with one entry per key).
    pub value: Option<Variant>,
    /// What the engine printed to stderr while building and encoding.
    pub error_text: String,
    /// Anything odd about the answer.
    pub notes: Vec<String>,
}

impl EncodeResult {
    /// The encoding that was asked for (with or without full objects).
    pub fn bytes(&self) -> Option<&[u8]> {
        if self.full_objects {
            self.full.as_deref()
        } else {
            self.plain.as_deref()
        }
    }
}

/// A request that crashed or hung an engine, kept so that it is not lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The engine's name (e.g. `3.2`).
    pub engine: String,
    /// The version the engine reported.
    pub version: String,
    /// The request line as sent to the engine (JSON; see godot_project/README.md).
    pub request: String,
    /// The verdict: [`Verdict::Crashed`] or [`Verdict::Hung`].
    pub verdict: Verdict,
}
