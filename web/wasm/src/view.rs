//! The page's requests and answers, as JSON: what each call of the module does.

use gdmarshal::Profile;
use gdmarshal::encode::{EncodeOptions, encode as encode_value};
use gdmarshal::framing::{Framing, frame};
use gdmarshal::hex::hex;
use gdmarshal::json::read_json;
use gdmarshal::profile::all_profiles;
use serde::{Deserialize, Serialize};

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

pub(crate) fn refused(message: String) -> Vec<u8> {
    serde_json::to_vec(&Refused { refused: message }).unwrap_or_default()
}

/// Why a request cannot be acted on.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RequestError {
    /// Not the request's JSON.
    #[error("request: {0}")]
    Json(#[from] serde_json::Error),
    /// A version the codec does not know.
    #[error(transparent)]
    Version(#[from] gdmarshal::profile::UnknownVersion),
    /// A framing that is none of the four.
    #[error("unknown framing {0:?}: none, store_var, stream or packet")]
    Framing(String),
}

/// The request's profile and framing, or why not.
pub(crate) fn parse(req: &[u8]) -> Result<(Request, Profile, Framing), RequestError> {
    let r: Request = serde_json::from_slice(req)?;
    let profile: Profile = r.godot.parse()?;
    let framing = match r.framing.as_str() {
        "none" => Framing::None,
        "store_var" => Framing::StoreVar,
        "stream" => Framing::Stream,
        "packet" => Framing::Packet,
        other => return Err(RequestError::Framing(other.to_string())),
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

/// An encode's answer: the bytes as hex, or where the JSON is wrong.
#[derive(Serialize, Debug)]
struct Encoded {
    profile: String,
    hex: Option<String>,
    error: Option<EncodeFailure>,
}

/// A JSON path as the page shows it: a long one (a node 1,024 levels deep) by its ends, as the
/// errors' own text shows it.
fn shown_path(path: &str) -> String {
    gdmarshal::excerpt::cut(path, gdmarshal::excerpt::MAX_QUOTE).into_owned()
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
        Err(e) => return refused(e.to_string()),
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
                path: shown_path(e.path()),
                line: Some(line),
                column: Some(column),
                message: e.to_string(),
            });
        }
        Ok(value) => {
            let opts = EncodeOptions::new().full_objects(r.objects);
            match encode_value(&value, profile, opts) {
                Ok(bytes) => out.hex = Some(hex(&frame(&bytes, framing))),
                Err(e) => {
                    out.error = Some(EncodeFailure {
                        path: shown_path(&e.path),
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
