//! The testee (docs/conformance.md) of the crate godot-binary-serialization, one line of it per
//! run: `gdmarshal-adapter-godot-binary-serialization 0.1|0.2`. It maps the crate's values to
//! tagged JSON (docs/tagged-json.md) and back and nothing more; what the crate's types cannot
//! hold is answered "skipped".

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// An answer to one request: the value or bytes, the crate's refusal, or a skip.
enum Outcome {
    Decoded(Value, usize),
    Encoded(Vec<u8>),
    Refused(String),
    Skipped(String),
}

/// One line of the crate: its version and its decode and encode, over tagged JSON.
struct Line {
    version: &'static str,
    godot_major: u32,
    decode: fn(&[u8]) -> Outcome,
    encode: fn(&Value) -> Outcome,
}

/// The same mapping for each line: the two lines share their API and differ in type ids.
macro_rules! line {
    ($krate:ident, $version:literal, $major:literal) => {{
        mod $krate {
            use super::{Outcome, Unmapped, float_token, skip, token_value};
            use serde_json::{Value, json};
            use $krate::decoder::Decoder;
            use $krate::encoder::Encoder;
            use $krate::types::primitive::*;
            use $krate::types::structures::*;
            use $krate::types::variant::{AsVariant, GodotVariant};

            fn to_tagged(v: &dyn GodotVariant) -> Result<Value, Unmapped> {
                Ok(if v.as_var::<GodotNull>().is_some() {
                    json!({"type": "Nil"})
                } else if let Some(b) = v.as_var::<GodotBool>() {
                    json!({"type": "bool", "value": b.value})
                } else if let Some(i) = v.as_var::<GodotInteger>() {
                    json!({"type": "int", "value": i.value.to_string()})
                } else if let Some(f) = v.as_var::<GodotFloat>() {
                    json!({"type": "float", "value": float_token(f.value)})
                } else if let Some(s) = v.as_var::<GodotString>() {
                    json!({"type": "String", "value": s.value})
                } else if let Some(p) = v.as_var::<GodotVector2>() {
                    let c = [p.x, p.y].map(|x| float_token(f64::from(x)));
                    json!({"type": "Vector2", "value": c})
                } else if let Some(p) = v.as_var::<GodotVector3>() {
                    let c = [p.x, p.y, p.z].map(|x| float_token(f64::from(x)));
                    json!({"type": "Vector3", "value": c})
                } else if let Some(d) = v.as_var::<GodotDictionary>() {
                    let mut pairs = Vec::new();
                    for (k, x) in &d.map {
                        pairs.push(json!([to_tagged(k.as_ref())?, to_tagged(x.as_ref())?]));
                    }
                    json!({"type": "Dictionary", "value": pairs})
                } else {
                    return Err(skip(&format!("a decoded {v:?} the adapter cannot map")));
                })
            }

            fn from_tagged(node: &Value) -> Result<Box<dyn GodotVariant>, Unmapped> {
                let value = &node["value"];
                let text = || value.as_str().ok_or_else(|| skip("a string of code units"));
                let reals = || -> Result<Vec<f32>, Unmapped> {
                    let list = value.as_array().ok_or("a math value without components")?;
                    // The crate's vectors are f32: a double build's components are not.
                    list.iter()
                        .map(|t| {
                            let x = token_value(t.as_str().unwrap_or(""));
                            let narrow = x as f32;
                            if f64::from(narrow).to_bits() == x.to_bits() || x.is_nan() {
                                Ok(narrow)
                            } else {
                                Err(skip("a component an f32 cannot hold"))
                            }
                        })
                        .collect()
                };
                Ok(match node["type"].as_str().unwrap_or("") {
                    "Nil" => Box::new(GodotNull),
                    "bool" => Box::new(GodotBool::new(value.as_bool().unwrap_or(false))),
                    "int" => {
                        let v: i64 = text()?.parse().map_err(|_| "an int out of range")?;
                        // Godot writes an int in 32 bits when it fits; the crate leaves the
                        // width to its caller.
                        match i32::try_from(v) {
                            Ok(v) => Box::new(GodotInteger::new_from_i32(v)),
                            Err(_) => Box::new(GodotInteger::new_from_i64(v)),
                        }
                    }
                    "float" => {
                        let x = token_value(text()?);
                        // Godot writes a float in 32 bits when it is exact there; the crate
                        // leaves the width to its caller.
                        if f64::from(x as f32).to_bits() == x.to_bits() {
                            Box::new(GodotFloat::new_from_f32(x as f32))
                        } else {
                            Box::new(GodotFloat::new_from_f64(x))
                        }
                    }
                    "String" => Box::new(GodotString::new(text()?)),
                    "Vector2" => {
                        let c = reals()?;
                        Box::new(GodotVector2::new(c[0], c[1]))
                    }
                    "Vector3" => {
                        let c = reals()?;
                        Box::new(GodotVector3::new(c[0], c[1], c[2]))
                    }
                    "Dictionary" => {
                        if node.get("key_type").is_some() || node.get("value_type").is_some() {
                            return Err(skip("typed dictionaries"));
                        }
                        let mut d = GodotDictionary::new();
                        for pair in value.as_array().into_iter().flatten() {
                            let k = from_tagged(&pair[0])?;
                            if d.map.contains_key(&k) {
                                return Err(skip("repeated keys"));
                            }
                            d.map.insert(k, from_tagged(&pair[1])?);
                        }
                        Box::new(d)
                    }
                    other => return Err(skip(&format!("the crate has no value for {other}"))),
                })
            }

            pub fn decode(bytes: &[u8]) -> Outcome {
                match Decoder::decode_variant(bytes) {
                    Ok(v) => match to_tagged(v.as_ref()) {
                        Ok(tree) => Outcome::Decoded(tree, v.byte_length()),
                        Err(why) => Outcome::Skipped(why.into_text()),
                    },
                    Err(e) => Outcome::Refused(e.to_string()),
                }
            }

            pub fn encode(node: &Value) -> Outcome {
                match from_tagged(node) {
                    Ok(v) => match Encoder::encode_variant(v.as_ref()) {
                        Ok(bytes) => Outcome::Encoded(bytes),
                        Err(e) => Outcome::Refused(e.to_string()),
                    },
                    Err(Unmapped::Skip(why)) => Outcome::Skipped(why),
                    Err(Unmapped::Refuse(why)) => Outcome::Refused(why),
                }
            }
        }
        Line {
            version: $version,
            godot_major: $major,
            decode: $krate::decode,
            encode: $krate::encode,
        }
    }};
}

