//! The conformance runner: any program that speaks the testee protocol (docs/conformance.md),
//! judged against the real engines' answers in the corpus.
//!
//! The judging is [`crate::corpus::run::run`] (the same judge and expected-failure rules that
//! check this crate's own codec); this module selects the cases, runs them through one or more
//! testee processes ([`testee::Testee`]) and keeps what a report needs: [`report`] renders it as
//! text, JSON or JUnit XML.

mod answers;
pub mod excerpt;
pub mod limits;
pub mod live;
pub mod report;
pub mod score;
pub mod serve;
pub mod testee;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::Value;

use crate::answer::Answer;
use crate::case::Direction;
use crate::corpus::known::Entry;
use crate::corpus::run::{CaseResult, Settled, run};
use crate::corpus::{
    EngineCorpus, Mismatch, Record, RejectKind, RejectionKind, SkipReason, Undeclared,
};
use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;

use limits::{MAX_KEPT_TREE, MAX_REPORT_LINE, truncate};
use score::Score;
use testee::{Hello, Testee};

/// What to run.
pub struct Options {
    /// The testee command line (run by `sh -c`).
    pub testee: String,
    /// `decode`, `encode`, or both.
    pub directions: Vec<Direction>,
    /// Only cases matching one of these globs (all when empty).
    pub run: Vec<String>,
    /// Not the cases matching one of these globs.
    pub skip: Vec<String>,
    /// Expected failures.
    pub known: Vec<Entry>,
    /// Testee processes.
    pub jobs: usize,
    /// Time a testee has for one answer.
    pub timeout: Duration,
    /// Time a testee has to answer the handshake, each time it is started.
    pub handshake_timeout: Duration,
    /// The run stops after this many requests in a row that the testee crashed or hung on (in
    /// any one testee process and its restarts); the cases not run fail. 0: never.
    pub max_failures_in_a_row: usize,
    /// The cases are a sample (live mode), not the whole corpus: an expected-failure entry that
    /// matches none of them is not stale.
    pub sample: bool,
    /// Send the cases the handshake does not claim too, and report them apart
    /// (`--probe-undeclared`): they never fail the run.
    pub probe_undeclared: bool,
    /// A rejection passes a rejected case only when the kind it states is the expected one
    /// (`--strict-errors`; [`crate::corpus::RejectionKind`]).
    pub strict_errors: bool,
    /// Builds a record's full form when its case comes up (a stress case's stand-in becomes
    /// its large value: [`crate::corpus::stress`]); `None`: records are used as they are.
    pub expand: Option<Expand>,
}

/// See [`Options::expand`]: the full record, or why it cannot be built.
pub type Expand = Box<dyn Fn(&Record) -> Result<Record, String> + Send + Sync>;

impl Options {
    /// The defaults of `gdmarshal conform` for a testee command: every case of both
    /// directions, one process, 5 s per answer and for the handshake.
    pub fn new(testee: String) -> Options {
        Options {
            testee,
            directions: vec![Direction::Decode, Direction::Encode],
            run: Vec::new(),
            skip: Vec::new(),
            known: Vec::new(),
            jobs: 1,
            timeout: Duration::from_secs(5),
            handshake_timeout: Duration::from_secs(5),
            max_failures_in_a_row: limits::DEFAULT_MAX_FAILURES_IN_A_ROW,
            sample: false,
            probe_undeclared: false,
            strict_errors: false,
            expand: None,
        }
    }
}

