//! The run log: one JSON line per campaign (one seed's run on its engines, completed or
//! interrupted), appended to `findings/campaigns.jsonl`, so that how much has been tried is
//! known without keeping any run's output. `gdmarshal report` sums it up ([`Totals`]) in
//! docs/report.md §4 and, with `--summary-from-log`, rewrites docs/campaign-summary.md from it
//! ([`summary_markdown`]).
//!
//! A line, wrapped here:
//!
//! ```text
//! {"date":"2026-11-25T02:15:10Z","gdmarshal":"0.1.0","generation":2,"seed":1,"from":0,
//!  "cases":100000,"wall_secs":9.8,"interrupted":false,"engines":[{"engine":"4.6",
//!  "version":"4.6.3.stable","done":100000,"secs":9.7,"cases_per_sec":10309.2,
//!  "counts":{"agree":96245,"known-difference":158,...}}]}
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::reasons::{Reason, UNCOMPARED, Uncompared};
use super::{Class, EngineRun, RunEnd, cases};
use crate::error::{FileError, LineError};
use crate::shown::group_digits;

/// The log's file name inside a findings folder.
pub const LOG_FILE: &str = "campaigns.jsonl";

/// One engine's part of a logged campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineLog {
    /// The engine's name (as `gdmarshal engines` shows it, e.g. `4.6`).
    pub engine: String,
    /// The version the engine reported (e.g. `4.6.3.stable`).
    pub version: String,
    /// Cases run: indices `from..from + done` of the seed.
    pub done: u64,
    /// Seconds the engine's run took.
    pub secs: f64,
    /// Cases per second.
    pub cases_per_sec: f64,
    /// Cases per class (classes with none left out).
    pub counts: BTreeMap<Class, u64>,
    /// Engine-nondeterministic cases per cause (`causes::Cause::key`); absent in
    /// campaigns logged before causes were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nondeterministic_causes: Option<BTreeMap<String, u64>>,
    /// The cases not compared byte for byte, per class (unsupported, known difference, engine
    /// nondeterministic): how many per reason and per top-level type. Absent in campaigns
    /// logged before reasons were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncompared: Option<BTreeMap<Class, Uncompared>>,
    /// Encode cases whose value the engine built from the codec's bytes, where no script could
    /// (`campaign::from_bytes`); absent in campaigns logged before values were built so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built_from_bytes: Option<u64>,
}

/// One campaign: one seed on its engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// When it ended, UTC, RFC 3339 (`2026-11-25T02:15:10Z`).
    pub date: String,
    /// The gdmarshal version that ran it.
    pub gdmarshal: String,
    /// The case generator's generation ([`cases::GENERATION`]): a seed's cases are the same only
    /// within one generation.
    pub generation: u32,
    /// The seed.
    pub seed: u64,
    /// The first case index.
    pub from: u64,
    /// Cases asked for per engine.
    pub cases: u64,
    /// Wall-clock seconds of the whole campaign (the engines run side by side).
    pub wall_secs: f64,
    /// Whether the run was stopped before every engine had run every case.
    pub interrupted: bool,
    /// Each engine's part.
    pub engines: Vec<EngineLog>,
}

impl LogEntry {
    /// The entry of a campaign of `cases` cases per engine from `from`, whose engines' runs are
    /// `runs`, that took `wall_secs` and ended at `date`.
    pub fn of(
        date: String,
        seed: u64,
        from: u64,
        cases: u64,
        wall_secs: f64,
        runs: &[EngineRun],
    ) -> LogEntry {
        LogEntry {
            date,
            gdmarshal: env!("CARGO_PKG_VERSION").to_string(),
            generation: cases::GENERATION,
            seed,
            from,
            cases,
            wall_secs,
            interrupted: runs.iter().any(|r| r.end == RunEnd::Interrupted),
            engines: runs
                .iter()
                .map(|r| EngineLog {
                    engine: r.engine.clone(),
                    version: r.version.clone(),
                    done: r.done,
                    secs: r.secs,
                    cases_per_sec: r.rate(),
                    counts: r.counts.clone(),
                    nondeterministic_causes: Some(r.nondeterministic_causes.clone()),
                    uncompared: Some(r.uncompared.clone()),
                    built_from_bytes: Some(r.built_from_bytes),
                })
                .collect(),
        }
    }
}

