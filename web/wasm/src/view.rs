//! The page's requests and answers, as JSON: what each call of the module does.

use gdmarshal::Profile;
use gdmarshal::decode::{DecodeOptions, decode_traced};
use gdmarshal::encode::{EncodeOptions, encode as encode_value};
use gdmarshal::float::FloatStyle;
use gdmarshal::framing::{Framing, frame, unframe};
use gdmarshal::json::{hex, read_json, write_json};
use gdmarshal::profile::all_profiles;
use serde::{Deserialize, Serialize};

use crate::rows::{Collect, NODE_CELLS, ROW_CELLS};

/// What the page asks for: the version, the framing and whether full objects are allowed.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// A Godot version as the CLI's `--godot` takes it (`4.6`, `3.2`, `4.6-double`).
    pub godot: String,
    /// `none`, `store_var`, `stream` or `packet`.
    #[serde(default = "no_framing")]
    pub framing: String,
    /// Allow (decode) or write (encode) full objects.
    #[serde(default)]
    pub objects: bool,
}

fn no_framing() -> String {
    "none".into()
}

/// A request the module cannot act on (bad JSON, unknown version or framing).
#[derive(Serialize, Debug)]
struct Refused {
    refused: String,
}

fn refused(message: String) -> Vec<u8> {
    serde_json::to_vec(&Refused { refused: message }).unwrap_or_default()
}

/// The request's profile and framing, or why not.
fn parse(req: &[u8]) -> Result<(Request, Profile, Framing), String> {
    let r: Request = serde_json::from_slice(req).map_err(|e| format!("request: {e}"))?;
    let profile: Profile = r.godot.parse().map_err(|e| format!("{e}"))?;
    let framing = match r.framing.as_str() {
        "none" => Framing::None,
        "store_var" => Framing::StoreVar,
        "stream" => Framing::Stream,
        "packet" => Framing::Packet,
        other => {
            return Err(format!(
                "unknown framing {other:?}: none, store_var, stream or packet"
            ));
        }
    };
    Ok((r, profile, framing))
}

/// One entry of [`profiles`].
#[derive(Serialize)]
struct ProfileInfo {
    name: String,
    verified: bool,
}

/// Every profile the codec knows, in order, each marked verified (recorded against a real engine)
/// or derived (from Godot's source).
pub fn profiles() -> Vec<u8> {
    let list: Vec<ProfileInfo> = all_profiles()
        .iter()
        .map(|p| ProfileInfo {
            name: p.to_string(),
            verified: p.is_verified(),
        })
        .collect();
    serde_json::to_vec(&list).unwrap_or_default()
}

/// Where and why the bytes do not read: `offset` in the input, the field being read (`where`).
#[derive(Serialize, Debug)]
struct Failure {
    offset: usize,
    message: String,
    #[serde(rename = "where")]
    at: String,
}

/// A decode's answer, without the value (written before it as `value`).
#[derive(Serialize, Debug)]
struct Decoded {
    profile: String,
    verified: bool,
    /// Bytes the engine's reader moves past (framing and value), on success.
    consumed: Option<usize>,
    error: Option<Failure>,
    /// How many nodes and rows the table holds, and the length of their text.
    nodes: usize,
    rows: usize,
    text: usize,
}

/// What a decode answers: JSON, and the table of nodes and rows with its text (see
/// [`crate::rows`]): the table holds the nodes' numbers, then the rows'.
pub struct DecodeAnswer {
    /// `{"value", "profile", "verified", "consumed", "error", "nodes", "rows", "text"}`, `value`
    /// the tagged JSON exactly as `gdmarshal decode` writes it (absent on error); or
    /// `{"refused"}`.
    pub json: Vec<u8>,
    /// [`NODE_CELLS`] numbers per node, then [`ROW_CELLS`] per row.
    pub table: Vec<u32>,
    /// The labels, field names and meanings, UTF-8.
    pub text: Vec<u8>,
}

