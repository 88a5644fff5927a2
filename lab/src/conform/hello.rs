//! The testee's answer to the handshake (`hello`, docs/conformance.md): read with serde into the
//! wire form, then checked; every refusal is a [`HelloError`] that names the field.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::Value;

use super::limits::{MAX_NAME, MAX_TESTEE_TEXT};
use crate::corpus::known::{Entry, KnownError};
use crate::error::LineError;
use crate::shown::truncate;

/// The protocol version this runner speaks.
pub(crate) const PROTOCOL: u64 = 1;

/// What a testee may declare: everything, or a list.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Declared {
    /// `"all"`, or the field left out.
    #[default]
    All,
    /// A list of names.
    Some(Vec<String>),
}

impl Declared {
    /// Whether `name` is declared; `also` are further names that count as a match (e.g. the
    /// major version for a minor).
    pub fn covers(&self, name: &str, also: &[&str]) -> bool {
        match self {
            Declared::All => true,
            Declared::Some(list) => list
                .iter()
                .any(|d| d == name || also.iter().any(|a| d == a)),
        }
    }

    /// The first listed name that is not one of `known`.
    fn unknown(&self, known: &[&str]) -> Option<String> {
        match self {
            Declared::All => None,
            Declared::Some(list) => list
                .iter()
                .find(|n| !known.contains(&n.as_str()))
                .map(|n| truncate(n, MAX_NAME)),
        }
    }
}

impl fmt::Display for Declared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declared::All => f.write_str("all"),
            Declared::Some(list) if list.is_empty() => f.write_str("none"),
            Declared::Some(list) => f.write_str(&list.join(", ")),
        }
    }
}

impl<'de> Deserialize<'de> for Declared {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Declared, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Declared;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"all\" or an array of strings")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Declared, E> {
                match s {
                    "all" => Ok(Declared::All),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Declared, A::Error> {
                let mut names = Vec::new();
                while let Some(name) = seq.next_element::<String>()? {
                    names.push(name);
                }
                Ok(Declared::Some(names))
            }
        }
        d.deserialize_any(V)
    }
}

/// What a testee claims to do (`capabilities` in the handshake; docs/conformance.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// It decodes: decode cases are sent.
    pub decode: bool,
    /// It encodes: encode cases are sent.
    pub encode: bool,
    /// It re-encodes what it decoded: after an accepted decode it is asked to encode the value,
    /// and the bytes are judged too. Without it a decode is judged on the value alone.
    pub reencode: bool,
}

impl Capabilities {
    /// The names the handshake uses.
    pub(crate) const NAMES: [&'static str; 3] = ["decode", "encode", "reencode"];

    /// Whether `name` (`decode`, `encode`, `reencode`) is claimed.
    pub fn claims(&self, name: &str) -> bool {
        match name {
            "decode" => self.decode,
            "encode" => self.encode,
            "reencode" => self.reencode,
            _ => false,
        }
    }

    /// The names not claimed.
    pub fn unclaimed(&self) -> Vec<&'static str> {
        Self::NAMES
            .into_iter()
            .filter(|n| !self.claims(n))
            .collect()
    }

    /// From the handshake: `capabilities` when given, else the older `directions` (a decode
    /// claim then includes the re-encoding, as it always did).
    fn from_wire(
        capabilities: Option<Declared>,
        directions: Option<Declared>,
    ) -> Result<Capabilities, HelloError> {
        match (capabilities, directions) {
            (Some(_), Some(_)) => Err(HelloError::CapabilitiesAndDirections),
            (Some(c), None) => {
                if let Some(name) = c.unknown(&Self::NAMES) {
                    return Err(HelloError::UnknownName {
                        field: "capabilities",
                        name,
                        known: "decode, encode, reencode",
                    });
                }
                Ok(Capabilities {
                    decode: c.covers("decode", &[]),
                    encode: c.covers("encode", &[]),
                    reencode: c.covers("reencode", &[]),
                })
            }
            (None, d) => {
                let d = d.unwrap_or_default();
                if let Some(name) = d.unknown(&["decode", "encode"]) {
                    return Err(HelloError::UnknownName {
                        field: "directions",
                        name,
                        known: "decode, encode",
                    });
                }
                let decode = d.covers("decode", &[]);
                Ok(Capabilities {
                    decode,
                    encode: d.covers("encode", &[]),
                    reencode: decode,
                })
            }
        }
    }
}

