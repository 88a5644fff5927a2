//! Differential campaigns: many deterministic random cases against real engines, each answer
//! classified, each disagreement minimized and saved as a reproducer that replays with one
//! command (`gdmarshal diff --replay FILE`).
//!
//! [`cases::make_case`] builds case `index` of a seed; [`classify::classify_batch`] runs a batch
//! on an engine and classifies every case ([`Class`]); [`minimize`] shrinks a finding while its
//! class stays the same; [`run_engine`] drives one engine through a whole campaign, or through
//! part of it when told to stop; [`log`] keeps one line per campaign in `findings/campaigns.jsonl`.

pub mod cases;
pub mod causes;
mod class;
pub mod classify;
pub mod from_bytes;
pub mod log;
pub(crate) mod minimize;
pub mod reasons;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ScopedJoinHandle;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use classify::{Class, Judged, classify_batch};

pub use classify::{CodecSide, EngineSide};
pub use reasons::{Reason, Uncompared};

use crate::corpus::known::Entry;
use crate::error::{FileError, LineError};
use crate::model::IncidentRecord;
use crate::model::answerer::EngineAnswerer;
use crate::model::case::Direction;
use crate::model::{Case, Record};
use gdmarshal::float::FloatStyle;
use gdmarshal::hex::{hex, unhex};
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;

/// Cases sent to an engine per batch.
pub const BATCH: usize = 500;

/// How a campaign runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The seed: the same seed gives the same cases.
    pub seed: u64,
    /// Cases per engine.
    pub cases: u64,
    /// Where reproducers go (`<dir>/<class>/<engine>-<hash>.json`); none when `None`.
    pub findings_dir: Option<PathBuf>,
    /// Most findings minimized and saved per class and engine; the rest are only counted.
    pub max_saved_per_class: usize,
    /// The expected differences (corpus/known-differences.txt).
    pub known: Vec<Entry>,
    /// Classes whose every case is checked against the open reproducers (see [`Gate`]); none
    /// when `None`.
    pub gate: Option<Gate>,
}

/// The kinds of finding already known and open: the engine and [`signature`] of each saved
/// reproducer (e.g. `findings/`). A finding of such a kind is *covered*: it is no news.
#[derive(Clone, Debug, Default)]
pub struct OpenKinds(HashSet<(String, String)>);

impl OpenKinds {
    /// The kinds of these reproducers (a file whose case cannot be rebuilt is left out).
    pub fn of<'a>(findings: impl IntoIterator<Item = &'a FindingFile>) -> OpenKinds {
        OpenKinds(
            findings
                .into_iter()
                .filter_map(|f| Some((f.engine.clone(), f.signature().ok()?)))
                .collect(),
        )
    }

    /// Whether a reproducer of this engine and signature is open.
    pub fn covers(&self, engine: &str, signature: &str) -> bool {
        self.0
            .contains(&(engine.to_string(), signature.to_string()))
    }

    /// How many kinds are open.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Classes whose cases a run checks against the open reproducers: each case of a gated class is
/// minimized (once per [`signature`]) and counted in [`EngineRun::uncovered`] unless its
/// minimized form has the kind of an open reproducer of the same engine. `gdmarshal diff
/// --fail-on CLASS` fails on uncovered cases only.
#[derive(Clone, Debug, Default)]
pub struct Gate {
    /// The classes checked.
    pub classes: Vec<Class>,
    /// The kinds known and open.
    pub open: OpenKinds,
}

/// A saved reproducer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingFile {
    /// The class.
    pub class: Class,
    /// The engine's name (e.g. `4.6`).
    pub engine: String,
    /// The version the engine reported.
    pub version: String,
    /// The format profile.
    pub profile: String,
    /// The campaign seed the finding came from (campaign findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The case index in that campaign (campaign findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// The differential fuzz target's input, hex, mode byte first (fuzz findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz_input: Option<String>,
    /// `decode` or `encode`.
    pub direction: Direction,
    /// Decode with objects allowed / encode with full objects.
    pub objects: bool,
    /// Decode: the minimized input, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Encode: the minimized value, tagged JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The case before minimization (hex or tagged JSON).
    pub original: Value,
    /// Why it was classified so.
    pub detail: String,
    /// The engine's answer to the minimized case.
    pub engine_answer: Record,
    /// The codec's answer to the minimized case.
    pub codec_answer: Value,
    /// The command that replays it.
    pub replay: String,
}

