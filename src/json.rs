//! The tagged JSON schema (docs/tagged-json.md): [`Variant`] to JSON and back, exactly.
//!
//! The schema is stated once, in a writer and a reader that both work without a tree in between:
//!
//! - [`Tagged`] is a `serde::Serialize` view of a value. [`write_json`] streams it as JSON text
//!   into any `io::Write`; [`to_json`] builds a `serde_json::Value` from it.
//! - The reader is a set of serde visitors that build the [`Variant`] as the JSON is parsed.
//!   [`read_json`] / [`read_json_from`] read JSON text (nesting limited to what the profile's
//!   engines accept); [`from_json`] reads a `serde_json::Value` ([example](crate#tagged-json)).
//!
//! So memory follows the value, not its JSON: a JSON path is built only when an error is reported,
//! nesting is refused at the profile's limit before it costs stack or memory, and duplicate or
//! unknown members are errors. Widths come from the type and the profile (real_t is f32 or f64),
//! so the same reader serves every version. Errors name the JSON path of the bad node.
//!
//! ```
//! use gdmarshal::float::FloatStyle;
//! use gdmarshal::json::{read_json, write_json};
//! use gdmarshal::{Profile, Variant};
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! let mut text = Vec::new();
//! write_json(&mut text, &Variant::Int(1), FloatStyle::Shortest, false).unwrap();
//! assert_eq!(text, br#"{"type":"int","value":"1"}"#);
//! assert_eq!(read_json(&text, godot46).unwrap(), Variant::Int(1));
//!
//! let e = read_json(br#"{"type":"int","value":"1","note":"x"}"#, godot46).unwrap_err();
//! assert_eq!(e.to_string(), r#"1:32: at $.note: unknown member "note""#);
//! ```

use std::io;

use serde::de::DeserializeSeed;
use serde_json::Value;

use crate::excerpt::{MAX_QUOTE, cut};
use crate::float::FloatStyle;
use crate::profile::Profile;
use crate::value::Variant;

mod read;
mod write;

/// The member of the JSON object that stands for a string whose code units are not all Unicode
/// scalar values (3.x only): `{"code_units": [55296, 97]}`.
pub const CODE_UNITS: &str = "code_units";

pub use write::Tagged;

/// A tagged-JSON node that is not a valid value; `path` is where, as `$.value[2]`. The message
/// quotes at most a few hundred bytes of the input, and the error shows a long path cut
/// ([`crate::excerpt::cut`]); the field holds it whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at {}: {message}", cut(path, MAX_QUOTE))]
pub struct JsonError {
    /// JSON path of the bad node.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Why JSON text does not read as a value: where in the text (1-based line and column, as
/// serde_json counts them), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The text is not JSON, ends early or could not be read.
    #[error("{line}:{column}: invalid JSON in {}: {message}", cut(path, MAX_QUOTE))]
    Syntax {
        /// Line of the problem.
        line: usize,
        /// Column of the problem.
        column: usize,
        /// JSON path of the node being read.
        path: String,
        /// What is wrong.
        message: String,
        /// Whether the text ended where more was expected: more text after it could still make a
        /// value ([`ReadError::wants_more_input`]).
        ended: bool,
    },
    /// The text is JSON, but not a tagged value (a bad node, a member that does not belong, a
    /// duplicate member, nesting past the profile's limit).
    #[error("{line}:{column}: {error}")]
    Schema {
        /// Line just past the bad node's start.
        line: usize,
        /// Column just past the bad node's start.
        column: usize,
        /// The bad node and what is wrong with it.
        error: JsonError,
    },
}

impl ReadError {
    /// The JSON path of the problem.
    pub fn path(&self) -> &str {
        match self {
            ReadError::Syntax { path, .. } => path,
            ReadError::Schema { error, .. } => &error.path,
        }
    }

    /// Whether more text after the end of the input could change the outcome: it ended where
    /// more was expected. Every other error stands whatever follows, so a reader of a stream
    /// that parses what it has so far can stop at it.
    ///
    /// ```
    /// use gdmarshal::json::read_json;
    ///
    /// let godot46 = "4.6".parse().unwrap();
    /// assert!(read_json(br#"{"type":"Ni"#, godot46).unwrap_err().wants_more_input());
    /// assert!(!read_json(br#"{"type":"Nul"}"#, godot46).unwrap_err().wants_more_input());
    /// assert!(!read_json(b"\0", godot46).unwrap_err().wants_more_input());
    /// ```
    pub fn wants_more_input(&self) -> bool {
        matches!(self, ReadError::Syntax { ended: true, .. })
    }
}