/// Why a value does not map between tagged JSON and the crate's types.
enum Unmapped {
    /// The crate's types cannot hold it: the case is answered "skipped".
    Skip(String),
    /// The tree is not one the crate's API takes: answered as the crate's refusal.
    Refuse(String),
}

impl Unmapped {
    fn into_text(self) -> String {
        match self {
            Unmapped::Skip(why) | Unmapped::Refuse(why) => why,
        }
    }
}

impl From<&str> for Unmapped {
    fn from(why: &str) -> Unmapped {
        Unmapped::Refuse(why.to_string())
    }
}

fn skip(why: &str) -> Unmapped {
    Unmapped::Skip(why.to_string())
}

/// A float as a tagged-JSON token, exactly.
fn float_token(x: f64) -> String {
    if x.is_nan() {
        format!("0x{:016x}", x.to_bits())
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:?}").trim_end_matches(".0").to_string()
    }
}

/// A float token's value (decimal, `inf`, `nan`, or the bits of an f32 or f64).
fn token_value(token: &str) -> f64 {
    match token {
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "nan" => f64::NAN,
        t if t.len() == 10 && t.starts_with("0x") => {
            f64::from(f32::from_bits(u32::from_str_radix(&t[2..], 16).unwrap_or(0)))
        }
        t if t.starts_with("0x") => f64::from_bits(u64::from_str_radix(&t[2..], 16).unwrap_or(0)),
        t => t.parse().unwrap_or(f64::NAN),
    }
}

fn answer(line: &Line, request: &Value) -> Value {
    let id = request["id"].clone();
    if request["op"] == "hello" {
        let versions: Vec<String> = (0..10).map(|m| format!("{}.{m}", line.godot_major)).collect();
        return json!({
            "name": format!("godot-binary-serialization {} (crate)", line.version),
            "protocol": 1,
            // The README names no Godot version: the type ids are Godot 3's in 0.1, Godot 4's
            // in 0.2 (single precision: the vectors are f32).
            "versions": versions,
            "capabilities": ["decode", "encode", "reencode"],
            // README: Null, Bool, Integer, Float, String, Vector2, Vector3, Dictionary.
            "types": ["Nil", "bool", "int", "float", "String", "Vector2", "Vector3", "Dictionary"],
            // serde_json's reader stops at 128 levels.
            "max_json_depth": 100,
        });
    }
    let outcome = match request["op"].as_str() {
        Some("decode") => match hex::decode(request["input"].as_str().unwrap_or("")) {
            Ok(bytes) => (line.decode)(&bytes),
            Err(e) => Outcome::Refused(format!("input is not hex: {e}")),
        },
        Some("encode") => (line.encode)(&request["value"]),
        other => Outcome::Refused(format!("unknown op {other:?}")),
    };
    match outcome {
        Outcome::Decoded(value, consumed) => {
            json!({"id": id, "ok": true, "value": value, "consumed": consumed})
        }
        Outcome::Encoded(bytes) => json!({"id": id, "ok": true, "output": hex::encode(bytes)}),
        Outcome::Refused(error) => json!({"id": id, "ok": false, "error": error}),
        Outcome::Skipped(why) => json!({"id": id, "skipped": why}),
    }
}

fn main() {
    let line = match std::env::args().nth(1).as_deref() {
        Some("0.1") => line!(gbs01, "0.1.12", 3),
        Some("0.2") => line!(gbs02, "0.2.0", 4),
        _ => {
            eprintln!("usage: gdmarshal-adapter-godot-binary-serialization 0.1|0.2");
            std::process::exit(2);
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for request in stdin.lock().lines() {
        let Ok(request) = request else { break };
        if request.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&request) {
            Ok(r) => answer(&line, &r),
            Err(e) => json!({"ok": false, "error": format!("bad request: {e}")}),
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