/// Why a reproducer file could not be read, or does not describe a case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FindingError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file is not a reproducer's JSON.
    #[error(transparent)]
    Parse(#[from] LineError),
    /// Its `profile` names no Godot version.
    #[error(transparent)]
    Profile(#[from] gdmarshal::profile::UnknownVersion),
    /// Its `input` is not hex.
    #[error("\"input\": {0}")]
    Input(#[from] gdmarshal::hex::HexError),
    /// Its `value` is not the profile's tagged JSON.
    #[error("\"value\": {0}")]
    Value(#[from] gdmarshal::json::JsonError),
    /// It has neither.
    #[error("the finding has neither a decode input nor an encode value")]
    Empty,
}

impl FindingFile {
    /// The case the file describes.
    pub fn case(&self) -> Result<Case, FindingError> {
        let profile: Profile = self.profile.parse()?;
        let name = match (self.seed, self.index) {
            (Some(seed), Some(index)) => format!("campaign/{seed}/{index}/replay"),
            _ => "fuzz/replay".to_string(),
        };
        match (self.direction, &self.input, &self.value) {
            (Direction::Decode, Some(h), _) => Ok(Case::Decode {
                name,
                input: unhex(h)?,
                allow_objects: self.objects,
            }),
            (Direction::Encode, _, Some(v)) => Ok(Case::Encode {
                name,
                value: from_json(v, profile)?,
                full_objects: self.objects,
            }),
            _ => Err(FindingError::Empty),
        }
    }

    /// Its kind: the [`signature`] of its (minimized) case and answer, as a run computes it for
    /// the findings it keeps.
    pub fn signature(&self) -> Result<String, FindingError> {
        let profile: Profile = self.profile.parse()?;
        let judged = Judged {
            class: self.class,
            record: self.engine_answer.clone(),
            detail: self.detail.clone(),
            reason: None,
            built_from_bytes: false,
        };
        Ok(signature(&self.case()?, &judged, profile))
    }

    /// Where the finding came from, in words: `campaign seed S case I` or `fuzz input HEX`.
    pub fn source(&self) -> String {
        match (self.seed, self.index, &self.fuzz_input) {
            (Some(seed), Some(index), _) => format!("campaign seed {seed} case {index}"),
            (_, _, Some(input)) => format!("fuzz input {input}"),
            _ => "unknown".to_string(),
        }
    }

    /// A shell line that shows the codec's side (decode findings only).
    pub fn codec_command(&self) -> Option<String> {
        self.input.as_ref().map(|h| {
            format!(
                "printf {h} | gdmarshal decode --godot {} --hex{}",
                self.profile,
                if self.objects { " --objects" } else { "" }
            )
        })
    }
}

/// How an engine's campaign ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunEnd {
    /// Every case asked for was run.
    #[default]
    Completed,
    /// The run was told to stop ([`run_engine`]'s `cancel`) and stopped at a batch boundary:
    /// cases `from..from + done` were run, the rest were not.
    Interrupted,
}

/// What one engine's campaign found.
#[derive(Clone, Debug, Default)]
pub struct EngineRun {
    /// The engine's name.
    pub engine: String,
    /// The version it reported.
    pub version: String,
    /// The first case index run.
    pub from: u64,
    /// Cases run (`from..from + done`); the counts add up to it.
    pub done: u64,
    /// Whether every case asked for was run.
    pub end: RunEnd,
    /// Seconds the engine's run took, minimizing included.
    pub secs: f64,
    /// Cases per class.
    pub counts: BTreeMap<Class, u64>,
    /// Engine-nondeterministic cases per cause (`causes::Cause::key`).
    pub nondeterministic_causes: BTreeMap<String, u64>,
    /// The cases not compared byte for byte (unsupported, known difference, engine
    /// nondeterministic), per class: how many per reason and per type.
    pub uncompared: BTreeMap<Class, Uncompared>,
    /// Encode cases whose value the engine built from the codec's bytes (no script could).
    pub built_from_bytes: u64,
    /// Cases of the gated classes ([`Config::gate`]) of a kind no open reproducer covers, per
    /// class.
    pub uncovered: BTreeMap<Class, u64>,
    /// Reproducers written (paths), and findings kept in memory when no folder is given.
    pub findings: Vec<(Option<PathBuf>, FindingFile)>,
    /// Every crash and hang of the engine during the run, with what the retries showed.
    pub incidents: Vec<IncidentRecord>,
    /// Connections to the engine's port refused during the run (not the engine's).
    pub refused: usize,
}

impl EngineRun {
    /// Cases nobody could answer.
    pub fn unanswered(&self) -> u64 {
        self.count(Class::Unanswered)
    }

    /// Cases of one class.
    pub fn count(&self, class: Class) -> u64 {
        self.counts.get(&class).copied().unwrap_or(0)
    }

    /// The first case index not run: where a resumed run starts.
    pub fn next(&self) -> u64 {
        self.from + self.done
    }

    /// Cases per second over the run (0 when it took no measurable time).
    pub fn rate(&self) -> f64 {
        if self.secs > 0.0 {
            self.done as f64 / self.secs
        } else {
            0.0
        }
    }
}

/// How far an engine's campaign has got, told after every batch.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Cases run so far.
    pub done: u64,
    /// Cases asked for.
    pub total: u64,
    /// Cases per class so far.
    pub counts: &'a BTreeMap<Class, u64>,
    /// The uncompared cases so far, per class, by reason and type.
    pub uncompared: &'a BTreeMap<Class, Uncompared>,
}

impl Progress<'_> {
    /// Cases of one class so far.
    pub fn count(&self, class: Class) -> u64 {
        self.counts.get(&class).copied().unwrap_or(0)
    }
}

