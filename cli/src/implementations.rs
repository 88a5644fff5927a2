//! `gdmarshal implementations`: the conformance matrix of the format's public libraries
//! (docs/implementations.md), each run through its adapter in `implementations/` against every
//! engine version the corpus holds, under conform's sandbox and limits.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::{EXIT_FOUND, fail};
use gdmarshal::profile::Profile;
use gdmarshal_lab::conform::{self, Conformance, Options};
use gdmarshal_lab::corpus::{self, EngineCorpus};
use gdmarshal_lab::matrix::table::Committed;
use gdmarshal_lab::matrix::{self, Check, Defect, Implementation, Matrix, Newest, Row};

/// `gdmarshal implementations`.
#[derive(clap::Args, Debug)]
pub struct ImplementationsArgs {
    /// The folder of adapters: each folder in it with an `implementation.json` is one library at
    /// one version. Testee commands run as `cd DIR/NAME && TESTEE`, so give it relative to the
    /// folder the page's replay lines are for (the repository's root).
    #[arg(long, value_name = "DIR", default_value = "implementations")]
    dir: PathBuf,
    /// Where the page goes.
    #[arg(long, value_name = "FILE", default_value = "docs/implementations.md")]
    out: PathBuf,
    /// Also write the matrix as JSON (rows, cells, defects) to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write nothing; exit 1 if the page would change (a figure or a defect moved).
    #[arg(long)]
    check: bool,
    /// Only this engine version (repeatable; default: every version the corpus holds). The
    /// page then has rows for these only.
    #[arg(long = "godot", value_name = "VERSION")]
    godot: Vec<Profile>,
    /// Only the cases matching this glob (repeatable; as conform's `--run`): a quicker, partial
    /// matrix.
    #[arg(long = "run", value_name = "GLOB", value_parser = conform::check_glob)]
    run: Vec<String>,
    /// The fence each testee process runs in.
    #[command(flatten)]
    fence: super::limits::TesteeLimitArgs,
}