/// Appends one entry as one line (the folder is made if missing).
pub fn append(path: &Path, entry: &LogEntry) -> Result<(), FileError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(FileError::at(parent))?;
    }
    let mut line = serde_json::to_string(entry).expect("log entries serialize");
    line.push('\n');
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(FileError::at(path))
}

/// Why a run log could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LogError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line is not a log entry.
    #[error(transparent)]
    Line(#[from] LineError),
}

/// Every entry of a log; a missing file is an empty log, a line that does not parse an error
/// naming it.
pub fn read(path: &Path) -> Result<Vec<LogEntry>, LogError> {
    let text = match crate::bounded::read_text(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FileError::at(path)(e).into()),
    };
    Ok(crate::error::json_lines(path, &text)?)
}

/// The time now, UTC, RFC 3339 to the second.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// A Unix time, UTC, RFC 3339 to the second.
pub(crate) fn utc(unix_secs: u64) -> String {
    // humantime writes years up to 9999: later times are that year's last second.
    let t = UNIX_EPOCH + Duration::from_secs(unix_secs.min(253_402_300_799));
    humantime::format_rfc3339_seconds(t).to_string()
}

/// What the logged campaigns add up to for one engine version.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTotals {
    /// Campaigns that ran on it.
    pub campaigns: u64,
    /// Cases it answered.
    pub cases: u64,
    /// Seconds its runs took.
    pub secs: f64,
    /// Cases per class.
    pub counts: BTreeMap<Class, u64>,
    /// Campaigns that recorded the causes of their engine-nondeterministic cases.
    pub campaigns_with_causes: u64,
    /// Engine-nondeterministic cases of those campaigns.
    pub nondeterministic_in_them: u64,
    /// Their causes (`causes::Cause::key`), summed.
    pub nondeterministic_causes: BTreeMap<String, u64>,
    /// Campaigns that recorded why their uncompared cases were not compared.
    pub campaigns_with_reasons: u64,
    /// Cases of those campaigns.
    pub cases_with_reasons: u64,
    /// Their uncompared cases per class, by reason and type, summed.
    pub uncompared: BTreeMap<Class, Uncompared>,
    /// Campaigns that built values from the codec's bytes where no script could.
    pub campaigns_building_from_bytes: u64,
    /// Cases of those campaigns.
    pub cases_building_from_bytes: u64,
    /// The encode cases so built, summed.
    pub built_from_bytes: u64,
}

impl EngineTotals {
    /// Cases per second over all its runs (0 when none took measurable time).
    pub fn rate(&self) -> f64 {
        if self.secs > 0.0 {
            self.cases as f64 / self.secs
        } else {
            0.0
        }
    }
}

/// What a log adds up to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Campaigns logged.
    pub campaigns: u64,
    /// Of which interrupted.
    pub interrupted: u64,
    /// Wall-clock seconds, summed.
    pub wall_secs: f64,
    /// The seeds run, by case generator generation.
    pub seeds: BTreeMap<u32, BTreeSet<u64>>,
    /// Per engine version (as reported).
    pub engines: BTreeMap<String, EngineTotals>,
    /// The first and the last date logged.
    pub dates: Option<(String, String)>,
}