/// FNV-1a 64 of the text: the hash in every saved reproducer's file name, so it must not change
/// (`Hasher::write` alone: `Hash for str` would add a terminator byte).
fn fnv(text: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    std::hash::Hasher::write(&mut h, text.as_bytes());
    std::hash::Hasher::finish(&h)
}

/// The classes of `cases` on the engine, or `None` each if the engine could not answer.
fn classes_of(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    known: &[Entry],
) -> Vec<Option<Class>> {
    classify_batch(engine, cases, known)
        .into_iter()
        .map(|j| Some(j.class))
        .collect()
}

/// Shrinks a finding while its class on the engine stays the same. Crashes and hangs are not
/// shrunk (every try would restart the engine); they are saved as found.
pub(crate) fn minimize_case(
    engine: &mut dyn EngineAnswerer,
    case: &Case,
    class: Class,
    known: &[Entry],
) -> Case {
    if matches!(class, Class::EngineCrash | Class::EngineHang) {
        return case.clone();
    }
    match case {
        Case::Decode {
            name,
            input,
            allow_objects,
        } => {
            let objects = *allow_objects;
            let min = minimize::minimize_bytes(input, &mut |cands| {
                let cs: Vec<Case> = cands
                    .iter()
                    .map(|b| Case::Decode {
                        name: name.clone(),
                        input: b.clone(),
                        allow_objects: objects,
                    })
                    .collect();
                classes_of(engine, &cs, known)
                    .into_iter()
                    .map(|c| c == Some(class))
                    .collect()
            });
            Case::Decode {
                name: name.clone(),
                input: min,
                allow_objects: objects,
            }
        }
        Case::Encode {
            name,
            value,
            full_objects,
        } => {
            let objects = *full_objects;
            let min = minimize::minimize_value(value, &mut |cands| {
                let cs: Vec<Case> = cands
                    .iter()
                    .map(|v| Case::Encode {
                        name: name.clone(),
                        value: v.clone(),
                        full_objects: objects,
                    })
                    .collect();
                classes_of(engine, &cs, known)
                    .into_iter()
                    .map(|c| c == Some(class))
                    .collect()
            });
            Case::Encode {
                name: name.clone(),
                value: min,
                full_objects: objects,
            }
        }
    }
}

