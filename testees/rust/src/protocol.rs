//! The testee protocol (docs/conformance.md), done: the handshake, one JSON request per line on
//! stdin, one answer per line on stdout, until stdin ends. Nothing here needs changing to wrap
//! another implementation.
//!
//! This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it
//! freely.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// What the handshake declares; an empty list means "all".
pub struct Hello {
    /// The testee's name, shown in reports.
    pub name: &'static str,
    /// Format versions (`"4.6"`, or `"4"` for every 4.x).
    pub versions: &'static [&'static str],
    /// A subset of `decode`, `encode`, `reencode`.
    pub capabilities: &'static [&'static str],
    /// Type names as tagged JSON writes them.
    pub types: &'static [&'static str],
    /// Known differences, lines of `ENGINE-GLOB CASE-GLOB REASON` (`#` comments allowed).
    pub expect_fail: &'static str,
}

/// A request not answered with `"ok": true`.
pub enum NotOk {
    /// The input or value is refused, as the engine would; `kind` from the protocol's vocabulary.
    Refused {
        /// Why, in your words.
        message: String,
        /// `truncated`, `bad-type`, `bad-count`, `bad-utf8`, `too-deep`, `not-allowed-object`,
        /// `bad-value`, when you can tell.
        kind: Option<&'static str>,
    },
    /// Not handled here (the runner counts the case as skipped).
    Skipped(String),
}

/// Decodes: (godot version, input bytes, allow objects) to (tagged JSON, bytes consumed).
pub type Decode = fn(&str, &[u8], bool) -> Result<(Value, usize), NotOk>;
/// Encodes: (godot version, tagged JSON, full objects) to bytes.
pub type Encode = fn(&str, &Value, bool) -> Result<Vec<u8>, NotOk>;

fn list(items: &[&str]) -> Value {
    if items.is_empty() {
        json!("all")
    } else {
        json!(items)
    }
}

fn not_ok(id: &Value, e: NotOk) -> Value {
    match e {
        NotOk::Refused { message, kind } => {
            let mut a = json!({"id": id, "ok": false, "error": message});
            if let Some(k) = kind {
                a["kind"] = json!(k);
            }
            a
        }
        NotOk::Skipped(why) => json!({"id": id, "skipped": why}),
    }
}

fn answer(hello: &Hello, decode: Decode, encode: Encode, line: &str) -> Value {
    // Requests nest up to 2048 levels: read them without serde_json's recursion limit.
    let mut reader = serde_json::Deserializer::from_str(line);
    reader.disable_recursion_limit();
    let request: Value = match serde::de::Deserialize::deserialize(&mut reader) {
        Ok(v) => v,
        Err(e) => return json!({"ok": false, "error": format!("request is not JSON: {e}")}),
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let str_of = |k: &str| request.get(k).and_then(Value::as_str).unwrap_or("");
    let objects = request
        .get("objects")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    match str_of("op") {
        "hello" => json!({
            "name": hello.name,
            "protocol": 1,
            "versions": list(hello.versions),
            "capabilities": list(hello.capabilities),
            "types": list(hello.types),
            "expect_fail": hello
                .expect_fail
                .lines()
                .map(|l| l.split('#').next().unwrap_or("").trim())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>(),
        }),
        "decode" => match hex::decode(str_of("input")) {
            Err(_) => json!({"id": id, "ok": false, "error": "\"input\" is not hex"}),
            Ok(input) => match decode(str_of("godot"), &input, objects) {
                Ok((value, consumed)) => {
                    json!({"id": id, "ok": true, "value": value, "consumed": consumed})
                }
                Err(e) => not_ok(&id, e),
            },
        },
        "encode" => match request.get("value") {
            None => json!({"id": id, "ok": false, "error": "request has no \"value\""}),
            Some(value) => match encode(str_of("godot"), value, objects) {
                Ok(bytes) => json!({"id": id, "ok": true, "output": hex::encode(&bytes)}),
                Err(e) => not_ok(&id, e),
            },
        },
        other => json!({"id": id, "ok": false, "error": format!("unknown op {other:?}")}),
    }
}

/// Serves requests until stdin ends, on a thread with a stack large enough for values nested
/// 1024 levels deep.
pub fn serve(hello: Hello, decode: Decode, encode: Encode) {
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let stdin = std::io::stdin().lock();
            let mut stdout = std::io::stdout().lock();
            for line in stdin.lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                let mut text = serde_json::to_string(&answer(&hello, decode, encode, &line))
                    .expect("answers serialize");
                text.push('\n');
                if stdout
                    .write_all(text.as_bytes())
                    .and_then(|_| stdout.flush())
                    .is_err()
                {
                    break;
                }
            }
        })
        .expect("the protocol thread starts");
    let _ = worker.join();
}
