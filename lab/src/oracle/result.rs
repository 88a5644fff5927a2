//! What the oracle answers for one request.

use crate::model::{Incident, IncidentRecord, Resolution, Unsupported};

use gdmarshal::value::Variant;

/// How one request ended.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineVerdict {
    /// Decode: the engine accepted the bytes. Encode: the engine built the value and encoded it.
    Accepted,
    /// Decode: the engine rejected the bytes (`bytes_to_var` failed).
    Rejected,
    /// Encode: the value cannot be built inside this engine from GDScript (the reason says why,
    /// e.g. an object known only by its instance id).
    Unsupported(Unsupported),
    /// The engine process died while serving this request, and a fresh engine died on it
    /// again the same way: an engine defect this input causes.
    Crashed(Incident),
    /// The engine made no progress on this request within the timeout, and a fresh engine hung
    /// on it again: an engine defect this input causes.
    Hung(Incident),
    /// Nobody could answer: the engine would not start, kept dying before it got to the request,
    /// died in ways that never repeated, broke the protocol, or (decode) refused to take the
    /// request. Never a verdict about the input; runs count these and fail.
    Unanswered(String),
}

impl EngineVerdict {
    /// Whether the request (reproducibly) crashed or hung the engine.
    pub fn is_incident(&self) -> bool {
        matches!(self, EngineVerdict::Crashed(_) | EngineVerdict::Hung(_))
    }

    /// Whether nobody could answer the request.
    pub fn is_unanswered(&self) -> bool {
        matches!(self, EngineVerdict::Unanswered(_))
    }
}

/// The answer to a decode request.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeResult {
    /// Accepted, rejected, or what went wrong.
    pub verdict: EngineVerdict,
    /// The decoded value (accepted only), from the engine's tree.
    pub value: Option<Variant>,
    /// The decoded value as the engine wrote it (tagged JSON, floats as `0x` bits).
    pub tree: Option<serde_json::Value>,
    /// How many bytes the engine's decoder consumed (accepted only; `None` when 3.x gives no
    /// way to tell).
    pub consumed: Option<usize>,
    /// The engine encoding the decoded value again, without full objects.
    pub reencoded: Option<Vec<u8>>,
    /// The engine encoding the decoded value again, with full objects.
    pub reencoded_full: Option<Vec<u8>>,
    /// The `EncodedObjectAsID` placeholders the engine made while decoding, each as (its own
    /// instance id, the id read): `reencoded` writes the former where the input had the latter.
    pub placeholders: Vec<(u64, u64)>,
    /// What the engine printed to stderr while decoding (its error messages).
    pub error_text: String,
    /// Anything odd about the answer (e.g. a tree that does not convert to a [`Variant`]).
    pub notes: Vec<String>,
}

/// The answer to an encode request.
#[derive(Clone, Debug, PartialEq)]
pub struct EncodeResult {
    /// Accepted (built and encoded), unsupported, or what went wrong.
    pub verdict: EngineVerdict,
    /// Which encoding [`bytes`](EncodeResult::bytes) returns: the one asked for.
    pub full_objects: bool,
    /// `var_to_bytes` (3.x `var2bytes(v, false)`) of the value.
    pub plain: Option<Vec<u8>>,
    /// `var_to_bytes_with_objects` (3.x `var2bytes(v, true)`) of the value.
    pub full: Option<Vec<u8>>,
    /// The value the engine built, as the engine sees it (a dictionary with duplicate keys,
    /// for example, comes back with one entry per key).
    pub value: Option<Variant>,
    /// The objects the engine made to stand for objects asked for by their ids alone (a
    /// request with stand-ins), each as (its own instance id, the id asked): `plain` writes the
    /// former where the value has the latter.
    pub placeholders: Vec<(u64, u64)>,
    /// What the engine printed to stderr while building and encoding.
    pub error_text: String,
    /// Anything odd about the answer.
    pub notes: Vec<String>,
}

impl EncodeResult {
    /// The encoding that was asked for (with or without full objects).
    pub fn bytes(&self) -> Option<&[u8]> {
        if self.full_objects {
            self.full.as_deref()
        } else {
            self.plain.as_deref()
        }
    }
}

/// A request that crashed or hung an engine twice (on the engine that ran it and on a fresh one),
/// kept so that it is not lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The engine's name (e.g. `3.2`).
    pub engine: String,
    /// The version the engine reported.
    pub version: String,
    /// The request line as sent to the engine (JSON; see godot_project/README.md).
    pub request: String,
    /// The verdict: [`EngineVerdict::Crashed`] or [`EngineVerdict::Hung`].
    pub verdict: EngineVerdict,
}

/// Counts of a run's incidents by what became of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IncidentSummary {
    /// Crashes and hangs in all.
    pub total: usize,
    /// Of them, crashes by a signal from outside the engine.
    pub from_outside: usize,
    /// Reproduced on a fresh engine: engine defects.
    pub reproduced: usize,
    /// Answered by a fresh engine.
    pub answered_on_retry: usize,
    /// Never settled: their requests are unanswered.
    pub unanswered: usize,
    /// Between requests: the engine was restarted and nothing was lost.
    pub restarted: usize,
    /// The first incident that was not reproduced, for the message.
    pub example: Option<IncidentRecord>,
}

impl IncidentSummary {
    /// Counts `incidents`.
    pub fn of(incidents: &[IncidentRecord]) -> IncidentSummary {
        let mut s = IncidentSummary {
            total: incidents.len(),
            ..IncidentSummary::default()
        };
        for i in incidents {
            if !i.hung && i.incident.from_outside() {
                s.from_outside += 1;
            }
            match i.resolution {
                Resolution::Reproduced => s.reproduced += 1,
                Resolution::AnsweredOnRetry => s.answered_on_retry += 1,
                Resolution::Unanswered => s.unanswered += 1,
                Resolution::Restarted => s.restarted += 1,
            }
            if i.resolution != Resolution::Reproduced && s.example.is_none() {
                s.example = Some(i.clone());
            }
        }
        s
    }
}

impl std::fmt::Display for IncidentSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} engine crashes or hangs: {} reproduced on a fresh engine, {} answered on retry, {} unanswered, {} between requests; {} by a signal from outside",
            self.total,
            self.reproduced,
            self.answered_on_retry,
            self.unanswered,
            self.restarted,
            self.from_outside
        )?;
        if let Some(e) = &self.example {
            write!(f, " (e.g. {e})")?;
        }
        Ok(())
    }
}
