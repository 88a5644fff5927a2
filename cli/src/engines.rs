//! `gdmarshal engines`: the Godot engines the oracle can use, with the version each reports.

use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use super::{fail, write_stdout};
use gdmarshal_lab::oracle::{
    Engine, EngineConfig, EngineSpec, OracleError, Source, discover, manifest_path, start_all,
};

/// Options of `gdmarshal engines`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct EnginesArgs {
    /// Install or register an engine instead of listing them.
    #[command(subcommand)]
    pub command: Option<super::engines_install::EnginesCommand>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The same as --format json (kept for one release).
    #[arg(long, hide = true)]
    pub json: bool,
    /// Seconds each engine may take to start and report its version (more than 0, at most a
    /// day).
    #[arg(long, default_value = "60", value_name = "SECS", value_parser = super::seconds)]
    pub timeout: Duration,
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
}

/// `gdmarshal engines --format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A table for people.
    Text,
    /// One JSON document.
    Json,
}

/// Lists every engine found (install manifest, `GDMARSHAL_GODOT*` variables, `PATH`), each run
/// once to ask its version. Exits 1 if none is found or none runs.
pub fn run(args: &EnginesArgs) -> ExitCode {
    if let Some(command) = &args.command {
        return super::engines_install::run(command);
    }
    args.limits.install();
    let specs = discover();
    if specs.is_empty() {
        let manifest = manifest_path()
            .map(|p| p.display().to_string())
            .unwrap_or("(no cache dir)".into());
        return fail(format!(
            "no Godot engine found: none in the manifest {manifest}, none named by GDMARSHAL_GODOT or \
             GDMARSHAL_GODOT<MAJOR>_<MINOR>, no godot, godot4, godot3 or godot3-server on PATH \
             (scripts/install-engines.sh installs {})",
            gdmarshal_lab::versions::ci_engines().join(", ")
        ));
    }
    let config = EngineConfig {
        start_timeout: args.timeout,
        ..super::limits::engine_config()
    };
    let started = start_all(specs, &config);
    let any_ok = started.iter().any(|(_, r)| r.is_ok());
    let out = if args.json || args.format == Format::Json {
        json_list(&started)
    } else {
        table(&started)
    };
    let code = write_stdout(out.as_bytes());
    if any_ok {
        code
    } else {
        fail("no engine found could be run")
    }
}

fn source_kind(s: &Source) -> (&'static str, String) {
    match s {
        Source::Manifest(p) => ("manifest", p.display().to_string()),
        Source::Env(var) => ("env", var.clone()),
        Source::Path(name) => ("path", name.clone()),
    }
}

fn json_list(started: &[(EngineSpec, Result<Engine, OracleError>)]) -> String {
    let engines: Vec<_> = started
        .iter()
        .map(|(spec, r)| {
            let (kind, detail) = source_kind(&spec.source);
            let mut j = json!({
                "name": spec.name,
                "launcher": spec.launcher.display().to_string(),
                "source": {"kind": kind, "detail": detail},
                "built_from": spec.built_from,
                "in_all": spec.in_all,
            });
            match r {
                Ok(e) => {
                    let i = e.info();
                    j["version"] = i.version.clone().into();
                    j["version_string"] = i.version_string.clone().into();
                    j["profile"] = i.profile.to_string().into();
                    j["profile_exact"] = i.profile_exact.into();
                    j["format"] = gdmarshal_lab::versions::status(i.profile).into();
                }
                Err(err) => j["error"] = err.to_string().into(),
            }
            j
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&json!({ "engines": engines })).expect("JSON");
    text.push('\n');
    text
}

fn table(started: &[(EngineSpec, Result<Engine, OracleError>)]) -> String {
    let mut rows = vec![
        [
            "NAME", "VERSION", "PROFILE", "FORMAT", "FOUND IN", "LAUNCHER",
        ]
        .map(String::from),
    ];
    let mut errors = String::new();
    for (spec, r) in started {
        let (kind, detail) = source_kind(&spec.source);
        let (version, profile, format) = match r {
            Ok(e) => {
                let i = e.info();
                let approx = if i.profile_exact { "" } else { " (nearest)" };
                let format = gdmarshal_lab::versions::status(i.profile);
                (
                    i.version_string.clone(),
                    format!("{}{approx}", i.profile),
                    format,
                )
            }
            Err(err) => {
                errors.push_str(&format!("{}: {err}\n", spec.name));
                ("(does not run)".into(), "-".into(), "-")
            }
        };
        let found = if let Some(tarball) = &spec.built_from {
            format!("manifest, built from {tarball}")
        } else if kind == "manifest" {
            kind.to_string()
        } else {
            format!("{kind} {detail}")
        };
        rows.push([
            spec.name.clone(),
            version,
            profile,
            format.to_string(),
            found,
            spec.launcher.display().to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..6)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    if !errors.is_empty() {
        out.push('\n');
        out.push_str(&errors);
    }
    out
}
