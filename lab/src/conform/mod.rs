//! The conformance runner: any program that speaks the testee protocol (docs/conformance.md),
//! judged against the real engines' answers in the corpus.
//!
//! The judging is [`crate::corpus::run::run`] (the same judge and expected-failure rules that
//! check this crate's own codec); this module selects the cases, runs them through one or more
//! testee processes ([`testee::Testee`]) and keeps what a report needs: [`report`] renders it as
//! text, JSON or JUnit XML.

mod answers;
pub mod budget;
mod claims;
mod error;
pub mod excerpt;
mod expect_fail;
pub mod hello;
mod junit;
pub mod limits;
pub mod live;
mod reply;
pub mod report;
pub(crate) mod report_json;
pub mod score;
mod select;
pub mod serve;
mod strict;
mod summary;
pub mod testee;
mod testee_fence;

pub(crate) use claims::collect_types;
pub use claims::{family, undeclared};
pub use error::{ConformError, LiveError, SelectError};
pub use expect_fail::expect_fail_list;
pub use select::{check_glob, exactly, selects};
pub use testee::TesteeError;
pub use testee_fence::TesteeLimits;

use claims::claims_version;
use expect_fail::stale;
use select::select;
use strict::strict_kind;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::corpus::EngineCorpus;
use crate::corpus::known::Entry;
use crate::corpus::run::{CaseResult, Settled, run};
use crate::model::case::Direction;
use crate::model::{Mismatch, Record, SkipReason, Undeclared};
use gdmarshal::profile::Profile;

use crate::shown::truncate;
use budget::{Budget, WIDE_SLOTS};
use hello::Hello;
use limits::{MAX_KEPT_TREE, MAX_REPORT_LINE};
use score::Score;
use testee::Testee;

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
    /// Testee processes, at most [`limits::MAX_JOBS`] (more are not started).
    pub jobs: usize,
    /// Time a testee has for one answer.
    pub timeout: Duration,
    /// The fence each testee process runs in.
    pub limits: TesteeLimits,
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
    /// (`--strict-errors`; [`crate::model::RejectionKind`]).
    pub strict_errors: bool,
    /// The source of the expected answers, as reports name it: `embedded corpus 2176eeca95ca`,
    /// `corpus DIR (DIGEST)` or the live engine and seed ([`crate::corpus::Source::describe`]).
    pub corpus: String,
    /// Builds a record's full form when its case comes up (a stress case's stand-in becomes
    /// its large value: [`crate::corpus::stress`]); `None`: records are used as they are.
    pub expand: Option<Expand>,
    /// Told how the run goes (a progress bar); `None`: nothing is told.
    pub progress: Option<std::sync::Arc<dyn Progress>>,
}

/// What a run tells as it goes: how many cases it sends the testee, then each one settled.
pub trait Progress: Send + Sync {
    /// The run sends `cases` cases (the others are settled without the testee: not claimed).
    fn start(&self, cases: usize);
    /// One more case is settled.
    fn case_done(&self);
    /// The run is over (the report comes next).
    fn finish(&self);
}

/// See [`Options::expand`]: the full record, or why it cannot be built.
pub type Expand =
    Box<dyn Fn(&Record) -> Result<Record, crate::corpus::stress::StressError> + Send + Sync>;