impl Totals {
    /// Sums up a log.
    pub fn of(entries: &[LogEntry]) -> Totals {
        let mut t = Totals::default();
        for e in entries {
            t.campaigns += 1;
            t.interrupted += u64::from(e.interrupted);
            t.wall_secs += e.wall_secs;
            t.seeds.entry(e.generation).or_default().insert(e.seed);
            for g in &e.engines {
                let et = t.engines.entry(g.version.clone()).or_default();
                et.campaigns += 1;
                et.cases += g.done;
                et.secs += g.secs;
                for (c, n) in &g.counts {
                    *et.counts.entry(*c).or_default() += n;
                }
                if let Some(n) = g.built_from_bytes {
                    et.campaigns_building_from_bytes += 1;
                    et.cases_building_from_bytes += g.done;
                    et.built_from_bytes += n;
                }
                if let Some(u) = &g.uncompared {
                    et.campaigns_with_reasons += 1;
                    et.cases_with_reasons += g.done;
                    for (c, tally) in u {
                        et.uncompared.entry(*c).or_default().merge(tally);
                    }
                }
                if let Some(causes) = &g.nondeterministic_causes {
                    et.campaigns_with_causes += 1;
                    et.nondeterministic_in_them += g
                        .counts
                        .get(&Class::EngineNondeterministic)
                        .copied()
                        .unwrap_or(0);
                    for (k, n) in causes {
                        *et.nondeterministic_causes.entry(k.clone()).or_default() += n;
                    }
                }
            }
            t.dates = Some(match t.dates.take() {
                None => (e.date.clone(), e.date.clone()),
                Some((a, b)) => (a.min(e.date.clone()), b.max(e.date.clone())),
            });
        }
        t
    }

    /// Cases answered, all engines together.
    pub fn cases(&self) -> u64 {
        self.engines.values().map(|e| e.cases).sum()
    }
}

/// Seeds as short ranges: `1–30, 42`.
pub(crate) fn seed_ranges(seeds: &BTreeSet<u64>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(u64, u64)> = None;
    for &s in seeds {
        run = match run {
            Some((a, b)) if b.checked_add(1) == Some(s) => Some((a, s)),
            Some(r) => {
                out.push(range_text(r));
                Some((s, s))
            }
            None => Some((s, s)),
        };
    }
    if let Some(r) = run {
        out.push(range_text(r));
    }
    out.join(", ")
}

fn range_text((a, b): (u64, u64)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}–{b}")
    }
}

/// A wall time in words: `43 s`, `12 min 5 s`, `3 h 20 min`.
pub(crate) fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// `4.6.3` of `4.6.3.stable`, `4.6.3-double` of `4.6.3.stable-double`.
pub fn short_version(version: &str) -> String {
    let (base, double) = match version.strip_suffix(crate::oracle::DOUBLE_SUFFIX) {
        Some(base) => (base, crate::oracle::DOUBLE_SUFFIX),
        None => (version, ""),
    };
    let mut short = base.split('.').take(3).collect::<Vec<_>>().join(".");
    short.push_str(double);
    short
}

/// docs/campaign-summary.md from a log: what was run (campaigns, seeds, cases, time), and the
/// classes per engine version summed over every logged campaign. `gdmarshal report` quotes the
/// file in docs/report.md §4.
pub fn summary_markdown(entries: &[LogEntry]) -> String {
    let t = Totals::of(entries);
    let mut md = String::new();
    if t.campaigns == 0 {
        md.push_str("No campaign is logged yet (`findings/campaigns.jsonl`).\n");
        return md;
    }
    let seeds: Vec<String> = t
        .seeds
        .iter()
        .map(|(g, s)| format!("{} (case generation {g})", seed_ranges(s)))
        .collect();
    let (first, last) = t.dates.clone().unwrap_or_default();
    write!(
        md,
        "Campaigns logged in `findings/campaigns.jsonl` (`gdmarshal diff`, one line per seed): {} campaigns{}, \
         seeds {}, {} engine answers in all, {} wall time, from {first} to {last}. Each case is classified; own \
         outputs are re-decoded and differing cases asked twice. Reproducers are saved in `findings/` (at most \
         `--max-saved` per class and engine in each campaign, one per kind of difference). Classes per engine, \
         summed over the campaigns:\n\n",
        t.campaigns,
        if t.interrupted > 0 {
            format!(" ({} interrupted)", t.interrupted)
        } else {
            String::new()
        },
        seeds.join("; "),
        group_digits(t.cases()),
        duration_text(t.wall_secs),
    )
    .ok();
    let versions: Vec<&String> = t.engines.keys().collect();
    write!(
        md,
        "| class | {} |\n|---|{}\n",
        versions
            .iter()
            .map(|v| short_version(v))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(versions.len())
    )
    .ok();
    let row = |name: &str, cell: &dyn Fn(&EngineTotals) -> String| {
        format!(
            "| {name} | {} |\n",
            t.engines.values().map(cell).collect::<Vec<_>>().join(" | ")
        )
    };
    md.push_str(&row("cases", &|e| group_digits(e.cases)));
    for c in Class::all() {
        md.push_str(&row(c.name(), &|e| {
            group_digits(e.counts.get(&c).copied().unwrap_or(0))
        }));
    }
    md.push_str(&row("cases/s", &|e| group_digits(e.rate().round() as u64)));
    md.push_str(&uncompared_markdown(&t));
    md.push_str(&per_campaign(entries));
    md
}