/// Decodes and inspects `bytes` as the request says.
pub fn decode(req: &[u8], bytes: &[u8]) -> DecodeAnswer {
    let (r, profile, framing) = match parse(req) {
        Ok(p) => p,
        Err(e) => {
            return DecodeAnswer {
                json: refused(e),
                table: Vec::new(),
                text: Vec::new(),
            };
        }
    };
    let base = if framing == Framing::None { 0 } else { 4 };
    let mut trace = Collect::new(base, bytes.len(), "value");
    let mut out = Decoded {
        profile: profile.to_string(),
        verified: profile.is_verified(),
        consumed: None,
        error: None,
        nodes: 0,
        rows: 0,
        text: 0,
    };
    let mut value = None;
    match unframe(bytes, framing, profile) {
        Err(e) => {
            out.error = Some(Failure {
                offset: 0,
                message: format!("Godot {profile}'s get_var rejects this input: {e}"),
                at: "length".into(),
            });
        }
        Ok(framed) => {
            if base == 4 {
                let length = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                trace.extra(0, 4, "length", &format!("{length} bytes of value follow"));
            }
            let opts = DecodeOptions {
                allow_objects: r.objects,
            };
            match decode_traced(framed.payload, profile, opts, &mut trace) {
                Ok(d) => {
                    let end = base + d.consumed.min(framed.payload.len());
                    if end < bytes.len() {
                        let what = if end < framed.consumed {
                            "ignored by the engine (inside the framed length)"
                        } else {
                            "not read (after the framed value)"
                        };
                        trace.extra(end, bytes.len(), "trailing bytes", what);
                    }
                    out.consumed = Some(if base == 0 {
                        d.consumed
                    } else {
                        framed.consumed
                    });
                    value = Some(d.value);
                }
                Err(e) => {
                    out.error = Some(Failure {
                        offset: base + e.offset,
                        message: format!("Godot {profile} rejects this input: {}", e.kind),
                        at: trace.open_path(),
                    });
                }
            }
        }
    }
    out.nodes = trace.nodes.len() / NODE_CELLS;
    out.rows = trace.rows.len() / ROW_CELLS;
    out.text = trace.text.len();
    let mut table = trace.nodes;
    table.extend_from_slice(&trace.rows);
    let mut text = Vec::with_capacity(bytes.len() * 2 + 256);
    if let Some(v) = value {
        text.extend_from_slice(b"{\"value\":");
        // Writing into a Vec cannot fail.
        let _ = write_json(&mut text, &v, FloatStyle::Shortest, false);
        text.push(b',');
    } else {
        text.push(b'{');
    }
    match serde_json::to_vec(&out) {
        Ok(rest) => text.extend_from_slice(&rest[1..]),
        Err(e) => text = refused(format!("answer: {e}")),
    }
    DecodeAnswer {
        json: text,
        table,
        text: trace.text.into_bytes(),
    }
}

/// An encode's answer: the bytes as hex, or where the JSON is wrong.
#[derive(Serialize, Debug)]
struct Encoded {
    profile: String,
    hex: Option<String>,
    error: Option<EncodeFailure>,
}

/// Why the tagged JSON does not encode: the JSON path, and the line and column if it is the text.
#[derive(Serialize, Debug)]
struct EncodeFailure {
    path: String,
    line: Option<usize>,
    column: Option<usize>,
    message: String,
}

