//! What the commands that run engines share: starting them (signals then kill them), a progress
//! bar, and the lines that say what happened to them.

use indicatif::{ProgressBar, ProgressStyle};

use gdmarshal_lab::oracle;

/// A progress bar of `len` steps, labelled `what`.
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

/// Starts the engines named (all installed when none is). Unless the command chose otherwise
/// first, SIGINT, SIGTERM or SIGHUP then kills them and exits at once with 128 + the signal: a
/// command that starts engines writes its files whole or not at all.
pub(crate) fn start_engines(names: &[String]) -> Result<Vec<oracle::Engine>, String> {
    use gdmarshal_lab::sandbox::interrupt;
    interrupt::install(interrupt::Stop::Now).map_err(|e| format!("cannot catch signals: {e}"))?;
    oracle::start_named(names, &super::limits::engine_config()).map_err(|e| e.to_string())
}

/// Prints a run's engine incidents, if there were any.
pub(crate) fn print_incidents(engine: &str, incidents: &[gdmarshal_lab::model::IncidentRecord]) {
    if !incidents.is_empty() {
        outln!("{engine}: {}", oracle::IncidentSummary::of(incidents));
    }
}

/// Prints how many connections to an engine's port were refused, if any were.
pub(crate) fn print_refused(engine: &str, refused: usize) {
    if refused > 0 {
        outln!(
            "{engine}: {refused} connections to the engine's port refused (they did not present the engine's secret)"
        );
    }
}