/// Writes a value as a tagged-JSON tree.
///
/// Each float is written at the width the value holds; `_profile` is taken for symmetry with
/// [`from_json`], whose widths come from it. The tree is the one [`write_json`] writes as text.
///
/// Members are in the schema's order (`type` first) where serde_json's `preserve_order` feature
/// is on in the build; otherwise `serde_json::Map` sorts them. Readers take members in any order.
pub fn to_json(v: &Variant, _profile: Profile, style: FloatStyle) -> Value {
    // Serializing into a `Value` fails only for map keys that are not strings; the schema's are.
    serde_json::to_value(Tagged::new(v, style)).unwrap_or(Value::Null)
}

/// Writes a value as tagged-JSON text to `out`, compact or indented, without building a tree.
/// `out` is written in small pieces: give it a buffered writer.
pub fn write_json<W: io::Write>(
    out: W,
    v: &Variant,
    style: FloatStyle,
    pretty: bool,
) -> io::Result<()> {
    let tagged = Tagged::new(v, style);
    if pretty {
        serde_json::to_writer_pretty(out, &tagged)
    } else {
        serde_json::to_writer(out, &tagged)
    }
    .map_err(io::Error::from)
}

/// Reads a tagged-JSON tree. `profile` fixes the width of real_t components.
///
/// Any nesting that the tree holds is read (it is in memory already); text is better read with
/// [`read_json`], which refuses nesting past the profile's limit before building it.
pub fn from_json(j: &Value, profile: Profile) -> Result<Variant, JsonError> {
    let mut cx = read::Cx::new(profile.double_reals, usize::MAX);
    let result = read::Node { cx: &mut cx }.deserialize(j);
    result.map_err(|e| {
        cx.take_error().unwrap_or_else(|| JsonError {
            path: cx.path(),
            message: read::bounded_message(e.to_string()),
        })
    })
}

/// Reads tagged-JSON text as it is parsed, without a tree in between. `profile` fixes the width
/// of real_t components and the deepest nesting accepted ([`Profile::max_depth`], as the engines
/// decode), so memory and stack follow the value, whatever the text.
pub fn read_json(text: &[u8], profile: Profile) -> Result<Variant, ReadError> {
    read_with(serde_json::Deserializer::from_slice(text), profile)
}

/// [`read_json`] from a reader (give it a buffered one), holding no copy of the text.
pub fn read_json_from<R: io::Read>(input: R, profile: Profile) -> Result<Variant, ReadError> {
    read_with(serde_json::Deserializer::from_reader(input), profile)
}

fn read_with<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    profile: Profile,
) -> Result<Variant, ReadError> {
    // The reader bounds nesting itself, at the profile's limit rather than serde_json's 128.
    de.disable_recursion_limit();
    let mut cx = read::Cx::new(profile.double_reals, profile.max_depth());
    let result = read::Node { cx: &mut cx }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    result.map_err(|e| {
        let (line, column) = (e.line(), e.column());
        match cx.take_error() {
            Some(error) => ReadError::Schema {
                line,
                column,
                error,
            },
            None => {
                let text = e.to_string();
                let at = format!(" at line {line} column {column}");
                ReadError::Syntax {
                    line,
                    column,
                    ended: e.is_eof(),
                    path: cx.path(),
                    message: read::bounded_message(
                        text.strip_suffix(&at).unwrap_or(&text).to_string(),
                    ),
                }
            }
        }
    })
}