/// One case after the run, with what a report shows.
///
/// Only what a report needs is kept, so that a run's memory does not grow with what a testee
/// answers: the answer itself is dropped once the case is judged (`details` holds what reports
/// show of it), a testee's tree of more than [`MAX_KEPT_TREE`] bytes in the mismatch is
/// replaced by a note (`message` keeps the first [`MAX_REPORT_LINE`] bytes of each line), and the
/// record's input, value, tree and bytes of more than [`MAX_KEPT_TREE`] bytes are dropped.
#[derive(Clone, Debug)]
pub struct Case {
    /// The judged case, without the testee's answer.
    pub result: CaseResult,
    /// The type family the case belongs to (e.g. `float`, `Array`, `unknown_type`).
    pub family: String,
    /// What reports say of the case: the judge's message, the skip reason or the
    /// expected-failure entry; empty for a pass. Each line at most [`MAX_REPORT_LINE`] bytes.
    pub message: String,
    /// The detail lines of a failing case (see [`report::details`]); empty for the others.
    pub details: Vec<String>,
    /// The case was not run: the run stopped early ([`Conformance::stopped`]) before it came up.
    /// It counts as a failure.
    pub not_run: bool,
    /// How the case counts in the report.
    pub score: Score,
    /// What the testee's handshake does not claim that the case needs: such a case is skipped,
    /// or sent anyway with `--probe-undeclared` and then reported apart, never failing the run.
    pub unclaimed: Option<Undeclared>,
    /// The time the case took (asking the testee and judging its answer).
    pub elapsed: Duration,
}

impl Case {
    /// A judged case, keeping what reports show of it.
    pub fn new(mut result: CaseResult, profile: Profile) -> Case {
        let family = family(&result.record, profile);
        let message = clip_lines(&report::message(&result.settled));
        let details = if is_failure(&result.settled) {
            report::details(profile, &result)
                .into_iter()
                .map(|l| truncate(&l, MAX_REPORT_LINE))
                .collect()
        } else {
            Vec::new()
        };
        result.answer = None;
        lighten(&mut result.settled);
        lighten_record(&mut result.record);
        let score = Score::of(&result.settled, &result.record);
        Case {
            result,
            family,
            message,
            details,
            not_run: false,
            score,
            unclaimed: None,
            elapsed: Duration::ZERO,
        }
    }

    /// A case whose record could not be built ([`Options::expand`]): a failure.
    fn unbuildable(engine: &str, record: Record, profile: Profile, why: String) -> Case {
        Case::new(
            CaseResult {
                engine: engine.to_string(),
                name: record.name.clone(),
                record,
                answer: None,
                settled: Settled::Fail(Mismatch::BadRecord {
                    what: crate::corpus::RecordDefect::UnreadableValue(why),
                }),
            },
            profile,
        )
    }

    /// A case not run because the run stopped early.
    fn not_run(engine: &str, record: Record, profile: Profile) -> Case {
        let mut case = Case::new(
            CaseResult {
                engine: engine.to_string(),
                name: record.name.clone(),
                record,
                answer: None,
                settled: Settled::Fail(Mismatch::NoAnswer {
                    reason: "not run: the run stopped early".into(),
                }),
            },
            profile,
        );
        case.not_run = true;
        case
    }
}

