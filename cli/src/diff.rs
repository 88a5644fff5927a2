//! `gdmarshal diff`: differential campaigns against real engines (one seed or a range of seeds,
//! each logged in `FINDINGS/campaigns.jsonl`; Ctrl-C stops at the next batch and prints the
//! command that resumes), or the replay of one finding.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressState, ProgressStyle};

use super::engine_runs::{print_incidents, print_refused, start_engines};
use super::fail;
use gdmarshal_lab::Answerer;
use gdmarshal_lab::campaign::log::{self, LogEntry};
use gdmarshal_lab::campaign::{
    self, Class, Config, EngineRun, Progress, RunEnd, Uncompared, classify_batch, load_finding,
};
use gdmarshal_lab::oracle::Engine;
use gdmarshal_lab::sandbox::interrupt;

/// An inclusive range of seeds, `A..B` (`1..30`: thirty campaigns).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    /// The first seed.
    pub first: u64,
    /// The last seed (included).
    pub last: u64,
}

impl FromStr for SeedRange {
    type Err = String;

    fn from_str(s: &str) -> Result<SeedRange, String> {
        let (a, b) = s
            .split_once("..")
            .ok_or_else(|| format!("{s:?} is not a range of seeds: write A..B, e.g. 1..30"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("{t:?} in {s:?} is not a seed (a number from 0 to 2^64-1)"))
        };
        let (first, last) = (number(a)?, number(b)?);
        if first > last {
            return Err(format!(
                "the range {s} is empty: its first seed is past its last (both are included)"
            ));
        }
        Ok(SeedRange { first, last })
    }
}

impl SeedRange {
    /// The range as `--seed N` for one seed, `--seeds A..B` for more.
    fn flag(&self) -> String {
        if self.first == self.last {
            format!("--seed {}", self.first)
        } else {
            format!("--seeds {}..{}", self.first, self.last)
        }
    }
}

fn parse_class(s: &str) -> Result<Class, String> {
    s.parse()
        .map_err(|_| format!("{s:?} is not a class: one of {}", Class::names().join(", ")))
}

/// `gdmarshal diff ...`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    /// Engines to run against (names as `gdmarshal engines` shows them), or `all`.
    #[arg(long = "engine", default_value = "all")]
    engines: Vec<String>,
    /// Cases per engine.
    #[arg(long, default_value_t = 10_000)]
    cases: u64,
    /// The seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A range of seeds, both ends included (`1..30`): one campaign of `--cases` cases per
    /// engine for each seed, in order, each logged on its own line.
    #[arg(long, value_name = "A..B", conflicts_with = "seed")]
    seeds: Option<SeedRange>,
    /// First case index (to rerun one case of a campaign: `--from I --cases 1`; to resume an
    /// interrupted one). With `--seeds`, for the first seed only.
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Exit 1 if a case of this class (comma-separated or repeated; e.g. `codec-differs`) is of
    /// a kind no open reproducer in `--open-findings` covers: each such case is minimized and
    /// its signature looked up there. Unanswered cases always fail the run.
    #[arg(long, value_name = "CLASS", value_delimiter = ',', value_parser = parse_class)]
    fail_on: Vec<Class>,
    /// The open reproducers that `--fail-on` takes as known (their engine and signature).
    #[arg(long, value_name = "DIR", default_value = "findings")]
    open_findings: PathBuf,
    /// Where reproducers are written.
    #[arg(long, default_value = "findings")]
    findings: PathBuf,
    /// Most reproducers per class and engine; further findings are only counted.
    #[arg(long, default_value_t = 5)]
    max_saved: usize,
    /// Replay a saved reproducer against its engine and print both answers.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["cases", "seed", "seeds", "from", "fail_on", "open_findings"])]
    replay: Option<PathBuf>,
    /// Run one corpus case (by name, e.g. `decode/depth/arrays_50000`) on the engines and print
    /// each engine's answer and class.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["cases", "seed", "seeds", "from", "fail_on", "open_findings", "replay"])]
    corpus_case: Option<String>,
}