impl Options {
    /// The defaults of `gdmarshal conform` for a testee command: every case of both
    /// directions, one process, 5 s per answer and 30 s for the handshake.
    pub fn new(testee: String) -> Options {
        Options {
            testee,
            directions: vec![Direction::Decode, Direction::Encode],
            run: Vec::new(),
            skip: Vec::new(),
            known: Vec::new(),
            jobs: 1,
            timeout: Duration::from_secs(limits::DEFAULT_TIMEOUT_SECS),
            limits: TesteeLimits::default(),
            handshake_timeout: Duration::from_secs(limits::DEFAULT_HANDSHAKE_TIMEOUT_SECS),
            max_failures_in_a_row: limits::DEFAULT_MAX_FAILURES_IN_A_ROW,
            sample: false,
            probe_undeclared: false,
            strict_errors: false,
            corpus: String::new(),
            expand: None,
            progress: None,
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
pub struct ReportedCase {
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

impl ReportedCase {
    /// A judged case, keeping what reports show of it.
    pub fn new(mut result: CaseResult, profile: Profile) -> ReportedCase {
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
        ReportedCase {
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
    fn unbuildable(
        engine: &str,
        record: Record,
        profile: Profile,
        why: &crate::corpus::stress::StressError,
    ) -> ReportedCase {
        let what = crate::model::RecordDefect::UnreadableValue(why.to_string());
        ReportedCase::unasked(
            engine,
            record,
            profile,
            Settled::Fail(Mismatch::BadRecord { what }),
        )
    }

    /// A case settled without asking the testee.
    fn unasked(engine: &str, record: Record, profile: Profile, settled: Settled) -> ReportedCase {
        let name = record.name.clone();
        let (engine, answer) = (engine.to_string(), None);
        ReportedCase::new(
            CaseResult {
                engine,
                name,
                record,
                answer,
                settled,
            },
            profile,
        )
    }

    /// A case the testee's handshake does not claim, skipped without being sent.
    fn not_claimed(
        engine: &str,
        record: Record,
        profile: Profile,
        why: Undeclared,
    ) -> ReportedCase {
        let settled = Settled::Skip(SkipReason::Undeclared(why.clone()));
        let mut case = ReportedCase::unasked(engine, record, profile, settled);
        case.unclaimed = Some(why);
        case
    }

    /// A case not run because the run stopped early.
    fn not_run(engine: &str, record: Record, profile: Profile) -> ReportedCase {
        let reason = "not run: the run stopped early".into();
        let settled = Settled::Fail(Mismatch::NoAnswer { reason });
        let mut case = ReportedCase::unasked(engine, record, profile, settled);
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
    /// The variables of the runner's environment passed to the testee (`--testee-env`) that were
    /// set, with their values: a replay line sets them in its testee command.
    pub testee_env: Vec<(String, String)>,
    /// The engine version of the corpus.
    pub engine: String,
    /// Where the expected answers came from ([`Options::corpus`]).
    pub corpus: String,
    /// The format profile.
    pub profile: Profile,
    /// Every case of the corpus that `--run`/`--skip`/`--direction` selected, in corpus order.
    pub cases: Vec<ReportedCase>,
    /// Out-of-date expected-failure entries.
    pub stale: Vec<Stale>,
    /// The expected-failure entries used.
    pub known: Vec<Entry>,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Testee processes started (including restarts after crashes and hangs).
    pub starts: usize,
    /// Why the run stopped early, if it did (`--max-failures-in-a-row`): the cases it did not
    /// run are failures with their [`not_run`](ReportedCase#structfield.not_run) set.
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

    /// Whether the run judged enough of its cases to say anything: `None` when at least
    /// [`MIN_JUDGED_PERCENT`] of the cases selected were judged (answered and compared, rightly
    /// or not); else what kept the others from being judged. A testee that claims nothing of
    /// the version, or skips every case, would otherwise pass having shown nothing.
    pub fn too_few_judged(&self) -> Option<TooFewJudged> {
        let t = report::totals(self);
        let judged = t.cases - t.skipped - t.unclaimed;
        (t.cases > 0 && judged * 100 < t.cases * MIN_JUDGED_PERCENT).then(|| TooFewJudged {
            judged,
            selected: t.cases,
            unclaimed: t.unclaimed,
            skipped: t.skipped,
            version_claimed: self.claims_version(),
        })
    }
}

/// The share of the cases selected, in percent, that a run must judge (`--allow-partial` accepts
/// fewer).
pub(crate) const MIN_JUDGED_PERCENT: usize = 10;

/// A run that judged fewer than [`MIN_JUDGED_PERCENT`] of its cases, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "only {judged} of the {selected} cases selected were judged (at least {MIN_JUDGED_PERCENT}% \
     must be): {unclaimed} not claimed by the testee{}, {skipped} skipped by it; \
     --allow-partial accepts such a run",
    if *version_claimed { "" } else { " (its handshake does not declare this Godot version)" }
)]
pub struct TooFewJudged {
    /// Cases answered and compared (passed, failed or expected to fail).
    pub judged: usize,
    /// Cases selected by `--run`, `--skip` and `--direction`.
    pub selected: usize,
    /// Cases outside the testee's claims.
    pub unclaimed: usize,
    /// Cases the testee answered `skipped`, or with no engine answer to compare.
    pub skipped: usize,
    /// Whether the handshake declares the run's Godot version.
    pub version_claimed: bool,
}

impl ReportedCase {
    /// Whether the case counts toward the run's result: it is claimed by the testee.
    pub fn counts(&self) -> bool {
        self.unclaimed.is_none()
    }
}

/// Whether a settled case makes the run fail.
pub fn is_failure(s: &Settled) -> bool {
    matches!(s, Settled::Fail(_) | Settled::UnexpectedPass(_))
}

/// A case to send the testee: its position among the run's cases, its record, and what the
/// handshake does not claim of it (such a case is sent only with `--probe-undeclared`).
type Item<'c> = (usize, &'c Record, Option<Undeclared>);

/// What one runner thread returns: its cases with their corpus positions, and how many testee
/// processes it started.
type Part = (Vec<(usize, ReportedCase)>, usize);

/// Runs the selected cases of one engine's corpus through the testee: `plan` settles the cases
/// the handshake does not claim and lists the others, `run_queue` sends those to `--jobs`
/// testee processes that each take the next case as soon as they are free, and `assemble`
/// puts every case back in corpus order.
pub fn conform(corpus: &EngineCorpus, o: &Options) -> Result<Conformance, ConformError> {
    let started = Instant::now();
    let selected = select(corpus, o)?;
    let budget = Budget::new(WIDE_SLOTS);
    let first = Testee::start(o, corpus.profile, budget.clone())?;
    let hello = first.hello().clone();
    let known: Vec<Entry> = o.known.iter().chain(&hello.expect_fail).cloned().collect();
    let plan = plan(corpus, o, &hello, selected);
    let ran = run_queue(corpus, o, &known, first, &budget, plan.work)?;
    Ok(assemble(corpus, o, hello, known, plan.slots, ran, started))
}

/// A run's cases before it starts.
struct Plan<'c> {
    /// Every selected case in corpus order: the ones settled without the testee, `None` for the
    /// ones to send.
    slots: Vec<Option<ReportedCase>>,
    /// The cases to send, in corpus order.
    work: Vec<Item<'c>>,
}

/// Settles the selected cases the handshake does not claim as skipped (unless
/// `--probe-undeclared`: they are then sent, and marked to be reported apart), and lists the cases
/// to send.
fn plan<'c>(
    corpus: &EngineCorpus,
    o: &Options,
    hello: &Hello,
    selected: Vec<&'c Record>,
) -> Plan<'c> {
    let profile = corpus.profile;
    let mut plan = Plan {
        slots: Vec::with_capacity(selected.len()),
        work: Vec::new(),
    };
    for r in selected {
        let index = plan.slots.len();
        match undeclared(hello, r, profile) {
            Some(why) if !o.probe_undeclared => {
                let engine = &corpus.entry.version;
                plan.slots.push(Some(ReportedCase::not_claimed(
                    engine,
                    r.clone(),
                    profile,
                    why,
                )));
            }
            why => {
                plan.slots.push(None);
                plan.work.push((index, r, why));
            }
        }
    }
    plan
}

