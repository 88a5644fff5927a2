//! `gdmarshal diff`: a differential campaign against real engines, or the replay of one finding.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar};

use super::corpus::{bar, print_incidents, print_refused, start_engines};
use super::fail;
use gdmarshal_lab::Answerer;
use gdmarshal_lab::campaign::{self, Class, Config, EngineRun, classify_batch, load_finding};

/// `gdmarshal diff ...`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Engines to run against (names as `gdmarshal engines` shows them), or `all`.
    #[arg(long = "engine", default_value = "all")]
    engines: Vec<String>,
    /// Cases per engine.
    #[arg(long, default_value_t = 10_000)]
    cases: u64,
    /// The seed: the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// First case index (to rerun one case of a campaign: `--from I --cases 1`).
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Where reproducers are written.
    #[arg(long, default_value = "findings")]
    findings: PathBuf,
    /// Most reproducers per class and engine; further findings are only counted.
    #[arg(long, default_value_t = 5)]
    max_saved: usize,
    /// Replay a saved reproducer against its engine and print both answers.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["cases", "seed", "from"])]
    replay: Option<PathBuf>,
    /// Run one corpus case (by name, e.g. `decode/depth/arrays_50000`) on the engines and print
    /// each engine's answer and class.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["cases", "seed", "from", "replay"])]
    corpus_case: Option<String>,
}

/// Runs `gdmarshal diff`.
pub fn run(a: &DiffArgs) -> ExitCode {
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
    let j = match classify_batch(engine, std::slice::from_ref(&case), &known) {
        Ok(mut j) => j.pop().expect("one answer per case"),
        Err(e) => return fail(e),
    };
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

/// The one list of expected differences, `corpus/known-differences.txt`.
fn known_differences() -> Result<Vec<gdmarshal_lab::corpus::known::Entry>, String> {
    gdmarshal_lab::corpus::known::read(
        &gdmarshal_lab::corpus::default_dir().join("known-differences.txt"),
    )
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
                            gdmarshal_lab::corpus::Case::Decode { name: n, .. }
                            | gdmarshal_lab::corpus::Case::Encode { name: n, .. } => *n == name,
                        })?;
                let j = known_differences().and_then(|known| {
                    classify_batch(&mut engine, std::slice::from_ref(&case), &known)
                });
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

fn campaign_cmd(a: &DiffArgs) -> ExitCode {
    let engines = match start_engines(&engine_names(a)) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let known = match known_differences() {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let cfg = Config {
        known,
        seed: a.seed,
        cases: a.cases,
        findings_dir: Some(a.findings.clone()),
        max_saved_per_class: a.max_saved,
    };
    let started = Instant::now();
    let multi = MultiProgress::new();
    let handles: Vec<std::io::Result<_>> = engines
        .into_iter()
        .map(|mut engine| {
            let b: ProgressBar = multi.add(bar(cfg.cases as usize, engine.name()));
            let cfg = cfg.clone();
            let from = a.from;
            // The corpus cases include very deep values: give the thread room for them.
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn(move || {
                    let version = engine.info().version.clone();
                    let r = campaign::run_engine(&mut engine, &version, &cfg, from, &|n| b.inc(n));
                    b.finish();
                    r
                })
        })
        .collect();
    let runs: Vec<Result<EngineRun, String>> = handles
        .into_iter()
        .map(|h| match h {
            Ok(h) => h
                .join()
                .unwrap_or_else(|_| Err("campaign thread panicked".into())),
            Err(e) => Err(format!("cannot start a campaign thread: {e}")),
        })
        .collect();
    let elapsed = started.elapsed();
    let mut ok = Vec::new();
    for r in runs {
        match r {
            Ok(r) => ok.push(r),
            Err(e) => return fail(e),
        }
    }
    print_summary(&ok, cfg.seed, cfg.cases, elapsed.as_secs_f64());
    for r in &ok {
        print_incidents(&r.version, &r.incidents);
        print_refused(&r.version, r.refused);
    }
    let unanswered: u64 = ok.iter().map(EngineRun::unanswered).sum();
    if unanswered > 0 {
        return fail(format!(
            "{unanswered} cases unanswered: the engines could not answer them, so nothing is known about them"
        ));
    }
    ExitCode::SUCCESS
}

fn print_summary(runs: &[EngineRun], seed: u64, cases: u64, secs: f64) {
    outln!(
        "seed {seed}, {cases} cases per engine, {} engines, {secs:.1} s",
        runs.len()
    );
    out!("{:<27}", "class");
    for r in runs {
        out!(
            "{:>14}",
            r.version.split('.').take(3).collect::<Vec<_>>().join(".")
        );
    }
    outln!();
    for c in Class::ALL {
        out!("{:<27}", c.name());
        for r in runs {
            out!("{:>14}", r.counts.get(&c).copied().unwrap_or(0));
        }
        outln!();
    }
    let mut per: BTreeMap<Class, usize> = BTreeMap::new();
    for r in runs {
        for (_, f) in &r.findings {
            *per.entry(f.class).or_default() += 1;
        }
    }
    let total: usize = per.values().sum();
    outln!("{total} reproducers written:");
    for r in runs {
        for (_, f) in &r.findings {
            outln!("  {:<26} {}  {}", f.class.name(), f.engine, f.replay);
        }
    }
}