/// Runs `gdmarshal diff`.
pub fn run(a: &DiffArgs) -> ExitCode {
    a.limits.install();
    match (&a.replay, &a.corpus_case) {
        (Some(p), _) => replay(p),
        (None, Some(name)) => corpus_case(a, name),
        (None, None) => campaign_cmd(a),
    }
}

fn replay(path: &std::path::Path) -> ExitCode {
    let f = match load_finding(path) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let case = match f.case() {
        Ok(c) => c,
        Err(e) => return fail(format!("{}: {e}", path.display())),
    };
    let mut engines = match start_engines(std::slice::from_ref(&f.engine)) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let engine = &mut engines[0];
    let version = engine.info().version.clone();
    let known = match known_differences() {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let j = classify_batch(engine, std::slice::from_ref(&case), &known)
        .pop()
        .expect("one answer per case");
    outln!("finding:  {} ({})", path.display(), f.class);
    match (&f.input, &f.value) {
        (Some(h), _) => outln!("input:    {h} (decode, objects {})", f.objects),
        (_, Some(v)) => outln!("value:    {v} (encode, full objects {})", f.objects),
        _ => {}
    }
    outln!(
        "engine:   Godot {version}: {}",
        serde_json::to_string(&j.record).expect("records serialize")
    );
    outln!(
        "codec:    {}",
        campaign::classify::codec_answer(&case, engine.profile())
    );
    outln!("now:      {} — {}", j.class, j.detail);
    if let Some(c) = f.codec_command() {
        outln!("codec cmd: {c}");
    }
    print_incidents(&version, &engine.take_incidents());
    if j.class == Class::Unanswered {
        return fail("the engine could not answer the case: nothing is known");
    }
    outln!(
        "{}",
        match (f.class, j.class) {
            (a, b) if a == b => "reproduced",
            (Class::CodecDiffers, Class::Agree) => "fixed: the codec now agrees with the engine",
            _ => "NOT reproduced (the class differs)",
        }
    );
    ExitCode::SUCCESS
}

/// The one list of expected differences, `corpus/known-differences.txt`, as embedded.
fn known_differences() -> Result<Vec<gdmarshal_lab::corpus::known::Entry>, String> {
    gdmarshal_lab::corpus::known::read_from(&gdmarshal_lab::corpus::Source::Embedded)
        .map_err(|e| e.to_string())
}

fn engine_names(a: &DiffArgs) -> Vec<String> {
    a.engines
        .iter()
        .filter(|n| n.as_str() != "all")
        .cloned()
        .collect()
}

fn corpus_case(a: &DiffArgs, name: &str) -> ExitCode {
    let engines = match start_engines(&engine_names(a)) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let mut found = 0;
    for mut engine in engines {
        let profile = engine.profile();
        let version = engine.info().version.clone();
        // The corpus cases include very deep values: find and run the case with room for them.
        let name = name.to_string();
        let out = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let case =
                    gdmarshal_lab::corpus::all_cases(profile)
                        .into_iter()
                        .find(|c| match c {
                            gdmarshal_lab::model::Case::Decode { name: n, .. }
                            | gdmarshal_lab::model::Case::Encode { name: n, .. } => *n == name,
                        })?;
                let j = known_differences()
                    .map(|known| classify_batch(&mut engine, std::slice::from_ref(&case), &known));
                let codec = campaign::classify::codec_answer(&case, profile);
                Some((version, j, codec))
            });
        let out = match out {
            Ok(handle) => handle.join(),
            Err(e) => return fail(format!("cannot start a thread for the case: {e}")),
        };
        match out {
            Ok(Some((version, Ok(mut j), codec))) => {
                found += 1;
                let j = j.pop().expect("one answer per case");
                outln!(
                    "Godot {version}: {} — {}\n  engine: {}\n  codec:  {codec}",
                    j.class,
                    j.detail.lines().next().unwrap_or(""),
                    serde_json::to_string(&j.record).expect("records serialize")
                );
            }
            Ok(Some((version, Err(e), _))) => return fail(format!("engine {version}: {e}")),
            Ok(None) => outln!("{profile}: no corpus case of that name"),
            Err(_) => return fail("the case panicked"),
        }
    }
    if found == 0 {
        return fail(format!(
            "no corpus case is named {name:?} for these engines (names as in corpus/*.jsonl)"
        ));
    }
    ExitCode::SUCCESS
}

