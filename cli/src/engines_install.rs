//! `gdmarshal engines install` (Godot's official release builds) and `gdmarshal engines add` (any
//! Godot binary): both put an engine into the engine cache and its manifest.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::EXIT_TROUBLE;
use gdmarshal_lab::oracle::install::{
    self, DEFAULT_BASE, Installed, Official, Progress, RELEASES_VAR, Release,
};
use gdmarshal_lab::oracle::{EngineConfig, engine_cache};

/// `gdmarshal engines install|add`.
#[derive(clap::Subcommand, Debug)]
pub enum EnginesCommand {
    /// Fetch Godot's official Linux x86_64 build of each release (3.x: the headless or server
    /// build), check it against the release's SHA512-SUMS.txt, unpack it into the engine cache
    /// and list it in the manifest once it runs and reports the version asked for.
    Install(InstallArgs),
    /// Register a Godot binary (e.g. a build of a branch or pull request) as engine NAME, once
    /// it runs and reports its version; it is then named with `--engine NAME`.
    Add(AddArgs),
}

static FROM_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "Where the releases are, laid out as BASE/<tag>/<file>: an http(s) URL or a local folder \
         [default: ${RELEASES_VAR}, else {DEFAULT_BASE}]"
    )
});

/// `gdmarshal engines install`.
#[derive(clap::Args, Debug)]
pub struct InstallArgs {
    /// Release versions: 4.3, 4.6.3, 3.5.3, 4.4-rc1 (no status means -stable).
    #[arg(required = true, value_name = "VERSION")]
    versions: Vec<String>,
    #[arg(long = "from", value_name = "BASE", help = FROM_HELP.as_str())]
    from: Option<String>,
    /// The engine's name in the cache (one VERSION only) [default: the tag without -stable].
    #[arg(long)]
    name: Option<String>,
    /// Reinstall, or replace an engine of the same name from elsewhere.
    #[arg(long)]
    force: bool,
    /// Seconds the engine may take to start and report its version.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = super::seconds)]
    timeout: Duration,
    /// Limits for the engine it starts to ask the version.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

/// `gdmarshal engines add`.
#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// The engine's name (`--engine NAME`, `gdmarshal engines`).
    name: String,
    /// The Godot binary (an editor build runs with --headless).
    path: PathBuf,
    /// Replace an engine of the same name.
    #[arg(long)]
    force: bool,
    /// Seconds the engine may take to start and report its version.
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = super::seconds)]
    timeout: Duration,
    /// Limits for the engine it starts to ask the version.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

/// Runs `gdmarshal engines install|add`: 0 when every engine is in place, 2 when one could not
/// be installed (the one-line reason on stderr).
pub fn run(command: &EnginesCommand) -> ExitCode {
    let Some(cache) = engine_cache() else {
        return could_not("no engine cache folder: set GDMARSHAL_ENGINE_CACHE or HOME");
    };
    match command {
        EnginesCommand::Install(a) => {
            a.limits.install();
            install(&cache, a)
        }
        EnginesCommand::Add(a) => {
            a.limits.install();
            let config = config(a.timeout);
            match install::add_custom(&cache, &a.name, &a.path, a.force, &config) {
                Ok(done) => {
                    report(&done);
                    ExitCode::SUCCESS
                }
                Err(e) => could_not(format!("{}: {e}", a.name)),
            }
        }
    }
}

fn install(cache: &std::path::Path, a: &InstallArgs) -> ExitCode {
    if a.name.is_some() && a.versions.len() > 1 {
        return could_not("--name names one engine: give one VERSION with it");
    }
    let base = install::base_from(a.from.as_deref());
    let config = config(a.timeout);
    let mut failed = false;
    for v in &a.versions {
        let result = Release::parse(v).and_then(|release| {
            let want = Official {
                name: a.name.clone().unwrap_or_else(|| release.default_name()),
                release,
                base: base.clone(),
                force: a.force,
            };
            install::install_official(cache, &want, &config, &mut Bar::default())
        });
        match result {
            Ok(done) => report(&done),
            Err(e) => {
                failed = true;
                eprintln!("gdmarshal: {v}: {e}");
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_TROUBLE)
    } else {
        ExitCode::SUCCESS
    }
}

fn report(done: &Installed) {
    let how = if done.already {
        "installed already"
    } else {
        "installed"
    };
    outln!(
        "{}: {how}: Godot {} ({}) from {}",
        done.name,
        done.version,
        done.version_string,
        done.from
    );
    if let Some(sha) = &done.sha512 {
        outln!("{}: SHA-512 {sha} (as SHA512-SUMS.txt says)", done.name);
    }
    outln!("{}: launcher {}", done.name, done.launcher.display());
}

fn config(timeout: Duration) -> EngineConfig {
    EngineConfig {
        start_timeout: timeout,
        ..super::limits::engine_config()
    }
}

fn could_not(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("gdmarshal: {message}");
    ExitCode::from(EXIT_TROUBLE)
}

/// A download's progress bar on stderr.
#[derive(Default)]
struct Bar(Option<ProgressBar>);

impl Progress for Bar {
    fn start(&mut self, file: &str, total: Option<u64>, already: u64) {
        let b = match total {
            Some(t) => ProgressBar::new(t),
            None => ProgressBar::no_length(),
        };
        b.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        b.set_message(file.to_string());
        b.set_position(already);
        self.0 = Some(b);
    }

    fn advance(&mut self, bytes: u64) {
        if let Some(b) = &self.0 {
            b.inc(bytes);
        }
    }

    fn finish(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}
