//! One corpus line: a case and one engine's answer to it, as plain JSON (docs/corpus.md).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the engine answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Decoded the bytes / built and encoded the value.
    Accepted,
    /// Refused the bytes.
    Rejected,
    /// Cannot build the value from a script (encode only).
    Unsupported,
    /// The engine died on this input.
    Crashed,
    /// The engine stopped answering on this input.
    Hung,
}

/// One case and one engine's answer: one line of `corpus/godot-VERSION.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Stable hierarchical name, e.g. `decode/truncated/int/1/at_3`.
    pub name: String,
    /// `decode` or `encode`.
    pub direction: String,
    /// Decode: the input bytes as hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Encode: the value to build, as tagged JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Decode with objects allowed / encode with full objects.
    pub objects: bool,
    /// The engine's answer.
    pub verdict: Verdict,
    /// Decode: bytes consumed (absent when the engine gives no way to tell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumed: Option<usize>,
    /// Decode: the decoded value. Encode: the value as the engine built it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Value>,
    /// Decode: the engine's re-encoding of the decoded value (hex; full objects when `objects`).
    /// Encode: the engine's encoding (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Fields whose content differed between two runs of the same case, so they are not compared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nondeterministic: Vec<String>,
    /// What the engine printed while answering (error messages; not compared).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub error: String,
}

impl Record {
    /// The fields that must match between two answers to the same case: everything but the error
    /// text and the fields either answer marks nondeterministic. Returns the differing field names.
    pub fn differences(&self, other: &Record) -> Vec<&'static str> {
        let skip = |f: &str| {
            self.nondeterministic
                .iter()
                .chain(&other.nondeterministic)
                .any(|n| n == f)
        };
        let mut out = Vec::new();
        if self.verdict != other.verdict {
            out.push("verdict");
        }
        if self.consumed != other.consumed && !skip("consumed") {
            out.push("consumed");
        }
        if self.tree != other.tree && !skip("tree") {
            out.push("tree");
        }
        if self.output != other.output && !skip("output") {
            out.push("output");
        }
        out
    }

    /// Whether the record holds an answer an implementation can be compared with: not a case
    /// the engine crashed or hung on or could not build, nor one whose verdict changed between
    /// runs.
    pub fn comparable(&self) -> bool {
        !matches!(
            self.verdict,
            Verdict::Crashed | Verdict::Hung | Verdict::Unsupported
        ) && !self.nondeterministic.iter().any(|f| f == "verdict")
    }

    /// Whether the case is an invalid input (the engine refused, crashed or hung on it).
    pub fn is_invalid(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Rejected | Verdict::Crashed | Verdict::Hung
        )
    }
}