/// The cases not compared byte for byte (unsupported, known difference, engine nondeterministic)
/// of the campaigns that record why, per reason and per top-level type, with their share of
/// those campaigns' cases: docs/campaign-summary.md and docs/report.md §4 show it.
pub(crate) fn uncompared_markdown(t: &Totals) -> String {
    let mut md = String::from("\nCases not compared byte for byte, by reason (");
    let engines: Vec<(&String, &EngineTotals)> = t
        .engines
        .iter()
        .filter(|(_, e)| e.campaigns_with_reasons > 0)
        .collect();
    if engines.is_empty() {
        md.push_str("no logged campaign records reasons yet).\n");
        return md;
    }
    let of: Vec<String> = engines
        .iter()
        .map(|(v, e)| {
            format!(
                "{} {} of {} campaigns, {} cases",
                short_version(v),
                e.campaigns_with_reasons,
                e.campaigns,
                group_digits(e.cases_with_reasons)
            )
        })
        .collect();
    writeln!(
        md,
        "the campaigns that record them: {}; `campaign::reasons`; the share is of those cases):\n",
        of.join("; ")
    )
    .ok();
    let heads: Vec<String> = engines.iter().map(|(v, _)| short_version(v)).collect();
    let cell = |e: &EngineTotals, n: u64| {
        if n == 0 {
            "0".to_string()
        } else {
            format!(
                "{} ({:.2}%)",
                group_digits(n),
                n as f64 * 100.0 / e.cases_with_reasons.max(1) as f64
            )
        }
    };
    writeln!(
        md,
        "| class | reason | kind | {} |\n|---|---|---|{}",
        heads.join(" | "),
        "---|".repeat(heads.len())
    )
    .ok();
    for class in UNCOMPARED {
        for reason in Reason::all() {
            let counts: Vec<u64> = engines
                .iter()
                .map(|(_, e)| {
                    e.uncompared
                        .get(&class)
                        .map_or(0, |u| u.reasons.get(&reason).copied().unwrap_or(0))
                })
                .collect();
            if counts.iter().all(|&n| n == 0) {
                continue;
            }
            let cells: Vec<String> = engines
                .iter()
                .zip(&counts)
                .map(|((_, e), &n)| cell(e, n))
                .collect();
            writeln!(
                md,
                "| {class} | {reason} | {} | {} |",
                reason.kind().name(),
                cells.join(" | ")
            )
            .ok();
        }
    }
    md.push_str(&built_from_bytes_text(t));
    writeln!(
        md,
        "\nThe same cases by the case's top-level type:\n\n| class | type | {} |\n|---|---|{}",
        heads.join(" | "),
        "---|".repeat(heads.len())
    )
    .ok();
    for class in UNCOMPARED {
        let types: BTreeSet<&str> = engines
            .iter()
            .filter_map(|(_, e)| e.uncompared.get(&class))
            .flat_map(|u| u.types.keys().map(String::as_str))
            .collect();
        for ty in types {
            let cells: Vec<String> = engines
                .iter()
                .map(|(_, e)| {
                    cell(
                        e,
                        e.uncompared
                            .get(&class)
                            .map_or(0, |u| u.types.get(ty).copied().unwrap_or(0)),
                    )
                })
                .collect();
            writeln!(md, "| {class} | {ty} | {} |", cells.join(" | ")).ok();
        }
    }
    md
}

