//! [`Engine`]: one engine process serving batches of requests, restarted when it crashes or
//! hangs, with every request answered.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::discover::EngineSpec;
use super::error::OracleError;
use super::process::Process;
use super::requests::{Answer, HELLO};
use super::result::{Finding, Verdict};
use super::round::{Round, round};
use gdmarshal::profile::Profile;

/// How an engine is run.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The longest one request may take (measured from the engine starting it) before the
    /// engine counts as hung and is killed.
    pub timeout: Duration,
    /// The longest an engine may take to start and answer the handshake.
    pub start_timeout: Duration,
    /// The oracle's Godot project (a scratch copy of it is what the engine opens).
    pub project: PathBuf,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            timeout: Duration::from_secs(10),
            start_timeout: Duration::from_secs(60),
            project: default_project(),
        }
    }
}

/// The oracle's Godot project: `GDMARSHAL_ORACLE_PROJECT` if set, else `godot_project/` in this
/// crate's source tree.
pub fn default_project() -> PathBuf {
    match std::env::var_os("GDMARSHAL_ORACLE_PROJECT") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::repo_root().join("godot_project"),
    }
}

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
}

impl Engine {
    /// Starts the engine and reads its version.
    pub fn start(spec: EngineSpec, config: EngineConfig) -> Result<Engine, OracleError> {
        let mut seq = 0;
        let (process, info) = launch(&spec, &config, &mut seq)?;
        Ok(Engine {
            spec,
            config,
            info,
            process: Some(process),
            seq,
            restarts: 0,
            findings: Vec::new(),
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

    /// Serves request lines (godot_project/README.md) and answers every one, in order.
    ///
    /// A request that crashes or hangs the engine is answered [`Verdict::Crashed`] or
    /// [`Verdict::Hung`] and kept as a [`Finding`]; the engine is restarted and the rest of the
    /// batch (the requests it had already served too, whose answers died with it) is sent again.
    pub(crate) fn exchange(&mut self, lines: &[String]) -> Vec<Answer> {
        let mut out: Vec<Option<Answer>> = (0..lines.len()).map(|_| None).collect();
        let mut pending: Vec<usize> = (0..lines.len()).collect();
        let mut fruitless = 0;
        while !pending.is_empty() {
            if self.process.is_none() {
                match launch(&self.spec, &self.config, &mut self.seq) {
                    Ok((p, _)) => {
                        self.restarts += 1;
                        self.process = Some(p);
                    }
                    Err(e) => {
                        let why = format!("the engine could not be restarted: {e}");
                        fail_all(&mut out, &mut pending, &why);
                        break;
                    }
                }
            }
            let process = self.process.as_mut().expect("started above");
            self.seq += 1;
            let batch: Vec<&str> = pending.iter().map(|&i| lines[i].as_str()).collect();
            match round(process, self.seq, &batch, self.config.timeout) {
                Round::Done(answers) => {
                    for (k, answer) in answers.into_iter().enumerate() {
                        out[pending[k]] = Some(answer);
                    }
                    pending.clear();
                }
                Round::Incident {
                    index: Some(k),
                    verdict,
                } => {
                    self.process = None;
                    let i = pending.remove(k);
                    self.findings.push(Finding {
                        engine: self.spec.name.clone(),
                        version: self.info.version.clone(),
                        request: lines[i].clone(),
                        verdict: verdict.clone(),
                    });
                    out[i] = Some(Answer::Verdict(verdict));
                    fruitless = 0;
                }
                Round::Incident {
                    index: None,
                    verdict,
                } => {
                    // Died or stuck before starting any request: retry once on a fresh engine.
                    self.process = None;
                    fruitless += 1;
                    if fruitless >= 2 {
                        let why =
                            format!("the engine fails before serving any request: {verdict:?}");
                        fail_all(&mut out, &mut pending, &why);
                    }
                }
            }
        }
        out.into_iter()
            .map(|a| a.expect("every request is answered"))
            .collect()
    }
}

fn fail_all(out: &mut [Option<Answer>], pending: &mut Vec<usize>, why: &str) {
    for i in pending.drain(..) {
        out[i] = Some(Answer::Verdict(Verdict::Failed(why.to_string())));
    }
}

/// Starts a process and completes the handshake.
fn launch(
    spec: &EngineSpec,
    config: &EngineConfig,
    seq: &mut u64,
) -> Result<(Process, EngineInfo), OracleError> {
    let mut process = Process::spawn(spec, &config.project, config.start_timeout)?;
    *seq += 1;
    let answer = match round(&mut process, *seq, &[HELLO], config.start_timeout) {
        Round::Done(mut answers) => answers.remove(0),
        Round::Incident { verdict, .. } => {
            return Err(OracleError::Handshake(format!("{verdict:?}")));
        }
    };
    let json = match answer {
        Answer::Line { json: Ok(j), .. } => j,
        other => return Err(OracleError::Handshake(format!("{other:?}"))),
    };
    Ok((process, engine_info(&json)?))
}

fn engine_info(hello: &Value) -> Result<EngineInfo, OracleError> {
    let v = hello
        .get("version")
        .ok_or_else(|| OracleError::Handshake(format!("no version in {hello}")))?;
    let num = |k: &str| v.get(k).and_then(|n| n.as_f64()).map(|n| n as u32);
    let (Some(major), Some(minor), Some(patch)) = (num("major"), num("minor"), num("patch")) else {
        return Err(OracleError::Handshake(format!("unreadable version {v}")));
    };
    let status = v.get("status").and_then(Value::as_str).unwrap_or("");
    let version = format!("{major}.{minor}.{patch}.{status}");
    let double_reals = hello
        .get("double_reals")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (profile, profile_exact) = match format!("{major}.{minor}").parse::<Profile>() {
        Ok(p) => (p, true),
        Err(_) => match major.to_string().parse::<Profile>() {
            Ok(p) => (p, false),
            Err(_) => return Err(OracleError::UnknownVersion(version)),
        },
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
        profile: if double_reals {
            profile.double()
        } else {
            profile
        },
        profile_exact,
    })
}