/// Each line of `text` cut to [`MAX_REPORT_LINE`] bytes.
fn clip_lines(text: &str) -> String {
    if text.lines().all(|l| l.len() <= MAX_REPORT_LINE) {
        return text.to_string();
    }
    text.lines()
        .map(|l| truncate(l, MAX_REPORT_LINE))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Counts bytes written.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Replaces a testee's tree of more than [`MAX_KEPT_TREE`] bytes (as JSON) in a mismatch by a
/// note, once the case's message and details are written.
fn lighten(settled: &mut Settled) {
    if let Settled::Fail(
        Mismatch::Value { got: tree, .. } | Mismatch::AcceptsRejected { tree, .. },
    ) = settled
    {
        let mut size = Count(0);
        let _ = serde_json::to_writer(&mut size, tree);
        if size.0 > MAX_KEPT_TREE {
            *tree = Value::String(format!("(a tree of {} bytes of JSON, not kept)", size.0));
        }
    }
}

/// Drops the fields of a judged case's record that are larger than [`MAX_KEPT_TREE`] bytes (a
/// stress case's input, value, tree and bytes): what reports show of them is in the case's
/// message and details already, and a run keeps every case.
fn lighten_record(r: &mut Record) {
    let big = |s: &Option<String>| s.as_ref().is_some_and(|s| s.len() > MAX_KEPT_TREE);
    if big(&r.input) {
        r.input = None;
    }
    if big(&r.output) {
        r.output = None;
    }
    for tree in [&mut r.value, &mut r.tree] {
        if tree.is_some() {
            let mut size = Count(0);
            let _ = serde_json::to_writer(&mut size, &*tree);
            if size.0 > MAX_KEPT_TREE {
                *tree = None;
            }
        }
    }
}

/// An expected-failure entry that is out of date.
#[derive(Clone, Debug)]
pub struct Stale {
    /// The entry's `file:line`.
    pub origin: String,
    /// Why it is stale.
    pub why: String,
}

/// The outcome of a conformance run.
pub struct Conformance {
    /// The testee's handshake.
    pub hello: Hello,
    /// The testee command.
    pub command: String,
    /// The engine version of the corpus.
    pub engine: String,
    /// The format profile.
    pub profile: Profile,
    /// Every case of the corpus that `--run`/`--skip`/`--direction` selected, in corpus order.
    pub cases: Vec<Case>,
    /// Out-of-date expected-failure entries.
    pub stale: Vec<Stale>,
    /// The expected-failure entries used.
    pub known: Vec<Entry>,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Testee processes started (including restarts after crashes and hangs).
    pub starts: usize,
    /// Why the run stopped early, if it did (`--max-failures-in-a-row`): the cases it did not
    /// run are failures with their [`not_run`](Case#structfield.not_run) set.
    pub stopped: Option<String>,
}

impl Conformance {
    /// Whether the run passed: no failure or unexpected pass among the cases the testee claims,
    /// no stale entry, no unknown type name in the handshake.
    pub fn passed(&self) -> bool {
        self.stale.is_empty()
            && self.hello.unknown_types.is_empty()
            && !self.cases.iter().any(|c| c.counts() && c.score.fails())
    }

    /// Whether the testee's handshake claims the run's engine version.
    pub fn claims_version(&self) -> bool {
        claims_version(&self.hello, self.profile)
    }
}

impl Case {
    /// Whether the case counts toward the run's result: it is claimed by the testee.
    pub fn counts(&self) -> bool {
        self.unclaimed.is_none()
    }
}

fn claims_version(hello: &Hello, profile: Profile) -> bool {
    hello
        .versions
        .covers(&profile.to_string(), &[&profile.major().to_string()])
}

/// Whether a settled case makes the run fail.
pub fn is_failure(s: &Settled) -> bool {
    matches!(s, Settled::Fail(_) | Settled::UnexpectedPass(_))
}

/// Checks a case-name glob (for `--run` / `--skip`), so that a bad one is refused before any
/// testee starts.
pub fn check_glob(pattern: &str) -> Result<String, String> {
    Glob::new(pattern)
        .map(|_| pattern.to_string())
        .map_err(|e| e.to_string())
}

fn globs(patterns: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        b.add(Glob::new(p).map_err(|e| format!("{p:?}: {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// The type a decode input's header names, if the profile knows the id.
fn header_type(r: &Record, profile: Profile) -> Option<VariantType> {
    let bytes = gdmarshal::json::unhex(r.input.as_deref()?).ok()?;
    let id = *bytes.first()? as u32;
    profile.type_of(id)
}

fn node_type(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

/// The type family of a case: the type its name names (`encode/<T>/…`, `decode/valid/<T>/…`),
/// else the type of its value or of its input's header, else its name's second segment.
pub fn family(r: &Record, profile: Profile) -> String {
    let segs: Vec<&str> = r.name.split('/').collect();
    for s in segs.iter().skip(1).take(2) {
        if let Some(t) = VariantType::from_name(s) {
            return t.name().to_string();
        }
    }
    if let Some(t) = r.value.as_ref().or(r.tree.as_ref()).and_then(node_type) {
        return VariantType::from_name(t)
            .map(|t| t.name().to_string())
            .unwrap_or_else(|| t.to_string());
    }
    if let Some(t) = header_type(r, profile) {
        return t.name().to_string();
    }
    segs.get(1).unwrap_or(&"other").to_string()
}

pub(crate) fn collect_types(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(t) = m.get("type").and_then(Value::as_str) {
                out.insert(
                    VariantType::from_name(t)
                        .map(|t| t.name().to_string())
                        .unwrap_or_else(|| t.to_string()),
                );
            }
            for v in m.values() {
                collect_types(v, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_types(v, out)),
        _ => {}
    }
}

/// Every type a case involves: the types in its value and tree, and its input header's type.
pub fn case_types(r: &Record, profile: Profile) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for v in [&r.value, &r.tree].into_iter().flatten() {
        collect_types(v, &mut out);
    }
    if let Some(t) = header_type(r, profile) {
        out.insert(t.name().to_string());
    }
    out
}

/// What the testee's handshake leaves out that a case needs, if anything.
pub fn undeclared(hello: &Hello, r: &Record, profile: Profile) -> Option<Undeclared> {
    let version = profile.to_string();
    let major = profile.major().to_string();
    if !hello.versions.covers(&version, &[&major]) {
        return Some(Undeclared::Version(version));
    }
    if !hello.capabilities.claims(r.direction.as_str()) {
        return Some(Undeclared::Direction(r.direction.to_string()));
    }
    let missing: Vec<String> = case_types(r, profile)
        .into_iter()
        .filter(|t| !hello.types.covers(t, &[]))
        .collect();
    if !missing.is_empty() {
        return Some(Undeclared::Types(missing));
    }
    None
}

/// What one runner thread returns: its cases with their corpus positions, and how many testee
/// processes it started.
type Part = (Vec<(usize, Case)>, usize);

/// The records `--run`, `--skip` and `--direction` select, in corpus order; an error naming the
/// first `--run` glob that matches no case of the corpus at all.
fn select<'c>(corpus: &'c EngineCorpus, o: &Options) -> Result<Vec<&'c Record>, String> {
    let run_set = globs(&o.run)?;
    let skip_set = globs(&o.skip)?;
    for pattern in &o.run {
        let one = globs(std::slice::from_ref(pattern))?;
        if !corpus.records.iter().any(|r| one.is_match(&r.name)) {
            return Err(format!(
                "--run {pattern:?} matches no case of Godot {} (case names: docs/corpus.md)",
                corpus.entry.version
            ));
        }
    }
    let selected: Vec<&Record> = corpus
        .records
        .iter()
        .filter(|r| {
            (o.run.is_empty() || run_set.is_match(&r.name))
                && !skip_set.is_match(&r.name)
                && o.directions.contains(&r.direction)
        })
        .collect();
    if selected.is_empty() && !o.run.is_empty() {
        return Err(format!(
            "--run, --skip and --direction leave no case of Godot {} to run",
            corpus.entry.version
        ));
    }
    Ok(selected)
}

/// With `--strict-errors`: a rejection that passed a rejected decode case, held to the kind the
/// case expects (this crate's codec's kind for the input; none where the codec accepts it).
fn strict_kind(result: &mut CaseResult, profile: Profile, known: &[Entry]) {
    let (Settled::Pass, Some(Answer::Rejected(rejection))) = (&result.settled, &result.answer)
    else {
        return;
    };
    let Some(expected) = expected_kind(&result.record, profile) else {
        return;
    };
    let got = match rejection.kind {
        Some(RejectKind::Stated(k)) => Some(k),
        _ => None,
    };
    if got == Some(expected) {
        return;
    }
    let version = &result.engine;
    result.settled = match known.iter().find(|k| k.matches(version, &result.name)) {
        Some(k) => Settled::ExpectedFail(format!("{}: {}", k.origin, k.reason)),
        None => Settled::Fail(Mismatch::RejectionKind {
            expected,
            got,
            rejection: rejection.clone(),
        }),
    };
}

/// The kind of rejection a rejected decode case expects: the kind of this crate's codec's
/// refusal of its input.
pub fn expected_kind(r: &Record, profile: Profile) -> Option<RejectionKind> {
    if r.direction != Direction::Decode || r.verdict != crate::corpus::Verdict::Rejected {
        return None;
    }
    let input = gdmarshal::json::unhex(r.input.as_deref()?).ok()?;
    let options = gdmarshal::decode::DecodeOptions {
        allow_objects: r.objects,
    };
    match gdmarshal::decode::decode(&input, profile, options) {
        Err(e) => RejectionKind::of_decode(&e.kind),
        Ok(_) => None,
    }
}

/// Whether `--run`, `--skip` and `--direction` select a case name (without checking the
/// globs against a corpus): for building only the stress cases a run needs.
pub fn selects(o: &Options) -> Result<impl Fn(&str) -> bool + '_, String> {
    let run_set = globs(&o.run)?;
    let skip_set = globs(&o.skip)?;
    Ok(move |name: &str| {
        let direction = match name.split('/').next() {
            Some("decode") => Some(Direction::Decode),
            Some("encode") => Some(Direction::Encode),
            _ => None,
        };
        (o.run.is_empty() || run_set.is_match(name))
            && !skip_set.is_match(name)
            && direction.is_none_or(|d| o.directions.contains(&d))
    })
}

/// Runs the selected cases of one engine's corpus through the testee.
pub fn conform(corpus: &EngineCorpus, o: &Options) -> Result<Conformance, String> {
    let started = Instant::now();
    let profile = corpus.profile;
    let selected = select(corpus, o)?;
    let first = Testee::start(&o.testee, o.timeout, o.handshake_timeout, profile)?;
    let hello = first.hello().clone();
    let known: Vec<Entry> = o.known.iter().chain(&hello.expect_fail).cloned().collect();

    // Undeclared cases are settled here as skipped, or marked to be reported apart.
    let mut slots: Vec<Option<Case>> = Vec::new();
    let mut todo: Vec<(usize, &Record, Option<Undeclared>)> = Vec::new();
    for r in selected {
        let index = slots.len();
        match undeclared(&hello, r, profile) {
            Some(why) if !o.probe_undeclared => {
                let mut case = Case::new(
                    CaseResult {
                        engine: corpus.entry.version.clone(),
                        name: r.name.clone(),
                        record: r.clone(),
                        answer: None,
                        settled: Settled::Skip(SkipReason::Undeclared(why.clone())),
                    },
                    profile,
                );
                case.unclaimed = Some(why);
                slots.push(Some(case));
            }
            why => {
                slots.push(None);
                todo.push((index, r, why));
            }
        }
    }

    let jobs = o.jobs.clamp(1, todo.len().max(1));
    let mut chunks: Vec<Vec<(usize, &Record, Option<Undeclared>)>> = vec![Vec::new(); jobs];
    for (i, item) in todo.into_iter().enumerate() {
        chunks[i % jobs].push(item);
    }
    let mut first = Some(first);
    let stop: OnceLock<String> = OnceLock::new();
    let outcomes: Vec<Result<Part, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let testee = first.take();
                let known = &known;
                let stop = &stop;
                std::thread::Builder::new()
                    .stack_size(1 << 28)
                    .spawn_scoped(s, move || {
                        let mut testee = match testee {
                            Some(t) => t,
                            None => {
                                Testee::start(&o.testee, o.timeout, o.handshake_timeout, profile)?
                            }
                        };
                        let mut cases = Vec::with_capacity(chunk.len());
                        // One case at a time: its answer is dropped before the next is asked.
                        for (i, record, unclaimed) in chunk {
                            if stop.get().is_some() {
                                let engine = &corpus.entry.version;
                                let mut case = Case::not_run(engine, record.clone(), profile);
                                case.unclaimed = unclaimed;
                                cases.push((i, case));
                                continue;
                            }
                            let asked = Instant::now();
                            // One record at a time is copied (or built: a stress case's tree
                            // is large).
                            let full = match &o.expand {
                                Some(expand) => expand(record),
                                None => Ok(record.clone()),
                            };
                            let full = match full {
                                Ok(r) => r,
                                Err(why) => {
                                    let engine = &corpus.entry.version;
                                    let mut case = Case::unbuildable(engine, record.clone(), profile, why);
                                    case.unclaimed = unclaimed;
                                    cases.push((i, case));
                                    continue;
                                }
                            };
                            let part = EngineCorpus {
                                entry: corpus.entry.clone(),
                                profile,
                                records: vec![full],
                            };
                            let mut result =
                                run(&mut testee, &part, known, &|_, _| true, &mut || {})
                                    .pop()
                                    .expect("one result per record");
                            if o.strict_errors {
                                strict_kind(&mut result, profile, known);
                            }
                            let mut case = Case::new(result, profile);
                            case.unclaimed = unclaimed;
                            case.elapsed = asked.elapsed();
                            cases.push((i, case));
                            let (n, last) = testee.failures_in_a_row();
                            if o.max_failures_in_a_row > 0 && n >= o.max_failures_in_a_row {
                                let last = last.and_then(|l| l.lines().next()).unwrap_or("");
                                let _ = stop.set(format!(
                                    "{n} crashes or hangs in a row (--max-failures-in-a-row {}), the last: {last}",
                                    o.max_failures_in_a_row
                                ));
                            }
                        }
                        Ok((cases, testee.starts))
                    })
                    .map_err(|e| format!("cannot start a runner thread: {e}"))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h?.join()
                    .unwrap_or_else(|_| Err("a runner thread panicked".into()))
            })
            .collect()
    });
    let mut starts = 0;
    for outcome in outcomes {
        let (cases, n) = outcome?;
        starts += n;
        for (i, c) in cases {
            slots[i] = Some(c);
        }
    }
    let cases: Vec<Case> = slots
        .into_iter()
        .map(|c| c.expect("every case ran"))
        .collect();
    let stale = stale(&known, corpus, &cases, o.sample);
    let not_run = cases.iter().any(|c| c.not_run);
    Ok(Conformance {
        hello,
        command: o.testee.clone(),
        engine: corpus.entry.version.clone(),
        profile,
        cases,
        stale,
        known,
        elapsed: started.elapsed(),
        starts,
        // A stop after the last case stopped nothing.
        stopped: stop.into_inner().filter(|_| not_run),
    })
}

