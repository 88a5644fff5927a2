//! Stress cases: values too large to store as hex (arrays and dictionaries of more than 65,535
//! elements, a 1 MiB string, a megabyte of bytes), recorded from the engines like every case
//! but stored compactly in `corpus/stress.jsonl`: a recipe that builds the value, and per engine
//! the verdict, the length and SHA-256 of the engine's bytes and the SHA-256 of its decoded tree.
//!
//! [`materialize`] turns one back into an ordinary [`Record`] when its case comes up: the value
//! is built from its recipe and encoded by this crate's codec, and the record is used only when
//! those bytes (and the value as tagged JSON) hash to what the engine answered, so the expected
//! bytes are still the engine's. Until then a run holds a stand-in ([`stand_ins`]).
//! `gdmarshal corpus stress --engine X` re-asks an engine ([`record`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::float::FloatStyle;
use gdmarshal::hex::{hex, unhex};
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;

use super::generate::generate;
use super::integrity::sha256_hex;
use super::source::Source;
use crate::error::{FileError, LineError};
use crate::model::Field;
use crate::model::answerer::EngineAnswerer;
use crate::model::case::{Case, Direction};
use crate::model::record::{Record, Verdict};

/// The file, in the corpus folder.
pub const FILE: &str = "stress.jsonl";

/// How a stress value is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recipe {
    /// An Array of the ints `0..count`.
    IntArray(usize),
    /// An Array of `count` Nils.
    NilArray(usize),
    /// A Dictionary from the ints `0..count` to Nil.
    IntNilDictionary(usize),
    /// A String of `count` ASCII letters (`a`..`z` repeating).
    AsciiString(usize),
    /// A PackedByteArray of `count` bytes (`i % 251`).
    ByteArray(usize),
    /// A PackedInt32Array of the ints `0..count`.
    Int32Array(usize),
}

/// Every stress case, by name (without its `encode/` or `decode/` prefix) and recipe. Counts past
/// 65,535 catch a 16-bit count; the sizes keep every answer within the runner's 4 MiB answer line.
pub const RECIPES: [(&str, Recipe); 7] = [
    ("stress/Array/65535_ints", Recipe::IntArray(65_535)),
    ("stress/Array/65536_ints", Recipe::IntArray(65_536)),
    ("stress/Array/100000_nils", Recipe::NilArray(100_000)),
    (
        "stress/Dictionary/65536_int_keys",
        Recipe::IntNilDictionary(65_536),
    ),
    ("stress/String/1MiB", Recipe::AsciiString(1 << 20)),
    (
        "stress/PackedByteArray/1000000",
        Recipe::ByteArray(1_000_000),
    ),
    ("stress/PackedInt32Array/65536", Recipe::Int32Array(65_536)),
];

impl Recipe {
    /// The value as tagged JSON.
    pub fn tree(self) -> Value {
        match self {
            Recipe::IntArray(n) => json!({"type": "Array", "value": (0..n)
                .map(|i| json!({"type": "int", "value": i.to_string()}))
                .collect::<Vec<_>>()}),
            Recipe::NilArray(n) => {
                json!({"type": "Array", "value": vec![json!({"type": "Nil"}); n]})
            }
            Recipe::IntNilDictionary(n) => json!({"type": "Dictionary", "value": (0..n)
                .map(|i| json!([{"type": "int", "value": i.to_string()}, {"type": "Nil"}]))
                .collect::<Vec<_>>()}),
            Recipe::AsciiString(n) => {
                let s: String = (0..n).map(|i| (b'a' + (i % 26) as u8) as char).collect();
                json!({"type": "String", "value": s})
            }
            Recipe::ByteArray(n) => {
                let b: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
                json!({"type": "PackedByteArray", "value": hex(&b)})
            }
            Recipe::Int32Array(n) => {
                json!({"type": "PackedInt32Array", "value": (0..n as i64).collect::<Vec<_>>()})
            }
        }
    }
}

/// One engine's answer to one stress case: a line of `corpus/stress.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StressRecord {
    /// The engine version, e.g. `4.6.3.stable`.
    pub engine: String,
    /// The case name, e.g. `decode/stress/Array/65536_ints`.
    pub name: String,
    /// How the value is built.
    pub recipe: Recipe,
    /// How the engine answered.
    pub verdict: Verdict,
    /// Decode: the bytes the engine consumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumed: Option<usize>,
    /// Length of the engine's bytes (its encoding, or its re-encoding of what it decoded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_len: Option<usize>,
    /// SHA-256 of those bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_sha256: Option<String>,
    /// Decode: SHA-256 of the decoded value as tagged JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_sha256: Option<String>,
    /// Fields that differed between two runs of the engine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nondeterministic: Vec<Field>,
}

fn text_sha(tree: &Value) -> String {
    sha256_hex(
        serde_json::to_string(tree)
            .expect("trees serialize")
            .as_bytes(),
    )
}

