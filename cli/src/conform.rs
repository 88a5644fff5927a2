//! `gdmarshal conform` (the conformance runner) and `gdmarshal testee` (this crate's codec as a
//! testee). See docs/conformance.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::{EXIT_FOUND, fail, write_stdout};
use gdmarshal::profile::Profile;
use gdmarshal_lab::conform::{self, Options, report};
use gdmarshal_lab::corpus::{self, known};
use gdmarshal_lab::model;

/// Which cases to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Decode cases only.
    Decode,
    /// Encode cases only.
    Encode,
    /// Both.
    Both,
}

/// How to report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For people: failures in detail, then a summary per type family.
    Text,
    /// One JSON document.
    Json,
    /// JUnit XML, for CI test reports.
    Junit,
}

/// `--godot`'s help, from the table of Godot versions (`gdmarshal_lab::versions`).
static GODOT_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "Engine version whose recorded answers to use: {} (the corpus has these)",
        gdmarshal_lab::versions::verified_list().replace(" and ", " or ")
    )
});

/// `gdmarshal conform`: a run against a testee, or `conform init`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ConformCommand {
    #[command(subcommand)]
    command: Option<ConformSubcommand>,
    #[command(flatten)]
    run: Option<ConformArgs>,
    /// Limits for the engine --live starts (outside the run's own flags: clap tells an optional
    /// flattened group apart by its own arguments only).
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    /// The fence each testee process runs in (outside the run's own flags, as `limits`).
    #[command(flatten)]
    fence: super::limits::TesteeLimitArgs,
}

#[derive(clap::Subcommand, Debug)]
enum ConformSubcommand {
    /// Write an adapter kit (a complete testee to wire to your implementation) into DIR.
    Init(InitArgs),
}

/// `gdmarshal conform init`.
#[derive(clap::Args, Debug)]
struct InitArgs {
    /// The kit's language.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(gdmarshal_kits::langs()))]
    lang: String,
    /// The folder to write it into (created if missing).
    dir: PathBuf,
    /// Overwrite files that are already there.
    #[arg(long)]
    force: bool,
}

/// Runs `gdmarshal conform` or `gdmarshal conform init`.
pub fn run_command(a: &ConformCommand) -> ExitCode {
    match (&a.command, &a.run) {
        (Some(ConformSubcommand::Init(i)), _) => init(i),
        (None, Some(r)) => {
            a.limits.install();
            a.fence.install();
            run(r)
        }
        (None, None) => {
            let mut cmd = <super::Cli as clap::CommandFactory>::command();
            let conform = cmd
                .find_subcommand_mut("conform")
                .expect("conform is a command");
            eprintln!("{}", conform.render_usage());
            eprintln!(
                "gdmarshal conform: give --testee CMD and --godot VERSION, or `conform init`"
            );
            ExitCode::from(super::EXIT_TROUBLE)
        }
    }
}

/// `gdmarshal conform init`: writes the kit's files into the folder, never over a file that is
/// there unless `--force` (and then none is written until all are known to be writable), and
/// prints how to build and run it.
fn init(a: &InitArgs) -> ExitCode {
    let kit = gdmarshal_kits::find(&a.lang).expect("clap checked the name");
    let files = kit.files();
    if !a.force
        && let Some((path, _)) = files.iter().find(|(p, _)| a.dir.join(p).exists())
    {
        return fail(format!(
            "{}: already exists; nothing was written (--force overwrites the kit's files)",
            a.dir.join(path).display()
        ));
    }
    for (path, text) in &files {
        let target = a.dir.join(path);
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&target, text));
        if let Err(e) = written {
            return fail(format!("{}: {e}", target.display()));
        }
        outln!("wrote {}", target.display());
    }
    // The ways whose toolchain is installed; every way when none is.
    let installed: Vec<&gdmarshal_kits::Way> = kit
        .ways
        .iter()
        .filter(|w| which::which(w.tool).is_ok())
        .collect();
    outln!("\nThe {} kit needs {}.", kit.lang, kit.needs);
    let ways = if installed.is_empty() {
        let tools: Vec<&str> = kit.ways.iter().map(|w| w.tool).collect();
        outln!("None of {} is on the PATH; once one is:", tools.join(", "));
        kit.ways.iter().collect()
    } else {
        installed
    };
    for (i, way) in ways.iter().enumerate() {
        match (ways.len(), i) {
            (1, _) => outln!("Next:"),
            (_, 0) => outln!("Next, with {}:", way.tool),
            _ => outln!("Or, with {}:", way.tool),
        }
        print_way(way, &a.dir);
    }
    outln!("Then replace its codec with calls into yours: the file's header says where.");
    ExitCode::SUCCESS
}