fn case_text(case: &Case, profile: Profile) -> Value {
    match case {
        Case::Decode { input, .. } => Value::String(hex(input)),
        Case::Encode { value, .. } => to_json(value, profile, FloatStyle::Shortest),
    }
}

/// Where a finding came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Case `index` of a campaign with this seed.
    Campaign {
        /// The seed.
        seed: u64,
        /// The case index.
        index: u64,
    },
    /// An input of the differential fuzz target (mode byte first).
    Fuzz {
        /// The input.
        input: Vec<u8>,
    },
}

/// Builds the reproducer of a minimized case from the engine's fresh answer to it.
#[allow(clippy::too_many_arguments)]
fn finding_file(
    engine_name: &str,
    version: &str,
    profile: Profile,
    origin: &Origin,
    original: &Case,
    min: &Case,
    judged: &Judged,
    dir: Option<&Path>,
) -> (Option<PathBuf>, FindingFile) {
    let text = case_text(min, profile);
    let (direction, objects) = (min.direction(), min.objects());
    let (input, value) = match min {
        Case::Decode { input, .. } => (Some(hex(input)), None),
        Case::Encode { value, .. } => (None, Some(to_json(value, profile, FloatStyle::Shortest))),
    };
    let file = format!(
        "{}-{:016x}.json",
        engine_name,
        fnv(&format!("{direction}{objects}{text}"))
    );
    let path = dir.map(|d| d.join(judged.class.name()).join(file));
    let (seed, index, fuzz_input) = match origin {
        Origin::Campaign { seed, index } => (Some(*seed), Some(*index), None),
        Origin::Fuzz { input } => (None, None, Some(hex(input))),
    };
    let replay = match (&path, origin) {
        (Some(p), _) => format!("gdmarshal diff --replay {}", p.display()),
        (None, Origin::Campaign { seed, index }) => {
            format!("gdmarshal diff --engine {engine_name} --seed {seed} --from {index} --cases 1")
        }
        (None, Origin::Fuzz { .. }) => String::new(),
    };
    (
        path,
        FindingFile {
            class: judged.class,
            engine: engine_name.to_string(),
            version: version.to_string(),
            profile: profile.to_string(),
            seed,
            index,
            fuzz_input,
            direction,
            objects,
            input,
            value,
            original: case_text(original, profile),
            detail: judged.detail.clone(),
            engine_answer: judged.record.clone(),
            codec_answer: classify::codec_answer(min, profile),
            replay,
        },
    )
}

/// Minimizes a finding on the engine, asks the engine the minimized case afresh and writes its
/// reproducer under `dir` (`<dir>/<class>/<engine>-<hash>.json`), for campaigns and the
/// differential fuzz target alike; returns the path (none without `dir`) and the file.
pub fn keep_finding(
    engine: &mut dyn EngineAnswerer,
    known: &[Entry],
    origin: &Origin,
    case: &Case,
    judged: &Judged,
    dir: Option<&Path>,
) -> Result<(Option<PathBuf>, FindingFile), FileError> {
    let profile = engine.profile();
    let version = engine.version().to_string();
    let name = engine.name().to_string();
    let min = minimize_case(engine, case, judged.class, known);
    // The minimized case's own answer (a nondeterministic one may not repeat: keep the
    // original's then).
    let fresh = classify_batch(engine, std::slice::from_ref(&min), known)
        .pop()
        .filter(|f| f.class == judged.class);
    let (min, judged_min) = match fresh {
        Some(f) => (min, f),
        None => (case.clone(), judged.clone()),
    };
    let (path, file) = finding_file(
        &name,
        &version,
        profile,
        origin,
        case,
        &min,
        &judged_min,
        dir,
    );
    if let Some(p) = &path {
        save_finding(p, &file)?;
    }
    Ok((path, file))
}

