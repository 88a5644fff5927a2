//! Why a case was not compared, as data; `Display` is the message people read.

use std::fmt;

/// Why a case was not compared.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipReason {
    /// The engine crashed on the case: no answer to compare with.
    EngineCrashed,
    /// The engine hung on the case.
    EngineHung,
    /// The engine cannot build the value from a script.
    EngineUnsupported,
    /// The engine's verdict differs between runs.
    EngineVerdictNondeterministic,
    /// The engine writes different bytes on each run.
    EngineOutputNondeterministic,
    /// The implementation skipped the case, for this reason.
    Implementation(String),
    /// The implementation skipped re-encoding the value it decoded, for this reason.
    Reencoding(String),
    /// The implementation's handshake does not declare what the case needs.
    Undeclared(Undeclared),
}

/// What a testee's handshake leaves out that a case needs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Undeclared {
    /// The engine version (e.g. `4.6`).
    Version(String),
    /// The direction (`decode` or `encode`).
    Direction(String),
    /// These types (canonical names).
    Types(Vec<String>),
    /// JSON nested deeper than the testee's declared `max_json_depth`.
    JsonDepth {
        /// The deepest JSON the case sends or asks for (levels of objects and arrays).
        needs: usize,
        /// The testee's declared limit.
        max: usize,
    },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::EngineCrashed => f.write_str("the engine crashed on this case"),
            SkipReason::EngineHung => f.write_str("the engine hung on this case"),
            SkipReason::EngineUnsupported => {
                f.write_str("the engine cannot build this value from a script")
            }
            SkipReason::EngineVerdictNondeterministic => {
                f.write_str("the engine's verdict differs between runs")
            }
            SkipReason::EngineOutputNondeterministic => {
                f.write_str("the engine writes different bytes on each run")
            }
            SkipReason::Implementation(why) => write!(f, "skipped by the implementation: {why}"),
            SkipReason::Reencoding(why) => {
                write!(f, "re-encoding skipped by the implementation: {why}")
            }
            SkipReason::Undeclared(u) => write!(f, "{u}"),
        }
    }
}

impl fmt::Display for Undeclared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Undeclared::Version(v) => write!(f, "the testee does not declare Godot {v}"),
            Undeclared::Direction(d) => write!(f, "the testee does not declare {d}"),
            Undeclared::Types(t) => write!(f, "the testee does not declare type {}", t.join(", ")),
            Undeclared::JsonDepth { needs, max } => write!(
                f,
                "the case's JSON nests {needs} levels, deeper than the testee's max_json_depth {max}"
            ),
        }
    }
}
