//! The `gdmarshal` binary: parses the command line, calls the codec and the lab, prints.
//! See `gdmarshal --help`.

use std::io::Write;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gdmarshal::profile::Profile;

// First: its macros (outln!, out!) serve the modules below.
#[macro_use]
mod output;

mod check_vectors;
mod codec;
mod conform;
mod corpus;
mod corpus_regression;
mod diff;
mod engine_runs;
mod engines;
mod engines_install;
mod implementations;
mod input;
mod limits;
mod report;

/// Exit code when the command ran and its answer is "no": differences or failing checks found,
/// or input the format rejects (`decode`, `inspect`, `encode`).
pub const EXIT_FOUND: u8 = 1;

/// Exit code when the command could not run or finish: bad usage (clap uses it for its own
/// errors), an unreadable file, an engine or testee that could not start or answer.
pub const EXIT_TROUBLE: u8 = 2;

/// The exit codes, the same for every command; shown under `--help`.
const EXIT_STATUS: &str = "Exit status: 0 ok; 1 the answer is no: differences or failing checks \
found, or input the format rejects (decode, inspect, encode); 2 could not run: bad usage, an \
unreadable file, an engine or testee that could not start or answer; 129, 130, 143 interrupted \
by SIGHUP, SIGINT, SIGTERM; 141 the reader of stdout went away.";

/// 128 + the signal, when SIGINT, SIGTERM or SIGHUP stopped the run.
fn interrupted_code() -> Option<ExitCode> {
    let sig = gdmarshal_lab::sandbox::interrupt::received()?;
    Some(ExitCode::from(u8::try_from(128 + sig).unwrap_or(u8::MAX)))
}

/// `--version`: the release and the corpus this binary carries (the first 12 digits of its
/// digest; `--version` in full gives the whole digest and the engine versions it holds).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} (embedded corpus {})",
        env!("CARGO_PKG_VERSION"),
        gdmarshal_lab::corpus::source::short(gdmarshal_corpus::DIGEST)
    )
});

/// `--version` in full. Built for every command line clap parses, so it reads only the small
/// manifest and stress file, never the recorded cases themselves.
static LONG_VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    use gdmarshal_lab::corpus;
    let manifest = gdmarshal_corpus::get("manifest.json")
        .ok_or_else(|| "no manifest".to_string())
        .and_then(|f| f.bytes().map_err(|e| e.to_string()))
        .and_then(|b| serde_json::from_slice::<corpus::Manifest>(&b).map_err(|e| e.to_string()));
    // The stress cases (generated, not recorded: corpus/stress.jsonl, 15 kB) count among a
    // version's cases, as in the docs' tables.
    let stress = corpus::stress::read_from(&corpus::Source::Embedded).unwrap_or_default();
    let engines = match manifest {
        Ok(m) => m
            .engines
            .iter()
            .map(|e| {
                let (cases, large) = corpus::counts::cases_of(e, &stress);
                format!(
                    "{} ({} cases, {large} of them stress cases)",
                    e.version,
                    corpus::counts::thousands(cases)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => format!("unreadable: {e}"),
    };
    let files = gdmarshal_corpus::files();
    format!(
        "{}\nembedded corpus: sha256 {}, {} files, {} bytes compressed from {}\nengines: {engines}",
        env!("CARGO_PKG_VERSION"),
        gdmarshal_corpus::DIGEST,
        files.len(),
        files
            .iter()
            .map(gdmarshal_corpus::Packed::compressed_len)
            .sum::<usize>(),
        files
            .iter()
            .map(gdmarshal_corpus::Packed::len)
            .sum::<usize>(),
    )
});

/// Godot's binary Variant format, checked against real engines.
#[derive(Parser, Debug)]
#[command(
    name = "gdmarshal",
    version = VERSION.as_str(),
    long_version = LONG_VERSION.as_str(),
    about,
    long_about = None,
    after_help = EXIT_STATUS
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Decode bytes (as bytes_to_var reads them) to tagged JSON.
    Decode(codec::DecodeArgs),
    /// Encode tagged JSON to bytes (as var_to_bytes writes them).
    Encode(codec::EncodeArgs),
    /// Print an annotated dump of encoded bytes: offset, raw bytes, field, meaning.
    Inspect(codec::InspectArgs),
    /// Check that the codec reproduces engine-written vector files (godot-VERSION.txt) exactly.
    CheckVectors(check_vectors::CheckVectorsArgs),
    /// Build or check the corpus of engine answers (corpus/, docs/corpus.md).
    Corpus(corpus::CorpusArgs),
    /// Differential campaign against real engines, or replay a finding (--replay FILE).
    Diff(diff::DiffArgs),
    /// Regenerate docs/report.md: type tables, version differences, documentation errors and
    /// engine defects, each with a vector and the engines' answers.
    Report(report::ReportArgs),
    /// List the Godot engines the oracle can use, with the version each reports.
    Engines(engines::EnginesArgs),
    /// Run the corpus against another implementation of the format (a testee program speaking
    /// the protocol of docs/conformance.md).
    Conform(conform::ConformCommand),
    /// Serve this crate's codec over the testee protocol on stdin/stdout.
    Testee(conform::TesteeArgs),
    /// Measure the format's public libraries (the adapters in implementations/) against every
    /// engine version and write the matrix, docs/implementations.md.
    Implementations(implementations::ImplementationsArgs),
}