/// The commands of one way to build and run a kit written to `dir`.
fn print_way(way: &gdmarshal_kits::Way, dir: &std::path::Path) {
    let quoted = report::shell_quote(&dir.display().to_string());
    for step in way.build {
        outln!("  (cd {quoted} && {step})");
    }
    let testee = match way.testee.split_once(' ') {
        Some((program, script)) => format!("{program} {}", dir.join(script).display()),
        None => dir.join(way.testee).display().to_string(),
    };
    outln!(
        "  gdmarshal conform --testee {} --godot 4.6",
        report::shell_quote(&testee)
    );
}

/// `gdmarshal conform` (a run).
#[derive(clap::Args, Debug)]
pub struct ConformArgs {
    /// The testee: a command line (run by `sh -c`) that speaks the testee protocol on
    /// stdin/stdout.
    #[arg(long, value_name = "CMD ARGS")]
    testee: String,
    #[arg(long = "godot", value_name = "VERSION", help = GODOT_HELP.as_str())]
    profile: Profile,
    /// Which cases to run.
    #[arg(long, value_enum, default_value_t = Direction::Both)]
    direction: Direction,
    /// Only cases whose name matches this glob (repeatable).
    #[arg(long = "run", value_name = "GLOB", value_parser = conform::check_glob)]
    run: Vec<String>,
    /// Leave out cases whose name matches this glob (repeatable).
    #[arg(long = "skip", value_name = "GLOB", value_parser = conform::check_glob)]
    skip: Vec<String>,
    /// Expected failures: lines of ENGINE-GLOB CASE-GLOB REASON. Strict: an entry whose cases
    /// now pass, or that matches no case, fails the run.
    #[arg(long = "expect-fail", value_name = "FILE")]
    expect_fail: Option<PathBuf>,
    /// Print the expected-failure list that would make this run pass, instead of the report.
    #[arg(long)]
    print_expect_fail: bool,
    /// Accept a run that judged fewer than 10% of the cases selected (not claimed by the testee,
    /// or skipped by it); without it such a run exits 2, since it shows nothing.
    #[arg(long)]
    allow_partial: bool,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the report to FILE; stdout then shows only the first 50 failing cases with their
    /// replay lines and the summary (what the testee does not claim, the counts, the result).
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Testee processes to run the cases on (1 to 16: the runner's memory budget,
    /// docs/conformance.md "Limits").
    #[arg(long, default_value_t = 1, value_parser = jobs)]
    jobs: u16,
    /// Seconds the testee has to answer one request before it counts as hung (default 5; more
    /// than 0, at most a day).
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    timeout: Option<Duration>,
    /// Seconds the testee has to answer the handshake each time it starts, compiling included
    /// (`go run`, `dotnet run`): default 30; more than 0, at most a day.
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    handshake_timeout: Option<Duration>,
    /// Stop the run after N requests in a row that the testee crashed or hung on; the cases not
    /// run count as failures. 0: never stop.
    #[arg(long, value_name = "N", default_value_t = conform::limits::DEFAULT_MAX_FAILURES_IN_A_ROW)]
    max_failures_in_a_row: usize,
    /// Corpus folder (default: the corpus this binary was built with).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Live mode: instead of the corpus, draw N random values of every type the version has
    /// (N per type), ask the installed engine of --godot to encode them and to decode its own
    /// bytes, and judge the testee on its answers.
    #[arg(long, value_name = "N")]
    live: Option<usize>,
    /// Seed of the live mode's values (default: from the clock; the report shows it).
    #[arg(long, value_name = "S", requires = "live")]
    seed: Option<u64>,
    /// Send the cases the testee's handshake does not claim (versions, types, decode, encode)
    /// too, and report how it answered them apart; they never fail the run.
    #[arg(long)]
    probe_undeclared: bool,
    /// A rejected case passes only when the testee's refusal states the expected kind
    /// ("kind": truncated, bad-type, bad-count, bad-utf8, too-deep, not-allowed-object,
    /// bad-value; docs/conformance.md).
    #[arg(long)]
    strict_errors: bool,
}

/// `--jobs`: a whole number from 1 to [`conform::limits::MAX_JOBS`].
fn jobs(text: &str) -> Result<u16, String> {
    let max = conform::limits::MAX_JOBS;
    match text.parse::<u16>() {
        Ok(n) if (1..=max).contains(&usize::from(n)) => Ok(n),
        _ => Err(format!(
            "give 1 to {max} testee processes: the runner's memory budget holds {max} \
             (docs/conformance.md, \"Limits\")"
        )),
    }
}

/// The directions `--direction` selects.
pub(crate) fn directions(d: Direction) -> Vec<gdmarshal_lab::Direction> {
    match d {
        Direction::Decode => vec![gdmarshal_lab::Direction::Decode],
        Direction::Encode => vec![gdmarshal_lab::Direction::Encode],
        Direction::Both => vec![
            gdmarshal_lab::Direction::Decode,
            gdmarshal_lab::Direction::Encode,
        ],
    }
}

/// `gdmarshal testee`.
#[derive(clap::Args, Debug)]
pub struct TesteeArgs {}

/// Runs `gdmarshal testee`: serves the protocol on stdin/stdout until stdin ends.
pub fn testee(_: &TesteeArgs) -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match conform::serve::serve(stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(conform::serve::ServeError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// A progress bar for the run, drawn on stderr when it is a terminal (indicatif hides it
/// otherwise) and cleared before the report.
struct Bar(indicatif::ProgressBar);

impl conform::Progress for Bar {
    fn start(&self, cases: usize) {
        self.0.set_length(cases as u64);
    }

    fn case_done(&self) {
        self.0.inc(1);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// Runs `gdmarshal conform`.
fn run(a: &ConformArgs) -> ExitCode {
    // SIGINT, SIGTERM, SIGHUP: every testee and engine tree is killed, the report of what ran is
    // written, and the exit status is 128 + the signal.
    if let Err(e) = gdmarshal_lab::sandbox::interrupt::install(
        gdmarshal_lab::sandbox::interrupt::Stop::AfterReport,
    ) {
        return fail(format!("cannot catch signals: {e}"));
    }
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1)
    });
    let (engine, described, stress) = match a.live {
        Some(n) => {
            eprintln!(
                "live mode: {n} random values of every type, seed {seed}, asked of the Godot {} engine",
                a.profile
            );
            let config = super::limits::engine_config();
            match conform::live::live_corpus(a.profile, n, seed, &config) {
                Ok(c) => (c, format!("live engine, seed {seed}"), None),
                Err(e) => return fail(e),
            }
        }
        None => match recorded(a) {
            Ok((c, source)) => {
                let stress = (source.clone(), c.entry.version.clone(), c.profile);
                (c, source.describe(), Some(stress))
            }
            // Nothing to judge against: the run could not be made (exit 2).
            Err(Refusal {
                message,
                nothing_recorded: true,
            }) => {
                eprintln!("gdmarshal: {message}");
                return ExitCode::from(super::EXIT_TROUBLE);
            }
            Err(e) => return fail(e.message),
        },
    };
    let known = match &a.expect_fail {
        Some(p) if !p.exists() => return fail(format!("{}: no such file", p.display())),
        Some(p) => match known::read(p) {
            Ok(k) => k,
            Err(e) => return fail(e),
        },
        None => Vec::new(),
    };
    let defaults = Options::new(a.testee.clone());
    let options = Options {
        testee: a.testee.clone(),
        directions: directions(a.direction),
        run: a.run.clone(),
        skip: a.skip.clone(),
        known,
        jobs: usize::from(a.jobs),
        timeout: a.timeout.unwrap_or(defaults.timeout),
        handshake_timeout: a.handshake_timeout.unwrap_or(defaults.handshake_timeout),
        limits: super::limits::testee_limits(),
        max_failures_in_a_row: a.max_failures_in_a_row,
        sample: a.live.is_some(),
        probe_undeclared: a.probe_undeclared,
        strict_errors: a.strict_errors,
        corpus: described,
        progress: Some(std::sync::Arc::new(Bar(super::engine_runs::bar(
            0, "cases",
        )))),
        expand: stress.map(|(source, version, profile)| expander(source, version, profile)),
    };
    let result = match conform::conform(&engine, &options) {
        Ok(r) => r,
        Err(e) => {
            let text = e.to_string();
            let lines: Vec<String> = text.lines().map(conform::limits::escape_control).collect();
            let failed = fail(lines.join("\n"));
            // Interrupted before the handshake was answered: no report to write.
            return super::interrupted_code().unwrap_or(failed);
        }
    };
    warn_about(&result, a);
    // Too little judged decides the status only of a run that found nothing wrong.
    let partial = result
        .too_few_judged()
        .filter(|_| result.passed() && !a.allow_partial);
    let code = if let Some(code) = super::interrupted_code() {
        code
    } else if !result.passed() {
        ExitCode::from(EXIT_FOUND)
    } else if partial.is_some() {
        // Nothing wrong was found, but too little was asked to call it a pass.
        ExitCode::from(super::EXIT_TROUBLE)
    } else {
        ExitCode::SUCCESS
    };
    if a.print_expect_fail {
        // The list is what was asked for: written, the command succeeded, whatever the run found
        // (its failures are the list's entries).
        let written = write_stdout(conform::expect_fail_list(&result).as_bytes());
        return super::interrupted_code().unwrap_or(written);
    }
    match write_report(&result, a, &replay_flags(a, seed)) {
        Ok(()) => {
            // Said last, below the report, when it decides the exit status.
            if let Some(p) = &partial {
                eprintln!("gdmarshal: {p}");
            }
            code
        }
        Err(e) => fail(e),
    }
}

/// Why there are no recorded answers to run against.
struct Refusal {
    /// What to tell.
    message: String,
    /// No engine's answers are recorded for the version: nothing to judge against.
    nothing_recorded: bool,
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            message,
            nothing_recorded: false,
        }
    }
}