/// The testee's answer to the handshake.
#[derive(Clone, Debug)]
pub struct Hello {
    /// The name the testee gives itself.
    pub name: String,
    /// Engine versions (format profiles such as `4.6`, or a major such as `4`).
    pub versions: Declared,
    /// What it does: decode, encode, re-encode.
    pub capabilities: Capabilities,
    /// Type names (Godot 4 names, as in tagged JSON).
    pub types: Declared,
    /// Names in `types` that are no type name tagged JSON knows (they fail the run: a typo would
    /// otherwise skip a type's cases in silence).
    pub unknown_types: Vec<String>,
    /// The testee's own expected failures, `ENGINE-GLOB CASE-GLOB REASON` lines (optional).
    pub expect_fail: Vec<Entry>,
    /// The deepest JSON its reader takes (`max_json_depth`, levels of objects and arrays, the
    /// request line itself being one): deeper cases are not claimed. `None`: any depth.
    pub max_json_depth: Option<usize>,
}

/// Why a handshake answer is not a valid `hello`.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HelloError {
    /// A field is missing or of the wrong form: serde's words, after the field's path, cut to
    /// [`MAX_TESTEE_TEXT`] (they may quote what the testee sent).
    #[error("hello: {0}")]
    Form(String),
    /// The testee speaks another protocol version.
    #[error("hello: the testee speaks protocol {spoken}, this runner {PROTOCOL}")]
    Protocol {
        /// The version it gave.
        spoken: u64,
    },
    /// Both the `capabilities` field and the older `directions`.
    #[error("hello: give \"capabilities\" or the older \"directions\", not both")]
    CapabilitiesAndDirections,
    /// A name a list field does not know.
    #[error("hello: {field}: unknown {name:?} (they are {known})")]
    UnknownName {
        /// The field.
        field: &'static str,
        /// The name given.
        name: String,
        /// The names the field knows.
        known: &'static str,
    },
    /// An `expect_fail` line that does not parse.
    #[error("hello: expect_fail: {0}")]
    ExpectFail(LineError),
}

/// The least `max_json_depth`: a request and the value in it.
const LEAST_DEPTH: u64 = 2;

/// `max_json_depth`: a whole number of at least [`LEAST_DEPTH`].
struct Depth(usize);