/// `--godot`'s help for the codec commands, from the table of Godot versions
/// (`gdmarshal_lab::versions`).
static GODOT_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "Godot version whose format to use: {} (a bare major means its newest minor), optionally \
         with -double for a double-precision build (e.g. 4.6-double). Verified (a real \
         engine's answers are recorded): {}. The others are derived from source, not checked by \
         an engine (`gdmarshal engines install` and `gdmarshal corpus generate` record one).",
        gdmarshal_lab::versions::accepted_list(),
        gdmarshal_lab::versions::verified_list()
    )
});

/// The `--godot VERSION` option shared by the codec commands.
#[derive(clap::Args, Debug, Clone)]
pub struct VersionArg {
    #[arg(long = "godot", value_name = "VERSION", help = GODOT_HELP.as_str())]
    pub profile: Profile,
}

/// A positive number of seconds, at most a day: every `--timeout`-like flag.
pub fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(s > 0.0 && s <= 86_400.0) {
        return Err(format!(
            "{text} seconds: give more than 0 and at most 86400"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(s))
}

/// Runs a command that may walk deeply nested trees with generic recursion (see [`STACK`]).
fn run(command: Command) -> ExitCode {
    match command {
        Command::Decode(a) => codec::decode(&a),
        Command::Encode(a) => codec::encode(&a),
        Command::Inspect(a) => codec::inspect(&a),
        Command::CheckVectors(a) => check_vectors::run(&a),
        Command::Corpus(a) => corpus::run_corpus(&a),
        Command::Engines(a) => engines::run(&a),
        Command::Conform(a) => conform::run_command(&a),
        Command::Testee(a) => conform::testee(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Report(a) => report::run(&a),
        Command::Implementations(a) => implementations::run(&a),
    }
}

/// An error line's length at most, in bytes, after its `gdmarshal: `: past it, the middle is cut
/// and the line says how long it was (the codec's errors already quote at most a few hundred bytes
/// of input; this bounds the rest, such as a path given on the command line).
pub const MAX_ERROR_LINE: usize = 1024;

/// Prints `message` on stderr as one error line of at most [`MAX_ERROR_LINE`] bytes.
fn error_line(message: impl std::fmt::Display) {
    let message = message.to_string();
    eprintln!(
        "gdmarshal: {}",
        // The note of what was cut takes at most 64 bytes.
        gdmarshal::excerpt::cut(&message, MAX_ERROR_LINE - 64)
    );
}

/// Prints `message` as the one error line and returns [`EXIT_TROUBLE`]: the command could not
/// run or finish.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    error_line(message);
    ExitCode::from(EXIT_TROUBLE)
}

/// Prints `message` as the one error line and returns [`EXIT_FOUND`]: the command ran and its
/// answer is "no" (the format rejects the input, or differences were found), as the message says.
pub fn found(message: impl std::fmt::Display) -> ExitCode {
    error_line(message);
    ExitCode::from(EXIT_FOUND)
}

/// Writes to stdout; a closed pipe is not an error worth a panic.
pub fn write_stdout(bytes: &[u8]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => output::fail(e),
    }
}

/// Values nest 1024 levels deep and their JSON twice that; generic recursion (clone, drop,
/// comparison, serialization) over such trees needs more than the main thread's 8 MiB in debug
/// builds. Only the pages actually touched are ever committed.
const STACK: usize = 1 << 30;

fn main() -> ExitCode {
    // Every command's --help ends with the exit codes, as the top level's does.
    let matches = <Cli as clap::CommandFactory>::command()
        .mut_subcommands(|c| c.after_help(EXIT_STATUS))
        .get_matches();
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let command = cli.command;
    // decode, encode and inspect walk values only through the codec, which grows the stack as it
    // nests: they run here, without reserving the lab's big stack, so that their address space
    // follows their data (cli/tests/memory.rs runs them under a limit).
    if matches!(
        command,
        Command::Decode(_) | Command::Encode(_) | Command::Inspect(_)
    ) {
        return run(command);
    }
    match std::thread::Builder::new()
        .name("gdmarshal".into())
        .stack_size(STACK)
        .spawn(move || run(command))
    {
        Ok(t) => t.join().unwrap_or(ExitCode::from(EXIT_TROUBLE)),
        Err(e) => fail(format!("cannot start: {e}")),
    }
}
