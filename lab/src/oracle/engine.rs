//! [`Engine`]: one engine process serving batches of requests, restarted when it crashes or
//! hangs, with every request answered.

use serde_json::Value;

use super::config::EngineConfig;
use super::discover::EngineSpec;
use super::error::OracleError;
use super::exchange::{Exchange, START_TRIES, SUSPECT_TRIES, Suspect};
use super::process::Process;
use super::requests::{HELLO, Reply};
use super::result::{EngineVerdict, Finding};
use super::round::{Round, round};
use crate::model::{IncidentRecord, Resolution};
use gdmarshal::profile::Profile;

/// What an engine reported about itself in the handshake.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineInfo {
    /// `MAJOR.MINOR.PATCH.STATUS`, e.g. `4.6.3.stable`.
    pub version: String,
    /// The engine's full version string, e.g. `4.6.3-stable (debian4.6.3+ds-3)`.
    pub version_string: String,
    /// The major version.
    pub major: u32,
    /// The minor version.
    pub minor: u32,
    /// Whether real_t is a double in this build.
    pub double_reals: bool,
    /// The format profile of this engine.
    pub profile: Profile,
    /// Whether the profile is this exact minor version; if not, it is the newest minor of the
    /// same major that this crate knows.
    pub profile_exact: bool,
}

/// One engine process serving requests. Dropping it ends the process.
pub struct Engine {
    spec: EngineSpec,
    config: EngineConfig,
    info: EngineInfo,
    process: Option<Process>,
    seq: u64,
    restarts: usize,
    findings: Vec<Finding>,
    incidents: Vec<IncidentRecord>,
    refused: usize,
    /// Whether decode answers carry the ids read in place of the placeholders' own
    /// ([`EngineAnswerer::compare_object_ids_as_read`](crate::model::answerer::EngineAnswerer::compare_object_ids_as_read)).
    pub(super) ids_as_read: bool,
    /// The engine's classes once asked (`None` inside when it could not tell).
    pub(super) class_list: Option<Option<std::sync::Arc<gdmarshal::classes::ClassList>>>,
    /// The classes whose defaults were asked for, answered or not.
    pub(super) defaults_asked: std::collections::BTreeSet<String>,
    /// The (class, script) pairs whose defaults were asked for, answered or not.
    pub(super) scripted_asked: std::collections::BTreeSet<(String, String)>,
}

impl Engine {
    /// Starts the engine and reads its version. An engine that dies while starting (killed from
    /// outside, say) is started again, up to [`START_TRIES`] times in all; one that does not
    /// connect in time is not.
    pub fn start(spec: EngineSpec, config: EngineConfig) -> Result<Engine, OracleError> {
        let mut seq = 0;
        let mut tries = 1;
        let (process, info) = loop {
            match launch(&spec, &config, &mut seq) {
                Ok(started) => break started,
                Err(OracleError::ExitedEarly { .. } | OracleError::Handshake(_))
                    if tries < START_TRIES =>
                {
                    tries += 1
                }
                Err(e) => return Err(e),
            }
        };
        Ok(Engine {
            spec,
            config,
            info,
            refused: process.refused(),
            process: Some(process),
            seq,
            ids_as_read: false,
            class_list: None,
            defaults_asked: Default::default(),
            scripted_asked: Default::default(),
            restarts: 0,
            findings: Vec::new(),
            incidents: Vec::new(),
        })
    }