impl<'de> Deserialize<'de> for Depth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Depth, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Depth;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(
                    f,
                    "a whole number of at least {LEAST_DEPTH} (a request and the value in it)"
                )
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Depth, E> {
                if n < LEAST_DEPTH {
                    return Err(E::invalid_value(de::Unexpected::Unsigned(n), &self));
                }
                Ok(Depth(usize::try_from(n).unwrap_or(usize::MAX)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Depth, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Signed(n), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The handshake answer as the testee sends it. Fields this runner does not know are ignored.
#[derive(Deserialize)]
struct Wire {
    name: String,
    protocol: Option<u64>,
    #[serde(default)]
    versions: Declared,
    #[serde(default)]
    types: Declared,
    capabilities: Option<Declared>,
    directions: Option<Declared>,
    #[serde(default)]
    expect_fail: Vec<String>,
    max_json_depth: Option<Depth>,
}

impl Hello {
    /// Reads and checks a handshake answer.
    pub fn parse(v: &Value) -> Result<Hello, HelloError> {
        let wire: Wire = serde_path_to_error::deserialize(v).map_err(|e| {
            let path = e.path().to_string();
            let why = match path.as_str() {
                "." => e.into_inner().to_string(),
                _ => format!("{path}: {}", e.into_inner()),
            };
            HelloError::Form(truncate(&why, MAX_TESTEE_TEXT))
        })?;
        if let Some(spoken) = wire.protocol
            && spoken != PROTOCOL
        {
            return Err(HelloError::Protocol { spoken });
        }
        let unknown_types = match &wire.types {
            Declared::All => Vec::new(),
            Declared::Some(list) => list
                .iter()
                .filter(|t| gdmarshal::types::VariantType::from_name(t).is_none())
                .map(|t| truncate(t, MAX_NAME))
                .collect(),
        };
        let mut expect_fail = String::new();
        for line in &wire.expect_fail {
            expect_fail.push_str(line);
            expect_fail.push('\n');
        }
        Ok(Hello {
            name: truncate(&wire.name, MAX_NAME),
            capabilities: Capabilities::from_wire(wire.capabilities, wire.directions)?,
            versions: wire.versions,
            types: wire.types,
            unknown_types,
            expect_fail: crate::corpus::known::parse(&expect_fail, "testee expect_fail").map_err(
                |e| match e {
                    KnownError::Line(e) => HelloError::ExpectFail(e),
                    // Parsing text reads no file: only a line can be wrong.
                    other => HelloError::Form(format!("expect_fail: {other}")),
                },
            )?,
            max_json_depth: wire.max_json_depth.map(|d| d.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refusal(v: Value) -> String {
        Hello::parse(&v).unwrap_err().to_string()
    }

    #[test]
    fn a_full_answer_is_read() {
        let h = Hello::parse(&json!({
            "name": "kit", "protocol": 1, "versions": ["4.6"], "types": ["int", "Nope"],
            "capabilities": ["decode"], "max_json_depth": 40, "extra": true,
            "expect_fail": ["4.6 decode/** a reason"],
        }))
        .unwrap();
        assert_eq!(h.name, "kit");
        assert_eq!(h.versions, Declared::Some(vec!["4.6".into()]));
        assert_eq!(h.unknown_types, ["Nope"]);
        assert_eq!(
            h.capabilities,
            Capabilities {
                decode: true,
                encode: false,
                reencode: false
            }
        );
        assert_eq!(h.max_json_depth, Some(40));
        assert_eq!(h.expect_fail.len(), 1);
    }

    #[test]
    fn left_out_fields_claim_everything_and_directions_still_count() {
        let h = Hello::parse(&json!({"name": "kit"})).unwrap();
        assert_eq!((h.versions, h.types), (Declared::All, Declared::All));
        assert!(h.capabilities.decode && h.capabilities.encode && h.capabilities.reencode);
        assert_eq!(h.max_json_depth, None);
        let h = Hello::parse(&json!({"name": "kit", "directions": ["decode"]})).unwrap();
        assert!(h.capabilities.decode && h.capabilities.reencode && !h.capabilities.encode);
    }

    #[test]
    fn each_refusal_names_its_field() {
        for (answer, says) in [
            (json!({}), "hello: missing field `name`"),
            (json!({"name": 5}), "hello: name: invalid type: integer `5`"),
            (
                json!({"name": "k", "protocol": 2}),
                "speaks protocol 2, this runner 1",
            ),
            (
                json!({"name": "k", "types": 5}),
                "hello: types: invalid type: integer `5`, expected \"all\" or an array of strings",
            ),
            (
                json!({"name": "k", "versions": ["4.6", 4]}),
                "hello: versions[1]: invalid type: integer `4`",
            ),
            (
                json!({"name": "k", "capabilities": "some"}),
                "hello: capabilities: invalid value: string \"some\"",
            ),
            (
                json!({"name": "k", "capabilities": ["decode"], "directions": ["decode"]}),
                "not both",
            ),
            (
                json!({"name": "k", "capabilities": ["decode", "fly"]}),
                "hello: capabilities: unknown \"fly\" (they are decode, encode, reencode)",
            ),
            (
                json!({"name": "k", "directions": ["reencode"]}),
                "hello: directions: unknown \"reencode\" (they are decode, encode)",
            ),
            (
                json!({"name": "k", "max_json_depth": -3}),
                "hello: max_json_depth: invalid value: integer `-3`, expected a whole number of at least 2",
            ),
            (
                json!({"name": "k", "max_json_depth": 1}),
                "hello: max_json_depth: invalid value: integer `1`, expected a whole number",
            ),
            (
                json!({"name": "k", "max_json_depth": 2.5}),
                "hello: max_json_depth: invalid type: floating point `2.5`",
            ),
            (
                json!({"name": "k", "expect_fail": [3]}),
                "hello: expect_fail[0]: invalid type: integer `3`, expected a string",
            ),
            (
                json!({"name": "k", "expect_fail": ["only-one-word"]}),
                "hello: expect_fail: ",
            ),
        ] {
            let got = refusal(answer.clone());
            assert!(
                got.starts_with(says) || got.contains(says),
                "{answer}: {got}"
            );
        }
    }
}