/// The recorded answers of `--godot`'s engine, from `--corpus` or the embedded corpus, with the
/// stand-ins of the stress cases the run selects (each built in full when its case comes up).
fn recorded(a: &ConformArgs) -> Result<(corpus::EngineCorpus, corpus::Source), Refusal> {
    let source = corpus::Source::dir_or_embedded(a.corpus.as_deref());
    let filter = Options {
        run: a.run.clone(),
        skip: a.skip.clone(),
        directions: directions(a.direction),
        ..Options::new(a.testee.clone())
    };
    let mut corpora = corpus::load_from(&source).map_err(|e| e.to_string())?;
    let Some(at) = corpora.iter().position(|c| c.profile == a.profile) else {
        let have: Vec<String> = corpora.iter().map(|c| c.profile.to_string()).collect();
        return Err(Refusal {
            message: format!(
                "{} (this corpus has {})",
                gdmarshal_lab::versions::no_corpus_message(a.profile),
                have.join(", ")
            ),
            nothing_recorded: true,
        });
    };
    corpora[at].enough_answers().map_err(|e| e.to_string())?;
    let mut engine = corpora.swap_remove(at);
    let extra = stand_ins(&source, &engine, &filter)?;
    engine.records.extend(extra);
    Ok((engine, source))
}