/// Runs `gdmarshal implementations`.
pub fn run(a: &ImplementationsArgs) -> ExitCode {
    a.fence.install();
    if let Err(e) = gdmarshal_lab::sandbox::interrupt::install(
        gdmarshal_lab::sandbox::interrupt::Stop::AfterReport,
    ) {
        return fail(format!("cannot catch signals: {e}"));
    }
    let implementations = match matrix::read_all(&a.dir) {
        Ok(i) => i,
        Err(e) => return fail(e),
    };
    let source = corpus::Source::Embedded;
    let mut corpora = match corpus::load_from(&source) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if let Some(missing) = a
        .godot
        .iter()
        .find(|p| !corpora.iter().any(|c| c.profile == **p))
    {
        return fail(gdmarshal_lab::versions::no_corpus_message(*missing));
    }
    corpora.retain(|c| a.godot.is_empty() || a.godot.contains(&c.profile));
    let runner = Runner {
        dir: a.dir.to_string_lossy().into_owned(),
        committed: if a.check {
            committed_rows(a.json.as_deref())
        } else {
            Vec::new()
        },
        run: a.run.clone(),
        source,
        corpora,
    };
    let matrix = match runner.measure(implementations) {
        Ok(m) => m,
        Err(e) => return super::interrupted_code().unwrap_or_else(|| fail(e)),
    };
    if let Some(code) = super::interrupted_code() {
        return code;
    }
    let mut outputs = vec![(a.out.clone(), matrix::page::markdown(&matrix))];
    if let Some(path) = &a.json {
        let mut text = serde_json::to_string_pretty(&matrix.view()).expect("the matrix serializes");
        text.push('\n');
        outputs.push((path.clone(), text));
    }
    if a.check {
        let changed = outputs
            .iter()
            .filter(|(path, text)| !up_to_date(path, text));
        return if changed.count() == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(EXIT_FOUND)
        };
    }
    for (path, text) in &outputs {
        if let Err(e) = std::fs::write(path, text) {
            return fail(format!("{}: {e}", path.display()));
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// `--check` of one output: whether the file holds `text`; if not, says where they part.
fn up_to_date(path: &Path, text: &str) -> bool {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    if old == text {
        eprintln!("{} is up to date", path.display());
        return true;
    }
    let (n, (was, now)) = old
        .lines()
        .chain(std::iter::repeat(""))
        .zip(text.lines().chain(std::iter::repeat("")))
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .unwrap_or((0, ("", "")));
    eprintln!(
        "{}:{}: would change (regenerate it with scripts/implementations.sh)\n  was: {was}\n  now: {now}",
        path.display(),
        n + 1
    );
    false
}

/// Testee processes per run: the libraries answer one request at a time, and a hang holds its
/// process for the whole timeout.
const JOBS: usize = 2;

/// Measurements again of a row that parts from the committed one (`--check`).
const RETRIES: usize = 2;

/// The rows of the committed JSON form, for `--check` (none when it is missing or unreadable:
/// then every row is measured once, and the check fails on the difference).
fn committed_rows(path: Option<&Path>) -> Vec<Committed> {
    path.and_then(|p| std::fs::read(p).ok())
        .and_then(|b| matrix::table::committed_rows(&b).ok())
        .unwrap_or_default()
}

struct Runner {
    dir: String,
    /// With `--check`: the committed rows (see [`RETRIES`]).
    committed: Vec<Committed>,
    /// `--run`: the globs of the cases each library is measured on (all when empty).
    run: Vec<String>,
    source: corpus::Source,
    corpora: Vec<EngineCorpus>,
}

impl Runner {
    /// Every library on every engine version, then its defects re-run.
    fn measure(&self, implementations: Vec<Implementation>) -> Result<Matrix, String> {
        let mut rows = Vec::new();
        for imp in &implementations {
            for engine in &self.corpora {
                let started = Instant::now();
                let mut row = Row::of(imp, &self.conform(imp, engine, &self.run)?, "");
                // --check: a row that parts from the committed one is measured again, twice at
                // most; a real change parts every time, a case whose answer rides on the
                // machine's load (a library's own timing) does not.
                let committed = self.committed.iter().find(|c| c.is(&row));
                for _ in 0..RETRIES {
                    if committed.is_none_or(|c| c.same(&row)) {
                        break;
                    }
                    eprintln!(
                        "{} {} on Godot {}: {} passed, the committed page {}: measuring again",
                        imp.package,
                        imp.version,
                        row.godot,
                        row.total.passed,
                        committed.map_or(0, |c| c.total.passed)
                    );
                    let again = Row::of(imp, &self.conform(imp, engine, &self.run)?, "");
                    if committed.is_some_and(|c| c.same(&again)) {
                        row = again;
                    }
                }
                eprintln!(
                    "{} {} on Godot {}: {}",
                    imp.package,
                    imp.version,
                    row.godot,
                    if row.version_claimed {
                        format!(
                            "{} of {} claimed cases passed ({:.0?})",
                            row.total.passed,
                            row.total.claimed,
                            started.elapsed()
                        )
                    } else {
                        "not claimed".into()
                    }
                );
                rows.push(row);
            }
        }
        let mut defects = Vec::new();
        for imp in &implementations {
            let mut found = matrix::defects(&imp.id, &rows);
            self.recheck(imp, &implementations, &mut found)?;
            defects.extend(found);
        }
        Ok(Matrix {
            corpus: self.source.describe(),
            implementations,
            rows,
            defects,
        })
    }

    /// Re-runs defects, in order, until the page's share of them is confirmed.
    fn recheck(
        &self,
        imp: &Implementation,
        all: &[Implementation],
        found: &mut [Defect],
    ) -> Result<(), String> {
        let newest = matrix::manifest::newest(imp, all);
        let own = own_codec()?;
        let mut confirmed = 0;
        for d in found.iter_mut() {
            if confirmed == matrix::page::SHOWN_DEFECTS {
                break;
            }
            let engine = self.engine(&d.reproducer_godot)?;
            let case = d.reproducer.case.clone();
            let fails_again = self.fails(&imp.command(&self.dir), engine, &case)? == Some(true);
            let own_codec_passes = self.fails(&own, engine, &case)? == Some(false);
            let in_newest = if newest.id == imp.id {
                None
            } else {
                Some(
                    match self.fails(&newest.command(&self.dir), engine, &case)? {
                        Some(true) => Newest::Fails,
                        Some(false) => Newest::Passes,
                        None => Newest::NotClaimed,
                    },
                )
            };
            d.check = Some(Check {
                fails_again,
                own_codec_passes,
                in_newest,
            });
            if d.confirmed() {
                confirmed += 1;
            }
        }
        Ok(())
    }

    fn engine(&self, profile: &str) -> Result<&EngineCorpus, String> {
        self.corpora
            .iter()
            .find(|c| c.profile.to_string() == profile)
            .ok_or_else(|| format!("no recorded answers for Godot {profile}"))
    }

    /// Whether the testee `command` fails the case `name` in a run of that case alone; `None`
    /// when it does not claim the case.
    fn fails(
        &self,
        command: &str,
        engine: &EngineCorpus,
        name: &str,
    ) -> Result<Option<bool>, String> {
        let run = self.run(command, engine, &[conform::exactly(name)])?;
        let case = run.cases.iter().find(|c| c.result.name == name);
        Ok(case.filter(|c| c.counts()).map(|c| c.score.fails()))
    }

    fn conform(
        &self,
        imp: &Implementation,
        engine: &EngineCorpus,
        globs: &[String],
    ) -> Result<Conformance, String> {
        self.run(&imp.command(&self.dir), engine, globs)
            .map_err(|e| format!("{} ({}): {e}", imp.id, engine.profile))
    }

    fn run(
        &self,
        command: &str,
        engine: &EngineCorpus,
        globs: &[String],
    ) -> Result<Conformance, String> {
        // Ctrl-C (or SIGTERM, SIGHUP): the run under way has killed its testees; no more start.
        if let Some(code) = super::interrupted_code() {
            return Err(format!("interrupted ({code:?}): nothing written"));
        }
        let filter = Options {
            run: globs.to_vec(),
            ..Options::new(command.to_string())
        };
        // The recorded answers as they are, unless the run selects stress cases: then a copy
        // with their stand-ins (a case re-run alone needs no copy of the whole corpus).
        let extra = super::conform::stand_ins(&self.source, engine, &filter)?;
        let answers = if extra.is_empty() {
            Cow::Borrowed(engine)
        } else {
            let mut all = engine.clone();
            all.records.extend(extra);
            Cow::Owned(all)
        };
        let options = Options {
            jobs: JOBS,
            limits: super::limits::testee_limits(),
            corpus: self.source.describe(),
            expand: Some(super::conform::expander(
                self.source.clone(),
                answers.entry.version.clone(),
                answers.profile,
            )),
            ..filter
        };
        conform::conform(&answers, &options).map_err(|e| e.to_string())
    }
}

/// This binary's own codec as a testee: what a defect must pass on to be listed.
fn own_codec() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    Ok(format!(
        "{} testee",
        conform::report::shell_quote(&exe.to_string_lossy())
    ))
}