    /// What the engine reported in its handshake.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// Where the engine came from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The running process's id (`None` between a crash and the restart at the next request).
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(Process::pid)
    }

    /// How many times the engine has been restarted after a crash or hang.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// Every request that crashed or hung this engine so far.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// Takes the findings collected so far.
    pub fn take_findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }

    /// Connections to the engine's port refused so far because they did not present the
    /// engine's secret (another local process connected first).
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// Every crash and hang so far, each with what the retries showed.
    pub fn incidents(&self) -> &[IncidentRecord] {
        &self.incidents
    }

    /// Takes the incidents recorded so far.
    pub fn take_incidents(&mut self) -> Vec<IncidentRecord> {
        std::mem::take(&mut self.incidents)
    }

    /// Serves request lines (godot_project/README.md) and answers every one, in order.
    ///
    /// A crash or hang is an incident, not yet a verdict: the request that was running is sent
    /// again, alone, to a fresh engine. Only if that engine crashes the same way (or hangs again)
    /// is the request answered [`EngineVerdict::Crashed`] / [`EngineVerdict::Hung`] and kept as a
    /// [`Finding`]; if it answers, its answer stands. A request that cannot be settled within
    /// [`SUSPECT_TRIES`] tries, and every request left when the engine cannot be (re)started, is
    /// [`EngineVerdict::Unanswered`]. Every incident is kept ([`Engine::incidents`]).
    pub(crate) fn exchange(&mut self, lines: &[String]) -> Vec<Reply> {
        let mut exchange = Exchange::new(lines.len());
        while !exchange.is_done() {
            if let Err(e) = self.ensure_running() {
                let why = format!("the engine could not be (re)started: {e}");
                self.give_up(&mut exchange, lines, &why);
                break;
            }
            let process = self.process.as_mut().expect("started above");
            self.seq += 1;
            let batch = exchange.batch();
            let texts: Vec<&str> = batch.iter().map(|&i| lines[i].as_str()).collect();
            match round(process, self.seq, &texts, self.config.timeout) {
                Round::Done(answers) => {
                    if let Some(s) = exchange.answered(&batch, answers) {
                        self.settle(lines, &s, Resolution::AnsweredOnRetry);
                    }
                }
                Round::Incident {
                    index: Some(k),
                    verdict,
                } => {
                    self.process = None;
                    if let Some((s, resolution)) = exchange.incident_on(batch[k], verdict) {
                        let answer = self.final_verdict(lines, &s, resolution);
                        self.settle(lines, &s, resolution);
                        exchange.answer(s.index, Reply::Verdict(answer));
                    }
                }
                Round::Incident {
                    index: None,
                    verdict,
                } => {
                    // Died or stuck before starting any request: try a fresh engine, a few times.
                    self.process = None;
                    self.record_restart(&verdict);
                    if exchange.stalled() {
                        let why = format!(
                            "the engine fails before serving any request: {}",
                            describe_verdict(&verdict)
                        );
                        self.give_up(&mut exchange, lines, &why);
                    }
                }
            }
        }
        exchange.finish()
    }

    /// The answer of a request settled after incidents: the first incident's verdict, kept as a
    /// finding, when a fresh engine repeated it; else unanswered.
    fn final_verdict(
        &mut self,
        lines: &[String],
        s: &Suspect,
        resolution: Resolution,
    ) -> EngineVerdict {
        if resolution != Resolution::Reproduced {
            return EngineVerdict::Unanswered(format!(
                "{SUSPECT_TRIES} tries ended in crashes or hangs that did not repeat"
            ));
        }
        self.findings.push(Finding {
            engine: self.spec.name.clone(),
            version: self.info.version.clone(),
            request: lines[s.index].clone(),
            verdict: s.first.clone(),
        });
        s.first.clone()
    }

    /// Keeps an incident between requests: the engine is started again, nothing lost.
    fn record_restart(&mut self, verdict: &EngineVerdict) {
        if let EngineVerdict::Crashed(incident) | EngineVerdict::Hung(incident) = verdict {
            self.incidents.push(IncidentRecord {
                request: None,
                hung: matches!(verdict, EngineVerdict::Hung(_)),
                incident: incident.clone(),
                resolution: Resolution::Restarted,
            });
        }
    }

    /// Every request left is unanswered for `why`; a suspect still being tried is settled so.
    fn give_up(&mut self, exchange: &mut Exchange, lines: &[String], why: &str) {
        if let Some(s) = exchange.fail_all(why) {
            self.settle(lines, &s, Resolution::Unanswered);
        }
    }

    /// Starts the engine again if it is not running, trying up to [`START_TRIES`] times (an
    /// engine killed from outside while it starts is not a reason to give up).
    fn ensure_running(&mut self) -> Result<(), OracleError> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut tries = 0;
        loop {
            match launch(&self.spec, &self.config, &mut self.seq) {
                Ok((p, _)) => {
                    self.restarts += 1;
                    self.refused += p.refused();
                    self.process = Some(p);
                    return Ok(());
                }
                Err(e) => {
                    tries += 1;
                    if tries >= START_TRIES {
                        return Err(e);
                    }
                }
            }
        }
    }

    fn settle(&mut self, lines: &[String], s: &Suspect, resolution: Resolution) {
        let (hung, incident) = match &s.first {
            EngineVerdict::Hung(i) => (true, i.clone()),
            EngineVerdict::Crashed(i) => (false, i.clone()),
            _ => return,
        };
        self.incidents.push(IncidentRecord {
            request: Some(lines[s.index].clone()),
            hung,
            incident,
            resolution,
        });
    }
}

