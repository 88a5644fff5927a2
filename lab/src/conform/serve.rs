//! `gdmarshal testee`: this crate's codec speaking the testee protocol (docs/conformance.md).

use std::io::{BufRead, Write};

use serde_json::{Value, json};

use crate::model::{RejectKind, RejectionKind};
use crate::this_codec::ThisCodec;
use gdmarshal::hex::{hex, unhex};
use gdmarshal::profile::Profile;

use super::hello::PROTOCOL;
use super::limits::{Line, LineReader, MAX_REQUEST_LINE, line_start};

/// Where this crate's codec knowingly parts from the engines (corpus/known-differences.txt, with
/// the reason for each), declared in the handshake so that the runner holds them to the same
/// strictness as an `--expect-fail` file. Only the entries that name cases: a `when:` entry needs
/// the codec's own typed mismatch, which does not cross the protocol.
fn known_differences() -> Result<Vec<String>, crate::corpus::known::KnownError> {
    let text = crate::corpus::known::text_of(&crate::corpus::Source::Embedded)?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| {
            !l.is_empty()
                && !l
                    .split_whitespace()
                    .nth(2)
                    .is_some_and(|w| w.starts_with("when:"))
        })
        .map(str::to_string)
        .collect())
}

/// The codec answering as the engine whose answers the embedded corpus holds for `profile`:
/// with its recorded classes, project scripts and stored properties (`corpus/classes/`).
fn codec(profile: Profile) -> ThisCodec {
    ThisCodec::new(profile).with_classes(crate::corpus::classes::embedded_for(profile))
}

/// Answers one request line (any op, including `hello`).
pub fn answer(line: &str) -> Value {
    let request: Value = match gdmarshal::json::parse_deep(line) {
        Ok(v) => v,
        Err(e) => return json!({"ok": false, "error": format!("request is not JSON: {e}")}),
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let op = request.get("op").and_then(Value::as_str).unwrap_or("");
    if op == "hello" {
        return json!({
            "name": format!("gdmarshal {}", env!("CARGO_PKG_VERSION")),
            "protocol": PROTOCOL,
            "versions": "all",
            "capabilities": ["decode", "encode", "reencode"],
            "types": "all",
            // `serve` refuses to start when the list cannot be read.
            "expect_fail": known_differences().unwrap_or_default(),
        });
    }
    let profile: Profile = match request.get("godot").and_then(Value::as_str).map(str::parse) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return json!({"id": id, "skipped": format!("{e}")}),
        None => return json!({"id": id, "ok": false, "error": "request has no \"godot\" version"}),
    };
    let objects = request
        .get("objects")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    match op {
        "decode" => {
            let input = match request.get("input").and_then(Value::as_str).map(unhex) {
                Some(Ok(b)) => b,
                _ => return json!({"id": id, "ok": false, "error": "\"input\" is not hex"}),
            };
            match codec(profile).decode_tree(&input, objects) {
                Ok((tree, consumed)) => {
                    json!({"id": id, "ok": true, "value": tree, "consumed": consumed})
                }
                Err(e) => {
                    let mut refusal = json!({"id": id, "ok": false, "error": e.message});
                    if let Some(RejectKind::Decode(k)) = &e.kind
                        && let Some(kind) = RejectionKind::of_decode(k)
                    {
                        refusal["kind"] = json!(kind.name());
                    }
                    refusal
                }
            }
        }
        "encode" => {
            let Some(value) = request.get("value") else {
                return json!({"id": id, "ok": false, "error": "request has no \"value\""});
            };
            match codec(profile).encode_tree(value, objects) {
                Ok(b) => json!({"id": id, "ok": true, "output": hex(&b)}),
                Err(e) => json!({"id": id, "ok": false, "error": e.message}),
            }
        }
        other => json!({"id": id, "ok": false, "error": format!("unknown op {other:?}")}),
    }
}

/// Why `gdmarshal testee` stopped serving.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The embedded list of known differences cannot be read (before the first request).
    #[error("the embedded known differences: {0}")]
    Known(#[from] crate::corpus::known::KnownError),
    /// Reading a request or writing an answer failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A request line longer than [`MAX_REQUEST_LINE`]: refused, and nothing more is read.
    #[error(
        "stdin line {line} (byte {offset}): a request longer than {} MiB (the limit), it begins: {start}",
        MAX_REQUEST_LINE >> 20
    )]
    TooLong {
        /// Its 1-based line number.
        line: u64,
        /// The byte offset where it begins.
        offset: u64,
        /// Its first bytes, as readable text.
        start: String,
    },
    /// A request line that is not UTF-8.
    #[error("stdin line {line} (byte {offset}): a request that is not UTF-8, it begins: {start}")]
    NotUtf8 {
        /// Its 1-based line number.
        line: u64,
        /// The byte offset of its first invalid byte.
        offset: u64,
        /// Its first bytes, as readable text.
        start: String,
    },
}

/// Serves requests from `input` until it ends, one answer line per request line, each request
/// read within [`MAX_REQUEST_LINE`] bytes. Fails before the first request when the embedded list
/// of known differences cannot be read, and at the first request line that is too long or not
/// UTF-8 (naming its line and byte offset).
pub fn serve(input: impl BufRead, mut output: impl Write) -> Result<(), ServeError> {
    known_differences()?;
    let mut lines = LineReader::new(input, MAX_REQUEST_LINE);
    loop {
        let read = lines.read_line()?;
        let (offset, line) = lines.position();
        let text = match read {
            Line::End => return Ok(()),
            Line::Text(text) => text,
            Line::TooLong(start) => {
                let start = line_start(&start, None);
                return Err(ServeError::TooLong {
                    line,
                    offset,
                    start,
                });
            }
            Line::NotUtf8(start, at, len) => {
                let (offset, start) = (offset + at as u64, line_start(&start, Some(len)));
                return Err(ServeError::NotUtf8 {
                    line,
                    offset,
                    start,
                });
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        let mut text = serde_json::to_string(&answer(&text)).expect("answers serialize");
        text.push('\n');
        output.write_all(text.as_bytes())?;
        output.flush()?;
    }
}
