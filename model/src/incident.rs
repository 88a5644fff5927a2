//! An engine's crash or hang, and what became of the request that was running: what the oracle
//! reports and an answer or a drift check carries.

use std::time::Duration;

/// What is known about an engine crash or hang.
#[derive(Clone, Debug, PartialEq)]
pub struct Incident {
    /// How the process ended, e.g. `killed by signal 11 (SIGSEGV)`.
    pub status: String,
    /// The signal that ended the process, if one did (for a hang: the host's own SIGKILL).
    pub signal: Option<i32>,
    /// The engine's stderr from the start of the request to its end (crash handler output
    /// included).
    pub stderr: String,
    /// Time from the start of the request to the crash, or the timeout that expired.
    pub after: Duration,
}

/// Signals no input can make an engine raise on itself: a process that dies of one was killed
/// from outside (by a user, a supervisor or the kernel's out-of-memory killer).
const OUTSIDE_SIGNALS: [i32; 5] = [1, 2, 9, 15, 3]; // SIGHUP SIGINT SIGKILL SIGTERM SIGQUIT

impl Incident {
    /// Whether a crash came from outside the engine (a signal no input makes it raise), so that
    /// it says nothing about the request that was running.
    pub fn from_outside(&self) -> bool {
        self.signal.is_some_and(|s| OUTSIDE_SIGNALS.contains(&s))
    }
}

/// What became of a request that was running when its engine crashed or hung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A fresh engine crashed or hung on it the same way: an engine defect (the lab's `oracle::Finding`).
    Reproduced,
    /// A fresh engine answered it: the incident was not this input's doing.
    AnsweredOnRetry,
    /// It could not be settled within the retries: the request is unanswered (the lab's `oracle::EngineVerdict::Unanswered`).
    Unanswered,
    /// No request was running (the engine died or stopped between requests, or before the
    /// first one of a batch): the engine was started again and the batch sent again.
    Restarted,
}

/// One crash or hang of an engine, and what became of the request that was running.
#[derive(Clone, Debug, PartialEq)]
pub struct IncidentRecord {
    /// The request line that was running (none between requests).
    pub request: Option<String>,
    /// Whether the engine hung (else it crashed).
    pub hung: bool,
    /// The first incident on that request.
    pub incident: Incident,
    /// What the retries on fresh engines showed.
    pub resolution: Resolution,
}

impl std::fmt::Display for IncidentRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.hung && self.resolution == Resolution::Restarted {
            format!(
                "engine stopped answering for {:.1} s",
                self.incident.after.as_secs_f64()
            )
        } else if self.hung {
            format!("engine hung for {:.1} s", self.incident.after.as_secs_f64())
        } else if self.incident.from_outside() {
            format!("engine {}, not by this input", self.incident.status)
        } else {
            format!("engine {}", self.incident.status)
        };
        let then = match self.resolution {
            Resolution::Reproduced => "a fresh engine did it again: engine defect",
            Resolution::AnsweredOnRetry => "retried on a fresh engine, which answered",
            Resolution::Unanswered => "retries did not settle it: unanswered",
            Resolution::Restarted => "between requests; restarted, nothing lost",
        };
        write!(f, "{what}; {then}")
    }
}