fn describe_verdict(v: &EngineVerdict) -> String {
    match v {
        EngineVerdict::Crashed(i) => i.status.clone(),
        EngineVerdict::Hung(i) => format!("no progress for {:.1} s", i.after.as_secs_f64()),
        other => format!("{other:?}"),
    }
}

/// Starts a process and completes the handshake.
fn launch(
    spec: &EngineSpec,
    config: &EngineConfig,
    seq: &mut u64,
) -> Result<(Process, EngineInfo), OracleError> {
    let mut process = Process::spawn(spec, config)?;
    *seq += 1;
    let answer = match round(&mut process, *seq, &[HELLO], config.start_timeout) {
        Round::Done(mut answers) => answers.remove(0),
        Round::Incident { verdict, .. } => {
            return Err(OracleError::Handshake(format!("{verdict:?}")));
        }
    };
    let json = match answer {
        Reply::Line { json: Ok(j), .. } => j,
        other => return Err(OracleError::Handshake(format!("{other:?}"))),
    };
    Ok((process, engine_info(&json)?))
}

/// What ends the version of a double-precision build (`4.6.3.stable-double`).
pub const DOUBLE_SUFFIX: &str = "-double";

/// The oracle protocol version this host speaks (godot_project/README.md).
pub(crate) const PROTOCOL: u64 = 3;

fn engine_info(hello: &Value) -> Result<EngineInfo, OracleError> {
    let protocol = hello.get("protocol").and_then(Value::as_u64);
    if protocol != Some(PROTOCOL) {
        return Err(OracleError::Handshake(format!(
            "the engine's oracle speaks protocol {protocol:?}, this host {PROTOCOL}: the oracle project is out of date"
        )));
    }
    let v = hello
        .get("version")
        .ok_or_else(|| OracleError::Handshake(format!("no version in {hello}")))?;
    let num = |k: &str| v.get(k).and_then(|n| n.as_f64()).map(|n| n as u32);
    let (Some(major), Some(minor), Some(patch)) = (num("major"), num("minor"), num("patch")) else {
        return Err(OracleError::Handshake(format!("unreadable version {v}")));
    };
    let status = v.get("status").and_then(Value::as_str).unwrap_or("");
    let double_reals = hello
        .get("double_reals")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    // A double-precision build answers in another profile: it is another engine version for the
    // corpus, the expected failures and the logs (`4.6.3.stable-double`).
    let suffix = if double_reals { DOUBLE_SUFFIX } else { "" };
    let version = format!("{major}.{minor}.{patch}.{status}{suffix}");
    let (profile, profile_exact) = match format!("{major}.{minor}").parse::<Profile>() {
        Ok(p) => (p, true),
        Err(_) => match major.to_string().parse::<Profile>() {
            Ok(p) => (p, false),
            Err(_) => return Err(OracleError::UnknownVersion(version)),
        },
    };
    // A 3.x double-precision build writes bytes no profile describes (`Profile::double`).
    let profile = match (double_reals, profile.double()) {
        (false, _) => profile,
        (true, Some(double)) => double,
        (true, None) => return Err(OracleError::UnknownVersion(version)),
    };
    Ok(EngineInfo {
        version,
        version_string: v
            .get("string")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        major,
        minor,
        double_reals,
        profile,
        profile_exact,
    })
}