/// Writes a reproducer (pretty JSON, one file).
pub(crate) fn save_finding(path: &Path, f: &FindingFile) -> Result<(), FileError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(FileError::at(parent))?;
    }
    let mut text = serde_json::to_string_pretty(f).expect("findings serialize");
    text.push('\n');
    std::fs::write(path, text).map_err(FileError::at(path))
}

/// Reads a reproducer.
pub fn load_finding(path: &Path) -> Result<FindingFile, FindingError> {
    let text = crate::bounded::read_text(path).map_err(FileError::at(path))?;
    gdmarshal::json::parse_deep(&text).map_err(|e| {
        FindingError::Parse(LineError {
            path: path.to_path_buf(),
            line: e.line(),
            message: e.to_string(),
        })
    })
}

/// Every reproducer under a folder, sorted by path.
pub fn load_findings(dir: &Path) -> Vec<(PathBuf, FindingFile)> {
    let mut out = Vec::new();
    let Ok(classes) = std::fs::read_dir(dir) else {
        return out;
    };
    for c in classes.flatten() {
        let Ok(files) = std::fs::read_dir(c.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "json")
                && let Ok(ff) = load_finding(&p)
            {
                out.push((p, ff));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// What makes two findings the same for saving: class, direction, top-level type and the shape
/// of the reason (numbers and hex left out).
pub fn signature(case: &Case, j: &Judged, profile: Profile) -> String {
    let top = match case {
        Case::Decode { input, .. } => format!("decode {}", input.first().copied().unwrap_or(255)),
        Case::Encode { value, .. } => format!("encode {}", value.get_type().name()),
    };
    let _ = profile;
    let shape: String = j
        .detail
        .chars()
        .filter(|c| !c.is_ascii_hexdigit())
        .take(60)
        .collect();
    format!("{} {top} {shape}", j.class)
}

/// Runs cases `from..from + cfg.cases` of the seed on one engine; `progress` is told after every
/// batch how far the run has got. When `cancel` is set the run stops before its next batch (a
/// batch under way is finished, its findings minimized and saved) and ends
/// [`RunEnd::Interrupted`], with the counts of the cases it ran.
///
/// Three things overlap, as the engine is the slow part: a thread makes the cases of the
/// batches ahead, and the codec judges one batch on a thread of its own while the engine answers
/// the next. What each batch is asked and how it is classified are as [`classify_batch`] does.
pub fn run_engine(
    engine: &mut dyn EngineAnswerer,
    version: &str,
    cfg: &Config,
    from: u64,
    progress: &dyn Fn(&Progress),
    cancel: &AtomicBool,
) -> Result<EngineRun, FileError> {
    let started = Instant::now();
    let profile = engine.profile();
    let mut run = EngineRun {
        engine: engine.name().to_string(),
        version: version.to_string(),
        from,
        ..Default::default()
    };
    let mut tally = Tally::default();
    let end = from + cfg.cases;
    let sources = cases::mutation_sources(profile);
    std::thread::scope(|scope| -> Result<(), FileError> {
        let batches = batch_maker(scope, cfg.seed, from..end, profile, sources);
        // The batch the codec is judging: its first index, its cases and the judging thread.
        let mut judging: Option<(u64, Vec<Case>, ScopedJoinHandle<'_, CodecSide>)> = None;
        loop {
            let next = if cancel.load(Ordering::SeqCst) {
                None
            } else {
                batches.recv().ok()
            };
            let asked = next.map(|(start, batch)| {
                let side = classify::engine_side_of(engine, &batch);
                (start, batch, side)
            });
            if let Some((start, batch, handle)) = judging.take() {
                let codec_side = handle.join().expect("the codec's judging does not panic");
                let judged = classify::recheck(engine, &batch, codec_side);
                tally.batch(engine, cfg, &mut run, start, &batch, judged)?;
                progress(&Progress {
                    done: run.done,
                    total: cfg.cases,
                    counts: &run.counts,
                    uncompared: &run.uncompared,
                });
            }
            let Some((start, batch, side)) = asked else {
                break;
            };
            let known = &cfg.known;
            judging = Some((start, batch, scope.spawn(move || side.judge(known))));
        }
        Ok(())
    })?;
    if run.done < cfg.cases {
        run.end = RunEnd::Interrupted;
    }
    run.secs = started.elapsed().as_secs_f64();
    Ok(run)
}

/// A thread making the campaign's cases in batches of [`BATCH`], in order, a few batches ahead
/// of the engine; each comes with its first index. It stops when the receiver is dropped.
fn batch_maker<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    seed: u64,
    indices: std::ops::Range<u64>,
    profile: Profile,
    sources: Vec<Vec<u8>>,
) -> std::sync::mpsc::Receiver<(u64, Vec<Case>)> {
    let (tx, rx) = std::sync::mpsc::sync_channel(2);
    scope.spawn(move || {
        let mut start = indices.start;
        while start < indices.end {
            let stop = (start + BATCH as u64).min(indices.end);
            let batch: Vec<Case> = (start..stop)
                .map(|i| cases::make_case(seed, i, profile, &sources))
                .collect();
            if tx.send((start, batch)).is_err() {
                return;
            }
            start = stop;
        }
    });
    rx
}

/// What a run has met so far beyond its counts: the findings saved per class, and the kinds
/// (signatures) met, each with whether an open reproducer covers it.
#[derive(Default)]
struct Tally {
    saved_per_class: BTreeMap<Class, usize>,
    kinds: BTreeMap<String, bool>,
}

impl Tally {
    /// Counts a judged batch (cases `start..`) into the run, and minimizes and saves each
    /// finding of a kind not met before.
    fn batch(
        &mut self,
        engine: &mut dyn EngineAnswerer,
        cfg: &Config,
        run: &mut EngineRun,
        start: u64,
        batch: &[Case],
        judged: Vec<Judged>,
    ) -> Result<(), FileError> {
        let profile = engine.profile();
        for (k, j) in judged.iter().enumerate() {
            *run.counts.entry(j.class).or_default() += 1;
            if j.class == Class::EngineNondeterministic {
                let cause = causes::nondeterministic_in_campaign(&j.record);
                *run.nondeterministic_causes
                    .entry(cause.key().to_string())
                    .or_default() += 1;
            }
            run.built_from_bytes += u64::from(j.built_from_bytes);
            if let Some(reason) = j.reason {
                run.uncompared
                    .entry(j.class)
                    .or_default()
                    .add(reason, &reasons::case_type(&batch[k], profile));
            }
            if !j.class.is_finding() {
                continue;
            }
            let gate = cfg.gate.as_ref().filter(|g| g.classes.contains(&j.class));
            let kind = signature(&batch[k], j, profile);
            if let Some(&covered) = self.kinds.get(&kind) {
                if gate.is_some() && !covered {
                    *run.uncovered.entry(j.class).or_default() += 1;
                }
                continue;
            }
            let n = self.saved_per_class.entry(j.class).or_default();
            let save = *n < cfg.max_saved_per_class;
            if !save && gate.is_none() {
                continue;
            }
            if save {
                *n += 1;
            }
            let origin = Origin::Campaign {
                seed: cfg.seed,
                index: start + k as u64,
            };
            let dir = cfg.findings_dir.as_deref().filter(|_| save);
            let (path, file) = keep_finding(engine, &cfg.known, &origin, &batch[k], j, dir)?;
            let covered = gate.is_some_and(|g| {
                file.signature()
                    .is_ok_and(|sig| g.open.covers(&file.engine, &sig))
            });
            self.kinds.insert(kind, covered);
            if gate.is_some() && !covered {
                *run.uncovered.entry(j.class).or_default() += 1;
            }
            if save {
                run.findings.push((path, file));
            }
        }
        run.incidents.extend(engine.take_incidents());
        run.refused = engine.refused();
        run.done += batch.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reproducer_names_hash_with_fnv_1a_64() {
        // FNV-1a's published test vectors: the names of the findings saved so far stay theirs.
        assert_eq!(super::fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv("foobar"), 0x8594_4171_f739_67e8);
    }
}