/// Parses JSON of any nesting depth (values nest 1024 levels, their JSON twice that; serde_json
/// alone stops at 128), growing the stack as it goes.
#[cfg(feature = "stack-growth")]
pub fn parse_deep<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{DecodeOptions, decode};
    use crate::value::{Array, Reals};

    fn p(v: &str) -> Profile {
        v.parse().unwrap()
    }

    /// Reads `text` both ways: as text (with the profile's nesting limit) and as a tree.
    fn both(
        text: &str,
        profile: Profile,
    ) -> (Result<Variant, ReadError>, Result<Variant, JsonError>) {
        let tree: Value = parse_deep(text).unwrap();
        (
            read_json(text.as_bytes(), profile),
            from_json(&tree, profile),
        )
    }

    fn schema_error(text: &str) -> JsonError {
        match read_json(text.as_bytes(), p("4.6")) {
            Err(ReadError::Schema { error, .. }) => error,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn duplicate_members_are_errors_naming_the_path() {
        let e =
            schema_error(r#"{"type":"Array","value":[{"type":"int","value":"1","value":"2"}]}"#);
        assert_eq!(e.path, "$.value[0].value");
        assert_eq!(e.message, r#"duplicate member "value""#);
        let e = schema_error(r#"{"type":"int","type":"int","value":"1"}"#);
        assert_eq!(e.path, "$.type");
        let e = schema_error(
            r#"{"type":"Array","element_type":{"builtin":"int","builtin":"int"},"value":[]}"#,
        );
        assert_eq!(e.path, "$.element_type");
        assert!(e.message.contains("exactly one"), "{e}");
        // A value held until its type is known is checked the same way.
        let e = schema_error(r#"{"value":{"a":1,"a":2},"type":"int"}"#);
        assert_eq!(e.path, "$.value.a");
        assert_eq!(e.message, r#"duplicate member "a""#);
    }

    #[test]
    fn unknown_and_foreign_members_are_errors_naming_the_path() {
        for (text, path, message) in [
            (
                r#"{"type":"Array","value":[{"type":"int","value":"1","note":"x"}]}"#,
                "$.value[0].note",
                r#"unknown member "note""#,
            ),
            (
                r#"{"type":"Nil","odd name":1}"#,
                r#"$["odd name"]"#,
                r#"unknown member "odd name""#,
            ),
            (
                r#"{"type":"int","value":"1","names":[]}"#,
                "$.names",
                r#"a node of type int has no member "names" (it has type, value)"#,
            ),
            // Before the type, as a writer that sorts keys puts it.
            (
                r#"{"names":[],"type":"int","value":"1"}"#,
                "$.names",
                r#"a node of type int has no member "names" (it has type, value)"#,
            ),
            (
                r#"{"type":"Nil","value":null}"#,
                "$.value",
                r#"a node of type Nil has no member "value" (it has type)"#,
            ),
            (
                r#"{"type":"Object","value":null,"id":"1"}"#,
                "$",
                r#"an Object has one of "value": null, "id", or "class" and "properties", not more"#,
            ),
        ] {
            let e = schema_error(text);
            assert_eq!(
                (e.path.as_str(), e.message.as_str()),
                (path, message),
                "{text}"
            );
            // The tree reader holds the same schema.
            let (_, tree) = both(text, p("4.6"));
            assert_eq!(tree.unwrap_err(), e, "{text}");
        }
    }

    #[test]
    fn members_may_come_in_any_order() {
        let profile = p("4.6");
        for (text, want) in [
            (
                r#"{"value":[{"value":"1","type":"int"}],"element_type":{"builtin":"int"},"type":"Array"}"#,
                Variant::Array(Array::typed(
                    crate::value::ContainerType::Builtin(crate::VariantType::Int),
                    vec![Variant::Int(1)],
                )),
            ),
            (
                r#"{"absolute":true,"names":["a"],"subnames":[],"type":"NodePath"}"#,
                Variant::node_path(crate::value::NodePath {
                    names: vec!["a".into()],
                    subnames: vec![],
                    absolute: true,
                }),
            ),
            (
                r#"{"value":["1","-0"],"type":"Vector2"}"#,
                Variant::Vector2(Reals::from([1.0f32, -0.0])),
            ),
        ] {
            let (text_read, tree_read) = both(text, profile);
            assert_eq!(text_read.unwrap(), want, "{text}");
            assert_eq!(tree_read.unwrap(), want, "{text}");
        }
    }

    /// `{"type":"Array","value":[` `levels` times, a Nil, and the closing brackets.
    fn nested_arrays(levels: usize) -> String {
        let mut s = r#"{"type":"Array","value":["#.repeat(levels);
        s.push_str(r#"{"type":"Nil"}"#);
        s.push_str(&"]}".repeat(levels));
        s
    }

    /// An error keeps its path whole, but says it and the input it quotes in a few hundred bytes
    /// whatever the input: a path 1,024 levels deep, a megabyte literal, a megabyte type name.
    #[test]
    fn errors_say_their_path_and_quotes_in_a_bounded_length() {
        let profile = p("4.6");
        let e = read_json(nested_arrays(1_000_000).as_bytes(), profile).unwrap_err();
        assert_eq!(
            e.path().len(),
            1 + ".value[0]".len() * (profile.max_depth() + 1)
        );
        let shown = e.to_string();
        assert!(shown.len() < 400, "{} bytes: {shown}", shown.len());
        assert!(
            shown.contains(&format!("of {} bytes cut]", e.path().len())),
            "{shown}"
        );
        let mega = "9".repeat(1 << 20);
        for text in [
            format!(r#"{{"type":"int","value":"{mega}"}}"#),
            format!(r#"{{"type":"{mega}"}}"#),
            format!(r#"{{"type":"String","value":{mega}}}"#),
            format!(r#"{{"type":"Array","element_type":{{"builtin":"{mega}"}},"value":[]}}"#),
        ] {
            let shown = read_json(text.as_bytes(), profile).unwrap_err().to_string();
            assert!(
                shown.len() < 1000,
                "{} bytes: {}",
                shown.len(),
                cut(&shown, 300)
            );
        }
    }

    #[test]
    fn nesting_past_the_limit_is_refused_with_its_path() {
        let profile = p("4.6");
        let limit = profile.max_depth();
        // The Nil inside `limit` arrays is at depth `limit`: the deepest the engines accept.
        let v = read_json(nested_arrays(limit).as_bytes(), profile).unwrap();
        let bytes = crate::encode(&v, profile, Default::default()).unwrap();
        assert_eq!(
            decode(&bytes, profile, DecodeOptions::default())
                .unwrap()
                .value,
            v
        );
        // One more is refused where it starts, at the path of the node too deep.
        let e = schema_error(&nested_arrays(limit + 1));
        assert_eq!(e.message, format!("nesting deeper than {limit}"));
        assert!(e.path == format!("${}", ".value[0]".repeat(limit + 1)));
        // Through dictionaries and objects alike.
        let entry = r#"{"type":"Dictionary","value":[[{"type":"Nil"},"#;
        let text = format!("{}{{\"type\":\"Nil\"}}", entry.repeat(limit + 1));
        let e = schema_error(&text);
        // The innermost dictionary is at the limit; its key is the first node past it.
        let want = format!("${}.value[0][0]", ".value[0][1]".repeat(limit));
        assert!(e.path == want, "{}", &e.path[e.path.len() - 40..]);
        // Far deeper text is refused just as soon, whatever nests: nodes, bare arrays, or a value
        // held until its type is known.
        let deep = 1_000_000;
        let e = match read_json(nested_arrays(deep).as_bytes(), profile) {
            Err(ReadError::Schema { error, .. }) => error,
            other => panic!("{other:?}"),
        };
        assert_eq!(e.path.len(), 1 + ".value[0]".len() * (limit + 1));
        let bare = format!(r#"{{"type":"Array","value":{}"#, "[".repeat(deep));
        assert_eq!(schema_error(&bare).path, "$.value[0]");
        let early = r#"{"value":"#.repeat(deep);
        let e = schema_error(&early);
        assert_eq!(e.message, format!("nesting deeper than {limit}"));
        assert!(e.path.starts_with("$.value.value"), "{}", &e.path[..40]);
    }

    #[test]
    fn syntax_errors_name_the_line_column_and_path() {
        let e = read_json(
            b"{\"type\":\"Array\",\"value\":[{\"type\":\"Nil\"},\n",
            p("4.6"),
        );
        match e {
            Err(ReadError::Syntax { line, path, .. }) => {
                assert_eq!((line, path.as_str()), (2, "$.value[1]"))
            }
            other => panic!("{other:?}"),
        }
        let e = read_json(br#"{"type":"Nil"} x"#, p("4.6")).unwrap_err();
        assert_eq!(e.path(), "$");
        assert!(
            e.to_string()
                .starts_with("1:16: invalid JSON in $: trailing"),
            "{e}"
        );
    }

    #[test]
    fn corpus_trees_read_and_write_as_before() {
        // The corpus holds trees written by the earlier tree writer (`value` of encode cases) and
        // by the engines (`tree`), up to 4096 levels deep: walk them on a big stack.
        let run = || {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
            let mut checked = 0;
            for version in ["3.2.3", "3.6.2", "4.6.3"] {
                let profile = p(&version[..3]);
                let path = dir.join(format!("godot-{version}.stable.jsonl"));
                for line in std::fs::read_to_string(path).unwrap().lines() {
                    let record: Value = parse_deep(line).unwrap();
                    let name = record["name"].as_str().unwrap_or_default().to_string();
                    if let Some(value) = record.get("value") {
                        // Written by `to_json`: it reads back and writes again exactly.
                        let v = from_json(value, profile).unwrap();
                        assert_eq!(&to_json(&v, profile, FloatStyle::Shortest), value, "{name}");
                        let text = serde_json::to_vec(value).unwrap();
                        let mut again = Vec::new();
                        write_json(&mut again, &v, FloatStyle::Shortest, false).unwrap();
                        assert!(again == text, "{name}: text differs");
                        match read_json(&text, profile) {
                            Ok(w) => assert_eq!(w, v, "{name}"),
                            Err(e) => {
                                assert!(e.to_string().contains("nesting deeper"), "{name}: {e}")
                            }
                        }
                        checked += 1;
                    }
                    if let Some(tree) = record.get("tree").filter(|t| !t.is_null()) {
                        // Written by the engines: both readers agree, but for nesting that the
                        // text reader refuses.
                        let text = serde_json::to_vec(tree).unwrap();
                        match (from_json(tree, profile), read_json(&text, profile)) {
                            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
                            (Err(a), Err(ReadError::Schema { error, .. })) => {
                                assert_eq!(a, error, "{name}")
                            }
                            (Ok(_), Err(e)) => {
                                assert!(e.to_string().contains("nesting deeper"), "{name}: {e}")
                            }
                            (a, b) => panic!("{name}: {a:?} / {b:?}"),
                        }
                        checked += 1;
                    }
                }
            }
            assert!(checked > 3000, "only {checked} trees");
        };
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }
}