fn seed_range(a: &DiffArgs) -> SeedRange {
    a.seeds.unwrap_or(SeedRange {
        first: a.seed,
        last: a.seed,
    })
}

/// One seed's campaign on every engine.
struct SeedRun {
    seed: u64,
    runs: Vec<EngineRun>,
    wall_secs: f64,
}

fn campaign_cmd(a: &DiffArgs) -> ExitCode {
    // SIGINT, SIGTERM, SIGHUP: the campaign stops after its current batch, logs what it ran and
    // prints how to resume; a second signal kills the engines and exits at once.
    if let Err(e) = interrupt::install(interrupt::Stop::AfterBatch) {
        return fail(format!("cannot catch signals: {e}"));
    }
    let mut engines = match start_engines(&engine_names(a)) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let known = match known_differences() {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let gate = (!a.fail_on.is_empty()).then(|| campaign::Gate {
        classes: a.fail_on.clone(),
        open: campaign::OpenKinds::of(
            campaign::load_findings(&a.open_findings)
                .iter()
                .map(|(_, f)| f),
        ),
    });
    if let Some(g) = &gate {
        outln!(
            "--fail-on {}: {} kinds of finding open in {}",
            a.fail_on
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(","),
            g.open.len(),
            a.open_findings.display()
        );
    }
    let range = seed_range(a);
    let log_path = a.findings.join(log::LOG_FILE);
    let mut all: Vec<SeedRun> = Vec::new();
    let mut seed = range.first;
    loop {
        let from = if seed == range.first { a.from } else { 0 };
        if interrupt::stop_flag().load(Ordering::SeqCst) {
            // Stopped between two seeds: nothing of this one was run.
            return interrupted(a, &engines, seed, from, &[], range.last);
        }
        let cfg = Config {
            known: known.clone(),
            seed,
            cases: a.cases,
            findings_dir: Some(a.findings.clone()),
            max_saved_per_class: a.max_saved,
            gate: gate.clone(),
        };
        let run = match run_seed(&mut engines, &cfg, from) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        print_summary(&run, from, a.cases);
        for r in &run.runs {
            print_incidents(&r.version, &r.incidents);
            print_refused(&r.version, r.refused);
        }
        let entry = LogEntry::of(
            log::utc_now(),
            seed,
            from,
            a.cases,
            run.wall_secs,
            &run.runs,
        );
        if let Err(e) = log::append(&log_path, &entry) {
            return fail(format!("the run log: {e}"));
        }
        if entry.interrupted {
            outln!("logged in {}", log_path.display());
            return interrupted(a, &engines, seed, from, &run.runs, range.last);
        }
        all.push(run);
        if seed == range.last {
            break;
        }
        seed += 1;
    }
    outln!("logged in {}", log_path.display());
    if all.len() > 1 {
        print_totals(&all, range);
    }
    let runs: Vec<&EngineRun> = all.iter().flat_map(|s| &s.runs).collect();
    let unanswered: u64 = runs.iter().map(|r| r.unanswered()).sum();
    if unanswered > 0 {
        return fail(format!(
            "{unanswered} cases unanswered: the engines could not answer them, so nothing is known about them"
        ));
    }
    let failing: Vec<String> = a
        .fail_on
        .iter()
        .filter_map(|c| {
            let n: u64 = runs
                .iter()
                .map(|r| r.uncovered.get(c).copied().unwrap_or(0))
                .sum();
            (n > 0).then(|| format!("{n} cases {c}"))
        })
        .collect();
    if !failing.is_empty() {
        return super::found(format!(
            "{} of a kind no open reproducer in {} covers (--fail-on): new; their reproducers are under {}",
            failing.join(", "),
            a.open_findings.display(),
            a.findings.display()
        ));
    }
    ExitCode::SUCCESS
}

/// Runs cases `from..from + cfg.cases` of one seed on every engine side by side, with a progress
/// bar each; stops before the next batch on Ctrl-C.
fn run_seed(engines: &mut [Engine], cfg: &Config, from: u64) -> Result<SeedRun, String> {
    let started = Instant::now();
    let multi = MultiProgress::new();
    // Bars are drawn on a terminal only; elsewhere (a CI log, a pipe) plain lines say the run is
    // alive.
    let plain = !std::io::stderr().is_terminal();
    let results: Vec<Result<EngineRun, String>> = std::thread::scope(|scope| {
        let handles: Vec<std::io::Result<_>> = engines
            .iter_mut()
            .map(|engine| {
                let b = multi.add(campaign_bar(cfg.cases, engine.name(), cfg.seed));
                let lines = PlainLines::new(plain, format!("{} s{}", engine.name(), cfg.seed));
                // The corpus cases include very deep values: give the thread room for them.
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(scope, move || {
                        let version = engine.info().version.clone();
                        let r = campaign::run_engine(
                            engine,
                            &version,
                            cfg,
                            from,
                            &|p| {
                                show_progress(&b, p);
                                lines.show(p);
                            },
                            interrupt::stop_flag(),
                        );
                        b.finish_and_clear();
                        r
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .map_err(|_| "campaign thread panicked".to_string())
                    .and_then(|r| r.map_err(|e| e.to_string())),
                Err(e) => Err(format!("cannot start a campaign thread: {e}")),
            })
            .collect()
    });
    Ok(SeedRun {
        seed: cfg.seed,
        runs: results.into_iter().collect::<Result<_, _>>()?,
        wall_secs: started.elapsed().as_secs_f64(),
    })
}

/// A campaign's progress bar: position, rate, ETA and the counts per class so far.
fn campaign_bar(cases: u64, engine: &str, seed: u64) -> ProgressBar {
    let b = ProgressBar::new(cases);
    b.set_style(
        ProgressStyle::with_template(
            "{prefix:>11} [{bar:20}] {human_pos}/{human_len} {rate} ETA {eta} {wide_msg}",
        )
        .expect("valid template")
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}/s", s.per_sec());
        })
        .progress_chars("=> "),
    );
    b.set_prefix(format!("{engine} s{seed}"));
    b.enable_steady_tick(Duration::from_millis(500));
    b
}