/// How many encode cases the engines built from the codec's bytes where no script could, and
/// so compared (empty when no logged campaign records it).
fn built_from_bytes_text(t: &Totals) -> String {
    let cells: Vec<String> = t
        .engines
        .iter()
        .filter(|(_, e)| e.campaigns_building_from_bytes > 0)
        .map(|(v, e)| {
            format!(
                "{} {} ({:.2}% of {} cases in {} campaigns)",
                short_version(v),
                group_digits(e.built_from_bytes),
                e.built_from_bytes as f64 * 100.0 / e.cases_building_from_bytes.max(1) as f64,
                group_digits(e.cases_building_from_bytes),
                e.campaigns_building_from_bytes
            )
        })
        .collect();
    if cells.is_empty() {
        return String::new();
    }
    format!(
        "\nEncode cases whose value no script could build, built in the engine from the codec's bytes and \
         compared (`campaign::from_bytes`; not counted above): {}.\n",
        cells.join("; ")
    )
}

/// One row per logged campaign, oldest first: when, which seed and how many cases, and per engine
/// the classes that say the codec or the set-up is wrong (so that a reader sees which campaigns
/// ran the codec as it is now, and which found what was fixed since).
fn per_campaign(entries: &[LogEntry]) -> String {
    const WATCHED: [Class; 2] = [Class::CodecDiffers, Class::Unanswered];
    let mut versions: Vec<&str> = entries
        .iter()
        .flat_map(|e| e.engines.iter().map(|l| l.version.as_str()))
        .collect();
    versions.sort_unstable();
    versions.dedup();
    let mut md = String::from(
        "\nPer campaign (codec-differs / unanswered per engine; `-` where the engine did not run):\n\n",
    );
    let heads: Vec<String> = versions.iter().map(|v| short_version(v)).collect();
    writeln!(
        md,
        "| date | generation | seed | cases per engine | {} |\n|---|---|---|---|{}",
        heads.join(" | "),
        "---|".repeat(heads.len())
    )
    .ok();
    for e in entries {
        let cells: Vec<String> = versions
            .iter()
            .map(|v| match e.engines.iter().find(|l| l.version == *v) {
                Some(l) => WATCHED
                    .iter()
                    .map(|c| group_digits(l.counts.get(c).copied().unwrap_or(0)))
                    .collect::<Vec<_>>()
                    .join(" / "),
                None => "-".into(),
            })
            .collect();
        writeln!(
            md,
            "| {} | {} | {}{} | {} | {} |",
            e.date,
            e.generation,
            e.seed,
            if e.interrupted { " (interrupted)" } else { "" },
            group_digits(e.cases),
            cells.join(" | ")
        )
        .ok();
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_rfc3339() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_659_310), "2026-11-26T02:15:10Z");
        assert_eq!(utc(u64::MAX), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn seeds_and_numbers_read_shortly() {
        let s: BTreeSet<u64> = [1, 2, 3, 5, 7, 8].into();
        assert_eq!(seed_ranges(&s), "1–3, 5, 7–8");
        assert_eq!(group_digits(1_234_567), "1,234,567");
        assert_eq!(group_digits(999), "999");
        assert_eq!(duration_text(43.2), "43 s");
        assert_eq!(duration_text(3725.0), "1 h 2 min");
    }

    #[test]
    fn causes_are_summed_over_the_campaigns_that_record_them() {
        let engine = |causes: Option<BTreeMap<String, u64>>| EngineLog {
            engine: "3.6".into(),
            version: "3.6.2.stable".into(),
            done: 10,
            secs: 1.0,
            cases_per_sec: 10.0,
            counts: [(Class::Agree, 7), (Class::EngineNondeterministic, 3)].into(),
            nondeterministic_causes: causes,
            uncompared: None,
            built_from_bytes: None,
        };
        let entry = |seed, causes| LogEntry {
            date: utc(seed * 1000),
            gdmarshal: "0.1.0".into(),
            generation: 2,
            seed,
            from: 0,
            cases: 10,
            wall_secs: 1.0,
            interrupted: false,
            engines: vec![engine(causes)],
        };
        let with = [
            ("nodepath-padding".to_string(), 2),
            ("fresh-object-id".to_string(), 1),
        ]
        .into();
        let t = Totals::of(&[entry(1, None), entry(2, Some(with))]);
        let e = &t.engines["3.6.2.stable"];
        assert_eq!((e.campaigns, e.campaigns_with_causes), (2, 1));
        assert_eq!(e.nondeterministic_in_them, 3);
        assert_eq!(e.nondeterministic_causes["nodepath-padding"], 2);
        assert_eq!(e.counts[&Class::EngineNondeterministic], 6);
    }

    #[test]
    fn totals_add_up_the_engines_and_seeds() {
        let engine = |done: u64| EngineLog {
            engine: "4.6".into(),
            version: "4.6.3.stable".into(),
            done,
            secs: 1.0,
            cases_per_sec: done as f64,
            counts: [(Class::Agree, done)].into(),
            nondeterministic_causes: None,
            uncompared: None,
            built_from_bytes: None,
        };
        let entry = |seed, done, interrupted| LogEntry {
            date: utc(seed * 1000),
            gdmarshal: "0.1.0".into(),
            generation: 2,
            seed,
            from: 0,
            cases: 100,
            wall_secs: 1.5,
            interrupted,
            engines: vec![engine(done)],
        };
        let t = Totals::of(&[entry(1, 100, false), entry(2, 40, true)]);
        assert_eq!(t.engines["4.6.3.stable"].campaigns_with_causes, 0);
        assert_eq!((t.campaigns, t.interrupted, t.cases()), (2, 1, 140));
        assert_eq!(t.engines["4.6.3.stable"].counts[&Class::Agree], 140);
        assert_eq!(t.seeds[&2], [1, 2].into());
        let md = summary_markdown(&[entry(1, 100, false)]);
        assert!(md.contains("| agree | 100 |"), "{md}");
        assert!(md.contains("| cases/s | 100 |"), "{md}");
        assert!(md.contains("| 1 | 100 | 0 / 0 |"), "{md}");
    }

    #[test]
    fn old_lines_read_and_reasons_are_summed_where_recorded() {
        // A line as campaigns logged it before reasons were recorded.
        let old = r#"{"date":"2026-11-25T02:15:10Z","gdmarshal":"0.1.0","generation":3,"seed":1,"from":0,"cases":10,"wall_secs":1.0,"interrupted":false,"engines":[{"engine":"4.6","version":"4.6.3.stable","done":10,"secs":1.0,"cases_per_sec":10.0,"counts":{"agree":8,"unsupported":2}}]}"#;
        let old: LogEntry = serde_json::from_str(old).unwrap();
        assert_eq!(old.engines[0].uncompared, None);
        let mut new = old.clone();
        let mut u = Uncompared::default();
        u.add(Reason::ObjectById, "Array");
        u.add(Reason::NodepathNameNotText, "NodePath");
        new.engines[0].uncompared = Some([(Class::Unsupported, u)].into());
        let line = serde_json::to_string(&new).unwrap();
        assert!(
            line.contains(r#""uncompared":{"unsupported":{"reasons":{"object-by-id":1,"#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<LogEntry>(&line).unwrap(), new);
        let t = Totals::of(&[old.clone(), new.clone(), new.clone()]);
        let e = &t.engines["4.6.3.stable"];
        assert_eq!(
            (e.campaigns, e.campaigns_with_reasons, e.cases_with_reasons),
            (3, 2, 20)
        );
        assert_eq!(
            e.uncompared[&Class::Unsupported].reasons[&Reason::ObjectById],
            2
        );
        let md = summary_markdown(std::slice::from_ref(&old));
        assert!(
            md.contains("no logged campaign records reasons yet"),
            "{md}"
        );
        assert_eq!(e.campaigns_building_from_bytes, 0);
        let mut built = new.clone();
        built.engines[0].built_from_bytes = Some(3);
        let t = Totals::of(&[old.clone(), new.clone(), built]);
        let e = &t.engines["4.6.3.stable"];
        assert_eq!(
            (e.campaigns_building_from_bytes, e.built_from_bytes),
            (1, 3)
        );
        let md = uncompared_markdown(&t);
        assert!(
            md.contains("4.6.3 3 (30.00% of 10 cases in 1 campaigns)"),
            "{md}"
        );
        assert!(
            md.contains("| unsupported | object-by-id | oracle artefact | 2 (10.00%) |"),
            "{md}"
        );
        assert!(
            md.contains("| unsupported | NodePath | 2 (10.00%) |"),
            "{md}"
        );
    }
}
