//! `gdmarshal corpus check --engine NAME [--against VERSION] [--format text|markdown]`: a
//! regression report for an engine build against a recorded version's answers. Exits 0 when the
//! build answers every case as recorded, 1 when anything changed, 2 when it could not be run.

use std::process::ExitCode;

use super::EXIT_TROUBLE;
use super::engine_runs::{bar, print_incidents};
use gdmarshal_lab::corpus::regression::{Regression, pick};
use gdmarshal_lab::corpus::{self, drift};

/// `--format` of the report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Plain text, one CHANGED block per case.
    Text,
    /// Markdown for a pull-request comment.
    Markdown,
}

/// Runs the report of `engine` against the recorded corpus `against` of `source`.
pub fn run(
    engine: &str,
    against: Option<&str>,
    format: Format,
    source: &corpus::Source,
) -> ExitCode {
    let corpora = match corpus::load_from(source) {
        Ok(c) => c,
        Err(e) => return could_not(e),
    };
    let mut engines = match super::engine_runs::start_engines(&[engine.to_string()]) {
        Ok(e) => e,
        Err(e) => return could_not(e),
    };
    let Some(build) = engines.first_mut() else {
        return could_not(format!("no engine named {engine}"));
    };
    let info = build.info().clone();
    let wanted = against.map_or_else(|| info.version.clone(), str::to_string);
    let Some(recorded) = pick(&corpora, &wanted) else {
        let have: Vec<&str> = corpora.iter().map(|c| c.entry.version.as_str()).collect();
        return could_not(format!(
            "no recorded corpus of Godot {wanted} (recorded: {}); pass --against one of them",
            have.join(", ")
        ));
    };
    let b = bar(recorded.records.len(), engine);
    let d = drift::check(recorded, build, &mut |n| b.set_position(n as u64));
    b.finish_and_clear();
    if let Some(p) = &d.problem {
        return could_not(format!("{engine} against {}: {p}", recorded.entry.version));
    }
    let incidents = d.incidents.clone();
    let report = Regression {
        engine: engine.to_string(),
        engine_version: info.version_string.clone(),
        against: recorded.entry.version.clone(),
        drift: d,
    };
    match format {
        Format::Text => out!("{}", report.text()),
        Format::Markdown => out!("{}", report.markdown()),
    }
    if format == Format::Text {
        print_incidents(engine, &incidents);
    }
    if report.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_FOUND)
    }
}

fn could_not(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("gdmarshal: {message}");
    ExitCode::from(EXIT_TROUBLE)
}