/// The cases to send, shared by the runner threads: each takes the next one not yet taken, so
/// that a faster testee process takes more of them.
struct Queue<'c> {
    work: Vec<Item<'c>>,
    /// The position in `work` of the next case to take.
    next: AtomicUsize,
}

impl<'c> Queue<'c> {
    /// The next case not yet taken, if one is left.
    fn take(&self) -> Option<&Item<'c>> {
        self.work.get(self.next.fetch_add(1, Ordering::Relaxed))
    }
}

/// What the runner threads did, together.
struct Ran {
    /// The cases sent (or not run), with their corpus positions, in no particular order.
    cases: Vec<(usize, ReportedCase)>,
    /// Testee processes started, restarts included.
    starts: usize,
    /// Why the run stopped early, if it did (`--max-failures-in-a-row`).
    stopped: Option<String>,
}

/// Sends the cases of `work` to `--jobs` testee processes (no more than there are cases), each
/// run by a thread of its own that takes the next case from one shared [`Queue`]; `first`, the
/// process started for the handshake, is the first thread's.
fn run_queue(
    corpus: &EngineCorpus,
    o: &Options,
    known: &[Entry],
    first: Testee,
    budget: &Arc<Budget>,
    work: Vec<Item<'_>>,
) -> Result<Ran, ConformError> {
    if let Some(p) = &o.progress {
        p.start(work.len());
    }
    let jobs = o.jobs.clamp(1, work.len().clamp(1, limits::MAX_JOBS));
    let queue = Queue {
        work,
        next: AtomicUsize::new(0),
    };
    let stop: OnceLock<String> = OnceLock::new();
    let mut first = Some(first);
    let outcomes: Vec<Result<Part, ConformError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                let testee = first.take();
                let (queue, stop) = (&queue, &stop);
                std::thread::Builder::new()
                    .stack_size(1 << 28)
                    .spawn_scoped(s, move || {
                        let testee = testee
                            .map_or_else(|| Testee::start(o, corpus.profile, budget.clone()), Ok);
                        worker(corpus, o, known, testee, queue, stop)
                    })
                    .map_err(ConformError::Thread)
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h?.join().unwrap_or(Err(ConformError::ThreadPanicked)))
            .collect()
    });
    if let Some(p) = &o.progress {
        p.finish();
    }
    let mut ran = Ran {
        cases: Vec::with_capacity(queue.work.len()),
        starts: 0,
        stopped: stop.into_inner(),
    };
    for outcome in outcomes {
        let (cases, starts) = outcome?;
        ran.starts += starts;
        ran.cases.extend(cases);
    }
    Ok(ran)
}

