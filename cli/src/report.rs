//! `gdmarshal report`: regenerates docs/report.md from the corpus, the saved campaign findings, the
//! run log of the campaigns and the live engines' answers to the documentation's claims; with
//! `--summary-from-log`, rewrites docs/campaign-summary.md from the run log first.

use std::path::PathBuf;
use std::process::ExitCode;

use super::engine_runs::start_engines;
use super::fail;
use gdmarshal_lab::campaign::{load_findings, log};
use gdmarshal_lab::corpus;
use gdmarshal_lab::report;

/// `gdmarshal report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Limits for the engines it starts.
    #[command(flatten)]
    limits: super::limits::LimitArgs,
    /// Corpus folder.
    #[arg(long, default_value_os_t = corpus::default_dir())]
    corpus: PathBuf,
    /// Folder of campaign reproducers (`gdmarshal diff --findings`).
    #[arg(long, default_value = "findings")]
    findings: PathBuf,
    /// A text file with the campaign's summary (its command, time and counts), quoted in the report.
    #[arg(long, default_value = "docs/campaign-summary.md")]
    campaign_summary: PathBuf,
    /// Rewrite `--campaign-summary` from the run log (`FINDINGS/campaigns.jsonl`: every logged
    /// campaign, classes per engine summed) before rendering.
    #[arg(long)]
    summary_from_log: bool,
    /// With `--summary-from-log`: write the summary and stop, without engines or the report (the
    /// merge of a sharded campaign, scripts/campaign-merge.sh).
    #[arg(long, requires = "summary_from_log")]
    summary_only: bool,
    /// Folder of fixed findings (reproducers of codec differences since fixed), laid out as
    /// `--findings` is.
    #[arg(long, default_value = "tests/differential")]
    fixed_findings: PathBuf,
    /// The framing corpus folder (`gdmarshal corpus framing`).
    #[arg(long, default_value_os_t = gdmarshal_lab::framing_corpus::default_dir())]
    framing: PathBuf,
    /// Where to write the report; its appendix files go to `report/` in the same folder.
    #[arg(long, short, default_value = "docs/report.md")]
    output: PathBuf,
}

/// The docs whose corpus counts are generated ([`corpus::counts`]), relative to the repository.
const COUNTED_DOCS: [&str; 2] = ["README.md", "docs/conformance.md"];

/// Rewrites the corpus counts in [`COUNTED_DOCS`].
fn rewrite_counts(corpora: &[corpus::EngineCorpus], dir: &std::path::Path) -> Result<(), String> {
    let stress = corpus::stress::read(dir).map_err(|e| e.to_string())?;
    let table = corpus::counts::table(corpora, &stress);
    for doc in COUNTED_DOCS {
        let text = std::fs::read_to_string(doc).map_err(|e| format!("{doc}: {e}"))?;
        let fresh = corpus::counts::replace(&text, &table).ok_or_else(|| {
            format!(
                "{doc}: no corpus counts markers ({})",
                corpus::counts::BEGIN
            )
        })?;
        if fresh != text {
            std::fs::write(doc, fresh).map_err(|e| format!("{doc}: {e}"))?;
        }
    }
    Ok(())
}

/// Reads the run log and, with `--summary-from-log`, rewrites `--campaign-summary` from it.
fn write_summary(a: &ReportArgs) -> Result<Vec<log::LogEntry>, String> {
    let log_path = a.findings.join(log::LOG_FILE);
    let log = log::read(&log_path).map_err(|e| e.to_string())?;
    if a.summary_from_log {
        if log.is_empty() {
            return Err(format!(
                "{}: no campaign is logged, so there is no summary to write",
                log_path.display()
            ));
        }
        std::fs::write(&a.campaign_summary, log::summary_markdown(&log))
            .map_err(|e| format!("{}: {e}", a.campaign_summary.display()))?;
        outln!(
            "{}: rewritten from {} ({} campaigns)",
            a.campaign_summary.display(),
            log_path.display(),
            log.len()
        );
    }
    Ok(log)
}

/// Runs `gdmarshal report`.
pub fn run(a: &ReportArgs) -> ExitCode {
    a.limits.install();
    if a.summary_only {
        return match write_summary(a) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => fail(e),
        };
    }
    // Double-precision builds have a section of their own; the rest of the report is about the
    // single-precision engines, whose claims it asks.
    let all = match corpus::load(&a.corpus) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if let Err(e) = rewrite_counts(&all, &a.corpus) {
        return fail(e);
    }
    let (double_corpora, corpora): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|c| c.profile.double_reals());
    let engines = match start_engines(&[]) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let mut claims = Vec::new();
    for mut e in engines.into_iter().filter(|e| !e.info().double_reals) {
        let version = e.info().version.clone();
        let profile = e.info().profile;
        match report::ask_claims(&mut e, &version) {
            Ok(c) => claims.push((version, profile, c)),
            Err(err) => return fail(format!("engine {version}: {err}")),
        }
    }
    claims.sort_by(|a, b| a.0.cmp(&b.0));
    let findings = load_findings(&a.findings)
        .into_iter()
        .map(|(p, f)| (p.display().to_string(), f))
        .collect();
    let log = match write_summary(a) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    // The summary is optional: a report without a campaign has no such section.
    let campaign = match gdmarshal_lab::bounded::read_text(&a.campaign_summary) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return fail(format!("{}: {e}", a.campaign_summary.display())),
    };
    let framing = match gdmarshal_lab::framing_corpus::load(&a.framing) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let inputs = report::Inputs {
        corpora: &corpora,
        double_corpora: &double_corpora,
        claims,
        findings,
        campaign,
        log,
        fixed_findings: load_findings(&a.fixed_findings)
            .into_iter()
            .map(|(p, f)| (p.display().to_string(), f))
            .collect(),
        framing,
    };
    let rendered = match report::render(&inputs) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let confirmed = rendered.confirmed;
    if let Err(e) = report::write(&a.output, &rendered) {
        return fail(e);
    }
    outln!(
        "{}: {} documented-spec discrepancies confirmed by the engines",
        a.output.display(),
        confirmed
    );
    ExitCode::SUCCESS
}
