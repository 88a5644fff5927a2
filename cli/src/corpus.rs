//! `gdmarshal corpus generate` and `gdmarshal corpus check`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::engine_runs::{bar, print_incidents, print_refused, start_engines};
use super::{EXIT_FOUND, EXIT_TROUBLE, fail};
use gdmarshal_lab::corpus::generate::{generate, generate_keeping};
use gdmarshal_lab::corpus::run::{Settled, run, stale_entries};
use gdmarshal_lab::corpus::{self, all_cases, known};
use gdmarshal_lab::{Answerer, ThisCodec, model};

/// `gdmarshal corpus ...`.
#[derive(clap::Args, Debug)]
pub struct CorpusArgs {
    #[command(subcommand)]
    command: CorpusCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CorpusCommand {
    /// Ask every installed engine every case and rewrite its corpus file.
    Generate(NewCorpusArgs),
    /// Check the codec against every case, and (with engines) that the engines still answer as
    /// the corpus says: the regression gate.
    Check(CheckArgs),
    /// Ask every installed engine the stress cases (large values, stored as recipes and hashes
    /// in corpus/stress.jsonl) and rewrite its lines of that file.
    Stress(GenerateArgs),
    /// Ask every installed engine the framing cases (store_var / put_var / get_var, and its
    /// Basis axes) and rewrite corpus/framing/ and its checksums.
    Framing(FramingArgs),
    /// Ask every installed engine with a corpus file its classes, its project's scripts and the
    /// stored properties of the classes its records hold, and rewrite corpus/classes/ and its
    /// checksums (what `corpus check` judges full objects and script paths with).
    Classes(GenerateArgs),
}

#[derive(clap::Args, Debug)]
struct NewCorpusArgs {
    #[command(flatten)]
    common: GenerateArgs,
    /// Keep the recorded answer of every case that the engine's corpus file already answers as
    /// the case is asked now (same name, input or value, and objects), and ask the engine only
    /// the others (new cases, and those whose input or value changed): cases are added with the
    /// earlier records left byte for byte as they were. `corpus check` holds the kept answers to
    /// the engines.
    #[arg(long)]
    keep_recorded: bool,
}

#[derive(clap::Args, Debug)]
struct FramingArgs {
    /// Framing corpus folder (as `gdmarshal report --framing`).
    #[arg(long = "framing", alias = "dir", value_name = "DIR", default_value_os_t = gdmarshal_lab::framing_corpus::default_dir())]
    dir: PathBuf,
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Corpus folder to write (this repository's corpus/ by default).
    #[arg(long = "corpus", alias = "dir", value_name = "DIR", default_value_os_t = corpus::default_dir())]
    dir: PathBuf,
    /// Only these engines (names as `gdmarshal engines` shows them); all found when omitted.
    #[arg(long = "engine")]
    engines: Vec<String>,
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Corpus folder; by default the corpus embedded in this binary.
    #[arg(long, alias = "dir", value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Skip the drift check against live engines (the codec check needs none).
    #[arg(long)]
    no_engines: bool,
    /// Instead, ask this engine build (a name `gdmarshal engines` lists, e.g. one registered with
    /// `gdmarshal engines add`) every case of a recorded version and report what changed; exit 1
    /// when anything did.
    #[arg(long, value_name = "NAME", conflicts_with = "no_engines")]
    engine: Option<String>,
    /// With --engine: the recorded version to hold the build against (4.6.3, 3.2.3,
    /// 4.6.3-double) [default: the build's own version].
    #[arg(long, value_name = "VERSION", requires = "engine")]
    against: Option<String>,
    /// With --engine: the report as text, or as Markdown for a pull-request comment.
    #[arg(long, value_enum, default_value_t = super::corpus_regression::Format::Text, requires = "engine")]
    format: super::corpus_regression::Format,
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

/// Runs `gdmarshal corpus`.
pub fn run_corpus(a: &CorpusArgs) -> ExitCode {
    match &a.command {
        CorpusCommand::Generate(g) => {
            g.common.limits.install();
            generate_cmd(g)
        }
        CorpusCommand::Check(c) => {
            c.limits.install();
            check_cmd(c)
        }
        CorpusCommand::Framing(f) => {
            f.limits.install();
            framing_cmd(f)
        }
        CorpusCommand::Classes(g) => {
            g.limits.install();
            classes_cmd(g)
        }
        CorpusCommand::Stress(g) => {
            g.limits.install();
            stress_cmd(g)
        }
    }
}

/// `gdmarshal corpus framing`: records every installed engine's framing answers.
fn framing_cmd(a: &FramingArgs) -> ExitCode {
    let engines = match start_engines(&[]) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    for mut e in engines {
        let version = e.info().version.clone();
        let records = match gdmarshal_lab::framing_corpus::record(&mut e) {
            Ok(r) => r,
            Err(err) => return fail(format!("engine {version}: {err}")),
        };
        if let Err(err) = gdmarshal_lab::framing_corpus::save(&a.dir, &version, &records) {
            return fail(err);
        }
        outln!("{version}: {} framing records", records.len());
    }
    ExitCode::SUCCESS
}

/// `gdmarshal corpus classes`: records the classes of every installed engine that has a corpus
/// file.
fn classes_cmd(a: &GenerateArgs) -> ExitCode {
    let corpora = match corpus::load_from(&corpus::Source::Dir(a.dir.clone())) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let engines = match start_engines(&a.engines) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    for mut e in engines {
        let version = e.info().version.clone();
        let Some(c) = corpora.iter().find(|c| c.entry.version == version) else {
            outln!("{version}: no corpus file, skipped");
            continue;
        };
        let classes = match corpus::classes::record(&mut e, &c.records) {
            Ok(v) => v,
            Err(err) => return fail(format!("engine {version}: {err}")),
        };
        if let Err(err) = corpus::classes::save(&a.dir, &version, &classes) {
            return fail(err);
        }
        let count = |k: &str| {
            classes.get(k).map_or(0, |v| match v {
                serde_json::Value::Array(a) => a.len(),
                serde_json::Value::Object(m) => m.len(),
                _ => 0,
            })
        };
        outln!(
            "{version}: {} classes, {} scripts, defaults of {} classes and {} given a script",
            count("classes"),
            count("scripts"),
            count("defaults"),
            count("scripted")
        );
    }
    ExitCode::SUCCESS
}

fn generate_cmd(g: &NewCorpusArgs) -> ExitCode {
    let a = &g.common;
    // What is recorded now, by version, when the earlier answers are to be kept.
    let recorded = if g.keep_recorded && a.dir.join("manifest.json").exists() {
        match corpus::load(&a.dir) {
            Ok(c) => c,
            Err(e) => return fail(format!("--keep-recorded: {e}")),
        }
    } else {
        Vec::new()
    };
    let engines = match start_engines(&a.engines) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    for mut engine in engines {
        let info = engine.info().clone();
        let cases = all_cases(info.profile);
        let earlier = recorded
            .iter()
            .find(|c| c.entry.version == info.version)
            .map_or(&[][..], |c| &c.records[..]);
        let b = bar(cases.len(), engine.name());
        let generated = if g.keep_recorded {
            generate_keeping(&mut engine, &cases, earlier, &mut |done| {
                b.set_position(done as u64)
            })
        } else {
            generate(&mut engine, &cases, &mut |done| b.set_position(done as u64)).map(|r| (r, 0))
        };
        b.finish_and_clear();
        print_incidents(&info.version, &engine.take_incidents());
        print_refused(&info.version, engine.refused());
        let (records, kept) = match generated {
            Ok(r) => r,
            Err(e) => {
                for u in &e.unanswered {
                    outln!("UNANSWERED {} {u}", info.version);
                }
                return fail(format!(
                    "engine {}: {e}; its corpus file was not written",
                    info.version
                ));
            }
        };
        if let Err(e) = corpus::save(&a.dir, &info.version, info.profile, &records) {
            return fail(e);
        }
        let invalid = records.iter().filter(|r| r.is_invalid()).count();
        let odd = records
            .iter()
            .filter(|r| !r.nondeterministic.is_empty())
            .count();
        let incidents = records
            .iter()
            .filter(|r| matches!(r.verdict, model::Verdict::Crashed | model::Verdict::Hung))
            .count();
        let kept = if g.keep_recorded {
            format!(" ({kept} kept as recorded, {} asked)", records.len() - kept)
        } else {
            String::new()
        };
        outln!(
            "Godot {}: {} cases{kept}, {} invalid ({:.0}%), {} nondeterministic, {} crashed or hung the engine",
            info.version,
            records.len(),
            invalid,
            100.0 * invalid as f64 / records.len().max(1) as f64,
            odd,
            incidents
        );
    }
    ExitCode::SUCCESS
}

fn stress_cmd(a: &GenerateArgs) -> ExitCode {
    let engines = match start_engines(&a.engines) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    for mut engine in engines {
        let info = engine.info().clone();
        let started = std::time::Instant::now();
        let records = match corpus::stress::record(&mut engine) {
            Ok(r) => r,
            Err(e) => {
                return fail(format!(
                    "engine {}: {e}; the stress file was not written",
                    info.version
                ));
            }
        };
        print_incidents(&info.version, &engine.take_incidents());
        if let Err(e) = corpus::stress::write(&a.dir, &records) {
            return fail(e);
        }
        // The rebuilt records must be the engine's answers, or conform could not use them.
        let source = corpus::Source::Dir(a.dir.clone());
        if let Err(e) = corpus::stress::check(&source, &info.version, info.profile) {
            return fail(e);
        }
        let accepted = records
            .iter()
            .filter(|r| r.verdict == model::Verdict::Accepted)
            .count();
        outln!(
            "Godot {}: {} stress cases, {} accepted, in {:.1} s",
            info.version,
            records.len(),
            accepted,
            started.elapsed().as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}

fn check_cmd(a: &CheckArgs) -> ExitCode {
    let source = corpus::Source::dir_or_embedded(a.corpus.as_deref());
    if let Some(engine) = &a.engine {
        return super::corpus_regression::run(engine, a.against.as_deref(), a.format, &source);
    }
    let corpora = match corpus::load_from(&source) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    outln!("{}", source.describe());
    if let Some(e) = corpora.iter().find_map(|c| c.enough_answers().err()) {
        return fail(e);
    }
    let known = match known::read_from(&source) {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let total: usize = corpora.iter().map(|c| c.records.len()).sum();
    let b = bar(total, "codec");
    let mut results = Vec::new();
    for c in &corpora {
        let classes = match corpus::classes::load(&source, &c.entry.version, c.profile) {
            Ok(l) => l.map(std::sync::Arc::new),
            Err(e) => return fail(e),
        };
        let mut codec = ThisCodec::new(c.profile).with_classes(classes);
        results.extend(run(&mut codec, c, &known, &|_, _| true, &mut || b.inc(1)));
    }
    b.finish_and_clear();
    let mut bad = 0;
    outln!(
        "{:<20} {:>7} {:>7} {:>9} {:>7} {:>7}",
        "engine",
        "cases",
        "pass",
        "expected",
        "skip",
        "FAIL"
    );
    for c in &corpora {
        let mine: Vec<_> = results
            .iter()
            .filter(|r| r.engine == c.entry.version)
            .collect();
        let count = |f: fn(&Settled) -> bool| mine.iter().filter(|r| f(&r.settled)).count();
        let fails = count(|s| matches!(s, Settled::Fail(_) | Settled::UnexpectedPass(_)));
        bad += fails;
        outln!(
            "{:<20} {:>7} {:>7} {:>9} {:>7} {:>7}",
            c.entry.version,
            mine.len(),
            count(|s| *s == Settled::Pass),
            count(|s| matches!(s, Settled::ExpectedFail(_))),
            count(|s| matches!(s, Settled::Skip(_))),
            fails
        );
    }
    for r in &results {
        match &r.settled {
            Settled::Fail(why) => outln!("FAIL {} {}: {why}", r.engine, r.name),
            Settled::UnexpectedPass(entry) => outln!(
                "FAIL {} {}: passes, but is listed as an expected difference ({entry}); remove the entry",
                r.engine,
                r.name
            ),
            _ => {}
        }
    }
    for k in stale_entries(&known, &results) {
        outln!(
            "FAIL {}: expected difference matches no failing case; remove it",
            k.origin
        );
        bad += 1;
    }
    let drifted = if a.no_engines {
        DriftCount::default()
    } else {
        drift(&corpora)
    };
    bad += drifted.changed;
    if drifted.trouble > 0 {
        // Something could not be asked: what was not asked is not known to agree.
        outln!("{bad} problems, {} checks could not run", drifted.trouble);
        ExitCode::from(EXIT_TROUBLE)
    } else if bad > 0 {
        outln!("{bad} problems");
        ExitCode::from(EXIT_FOUND)
    } else {
        outln!("ok");
        ExitCode::SUCCESS
    }
}

/// What the drift check found: answers that changed, and checks that could not run (an engine
/// missing or failing, cases unanswered).
#[derive(Default)]
struct DriftCount {
    changed: usize,
    trouble: usize,
}

/// Asks the live engines every committed case again.
fn drift(corpora: &[corpus::EngineCorpus]) -> DriftCount {
    let mut engines = match start_engines(&[]) {
        Ok(e) => e,
        Err(e) => {
            outln!("FAIL drift check: {e}");
            return DriftCount {
                changed: 0,
                trouble: 1,
            };
        }
    };
    let mut count = DriftCount::default();
    for c in corpora {
        let Some(engine) = engines
            .iter_mut()
            .find(|e| e.info().version == c.entry.version)
        else {
            // Double-precision engines are built from source (scripts/build-engine.sh), which
            // neither the README's commands nor CI do: without one, only the codec check runs.
            if c.profile.double_reals() {
                outln!(
                    "drift check {}: not run, no engine of this version here (scripts/build-engine.sh builds one)",
                    c.entry.version
                );
                continue;
            }
            let p = corpus::drift::DriftProblem::NoEngine(c.entry.version.clone());
            outln!("FAIL drift check: {p}");
            count.trouble += 1;
            continue;
        };
        let b = bar(c.records.len(), &c.entry.version);
        let d = corpus::drift::check(c, engine, &mut |n| b.set_position(n as u64));
        b.finish_and_clear();
        if let Some(p) = &d.problem {
            outln!("FAIL {}: {p}", d.version);
            count.trouble += 1;
            continue;
        }
        for ch in &d.changed {
            outln!(
                "DRIFT {} {}: {} changed (corpus {:?}, engine now {:?})",
                d.version,
                ch.corpus.name,
                model::Field::names(&ch.fields),
                ch.corpus.verdict,
                ch.now.verdict
            );
        }
        for u in &d.unanswered {
            outln!("UNANSWERED {} {u}", d.version);
        }
        print_incidents(&d.version, &d.incidents);
        print_refused(&d.version, d.refused);
        outln!(
            "drift check {}: {} cases asked again, {} changed, {} unanswered",
            d.version,
            d.asked,
            d.changed.len(),
            d.unanswered.len()
        );
        count.changed += d.changed.len();
        count.trouble += d.unanswered.len();
    }
    count
}