fn show_progress(b: &ProgressBar, p: &Progress) {
    b.set_position(p.done);
    b.set_message(counts_line(p));
}

/// How often a plain progress line is printed, after the first batch's.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Plain progress lines of one engine's run, where no bar is drawn: `4.6 s8: 500/100000 cases,
/// agree …` on stderr after its first batch, then at most every [`PLAIN_EVERY`].
struct PlainLines {
    /// The line's prefix (engine and seed); `None`: bars are drawn instead.
    prefix: Option<String>,
    last: Mutex<Option<Instant>>,
}

impl PlainLines {
    fn new(on: bool, prefix: String) -> PlainLines {
        PlainLines {
            prefix: on.then_some(prefix),
            last: Mutex::new(None),
        }
    }

    fn show(&self, p: &Progress) {
        let Some(prefix) = &self.prefix else { return };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if p.done == 0 || last.is_some_and(|t| t.elapsed() < PLAIN_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        eprintln!("{prefix}: {}/{} cases, {}", p.done, p.total, counts_line(p));
    }
}

/// The counts per class so far, with the two largest reasons of the uncompared ones.
fn counts_line(p: &Progress) -> String {
    let engine: u64 = p
        .counts
        .iter()
        .filter(|(c, _)| c.is_finding() && **c != Class::CodecDiffers)
        .map(|(_, n)| n)
        .sum();
    let why = |c: Class| top_reasons(p.uncompared.get(&c));
    format!(
        "{}agree {} known {}{} unsupported {}{} codec-differs {} engine {}{} unanswered {}",
        if interrupt::stop_flag().load(Ordering::SeqCst) {
            "stopping after this batch; "
        } else {
            ""
        },
        p.count(Class::Agree),
        p.count(Class::KnownDifference),
        why(Class::KnownDifference),
        p.count(Class::Unsupported),
        why(Class::Unsupported),
        p.count(Class::CodecDiffers),
        engine,
        why(Class::EngineNondeterministic),
        p.count(Class::Unanswered),
    )
}

/// The two largest reasons of a class so far, for the progress line: ` (object-by-id 80,
/// nodepath-name-not-text 12, …)`; empty when there are none.
fn top_reasons(u: Option<&Uncompared>) -> String {
    let Some(u) = u else {
        return String::new();
    };
    let all = u.largest_reasons();
    let mut shown: Vec<String> = all
        .iter()
        .take(2)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    if all.len() > 2 {
        shown.push("…".into());
    }
    if shown.is_empty() {
        String::new()
    } else {
        format!(" ({})", shown.join(", "))
    }
}

/// Prints how to resume a run stopped in seed `seed` (which ran from `from`; `runs` are its
/// engines' partial runs, none if it never started) and returns status 130.
fn interrupted(
    a: &DiffArgs,
    engines: &[Engine],
    seed: u64,
    from: u64,
    runs: &[EngineRun],
    last: u64,
) -> ExitCode {
    let end = from + a.cases;
    let mut extra = format!(
        " --findings {}",
        shell_word(&a.findings.display().to_string())
    );
    if a.max_saved != 5 {
        write!(extra, " --max-saved {}", a.max_saved).ok();
    }
    if !a.fail_on.is_empty() {
        write!(
            extra,
            " --fail-on {}",
            a.fail_on
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(",")
        )
        .ok();
    }
    let all_engines: String = a
        .engines
        .iter()
        .map(|e| format!(" --engine {}", shell_word(e)))
        .collect();
    // Where each engine stopped in this seed (engines that never started stopped at `from`).
    let next: Vec<(&str, u64)> = engines
        .iter()
        .map(|e| {
            let at = runs
                .iter()
                .find(|r| r.engine == e.name())
                .map_or(from, EngineRun::next);
            (e.name(), at)
        })
        .collect();
    let mut lines = Vec::new();
    // A seed not started at all goes with the seeds after it.
    let (next, first_left) = if runs.is_empty() && from == 0 {
        (Vec::new(), Some(seed))
    } else {
        (next, seed.checked_add(1))
    };
    let same = next.windows(2).all(|w| w[0].1 == w[1].1);
    let resume = |engine_flags: &str, at: u64| {
        format!(
            "gdmarshal diff{engine_flags} --seed {seed} --from {at} --cases {}{extra}",
            end - at
        )
    };
    match next.first() {
        Some((_, at)) if same && *at < end => lines.push(resume(&all_engines, *at)),
        _ => {
            for (name, at) in &next {
                if *at < end {
                    lines.push(resume(&format!(" --engine {}", shell_word(name)), *at));
                }
            }
        }
    }
    if let Some(first) = first_left.filter(|f| *f <= last) {
        let rest = SeedRange { first, last };
        lines.push(format!(
            "gdmarshal diff{all_engines} {} --cases {}{extra}",
            rest.flag(),
            a.cases
        ));
    }
    if lines.is_empty() {
        outln!("interrupted after the last batch: nothing is left to run");
    } else {
        outln!("interrupted: to resume, run");
        for l in &lines {
            outln!("  {l}");
        }
    }
    super::interrupted_code().unwrap_or(ExitCode::from(super::EXIT_TROUBLE))
}

/// A word as a shell reads it: quoted when it holds anything but plain characters.
fn shell_word(s: &str) -> String {
    gdmarshal_lab::conform::report::shell_quote(s)
}

fn version_column(version: &str) -> String {
    gdmarshal_lab::campaign::log::short_version(version)
}

fn class_table(columns: &[(String, BTreeMap<Class, u64>)]) {
    out!("{:<34}", "class");
    for (v, _) in columns {
        out!("{v:>14}");
    }
    outln!();
    for c in Class::all() {
        out!("{:<34}", c.name());
        for (_, counts) in columns {
            out!("{:>14}", counts.get(&c).copied().unwrap_or(0));
        }
        outln!();
    }
}

/// The uncompared cases per class and reason, one row each, under the class table.
fn reason_table(columns: &[(String, BTreeMap<Class, Uncompared>)]) {
    for c in campaign::reasons::UNCOMPARED {
        let mut heading = Some(format!("{c}, by reason"));
        for reason in campaign::Reason::all() {
            let counts: Vec<u64> = columns
                .iter()
                .map(|(_, u)| {
                    u.get(&c)
                        .and_then(|u| u.reasons.get(&reason))
                        .copied()
                        .unwrap_or(0)
                })
                .collect();
            if counts.iter().all(|&n| n == 0) {
                continue;
            }
            if let Some(h) = heading.take() {
                outln!("{h}");
            }
            out!("{:<34}", format!("  {reason}"));
            for n in counts {
                out!("{n:>14}");
            }
            outln!();
        }
    }
}

fn print_summary(s: &SeedRun, from: u64, cases: u64) {
    let interrupted = s.runs.iter().any(|r| r.end == RunEnd::Interrupted);
    outln!(
        "seed {}, cases {from}..{} per engine, {} engines, {:.1} s{}",
        s.seed,
        from + cases,
        s.runs.len(),
        s.wall_secs,
        if interrupted { ", INTERRUPTED" } else { "" }
    );
    let columns: Vec<(String, BTreeMap<Class, u64>)> = s
        .runs
        .iter()
        .map(|r| (version_column(&r.version), r.counts.clone()))
        .collect();
    class_table(&columns);
    let reasons: Vec<(String, BTreeMap<Class, Uncompared>)> = s
        .runs
        .iter()
        .map(|r| (version_column(&r.version), r.uncompared.clone()))
        .collect();
    reason_table(&reasons);
    out!("{:<34}", "built from bytes");
    for r in &s.runs {
        out!("{:>14}", r.built_from_bytes);
    }
    outln!();
    out!("{:<34}", "cases run");
    for r in &s.runs {
        out!("{:>14}", r.done);
    }
    outln!();
    out!("{:<34}", "cases/s");
    for r in &s.runs {
        out!("{:>14.0}", r.rate());
    }
    outln!();
    let gated: std::collections::BTreeSet<Class> = s
        .runs
        .iter()
        .flat_map(|r| r.uncovered.keys().copied())
        .collect();
    for c in gated {
        out!("{:<34}", format!("{c}, new kind"));
        for r in &s.runs {
            out!("{:>14}", r.uncovered.get(&c).copied().unwrap_or(0));
        }
        outln!();
    }
    let total: usize = s.runs.iter().map(|r| r.findings.len()).sum();
    outln!("{total} reproducers written:");
    for r in &s.runs {
        for (_, f) in &r.findings {
            outln!("  {:<26} {}  {}", f.class.name(), f.engine, f.replay);
        }
    }
}

/// The classes of every seed of a range together, per engine.
fn print_totals(all: &[SeedRun], range: SeedRange) {
    let mut columns: Vec<(String, BTreeMap<Class, u64>)> = Vec::new();
    let mut reasons: Vec<(String, BTreeMap<Class, Uncompared>)> = Vec::new();
    let mut done: BTreeMap<String, (u64, f64)> = BTreeMap::new();
    for s in all {
        for r in &s.runs {
            let v = version_column(&r.version);
            let i = match columns.iter().position(|(c, _)| *c == v) {
                Some(i) => i,
                None => {
                    columns.push((v.clone(), BTreeMap::new()));
                    reasons.push((v.clone(), BTreeMap::new()));
                    columns.len() - 1
                }
            };
            for (c, n) in &r.counts {
                *columns[i].1.entry(*c).or_default() += n;
            }
            for (c, u) in &r.uncompared {
                reasons[i].1.entry(*c).or_default().merge(u);
            }
            let d = done.entry(v).or_default();
            d.0 += r.done;
            d.1 += r.secs;
        }
    }
    let wall: f64 = all.iter().map(|s| s.wall_secs).sum();
    outln!(
        "seeds {}..{} together ({} campaigns, {:.1} s):",
        range.first,
        range.last,
        all.len(),
        wall
    );
    class_table(&columns);
    reason_table(&reasons);
    out!("{:<34}", "cases/s");
    for (v, _) in &columns {
        let (n, secs) = done[v];
        out!("{:>14.0}", if secs > 0.0 { n as f64 / secs } else { 0.0 });
    }
    outln!();
}