/// Encodes tagged JSON text as `gdmarshal encode --hex` does: `{"profile", "hex", "error"}`.
pub fn encode(req: &[u8], json: &[u8]) -> Vec<u8> {
    let (r, profile, framing) = match parse(req) {
        Ok(p) => p,
        Err(e) => return refused(e),
    };
    let mut out = Encoded {
        profile: profile.to_string(),
        hex: None,
        error: None,
    };
    match read_json(json, profile) {
        Err(e) => {
            let (line, column) = match &e {
                gdmarshal::json::ReadError::Syntax { line, column, .. }
                | gdmarshal::json::ReadError::Schema { line, column, .. } => (*line, *column),
                _ => (0, 0),
            };
            out.error = Some(EncodeFailure {
                path: e.path().to_string(),
                line: Some(line),
                column: Some(column),
                message: e.to_string(),
            });
        }
        Ok(value) => {
            let opts = EncodeOptions {
                full_objects: r.objects,
            };
            match encode_value(&value, profile, opts) {
                Ok(bytes) => out.hex = Some(hex(&frame(&bytes, framing))),
                Err(e) => {
                    out.error = Some(EncodeFailure {
                        path: e.path.clone(),
                        line: None,
                        column: None,
                        message: format!("cannot encode for Godot {profile}: {e}"),
                    })
                }
            }
        }
    }
    serde_json::to_vec(&out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The answer as JSON, of any depth (the corpus's values nest 1024 levels).
    fn answer(bytes: Vec<u8>) -> Value {
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        de.disable_recursion_limit();
        serde::Deserialize::deserialize(&mut de).unwrap()
    }

    /// A decode's JSON, with its nodes and rows read back from the table as
    /// `[start, end, parent, label]` and `[start, end, node, field, meaning]`.
    fn decoded(req: &[u8], bytes: &[u8]) -> Value {
        let a = decode(req, bytes);
        let mut json = answer(a.json);
        let text = String::from_utf8(a.text).unwrap();
        let s = |off: u32, len: u32| Value::from(&text[off as usize..(off + len) as usize]);
        let n = json["nodes"].as_u64().unwrap_or(0) as usize;
        let (nodes, rows) = a.table.split_at(n * NODE_CELLS);
        json["nodes"] = nodes
            .chunks(NODE_CELLS)
            .map(|c| serde_json::json!([c[0], c[1], c[2], s(c[3], c[4])]))
            .collect();
        json["rows"] = rows
            .chunks(ROW_CELLS)
            .map(|c| serde_json::json!([c[0], c[1], c[2], s(c[3], c[4]), s(c[5], c[6])]))
            .collect();
        json
    }

    #[test]
    fn decode_answers_value_rows_and_nodes() {
        // [7, "a"] as 4.6 writes it: Array, count 2, int 7, String "a".
        let bytes = [
            28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 97, 0, 0, 0,
        ];
        let a = decoded(br#"{"godot":"4.6"}"#, &bytes);
        assert_eq!(a["consumed"], 28);
        assert_eq!(
            a["value"],
            serde_json::json!({"type":"Array","value":[{"type":"int","value":"7"},{"type":"String","value":"a"}]})
        );
        assert_eq!(
            a["rows"][0],
            serde_json::json!([0, 4, 0, "header", "Array (id 28), flags 0x0"])
        );
        assert_eq!(a["nodes"][2], serde_json::json!([16, 28, 0, "[1]"]));
        // The same bytes with a store_var length: every offset moves by 4.
        let mut framed = vec![28, 0, 0, 0];
        framed.extend_from_slice(&bytes);
        let f = decoded(br#"{"godot":"4.6","framing":"store_var"}"#, &framed);
        assert_eq!(
            f["rows"][0],
            serde_json::json!([0, 4, 0, "length", "28 bytes of value follow"])
        );
        assert_eq!(f["nodes"][2], serde_json::json!([20, 32, 0, "[1]"]));
    }

    #[test]
    fn decode_errors_name_the_byte_and_the_value() {
        let cut = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0];
        let a = decoded(br#"{"godot":"4.6"}"#, &cut);
        assert_eq!(a["error"]["offset"], 16);
        assert_eq!(a["error"]["where"], "value › [1]");
        assert!(a.get("value").is_none());
        let r = answer(decode(br#"{"godot":"5.1"}"#, &cut).json);
        assert!(r["refused"].as_str().unwrap().contains("5.1"));
    }

    #[test]
    fn encode_answers_hex_or_the_json_path() {
        // What 4.6.3's put_var(7) writes (corpus/framing/godot-4.6.3.stable.jsonl).
        let ok = answer(encode(
            br#"{"godot":"4.6","framing":"packet"}"#,
            br#"{"type":"int","value":"7"}"#,
        ));
        assert_eq!(ok["hex"], "080000000200000007000000");
        let bad = answer(encode(
            br#"{"godot":"4.6"}"#,
            br#"{"type":"Array","value":[{"type":"int","value":"x"}]}"#,
        ));
        assert_eq!(bad["error"]["path"], "$.value[0].value");
        assert!(bad["hex"].is_null());
    }

    #[test]
    fn every_corpus_input_answers_within_its_bytes() {
        // Each recorded input of 4.6.3, unframed and behind a store_var length: the answer is
        // JSON, every row and value lies inside the input, and rows come in the order read. On a
        // big stack: without the codec's stack growth (as on wasm32), the nesting limits need one.
        let corpus = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus/godot-4.6.3.stable.jsonl"
        );
        let text = std::fs::read_to_string(corpus).unwrap();
        let inputs: Vec<Vec<u8>> = text
            .lines()
            .filter_map(|line| line.split_once(r#""input":""#))
            .filter_map(|(_, rest)| gdmarshal::json::unhex(rest.split('"').next()?).ok())
            .collect();
        assert!(inputs.len() > 1000, "only {} inputs", inputs.len());
        let run = move || {
            for bytes in &inputs {
                let mut framed = (bytes.len() as u32).to_le_bytes().to_vec();
                framed.extend_from_slice(bytes);
                for (req, input) in [
                    (&br#"{"godot":"4.6"}"#[..], &bytes[..]),
                    (br#"{"godot":"4.6","framing":"store_var"}"#, &framed),
                ] {
                    let a = decoded(req, input);
                    let len = input.len() as u64;
                    let mut last = 0;
                    for r in a["rows"].as_array().unwrap() {
                        let (s, e) = (r[0].as_u64().unwrap(), r[1].as_u64().unwrap());
                        assert!(s <= e && e <= len && s >= last, "row {r} of {len} bytes");
                        last = s;
                    }
                    for n in a["nodes"].as_array().unwrap() {
                        assert!(n[0].as_u64() <= n[1].as_u64() && n[1].as_u64() <= Some(len));
                    }
                    if let Some(at) = a["error"]["offset"].as_u64() {
                        assert!(at <= len);
                    }
                }
            }
        };
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn profiles_mark_the_verified() {
        let list = answer(profiles());
        let verified: Vec<&str> = list
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["verified"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(verified, ["3.2", "3.6", "4.6", "4.6-double"]);
    }
}