/// Why stress cases could not be made, recorded, read or rebuilt.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StressError {
    /// The corpus could not give the stress file.
    #[error(transparent)]
    Corpus(#[from] super::CorpusError),
    /// The stress file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line of the stress file is not a record (or not UTF-8).
    #[error(transparent)]
    Line(#[from] LineError),
    /// The codec cannot build a recipe's value.
    #[error("{case}: {problem}")]
    Recipe {
        /// The case (or recipe) name.
        case: String,
        /// Why.
        problem: RecipeError,
    },
    /// The engine could not answer the cases.
    #[error(transparent)]
    Unanswered(#[from] super::generate::GenerateFailed),
    /// An engine's answer holds bytes that are not hex.
    #[error("{case}: {error}")]
    Output {
        /// The case.
        case: String,
        /// Why.
        error: gdmarshal::hex::HexError,
    },
    /// The file has no record of the case for the engine.
    #[error("{case}: no stress record for Godot {engine}")]
    Missing {
        /// The case.
        case: String,
        /// The engine version.
        engine: String,
    },
    /// The codec rebuilds other bytes or another tree than the engine answered.
    #[error("{case} ({engine}): the codec's {what} for its recipe is not what the engine answered")]
    Differs {
        /// The case.
        case: String,
        /// The engine version.
        engine: String,
        /// `bytes` or `tree`.
        what: &'static str,
    },
}

/// Why the codec cannot build a recipe's value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecipeError {
    /// Its tree is not the profile's tagged JSON.
    #[error(transparent)]
    Value(#[from] gdmarshal::json::JsonError),
    /// The codec cannot encode it.
    #[error(transparent)]
    Encode(#[from] gdmarshal::EncodeError),
}

impl RecipeError {
    fn of(self, case: &str) -> StressError {
        StressError::Recipe {
            case: case.to_string(),
            problem: self,
        }
    }
}

/// The codec's encoding of a recipe's value.
fn encoded(recipe: Recipe, profile: Profile) -> Result<(Value, Vec<u8>), RecipeError> {
    let tree = recipe.tree();
    let value = from_json(&tree, profile)?;
    let bytes = encode(&value, profile, EncodeOptions::default())?;
    Ok((to_json(&value, profile, FloatStyle::Shortest), bytes))
}

/// The cases to ask an engine of `profile`: each recipe encoded, and its encoding decoded.
pub fn cases(profile: Profile) -> Result<Vec<(Case, Recipe)>, StressError> {
    let mut out = Vec::new();
    for (name, recipe) in RECIPES {
        let tree = recipe.tree();
        let value = from_json(&tree, profile).map_err(|e| RecipeError::from(e).of(name))?;
        let (_, input) = encoded(recipe, profile).map_err(|e| e.of(name))?;
        out.push((
            Case::Encode {
                name: format!("encode/{name}"),
                value,
                full_objects: false,
            },
            recipe,
        ));
        out.push((
            Case::Decode {
                name: format!("decode/{name}"),
                input,
                allow_objects: false,
            },
            recipe,
        ));
    }
    Ok(out)
}

/// Asks the engine every stress case (twice, as every corpus case) and returns its compact
/// records.
pub fn record(engine: &mut dyn EngineAnswerer) -> Result<Vec<StressRecord>, StressError> {
    let version = engine.version().to_string();
    let cases = cases(engine.profile())?;
    let plain: Vec<Case> = cases.iter().map(|(c, _)| c.clone()).collect();
    let records = generate(engine, &plain, &mut |_| {})?;
    records
        .into_iter()
        .zip(&cases)
        .map(|(r, (_, recipe))| {
            let bytes = match r.output.as_deref().map(unhex) {
                Some(Ok(b)) => Some(b),
                Some(Err(error)) => {
                    return Err(StressError::Output {
                        case: r.name.clone(),
                        error,
                    });
                }
                None => None,
            };
            Ok(StressRecord {
                engine: version.clone(),
                name: r.name.clone(),
                recipe: *recipe,
                verdict: r.verdict.clone(),
                consumed: r.consumed,
                output_len: bytes.as_ref().map(Vec::len),
                output_sha256: bytes.as_deref().map(sha256_hex),
                tree_sha256: match r.direction {
                    Direction::Decode => r.tree.as_ref().map(text_sha),
                    Direction::Encode => None,
                },
                nondeterministic: r.nondeterministic.clone(),
            })
        })
        .collect()
}

/// The stress file of a corpus folder.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Reads every line of the stress file of the folder `dir` (none when there is no file).
pub fn read(dir: &Path) -> Result<Vec<StressRecord>, StressError> {
    read_from(&Source::Dir(dir.to_path_buf()))
}

/// Reads every line of a corpus's stress file (none when there is no file).
pub fn read_from(source: &Source) -> Result<Vec<StressRecord>, StressError> {
    let file = source.path(FILE);
    let Some(bytes) = source.read(FILE)? else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = crate::bounded::line_of(e.as_bytes(), e.utf8_error().valid_up_to());
        LineError {
            path: file.clone(),
            line,
            message: "not UTF-8".into(),
        }
    })?;
    Ok(crate::error::json_lines(&file, &text)?)
}

/// Writes the stress file: `records` replace every line of their engines.
pub fn write(dir: &Path, records: &[StressRecord]) -> Result<(), StressError> {
    let engines: Vec<&str> = records.iter().map(|r| r.engine.as_str()).collect();
    let mut all: Vec<StressRecord> = read(dir)?
        .into_iter()
        .filter(|r| !engines.contains(&r.engine.as_str()))
        .collect();
    all.extend(records.iter().cloned());
    all.sort_by(|a, b| (&a.engine, &a.name).cmp(&(&b.engine, &b.name)));
    let mut text = String::new();
    for r in &all {
        text.push_str(&serde_json::to_string(r).expect("records serialize"));
        text.push('\n');
    }
    let file = path(dir);
    Ok(std::fs::write(&file, text).map_err(FileError::at(&file))?)
}

/// The stress cases of one engine version whose names `wanted` accepts, as stand-in records:
/// each holds its case's name, the engine's verdict and a value of one element built by the same
/// recipe (so that the types a case involves are known), not the large value itself.
/// [`materialize`] builds the real record when the case comes up, so that a run holds one
/// large value at a time.
pub fn stand_ins(
    source: &Source,
    engine: &str,
    profile: Profile,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Vec<Record>, StressError> {
    read_from(source)?
        .into_iter()
        .filter(|s| s.engine == engine && wanted(&s.name))
        .map(|s| {
            let small = match s.recipe {
                Recipe::IntArray(_) => Recipe::IntArray(1),
                Recipe::NilArray(_) => Recipe::NilArray(1),
                Recipe::IntNilDictionary(_) => Recipe::IntNilDictionary(1),
                Recipe::AsciiString(_) => Recipe::AsciiString(1),
                Recipe::ByteArray(_) => Recipe::ByteArray(1),
                Recipe::Int32Array(_) => Recipe::Int32Array(1),
            };
            let (tree, bytes) = encoded(small, profile).map_err(|e| e.of(&s.name))?;
            Ok(record_of(&s, tree, &bytes))
        })
        .collect()
}

/// Whether a record is a stand-in of [`stand_ins`]: a stress case.
pub fn is_stress(r: &Record) -> bool {
    r.name.split('/').nth(1) == Some("stress")
}

/// The real record of a stress case of `engine`, rebuilt from its recipe with this crate's codec
/// and checked against the engine's recorded hashes; an error names the case whose rebuilt bytes
/// or tree are not the engine's.
pub fn materialize(
    source: &Source,
    engine: &str,
    profile: Profile,
    name: &str,
) -> Result<Record, StressError> {
    let s = read_from(source)?
        .into_iter()
        .find(|s| s.engine == engine && s.name == name)
        .ok_or_else(|| StressError::Missing {
            case: name.to_string(),
            engine: engine.to_string(),
        })?;
    let (tree, bytes) = encoded(s.recipe, profile).map_err(|e| e.of(&s.name))?;
    let mismatch = |what: &'static str| StressError::Differs {
        case: s.name.clone(),
        engine: s.engine.clone(),
        what,
    };
    let unsteady = |f: Field| s.nondeterministic.contains(&f);
    let accepted = s.verdict == Verdict::Accepted;
    if accepted && !unsteady(Field::Output) && s.output_sha256 != Some(sha256_hex(&bytes)) {
        return Err(mismatch("bytes"));
    }
    let decode = s.name.starts_with("decode/");
    if decode && accepted && !unsteady(Field::Tree) && s.tree_sha256 != Some(text_sha(&tree)) {
        return Err(mismatch("tree"));
    }
    Ok(record_of(&s, tree, &bytes))
}

fn record_of(s: &StressRecord, tree: Value, bytes: &[u8]) -> Record {
    let decode = s.name.starts_with("decode/");
    let accepted = s.verdict == Verdict::Accepted;
    let unsteady = |f: Field| s.nondeterministic.contains(&f);
    Record {
        name: s.name.clone(),
        direction: if decode {
            Direction::Decode
        } else {
            Direction::Encode
        },
        input: decode.then(|| hex(bytes)),
        value: (!decode).then(|| tree.clone()),
        objects: false,
        verdict: s.verdict.clone(),
        consumed: s.consumed,
        tree: (decode && accepted).then_some(tree),
        output: (accepted && !unsteady(Field::Output)).then(|| hex(bytes)),
        nondeterministic: s.nondeterministic.clone(),
        unbuildable: None,
        error: String::new(),
    }
}

/// Every stress case of `engine` rebuilt ([`materialize`]): the check that the file and the
/// codec agree with the engine's answers.
pub fn check(source: &Source, engine: &str, profile: Profile) -> Result<usize, StressError> {
    let names: Vec<String> = read_from(source)?
        .into_iter()
        .filter(|s| s.engine == engine)
        .map(|s| s.name)
        .collect();
    for n in &names {
        materialize(source, engine, profile, n)?;
    }
    Ok(names.len())
}
