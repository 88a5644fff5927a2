//! The engines' classes, recorded beside their answers (`corpus/classes/godot-VERSION.json`):
//! what a decoder with objects depends on that the bytes do not carry. Each file holds an
//! engine's answers as given (godot_project/README.md): `classes` (every class, its parent and
//! whether it can be instantiated), `scripts` (4.x: its project's scripts), `defaults` (the
//! stored properties and defaults of the classes of the full objects in that engine's records)
//! and `scripted` (4.x: the same of those classes given the scripts the records' full objects
//! name).
//! Classes differ between builds of one version (an editor build has more than a template), so
//! these are the classes of the build that recorded the corpus. `classes/SHA256SUMS` holds each
//! file's SHA-256; `gdmarshal corpus classes` records them, and `corpus check` judges the codec
//! with them ([`gdmarshal::classes`]).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value, json};

use gdmarshal::classes::ClassList;
use gdmarshal::profile::Profile;

use super::integrity::{CorpusError, sha256_hex};
use super::source::Source;
use super::tree::{classes_in, scripted_in, scripted_in_input};
use crate::error::FileError;
use crate::model::Record;
use crate::oracle::classes::{class_defaults, class_list, scripted_defaults};
use crate::oracle::{AskError, Engine};

/// The folder, in the corpus folder.
pub const DIR: &str = "classes";

/// The checksum file: `SHA256  FILE` per classes file.
pub const SUMS: &str = "classes/SHA256SUMS";

/// The classes file of an engine version, relative to the corpus folder.
pub fn file_name(version: &str) -> String {
    format!("{DIR}/godot-{version}.json")
}

/// Asks `engine` for its classes, its project's scripts and the defaults of the classes of the
/// full objects in `records` (its corpus answers).
pub fn record(engine: &mut Engine, records: &[Record]) -> Result<Value, AskError> {
    let classes = engine.classes_answer()?;
    let mut wanted = BTreeSet::new();
    let mut scripted = BTreeSet::new();
    for r in records.iter().filter(|r| r.objects) {
        for t in [&r.tree, &r.value].into_iter().flatten() {
            classes_in(t, &mut wanted);
            scripted_in(t, &mut scripted);
        }
        if let Some(input) = r
            .input
            .as_deref()
            .and_then(|h| gdmarshal::hex::unhex(h).ok())
        {
            scripted_in_input(&input, engine.info().profile, &mut scripted);
        }
    }
    let wanted: Vec<String> = wanted.into_iter().collect();
    // Only a 4.x engine loads the scripts a full object names (its `classes` answer lists its
    // project's scripts); pairs of a script the project lacks are left out.
    let project: BTreeSet<&str> = classes
        .get("scripts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let scripted: Vec<(String, String)> = scripted
        .into_iter()
        .filter(|(_, s)| project.contains(s.as_str()))
        .collect();
    let defaults = engine.class_defaults_answer(&wanted, &scripted)?;
    let mut out = Map::new();
    for (key, answer) in [
        ("classes", &classes),
        ("scripts", &classes),
        ("defaults", &defaults),
        ("scripted", &defaults),
    ] {
        if let Some(v) = answer.get(key) {
            out.insert(key.to_string(), v.clone());
        }
    }
    Ok(Value::Object(out))
}

/// The file's text: one class, script or class's defaults a line, so that a diff shows which.
fn text(v: &Value) -> String {
    let mut parts = Vec::new();
    for (key, val) in v.as_object().into_iter().flatten() {
        let lines: Vec<String> = match val {
            Value::Array(a) => a.iter().map(Value::to_string).collect(),
            Value::Object(m) => m
                .iter()
                .map(|(k, x)| format!("{}: {x}", json!(k)))
                .collect(),
            other => vec![other.to_string()],
        };
        let (open, close) = if val.is_object() {
            ('{', '}')
        } else {
            ('[', ']')
        };
        parts.push(format!(
            "  {}: {open}\n    {}\n  {close}",
            json!(key),
            lines.join(",\n    ")
        ));
    }
    format!("{{\n{}\n}}\n", parts.join(",\n"))
}

/// Writes an engine's classes into the corpus folder `dir` and rewrites the checksums.
pub fn save(dir: &Path, version: &str, v: &Value) -> Result<(), FileError> {
    let sub = dir.join(DIR);
    std::fs::create_dir_all(&sub).map_err(FileError::at(&sub))?;
    let path = dir.join(file_name(version));
    std::fs::write(&path, text(v)).map_err(FileError::at(&path))?;
    super::sums::write(&sub, ".json")
}

/// The classes recorded for the engine whose answers the embedded corpus holds for `profile`
/// (its manifest names one engine per profile), loaded once per profile; `None` where there are
/// none or they cannot be read (`corpus check` reports why).
pub(crate) fn embedded_for(profile: Profile) -> Option<Arc<ClassList>> {
    static LOADED: OnceLock<Mutex<HashMap<String, Option<Arc<ClassList>>>>> = OnceLock::new();
    let key = profile.to_string();
    let mut loaded = LOADED.get_or_init(Default::default).lock().ok()?;
    if let Some(l) = loaded.get(&key) {
        return l.clone();
    }
    let source = Source::Embedded;
    let manifest = source.read("manifest.json").ok()??;
    let manifest: super::Manifest = serde_json::from_slice(&manifest).ok()?;
    let entry = manifest.engines.iter().find(|e| e.profile == key)?;
    let list = load(&source, &entry.version, profile)
        .ok()
        .flatten()
        .map(Arc::new);
    loaded.insert(key, list.clone());
    list
}

/// The classes recorded for an engine version, read in `profile`, after checking the file's
/// checksum; `None` where none are recorded.
pub fn load(
    source: &Source,
    version: &str,
    profile: Profile,
) -> Result<Option<ClassList>, CorpusError> {
    let name = file_name(version);
    let Some(bytes) = source.read(&name)? else {
        return Ok(None);
    };
    let file = source.path(&name);
    let problem = |problem: String| CorpusError::Classes {
        file: file.clone(),
        problem,
    };
    let sums = source.read(SUMS)?.unwrap_or_default();
    let listed = String::from_utf8_lossy(&sums).lines().find_map(|l| {
        let (sum, n) = l.split_once("  ")?;
        (n == name.trim_start_matches("classes/")).then(|| sum.to_string())
    });
    let actual = sha256_hex(&bytes);
    if listed.as_deref() != Some(actual.as_str()) {
        let listed = listed.unwrap_or_else(|| "no line".into());
        return Err(problem(format!(
            "SHA-256 is {actual}, but {SUMS} has {listed}: the file changed after it was recorded"
        )));
    }
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| CorpusError::Json {
        file: file.clone(),
        line: e.line(),
        message: e.to_string(),
    })?;
    let list = class_list(&v, profile)
        .ok_or_else(|| problem("no list of [name, parent, instantiable]".into()))?;
    let defaults = class_defaults(&v, profile).ok_or_else(|| problem("no defaults".into()))?;
    let list = defaults
        .into_iter()
        .fold(list, |l, (c, d)| l.with_defaults(c, d));
    // Files recorded before scripted defaults were asked have none.
    let scripted = scripted_defaults(&v, profile).unwrap_or_default();
    Ok(Some(scripted.into_iter().fold(list, |l, (c, s, d)| {
        l.with_scripted_defaults(c, s, d)
    })))
}