/// Builds a stress case's record in full when its case comes up (the others as they are).
pub(crate) fn expander(
    source: corpus::Source,
    version: String,
    profile: Profile,
) -> conform::Expand {
    Box::new(move |r: &model::Record| {
        if corpus::stress::is_stress(r) {
            corpus::stress::materialize(&source, &version, profile, &r.name)
        } else {
            Ok(r.clone())
        }
    })
}

/// The stand-ins of the stress cases of `engine` that `filter` selects (each built in full when
/// its case comes up: [`expander`]).
pub(crate) fn stand_ins(
    source: &corpus::Source,
    engine: &corpus::EngineCorpus,
    filter: &Options,
) -> Result<Vec<model::Record>, String> {
    let wanted = conform::selects(filter).map_err(|e| e.to_string())?;
    corpus::stress::stand_ins(source, &engine.entry.version, engine.profile, &wanted)
        .map_err(|e| e.to_string())
}

/// On stderr: why the run stopped early, a version the testee does not claim, unknown type names.
fn warn_about(result: &conform::Conformance, a: &ConformArgs) {
    if let Some(line) = report::stopped(result) {
        eprintln!("gdmarshal: {line}");
    }
    if !result.claims_version() {
        eprintln!(
            "gdmarshal: testee {:?} declares Godot {}, not {}: every case is skipped as not claimed{}",
            conform::limits::escape_control(&result.hello.name),
            conform::limits::escape_control(&result.hello.versions.to_string()),
            a.profile,
            if a.probe_undeclared {
                " (sent anyway: --probe-undeclared)"
            } else {
                ""
            }
        );
    }
    if !result.hello.unknown_types.is_empty() {
        eprintln!(
            "gdmarshal: the testee's handshake names unknown types: {}",
            conform::limits::escape_control(&result.hello.unknown_types.join(", "))
        );
    }
}