/// One runner thread: takes case after case from `queue` until none is left and asks its testee
/// process (`first`, or one it starts); once the run has stopped (`stop`), the cases it takes
/// are not run.
fn worker(
    corpus: &EngineCorpus,
    o: &Options,
    known: &[Entry],
    testee: Result<Testee, TesteeError>,
    queue: &Queue<'_>,
    stop: &OnceLock<String>,
) -> Result<Part, ConformError> {
    let (profile, engine) = (corpus.profile, &corpus.entry.version);
    let mut testee = testee?;
    let mut cases = Vec::new();
    // One case at a time: its answer is dropped before the next is asked.
    while let Some((i, record, unclaimed)) = queue.take() {
        let mut case = if interrupted(stop) || stop.get().is_some() {
            ReportedCase::not_run(engine, Record::clone(record), profile)
        } else {
            let asked = ask(&mut testee, corpus, o, known, record);
            // The case is judged and its answer dropped: its slot, if it took one, is free.
            testee.release();
            match asked {
                // The signal's kill ended the testee in the middle of this case.
                Ok(_) if interrupted(stop) => {
                    ReportedCase::not_run(engine, Record::clone(record), profile)
                }
                Ok(case) => {
                    if let Some(p) = &o.progress {
                        p.case_done();
                    }
                    stop_after_failures(&testee, o, stop);
                    case
                }
                Err(why) => ReportedCase::unbuildable(engine, Record::clone(record), profile, &why),
            }
        };
        case.unclaimed = unclaimed.clone();
        cases.push((*i, case));
    }
    Ok((cases, testee.starts))
}

/// Asks the testee one case and judges its answer; `Err`: why the case's record cannot be built
/// ([`Options::expand`]).
fn ask(
    testee: &mut Testee,
    corpus: &EngineCorpus,
    o: &Options,
    known: &[Entry],
    record: &Record,
) -> Result<ReportedCase, crate::corpus::stress::StressError> {
    let asked = Instant::now();
    // One record at a time is copied (or built: a stress case's tree is large).
    let full = match &o.expand {
        Some(expand) => expand(record)?,
        None => record.clone(),
    };
    let part = EngineCorpus {
        entry: corpus.entry.clone(),
        profile: corpus.profile,
        records: vec![full],
    };
    let mut result = run(testee, &part, known, &|_, _| true, &mut || {})
        .pop()
        .expect("one result per record");
    if o.strict_errors {
        strict_kind(&mut result, corpus.profile, known);
    }
    let mut case = ReportedCase::new(result, corpus.profile);
    case.elapsed = asked.elapsed();
    Ok(case)
}

/// Whether SIGINT, SIGTERM or SIGHUP has been received ([`crate::sandbox::interrupt`]); if so,
/// stops the run (sets `stop`), the cases not yet run marked as such.
fn interrupted(stop: &OnceLock<String>) -> bool {
    let Some(sig) = crate::sandbox::interrupt::received() else {
        return false;
    };
    let _ = stop.set(format!(
        "interrupted by {}",
        crate::sandbox::interrupt::name(sig)
    ));
    true
}

/// Stops the run (sets `stop`) once `testee` has crashed or hung on `--max-failures-in-a-row`
/// requests in a row.
fn stop_after_failures(testee: &Testee, o: &Options, stop: &OnceLock<String>) {
    let (n, last) = testee.failures_in_a_row();
    if o.max_failures_in_a_row > 0 && n >= o.max_failures_in_a_row {
        let last = last.and_then(|l| l.lines().next()).unwrap_or("");
        let _ = stop.set(format!(
            "{n} crashes or hangs in a row (--max-failures-in-a-row {}), the last: {last}",
            o.max_failures_in_a_row
        ));
    }
}

/// The run's outcome: the cases back in corpus order, the expected-failure entries out of date,
/// the processes started, and why the run stopped early if that stopped any case.
fn assemble(
    corpus: &EngineCorpus,
    o: &Options,
    hello: Hello,
    known: Vec<Entry>,
    mut slots: Vec<Option<ReportedCase>>,
    ran: Ran,
    started: Instant,
) -> Conformance {
    for (i, case) in ran.cases {
        slots[i] = Some(case);
    }
    let cases: Vec<ReportedCase> = slots
        .into_iter()
        .map(|c| c.expect("every case ran"))
        .collect();
    let stale = stale(&known, corpus, &cases, o.sample);
    let not_run = cases.iter().any(|c| c.not_run);
    Conformance {
        hello,
        command: o.testee.clone(),
        testee_env: o
            .limits
            .env
            .iter()
            .filter_map(|name| Some((name.clone(), std::env::var(name).ok()?)))
            .collect(),
        engine: corpus.entry.version.clone(),
        corpus: o.corpus.clone(),
        profile: corpus.profile,
        cases,
        stale,
        known,
        elapsed: started.elapsed(),
        starts: ran.starts,
        // A stop after the last case stopped nothing.
        stopped: ran.stopped.filter(|_| not_run),
    }
}
