//! `gdmarshal corpus generate` and `gdmarshal corpus check`.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};

use super::{EXIT_BAD_INPUT, fail};
use gdmarshal_lab::corpus::codec::ThisCodec;
use gdmarshal_lab::corpus::run::{Settled, run, stale_entries};
use gdmarshal_lab::corpus::{self, all_cases, generate::generate, known};
use gdmarshal_lab::oracle::{self, EngineConfig, Oracle};

/// `gdmarshal corpus ...`.
#[derive(clap::Args, Debug)]
pub struct CorpusArgs {
    #[command(subcommand)]
    command: CorpusCommand,
}

#[derive(clap::Subcommand, Debug)]
enum CorpusCommand {
    /// Ask every installed engine every case and rewrite its corpus file.
    Generate(GenerateArgs),
    /// Check the codec against every case, and (with engines) that the engines still answer as
    /// the corpus says: the regression gate.
    Check(CheckArgs),
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Corpus folder.
    #[arg(long, default_value_os_t = corpus::default_dir())]
    dir: PathBuf,
    /// Only these engines (names as `gdmarshal engines` shows them); all found when omitted.
    #[arg(long = "engine")]
    engines: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Corpus folder.
    #[arg(long, default_value_os_t = corpus::default_dir())]
    dir: PathBuf,
    /// Skip the drift check against live engines (the codec check needs none).
    #[arg(long)]
    no_engines: bool,
}

/// Runs `gdmarshal corpus`.
pub fn run_corpus(a: &CorpusArgs) -> ExitCode {
    match &a.command {
        CorpusCommand::Generate(g) => generate_cmd(g),
        CorpusCommand::Check(c) => check_cmd(c),
    }
}

pub(crate) fn bar(len: usize, what: &str) -> ProgressBar {
    let b = ProgressBar::new(len as u64);
    b.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    b.set_prefix(what.to_string());
    b
}

pub(crate) fn start_engines(names: &[String]) -> Result<Vec<oracle::Engine>, String> {
    let specs: Vec<_> = oracle::discover()
        .into_iter()
        .filter(|s| names.is_empty() || names.contains(&s.name))
        .collect();
    if specs.is_empty() {
        return Err(
            "no engines found: run scripts/install-engines.sh or see `gdmarshal engines`".into(),
        );
    }
    oracle::start_all(specs, &EngineConfig::default())
        .into_iter()
        .map(|(spec, r)| r.map_err(|e| format!("engine {} did not start: {e}", spec.name)))
        .collect()
}

fn generate_cmd(a: &GenerateArgs) -> ExitCode {
    let engines = match start_engines(&a.engines) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    for mut engine in engines {
        let info = engine.info().clone();
        let cases = all_cases(info.profile);
        let b = bar(cases.len(), engine.name());
        let records = match generate(&mut engine, &cases, &mut |done| b.set_position(done as u64)) {
            Ok(r) => r,
            Err(e) => return fail(format!("engine {}: {e}", info.version)),
        };
        b.finish_and_clear();
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
            .filter(|r| matches!(r.verdict, corpus::Verdict::Crashed | corpus::Verdict::Hung))
            .count();
        println!(
            "Godot {}: {} cases, {} invalid ({:.0}%), {} nondeterministic, {} crashed or hung the engine",
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

fn check_cmd(a: &CheckArgs) -> ExitCode {
    let corpora = match corpus::load(&a.dir) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let known = match known::read(&a.dir.join("known-differences.txt")) {
        Ok(k) => k,
        Err(e) => return fail(e),
    };
    let total: usize = corpora.iter().map(|c| c.records.len()).sum();
    let b = bar(total, "codec");
    let results = run(&mut ThisCodec, &corpora, &known, &|_, _| true, &mut || {
        b.inc(1)
    });
    b.finish_and_clear();
    let mut bad = 0;
    println!(
        "{:<16} {:>7} {:>7} {:>9} {:>7} {:>7}",
        "engine", "cases", "pass", "expected", "skip", "FAIL"
    );
    for c in &corpora {
        let mine: Vec<_> = results
            .iter()
            .filter(|r| r.engine == c.entry.version)
            .collect();
        let count = |f: fn(&Settled) -> bool| mine.iter().filter(|r| f(&r.settled)).count();
        let fails = count(|s| matches!(s, Settled::Fail(_) | Settled::UnexpectedPass(_)));
        bad += fails;
        println!(
            "{:<16} {:>7} {:>7} {:>9} {:>7} {:>7}",
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
            Settled::Fail(why) => println!("FAIL {} {}: {why}", r.engine, r.name),
            Settled::UnexpectedPass(entry) => println!(
                "FAIL {} {}: passes, but is listed as an expected difference ({entry}); remove the entry",
                r.engine, r.name
            ),
            _ => {}
        }
    }
    for k in stale_entries(&known, &results) {
        println!(
            "FAIL {}: expected difference matches no failing case; remove it",
            k.origin
        );
        bad += 1;
    }
    if !a.no_engines {
        bad += drift(&corpora);
    }
    if bad > 0 {
        println!("{bad} problems");
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        println!("ok");
        ExitCode::SUCCESS
    }
}

/// Asks the live engines every committed case again; returns how many answers changed.
fn drift(corpora: &[corpus::EngineCorpus]) -> usize {
    let engines = match start_engines(&[]) {
        Ok(e) => e,
        Err(e) => {
            println!("FAIL drift check: {e}");
            return 1;
        }
    };
    let mut changed = 0;
    let mut engines = engines;
    for c in corpora {
        let Some(i) = engines
            .iter()
            .position(|e| e.info().version == c.entry.version)
        else {
            println!(
                "FAIL drift check: no engine of version {} is installed",
                c.entry.version
            );
            changed += 1;
            continue;
        };
        let engine: &mut dyn Oracle = &mut engines[i];
        let cases = all_cases(c.profile);
        let names: Vec<&str> = cases.iter().map(|k| k.name()).collect();
        let committed: Vec<&str> = c.records.iter().map(|r| r.name.as_str()).collect();
        if names != committed {
            println!(
                "FAIL {}: the committed cases are not the cases this version generates: run `gdmarshal corpus generate`",
                c.entry.version
            );
            changed += 1;
            continue;
        }
        let b = bar(cases.len(), &c.entry.version);
        let fresh = match gdmarshal_lab::corpus::generate::run_once(engine, &cases, &mut |d| {
            b.set_position(d as u64)
        }) {
            Ok(f) => f,
            Err(e) => {
                println!("FAIL drift check {}: {e}", c.entry.version);
                changed += 1;
                continue;
            }
        };
        b.finish_and_clear();
        let before = changed;
        for (old, new) in c.records.iter().zip(&fresh) {
            let d = old.differences(new);
            if !d.is_empty() {
                println!(
                    "DRIFT {} {}: {} changed (corpus {:?}, engine now {:?})",
                    c.entry.version,
                    old.name,
                    d.join(", "),
                    old.verdict,
                    new.verdict
                );
                changed += 1;
            }
        }
        println!(
            "drift check {}: {} cases asked again, {} changed",
            c.entry.version,
            fresh.len(),
            changed - before
        );
    }
    changed
}