/// The flags a replay command repeats beside `--run CASE`.
fn replay_flags(a: &ConformArgs, seed: u64) -> String {
    let mut extra = String::new();
    if let Some(n) = a.live {
        extra.push_str(&format!(" --live {n} --seed {seed}"));
    }
    if let Some(d) = &a.corpus {
        extra.push_str(&format!(
            " --corpus {}",
            report::shell_quote(&d.display().to_string())
        ));
    }
    if a.strict_errors {
        extra.push_str(" --strict-errors");
    }
    if a.probe_undeclared {
        extra.push_str(" --probe-undeclared");
    }
    if let Some(p) = &a.expect_fail {
        extra.push_str(&format!(
            " --expect-fail {}",
            report::shell_quote(&p.display().to_string())
        ));
    }
    extra
}

/// The report in `--format`, to `--output` (stdout then shows the summary) or stdout.
fn write_report(result: &conform::Conformance, a: &ConformArgs, extra: &str) -> Result<(), String> {
    let text = match a.format {
        Format::Text => report::text(result, extra),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report::json(result, extra))
                .expect("reports serialize");
            s.push('\n');
            s
        }
        Format::Junit => report::junit(result, extra),
    };
    match &a.output {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
            // The failing cases first (at most 50, each with its replay line), for a CI log.
            let mut summary = report::failing(result, extra);
            summary.push_str(&report::summary(result));
            summary.push_str(&format!("report: {}\n", path.display()));
            let _ = write_stdout(summary.as_bytes());
        }
        None => {
            let _ = write_stdout(text.as_bytes());
        }
    }
    Ok(())
}