/// Entries for this engine that match no case at all, or match cases that were run and now all
/// pass. Entries whose cases were all skipped or not selected cannot be judged and are not stale;
/// `flaky:` entries never are.
fn stale(known: &[Entry], corpus: &EngineCorpus, cases: &[Case], sample: bool) -> Vec<Stale> {
    let version = &corpus.entry.version;
    known
        .iter()
        .filter(|k| !k.flaky())
        .filter_map(|k| {
            if !corpus.records.iter().any(|r| k.matches(version, &r.name)) {
                let why = if k.engine_glob_matches(version) && !sample {
                    format!("matches no case of Godot {version}")
                } else {
                    return None;
                };
                return Some(Stale {
                    origin: k.origin.clone(),
                    why,
                });
            }
            let mine: Vec<&Settled> = cases
                .iter()
                .filter(|c| k.matches(version, &c.result.name))
                .map(|c| &c.result.settled)
                .collect();
            let now_passes = !mine.is_empty()
                && mine
                    .iter()
                    .all(|s| matches!(s, Settled::Pass | Settled::UnexpectedPass(_)));
            now_passes.then(|| Stale {
                origin: k.origin.clone(),
                why: "every case it matches now passes: remove it".into(),
            })
        })
        .collect()
}

/// The expected-failure list that would make this run pass: the entries still in use, and one
/// entry per new failure.
pub fn expect_fail_list(c: &Conformance) -> String {
    let mut out = String::from(
        "# Expected failures for `gdmarshal conform` (ENGINE-GLOB CASE-GLOB REASON).\n",
    );
    let stale: BTreeSet<&str> = c.stale.iter().map(|s| s.origin.as_str()).collect();
    for k in &c.known {
        if stale.contains(k.origin.as_str()) {
            continue;
        }
        if !k.engine_glob_matches(&c.engine) || k.flaky() {
            out.push_str(&format!(
                "{} {} {}\n",
                k.engine_glob(),
                k.case_glob(),
                k.reason
            ));
            continue;
        }
        let mine: Vec<&Case> = c
            .cases
            .iter()
            .filter(|x| k.matches(&c.engine, &x.result.name))
            .collect();
        if mine
            .iter()
            .any(|x| matches!(x.result.settled, Settled::UnexpectedPass(_)))
        {
            // Some of its cases pass now: narrow it to the ones that still fail.
            for x in mine {
                if matches!(x.result.settled, Settled::ExpectedFail(_)) {
                    out.push_str(&format!(
                        "{} {} {}\n",
                        globset::escape(&c.engine),
                        globset::escape(&x.result.name),
                        k.reason
                    ));
                }
            }
        } else {
            out.push_str(&format!(
                "{} {} {}\n",
                k.engine_glob(),
                k.case_glob(),
                k.reason
            ));
        }
    }
    for x in &c.cases {
        // A case not run is no difference to expect: the run stopped before it.
        if matches!(x.result.settled, Settled::Fail(_)) && !x.not_run {
            let reason: String = x
                .message
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(120)
                .collect();
            out.push_str(&format!(
                "{} {} {}\n",
                globset::escape(&c.engine),
                globset::escape(&x.result.name),
                limits::escape_control(&reason).replace('#', "")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, input: Option<&str>, tree: Option<Value>) -> Record {
        Record {
            name: name.into(),
            direction: Direction::Decode,
            input: input.map(str::to_string),
            value: None,
            objects: false,
            verdict: crate::corpus::Verdict::Rejected,
            consumed: None,
            tree,
            output: None,
            nondeterministic: Vec::new(),
            error: String::new(),
        }
    }

    #[test]
    fn families_come_from_names_values_and_headers() {
        let p46: Profile = "4.6".parse().unwrap();
        let p36: Profile = "3.6".parse().unwrap();
        let f = |n: &str, i: Option<&str>, p| family(&record(n, i, None), p);
        assert_eq!(f("encode/float/one", None, p46), "float");
        assert_eq!(
            f("decode/valid/Vector2/x", Some("05000000"), p46),
            "Vector2"
        );
        assert_eq!(
            f("decode/truncated/Array/1/at_3", Some("1c00"), p46),
            "Array"
        );
        assert_eq!(f("decode/noncanonical/x", Some("1c000000"), p46), "Array");
        assert_eq!(f("decode/noncanonical/x", Some("13000000"), p36), "Array");
        assert_eq!(
            f("decode/unknown_type/64", Some("40000000"), p46),
            "unknown_type"
        );
        let types = case_types(
            &record(
                "decode/x",
                Some("1c000000"),
                Some(serde_json::json!({"type":"Array","value":[{"type":"float","value":"1"}]})),
            ),
            p46,
        );
        assert_eq!(types.into_iter().collect::<Vec<_>>(), ["Array", "float"]);
    }
}
